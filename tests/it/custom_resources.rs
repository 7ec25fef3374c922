//! Custom resources served from their CustomResourceDefinitions: routing, the unstructured
//! canonical form (pruned, defaulted, keys sorted), strict findings, the strategy's status
//! and generation rules, tables, patch types and the plain 404s of what is not served.

use kubesim::Engine;
use serde_json::{json, Value};

use crate::common::{engine, get, post, put, send};

pub(crate) const CRDS: &str = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
pub(crate) const WIDGETS: &str = "/apis/example.com/v1/namespaces/default/widgets";

/// A namespaced Widget with a status subresource, a default, an enum and printer columns.
pub(crate) fn widget_crd() -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {
            "group": "example.com", "scope": "Namespaced",
            "names": {"plural": "widgets", "kind": "Widget", "shortNames": ["wd"], "categories": ["all"]},
            "versions": [{
                "name": "v1", "served": true, "storage": true,
                "subresources": {"status": {}},
                "additionalPrinterColumns": [
                    {"name": "Color", "type": "string", "jsonPath": ".spec.color"},
                    {"name": "Size", "type": "integer", "jsonPath": ".spec.size", "priority": 1},
                    {"name": "Age", "type": "date", "jsonPath": ".metadata.creationTimestamp"}
                ],
                "schema": {"openAPIV3Schema": {
                    "type": "object",
                    "properties": {
                        "spec": {"type": "object", "properties": {
                            "color": {"type": "string", "enum": ["red", "blue"]},
                            "size": {"type": "integer", "default": 3, "minimum": 1},
                            "tags": {"type": "array", "items": {"type": "string"}},
                            "extra": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}
                        }},
                        "status": {"type": "object", "properties": {"ready": {"type": "boolean"}}}
                    }
                }}
            }]
        }
    })
}

/// An engine serving Widgets (the CRD created, its controllers' tick run).
pub(crate) fn with_widgets() -> Engine {
    let mut e = engine();
    let r = post(&mut e, CRDS, &widget_crd());
    assert_eq!(r.code, 201, "{}", r.text);
    e
}

pub(crate) fn widget(name: &str, spec: Value) -> Value {
    json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": name}, "spec": spec})
}

#[test]
fn a_created_widget_is_pruned_defaulted_and_written_with_sorted_keys() {
    let mut e = with_widgets();
    let mut body = widget(
        "w1",
        json!({"color": "red", "bogus": 1, "extra": {"z": 1, "a": {"y": 2, "b": 3}}}),
    );
    body["metadata"]["labels"] = json!({"b": "2", "a": "1"});
    body["metadata"]["unknownMeta"] = json!("x");
    body["status"] = json!({"ready": true});
    let r = post(&mut e, WIDGETS, &body);
    assert_eq!(r.code, 201, "{}", r.text);
    let keys: Vec<&String> = r.json.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        ["apiVersion", "kind", "metadata", "spec"],
        "{}",
        r.text
    );
    assert_eq!(
        r.json["spec"].to_string(),
        r#"{"color":"red","extra":{"a":{"b":3,"y":2},"z":1},"size":3}"#
    );
    let meta_keys: Vec<&String> = r.json["metadata"].as_object().unwrap().keys().collect();
    assert_eq!(
        meta_keys,
        [
            "creationTimestamp",
            "generation",
            "labels",
            "managedFields",
            "name",
            "namespace",
            "resourceVersion",
            "uid"
        ]
    );
    let entry_keys: Vec<&String> = r.json["metadata"]["managedFields"][0]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(
        entry_keys,
        [
            "apiVersion",
            "fieldsType",
            "fieldsV1",
            "manager",
            "operation",
            "time"
        ]
    );
    assert_eq!(r.json["metadata"]["generation"], 1);
    // The default Warn level reports what was dropped, metadata's first.
    let warnings: Vec<_> = r
        .headers
        .get_all("warning")
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .collect();
    assert_eq!(
        warnings,
        [
            r#"299 - "unknown field \"metadata.unknownMeta\"""#,
            r#"299 - "unknown field \"spec.bogus\"""#
        ]
    );
    let got = get(&mut e, &format!("{WIDGETS}/w1"));
    assert_eq!(got.code, 200);
    assert_eq!(got.json, r.json);
    // A list is an UnstructuredList: keys sorted, items whole, and `metadata.continue`
    // always written (`""` on a last page), as real custom resource lists show it.
    let list = get(&mut e, WIDGETS);
    let rv = list.json["metadata"]["resourceVersion"].as_str().unwrap();
    assert_eq!(
        list.text,
        format!(
            r#"{{"apiVersion":"example.com/v1","items":[{}],"kind":"WidgetList","metadata":{{"continue":"","resourceVersion":"{rv}"}}}}"#,
            got.text.trim_end()
        ) + "\n"
    );
    // deletecollection answers with the list's UnstructuredList, its items the deleted
    // objects whole (a typed list strips their kind and apiVersion).
    let r = send(&mut e, "DELETE", WIDGETS, None, &[]);
    assert_eq!(r.code, 200, "{}", r.text);
    assert_eq!(r.json["kind"], "WidgetList");
    assert_eq!(r.json["metadata"]["continue"], "");
    assert_eq!(r.json["items"][0]["kind"], "Widget");
    assert_eq!(r.json["items"][0]["apiVersion"], "example.com/v1");
    assert_eq!(r.json["items"][0]["metadata"]["name"], "w1");
    assert!(r
        .text
        .starts_with(r#"{"apiVersion":"example.com/v1","items":[{"apiVersion""#));
}

/// A namespaced Widget definition (one version, v1) whose `spec` has the schema `spec`.
pub(crate) fn crd_with_spec(spec: Value) -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {
            "group": "example.com", "scope": "Namespaced",
            "names": {"plural": "widgets", "kind": "Widget"},
            "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {
                "type": "object",
                "properties": {"spec": spec}
            }}}]
        }
    })
}

