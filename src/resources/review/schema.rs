//! The review types' schemas (`k8s.io/api/authorization/v1` and `authentication/v1`
//! `types.go` at 1.36, Go struct order, `generated.proto` field numbers, and the descriptions
//! OpenAPI derives from their comments).

use crate::resources::schema::{
    always, f, req, ListType, Struct, Type, API_VERSION_FIELD, FIELD_SELECTOR_REQUIREMENT,
    KIND_FIELD, LABEL_SELECTOR_REQUIREMENT, OBJECT_META,
};

const STRING: Type = Type::String;
const STRINGS: Type = Type::Array(&STRING, ListType::Atomic);
/// `map[string]ExtraValue`.
const EXTRA: Type = Type::Map(&STRINGS);

/// `authorization.v1.SubjectAccessReview`.
pub static SUBJECT_ACCESS_REVIEW: Struct = Struct {
    openapi_name: "io.k8s.api.authorization.v1.SubjectAccessReview",
    atomic: false,
    description: "SubjectAccessReview checks whether or not a user or group can perform an action.",
    fields: &[
        KIND_FIELD,
        API_VERSION_FIELD,
        always("metadata", Type::Object(&OBJECT_META), "metadata is the standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata").pb(1),
        req("spec", Type::Object(&SUBJECT_ACCESS_REVIEW_SPEC), "spec holds information about the request being evaluated").pb(2),
        always("status", Type::Object(&SUBJECT_ACCESS_REVIEW_STATUS), "status is filled in by the server and indicates whether the request is allowed or not").pb(3),
    ],
};

/// `authorization.v1.SelfSubjectAccessReview`.
pub static SELF_SUBJECT_ACCESS_REVIEW: Struct = Struct {
    openapi_name: "io.k8s.api.authorization.v1.SelfSubjectAccessReview",
    atomic: false,
    description: "SelfSubjectAccessReview checks whether or the current user can perform an action.  Not filling in a spec.namespace means \"in all namespaces\".  Self is a special case, because users should always be able to check whether they can perform an action",
    fields: &[
        KIND_FIELD,
        API_VERSION_FIELD,
        always("metadata", Type::Object(&OBJECT_META), "metadata is the standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata").pb(1),
        req("spec", Type::Object(&SELF_SUBJECT_ACCESS_REVIEW_SPEC), "spec holds information about the request being evaluated.  user and groups must be empty").pb(2),
        always("status", Type::Object(&SUBJECT_ACCESS_REVIEW_STATUS), "status is filled in by the server and indicates whether the request is allowed or not").pb(3),
    ],
};

/// `authorization.v1.LocalSubjectAccessReview`.
pub static LOCAL_SUBJECT_ACCESS_REVIEW: Struct = Struct {
    openapi_name: "io.k8s.api.authorization.v1.LocalSubjectAccessReview",
    atomic: false,
    description: "LocalSubjectAccessReview checks whether or not a user or group can perform an action in a given namespace. Having a namespace scoped resource makes it much easier to grant namespace scoped policy that includes permissions checking.",
    fields: &[
        KIND_FIELD,
        API_VERSION_FIELD,
        always("metadata", Type::Object(&OBJECT_META), "metadata is the standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata").pb(1),
        req("spec", Type::Object(&SUBJECT_ACCESS_REVIEW_SPEC), "spec holds information about the request being evaluated.  spec.namespace must be equal to the namespace you made the request against.  If empty, it is defaulted.").pb(2),
        always("status", Type::Object(&SUBJECT_ACCESS_REVIEW_STATUS), "status is filled in by the server and indicates whether the request is allowed or not").pb(3),
    ],
};

