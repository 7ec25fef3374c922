//! CRUD on ControllerRevisions and Namespaces: every verb, both scopes, and the errors each
//! can produce, with kube-apiserver's status codes, reasons and messages.

use crate::common::*;
use serde_json::{json, Value};

#[test]
fn create_sets_server_fields_and_returns_201() {
    let mut e = engine();
    let r = post(&mut e, &crs("default"), &cr_body("r1", 3));
    assert_eq!(r.code, 201, "{}", r.text);
    let m = &r.json["metadata"];
    assert_eq!(m["name"], "r1");
    assert_eq!(m["namespace"], "default");
    assert_eq!(m["uid"].as_str().unwrap().len(), 36);
    assert_eq!(m["creationTimestamp"], "2026-01-01T00:00:00Z");
    assert!(
        m["resourceVersion"]
            .as_str()
            .unwrap()
            .parse::<u64>()
            .unwrap()
            > 0
    );
    assert!(
        m.get("generation").is_none(),
        "ControllerRevision does not use generation"
    );
    // Go struct order on the wire: kind, apiVersion, metadata, data, revision.
    let keys: Vec<&String> = r.json.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["kind", "apiVersion", "metadata", "data", "revision"]);
    assert_eq!(r.json["revision"], 3);
    assert_eq!(r.header("content-type"), "application/json");
    assert!(
        r.text.ends_with("}\n"),
        "compact JSON ends with one newline"
    );
}

#[test]
fn generate_name_appends_five_random_characters() {
    let mut e = engine();
    let mut b = cr_body("", 1);
    b["metadata"] = json!({"generateName": "rev-"});
    let r = post(&mut e, &crs("default"), &b);
    assert_eq!(r.code, 201, "{}", r.text);
    let name = r.json["metadata"]["name"].as_str().unwrap();
    assert!(name.starts_with("rev-") && name.len() == 9, "{name}");
    assert_eq!(r.json["metadata"]["generateName"], "rev-");
}

#[test]
fn resource_versions_come_from_one_global_counter() {
    let mut e = engine();
    let a = create_cr(&mut e, "default", &cr_body("a", 1));
    create_ns(&mut e, "other");
    let b = create_cr(&mut e, "other", &cr_body("b", 1));
    let rv = |v: &Value| {
        v["metadata"]["resourceVersion"]
            .as_str()
            .unwrap()
            .parse::<u64>()
            .unwrap()
    };
    assert_eq!(
        rv(&b),
        rv(&a) + 2,
        "the namespace write in between took one revision"
    );
}

