//! The cacher: the watch cache together with the watches it feeds (apiserver's `Cacher`).
//!
//! Store events reach the cache after its lag ([`Cacher::sync`]); each applied event is fanned
//! out to the watchers that want it, encoded once per distinct frame. Time passing ages the
//! cache's window and drives bookmarks and watch timeouts ([`Cacher::service`]).

use super::watchers::{self, Watcher};
use super::{CacheConfig, CachedEvent, WatchCache};
use crate::store::Store;

/// The watch cache and its watchers.
#[derive(Debug)]
pub struct Cacher {
    cache: WatchCache,
    watchers: Vec<Watcher>,
    next_watch_id: u64,
    /// Events dispatched to watchers, and frames encoded for them (encode-once accounting).
    dispatch_stats: (u64, u64),
}

impl Cacher {
    /// A cacher whose cache starts from the store's current state.
    pub fn new(config: CacheConfig, store: &Store) -> Self {
        Cacher {
            cache: WatchCache::new(config, store),
            watchers: Vec::new(),
            next_watch_id: 1,
            dispatch_stats: (0, 0),
        }
    }

    /// The watch cache (read-only).
    pub fn cache(&self) -> &WatchCache {
        &self.cache
    }

    /// Rebuilds the cache from the store (as after an apiserver restart); watches end.
    pub fn reset(&mut self, config: CacheConfig, store: &Store) {
        self.cache = WatchCache::new(config, store);
        self.watchers.clear();
    }

    /// Sets how long the cache lags behind the store (ms).
    pub fn set_lag(&mut self, lag_ms: i64) {
        self.cache.set_lag(lag_ms);
    }

    /// Feeds due store events into the cache and on to the watchers.
    pub fn sync(&mut self, store: &Store, now_ms: i64) {
        for ev in self.cache.catch_up(store, now_ms) {
            self.dispatch(&ev);
        }
    }

    /// Applies every pending store event at once (before the store compacts the history
    /// the cache still needs).
    pub fn drain(&mut self, store: &Store, now_ms: i64) {
        for ev in self.cache.catch_up(store, now_ms + i64::MAX / 4) {
            self.dispatch(&ev);
        }
    }

    fn dispatch(&mut self, ev: &CachedEvent) {
        if ev.corrupt_prev {
            // The storage watch cannot decode what was deleted: the cacher for this
            // resource fails, ends every watch of it (with no event) and relists, which
            // leaves the object out.
            self.watchers
                .retain(|w| !ev.key.starts_with(&w.filter.resource.key_prefix()));
            return;
        }
        let frames = watchers::dispatch(&mut self.watchers, ev);
        self.dispatch_stats.0 += 1;
        self.dispatch_stats.1 += frames as u64;
    }

    /// (events dispatched, frames encoded) since start: with encode-once fan-out the second
    /// stays at most one per distinct frame of each event, however many watchers there are.
    pub fn dispatch_stats(&self) -> (u64, u64) {
        self.dispatch_stats
    }

    /// A fresh watcher id.
    pub fn next_watch_id(&mut self) -> u64 {
        self.next_watch_id += 1;
        self.next_watch_id
    }

    /// Registers a watcher (its stream is already primed with any initial frames).
    pub fn add_watcher(&mut self, w: Watcher) {
        self.watchers.push(w);
    }

    /// Ends every watch (their streams finish).
    pub fn close_watches(&mut self) {
        self.watchers.clear();
    }

    /// Ends the watches of resources `served` no longer holds (their streams finish).
    pub fn close_watches_unless(
        &mut self,
        served: impl Fn(&crate::resources::ResourceInfo) -> bool,
    ) {
        self.watchers.retain(|w| served(w.filter.resource));
    }

    /// Number of open watches.
    pub fn watch_count(&self) -> usize {
        self.watchers.iter().filter(|w| w.is_open()).count()
    }

    /// Time passing: the cache's window ages, bookmarks go out, watches past their deadline
    /// end (with no ERROR event), and watches whose client left are dropped.
    pub fn service(&mut self, now: i64) {
        self.cache.expire(now);
        let cache_rv = self.cache.revision();
        self.watchers.retain_mut(|w| {
            if !w.is_open() {
                return false;
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
            now < w.deadline_ms
        });
    }
}
