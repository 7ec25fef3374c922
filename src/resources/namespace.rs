//! core/v1 Namespace: defaults and update rules (`pkg/registry/core/namespace/strategy.go`).
//!
//! A new namespace is `Active` with the `kubernetes` finalizer and the
//! `kubernetes.io/metadata.name` label; spec and status cannot be changed through the main
//! resource (they are owned by the `finalize` and `status` subresources).

use serde_json::{json, Map, Value};

use super::field::{FieldError, FieldPath};
use super::meta::meta_map;
use super::meta::meta_str;
use super::schema::{
    always, f, req, ListType, MapKey, Struct, Type, API_VERSION_FIELD, KIND_FIELD, METADATA_FIELD,
};
use super::validation::names::is_qualified_name;
use super::validation::object_meta::validate_object_meta;
use super::validation::validate_namespace_name;
use super::{Column, ListDocs, Printer, ResourceInfo, Strategy, Subresource, LIST_META_MORE};

/// The finalizer the namespace controller owns.
pub const KUBERNETES_FINALIZER: &str = "kubernetes";
/// The label every namespace carries with its own name.
pub const METADATA_NAME_LABEL: &str = "kubernetes.io/metadata.name";

/// Finalizer names that need no domain prefix.
const STANDARD_FINALIZERS: &[&str] = &["kubernetes", "orphan", "foregroundDeletion"];

/// core/v1 namespaces.
pub static NAMESPACES: ResourceInfo = ResourceInfo {
    group: "",
    version: "v1",
    kind: "Namespace",
    plural: "namespaces",
    singular: "namespace",
    short_names: &["ns"],
    categories: &[],
    storage_version: None,
    namespaced: false,
    verbs: &[
        "create", "delete", "get", "list", "patch", "update", "watch",
    ],
    subresources: &[
        Subresource {
            name: "finalize",
            verbs: &["update"],
        },
        Subresource {
            name: "status",
            verbs: &["get", "patch", "update"],
        },
    ],
    schema: &NAMESPACE,
    strategy: &NamespaceStrategy,
    extra_field_labels: &["status.phase"],
    protobuf: true,
    list_docs: ListDocs {
        description: "NamespaceList is a list of Namespaces.",
        items: "Items is the list of Namespace objects in the list. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/namespaces/",
        metadata: LIST_META_MORE,
    },
    custom: None,
};

/// core/v1 `NamespaceSpec`.
pub static NAMESPACE_SPEC: Struct = Struct {
    openapi_name: "io.k8s.api.core.v1.NamespaceSpec",
    atomic: false,
    description: "NamespaceSpec describes the attributes on a Namespace.",
    fields: &[f(
        "finalizers",
        Type::Array(&Type::String, ListType::Atomic),
        "Finalizers is an opaque list of values that must be empty to permanently remove object from storage. More info: https://kubernetes.io/docs/tasks/administer-cluster/namespaces/",
    ).go("v1.FinalizerName").pb(1)],
};

/// core/v1 `NamespaceCondition`.
pub static NAMESPACE_CONDITION: Struct = Struct {
    openapi_name: "io.k8s.api.core.v1.NamespaceCondition",
    atomic: false,
    description: "NamespaceCondition contains details about state of namespace.",
    fields: &[
        req(
            "type",
            Type::String,
            "Type of namespace controller condition.",
        )
        .go("v1.NamespaceConditionType")
        .pb(1),
        req(
            "status",
            Type::String,
            "Status of the condition, one of True, False, Unknown.",
        )
        .go("v1.ConditionStatus")
        .pb(2),
        f(
            "lastTransitionTime",
            Type::DateTime,
            "Last time the condition transitioned from one status to another.",
        )
        .pb(4),
        f(
            "reason",
            Type::String,
            "Unique, one-word, CamelCase reason for the condition's last transition.",
        )
        .pb(5),
        f(
            "message",
            Type::String,
            "Human-readable message indicating details about last transition.",
        )
        .pb(6),
    ],
};

