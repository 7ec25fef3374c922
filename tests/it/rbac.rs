//! Authentication and RBAC (reference §1.4, §15, appendix C): tokens, anonymous requests,
//! impersonation, role and binding validation, and a deny matrix of verbs × grants.

use serde_json::{json, Value};

use crate::common::auth::{admin, as_user, server_like, RBAC};
use crate::common::{cr_body, create_cr, create_ns, send};
use kubesim::auth::{AuthConfig, TokenFile};
use kubesim::{Config, Engine};

#[test]
fn tokens_anonymous_and_the_bootstrap_policy() {
    let mut e = server_like();
    let r = as_user(&mut e, "nope", "GET", "/version", None);
    assert_eq!(r.code, 401);
    assert_eq!(
        r.json,
        json!({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401})
    );
    // Anonymous: /version through system:public-info-viewer, nothing else.
    assert_eq!(send(&mut e, "GET", "/version", None, &[]).code, 200);
    let r = send(&mut e, "GET", "/api", None, &[]);
    assert_eq!(
        (r.code, r.message()),
        (
            403,
            "forbidden: User \"system:anonymous\" cannot get path \"/api\""
        )
    );
    assert_eq!(r.json["details"], json!({}));
    let r = send(&mut e, "GET", "/api/v1/namespaces/default", None, &[]);
    assert_eq!(r.message(), "namespaces \"default\" is forbidden: User \"system:anonymous\" cannot get resource \"namespaces\" in API group \"\" in the namespace \"default\"");
    assert_eq!(
        r.json["details"],
        json!({"name": "default", "kind": "namespaces"})
    );
    // A resource the server does not serve is still authorized first: 403, not 404.
    let r = send(&mut e, "GET", "/apis/example.com/v1/widgets", None, &[]);
    assert_eq!(r.message(), "widgets.example.com is forbidden: User \"system:anonymous\" cannot list resource \"widgets\" in API group \"example.com\" at the cluster scope");
    // Authenticated users get discovery (system:discovery), not resources.
    assert_eq!(as_user(&mut e, "t-alice", "GET", "/apis", None).code, 200);
    let r = as_user(
        &mut e,
        "t-alice",
        "GET",
        "/apis/apps/v1/namespaces/default/controllerrevisions",
        None,
    );
    assert_eq!(r.message(), "controllerrevisions.apps is forbidden: User \"alice\" cannot list resource \"controllerrevisions\" in API group \"apps\" in the namespace \"default\"");
    // The admin token is in system:masters.
    let r = as_user(
        &mut e,
        "kubesim",
        "GET",
        &format!("{RBAC}/clusterroles"),
        None,
    );
    assert_eq!(r.code, 200);
    let names = r.names();
    for n in [
        "admin",
        "cluster-admin",
        "edit",
        "system:basic-user",
        "system:discovery",
        "system:public-info-viewer",
        "view",
    ] {
        assert!(names.iter().any(|x| x == n), "{n} in {names:?}");
    }
}

#[test]
fn anonymous_auth_off_answers_401() {
    let mut e = Engine::new(Config {
        auth: AuthConfig::server(TokenFile::default(), false),
        ..Config::default()
    });
    assert_eq!(send(&mut e, "GET", "/version", None, &[]).code, 401);
    // A scheme other than Bearer is no credentials at all.
    assert_eq!(
        send(
            &mut e,
            "GET",
            "/version",
            None,
            &[("authorization", "Basic eDp5")]
        )
        .code,
        401
    );
}

/// As kube-apiserver, the AlwaysAllow authorizer turns anonymous requests off (whichever
/// host builds the engine).
#[test]
fn always_allow_refuses_anonymous_requests() {
    let mut e = Engine::new(Config {
        auth: AuthConfig::server(TokenFile::default(), true),
        authorization: kubesim::AuthorizationMode::AlwaysAllow,
        ..Config::default()
    });
    let r = send(&mut e, "GET", "/version", None, &[]);
    assert_eq!((r.code, r.message()), (401, "Unauthorized"));
    assert_eq!(
        as_user(&mut e, "kubesim", "GET", "/api/v1/namespaces", None).code,
        200
    );
}

