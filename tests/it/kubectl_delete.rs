//! `kubectl delete --cascade=background|foreground|orphan` against `kubesim serve` (wall
//! clock: the garbage collector acts about a second after the delete), and kube-rs's
//! `DeleteParams::foreground()` in-process on simulated time.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::common::server::Server;

fn dependent(name: &str, owner: &str, uid: &str) -> String {
    format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}\n  ownerReferences:\n  - apiVersion: v1\n    kind: ConfigMap\n    name: {owner}\n    uid: {uid}\n    blockOwnerDeletion: true\n"
    )
}

/// Creates owner `o` and its dependent `d` (blocking).
fn pair(s: &Server, o: &str, d: &str) {
    s.kubectl_ok(&["create", "configmap", o]);
    let uid = s.kubectl_ok(&["get", "configmap", o, "-o", "jsonpath={.metadata.uid}"]);
    let file = s.dir.path().join(format!("{d}.yaml"));
    std::fs::write(&file, dependent(d, o, &uid)).unwrap();
    s.kubectl_ok(&["create", "-f", file.to_str().unwrap()]);
}

fn eventually(what: &str, mut check: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(15);
    while !check() {
        assert!(Instant::now() < deadline, "timed out waiting: {what}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn kubectl_delete_cascades() {
    let s = Server::start(&[]);
    pair(&s, "fg", "fg-dep");
    // Foreground: kubectl waits until the owner is gone, which is after its dependent.
    assert_eq!(
        s.kubectl_ok(&["delete", "configmap", "fg", "--cascade=foreground"]),
        "configmap \"fg\" deleted\n"
    );
    let (ok, _, err) = s.kubectl(&["get", "configmap", "fg-dep"]);
    assert!(!ok && err.contains("NotFound"), "{err}");

    pair(&s, "bg", "bg-dep");
    assert_eq!(
        s.kubectl_ok(&["delete", "configmap", "bg"]),
        "configmap \"bg\" deleted\n"
    );
    s.kubectl_ok(&["wait", "--for=delete", "configmap/bg-dep", "--timeout=15s"]);

    pair(&s, "or", "or-dep");
    assert_eq!(
        s.kubectl_ok(&["delete", "configmap", "or", "--cascade=orphan"]),
        "configmap \"or\" deleted\n"
    );
    eventually("or-dep loses its owner reference", || {
        s.kubectl_ok(&[
            "get",
            "configmap",
            "or-dep",
            "-o",
            "jsonpath={.metadata.ownerReferences}",
        ])
        .is_empty()
    });
}

#[tokio::test]
async fn kube_rs_foreground_delete() {
    use k8s_openapi::api::core::v1::ConfigMap;
    use kube::api::{DeleteParams, PostParams};
    use kube::Api;
    let engine = Arc::new(Mutex::new(kubesim::Engine::new(kubesim::Config::default())));
    let client = crate::common::kube::in_process_client(engine.clone());
    let api: Api<ConfigMap> = Api::namespaced(client, "default");
    let mut owner = ConfigMap::default();
    owner.metadata.name = Some("o".into());
    let owner = api.create(&PostParams::default(), &owner).await.unwrap();
    let mut dep = ConfigMap::default();
    dep.metadata.name = Some("d".into());
    dep.metadata.owner_references = Some(vec![
        k8s_openapi::apimachinery::pkg::apis::meta::v1::OwnerReference {
            api_version: "v1".into(),
            kind: "ConfigMap".into(),
            name: "o".into(),
            uid: owner.metadata.uid.clone().unwrap(),
            block_owner_deletion: Some(true),
            ..Default::default()
        },
    ]);
    api.create(&PostParams::default(), &dep).await.unwrap();
    let answer = api.delete("o", &DeleteParams::foreground()).await.unwrap();
    let terminating = answer
        .left()
        .expect("the owner stays while its dependents go");
    assert_eq!(
        terminating.metadata.finalizers.as_deref(),
        Some(&["foregroundDeletion".to_string()][..])
    );
    assert!(api.get_opt("o").await.unwrap().is_some());
    // The dependent goes, and its owner, no longer blocked, right after it.
    engine.lock().unwrap().advance(1000);
    assert!(api.get_opt("d").await.unwrap().is_none());
    assert!(api.get_opt("o").await.unwrap().is_none());
}
