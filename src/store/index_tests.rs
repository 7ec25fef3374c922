//! Tests for [`OrdIndex`]: boundary tables, snapshot isolation, and a seeded model test against
//! `BTreeMap` (the scratch crate additionally runs a proptest version of the model test).

use super::*;
use std::collections::BTreeMap;

/// Builds an index whose values are the keys' positions in `keys`.
fn index_of(keys: &[&str]) -> OrdIndex<usize> {
    let mut idx = OrdIndex::new();
    for (i, k) in keys.iter().enumerate() {
        idx.insert(k.to_string(), i);
    }
    idx.validate().unwrap();
    idx
}

/// All keys of an index, in iteration order.
fn keys(idx: &OrdIndex<usize>) -> Vec<String> {
    idx.iter().map(|(k, _)| k.to_string()).collect()
}

/// Whether two indexes share their root node (no copy happened).
fn shares_root<V>(a: &OrdIndex<V>, b: &OrdIndex<V>) -> bool {
    match (&a.root, &b.root) {
        (Some(x), Some(y)) => Arc::ptr_eq(x, y),
        (None, None) => true,
        _ => false,
    }
}

#[test]
fn empty_index() {
    let idx: OrdIndex<u8> = OrdIndex::default();
    assert!(idx.is_empty());
    assert_eq!(idx.len(), 0);
    assert_eq!(idx.get("a"), None);
    assert_eq!(idx.rank("a"), 0);
    assert_eq!(idx.count_range(None, None), 0);
    assert_eq!(idx.count_range(Some("a"), Some("b")), 0);
    assert_eq!(idx.iter().next(), None);
    assert_eq!(idx.iter_from(Some("a")).len(), 0);
    assert_eq!(idx.select(0), None);
    assert_eq!(format!("{idx:?}"), "{}");
    idx.validate().unwrap();
}

#[test]
fn insert_get_replace_remove() {
    let mut idx = OrdIndex::new();
    assert_eq!(idx.insert("b".to_string(), 1), None);
    assert_eq!(idx.insert("a".to_string(), 2), None);
    assert_eq!(idx.insert("b".to_string(), 3), Some(1));
    assert_eq!(idx.len(), 2);
    assert_eq!(idx.get("b"), Some(&3));
    assert_eq!(idx.get("a"), Some(&2));
    assert_eq!(idx.get("c"), None);
    assert_eq!(idx.remove("c"), None);
    assert_eq!(idx.remove("a"), Some(2));
    assert_eq!(idx.remove("a"), None);
    assert_eq!(idx.len(), 1);
    assert_eq!(idx.remove("b"), Some(3));
    assert!(idx.is_empty());
    idx.validate().unwrap();
}

#[test]
fn rank_table() {
    let idx = index_of(&["b", "d", "f", "h"]);
    let cases: &[(&str, usize)] = &[
        ("", 0),
        ("a", 0),
        ("b", 0),
        ("b\0", 1),
        ("c", 1),
        ("d", 1),
        ("e", 2),
        ("f", 2),
        ("h", 3),
        ("h\0", 4),
        ("z", 4),
    ];
    for &(key, want) in cases {
        assert_eq!(idx.rank(key), want, "rank({key:?})");
    }
}

#[test]
fn count_range_table() {
    let idx = index_of(&["b", "d", "f", "h"]);
    let cases: &[(Option<&str>, Option<&str>, usize)] = &[
        (None, None, 4),
        (Some("a"), None, 4),
        (Some("b"), None, 4),
        (Some("b\0"), None, 3),
        (Some("h"), None, 1),
        (Some("i"), None, 0),
        (None, Some("b"), 0),
        (None, Some("b\0"), 1),
        (None, Some("h"), 3),
        (None, Some("z"), 4),
        (Some("b"), Some("h"), 3),
        (Some("c"), Some("g"), 2),
        (Some("d"), Some("d"), 0),
        (Some("d"), Some("d\0"), 1),
        (Some("g"), Some("c"), 0),
        (Some("x"), Some("z"), 0),
    ];
    for &(lo, hi, want) in cases {
        assert_eq!(idx.count_range(lo, hi), want, "count_range({lo:?}, {hi:?})");
    }
}