/// `authorization.v1.ResourceAttributes`.
pub static RESOURCE_ATTRIBUTES: Struct = Struct {
    openapi_name: "io.k8s.api.authorization.v1.ResourceAttributes",
    atomic: false,
    description: "ResourceAttributes includes the authorization attributes available for resource requests to the Authorizer interface",
    fields: &[
        f("namespace", STRING, "namespace is the namespace of the action being requested.  Currently, there is no distinction between no namespace and all namespaces \"\" (empty) is defaulted for LocalSubjectAccessReviews \"\" (empty) is empty for cluster-scoped resources \"\" (empty) means \"all\" for namespace scoped resources from a SubjectAccessReview or SelfSubjectAccessReview").pb(1),
        f("verb", STRING, "verb is a kubernetes resource API verb, like: get, list, watch, create, update, delete, proxy.  \"*\" means all.").pb(2),
        f("group", STRING, "group is the API Group of the Resource.  \"*\" means all.").pb(3),
        f("version", STRING, "version is the API Version of the Resource.  \"*\" means all.").pb(4),
        f("resource", STRING, "resource is one of the existing resource types.  \"*\" means all.").pb(5),
        f("subresource", STRING, "subresource is one of the existing resource types.  \"\" means none.").pb(6),
        f("name", STRING, "name is the name of the resource being requested for a \"get\" or deleted for a \"delete\". \"\" (empty) means all.").pb(7),
        f("fieldSelector", Type::Object(&FIELD_SELECTOR_ATTRIBUTES), "fieldSelector describes the limitation on access based on field.  It can only limit access, not broaden it.").pointer().pb(8),
        f("labelSelector", Type::Object(&LABEL_SELECTOR_ATTRIBUTES), "labelSelector describes the limitation on access based on labels.  It can only limit access, not broaden it.").pointer().pb(9),
    ],
};

/// `authorization.v1.LabelSelectorAttributes`.
pub static LABEL_SELECTOR_ATTRIBUTES: Struct = Struct {
    openapi_name: "io.k8s.api.authorization.v1.LabelSelectorAttributes",
    atomic: false,
    description: "LabelSelectorAttributes indicates a label limited access. Webhook authors are encouraged to * ensure rawSelector and requirements are not both set * consider the requirements field if set * not try to parse or consider the rawSelector field if set. This is to avoid another CVE-2022-2880 (i.e. getting different systems to agree on how exactly to parse a query is not something we want), see https://www.oxeye.io/resources/golang-parameter-smuggling-attack for more details. For the *SubjectAccessReview endpoints of the kube-apiserver: * If rawSelector is empty and requirements are empty, the request is not limited. * If rawSelector is present and requirements are empty, the rawSelector will be parsed and limited if the parsing succeeds. * If rawSelector is empty and requirements are present, the requirements should be honored * If rawSelector is present and requirements are present, the request is invalid.",
    fields: &[
        f("rawSelector", STRING, "rawSelector is the serialization of a field selector that would be included in a query parameter. Webhook implementations are encouraged to ignore rawSelector. The kube-apiserver's *SubjectAccessReview will parse the rawSelector as long as the requirements are not present.").pb(1),
        f("requirements", Type::Array(&Type::Object(&LABEL_SELECTOR_REQUIREMENT), ListType::Atomic), "requirements is the parsed interpretation of a label selector. All requirements must be met for a resource instance to match the selector. Webhook implementations should handle requirements, but how to handle them is up to the webhook. Since requirements can only limit the request, it is safe to authorize as unlimited request if the requirements are not understood.").pb(2),
    ],
};

