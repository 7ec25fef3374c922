//! Impersonation as kube-apiserver 1.36 filters it: the constrained filter by default
//! (`impersonate-on:<mode>:<verb>` on the request, `impersonate:<mode>` on each part, the
//! legacy checks as a fallback, a memory of the mode that last worked), the legacy filter with
//! `ConstrainedImpersonation=false`.

use serde_json::{json, Value};

use crate::common::auth::{admin, server_like, RBAC, TOKENS};
use crate::common::*;

/// Grants alice (token `t-alice`) the rules, cluster-wide.
fn grant(e: &mut kubesim::Engine, name: &str, rules: Value) {
    admin(
        e,
        "POST",
        &format!("{RBAC}/clusterroles"),
        &json!({"metadata": {"name": name}, "rules": rules}),
    );
    admin(
        e,
        "POST",
        &format!("{RBAC}/clusterrolebindings"),
        &json!({"metadata": {"name": name}, "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": name}, "subjects": [{"kind": "User", "name": "alice"}]}),
    );
}

fn as_alice(e: &mut kubesim::Engine, path: &str, headers: &[(&str, &str)]) -> Resp {
    let mut h = vec![("authorization", "Bearer t-alice")];
    h.extend_from_slice(headers);
    send(e, "GET", path, None, &h)
}

fn legacy() -> kubesim::Engine {
    let tokens = kubesim::auth::TokenFile::parse("tokens.csv", TOKENS).unwrap();
    kubesim::Engine::new(kubesim::Config {
        auth: kubesim::auth::AuthConfig::server(tokens, true),
        feature_gates: kubesim::features::FeatureGates::parse("ConstrainedImpersonation=false")
            .unwrap(),
        ..kubesim::Config::default()
    })
}

const NAMESPACES: &str = "/api/v1/namespaces";

/// A table row: path, impersonation headers, alice's grants, code, message.
type Row = (
    &'static str,
    Vec<(&'static str, &'static str)>,
    Value,
    u16,
    &'static str,
);

/// Denials, each on a fresh server: the first applicable mode's first failing check.
#[test]
fn denials_name_the_first_mode_tried() {
    let user = |u: &'static str| vec![("impersonate-user", u)];
    let rows: Vec<Row> = vec![
        // No grants: the user-info mode's impersonate-on check.
        (
            NAMESPACES,
            user("bob"),
            json!([]),
            403,
            r#"namespaces is forbidden: User "alice" cannot impersonate-on:user-info:list resource "namespaces" in API group "" at the cluster scope"#,
        ),
        (
            "/api/v1/namespaces/default",
            user("bob"),
            json!([]),
            403,
            r#"namespaces "default" is forbidden: User "alice" cannot impersonate-on:user-info:get resource "namespaces" in API group "" in the namespace "default""#,
        ),
        (
            "/version",
            user("bob"),
            json!([]),
            403,
            r#"forbidden: User "alice" cannot impersonate-on:user-info:get path "/version""#,
        ),
        // impersonate-on alone: the user check of its mode.
        (
            NAMESPACES,
            user("bob"),
            json!([{"apiGroups": [""], "resources": ["namespaces"], "verbs": ["impersonate-on:user-info:list"]}]),
            403,
            r#"users.authentication.k8s.io "bob" is forbidden: User "alice" cannot impersonate:user-info resource "users" in API group "authentication.k8s.io" at the cluster scope"#,
        ),
        // A node and a service account have modes of their own.
        (
            NAMESPACES,
            user("system:node:n1"),
            json!([]),
            403,
            r#"namespaces is forbidden: User "alice" cannot impersonate-on:arbitrary-node:list resource "namespaces" in API group "" at the cluster scope"#,
        ),
        (
            NAMESPACES,
            user("system:serviceaccount:default:sa"),
            json!([]),
            403,
            r#"namespaces is forbidden: User "alice" cannot impersonate-on:serviceaccount:list resource "namespaces" in API group "" at the cluster scope"#,
        ),
        // A service account with a group: only the legacy mode applies.
        (
            NAMESPACES,
            vec![
                ("impersonate-user", "system:serviceaccount:default:sa"),
                ("impersonate-group", "g"),
            ],
            json!([]),
            403,
            r#"serviceaccounts "sa" is forbidden: User "alice" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "default""#,
        ),
        // A part without a user.
        (
            NAMESPACES,
            vec![("impersonate-uid", "1234")],
            json!([]),
            400,
            r#"requested &user.DefaultInfo{Name:"", UID:"1234", Groups:[]string(nil), Extra:map[string][]string(nil)} without impersonating a user name"#,
        ),
    ];
    let on_namespaces = json!([{"apiGroups": [""], "resources": ["namespaces"], "verbs": ["impersonate-on:user-info:list"]}, {"apiGroups": ["authentication.k8s.io"], "resources": ["users", "groups", "userextras/acme.io/scopes"], "verbs": ["impersonate:user-info"]}]);
    let more: Vec<Row> = vec![
        (
            NAMESPACES,
            vec![("impersonate-user", "bob"), ("impersonate-uid", "1234")],
            on_namespaces.clone(),
            403,
            r#"uids.authentication.k8s.io "1234" is forbidden: User "alice" cannot impersonate:user-info resource "uids" in API group "authentication.k8s.io" at the cluster scope"#,
        ),
        (
            NAMESPACES,
            vec![
                ("impersonate-user", "bob"),
                ("impersonate-group", "system:masters"),
            ],
            on_namespaces.clone(),
            403,
            r#"groups.authentication.k8s.io "system:masters" is forbidden: User "alice" cannot impersonate:user-info resource "groups" in API group "authentication.k8s.io" at the cluster scope: impersonating the system:masters group is not allowed"#,
        ),
        (
            NAMESPACES,
            vec![
                ("impersonate-user", "bob"),
                ("impersonate-extra-scopes", "a"),
            ],
            on_namespaces.clone(),
            403,
            r#"userextras.authentication.k8s.io is forbidden: User "alice" cannot impersonate:user-info resource "userextras" in API group "authentication.k8s.io" at the cluster scope: impersonating an invalid key in extra is not allowed: extra.key: Invalid value: "scopes": must be a domain-prefixed path (such as "acme.io/foo")"#,
        ),
    ];
    for (path, headers, rules, code, message) in rows.into_iter().chain(more) {
        let mut e = server_like();
        grant(&mut e, "impersonator", rules);
        let r = as_alice(&mut e, path, &headers);
        assert_eq!((r.code, r.message()), (code, message), "{path} {headers:?}");
    }
}

