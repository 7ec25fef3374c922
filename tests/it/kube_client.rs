//! kube-rs, a real client, against kubesim: once in-process through a tower service that calls
//! the engine directly, once over HTTP against the native server.

use std::sync::{Arc, Mutex};

use crate::common;
use k8s_openapi::api::apps::v1::ControllerRevision;
use k8s_openapi::apimachinery::pkg::runtime::RawExtension;
use kube::api::{DeleteParams, ListParams, PostParams};
use kube::{Api, Client};
use kubesim::{Config, Engine};

/// A kube client whose transport is a direct call into the engine.
fn in_process_client() -> Client {
    common::kube::in_process_client(Arc::new(Mutex::new(Engine::new(Config::default()))))
}

async fn http_client() -> (Client, tokio::sync::oneshot::Sender<()>) {
    let engine = Arc::new(Mutex::new(Engine::new(Config::default())));
    let (listener, addr) = kubesim::server::bind("127.0.0.1:0".parse().unwrap())
        .await
        .unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(kubesim::server::run(engine, listener, None, async {
        let _ = stopped.await;
    }));
    let config = kube::Config::new(format!("http://{addr}").parse().unwrap());
    (Client::try_from(config).unwrap(), stop)
}

fn revision(name: &str, n: i64) -> ControllerRevision {
    ControllerRevision {
        metadata: kube::api::ObjectMeta {
            name: Some(name.into()),
            labels: Some([("app".to_string(), "web".to_string())].into()),
            ..Default::default()
        },
        data: Some(RawExtension(serde_json::json!({"spec": {"replicas": n}}))),
        revision: n,
    }
}

async fn crud(client: Client) {
    let api: Api<ControllerRevision> = Api::namespaced(client.clone(), "default");
    let created = api
        .create(&PostParams::default(), &revision("web-1", 1))
        .await
        .unwrap();
    let uid = created.metadata.uid.clone().unwrap();
    assert_eq!(uid.len(), 36);
    api.create(&PostParams::default(), &revision("web-2", 2))
        .await
        .unwrap();

    let got = api.get("web-1").await.unwrap();
    assert_eq!(got.revision, 1);
    assert_eq!(got.data.as_ref().unwrap().0["spec"]["replicas"], 1);

    let list = api
        .list(&ListParams::default().labels("app=web"))
        .await
        .unwrap();
    let names: Vec<_> = list
        .items
        .iter()
        .map(|c| c.metadata.name.clone().unwrap())
        .collect();
    assert_eq!(names, ["web-1", "web-2"]);
    let all: Api<ControllerRevision> = Api::all(client.clone());
    assert_eq!(
        all.list(&ListParams::default()).await.unwrap().items.len(),
        2
    );

    // Replace with the current resourceVersion succeeds...
    let mut next = got.clone();
    next.revision = 5;
    let replaced = api
        .replace("web-1", &PostParams::default(), &next)
        .await
        .unwrap();
    assert_eq!(replaced.revision, 5);
    // ...and a second replace from the same stale copy is a 409 Conflict.
    let err = api
        .replace("web-1", &PostParams::default(), &next)
        .await
        .unwrap_err();
    match err {
        kube::Error::Api(s) => {
            assert_eq!(s.code, 409);
            assert_eq!(s.reason, "Conflict");
            assert!(s.message.contains("the object has been modified"));
        }
        other => panic!("expected a Status error, got {other:?}"),
    }

    let deleted = api.delete("web-1", &DeleteParams::default()).await.unwrap();
    let status = deleted.right().expect("a Status for an immediate delete");
    assert_eq!(
        status.status,
        Some(kube::core::response::StatusSummary::Success)
    );
    match api.get("web-1").await.unwrap_err() {
        kube::Error::Api(s) => assert_eq!(s.code, 404),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn kube_rs_in_process() {
    crud(in_process_client()).await;
}

#[tokio::test]
async fn kube_rs_over_http() {
    let (client, stop) = http_client().await;
    crud(client).await;
    let _ = stop.send(());
}

/// The native server serves many clients at once; every write gets its own revision.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_clients_over_http() {
    let (client, stop) = http_client().await;
    let mut tasks = Vec::new();
    for i in 0..24 {
        let api: Api<ControllerRevision> = Api::namespaced(client.clone(), "default");
        tasks.push(tokio::spawn(async move {
            api.create(&PostParams::default(), &revision(&format!("c-{i}"), i))
                .await
                .map(|c| c.metadata.resource_version.unwrap())
        }));
    }
    let mut rvs = Vec::new();
    for t in tasks {
        rvs.push(t.await.unwrap().unwrap());
    }
    rvs.sort();
    rvs.dedup();
    assert_eq!(rvs.len(), 24, "every create got a distinct resourceVersion");
    let api: Api<ControllerRevision> = Api::namespaced(client, "default");
    assert_eq!(
        api.list(&ListParams::default()).await.unwrap().items.len(),
        24
    );
    let _ = stop.send(());
}

/// Server-side apply as kube-rs controllers use it: `Patch::Apply` with a field manager,
/// conflicts as 409 errors, `force()` to take fields over.
async fn server_side_apply(client: Client) {
    use k8s_openapi::api::core::v1::ConfigMap;
    use kube::api::{Patch, PatchParams};
    let api: Api<ConfigMap> = Api::namespaced(client, "default");
    let cfg = |value: &str| {
        serde_json::json!({
            "apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "app-config"},
            "data": {"mode": value}
        })
    };
    let made = api
        .patch(
            "app-config",
            &PatchParams::apply("ctrl-a"),
            &Patch::Apply(cfg("fast")),
        )
        .await
        .unwrap();
    let entries = made.metadata.managed_fields.unwrap();
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0].manager.as_deref(), Some("ctrl-a"));
    assert_eq!(entries[0].operation.as_deref(), Some("Apply"));
    let err = api
        .patch(
            "app-config",
            &PatchParams::apply("ctrl-b"),
            &Patch::Apply(cfg("slow")),
        )
        .await
        .unwrap_err();
    match err {
        kube::Error::Api(s) => {
            assert_eq!(s.code, 409);
            assert_eq!(s.reason, "Conflict");
            assert_eq!(
                s.message,
                "Apply failed with 1 conflict: conflict with \"ctrl-a\": .data.mode"
            );
        }
        other => panic!("expected a conflict, got {other:?}"),
    }
    let forced = api
        .patch(
            "app-config",
            &PatchParams::apply("ctrl-b").force(),
            &Patch::Apply(cfg("slow")),
        )
        .await
        .unwrap();
    assert_eq!(forced.data.unwrap()["mode"], "slow");
    let managers: Vec<String> = forced
        .metadata
        .managed_fields
        .unwrap()
        .into_iter()
        .filter_map(|e| e.manager)
        .collect();
    assert_eq!(managers, ["ctrl-b"]);
}

#[tokio::test]
async fn kube_rs_server_side_apply_in_process_and_over_http() {
    server_side_apply(in_process_client()).await;
    let (client, stop) = http_client().await;
    server_side_apply(client).await;
    let _ = stop.send(());
}
