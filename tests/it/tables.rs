//! Server-side `Table`s: ControllerRevision's and Namespace's printers, the default
//! two-column table, `includeObject`, list metadata, `meta.k8s.io/v1beta1`, YAML, and watch
//! frames (headers on the first event only, ERROR events left as Status).

use crate::common::*;
use kubesim::api::negotiation::MetaVersion;
use kubesim::api::transform::table::{default_list_table, default_object_table, TableSpec};
use kubesim::api::transform::IncludeObject;
use kubesim::resources::schema::{CREATION_TIMESTAMP_DOC, NAME_DOC};
use serde_json::{json, Value};

const TABLE: &str = "application/json;as=Table;g=meta.k8s.io;v=v1";

fn table(e: &mut kubesim::Engine, uri: &str) -> Resp {
    let r = send(e, "GET", uri, None, &[("accept", TABLE)]);
    assert_eq!(r.code, 200, "{uri}: {}", r.text);
    assert_eq!(r.header("content-type"), "application/json");
    r
}

fn col(name: &str, ty: &str, format: &str, description: &str) -> Value {
    json!({"name": name, "type": ty, "format": format, "description": description, "priority": 0})
}

fn cells(t: &Value) -> Vec<Value> {
    t["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["cells"].clone())
        .collect()
}

#[test]
fn controller_revision_table() {
    let mut e = engine();
    create_cr(&mut e, "default", &cr_body("plain", 1));
    let mut owned = cr_body("owned", 4);
    owned["metadata"]["ownerReferences"] = json!([
        {"apiVersion": "apps/v1", "kind": "DaemonSet", "name": "fluentd", "uid": "u1", "controller": true}
    ]);
    create_cr(&mut e, "default", &owned);
    e.advance(150_000);
    let r = table(&mut e, &crs("default"));
    let t = &r.json;
    assert_eq!(t["kind"], "Table");
    assert_eq!(t["apiVersion"], "meta.k8s.io/v1");
    assert_eq!(
        t["columnDefinitions"],
        json!([
            col("Name", "string", "name", NAME_DOC),
            col("Controller", "string", "", "Controller of the object"),
            col(
                "Revision",
                "string",
                "",
                "Revision indicates the revision of the state represented by Data."
            ),
            col("Age", "string", "", CREATION_TIMESTAMP_DOC),
        ])
    );
    assert_eq!(
        cells(t),
        [
            json!(["owned", "daemonset.apps/fluentd", 4, "2m30s"]),
            json!(["plain", "<none>", 1, "2m30s"])
        ]
    );
    let list = get(&mut e, &crs("default")).json;
    assert_eq!(
        t["metadata"],
        json!({"resourceVersion": list["metadata"]["resourceVersion"]})
    );
    // Default includeObject=Metadata: each row carries PartialObjectMetadata.
    let first = &t["rows"][0]["object"];
    assert_eq!(first["kind"], "PartialObjectMetadata");
    assert_eq!(first["apiVersion"], "meta.k8s.io/v1");
    assert_eq!(first["metadata"], list["items"][0]["metadata"]);
    assert_eq!(t["rows"][0].get("conditions"), None);
    // One object: one row, metadata.resourceVersion of the object.
    let one = table(&mut e, &cr("default", "plain")).json;
    assert_eq!(cells(&one), [json!(["plain", "<none>", 1, "2m30s"])]);
    assert_eq!(
        one["metadata"]["resourceVersion"],
        list["items"][1]["metadata"]["resourceVersion"]
    );
}

#[test]
fn namespace_table_and_empty_lists() {
    let mut e = engine();
    // A finalizer keeps a deleted namespace in the Terminating phase.
    let r = post(
        &mut e,
        "/api/v1/namespaces",
        &json!({"metadata": {"name": "held", "finalizers": ["example.com/hold"]}}),
    );
    assert_eq!(r.code, 201, "{}", r.text);
    e.advance(61_000);
    assert_eq!(delete(&mut e, "/api/v1/namespaces/held").code, 200);
    let t = table(&mut e, "/api/v1/namespaces").json;
    assert_eq!(
        t["columnDefinitions"],
        json!([
            col("Name", "string", "name", NAME_DOC),
            col("Status", "string", "", "The status of the namespace"),
            col("Age", "string", "", CREATION_TIMESTAMP_DOC),
        ])
    );
    assert_eq!(
        cells(&t),
        [
            json!(["default", "Active", "61s"]),
            json!(["held", "Terminating", "61s"]),
            json!(["kube-public", "Active", "61s"]),
            json!(["kube-system", "Active", "61s"])
        ]
    );
    // Printer tables of empty lists have `rows: []`.
    let empty = table(&mut e, &crs("nothing-here")).json;
    assert_eq!(empty["rows"], json!([]));
}

#[test]
fn default_table_for_kinds_without_printers() {
    let spec = TableSpec {
        version: MetaVersion::V1,
        include: IncludeObject::Metadata,
        headers: true,
        now_ms: 0,
    };
    let obj = json!({"kind": "Thing", "apiVersion": "v1", "metadata": {"name": "t", "resourceVersion": "9", "creationTimestamp": "2024-01-02T03:04:05Z"}});
    let t = default_object_table(&obj, &spec);
    assert_eq!(
        t,
        json!({
            "kind": "Table", "apiVersion": "meta.k8s.io/v1",
            "metadata": {"resourceVersion": "9"},
            "columnDefinitions": [
                col("Name", "string", "name", NAME_DOC),
                col("Created At", "date", "", CREATION_TIMESTAMP_DOC),
            ],
            "rows": [{"cells": ["t", "2024-01-02T03:04:05Z"],
                      "object": {"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1",
                                 "metadata": obj["metadata"]}}]
        })
    );
    let no_time = json!({"metadata": {"name": "z"}});
    assert_eq!(
        default_object_table(&no_time, &spec)["rows"][0]["cells"],
        json!(["z", "0001-01-01T00:00:00Z"])
    );
    // The default convertor's empty list has `rows: null`.
    let empty = default_list_table(&json!({"resourceVersion": "3"}), std::iter::empty(), &spec);
    assert_eq!(empty["rows"], Value::Null);
    assert_eq!(empty["metadata"], json!({"resourceVersion": "3"}));
}

#[test]
fn include_object_variants() {
    let mut e = engine();
    create_cr(&mut e, "default", &cr_body("a", 1));
    let stored = get(&mut e, &cr("default", "a")).json;
    let cases = [
        (
            "",
            json!({"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1", "metadata": stored["metadata"]}),
        ),
        (
            "Metadata",
            json!({"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1", "metadata": stored["metadata"]}),
        ),
        ("None", Value::Null),
        ("Object", stored.clone()),
    ];
    for (include, want) in cases {
        for uri in [crs("default"), cr("default", "a")] {
            let r = table(&mut e, &format!("{uri}?includeObject={include}"));
            assert_eq!(r.json["rows"][0]["object"], want, "{include} {uri}");
        }
    }
    let r = send(
        &mut e,
        "GET",
        &format!("{}?includeObject=All", crs("default")),
        None,
        &[("accept", TABLE)],
    );
    assert_eq!(r.code, 400);
    assert_eq!(
        r.message(),
        "Unable to convert to Table as requested: includeObject: Invalid value: \"All\": must be 'Metadata', 'Object', 'None', or empty"
    );
    // A missing object is a 404 before includeObject is looked at.
    let r = send(
        &mut e,
        "GET",
        &format!("{}?includeObject=All", cr("default", "x")),
        None,
        &[("accept", TABLE)],
    );
    assert_eq!(r.code, 404);
    // Without a Table, includeObject is ignored.
    assert_eq!(
        get(&mut e, &format!("{}?includeObject=All", crs("default"))).code,
        200
    );
}

#[test]
fn list_metadata_v1beta1_and_yaml() {
    let mut e = engine();
    for n in ["a", "b", "c"] {
        create_cr(&mut e, "default", &cr_body(n, 1));
    }
    let t = table(&mut e, &format!("{}?limit=2", crs("default"))).json;
    let plain = get(&mut e, &format!("{}?limit=2", crs("default"))).json;
    assert_eq!(t["metadata"], plain["metadata"]);
    assert_eq!(t["metadata"]["remainingItemCount"], 1);
    assert_eq!(cells(&t).len(), 2);
    let r = send(
        &mut e,
        "GET",
        &crs("default"),
        None,
        &[(
            "accept",
            "application/json;as=Table;g=meta.k8s.io;v=v1beta1",
        )],
    );
    assert_eq!(r.json["apiVersion"], "meta.k8s.io/v1beta1");
    assert_eq!(
        r.json["rows"][0]["object"]["apiVersion"],
        "meta.k8s.io/v1beta1"
    );
    let r = send(
        &mut e,
        "GET",
        &cr("default", "a"),
        None,
        &[("accept", "application/yaml;as=Table;g=meta.k8s.io;v=v1")],
    );
    assert_eq!(r.header("content-type"), "application/yaml");
    assert!(
        r.text
            .starts_with("apiVersion: meta.k8s.io/v1\ncolumnDefinitions:\n- description: "),
        "{}",
        r.text
    );
    assert!(
        r.text
            .contains("\nrows:\n- cells:\n  - a\n  - <none>\n  - 1\n  - 0s\n  object:\n"),
        "{}",
        r.text
    );
}

fn open_watch(e: &mut kubesim::Engine, uri: &str, accept: &str) -> kubesim::WatchStream {
    let req = http::Request::builder()
        .uri(uri)
        .header("accept", accept)
        .body(bytes::Bytes::new())
        .unwrap();
    let resp = e.handle(req);
    assert_eq!(resp.status(), 200);
    match resp.into_body() {
        kubesim::Body::Watch(s) => s,
        kubesim::Body::Full(b) => panic!("not a watch: {}", String::from_utf8_lossy(&b)),
    }
}

fn frames(s: &mut kubesim::WatchStream) -> Vec<Value> {
    s.drain()
        .0
        .iter()
        .map(|b| serde_json::from_slice(b).unwrap())
        .collect()
}

#[test]
fn watch_tables_send_headers_once() {
    let mut e = engine();
    create_cr(&mut e, "default", &cr_body("a", 1));
    let uri = format!("{}?watch=true&resourceVersion=0", crs("default"));
    let mut w = open_watch(&mut e, &uri, TABLE);
    let mut other = open_watch(&mut e, &uri, TABLE);
    create_cr(&mut e, "default", &cr_body("b", 2));
    let events = frames(&mut w);
    assert!(events.len() >= 2, "{events:?}");
    assert_eq!(events[0]["type"], "ADDED");
    assert_eq!(events[0]["object"]["kind"], "Table");
    assert_eq!(
        events[0]["object"]["columnDefinitions"]
            .as_array()
            .unwrap()
            .len(),
        4
    );
    for ev in &events[1..] {
        assert_eq!(ev["object"]["columnDefinitions"], Value::Null, "{ev}");
        assert_eq!(ev["object"]["rows"].as_array().unwrap().len(), 1);
    }
    let last = events.last().unwrap();
    assert_eq!(
        last["object"]["rows"][0]["cells"],
        json!(["b", "<none>", 2, "0s"])
    );
    assert_eq!(frames(&mut other).len(), events.len());
    // A too-old resourceVersion is an ERROR event carrying a plain Status.
    e.compact();
    let mut old = open_watch(
        &mut e,
        &format!("{}?watch=true&resourceVersion=1", crs("default")),
        TABLE,
    );
    let events = frames(&mut old);
    assert_eq!(events[0]["type"], "ERROR");
    assert_eq!(events[0]["object"]["kind"], "Status");
    assert_eq!(events[0]["object"]["code"], 410);
}
