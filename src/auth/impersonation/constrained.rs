//! `WithConstrainedImpersonation` (KEP-5284, on by default in 1.36): impersonation scoped to
//! the request. Five modes are tried in order — associated-node, arbitrary-node,
//! serviceaccount, user-info, legacy — each applying to some identities only. A constrained
//! mode first checks `impersonate-on:<mode>:<verb>` on the request itself, then
//! `impersonate:<mode>` on each part of the identity (`authentication.k8s.io`); the legacy
//! mode makes the legacy filter's `impersonate` checks (uid before groups here). The first
//! mode that allows wins; when none does, the first error in the order tried is the answer.
//! The mode that last worked for a caller is tried first next time, so its error text wins.
//! Successes are remembered 10 s, so a revoked grant takes up to 10 s to bite.

use std::collections::BTreeMap;

use http::HeaderMap;

use super::legacy::{header_values, split_service_account, unescape_extra_key, EXTRA_PREFIX};
use super::memory::{success_key, Key, Memory};
use crate::auth::forbidden::forbidden;
use crate::codec::go_quote as q;
use crate::registry::Registry;
use crate::resources::field::{aggregate_messages, FieldError};
use crate::resources::rbac::user::SYSTEM_PRIVILEGED_GROUP;
use crate::resources::rbac::{Attributes, UserInfo};
use crate::resources::status::ApiError;
use crate::resources::validation::names::{name_is_dns_subdomain, regex_error};
use serde_json::Value;

const AUTHENTICATION: &str = "authentication.k8s.io";
/// Beyond this many groups or extras, one wildcard check is tried before the loop.
const MANY_CHECKS: usize = 4;

/// The modes, in the order they are tried.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Mode {
    AssociatedNode,
    ArbitraryNode,
    ServiceAccount,
    UserInfo,
    Legacy,
}

const MODES: [Mode; 5] = [
    Mode::AssociatedNode,
    Mode::ArbitraryNode,
    Mode::ServiceAccount,
    Mode::UserInfo,
    Mode::Legacy,
];

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::AssociatedNode => "associated-node",
            Mode::ArbitraryNode => "arbitrary-node",
            Mode::ServiceAccount => "serviceaccount",
            Mode::UserInfo => "user-info",
            Mode::Legacy => "legacy",
        }
    }

    /// The verb its identity checks use.
    fn verb(self) -> &'static str {
        match self {
            Mode::AssociatedNode => "impersonate:associated-node",
            Mode::ArbitraryNode => "impersonate:arbitrary-node",
            Mode::ServiceAccount => "impersonate:serviceaccount",
            Mode::UserInfo => "impersonate:user-info",
            Mode::Legacy => "impersonate",
        }
    }

    /// The group its user and group checks name (the legacy one keeps core's).
    fn group(self) -> &'static str {
        match self {
            Mode::Legacy => "",
            _ => AUTHENTICATION,
        }
    }
}

/// The identity asked for, as the headers give it (`processImpersonationHeaders`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub(super) struct Wanted {
    pub(super) name: String,
    pub(super) uid: String,
    pub(super) groups: Vec<String>,
    pub(super) extra: BTreeMap<String, Vec<String>>,
}

impl Wanted {
    fn parse(headers: &HeaderMap) -> Result<Wanted, ApiError> {
        let first = |h: &str| header_values(headers, h).first().copied().unwrap_or("");
        let mut wanted = Wanted {
            name: first("impersonate-user").into(),
            uid: first("impersonate-uid").into(),
            groups: header_values(headers, "impersonate-group")
                .into_iter()
                .map(String::from)
                .collect(),
            extra: BTreeMap::new(),
        };
        // Headers naming the same key (`A-B`, `A%2dB`) add to it, as Go appends; visited
        // in sorted order here (Go's is its map's).
        let mut names: Vec<&str> = headers
            .keys()
            .map(|k| k.as_str())
            .filter(|k| k.starts_with(EXTRA_PREFIX))
            .collect();
        crate::sort::sort(&mut names);
        for name in names {
            let values = header_values(headers, name).into_iter().map(String::from);
            let key = unescape_extra_key(&name[EXTRA_PREFIX.len()..]);
            wanted.extra.entry(key).or_default().extend(values);
        }
        let others =
            !wanted.uid.is_empty() || !wanted.groups.is_empty() || !wanted.extra.is_empty();
        if wanted.name.is_empty() && others {
            return Err(ApiError::bad_request(format!(
                "requested {} without impersonating a user name",
                wanted.go_value()
            )));
        }
        Ok(wanted)
    }

