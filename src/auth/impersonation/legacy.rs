//! The legacy filter (`WithImpersonation`, the one in force with `ConstrainedImpersonation`
//! off): each requested identity part is authorized as the `impersonate` verb for the
//! caller — user or service account, groups, extras, then the uid — and the request then
//! runs as the impersonated user.

use http::HeaderMap;

use crate::auth::forbidden::forbidden;
use crate::registry::Registry;
use crate::resources::rbac::{Attributes, UserInfo};
use crate::resources::status::ApiError;
use crate::resources::validation::names::{name_is_dns_subdomain, validate_namespace_name};

pub(super) const EXTRA_PREFIX: &str = "impersonate-extra-";
const AUTHENTICATION_V1: &str = "authentication.k8s.io/v1";

/// One requested part of the identity (an `ObjectReference` in the Go filter).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Part {
    kind: &'static str,
    namespace: String,
    name: String,
    api_version: &'static str,
    /// A user extra's key (Go keeps it in `FieldPath`).
    field_path: String,
}

impl Part {
    fn new(kind: &'static str, name: &str) -> Self {
        Part {
            kind,
            namespace: String::new(),
            name: name.into(),
            api_version: "",
            field_path: String::new(),
        }
    }

    /// Go's `%v` of an `ObjectReference`: its seven fields space-separated in braces.
    fn go_value(&self) -> String {
        format!(
            "{{{} {} {} {} {} {} {}}}",
            self.kind, self.namespace, self.name, "", self.api_version, "", self.field_path
        )
    }
}

/// `serviceaccount.SplitUsername`: `system:serviceaccount:<ns>:<name>` with a valid
/// namespace name and service account name.
pub(super) fn split_service_account(user: &str) -> Option<(String, String)> {
    let rest = user.strip_prefix("system:serviceaccount:")?;
    let parts: Vec<&str> = rest.split(':').collect();
    let [ns, name] = parts.as_slice() else {
        return None;
    };
    let valid = validate_namespace_name(ns, false).is_empty()
        && name_is_dns_subdomain(name, false).is_empty();
    valid.then(|| (ns.to_string(), name.to_string()))
}

pub(super) fn header_values<'a>(headers: &'a HeaderMap, name: &str) -> Vec<&'a str> {
    headers
        .get_all(name)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .collect()
}

/// `unescapeExtraKey`: extra keys are percent-encoded in header names; a key `url.PathUnescape`
/// rejects (a malformed `%` escape) is kept as sent.
pub(super) fn unescape_extra_key(key: &str) -> String {
    let malformed = key.match_indices('%').any(|(i, _)| {
        !key.get(i + 1..i + 3)
            .is_some_and(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))
    });
    if malformed {
        return key.to_string();
    }
    percent_encoding::percent_decode_str(key)
        .decode_utf8_lossy()
        .into_owned()
}

/// `buildImpersonationRequests`: the parts asked for, user first; groups, extras or a uid
/// without a user is a 400 (the legacy filter's answer since 1.35; 1.33–1.34 sent a 500).
fn requested_parts(headers: &HeaderMap) -> Result<Vec<Part>, ApiError> {
    let mut parts = Vec::new();
    let user = header_values(headers, "impersonate-user")
        .first()
        .copied()
        .unwrap_or("");
    if !user.is_empty() {
        parts.push(match split_service_account(user) {
            Some((ns, name)) => Part {
                namespace: ns,
                ..Part::new("ServiceAccount", &name)
            },
            None => Part::new("User", user),
        });
    }
    let groups = header_values(headers, "impersonate-group");
    parts.extend(groups.iter().map(|g| Part::new("Group", g)));
    // Go visits header names in map order; sorted here, for a deterministic order.
    let mut extra_names: Vec<&str> = headers
        .keys()
        .map(|k| k.as_str())
        .filter(|k| k.starts_with(EXTRA_PREFIX))
        .collect();
    crate::sort::sort(&mut extra_names);
    for name in &extra_names {
        let key = unescape_extra_key(&name[EXTRA_PREFIX.len()..]);
        for value in header_values(headers, name) {
            parts.push(Part {
                api_version: AUTHENTICATION_V1,
                field_path: key.clone(),
                ..Part::new("UserExtra", value)
            });
        }
    }
    let uid = header_values(headers, "impersonate-uid")
        .first()
        .copied()
        .unwrap_or("");
    if !uid.is_empty() {
        parts.push(Part {
            api_version: AUTHENTICATION_V1,
            ..Part::new("UID", uid)
        });
    }
    if user.is_empty() && !parts.is_empty() {
        let list: Vec<String> = parts.iter().map(Part::go_value).collect();
        return Err(ApiError::bad_request(format!(
            "requested [{}] without impersonating a user",
            list.join(" ")
        )));
    }
    Ok(parts)
}

