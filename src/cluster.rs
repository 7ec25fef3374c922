//! A simulated cluster for tests: one [`Engine`] shared by the test, which drives its time and
//! its faults, and by the clients under test, which talk to it in-process.
//!
//! The engine is a single-threaded state machine; a `Cluster` keeps it behind a mutex so a
//! client's requests (from any task or thread) and the test's own calls take turns, as the
//! native server's connections do. Cloning a `Cluster` shares the same engine.

use std::sync::{Arc, Mutex, MutexGuard};

use bytes::Bytes;
use serde_json::Value;

use crate::engine::{LoadError, Manifest};
use crate::{Body, Config, Engine};

/// A simulated cluster shared by a test and its clients.
#[derive(Debug, Clone)]
pub struct Cluster {
    engine: Arc<Mutex<Engine>>,
}

impl Cluster {
    /// A fresh cluster built with `config` (its clock, seed, feature gates, authorization).
    pub fn new(config: Config) -> Self {
        Cluster::from_engine(Engine::new(config))
    }

    /// A cluster around an engine built or restored elsewhere (for example with
    /// [`Engine::import_state`]).
    pub fn from_engine(engine: Engine) -> Self {
        Cluster {
            engine: Arc::new(Mutex::new(engine)),
        }
    }

    /// A cluster around an engine already shared (as the native server shares it).
    pub fn from_shared(engine: Arc<Mutex<Engine>>) -> Self {
        Cluster { engine }
    }

    /// A fresh cluster that starts with the objects of `manifests` (YAML streams or JSON, as
    /// `kubesim serve --load` reads them; see [`Engine::load_manifests`]).
    pub fn with_manifests(config: Config, manifests: &[Manifest]) -> Result<Self, LoadError> {
        let cluster = Cluster::new(config);
        cluster.engine().load_manifests(manifests)?;
        Ok(cluster)
    }

    /// Applies the objects of one YAML (or JSON) text as the admin, server-side; how many.
    pub fn apply_yaml(&self, text: &str) -> Result<usize, LoadError> {
        self.engine()
            .load_manifests(&[Manifest::new("apply_yaml", text)])
    }

    /// The engine itself, for anything this handle does not wrap. Hold the guard briefly:
    /// clients wait for it.
    pub fn engine(&self) -> MutexGuard<'_, Engine> {
        self.engine.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The shared engine, as the native server's [`serve_one`] takes it.
    ///
    /// [`serve_one`]: crate::server::serve_one
    pub fn shared(&self) -> Arc<Mutex<Engine>> {
        self.engine.clone()
    }

    /// Serves one request (see [`Engine::handle`]).
    pub fn handle(&self, req: http::Request<Bytes>) -> http::Response<Body> {
        self.engine().handle(req)
    }

    /// Moves simulated time on by `ms`: the watch cache catches up, bookmarks and watch
    /// timeouts fire, the controllers act, history older than five minutes is compacted.
    pub fn advance(&self, ms: i64) {
        self.engine().advance(ms);
    }

    /// Compacts the history now, up to the current revision (etcd's compaction), so older
    /// resource versions answer 410 Gone; the revision compacted to.
    pub fn compact(&self) -> u64 {
        self.engine().compact()
    }

    /// Makes the watch cache trail the store by `ms` of simulated time.
    pub fn set_cache_lag(&self, ms: i64) {
        self.engine().set_cache_lag(ms);
    }

    /// Corrupts the stored object at an API path (`how`: kubesim's `/kubesim/v1/corrupt`
    /// kinds), as a broken etcd value would be.
    pub fn corrupt(&self, path: &str, how: &str) -> Result<String, String> {
        self.engine().corrupt(path, how)
    }

    /// The stored object under an etcd-style key (`/registry/configmaps/default/settings`),
    /// read from the store directly, as `etcdctl get` would.
    pub fn stored(&self, key: &str) -> Option<Value> {
        self.engine()
            .store()
            .get(key)
            .map(crate::codec::Object::decode)
    }

    /// Every live object, read from the store directly.
    pub fn objects(&self) -> Vec<Value> {
        self.engine().objects()
    }

    /// A kube-rs client that talks to this cluster in-process, with no sockets, defaulting to
    /// namespace `default`. Its requests carry no credentials, so they act as the engine's
    /// default user (`kubesim-admin` in `system:masters`, unless
    /// [`Engine::set_default_user`] says otherwise); impersonation headers work as against a
    /// real server. Its watches stream events as the cluster's writes happen.
    #[cfg(all(feature = "kube-client", not(target_arch = "wasm32")))]
    pub fn client(&self) -> kube::Client {
        use http_body_util::BodyExt;
        let engine = self.engine.clone();
        let service = tower::service_fn(move |req: http::Request<kube::client::Body>| {
            let engine = engine.clone();
            async move {
                let (parts, body) = req.into_parts();
                let bytes = body.collect().await?.to_bytes();
                let resp = engine
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .handle(http::Request::from_parts(parts, bytes));
                let (parts, body) = resp.into_parts();
                Ok::<_, Box<dyn std::error::Error + Send + Sync>>(http::Response::from_parts(
                    parts,
                    crate::server::ServerBody(body),
                ))
            }
        });
        kube::Client::new(service, "default")
    }
}