    /// Go's `%#v` of the `*user.DefaultInfo`.
    fn go_value(&self) -> String {
        let strings = |v: &[String]| {
            let items: Vec<String> = v.iter().map(|s| q(s)).collect();
            format!("[]string{{{}}}", items.join(", "))
        };
        let groups = match self.groups.is_empty() {
            true => "[]string(nil)".to_string(),
            false => strings(&self.groups),
        };
        let extra = match self.extra.is_empty() {
            true => "map[string][]string(nil)".to_string(),
            false => {
                let items: Vec<String> = self
                    .extra
                    .iter()
                    .map(|(k, v)| format!("{}:{}", q(k), strings(v)))
                    .collect();
                format!("map[string][]string{{{}}}", items.join(", "))
            }
        };
        format!(
            "&user.DefaultInfo{{Name:{}, UID:{}, Groups:{groups}, Extra:{extra}}}",
            q(&self.name),
            q(&self.uid)
        )
    }

    fn only_username(&self) -> bool {
        self.uid.is_empty() && self.groups.is_empty() && self.extra.is_empty()
    }
}

/// `isNodeUsername`: `system:node:<name>` with a DNS subdomain name.
fn node_name(user: &str) -> Option<&str> {
    user.strip_prefix("system:node:")
        .filter(|n| name_is_dns_subdomain(n, false).is_empty())
}

/// Whether `mode` applies to this identity and caller.
fn applies(mode: Mode, wanted: &Wanted, requestor: &UserInfo) -> bool {
    let node = node_name(&wanted.name);
    let sa = split_service_account(&wanted.name).is_some();
    match mode {
        Mode::AssociatedNode => {
            wanted.only_username()
                && node.is_some()
                && split_service_account(&requestor.name).is_some()
                && requestor
                    .extra
                    .get("authentication.kubernetes.io/node-name")
                    .map(Vec::as_slice)
                    == node.map(|n| vec![n.to_string()]).as_deref()
        }
        Mode::ArbitraryNode => wanted.only_username() && node.is_some(),
        Mode::ServiceAccount => wanted.only_username() && sa,
        Mode::UserInfo => node.is_none() && !sa,
        Mode::Legacy => true,
    }
}

/// `checkAuthorization`: the 403 for a denial.
fn check(reg: &Registry, requestor: &UserInfo, attrs: &Attributes) -> Result<(), ApiError> {
    let d = reg.authorize(requestor, attrs);
    match d.allowed {
        true => Ok(()),
        false => Err(forbidden(attrs, requestor, &d.reason)),
    }
}

/// One of the identity's parts, as the mode checks it.
fn part(mode: Mode, group: &str, resource: &str, name: &str) -> Attributes {
    Attributes::resource(mode.verb(), group, resource, "", name)
}

