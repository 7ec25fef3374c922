//! The generic registry, modelled on apiserver's `registry/generic/registry/store.go`: the
//! layer between the HTTP handlers and storage.
//!
//! Its operations — [`Registry::create`], [`Registry::update`], [`Registry::get`],
//! [`Registry::list`], [`Registry::watch`], [`Registry::delete`] and deletecollection (list +
//! delete) — take and return objects and typed errors ([`ApiError`]), never HTTP replies.
//! Everything that differs between kinds comes from the kind's
//! [`Strategy`](crate::resources::Strategy); which read source serves a get, list or watch comes from
//! the read planner ([`crate::cache::planner`]).

mod admission;
pub mod continue_token;
mod corrupt;
mod create;
mod delete;
mod leases;
mod managed;
mod rbac;
mod read;
mod update;
mod watch;

pub use crate::resources::rbac::Decision;
pub use corrupt::GATE as UNSAFE_DELETION_GATE;
pub use create::Written;
pub use delete::{DeleteOptions, Deleted};
pub use leases::Leases;
pub use managed::{apply_to, pretrack, pretrack_create, pretrack_decoded, Pretracked, Write};
pub use rbac::AuthorizationMode;
pub use read::ListOptions;
pub use watch::WatchOptions;

use std::sync::Arc;

use serde_json::Value;

use crate::cache::planner::{Arrival, Read, Semantic, Sources, Wait};
use crate::cache::{CacheConfig, Cacher, WatchCache};
use crate::clock::Clock;
use crate::features::FeatureGates;
use crate::resources::status::ApiError;
use crate::resources::{Kinds, ResourceInfo};
use crate::rng::Rng;
use crate::store::Store;

/// Storage for every kind — the store, the watch cache and its watchers — with the clock and
/// the seeded randomness the generic operations use.
#[derive(Debug)]
pub struct Registry {
    kinds: Arc<Kinds>,
    clock: Clock,
    rng: Rng,
    store: Store,
    cacher: Cacher,
    gates: FeatureGates,
    authorization: AuthorizationMode,
    /// The arrival of a read served again after waiting for the cache (`None`: the request
    /// being served arrived now).
    arrival: Option<Arrival>,
}

impl Registry {
    /// An empty registry; the cache keeps per-revision snapshots when the
    /// `ListFromCacheSnapshot` gate is on.
    pub fn new(clock: Clock, rng: Rng, gates: FeatureGates, mut cache: CacheConfig) -> Self {
        let store = Store::new();
        cache.snapshots = gates.enabled("ListFromCacheSnapshot");
        Registry {
            kinds: Arc::new(Kinds::builtin()),
            cacher: Cacher::new(cache, &store),
            store,
            clock,
            rng,
            gates,
            authorization: AuthorizationMode::default(),
            arrival: None,
        }
    }

    /// The kinds served.
    pub fn kinds(&self) -> &Arc<Kinds> {
        &self.kinds
    }

    /// Serves one more kind from now on (routing, discovery, OpenAPI, encodings).
    pub fn register_kind(&mut self, info: &'static ResourceInfo) -> Result<(), String> {
        Arc::make_mut(&mut self.kinds).register(info)
    }

    /// Serves the custom resources the stored CustomResourceDefinitions define now (the CRD
    /// handler's view of its informer); whether what is served changed.
    pub fn serve_definitions(&mut self) -> bool {
        let crds = self.live(&crate::resources::crd::CUSTOM_RESOURCE_DEFINITIONS, None);
        let maps = crds.iter().filter_map(Value::as_object);
        let mut kinds = (*self.kinds).clone();
        if !kinds.serve_definitions(maps, self.store.revision()) {
            return false;
        }
        // The CRD handler's storage of a resource no longer served, or served from a changed
        // definition, goes, and its watches end (not when the definition only starts
        // terminating).
        self.cacher.close_watches_unless(|r| match r.custom {
            None => true,
            Some(c) => kinds
                .lookup(r.group, r.version, r.plural)
                .and_then(|k| k.custom)
                .is_some_and(|k| k.storage_of == c.storage_of),
        });
        self.kinds = Arc::new(kinds);
        true
    }

    /// The clock.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// The clock, to move or replace it.
    pub fn clock_mut(&mut self) -> &mut Clock {
        &mut self.clock
    }

    /// The clock's time as objects carry it (RFC 3339, seconds).
    pub fn now_text(&self) -> String {
        crate::codec::rfc3339::format(self.clock.now_secs())
    }

