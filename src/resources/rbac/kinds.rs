//! The four RBAC resources (`pkg/registry/rbac/*`): their entries, strategies (defaults and
//! validation) and printers (`pkg/printers/internalversion`: roles print the default
//! `Created At`; bindings print `Role`, `Age` and, wide, the subjects).

use serde_json::{Map, Value};

use super::authority::Requester;
use super::escalation::{check_binding_write, check_role_write};
use super::schema::{CLUSTER_ROLE, CLUSTER_ROLE_BINDING, ROLE, ROLE_BINDING};
use super::validation::{
    default_binding, validate_binding, validate_binding_update, validate_role,
    validate_role_update, GROUP,
};
use crate::resources::field::FieldError;
use crate::resources::meta::str_at;
use crate::resources::status::ApiResult;
use crate::resources::{Column, ListDocs, Printer, ResourceInfo, Strategy, CRUD_VERBS};

const LIST_META_DOC: &str = "Standard object's metadata.";

/// rbac.authorization.k8s.io/v1 clusterrolebindings.
pub static CLUSTER_ROLE_BINDINGS: ResourceInfo = ResourceInfo {
    group: GROUP,
    version: "v1",
    kind: "ClusterRoleBinding",
    plural: "clusterrolebindings",
    singular: "clusterrolebinding",
    short_names: &[],
    categories: &[],
    storage_version: None,
    namespaced: false,
    verbs: CRUD_VERBS,
    subresources: &[],
    schema: &CLUSTER_ROLE_BINDING,
    strategy: &BindingStrategy { namespaced: false },
    extra_field_labels: &[],
    protobuf: true,
    list_docs: ListDocs {
        description: "ClusterRoleBindingList is a collection of ClusterRoleBindings",
        items: "Items is a list of ClusterRoleBindings",
        metadata: LIST_META_DOC,
    },
    custom: None,
};

/// rbac.authorization.k8s.io/v1 clusterroles.
pub static CLUSTER_ROLES: ResourceInfo = ResourceInfo {
    group: GROUP,
    version: "v1",
    kind: "ClusterRole",
    plural: "clusterroles",
    singular: "clusterrole",
    short_names: &[],
    categories: &[],
    storage_version: None,
    namespaced: false,
    verbs: CRUD_VERBS,
    subresources: &[],
    schema: &CLUSTER_ROLE,
    strategy: &RoleStrategy { namespaced: false },
    extra_field_labels: &[],
    protobuf: true,
    list_docs: ListDocs {
        description: "ClusterRoleList is a collection of ClusterRoles",
        items: "Items is a list of ClusterRoles",
        metadata: LIST_META_DOC,
    },
    custom: None,
};

/// rbac.authorization.k8s.io/v1 rolebindings.
pub static ROLE_BINDINGS: ResourceInfo = ResourceInfo {
    group: GROUP,
    version: "v1",
    kind: "RoleBinding",
    plural: "rolebindings",
    singular: "rolebinding",
    short_names: &[],
    categories: &[],
    storage_version: None,
    namespaced: true,
    verbs: CRUD_VERBS,
    subresources: &[],
    schema: &ROLE_BINDING,
    strategy: &BindingStrategy { namespaced: true },
    extra_field_labels: &[],
    protobuf: true,
    list_docs: ListDocs {
        description: "RoleBindingList is a collection of RoleBindings",
        items: "Items is a list of RoleBindings",
        metadata: LIST_META_DOC,
    },
    custom: None,
};

/// rbac.authorization.k8s.io/v1 roles.
pub static ROLES: ResourceInfo = ResourceInfo {
    group: GROUP,
    version: "v1",
    kind: "Role",
    plural: "roles",
    singular: "role",
    short_names: &[],
    categories: &[],
    storage_version: None,
    namespaced: true,
    verbs: CRUD_VERBS,
    subresources: &[],
    schema: &ROLE,
    strategy: &RoleStrategy { namespaced: true },
    extra_field_labels: &[],
    protobuf: true,
    list_docs: ListDocs {
        description: "RoleList is a collection of Roles",
        items: "Items is a list of Roles",
        metadata: LIST_META_DOC,
    },
    custom: None,
};

/// Role and ClusterRole: validation only (the real strategies change nothing).
#[derive(Debug)]
pub struct RoleStrategy {
    namespaced: bool,
}

impl Strategy for RoleStrategy {
    fn allow_create_on_update(&self) -> bool {
        true
    }

    fn validate_create(
        &self,
        obj: &Map<String, Value>,
        _sent: &crate::resources::Sent,
    ) -> Vec<FieldError> {
        validate_role(obj, self.namespaced, false)
    }

    fn validate_update(
        &self,
        new: &Map<String, Value>,
        old: &Map<String, Value>,
    ) -> Vec<FieldError> {
        validate_role_update(new, old, self.namespaced)
    }