/// `impersonationModeState.check`: the username, uid, groups and extras, in that order; the
/// impersonated user.
fn check_identity(
    reg: &Registry,
    mode: Mode,
    wanted: &Wanted,
    requestor: &UserInfo,
) -> Result<UserInfo, ApiError> {
    let constrained = mode != Mode::Legacy;
    let mut out = UserInfo {
        name: wanted.name.clone(),
        uid: wanted.uid.clone(),
        groups: wanted.groups.clone(),
        extra: wanted.extra.clone(),
    };
    let mut user = part(mode, mode.group(), "users", &wanted.name);
    if let (true, Some(node)) = (constrained, node_name(&wanted.name)) {
        user.resource = "nodes".into();
        // The associated-node check holds for every node (its memory ignores the name).
        user.name = match mode {
            Mode::AssociatedNode => "*".into(),
            _ => node.into(),
        };
        out.groups = vec!["system:nodes".into()];
    }
    if let Some((ns, name)) = split_service_account(&wanted.name) {
        user.resource = "serviceaccounts".into();
        user.namespace = ns.clone();
        user.name = name;
        if wanted.groups.is_empty() {
            out.groups = vec![
                "system:serviceaccounts".into(),
                format!("system:serviceaccounts:{ns}"),
            ];
        }
    }
    check(reg, requestor, &user)?;
    if !wanted.uid.is_empty() {
        check(
            reg,
            requestor,
            &part(mode, AUTHENTICATION, "uids", &wanted.uid),
        )?;
    }
    if !wanted.groups.is_empty() {
        let mut attrs = part(mode, mode.group(), "groups", "");
        if constrained && wanted.groups.iter().any(String::is_empty) {
            let reason = "impersonating the empty string group is not allowed";
            return Err(forbidden(&attrs, requestor, reason));
        }
        if constrained && wanted.groups.iter().any(|g| g == SYSTEM_PRIVILEGED_GROUP) {
            attrs.name = SYSTEM_PRIVILEGED_GROUP.into();
            let reason = "impersonating the system:masters group is not allowed";
            return Err(forbidden(&attrs, requestor, reason));
        }
        let all = constrained
            && wanted.groups.len() >= MANY_CHECKS
            && check(reg, requestor, &part(mode, mode.group(), "groups", "*")).is_ok();
        if !all {
            for g in &wanted.groups {
                check(reg, requestor, &part(mode, mode.group(), "groups", g))?;
            }
        }
    }
    if !wanted.extra.is_empty() {
        if constrained {
            if let Err(reason) = validate_extra(&wanted.extra) {
                let attrs = part(mode, AUTHENTICATION, "userextras", "");
                return Err(forbidden(&attrs, requestor, &reason));
            }
        }
        let values: usize = wanted.extra.values().map(Vec::len).sum();
        let large = wanted.extra.len() >= MANY_CHECKS || values >= MANY_CHECKS;
        let wildcard = part(mode, AUTHENTICATION, "userextras", "*").with_subresource("*");
        if !(constrained && large && check(reg, requestor, &wildcard).is_ok()) {
            for (key, values) in &wanted.extra {
                for v in values {
                    let attrs = part(mode, AUTHENTICATION, "userextras", v).with_subresource(key);
                    check(reg, requestor, &attrs)?;
                }
            }
        }
    }
    Ok(out.with_implied_groups())
}

/// `validateExtra` (keys in sorted order: Go's map order is random).
fn validate_extra(extra: &BTreeMap<String, Vec<String>>) -> Result<(), String> {
    for (key, values) in extra {
        if key.is_empty() {
            return Err("impersonating the empty string key in extra is not allowed".into());
        }
        if let Some(e) = domain_prefixed_path(key) {
            return Err(format!(
                "impersonating an invalid key in extra is not allowed: {e}"
            ));
        }
        if *key != key.to_lowercase() {
            return Err(format!(
                "impersonating a non-lowercase key in extra is not allowed: {}",
                q(key)
            ));
        }
        if values.is_empty() {
            return Err("impersonating empty values in extra is not allowed".into());
        }
        if values.iter().any(String::is_empty) {
            return Err("impersonating the empty string value in extra is not allowed".into());
        }
    }
    Ok(())
}

