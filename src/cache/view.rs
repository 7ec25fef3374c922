//! Where a read is served from, and reading one page from there.
//!
//! kube-apiserver serves reads either from etcd (the store, at a revision) or from the watch
//! cache (its current state, or a snapshot at a revision). Both are read the same way here:
//! walk the key range from a start key, filter, stop after `limit` matches. From the cache the
//! walk and the `remainingItemCount` are O(log n + page); from the store the count is a scan,
//! as etcd's count is.

use super::items::Items;
use crate::store::index::OrdIndex;
use crate::store::{Object, Store, StoreError};

/// Which layer answered a read (reported in `X-Kubesim-Read`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    Store,
    WatchCache,
    CacheSnapshot,
}

impl Source {
    /// The name used in the read explanation.
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Store => "store",
            Source::WatchCache => "watch-cache",
            Source::CacheSnapshot => "cache-snapshot",
        }
    }
}

/// A consistent view to read one page from.
pub enum View<'a> {
    Store(&'a Store, u64),
    Index(OrdIndex<Object>),
}

/// One page of results.
pub struct Page {
    pub items: Items,
    /// The last key examined, when more keys remain.
    pub last_key: Option<String>,
    /// Keys after `last_key` (for `remainingItemCount`), when more remain.
    pub remaining: Option<usize>,
}

/// An unfiltered page of the cache: the run of up to `limit` entries from `start`, found in
/// O(log n) by rank, with no object examined (they are read when the page is encoded).
fn run(idx: &OrdIndex<Object>, prefix: &str, start: Option<&str>, limit: Option<usize>) -> Page {
    let from = start.unwrap_or(prefix);
    let lo = idx.rank(from);
    let in_range = idx.rank(&prefix_end(prefix)).saturating_sub(lo);
    let len = limit.map_or(in_range, |l| l.min(in_range));
    let more = len < in_range;
    let last_key = (more && len > 0)
        .then(|| idx.select(lo + len - 1).map(|(k, _)| k.to_string()))
        .flatten();
    Page {
        items: Items::Run {
            index: idx.clone(),
            from: from.to_string(),
            len,
        },
        last_key,
        remaining: more.then_some(in_range - len),
    }
}

/// The first key after every key starting with `prefix` (exclusive upper bound).
fn prefix_end(prefix: &str) -> String {
    let mut b = prefix.as_bytes().to_vec();
    if let Some(last) = b.last_mut() {
        *last += 1;
    }
    String::from_utf8(b).unwrap_or_default()
}

