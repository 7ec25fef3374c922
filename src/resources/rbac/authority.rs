//! What kinds may ask of the authorizer, and who is asking.
//!
//! kube-apiserver hands its authorizer and rule resolver to a few storages: the RBAC kinds
//! check a writer against what they already hold (escalation prevention) and the review
//! kinds answer from the same authorizer. The authorizer itself lives in the registry (it
//! reads the stored roles and bindings); kinds see it only through [`Authorizer`].

use serde_json::Value;

use super::policy::PolicyRule;
use super::{Attributes, UserInfo};
use crate::resources::status::{ApiError, GroupResource};

/// An authorizer's answer.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Decision {
    pub allowed: bool,
    /// Why: `RBAC: allowed by ...` when allowed; empty, or `RBAC: <errors>` when role
    /// lookups failed, when not.
    pub reason: String,
}

/// The rules granted to a user in a namespace (`RulesFor`), with the role lookups that
/// failed on the way.
#[derive(Debug, Clone, Default)]
pub struct Rules {
    pub rules: Vec<PolicyRule>,
    pub errors: Vec<String>,
}

/// The authorizer and rule resolver as the kinds' storage sees them.
pub trait Authorizer {
    /// The authorizer chain's decision on `attrs` for `user`.
    fn authorize(&self, user: &UserInfo, attrs: &Attributes) -> Decision;
    /// Every rule granted to `user` by the cluster's bindings and, for a namespace, that
    /// namespace's RoleBindings (`RulesFor`), for a request on `request` (which names the
    /// roles not found).
    fn rules_for(&self, user: &UserInfo, namespace: &str, request: GroupResource<'static>)
        -> Rules;
    /// What the authorizer would list for `user` in `namespace` (a SelfSubjectRulesReview,
    /// the authorizer's own `RulesFor`: its role lookups' errors name the singular, as its
    /// listers do; under AlwaysAllow, everything).
    fn rules_review(&self, user: &UserInfo, namespace: &str) -> Rules;
    /// The rules of the role a binding's `roleRef` names in `namespace`
    /// (`GetRoleReferenceRules`): a missing role is the registry's 404 (naming `request`),
    /// an unknown kind a plain error (a 500).
    fn role_ref_rules(
        &self,
        role_ref: &Value,
        namespace: &str,
        request: GroupResource<'static>,
    ) -> Result<Vec<PolicyRule>, ApiError>;
    /// Whether `raw` parses as a label (`label`) or field selector: access reviews report
    /// selectors they had to ignore. (The grammars live above the kinds.)
    fn selector_parses(&self, raw: &str, label: bool) -> bool;
}

/// Who makes a write, and where: the request's user (`None` for the server's own writes,
/// which nothing checks), namespace and name (empty for a POST), the authorizer, and the
/// server's time (for answers that carry one).
pub struct Requester<'a> {
    pub user: Option<&'a UserInfo>,
    pub namespace: &'a str,
    pub name: &'a str,
    pub authorizer: &'a dyn Authorizer,
    pub now: &'a str,
}

impl std::fmt::Debug for Requester<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Requester")
            .field("user", &self.user)
            .field("namespace", &self.namespace)
            .field("name", &self.name)
            .finish()
    }
}