/// A Widget definition whose spec exercises every value validation of the worked examples.
fn checked_crd() -> Value {
    crd_with_spec(
        json!({"type": "object", "required": ["size"], "properties": {
                        "size": {"type": "integer", "minimum": 1, "maximum": 10},
                        "name": {"type": "string", "maxLength": 5, "pattern": "^[a-z]+$"},
                        "mode": {"type": "string", "enum": ["fast", "slow"]},
                        "tags": {"type": "array", "minItems": 1, "maxItems": 2, "items": {"type": "string"}},
                        "labels": {"type": "object", "additionalProperties": {"type": "string"}, "minProperties": 1, "maxProperties": 2},
                        "port": {"x-kubernetes-int-or-string": true, "anyOf": [{"type": "integer"}, {"type": "string"}]},
                        "when": {"type": "string", "format": "date-time"},
                        "owner": {"type": "string", "format": "email"},
                        "host": {"type": "string", "format": "hostname"},
                        "ratio": {"type": "number", "multipleOf": 0.5}
        }}),
    )
}

/// The 422 messages of kube-apiserver 1.36 for each value validation (apiextensions'
/// `kubeOpenAPIResultToFieldErrors` over kube-openapi's texts).
#[test]
fn schema_validation_errors_carry_the_real_messages() {
    let mut e = engine();
    assert_eq!(post(&mut e, CRDS, &checked_crd()).code, 201);
    let prefix = r#"Widget.example.com "w1" is invalid: "#;
    let cases: &[(Value, &str)] = &[
        (
            json!({"size": "big"}),
            r#"spec.size: Invalid value: "string": spec.size in body must be of type integer: "string""#,
        ),
        (json!({}), "spec.size: Required value"),
        (
            json!({"size": 11}),
            "spec.size: Invalid value: 11: spec.size in body should be less than or equal to 10",
        ),
        (
            json!({"size": 0}),
            "spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1",
        ),
        (
            json!({"size": 1, "name": "ABCDEFG"}),
            "spec.name: Too long: may not be more than 5 bytes",
        ),
        (
            json!({"size": 1, "name": "AB"}),
            r#"spec.name: Invalid value: "AB": spec.name in body should match '^[a-z]+$'"#,
        ),
        (
            json!({"size": 1, "mode": "medium"}),
            r#"spec.mode: Unsupported value: "medium": supported values: "fast", "slow""#,
        ),
        (
            json!({"size": 1, "tags": ["a", "b", "c"]}),
            "spec.tags: Too many: 3: must have at most 2 items",
        ),
        (
            json!({"size": 1, "tags": []}),
            "spec.tags: Invalid value: 0: spec.tags in body should have at least 1 items",
        ),
        (
            json!({"size": 1, "tags": {"a": "b"}}),
            r#"spec.tags: Invalid value: "object": spec.tags in body must be of type array: "object""#,
        ),
        (
            json!({"size": 1, "tags": [1]}),
            r#"spec.tags[0]: Invalid value: "integer": spec.tags[0] in body must be of type string: "integer""#,
        ),
        (
            json!({"size": 1, "labels": {}}),
            "spec.labels: Invalid value: 0: spec.labels in body should have at least 1 properties",
        ),
        (
            json!({"size": 1, "labels": {"a": "1", "b": "2", "c": "3"}}),
            "spec.labels: Too many: 3: must have at most 2 items",
        ),
        (
            json!({"size": 1, "labels": {"app.kubernetes.io/name": 5}}),
            r#"spec.labels.app.kubernetes.io/name: Invalid value: "integer": spec.labels.app.kubernetes.io/name in body must be of type string: "integer""#,
        ),
        (
            json!({"size": 1, "port": true}),
            r#"[spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean", <nil>: Invalid value: "": "spec.port" must validate at least one schema (anyOf), spec.port: Invalid value: "boolean": spec.port in body must be of type integer: "boolean"]"#,
        ),
        (
            json!({"size": 1, "when": "yesterday"}),
            r#"spec.when: Invalid value: "yesterday": spec.when in body must be of type date-time: "yesterday""#,
        ),
        (
            json!({"size": 1, "owner": "someone"}),
            r#"spec.owner: Invalid value: "someone": spec.owner in body must be of type email: "someone""#,
        ),
        (
            json!({"size": 1, "host": "my-host"}),
            r#"spec.host: Invalid value: "my-host": spec.host in body must be of type hostname: "my-host""#,
        ),
        (
            json!({"size": 1.5}),
            r#"[spec.size: Invalid value: "number": spec.size in body must be of type integer: "number", <nil>: Invalid value: "": Checked value must be of type integer (default format) in spec.size]"#,
        ),
        (
            json!({"size": 1, "ratio": 0.3}),
            "spec.ratio: Invalid value: 0.3: spec.ratio in body should be a multiple of 0.5",
        ),
        (
            json!({"size": 1, "ratio": 1.2}),
            "spec.ratio: Invalid value: 1.2: spec.ratio in body should be a multiple of 0.5",
        ),
        (
            json!({"mode": "x", "tags": [1]}),
            r#"[spec.mode: Unsupported value: "x": supported values: "fast", "slow", spec.tags[0]: Invalid value: "integer": spec.tags[0] in body must be of type string: "integer", spec.size: Required value]"#,
        ),
    ];
    for (spec, want) in cases {
        let r = post(&mut e, WIDGETS, &widget("w1", spec.clone()));
        assert_eq!(r.code, 422, "{spec}: {}", r.text);
        assert_eq!(r.json["message"], format!("{prefix}{want}"), "{spec}");
        assert_eq!(r.json["reason"], "Invalid");
    }
    // Valid values pass, a float with an integral value included.
    for spec in [
        json!({"size": 2.0}),
        json!({"size": 10, "port": "http", "when": "2024-01-02T03:04:05Z", "ratio": 1.5,
               "owner": "Ops <ops@example.com>", "host": "my-host.example.com"}),
    ] {
        let r = post(
            &mut e,
            WIDGETS,
            &json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"generateName": "w-"}, "spec": spec}),
        );
        assert_eq!(r.code, 201, "{spec}: {}", r.text);
    }
    // A bad name comes first.
    let r = post(&mut e, WIDGETS, &widget("W1", json!({})));
    assert_eq!(
        r.json["message"],
        r#"Widget.example.com "W1" is invalid: [metadata.name: Invalid value: "W1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), spec.size: Required value]"#
    );
}

