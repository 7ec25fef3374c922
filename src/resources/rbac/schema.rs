//! The RBAC types' schemas (`k8s.io/api/rbac/v1/types.go`, Go struct order, with their
//! `generated.proto` field numbers).

use crate::resources::schema::{
    always, f, req, ListType, Struct, Type, API_VERSION_FIELD, KIND_FIELD, LABEL_SELECTOR,
};

const STRING: Type = Type::String;

/// The RBAC kinds word their `metadata` more briefly than the other kinds do.
const RBAC_METADATA_FIELD: crate::resources::schema::Field = always(
    "metadata",
    Type::Object(&crate::resources::schema::OBJECT_META),
    "Standard object's metadata.",
)
.pb(1);
const STRINGS: Type = Type::Array(&STRING, ListType::Atomic);

/// `rbacv1.PolicyRule`.
pub static POLICY_RULE: Struct = Struct {
    openapi_name: "io.k8s.api.rbac.v1.PolicyRule",
    atomic: false,
    description: "PolicyRule holds information that describes a policy rule, but does not contain information about who the rule applies to or which namespace the rule applies to.",
    fields: &[
        req("verbs", STRINGS, "Verbs is a list of Verbs that apply to ALL the ResourceKinds contained in this rule. '*' represents all verbs.").pb(1),
        f("apiGroups", STRINGS, "APIGroups is the name of the APIGroup that contains the resources.  If multiple API groups are specified, any action requested against one of the enumerated resources in any API group will be allowed. \"\" represents the core API group and \"*\" represents all API groups.").pb(2),
        f("resources", STRINGS, "Resources is a list of resources this rule applies to. '*' represents all resources.").pb(3),
        f("resourceNames", STRINGS, "ResourceNames is an optional white list of names that the rule applies to.  An empty set means that everything is allowed.").pb(4),
        f("nonResourceURLs", STRINGS, "NonResourceURLs is a set of partial urls that a user should have access to.  *s are allowed, but only as the full, final step in the path Since non-resource URLs are not namespaced, this field is only applicable for ClusterRoles referenced from a ClusterRoleBinding. Rules can either apply to API resources (such as \"pods\" or \"secrets\") or non-resource URL paths (such as \"/api\"),  but not both.").pb(5),
    ],
};

const RULE: Type = Type::Object(&POLICY_RULE);
const RULES_DOC_ROLE: &str = "Rules holds all the PolicyRules for this Role";

/// `rbacv1.Subject`.
pub static SUBJECT: Struct = Struct {
    openapi_name: "io.k8s.api.rbac.v1.Subject",
    atomic: true,
    description: "Subject contains a reference to the object or user identities a role binding applies to.  This can either hold a direct API object reference, or a value for non-objects such as user and group names.",
    fields: &[
        req("kind", Type::String, "Kind of object being referenced. Values defined by this API group are \"User\", \"Group\", and \"ServiceAccount\". If the Authorizer does not recognized the kind value, the Authorizer should report an error.").pb(1),
        f("apiGroup", Type::String, "APIGroup holds the API group of the referenced subject. Defaults to \"\" for ServiceAccount subjects. Defaults to \"rbac.authorization.k8s.io\" for User and Group subjects.").pb(2),
        req("name", Type::String, "Name of the object being referenced.").pb(3),
        f("namespace", Type::String, "Namespace of the referenced object.  If the object kind is non-namespace, such as \"User\" or \"Group\", and this value is not empty the Authorizer should report an error.").pb(4),
    ],
};

/// `rbacv1.RoleRef`.
pub static ROLE_REF: Struct = Struct {
    openapi_name: "io.k8s.api.rbac.v1.RoleRef",
    atomic: true,
    description: "RoleRef contains information that points to the role being used",
    fields: &[
        always(
            "apiGroup",
            Type::String,
            "APIGroup is the group for the resource being referenced",
        )
        .pb(1),
        req(
            "kind",
            Type::String,
            "Kind is the type of resource being referenced",
        )
        .pb(2),
        req(
            "name",
            Type::String,
            "Name is the name of resource being referenced",
        )
        .pb(3),
    ],
};

/// `rbacv1.AggregationRule`.
pub static AGGREGATION_RULE: Struct = Struct {
    openapi_name: "io.k8s.api.rbac.v1.AggregationRule",
    atomic: false,
    description: "AggregationRule describes how to locate ClusterRoles to aggregate into the ClusterRole",
    fields: &[f(
        "clusterRoleSelectors",
        Type::Array(&Type::Object(&LABEL_SELECTOR), ListType::Atomic),
        "ClusterRoleSelectors holds a list of selectors which will be used to find ClusterRoles and create the rules. If any of the selectors match, then the ClusterRole's permissions will be added",
    )
    .pb(1)],
};

/// `rbacv1.Role`.
pub static ROLE: Struct = Struct {
    openapi_name: "io.k8s.api.rbac.v1.Role",
    atomic: false,
    description: "Role is a namespaced, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding.",
    fields: &[
        KIND_FIELD,
        API_VERSION_FIELD,
        RBAC_METADATA_FIELD,
        always("rules", Type::Array(&RULE, ListType::Atomic), RULES_DOC_ROLE).pb(2),
    ],
};

/// `rbacv1.ClusterRole`.
pub static CLUSTER_ROLE: Struct = Struct {
    openapi_name: "io.k8s.api.rbac.v1.ClusterRole",
    atomic: false,
    description: "ClusterRole is a cluster level, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding or ClusterRoleBinding.",
    fields: &[
        KIND_FIELD,
        API_VERSION_FIELD,
        RBAC_METADATA_FIELD,
        always("rules", Type::Array(&RULE, ListType::Atomic), "Rules holds all the PolicyRules for this ClusterRole").pb(2),
        f("aggregationRule", Type::Object(&AGGREGATION_RULE), "AggregationRule is an optional field that describes how to build the Rules for this ClusterRole. If AggregationRule is set, then the Rules are controller managed and direct changes to Rules will be stomped by the controller.").pointer().pb(3),
    ],
};

const SUBJECTS: Type = Type::Array(&Type::Object(&SUBJECT), ListType::Atomic);

/// `rbacv1.RoleBinding`.
pub static ROLE_BINDING: Struct = Struct {
    openapi_name: "io.k8s.api.rbac.v1.RoleBinding",
    atomic: false,
    description: "RoleBinding references a role, but does not contain it.  It can reference a Role in the same namespace or a ClusterRole in the global namespace. It adds who information via Subjects and namespace information by which namespace it exists in.  RoleBindings in a given namespace only have effect in that namespace.",
    fields: &[
        KIND_FIELD,
        API_VERSION_FIELD,
        RBAC_METADATA_FIELD,
        f("subjects", SUBJECTS, "Subjects holds references to the objects the role applies to.").pb(2),
        req("roleRef", Type::Object(&ROLE_REF), "RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable.").pb(3),
    ],
};

/// `rbacv1.ClusterRoleBinding`.
pub static CLUSTER_ROLE_BINDING: Struct = Struct {
    openapi_name: "io.k8s.api.rbac.v1.ClusterRoleBinding",
    atomic: false,
    description: "ClusterRoleBinding references a ClusterRole, but not contain it.  It can reference a ClusterRole in the global namespace, and adds who information via Subject.",
    fields: &[
        KIND_FIELD,
        API_VERSION_FIELD,
        RBAC_METADATA_FIELD,
        f("subjects", SUBJECTS, "Subjects holds references to the objects the role applies to.").pb(2),
        req("roleRef", Type::Object(&ROLE_REF), "RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable.").pb(3),
    ],
};
