//! A persistent ordered map with order statistics, for the watch cache.
//!
//! The apiserver's watch cache keeps every object of a resource in a B-tree keyed by storage key
//! and takes a cheap clone-on-write snapshot of it at each resourceVersion, so that Exact and
//! Continuation list reads are served from the state at that version. A paged list must cost
//! O(page), and `metadata.remainingItemCount` (the number of keys after the page) must be known
//! without walking the rest of the collection.
//!
//! [`OrdIndex`] gives both: it is a weight-balanced binary search tree whose nodes are shared
//! through [`Arc`] and carry their subtree size. Cloning the map (a snapshot) copies one pointer;
//! an update afterwards copies only the O(log n) nodes on its path, leaving the snapshot intact.
//! While a map is not shared, updates mutate its nodes in place and copy nothing. Subtree sizes
//! make [`OrdIndex::rank`] and [`OrdIndex::count_range`] O(log n).
//!
//! Everything is deterministic (no randomised balancing), so a simulation replays identically.
//! Keys compare as byte strings (`str`'s `Ord`), which is etcd's key order.

use std::cmp::Ordering;
use std::fmt;
use std::iter::FusedIterator;
use std::sync::Arc;

/// Weight-balance factor: neither subtree may be more than `DELTA` times the other's size.
/// `(DELTA, RATIO) = (3, 2)` is the integer pair proven correct for single insert/delete
/// rebalancing (Straka, "Adams' trees revisited"), and is what Haskell's `Data.Map` uses.
const DELTA: usize = 3;
/// Decides between a single and a double rotation when rebalancing.
const RATIO: usize = 2;

/// A possibly empty, possibly shared subtree.
type Link<V> = Option<Arc<Node<V>>>;

/// One tree node. Cloning it (path copying) bumps reference counts and clones `V`.
#[derive(Clone)]
struct Node<V> {
    /// The storage key; `Arc<str>` so that copying a node does not copy the key bytes.
    key: Arc<str>,
    value: V,
    /// Number of nodes in this subtree, itself included.
    size: usize,
    left: Link<V>,
    right: Link<V>,
}

/// Size of a possibly empty subtree.
fn size<V>(link: &Link<V>) -> usize {
    link.as_ref().map_or(0, |n| n.size)
}

impl<V: Clone> Node<V> {
    /// Recomputes `size` from the children, after they changed.
    fn fix_size(&mut self) {
        self.size = 1 + size(&self.left) + size(&self.right);
    }
}

/// Borrows the node behind a non-empty link mutably, copying it first if it is shared.
fn node_mut<V: Clone>(link: &mut Link<V>) -> &mut Node<V> {
    Arc::make_mut(link.as_mut().expect("non-empty subtree"))
}

/// Rotates the subtree at `link` to the left: its right child becomes its root.
fn rotate_left<V: Clone>(link: &mut Link<V>) {
    let mut top = link.take().expect("non-empty subtree");
    let node = Arc::make_mut(&mut top);
    let mut pivot = node.right.take().expect("right child");
    let p = Arc::make_mut(&mut pivot);
    node.right = p.left.take();
    node.fix_size();
    p.left = Some(top);
    p.fix_size();
    *link = Some(pivot);
}

/// Rotates the subtree at `link` to the right: its left child becomes its root.
fn rotate_right<V: Clone>(link: &mut Link<V>) {
    let mut top = link.take().expect("non-empty subtree");
    let node = Arc::make_mut(&mut top);
    let mut pivot = node.left.take().expect("left child");
    let p = Arc::make_mut(&mut pivot);
    node.left = p.right.take();
    node.fix_size();
    p.right = Some(top);
    p.fix_size();
    *link = Some(pivot);
}

/// Restores the weight balance at `link` after one insertion or deletion below it.
/// The root's `size` must already be correct; one single or double rotation suffices.
fn balance<V: Clone>(link: &mut Link<V>) {
    let Some(node) = link.as_deref() else { return };
    let (ls, rs) = (size(&node.left), size(&node.right));
    if ls + rs <= 1 {
        return;
    }
    if rs > DELTA * ls {
        let r = node.right.as_deref().expect("heavy right child");
        if size(&r.left) >= RATIO * size(&r.right) {
            rotate_right(&mut node_mut(link).right);
        }
        rotate_left(link);
    } else if ls > DELTA * rs {
        let l = node.left.as_deref().expect("heavy left child");
        if size(&l.right) >= RATIO * size(&l.left) {
            rotate_left(&mut node_mut(link).left);
        }
        rotate_right(link);
    }
}

/// Inserts or replaces `key` in the subtree at `link`; returns the replaced value.
fn insert_at<V: Clone>(link: &mut Link<V>, key: String, value: V) -> Option<V> {
    let Some(arc) = link.as_mut() else {
        *link = Some(Arc::new(Node {
            key: key.into(),
            value,
            size: 1,
            left: None,
            right: None,
        }));
        return None;
    };
    let node = Arc::make_mut(arc);
    let old = match key.as_str().cmp(&node.key) {
        Ordering::Less => insert_at(&mut node.left, key, value),
        Ordering::Greater => insert_at(&mut node.right, key, value),
        Ordering::Equal => return Some(std::mem::replace(&mut node.value, value)),
    };
    if old.is_none() {
        node.size += 1;
        balance(link);
    }
    old
}

