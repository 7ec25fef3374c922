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
use crate::cache::watchers::{self, Watcher};
use crate::cache::{CacheConfig, WatchCache};
use crate::clock::{Clock, TimeSource, DEFAULT_START_MS};
use crate::features::FeatureGates;
use crate::resources::{ResourceInfo, NAMESPACES};
use crate::rng::Rng;
use crate::store::Store;

/// A response body: complete bytes, or a watch stream the engine keeps feeding.
#[derive(Debug)]
pub enum Body {
    /// The complete body.
    Full(Bytes),
    /// One chunk per watch frame, as events happen; ends when the watch ends.
    Watch(WatchStream),
}

static EMPTY: Bytes = Bytes::from_static(b"");

impl Body {
    /// The bytes of a complete body (empty for a stream).
    pub fn bytes(&self) -> &Bytes {
        match self {
            Body::Full(b) => b,
            Body::Watch(_) => &EMPTY,
        }
    }
}

/// The receiving end of a watch: a stream of frames (`futures_core::Stream<Item = Bytes>`).
/// Dropping it ends the watch inside the engine.
#[derive(Debug)]
pub struct WatchStream {
    receiver: futures_channel::mpsc::UnboundedReceiver<Bytes>,
}

impl WatchStream {
    pub(crate) fn new(receiver: futures_channel::mpsc::UnboundedReceiver<Bytes>) -> Self {
        WatchStream { receiver }
    }

    /// Frames available right now, without waiting, and whether the stream has ended.
    pub fn drain(&mut self) -> (Vec<Bytes>, bool) {
        let mut out = Vec::new();
        loop {
            match self.receiver.try_recv() {
                Ok(b) => out.push(b),
                Err(e) if e.is_closed() => return (out, true),
                Err(_) => return (out, false),
            }
        }
    }
}

