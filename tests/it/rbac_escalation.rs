//! Escalation prevention (reference §15, `ConfirmNoEscalation`): a user writes a Role only
//! with rules they hold and a binding only to a role whose rules they hold, unless they may
//! `escalate` or `bind`; `system:masters` writes anything. The check comes before
//! validation.

use serde_json::{json, Value};

use crate::common::auth::{admin, admin_ns, as_user, server_like, RBAC};
use crate::common::Resp;
use kubesim::Engine;

const ALICE: &str = "user \"alice\" (groups=[\"system:authenticated\"]) is attempting to grant RBAC permissions not currently held:\n";

fn role(name: &str, rules: Value) -> Value {
    json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role",
           "metadata": {"name": name}, "rules": rules})
}

fn binding(kind: &str, name: &str, role_kind: &str, role: &str) -> Value {
    json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": kind,
           "metadata": {"name": name},
           "subjects": [{"kind": "User", "apiGroup": "rbac.authorization.k8s.io", "name": "bob"}],
           "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": role_kind, "name": role}})
}

fn cm_rule(verbs: &[&str]) -> Value {
    json!({"verbs": verbs, "apiGroups": [""], "resources": ["configmaps"]})
}

/// alice may manage roles and bindings in `dev` and read configmaps there.
fn engine() -> Engine {
    let mut e = server_like();
    admin_ns(&mut e, "dev");
    let manager = role(
        "manager",
        json!([
            {"verbs": ["create", "update", "patch", "get"], "apiGroups": ["rbac.authorization.k8s.io"],
             "resources": ["roles", "rolebindings"]},
            cm_rule(&["get", "list"]),
        ]),
    );
    admin(
        &mut e,
        "POST",
        &format!("{RBAC}/namespaces/dev/roles"),
        &manager,
    );
    let mut b = binding("RoleBinding", "manager", "Role", "manager");
    b["subjects"][0]["name"] = json!("alice");
    admin(
        &mut e,
        "POST",
        &format!("{RBAC}/namespaces/dev/rolebindings"),
        &b,
    );
    e
}

fn alice(e: &mut Engine, method: &str, uri: &str, body: &Value) -> Resp {
    as_user(e, "t-alice", method, uri, Some(body))
}

fn roles() -> String {
    format!("{RBAC}/namespaces/dev/roles")
}

fn rolebindings() -> String {
    format!("{RBAC}/namespaces/dev/rolebindings")
}

#[test]
fn a_role_may_hold_only_what_its_writer_holds() {
    let mut e = engine();
    let r = alice(
        &mut e,
        "POST",
        &roles(),
        &role("reader", json!([cm_rule(&["get", "list"])])),
    );
    assert_eq!(r.code, 201, "{}", r.text);
    let r = alice(
        &mut e,
        "POST",
        &roles(),
        &role(
            "writer",
            json!([cm_rule(&["get", "list", "watch", "delete"])]),
        ),
    );
    assert_eq!(r.code, 403);
    assert_eq!(r.json["reason"], "Forbidden");
    assert_eq!(
        r.message(),
        format!("roles.rbac.authorization.k8s.io \"writer\" is forbidden: {ALICE}{{APIGroups:[\"\"], Resources:[\"configmaps\"], Verbs:[\"watch\" \"delete\"]}}")
    );
    assert_eq!(
        r.json["details"],
        json!({"name": "writer", "group": "rbac.authorization.k8s.io", "kind": "roles"})
    );
    // Several missing rules: one line each, sorted; names and URLs kept apart.
    let wanted = json!([
        {"verbs": ["get"], "apiGroups": ["apps"], "resources": ["deployments"], "resourceNames": ["web"]},
        {"verbs": ["get", "list", "patch"], "apiGroups": [""], "resources": ["configmaps", "secrets"]},
    ]);
    let r = alice(&mut e, "POST", &roles(), &role("many", wanted));
    let lines = r.message().split_once(ALICE).map(|(_, l)| l.to_string());
    assert_eq!(
        lines.as_deref(),
        Some(
            "{APIGroups:[\"\"], Resources:[\"configmaps\"], Verbs:[\"patch\"]}\n\
             {APIGroups:[\"\"], Resources:[\"secrets\"], Verbs:[\"get\" \"list\" \"patch\"]}\n\
             {APIGroups:[\"apps\"], Resources:[\"deployments\"], ResourceNames:[\"web\"], Verbs:[\"get\"]}"
        ),
        "{}",
        r.text
    );
    // Forbidden comes before validation: an invalid, escalating role is a 403.
    let r = alice(
        &mut e,
        "POST",
        &roles(),
        &role("Bad_Name", json!([cm_rule(&["delete"])])),
    );
    assert_eq!(r.code, 403, "{}", r.text);
    // ... and a generated name is not there yet.
    let mut gen = role("", json!([cm_rule(&["delete"])]));
    gen["metadata"] = json!({"generateName": "r-"});
    let r = alice(&mut e, "POST", &roles(), &gen);
    assert!(
        r.message()
            .starts_with("roles.rbac.authorization.k8s.io is forbidden: user \"alice\""),
        "{}",
        r.text
    );
    // Dry run and server-side apply are checked the same way.
    let r = alice(
        &mut e,
        "POST",
        &format!("{}?dryRun=All", roles()),
        &role("w", json!([cm_rule(&["delete"])])),
    );
    assert_eq!(r.code, 403);
    let yaml = "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: w\nrules:\n- verbs: [delete]\n  apiGroups: ['']\n  resources: [configmaps]\n";
    let r = crate::common::send(
        &mut e,
        "PATCH",
        &format!("{}/w?fieldManager=alice", roles()),
        Some(yaml),
        &[
            ("authorization", "Bearer t-alice"),
            ("content-type", "application/apply-patch+yaml"),
        ],
    );
    assert_eq!(r.code, 403, "{}", r.text);
    assert_eq!(
        r.message(),
        format!("roles.rbac.authorization.k8s.io \"w\" is forbidden: {ALICE}{{APIGroups:[\"\"], Resources:[\"configmaps\"], Verbs:[\"delete\"]}}")
    );
}