/// `authorization.v1.FieldSelectorAttributes`.
pub static FIELD_SELECTOR_ATTRIBUTES: Struct = Struct {
    openapi_name: "io.k8s.api.authorization.v1.FieldSelectorAttributes",
    atomic: false,
    description: "FieldSelectorAttributes indicates a field limited access. Webhook authors are encouraged to * ensure rawSelector and requirements are not both set * consider the requirements field if set * not try to parse or consider the rawSelector field if set. This is to avoid another CVE-2022-2880 (i.e. getting different systems to agree on how exactly to parse a query is not something we want), see https://www.oxeye.io/resources/golang-parameter-smuggling-attack for more details. For the *SubjectAccessReview endpoints of the kube-apiserver: * If rawSelector is empty and requirements are empty, the request is not limited. * If rawSelector is present and requirements are empty, the rawSelector will be parsed and limited if the parsing succeeds. * If rawSelector is empty and requirements are present, the requirements should be honored * If rawSelector is present and requirements are present, the request is invalid.",
    fields: &[
        f("rawSelector", STRING, "rawSelector is the serialization of a field selector that would be included in a query parameter. Webhook implementations are encouraged to ignore rawSelector. The kube-apiserver's *SubjectAccessReview will parse the rawSelector as long as the requirements are not present.").pb(1),
        f("requirements", Type::Array(&Type::Object(&FIELD_SELECTOR_REQUIREMENT), ListType::Atomic), "requirements is the parsed interpretation of a field selector. All requirements must be met for a resource instance to match the selector. Webhook implementations should handle requirements, but how to handle them is up to the webhook. Since requirements can only limit the request, it is safe to authorize as unlimited request if the requirements are not understood.").pb(2),
    ],
};

/// `authorization.v1.NonResourceAttributes`.
pub static NON_RESOURCE_ATTRIBUTES: Struct = Struct {
    openapi_name: "io.k8s.api.authorization.v1.NonResourceAttributes",
    atomic: false,
    description: "NonResourceAttributes includes the authorization attributes available for non-resource requests to the Authorizer interface",
    fields: &[
        f("path", STRING, "path is the URL path of the request").pb(1),
        f("verb", STRING, "verb is the standard HTTP verb").pb(2),
    ],
};

/// `authorization.v1.SubjectAccessReviewSpec`.
pub static SUBJECT_ACCESS_REVIEW_SPEC: Struct = Struct {
    openapi_name: "io.k8s.api.authorization.v1.SubjectAccessReviewSpec",
    atomic: false,
    description: "SubjectAccessReviewSpec is a description of the access request.  Exactly one of resourceAttributes and nonResourceAttributes must be set",
    fields: &[
        f("resourceAttributes", Type::Object(&RESOURCE_ATTRIBUTES), "resourceAttributes describes information for a resource access request").pointer().pb(1),
        f("nonResourceAttributes", Type::Object(&NON_RESOURCE_ATTRIBUTES), "nonResourceAttributes describes information for a non-resource access request").pointer().pb(2),
        f("user", STRING, "user is the user you're testing for. If you specify \"User\" but not \"Groups\", then is it interpreted as \"What if User were not a member of any groups").pb(3),
        f("groups", STRINGS, "groups is the groups you're testing for.").pb(4),
        f("extra", EXTRA, "extra corresponds to the user.Info.GetExtra() method from the authenticator.  Since that is input to the authorizer it needs a reflection here.").pb(5),
        f("uid", STRING, "uid information about the requesting user.").pb(6),
    ],
};

/// `authorization.v1.SelfSubjectAccessReviewSpec`.
pub static SELF_SUBJECT_ACCESS_REVIEW_SPEC: Struct = Struct {
    openapi_name: "io.k8s.api.authorization.v1.SelfSubjectAccessReviewSpec",
    atomic: false,
    description: "SelfSubjectAccessReviewSpec is a description of the access request.  Exactly one of resourceAttributes and nonResourceAttributes must be set",
    fields: &[
        f("resourceAttributes", Type::Object(&RESOURCE_ATTRIBUTES), "resourceAttributes describes information for a resource access request").pointer().pb(1),
        f("nonResourceAttributes", Type::Object(&NON_RESOURCE_ATTRIBUTES), "nonResourceAttributes describes information for a non-resource access request").pointer().pb(2),
    ],
};

