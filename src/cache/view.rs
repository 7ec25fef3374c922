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
                let from = start.unwrap_or(prefix);
                let mut items = Vec::new();
                let mut last: Option<&str> = None;
                let mut more = false;
                for (key, obj) in idx.iter_from(Some(from)) {
                    if !key.starts_with(prefix) {
                        break;
                    }
                    if limit.is_some_and(|l| items.len() >= l) {
                        more = true;
                        break;
                    }
                    last = Some(key);
                    if keep(obj) {
                        items.push(obj.clone());
                    }
                }
                let last_key = if more { last.map(str::to_string) } else { None };
                let remaining = last_key.as_ref().map(|k| {
                    let after = format!("{k}\u{0}");
                    idx.count_range(Some(&after), Some(&prefix_end(prefix)))
                });
                Ok(Page {
                    items,
                    last_key,
                    remaining,
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