impl futures_core::Stream for WatchStream {
    type Item = Bytes;
    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Bytes>> {
        std::pin::Pin::new(&mut self.receiver).poll_next(cx)
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
    /// How long the store keeps history before compacting it (etcd: 5 minutes).
    pub history_ms: i64,
    /// Watch cache tuning (lag, window).
    pub cache: CacheConfig,
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
    cache: WatchCache,
    watchers: Vec<Watcher>,
    next_watch_id: u64,
    gates: FeatureGates,
    server_address: String,
    history_ms: i64,
    /// Events dispatched to watchers, and frames encoded for them (encode-once accounting).
    dispatch_stats: (u64, u64),
}

impl Engine {
    /// A fresh cluster with the initial namespaces.
    pub fn new(config: Config) -> Self {
        let clock = match config.time_source {
            Some(src) => Clock::following(src),
            None => Clock::simulated(config.start_ms),
        };
        let store = Store::new();
        let mut cache_config = config.cache;
        cache_config.snapshots = config.feature_gates.enabled("ListFromCacheSnapshot");
        let mut engine = Engine {
            clock,
            rng: Rng::new(config.seed),
            cache: WatchCache::new(cache_config, &store),
            store,
            watchers: Vec::new(),
            next_watch_id: 1,
            gates: config.feature_gates,
            server_address: config.server_address,
            history_ms: config.history_ms,
            dispatch_stats: (0, 0),
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

    /// Lets time-driven machinery catch up with the clock: history compaction, the watch
    /// cache's lagged feed, bookmarks and watch timeouts, and the controllers. Hosts following
    /// wall time call it periodically; simulated time calls it on every `advance`.
    pub fn tick(&mut self) {
        let now = self.clock.now_ms();
        if let Some(rev) = self.store.revision_at_time(now - self.history_ms) {
            self.compact_to(rev);
        }
        self.sync_cache();
        self.cache.expire(now);
        self.service_watchers(now);
        crate::controllers::namespace::reconcile(self);
    }

    /// Compacts the store to its current revision now (reads and watches at older revisions
    /// then answer 410), as `etcdctl compact` would.
    pub fn compact(&mut self) -> u64 {
        let rev = self.store.revision();
        self.compact_to(rev);
        rev
    }

    fn compact_to(&mut self, rev: u64) {
        // The cache must have seen everything it will need before history goes.
        let now = self.clock.now_ms();
        let due = self.cache.catch_up(&self.store, now + i64::MAX / 4);
        for ev in &due {
            self.dispatch(ev);
        }
        self.store.compact(rev);
    }

    /// Sets how long the watch cache lags behind the store (ms).
    pub fn set_cache_lag(&mut self, lag_ms: i64) {
        self.cache.set_lag(lag_ms);
        self.tick();
    }

    /// The watch cache (read-only).
    pub fn cache(&self) -> &WatchCache {
        &self.cache
    }

    /// Ends every watch (their streams finish), e.g. when the server shuts down.
    pub fn close_watches(&mut self) {
        self.watchers.clear();
    }

    /// Number of open watches.
    pub fn watch_count(&self) -> usize {
        self.watchers.iter().filter(|w| w.is_open()).count()
    }

    /// Feeds due store events into the cache and on to the watchers, then starts streaming
    /// lists whose initial state the cache has now reached.
    pub(crate) fn sync_cache(&mut self) {
        let now = self.clock.now_ms();
        for ev in self.cache.catch_up(&self.store, now) {
            self.dispatch(&ev);
        }
        let cache_rv = self.cache.revision();
        let ready: Vec<usize> = self
            .watchers
            .iter()
            .enumerate()
            .filter(|(_, w)| w.pending_initial.is_some_and(|t| t <= cache_rv))
            .map(|(i, _)| i)
            .collect();
        for i in ready {
            let state = self.cache.state().clone();
            let w = &mut self.watchers[i];
            w.pending_initial = None;
            crate::api::handlers::watch::send_initial(w, &state, cache_rv, now, true);
        }
    }

    fn dispatch(&mut self, ev: &crate::cache::CachedEvent) {
        let frames = watchers::dispatch(&mut self.watchers, ev);
        self.dispatch_stats.0 += 1;
        self.dispatch_stats.1 += frames as u64;
    }

    /// (events dispatched, frames encoded) since start: with encode-once fan-out the second
    /// stays at most one per distinct frame of each event, however many watchers there are.
    pub fn dispatch_stats(&self) -> (u64, u64) {
        self.dispatch_stats
    }

    /// Registers a watcher (its stream is already primed with any initial frames).
    pub(crate) fn add_watcher(&mut self, w: Watcher) {
        self.watchers.push(w);
    }

    /// A fresh watcher id.
    pub(crate) fn next_watch_id(&mut self) -> u64 {
        self.next_watch_id += 1;
        self.next_watch_id
    }

    fn service_watchers(&mut self, now: i64) {
        let cache_rv = self.cache.revision();
        self.watchers.retain_mut(|w| {
            if !w.is_open() {
                return false;
            }
            if w.pending_initial.is_some() {
                return now < w.deadline_ms;
            }
            if w.bookmarks {
                if !w.final_bookmark_sent && w.deadline_ms - now <= watchers::FINAL_BOOKMARK_LEAD_MS
                {
                    w.final_bookmark_sent = true;
                    w.last_rv = w.last_rv.max(cache_rv);
                    w.bookmark(w.last_rv, now, false);
                } else if now - w.last_bookmark_ms >= watchers::BOOKMARK_INTERVAL_MS {
                    w.last_rv = w.last_rv.max(cache_rv);
                    w.bookmark(w.last_rv, now, false);
                }
            }
            // Past the deadline the stream simply ends (no ERROR event).
            now < w.deadline_ms
        });
    }

    /// Writes `obj` under `key` at the next revision and feeds the change onward.
    pub(crate) fn commit_put(&mut self, key: &str, obj: Value) -> u64 {
        let rev = self.store.put(key, obj, self.clock.now_ms());
        self.sync_cache();
        rev
    }

    /// Deletes `key` at the next revision and feeds the change onward.
    pub(crate) fn commit_delete(&mut self, key: &str) -> Option<u64> {
        let rev = self.store.delete(key, self.clock.now_ms());
        self.sync_cache();
        rev
    }

    /// The engine's RNG (watch timeouts, names, UIDs).
    pub(crate) fn rng(&mut self) -> &mut Rng {
        &mut self.rng
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

    /// The 504 etcd answers for a read at a future revision (no Retry-After).
    pub(crate) fn too_large_resource_version_from_store(&self, requested: u64) -> ApiError {
        let mut e = self.too_large_resource_version(requested);
        if let Some(d) = e.details.as_mut() {
            d.retry_after_seconds = None;
        }
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

    /// The whole simulated cluster as JSON (clock, RNG, store history, cache lag, gates), so
    /// a reload answers every request exactly as before. Open watches are not part of it.
    pub fn export_state(&self) -> Value {
        let gates: Map<String, Value> = self
            .gates
            .iter()
            .map(|(k, v)| (k.to_string(), Value::Bool(v)))
            .collect();
        json!({
            "kind": "KubesimState",
            "version": 1,
            "clockMs": self.clock.now_ms(),
            "simulatedClock": self.clock.is_simulated(),
            "rngState": self.rng.state().to_string(),
            "historyMs": self.history_ms,
            "cacheLagMs": self.cache.config().lag_ms,
            "featureGates": gates,
            "store": self.store.export(),
        })
    }

    /// Replaces the cluster with one exported by [`Engine::export_state`]. A simulated clock
    /// jumps to the exported time; a wall clock keeps following the host. The watch cache is
    /// rebuilt from the store (as after an apiserver restart) and open watches end.
    pub fn import_state(&mut self, state: &Value) -> Result<(), String> {
        if state["kind"] != "KubesimState" || state["version"] != 1 {
            return Err("not a kubesim state (kind KubesimState, version 1)".into());
        }
        let store = Store::import(&state["store"])?;
        let mut gates = FeatureGates::default();
        if let Some(g) = state["featureGates"].as_object() {
            for (k, v) in g {
                gates.set(k, v.as_bool().unwrap_or(false))?;
            }
        }
        let rng_state = state["rngState"]
            .as_str()
            .and_then(|s| s.parse::<u64>().ok())
            .ok_or("state: rngState")?;
        if self.clock.is_simulated() {
            let target = state["clockMs"].as_i64().ok_or("state: clockMs")?;
            self.clock = Clock::simulated(target);
        }
        let mut cache_config = self.cache.config().clone();
        cache_config.lag_ms = state["cacheLagMs"].as_i64().unwrap_or(0);
        cache_config.snapshots = gates.enabled("ListFromCacheSnapshot");
        self.watchers.clear();
        self.cache = WatchCache::new(cache_config, &store);
        self.store = store;
        self.rng = Rng::from_state(rng_state);
        self.gates = gates;
        self.history_ms = state["historyMs"].as_i64().unwrap_or(self.history_ms);
        Ok(())
    }

    /// Loads objects directly (no validation, no request path), one revision each, then
    /// rebuilds the cache: for benchmarks and large fixtures. Objects must be canonical and
    /// carry kind, apiVersion, metadata.name (and namespace when namespaced).
    pub fn load_objects(&mut self, objects: impl IntoIterator<Item = Value>) {
        let now = self.clock.now_ms();
        let keyed = objects
            .into_iter()
            .map(|o| (crate::cache::storage_key(&o), o));
        self.store.load(keyed, now);
        let config = self.cache.config().clone();
        self.cache = WatchCache::new(config, &self.store);
        self.watchers.clear();
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