const NAMESPACE_CONDITION_T: Type = Type::Object(&NAMESPACE_CONDITION);

/// core/v1 `NamespaceStatus`.
pub static NAMESPACE_STATUS: Struct = Struct {
    openapi_name: "io.k8s.api.core.v1.NamespaceStatus",
    atomic: false,
    description: "NamespaceStatus is information about the current status of a Namespace.",
    fields: &[
        f("phase", Type::String, "Phase is the current lifecycle phase of the namespace. More info: https://kubernetes.io/docs/tasks/administer-cluster/namespaces/").go("v1.NamespacePhase").pb(1),
        f("conditions", Type::Array(&NAMESPACE_CONDITION_T, ListType::Map(&[MapKey::new("type")])), "Represents the latest available observations of a namespace's current state.").pb(2),
    ],
};

/// core/v1 `Namespace`.
pub static NAMESPACE: Struct = Struct {
    openapi_name: "io.k8s.api.core.v1.Namespace",
    atomic: false,
    description: "Namespace provides a scope for Names. Use of multiple namespaces is optional.",
    fields: &[
        KIND_FIELD,
        API_VERSION_FIELD,
        METADATA_FIELD,
        always("spec", Type::Object(&NAMESPACE_SPEC), "Spec defines the behavior of the Namespace. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status").pb(2),
        always("status", Type::Object(&NAMESPACE_STATUS), "Status describes the current status of a Namespace. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status").pb(3),
    ],
};

/// The Namespace strategy.
#[derive(Debug)]
pub struct NamespaceStrategy;

/// Sets `kubernetes.io/metadata.name` to the namespace's name (defaulting and Canonicalize).
pub fn ensure_name_label(obj: &mut Map<String, Value>) {
    let Some(meta) = obj.get_mut("metadata").and_then(Value::as_object_mut) else {
        return;
    };
    let Some(name) = meta.get("name").and_then(Value::as_str).map(str::to_string) else {
        return;
    };
    if name.is_empty() {
        return;
    }
    let labels = meta
        .entry("labels")
        .or_insert_with(|| Value::Object(Map::new()));
    if !labels.is_object() {
        *labels = Value::Object(Map::new());
    }
    if let Some(l) = labels.as_object_mut() {
        l.insert(METADATA_NAME_LABEL.to_string(), Value::String(name));
    }
}

fn spec_finalizers(obj: &Map<String, Value>) -> Vec<String> {
    super::meta::strings(obj.get("spec").and_then(|s| s.get("finalizers")))
}

/// The Namespace printer: `STATUS`, `AGE`.
#[derive(Debug)]
pub struct NamespacePrinter;

static COLUMNS: &[Column] = &[Column {
    name: "Status",
    ty: "string",
    format: "",
    description: "The status of the namespace",
    priority: 0,
}];

impl Printer for NamespacePrinter {
    fn columns(&self) -> &'static [Column] {
        COLUMNS
    }
    fn cells(&self, obj: &Value, _now_ms: i64) -> Vec<Value> {
        vec![Value::String(phase(obj))]
    }
}

fn phase(obj: &Value) -> String {
    obj.get("status")
        .and_then(|s| s.get("phase"))
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string()
}

fn has_spec_finalizers(obj: &Value) -> bool {
    obj.get("spec")
        .and_then(|s| s.get("finalizers"))
        .and_then(Value::as_array)
        .is_some_and(|a| !a.is_empty())
}

