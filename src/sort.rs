//! Stable sorting through one shared instance of the standard library's sort.
//!
//! `slice::sort_by` is generic over the element type and the comparison, so every call site
//! carries its own copy of the sort (about 4 KB of wasm each: thirty-one copies made 130 KB
//! of the shim before optimization). The wasm builds, built for size, sort a permutation of
//! indices through a single non-generic instance and then move the elements into place; the
//! native builds, built for speed, sort in place as before. Both are stable.
//!
//! For the same reason the wasm builds collect B-trees here by insertion (`btree_map`,
//! `btree_set`): their `FromIterator` sorts its input with a sort of its own element type.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

/// Sorts `v` stably by `cmp` (as `slice::sort_by`).
pub fn sort_by<T>(v: &mut [T], cmp: impl FnMut(&T, &T) -> Ordering) {
    #[cfg(not(target_arch = "wasm32"))]
    v.sort_by(cmp);
    #[cfg(target_arch = "wasm32")]
    {
        let mut cmp = cmp;
        let order = permutation(v.len(), &mut |a, b| cmp(&v[a], &v[b]));
        permute(v, order);
    }
}

/// Sorts `v` stably by the key `key` gives (as `slice::sort_by_key`).
pub fn sort_by_key<T, K: Ord>(v: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(v, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `v` stably in its natural order (as `slice::sort`).
pub fn sort<T: Ord>(v: &mut [T]) {
    sort_by(v, T::cmp);
}

/// Collects into a `BTreeMap` (a later pair replaces an earlier value under an equal key,
/// as `collect` does). `FromIterator` for a B-tree sorts its input first, which in the wasm
/// builds would instantiate the whole sort once more for every pair type, so there the pairs
/// are inserted one by one; the native builds collect (a sort and a bulk build).
pub fn btree_map<K: Ord, V>(pairs: impl IntoIterator<Item = (K, V)>) -> BTreeMap<K, V> {
    #[cfg(not(target_arch = "wasm32"))]
    return pairs.into_iter().collect();
    #[cfg(target_arch = "wasm32")]
    {
        let mut map = BTreeMap::new();
        map.extend(pairs);
        map
    }
}

/// Collects into a `BTreeSet`, for the reason and in the way `btree_map` gives. Of equal
/// elements insertion keeps the first and `collect` the last, which no caller can tell apart:
/// its elements are equal only when identical.
pub fn btree_set<T: Ord>(items: impl IntoIterator<Item = T>) -> BTreeSet<T> {
    #[cfg(not(target_arch = "wasm32"))]
    return items.into_iter().collect();
    #[cfg(target_arch = "wasm32")]
    {
        let mut set = BTreeSet::new();
        set.extend(items);
        set
    }
}

/// The indices `0..n` in the stable order `cmp` gives: the one instance of the sort.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
#[inline(never)]
fn permutation(n: usize, cmp: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| cmp(a, b));
    order
}

/// Moves `v[order[i]]` to position `i`, following each cycle of the permutation once.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
fn permute<T>(v: &mut [T], mut order: Vec<usize>) {
    for start in 0..order.len() {
        let mut at = start;
        while order[at] != start {
            let from = order[at];
            v.swap(at, from);
            order[at] = at;
            at = from;
        }
        order[at] = at;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sorting a permutation of indices and moving the elements gives the standard library's
    /// stable order, equal elements in their first order.
    #[test]
    fn the_permutation_path_sorts_as_the_standard_library() {
        let cases: Vec<Vec<(u8, usize)>> = vec![
            vec![],
            vec![(1, 0)],
            vec![(3, 0), (1, 1), (2, 2), (1, 3), (3, 4), (0, 5)],
            (0..50).map(|i| ((i * 7 % 5) as u8, i)).collect(),
            (0..20).rev().map(|i| (i as u8, i)).collect(),
        ];
        for case in cases {
            let mut want = case.clone();
            want.sort_by_key(|e| e.0);
            let mut got = case.clone();
            let order = permutation(got.len(), &mut |a, b| case[a].0.cmp(&case[b].0));
            permute(&mut got, order);
            assert_eq!(got, want);
            let mut via = case.clone();
            sort_by_key(&mut via, |e| e.0);
            assert_eq!(via, want);
        }
    }
}