#[test]
fn iter_from_table() {
    let idx = index_of(&["b", "d", "f", "h"]);
    let cases: &[(Option<&str>, &[&str])] = &[
        (None, &["b", "d", "f", "h"]),
        (Some(""), &["b", "d", "f", "h"]),
        (Some("a"), &["b", "d", "f", "h"]),
        (Some("b"), &["b", "d", "f", "h"]),
        (Some("b\0"), &["d", "f", "h"]),
        (Some("e"), &["f", "h"]),
        (Some("h"), &["h"]),
        (Some("h\0"), &[]),
        (Some("z"), &[]),
    ];
    for &(start, want) in cases {
        let it = idx.iter_from(start);
        assert_eq!(it.len(), want.len(), "len of iter_from({start:?})");
        let got: Vec<&str> = it.map(|(k, _)| k).collect();
        assert_eq!(got, want, "iter_from({start:?})");
    }
    let values: Vec<usize> = idx.iter().map(|(_, v)| *v).collect();
    assert_eq!(values, [0, 1, 2, 3]);
}

#[test]
fn keys_order_as_bytes() {
    // '-' (0x2d) < '.' < '/' (0x2f) < '0' < 'B' < 'b' < multi-byte UTF-8, as in etcd.
    let want = [
        "/r/pods/a-b",
        "/r/pods/a.b",
        "/r/pods/a/b",
        "/r/pods/a0",
        "/r/pods/aB",
        "/r/pods/ab",
        "/r/pods/a\u{e9}",
        "/r/pods/a\u{fffd}",
    ];
    let mut shuffled = want;
    shuffled.reverse();
    shuffled.swap(1, 5);
    assert_eq!(keys(&index_of(&shuffled)), want);
}

#[test]
fn paged_list_with_remaining_count() {
    // How the watch cache serves `limit=3` pages of one namespace, with continue keys and
    // remainingItemCount, while other namespaces sort before and after.
    let mut idx = OrdIndex::new();
    for ns in ["a", "default", "z"] {
        for i in 0..10 {
            idx.insert(format!("/registry/pods/{ns}/p{i:02}"), i);
        }
    }
    let (prefix, end) = ("/registry/pods/default/", "/registry/pods/default0");
    let mut start = prefix.to_string();
    let mut pages = Vec::new();
    loop {
        let page: Vec<(&str, &i32)> = idx
            .iter_from(Some(&start))
            .take_while(|(k, _)| *k < end)
            .take(3)
            .collect();
        let last = page.last().map(|(k, _)| format!("{k}\0"));
        let remaining = last
            .as_deref()
            .map_or(0, |l| idx.count_range(Some(l), Some(end)));
        pages.push((page.iter().map(|(_, v)| **v).collect::<Vec<_>>(), remaining));
        match last {
            Some(l) if remaining > 0 => start = l,
            _ => break,
        }
    }
    let want = vec![
        (vec![0, 1, 2], 7),
        (vec![3, 4, 5], 4),
        (vec![6, 7, 8], 1),
        (vec![9], 0),
    ];
    assert_eq!(pages, want);
}

#[test]
fn select_is_inverse_of_rank() {
    let names: Vec<String> = (0..200).map(|i| format!("k{:03}", (i * 7) % 200)).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let idx = index_of(&refs);
    for i in 0..200 {
        let (k, _) = idx.select(i).unwrap();
        assert_eq!(k, format!("k{i:03}"));
        assert_eq!(idx.rank(k), i);
    }
    assert_eq!(idx.select(200), None);
}

#[test]
fn snapshot_unchanged_by_later_writes() {
    let mut live = index_of(&["a", "b", "c", "d", "e"]);
    let snap = live.clone();
    assert!(shares_root(&live, &snap));
    live.insert("c".to_string(), 100);
    live.insert("f".to_string(), 5);
    live.remove("a");
    assert_eq!(keys(&snap), ["a", "b", "c", "d", "e"]);
    assert_eq!(snap.get("c"), Some(&2));
    assert_eq!(snap.get("f"), None);
    assert_eq!(snap.rank("f"), 5);
    assert_eq!(keys(&live), ["b", "c", "d", "e", "f"]);
    assert_eq!(live.get("c"), Some(&100));
    snap.validate().unwrap();
    live.validate().unwrap();
}