    fn check_write(
        &self,
        info: &ResourceInfo,
        by: &Requester<'_>,
        new: &Map<String, Value>,
        old: Option<&Map<String, Value>>,
    ) -> ApiResult<()> {
        check_role_write(info, by, new, old)
    }
}

/// RoleBinding and ClusterRoleBinding: defaulted API groups, immutable `roleRef`.
#[derive(Debug)]
pub struct BindingStrategy {
    namespaced: bool,
}

impl Strategy for BindingStrategy {
    fn allow_create_on_update(&self) -> bool {
        true
    }

    fn default(&self, obj: &mut Map<String, Value>) {
        default_binding(obj);
    }

    fn validate_create(
        &self,
        obj: &Map<String, Value>,
        _sent: &crate::resources::Sent,
    ) -> Vec<FieldError> {
        validate_binding(obj, self.namespaced)
    }

    fn validate_update(
        &self,
        new: &Map<String, Value>,
        old: &Map<String, Value>,
    ) -> Vec<FieldError> {
        validate_binding_update(new, old, self.namespaced)
    }

    fn check_write(
        &self,
        info: &ResourceInfo,
        by: &Requester<'_>,
        new: &Map<String, Value>,
        old: Option<&Map<String, Value>>,
    ) -> ApiResult<()> {
        check_binding_write(info, by, new, old)
    }

    fn printer(&self) -> Option<&'static dyn Printer> {
        Some(if self.namespaced {
            &ROLE_BINDING_PRINTER
        } else {
            &CLUSTER_ROLE_BINDING_PRINTER
        })
    }
}

/// The binding printers: `Role` (`Kind/name`), `Age`, then wide `Users`, `Groups`,
/// `ServiceAccounts`.
#[derive(Debug)]
pub struct BindingPrinter {
    columns: &'static [Column],
}

static ROLE_BINDING_PRINTER: BindingPrinter = BindingPrinter {
    columns: ROLE_BINDING_COLUMNS,
};
static CLUSTER_ROLE_BINDING_PRINTER: BindingPrinter = BindingPrinter {
    columns: CLUSTER_ROLE_BINDING_COLUMNS,
};

// The printer takes these from the v1beta1 types' docs, which lack v1's "This field is
// immutable." sentence.
const ROLE_REF_DOC: &str = "RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.";
const CLUSTER_ROLE_REF_DOC: &str = "RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.";

static ROLE_BINDING_COLUMNS: &[Column] = &[
    Column {
        name: "Role",
        ty: "string",
        format: "",
        description: ROLE_REF_DOC,
        priority: 0,
    },
    Column {
        name: "Users",
        ty: "string",
        format: "",
        description: "Users in the roleBinding",
        priority: 1,
    },
    Column {
        name: "Groups",
        ty: "string",
        format: "",
        description: "Groups in the roleBinding",
        priority: 1,
    },
    Column {
        name: "ServiceAccounts",
        ty: "string",
        format: "",
        description: "ServiceAccounts in the roleBinding",
        priority: 1,
    },
];

static CLUSTER_ROLE_BINDING_COLUMNS: &[Column] = &[
    Column {
        name: "Role",
        ty: "string",
        format: "",
        description: CLUSTER_ROLE_REF_DOC,
        priority: 0,
    },
    Column {
        name: "Users",
        ty: "string",
        format: "",
        description: "Users in the clusterRoleBinding",
        priority: 1,
    },
    Column {
        name: "Groups",
        ty: "string",
        format: "",
        description: "Groups in the clusterRoleBinding",
        priority: 1,
    },
    Column {
        name: "ServiceAccounts",
        ty: "string",
        format: "",
        description: "ServiceAccounts in the clusterRoleBinding",
        priority: 1,
    },
];

/// `rbac.SubjectsStrings`: users, groups and service accounts (`namespace/name`).
fn subjects_strings(obj: &Value) -> [String; 3] {
    let (mut users, mut groups, mut sas) = (Vec::new(), Vec::new(), Vec::new());
    for s in obj["subjects"].as_array().into_iter().flatten() {
        let name = str_at(s, "name");
        match str_at(s, "kind") {
            "User" => users.push(name.to_string()),
            "Group" => groups.push(name.to_string()),
            "ServiceAccount" => sas.push(format!("{}/{name}", str_at(s, "namespace"))),
            _ => {}
        }
    }
    [users.join(", "), groups.join(", "), sas.join(", ")]
}

impl Printer for BindingPrinter {
    fn columns(&self) -> &'static [Column] {
        self.columns
    }

    fn age_after(&self) -> usize {
        1
    }

    fn cells(&self, obj: &Value, _now_ms: i64) -> Vec<Value> {
        let r = &obj["roleRef"];
        let role = format!("{}/{}", str_at(r, "kind"), str_at(r, "name"));
        let mut cells = vec![Value::String(role)];
        cells.extend(subjects_strings(obj).into_iter().map(Value::String));
        cells
    }
}