impl View<'_> {
    /// Reads up to `limit` objects under `prefix` from `start` (inclusive) that `keep` accepts
    /// (all of them when there is no `keep`).
    pub fn page(
        &self,
        prefix: &str,
        start: Option<&str>,
        limit: Option<usize>,
        keep: Option<impl FnMut(&Object) -> bool>,
    ) -> Result<Page, StoreError> {
        let mut keep = match (self, keep) {
            (View::Index(idx), None) => return Ok(run(idx, prefix, start, limit)),
            (_, keep) => keep,
        };
        let mut keep = move |o: &Object| keep.as_mut().is_none_or(|k| k(o));
        match self {
            View::Store(store, rev) => {
                let p = store.range(prefix, start, *rev, limit, &mut keep)?;
                // What the read met and could not decode: up to where a limited read stopped.
                let corrupt = store.corrupt_in(prefix, start, p.last_key.as_deref(), *rev);
                if !corrupt.is_empty() {
                    return Err(StoreError::Corrupt(corrupt));
                }
                let remaining = p
                    .last_key
                    .as_ref()
                    .map(|k| store.count_after(prefix, k, *rev));
                Ok(Page {
                    items: Items::Owned(p.items),
                    last_key: p.last_key,
                    remaining,
                })
            }
            View::Index(idx) => {
                // The range's size is known in O(log n) up front, so the walk compares no keys
                // and `remainingItemCount` is what the walk did not reach.
                let from = start.unwrap_or(prefix);
                let in_range = idx.count_range(Some(from), Some(&prefix_end(prefix)));
                let mut items = Vec::with_capacity(limit.unwrap_or(in_range).min(in_range));
                let mut walk = idx.iter_from(Some(from)).take(in_range);
                let mut last: Option<&str> = None;
                let mut examined = 0;
                while limit.is_none_or(|l| items.len() < l) {
                    let Some((key, obj)) = walk.next() else { break };
                    examined += 1;
                    last = Some(key);
                    if keep(obj) {
                        items.push(obj.clone());
                    }
                }
                let more = examined < in_range;
                Ok(Page {
                    items: Items::Owned(items),
                    last_key: if more { last.map(str::to_string) } else { None },
                    remaining: more.then_some(in_range - examined),
                })
            }
        }
    }

    /// One object by key.
    pub fn get(&self, key: &str) -> Result<Option<Object>, StoreError> {
        match self {
            View::Store(store, rev) => {
                let found = store.get_at(key, *rev)?;
                match store.corruption(key).filter(|_| found.is_some()) {
                    Some(c) => Err(StoreError::Corrupt(vec![c])),
                    None => Ok(found.cloned()),
                }
            }
            View::Index(idx) => Ok(idx.get(key).cloned()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Ten objects under `/a/` between neighbours under `/0/` and `/b/`.
    fn index() -> OrdIndex<Object> {
        let mut idx = OrdIndex::new();
        for (p, n) in [("/0/", 2), ("/a/", 10), ("/b/", 3)] {
            for i in 0..n {
                idx.insert(format!("{p}{i:02}"), Object::new(json!({"i": i})));
            }
        }
        idx
    }

    fn numbers(p: &Page) -> Vec<i64> {
        p.items
            .iter()
            .map(|o| o.decode()["i"].as_i64().unwrap())
            .collect()
    }

    #[test]
    fn an_unfiltered_page_is_the_run_a_walk_keeping_everything_reads() {
        let view = View::Index(index());
        let none = None::<fn(&Object) -> bool>;
        for start in [
            None,
            Some("/a/00"),
            Some("/a/04"),
            Some("/a/045"),
            Some("/a/09"),
        ] {
            for limit in [None, Some(0), Some(1), Some(3), Some(6), Some(10), Some(50)] {
                let run = view.page("/a/", start, limit, none).unwrap();
                let walked = view
                    .page("/a/", start, limit, Some(|_: &Object| true))
                    .unwrap();
                let case = format!("start {start:?} limit {limit:?}");
                assert!(matches!(run.items, Items::Run { .. }), "{case}");
                assert_eq!(numbers(&run), numbers(&walked), "{case}");
                assert_eq!(run.last_key, walked.last_key, "{case}");
                assert_eq!(run.remaining, walked.remaining, "{case}");
            }
        }
        let p = view.page("/a/", Some("/a/04"), Some(3), none).unwrap();
        assert_eq!(numbers(&p), [4, 5, 6]);
        assert_eq!(p.last_key.as_deref(), Some("/a/06"));
        assert_eq!(p.remaining, Some(3));
    }

    #[test]
    fn a_filter_that_leaves_one_out_makes_the_page_owned_and_keeps_what_came_before() {
        let view = View::Index(index());
        let odd = |o: &Object| o.decode()["i"].as_i64().unwrap() != 2;
        let p = view.page("/a/", None, Some(4), Some(odd)).unwrap();
        assert!(matches!(p.items, Items::Owned(_)));
        assert_eq!(numbers(&p), [0, 1, 3, 4]);
        assert_eq!(p.last_key.as_deref(), Some("/a/04"));
        assert_eq!(p.remaining, Some(5));
        let all = view.page("/a/", None, None, Some(odd)).unwrap();
        assert_eq!(numbers(&all), [0, 1, 3, 4, 5, 6, 7, 8, 9]);
        assert_eq!((all.last_key, all.remaining), (None, None));
    }
}
