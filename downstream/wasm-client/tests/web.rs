//! The client's tests, in headless Chrome, against kubesim installed as the page's `fetch`:
//! the client is unchanged, its requests to `https://kube.test` reach the simulator.
#![cfg(target_arch = "wasm32")]

use kubesim::shim::Simulator;
use kubesim_wasm_client_example::{Client, Error};
use serde_json::json;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const BASE: &str = "https://kube.test";
const CONFIGMAPS: &str = "/api/v1/namespaces/default/configmaps";

/// A simulator on a manual clock, answering the page's fetch under `BASE` until dropped.
fn simulator() -> Simulator {
    let options = js_sys::JSON::parse(r#"{"clock":"manual","seed":1}"#).unwrap();
    let sim = Simulator::new(Some(options.into())).expect("a simulator");
    let route = js_sys::JSON::parse(&format!(r#"{{"baseUrl":"{BASE}"}}"#)).unwrap();
    sim.install(route).expect("installed as the page's fetch");
    sim
}

fn configmap(name: &str) -> serde_json::Value {
    json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}, "data": {"n": name}})
}

#[wasm_bindgen_test]
async fn lists_what_the_cluster_starts_with() {
    let _sim = simulator();
    let namespaces = Client::new(BASE)
        .list_all("/api/v1/namespaces", 500)
        .await
        .unwrap();
    let names: Vec<&str> = namespaces
        .items
        .iter()
        .map(|n| n["metadata"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["default", "kube-public", "kube-system"]);
}

#[wasm_bindgen_test]
async fn pages_through_a_long_list() {
    let _sim = simulator();
    let client = Client::new(BASE);
    for i in 0..25 {
        client
            .create(CONFIGMAPS, &configmap(&format!("cm-{i:02}")))
            .await
            .unwrap();
    }
    let listed = client.list_all(CONFIGMAPS, 10).await.unwrap();
    assert_eq!(listed.pages, 3);
    assert_eq!(listed.items.len(), 25);
    assert_eq!(listed.items[24]["metadata"]["name"], "cm-24");
}

#[wasm_bindgen_test]
async fn a_watch_streams_the_writes_that_follow_its_list() {
    let _sim = simulator();
    let client = Client::new(BASE);
    client
        .create(CONFIGMAPS, &configmap("before"))
        .await
        .unwrap();
    let listed = client.list_all(CONFIGMAPS, 500).await.unwrap();
    let mut watch = client
        .watch(CONFIGMAPS, &listed.resource_version)
        .await
        .unwrap();
    client
        .create(CONFIGMAPS, &configmap("first"))
        .await
        .unwrap();
    client
        .create(CONFIGMAPS, &configmap("second"))
        .await
        .unwrap();
    for name in ["first", "second"] {
        let event = watch.next().await.unwrap().expect("an event");
        assert_eq!(event["type"], "ADDED");
        assert_eq!(event["object"]["metadata"]["name"], name);
    }
}

#[wasm_bindgen_test]
async fn a_compacted_resource_version_is_gone() {
    let sim = simulator();
    let client = Client::new(BASE);
    let old = client
        .list_all(CONFIGMAPS, 500)
        .await
        .unwrap()
        .resource_version;
    client
        .create(CONFIGMAPS, &configmap("later"))
        .await
        .unwrap();
    sim.compact();
    let exact = format!("{CONFIGMAPS}?resourceVersion={old}&resourceVersionMatch=Exact");
    match client.get(&exact).await {
        Err(Error::Status { code, reason }) => {
            assert_eq!((code, reason.as_str()), (410, "Expired"))
        }
        other => panic!("expected 410 Expired, got {other:?}"),
    }
    // A watch from there: the stream's first event is an ERROR carrying the 410.
    let mut watch = client.watch(CONFIGMAPS, &old).await.unwrap();
    let event = watch.next().await.unwrap().expect("an event");
    assert_eq!(event["type"], "ERROR");
    assert_eq!(event["object"]["code"], 410);
}
