//! kube-rs with a `#[derive(CustomResource)]` type, in-process: its generated definition
//! created and established, then the kind's CRUD, server-side apply, the status subresource
//! and a watcher, as an operator's tests use them.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::StreamExt;
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{DeleteParams, Patch, PatchParams, PostParams};
use kube::runtime::{watcher, WatchStreamExt};
use kube::{Api, CustomResource, CustomResourceExt, ResourceExt};
use kubesim::{Config, Engine};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A widget's desired state.
#[derive(CustomResource, Deserialize, Serialize, Clone, Debug, PartialEq, JsonSchema)]
#[kube(
    group = "example.com",
    version = "v1",
    kind = "Widget",
    namespaced,
    status = "WidgetStatus",
    shortname = "wd",
    printcolumn = r#"{"name":"Color","type":"string","jsonPath":".spec.color"}"#
)]
pub struct WidgetSpec {
    color: String,
    size: Option<i64>,
    tags: Vec<String>,
}

/// What the controller saw.
#[derive(Deserialize, Serialize, Clone, Debug, Default, PartialEq, JsonSchema)]
pub struct WidgetStatus {
    ready: bool,
}

fn widget(name: &str, color: &str) -> Widget {
    Widget::new(
        name,
        WidgetSpec {
            color: color.into(),
            size: Some(2),
            tags: vec!["a".into()],
        },
    )
}

#[tokio::test]
async fn a_derived_custom_resource_is_served_to_kube_rs() {
    let engine = Arc::new(Mutex::new(Engine::new(Config::default())));
    let client = crate::common::kube::in_process_client(engine.clone());
    let crds: Api<CustomResourceDefinition> = Api::all(client.clone());
    crds.create(&PostParams::default(), &Widget::crd())
        .await
        .unwrap();
    engine.lock().unwrap().tick();
    let crd = crds.get("widgets.example.com").await.unwrap();
    let established = crd
        .status
        .and_then(|s| s.conditions)
        .unwrap_or_default()
        .iter()
        .any(|c| c.type_ == "Established" && c.status == "True");
    assert!(established);

    let api: Api<Widget> = Api::namespaced(client.clone(), "default");
    let events = Arc::new(Mutex::new(Vec::new()));
    let seen = events.clone();
    let watch = tokio::spawn(
        watcher(api.clone(), watcher::Config::default())
            .applied_objects()
            .for_each(move |w| {
                if let Ok(w) = w {
                    seen.lock()
                        .unwrap()
                        .push((w.name_any(), w.spec.color.clone()));
                }
                futures::future::ready(())
            }),
    );

    let created = api
        .create(&PostParams::default(), &widget("w1", "red"))
        .await
        .unwrap();
    assert_eq!(created.spec, widget("w1", "red").spec);
    assert_eq!(created.metadata.generation, Some(1));
    assert!(created.status.is_none());

    let mut got = api.get("w1").await.unwrap();
    got.spec.color = "blue".into();
    let replaced = api
        .replace("w1", &PostParams::default(), &got)
        .await
        .unwrap();
    assert_eq!(replaced.metadata.generation, Some(2));

    let status = serde_json::json!({"status": {"ready": true}});
    let patched = api
        .patch_status("w1", &PatchParams::default(), &Patch::Merge(&status))
        .await
        .unwrap();
    assert_eq!(patched.status, Some(WidgetStatus { ready: true }));
    assert_eq!(patched.metadata.generation, Some(2));

    let applied = api
        .patch(
            "w2",
            &PatchParams::apply("operator"),
            &Patch::Apply(widget("w2", "red")),
        )
        .await
        .unwrap();
    assert_eq!(applied.spec.color, "red");
    let managers: Vec<String> = applied
        .metadata
        .managed_fields
        .unwrap_or_default()
        .iter()
        .filter_map(|m| m.manager.clone())
        .collect();
    assert_eq!(managers, ["operator"]);

    assert_eq!(api.list(&Default::default()).await.unwrap().items.len(), 2);
    for _ in 0..200 {
        let e = events.lock().unwrap().clone();
        if e.contains(&("w1".into(), "blue".into())) && e.contains(&("w2".into(), "red".into())) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    let e = events.lock().unwrap().clone();
    assert!(e.contains(&("w1".into(), "red".into())), "{e:?}");
    assert!(e.contains(&("w1".into(), "blue".into())), "{e:?}");
    assert!(e.contains(&("w2".into(), "red".into())), "{e:?}");
    watch.abort();

    api.delete("w1", &DeleteParams::default()).await.unwrap();
    assert!(api.get_opt("w1").await.unwrap().is_none());
}
