//! Namespaces: the initial ones, defaults on create, admission of writes into missing or
//! terminating namespaces, and the deletion lifecycle driven by the namespace controller.

use crate::common::*;
use serde_json::json;

#[test]
fn initial_namespaces_exist_and_are_active() {
    let mut e = engine();
    for ns in ["default", "kube-system", "kube-public"] {
        let r = get(&mut e, &format!("/api/v1/namespaces/{ns}"));
        assert_eq!(r.code, 200, "{ns}");
        assert_eq!(r.json["status"], json!({"phase": "Active"}));
        assert_eq!(r.json["spec"], json!({"finalizers": ["kubernetes"]}));
        assert_eq!(
            r.json["metadata"]["labels"],
            json!({"kubernetes.io/metadata.name": ns})
        );
    }
}

#[test]
fn create_defaults_and_validation() {
    let mut e = engine();
    let r = post(
        &mut e,
        "/api/v1/namespaces",
        &json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "team-a"},
                "spec": {"finalizers": ["example.com/x"]}, "status": {"phase": "Terminating"}}),
    );
    assert_eq!(r.code, 201, "{}", r.text);
    assert_eq!(
        r.json["status"]["phase"], "Active",
        "status is server-owned"
    );
    assert_eq!(
        r.json["spec"]["finalizers"],
        json!(["example.com/x", "kubernetes"])
    );
    let keys: Vec<&String> = r.json.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["kind", "apiVersion", "metadata", "spec", "status"]);

    let bad = post(
        &mut e,
        "/api/v1/namespaces",
        &json!({"metadata": {"name": "Team_A"}}),
    );
    assert_eq!(bad.code, 422);
    assert!(bad.message().starts_with("Namespace \"Team_A\" is invalid: metadata.name: Invalid value: \"Team_A\": a lowercase RFC 1123 label must consist of"), "{}", bad.message());

    let dup = post(
        &mut e,
        "/api/v1/namespaces",
        &json!({"metadata": {"name": "team-a"}}),
    );
    assert_eq!(dup.code, 409);
    assert_eq!(dup.message(), "namespaces \"team-a\" already exists");
    assert_eq!(
        dup.json["details"],
        json!({"name": "team-a", "kind": "namespaces"})
    );
}

#[test]
fn update_cannot_change_spec_or_status() {
    let mut e = engine();
    create_ns(&mut e, "u");
    let mut ns = get(&mut e, "/api/v1/namespaces/u").json;
    ns["spec"] = json!({"finalizers": []});
    ns["status"] = json!({"phase": "Terminating"});
    ns["metadata"]["labels"]["team"] = json!("blue");
    let r = put(&mut e, "/api/v1/namespaces/u", &ns);
    assert_eq!(r.code, 200, "{}", r.text);
    assert_eq!(r.json["spec"]["finalizers"], json!(["kubernetes"]));
    assert_eq!(r.json["status"]["phase"], "Active");
    assert_eq!(r.json["metadata"]["labels"]["team"], "blue");
}