/// `IsDomainPrefixedPath` on field `extra.key`, as its aggregate error reads.
fn domain_prefixed_path(key: &str) -> Option<String> {
    let invalid = |v: &str, msg: &str| FieldError::invalid("extra.key", Value::from(v), msg);
    let Some((host, path)) = key
        .split_once('/')
        .filter(|(h, p)| !h.is_empty() && !p.is_empty())
    else {
        let msg = "must be a domain-prefixed path (such as \"acme.io/foo\")";
        return Some(invalid(key, msg).message());
    };
    let mut errs: Vec<FieldError> = name_is_dns_subdomain(host, false)
        .iter()
        .map(|m| invalid(host, m))
        .collect();
    let path_ok = path
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "/-._~%!$&'()*+,;=:".contains(c));
    if !path_ok {
        let fmt = r"[A-Za-z0-9/\-._~%!$&'()*+,;=:]+";
        errs.push(invalid(path, &regex_error("Invalid path", fmt, &[])));
    }
    (!errs.is_empty()).then(|| aggregate_messages(&errs))
}

/// One mode's answer: `Ok(None)` when it does not apply.
fn try_mode(
    reg: &Registry,
    memory: &mut Memory,
    mode: Mode,
    wanted: &Wanted,
    requestor: &UserInfo,
    request: &Attributes,
) -> Result<Option<UserInfo>, ApiError> {
    if !applies(mode, wanted, requestor) {
        return Ok(None);
    }
    if mode == Mode::Legacy {
        return check_identity(reg, mode, wanted, requestor).map(Some);
    }
    let now = reg.clock().now_ms();
    let inner_key = success_key(mode, wanted, requestor);
    let outer_key = Key {
        request: Some(request.clone()),
        ..inner_key.clone()
    };
    let named = |mut u: UserInfo| {
        u.name = wanted.name.clone();
        u
    };
    if let Some(u) = memory.outer.get(&outer_key, now) {
        return Ok(Some(named(u)));
    }
    let mut on = request.clone();
    on.verb = format!("impersonate-on:{}:{}", mode.name(), request.verb);
    check(reg, requestor, &on)?;
    let user = match memory.inner.get(&inner_key, now) {
        Some(u) => u,
        None => {
            let u = check_identity(reg, mode, wanted, requestor)?;
            memory.inner.put(inner_key, now, &u);
            u
        }
    };
    memory.outer.put(outer_key, now, &user);
    Ok(Some(named(user)))
}

/// The filter: the user the request continues as.
pub fn impersonate(
    reg: &Registry,
    memory: &mut Memory,
    requestor: UserInfo,
    headers: &HeaderMap,
    request: &Attributes,
) -> Result<UserInfo, ApiError> {
    let wanted = Wanted::parse(headers)?;
    if wanted.name.is_empty() {
        return Ok(requestor);
    }
    let mut first_err = None;
    let remembered = memory.mode_of(&requestor.name);
    if let Some(i) = remembered {
        match try_mode(reg, memory, MODES[i], &wanted, &requestor, request) {
            Ok(Some(u)) => return Ok(u),
            Ok(None) => {}
            Err(e) => first_err = Some(e),
        }
    }
    for (i, mode) in MODES.iter().enumerate() {
        if remembered == Some(i) {
            continue;
        }
        match try_mode(reg, memory, *mode, &wanted, &requestor, request) {
            Ok(Some(u)) => {
                memory.remember_mode(&requestor.name, i);
                return Ok(u);
            }
            Ok(None) => {}
            Err(e) => {
                first_err.get_or_insert(e);
            }
        }
    }
    Err(first_err.expect("the legacy mode always applies"))
}

#[cfg(test)]
mod tests {
    use super::super::test_headers as headers;
    use super::*;