impl Strategy for NamespaceStrategy {
    fn printer(&self) -> Option<&'static dyn Printer> {
        Some(&NamespacePrinter)
    }

    /// The main resource and `finalize` reset `status`; `status` resets `spec`.
    fn reset_fields(&self, subresource: &str) -> &'static [&'static str] {
        match subresource {
            "status" => &["spec"],
            _ => &["status"],
        }
    }

    fn field_value(&self, obj: &Value, label: &str) -> Option<String> {
        (label == "status.phase").then(|| phase(obj))
    }

    /// A namespace is only removed once its `spec.finalizers` are gone too.
    fn has_kind_finalizers(&self, obj: &Value) -> bool {
        has_spec_finalizers(obj)
    }

    /// The namespace registry's Delete: a live namespace turns `Terminating`; a terminating
    /// one stays while its `spec.finalizers` remain.
    fn delete_marks_terminating(&self, obj: &Value) -> bool {
        meta_str(obj, "deletionTimestamp").is_empty() || has_spec_finalizers(obj)
    }

    fn prepare_for_terminating(&self, obj: &mut Map<String, Value>) {
        obj.insert("status".into(), json!({"phase": "Terminating"}));
    }

    fn serves_own_subresource(&self, subresource: &str) -> bool {
        subresource == "finalize"
    }

    /// `namespaces/NAME/finalize` replaces `spec.finalizers` (what the namespace controller
    /// calls once the namespace is empty); everything else is kept.
    fn update_subresource(
        &self,
        subresource: &str,
        current: &Map<String, Value>,
        request: &Map<String, Value>,
    ) -> Option<Map<String, Value>> {
        if subresource != "finalize" {
            return None;
        }
        let mut next = current.clone();
        next.insert(
            "spec".into(),
            request.get("spec").cloned().unwrap_or(Value::Null),
        );
        Some(next)
    }

    fn default(&self, obj: &mut Map<String, Value>) {
        ensure_name_label(obj);
    }

    fn prepare_for_create(&self, obj: &mut Map<String, Value>) {
        obj.insert("status".into(), json!({"phase": "Active"}));
        let mut fins = spec_finalizers(obj);
        if !fins.iter().any(|f| f == KUBERNETES_FINALIZER) {
            fins.push(KUBERNETES_FINALIZER.to_string());
        }
        obj.insert("spec".into(), json!({ "finalizers": fins }));
        ensure_name_label(obj);
    }

    /// The main resource keeps spec and status (`namespaceStrategy`); `status` keeps the
    /// spec and takes the request's status (`namespaceStatusStrategy`).
    fn prepare_for_update(
        &self,
        new: &mut Map<String, Value>,
        old: &Map<String, Value>,
        subresource: &str,
    ) {
        let kept: &[&str] = match subresource {
            "status" => &["spec"],
            _ => &["spec", "status"],
        };
        for k in kept {
            new.insert(
                k.to_string(),
                old.get(*k).cloned().unwrap_or_else(|| json!({})),
            );
        }
        ensure_name_label(new);
    }

    fn validate_create(
        &self,
        obj: &Map<String, Value>,
        _sent: &crate::resources::Sent,
    ) -> Vec<FieldError> {
        let meta = obj
            .get("metadata")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        let mut errs = validate_object_meta(&meta, false, &validate_namespace_name);
        // `validateFinalizerName` on each spec finalizer, reported at `spec.finalizers`.
        let path = FieldPath::new("spec").child("finalizers");
        for f in spec_finalizers(obj) {
            for msg in is_qualified_name(&f) {
                errs.push(FieldError::invalid(
                    path.as_str(),
                    Value::String(f.clone()),
                    &msg,
                ));
            }
            if !f.contains('/') && !STANDARD_FINALIZERS.contains(&f.as_str()) {
                errs.push(FieldError::invalid(
                    path.as_str(),
                    Value::String(f.clone()),
                    "name is neither a standard finalizer name nor is it fully qualified",
                ));
            }
        }
        errs
    }

    fn validate_update(
        &self,
        new: &Map<String, Value>,
        old: &Map<String, Value>,
    ) -> Vec<FieldError> {
        // `ValidateNamespaceUpdate`: the metadata update rules plus the full create check
        // (spec and status were copied from the old object, so only metadata can fail).
        let mut errs = super::validation::object_meta::validate_object_meta_update(
            &meta_map(new),
            &meta_map(old),
        );
        errs.extend(self.validate_create(new, &crate::resources::Sent::none()));
        errs
    }
}
