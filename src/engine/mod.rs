//! The whole simulated API server as one deterministic state machine.
//!
//! `Engine::serve` takes an `http::Request<Bytes>` and answers with an `http::Response<Body>`
//! now, or later for a read that waits for the watch cache (`waiting.rs`); `Engine::handle`
//! lets the engine's time pass over such a wait. Hosts (the native server, the wasm shim,
//! in-process tower services) only move bytes, and wait where they follow wall time.
//! Time comes from an injected [`Clock`] and randomness from a seeded [`Rng`], so the same
//! requests on the same clock and seed give byte-identical responses.

mod control;
mod manifests;
mod predecoder;
mod stack;
mod state;
mod waiting;

use bytes::Bytes;
use http::{Request, Response};
use serde_json::{json, Map, Value};

pub use crate::api::body::{Body, WatchStream};
use crate::auth::AuthConfig;
use crate::cache::{CacheConfig, WatchCache};
use crate::clock::{Clock, TimeSource, DEFAULT_START_MS};
use crate::features::FeatureGates;
use crate::registry::{AuthorizationMode, Registry, Write};
use crate::resources::rbac::UserInfo;
use crate::resources::NAMESPACES;
use crate::rng::Rng;
use crate::store::Store;
pub use manifests::{documents, LoadError, Manifest, LOAD_MANAGER};
pub use predecoder::Predecoder;
pub use state::parse_state;
pub use waiting::{abandoned, Answer, Waiting};

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
    /// How long the store keeps history before compacting it (etcd: 5 minutes).
    pub history_ms: i64,
    /// Watch cache tuning (lag, window).
    pub cache: CacheConfig,
    /// Authentication: tokens, anonymous requests, the identity of requests without
    /// credentials.
    pub auth: AuthConfig,
    /// `--authorization-mode`.
    pub authorization: AuthorizationMode,
    /// Create kube-apiserver's RBAC bootstrap policy (its 69 ClusterRoles, 50 bindings and
    /// the Roles of `kube-system` and `kube-public`) as it does at start. Off gives a bare
    /// cluster of three namespaces at revision 3 (the playground's lessons are written
    /// against it).
    pub rbac_bootstrap: bool,
    /// How long after a change the garbage collector acts (simulated ms; the real one
    /// reacts within about a second).
    pub gc_delay_ms: i64,
    /// How long after a change to a terminating namespace the namespace controller handles
    /// it (simulated ms; `namespaceDeletionGracePeriod`, 5 s on the real one). Its requeues
    /// while content remains are the real controller's (8 s, or the rate limiter's backoff).
    pub namespace_delay_ms: i64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            seed: 0,
            start_ms: DEFAULT_START_MS,
            time_source: None,
            feature_gates: FeatureGates::default(),
            server_address: "127.0.0.1:8080".into(),
            history_ms: 300_000,
            cache: CacheConfig::default(),
            auth: AuthConfig::default(),
            authorization: AuthorizationMode::default(),
            rbac_bootstrap: true,
            gc_delay_ms: crate::controllers::garbage_collector::DEFAULT_DELAY_MS,
            namespace_delay_ms: crate::controllers::namespace::DEFAULT_DELAY_MS,
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

/// The simulated API server: the registry (store, watch cache, watches) behind the HTTP
/// handlers, the controllers that run on every tick, and kubesim's own control endpoints.
///
/// Bodies may nest as deep as Go's decoders allow (10,000 levels of JSON), and the engine
/// walks such trees recursively: its entry points switch to a stack of their own when the
/// caller's is too short for that (`stack.rs`), so any thread may call them.
#[derive(Debug)]
pub struct Engine {
    registry: Registry,
    auth: AuthConfig,
    aggregation: crate::controllers::clusterrole_aggregation::Aggregation,
    crd_names: crate::controllers::crd_names::CrdNames,
    crd_finalizer: crate::controllers::crd_finalizer::CrdFinalizer,
    gc: crate::controllers::garbage_collector::GarbageCollector,
    /// The leases of objects with a time to live (Events).
    leases: crate::registry::Leases,
    namespaces: crate::controllers::namespace::NamespaceController,
    server_address: String,
    history_ms: i64,
    /// Reads waiting for the watch cache.
    parking: waiting::Parking,
    /// The impersonation filter's memory (which mode last worked for each caller).
    impersonation: crate::auth::impersonation::Memory,
}