/// Detaches the smallest node of a non-empty subtree; returns its key and value.
fn remove_min<V: Clone>(link: &mut Link<V>) -> (Arc<str>, V) {
    if link.as_ref().expect("non-empty subtree").left.is_none() {
        let n = Arc::unwrap_or_clone(link.take().expect("non-empty subtree"));
        *link = n.right;
        return (n.key, n.value);
    }
    let node = node_mut(link);
    let min = remove_min(&mut node.left);
    node.size -= 1;
    balance(link);
    min
}

/// Detaches the largest node of a non-empty subtree; returns its key and value.
fn remove_max<V: Clone>(link: &mut Link<V>) -> (Arc<str>, V) {
    if link.as_ref().expect("non-empty subtree").right.is_none() {
        let n = Arc::unwrap_or_clone(link.take().expect("non-empty subtree"));
        *link = n.left;
        return (n.key, n.value);
    }
    let node = node_mut(link);
    let max = remove_max(&mut node.right);
    node.size -= 1;
    balance(link);
    max
}

/// Joins two balanced siblings (every key of `left` below every key of `right`) whose parent
/// was removed, by promoting the nearest key from the larger side.
fn glue<V: Clone>(mut left: Link<V>, mut right: Link<V>) -> Link<V> {
    if left.is_none() {
        return right;
    }
    if right.is_none() {
        return left;
    }
    let (key, value) = if size(&left) > size(&right) {
        remove_max(&mut left)
    } else {
        remove_min(&mut right)
    };
    let mut node = Node {
        key,
        value,
        size: 0,
        left,
        right,
    };
    node.fix_size();
    let mut link = Some(Arc::new(node));
    balance(&mut link);
    link
}

/// Removes `key` from the subtree at `link`; returns its value.
fn remove_at<V: Clone>(link: &mut Link<V>, key: &str) -> Option<V> {
    let arc = link.as_mut()?;
    let ord = key.cmp(&arc.key);
    if ord == Ordering::Equal {
        let n = Arc::unwrap_or_clone(link.take().expect("non-empty subtree"));
        *link = glue(n.left, n.right);
        return Some(n.value);
    }
    let node = Arc::make_mut(arc);
    let child = if ord == Ordering::Less {
        &mut node.left
    } else {
        &mut node.right
    };
    let old = remove_at(child, key);
    if old.is_some() {
        node.size -= 1;
        balance(link);
    }
    old
}

/// A persistent ordered map from storage keys to `V`, with O(1) snapshots and O(log n) rank.
///
/// `clone()` is the snapshot operation: it shares the whole tree, and later updates to either
/// copy only the nodes on their path. Path copying clones values, so `V` should be cheap to
/// clone (the watch cache stores `Arc`ed objects).
pub struct OrdIndex<V> {
    root: Link<V>,
}

impl<V: Clone> OrdIndex<V> {
    /// An empty map.
    pub fn new() -> Self {
        OrdIndex { root: None }
    }

    /// Number of keys, in O(1): the root carries its subtree size.
    pub fn len(&self) -> usize {
        size(&self.root)
    }

    /// Whether the map has no keys.
    pub fn is_empty(&self) -> bool {
        self.root.is_none()
    }

    /// The value stored under `key`, in O(log n).
    pub fn get(&self, key: &str) -> Option<&V> {
        let mut cur = self.root.as_deref();
        while let Some(n) = cur {
            cur = match key.cmp(&n.key) {
                Ordering::Less => n.left.as_deref(),
                Ordering::Greater => n.right.as_deref(),
                Ordering::Equal => return Some(&n.value),
            };
        }
        None
    }

    /// Sets `key` to `value` and returns the value it replaced, in O(log n). Nodes shared with
    /// a snapshot are copied (path copying); nodes owned by this map alone are updated in place.
    pub fn insert(&mut self, key: String, value: V) -> Option<V> {
        insert_at(&mut self.root, key, value)
    }

    /// Removes `key` and returns its value, in O(log n). Removing an absent key copies
    /// nothing, so it does not break sharing with snapshots.
    pub fn remove(&mut self, key: &str) -> Option<V> {
        self.get(key)?;
        remove_at(&mut self.root, key)
    }

    /// Number of keys strictly less than `key` (its rank), in O(log n). This is what makes
    /// `remainingItemCount` cheap: the keys after a page are `len() - rank(next_start)`.
    pub fn rank(&self, key: &str) -> usize {
        let mut rank = 0;
        let mut cur = self.root.as_deref();
        while let Some(n) = cur {
            if key <= &*n.key {
                cur = n.left.as_deref();
            } else {
                rank += size(&n.left) + 1;
                cur = n.right.as_deref();
            }
        }
        rank
    }

