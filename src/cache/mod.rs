//! The watch cache, modelled on kube-apiserver's cacher.
//!
//! It is fed from the store's change feed after a configurable lag, so reads it serves
//! (`resourceVersion=0`, Not-older-than) can be stale exactly as on a real cluster. It keeps a
//! window of recent events (bounded by time and size) from which watches resume, and — with
//! `ListFromCacheSnapshot` — a snapshot of its state at every revision in that window, from
//! which Exact and Continuation lists are served. Snapshots are persistent maps, so taking one
//! costs O(1) and a page read from one costs O(log n + page).

pub(crate) mod cacher;
pub(crate) mod planner;
pub(crate) mod view;
pub(crate) mod watchers;

pub use cacher::Cacher;

use std::collections::VecDeque;

use crate::store::index::OrdIndex;
use crate::store::{Object, Store};

/// How the cache is tuned.
#[derive(Debug, Clone)]
pub struct CacheConfig {
    /// Delay between a write and the cache seeing it (ms).
    pub lag_ms: i64,
    /// Events younger than this are always kept (apiserver: 75 s).
    pub window_ms: i64,
    /// At most this many events are kept.
    pub capacity: usize,
    /// Keep a snapshot per revision (gate `ListFromCacheSnapshot`).
    pub snapshots: bool,
}

impl Default for CacheConfig {
    fn default() -> Self {
        CacheConfig {
            lag_ms: 0,
            window_ms: 75_000,
            capacity: 100_000,
            snapshots: true,
        }
    }
}

/// One change the cache has applied.
#[derive(Debug, Clone)]
pub struct CachedEvent {
    pub rev: u64,
    pub key: String,
    pub value: Option<Object>,
    pub prev: Option<Object>,
    /// When the cache applied it (engine clock).
    pub applied_ms: i64,
    /// The deleted value could not be read (an unsafe delete of a corrupt object).
    pub corrupt_prev: bool,
}

/// The cache's state.
#[derive(Debug, Clone)]
pub struct WatchCache {
    config: CacheConfig,
    /// The newest revision applied.
    rv: u64,
    state: OrdIndex<Object>,
    window: VecDeque<CachedEvent>,
    /// `snapshots[i]` is the state right after `window[i]`.
    snapshots: VecDeque<OrdIndex<Object>>,
    /// Watches may start from any revision >= this one.
    oldest_rv: u64,
}

impl WatchCache {
    /// A cache initialised from the store's current state (what the cacher's initial list does).
    pub fn new(config: CacheConfig, store: &Store) -> Self {
        let mut state = OrdIndex::new();
        for (key, obj) in store.live() {
            state.insert(key.to_string(), obj.clone());
        }
        WatchCache {
            config,
            rv: store.revision(),
            state,
            window: VecDeque::new(),
            snapshots: VecDeque::new(),
            oldest_rv: store.revision(),
        }
    }

    /// The newest revision the cache has seen.
    pub fn revision(&self) -> u64 {
        self.rv
    }

    /// The oldest revision a watch can start from.
    pub fn oldest_revision(&self) -> u64 {
        self.oldest_rv
    }

    /// The tuning in force.
    pub fn config(&self) -> &CacheConfig {
        &self.config
    }

    /// Changes the lag (the playground's "slow cache" knob).
    pub fn set_lag(&mut self, lag_ms: i64) {
        self.config.lag_ms = lag_ms.max(0);
    }

    /// Enables or disables per-revision snapshots.
    pub fn set_snapshots(&mut self, on: bool) {
        self.config.snapshots = on;
        if !on {
            self.snapshots.clear();
        }
    }

    /// The cache's current state.
    pub fn state(&self) -> &OrdIndex<Object> {
        &self.state
    }

    /// The state at exactly `rev`, if a snapshot for it is retained.
    pub fn snapshot_at(&self, rev: u64) -> Option<&OrdIndex<Object>> {
        if !self.config.snapshots || self.snapshots.len() != self.window.len() {
            return None;
        }
        if rev == self.rv {
            return Some(&self.state);
        }
        // The snapshot for `rev` is the one after the newest event at or before `rev`.
        let idx = self.window.partition_point(|e| e.rev <= rev);
        if idx == 0 || rev < self.oldest_rv {
            return None;
        }
        self.snapshots.get(idx - 1)
    }

    /// The events with revision greater than `rev` (oldest first), or `None` when `rev` is
    /// older than the window.
    pub fn events_after(&self, rev: u64) -> Option<impl Iterator<Item = &CachedEvent>> {
        if rev < self.oldest_rv {
            return None;
        }
        let start = self.window.partition_point(|e| e.rev <= rev);
        Some(self.window.iter().skip(start))
    }

    /// Applies the store's events that are due (written at least `lag` ago), returning them
    /// for dispatch to watchers.
    pub fn catch_up(&mut self, store: &Store, now_ms: i64) -> Vec<CachedEvent> {
        let lag = self.config.lag_ms;
        let mut applied = Vec::new();
        let Ok(pending) = store.events_after(self.rv) else {
            // The store compacted past what the cache has seen: relist, like the cacher does
            // when its etcd watch fails with "too old".
            *self = WatchCache::new(self.config.clone(), store);
            return applied;
        };
        for e in pending {
            if e.time_ms + lag > now_ms {
                break;
            }
            let ev = CachedEvent {
                rev: e.rev,
                key: e.key.clone(),
                value: e.value.clone(),
                prev: e.prev.clone(),
                applied_ms: now_ms,
                corrupt_prev: e.corrupt_prev,
            };
            match &ev.value {
                Some(v) => {
                    self.state.insert(ev.key.clone(), v.clone());
                }
                None => {
                    self.state.remove(&ev.key);
                }
            }
            self.rv = ev.rev;
            self.window.push_back(ev.clone());
            if self.config.snapshots {
                self.snapshots.push_back(self.state.clone());
            }
            applied.push(ev);
        }
        self.prune(now_ms);
        applied
    }

    /// When the cache applies revision `rev` (the lag after the store wrote it, as
    /// [`WatchCache::catch_up`] applies events); `None` while the store has not written it.
    pub fn reaches_ms(&self, store: &Store, rev: u64) -> Option<i64> {
        if rev > store.revision() {
            return None;
        }
        store
            .events_after(rev.saturating_sub(1))
            .ok()?
            .first()
            .map(|ev| ev.time_ms + self.config.lag_ms)
    }

    /// Drops events (and their snapshots) beyond capacity or older than the window.
    fn prune(&mut self, now_ms: i64) {
        while let Some(front) = self.window.front() {
            let too_many = self.window.len() > self.config.capacity;
            let too_old = front.applied_ms + self.config.window_ms < now_ms;
            if !(too_many || too_old) {
                break;
            }
            self.oldest_rv = front.rev;
            self.window.pop_front();
            self.snapshots.pop_front();
        }
        // A burst leaves its capacity behind (72 B an event): give it back once the window
        // is a quarter of it, so memory follows the window and not its high-water mark.
        if self.window.capacity() > 64 && self.window.len() < self.window.capacity() / 4 {
            self.window.shrink_to_fit();
            self.snapshots.shrink_to_fit();
        }
    }

    /// Time passing on its own also ages the window.
    pub fn expire(&mut self, now_ms: i64) {
        self.prune(now_ms);
    }
}