/// Runs the impersonation filter: the user the request continues as.
pub fn impersonate(
    reg: &Registry,
    requestor: UserInfo,
    headers: &HeaderMap,
) -> Result<UserInfo, ApiError> {
    let parts = requested_parts(headers)?;
    if parts.is_empty() {
        return Ok(requestor);
    }
    let groups_specified = parts.iter().any(|p| p.kind == "Group");
    let mut out = UserInfo::default();
    for part in &parts {
        let group = if part.api_version.is_empty() {
            ""
        } else {
            "authentication.k8s.io"
        };
        let mut attrs = Attributes::resource("impersonate", group, "", &part.namespace, &part.name);
        match part.kind {
            "ServiceAccount" => {
                attrs.resource = "serviceaccounts".into();
                out.name = format!("system:serviceaccount:{}:{}", part.namespace, part.name);
                if !groups_specified {
                    out.groups = vec![
                        "system:serviceaccounts".into(),
                        format!("system:serviceaccounts:{}", part.namespace),
                    ];
                }
            }
            "User" => {
                attrs.resource = "users".into();
                out.name = part.name.clone();
            }
            "Group" => {
                attrs.resource = "groups".into();
                out.groups.push(part.name.clone());
            }
            "UserExtra" => {
                attrs.resource = "userextras".into();
                attrs.subresource = part.field_path.clone();
                out.extra
                    .entry(part.field_path.clone())
                    .or_default()
                    .push(part.name.clone());
            }
            _ => {
                attrs.resource = "uids".into();
                out.uid = part.name.clone();
            }
        }
        let decision = reg.authorize(&requestor, &attrs);
        if !decision.allowed {
            return Err(forbidden(&attrs, &requestor, &decision.reason));
        }
    }
    Ok(out.with_implied_groups())
}

#[cfg(test)]
mod tests {
    use super::super::test_headers as headers;
    use super::*;

    #[test]
    fn parts_come_in_the_filters_order_and_need_a_user() {
        let h = headers(&[
            ("Impersonate-Group", "g1"),
            ("Impersonate-Extra-Scopes%2Fa", "x"),
            ("Impersonate-Uid", "u"),
        ]);
        let e = requested_parts(&h).unwrap_err();
        assert_eq!((e.code, e.reason), (400, "BadRequest"));
        assert_eq!(e.message, "requested [{Group  g1    } {UserExtra  x  authentication.k8s.io/v1  scopes/a} {UID  u  authentication.k8s.io/v1  }] without impersonating a user");
        let h = headers(&[("Impersonate-User", "system:serviceaccount:ns:sa")]);
        let parts = requested_parts(&h).unwrap();
        assert_eq!(
            (parts[0].kind, parts[0].namespace.as_str()),
            ("ServiceAccount", "ns")
        );
        let h = headers(&[("Impersonate-User", "system:serviceaccount:ns")]);
        assert_eq!(requested_parts(&h).unwrap()[0].kind, "User");
    }
}
