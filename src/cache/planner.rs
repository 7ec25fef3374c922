//! The read planner, as the cacher's `delegator.go`: the one place that decides, for a get,
//! a list or a watch, which of the spec's semantics applies (Most Recent, Any, Not older
//! than, Exact, Continuation), where the read is served from (the store, the watch cache, or a
//! cache snapshot) and at which resourceVersion — and that explains the decision in
//! `X-Kubesim-Read`.
//!
//! Nothing else chooses a read source: the registry asks for a [`Plan`] and reads one page
//! from its [`View`].

use super::view::{Source, View};
use super::WatchCache;
use crate::resources::status::{ApiError, Cause, Details};
use crate::store::Store;

/// How a read is to be served, from the spec's resourceVersion tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Semantic {
    MostRecent,
    Any,
    NotOlderThan(u64),
    Exact(u64),
    /// A continue token's snapshot revision (`-1`: an inconsistent continuation, latest).
    Continuation(i64),
}

impl Semantic {
    /// The spec's name for it.
    pub fn name(&self) -> &'static str {
        match self {
            Semantic::MostRecent => "MostRecent",
            Semantic::Any => "Any",
            Semantic::NotOlderThan(_) => "NotOlderThan",
            Semantic::Exact(_) => "Exact",
            Semantic::Continuation(_) => "Continuation",
        }
    }

    /// A list, from the (validated) `resourceVersion`, `resourceVersionMatch`, continue token
    /// and whether a limit was given. `rv` is the raw parameter (`""` when unset); `parsed`
    /// its value.
    pub fn for_list(
        rv: &str,
        parsed: u64,
        rvm: &str,
        token_rv: Option<i64>,
        limited: bool,
    ) -> Semantic {
        if let Some(t) = token_rv {
            return Semantic::Continuation(t);
        }
        match (rvm, rv) {
            (_, "") => Semantic::MostRecent,
            ("Exact", _) => Semantic::Exact(parsed),
            (_, "0") => Semantic::Any,
            ("NotOlderThan", _) => Semantic::NotOlderThan(parsed),
            // A limited list at a revision is an Exact read of that snapshot.
            (_, _) if limited => Semantic::Exact(parsed),
            _ => Semantic::NotOlderThan(parsed),
        }
    }

    /// Whether a list with this semantic honours `limit` (rv=0 lists come whole from the
    /// cache).
    pub fn pages(&self) -> bool {
        *self != Semantic::Any
    }
}

/// What the planner decided: the view to read, at which revision, from where, and how long
/// the cache would have made the request wait.
pub struct Plan<'a> {
    pub view: View<'a>,
    pub rv: u64,
    pub source: Source,
    pub waited_ms: i64,
    pub semantic: Semantic,
}

impl Plan<'_> {
    /// The `X-Kubesim-Read` value.
    pub fn explain(&self) -> String {
        explain(self.semantic.name(), self.source, self.rv, self.waited_ms)
    }
}

fn explain(semantic: &str, source: Source, rv: u64, waited_ms: i64) -> String {
    let mut s = format!("semantic={semantic}; source={}; rv={rv}", source.as_str());
    if waited_ms > 0 {
        s.push_str(&format!("; waited-ms={waited_ms}"));
    }
    s
}

/// How long the cache waits for a requested revision before giving up (apiserver: 3 s).
pub const CACHE_WAIT_MS: i64 = 3_000;

/// The planner's inputs: the two layers a read can come from, and the time.
#[derive(Clone, Copy)]
pub struct Sources<'a> {
    pub store: &'a Store,
    pub cache: &'a WatchCache,
    pub now_ms: i64,
}

