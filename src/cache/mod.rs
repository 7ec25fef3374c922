//! The watch cache, modelled on kube-apiserver's cacher.
//!
//! It is fed from the store's change feed after a configurable lag, so reads it serves
//! (`resourceVersion=0`, Not-older-than) can be stale exactly as on a real cluster. It keeps a
//! window of recent events (bounded by time and size) from which watches resume, and — with
//! `ListFromCacheSnapshot` — a snapshot of its state at every revision in that window, from
//! which Exact and Continuation lists are served. Snapshots are persistent maps, so taking one
//! costs O(1) and a page read from one costs O(log n + page).

pub(crate) mod cacher;
pub mod frames;
pub mod items;
pub(crate) mod planner;
pub(crate) mod view;
pub(crate) mod watchers;

pub use cacher::Cacher;
pub use items::Items;

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
    /// The bytes a watcher may have queued for a client that does not read them; the write
    /// that would pass this closes the watch, as the real cacher closes a blocked watcher.
    pub watcher_buffer_bytes: usize,
}

impl Default for CacheConfig {
    fn default() -> Self {
        CacheConfig {
            lag_ms: 0,
            window_ms: 75_000,
            capacity: 100_000,
            snapshots: true,
            watcher_buffer_bytes: frames::DEFAULT_WATCHER_BUFFER_BYTES,
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
    /// The applied events still in the window, oldest first; each keeps the value it
    /// replaced, from which the state at any revision in the window is rebuilt.
    window: VecDeque<CachedEvent>,
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

    /// The cache's current state.
    pub fn state(&self) -> &OrdIndex<Object> {
        &self.state
    }

    /// The state at exactly `rev` (a snapshot, as the cacher's `ListFromCacheSnapshot`
    /// keeps one per event), when `rev` is in the window and snapshots are on.
    ///
    /// The cacher clones its B-tree at every event; here the state at `rev` is rebuilt when a
    /// read asks for it: the current state (shared, O(1)) with the window's newer events
    /// undone, newest first. The answer is the same, and a write no longer pays for (nor
    /// keeps, for the window's 75 s) a copy of its path through the index that most
    /// revisions never have read from.
    pub fn snapshot_at(&self, rev: u64) -> Option<OrdIndex<Object>> {
        if !self.config.snapshots {
            return None;
        }
        if rev == self.rv {
            return Some(self.state.clone());
        }
        // The state after the newest event at or before `rev`.
        let idx = self.window.partition_point(|e| e.rev <= rev);
        if idx == 0 || rev < self.oldest_rv {
            return None;
        }
        let mut snap = self.state.clone();
        for ev in self.window.iter().skip(idx).rev() {
            match &ev.prev {
                Some(prev) => snap.insert(ev.key.clone(), prev.clone()),
                None => snap.remove(&ev.key),
            };
        }
        Some(snap)
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

    /// Drops events beyond capacity or older than the window.
    fn prune(&mut self, now_ms: i64) {
        while let Some(front) = self.window.front() {
            let too_many = self.window.len() > self.config.capacity;
            let too_old = front.applied_ms + self.config.window_ms < now_ms;
            if !(too_many || too_old) {
                break;
            }
            self.oldest_rv = front.rev;
            self.window.pop_front();
        }
        // A burst leaves its capacity behind (72 B an event): give it back once the window
        // is a quarter of it, so memory follows the window and not its high-water mark.
        if self.window.capacity() > 64 && self.window.len() < self.window.capacity() / 4 {
            self.window.shrink_to_fit();
        }
    }

    /// Time passing on its own also ages the window.
    pub fn expire(&mut self, now_ms: i64) {
        self.prune(now_ms);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The keys and values of a state, for comparison.
    fn entries(state: &OrdIndex<Object>) -> Vec<(String, Vec<u8>)> {
        state
            .iter()
            .map(|(k, v)| (k.to_string(), v.json().to_vec()))
            .collect()
    }

    /// The store's own state at `rev`.
    fn store_at(store: &Store, rev: u64) -> Vec<(String, Vec<u8>)> {
        let page = store.range("/r/", None, rev, None, |_| true).unwrap();
        page.items
            .iter()
            .map(|o| {
                let k = o.decode()["k"].as_str().unwrap().to_string();
                (format!("/r/{k}"), o.json().to_vec())
            })
            .collect()
    }

    /// Every revision in the window reads as the store had it then: creates, updates and
    /// deletes undone from the current state, newest first, and a recreated key.
    #[test]
    fn a_snapshot_is_the_state_at_its_revision() {
        let mut store = Store::new();
        store.put("/r/a", json!({"k": "a", "v": 0}), 0);
        let mut cache = WatchCache::new(CacheConfig::default(), &store);
        let steps: &[(&str, Option<i64>)] = &[
            ("b", Some(1)),
            ("a", Some(2)),
            ("c", Some(3)),
            ("b", None),
            ("a", Some(4)),
            ("b", Some(5)),
            ("c", None),
        ];
        for (k, v) in steps {
            let key = format!("/r/{k}");
            match v {
                Some(v) => {
                    store.put(&key, json!({"k": k, "v": v}), 0);
                }
                None => {
                    store.delete(&key, 0);
                }
            }
            cache.catch_up(&store, 0);
        }
        for rev in 2..=store.revision() {
            let snap = cache.snapshot_at(rev).expect("in the window");
            assert_eq!(entries(&snap), store_at(&store, rev), "revision {rev}");
        }
        // Revision 1 came with the initial list, before the window's first event.
        assert!(cache.snapshot_at(1).is_none(), "before the window");
        let off = CacheConfig {
            snapshots: false,
            ..CacheConfig::default()
        };
        let cache = WatchCache::new(off, &store);
        assert!(cache.snapshot_at(store.revision()).is_none());
    }
}
