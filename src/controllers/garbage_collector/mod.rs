//! The garbage collector (kube-controller-manager's `garbagecollector`), built as the real
//! one is: a graph builder fed by the store's change stream, and two work queues.
//!
//! - [`graph`] is the `GraphBuilder`: it turns each change of any stored kind into the
//!   ownership graph (`uidToNode`), with virtual nodes for owners not yet seen, and queues
//!   what may need work: the dependents of a deleted owner, the owner and dependents of one
//!   deleted in the foreground, an owner deleted with `Orphan`, an owner whose blocking
//!   dependent let go, a dependent whose owner reference looks wrong (and the Warning Event
//!   `OwnerRefInvalidNamespace`, [`events`], when it points into another namespace).
//! - [`workers`] are `attemptToDeleteItem` (classify the owner references against live
//!   reads, then delete with the right policy or drop dangling references) and
//!   `attemptToOrphanWorker` (drop the owner from its dependents, then the `orphan`
//!   finalizer).
//!
//! Time: the real collector sees a change within milliseconds and works through its queues
//! at once. kubesim gives each item a change queues `delay_ms` of simulated time (default
//! one second) before a worker takes it (what a worker queues itself is taken at once), so
//! a cascade unfolds one level per delay,
//! deterministically, and can be watched (`Engine::advance` stops at each due time). Items
//! that fail (an owner kind the server does not serve) are retried with the work queue's
//! exponential backoff (5 ms doubling, at most 1000 s), never before `delay_ms`.

mod events;
mod graph;
mod workers;

use std::collections::{BTreeMap, BTreeSet};

use crate::registry::Registry;
use graph::Graph;

/// The default delay: the real collector acts within about a second.
pub const DEFAULT_DELAY_MS: i64 = 1000;
/// At most this many queue items per tick (a longer cascade goes on at the next tick).
const MAX_STEPS: usize = 10_000;
/// The work queue's rate limiter: 5 ms, doubling per failure, at most 1000 s.
const BACKOFF_BASE_MS: i64 = 5;
const BACKOFF_MAX_MS: i64 = 1_000_000;

/// The collector, held by the engine.
#[derive(Debug, Clone)]
pub struct GarbageCollector {
    delay_ms: i64,
    /// The store revision the graph has seen; `None` before the first list.
    seen: Option<u64>,
    graph: Graph,
}

impl Default for GarbageCollector {
    fn default() -> Self {
        GarbageCollector::new(DEFAULT_DELAY_MS)
    }
}

impl GarbageCollector {
    /// A collector whose workers take each item `delay_ms` after it was queued.
    pub fn new(delay_ms: i64) -> Self {
        GarbageCollector {
            delay_ms: delay_ms.max(0),
            seen: None,
            graph: Graph::default(),
        }
    }

    /// The collector after a restart of kube-controller-manager: the same settings, an
    /// empty graph rebuilt from a fresh list.
    pub fn restarted(&self) -> Self {
        GarbageCollector::new(self.delay_ms)
    }

    /// When a queued item is next due, if any.
    pub fn next_due(&self) -> Option<i64> {
        self.graph.queue.next_due()
    }

    /// Takes in the store's changes and runs the queue items that are due.
    pub fn run(&mut self, reg: &mut Registry) {
        let now = reg.clock().now_ms();
        for _ in 0..MAX_STEPS {
            self.observe(reg, now);
            let Some(item) = self.graph.queue.pop_due(now) else {
                break;
            };
            // What a worker queues itself (the dependents of an owner it found absent) is
            // taken at once; only what follows from a change waits for the delay.
            let outcome = match item {
                Item::Delete(uid) => workers::attempt_to_delete(&mut self.graph, reg, uid, now),
                Item::Orphan(uid) => workers::attempt_to_orphan(&mut self.graph, reg, uid),
            };
            match outcome {
                Outcome::Forget(item) => {
                    self.graph.queue.failures.remove(&item);
                }
                Outcome::Requeue(item) => {
                    self.graph.queue.add_rate_limited(item, now, self.delay_ms)
                }
            }
        }
        self.observe(reg, now);
    }

    /// The graph builder's informers: the store's changes since the last look, or a new
    /// list when the history no longer reaches back that far.
    fn observe(&mut self, reg: &mut Registry, now: i64) {
        let rev = reg.store().revision();
        if self.seen == Some(rev) {
            return;
        }
        let at = now + self.delay_ms;
        let events = self.seen.map(|seen| reg.store().events_after(seen));
        match events {
            Some(Ok(events)) => {
                for e in events {
                    let prev = e.prev.as_ref().map(graph::metadata_of);
                    let cur = e.value.as_ref().map(graph::metadata_of);
                    self.graph.change(prev.as_ref(), cur.as_ref(), at);
                }
            }
            _ => self.graph.relist(reg, at),
        }
        self.seen = Some(rev);
        let reports = std::mem::take(&mut self.graph.reports);
        for (dependent, owner_ref) in reports {
            events::record(reg, &dependent, &owner_ref);
        }
    }
}