/// One user × verb × grant cell: the code RBAC gives, and that lists and watches never show
/// objects outside the grant.
#[test]
fn deny_matrix_of_verbs_and_grants() {
    let mut e = server_like();
    for ns in ["a", "b"] {
        admin(
            &mut e,
            "POST",
            "/api/v1/namespaces",
            &json!({"metadata": {"name": ns}}),
        );
        for name in ["x", "y"] {
            admin(
                &mut e,
                "POST",
                &format!("/api/v1/namespaces/{ns}/configmaps"),
                &json!({"metadata": {"name": name}}),
            );
        }
    }
    let all_verbs = json!([
        "get",
        "list",
        "watch",
        "create",
        "update",
        "patch",
        "delete",
        "deletecollection"
    ]);
    // alice: everything on configmaps in namespace a (a Role).
    admin(
        &mut e,
        "POST",
        &format!("{RBAC}/namespaces/a/roles"),
        &json!({"metadata": {"name": "cm"}, "rules": [{"apiGroups": [""], "resources": ["configmaps"], "verbs": all_verbs}]}),
    );
    admin(
        &mut e,
        "POST",
        &format!("{RBAC}/namespaces/a/rolebindings"),
        &json!({"metadata": {"name": "cm"}, "roleRef": {"kind": "Role", "name": "cm"}, "subjects": [{"kind": "User", "name": "alice"}]}),
    );
    // bob (group ops): get and list of configmap x only, everywhere (a ClusterRole).
    admin(
        &mut e,
        "POST",
        &format!("{RBAC}/clusterroles"),
        &json!({"metadata": {"name": "x-reader"}, "rules": [{"apiGroups": [""], "resources": ["configmaps"], "resourceNames": ["x"], "verbs": ["get", "list", "watch"]}]}),
    );
    admin(
        &mut e,
        "POST",
        &format!("{RBAC}/clusterrolebindings"),
        &json!({"metadata": {"name": "x-reader"}, "roleRef": {"kind": "ClusterRole", "name": "x-reader"}, "subjects": [{"kind": "Group", "name": "ops"}]}),
    );
    let cm = |ns: &str, name: &str| {
        format!(
            "/api/v1/namespaces/{ns}/configmaps{}",
            if name.is_empty() {
                String::new()
            } else {
                format!("/{name}")
            }
        )
    };
    let patch_body = json!({"metadata": {"labels": {"p": "1"}}});
    // (token, method, uri, body, want)
    let cases: Vec<(&str, &str, String, Option<Value>, u16)> = vec![
        ("t-alice", "GET", cm("a", "x"), None, 200),
        ("t-alice", "GET", cm("a", ""), None, 200),
        (
            "t-alice",
            "POST",
            cm("a", ""),
            Some(json!({"metadata": {"name": "z"}})),
            201,
        ),
        (
            "t-alice",
            "PUT",
            cm("a", "z"),
            Some(json!({"metadata": {"name": "z"}, "data": {"k": "v"}})),
            200,
        ),
        ("t-alice", "DELETE", cm("a", "z"), None, 200),
        ("t-alice", "GET", cm("b", "x"), None, 403),
        ("t-alice", "GET", cm("b", ""), None, 403),
        ("t-alice", "GET", "/api/v1/configmaps".into(), None, 403),
        (
            "t-alice",
            "POST",
            cm("b", ""),
            Some(json!({"metadata": {"name": "z"}})),
            403,
        ),
        ("t-alice", "DELETE", cm("b", ""), None, 403),
        ("t-bob", "GET", cm("a", "x"), None, 200),
        ("t-bob", "GET", cm("b", "x"), None, 200),
        ("t-bob", "GET", cm("a", "y"), None, 403),
        ("t-bob", "GET", cm("a", ""), None, 403),
        (
            "t-bob",
            "GET",
            format!("{}?fieldSelector=metadata.name%3Dx", cm("a", "")),
            None,
            200,
        ),
        (
            "t-bob",
            "GET",
            format!("{}?fieldSelector=metadata.name%3Dy", cm("a", "")),
            None,
            403,
        ),
        // Another list option that does not decode: authorized as the plain list.
        (
            "t-bob",
            "GET",
            format!("{}?fieldSelector=metadata.name%3Dx&limit=ten", cm("a", "")),
            None,
            403,
        ),
        ("t-bob", "DELETE", cm("a", "x"), None, 403),
        ("t-bob", "DELETE", cm("a", ""), None, 403),
        (
            "t-bob",
            "POST",
            cm("a", ""),
            Some(json!({"metadata": {"name": "z"}})),
            403,
        ),
    ];
    for (token, method, uri, body, want) in &cases {
        let r = as_user(&mut e, token, method, uri, body.as_ref());
        assert_eq!(r.code, *want, "{token} {method} {uri}: {}", r.text);
    }
    let patch_as = |e: &mut Engine, token: &str| {
        let auth = format!("Bearer {token}");
        send(
            e,
            "PATCH",
            &cm("a", "x"),
            Some(&patch_body.to_string()),
            &[
                ("authorization", &auth),
                ("content-type", "application/merge-patch+json"),
            ],
        )
    };
    let r = patch_as(&mut e, "t-alice");
    assert_eq!(r.code, 200, "patch is granted: {}", r.text);
    let r = patch_as(&mut e, "t-bob");
    assert_eq!(r.message(), "configmaps \"x\" is forbidden: User \"bob\" cannot patch resource \"configmaps\" in API group \"\" in the namespace \"a\"");
    // The list bob may read shows x alone.
    let r = as_user(
        &mut e,
        "t-bob",
        "GET",
        &format!("{}?fieldSelector=metadata.name%3Dx", cm("b", "")),
        None,
    );
    assert_eq!(r.names(), ["x"]);
    // Nothing alice was denied changed anything in b.
    let r = as_user(&mut e, "kubesim", "GET", &cm("b", ""), None);
    assert_eq!(r.names(), ["x", "y"]);
}

