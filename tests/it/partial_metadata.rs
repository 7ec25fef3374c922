//! `PartialObjectMetadata` and `PartialObjectMetadataList` (metadata only, `meta.k8s.io/v1`)
//! for get, list and watch, in JSON and YAML; and kube-rs's `get_metadata`, `list_metadata`
//! and `watch_metadata` against the engine.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::common;
use crate::common::*;
use ::kube::api::{DeleteParams, ListParams, PostParams, WatchEvent, WatchParams};
use ::kube::Api;
use futures::StreamExt;
use k8s_openapi::api::apps::v1::ControllerRevision;
use k8s_openapi::apimachinery::pkg::runtime::RawExtension;
use kubesim::{Config, Engine};
use serde_json::{json, Value};

const ONE: &str = "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1";
const LIST: &str = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1";

#[test]
fn get_and_list_shapes() {
    let mut e = engine();
    create_cr(&mut e, "default", &cr_labeled("a", json!({"app": "web"})));
    create_cr(&mut e, "default", &cr_body("b", 2));
    let stored = get(&mut e, &cr("default", "a")).json;
    let r = send(&mut e, "GET", &cr("default", "a"), None, &[("accept", ONE)]);
    assert_eq!(r.code, 200);
    assert_eq!(r.header("content-type"), "application/json");
    assert_eq!(
        r.json,
        json!({"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1", "metadata": stored["metadata"]})
    );
    assert!(r.text.starts_with("{\"kind\":\"PartialObjectMetadata\",") && r.text.ends_with("}\n"));
    let full = get(&mut e, &format!("{}?limit=1", crs("default"))).json;
    let r = send(
        &mut e,
        "GET",
        &format!("{}?limit=1", crs("default")),
        None,
        &[("accept", LIST)],
    );
    assert_eq!(r.json["kind"], "PartialObjectMetadataList");
    assert_eq!(r.json["apiVersion"], "meta.k8s.io/v1");
    assert_eq!(r.json["metadata"], full["metadata"]);
    // Items carry their own kind and apiVersion, unlike a typed list's.
    assert_eq!(
        r.json["items"],
        json!([{"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1", "metadata": full["items"][0]["metadata"]}])
    );
    // An empty PartialObjectMetadataList has `items: null` (a nil Go slice).
    let r = send(&mut e, "GET", &crs("nobody"), None, &[("accept", LIST)]);
    assert_eq!(r.json["items"], Value::Null);
    // YAML works the same way.
    let r = send(
        &mut e,
        "GET",
        &cr("default", "b"),
        None,
        &[(
            "accept",
            "application/yaml;as=PartialObjectMetadata;g=meta.k8s.io;v=v1",
        )],
    );
    assert_eq!(r.header("content-type"), "application/yaml");
    assert!(
        r.text
            .starts_with("apiVersion: meta.k8s.io/v1\nkind: PartialObjectMetadata\nmetadata:\n"),
        "{}",
        r.text
    );
    // Only metadata: no `revision:` (the managedFields entry still names `f:revision`).
    assert!(!r.text.contains("\nrevision:"), "{}", r.text);
}

#[test]
fn watch_events_are_metadata_only() {
    let mut e = engine();
    create_cr(&mut e, "default", &cr_body("a", 1));
    let req = http::Request::builder()
        .uri(format!(
            "{}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true",
            crs("default")
        ))
        .header("accept", ONE)
        .body(bytes::Bytes::new())
        .unwrap();
    let kubesim::Body::Watch(mut stream) = e.handle(req).into_body() else {
        panic!("not a watch");
    };
    create_cr(&mut e, "default", &cr_body("b", 2));
    let events: Vec<Value> = stream
        .drain()
        .0
        .iter()
        .map(|b| serde_json::from_slice(b).unwrap())
        .collect();
    let summary: Vec<String> = events
        .iter()
        .map(|ev| {
            format!(
                "{} {}",
                ev["type"].as_str().unwrap(),
                ev["object"]["kind"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            "ADDED PartialObjectMetadata",
            "BOOKMARK PartialObjectMetadata",
            "ADDED PartialObjectMetadata"
        ]
    );
    assert_eq!(
        events[1]["object"]["metadata"]["annotations"],
        json!({"k8s.io/initial-events-end": "true"})
    );
    assert_eq!(events[2]["object"]["metadata"]["name"], "b");
    assert_eq!(events[2]["object"].get("revision"), None);
}

fn revision(name: &str, n: i64) -> ControllerRevision {
    ControllerRevision {
        metadata: ::kube::api::ObjectMeta {
            name: Some(name.into()),
            labels: Some([("app".to_string(), "web".to_string())].into()),
            ..Default::default()
        },
        data: Some(RawExtension(json!({ "n": n }))),
        revision: n,
    }
}

#[tokio::test]
async fn kube_rs_metadata_calls() {
    let engine = Arc::new(Mutex::new(Engine::new(Config::default())));
    let api: Api<ControllerRevision> =
        Api::namespaced(common::kube::in_process_client(engine.clone()), "default");
    for (n, name) in ["a", "b"].iter().enumerate() {
        api.create(&PostParams::default(), &revision(name, n as i64 + 1))
            .await
            .unwrap();
    }
    let list = api.list_metadata(&ListParams::default()).await.unwrap();
    let names: Vec<_> = list
        .items
        .iter()
        .map(|m| m.metadata.name.clone().unwrap())
        .collect();
    assert_eq!(names, ["a", "b"]);
    assert_eq!(
        list.items[0].metadata.labels.as_ref().unwrap()["app"],
        "web"
    );
    let one = api.get_metadata("b").await.unwrap();
    assert_eq!(one.metadata.name.as_deref(), Some("b"));
    let empty: Api<ControllerRevision> = Api::namespaced(
        common::kube::in_process_client(engine.clone()),
        "kube-system",
    );
    assert!(empty
        .list_metadata(&ListParams::default())
        .await
        .unwrap()
        .items
        .is_empty());

    let rv = list.metadata.resource_version.clone().unwrap();
    let stream = api
        .watch_metadata(&WatchParams::default(), &rv)
        .await
        .unwrap();
    futures::pin_mut!(stream);
    api.create(&PostParams::default(), &revision("c", 3))
        .await
        .unwrap();
    api.delete("a", &DeleteParams::default()).await.unwrap();
    let mut seen = Vec::new();
    while seen.len() < 2 {
        let ev = tokio::time::timeout(Duration::from_secs(5), stream.next())
            .await
            .expect("an event")
            .expect("stream open")
            .expect("decodable event");
        match ev {
            WatchEvent::Added(m) => seen.push(format!("ADDED {}", m.metadata.name.unwrap())),
            WatchEvent::Deleted(m) => seen.push(format!("DELETED {}", m.metadata.name.unwrap())),
            WatchEvent::Bookmark(_) => {}
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(seen, ["ADDED c", "DELETED a"]);
}