/// Allowed impersonation: the request runs as the impersonated user, who is then authorized
/// for it as usual; a node gets `system:nodes`, a service account its groups.
#[test]
fn a_granted_mode_runs_the_request_as_the_user() {
    let mut e = server_like();
    grant(
        &mut e,
        "impersonator",
        json!([{"apiGroups": [""], "resources": ["namespaces"], "verbs": ["impersonate-on:user-info:list"]},
               {"apiGroups": ["authentication.k8s.io"], "resources": ["users"], "verbs": ["impersonate:user-info"], "resourceNames": ["bob"]}]),
    );
    let r = as_alice(&mut e, NAMESPACES, &[("impersonate-user", "bob")]);
    assert_eq!(
        r.message(),
        r#"namespaces is forbidden: User "bob" cannot list resource "namespaces" in API group "" at the cluster scope"#
    );
    // Only for the verb granted.
    let r = as_alice(
        &mut e,
        &format!("{NAMESPACES}?watch=1"),
        &[("impersonate-user", "bob")],
    );
    assert_eq!(
        r.message(),
        r#"namespaces is forbidden: User "alice" cannot impersonate-on:user-info:watch resource "namespaces" in API group "" at the cluster scope"#
    );

    let review = "/apis/authentication.k8s.io/v1/selfsubjectreviews";
    let body = r#"{"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"}"#;
    let who = |e: &mut kubesim::Engine, user: &str| {
        let h = [
            ("authorization", "Bearer t-alice"),
            ("content-type", "application/json"),
            ("impersonate-user", user),
        ];
        let r = send(e, "POST", review, Some(body), &h);
        assert_eq!(r.code, 201, "{user}: {}", r.text);
        r.json["status"]["userInfo"].clone()
    };
    grant(
        &mut e,
        "reviews",
        json!([
        {"apiGroups": ["authentication.k8s.io"], "resources": ["selfsubjectreviews"], "verbs": ["impersonate-on:arbitrary-node:create", "impersonate-on:serviceaccount:create"]},
        {"apiGroups": ["authentication.k8s.io"], "resources": ["nodes"], "verbs": ["impersonate:arbitrary-node"]},
        {"apiGroups": ["authentication.k8s.io"], "resources": ["serviceaccounts"], "verbs": ["impersonate:serviceaccount"]}]),
    );
    assert_eq!(
        who(&mut e, "system:node:n1"),
        json!({"username": "system:node:n1", "groups": ["system:nodes", "system:authenticated"]})
    );
    assert_eq!(
        who(&mut e, "system:serviceaccount:default:sa")["groups"],
        json!([
            "system:serviceaccounts",
            "system:serviceaccounts:default",
            "system:authenticated"
        ])
    );
}