#[test]
fn get_and_list_in_both_scopes() {
    let mut e = engine();
    create_ns(&mut e, "x");
    create_ns(&mut e, "x-b");
    let created = create_cr(&mut e, "x", &cr_body("one", 1));
    create_cr(&mut e, "x", &cr_body("two", 2));
    create_cr(&mut e, "x-b", &cr_body("three", 3));

    let g = get(&mut e, &cr("x", "one"));
    assert_eq!(g.code, 200);
    assert_eq!(g.json, created);

    let l = get(&mut e, &crs("x"));
    assert_eq!(l.code, 200);
    assert_eq!(l.json["kind"], "ControllerRevisionList");
    assert_eq!(l.json["apiVersion"], "apps/v1");
    assert_eq!(l.names(), ["one", "two"]);
    // Items of a typed list carry no kind/apiVersion.
    assert!(l.json["items"][0].get("kind").is_none());
    let list_rv: u64 = l.json["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(list_rv, e.store().revision());

    // Across namespaces, in storage-key order: "x-b/" sorts before "x/".
    let all = get(&mut e, "/apis/apps/v1/controllerrevisions");
    assert_eq!(all.names(), ["three", "one", "two"]);

    let empty = get(&mut e, &crs("kube-public"));
    assert_eq!(empty.code, 200);
    assert_eq!(empty.json["items"], json!([]));

    // A list in a namespace that does not exist is an empty list, not an error.
    assert_eq!(get(&mut e, &crs("nowhere")).json["items"], json!([]));

    let ns = get(&mut e, "/api/v1/namespaces");
    assert_eq!(ns.json["kind"], "NamespaceList");
    assert_eq!(
        ns.names(),
        ["default", "kube-public", "kube-system", "x", "x-b"]
    );
}

#[test]
fn update_with_optimistic_concurrency() {
    let mut e = engine();
    let created = create_cr(&mut e, "default", &cr_body("r", 1));
    let rv0 = created["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .to_string();

    let mut next = created.clone();
    next["metadata"]["labels"] = json!({"app": "x"});
    next["revision"] = json!(2);
    let u = put(&mut e, &cr("default", "r"), &next);
    assert_eq!(u.code, 200, "{}", u.text);
    assert_eq!(u.json["metadata"]["labels"]["app"], "x");
    assert_eq!(u.json["revision"], 2, "revision is mutable");
    assert_ne!(u.json["metadata"]["resourceVersion"], rv0.as_str());

    // Stale resourceVersion: 409 Conflict.
    let stale = put(&mut e, &cr("default", "r"), &next);
    assert_eq!(stale.code, 409);
    assert_eq!(stale.reason(), "Conflict");
    assert_eq!(
        stale.message(),
        "Operation cannot be fulfilled on controllerrevisions.apps \"r\": the object has been modified; please apply your changes to the latest version and try again"
    );
    assert_eq!(
        stale.json["details"],
        json!({"name": "r", "group": "apps", "kind": "controllerrevisions"})
    );

    // No resourceVersion: unconditional update.
    let mut unconditional = u.json.clone();
    unconditional["metadata"]
        .as_object_mut()
        .unwrap()
        .remove("resourceVersion");
    unconditional["metadata"]["labels"] = json!({"app": "y"});
    let r = put(&mut e, &cr("default", "r"), &unconditional);
    assert_eq!(r.code, 200, "{}", r.text);
    assert_eq!(r.json["metadata"]["labels"]["app"], "y");

    // A write that changes nothing keeps the resourceVersion.
    let same = put(&mut e, &cr("default", "r"), &r.json);
    assert_eq!(same.code, 200);
    assert_eq!(
        same.json["metadata"]["resourceVersion"],
        r.json["metadata"]["resourceVersion"]
    );
}

#[test]
fn update_keeps_server_owned_metadata() {
    let mut e = engine();
    let created = create_cr(&mut e, "default", &cr_body("r", 1));
    let mut next = created.clone();
    next["metadata"].as_object_mut().unwrap().remove("uid");
    next["metadata"]["creationTimestamp"] = json!("2000-01-01T00:00:00Z");
    next["metadata"]["labels"] = json!({"a": "b"});
    let r = put(&mut e, &cr("default", "r"), &next);
    assert_eq!(r.code, 200, "{}", r.text);
    assert_eq!(r.json["metadata"]["uid"], created["metadata"]["uid"]);
    assert_eq!(
        r.json["metadata"]["creationTimestamp"],
        created["metadata"]["creationTimestamp"]
    );
}

#[test]
fn delete_without_finalizers_answers_status_success() {
    let mut e = engine();
    let created = create_cr(&mut e, "default", &cr_body("r", 1));
    let d = delete(&mut e, &cr("default", "r"));
    assert_eq!(d.code, 200);
    assert_eq!(
        d.json,
        json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success",
               "details": {"name": "r", "group": "apps", "kind": "controllerrevisions",
                           "uid": created["metadata"]["uid"]}})
    );
    assert_eq!(get(&mut e, &cr("default", "r")).code, 404);
    let again = delete(&mut e, &cr("default", "r"));
    assert_eq!(again.code, 404);
    assert_eq!(again.message(), "controllerrevisions.apps \"r\" not found");
}