#[test]
fn deleting_a_namespace_terminates_then_removes_it_and_its_content() {
    let mut e = engine();
    create_ns(&mut e, "doomed");
    create_cr(&mut e, "doomed", &cr_body("a", 1));
    let mut held = cr_body("held", 1);
    held["metadata"]["finalizers"] = json!(["example.com/hold"]);
    create_cr(&mut e, "doomed", &held);

    let d = delete(&mut e, "/api/v1/namespaces/doomed");
    assert_eq!(d.code, 200, "{}", d.text);
    assert_eq!(d.json["kind"], "Namespace");
    assert_eq!(d.json["status"]["phase"], "Terminating");
    assert!(d.json["metadata"]["deletionTimestamp"].is_string());

    // First seen Terminating with its content, until the controller acts (5 s later).
    assert_eq!(get(&mut e, &crs("doomed")).names(), ["a", "held"]);
    let ns = get(&mut e, "/api/v1/namespaces/doomed");
    assert!(ns.json["status"].get("conditions").is_none());
    e.advance(5000);
    // The controller deleted the content it could; the held object blocks finalization.
    assert_eq!(get(&mut e, &crs("doomed")).names(), ["held"]);
    let ns = get(&mut e, "/api/v1/namespaces/doomed");
    assert_eq!(ns.code, 200);
    assert_eq!(ns.json["status"]["phase"], "Terminating");
    let t = ns.json["metadata"]["deletionTimestamp"].clone();
    let at = |s: &str| {
        let mut c: serde_json::Value = serde_json::from_str(s).unwrap();
        c["lastTransitionTime"] = json!("2026-01-01T00:00:05Z");
        c
    };
    assert_eq!(t, "2026-01-01T00:00:00Z");
    assert_eq!(
        ns.json["status"]["conditions"],
        json!([
            at(
                r#"{"type":"NamespaceDeletionDiscoveryFailure","status":"False","reason":"ResourcesDiscovered","message":"All resources successfully discovered"}"#
            ),
            at(
                r#"{"type":"NamespaceDeletionGroupVersionParsingFailure","status":"False","reason":"ParsedGroupVersions","message":"All legacy kube types successfully parsed"}"#
            ),
            at(
                r#"{"type":"NamespaceDeletionContentFailure","status":"False","reason":"ContentDeleted","message":"All content successfully deleted, may be waiting on finalization"}"#
            ),
            at(
                r#"{"type":"NamespaceContentRemaining","status":"True","reason":"SomeResourcesRemain","message":"Some resources are remaining: controllerrevisions.apps has 1 resource instances"}"#
            ),
            at(
                r#"{"type":"NamespaceFinalizersRemaining","status":"True","reason":"SomeFinalizersRemain","message":"Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances"}"#
            ),
        ])
    );

    // No new content while terminating.
    let r = post(&mut e, &crs("doomed"), &cr_body("late", 1));
    assert_eq!(r.code, 403);
    assert_eq!(r.reason(), "Forbidden");
    assert_eq!(
        r.message(),
        "controllerrevisions.apps \"late\" is forbidden: unable to create new content in namespace doomed because it is being terminated"
    );

    // Releasing the finalizer lets the namespace finish.
    let mut h = get(&mut e, &cr("doomed", "held")).json;
    h["metadata"]["finalizers"] = json!([]);
    assert_eq!(put(&mut e, &cr("doomed", "held"), &h).code, 200);
    e.advance(5000);
    assert_eq!(get(&mut e, "/api/v1/namespaces/doomed").code, 404);
    // The name can be reused.
    create_ns(&mut e, "doomed");
}

#[test]
fn finalize_subresource_replaces_spec_finalizers() {
    let mut e = engine();
    create_ns(&mut e, "f");
    let mut ns = get(&mut e, "/api/v1/namespaces/f").json;
    ns["spec"]["finalizers"] = json!(["kubernetes", "example.com/extra"]);
    let r = put(&mut e, "/api/v1/namespaces/f/finalize", &ns);
    assert_eq!(r.code, 200, "{}", r.text);
    assert_eq!(
        r.json["spec"]["finalizers"],
        json!(["kubernetes", "example.com/extra"])
    );
}