/// An update is ratcheted: an invalid value already stored does not fail a change elsewhere.
#[test]
fn updates_ratchet_over_what_did_not_change() {
    let mut e = engine();
    let mut crd = checked_crd();
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]
        ["size"]["maximum"] = json!(100);
    assert_eq!(post(&mut e, CRDS, &crd).code, 201);
    let created = post(&mut e, WIDGETS, &widget("w1", json!({"size": 50})));
    assert_eq!(created.code, 201, "{}", created.text);
    let mut watch = crate::common::watch(&mut e, &format!("{WIDGETS}?watch=true"));
    // The definition tightens the maximum; the stored 50 is now out of range.
    let mut crd = crate::common::get(&mut e, &format!("{CRDS}/widgets.example.com")).json;
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]
        ["size"]["maximum"] = json!(10);
    assert_eq!(
        put(&mut e, &format!("{CRDS}/widgets.example.com"), &crd).code,
        200
    );
    // The kind's storage was rebuilt: its watches ended.
    e.tick();
    assert!(watch.events().1, "a watch survived its definition's change");
    let mut next = created.json.clone();
    next["spec"]["mode"] = json!("fast");
    let r = put(&mut e, &format!("{WIDGETS}/w1"), &next);
    assert_eq!(r.code, 200, "{}", r.text);
    next["spec"]["size"] = json!(60);
    next["metadata"]["resourceVersion"] = r.json["metadata"]["resourceVersion"].clone();
    let r = put(&mut e, &format!("{WIDGETS}/w1"), &next);
    assert_eq!(r.code, 422);
    assert_eq!(
        r.json["message"],
        r#"Widget.example.com "w1" is invalid: spec.size: Invalid value: 60: spec.size in body should be less than or equal to 10"#
    );
}

