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

/// How long the cache waits for a requested revision before giving up (apiserver:
/// `blockTimeout`, 3 s).
pub const CACHE_WAIT_MS: i64 = 3_000;

/// Which kind of read is planned: they wait for the cache differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Read {
    Get,
    List,
    /// A watch; `initial_events` when it sends the state it starts from
    /// (`sendInitialEvents=true`, given or defaulted by `WatchList`).
    Watch {
        initial_events: bool,
    },
}

/// When a read arrived and the store's revision then: a consistent read's target (what
/// `getCurrentRV` asks etcd for) and where its 3 s wait began. A read that waited is planned
/// again when the wait ends, with the arrival it had.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arrival {
    pub ms: i64,
    pub store_rev: u64,
}

/// The planner's inputs: the two layers a read can come from, the time, and when the read
/// arrived.
#[derive(Clone, Copy)]
pub struct Sources<'a> {
    pub store: &'a Store,
    pub cache: &'a WatchCache,
    pub now_ms: i64,
    pub arrival: Arrival,
}

/// A read's wait for the watch cache: the revision it needs, when it gives up (3 s after its
/// arrival), and when it is next due to be looked at (the moment the cache will have the
/// revision, if the store has it, else the deadline).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wait {
    pub needed: u64,
    pub due_ms: i64,
    pub arrival: Arrival,
}

impl Wait {
    /// When the read gives up waiting: 3 s after its arrival.
    pub fn deadline_ms(&self) -> i64 {
        self.arrival.ms + CACHE_WAIT_MS
    }

    /// Whether the wait is over: the cache has the revision, or the time is up. The read is
    /// then planned (as of its arrival) and answered.
    pub fn over(&self, cache_rev: u64, now_ms: i64) -> bool {
        cache_rev >= self.needed || now_ms >= self.deadline_ms()
    }
}

impl<'a> Sources<'a> {
    /// Whether the read must first wait for the watch cache (`waitUntilFreshAndBlock`), and
    /// for what: the cache reaching the revision the read needs, for at most 3 s after its
    /// arrival. `None`: it is served now — from a cache fresh enough, from a source that is
    /// no cache, or (the wait over) with the 504 or etcd fallback the plan gives.
    pub fn wait(&self, semantic: Semantic, read: Read) -> Option<Wait> {
        let needed = self.needed(semantic, read)?;
        let mut wait = Wait {
            needed,
            due_ms: 0,
            arrival: self.arrival,
        };
        if wait.over(self.cache.revision(), self.now_ms) {
            return None;
        }
        wait.due_ms = self.due(&wait);
        Some(wait)
    }

    /// When `wait` is next due: the cache's lag after the store wrote the revision it needs
    /// (once the store has), capped by its deadline.
    pub fn due(&self, wait: &Wait) -> i64 {
        let deadline = wait.deadline_ms();
        self.cache
            .reaches_ms(self.store, wait.needed)
            .map_or(deadline, |t| t.min(deadline))
            .max(self.now_ms)
    }

    /// The revision the cache must reach before it serves the read, as the cacher decides
    /// (`shouldDelegateList`, `WaitUntilFreshAndGet`, `getWatchCacheResourceVersion`); `None`
    /// when the read takes any state or does not read the cache. A Most Recent get goes to
    /// etcd; Exact and continued lists read the cache only with snapshots
    /// (`ListFromCacheSnapshot`); a watch waits only when it sends initial events.
    fn needed(&self, semantic: Semantic, read: Read) -> Option<u64> {
        let snapshots = self.cache.config().snapshots;
        match (read, semantic) {
            (_, Semantic::Any)
            | (Read::Get, Semantic::MostRecent)
            | (
                Read::Watch {
                    initial_events: false,
                },
                _,
            ) => None,
            (_, Semantic::MostRecent) => Some(self.arrival.store_rev),
            (_, Semantic::NotOlderThan(n)) => Some(n),
            (Read::List, Semantic::Exact(n)) if snapshots => Some(n),
            (Read::List, Semantic::Continuation(rv)) if snapshots => {
                Some(u64::try_from(rv).unwrap_or(self.arrival.store_rev))
            }
            _ => None,
        }
    }

    /// How long the read has waited for the cache.
    fn waited_ms(&self) -> i64 {
        (self.now_ms - self.arrival.ms).max(0)
    }