#[test]
fn delete_with_finalizers_is_two_phase() {
    let mut e = engine();
    let mut b = cr_body("held", 1);
    b["metadata"]["finalizers"] = json!(["example.com/hold"]);
    create_cr(&mut e, "default", &b);
    e.advance(7_000);
    let d = delete(&mut e, &cr("default", "held"));
    assert_eq!(d.code, 200, "{}", d.text);
    assert_eq!(
        d.json["kind"], "ControllerRevision",
        "the updated object is returned"
    );
    assert_eq!(
        d.json["metadata"]["deletionTimestamp"],
        "2026-01-01T00:00:07Z"
    );
    assert_eq!(d.json["metadata"]["deletionGracePeriodSeconds"], 0);
    // Still there, terminating.
    let g = get(&mut e, &cr("default", "held"));
    assert_eq!(g.code, 200);
    // A second delete changes nothing and keeps the first deletionTimestamp.
    e.advance(1_000);
    let d2 = delete(&mut e, &cr("default", "held"));
    assert_eq!(
        d2.json["metadata"]["deletionTimestamp"],
        "2026-01-01T00:00:07Z"
    );
    // New finalizers cannot be added while terminating.
    let mut add = g.json.clone();
    add["metadata"]["finalizers"] = json!(["example.com/hold", "example.com/more"]);
    let r = put(&mut e, &cr("default", "held"), &add);
    assert_eq!(r.code, 422, "{}", r.text);
    // Removing the last finalizer removes the object.
    let mut release = g.json.clone();
    release["metadata"]["finalizers"] = json!([]);
    let r = put(&mut e, &cr("default", "held"), &release);
    assert_eq!(r.code, 200, "{}", r.text);
    assert_eq!(get(&mut e, &cr("default", "held")).code, 404);
}

