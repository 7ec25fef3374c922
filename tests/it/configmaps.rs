//! core/v1 ConfigMap, the kind added as one module plus one registration line: CRUD and
//! discovery, `ValidateConfigMap` / `ValidateConfigMapUpdate` with the real messages, the
//! printer's columns, and protobuf cross-checked with k8s-pb.

use crate::common::*;
use k8s_pb::api::core::v1 as core;
use k8s_pb::apimachinery::pkg::apis::meta::v1 as meta;
use prost::Message;
use serde_json::{json, Value};

fn cms(ns: &str) -> String {
    format!("/api/v1/namespaces/{ns}/configmaps")
}

fn cm(ns: &str, name: &str) -> String {
    format!("/api/v1/namespaces/{ns}/configmaps/{name}")
}

fn body(name: &str, data: Value) -> Value {
    json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}, "data": data})
}

#[test]
fn crud_round_trip() {
    let mut e = engine();
    let mut b = body("app", json!({"mode": "fast", "level": "3"}));
    b["binaryData"] = json!({"blob": "AAEC"});
    let r = post(&mut e, &cms("default"), &b);
    assert_eq!(r.code, 201, "{}", r.text);
    // Go struct order: kind, apiVersion, metadata, immutable, data, binaryData.
    let keys: Vec<&str> = r
        .json
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        ["kind", "apiVersion", "metadata", "data", "binaryData"]
    );
    assert_eq!(r.json["data"], json!({"level": "3", "mode": "fast"}));
    let got = get(&mut e, &cm("default", "app"));
    assert_eq!(got.code, 200);
    assert_eq!(got.json, r.json);
    let mut next = got.json.clone();
    next["data"]["mode"] = json!("slow");
    let u = put(&mut e, &cm("default", "app"), &next);
    assert_eq!(u.code, 200, "{}", u.text);
    assert_eq!(u.json["data"]["mode"], "slow");
    let list = get(&mut e, &cms("default"));
    assert_eq!(list.json["kind"], "ConfigMapList");
    assert_eq!(list.json["items"].as_array().unwrap().len(), 1);
    let sel = get(
        &mut e,
        "/api/v1/configmaps?fieldSelector=metadata.name%3Dapp",
    );
    assert_eq!(sel.json["items"].as_array().unwrap().len(), 1);
    let d = delete(&mut e, &cm("default", "app"));
    assert_eq!(d.code, 200);
    assert_eq!(d.json["details"]["kind"], "configmaps");
    assert_eq!(get(&mut e, &cm("default", "app")).code, 404);
    let gone = get(&mut e, &cm("default", "app"));
    assert_eq!(gone.json["message"], "configmaps \"app\" not found");
}

#[test]
fn only_metadata_field_selectors() {
    let mut e = engine();
    let r = get(
        &mut e,
        "/api/v1/configmaps?fieldSelector=status.phase%3DActive",
    );
    assert_eq!(r.code, 400);
    assert_eq!(
        r.json["message"],
        "\"status.phase\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\""
    );
}

const KEY_MSG: &str = "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

