//! A small kube-rs controller, run against kubesim: every ConfigMap labelled
//! `example.com/checksum=enabled` gets an annotation `example.com/checksum` with a checksum of
//! its data, kept up to date as the data changes (watch + reconcile with kube-runtime).
//!
//! Against `kubesim serve` (or any cluster): `KUBECONFIG=... cargo run --example controller`.
//! In a test, hand [`run`] the in-process client of a `kubesim::Cluster` instead
//! (`tests/it/controller_example.rs` does).

// kube-rs is a native dependency: in a wasm32 build the example is empty.
#[cfg(not(target_arch = "wasm32"))]
pub use native::*;

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use std::sync::Arc;
    use std::time::Duration;

    use futures::StreamExt;
    use k8s_openapi::api::core::v1::ConfigMap;
    use kube::api::{Api, Patch, PatchParams};
    use kube::runtime::controller::{Action, Controller};
    use kube::runtime::watcher;
    use kube::Client;

    /// The label that opts a ConfigMap in.
    pub const LABEL: &str = "example.com/checksum=enabled";
    /// The annotation the controller writes.
    pub const ANNOTATION: &str = "example.com/checksum";

    /// FNV-1a over the data's keys and values, in key order: stable for equal data.
    pub fn checksum(cm: &ConfigMap) -> String {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for (k, v) in cm.data.iter().flatten() {
            for byte in k.bytes().chain([0]).chain(v.bytes()).chain([0]) {
                hash ^= u64::from(byte);
                hash = hash.wrapping_mul(0x0100_0000_01b3);
            }
        }
        format!("{hash:016x}")
    }

    #[derive(Debug)]
    pub struct Error(kube::Error);

    impl std::fmt::Display for Error {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            self.0.fmt(f)
        }
    }

    impl std::error::Error for Error {}

    /// Writes the checksum annotation when it is missing or stale (a server-side apply of just
    /// that annotation, so nothing else of the object changes hands).
    async fn reconcile(cm: Arc<ConfigMap>, client: Arc<Client>) -> Result<Action, Error> {
        let want = checksum(&cm);
        let has = cm
            .metadata
            .annotations
            .as_ref()
            .and_then(|a| a.get(ANNOTATION));
        if has != Some(&want) {
            let ns = cm.metadata.namespace.as_deref().unwrap_or("default");
            let name = cm.metadata.name.as_deref().unwrap_or_default();
            let api: Api<ConfigMap> = Api::namespaced((*client).clone(), ns);
            let patch = serde_json::json!({
                "apiVersion": "v1",
                "kind": "ConfigMap",
                "metadata": {"name": name, "annotations": {ANNOTATION: want}},
            });
            api.patch(
                name,
                &PatchParams::apply("checksum-controller"),
                &Patch::Apply(&patch),
            )
            .await
            .map_err(Error)?;
        }
        Ok(Action::await_change())
    }

    fn error_policy(_cm: Arc<ConfigMap>, _error: &Error, _client: Arc<Client>) -> Action {
        Action::requeue(Duration::from_secs(1))
    }

    /// Runs the controller over every namespace, for as long as the task runs (kube-runtime
    /// lists and watches again whenever a watch ends).
    pub async fn run(client: Client) {
        let configmaps: Api<ConfigMap> = Api::all(client.clone());
        Controller::new(configmaps, watcher::Config::default().labels(LABEL))
            .run(reconcile, error_policy, Arc::new(client))
            .for_each(|_| async {})
            .await;
    }
}

#[cfg(not(target_arch = "wasm32"))]
#[tokio::main]
async fn main() -> Result<(), kube::Error> {
    run(kube::Client::try_default().await?).await;
    Ok(())
}

#[cfg(target_arch = "wasm32")]
fn main() {}