/// `namespaces/status` is its own subresource: only status changes through it, and the main
/// resource ignores status changes.
#[test]
fn status_subresource_writes_only_status() {
    let mut e = engine();
    create_ns(&mut e, "s");
    let r = get(&mut e, "/api/v1/namespaces/s/status");
    assert_eq!((r.code, r.json["kind"].as_str()), (200, Some("Namespace")));
    let mut ns = r.json.clone();
    // A zero lastTransitionTime is written as null (omitempty does not drop a struct).
    let cond = json!([{"type": "Custom", "status": "True", "lastTransitionTime": null, "reason": "R", "message": "m"}]);
    ns["status"]["conditions"] = cond.clone();
    ns["spec"]["finalizers"] = json!(["kubernetes", "example.com/x"]);
    ns["metadata"]["labels"]["via"] = json!("status");
    let r = put(&mut e, "/api/v1/namespaces/s/status", &ns);
    assert_eq!(r.code, 200, "{}", r.text);
    assert_eq!(r.json["status"]["conditions"], cond);
    assert_eq!(r.json["spec"]["finalizers"], json!(["kubernetes"]));
    // The main resource keeps the status it has.
    let mut ns = r.json.clone();
    ns["status"]["conditions"] = json!([]);
    ns["status"]["phase"] = json!("Terminating");
    let r = put(&mut e, "/api/v1/namespaces/s", &ns);
    assert_eq!(r.code, 200, "{}", r.text);
    assert_eq!(r.json["status"]["conditions"], cond);
    assert_eq!(r.json["status"]["phase"], "Active");
    // A merge patch through status.
    let r = send(
        &mut e,
        "PATCH",
        "/api/v1/namespaces/s/status",
        Some(r#"{"status":{"conditions":null}}"#),
        &[("content-type", "application/merge-patch+json")],
    );
    assert_eq!(r.code, 200, "{}", r.text);
    assert!(r.json["status"].get("conditions").is_none());
}

/// NamespaceLifecycle: the namespaces a cluster cannot work without may not be deleted.
#[test]
fn immortal_namespaces_may_not_be_deleted() {
    let mut e = engine();
    for ns in ["default", "kube-system", "kube-public"] {
        for uri in [
            format!("/api/v1/namespaces/{ns}"),
            format!("/api/v1/namespaces/{ns}?dryRun=All"),
        ] {
            let r = delete(&mut e, &uri);
            assert_eq!(r.code, 403, "{uri}");
            assert_eq!(
                r.message(),
                format!("namespaces \"{ns}\" is forbidden: this namespace may not be deleted")
            );
            assert_eq!(r.json["details"], json!({"name": ns, "kind": "namespaces"}));
        }
    }
    assert_eq!(
        get(&mut e, "/api/v1/namespaces/default").json["status"]["phase"],
        "Active"
    );
}

/// The controller's queue: a change to a terminating namespace (its own status write
/// included) brings it back 5 s later; a pass that leaves finalizer-held content and writes
/// nothing brings it back after 8 s.
#[test]
fn the_controller_requeues_as_kube_controller_manager_does() {
    let mut e = engine();
    create_ns(&mut e, "q");
    let mut held = cr_body("held", 1);
    held["metadata"]["finalizers"] = json!(["example.com/hold"]);
    create_cr(&mut e, "q", &held);
    assert_eq!(delete(&mut e, "/api/v1/namespaces/q").code, 200);
    // t=5: the first pass writes the conditions (an update: next pass at t=10); t=10 changes
    // nothing (next pass after the estimate: t=18).
    e.advance(11_000);
    let mut h = get(&mut e, &cr("q", "held")).json;
    h["metadata"]["finalizers"] = json!([]);
    assert_eq!(put(&mut e, &cr("q", "held"), &h).code, 200);
    e.advance(6_999);
    assert_eq!(get(&mut e, "/api/v1/namespaces/q").code, 200, "t=17.999");
    e.advance(1);
    assert_eq!(get(&mut e, "/api/v1/namespaces/q").code, 404, "t=18");

    // An update by anyone is an event, and the earliest pass wins: after the quiet pass at
    // T+10 (next: T+18), labelling the namespace at T+11 brings the next pass to T+16.
    create_ns(&mut e, "r");
    create_cr(&mut e, "r", &held);
    assert_eq!(delete(&mut e, "/api/v1/namespaces/r").code, 200);
    e.advance(11_000);
    let mut ns = get(&mut e, "/api/v1/namespaces/r").json;
    ns["metadata"]["labels"]["touched"] = json!("yes");
    assert_eq!(put(&mut e, "/api/v1/namespaces/r", &ns).code, 200);
    let mut h = get(&mut e, &cr("r", "held")).json;
    h["metadata"]["finalizers"] = json!([]);
    assert_eq!(put(&mut e, &cr("r", "held"), &h).code, 200);
    e.advance(4_999);
    assert_eq!(get(&mut e, "/api/v1/namespaces/r").code, 200, "T+15.999");
    e.advance(1);
    assert_eq!(get(&mut e, "/api/v1/namespaces/r").code, 404, "T+16");
}

/// The controller's writes are kube-controller-manager's `Update`s through `status` and,
/// when other spec finalizers keep the namespace, `finalize` (entries in Go's order:
/// operation, time, manager, apiVersion, subresource).
#[test]
fn the_controllers_writes_are_field_managed() {
    let mut e = engine();
    create_ns(&mut e, "m");
    let mut ns = get(&mut e, "/api/v1/namespaces/m").json;
    ns["spec"]["finalizers"] = json!(["kubernetes", "example.com/extra"]);
    assert_eq!(put(&mut e, "/api/v1/namespaces/m/finalize", &ns).code, 200);
    assert_eq!(delete(&mut e, "/api/v1/namespaces/m").code, 200);
    e.advance(5_000);
    let ns = get(&mut e, "/api/v1/namespaces/m").json;
    assert_eq!(ns["spec"]["finalizers"], json!(["example.com/extra"]));
    let entries: Vec<_> = ns["metadata"]["managedFields"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["manager"] == "kube-controller-manager")
        .cloned()
        .collect();
    let condition = json!({".": {}, "f:lastTransitionTime": {}, "f:message": {}, "f:reason": {}, "f:status": {}, "f:type": {}});
    assert_eq!(
        entries,
        [
            json!({"manager": "kube-controller-manager", "operation": "Update", "apiVersion": "v1",
                   "time": "2026-01-01T00:00:05Z", "fieldsType": "FieldsV1",
                   "fieldsV1": {"f:spec": {"f:finalizers": {}}}, "subresource": "finalize"}),
            json!({"manager": "kube-controller-manager", "operation": "Update", "apiVersion": "v1",
                   "time": "2026-01-01T00:00:05Z", "fieldsType": "FieldsV1",
                   "fieldsV1": {"f:status": {"f:conditions": {".": {},
                       "k:{\"type\":\"NamespaceContentRemaining\"}": condition,
                       "k:{\"type\":\"NamespaceDeletionContentFailure\"}": condition,
                       "k:{\"type\":\"NamespaceDeletionDiscoveryFailure\"}": condition,
                       "k:{\"type\":\"NamespaceDeletionGroupVersionParsingFailure\"}": condition,
                       "k:{\"type\":\"NamespaceFinalizersRemaining\"}": condition}}},
                   "subresource": "status"}),
        ]
    );
}

/// A pass reads the namespace first, as `Delete` does: an unreadable one is an error (it
/// stays, corrupt, and nothing is finalized); and the finalizers left are written sorted.
#[test]
fn a_pass_starts_from_the_namespace_as_stored() {
    let mut e = engine();
    create_ns(&mut e, "c");
    assert_eq!(delete(&mut e, "/api/v1/namespaces/c").code, 200);
    let r = send(
        &mut e,
        "POST",
        "/kubesim/v1/corrupt?path=/api/v1/namespaces/c&as=undecryptable",
        None,
        &[],
    );
    assert_eq!(r.code, 200, "{}", r.text);
    e.advance(6_000);
    let r = get(&mut e, "/api/v1/namespaces/c");
    assert_eq!((r.code, r.reason()), (500, "InternalError"), "{}", r.text);

    create_ns(&mut e, "s");
    let mut ns = get(&mut e, "/api/v1/namespaces/s").json;
    ns["spec"]["finalizers"] = json!(["z.example.com/b", "kubernetes", "a.example.com/a"]);
    assert_eq!(put(&mut e, "/api/v1/namespaces/s/finalize", &ns).code, 200);
    assert_eq!(delete(&mut e, "/api/v1/namespaces/s").code, 200);
    e.advance(5_000);
    let ns = get(&mut e, "/api/v1/namespaces/s").json;
    assert_eq!(
        ns["spec"]["finalizers"],
        json!(["a.example.com/a", "z.example.com/b"])
    );
}

/// Content a deletecollection cannot remove (an unreadable object) is an error: the
/// namespace reports `NamespaceDeletionContentFailure` and stays.
#[test]
fn content_that_cannot_be_deleted_is_a_content_failure() {
    let mut e = engine();
    create_ns(&mut e, "f");
    let cm = "/api/v1/namespaces/f/configmaps";
    assert_eq!(
        post(&mut e, cm, &json!({"metadata": {"name": "x"}})).code,
        201
    );
    let r = send(
        &mut e,
        "POST",
        &format!("/kubesim/v1/corrupt?path={cm}/x&as=undecryptable"),
        None,
        &[],
    );
    assert_eq!(r.code, 200, "{}", r.text);
    assert_eq!(delete(&mut e, "/api/v1/namespaces/f").code, 200);
    e.advance(5_000);
    let ns = get(&mut e, "/api/v1/namespaces/f").json;
    let failure = ns["status"]["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["type"] == "NamespaceDeletionContentFailure")
        .unwrap()
        .clone();
    assert_eq!(failure["status"], "True");
    assert_eq!(failure["reason"], "ContentDeletionFailed");
    assert!(
        failure["message"]
            .as_str()
            .unwrap()
            .starts_with("Failed to delete all resource types, 1 remaining: "),
        "{failure}"
    );
    assert_eq!(ns["status"]["phase"], "Terminating");
}
