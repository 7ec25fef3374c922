//! Where a read is served from, and reading one page from there.
//!
//! kube-apiserver serves reads either from etcd (the store, at a revision) or from the watch
//! cache (its current state, or a snapshot at a revision). Both are read the same way here:
//! walk the key range from a start key, filter, stop after `limit` matches. From the cache the
//! walk and the `remainingItemCount` are O(log n + page); from the store the count is a scan,
//! as etcd's count is.

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
    pub items: Vec<Object>,
    /// The last key examined, when more keys remain.
    pub last_key: Option<String>,
    /// Keys after `last_key` (for `remainingItemCount`), when more remain.
    pub remaining: Option<usize>,
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
    /// Reads up to `limit` objects under `prefix` from `start` (inclusive) that `keep` accepts.
    pub fn page(
        &self,
        prefix: &str,
        start: Option<&str>,
        limit: Option<usize>,
        mut keep: impl FnMut(&Object) -> bool,
    ) -> Result<Page, StoreError> {
        match self {
            View::Store(store, rev) => {
                let p = store.range(prefix, start, *rev, limit, keep)?;
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
                    items: p.items,
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
                    items,
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
