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

/// The bootstrap ClusterRoles and ClusterRoleBindings (kube-apiserver 1.36's
/// `testdata/cluster-roles.yaml` and `cluster-role-bindings.yaml`, the subset users meet), in
/// the order the `rbac/bootstrap-roles` hook creates them.
pub const BOOTSTRAP: &str = include_str!("bootstrap.json");
