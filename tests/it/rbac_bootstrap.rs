//! The RBAC bootstrap policy (reference §15): what kube-apiserver 1.36's
//! `rbac/bootstrap-roles` hook leaves on a fresh cluster, and what it grants.

use serde_json::{json, Value};

use crate::common::auth::{as_user, server_like, RBAC};
use crate::common::send;

fn admin_get(e: &mut kubesim::Engine, uri: &str) -> Value {
    let r = as_user(e, "kubesim", "GET", uri, None);
    assert_eq!(r.code, 200, "{uri}: {}", r.text);
    r.json
}

/// The names of a list's items in creation order (resourceVersion ascending).
fn created_order(list: &Value) -> Vec<String> {
    let mut items: Vec<(u64, String)> = list["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            let rv = o["metadata"]["resourceVersion"].as_str().unwrap();
            let name = o["metadata"]["name"].as_str().unwrap();
            (rv.parse().unwrap(), name.to_string())
        })
        .collect();
    items.sort();
    items.into_iter().map(|(_, n)| n).collect()
}

#[test]
fn a_fresh_cluster_holds_the_whole_policy_in_the_hooks_order() {
    let mut e = server_like();
    // 31 + 38 controller ClusterRoles, 12 + 38 bindings, 7 Roles and 7 RoleBindings.
    let roles = admin_get(&mut e, &format!("{RBAC}/clusterroles"));
    let mut order = created_order(&roles);
    assert_eq!(order.len(), 69);
    // The aggregation controller's applies to admin, edit and view come last.
    let aggregated: Vec<String> = order.drain(66..).collect();
    let mut sorted = aggregated.clone();
    sorted.sort();
    assert_eq!(sorted, ["admin", "edit", "view"]);
    assert_eq!(
        order[..4],
        [
            "cluster-admin",
            "system:discovery",
            "system:monitoring",
            "system:basic-user"
        ]
    );
    assert_eq!(order[27], "system:kube-scheduler");
    assert_eq!(order[28], "system:controller:attachdetach-controller");
    assert_eq!(order[65], "system:controller:selinux-warning-controller");
    let bindings = admin_get(&mut e, &format!("{RBAC}/clusterrolebindings"));
    let order = created_order(&bindings);
    assert_eq!(order.len(), 50);
    assert_eq!(
        order[..3],
        ["cluster-admin", "system:monitoring", "system:discovery"]
    );
    for (kind, n) in [("roles", 7), ("rolebindings", 7)] {
        let list = admin_get(&mut e, &format!("{RBAC}/{kind}"));
        assert_eq!(list["items"].as_array().unwrap().len(), n, "{kind}");
    }
    // No OpenShift carries (RestrictedEndpointsAdmission's `*/restricted` grants).
    assert!(!roles.to_string().contains("/restricted"));

    // A controller role, verbatim, with its binding to the controller's ServiceAccount.
    let role = admin_get(
        &mut e,
        &format!("{RBAC}/clusterroles/system:controller:namespace-controller"),
    );
    assert_eq!(
        role["rules"],
        json!([
            {"apiGroups": [""], "resources": ["namespaces"], "verbs": ["delete", "get", "list", "watch"]},
            {"apiGroups": [""], "resources": ["namespaces/finalize", "namespaces/status"], "verbs": ["update"]},
            {"apiGroups": ["*"], "resources": ["*"], "verbs": ["delete", "deletecollection", "get", "list", "watch"]}
        ])
    );
    assert_eq!(
        role["metadata"]["labels"],
        json!({"kubernetes.io/bootstrapping": "rbac-defaults"})
    );
    let binding = admin_get(
        &mut e,
        &format!("{RBAC}/clusterrolebindings/system:controller:namespace-controller"),
    );
    assert_eq!(
        binding["subjects"],
        json!([{"kind": "ServiceAccount", "name": "namespace-controller", "namespace": "kube-system"}])
    );
    // `system:node` is bound to nobody: the Node authorizer grants kubelets.
    let node = admin_get(&mut e, &format!("{RBAC}/clusterrolebindings/system:node"));
    assert_eq!(node.get("subjects"), None);
    // A namespaced Role of kube-system, created by the same hook.
    let reader = admin_get(
        &mut e,
        &format!("{RBAC}/namespaces/kube-system/roles/extension-apiserver-authentication-reader"),
    );
    assert_eq!(
        reader["rules"],
        json!([{"apiGroups": [""], "resourceNames": ["extension-apiserver-authentication"],
                "resources": ["configmaps"], "verbs": ["get", "list", "watch"]}])
    );
}

/// What the policy grants, seen through impersonation by the admin.
#[test]
fn the_policy_grants_the_components_their_access() {
    let mut e = server_like();
    let as_who = |e: &mut kubesim::Engine, who: &str, method: &str, uri: &str| {
        send(
            e,
            method,
            uri,
            None,
            &[
                ("authorization", "Bearer kubesim"),
                ("impersonate-user", who),
            ],
        )
    };
    let cm = "/api/v1/namespaces/kube-system/configmaps";
    // system::extension-apiserver-authentication-reader binds the scheduler to one ConfigMap.
    let r = as_who(
        &mut e,
        "system:kube-scheduler",
        "GET",
        &format!("{cm}/extension-apiserver-authentication"),
    );
    assert_eq!(r.code, 404, "{}", r.text);
    let r = as_who(
        &mut e,
        "system:kube-scheduler",
        "GET",
        &format!("{cm}/other"),
    );
    assert_eq!(r.message(), "configmaps \"other\" is forbidden: User \"system:kube-scheduler\" cannot get resource \"configmaps\" in API group \"\" in the namespace \"kube-system\"");
    // The garbage collector's ServiceAccount may delete anything.
    let gc = "system:serviceaccount:kube-system:generic-garbage-collector";
    let r = as_who(&mut e, gc, "DELETE", &format!("{cm}/gone"));
    assert_eq!((r.code, r.reason()), (404, "NotFound"), "{}", r.text);
    // ...and list it.
    let r = as_who(&mut e, gc, "GET", "/api/v1/namespaces/default/configmaps");
    assert_eq!(r.code, 200);
    // A ServiceAccount no binding names gets nothing.
    let r = as_who(
        &mut e,
        "system:serviceaccount:kube-system:nobody",
        "GET",
        "/api/v1/namespaces/default/configmaps",
    );
    assert_eq!(r.code, 403);
}