    #[test]
    fn parts_without_a_user_are_a_400_naming_the_default_info() {
        let rows = [
            (
                vec![("Impersonate-Uid", "1234")],
                r#"&user.DefaultInfo{Name:"", UID:"1234", Groups:[]string(nil), Extra:map[string][]string(nil)}"#,
            ),
            (
                vec![("Impersonate-Group", "g1"), ("Impersonate-Group", "g2")],
                r#"&user.DefaultInfo{Name:"", UID:"", Groups:[]string{"g1", "g2"}, Extra:map[string][]string(nil)}"#,
            ),
            (
                vec![("Impersonate-Extra-Acme.io%2fA", "x")],
                r#"&user.DefaultInfo{Name:"", UID:"", Groups:[]string(nil), Extra:map[string][]string{"acme.io/a":[]string{"x"}}}"#,
            ),
        ];
        for (h, value) in rows {
            let e = Wanted::parse(&headers(&h)).unwrap_err();
            assert_eq!((e.code, e.reason), (400, "BadRequest"));
            assert_eq!(
                e.message,
                format!("requested {value} without impersonating a user name")
            );
        }
    }

    #[test]
    fn headers_naming_the_same_extra_key_add_to_it() {
        let h = headers(&[
            ("Impersonate-User", "bob"),
            ("Impersonate-Extra-Acme.io%2fA-B", "x"),
            ("Impersonate-Extra-Acme.io%2fA%2dB", "y"),
        ]);
        let wanted = Wanted::parse(&h).unwrap();
        assert_eq!(wanted.extra["acme.io/a-b"], ["y", "x"]);
    }

    #[test]
    fn extra_keys_must_be_lowercase_domain_prefixed_paths() {
        let extra = |k: &str, v: &[&str]| {
            BTreeMap::from([(k.to_string(), v.iter().map(|s| s.to_string()).collect())])
        };
        let rows = [
            (
                extra("scopes", &["a"]),
                r#"impersonating an invalid key in extra is not allowed: extra.key: Invalid value: "scopes": must be a domain-prefixed path (such as "acme.io/foo")"#,
            ),
            (
                extra("acme.io/p^th", &["a"]),
                r#"impersonating an invalid key in extra is not allowed: extra.key: Invalid value: "p^th": Invalid path (regex used for validation is '[A-Za-z0-9/\-._~%!$&'()*+,;=:]+')"#,
            ),
            (
                extra("acme.io/Scopes", &["a"]),
                r#"impersonating a non-lowercase key in extra is not allowed: "acme.io/Scopes""#,
            ),
            (
                extra("acme.io/scopes", &[""]),
                "impersonating the empty string value in extra is not allowed",
            ),
            (
                extra("", &["a"]),
                "impersonating the empty string key in extra is not allowed",
            ),
        ];
        for (e, want) in rows {
            assert_eq!(validate_extra(&e).unwrap_err(), want);
        }
        assert!(validate_extra(&extra("acme.io/scopes", &["a"])).is_ok());
    }

    #[test]
    fn modes_apply_by_identity() {
        let plain = UserInfo::new("bob", &[]);
        let w = |name: &str| Wanted {
            name: name.into(),
            ..Wanted::default()
        };
        let applying = |wanted: &Wanted, requestor: &UserInfo| -> Vec<&str> {
            MODES
                .iter()
                .filter(|m| applies(**m, wanted, requestor))
                .map(|m| m.name())
                .collect()
        };
        assert_eq!(applying(&w("alice"), &plain), ["user-info", "legacy"]);
        assert_eq!(
            applying(&w("system:node:n1"), &plain),
            ["arbitrary-node", "legacy"]
        );
        assert_eq!(
            applying(&w("system:node:N_1"), &plain),
            ["user-info", "legacy"]
        );
        assert_eq!(
            applying(&w("system:serviceaccount:ns:sa"), &plain),
            ["serviceaccount", "legacy"]
        );
        let mut with_group = w("system:serviceaccount:ns:sa");
        with_group.groups = vec!["g".into()];
        assert_eq!(applying(&with_group, &plain), ["legacy"]);
        let mut sa = UserInfo::new("system:serviceaccount:kube-system:agent", &[]);
        sa.extra.insert(
            "authentication.kubernetes.io/node-name".into(),
            vec!["n1".into()],
        );
        assert_eq!(
            applying(&w("system:node:n1"), &sa),
            ["associated-node", "arbitrary-node", "legacy"]
        );
    }
}
