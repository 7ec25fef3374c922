//! Who is asking: apiserver's `user.Info` (`k8s.io/apiserver/pkg/authentication/user`).
//!
//! It lives beside the RBAC kinds because every layer that decides on access needs it: the
//! authenticator builds it, the authorizer and the RBAC registry's escalation checks read it.

use std::collections::BTreeMap;

/// The group every authenticated user is in.
pub const ALL_AUTHENTICATED: &str = "system:authenticated";
/// The group of anonymous requests.
pub const ALL_UNAUTHENTICATED: &str = "system:unauthenticated";
/// The anonymous user's name.
pub const ANONYMOUS: &str = "system:anonymous";
/// Members are allowed everything before any authorizer is asked.
pub const SYSTEM_PRIVILEGED_GROUP: &str = "system:masters";

/// An authenticated (or anonymous) user.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct UserInfo {
    pub name: String,
    pub uid: String,
    pub groups: Vec<String>,
    /// Extra attributes, keyed as the authenticator gave them.
    pub extra: BTreeMap<String, Vec<String>>,
}

impl UserInfo {
    /// A user with `groups` (nothing added).
    pub fn new(name: &str, groups: &[&str]) -> Self {
        UserInfo {
            name: name.into(),
            groups: groups.iter().map(|g| g.to_string()).collect(),
            ..UserInfo::default()
        }
    }

    /// `system:anonymous` in `system:unauthenticated`.
    pub fn anonymous() -> Self {
        UserInfo::new(ANONYMOUS, &[ALL_UNAUTHENTICATED])
    }

    /// Whether the user is in `group`.
    pub fn in_group(&self, group: &str) -> bool {
        self.groups.iter().any(|g| g == group)
    }

    /// Adds `system:authenticated` last, unless the user is anonymous or already in
    /// `system:authenticated` or `system:unauthenticated` (the authenticated-group adder
    /// kube-apiserver wraps its authenticators in, and impersonation repeats).
    pub fn with_authenticated_group(mut self) -> Self {
        if self.name != ANONYMOUS
            && !self.in_group(ALL_AUTHENTICATED)
            && !self.in_group(ALL_UNAUTHENTICATED)
        {
            self.groups.push(ALL_AUTHENTICATED.into());
        }
        self
    }

    /// The groups an impersonated user gets besides those asked for, as both impersonation
    /// filters add them: `system:authenticated` as [`UserInfo::with_authenticated_group`],
    /// and `system:unauthenticated` for the anonymous user.
    pub fn with_implied_groups(self) -> Self {
        let mut u = self.with_authenticated_group();
        if u.name == ANONYMOUS && !u.in_group(ALL_UNAUTHENTICATED) {
            u.groups.push(ALL_UNAUTHENTICATED.into());
        }
        u
    }
}