#[test]
fn propagation_policy_orphan_keeps_object_until_gc() {
    let mut e = engine();
    create_cr(&mut e, "default", &cr_body("o", 1));
    let r = send(
        &mut e,
        "DELETE",
        &cr("default", "o"),
        Some(r#"{"kind":"DeleteOptions","apiVersion":"v1","propagationPolicy":"Orphan"}"#),
        &[],
    );
    assert_eq!(r.code, 200, "{}", r.text);
    assert_eq!(r.json["metadata"]["finalizers"], json!(["orphan"]));
    // Explicit orphanDependents=false answers 202.
    create_cr(&mut e, "default", &{
        let mut b = cr_body("f", 1);
        b["metadata"]["finalizers"] = json!(["example.com/x"]);
        b
    });
    let r = send(
        &mut e,
        "DELETE",
        &cr("default", "f"),
        Some(r#"{"orphanDependents":false}"#),
        &[],
    );
    assert_eq!(r.code, 202, "{}", r.text);
}

/// deletecollection answers with each object as it was before deletion: no deletion marks
/// on those removed at once, the terminating state for those with finalizers.
#[test]
fn delete_collection_returns_objects_as_before_deletion() {
    let mut e = engine();
    create_cr(&mut e, "default", &cr_body("a", 1));
    let mut held = cr_body("b", 1);
    held["metadata"]["finalizers"] = json!(["example.com/x"]);
    create_cr(&mut e, "default", &held);
    let r = send(&mut e, "DELETE", &crs("default"), None, &[]);
    assert_eq!(r.code, 200, "{}", r.text);
    let items = r.json["items"].as_array().unwrap();
    assert_eq!(r.names(), ["a", "b"]);
    assert!(
        items[0]["metadata"].get("deletionTimestamp").is_none(),
        "{}",
        r.text
    );
    assert!(items[0]["metadata"]
        .get("deletionGracePeriodSeconds")
        .is_none());
    assert!(items[1]["metadata"].get("deletionTimestamp").is_some());
}

#[test]
fn delete_preconditions() {
    let mut e = engine();
    let c = create_cr(&mut e, "default", &cr_body("p", 1));
    let rv = c["metadata"]["resourceVersion"].as_str().unwrap();
    let r = send(
        &mut e,
        "DELETE",
        &cr("default", "p"),
        Some(r#"{"preconditions":{"uid":"nope"}}"#),
        &[],
    );
    assert_eq!(r.code, 409);
    assert_eq!(
        r.message(),
        format!(
            "Operation cannot be fulfilled on ControllerRevision.apps \"p\": the UID in the precondition (nope) does not match the UID in record ({}). The object might have been deleted and then recreated",
            c["metadata"]["uid"].as_str().unwrap()
        )
    );
    let r = send(
        &mut e,
        "DELETE",
        &cr("default", "p"),
        Some(r#"{"preconditions":{"resourceVersion":"1"}}"#),
        &[],
    );
    assert_eq!(r.code, 409);
    assert!(r.message().contains(&format!("the ResourceVersion in the precondition (1) does not match the ResourceVersion in record ({rv})")));
    let body = format!(r#"{{"preconditions":{{"resourceVersion":"{rv}"}}}}"#);
    assert_eq!(
        send(&mut e, "DELETE", &cr("default", "p"), Some(&body), &[]).code,
        200
    );
}

#[test]
fn deletecollection_deletes_what_the_selector_matches() {
    let mut e = engine();
    create_cr(&mut e, "default", &cr_labeled("a", json!({"app": "x"})));
    create_cr(&mut e, "default", &cr_labeled("b", json!({"app": "y"})));
    create_cr(&mut e, "default", &cr_labeled("c", json!({"app": "x"})));
    let r = delete(&mut e, &format!("{}?labelSelector=app%3Dx", crs("default")));
    assert_eq!(r.code, 200, "{}", r.text);
    assert_eq!(r.json["kind"], "ControllerRevisionList");
    assert_eq!(r.names(), ["a", "c"]);
    assert_eq!(get(&mut e, &crs("default")).names(), ["b"]);
    let r = delete(
        &mut e,
        &format!("{}?fieldSelector=metadata.name%3Db", crs("default")),
    );
    assert_eq!(r.names(), ["b"]);
    assert!(get(&mut e, &crs("default")).names().is_empty());
}

#[test]
fn dry_run_create_update_delete_persist_nothing() {
    let mut e = engine();
    let rev = e.store().revision();
    let r = post(
        &mut e,
        &format!("{}?dryRun=All", crs("default")),
        &cr_body("d", 1),
    );
    assert_eq!(r.code, 201, "{}", r.text);
    assert!(r.json["metadata"].get("resourceVersion").is_none());
    assert_eq!(e.store().revision(), rev);
    assert_eq!(get(&mut e, &cr("default", "d")).code, 404);

    let c = create_cr(&mut e, "default", &cr_body("d", 1));
    let mut next = c.clone();
    next["metadata"]["labels"] = json!({"k": "v"});
    let r = put(&mut e, &format!("{}?dryRun=All", cr("default", "d")), &next);
    assert_eq!(r.code, 200);
    assert_eq!(r.json["metadata"]["labels"]["k"], "v");
    assert_eq!(get(&mut e, &cr("default", "d")).json, c);

    let r = delete(&mut e, &format!("{}?dryRun=All", cr("default", "d")));
    assert_eq!(r.code, 200);
    assert_eq!(get(&mut e, &cr("default", "d")).code, 200);

    let bad = post(
        &mut e,
        &format!("{}?dryRun=foo", crs("default")),
        &cr_body("z", 1),
    );
    assert_eq!(bad.code, 422);
    assert_eq!(
        bad.message(),
        "CreateOptions.meta.k8s.io \"\" is invalid: dryRun: Unsupported value: [\"foo\"]: supported values: \"All\""
    );
}

/// One row per client mistake: method, path, body, expected code, reason, message.
type ErrorRow = (
    &'static str,
    String,
    Option<String>,
    u16,
    &'static str,
    &'static str,
);

#[test]
fn request_errors_table() {
    let mut e = engine();
    create_cr(&mut e, "default", &cr_body("exists", 1));
    let cr_json = |v: Value| v.to_string();
    let mut with_rv = cr_body("rv", 1);
    with_rv["metadata"]["resourceVersion"] = json!("5");
    let mut other_ns = cr_body("o", 1);
    other_ns["metadata"]["namespace"] = json!("kube-system");
    let mut wrong_gv = cr_body("g", 1);
    wrong_gv["apiVersion"] = json!("apps/v1beta2");
    let mut unknown_gv = cr_body("u", 1);
    unknown_gv["apiVersion"] = json!("example.com/v1");
    let mut deployment = cr_body("d", 1);
    deployment["kind"] = json!("Deployment");
    let mut nameless = cr_body("", 1);
    nameless["metadata"] = json!({});
    let mut bad_rv = cr_body("exists", 1);
    bad_rv["metadata"]["resourceVersion"] = json!("abc");
    let mut wrong_kind = cr_body("k", 1);
    wrong_kind["kind"] = json!("Widget");
    let rows: Vec<ErrorRow> = vec![
        ("POST", crs("default"), Some(cr_json(cr_body("exists", 1))), 409, "AlreadyExists",
         "controllerrevisions.apps \"exists\" already exists"),
        ("POST", crs("nope"), Some(cr_json(cr_body("x", 1))), 404, "NotFound",
         "namespaces \"nope\" not found"),
        ("GET", cr("default", "missing"), None, 404, "NotFound",
         "controllerrevisions.apps \"missing\" not found"),
        ("GET", "/api/v1/namespaces/missing".into(), None, 404, "NotFound",
         "namespaces \"missing\" not found"),
        ("PUT", cr("default", "missing"), Some(cr_json(cr_body("missing", 1))), 404, "NotFound",
         "controllerrevisions.apps \"missing\" not found"),
        ("PUT", cr("default", "exists"), Some(cr_json(cr_body("other", 1))), 400, "BadRequest",
         "the name of the object (other) does not match the name on the URL (exists)"),
        ("POST", crs("default"), Some(cr_json(other_ns)), 400, "BadRequest",
         "the namespace of the provided object does not match the namespace sent on the request"),
        ("POST", crs("default"), Some(cr_json(wrong_gv)), 400, "BadRequest",
         "the API version in the data (apps/v1beta2) does not match the expected API version (apps/v1)"),
        // A group version the scheme does not know cannot even be decoded.
        ("POST", crs("default"), Some(cr_json(unknown_gv)), 400, "BadRequest",
         "ControllerRevision in version \"v1\" cannot be handled as a ControllerRevision: no kind \"ControllerRevision\" is registered for version \"example.com/v1\" in scheme \"pkg/api/legacyscheme/scheme.go:30\""),
        // A kind the scheme knows decodes, then cannot be converted.
        ("POST", crs("default"), Some(cr_json(deployment)), 400, "BadRequest",
         "Deployment in version \"v1\" cannot be handled as a ControllerRevision: converting (v1.Deployment) to (apps.ControllerRevision): unknown conversion"),
        ("PUT", cr("default", "exists"), Some(cr_json(nameless)), 400, "BadRequest",
         "the name of the object (exists based on URL) was undeterminable: name must be provided"),
        // The versioner's bare ParseUint error, a 500 without a reason.
        ("PUT", cr("default", "exists"), Some(cr_json(bad_rv)), 500, "",
         "strconv.ParseUint: parsing \"abc\": invalid syntax"),
        ("POST", crs("default"), Some(cr_json(wrong_kind)), 400, "BadRequest",
         "Widget in version \"v1\" cannot be handled as a ControllerRevision: no kind \"Widget\" is registered for version \"apps/v1\" in scheme \"pkg/api/legacyscheme/scheme.go:30\""),
        ("POST", crs("default"), Some(cr_json(with_rv)), 500, "",
         "resourceVersion should not be set on objects to be created"),
        ("POST", cr("default", "exists"), Some("{}".into()), 405, "MethodNotAllowed",
         "the server does not allow this method on the requested resource"),
        ("PUT", crs("default"), Some("{}".into()), 405, "MethodNotAllowed",
         "the server does not allow this method on the requested resource"),
        ("DELETE", "/api/v1/namespaces".into(), None, 405, "MethodNotAllowed",
         "the server does not allow this method on the requested resource"),
        ("HEAD", cr("default", "exists"), None, 405, "MethodNotAllowed",
         "the server does not allow this method on the requested resource"),
        ("GET", "/apis/apps/v1/deployments".into(), None, 404, "NotFound",
         "the server could not find the requested resource"),
        ("POST", crs("default"), Some("{".into()), 400, "BadRequest",
         "the object provided is unrecognized (must be of type ControllerRevision): couldn't get version/kind; json parse error: unexpected end of JSON input ({)"),
        ("POST", crs("default"), Some(r#"{"metadata":{"name":"t"},"data":{},"revision":"one"}"#.into()), 400, "BadRequest",
         "ControllerRevision in version \"v1\" cannot be handled as a ControllerRevision: json: cannot unmarshal string into Go struct field ControllerRevision.revision of type int64"),
    ];
    for (method, path, body, code, reason, message) in rows {
        let r = send(
            &mut e,
            method,
            &path,
            body.as_deref(),
            &[("content-type", "application/json")],
        );
        assert_eq!(r.code, code, "{method} {path}: {}", r.text);
        assert_eq!(r.json["kind"], "Status", "{method} {path}");
        assert_eq!(r.json["status"], "Failure");
        assert_eq!(r.json["code"], code);
        assert_eq!(r.reason(), reason, "{method} {path}");
        assert_eq!(r.message(), message, "{method} {path}");
    }
}

#[test]
fn unknown_group_is_a_plain_404_page() {
    let mut e = engine();
    for path in [
        "/apis/example.com/v1/things",
        "/apis/example.com/v1",
        "/nope",
    ] {
        let r = get(&mut e, path);
        assert_eq!(r.code, 404, "{path}");
        assert_eq!(r.text, "404 page not found\n");
        assert!(r.header("content-type").starts_with("text/plain"));
    }
}

/// Paths a served group's webservice claims but no route matches: go-restful's NotFound
/// Status with empty details (an unknown version of a served group, an object of a
/// namespaced resource named without its namespace).
#[test]
fn unrouted_paths_inside_served_groups_are_a_not_found_status() {
    let mut e = engine();
    create_cr(&mut e, "default", &cr_body("cr-a", 1));
    for (method, path) in [
        ("GET", "/apis/apps/v9/controllerrevisions"),
        ("GET", "/apis/apps/v2"),
        ("GET", "/api/v2"),
        ("GET", "/apis/apps/v1/controllerrevisions/cr-a"),
        ("DELETE", "/apis/apps/v1/controllerrevisions/cr-a"),
    ] {
        let r = send(&mut e, method, path, None, &[]);
        assert_eq!(r.code, 404, "{path}");
        assert_eq!(
            r.json,
            json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                "message": "the server could not find the requested resource", "reason": "NotFound",
                "details": {}, "code": 404}),
            "{method} {path}"
        );
    }
    assert_eq!(get(&mut e, &cr("default", "cr-a")).code, 200);
}

#[test]
fn pretty_output() {
    let mut e = engine();
    let r = get(&mut e, "/api/v1/namespaces/default?pretty=true");
    assert!(
        r.text
            .starts_with("{\n  \"kind\": \"Namespace\",\n  \"apiVersion\": \"v1\",\n"),
        "{}",
        r.text
    );
    assert!(!r.text.ends_with('\n'));
    let r = send(
        &mut e,
        "GET",
        "/api/v1/namespaces/default",
        None,
        &[("user-agent", "curl/8.0")],
    );
    assert!(r.text.starts_with("{\n"));
    let r = get(&mut e, "/api/v1/namespaces/default");
    assert!(r.text.starts_with("{\"kind\":\"Namespace\""));
}

#[test]
fn same_seed_same_bytes() {
    let run = || {
        let mut e = engine();
        let mut out = Vec::new();
        let mut b = cr_body("", 1);
        b["metadata"] = json!({"generateName": "g-"});
        out.push(post(&mut e, &crs("default"), &b).text);
        out.push(post(&mut e, &crs("default"), &cr_body("n", 2)).text);
        e.advance(61_000);
        out.push(get(&mut e, &crs("default")).text);
        out
    };
    assert_eq!(run(), run());
}