/// A PUT that creates a role is authorized by the URL's name: `escalate` granted for that
/// name lets it hold more than its writer.
#[test]
fn a_put_create_escalates_by_the_urls_name() {
    let mut e = engine();
    let grant = role(
        "escalate-named",
        json!([{"verbs": ["escalate"], "apiGroups": ["rbac.authorization.k8s.io"],
                "resources": ["roles"], "resourceNames": ["named"]}]),
    );
    admin(&mut e, "POST", &roles(), &grant);
    let mut b = binding("RoleBinding", "escalate-named", "Role", "escalate-named");
    b["subjects"][0]["name"] = json!("alice");
    admin(&mut e, "POST", &rolebindings(), &b);
    let rules = json!([cm_rule(&["delete"])]);
    let r = alice(
        &mut e,
        "PUT",
        &format!("{}/named", roles()),
        &role("named", rules.clone()),
    );
    assert_eq!(r.code, 201, "{}", r.text);
    let r = alice(
        &mut e,
        "PUT",
        &format!("{}/other", roles()),
        &role("other", rules),
    );
    assert_eq!(r.code, 403, "{}", r.text);
    assert!(r.message().contains(ALICE), "{}", r.text);
}

#[test]
fn updates_check_the_whole_new_rule_set() {
    let mut e = engine();
    admin(
        &mut e,
        "POST",
        &roles(),
        &role("big", json!([cm_rule(&["*"])])),
    );
    let current = as_user(&mut e, "t-alice", "GET", &format!("{}/big", roles()), None).json;
    // A write that changes nothing passes (`IsOnlyMutatingGCFields`) ...
    let r = alice(&mut e, "PUT", &format!("{}/big", roles()), &current);
    assert_eq!(r.code, 200, "{}", r.text);
    // ... and so does one that changes only finalizers (its managedFields change with it).
    let mut finalized = r.json.clone();
    finalized["metadata"]["finalizers"] = json!(["example.com/keep"]);
    let r = alice(&mut e, "PUT", &format!("{}/big", roles()), &finalized);
    assert_eq!(r.code, 200, "{}", r.text);
    let mut current = r.json.clone();
    current["metadata"]
        .as_object_mut()
        .unwrap()
        .remove("finalizers");
    let r = alice(&mut e, "PUT", &format!("{}/big", roles()), &current);
    assert_eq!(r.code, 200, "{}", r.text);
    let current = r.json.clone();
    // ... any other change needs every rule of the new object.
    let mut labelled = current.clone();
    labelled["metadata"]["labels"] = json!({"a": "b"});
    let r = alice(&mut e, "PUT", &format!("{}/big", roles()), &labelled);
    assert_eq!(
        r.message(),
        format!("roles.rbac.authorization.k8s.io \"big\" is forbidden: {ALICE}{{APIGroups:[\"\"], Resources:[\"configmaps\"], Verbs:[\"*\"]}}")
    );
    // `escalate` lifts the check.
    let grant = role(
        "escalator",
        json!([{"verbs": ["escalate"], "apiGroups": ["rbac.authorization.k8s.io"], "resources": ["roles"]}]),
    );
    admin(&mut e, "POST", &roles(), &grant);
    let mut b = binding("RoleBinding", "escalator", "Role", "escalator");
    b["subjects"][0]["name"] = json!("alice");
    admin(&mut e, "POST", &rolebindings(), &b);
    let r = alice(&mut e, "PUT", &format!("{}/big", roles()), &labelled);
    assert_eq!(r.code, 200, "{}", r.text);
}