#[test]
fn roles_and_bindings_validate_as_the_real_server() {
    let mut e = crate::common::engine();
    let post = |e: &mut Engine, path: &str, body: Value| {
        send(
            e,
            "POST",
            &format!("{RBAC}{path}"),
            Some(&body.to_string()),
            &[("content-type", "application/json")],
        )
    };
    let r = post(
        &mut e,
        "/namespaces/default/roles",
        json!({"metadata": {"name": "r"}, "rules": [{"nonResourceURLs": ["/healthz"], "verbs": []}, {"verbs": ["get"]}]}),
    );
    assert_eq!(r.message(), "Role.rbac.authorization.k8s.io \"r\" is invalid: [rules[0].verbs: Required value: verbs must contain at least one value, rules[0].nonResourceURLs: Invalid value: [\"/healthz\"]: namespaced rules cannot apply to non-resource URLs, rules[1].apiGroups: Required value: resource rules must supply at least one api group, rules[1].resources: Required value: resource rules must supply at least one resource]");
    let r = post(
        &mut e,
        "/clusterrolebindings",
        json!({"metadata": {"name": "b"}, "roleRef": {"kind": "Role", "name": "a/b"}, "subjects": [{"kind": "ServiceAccount", "name": "sa"}, {"kind": "Robot", "name": "r"}]}),
    );
    assert_eq!(r.message(), "ClusterRoleBinding.rbac.authorization.k8s.io \"b\" is invalid: [roleRef.kind: Unsupported value: \"Role\": supported values: \"ClusterRole\", roleRef.name: Invalid value: \"a/b\": may not contain '/', subjects[0].namespace: Required value, subjects[1].kind: Unsupported value: \"Robot\": supported values: \"ServiceAccount\", \"User\", \"Group\"]");
    // RBAC names are path segments, generateName included (`.` is not a prefix there).
    let r = post(
        &mut e,
        "/namespaces/default/roles",
        json!({"metadata": {"generateName": "."}, "rules": []}),
    );
    assert_eq!(r.code, 422, "{}", r.text);
    assert_eq!(
        r.json["details"]["causes"][0]["field"], "metadata.generateName",
        "{}",
        r.text
    );
    // Aggregation selectors: matchLabels first, values as label values, then the conversion.
    let r = post(
        &mut e,
        "/clusterroles",
        json!({"metadata": {"name": "agg"}, "aggregationRule": {"clusterRoleSelectors": [
            {"matchLabels": {"b c": "x"}, "matchExpressions": [{"key": "a", "operator": "In", "values": ["a b"]}]}]}}),
    );
    assert_eq!(r.code, 422, "{}", r.text);
    assert_eq!(
        r.cause_fields(),
        [
            "aggregationRule.clusterRoleSelectors[0].matchLabels",
            "aggregationRule.clusterRoleSelectors[0].matchExpressions[0].values[0]",
            "aggregationRule.clusterRoleSelectors[0]"
        ],
        "{}",
        r.text
    );
    // Defaults, then roleRef is immutable.
    let r = post(
        &mut e,
        "/namespaces/default/rolebindings",
        json!({"metadata": {"name": "rb"}, "roleRef": {"kind": "ClusterRole", "name": "view"}, "subjects": [{"kind": "User", "name": "alice"}]}),
    );
    assert_eq!(r.code, 201, "{}", r.text);
    assert_eq!(r.json["roleRef"]["apiGroup"], "rbac.authorization.k8s.io");
    assert_eq!(
        r.json["subjects"][0]["apiGroup"],
        "rbac.authorization.k8s.io"
    );
    let mut changed = r.json.clone();
    changed["roleRef"]["name"] = json!("edit");
    let r = send(
        &mut e,
        "PUT",
        &format!("{RBAC}/namespaces/default/rolebindings/rb"),
        Some(&changed.to_string()),
        &[("content-type", "application/json")],
    );
    assert_eq!(r.message(), "RoleBinding.rbac.authorization.k8s.io \"rb\" is invalid: roleRef: Invalid value: {\"APIGroup\":\"rbac.authorization.k8s.io\",\"Kind\":\"ClusterRole\",\"Name\":\"edit\"}: cannot change roleRef");
    // A binding to a missing role: the denial carries RBAC's reason.
    create_ns(&mut e, "n");
    create_cr(&mut e, "n", &cr_body("c", 1));
    let r = post(
        &mut e,
        "/namespaces/n/rolebindings",
        json!({"metadata": {"name": "dangling"}, "roleRef": {"kind": "Role", "name": "gone"}, "subjects": [{"kind": "User", "name": "carol"}]}),
    );
    assert_eq!(r.code, 201);
    let r = send(
        &mut e,
        "GET",
        "/apis/apps/v1/namespaces/n/controllerrevisions/c",
        None,
        &[("impersonate-user", "carol")],
    );
    assert_eq!(r.message(), "controllerrevisions.apps \"c\" is forbidden: User \"carol\" cannot get resource \"controllerrevisions\" in API group \"apps\" in the namespace \"n\": RBAC: role.rbac.authorization.k8s.io \"gone\" not found");
}

