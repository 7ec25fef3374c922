//! A persistent ordered map with order statistics, for the watch cache.
//!
//! The apiserver's watch cache keeps every object of a resource in a B-tree keyed by storage key
//! and takes a cheap clone-on-write snapshot of it at each resourceVersion, so that Exact and
//! Continuation list reads are served from the state at that version. A paged list must cost
//! O(page), and `metadata.remainingItemCount` (the number of keys after the page) must be known
//! without walking the rest of the collection.
//!
//! [`OrdIndex`] gives both: it is a B+ tree whose nodes are shared through [`Arc`] and whose
//! branches carry each child's entry count. Cloning the map (a snapshot) copies one pointer; an
//! update afterwards copies only the O(log n) nodes on its path, leaving the snapshot intact.
//! While a map is not shared, updates mutate its nodes in place and copy nothing. The counts
//! make [`OrdIndex::rank`], [`OrdIndex::select`] and [`OrdIndex::count_range`] O(log n).
//!
//! Entries sit in leaves of up to [`MAX`], side by side: walking a page of a list reads a few
//! contiguous arrays instead of chasing one pointer per entry (a binary tree's in-order walk was
//! a dependent cache miss per object, half the cost of copying a list's bytes out).
//!
//! Everything is deterministic, so a simulation replays identically. Keys compare as byte
//! strings (`str`'s `Ord`), which is etcd's key order.

use std::fmt;
use std::iter::FusedIterator;
use std::sync::Arc;

/// Most entries in a leaf, and most children of a branch. Small enough that copying a node
/// on a write behind a snapshot (its keys' and values' reference counts) stays cheap.
const MAX: usize = 16;
/// Fewest entries in a leaf, or children of a branch, other than the root.
const MIN: usize = MAX / 2;

/// A possibly empty, possibly shared tree.
type Link<V> = Option<Arc<Node<V>>>;

/// One tree node. Cloning it (path copying) bumps reference counts and clones the `V`s.
#[derive(Clone)]
enum Node<V> {
    /// Entries in key order; keys are `Arc<str>` so that copying a leaf copies no key bytes.
    Leaf(Vec<(Arc<str>, V)>),
    Branch(Branch<V>),
}

/// Children in key order with their entry counts. `keys[i]` separates `children[i]` from
/// `children[i + 1]`: every key of the first is below it, every key of the second at or above
/// (it was the second's smallest key when set; a later removal may leave it below that).
#[derive(Clone)]
struct Branch<V> {
    keys: Vec<Arc<str>>,
    children: Vec<Arc<Node<V>>>,
    counts: Vec<usize>,
    /// Entries below this branch: the sum of `counts`.
    len: usize,
}

impl<V> Node<V> {
    /// Entries in this subtree.
    fn len(&self) -> usize {
        match self {
            Node::Leaf(e) => e.len(),
            Node::Branch(b) => b.len,
        }
    }

    /// Entries of a leaf, or children of a branch: what [`MIN`] and [`MAX`] bound.
    fn width(&self) -> usize {
        match self {
            Node::Leaf(e) => e.len(),
            Node::Branch(b) => b.children.len(),
        }
    }
}

impl<V> Branch<V> {
    /// The child whose key range holds `key`.
    fn child_for(&self, key: &str) -> usize {
        self.keys.partition_point(|k| **k <= *key)
    }
}

/// The right half of a node that overflowed and split, with its smallest key.
type Split<V> = Option<(Arc<str>, Node<V>)>;