impl<'a> Sources<'a> {
    /// Where a get is served from: Most Recent from the store, Any from the cache's state,
    /// Not older than from the cache (after its wait, or 504).
    pub fn plan_get(&self, semantic: Semantic) -> Result<Plan<'a>, ApiError> {
        match semantic {
            Semantic::MostRecent => Ok(self.store_at(self.store.revision(), semantic)),
            Semantic::Any => Ok(self.cache_state(semantic)),
            Semantic::NotOlderThan(n) => self.not_older_than(n),
            Semantic::Exact(n) => self.exact(n, semantic),
            Semantic::Continuation(_) => Ok(self.consistent(semantic)),
        }
    }

    /// Where a list is served from (`shouldDelegateList`): Most Recent is a consistent read
    /// (the cache once caught up, else the store); Any and Not older than come from the
    /// cache; Exact and Continuation from a cache snapshot when one is kept, else the store.
    pub fn plan_list(&self, semantic: Semantic) -> Result<Plan<'a>, ApiError> {
        match semantic {
            Semantic::MostRecent => Ok(self.consistent(semantic)),
            Semantic::Any => Ok(self.cache_state(semantic)),
            Semantic::NotOlderThan(n) => self.not_older_than(n),
            Semantic::Exact(n) => self.exact(n, semantic),
            Semantic::Continuation(rv) if rv < 0 => Ok(self.consistent(semantic)),
            Semantic::Continuation(rv) => self.exact(rv as u64, semantic),
        }
    }

    /// Where a watch starts: the revision of its initial state (Most Recent: the store's;
    /// Any: the cache's; Not older than / Exact: the one asked for). A watch always reads
    /// the watch cache.
    pub fn watch_start(&self, semantic: Semantic) -> u64 {
        match semantic {
            Semantic::MostRecent | Semantic::Continuation(_) => self.store.revision(),
            Semantic::Any => self.cache.revision(),
            Semantic::NotOlderThan(n) | Semantic::Exact(n) => n,
        }
    }

    /// The `X-Kubesim-Read` of a watch starting at `rv` (always the watch cache).
    pub fn explain_watch(&self, semantic: Semantic, rv: u64) -> String {
        explain(semantic.name(), Source::WatchCache, rv, 0)
    }

    fn store_at(&self, rev: u64, semantic: Semantic) -> Plan<'a> {
        Plan {
            view: View::Store(self.store, rev),
            rv: rev,
            source: Source::Store,
            waited_ms: 0,
            semantic,
        }
    }

    fn cache_state(&self, semantic: Semantic) -> Plan<'a> {
        Plan {
            view: View::Index(self.cache.state().clone()),
            rv: self.cache.revision(),
            source: Source::WatchCache,
            waited_ms: 0,
            semantic,
        }
    }

    /// A consistent read: from the cache when it has caught up with the store, else the store.
    fn consistent(&self, semantic: Semantic) -> Plan<'a> {
        let current = self.store.revision();
        if self.cache.revision() == current {
            self.cache_state(semantic)
        } else {
            self.store_at(current, semantic)
        }
    }

    /// Exactly `rev`: a cache snapshot when one is kept, else the store (410 once compacted).
    /// A future `rev` is the cacher's 504 with snapshots (`ListFromCacheSnapshot`); without,
    /// the cacher hands the read to etcd, whose 504 names its own revision and asks for no
    /// retry.
    fn exact(&self, rev: u64, semantic: Semantic) -> Result<Plan<'a>, ApiError> {
        let current = self.store.revision();
        if rev > current {
            return Err(match self.cache.config().snapshots {
                true => too_large_resource_version(rev, self.cache.revision()),
                false => {
                    let mut e = too_large_resource_version(rev, current);
                    if let Some(d) = e.details.as_mut() {
                        d.retry_after_seconds = None;
                    }
                    e
                }
            });
        }
        Ok(match self.cache.snapshot_at(rev) {
            Some(snap) => Plan {
                view: View::Index(snap.clone()),
                rv: rev,
                source: Source::CacheSnapshot,
                waited_ms: 0,
                semantic,
            },
            None => self.store_at(rev, semantic),
        })
    }

    /// Not older than `n` from the watch cache: its state if it has reached `n`; otherwise
    /// the state it will have once it has, if that happens within the cache's 3 s wait;
    /// otherwise 504 "Too large resource version".
    fn not_older_than(&self, n: u64) -> Result<Plan<'a>, ApiError> {
        let semantic = Semantic::NotOlderThan(n);
        let (store, cache) = (self.store, self.cache);
        if cache.revision() >= n {
            return Ok(self.cache_state(semantic));
        }
        if n <= store.revision() {
            if let Ok(events) = store.events_after(n - 1) {
                if let Some(ev) = events.first() {
                    let due = ev.time_ms + cache.config().lag_ms;
                    let wait = due - self.now_ms;
                    if wait <= CACHE_WAIT_MS {
                        let rv = store.revision_at_time(ev.time_ms).unwrap_or(n).max(n);
                        return Ok(Plan {
                            view: View::Store(store, rv),
                            rv,
                            source: Source::WatchCache,
                            waited_ms: wait.max(0),
                            semantic,
                        });
                    }
                }
            }
        }
        Err(too_large_resource_version(n, cache.revision()))
    }
}

/// The 504 for a resourceVersion the server has not reached (after the watch cache's wait,
/// which kubesim does not spend: nothing can arrive while a request is served).
pub fn too_large_resource_version(requested: u64, current: u64) -> ApiError {
    let mut e = ApiError::untyped(
        504,
        format!("Timeout: Too large resource version: {requested}, current: {current}"),
    );
    e.reason = "Timeout";
    e.details = Some(Box::new(Details {
        causes: vec![Cause {
            reason: "ResourceVersionTooLarge".into(),
            message: "Too large resource version".into(),
            field: None,
        }],
        retry_after_seconds: Some(1),
        ..Default::default()
    }));
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The spec's list table: resourceVersion × resourceVersionMatch (× limit, × continue).
    #[test]
    fn list_semantics_table() {
        let cases = [
            // (rv, rvm, token, limited, semantic)
            ("", "", None, false, Semantic::MostRecent),
            ("", "", None, true, Semantic::MostRecent),
            ("0", "", None, false, Semantic::Any),
            ("0", "", None, true, Semantic::Any),
            ("0", "NotOlderThan", None, false, Semantic::Any),
            ("7", "", None, false, Semantic::NotOlderThan(7)),
            ("7", "", None, true, Semantic::Exact(7)),
            ("7", "NotOlderThan", None, true, Semantic::NotOlderThan(7)),
            ("7", "Exact", None, false, Semantic::Exact(7)),
            ("", "", Some(5), true, Semantic::Continuation(5)),
            ("", "", Some(-1), true, Semantic::Continuation(-1)),
        ];
        for (rv, rvm, token, limited, want) in cases {
            let parsed = rv.parse().unwrap_or(0);
            assert_eq!(
                Semantic::for_list(rv, parsed, rvm, token, limited),
                want,
                "rv={rv:?} rvm={rvm:?} token={token:?} limited={limited}"
            );
        }
        assert!(!Semantic::Any.pages());
        assert!(Semantic::Exact(3).pages());
    }

    #[test]
    fn explanations_name_semantic_source_and_revision() {
        assert_eq!(
            explain("Exact", Source::CacheSnapshot, 9, 0),
            "semantic=Exact; source=cache-snapshot; rv=9"
        );
        assert_eq!(
            explain("NotOlderThan", Source::WatchCache, 4, 1500),
            "semantic=NotOlderThan; source=watch-cache; rv=4; waited-ms=1500"
        );
    }
}
