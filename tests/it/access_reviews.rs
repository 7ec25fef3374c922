//! Access reviews (reference §15.3): virtual, create-only kinds answered by the authorizer
//! every request passes, with the real validation texts.

use serde_json::{json, Value};

use crate::common::auth::{admin, admin_ns, as_user, server_like, RBAC};
use crate::common::{send, Resp};
use kubesim::Engine;

const AUTHZ: &str = "/apis/authorization.k8s.io/v1";

fn post(e: &mut Engine, token: &str, uri: &str, body: &Value) -> Resp {
    as_user(e, token, "POST", uri, Some(body))
}

/// Resource attributes as kubectl sends them (an empty namespace left out).
fn resource_attrs(ns: &str, verb: &str, resource: &str) -> Value {
    let mut v = json!({"namespace": ns, "verb": verb, "resource": resource});
    if ns.is_empty() {
        v.as_object_mut().map(|m| m.remove("namespace"));
    }
    v
}

/// alice may list configmaps in `dev` through a RoleBinding.
fn engine() -> Engine {
    let mut e = server_like();
    admin_ns(&mut e, "dev");
    let role = json!({"metadata": {"name": "cm-reader"},
        "rules": [{"verbs": ["get", "list"], "apiGroups": [""], "resources": ["configmaps"]}]});
    admin(
        &mut e,
        "POST",
        &format!("{RBAC}/namespaces/dev/roles"),
        &role,
    );
    let binding = json!({"metadata": {"name": "alice-reads"},
        "subjects": [{"kind": "User", "apiGroup": "rbac.authorization.k8s.io", "name": "alice"}],
        "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "cm-reader"}});
    admin(
        &mut e,
        "POST",
        &format!("{RBAC}/namespaces/dev/rolebindings"),
        &binding,
    );
    e
}

#[test]
fn self_subject_access_reviews_answer_for_the_requester() {
    let mut e = engine();
    let uri = format!("{AUTHZ}/selfsubjectaccessreviews");
    let cases = [
        ("t-alice", resource_attrs("dev", "list", "configmaps"), true),
        (
            "t-alice",
            resource_attrs("dev", "delete", "configmaps"),
            false,
        ),
        (
            "t-alice",
            resource_attrs("prod", "list", "configmaps"),
            false,
        ),
        ("t-alice", resource_attrs("", "list", "configmaps"), false),
        ("t-bob", resource_attrs("dev", "list", "configmaps"), false),
        ("kubesim", resource_attrs("", "delete", "namespaces"), true),
    ];
    for (token, attrs, allowed) in cases {
        let body = json!({"kind": "SelfSubjectAccessReview", "apiVersion": "authorization.k8s.io/v1",
            "metadata": {}, "spec": {"resourceAttributes": attrs}, "status": {"allowed": false}});
        let r = post(&mut e, token, &uri, &body);
        assert_eq!(r.code, 201, "{}", r.text);
        assert_eq!(
            r.json["status"]["allowed"], allowed,
            "{token} {attrs}: {}",
            r.text
        );
        // The request object comes back: spec as sent, managedFields of the writer.
        assert_eq!(r.json["spec"], body["spec"]);
        assert_eq!(
            r.json["metadata"]["managedFields"][0]["operation"],
            "Update"
        );
    }
    // RBAC says why it allowed; system:masters needs no reason; a denial has none.
    let body = json!({"spec": {"resourceAttributes": resource_attrs("dev", "get", "configmaps")}});
    let r = post(&mut e, "t-alice", &uri, &body);
    assert_eq!(
        r.json["status"],
        json!({"allowed": true, "reason": "RBAC: allowed by RoleBinding \"alice-reads/dev\" of Role \"cm-reader\" to User \"alice\""})
    );
    let r = post(&mut e, "kubesim", &uri, &body);
    assert_eq!(r.json["status"], json!({"allowed": true}));
    // Non-resource requests, and dry run (ignored: the review is answered).
    let body = json!({"spec": {"nonResourceAttributes": {"path": "/apis", "verb": "get"}}});
    let r = post(&mut e, "t-bob", &format!("{uri}?dryRun=All"), &body);
    assert_eq!(r.json["status"]["allowed"], true, "{}", r.text);
    // Impersonation: the review is for the impersonated user.
    let r = send(
        &mut e,
        "POST",
        &uri,
        Some(
            &json!({"spec": {"resourceAttributes": resource_attrs("dev", "list", "configmaps")}})
                .to_string(),
        ),
        &[
            ("authorization", "Bearer kubesim"),
            ("impersonate-user", "alice"),
        ],
    );
    assert_eq!(r.json["status"]["allowed"], true, "{}", r.text);
    // Anonymous users may not ask (system:basic-user is for the authenticated).
    let r = send(&mut e, "POST", &uri, Some(&body.to_string()), &[]);
    assert_eq!(r.message(), "selfsubjectaccessreviews.authorization.k8s.io is forbidden: User \"system:anonymous\" cannot create resource \"selfsubjectaccessreviews\" in API group \"authorization.k8s.io\" at the cluster scope");
}

#[test]
fn subject_access_reviews_name_their_subject() {
    let mut e = engine();
    let uri = format!("{AUTHZ}/subjectaccessreviews");
    let ask = |e: &mut Engine, spec: Value| post(e, "kubesim", &uri, &json!({"spec": spec}));
    let r = ask(
        &mut e,
        json!({"user": "alice", "resourceAttributes": resource_attrs("dev", "list", "configmaps")}),
    );
    assert_eq!(r.json["status"]["allowed"], true, "{}", r.text);
    // The groups are exactly the ones sent: no system:authenticated, so no discovery.
    let r = ask(
        &mut e,
        json!({"user": "alice", "nonResourceAttributes": {"path": "/api", "verb": "get"}}),
    );
    assert_eq!(r.json["status"], json!({"allowed": false}));
    let r = ask(
        &mut e,
        json!({"user": "alice", "groups": ["system:authenticated"], "nonResourceAttributes": {"path": "/api", "verb": "get"}}),
    );
    assert_eq!(r.json["status"]["allowed"], true);
    let r = ask(
        &mut e,
        json!({"groups": ["system:masters"], "resourceAttributes": resource_attrs("", "*", "*")}),
    );
    assert_eq!(r.json["status"], json!({"allowed": true}));
    // A binding to a missing role shows in the reason of a denial.
    let binding = json!({"metadata": {"name": "ghost"},
        "subjects": [{"kind": "User", "apiGroup": "rbac.authorization.k8s.io", "name": "carol"}],
        "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "ghost"}});
    admin(
        &mut e,
        "POST",
        &format!("{RBAC}/clusterrolebindings"),
        &binding,
    );
    let r = ask(
        &mut e,
        json!({"user": "carol", "resourceAttributes": resource_attrs("dev", "get", "pods")}),
    );
    assert_eq!(
        r.json["status"],
        json!({"allowed": false, "reason": "RBAC: clusterrole.rbac.authorization.k8s.io \"ghost\" not found"})
    );
    // alice may not ask about others.
    let r = post(
        &mut e,
        "t-alice",
        &uri,
        &json!({"spec": {"user": "bob", "resourceAttributes": resource_attrs("dev", "get", "pods")}}),
    );
    assert_eq!(r.code, 403);
    assert_eq!(
        r.message(),
        "subjectaccessreviews.authorization.k8s.io is forbidden: User \"alice\" cannot create resource \"subjectaccessreviews\" in API group \"authorization.k8s.io\" at the cluster scope"
    );
}

#[test]
fn reviews_validate_as_the_real_server() {
    let mut e = engine();
    let sar = format!("{AUTHZ}/subjectaccessreviews");
    let ssar = format!("{AUTHZ}/selfsubjectaccessreviews");
    let lsar = format!("{AUTHZ}/namespaces/dev/localsubjectaccessreviews");
    let non_resource = json!({"path": "/x", "verb": "get"});
    let cases = [
        (&sar, json!({"spec": {}}), ".authorization.k8s.io \"\" is invalid: [spec.resourceAttributes: Invalid value: null: exactly one of nonResourceAttributes or resourceAttributes must be specified, spec.user: Invalid value: \"\": at least one of user or group must be specified]"),
        (&ssar, json!({"spec": {"resourceAttributes": {"verb": "get"}, "nonResourceAttributes": non_resource}}), ".authorization.k8s.io \"\" is invalid: spec.nonResourceAttributes: Invalid value: {\"Path\":\"/x\",\"Verb\":\"get\"}: cannot be specified in combination with resourceAttributes"),
        (&ssar, json!({"spec": {"resourceAttributes": {"verb": "list", "fieldSelector": {}, "labelSelector": {"rawSelector": "a=b", "requirements": [{"key": "a", "operator": "In"}]}}}}), ".authorization.k8s.io \"\" is invalid: [spec.resourceAttributes.fieldSelector.requirements: Required value: when spec.resourceAttributes.fieldSelector is specified, requirements or rawSelector is required, spec.resourceAttributes.labelSelector.rawSelector: Invalid value: \"a=b\": may not specified at the same time as requirements, spec.resourceAttributes.labelSelector.requirements[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn']"),
        (&lsar, json!({"spec": {"user": "alice", "resourceAttributes": resource_attrs("", "get", "pods")}}), ".authorization.k8s.io \"\" is invalid: spec.resourceAttributes.namespace: Invalid value: \"\": must match metadata.namespace"),
        (&lsar, json!({"spec": {"user": "alice", "nonResourceAttributes": non_resource}}), ".authorization.k8s.io \"\" is invalid: spec.nonResourceAttributes: Invalid value: {\"Path\":\"/x\",\"Verb\":\"get\"}: disallowed on this kind of request"),
    ];
    // A field requirement needs a key; label requirement values are label values.
    let r = post(
        &mut e,
        "kubesim",
        &ssar,
        &json!({"spec": {"resourceAttributes": {"verb": "list",
        "fieldSelector": {"requirements": [{"operator": "Exists"}]},
        "labelSelector": {"requirements": [{"key": "a", "operator": "In", "values": ["a b"]}]}}}}),
    );
    assert_eq!(r.code, 422, "{}", r.text);
    assert!(r.message().starts_with(".authorization.k8s.io \"\" is invalid: [spec.resourceAttributes.fieldSelector.requirements[0].key: Required value: must be specified, spec.resourceAttributes.labelSelector.requirements[0].values[0]: Invalid value: \"a b\": a valid label must be"), "{}", r.text);
    for (uri, body, message) in cases {
        let r = post(&mut e, "kubesim", uri, &body);
        assert_eq!((r.code, r.message()), (422, message), "{}", r.text);
        assert_eq!(r.json["details"]["group"], "authorization.k8s.io");
        assert!(r.json["details"].get("kind").is_none());
    }
    // A name is metadata, which must be empty (the value printed is the whole metadata).
    let r = post(
        &mut e,
        "kubesim",
        &ssar,
        &json!({"metadata": {"name": "x"}, "spec": {"nonResourceAttributes": non_resource}}),
    );
    assert!(r.message().starts_with(".authorization.k8s.io \"\" is invalid: metadata: Invalid value: {\"name\":\"x\",\"managedFields\":["), "{}", r.text);
    assert!(r.message().ends_with("]}: must be empty"), "{}", r.text);
    // A LocalSubjectAccessReview takes its namespace from the URL, even one that is gone.
    let body = json!({"spec": {"user": "alice", "resourceAttributes": resource_attrs("nowhere", "list", "configmaps")}});
    let r = post(
        &mut e,
        "kubesim",
        &format!("{AUTHZ}/namespaces/nowhere/localsubjectaccessreviews"),
        &body,
    );
    assert_eq!(r.code, 201, "{}", r.text);
    assert_eq!(r.json["metadata"]["namespace"], "nowhere");
    assert_eq!(r.json["status"], json!({"allowed": false}));
    // Selectors that do not parse are reported, not refused.
    let body = json!({"spec": {"resourceAttributes": {"verb": "list", "resource": "pods",
        "fieldSelector": {"rawSelector": "a=b=c"},
        "labelSelector": {"requirements": [{"key": "a", "operator": "In", "values": ["x"]}, {"key": "b", "operator": "Near"}]}}}});
    let r = post(&mut e, "t-alice", &ssar, &body);
    assert_eq!(r.json["status"]["evaluationError"], "spec.resourceAttributes.fieldSelector ignored due to parse error; spec.resourceAttributes.labelSelector partially ignored due to parse error", "{}", r.text);
}

#[test]
fn rules_reviews_list_the_requesters_rules() {
    let mut e = engine();
    let uri = format!("{AUTHZ}/selfsubjectrulesreviews");
    let r = post(&mut e, "t-alice", &uri, &json!({"spec": {}}));
    assert_eq!((r.code, r.message()), (400, "no namespace on request"));
    let r = post(
        &mut e,
        "t-alice",
        &uri,
        &json!({"spec": {"namespace": "dev"}}),
    );
    assert_eq!(r.code, 201);
    assert_eq!(r.json["metadata"], json!({}));
    assert_eq!(r.json["spec"], json!({}));
    let rules = &r.json["status"]["resourceRules"];
    assert_eq!(
        *rules,
        json!([
            {"verbs": ["create"], "apiGroups": ["authorization.k8s.io"], "resources": ["selfsubjectaccessreviews", "selfsubjectrulesreviews"]},
            {"verbs": ["create"], "apiGroups": ["authentication.k8s.io"], "resources": ["selfsubjectreviews"]},
            {"verbs": ["get", "list"], "apiGroups": [""], "resources": ["configmaps"]},
        ])
    );
    assert_eq!(r.json["status"]["incomplete"], false);
    assert_eq!(
        r.json["status"]["nonResourceRules"]
            .as_array()
            .map(Vec::len),
        Some(2)
    );
    // The admin's rules come from the cluster-admin binding of system:masters.
    let r = post(
        &mut e,
        "kubesim",
        &uri,
        &json!({"spec": {"namespace": "dev"}}),
    );
    assert_eq!(
        r.json["status"]["resourceRules"][0],
        json!({"verbs": ["*"], "apiGroups": ["*"], "resources": ["*"]})
    );
    // Role lookups that fail are the evaluation error.
    let binding = json!({"metadata": {"name": "gone"},
        "subjects": [{"kind": "User", "apiGroup": "rbac.authorization.k8s.io", "name": "alice"}],
        "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "gone"}});
    admin(
        &mut e,
        "POST",
        &format!("{RBAC}/namespaces/dev/rolebindings"),
        &binding,
    );
    let r = post(
        &mut e,
        "t-alice",
        &uri,
        &json!({"spec": {"namespace": "dev"}}),
    );
    assert_eq!(
        r.json["status"]["evaluationError"],
        "role.rbac.authorization.k8s.io \"gone\" not found"
    );
}

#[test]
fn self_subject_reviews_say_who_is_asking() {
    let mut e = engine();
    let uri = "/apis/authentication.k8s.io/v1/selfsubjectreviews";
    let r = post(
        &mut e,
        "t-bob",
        uri,
        &json!({"apiVersion": "authentication.k8s.io/v1", "kind": "SelfSubjectReview"}),
    );
    assert_eq!(r.code, 201);
    let created = r.json["metadata"]["creationTimestamp"].clone();
    assert!(created.is_string());
    assert_eq!(
        r.json,
        json!({"kind": "SelfSubjectReview", "apiVersion": "authentication.k8s.io/v1",
               "metadata": {"creationTimestamp": created},
               "status": {"userInfo": {"username": "bob", "uid": "u2", "groups": ["dev", "ops", "system:authenticated"]}}})
    );
    let r = send(
        &mut e,
        "POST",
        uri,
        Some("{}"),
        &[
            ("authorization", "Bearer kubesim"),
            ("impersonate-user", "dave"),
            ("impersonate-group", "qa"),
            ("impersonate-extra-scopes", "view"),
        ],
    );
    assert_eq!(
        r.json["status"]["userInfo"],
        json!({"username": "dave", "groups": ["qa", "system:authenticated"], "extra": {"scopes": ["view"]}})
    );
}

#[test]
fn reviews_are_in_discovery_and_openapi() {
    let mut e = engine();
    let r = as_user(&mut e, "kubesim", "GET", AUTHZ, None);
    assert_eq!(
        r.json["resources"],
        json!([
            {"name": "localsubjectaccessreviews", "singularName": "localsubjectaccessreview", "namespaced": true, "kind": "LocalSubjectAccessReview", "verbs": ["create"]},
            {"name": "selfsubjectaccessreviews", "singularName": "selfsubjectaccessreview", "namespaced": false, "kind": "SelfSubjectAccessReview", "verbs": ["create"]},
            {"name": "selfsubjectrulesreviews", "singularName": "selfsubjectrulesreview", "namespaced": false, "kind": "SelfSubjectRulesReview", "verbs": ["create"]},
            {"name": "subjectaccessreviews", "singularName": "subjectaccessreview", "namespaced": false, "kind": "SubjectAccessReview", "verbs": ["create"]},
        ])
    );
    let r = as_user(
        &mut e,
        "kubesim",
        "GET",
        "/apis/authentication.k8s.io/v1",
        None,
    );
    assert_eq!(r.json["resources"][0]["name"], "selfsubjectreviews");
    let r = as_user(
        &mut e,
        "kubesim",
        "GET",
        "/openapi/v3/apis/authorization.k8s.io/v1",
        None,
    );
    let paths = r.json["paths"].as_object().expect("paths");
    let ssar = &paths["/apis/authorization.k8s.io/v1/selfsubjectaccessreviews"];
    assert!(
        ssar.get("post").is_some() && ssar.get("get").is_none(),
        "{ssar}"
    );
    assert!(paths.contains_key(
        "/apis/authorization.k8s.io/v1/namespaces/{namespace}/localsubjectaccessreviews"
    ));
    let schemas = &r.json["components"]["schemas"];
    assert_eq!(
        schemas["io.k8s.api.authorization.v1.SubjectAccessReviewStatus"]["required"],
        json!(["allowed"])
    );
}
