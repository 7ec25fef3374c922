//! A custom resource's scale subresource: the object as an autoscaling/v1 Scale, a Scale's
//! replicas written through the object's own update, Scale bodies in every encoding with
//! their strict findings, and the patch and accessor errors as the real server gives them.

use kubesim::Engine;
use serde_json::{json, Value};

use crate::common::{engine, get, post, put, send};
use crate::custom_resources::{widget, widget_crd, CRDS, WIDGETS};

/// An engine serving Widgets with a scale subresource at `.spec.replicas`,
/// `.status.replicas` and `.status.selector`.
fn with_scalable_widgets() -> Engine {
    let mut e = engine();
    let mut crd = widget_crd();
    let v = &mut crd["spec"]["versions"][0];
    v["subresources"]["scale"] = json!({"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas", "labelSelectorPath": ".status.selector"});
    let props = &mut v["schema"]["openAPIV3Schema"]["properties"];
    props["spec"]["properties"]["replicas"] = json!({"type": "integer"});
    props["status"]["properties"]["replicas"] = json!({"type": "integer"});
    props["status"]["properties"]["selector"] = json!({"type": "string"});
    assert_eq!(post(&mut e, CRDS, &crd).code, 201);
    e
}

/// The scale subresource: the object as an autoscaling/v1 Scale, and a Scale's replicas
/// written to the spec replicas path through the object's own update.
#[test]
fn the_scale_subresource_reads_and_writes_replicas() {
    let mut e = with_scalable_widgets();
    let created = post(&mut e, WIDGETS, &widget("w1", json!({"replicas": 2})));
    assert_eq!(created.code, 201, "{}", created.text);
    let path = format!("{WIDGETS}/w1/scale");
    let r = get(&mut e, &path);
    assert_eq!(r.code, 200, "{}", r.text);
    let m = &created.json["metadata"];
    assert_eq!(
        r.text.trim_end(),
        format!(
            r#"{{"kind":"Scale","apiVersion":"autoscaling/v1","metadata":{{"name":"w1","namespace":"default","uid":"{}","resourceVersion":"{}","creationTimestamp":"{}"}},"spec":{{"replicas":2}},"status":{{"replicas":0}}}}"#,
            m["uid"].as_str().unwrap(),
            m["resourceVersion"].as_str().unwrap(),
            m["creationTimestamp"].as_str().unwrap()
        )
    );
    let r = send(
        &mut e,
        "PATCH",
        &path,
        Some(r#"{"spec":{"replicas":5}}"#),
        &[("content-type", "application/merge-patch+json")],
    );
    assert_eq!(r.code, 200, "{}", r.text);
    assert_eq!(r.json["spec"]["replicas"], 5);
    let obj = get(&mut e, &format!("{WIDGETS}/w1")).json;
    assert_eq!(obj["spec"]["replicas"], 5);
    assert_eq!(obj["metadata"]["generation"], 2);
    let entry = obj["metadata"]["managedFields"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert_eq!(entry["subresource"], "scale");
    let mut stale = r.json.clone();
    stale["metadata"]["resourceVersion"] = m["resourceVersion"].clone();
    let r = put(&mut e, &path, &stale);
    assert_eq!(r.code, 409, "{}", r.text);
    let mut negative = get(&mut e, &path).json;
    negative["spec"]["replicas"] = json!(-1);
    let r = put(&mut e, &path, &negative);
    assert_eq!(r.code, 422);
    assert_eq!(
        r.json["message"],
        r#"Widget.example.com "w1" is invalid: .spec.replicas: Invalid value: -1: should be a non-negative integer"#
    );
    // The Scale's name is checked as any update's (`checkName`), and a non-apply patch's
    // options as any patch's.
    let r = put(
        &mut e,
        &path,
        &json!({"apiVersion": "autoscaling/v1", "kind": "Scale", "spec": {"replicas": 1}}),
    );
    assert_eq!(r.code, 400);
    assert_eq!(
        r.json["message"],
        "the name of the object (w1 based on URL) was undeterminable: name must be provided"
    );
    let r = send(
        &mut e,
        "PATCH",
        &format!("{path}?force=true"),
        Some(r#"{"spec":{"replicas":1}}"#),
        &[("content-type", "application/merge-patch+json")],
    );
    assert_eq!(r.code, 422, "{}", r.text);
    assert_eq!(
        r.json["message"],
        "PatchOptions.meta.k8s.io \"\" is invalid: force: Forbidden: may not be specified for non-apply patch"
    );
    // An object without its spec replicas field: its Scale is a 500 to GET, and a patch that
    // does not set them is refused; one that does sets them.
    assert_eq!(post(&mut e, WIDGETS, &widget("w2", json!({}))).code, 201);
    let path = format!("{WIDGETS}/w2/scale");
    let r = get(&mut e, &path);
    assert_eq!(r.code, 500);
    assert_eq!(
        r.json["message"],
        r#"Internal error occurred: the spec replicas field ".spec.replicas" does not exist"#
    );
    let merge = [("content-type", "application/merge-patch+json")];
    let r = send(
        &mut e,
        "PATCH",
        &path,
        Some(r#"{"metadata":{"labels":{"a":"b"}}}"#),
        &merge,
    );
    assert_eq!(r.code, 400, "{}", r.text);
    assert_eq!(
        r.json["message"],
        r#"the spec replicas field ".spec.replicas" cannot be empty"#
    );
    let r = send(
        &mut e,
        "PATCH",
        &path,
        Some(r#"{"spec":{"replicas":3}}"#),
        &merge,
    );
    assert_eq!(r.code, 200, "{}", r.text);
    assert_eq!(r.json["spec"]["replicas"], 3);
}

/// A Scale body decodes as any update's: YAML and CBOR too, unknown fields warned about or
/// refused by `fieldValidation`, a body of another kind refused by the decoder. A patched
/// Scale that does not decode is the patch's 422; an accessor error a plain 500.
#[test]
fn scale_bodies_decode_as_any_update_and_patch_errors_are_the_real_ones() {
    let mut e = with_scalable_widgets();
    assert_eq!(
        post(&mut e, WIDGETS, &widget("w1", json!({"replicas": 2}))).code,
        201
    );
    let path = format!("{WIDGETS}/w1/scale");
    let yaml = "apiVersion: autoscaling/v1\nkind: Scale\nmetadata:\n  name: w1\nspec:\n  replicas: 4\n  bogus: 1\n";
    let r = send(
        &mut e,
        "PUT",
        &path,
        Some(yaml),
        &[("content-type", "application/yaml")],
    );
    assert_eq!(r.code, 200, "{}", r.text);
    assert_eq!(r.json["spec"]["replicas"], 4);
    let warnings: Vec<&str> = r
        .headers
        .get_all("warning")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .collect();
    assert_eq!(warnings, [r#"299 - "unknown field \"spec.bogus\"""#]);
    let strict = format!("{path}?fieldValidation=Strict");
    let r = send(
        &mut e,
        "PUT",
        &strict,
        Some(yaml),
        &[("content-type", "application/yaml")],
    );
    assert_eq!(r.code, 400, "{}", r.text);
    assert_eq!(
        r.json["message"],
        r#"Scale in version "v1" cannot be handled as a Scale: strict decoding error: unknown field "spec.bogus""#
    );
    let other = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "w1"}});
    let r = put(&mut e, &path, &other);
    assert_eq!(r.code, 400, "{}", r.text);
    assert!(
        r.json["message"]
            .as_str()
            .unwrap()
            .starts_with("ConfigMap in version \"v1\" cannot be handled as a Scale: "),
        "{}",
        r.text
    );
    let r = send(
        &mut e,
        "PATCH",
        &path,
        Some(r#"{"spec":{"replicas":"many"}}"#),
        &[("content-type", "application/merge-patch+json")],
    );
    assert_eq!(r.code, 422, "{}", r.text);
    let message = r.json["message"].as_str().unwrap();
    assert!(
        message.starts_with(r#" "" is invalid: patch: Invalid value: "#),
        "{message}"
    );
    assert!(
        message.ends_with("json: cannot unmarshal string into Go struct field ScaleSpec.spec.replicas of type int32"),
        "{message}"
    );
    // A spec replicas value that is no integer: the accessor's error, as a plain 500.
    let mut obj = get(&mut e, &format!("{WIDGETS}/w1")).json;
    obj["spec"]["replicas"] = json!(1.5);
    let r = put(&mut e, &format!("{WIDGETS}/w1"), &obj);
    assert_eq!(r.code, 422, "{}", r.text);
    // After the schema's own errors (the field is an integer).
    let message = r.json["message"].as_str().unwrap();
    assert!(
        message.ends_with(r#", .spec.replicas: Invalid value: 0: .spec.replicas accessor error: 1.5 is of the type float64, expected int64]"#),
        "{message}"
    );
}

/// The media type of a PATCH is checked before its body's size.
#[test]
fn a_scale_patch_of_an_unsupported_type_is_415_before_its_size() {
    let mut e = with_scalable_widgets();
    assert_eq!(
        post(&mut e, WIDGETS, &widget("w1", json!({"replicas": 2}))).code,
        201
    );
    let big: Value = json!({"spec": {"replicas": 1}, "pad": "x".repeat(4 * 1024 * 1024)});
    let r = send(
        &mut e,
        "PATCH",
        &format!("{WIDGETS}/w1/scale"),
        Some(&big.to_string()),
        &[("content-type", "application/strategic-merge-patch+json")],
    );
    assert_eq!(r.code, 415, "{}", r.text);
}