#[test]
fn writes_to_snapshot_leave_original_unchanged() {
    let live = index_of(&["a", "b", "c"]);
    let mut snap = live.clone();
    snap.remove("b");
    snap.insert("a".to_string(), 9);
    assert_eq!(keys(&live), ["a", "b", "c"]);
    assert_eq!(live.get("a"), Some(&0));
    assert_eq!(keys(&snap), ["a", "c"]);
    assert_eq!(snap.get("a"), Some(&9));
}

#[test]
fn removing_absent_key_keeps_sharing() {
    let mut live = index_of(&["a", "b", "c"]);
    let snap = live.clone();
    assert_eq!(live.remove("bb"), None);
    assert!(shares_root(&live, &snap));
    assert_eq!(live, snap);
    live.insert("bb".to_string(), 1);
    assert!(!shares_root(&live, &snap));
    assert_ne!(live, snap);
}

#[test]
fn chain_of_snapshots() {
    let mut live = OrdIndex::new();
    let mut snaps = Vec::new();
    for i in 0..300usize {
        snaps.push(live.clone());
        live.insert(format!("k{:03}", (i * 37) % 300), i);
        if i % 3 == 0 {
            live.remove(&format!("k{:03}", (i * 11) % 300));
        }
    }
    let mut model: BTreeMap<String, usize> = BTreeMap::new();
    for (i, snap) in snaps.iter().enumerate() {
        let got: Vec<(String, usize)> = snap.iter().map(|(k, v)| (k.to_string(), *v)).collect();
        let want: Vec<(String, usize)> = model.iter().map(|(k, v)| (k.clone(), *v)).collect();
        assert_eq!(got, want, "snapshot {i}");
        snap.validate().unwrap();
        model.insert(format!("k{:03}", (i * 37) % 300), i);
        if i % 3 == 0 {
            model.remove(&format!("k{:03}", (i * 11) % 300));
        }
    }
}

#[test]
fn sorted_inserts_and_removals_stay_balanced() {
    let mut idx = OrdIndex::new();
    for i in 0..2000 {
        idx.insert(format!("{i:05}"), i);
    }
    idx.validate().unwrap();
    for i in (0..2000).rev() {
        idx.insert(format!("a{i:05}"), i);
    }
    idx.validate().unwrap();
    assert_eq!(idx.len(), 4000);
    for i in 0..2000 {
        assert_eq!(idx.remove(&format!("{i:05}")), Some(i));
        if i % 97 == 0 {
            idx.validate().unwrap();
        }
    }
    for i in (0..2000).rev() {
        assert_eq!(idx.remove(&format!("a{i:05}")), Some(i));
    }
    assert!(idx.is_empty());
}

#[test]
fn debug_and_eq() {
    let idx = index_of(&["b", "a"]);
    assert_eq!(format!("{idx:?}"), r#"{"a": 1, "b": 0}"#);
    let mut other = index_of(&["a", "b", "c"]);
    assert_ne!(idx, other);
    other.remove("c");
    assert_ne!(idx, other);
    other.insert("a".to_string(), 1);
    other.insert("b".to_string(), 0);
    assert_eq!(idx, other);
}

#[test]
fn is_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<OrdIndex<Arc<String>>>();
    check::<Iter<'static, Arc<String>>>();
}

/// A tiny deterministic PRNG (xorshift64*), so the model test needs no dependency.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % n
    }

    fn key(&mut self) -> String {
        // A small alphabet and short keys make hits, prefixes and boundary keys frequent.
        let len = self.below(4) as usize;
        (0..len)
            .map(|_| (b'a' + self.below(3) as u8) as char)
            .collect()
    }
}