/// Ratcheting reaches into a list's items only through a map list's keys: an unchanged
/// invalid item of an atomic list is checked again when the list changes, one of a map list
/// is not (`CorrelatedObject.Index`).
#[test]
fn only_map_list_items_ratchet() {
    let mut e = engine();
    let schema = |max: u64| {
        json!({"type": "object", "properties": {
            "words": {"type": "array", "items": {"type": "string", "maxLength": max}},
            "ports": {"type": "array", "x-kubernetes-list-type": "map",
                      "x-kubernetes-list-map-keys": ["name"],
                      "items": {"type": "object", "required": ["name"], "properties": {
                          "name": {"type": "string"},
                          "note": {"type": "string", "maxLength": max}}}}
        }})
    };
    assert_eq!(post(&mut e, CRDS, &crd_with_spec(schema(10))).code, 201);
    let spec = json!({"words": ["longword"], "ports": [{"name": "a", "note": "longnote"}]});
    let created = post(&mut e, WIDGETS, &widget("w1", spec));
    assert_eq!(created.code, 201, "{}", created.text);
    let crd_path = format!("{CRDS}/widgets.example.com");
    let mut crd = get(&mut e, &crd_path).json;
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"] = schema(3);
    assert_eq!(put(&mut e, &crd_path, &crd).code, 200);
    e.tick();
    // A new port before the old one: the old one is found by its key and not checked again.
    let mut next = get(&mut e, &format!("{WIDGETS}/w1")).json;
    next["spec"]["ports"] = json!([{"name": "b"}, {"name": "a", "note": "longnote"}]);
    let r = put(&mut e, &format!("{WIDGETS}/w1"), &next);
    assert_eq!(r.code, 200, "{}", r.text);
    // A new word after the old one: the atomic list's old item is checked as new.
    next = r.json.clone();
    next["spec"]["words"] = json!(["longword", "ok"]);
    let r = put(&mut e, &format!("{WIDGETS}/w1"), &next);
    assert_eq!(r.code, 422, "{}", r.text);
    assert_eq!(
        r.json["message"],
        r#"Widget.example.com "w1" is invalid: spec.words[0]: Too long: may not be more than 3 bytes"#
    );
}

/// `fieldValidation=Strict` turns what pruning dropped into the decoder's 400, duplicates
/// first; malformed metadata is a 400 at any level.
#[test]
fn strict_decoding_reports_duplicates_metadata_and_pruned_fields() {
    let mut e = with_widgets();
    let body = r#"{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w1","zz":1,"aa":2},"spec":{"color":"red","color":"blue","y":1,"x":2}}"#;
    let r = send(
        &mut e,
        "POST",
        &format!("{WIDGETS}?fieldValidation=Strict"),
        Some(body),
        &[("content-type", "application/json")],
    );
    assert_eq!(r.code, 400, "{}", r.text);
    assert_eq!(
        r.json["message"],
        r#"Widget in version "v1" cannot be handled as a Widget: strict decoding error: duplicate field "spec.color", unknown field "metadata.aa", unknown field "metadata.zz", unknown field "spec.x", unknown field "spec.y""#
    );
    let bad_meta =
        r#"{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w1","labels":5}}"#;
    let r = send(
        &mut e,
        "POST",
        WIDGETS,
        Some(bad_meta),
        &[("content-type", "application/json")],
    );
    assert_eq!(r.code, 400);
    assert_eq!(
        r.json["message"],
        r#"Widget in version "v1" cannot be handled as a Widget: json: cannot unmarshal number into Go struct field ObjectMeta.labels of type map[string]string"#
    );
}