    /// The seeded randomness (UIDs, generated names, watch timeouts).
    pub fn rng(&mut self) -> &mut Rng {
        &mut self.rng
    }

    /// The RNG's state, for export.
    pub fn rng_state(&self) -> u64 {
        self.rng.state()
    }

    /// The persistence layer (read-only: writes go through the operations).
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The watch cache (read-only).
    pub fn cache(&self) -> &WatchCache {
        self.cacher.cache()
    }

    /// The cache and its watchers.
    pub fn cacher(&self) -> &Cacher {
        &self.cacher
    }

    /// The cache and its watchers, to tune or service them.
    pub fn cacher_mut(&mut self) -> &mut Cacher {
        &mut self.cacher
    }

    /// The feature gates in force.
    pub fn feature_gates(&self) -> &FeatureGates {
        &self.gates
    }

    /// What the read planner chooses between.
    pub fn sources(&self) -> Sources<'_> {
        Sources {
            store: &self.store,
            cache: self.cacher.cache(),
            now_ms: self.clock.now_ms(),
            // A request arriving now, unless a waiting read is resumed.
            arrival: self.arrival.unwrap_or(Arrival {
                ms: self.clock.now_ms(),
                store_rev: self.store.revision(),
            }),
        }
    }

    /// Serves the next requests as having arrived at `arrival` (a read that waited for the
    /// cache, resumed), until set back to `None` (`api::serve` sets it around the request).
    pub fn set_arrival(&mut self, arrival: Option<Arrival>) {
        self.arrival = arrival;
    }

    /// Whether and for what a read must wait for the watch cache before it is served (the
    /// planner's [`Sources::wait`]); `None` to serve it now, and always for a read served
    /// again as of its arrival: its wait is over.
    pub fn cache_wait(&self, semantic: Semantic, read: Read) -> Option<Wait> {
        if self.arrival.is_some() {
            return None;
        }
        self.sources().wait(semantic, read)
    }

    /// Feeds due store events into the cache and on to the watchers.
    pub fn sync_cache(&mut self) {
        let now = self.clock.now_ms();
        self.cacher.sync(&self.store, now);
    }

    /// Compacts the store's history up to `rev` (the cache first takes everything it will
    /// need).
    pub fn compact_to(&mut self, rev: u64) {
        let now = self.clock.now_ms();
        self.cacher.drain(&self.store, now);
        self.store.compact(rev);
    }

    /// Replaces the whole state (an import): store, RNG, gates; the cache is rebuilt and
    /// watches end.
    pub fn replace(&mut self, store: Store, rng: Rng, gates: FeatureGates, lag_ms: i64) {
        let mut config = self.cache().config().clone();
        config.lag_ms = lag_ms;
        config.snapshots = gates.enabled("ListFromCacheSnapshot");
        self.cacher.reset(config, &store);
        self.store = store;
        self.rng = rng;
        self.gates = gates;
    }

    /// Loads canonical objects under their keys, one revision each, bypassing validation;
    /// the cache is rebuilt and watches end.
    pub fn load(&mut self, objects: impl IntoIterator<Item = (String, Value)>) {
        let now = self.clock.now_ms();
        self.store.load(objects, now);
        let config = self.cache().config().clone();
        self.cacher.reset(config, &self.store);
    }

    /// Writes `obj` at `key` at the next revision and feeds the change onward; the stored
    /// version is returned for the reply to send.
    fn commit_put(&mut self, key: &str, obj: &Value) -> crate::codec::Object {
        let stored = crate::codec::Object::encode(obj);
        self.store
            .put_object(key, stored.clone(), self.clock.now_ms());
        self.sync_cache();
        stored
    }

    /// Deletes `key`, whose lease has ended, as etcd does: at the next revision, with no
    /// checks (a finalizer does not hold it).
    pub(crate) fn expire(&mut self, key: &str) {
        self.commit_delete(key);
    }

    /// Deletes `key` at the next revision and feeds the change onward.
    fn commit_delete(&mut self, key: &str) -> Option<u64> {
        let rev = self.store.delete(key, self.clock.now_ms());
        self.sync_cache();
        rev
    }

    /// The 504 for a resourceVersion the server has not reached.
    pub fn too_large_resource_version(&self, requested: u64) -> ApiError {
        let current = self.cacher.cache().revision();
        crate::cache::planner::too_large_resource_version(requested, current, 1)
    }
}
