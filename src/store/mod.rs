//! The persistence layer, modelled on etcd.
//!
//! One global revision counter is every object's `metadata.resourceVersion`, so versions are
//! ordered within and across types exactly as on a real cluster. Every key keeps its history
//! (until compaction), which is what reads at past revisions, continue tokens and watches from a
//! resourceVersion are built on. A range read walks the ordered key space from a start key and
//! stops after `limit` hits, so a page costs O(page + skipped), never O(collection).

pub mod corrupt;
pub(crate) mod index;
mod persist;

pub use corrupt::{CorruptKey, Corruption};

use std::collections::BTreeMap;
use std::ops::Bound;
use std::sync::Arc;

use serde_json::Value;

/// A stored object: the full JSON, with `metadata.resourceVersion` already set to its revision.
pub use crate::codec::Object;

/// One version of one key.
#[derive(Debug, Clone)]
struct Version {
    /// The revision that wrote this version.
    mod_rev: u64,
    /// `None` is a tombstone (the key was deleted at `mod_rev`).
    value: Option<Object>,
}

/// What happened at one revision: the change feed watches and the watch cache consume.
#[derive(Debug, Clone)]
pub struct Event {
    pub rev: u64,
    /// When the write happened (engine clock, ms): drives cache lag and history retention.
    pub time_ms: i64,
    pub key: String,
    /// The new value; `None` for a deletion.
    pub value: Option<Object>,
    /// The value before this change, if the key existed.
    pub prev: Option<Object>,
    /// The previous value could not be read (a corrupt object removed by an unsafe delete).
    pub corrupt_prev: bool,
}

/// Why a store operation failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreError {
    /// The requested revision was compacted away.
    Compacted { requested: u64, compacted: u64 },
    /// The requested revision is newer than the store's.
    FutureRevision { requested: u64, current: u64 },
    /// Values that could not be read.
    Corrupt(Vec<CorruptKey>),
}

/// The key-value store with revision history.
#[derive(Debug, Default)]
pub struct Store {
    rev: u64,
    compacted: u64,
    keys: BTreeMap<String, Vec<Version>>,
    events: Vec<Event>,
    /// Keys whose current value cannot be read, and how.
    corrupt: BTreeMap<String, Corruption>,
    /// The bytes of a value's raw field (a ControllerRevision's `data`) as the client wrote
    /// them, where they differ from its compact JSON: etcd keeps the bytes, and the real
    /// server compares them. Kept across the server's own rewrites of the object (a deletion
    /// mark keeps the bytes it decoded); the registry sets or drops them on every client
    /// write, a delete or a load drops them.
    raw_texts: BTreeMap<String, Arc<str>>,
}

impl Store {
    /// An empty store at revision 0.
    pub fn new() -> Self {
        Store::default()
    }

    /// The newest revision (what a consistent read observes).
    pub fn revision(&self) -> u64 {
        self.rev
    }

    /// The revision the next write will get.
    pub fn next_revision(&self) -> u64 {
        self.rev + 1
    }

    /// The newest compacted revision: reads and watches at older revisions fail.
    pub fn compacted_revision(&self) -> u64 {
        self.compacted
    }

    /// The current value of `key`.
    pub fn get(&self, key: &str) -> Option<&Object> {
        self.keys
            .get(key)
            .and_then(|h| h.last())
            .and_then(|v| v.value.as_ref())
    }

    /// The value of `key` as of revision `rev`.
    pub fn get_at(&self, key: &str, rev: u64) -> Result<Option<&Object>, StoreError> {
        self.check_readable(rev)?;
        Ok(self.keys.get(key).and_then(|h| value_at(h, rev)))
    }

    /// Checks that a read at `rev` can be served (not compacted, not in the future).
    pub fn check_readable(&self, rev: u64) -> Result<(), StoreError> {
        if rev > self.rev {
            return Err(StoreError::FutureRevision {
                requested: rev,
                current: self.rev,
            });
        }
        if rev < self.compacted {
            return Err(StoreError::Compacted {
                requested: rev,
                compacted: self.compacted,
            });
        }
        Ok(())
    }

