//! `examples/controller.rs`, a kube-runtime controller, run against a `kubesim::Cluster`
//! through its in-process client: it annotates opted-in ConfigMaps, follows their changes and
//! leaves the others alone.

use std::time::Duration;

use kube::api::{Api, Patch, PatchParams, PostParams};
use kubesim::{Cluster, Config};

#[allow(dead_code)]
#[path = "../../examples/controller.rs"]
mod controller;

use k8s_openapi::api::core::v1::ConfigMap;

/// The annotation of a stored ConfigMap, read from the store directly.
fn annotation(cluster: &Cluster, name: &str) -> Option<String> {
    let stored = cluster.stored(&format!("/registry/configmaps/default/{name}"))?;
    stored["metadata"]["annotations"][controller::ANNOTATION]
        .as_str()
        .map(str::to_string)
}

/// Waits (in real time, up to 30 s: the controller runs on its own task) for `check`.
async fn eventually(what: &str, mut check: impl FnMut() -> bool) {
    for _ in 0..3000 {
        if check() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("timed out waiting for {what}");
}

fn configmap(name: &str, labelled: bool, value: &str) -> ConfigMap {
    serde_json::from_value(serde_json::json!({
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {
            "name": name,
            "labels": if labelled { serde_json::json!({"example.com/checksum": "enabled"}) }
                      else { serde_json::json!({}) },
        },
        "data": {"value": value},
    }))
    .unwrap()
}

#[tokio::test]
async fn the_example_controller_reconciles_against_an_in_process_cluster() {
    let cluster = Cluster::new(Config::default());
    let task = tokio::spawn(controller::run(cluster.client()));
    let api: Api<ConfigMap> = Api::default_namespaced(cluster.client());
    let pp = PostParams::default();
    api.create(&pp, &configmap("opted-in", true, "one"))
        .await
        .unwrap();
    api.create(&pp, &configmap("left-alone", false, "one"))
        .await
        .unwrap();
    let first = controller::checksum(&configmap("opted-in", true, "one"));
    eventually("the first checksum", || {
        annotation(&cluster, "opted-in").as_deref() == Some(first.as_str())
    })
    .await;
    // A change of data is followed.
    let change = serde_json::json!({"data": {"value": "two"}});
    api.patch("opted-in", &PatchParams::default(), &Patch::Merge(&change))
        .await
        .unwrap();
    let second = controller::checksum(&configmap("opted-in", true, "two"));
    assert_ne!(first, second);
    eventually("the new checksum", || {
        annotation(&cluster, "opted-in").as_deref() == Some(second.as_str())
    })
    .await;
    // The annotation is the controller's own field; the data stays the writer's.
    let stored = cluster
        .stored("/registry/configmaps/default/opted-in")
        .unwrap();
    let managers = crate::common::manager_names(&stored);
    assert!(
        managers.iter().any(|m| m == "checksum-controller"),
        "{managers:?}"
    );
    assert_eq!(annotation(&cluster, "left-alone"), None);
    task.abort();
}