/// `authorization.v1.SubjectAccessReviewStatus`.
pub static SUBJECT_ACCESS_REVIEW_STATUS: Struct = Struct {
    openapi_name: "io.k8s.api.authorization.v1.SubjectAccessReviewStatus",
    atomic: false,
    description: "SubjectAccessReviewStatus",
    fields: &[
        req("allowed", Type::Boolean, "allowed is required. True if the action would be allowed, false otherwise.").pb(1),
        f("denied", Type::Boolean, "denied is optional. True if the action would be denied, otherwise false. If both allowed is false and denied is false, then the authorizer has no opinion on whether to authorize the action. Denied may not be true if Allowed is true.").pb(4),
        f("reason", STRING, "reason is optional.  It indicates why a request was allowed or denied.").pb(2),
        f("evaluationError", STRING, "evaluationError is an indication that some error occurred during the authorization check. It is entirely possible to get an error and be able to continue determine authorization status in spite of it. For instance, RBAC can be missing a role, but enough roles are still present and bound to reason about the request.").pb(3),
    ],
};

/// `authorization.v1.SelfSubjectRulesReview`.
pub static SELF_SUBJECT_RULES_REVIEW: Struct = Struct {
    openapi_name: "io.k8s.api.authorization.v1.SelfSubjectRulesReview",
    atomic: false,
    description: "SelfSubjectRulesReview enumerates the set of actions the current user can perform within a namespace. The returned list of actions may be incomplete depending on the server's authorization mode, and any errors experienced during the evaluation. SelfSubjectRulesReview should be used by UIs to show/hide actions, or to quickly let an end user reason about their permissions. It should NOT Be used by external systems to drive authorization decisions as this raises confused deputy, cache lifetime/revocation, and correctness concerns. SubjectAccessReview, and LocalAccessReview are the correct way to defer authorization decisions to the API server.",
    fields: &[
        KIND_FIELD,
        API_VERSION_FIELD,
        always("metadata", Type::Object(&OBJECT_META), "metadata is the standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata").pb(1),
        req("spec", Type::Object(&SELF_SUBJECT_RULES_REVIEW_SPEC), "spec holds information about the request being evaluated.").pb(2),
        always("status", Type::Object(&SUBJECT_RULES_REVIEW_STATUS), "status is filled in by the server and indicates the set of actions a user can perform.").pb(3),
    ],
};

/// `authorization.v1.SelfSubjectRulesReviewSpec`.
pub static SELF_SUBJECT_RULES_REVIEW_SPEC: Struct = Struct {
    openapi_name: "io.k8s.api.authorization.v1.SelfSubjectRulesReviewSpec",
    atomic: false,
    description: "SelfSubjectRulesReviewSpec defines the specification for SelfSubjectRulesReview.",
    fields: &[f(
        "namespace",
        STRING,
        "namespace to evaluate rules for. Required.",
    )
    .pb(1)],
};

/// `authorization.v1.SubjectRulesReviewStatus`.
pub static SUBJECT_RULES_REVIEW_STATUS: Struct = Struct {
    openapi_name: "io.k8s.api.authorization.v1.SubjectRulesReviewStatus",
    atomic: false,
    description: "SubjectRulesReviewStatus contains the result of a rules check. This check can be incomplete depending on the set of authorizers the server is configured with and any errors experienced during evaluation. Because authorization rules are additive, if a rule appears in a list it's safe to assume the subject has that permission, even if that list is incomplete.",
    fields: &[
        req("resourceRules", Type::Array(&Type::Object(&RESOURCE_RULE), ListType::Atomic), "resourceRules is the list of actions the subject is allowed to perform on resources. The list ordering isn't significant, may contain duplicates, and possibly be incomplete.").pb(1),
        req("nonResourceRules", Type::Array(&Type::Object(&NON_RESOURCE_RULE), ListType::Atomic), "nonResourceRules is the list of actions the subject is allowed to perform on non-resources. The list ordering isn't significant, may contain duplicates, and possibly be incomplete.").pb(2),
        req("incomplete", Type::Boolean, "incomplete is true when the rules returned by this call are incomplete. This is most commonly encountered when an authorizer, such as an external authorizer, doesn't support rules evaluation.").pb(3),
        f("evaluationError", STRING, "evaluationError can appear in combination with Rules. It indicates an error occurred during rule evaluation, such as an authorizer that doesn't support rule evaluation, and that ResourceRules and/or NonResourceRules may be incomplete.").pb(4),
    ],
};

