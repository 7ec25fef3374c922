//! Export and import of the whole simulation: after a reload every request is answered
//! byte for byte as before (generated names and UIDs included, as the RNG state travels too).

use crate::common::*;
use serde_json::json;

#[test]
fn reload_answers_identically() {
    let mut a = engine();
    create_cr(&mut a, "default", &cr_body("x", 1));
    let old = e_rev(&a);
    create_cr(&mut a, "default", &cr_body("y", 2));
    a.advance(30_000);
    delete(&mut a, &cr("default", "x"));
    let state = a.export_state();

    let mut b = engine();
    b.import_state(&state).unwrap();
    let mut gen = cr_body("", 1);
    gen["metadata"] = json!({"generateName": "g-"});
    for uri in [
        crs("default"),
        format!(
            "{}?resourceVersion={old}&resourceVersionMatch=Exact",
            crs("default")
        ),
        "/kubesim/v1/clock".to_string(),
    ] {
        assert_eq!(get(&mut a, &uri).text, get(&mut b, &uri).text, "{uri}");
    }
    assert_eq!(
        post(&mut a, &crs("default"), &gen).text,
        post(&mut b, &crs("default"), &gen).text
    );
    assert_eq!(a.export_state(), b.export_state());
    assert!(b.import_state(&json!({"kind": "Other"})).is_err());
}

fn e_rev(e: &kubesim::Engine) -> u64 {
    e.store().revision()
}

/// A corrupt object is still corrupt after a reload, and a ControllerRevision's `data`
/// still compares as the client wrote it.
#[test]
fn corruption_and_raw_data_survive_a_reload() {
    let cm = "/api/v1/namespaces/default/configmaps";
    let mut a = engine();
    post(&mut a, cm, &json!({"metadata": {"name": "x"}}));
    let r = send(
        &mut a,
        "POST",
        &format!("/kubesim/v1/corrupt?path={cm}/x&as=undecodable"),
        None,
        &[],
    );
    assert_eq!(r.code, 200, "{}", r.text);
    let body = r#"{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"r"},"data":{"a": 1},"revision":1}"#;
    let r = send(
        &mut a,
        "POST",
        &crs("default"),
        Some(body),
        &[("content-type", "application/json")],
    );
    assert_eq!(r.code, 201, "{}", r.text);
    let state = a.export_state();

    let mut b = engine();
    b.import_state(&state).unwrap();
    let before = get(&mut a, &format!("{cm}/x"));
    let after = get(&mut b, &format!("{cm}/x"));
    assert_eq!((after.code, &after.text), (500, &before.text));
    // The same JSON with other spacing is a change of `data`: rejected after the reload too.
    let mut changed = get(&mut b, &cr("default", "r")).json;
    changed["data"] = json!({"a": 1});
    let r = put(&mut b, &cr("default", "r"), &changed);
    assert_eq!(
        (r.code, r.message()),
        (422, "ControllerRevision.apps \"r\" is invalid: data: Invalid value: {\"a\":1}: field is immutable")
    );
    assert_eq!(a.export_state(), b.export_state());
}

/// An import restarts the controllers: what they had queued for the old cluster does not
/// act on the new one (a live namespace there keeps its content and finalizer).
#[test]
fn an_import_restarts_the_controllers() {
    let mut a = engine();
    create_ns(&mut a, "x");
    let cm = "/api/v1/namespaces/x/configmaps";
    assert_eq!(
        post(&mut a, cm, &json!({"metadata": {"name": "keep"}})).code,
        201
    );
    let state = a.export_state();
    let mut b = engine();
    create_ns(&mut b, "x");
    assert_eq!(delete(&mut b, "/api/v1/namespaces/x").code, 200);
    b.import_state(&state).unwrap();
    b.advance(6_000);
    assert_eq!(get(&mut b, &format!("{cm}/keep")).code, 200);
    let ns = get(&mut b, "/api/v1/namespaces/x").json;
    assert_eq!(ns["spec"]["finalizers"], json!(["kubernetes"]));
    assert!(ns["status"].get("conditions").is_none());
}