    /// Where a get is served from (after any [`Sources::wait`]): Most Recent from the
    /// store, Any from the cache's state, Not older than from the cache (or 504).
    pub fn plan_get(&self, semantic: Semantic) -> Result<Plan<'a>, ApiError> {
        match semantic {
            Semantic::MostRecent => Ok(self.store_at(self.store.revision(), semantic)),
            Semantic::Any => Ok(self.cache_state(semantic)),
            Semantic::NotOlderThan(n) => self.not_older_than(n),
            Semantic::Exact(n) => self.exact(n, semantic),
            Semantic::Continuation(_) => Ok(self.consistent(semantic)),
        }
    }

    /// Where a list is served from (`shouldDelegateList`, after any [`Sources::wait`]): Most
    /// Recent is a consistent read (the cache once it has caught up, else etcd); Any and Not
    /// older than come from the cache; Exact and Continuation from a cache snapshot when one
    /// is kept, else the store.
    pub fn plan_list(&self, semantic: Semantic) -> Result<Plan<'a>, ApiError> {
        match semantic {
            Semantic::MostRecent => Ok(self.consistent(semantic)),
            Semantic::Any => Ok(self.cache_state(semantic)),
            Semantic::NotOlderThan(n) => self.not_older_than(n),
            Semantic::Exact(n) => self.exact(n, semantic),
            // Without snapshots every continuation goes to etcd (`ShouldDelegateContinue`),
            // an inconsistent one at its latest revision.
            Semantic::Continuation(rv) if rv < 0 && !self.cache.config().snapshots => {
                Ok(self.store_at(self.store.revision(), semantic))
            }
            Semantic::Continuation(rv) if rv < 0 => Ok(self.consistent(semantic)),
            Semantic::Continuation(rv) => self.exact(rv as u64, semantic),
        }
    }

    /// Where a watch starts: the revision of its initial state. With initial events, Most
    /// Recent is the store's revision when the watch arrived (the cache was waited on to
    /// reach it); a legacy watch without them starts from the cache's state as it is
    /// (`getAllEventsSinceLocked(0)`), as does Any; Not older than and Exact start at the
    /// revision asked for.
    pub fn watch_start(&self, semantic: Semantic, initial_events: bool) -> u64 {
        match semantic {
            Semantic::MostRecent if initial_events => self.arrival.store_rev,
            Semantic::MostRecent | Semantic::Any => self.cache.revision(),
            Semantic::Continuation(_) => self.store.revision(),
            Semantic::NotOlderThan(n) | Semantic::Exact(n) => n,
        }
    }

    /// The `X-Kubesim-Read` of a watch starting at `rv` (always the watch cache).
    pub fn explain_watch(&self, semantic: Semantic, rv: u64) -> String {
        explain(semantic.name(), Source::WatchCache, rv, self.waited_ms())
    }

    fn store_at(&self, rev: u64, semantic: Semantic) -> Plan<'a> {
        Plan {
            view: View::Store(self.store, rev),
            rv: rev,
            source: Source::Store,
            waited_ms: self.waited_ms(),
            semantic,
        }
    }

    fn cache_state(&self, semantic: Semantic) -> Plan<'a> {
        Plan {
            view: View::Index(self.cache.state().clone()),
            rv: self.cache.revision(),
            source: Source::WatchCache,
            waited_ms: self.waited_ms(),
            semantic,
        }
    }

    /// A consistent read: from the cache once it has reached the store's revision at the
    /// read's arrival (later writes it holds by then included), else — its wait over —
    /// from the store as it is now (the delegator's fallback to etcd).
    fn consistent(&self, semantic: Semantic) -> Plan<'a> {
        if self.cache.revision() >= self.arrival.store_rev {
            self.cache_state(semantic)
        } else {
            self.store_at(self.store.revision(), semantic)
        }
    }

    /// Exactly `rev`. With snapshots the cacher serves it once the cache has reached it (a
    /// cache still short of it after the wait is a 504 naming the cache's revision), from
    /// its snapshot when one is kept, else etcd (410 once compacted). Without snapshots the
    /// read goes to etcd, whose 504 for a future revision names its own revision and asks
    /// for no retry.
    fn exact(&self, rev: u64, semantic: Semantic) -> Result<Plan<'a>, ApiError> {
        let current = self.store.revision();
        if self.cache.config().snapshots && rev > self.cache.revision() {
            return Err(too_large_resource_version(rev, self.cache.revision(), 1));
        }
        if rev > current {
            return Err(too_large_resource_version(rev, current, 0));
        }
        Ok(match self.cache.snapshot_at(rev) {
            Some(snap) => Plan {
                view: View::Index(snap),
                rv: rev,
                source: Source::CacheSnapshot,
                waited_ms: self.waited_ms(),
                semantic,
            },
            None => self.store_at(rev, semantic),
        })
    }

    /// Not older than `n` from the watch cache (after any wait): its state once it has
    /// reached `n`, otherwise 504 "Too large resource version".
    fn not_older_than(&self, n: u64) -> Result<Plan<'a>, ApiError> {
        if self.cache.revision() >= n {
            return Ok(self.cache_state(Semantic::NotOlderThan(n)));
        }
        Err(too_large_resource_version(n, self.cache.revision(), 1))
    }
}

/// The 504 for a resourceVersion the server has not reached (after the watch cache's 3 s
/// wait).
/// `retry_seconds` as `NewTooLargeResourceVersionError` takes it: the watch cache asks for a
/// retry after 1 s, etcd for none (0: no `retryAfterSeconds`, no `Retry-After`).
pub fn too_large_resource_version(requested: u64, current: u64, retry_seconds: i32) -> ApiError {
    let mut e = ApiError::timeout(format_args!(
        "Too large resource version: {requested}, current: {current}"
    ));
    e.details = Some(Box::new(Details {
        causes: vec![Cause {
            reason: "ResourceVersionTooLarge".into(),
            message: "Too large resource version".into(),
            field: None,
        }],
        retry_after_seconds: (retry_seconds > 0).then_some(retry_seconds),
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
