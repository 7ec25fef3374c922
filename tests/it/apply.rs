//! Server-side apply and managedFields over HTTP: the status codes, messages and ordering of
//! checks kube-apiserver has (reference §8, §12, §13), and managedFields on every kind of write.

use serde_json::{json, Value};

use crate::common::*;

const APPLY: &str = "application/apply-patch+yaml";

fn apply(e: &mut kubesim::Engine, uri: &str, body: &str) -> Resp {
    send(e, "PATCH", uri, Some(body), &[("content-type", APPLY)])
}

fn cm_uri(name: &str, query: &str) -> String {
    format!("/api/v1/namespaces/default/configmaps/{name}{query}")
}

const CM_A: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: \"1\"\n";

fn managers(v: &Value) -> Vec<String> {
    v["metadata"]["managedFields"]
        .as_array()
        .map(|es| {
            es.iter()
                .map(|e| {
                    format!(
                        "{}/{}",
                        e["manager"].as_str().unwrap(),
                        e["operation"].as_str().unwrap()
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn apply_creates_then_merges_and_a_repeat_is_a_no_op() {
    let mut e = engine();
    let mut w = watch(&mut e, "/api/v1/namespaces/default/configmaps?watch=true");
    let r = apply(&mut e, &cm_uri("c", "?fieldManager=mgr"), CM_A);
    assert_eq!(r.code, 201, "{}", r.text);
    assert_eq!(managers(&r.json), ["mgr/Apply"]);
    assert_eq!(
        r.json["metadata"]["managedFields"][0]["fieldsV1"],
        json!({"f:data": {"f:a": {}}})
    );
    let rv = r.json["metadata"]["resourceVersion"].clone();
    let again = apply(&mut e, &cm_uri("c", "?fieldManager=mgr"), CM_A);
    assert_eq!(again.code, 200, "{}", again.text);
    assert_eq!(again.json["metadata"]["resourceVersion"], rv);
    assert_eq!(w.summary(), ["ADDED c"]);
    // A second manager adds a field; the first one's fields stay.
    let r = apply(
        &mut e,
        &cm_uri("c", "?fieldManager=other"),
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  b: \"2\"\n",
    );
    assert_eq!(r.code, 200, "{}", r.text);
    assert_eq!(r.json["data"], json!({"a": "1", "b": "2"}));
    assert_eq!(managers(&r.json), ["mgr/Apply", "other/Apply"]);
    assert_eq!(w.summary(), ["MODIFIED c"]);
}

#[test]
fn conflicts_come_before_the_name_check_and_force_takes_ownership() {
    let mut e = engine();
    let made = post(
        &mut e,
        "/api/v1/namespaces/default/configmaps?fieldManager=kube-controller-manager",
        &json!({"metadata": {"name": "c"}, "data": {"a": "1"}}),
    );
    assert_eq!(made.code, 201, "{}", made.text);
    assert_eq!(managers(&made.json), ["kube-controller-manager/Update"]);
    let cfg = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: other\ndata:\n  a: \"2\"\n";
    let r = apply(&mut e, &cm_uri("c", "?fieldManager=mgr"), cfg);
    assert_eq!(r.code, 409, "{}", r.text);
    assert_eq!(
        r.message(),
        "Apply failed with 1 conflict: conflict with \"kube-controller-manager\" using v1: .data.a"
    );
    assert_eq!(
        r.json["details"],
        json!({"causes": [{"reason": "FieldManagerConflict", "message": "conflict with \"kube-controller-manager\" using v1", "field": ".data.a"}]})
    );
    let r = apply(&mut e, &cm_uri("c", "?fieldManager=mgr&force=true"), cfg);
    assert_eq!(r.code, 400, "{}", r.text);
    assert_eq!(
        r.message(),
        "the name of the object (other) does not match the name on the URL (c)"
    );
    let cfg = cfg.replace("name: other", "name: c");
    let r = apply(&mut e, &cm_uri("c", "?fieldManager=mgr&force=true"), &cfg);
    assert_eq!(r.code, 200, "{}", r.text);
    assert_eq!(r.json["data"]["a"], "2");
    // The creator keeps the map itself (`{"f:data":{}}`); the value is the applier's.
    assert_eq!(
        managers(&r.json),
        ["mgr/Apply", "kube-controller-manager/Update"]
    );
    assert_eq!(
        r.json["metadata"]["managedFields"][1]["fieldsV1"],
        json!({"f:data": {}})
    );
}

#[test]
fn apply_errors_are_the_real_servers() {
    let mut e = engine();
    let cases: &[(&str, &str, u16, &str)] = &[
        ("", CM_A, 422, "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch"),
        ("?fieldManager=m", "apiVersion: v1\nkind: Secret\nmetadata:\n  name: c\n", 400, "invalid object type: /v1, Kind=Secret"),
        ("?fieldManager=m", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  managedFields: []\n", 400, "metadata.managedFields must be nil"),
        ("?fieldManager=m", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\nfoo: 1\n", 500, "failed to create typed patch object (/c; /v1, Kind=ConfigMap): .foo: field not declared in schema"),
        ("?fieldManager=m", "- a\n", 400, "error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal array into Go value of type map[string]interface {}"),
        ("?fieldManager=m", "a: [\n", 400, "error decoding YAML: error converting YAML to JSON: yaml: line 1: did not find expected node content"),
        // The merged object fails converting to the Go type (after the structured merge,
        // which takes any base64 string and any number).
        ("?fieldManager=m", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\nbinaryData:\n  b: '!!!'\n", 500, "failed to convert new object (/c; /v1, Kind=ConfigMap) to proper version: unable to convert unstructured object to /v1, Kind=ConfigMap: error decoding from json: illegal base64 data at input byte 0"),
        ("?fieldManager=m&fieldValidation=Strict", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: \"1\"\n  a: \"2\"\n", 400, "error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  line 7: key \"a\" already set in map"),
    ];
    for (query, body, code, msg) in cases {
        let r = apply(&mut e, &cm_uri("c", query), body);
        assert_eq!((r.code, r.message()), (*code, *msg), "{query} {body}");
    }
    // Nothing was created by any of them.
    assert_eq!(get(&mut e, &cm_uri("c", "")).code, 404);
    // Warn (the default) keeps a duplicate key as a warning.
    let r = apply(
        &mut e,
        &cm_uri("c", "?fieldManager=m"),
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: \"1\"\n  a: \"2\"\n",
    );
    assert_eq!(r.code, 201, "{}", r.text);
    assert_eq!(
        r.header("warning"),
        "299 - \"line 7: key \\\"a\\\" already set in map\""
    );
}

/// Structured merge takes any number for an integer field; the conversion to the Go struct
/// that follows takes a whole float as the integer and fails on a fraction, with a 500.
#[test]
fn an_applied_float_is_converted_to_the_integer_field() {
    let mut e = engine();
    let uri = |name: &str| format!("{}/{name}?fieldManager=m", crs("default"));
    let body = |name: &str, revision: &str| {
        format!(
            "apiVersion: apps/v1\nkind: ControllerRevision\nmetadata:\n  name: {name}\n  \
             namespace: default\ndata: {{}}\nrevision: {revision}\n"
        )
    };
    let r = apply(&mut e, &uri("r"), &body("r", "1.5"));
    assert_eq!(
        (r.code, r.message(), r.reason()),
        (500, "failed to convert new object (default/r; apps/v1, Kind=ControllerRevision) to proper version: unable to convert unstructured object to apps/v1, Kind=ControllerRevision: cannot convert float64 to int64", "")
    );
    assert_eq!(get(&mut e, &cr("default", "r")).code, 404);
    let r = apply(&mut e, &uri("r"), &body("r", "2.0"));
    assert_eq!(r.code, 201, "{}", r.text);
    assert_eq!(r.json["revision"], json!(2), "{}", r.text);
    // On an existing object too; the stored one is untouched.
    let r = apply(&mut e, &uri("r"), &body("r", "3.25"));
    assert_eq!(r.code, 500, "{}", r.text);
    assert_eq!(get(&mut e, &cr("default", "r")).json["revision"], 2);
    // A JSON body's whole float is the same integer.
    let r = apply(
        &mut e,
        &uri("r"),
        r#"{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"r"},"data":{},"revision":4.0}"#,
    );
    assert_eq!(r.code, 200, "{}", r.text);
    assert_eq!(r.json["revision"], json!(4), "{}", r.text);
}

#[test]
fn dry_run_apply_returns_the_merge_and_stores_nothing() {
    let mut e = engine();
    let r = apply(&mut e, &cm_uri("c", "?fieldManager=m&dryRun=All"), CM_A);
    assert_eq!(r.code, 201, "{}", r.text);
    assert_eq!(managers(&r.json), ["m/Apply"]);
    assert!(r.json["metadata"].get("resourceVersion").is_none());
    assert_eq!(get(&mut e, &cm_uri("c", "")).code, 404);
    apply(&mut e, &cm_uri("c", "?fieldManager=m"), CM_A);
    let r = apply(
        &mut e,
        &cm_uri("c", "?fieldManager=m&dryRun=All"),
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  z: \"9\"\n",
    );
    assert_eq!(r.json["data"], json!({"z": "9"}));
    assert_eq!(
        get(&mut e, &cm_uri("c", "")).json["data"],
        json!({"a": "1"})
    );
}

#[test]
fn every_write_records_its_manager() {
    let mut e = engine();
    // The User-Agent's product names a writer without fieldManager.
    let r = send(
        &mut e,
        "POST",
        "/api/v1/namespaces/default/configmaps",
        Some(r#"{"metadata":{"name":"c"},"data":{"a":"1"}}"#),
        &[("user-agent", "kubectl/v1.32.0 (linux/amd64) kubernetes/abc")],
    );
    assert_eq!(managers(&r.json), ["kubectl/Update"]);
    let patches = [
        (
            "application/merge-patch+json",
            r#"{"data":{"b":"2"}}"#,
            "merger",
        ),
        (
            "application/json-patch+json",
            r#"[{"op":"add","path":"/data/c","value":"3"}]"#,
            "jsonpatcher",
        ),
        (
            "application/strategic-merge-patch+json",
            r#"{"data":{"d":"4"}}"#,
            "smp",
        ),
    ];
    for (ct, body, manager) in patches {
        let r = send(
            &mut e,
            "PATCH",
            &cm_uri("c", &format!("?fieldManager={manager}")),
            Some(body),
            &[("content-type", ct)],
        );
        assert_eq!(r.code, 200, "{}", r.text);
    }
    let mut cur = get(&mut e, &cm_uri("c", "")).json;
    cur["data"]["e"] = json!("5");
    let r = put(&mut e, &cm_uri("c", "?fieldManager=putter"), &cur);
    // One second for all (the clock did not move): ordered by manager name.
    assert_eq!(
        managers(&r.json),
        [
            "jsonpatcher/Update",
            "kubectl/Update",
            "merger/Update",
            "putter/Update",
            "smp/Update"
        ]
    );
    let fields: Vec<Value> = r.json["metadata"]["managedFields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["fieldsV1"].clone())
        .collect();
    assert_eq!(fields[0], json!({"f:data": {"f:c": {}}}));
    assert_eq!(fields[1], json!({"f:data": {".": {}, "f:a": {}}}));
    assert_eq!(fields[2], json!({"f:data": {"f:b": {}}}));
    assert_eq!(fields[3], json!({"f:data": {"f:e": {}}}));
    // `managedFields: []` resets the tracking.
    let mut cur = r.json.clone();
    cur["metadata"]["managedFields"] = json!([]);
    let r = put(&mut e, &cm_uri("c", ""), &cur);
    assert!(
        r.json["metadata"].get("managedFields").is_none(),
        "{}",
        r.text
    );
}

#[test]
fn a_status_write_is_attributed_to_the_status_subresource() {
    let mut e = engine();
    create_ns(&mut e, "team");
    let mut ns = get(&mut e, "/api/v1/namespaces/team").json;
    assert_eq!(managers(&ns), ["unknown/Update"]);
    ns["status"]["conditions"] = json!([{"type": "Custom", "status": "True"}]);
    ns["spec"]["finalizers"] = json!([]);
    let r = put(
        &mut e,
        "/api/v1/namespaces/team/status?fieldManager=ctl",
        &ns,
    );
    assert_eq!(r.code, 200, "{}", r.text);
    let entries = r.json["metadata"]["managedFields"].as_array().unwrap();
    let status = entries.iter().find(|e| e["manager"] == "ctl").unwrap();
    assert_eq!(status["subresource"], "status");
    // The status endpoint writes the status and keeps the spec.
    assert_eq!(r.json["status"]["conditions"][0]["type"], "Custom");
    assert_eq!(r.json["spec"]["finalizers"], json!(["kubernetes"]));
    // `spec` is reset by the status endpoint, so only the status fields are owned.
    assert_eq!(
        status["fieldsV1"],
        json!({"f:status": {"f:conditions": {".": {}, "k:{\"type\":\"Custom\"}": {".": {}, "f:lastTransitionTime": {}, "f:status": {}, "f:type": {}}}}})
    );
}

/// The PATCH route consumes only the patch types (CBOR apply with its gate): go-restful's
/// own 415 answers any other Content-Type.
#[test]
fn the_patch_415_is_the_routers() {
    let mut e = kubesim::Engine::new(kubesim::Config {
        feature_gates: kubesim::features::FeatureGates::parse("CBORServingAndStorage=true")
            .unwrap(),
        ..kubesim::Config::default()
    });
    let r = send(
        &mut e,
        "PATCH",
        &cm_uri("c", ""),
        Some("{}"),
        &[("content-type", "application/json")],
    );
    assert_eq!(r.code, 415);
    assert_eq!(r.message(), "415: Unsupported Media Type");
    assert_eq!(r.reason(), "UnsupportedMediaType");
    assert_eq!(r.json["details"], serde_json::json!({}));
}

#[test]
fn an_apply_through_the_status_subresource_is_attributed_to_it() {
    let mut e = engine();
    create_ns(&mut e, "team");
    let cfg = "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team\nstatus:\n  conditions:\n  - type: Custom\n    status: \"True\"\n";
    let r = apply(
        &mut e,
        "/api/v1/namespaces/team/status?fieldManager=ctl",
        cfg,
    );
    assert_eq!(r.code, 200, "{}", r.text);
    let entries = r.json["metadata"]["managedFields"].as_array().unwrap();
    let mine = entries.iter().find(|e| e["manager"] == "ctl").unwrap();
    assert_eq!(mine["operation"], "Apply");
    assert_eq!(mine["subresource"], "status");
}

/// A subresource never creates: an apply through `status` of a missing object is a 404.
#[test]
fn an_apply_through_a_subresource_does_not_create() {
    let mut e = engine();
    let cfg = "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ghost\n";
    let r = apply(
        &mut e,
        "/api/v1/namespaces/ghost/status?fieldManager=ctl",
        cfg,
    );
    assert_eq!(
        (r.code, r.message()),
        (404, "namespaces \"ghost\" not found")
    );
    assert_eq!(get(&mut e, "/api/v1/namespaces/ghost").code, 404);
}