/// A work queue item: a node's uid in `attemptToDelete` or `attemptToOrphan`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Item {
    Delete(String),
    Orphan(String),
}

/// What a worker made of an item (`workQueueItemAction`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Outcome {
    /// Done with it: forget its failures.
    Forget(Item),
    /// Failed: again after the backoff.
    Requeue(Item),
}

/// A work queue: each item at most once, taken in due order (then in the order queued).
#[derive(Debug, Clone, Default)]
pub(super) struct Queue {
    due: BTreeMap<Item, (i64, u64)>,
    order: BTreeSet<(i64, u64, Item)>,
    seq: u64,
    failures: BTreeMap<Item, u32>,
}

impl Queue {
    /// Queues `item` for `at`; one queued already keeps the earlier of its two times (as
    /// client-go's delaying queue keeps the earliest ready time).
    pub(super) fn add(&mut self, item: Item, at: i64) {
        if let Some(&(queued, seq)) = self.due.get(&item) {
            if queued <= at {
                return;
            }
            self.order.remove(&(queued, seq, item.clone()));
        }
        self.seq += 1;
        self.due.insert(item.clone(), (at, self.seq));
        self.order.insert((at, self.seq, item));
    }

    /// Queues `item` again after its backoff (`AddRateLimited`).
    pub(super) fn add_rate_limited(&mut self, item: Item, now: i64, delay_ms: i64) {
        let failures = self.failures.entry(item.clone()).or_insert(0);
        let backoff = BACKOFF_BASE_MS
            .saturating_mul(1i64 << (*failures).min(30))
            .min(BACKOFF_MAX_MS);
        *failures += 1;
        self.add(item, now + backoff.max(delay_ms));
    }

    pub(super) fn contains(&self, item: &Item) -> bool {
        self.due.contains_key(item)
    }

    pub(super) fn pop_due(&mut self, now: i64) -> Option<Item> {
        let first = self.order.first().cloned()?;
        if first.0 > now {
            return None;
        }
        self.order.remove(&first);
        self.due.remove(&first.2);
        Some(first.2)
    }

    pub(super) fn next_due(&self) -> Option<i64> {
        self.order.first().map(|(at, _, _)| *at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An item queued again keeps the earlier time: a change to an item waiting out its
    /// backoff is looked at after the usual delay, not after the backoff.
    #[test]
    fn a_queued_item_keeps_its_earliest_time() {
        let mut q = Queue::default();
        let item = || Item::Delete("u".into());
        q.add(item(), 5_000);
        q.add(item(), 9_000);
        assert_eq!(q.next_due(), Some(5_000));
        q.add(item(), 1_000);
        assert_eq!(q.next_due(), Some(1_000));
        assert_eq!(q.pop_due(1_000), Some(item()));
        assert_eq!(q.pop_due(10_000), None);
    }

    /// The graph builder's view of an object is its decoded type and tracked metadata,
    /// whether read from the JSON directly or (a mistyped field) from the decoded object.
    #[test]
    fn the_graph_sees_type_and_tracked_metadata() {
        use serde_json::json;
        let full = json!({
            "kind": "ConfigMap", "apiVersion": "v1",
            "metadata": {
                "name": "a", "namespace": "ns", "uid": "u1",
                "deletionTimestamp": "2026-01-01T00:00:00Z",
                "finalizers": ["foregroundDeletion"],
                "ownerReferences": [{"apiVersion": "v1", "kind": "ConfigMap", "name": "o",
                    "uid": "u0", "blockOwnerDeletion": true}],
                "managedFields": [{"manager": "m", "fieldsV1": {"f:data": {}}}],
                "labels": {"x": "y"}
            },
            "data": {"k": "v"}
        });
        let mut want = full.clone();
        want.as_object_mut().unwrap().remove("data");
        let meta = want["metadata"].as_object_mut().unwrap();
        meta.remove("managedFields");
        meta.remove("labels");
        let seen = graph::metadata_of(&crate::codec::Object::new(full));
        assert_eq!(seen, want);
        assert_eq!(
            seen["metadata"]
                .as_object()
                .unwrap()
                .keys()
                .collect::<Vec<_>>(),
            want["metadata"]
                .as_object()
                .unwrap()
                .keys()
                .collect::<Vec<_>>()
        );

        let odd = json!({"kind": "ConfigMap", "metadata": {"name": 7, "uid": "u"}, "data": {}});
        let seen = graph::metadata_of(&crate::codec::Object::new(odd));
        assert_eq!(
            seen,
            json!({"kind": "ConfigMap", "metadata": {"name": 7, "uid": "u"}})
        );
    }
}