    /// Writes `value` under `key` at the next revision. The caller has already stamped
    /// `metadata.resourceVersion` with [`Store::next_revision`].
    pub fn put(&mut self, key: &str, value: Value, time_ms: i64) -> u64 {
        self.put_object(key, Object::new(value), time_ms)
    }

    /// [`Store::put`] of a value already encoded.
    pub fn put_object(&mut self, key: &str, value: Object, time_ms: i64) -> u64 {
        self.rev += 1;
        let rev = self.rev;
        // Most keys hold one version between compactions: no room reserved for more.
        let history = self
            .keys
            .entry(key.to_string())
            .or_insert_with(|| Vec::with_capacity(1));
        let prev = history.last().and_then(|v| v.value.clone());
        history.push(Version {
            mod_rev: rev,
            value: Some(value.clone()),
        });
        self.events.push(Event {
            rev,
            time_ms,
            key: key.to_string(),
            value: Some(value),
            prev,
            corrupt_prev: false,
        });
        self.corrupt.remove(key);
        rev
    }

    /// Records (or, with `None`, drops) the client's bytes of the raw field of `key`'s value
    /// (see [`Store::raw_text`]).
    pub fn set_raw_text(&mut self, key: &str, text: Option<&str>) {
        match text {
            Some(t) if self.get(key).is_some() => {
                self.raw_texts.insert(key.to_string(), Arc::from(t));
            }
            _ => {
                self.raw_texts.remove(key);
            }
        }
    }

    /// The client's bytes of the raw field of `key`'s value, when they are not its compact
    /// JSON and were recorded.
    pub fn raw_text(&self, key: &str) -> Option<&str> {
        self.raw_texts.get(key).map(|t| &**t)
    }

    /// Deletes `key` at the next revision; returns that revision, or `None` if absent.
    pub fn delete(&mut self, key: &str, time_ms: i64) -> Option<u64> {
        let prev = self.get(key)?.clone();
        self.rev += 1;
        let rev = self.rev;
        if let Some(h) = self.keys.get_mut(key) {
            h.push(Version {
                mod_rev: rev,
                value: None,
            });
        }
        self.events.push(Event {
            rev,
            time_ms,
            key: key.to_string(),
            value: None,
            prev: Some(prev),
            corrupt_prev: self.corrupt.remove(key).is_some(),
        });
        self.raw_texts.remove(key);
        Some(rev)
    }

    /// Makes the current value of `key` unreadable (without a new revision, as when the key
    /// that encrypted it is lost); false when there is no such key.
    pub fn corrupt(&mut self, key: &str, how: Corruption) -> bool {
        if self.get(key).is_none() {
            return false;
        }
        self.corrupt.insert(key.to_string(), how);
        true
    }

    /// How `key`'s current value is unreadable, if it is.
    pub fn corruption(&self, key: &str) -> Option<CorruptKey> {
        let how = *self.corrupt.get(key)?;
        let mod_rev = self
            .keys
            .get(key)
            .and_then(|h| h.last())
            .map_or(0, |v| v.mod_rev);
        Some(CorruptKey {
            key: key.to_string(),
            corruption: how,
            mod_rev,
        })
    }

    /// The unreadable keys a range read at `rev` met: under `prefix`, from `start` up to
    /// `through` (the last key a limited read examined; `None`: to the end), holding a value
    /// at `rev`.
    pub fn corrupt_in(
        &self,
        prefix: &str,
        start: Option<&str>,
        through: Option<&str>,
        rev: u64,
    ) -> Vec<CorruptKey> {
        let from = start.unwrap_or(prefix);
        let upto = match through {
            Some(k) => Bound::Included(k),
            None => Bound::Unbounded,
        };
        self.corrupt
            .range::<str, _>((Bound::Included(from), upto))
            .take_while(|(k, _)| k.starts_with(prefix))
            .filter(|(k, _)| self.keys.get(*k).and_then(|h| value_at(h, rev)).is_some())
            .filter_map(|(k, _)| self.corruption(k))
            .collect()
    }