/// Inserts or replaces `key` below `node`. Returns the replaced value, and the right half
/// with its smallest key when `node` overflowed and was split.
fn insert_at<V: Clone>(node: &mut Node<V>, key: String, value: V) -> (Option<V>, Split<V>) {
    match node {
        Node::Leaf(entries) => match entries.binary_search_by(|(k, _)| (**k).cmp(key.as_str())) {
            Ok(at) => (Some(std::mem::replace(&mut entries[at].1, value)), None),
            Err(at) => {
                entries.insert(at, (key.into(), value));
                if entries.len() <= MAX {
                    return (None, None);
                }
                let right = entries.split_off(entries.len() / 2);
                let sep = right[0].0.clone();
                (None, Some((sep, Node::Leaf(right))))
            }
        },
        Node::Branch(b) => {
            let at = b.child_for(&key);
            let (old, split) = insert_at(Arc::make_mut(&mut b.children[at]), key, value);
            if old.is_some() {
                return (old, None);
            }
            b.len += 1;
            b.counts[at] += 1;
            if let Some((sep, right)) = split {
                b.counts[at] -= right.len();
                b.keys.insert(at, sep);
                b.counts.insert(at + 1, right.len());
                b.children.insert(at + 1, Arc::new(right));
            }
            if b.children.len() <= MAX {
                return (None, None);
            }
            let mid = b.children.len() / 2;
            let children = b.children.split_off(mid);
            let counts = b.counts.split_off(mid);
            let keys = b.keys.split_off(mid);
            let sep = b.keys.pop().expect("a separator before the right half");
            let len = counts.iter().sum();
            b.len -= len;
            let right = Branch {
                keys,
                children,
                counts,
                len,
            };
            (None, Some((sep, Node::Branch(right))))
        }
    }
}

/// Removes `key` below `node`, which holds it; returns its value. A child left below [`MIN`]
/// takes an entry (or child) from a sibling, or merges with it.
fn remove_at<V: Clone>(node: &mut Node<V>, key: &str) -> Option<V> {
    match node {
        Node::Leaf(entries) => {
            let at = entries.binary_search_by(|(k, _)| (**k).cmp(key)).ok()?;
            Some(entries.remove(at).1)
        }
        Node::Branch(b) => {
            let at = b.child_for(key);
            let old = remove_at(Arc::make_mut(&mut b.children[at]), key)?;
            b.len -= 1;
            b.counts[at] -= 1;
            if b.children[at].width() < MIN {
                rebalance(b, if at > 0 { at - 1 } else { at });
            }
            Some(old)
        }
    }
}