#[test]
fn filters_answer_before_routing_as_kube_apiserver_does() {
    let mut e = server_like();
    // RequestInfo fails before authentication: plain text, as `http.Error` writes it.
    let r = send(&mut e, "GET", "/api/v1/watch?x=1", None, &[]);
    assert_eq!(r.code, 500);
    assert_eq!(r.header("content-type"), "text/plain; charset=utf-8");
    assert_eq!(r.text, "Internal Server Error: \"/api/v1/watch?x=1\": failed to create RequestInfo: unable to determine kind and namespace from url, /api/v1/watch?x=1\n");
    // A denial is negotiated like any Status, and marked nosniff; a 401 is not.
    let r = send(
        &mut e,
        "GET",
        "/api/v1/namespaces",
        None,
        &[("accept", "application/vnd.kubernetes.protobuf")],
    );
    assert_eq!(r.code, 403);
    assert_eq!(
        r.header("content-type"),
        "application/vnd.kubernetes.protobuf"
    );
    assert_eq!(r.header("x-content-type-options"), "nosniff");
    let r = as_user(&mut e, "nope", "GET", "/api/v1/namespaces", None);
    assert_eq!(r.header("x-content-type-options"), "");
}

#[test]
fn a_new_aggregated_role_reaches_view_edit_and_admin() {
    let mut e = crate::common::engine();
    let role = json!({"metadata": {"name": "widgets-view", "labels": {"rbac.authorization.k8s.io/aggregate-to-view": "true"}},
        "rules": [{"apiGroups": ["example.com"], "resources": ["widgets"], "verbs": ["get"]}]});
    let r = send(
        &mut e,
        "POST",
        &format!("{RBAC}/clusterroles"),
        Some(&role.to_string()),
        &[("content-type", "application/json")],
    );
    assert_eq!(r.code, 201, "{}", r.text);
    for name in ["view", "edit", "admin"] {
        let r = crate::common::get(&mut e, &format!("{RBAC}/clusterroles/{name}"));
        assert!(
            r.json["rules"]
                .as_array()
                .unwrap()
                .contains(&role["rules"][0]),
            "{name}"
        );
    }
}

