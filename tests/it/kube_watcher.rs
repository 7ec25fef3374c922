//! kube-rs's `watcher` and reflector against kubesim, in-process: with both initial-list
//! strategies (ListWatch and StreamingList) the reflector's cache stays equal to the store
//! through creates, updates, deletes, a forced 410 and a compaction.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::common;
use futures::StreamExt;
use k8s_openapi::api::apps::v1::ControllerRevision;
use k8s_openapi::apimachinery::pkg::runtime::RawExtension;
use kube::api::{DeleteParams, PostParams};
use kube::runtime::{reflector, watcher, WatchStreamExt};
use kube::{Api, Client};
use kubesim::{Config, Engine};

type Shared = Arc<Mutex<Engine>>;

fn client(engine: Shared) -> Client {
    common::kube::in_process_client(engine)
}

fn revision(name: &str, n: i64) -> ControllerRevision {
    ControllerRevision {
        metadata: kube::api::ObjectMeta {
            name: Some(name.into()),
            ..Default::default()
        },
        data: Some(RawExtension(serde_json::json!({ "n": n }))),
        revision: n,
    }
}

/// name -> resourceVersion of every ControllerRevision in `default`, per the store.
fn store_state(engine: &Shared) -> BTreeMap<String, String> {
    engine
        .lock()
        .unwrap()
        .objects()
        .into_iter()
        .filter(|o| o["kind"] == "ControllerRevision" && o["metadata"]["namespace"] == "default")
        .map(|o| {
            (
                o["metadata"]["name"].as_str().unwrap().to_string(),
                o["metadata"]["resourceVersion"]
                    .as_str()
                    .unwrap()
                    .to_string(),
            )
        })
        .collect()
}

fn reflected(reader: &reflector::Store<ControllerRevision>) -> BTreeMap<String, String> {
    reader
        .state()
        .iter()
        .map(|c| {
            (
                c.metadata.name.clone().unwrap(),
                c.metadata.resource_version.clone().unwrap(),
            )
        })
        .collect()
}

/// Waits (real time, bounded) until the reflector equals the store.
async fn converge(engine: &Shared, reader: &reflector::Store<ControllerRevision>, what: &str) {
    for _ in 0..200 {
        if reflected(reader) == store_state(engine) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!(
        "{what}: reflector {:?} != store {:?}",
        reflected(reader),
        store_state(engine)
    );
}

async fn reflector_stays_equal(streaming: bool) {
    let engine: Shared = Arc::new(Mutex::new(Engine::new(Config::default())));
    let api: Api<ControllerRevision> = Api::namespaced(client(engine.clone()), "default");
    for i in 0..3 {
        api.create(&PostParams::default(), &revision(&format!("pre-{i}"), i))
            .await
            .unwrap();
    }
    let mut config = watcher::Config::default();
    if streaming {
        config = config.streaming_lists();
    }
    let (reader, writer) = reflector::store();
    let stream = reflector(writer, watcher(api.clone(), config)).default_backoff();
    let gone = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let seen_gone = gone.clone();
    let task = tokio::spawn(stream.for_each(move |item| {
        if let Err(e) = item {
            if format!("{e:?}").contains("410") {
                seen_gone.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            }
        }
        futures::future::ready(())
    }));
    converge(&engine, &reader, "initial list").await;

    api.create(&PostParams::default(), &revision("live-1", 7))
        .await
        .unwrap();
    let mut r = api.get("pre-0").await.unwrap();
    r.revision = 42;
    api.replace("pre-0", &PostParams::default(), &r)
        .await
        .unwrap();
    api.delete("pre-1", &DeleteParams::default()).await.unwrap();
    converge(&engine, &reader, "create/update/delete").await;

    // Force a 410: while the client is disconnected, history moves past its revision (the
    // cache window is 75 s) and the store is compacted. Done under one lock so the client
    // cannot reconnect in between.
    {
        let mut e = engine.lock().unwrap();
        e.close_watches();
        let body = serde_json::to_vec(&revision("while-away", 1)).unwrap();
        let req = http::Request::post("/apis/apps/v1/namespaces/default/controllerrevisions")
            .header("content-type", "application/json")
            .body(bytes::Bytes::from(body))
            .unwrap();
        assert_eq!(e.handle(req).status(), 201);
        e.advance(80_000);
        let req =
            http::Request::delete("/apis/apps/v1/namespaces/default/controllerrevisions/pre-2")
                .body(bytes::Bytes::new())
                .unwrap();
        assert_eq!(e.handle(req).status(), 200);
        e.advance(80_000);
        e.compact();
    }
    converge(&engine, &reader, "after 410 and compaction").await;
    assert!(
        gone.load(std::sync::atomic::Ordering::SeqCst) >= 1,
        "the watcher saw a 410 and recovered by relisting"
    );
    api.create(&PostParams::default(), &revision("after", 9))
        .await
        .unwrap();
    converge(&engine, &reader, "watching again").await;
    task.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_watch_reflector() {
    reflector_stays_equal(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streaming_list_reflector() {
    reflector_stays_equal(true).await;
}