    /// Number of keys `k` with `lo <= k < hi`, in O(log n); `None` leaves that side unbounded.
    /// An empty or inverted range counts 0. Used for `remainingItemCount` within a key prefix.
    pub fn count_range(&self, lo: Option<&str>, hi: Option<&str>) -> usize {
        let below_hi = hi.map_or(self.len(), |h| self.rank(h));
        let below_lo = lo.map_or(0, |l| self.rank(l));
        below_hi.saturating_sub(below_lo)
    }

    /// The entry at position `index` in key order (0-based), in O(log n); `None` past the end.
    /// The order-statistics inverse of [`OrdIndex::rank`].
    pub fn select(&self, mut index: usize) -> Option<(&str, &V)> {
        let mut cur = self.root.as_deref();
        while let Some(n) = cur {
            let ls = size(&n.left);
            match index.cmp(&ls) {
                Ordering::Less => cur = n.left.as_deref(),
                Ordering::Equal => return Some((&n.key, &n.value)),
                Ordering::Greater => {
                    index -= ls + 1;
                    cur = n.right.as_deref();
                }
            }
        }
        None
    }

    /// In-order iterator over the entries with key `>= start` (all entries for `None`).
    /// Positioning costs O(log n) and each step amortised O(1), so a page of a list costs
    /// O(log n + page) however large the map. The iterator knows its exact remaining length.
    pub fn iter_from(&self, start: Option<&str>) -> Iter<'_, V> {
        let mut stack = Vec::with_capacity(48);
        let mut skipped = 0;
        let mut cur = self.root.as_deref();
        while let Some(n) = cur {
            if start.is_none_or(|s| s <= &*n.key) {
                stack.push(n);
                cur = n.left.as_deref();
            } else {
                skipped += size(&n.left) + 1;
                cur = n.right.as_deref();
            }
        }
        Iter {
            stack,
            remaining: self.len() - skipped,
        }
    }

    /// In-order iterator over all entries.
    pub fn iter(&self) -> Iter<'_, V> {
        self.iter_from(None)
    }

    /// Checks the structural invariants (strict key order, subtree sizes, weight balance) in
    /// O(n), describing the first violation. Exists for tests, including callers' own.
    pub fn validate(&self) -> Result<(), String> {
        fn walk<V>(link: &Link<V>, lo: Option<&str>, hi: Option<&str>) -> Result<usize, String> {
            let Some(n) = link.as_deref() else {
                return Ok(0);
            };
            let k: &str = &n.key;
            if lo.is_some_and(|lo| k <= lo) || hi.is_some_and(|hi| k >= hi) {
                return Err(format!("key {k:?} out of order"));
            }
            let ls = walk(&n.left, lo, Some(k))?;
            let rs = walk(&n.right, Some(k), hi)?;
            if n.size != ls + rs + 1 {
                return Err(format!("key {k:?}: size {} != {}", n.size, ls + rs + 1));
            }
            if ls + rs > 1 && (ls > DELTA * rs || rs > DELTA * ls) {
                return Err(format!("key {k:?}: unbalanced {ls} vs {rs}"));
            }
            Ok(n.size)
        }
        walk(&self.root, None, None).map(|_| ())
    }
}

/// In-order iterator returned by [`OrdIndex::iter_from`] and [`OrdIndex::iter`].
///
/// Keeps an explicit stack of the O(log n) ancestors still to visit, so iteration never
/// recurses and a partially consumed iterator costs nothing for the entries it skips.
pub struct Iter<'a, V> {
    /// Nodes whose own entry and right subtree are still to be yielded; the top is next.
    stack: Vec<&'a Node<V>>,
    /// Entries left to yield, for an exact `size_hint`.
    remaining: usize,
}

impl<'a, V> Iterator for Iter<'a, V> {
    type Item = (&'a str, &'a V);

    fn next(&mut self) -> Option<Self::Item> {
        let n = self.stack.pop()?;
        self.remaining -= 1;
        let mut cur = n.right.as_deref();
        while let Some(c) = cur {
            self.stack.push(c);
            cur = c.left.as_deref();
        }
        Some((&n.key, &n.value))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl<V> ExactSizeIterator for Iter<'_, V> {}

impl<V> FusedIterator for Iter<'_, V> {}

/// O(1): shares the tree. This is how snapshots are taken.
impl<V> Clone for OrdIndex<V> {
    fn clone(&self) -> Self {
        OrdIndex {
            root: self.root.clone(),
        }
    }
}

/// The empty map.
impl<V: Clone> Default for OrdIndex<V> {
    fn default() -> Self {
        Self::new()
    }
}

/// Prints as a map in key order, like `BTreeMap`.
impl<V: Clone + fmt::Debug> fmt::Debug for OrdIndex<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// Equal when the entries are equal in order; O(1) when both share the same root.
impl<V: Clone + PartialEq> PartialEq for OrdIndex<V> {
    fn eq(&self, other: &Self) -> bool {
        let same_root = match (&self.root, &other.root) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        same_root || (self.len() == other.len() && self.iter().eq(other.iter()))
    }
}

impl<V: Clone + Eq> Eq for OrdIndex<V> {}

#[cfg(test)]
#[path = "index_tests.rs"]
mod tests;