/// The RBAC kinds allow create on update (`kubectl auth reconcile` relies on it): a PUT of a
/// missing one creates it (201, any resourceVersion in the body ignored); other kinds 404.
#[test]
fn a_put_creates_a_missing_role_or_binding() {
    let mut e = server_like();
    crate::common::auth::admin_ns(&mut e, "team");
    let role = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role",
        "metadata": {"name": "reader", "namespace": "team", "resourceVersion": "7"},
        "rules": [{"apiGroups": [""], "resources": ["configmaps"], "verbs": ["get"]}]});
    let uri = format!("{RBAC}/namespaces/team/roles/reader");
    let r = admin(&mut e, "PUT", &uri, &role);
    assert_eq!(r.code, 201, "{}", r.text);
    assert_eq!(r.json["metadata"]["name"], "reader");
    let mut again = r.json.clone();
    again["rules"][0]["verbs"] = json!(["get", "list"]);
    let r = admin(&mut e, "PUT", &uri, &again);
    assert_eq!(r.code, 200, "{}", r.text);
    // The resourceVersion is read before the create: a bad one is the bare ParseUint 500.
    let mut bad = role.clone();
    bad["metadata"]["name"] = json!("bad");
    bad["metadata"]["resourceVersion"] = json!("abc");
    let r = as_user(
        &mut e,
        "kubesim",
        "PUT",
        &format!("{RBAC}/namespaces/team/roles/bad"),
        Some(&bad),
    );
    assert_eq!(
        (r.code, r.message()),
        (500, "strconv.ParseUint: parsing \"abc\": invalid syntax")
    );
    let binding = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding",
        "metadata": {"name": "b"},
        "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "view"},
        "subjects": [{"kind": "User", "name": "alice"}]});
    let r = admin(
        &mut e,
        "PUT",
        &format!("{RBAC}/clusterrolebindings/b"),
        &binding,
    );
    assert_eq!(r.code, 201, "{}", r.text);
    // A ConfigMap is not created by PUT.
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "namespace": "team"}});
    let r = as_user(
        &mut e,
        "kubesim",
        "PUT",
        "/api/v1/namespaces/team/configmaps/c",
        Some(&cm),
    );
    assert_eq!(
        (r.code, r.message()),
        (404, "configmaps \"c\" not found"),
        "{}",
        r.text
    );
}

/// `Authorization: Bearer  <token>` (two spaces) is no credential at all, and the answer says
/// why in a Warning header.
#[test]
fn an_extra_space_before_the_bearer_token_is_warned_about() {
    let mut e = server_like();
    let r = send(
        &mut e,
        "GET",
        "/api/v1/namespaces",
        None,
        &[("authorization", "Bearer  kubesim")],
    );
    assert_eq!(r.code, 403, "anonymous: {}", r.text);
    assert_eq!(
        r.header_all("warning"),
        [
            r#"299 - "the provided Authorization header contains extra space before the bearer token, and is ignored""#
        ]
    );
    let r = as_user(&mut e, "kubesim", "GET", "/api/v1/namespaces", None);
    assert_eq!(r.code, 200);
    assert!(r.header_all("warning").is_empty());
}

/// Binding Tables describe the Role column with the v1beta1 docs the printer reads (no "This
/// field is immutable.").
#[test]
fn binding_tables_describe_the_role_column_as_the_printer_does() {
    let mut e = crate::common::engine();
    let r = send(
        &mut e,
        "GET",
        &format!("{RBAC}/clusterrolebindings"),
        None,
        &[("accept", "application/json;as=Table;g=meta.k8s.io;v=v1")],
    );
    assert_eq!(r.code, 200, "{}", r.text);
    assert_eq!(r.json["columnDefinitions"][1]["name"], "Role");
    assert_eq!(
        r.json["columnDefinitions"][1]["description"],
        "RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error."
    );
}

/// A ServiceAccount subject names `system:serviceaccount:<ns>:<name>` (the binding's
/// namespace when the subject has none), exactly.
#[test]
fn service_account_subjects_match_their_user_name_exactly() {
    let mut e = server_like();
    crate::common::auth::admin_ns(&mut e, "team");
    let binding = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
        "metadata": {"name": "sa-view", "namespace": "team"},
        "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "view"},
        "subjects": [{"kind": "ServiceAccount", "name": "sa"}]});
    admin(
        &mut e,
        "POST",
        &format!("{RBAC}/namespaces/team/rolebindings"),
        &binding,
    );
    let list_as = |e: &mut Engine, user: &str| {
        send(
            e,
            "GET",
            "/api/v1/namespaces/team/configmaps",
            None,
            &[
                ("authorization", "Bearer kubesim"),
                ("impersonate-user", user),
            ],
        )
        .code
    };
    assert_eq!(list_as(&mut e, "system:serviceaccount:team:sa"), 200);
    assert_eq!(list_as(&mut e, "system:serviceaccount:team:sab"), 403);
    assert_eq!(list_as(&mut e, "system:serviceaccount:teamx:sa"), 403);
    assert_eq!(list_as(&mut e, "sa"), 403);
}