#[test]
fn validation_table() {
    let long_key = "k".repeat(254);
    let big = "x".repeat(1024 * 1024);
    let cases: Vec<(Value, String)> = vec![
        (
            body("c", json!({"a b": "1"})),
            format!("ConfigMap \"c\" is invalid: data[a b]: Invalid value: \"a b\": {KEY_MSG}"),
        ),
        (
            body("c", json!({"..x": "1"})),
            "ConfigMap \"c\" is invalid: data[..x]: Invalid value: \"..x\": must not start with '..'".into(),
        ),
        (
            body("c", json!({".": "1"})),
            "ConfigMap \"c\" is invalid: data[.]: Invalid value: \".\": must not be '.'".into(),
        ),
        (
            body("c", json!({long_key.clone(): "1"})),
            format!("ConfigMap \"c\" is invalid: data[{long_key}]: Invalid value: \"{long_key}\": must be no more than 253 characters"),
        ),
        (
            {
                let mut b = body("c", json!({"k": "1"}));
                b["binaryData"] = json!({"k": "AA=="});
                b
            },
            "ConfigMap \"c\" is invalid: data[k]: Invalid value: \"k\": duplicate of key present in binaryData".into(),
        ),
        (
            body("c", json!({"a": big, "b": "y"})),
            "ConfigMap \"c\" is invalid: []: Too long: may not be more than 1048576 bytes".into(),
        ),
        (
            body("Bad_Name", json!({})),
            "ConfigMap \"Bad_Name\" is invalid: metadata.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')".into(),
        ),
    ];
    for (b, want) in cases {
        let mut e = engine();
        let r = post(&mut e, &cms("default"), &b);
        assert_eq!(r.code, 422, "{}", r.text);
        assert_eq!(r.json["reason"], "Invalid");
        assert_eq!(r.json["details"]["kind"], "ConfigMap");
        assert_eq!(r.json["message"], want);
    }
}

#[test]
fn exactly_one_mebibyte_of_values_is_allowed() {
    let mut e = engine();
    let r = post(
        &mut e,
        &cms("default"),
        &body("c", json!({"a": "x".repeat(1024 * 1024 - 1), "bb": "y"})),
    );
    assert_eq!(r.code, 201, "{}", &r.text[..200.min(r.text.len())]);
}

#[test]
fn binary_data_must_be_base64() {
    let mut e = engine();
    let mut b = body("c", json!({}));
    b["binaryData"] = json!({"k": "not base64!"});
    let r = post(&mut e, &cms("default"), &b);
    assert_eq!(r.code, 400, "{}", r.text);
    assert_eq!(
        r.json["message"],
        "ConfigMap in version \"v1\" cannot be handled as a ConfigMap: illegal base64 data at input byte 3"
    );
}

#[test]
fn immutable_config_maps_keep_their_data() {
    let mut e = engine();
    let mut b = body("frozen", json!({"a": "1"}));
    b["immutable"] = json!(true);
    let r = post(&mut e, &cms("default"), &b);
    assert_eq!(r.code, 201, "{}", r.text);
    assert_eq!(r.json["immutable"], true);
    let mut next = r.json.clone();
    next["data"]["a"] = json!("2");
    next["immutable"] = json!(false);
    let u = put(&mut e, &cm("default", "frozen"), &next);
    assert_eq!(u.code, 422, "{}", u.text);
    assert_eq!(
        u.json["message"],
        "ConfigMap \"frozen\" is invalid: [immutable: Forbidden: field is immutable when `immutable` is set, data: Forbidden: field is immutable when `immutable` is set]"
    );
    // Metadata may still change.
    let mut labelled = r.json.clone();
    labelled["metadata"]["labels"] = json!({"x": "y"});
    let ok = put(&mut e, &cm("default", "frozen"), &labelled);
    assert_eq!(ok.code, 200, "{}", ok.text);
    // An explicit `immutable: false` is kept (a pointer field).
    let mut open = body("open", json!({}));
    open["immutable"] = json!(false);
    let r = post(&mut e, &cms("default"), &open);
    assert_eq!(r.json["immutable"], false, "{}", r.text);
}