/// Restores [`MIN`] for children `i` and `i + 1` of `b`, one of which fell below it: merges
/// them when both fit in one node, or else moves one entry (or child) to the smaller.
fn rebalance<V: Clone>(b: &mut Branch<V>, i: usize) {
    if b.children[i].width() + b.children[i + 1].width() <= MAX {
        let right = Arc::unwrap_or_clone(b.children.remove(i + 1));
        let sep = b.keys.remove(i);
        b.counts[i] += b.counts.remove(i + 1);
        match (Arc::make_mut(&mut b.children[i]), right) {
            (Node::Leaf(l), Node::Leaf(r)) => l.extend(r),
            (Node::Branch(l), Node::Branch(r)) => {
                l.keys.push(sep);
                l.keys.extend(r.keys);
                l.children.extend(r.children);
                l.counts.extend(r.counts);
                l.len += r.len;
            }
            _ => unreachable!("siblings are at the same depth"),
        }
        return;
    }
    let to_left = b.children[i].width() < b.children[i + 1].width();
    let (lo, hi) = b.children.split_at_mut(i + 1);
    let (left, right) = (Arc::make_mut(&mut lo[i]), Arc::make_mut(&mut hi[0]));
    let moved = match (left, right) {
        (Node::Leaf(l), Node::Leaf(r)) => {
            if to_left {
                l.push(r.remove(0));
            } else {
                r.insert(0, l.pop().expect("a leaf above its minimum"));
            }
            b.keys[i] = r[0].0.clone();
            1
        }
        (Node::Branch(l), Node::Branch(r)) => {
            let (key, child, count);
            if to_left {
                (key, child, count) = (r.keys.remove(0), r.children.remove(0), r.counts.remove(0));
                l.keys.push(std::mem::replace(&mut b.keys[i], key));
                l.children.push(child);
                l.counts.push(count);
            } else {
                (key, child, count) = (
                    l.keys.pop().expect("a branch above its minimum"),
                    l.children.pop().expect("a branch above its minimum"),
                    l.counts.pop().expect("a branch above its minimum"),
                );
                r.keys.insert(0, std::mem::replace(&mut b.keys[i], key));
                r.children.insert(0, child);
                r.counts.insert(0, count);
            }
            if to_left {
                l.len += count;
                r.len -= count;
            } else {
                l.len -= count;
                r.len += count;
            }
            count
        }
        _ => unreachable!("siblings are at the same depth"),
    };
    if to_left {
        b.counts[i] += moved;
        b.counts[i + 1] -= moved;
    } else {
        b.counts[i] -= moved;
        b.counts[i + 1] += moved;
    }
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

    /// Number of keys, in O(1): the root carries its entry count.
    pub fn len(&self) -> usize {
        self.root.as_ref().map_or(0, |n| n.len())
    }

    /// Whether the map has no keys.
    pub fn is_empty(&self) -> bool {
        self.root.is_none()
    }

    /// The value stored under `key`, in O(log n).
    pub fn get(&self, key: &str) -> Option<&V> {
        let mut node = self.root.as_deref()?;
        loop {
            match node {
                Node::Branch(b) => node = &b.children[b.child_for(key)],
                Node::Leaf(entries) => {
                    let at = entries.binary_search_by(|(k, _)| (**k).cmp(key)).ok()?;
                    return Some(&entries[at].1);
                }
            }
        }
    }

    /// Sets `key` to `value` and returns the value it replaced, in O(log n). Nodes shared with
    /// a snapshot are copied (path copying); nodes owned by this map alone are updated in place.
    pub fn insert(&mut self, key: String, value: V) -> Option<V> {
        let Some(root) = self.root.as_mut() else {
            self.root = Some(Arc::new(Node::Leaf(vec![(key.into(), value)])));
            return None;
        };
        let (old, split) = insert_at(Arc::make_mut(root), key, value);
        if let Some((sep, right)) = split {
            let left = self.root.take().expect("a root that split");
            let counts = vec![left.len(), right.len()];
            self.root = Some(Arc::new(Node::Branch(Branch {
                keys: vec![sep],
                children: vec![left, Arc::new(right)],
                len: counts[0] + counts[1],
                counts,
            })));
        }
        old
    }

    /// Removes `key` and returns its value, in O(log n). Removing an absent key copies
    /// nothing, so it does not break sharing with snapshots.
    pub fn remove(&mut self, key: &str) -> Option<V> {
        self.get(key)?;
        let root = self.root.as_mut()?;
        let old = remove_at(Arc::make_mut(root), key);
        // A branch left with one child hands the root to it; an empty leaf is no tree.
        match root.as_ref() {
            Node::Branch(b) if b.children.len() == 1 => self.root = Some(b.children[0].clone()),
            Node::Leaf(e) if e.is_empty() => self.root = None,
            _ => {}
        }
        old
    }

    /// Number of keys strictly less than `key` (its rank), in O(log n). This is what makes
    /// `remainingItemCount` cheap: the keys after a page are `len() - rank(next_start)`.
    pub fn rank(&self, key: &str) -> usize {
        let Some(mut node) = self.root.as_deref() else {
            return 0;
        };
        let mut rank = 0;
        loop {
            match node {
                Node::Branch(b) => {
                    let at = b.child_for(key);
                    rank += b.counts[..at].iter().sum::<usize>();
                    node = &b.children[at];
                }
                Node::Leaf(entries) => return rank + entries.partition_point(|(k, _)| **k < *key),
            }
        }
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
        let mut node = self.root.as_deref()?;
        loop {
            match node {
                Node::Branch(b) => {
                    let mut at = 0;
                    while index >= b.counts[at] {
                        index -= b.counts[at];
                        at += 1;
                        if at == b.counts.len() {
                            return None;
                        }
                    }
                    node = &b.children[at];
                }
                Node::Leaf(entries) => return entries.get(index).map(|(k, v)| (&**k, v)),
            }
        }
    }

    /// In-order iterator over the entries with key `>= start` (all entries for `None`).
    /// Positioning costs O(log n) and each step amortised O(1), so a page of a list costs
    /// O(log n + page) however large the map. The iterator knows its exact remaining length.
    pub fn iter_from(&self, start: Option<&str>) -> Iter<'_, V> {
        let mut it = Iter {
            stack: Vec::with_capacity(8),
            leaf: [].iter(),
            remaining: self.len(),
        };
        let Some(mut node) = self.root.as_deref() else {
            return it;
        };
        loop {
            match node {
                Node::Branch(b) => {
                    let at = start.map_or(0, |s| b.child_for(s));
                    it.remaining -= b.counts[..at].iter().sum::<usize>();
                    it.stack.push((b, at + 1));
                    node = &b.children[at];
                }
                Node::Leaf(entries) => {
                    let at = start.map_or(0, |s| entries.partition_point(|(k, _)| **k < *s));
                    it.remaining -= at;
                    it.leaf = entries[at..].iter();
                    return it;
                }
            }
        }
    }

    /// In-order iterator over all entries.
    pub fn iter(&self) -> Iter<'_, V> {
        self.iter_from(None)
    }

    /// Checks the structural invariants (strict key order within the separators, counts,
    /// node widths, every leaf at one depth) in O(n), describing the first violation. Exists
    /// for tests, including callers' own.
    pub fn validate(&self) -> Result<(), String> {
        /// The subtree's entry count and depth.
        fn walk<V>(
            n: &Node<V>,
            lo: Option<&str>,
            hi: Option<&str>,
            root: bool,
        ) -> Result<(usize, usize), String> {
            let w = n.width();
            if w > MAX || (!root && w < MIN) || (root && matches!(n, Node::Branch(_)) && w < 2) {
                return Err(format!("a node of width {w}"));
            }
            match n {
                Node::Leaf(entries) => {
                    let mut prev = lo;
                    for (i, (k, _)) in entries.iter().enumerate() {
                        let k: &str = k;
                        let low_ok = prev.is_none_or(|p| if i == 0 { k >= p } else { k > p });
                        if !low_ok || hi.is_some_and(|h| k >= h) {
                            return Err(format!("key {k:?} out of order"));
                        }
                        prev = Some(k);
                    }
                    Ok((entries.len(), 0))
                }
                Node::Branch(b) => {
                    if b.keys.len() + 1 != w || b.counts.len() != w {
                        return Err(format!(
                            "a branch of {w} children, {} keys, {} counts",
                            b.keys.len(),
                            b.counts.len()
                        ));
                    }
                    let (mut total, mut depth) = (0, None);
                    for (i, child) in b.children.iter().enumerate() {
                        let c_lo = if i == 0 { lo } else { Some(&*b.keys[i - 1]) };
                        let c_hi = b.keys.get(i).map(|k| &**k).or(hi);
                        let (len, d) = walk(child, c_lo, c_hi, false)?;
                        if len != b.counts[i] {
                            return Err(format!("child {i}: count {} != {len}", b.counts[i]));
                        }
                        if depth.is_some_and(|x| x != d) {
                            return Err("leaves at different depths".into());
                        }
                        depth = Some(d);
                        total += len;
                    }
                    if total != b.len {
                        return Err(format!("branch len {} != {total}", b.len));
                    }
                    Ok((total, depth.unwrap_or(0) + 1))
                }
            }
        }
        match &self.root {
            None => Ok(()),
            Some(n) => walk(n, None, None, true).map(|_| ()),
        }
    }
}

