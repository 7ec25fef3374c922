//! Who the page's requests act as (the user switcher): requests without an `Authorization`
//! header are authenticated as this identity, as if the tab always sent its credentials.
//! Per-request `Authorization` and `Impersonate-*` headers still apply.

use crate::auth;
use crate::resources::rbac::UserInfo;

/// The user a request without a token from the no-grants choice runs as.
pub const NO_GRANTS_USER: &str = "alice";

/// The switcher's choices.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Identity {
    /// `kubesim-admin` in `system:masters`: everything is allowed.
    #[default]
    Admin,
    /// `alice`, authenticated but bound to nothing: RBAC denies her everything (the
    /// playground's cluster has no bootstrap policy, so not even discovery).
    NoGrants,
    /// Any name and comma-separated groups.
    Custom { name: String, groups: String },
}

impl Identity {
    /// The user the engine authenticates requests without credentials as (`None`: anonymous).
    pub fn user(&self) -> Option<UserInfo> {
        match self {
            Identity::Admin => Some(auth::admin()),
            Identity::NoGrants => {
                Some(UserInfo::new(NO_GRANTS_USER, &[]).with_authenticated_group())
            }
            Identity::Custom { name, groups } => {
                let name = name.trim();
                if name.is_empty() {
                    return None;
                }
                let groups: Vec<&str> = groups
                    .split(',')
                    .map(str::trim)
                    .filter(|g| !g.is_empty())
                    .collect();
                Some(UserInfo::new(name, &groups).with_authenticated_group())
            }
        }
    }

    /// The `<select>` value of the choice.
    pub fn key(&self) -> &'static str {
        match self {
            Identity::Admin => "admin",
            Identity::NoGrants => "no-grants",
            Identity::Custom { .. } => "custom",
        }
    }

    /// The choice a `<select>` value names; a new custom identity is `bob`, in no group.
    pub fn from_key(key: &str) -> Identity {
        match key {
            "no-grants" => Identity::NoGrants,
            "custom" => Identity::Custom {
                name: "bob".into(),
                groups: String::new(),
            },
            _ => Identity::Admin,
        }
    }

    /// How the notice bar describes the choice.
    pub fn describe(&self) -> String {
        match self.user() {
            None => "system:anonymous (no name given)".into(),
            Some(u) => format!("{} (groups: {})", u.name, u.groups.join(", ")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_become_users() {
        let admin = Identity::Admin.user().unwrap();
        assert_eq!(admin.groups, ["system:masters", "system:authenticated"]);
        assert_eq!(
            Identity::NoGrants.user().unwrap().groups,
            ["system:authenticated"]
        );
        let custom = Identity::Custom {
            name: " bob ".into(),
            groups: "dev, ops,,".into(),
        };
        let u = custom.user().unwrap();
        assert_eq!((u.name.as_str(), u.groups.len()), ("bob", 3));
        let anonymous = Identity::Custom {
            name: "".into(),
            groups: "x".into(),
        };
        assert_eq!(anonymous.user(), None);
        assert_eq!(anonymous.describe(), "system:anonymous (no name given)");
    }
}