#[test]
fn table_columns() {
    let mut e = engine();
    let mut b = body("app", json!({"a": "1", "b": "2"}));
    b["binaryData"] = json!({"c": "AA=="});
    post(&mut e, &cms("default"), &b);
    let r = send(
        &mut e,
        "GET",
        &cms("default"),
        None,
        &[("accept", "application/json;as=Table;v=v1;g=meta.k8s.io")],
    );
    assert_eq!(r.code, 200, "{}", r.text);
    let cols: Vec<&str> = r.json["columnDefinitions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(cols, ["Name", "Data", "Age"]);
    assert_eq!(r.json["columnDefinitions"][1]["type"], "string");
    let cells = &r.json["rows"][0]["cells"];
    assert_eq!(cells[0], "app");
    assert_eq!(
        cells[1], 3,
        "DATA counts data and binaryData keys, as a number"
    );
    assert_eq!(cells[2], "0s");
}

#[test]
fn protobuf_matches_k8s_pb() {
    let obj = json!({
        "kind": "ConfigMap",
        "apiVersion": "v1",
        "metadata": {"name": "app", "namespace": "default", "resourceVersion": "7"},
        "immutable": true,
        "data": {"a": "1", "b": "two"},
        "binaryData": {"bin": "AAEC/w=="}
    });
    let bytes = kubesim::codec::protobuf::encode(&obj, &kubesim::resources::SCHEME).unwrap();
    assert_eq!(bytes[..4], kubesim::codec::protobuf::MAGIC);
    let unk = k8s_pb::apimachinery::pkg::runtime::Unknown::decode(&bytes[4..]).unwrap();
    let raw = unk.raw.unwrap();
    let got = core::ConfigMap::decode(raw.as_slice()).unwrap();
    let want = core::ConfigMap {
        // gogo writes ObjectMeta's non-pointer scalars even when empty.
        metadata: Some(meta::ObjectMeta {
            name: Some("app".into()),
            generate_name: Some(String::new()),
            namespace: Some("default".into()),
            self_link: Some(String::new()),
            uid: Some(String::new()),
            resource_version: Some("7".into()),
            generation: Some(0),
            creation_timestamp: Some(meta::Time::default()),
            ..Default::default()
        }),
        immutable: Some(true),
        data: [("a", "1"), ("b", "two")]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        binary_data: [("bin".to_string(), vec![0, 1, 2, 255])]
            .into_iter()
            .collect(),
    };
    assert_eq!(got, want);
    assert_eq!(want.encode_to_vec(), raw, "byte-identical to prost");
    let back = kubesim::codec::protobuf::decode(&bytes, &kubesim::resources::SCHEME).unwrap();
    assert_eq!(back, obj);
}

#[test]
fn protobuf_request_and_response_bodies() {
    let mut e = engine();
    let obj = json!({
        "kind": "ConfigMap", "apiVersion": "v1",
        "metadata": {"name": "pb"}, "data": {"k": "v"}
    });
    let pb = kubesim::codec::protobuf::encode(&obj, &kubesim::resources::SCHEME).unwrap();
    let req = http::Request::builder()
        .method("POST")
        .uri(cms("default"))
        .header("content-type", "application/vnd.kubernetes.protobuf")
        .header("accept", "application/vnd.kubernetes.protobuf")
        .body(bytes::Bytes::from(pb))
        .unwrap();
    let resp = e.handle(req);
    assert_eq!(resp.status().as_u16(), 201);
    let back =
        kubesim::codec::protobuf::decode(resp.body().bytes(), &kubesim::resources::SCHEME).unwrap();
    assert_eq!(back["data"], json!({"k": "v"}));
    assert_eq!(back["metadata"]["namespace"], "default");
}

#[test]
fn namespace_deletion_removes_config_maps() {
    let mut e = engine();
    post(
        &mut e,
        "/api/v1/namespaces",
        &json!({"metadata": {"name": "team"}}),
    );
    post(&mut e, &cms("team"), &body("c", json!({})));
    let d = delete(&mut e, "/api/v1/namespaces/team");
    assert_eq!(d.code, 200);
    // The namespace controller acts 5 s after it sees the deletion.
    e.advance(4999);
    assert_eq!(get(&mut e, &cm("team", "c")).code, 200);
    e.advance(1);
    assert_eq!(get(&mut e, &cm("team", "c")).code, 404);
    assert_eq!(get(&mut e, "/api/v1/namespaces/team").code, 404);
}