    /// Live objects under `prefix` as of `rev`, in key order, starting at `start` (a full
    /// key, inclusive, as etcd ranges), at most `limit` of them that satisfy `keep`.
    ///
    /// Returns the objects and, when more keys remain, the last key examined (as etcd's
    /// continue position), so the caller can build a continue token.
    pub fn range(
        &self,
        prefix: &str,
        start: Option<&str>,
        rev: u64,
        limit: Option<usize>,
        mut keep: impl FnMut(&Object) -> bool,
    ) -> Result<RangePage, StoreError> {
        self.check_readable(rev)?;
        let lower = match start {
            Some(k) => Bound::Included(k.to_string()),
            None => Bound::Included(prefix.to_string()),
        };
        let mut items = Vec::new();
        let mut last_examined: Option<&String> = None;
        let mut more = false;
        for (key, history) in self.keys.range::<String, _>((lower, Bound::Unbounded)) {
            if !key.starts_with(prefix) {
                break;
            }
            let Some(obj) = value_at(history, rev) else {
                continue;
            };
            if let Some(l) = limit {
                if items.len() >= l {
                    more = true;
                    break;
                }
            }
            last_examined = Some(key);
            if keep(obj) {
                items.push(obj.clone());
            }
        }
        Ok(RangePage {
            items,
            last_key: if more { last_examined.cloned() } else { None },
        })
    }

    /// Every live key and its object at the current revision, in key order.
    pub fn live(&self) -> impl Iterator<Item = (&str, &Object)> {
        self.keys
            .iter()
            .filter_map(|(k, h)| value_at(h, self.rev).map(|o| (k.as_str(), o)))
    }

    /// Number of live keys under `prefix` strictly after `after` at the current revision
    /// (the estimate behind `remainingItemCount`).
    pub fn count_after(&self, prefix: &str, after: &str, rev: u64) -> usize {
        self.keys
            .range::<String, _>((Bound::Excluded(after.to_string()), Bound::Unbounded))
            .take_while(|(k, _)| k.starts_with(prefix))
            .filter(|(_, h)| value_at(h, rev).is_some())
            .count()
    }

    /// Events with revision strictly greater than `rev`, oldest first.
    pub fn events_after(&self, rev: u64) -> Result<&[Event], StoreError> {
        if rev < self.compacted {
            return Err(StoreError::Compacted {
                requested: rev,
                compacted: self.compacted,
            });
        }
        let start = self.events.partition_point(|e| e.rev <= rev);
        Ok(&self.events[start..])
    }

    /// The newest revision written at or before `time_ms` (what time-based compaction keeps
    /// readable), if it is still in the event log.
    pub fn revision_at_time(&self, time_ms: i64) -> Option<u64> {
        let idx = self.events.partition_point(|e| e.time_ms <= time_ms);
        (idx > 0).then(|| self.events[idx - 1].rev)
    }

    /// Forgets history older than `rev`: versions superseded at or before it and events up to
    /// it. Reads and watches at revisions below `rev` then fail with `Compacted`.
    pub fn compact(&mut self, rev: u64) {
        let rev = rev.min(self.rev);
        if rev <= self.compacted {
            return;
        }
        self.compacted = rev;
        self.keys.retain(|_, history| {
            // Keep the newest version at or below `rev` (the state at `rev`) and all later ones.
            let keep_from = history
                .partition_point(|v| v.mod_rev <= rev)
                .saturating_sub(1);
            history.drain(..keep_from);
            if history.capacity() > 2 * history.len() {
                history.shrink_to_fit();
            }
            // A key whose only remaining version is a compacted tombstone is gone for good.
            !(history.len() == 1 && history[0].value.is_none() && history[0].mod_rev <= rev)
        });
        let cut = self.events.partition_point(|e| e.rev <= rev);
        self.events.drain(..cut);
        // The log's capacity after a burst would otherwise stay at its high-water mark.
        if self.events.capacity() > 64 && self.events.len() < self.events.capacity() / 4 {
            self.events.shrink_to_fit();
        }
    }
}