#[test]
fn seeded_model_test_against_btreemap() {
    for seed in 1..=20u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut idx = OrdIndex::new();
        let mut model: BTreeMap<String, u64> = BTreeMap::new();
        let mut snaps: Vec<(OrdIndex<u64>, BTreeMap<String, u64>)> = Vec::new();
        for step in 0..400u64 {
            match rng.below(10) {
                0..=4 => {
                    let k = rng.key();
                    assert_eq!(idx.insert(k.clone(), step), model.insert(k, step));
                }
                5..=7 => {
                    let k = rng.key();
                    assert_eq!(idx.remove(&k), model.remove(&k));
                }
                _ => snaps.push((idx.clone(), model.clone())),
            }
            assert_eq!(idx.len(), model.len());
            let (a, b) = (rng.key(), rng.key());
            assert_eq!(idx.get(&a), model.get(&a));
            assert_eq!(idx.rank(&a), model.range(..a.clone()).count());
            let want = if a <= b {
                model.range(a.clone()..b.clone()).count()
            } else {
                0
            };
            assert_eq!(idx.count_range(Some(&a), Some(&b)), want);
            let got: Vec<(&str, &u64)> = idx.iter_from(Some(&a)).collect();
            let exp: Vec<(&str, &u64)> = model
                .range(a.clone()..)
                .map(|(k, v)| (k.as_str(), v))
                .collect();
            assert_eq!(got, exp);
        }
        idx.validate().unwrap();
        for (snap, at) in &snaps {
            snap.validate().unwrap();
            let got: Vec<(&str, &u64)> = snap.iter().collect();
            let exp: Vec<(&str, &u64)> = at.iter().map(|(k, v)| (k.as_str(), v)).collect();
            assert_eq!(got, exp, "seed {seed}");
        }
    }
}

/// The model test with many keys, so that the tree is several levels deep and every split,
/// merge and borrow between leaves and between branches happens, also behind snapshots.
#[test]
fn deep_model_test_against_btreemap() {
    for seed in 1..=4u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut idx = OrdIndex::new();
        let mut model: BTreeMap<String, u64> = BTreeMap::new();
        let mut snaps: Vec<(OrdIndex<u64>, BTreeMap<String, u64>)> = Vec::new();
        // Grow to a few thousand keys, then shrink to none, with removals throughout.
        for step in 0..12_000u64 {
            let grow = step < 6_000;
            let k = format!("{:04}", rng.below(4_000));
            if rng.below(10) < if grow { 7 } else { 2 } {
                assert_eq!(idx.insert(k.clone(), step), model.insert(k, step));
            } else {
                assert_eq!(idx.remove(&k), model.remove(&k));
            }
            if step % 1_500 == 0 {
                snaps.push((idx.clone(), model.clone()));
            }
            if step % 500 == 0 {
                idx.validate().unwrap();
                let at = rng.below(model.len() as u64 + 1) as usize;
                assert_eq!(
                    idx.select(at).map(|(k, v)| (k.to_string(), *v)),
                    model.iter().nth(at).map(|(k, v)| (k.clone(), *v))
                );
                let a = format!("{:04}", rng.below(4_000));
                assert_eq!(idx.rank(&a), model.range(..a.clone()).count());
                let got: Vec<(&str, &u64)> = idx.iter_from(Some(&a)).take(40).collect();
                let exp: Vec<(&str, &u64)> = model
                    .range(a..)
                    .take(40)
                    .map(|(k, v)| (k.as_str(), v))
                    .collect();
                assert_eq!(got, exp);
            }
        }
        for k in model.keys().cloned().collect::<Vec<_>>() {
            assert_eq!(idx.remove(&k), model.remove(&k));
        }
        assert!(idx.is_empty());
        idx.validate().unwrap();
        for (snap, at) in &snaps {
            snap.validate().unwrap();
            assert_eq!(snap.len(), at.len());
            let got: Vec<(&str, &u64)> = snap.iter().collect();
            let exp: Vec<(&str, &u64)> = at.iter().map(|(k, v)| (k.as_str(), v)).collect();
            assert_eq!(got, exp, "seed {seed}");
        }
    }
}