/// In-order iterator returned by [`OrdIndex::iter_from`] and [`OrdIndex::iter`].
///
/// Keeps the branches on the path to the current leaf with the next child of each to visit,
/// so iteration never recurses and a partially consumed iterator costs nothing for the
/// entries it skips.
pub struct Iter<'a, V> {
    stack: Vec<(&'a Branch<V>, usize)>,
    /// What is left of the current leaf.
    leaf: std::slice::Iter<'a, (Arc<str>, V)>,
    /// Entries left to yield, for an exact `size_hint`.
    remaining: usize,
}

impl<'a, V> Iter<'a, V> {
    /// Moves to the next leaf (up to the nearest branch with a child left, then down its left
    /// edge); false at the end. Apart from [`Iterator::next`], which stays small enough to
    /// inline into a list's copy loop.
    #[inline(never)]
    fn next_leaf(&mut self) -> bool {
        loop {
            let Some((b, at)) = self.stack.last_mut() else {
                return false;
            };
            if *at == b.children.len() {
                self.stack.pop();
                continue;
            }
            let mut node: &'a Node<V> = &b.children[*at];
            *at += 1;
            loop {
                match node {
                    Node::Branch(b) => {
                        self.stack.push((b, 1));
                        node = &b.children[0];
                    }
                    Node::Leaf(entries) => {
                        self.leaf = entries.iter();
                        return true;
                    }
                }
            }
        }
    }
}

impl<'a, V> Iterator for Iter<'a, V> {
    type Item = (&'a str, &'a V);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some((k, v)) = self.leaf.next() {
                self.remaining -= 1;
                return Some((k, v));
            }
            if !self.next_leaf() {
                return None;
            }
        }
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