/// The mode that last worked for a caller is tried first: after a legacy success, alice's
/// denials read as the legacy filter's.
#[test]
fn the_last_mode_that_worked_is_tried_first() {
    let mut e = server_like();
    grant(
        &mut e,
        "legacy",
        json!([{"apiGroups": [""], "resources": ["users"], "verbs": ["impersonate"]}]),
    );
    let devs = [("impersonate-user", "bob"), ("impersonate-group", "devs")];
    let r = as_alice(&mut e, NAMESPACES, &devs);
    assert_eq!(
        r.message(),
        r#"namespaces is forbidden: User "alice" cannot impersonate-on:user-info:list resource "namespaces" in API group "" at the cluster scope"#
    );
    let r = as_alice(&mut e, NAMESPACES, &[("impersonate-user", "bob")]);
    assert!(
        r.message().contains(r#"User "bob" cannot list"#),
        "through legacy: {}",
        r.text
    );
    let r = as_alice(&mut e, NAMESPACES, &devs);
    assert_eq!(
        r.message(),
        r#"groups "devs" is forbidden: User "alice" cannot impersonate resource "groups" in API group "" at the cluster scope"#
    );
}

/// A success is remembered 10 s: a revoked grant bites after that.
#[test]
fn successes_are_remembered_ten_seconds() {
    let mut e = server_like();
    grant(
        &mut e,
        "impersonator",
        json!([
        {"apiGroups": [""], "resources": ["namespaces"], "verbs": ["impersonate-on:user-info:list"]},
        {"apiGroups": ["authentication.k8s.io"], "resources": ["users"], "verbs": ["impersonate:user-info"]}]),
    );
    let bob = [("impersonate-user", "bob")];
    assert!(as_alice(&mut e, NAMESPACES, &bob)
        .message()
        .contains(r#"User "bob""#));
    admin(
        &mut e,
        "DELETE",
        &format!("{RBAC}/clusterrolebindings/impersonator"),
        &json!({}),
    );
    assert!(
        as_alice(&mut e, NAMESPACES, &bob)
            .message()
            .contains(r#"User "bob""#),
        "remembered"
    );
    e.advance(10_000);
    let r = as_alice(&mut e, NAMESPACES, &bob);
    assert!(
        r.message().contains("cannot impersonate-on:user-info:list"),
        "{}",
        r.text
    );
}

/// With the gate off, the legacy filter: the `impersonate` verb on each part, the uid last.
#[test]
fn the_legacy_filter_without_the_gate() {
    let mut e = legacy();
    let r = as_alice(&mut e, "/version", &[("impersonate-user", "bob")]);
    assert_eq!(
        r.message(),
        r#"users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope"#
    );
    let r = as_alice(&mut e, "/version", &[("impersonate-group", "ops")]);
    assert_eq!((r.code, r.reason()), (400, "BadRequest"));
    assert_eq!(
        r.message(),
        "requested [{Group  ops    }] without impersonating a user"
    );
    grant(
        &mut e,
        "on",
        json!([{"apiGroups": [""], "resources": ["namespaces"], "verbs": ["impersonate-on:user-info:list"]}]),
    );
    let r = as_alice(&mut e, NAMESPACES, &[("impersonate-user", "bob")]);
    assert!(
        r.message().starts_with(r#"users "bob" is forbidden"#),
        "the new verbs mean nothing: {}",
        r.text
    );
}

/// The admin (system:masters) passes every mode's checks; alice, without grants, fails the
/// first; groups without a user are a 400.
#[test]
fn impersonation_is_authorized_per_part() {
    let mut e = server_like();
    let r = as_alice(&mut e, "/version", &[("impersonate-user", "bob")]);
    // 1.36's constrained filter: the user-info mode's check on the request itself.
    assert_eq!(
        r.message(),
        "forbidden: User \"alice\" cannot impersonate-on:user-info:get path \"/version\""
    );
    // Groups without a user.
    let r = as_alice(&mut e, "/version", &[("impersonate-group", "ops")]);
    assert_eq!((r.code, r.reason()), (400, "BadRequest"));
    assert_eq!(
        r.message(),
        "requested &user.DefaultInfo{Name:\"\", UID:\"\", Groups:[]string{\"ops\"}, Extra:map[string][]string(nil)} without impersonating a user name"
    );
    assert_eq!(r.header("x-content-type-options"), "nosniff");
    // The admin may impersonate; the request then runs as alice (403 on a list).
    let as_admin = |e: &mut kubesim::Engine, extra: &[(&str, &str)]| {
        let mut h = vec![("authorization", "Bearer kubesim")];
        h.extend_from_slice(extra);
        send(e, "GET", NAMESPACES, None, &h)
    };
    let r = as_admin(&mut e, &[("impersonate-user", "alice")]);
    assert_eq!(r.message(), "namespaces is forbidden: User \"alice\" cannot list resource \"namespaces\" in API group \"\" at the cluster scope");
    let r = as_admin(
        &mut e,
        &[
            ("impersonate-user", "alice"),
            ("impersonate-group", "system:masters"),
        ],
    );
    assert_eq!(r.code, 200);
}
