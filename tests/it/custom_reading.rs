//! Custom resources read through their definition's schema as it is now (the CRD storage's
//! decoder): defaults added after an object was written show, properties removed from the
//! schema go, objects stored in an earlier storage version read in the version asked for,
//! and each served version prunes to its own schema. None of it writes: resourceVersions
//! stay.

use serde_json::{json, Value};

use crate::common::{engine, get, post, put, rv_of, watch};
use crate::custom_resources::{widget, with_widgets, CRDS, WIDGETS};

const WIDGET_CRD: &str =
    "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com";

/// Replaces the definition with what `change` makes of it.
fn change_definition(e: &mut kubesim::Engine, change: impl FnOnce(&mut Value)) {
    let mut crd = get(e, WIDGET_CRD).json;
    change(&mut crd);
    let r = put(e, WIDGET_CRD, &crd);
    assert_eq!(r.code, 200, "{}", r.text);
    e.advance(1000);
}

fn spec_properties(crd: &mut Value, version: usize) -> &mut Value {
    &mut crd["spec"]["versions"][version]["schema"]["openAPIV3Schema"]["properties"]["spec"]
        ["properties"]
}

#[test]
fn objects_written_before_a_schema_change_read_through_the_new_schema() {
    let mut e = with_widgets();
    let r = post(
        &mut e,
        WIDGETS,
        &widget("w1", json!({"color": "red", "tags": ["a"]})),
    );
    assert_eq!(r.code, 201, "{}", r.text);
    let rv = rv_of(&r.json);
    change_definition(&mut e, |crd| {
        let props = spec_properties(crd, 0);
        props["shape"] = json!({"type": "string", "default": "round"});
        props.as_object_mut().unwrap().remove("tags");
        crd["spec"]["versions"][0]["selectableFields"] = json!([{"jsonPath": ".spec.shape"}]);
    });
    let want = json!({"color": "red", "shape": "round", "size": 3});
    let got = get(&mut e, &format!("{WIDGETS}/w1")).json;
    assert_eq!((&got["spec"], rv_of(&got)), (&want, rv), "GET");
    let list = get(&mut e, WIDGETS).json;
    assert_eq!(list["items"][0]["spec"], want, "list");
    let selected = get(
        &mut e,
        &format!("{WIDGETS}?fieldSelector=spec.shape%3Dround"),
    )
    .json;
    assert_eq!(
        selected["items"].as_array().map(Vec::len),
        Some(1),
        "{selected}"
    );
    let mut w = watch(&mut e, &format!("{WIDGETS}?watch=true&resourceVersion=0"));
    // A watch selects as a list does: on the object as it reads.
    let selecting =
        format!("{WIDGETS}?watch=true&resourceVersion=0&fieldSelector=spec.shape%3Dround");
    let mut selected = watch(&mut e, &selecting);
    e.advance(10);
    let (events, _) = w.events();
    assert_eq!(events[0]["object"]["spec"], want, "{events:?}");
    assert_eq!(selected.summary(), ["ADDED w1"]);
    // A JSON patch tests the default it reads. It changes nothing, yet it is a write: etcd
    // compares bytes, and the stored ones lacked the default, which is now stored. After
    // that, a PUT of the read form changes nothing.
    let r = crate::common::send(
        &mut e,
        "PATCH",
        &format!("{WIDGETS}/w1"),
        Some(r#"[{"op": "test", "path": "/spec/shape", "value": "round"}]"#),
        &[("content-type", "application/json-patch+json")],
    );
    assert_eq!(r.code, 200, "{}", r.text);
    assert!(rv_of(&r.json) > rv, "a write: {}", r.text);
    let read = get(&mut e, &format!("{WIDGETS}/w1")).json;
    let r = put(&mut e, &format!("{WIDGETS}/w1"), &read);
    assert_eq!((r.code, rv_of(&r.json)), (200, rv_of(&read)), "{}", r.text);
    // The object a write starts from is read the same way: a status write does not see the
    // default as a spec change.
    let mut status = get(&mut e, &format!("{WIDGETS}/w1")).json;
    status["status"] = json!({"ready": true});
    let r = put(&mut e, &format!("{WIDGETS}/w1/status"), &status);
    assert_eq!(r.code, 200, "{}", r.text);
    assert_eq!(
        (&r.json["spec"], &r.json["metadata"]["generation"]),
        (&want, &json!(1))
    );
    // Written since, an object reads as it was stored.
    let r = post(&mut e, WIDGETS, &widget("w2", json!({"color": "blue"})));
    assert_eq!(
        r.json["spec"],
        json!({"color": "blue", "shape": "round", "size": 3})
    );
    assert_eq!(get(&mut e, &format!("{WIDGETS}/w2")).text, r.text);
}

/// Two versions with their own schemas: v1beta1 (stored) knows `legacy`, v1 defaults
/// `label`.
fn two_version_definition() -> Value {
    let mut crd = crate::custom_resources::widget_crd();
    let v1 = crd["spec"]["versions"][0].clone();
    let mut beta = v1.clone();
    beta["name"] = json!("v1beta1");
    crd["spec"]["versions"] = json!([beta, v1]);
    crd["spec"]["versions"][1]["storage"] = json!(false);
    spec_properties(&mut crd, 0)["legacy"] = json!({"type": "string"});
    spec_properties(&mut crd, 1)["label"] = json!({"type": "string", "default": "x"});
    crd
}

#[test]
fn each_version_reads_through_its_own_schema() {
    let mut e = engine();
    assert_eq!(post(&mut e, CRDS, &two_version_definition()).code, 201);
    let beta = "/apis/example.com/v1beta1/namespaces/default/widgets";
    let mut body = widget("w1", json!({"color": "red", "legacy": "old"}));
    body["apiVersion"] = json!("example.com/v1beta1");
    let r = post(&mut e, beta, &body);
    assert_eq!(r.code, 201, "{}", r.text);
    assert_eq!(
        r.json["spec"],
        json!({"color": "red", "legacy": "old", "size": 3})
    );
    // Read through v1, it is defaulted as stored (by v1beta1), converted, and pruned by v1.
    let v1 = get(&mut e, &format!("{WIDGETS}/w1")).json;
    assert_eq!(
        (&v1["apiVersion"], &v1["spec"]),
        (
            &json!("example.com/v1"),
            &json!({"color": "red", "size": 3})
        )
    );
    // The storage version moves to v1: what v1beta1 stored still reads in v1.
    change_definition(&mut e, |crd| {
        crd["spec"]["versions"][0]["storage"] = json!(false);
        crd["spec"]["versions"][1]["storage"] = json!(true);
    });
    let v1 = get(&mut e, &format!("{WIDGETS}/w1")).json;
    assert_eq!(
        (&v1["apiVersion"], &v1["spec"]),
        (
            &json!("example.com/v1"),
            &json!({"color": "red", "size": 3})
        )
    );
    let list = get(&mut e, WIDGETS).json;
    assert_eq!(list["items"][0]["apiVersion"], "example.com/v1", "{list}");
    // Written through v1beta1 now, an object is stored in v1, pruned by v1's schema: its
    // `legacy` is gone, and v1's default shows only through v1.
    let mut body = widget("w2", json!({"color": "blue", "legacy": "old"}));
    body["apiVersion"] = json!("example.com/v1beta1");
    let r = post(&mut e, beta, &body);
    assert_eq!(r.code, 201, "{}", r.text);
    assert_eq!(
        (&r.json["apiVersion"], &r.json["spec"]),
        (
            &json!("example.com/v1beta1"),
            &json!({"color": "blue", "size": 3})
        )
    );
    assert_eq!(
        get(&mut e, &format!("{WIDGETS}/w2")).json["spec"],
        json!({"color": "blue", "label": "x", "size": 3})
    );
}

/// A DELETED event carries the deleted object as it read, defaults added since included;
/// a bookmark is never read through the schema (a root default would give it a spec).
#[test]
fn deletions_read_through_the_schema_and_bookmarks_do_not() {
    let mut e = with_widgets();
    let r = post(&mut e, WIDGETS, &widget("w1", json!({"color": "red"})));
    assert_eq!(r.code, 201, "{}", r.text);
    change_definition(&mut e, |crd| {
        let schema = &mut crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"];
        schema["properties"]["spec"]["default"] = json!({});
        spec_properties(crd, 0)["shape"] = json!({"type": "string", "default": "round"});
    });
    let mut w = watch(
        &mut e,
        &format!("{WIDGETS}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true"),
    );
    e.advance(10);
    assert_eq!(
        crate::common::delete(&mut e, &format!("{WIDGETS}/w1")).code,
        200
    );
    e.advance(10);
    let (events, _) = w.events();
    let kinds: Vec<&str> = events.iter().filter_map(|ev| ev["type"].as_str()).collect();
    assert_eq!(kinds, ["ADDED", "BOOKMARK", "DELETED"], "{events:?}");
    let want = json!({"color": "red", "shape": "round", "size": 3});
    assert_eq!(events[0]["object"]["spec"], want);
    assert!(events[1]["object"].get("spec").is_none(), "{}", events[1]);
    assert_eq!(events[2]["object"]["spec"], want, "{}", events[2]);
}