/// One page of a range read.
#[derive(Debug, Clone)]
pub struct RangePage {
    pub items: Vec<Object>,
    /// When more keys remain: the key of the last returned item (the continue position).
    pub last_key: Option<String>,
}

fn value_at(history: &[Version], rev: u64) -> Option<&Object> {
    let idx = history.partition_point(|v| v.mod_rev <= rev);
    if idx == 0 {
        return None;
    }
    history[idx - 1].value.as_ref()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn names(p: &RangePage) -> Vec<String> {
        p.items
            .iter()
            .map(|o| o.decode()["n"].as_str().unwrap().to_string())
            .collect()
    }

    #[test]
    fn revisions_are_global_and_history_is_kept() {
        let mut s = Store::new();
        assert_eq!(s.put("/r/a", json!({"n": "a1"}), 0), 1);
        assert_eq!(s.put("/r/b", json!({"n": "b1"}), 0), 2);
        assert_eq!(s.put("/r/a", json!({"n": "a2"}), 0), 3);
        assert_eq!(s.delete("/r/b", 0), Some(4));
        assert_eq!(s.delete("/r/b", 0), None);
        assert_eq!(s.get("/r/a").unwrap().decode()["n"], "a2");
        assert_eq!(s.get_at("/r/a", 2).unwrap().unwrap().decode()["n"], "a1");
        assert_eq!(s.get_at("/r/b", 3).unwrap().unwrap().decode()["n"], "b1");
        assert!(s.get_at("/r/b", 4).unwrap().is_none());
        assert_eq!(
            s.get_at("/r/a", 9).unwrap_err(),
            StoreError::FutureRevision {
                requested: 9,
                current: 4
            }
        );
    }

    #[test]
    fn range_pages_in_key_order_at_a_revision() {
        let mut s = Store::new();
        for n in ["c", "a", "b", "d"] {
            s.put(&format!("/r/{n}"), json!({ "n": n }), 0);
        }
        s.put("/q/x", json!({"n": "x"}), 0);
        let p = s.range("/r/", None, 4, Some(2), |_| true).unwrap();
        assert_eq!(names(&p), ["a", "b"]);
        assert_eq!(p.last_key.as_deref(), Some("/r/b"));
        let p2 = s
            .range("/r/", Some("/r/b\0"), 4, Some(2), |_| true)
            .unwrap();
        assert_eq!(names(&p2), ["c", "d"]);
        assert_eq!(p2.last_key, None);
        // At revision 2 only c and a existed.
        let old = s.range("/r/", None, 2, None, |_| true).unwrap();
        assert_eq!(names(&old), ["a", "c"]);
        assert_eq!(s.count_after("/r/", "/r/a", 5), 3);
    }

    #[test]
    fn compaction_forgets_old_revisions_but_keeps_current_state() {
        let mut s = Store::new();
        s.put("/r/a", json!({"n": "a1"}), 0);
        s.put("/r/a", json!({"n": "a2"}), 0);
        s.put("/r/b", json!({"n": "b"}), 0);
        s.delete("/r/b", 0);
        s.compact(3);
        assert!(matches!(
            s.get_at("/r/a", 1),
            Err(StoreError::Compacted { .. })
        ));
        assert_eq!(s.get_at("/r/a", 3).unwrap().unwrap().decode()["n"], "a2");
        assert_eq!(s.events_after(3).unwrap().len(), 1);
        assert!(s.events_after(2).is_err());
        s.compact(4);
        assert!(!s.keys.contains_key("/r/b"));
    }
}
