//! RBAC on reads and dry runs (reference §15.2): a resourceNames grant allows a list or
//! watch only when the field selector names the object, and the stream then carries that
//! object alone; a dry run needs the same permission as the real request.

use serde_json::json;

use crate::common::auth::{admin, admin_ns, as_user, server_like, RBAC};
use crate::common::watch_with;
use kubesim::Engine;

fn cm(ns: &str, name: &str) -> String {
    match name {
        "" => format!("/api/v1/namespaces/{ns}/configmaps"),
        _ => format!("/api/v1/namespaces/{ns}/configmaps/{name}"),
    }
}

/// Namespace `a` with configmaps x and y; bob (group ops) may get, list and watch x only;
/// alice may only create configmaps in `a`.
fn engine() -> Engine {
    let mut e = server_like();
    admin_ns(&mut e, "a");
    for name in ["x", "y"] {
        admin(
            &mut e,
            "POST",
            &cm("a", ""),
            &json!({"metadata": {"name": name}}),
        );
    }
    let reader = json!({"metadata": {"name": "x-reader"}, "rules": [{"apiGroups": [""],
        "resources": ["configmaps"], "resourceNames": ["x"], "verbs": ["get", "list", "watch"]}]});
    admin(&mut e, "POST", &format!("{RBAC}/clusterroles"), &reader);
    let binding = json!({"metadata": {"name": "x-reader"}, "roleRef": {"kind": "ClusterRole", "name": "x-reader"},
        "subjects": [{"kind": "Group", "name": "ops"}]});
    admin(
        &mut e,
        "POST",
        &format!("{RBAC}/clusterrolebindings"),
        &binding,
    );
    let creator = json!({"metadata": {"name": "creator"}, "rules": [{"apiGroups": [""],
        "resources": ["configmaps"], "verbs": ["create"]}]});
    admin(
        &mut e,
        "POST",
        &format!("{RBAC}/namespaces/a/roles"),
        &creator,
    );
    let binding = json!({"metadata": {"name": "creator"}, "roleRef": {"kind": "Role", "name": "creator"},
        "subjects": [{"kind": "User", "name": "alice"}]});
    admin(
        &mut e,
        "POST",
        &format!("{RBAC}/namespaces/a/rolebindings"),
        &binding,
    );
    e
}

#[test]
fn a_watch_under_a_resource_names_grant_sees_that_object_alone() {
    let mut e = engine();
    let bob = [("authorization", "Bearer t-bob")];
    let w = watch_with(&mut e, &format!("{}?watch=1", cm("a", "")), &bob);
    assert_eq!(w.code, 403);
    assert!(w.body.contains("User \\\"bob\\\" cannot watch resource \\\"configmaps\\\" in API group \\\"\\\" in the namespace \\\"a\\\""), "{}", w.body);
    let mut w = watch_with(
        &mut e,
        &format!("{}?watch=1&fieldSelector=metadata.name%3Dx", cm("a", "")),
        &bob,
    );
    assert_eq!(w.code, 200, "{}", w.body);
    assert_eq!(w.summary(), ["ADDED x"]);
    for name in ["y", "x"] {
        let body = json!({"metadata": {"name": name, "labels": {"v": "2"}}});
        admin(&mut e, "PUT", &cm("a", name), &body);
    }
    admin(&mut e, "DELETE", &cm("a", "y"), &json!({}));
    assert_eq!(w.summary(), ["MODIFIED x"]);
    // The same grant seen through a list: the named object, or nothing at all.
    let r = as_user(
        &mut e,
        "t-bob",
        "GET",
        &format!("{}?fieldSelector=metadata.name%3Dx", cm("a", "")),
        None,
    );
    assert_eq!(r.names(), ["x"]);
    let r = as_user(
        &mut e,
        "t-bob",
        "GET",
        &format!("{}?fieldSelector=metadata.name%3Dy", cm("a", "")),
        None,
    );
    assert_eq!(r.code, 403);
}

#[test]
fn a_dry_run_needs_what_the_request_needs() {
    let mut e = engine();
    let dry = |uri: String| format!("{uri}?dryRun=All");
    // alice may create in a: the dry run answers 201 and stores nothing.
    let r = as_user(
        &mut e,
        "t-alice",
        "POST",
        &dry(cm("a", "")),
        Some(&json!({"metadata": {"name": "z"}})),
    );
    assert_eq!(r.code, 201, "{}", r.text);
    assert_eq!(
        as_user(&mut e, "kubesim", "GET", &cm("a", "z"), None).code,
        404
    );
    // Not elsewhere, and no other verb, dry run or not.
    let r = as_user(
        &mut e,
        "t-alice",
        "POST",
        &dry(cm("default", "")),
        Some(&json!({"metadata": {"name": "z"}})),
    );
    assert_eq!(r.message(), "configmaps is forbidden: User \"alice\" cannot create resource \"configmaps\" in API group \"\" in the namespace \"default\"");
    let r = as_user(&mut e, "t-alice", "DELETE", &dry(cm("a", "x")), None);
    assert_eq!(r.message(), "configmaps \"x\" is forbidden: User \"alice\" cannot delete resource \"configmaps\" in API group \"\" in the namespace \"a\"");
    let r = as_user(
        &mut e,
        "t-bob",
        "PUT",
        &dry(cm("a", "x")),
        Some(&json!({"metadata": {"name": "x"}})),
    );
    assert_eq!(r.code, 403);
    assert_eq!(r.message(), "configmaps \"x\" is forbidden: User \"bob\" cannot update resource \"configmaps\" in API group \"\" in the namespace \"a\"");
    assert_eq!(
        as_user(&mut e, "kubesim", "GET", &cm("a", "x"), None).code,
        200
    );
}