#[test]
fn a_binding_needs_the_roles_rules_or_bind() {
    let mut e = engine();
    alice(
        &mut e,
        "POST",
        &roles(),
        &role("reader", json!([cm_rule(&["get"])])),
    );
    let r = alice(
        &mut e,
        "POST",
        &rolebindings(),
        &binding("RoleBinding", "b1", "Role", "reader"),
    );
    assert_eq!(r.code, 201, "{}", r.text);
    // Every authenticated user holds system:basic-user (a bootstrap binding).
    let r = alice(
        &mut e,
        "POST",
        &rolebindings(),
        &binding("RoleBinding", "b0", "ClusterRole", "system:basic-user"),
    );
    assert_eq!(r.code, 201, "{}", r.text);
    let deleter = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
        "metadata": {"name": "deleter"}, "rules": [cm_rule(&["delete", "get"]), {"verbs": ["get"], "nonResourceURLs": ["/metrics"]}]});
    admin(&mut e, "POST", &format!("{RBAC}/clusterroles"), &deleter);
    let r = alice(
        &mut e,
        "POST",
        &rolebindings(),
        &binding("RoleBinding", "b2", "ClusterRole", "deleter"),
    );
    assert_eq!(r.code, 403);
    assert_eq!(
        r.message(),
        format!("rolebindings.rbac.authorization.k8s.io \"b2\" is forbidden: {ALICE}{{APIGroups:[\"\"], Resources:[\"configmaps\"], Verbs:[\"delete\"]}}\n{{NonResourceURLs:[\"/metrics\"], Verbs:[\"get\"]}}")
    );
    // The referenced role is read first: missing is the registry's 404, read with the
    // request's context, so it names the request's resource; an unknown kind is a 500.
    let r = alice(
        &mut e,
        "POST",
        &rolebindings(),
        &binding("RoleBinding", "b3", "Role", "ghost"),
    );
    assert_eq!(
        (r.code, r.message()),
        (
            404,
            "rolebindings.rbac.authorization.k8s.io \"ghost\" not found"
        )
    );
    assert_eq!(
        r.json["details"],
        json!({"name": "ghost", "group": "rbac.authorization.k8s.io", "kind": "rolebindings"})
    );
    let r = alice(
        &mut e,
        "POST",
        &rolebindings(),
        &binding("RoleBinding", "b4", "Widget", "x"),
    );
    assert_eq!(r.code, 500);
    assert_eq!(
        r.json,
        json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
               "message": "unsupported role reference kind: \"Widget\"", "code": 500})
    );
    // `bind` on one ClusterRole, in this namespace, allows binding it and nothing else.
    let grant = role(
        "binder",
        json!([{"verbs": ["bind"], "apiGroups": ["rbac.authorization.k8s.io"],
                                       "resources": ["clusterroles"], "resourceNames": ["deleter"]}]),
    );
    admin(&mut e, "POST", &roles(), &grant);
    let mut b = binding("RoleBinding", "binder", "Role", "binder");
    b["subjects"][0]["name"] = json!("alice");
    admin(&mut e, "POST", &rolebindings(), &b);
    let r = alice(
        &mut e,
        "POST",
        &rolebindings(),
        &binding("RoleBinding", "b2", "ClusterRole", "deleter"),
    );
    assert_eq!(r.code, 201, "{}", r.text);
    let r = alice(
        &mut e,
        "POST",
        &rolebindings(),
        &binding("RoleBinding", "b5", "ClusterRole", "view"),
    );
    assert_eq!(r.code, 403);
    // The privileged pass through, and the 422 comes from validation.
    let r = admin_try(&mut e, &binding("RoleBinding", "b6", "Widget", "x"));
    assert_eq!(r.code, 422, "{}", r.text);
}

