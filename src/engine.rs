//! The whole simulated API server as one deterministic state machine.
//!
//! `Engine::handle` takes an `http::Request<Bytes>` and returns an `http::Response<Body>`;
//! hosts (the native server, the wasm shim, in-process tower services) only move bytes.
//! Time comes from an injected [`Clock`] and randomness from a seeded [`Rng`], so the same
//! requests on the same clock and seed give byte-identical responses.

use bytes::Bytes;
use http::{Request, Response};
use serde_json::{json, Map, Value};

use crate::api::status::ApiError;
use crate::clock::{Clock, TimeSource, DEFAULT_START_MS};
use crate::features::FeatureGates;
use crate::resources::{ResourceInfo, NAMESPACES};
use crate::rng::Rng;
use crate::store::Store;

/// A response body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Body {
    /// The complete body.
    Full(Bytes),
}

impl Body {
    /// The bytes of a complete body.
    pub fn bytes(&self) -> &Bytes {
        match self {
            Body::Full(b) => b,
        }
    }
}

/// How to build an engine.
pub struct Config {
    /// Seed for UIDs and generated names.
    pub seed: u64,
    /// Where simulated time starts (ms since the epoch); ignored with a `time_source`.
    pub start_ms: i64,
    /// Follow host time instead of simulated time.
    pub time_source: Option<Box<dyn TimeSource>>,
    pub feature_gates: FeatureGates,
    /// `host:port` reported by `/api` discovery.
    pub server_address: String,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            seed: 0,
            start_ms: DEFAULT_START_MS,
            time_source: None,
            feature_gates: FeatureGates::default(),
            server_address: "127.0.0.1:8080".into(),
        }
    }
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("seed", &self.seed)
            .field("start_ms", &self.start_ms)
            .field("wall_clock", &self.time_source.is_some())
            .field("feature_gates", &self.feature_gates)
            .finish()
    }
}

/// The namespaces every cluster starts with.
pub const INITIAL_NAMESPACES: &[&str] = &["default", "kube-system", "kube-public"];

/// The simulated API server.
#[derive(Debug)]
pub struct Engine {
    clock: Clock,
    rng: Rng,
    store: Store,
    gates: FeatureGates,
    server_address: String,
}

impl Engine {
    /// A fresh cluster with the initial namespaces.
    pub fn new(config: Config) -> Self {
        let clock = match config.time_source {
            Some(src) => Clock::following(src),
            None => Clock::simulated(config.start_ms),
        };
        let mut engine = Engine {
            clock,
            rng: Rng::new(config.seed),
            store: Store::new(),
            gates: config.feature_gates,
            server_address: config.server_address,
        };
        for ns in INITIAL_NAMESPACES {
            let mut obj = Map::new();
            obj.insert("metadata".into(), json!({ "name": ns }));
            engine
                .create_object(&NAMESPACES, obj, &Map::new(), false)
                .expect("initial namespaces are valid");
        }
        engine
    }

    /// Serves one HTTP request, then lets the simulated controllers react to it.
    pub fn handle(&mut self, req: Request<Bytes>) -> Response<Body> {
        let resp = crate::api::serve(self, &req);
        self.tick();
        resp
    }

    /// Runs the controllers (namespace lifecycle) until they have nothing left to do.
    pub fn tick(&mut self) {
        crate::controllers::namespace::reconcile(self);
    }

    /// The engine's clock.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// Moves simulated time forward by `ms`, then runs the controllers.
    pub fn advance(&mut self, ms: i64) {
        self.clock.advance(ms);
        self.tick();
    }

    /// The persistence layer (read-only: writes go through requests).
    pub fn store(&self) -> &Store {
        &self.store
    }

    pub(crate) fn store_mut(&mut self) -> &mut Store {
        &mut self.store
    }

    pub(crate) fn rng_mut(&mut self) -> &mut Rng {
        &mut self.rng
    }

    /// The feature gates in force.
    pub fn feature_gates(&self) -> &FeatureGates {
        &self.gates
    }

    /// The address `/api` discovery advertises.
    pub fn server_address(&self) -> &str {
        &self.server_address
    }

    /// The 504 for a resourceVersion the server has not reached (after the watch cache's
    /// wait, which kubesim does not spend: nothing can arrive while a request is served).
    pub(crate) fn too_large_resource_version(&self, requested: u64) -> ApiError {
        let mut e = ApiError::untyped(
            504,
            format!(
                "Timeout: Too large resource version: {requested}, current: {}",
                self.store.revision()
            ),
        );
        e.reason = "Timeout";
        e.details = Some(Box::new(crate::api::status::Details {
            causes: vec![crate::api::status::Cause {
                reason: "ResourceVersionTooLarge".into(),
                message: "Too large resource version".into(),
                field: None,
            }],
            retry_after_seconds: Some(1),
            ..Default::default()
        }));
        e
    }

    /// NamespaceLifecycle admission for a write into `namespace`: 404 when it does not
    /// exist, 403 while it is terminating.
    pub(crate) fn admit_namespace_write(
        &self,
        info: &ResourceInfo,
        namespace: &str,
        name: &str,
    ) -> Result<(), ApiError> {
        match self.store.get(&NAMESPACES.key("", namespace)) {
            None => Err(ApiError::not_found(NAMESPACES.group_resource(), namespace)),
            Some(ns) => {
                let terminating = ns
                    .get("metadata")
                    .and_then(|m| m.get("deletionTimestamp"))
                    .is_some_and(|v| !v.is_null());
                if terminating {
                    Err(ApiError::forbidden(
                        info.group_resource(),
                        name,
                        &format!(
                            "unable to create new content in namespace {namespace} because it is being terminated"
                        ),
                    ))
                } else {
                    Ok(())
                }
            }
        }
    }

    /// A read-only snapshot of every live object, for inspection (tests, playground).
    pub fn objects(&self) -> Vec<Value> {
        let mut out = Vec::new();
        for info in crate::resources::ALL {
            if let Ok(page) = self.store.range(
                &info.key_prefix(),
                None,
                self.store.revision(),
                None,
                |_| true,
            ) {
                out.extend(page.items.iter().map(|o| (**o).clone()));
            }
        }
        out
    }
}