impl Engine {
    /// A fresh cluster with the initial namespaces.
    pub fn new(config: Config) -> Self {
        let clock = match config.time_source {
            Some(src) => Clock::following(src),
            None => Clock::simulated(config.start_ms),
        };
        let mut engine = Engine {
            registry: Registry::new(
                clock,
                Rng::new(config.seed),
                config.feature_gates,
                config.cache,
            ),
            server_address: config.server_address,
            history_ms: config.history_ms,
            auth: AuthConfig {
                // As kube-apiserver (`ApplyAuthorization`): under AlwaysAllow, anonymous
                // authentication is turned off.
                anonymous: config.auth.anonymous
                    && config.authorization != AuthorizationMode::AlwaysAllow,
                ..config.auth
            },
            aggregation: Default::default(),
            crd_names: Default::default(),
            crd_finalizer: Default::default(),
            gc: crate::controllers::garbage_collector::GarbageCollector::new(config.gc_delay_ms),
            leases: Default::default(),
            namespaces: crate::controllers::namespace::NamespaceController::new(
                config.namespace_delay_ms,
            ),
            parking: Default::default(),
            impersonation: Default::default(),
        };
        engine.registry.set_authorization_mode(config.authorization);
        for ns in INITIAL_NAMESPACES {
            let mut obj = Map::new();
            obj.insert("metadata".into(), json!({ "name": ns }));
            engine
                .registry
                .create(
                    &NAMESPACES,
                    obj,
                    &crate::resources::Sent::none(),
                    &Write::by("kube-apiserver", false),
                )
                .expect("initial namespaces are valid");
        }
        if config.rbac_bootstrap {
            engine.bootstrap_rbac();
        }
        engine
    }

    /// One request's response (or the planner's placeholder for a read that waits): kubesim's
    /// own endpoints (`/kubesim/v1/...`) are the engine's; everything else is the API's.
    /// [`Engine::serve`] and [`Engine::handle`] then let the controllers react.
    /// `resume`: a parked read whose wait is over.
    fn respond(
        &mut self,
        req: &Request<Bytes>,
        resume: Option<&crate::api::response::CacheWait>,
    ) -> Response<Body> {
        let Some(path) = crate::api::path::unescape(req.uri().path()) else {
            return crate::api::response::bad_request_line();
        };
        match control::path(&path) {
            Some(rest) => control::serve(self, req, &rest),
            None => crate::api::serve(
                &mut self.registry,
                &self.auth,
                &mut self.impersonation,
                &self.server_address,
                req,
                &path,
                resume,
            ),
        }
    }

    /// Lets time-driven machinery catch up with the clock: history compaction, the watch
    /// cache's lagged feed, bookmarks and watch timeouts, and the controllers. Hosts following
    /// wall time call it periodically; simulated time calls it on every `advance`.
    pub fn tick(&mut self) {
        stack::with_room(|| self.tick_here())
    }

    fn tick_here(&mut self) {
        let now = self.registry.clock().now_ms();
        // Leases first: they read the writes since the last tick before compaction.
        self.leases.run(&mut self.registry);
        if let Some(rev) = self
            .registry
            .store()
            .revision_at_time(now - self.history_ms)
        {
            self.registry.compact_to(rev);
        }
        self.registry.sync_cache();
        self.registry.cacher_mut().service(now);
        self.namespaces.run(&mut self.registry);
        self.aggregation.run(&mut self.registry);
        self.crd_names.run(&mut self.registry);
        self.crd_finalizer.run(&mut self.registry);
        self.gc.run(&mut self.registry);
        self.serve_parked();
    }

    /// The RBAC bootstrap policy kube-apiserver's `rbac/bootstrap-roles` hook creates, in
    /// its order ([`crate::resources::rbac::BOOTSTRAP`]); then the aggregation controller
    /// fills in `admin`, `edit` and `view`.
    fn bootstrap_rbac(&mut self) {
        let objects: Vec<Map<String, Value>> =
            serde_json::from_slice(crate::resources::rbac::BOOTSTRAP.as_bytes())
                .expect("bootstrap policy");
        for obj in objects {
            let s = |k: &str| obj.get(k).and_then(Value::as_str).unwrap_or("");
            let info = self
                .registry
                .kinds()
                .by_kind(s("apiVersion"), s("kind"))
                .expect("the bootstrap policy holds RBAC kinds");
            self.registry
                .create(
                    info,
                    obj,
                    &crate::resources::Sent::none(),
                    &Write::by("kube-apiserver", false),
                )
                .expect("the bootstrap policy is valid");
        }
        // A cluster is handed over settled: the aggregated roles already hold their rules.
        for _ in 0..10 {
            if crate::controllers::clusterrole_aggregation::reconcile(&mut self.registry) == 0 {
                break;
            }
        }
    }

    /// Compacts the store to its current revision now (reads and watches at older revisions
    /// then answer 410), as `etcdctl compact` would.
    pub fn compact(&mut self) -> u64 {
        let rev = self.registry.store().revision();
        self.registry.compact_to(rev);
        rev
    }

