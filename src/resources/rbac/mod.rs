//! `rbac.authorization.k8s.io`: the RBAC kinds ([`kinds`], [`schema`], [`validation`]), the
//! user a request runs as ([`user`]), rule matching ([`rule`]), rule
//! comparison ([`policy`]) and escalation prevention ([`escalation`]), through the authorizer
//! as kinds see it ([`authority`]).

pub mod authority;
pub mod escalation;
pub mod kinds;
pub mod policy;
pub mod rule;
pub mod schema;
pub mod user;
pub mod validation;

pub use authority::{Authorizer, Decision, Requester, Rules};
pub use kinds::{CLUSTER_ROLES, CLUSTER_ROLE_BINDINGS, ROLES, ROLE_BINDINGS};
pub use rule::Attributes;
pub use user::UserInfo;

/// kube-apiserver 1.36's whole bootstrap policy, in the order its `rbac/bootstrap-roles` hook
/// creates it: the 31 ClusterRoles of `ClusterRoles()`, the 38 controller roles of
/// `ControllerRoles()` (default feature gates), their 12 + 38 bindings, then the 7 Roles and
/// 7 RoleBindings of `kube-system` and `kube-public`. The objects are those of the upstream
/// golden files (`bootstrappolicy/testdata/*.yaml`), one per line; `admin`, `edit` and `view`
/// have `rules: null` until the aggregation controller fills them in.
pub const BOOTSTRAP: &str = include_str!("bootstrap.json");