/// `authorization.v1.ResourceRule`.
pub static RESOURCE_RULE: Struct = Struct {
    openapi_name: "io.k8s.api.authorization.v1.ResourceRule",
    atomic: false,
    description: "ResourceRule is the list of actions the subject is allowed to perform on resources. The list ordering isn't significant, may contain duplicates, and possibly be incomplete.",
    fields: &[
        req("verbs", STRINGS, "verbs is a list of kubernetes resource API verbs, like: get, list, watch, create, update, delete, proxy.  \"*\" means all.").pb(1),
        f("apiGroups", STRINGS, "apiGroups is the name of the APIGroup that contains the resources.  If multiple API groups are specified, any action requested against one of the enumerated resources in any API group will be allowed.  \"*\" means all.").pb(2),
        f("resources", STRINGS, "resources is a list of resources this rule applies to.  \"*\" means all in the specified apiGroups.\n \"*/foo\" represents the subresource 'foo' for all resources in the specified apiGroups.").pb(3),
        f("resourceNames", STRINGS, "resourceNames is an optional white list of names that the rule applies to.  An empty set means that everything is allowed.  \"*\" means all.").pb(4),
    ],
};

/// `authorization.v1.NonResourceRule`.
pub static NON_RESOURCE_RULE: Struct = Struct {
    openapi_name: "io.k8s.api.authorization.v1.NonResourceRule",
    atomic: false,
    description: "NonResourceRule holds information that describes a rule for the non-resource",
    fields: &[
        req("verbs", STRINGS, "verbs is a list of kubernetes non-resource API verbs, like: get, post, put, delete, patch, head, options.  \"*\" means all.").pb(1),
        f("nonResourceURLs", STRINGS, "nonResourceURLs is a set of partial urls that a user should have access to.  *s are allowed, but only as the full, final step in the path.  \"*\" means all.").pb(2),
    ],
};

/// `authentication.v1.SelfSubjectReview`.
pub static SELF_SUBJECT_REVIEW: Struct = Struct {
    openapi_name: "io.k8s.api.authentication.v1.SelfSubjectReview",
    atomic: false,
    description: "SelfSubjectReview contains the user information that the kube-apiserver has about the user making this request. When using impersonation, users will receive the user info of the user being impersonated.  If impersonation or request header authentication is used, any extra keys will have their case ignored and returned as lowercase.",
    fields: &[
        KIND_FIELD,
        API_VERSION_FIELD,
        always("metadata", Type::Object(&OBJECT_META), "metadata is standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata").pb(1),
        always("status", Type::Object(&SELF_SUBJECT_REVIEW_STATUS), "status is filled in by the server with the user attributes.").pb(2),
    ],
};

/// `authentication.v1.SelfSubjectReviewStatus`.
pub static SELF_SUBJECT_REVIEW_STATUS: Struct = Struct {
    openapi_name: "io.k8s.api.authentication.v1.SelfSubjectReviewStatus",
    atomic: false,
    description: "SelfSubjectReviewStatus is filled by the kube-apiserver and sent back to a user.",
    fields: &[always(
        "userInfo",
        Type::Object(&USER_INFO),
        "userInfo is a set of attributes belonging to the user making this request.",
    )
    .pb(1)],
};

/// `authentication.v1.UserInfo`.
pub static USER_INFO: Struct = Struct {
    openapi_name: "io.k8s.api.authentication.v1.UserInfo",
    atomic: false,
    description: "UserInfo holds the information about the user needed to implement the user.Info interface.",
    fields: &[
        f("username", STRING, "username is the name that uniquely identifies this user among all active users.").pb(1),
        f("uid", STRING, "uid is a unique value that identifies this user across time. If this user is deleted and another user by the same name is added, they will have different UIDs.").pb(2),
        f("groups", STRINGS, "groups is the names of groups this user is a part of.").pb(3),
        f("extra", EXTRA, "extra is any additional information provided by the authenticator.").pb(4),
    ],
};