    /// Makes the object at `path` (`/api/v1/namespaces/default/configmaps/x`) unreadable in
    /// storage, `how` (`undecryptable`: its encryption key is lost; `undecodable`): reads
    /// from storage fail, the watch cache keeps its last good copy, and only an unsafe
    /// delete (`ignoreStoreReadErrorWithClusterBreakingPotential`) removes it.
    pub fn corrupt(&mut self, path: &str, how: &str) -> Result<String, String> {
        let how = crate::store::Corruption::parse(how)
            .ok_or_else(|| format!("unknown corruption {how:?}: undecryptable or undecodable"))?;
        let crate::api::route::Route::Resource(rr) =
            crate::api::route::route(self.registry.kinds(), "GET", path, false)
        else {
            return Err(format!("{path} is not an object's path"));
        };
        let (Some(name), None) = (rr.name.as_deref(), rr.subresource.as_deref()) else {
            return Err(format!("{path} is not an object's path"));
        };
        let key = rr.resource.key(rr.namespace.as_deref().unwrap_or(""), name);
        if !rr.resource.strategy.stored() || !self.registry.corrupt(&key, how) {
            return Err(format!("there is no object at {path}"));
        }
        Ok(key)
    }

    /// Who requests without credentials act as from now on (`None`: anonymous, or 401 when
    /// anonymous access is off): the playground's and the shim's user switch.
    pub fn set_default_user(&mut self, user: Option<UserInfo>) {
        self.auth.default_user = user;
    }

    /// Who requests without credentials act as.
    pub fn default_user(&self) -> Option<&UserInfo> {
        self.auth.default_user.as_ref()
    }

    /// Sets how long the watch cache lags behind the store (ms).
    pub fn set_cache_lag(&mut self, lag_ms: i64) {
        self.registry.cacher_mut().set_lag(lag_ms);
        self.tick();
    }

    /// The watch cache (read-only).
    pub fn cache(&self) -> &WatchCache {
        self.registry.cache()
    }

    /// Ends every watch (their streams finish), e.g. when the server shuts down.
    pub fn close_watches(&mut self) {
        self.registry.cacher_mut().close_watches();
    }

    /// Number of open watches.
    pub fn watch_count(&self) -> usize {
        self.registry.cacher().watch_count()
    }

    /// (events dispatched, frames encoded) since start: with encode-once fan-out the second
    /// stays at most one per distinct frame of each event, however many watchers there are.
    pub fn dispatch_stats(&self) -> (u64, u64) {
        self.registry.cacher().dispatch_stats()
    }

    /// The engine's clock.
    pub fn clock(&self) -> &Clock {
        self.registry.clock()
    }

    /// Moves simulated time forward by `ms`, stopping at each moment a controller or a
    /// waiting read comes due on the way (so a namespace pass or a collector pass, its
    /// timestamps and the work it schedules, and the answer to a read, happen when they
    /// would), then runs the controllers.
    pub fn advance(&mut self, ms: i64) {
        let target = self.registry.clock().now_ms().saturating_add(ms.max(0));
        loop {
            let now = self.registry.clock().now_ms();
            let next = [
                self.namespaces.next_due(),
                self.gc.next_due(),
                self.leases.next_due(),
                self.parking.next_due(),
            ]
            .into_iter()
            .flatten()
            .filter(|due| *due > now && *due < target)
            .min();
            let Some(due) = next else {
                break;
            };
            self.registry.clock_mut().advance(due - now);
            self.tick();
        }
        let now = self.registry.clock().now_ms();
        self.registry.clock_mut().advance(target - now);
        self.tick();
    }

    /// What a saved state must be newer than: the store's revision and the random
    /// generator's state (a dry-run create draws names and uids without writing).
    pub fn state_fingerprint(&self) -> (u64, u64) {
        (self.store().revision(), self.registry.rng_state())
    }

    /// The persistence layer (read-only: writes go through requests).
    pub fn store(&self) -> &Store {
        self.registry.store()
    }

    /// The feature gates in force.
    pub fn feature_gates(&self) -> &FeatureGates {
        self.registry.feature_gates()
    }

    /// Serves one more kind from the next request on: routing, discovery (legacy and
    /// aggregated, with a new ETag), OpenAPI, every verb and read semantic. An error when its
    /// group, version and plural are already served.
    pub fn register_kind(
        &mut self,
        info: &'static crate::resources::ResourceInfo,
    ) -> Result<(), String> {
        self.registry.register_kind(info)
    }

    /// The kinds served now (a new value whenever one is added or removed: a
    /// CustomResourceDefinition established or deleted).
    pub fn kinds(&self) -> &std::sync::Arc<crate::resources::Kinds> {
        self.registry.kinds()
    }

    /// The address `/api` discovery advertises.
    pub fn server_address(&self) -> &str {
        &self.server_address
    }

    /// A read-only snapshot of every live object, for inspection (tests, playground).
    pub fn objects(&self) -> Vec<Value> {
        let mut out = Vec::new();
        for info in self.registry.kinds().iter() {
            out.extend(
                self.stored_under(&info.key_prefix())
                    .iter()
                    .map(crate::codec::Object::decode),
            );
        }
        out
    }

    /// The live objects under a storage key prefix (`/registry/<resource>/<namespace>/`), as
    /// stored: one collection's, without decoding every other kind's (playground views that
    /// compare one collection with what a client saw).
    pub fn stored_under(&self, prefix: &str) -> Vec<crate::codec::Object> {
        self.store()
            .range(prefix, None, self.store().revision(), None, |_| true)
            .map(|page| page.items)
            .unwrap_or_default()
    }
}