/// Custom resources take JSON and merge patches and apply, never a strategic merge patch.
#[test]
fn a_strategic_merge_patch_is_refused_with_the_crd_handlers_415() {
    let mut e = with_widgets();
    assert_eq!(
        post(&mut e, WIDGETS, &widget("w1", json!({"color": "red"}))).code,
        201
    );
    let path = format!("{WIDGETS}/w1");
    let r = send(
        &mut e,
        "PATCH",
        &path,
        Some(r#"{"spec":{"color":"blue"}}"#),
        &[("content-type", "application/strategic-merge-patch+json")],
    );
    assert_eq!(r.code, 415);
    assert_eq!(
        r.text.trim_end(),
        r#"{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml","reason":"UnsupportedMediaType","code":415}"#
    );
    let r = send(
        &mut e,
        "PATCH",
        &path,
        Some(r#"{"spec":{"color":"blue","bogus":1}}"#),
        &[("content-type", "application/merge-patch+json")],
    );
    assert_eq!(r.code, 200, "{}", r.text);
    assert_eq!(r.json["spec"].to_string(), r#"{"color":"blue","size":3}"#);
    let r = send(
        &mut e,
        "PATCH",
        &path,
        Some(r#"[{"op":"replace","path":"/spec/size","value":5}]"#),
        &[("content-type", "application/json-patch+json")],
    );
    assert_eq!(r.code, 200, "{}", r.text);
    assert_eq!(r.json["metadata"]["generation"], 3);
    let apply = "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w2\nspec:\n  color: red\n  tags: [a, b]\n";
    let r = send(
        &mut e,
        "PATCH",
        &format!("{WIDGETS}/w2?fieldManager=me"),
        Some(apply),
        &[("content-type", "application/apply-patch+yaml")],
    );
    assert_eq!(r.code, 201, "{}", r.text);
    assert_eq!(
        r.json["spec"].to_string(),
        r#"{"color":"red","size":3,"tags":["a","b"]}"#
    );
    assert_eq!(
        r.json["metadata"]["managedFields"][0]["fieldsV1"].to_string(),
        r#"{"f:spec":{"f:color":{},"f:tags":{}}}"#
    );
}

/// With the status subresource the main resource keeps the stored status and `status` keeps
/// everything else; `generation` moves only with changes outside metadata and status.
#[test]
fn the_status_subresource_splits_spec_and_status() {
    let mut e = with_widgets();
    let mut body = widget("w1", json!({"color": "red"}));
    body["status"] = json!({"ready": true});
    let created = post(&mut e, WIDGETS, &body);
    assert!(created.json.get("status").is_none(), "{}", created.text);
    let path = format!("{WIDGETS}/w1");
    let mut status = created.json.clone();
    status["status"] = json!({"ready": true});
    status["spec"]["color"] = json!("blue");
    status["metadata"]["labels"] = json!({"a": "b"});
    let r = put(&mut e, &format!("{path}/status"), &status);
    assert_eq!(r.code, 200, "{}", r.text);
    assert_eq!(r.json["status"], json!({"ready": true}));
    assert_eq!(r.json["spec"]["color"], "red");
    assert!(r.json["metadata"].get("labels").is_none());
    assert_eq!(r.json["metadata"]["generation"], 1);
    let mut main = r.json.clone();
    main["status"] = json!({"ready": false});
    main["metadata"]["labels"] = json!({"a": "b"});
    let r = put(&mut e, &path, &main);
    assert_eq!(r.json["status"], json!({"ready": true}));
    assert_eq!(r.json["metadata"]["generation"], 1, "a metadata change");
    let mut main = r.json.clone();
    main["spec"]["color"] = json!("blue");
    let r = put(&mut e, &path, &main);
    assert_eq!(r.json["metadata"]["generation"], 2);
    // A subresource the version does not have is the object's NotFound.
    let r = get(&mut e, &format!("{path}/scale"));
    assert_eq!(r.code, 404);
    assert_eq!(r.json["message"], r#"widgets.example.com "w1" not found"#);
}

/// The Table: `Name`, then the printer columns, cells cast to their types.
#[test]
fn tables_show_the_printer_columns() {
    let mut e = with_widgets();
    assert_eq!(
        post(
            &mut e,
            WIDGETS,
            &widget("w1", json!({"color": "red", "size": 4}))
        )
        .code,
        201
    );
    let table = "application/json;as=Table;v=v1;g=meta.k8s.io";
    let r = send(&mut e, "GET", WIDGETS, None, &[("accept", table)]);
    assert_eq!(r.code, 200, "{}", r.text);
    let names: Vec<(&str, &str, i64)> = r.json["columnDefinitions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap(),
                c["type"].as_str().unwrap(),
                c["priority"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        names,
        [
            ("Name", "string", 0),
            ("Color", "string", 0),
            ("Size", "integer", 1),
            ("Age", "date", 0)
        ]
    );
    assert_eq!(r.json["rows"][0]["cells"], json!(["w1", "red", 4, "0s"]));
    assert_eq!(
        r.json["columnDefinitions"][1]["description"],
        "Custom resource definition column (in JSONPath format): .spec.color"
    );
}