fn admin_try(e: &mut Engine, body: &Value) -> Resp {
    as_user(e, "kubesim", "POST", &rolebindings(), Some(body))
}

#[test]
fn cluster_scoped_writes_count_only_cluster_grants() {
    let mut e = server_like();
    admin_ns(&mut e, "dev");
    // bob may create cluster roles and bindings and read configmaps everywhere; one of his
    // bindings names a role that is gone.
    let cr = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
        "metadata": {"name": "bob-admin"},
        "rules": [{"verbs": ["create"], "apiGroups": ["rbac.authorization.k8s.io"], "resources": ["clusterroles", "clusterrolebindings"]},
                  cm_rule(&["get"])]});
    admin(&mut e, "POST", &format!("{RBAC}/clusterroles"), &cr);
    admin(
        &mut e,
        "POST",
        &format!("{RBAC}/clusterrolebindings"),
        &binding(
            "ClusterRoleBinding",
            "bob-admin",
            "ClusterRole",
            "bob-admin",
        ),
    );
    admin(
        &mut e,
        "POST",
        &format!("{RBAC}/clusterrolebindings"),
        &binding("ClusterRoleBinding", "bob-gone", "ClusterRole", "gone"),
    );
    let bob =
        |e: &mut Engine, uri: &str, body: &Value| as_user(e, "t-bob", "POST", uri, Some(body));
    let mut aggregated = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
        "metadata": {"name": "agg"}, "rules": [cm_rule(&["get"])],
        "aggregationRule": {"clusterRoleSelectors": [{"matchLabels": {"x": "y"}}]}});
    let r = bob(&mut e, &format!("{RBAC}/clusterroles"), &aggregated);
    assert_eq!(
        (r.code, r.message()),
        (403, "clusterroles.rbac.authorization.k8s.io \"agg\" is forbidden: must have cluster-admin privileges to use the aggregationRule")
    );
    aggregated["rules"] = json!([cm_rule(&["list"])]);
    let r = bob(&mut e, &format!("{RBAC}/clusterroles"), &aggregated);
    assert_eq!(
        r.message(),
        "clusterroles.rbac.authorization.k8s.io \"agg\" is forbidden: user \"bob\" (groups=[\"dev\" \"ops\" \"system:authenticated\"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[\"\"], Resources:[\"configmaps\"], Verbs:[\"list\"]}; resolution errors: [clusterroles.rbac.authorization.k8s.io \"gone\" not found]"
    );
    // A binding's check reads the same roles, and its lookup errors name the binding
    // resource the request is on.
    let lister = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
        "metadata": {"name": "lister"}, "rules": [cm_rule(&["list"])]});
    admin(&mut e, "POST", &format!("{RBAC}/clusterroles"), &lister);
    let r = bob(
        &mut e,
        &format!("{RBAC}/clusterrolebindings"),
        &binding("ClusterRoleBinding", "bob-lists", "ClusterRole", "lister"),
    );
    assert_eq!(
        r.message(),
        "clusterrolebindings.rbac.authorization.k8s.io \"bob-lists\" is forbidden: user \"bob\" (groups=[\"dev\" \"ops\" \"system:authenticated\"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[\"\"], Resources:[\"configmaps\"], Verbs:[\"list\"]}; resolution errors: [clusterrolebindings.rbac.authorization.k8s.io \"gone\" not found]"
    );
    // A RoleBinding in dev granting configmaps does not count for a cluster-scoped write.
    let dev = role("dev-lister", json!([cm_rule(&["list"])]));
    admin(&mut e, "POST", &roles(), &dev);
    admin(
        &mut e,
        "POST",
        &rolebindings(),
        &binding("RoleBinding", "bob-dev", "Role", "dev-lister"),
    );
    let plain = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
        "metadata": {"name": "lister"}, "rules": [cm_rule(&["list"])]});
    assert_eq!(
        bob(&mut e, &format!("{RBAC}/clusterroles"), &plain).code,
        403
    );
    let ok = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
        "metadata": {"name": "getter"}, "rules": [cm_rule(&["get"])]});
    assert_eq!(bob(&mut e, &format!("{RBAC}/clusterroles"), &ok).code, 201);
    let r = bob(
        &mut e,
        &format!("{RBAC}/clusterrolebindings"),
        &binding("ClusterRoleBinding", "g", "ClusterRole", "getter"),
    );
    assert_eq!(r.code, 201, "{}", r.text);
}
