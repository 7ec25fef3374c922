//! PATCH: JSON Patch, JSON Merge Patch and strategic merge patch on ControllerRevisions and
//! Namespaces, with the real server's errors for each failure.

use crate::common;
use crate::common::*;
use serde_json::json;

fn patch(e: &mut kubesim::Engine, uri: &str, ct: &str, body: &str) -> Resp {
    send(e, "PATCH", uri, Some(body), &[("content-type", ct)])
}

const JSON: &str = "application/json-patch+json";
const MERGE: &str = "application/merge-patch+json";
const SMP: &str = "application/strategic-merge-patch+json";

#[test]
fn each_patch_type_changes_labels_and_bumps_the_revision() {
    let rows = [
        (
            JSON,
            r#"[{"op":"add","path":"/metadata/labels","value":{"app":"x"}}]"#,
        ),
        (MERGE, r#"{"metadata":{"labels":{"app":"x"}}}"#),
        (SMP, r#"{"metadata":{"labels":{"app":"x"}}}"#),
    ];
    for (ct, body) in rows {
        let mut e = engine();
        let c = create_cr(&mut e, "default", &cr_body("p", 1));
        let r = patch(&mut e, &cr("default", "p"), ct, body);
        assert_eq!(r.code, 200, "{ct}: {}", r.text);
        assert_eq!(r.json["metadata"]["labels"], json!({"app": "x"}), "{ct}");
        assert!(rv_of(&r.json) > rv_of(&c), "{ct}");
        assert_eq!(r.json["data"], c["data"], "{ct}");
    }
}

#[test]
fn strategic_merge_uses_metadata_list_strategies() {
    let mut e = engine();
    let mut b = cr_body("s", 1);
    b["metadata"]["finalizers"] = json!(["example.com/a"]);
    create_cr(&mut e, "default", &b);
    let r = patch(
        &mut e,
        &cr("default", "s"),
        SMP,
        r#"{"metadata":{"finalizers":["example.com/b"]}}"#,
    );
    // As the real server orders a merged primitive list: the patch's items first.
    assert_eq!(
        r.json["metadata"]["finalizers"],
        json!(["example.com/b", "example.com/a"])
    );
    let r = patch(
        &mut e,
        &cr("default", "s"),
        MERGE,
        r#"{"metadata":{"finalizers":["example.com/c"]}}"#,
    );
    assert_eq!(
        r.json["metadata"]["finalizers"],
        json!(["example.com/c"]),
        "merge patch replaces lists"
    );
    let r = patch(
        &mut e,
        &cr("default", "s"),
        SMP,
        r#"{"metadata":{"$deleteFromPrimitiveList/finalizers":["example.com/c"]}}"#,
    );
    assert!(r.json["metadata"].get("finalizers").is_none(), "{}", r.text);
}

#[test]
fn conditional_patch_and_immutability() {
    let mut e = engine();
    let c = create_cr(&mut e, "default", &cr_body("c", 1));
    let stale = r#"{"metadata":{"resourceVersion":"1","labels":{"a":"b"}}}"#;
    let r = patch(&mut e, &cr("default", "c"), MERGE, stale);
    assert_eq!(r.code, 409);
    assert_eq!(r.reason(), "Conflict");
    let fresh = format!(
        r#"{{"metadata":{{"resourceVersion":"{}","labels":{{"a":"b"}}}}}}"#,
        rv_of(&c)
    );
    assert_eq!(patch(&mut e, &cr("default", "c"), MERGE, &fresh).code, 200);
    let r = patch(
        &mut e,
        &cr("default", "c"),
        MERGE,
        r#"{"data":{"other":1}}"#,
    );
    assert_eq!(r.code, 422);
    assert!(
        r.message().contains("data: Invalid value"),
        "{}",
        r.message()
    );
    // Repeating identical data is fine, and a no-op patch keeps the resourceVersion.
    let before = get(&mut e, &cr("default", "c")).json;
    let r = patch(
        &mut e,
        &cr("default", "c"),
        MERGE,
        r#"{"data":{"spec":{"replicas":1}}}"#,
    );
    assert_eq!(r.code, 200, "{}", r.text);
    assert_eq!(rv_of(&r.json), rv_of(&before));
    let r = patch(&mut e, &cr("default", "c"), SMP, r#"{"revision":5}"#);
    assert_eq!(r.json["revision"], 5);
}

#[test]
fn patch_errors_table() {
    let mut e = engine();
    create_cr(&mut e, "default", &cr_body("x", 1));
    let rows: Vec<(&str, &str, String, u16, &str, &str)> = vec![
        (
            "application/json",
            "{}",
            cr("default", "x"),
            415,
            "UnsupportedMediaType",
            "415: Unsupported Media Type",
        ),
        (
            MERGE,
            "{}",
            cr("default", "missing"),
            404,
            "NotFound",
            "controllerrevisions.apps \"missing\" not found",
        ),
        (
            JSON,
            r#"[{"op":"test","path":"/revision","value":9}]"#,
            cr("default", "x"),
            422,
            "Invalid",
            "the server rejected our request due to an error in our request",
        ),
        (
            MERGE,
            "{",
            cr("default", "x"),
            400,
            "BadRequest",
            "error decoding patch: unexpected end of JSON input",
        ),
        (
            SMP,
            r#"{"$patch":"bogus"}"#,
            cr("default", "x"),
            500,
            "",
            "",
        ),
        (
            SMP,
            r#"{"data":{"spec":{"replicas":2}}}"#,
            cr("default", "x"),
            500,
            "",
            "unable to find api field in struct RawExtension for the json field \"spec\"",
        ),
        (
            MERGE,
            r#"{"metadata":{"name":"y"}}"#,
            cr("default", "x"),
            400,
            "BadRequest",
            "the name of the object (y) does not match the name on the URL (x)",
        ),
    ];
    for (ct, body, uri, code, reason, msg) in rows {
        let r = patch(&mut e, &uri, ct, body);
        assert_eq!(r.code, code, "{ct} {body}: {}", r.text);
        assert_eq!(r.reason(), reason, "{ct} {body}");
        if !msg.is_empty() {
            assert_eq!(r.message(), msg, "{ct} {body}");
        }
    }
    let r = patch(
        &mut e,
        &format!("{}?force=true", cr("default", "x")),
        MERGE,
        "{}",
    );
    assert_eq!(r.code, 422);
    assert_eq!(r.message(), "PatchOptions.meta.k8s.io \"\" is invalid: force: Forbidden: may not be specified for non-apply patch");
    let r = patch(
        &mut e,
        &format!("{}?fieldValidation=Strict", cr("default", "x")),
        MERGE,
        r#"{"foo":1}"#,
    );
    assert_eq!(r.code, 422);
    assert!(
        r.message()
            .starts_with(" \"\" is invalid: patch: Invalid value: "),
        "{}",
        r.message()
    );
    assert!(
        r.message()
            .ends_with("strict decoding error: unknown field \"foo\""),
        "{}",
        r.message()
    );
    let r = patch(&mut e, &cr("default", "x"), MERGE, r#"{"foo":1}"#);
    assert_eq!(r.code, 200);
    assert_eq!(
        r.header_all("warning"),
        ["299 - \"unknown field \\\"foo\\\"\""]
    );
}

/// The patchers' own texts (patch.go): the strict pass over the patch bytes, the JSON Patch
/// library's failures as a bare 422, the patched object quoted as the patcher holds it.
#[test]
fn patch_decoding_and_application_errors() {
    let mut e = engine();
    create_cr(&mut e, "default", &cr_body("x", 1));
    let x = cr("default", "x");
    let strict = format!("{x}?fieldValidation=Strict");
    let ignore = format!("{x}?fieldValidation=Ignore");
    let rows: Vec<(&str, &str, &str, u16, &str)> = vec![
        (JSON, &x, r#"[{"op":"test","path":"/revision","value":9}]"#, 422,
         "the server rejected our request due to an error in our request"),
        (JSON, &x, r#"[{"op":"remove","path":"/nope"}]"#, 422,
         "the server rejected our request due to an error in our request"),
        (JSON, &x, r#"[{"op":"bogus","path":"/revision"}]"#, 422,
         "the server rejected our request due to an error in our request"),
        (JSON, &x, r#"{"op":"add"}"#, 400,
         "error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp"),
        (JSON, &ignore, r#"{"op":"add"}"#, 400,
         "json: cannot unmarshal object into Go value of type jsonpatch.Patch"),
        (JSON, &x, "[", 400, "error decoding patch: unexpected end of JSON input"),
        (MERGE, &x, "null", 400, "Invalid JSON Patch"),
        // A `null` JSON or strategic patch decodes as nothing to do.
        (JSON, &x, "null", 200, ""),
        (SMP, &x, "null", 200, ""),
        (MERGE, &x, "[1]", 400,
         "error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}"),
        (SMP, &x, "[1]", 400,
         "json: cannot unmarshal array into Go value of type map[string]interface {}"),
        // The kind cannot change: the patched JSON (keys sorted where the patcher opened it)
        // fails to decode as the resource's kind.
        (MERGE, &x, r#"{"kind":"Pod"}"#, 422, "no kind \"Pod\" is registered for version \"apps/v1\" in scheme \"pkg/api/legacyscheme/scheme.go:30\""),
        (MERGE, &strict, r#"{"bogusField":1}"#, 422, "strict decoding error: unknown field \"bogusField\""),
        (JSON, &strict, r#"[{"op":"add","path":"/bogusField","value":1}]"#, 422,
         "strict decoding error: unknown field \"bogusField\""),
        (SMP, &strict, r#"{"bogusField":1}"#, 422, "strict decoding error: unknown field \"bogusField\""),
        (MERGE, &strict, r#"{"revision":2,"revision":3}"#, 422,
         "strict decoding error: duplicate field \"revision\""),
        // The patched object must still name the URL's object (`checkName`).
        (JSON, &x, r#"[{"op":"remove","path":"/metadata/name"}]"#, 400,
         "the name of the object (x based on URL) was undeterminable: name must be provided"),
        (MERGE, &x, r#"{"metadata":{"name":"other"}}"#, 400,
         "the name of the object (other) does not match the name on the URL (x)"),
    ];
    for (ct, uri, body, code, want) in rows {
        let r = patch(&mut e, uri, ct, body);
        assert_eq!(r.code, code, "{ct} {body}: {}", r.text);
        if code == 422 && r.message().starts_with(" \"\" is invalid") {
            assert!(r.message().ends_with(want), "{ct} {body}: {}", r.message());
        } else {
            assert_eq!(r.message(), want, "{ct} {body}");
        }
        if r.message() == "the server rejected our request due to an error in our request" {
            assert_eq!(r.json["details"], json!({}), "{ct} {body}");
        }
    }
    // What the 422s quote: evanphx's JSON (top-level keys sorted; objects it did not open as
    // encoded), or Go's %+v of the strategic patch map.
    let stored = get(&mut e, &x).json;
    let meta = serde_json::to_string(&stored["metadata"]).unwrap();
    let r = patch(&mut e, &x, MERGE, r#"{"kind":"Pod"}"#);
    let sorted = format!(
        r#"{{"apiVersion":"apps/v1","data":{},"kind":"Pod","metadata":{meta},"revision":1}}"#,
        serde_json::to_string(&stored["data"]).unwrap()
    );
    assert_eq!(
        r.json["details"]["causes"][0]["message"],
        format!(
            "Invalid value: {}: no kind \"Pod\" is registered for version \"apps/v1\" in scheme \"pkg/api/legacyscheme/scheme.go:30\"",
            serde_json::to_string(&sorted).unwrap()
        )
    );
    let r = patch(&mut e, &strict, SMP, r#"{"bogusField":1}"#);
    assert_eq!(
        r.message(),
        " \"\" is invalid: patch: Invalid value: \"map[bogusField:1]\": strict decoding error: unknown field \"bogusField\""
    );
    // Nothing changed.
    assert_eq!(rv_of(&get(&mut e, &x).json), rv_of(&stored));
}

#[test]
fn namespaces_and_watchers_see_patches() {
    let mut e = engine();
    let rv = e.store().revision();
    let mut w = watch(
        &mut e,
        &format!("/api/v1/namespaces?watch=1&resourceVersion={rv}"),
    );
    let r = patch(
        &mut e,
        "/api/v1/namespaces/default",
        MERGE,
        r#"{"metadata":{"labels":{"team":"a"}}}"#,
    );
    assert_eq!(r.code, 200, "{}", r.text);
    assert_eq!(r.json["metadata"]["labels"]["team"], "a");
    assert_eq!(
        r.json["metadata"]["labels"]["kubernetes.io/metadata.name"],
        "default"
    );
    assert_eq!(w.summary(), ["MODIFIED default"]);
    let dry = patch(
        &mut e,
        "/api/v1/namespaces/default?dryRun=All",
        MERGE,
        r#"{"metadata":{"labels":{"team":"b"}}}"#,
    );
    assert_eq!(dry.json["metadata"]["labels"]["team"], "b");
    assert!(w.summary().is_empty());
}

#[test]
fn kubectl_patch_works() {
    let s = common::server::Server::start(&[]);
    let f = s.write("cr.yaml", "apiVersion: apps/v1\nkind: ControllerRevision\nmetadata:\n  name: k\ndata: {}\nrevision: 1\n");
    s.kubectl_ok(&["create", "-f", &f]);
    for (t, p) in [
        ("merge", r#"{"metadata":{"labels":{"a":"1"}}}"#),
        ("strategic", r#"{"metadata":{"labels":{"b":"2"}}}"#),
        (
            "json",
            r#"[{"op":"add","path":"/metadata/labels/c","value":"3"}]"#,
        ),
    ] {
        let out = s.kubectl_ok(&["patch", "controllerrevision", "k", "--type", t, "-p", p]);
        assert_eq!(out.trim(), "controllerrevision.apps/k patched", "{t}");
    }
    let labels = s.kubectl_ok(&[
        "get",
        "controllerrevision",
        "k",
        "-o",
        "jsonpath={.metadata.labels}",
    ]);
    assert_eq!(labels, r#"{"a":"1","b":"2","c":"3"}"#);
    s.kubectl_ok(&["label", "controllerrevision", "k", "d=4"]);
    s.kubectl_ok(&["annotate", "controllerrevision", "k", "note=hi"]);
}
