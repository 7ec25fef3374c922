//! The two writing walks of structured-merge-diff: merging an applied configuration into the
//! live object (`TypedValue.Merge` with "keep the right-hand side" for leaves) and removing a
//! set of paths from an object (`TypedValue.RemoveItems`).
//!
//! Merge order for sets and keyed lists is Go's: items keep the live order, items only in
//! the configuration come where the configuration puts them relative to shared items. A map
//! or list whose merge is empty disappears from its parent.

use serde_json::{Map, Value};

use super::path::PathElement;
use super::set::Set;
use std::collections::{BTreeMap, BTreeSet};

use super::typed::{indexed_items, item_element, resolve, zip_keys, Atom, ListKind, MapAtom, Tr};

/// `lhs` with `rhs` merged in; `None` when the result is empty.
pub fn merge(tr: Tr, lhs: Option<&Value>, rhs: Option<&Value>) -> Option<Value> {
    // Go also handles the left side's atom when the two differ, but keeps only the output of
    // the right side's.
    match resolve(tr, rhs.or(lhs)) {
        Atom::Scalar(_) => keep_rhs(lhs, rhs),
        Atom::List { elem, kind } => merge_list(elem, kind, lhs, rhs),
        Atom::Map(m) => merge_map(m, lhs, rhs),
    }
}

fn keep_rhs(lhs: Option<&Value>, rhs: Option<&Value>) -> Option<Value> {
    rhs.or(lhs).cloned()
}

fn merge_map(m: MapAtom, lhs: Option<&Value>, rhs: Option<&Value>) -> Option<Value> {
    let l = lhs.and_then(Value::as_object);
    let r = rhs.and_then(Value::as_object);
    let empty = |x: Option<&Map<String, Value>>| x.is_none_or(Map::is_empty);
    if m.atomic || (empty(l) && empty(r)) {
        return keep_rhs(lhs, rhs);
    }
    let mut out = Map::new();
    for k in zip_keys(l, r) {
        let t = m.field_type(k).unwrap_or(Tr::Deduced);
        if let Some(v) = merge(t, l.and_then(|l| l.get(k)), r.and_then(|r| r.get(k))) {
            out.insert(k.clone(), v);
        }
    }
    (!out.is_empty()).then_some(Value::Object(out))
}

fn merge_list(elem: Tr, kind: ListKind, lhs: Option<&Value>, rhs: Option<&Value>) -> Option<Value> {
    let l = lhs.and_then(Value::as_array);
    let r = rhs.and_then(Value::as_array);
    let empty = |x: Option<&Vec<Value>>| x.is_none_or(Vec::is_empty);
    if kind == ListKind::Atomic || (empty(l) && empty(r)) {
        return keep_rhs(lhs, rhs);
    }
    // Configuration items are unique (validated); a live item whose key repeats is merged
    // as null.
    let rhs = indexed_items(kind, r);
    let lhs = indexed_items(kind, l);
    let mut observed_r: BTreeMap<&PathElement, &Value> = BTreeMap::new();
    for (pe, v) in &rhs {
        observed_r.entry(pe).or_insert(v);
    }
    let mut observed_l: BTreeMap<&PathElement, &Value> = BTreeMap::new();
    for (pe, v) in &lhs {
        observed_l
            .entry(pe)
            .and_modify(|seen| *seen = &Value::Null)
            .or_insert(v);
    }
    let merged = |pe: &PathElement, out: &mut Vec<Value>| {
        let (lc, rc) = (observed_l.get(pe).copied(), observed_r.get(pe).copied());
        if let Some(v) = merge(elem, lc, rc) {
            out.push(v);
        }
    };
    let mut shared = rhs
        .iter()
        .map(|(pe, _)| pe)
        .filter(|pe| observed_l.contains_key(pe))
        .collect::<std::collections::VecDeque<_>>();
    let mut next_shared = shared.pop_front();
    let mut merged_rhs: BTreeSet<&PathElement> = BTreeSet::new();
    let mut out: Vec<Value> = Vec::new();
    let (mut li, mut ri) = (0, 0);
    while li < lhs.len() || ri < rhs.len() {
        if li < lhs.len() && ri < rhs.len() {
            let pe = &lhs[li].0;
            if *pe == rhs[ri].0 {
                merged_rhs.insert(pe);
                merged(pe, &mut out);
                li += 1;
                ri += 1;
                next_shared = shared.pop_front();
                continue;
            }
            if observed_r.contains_key(pe) && next_shared.is_some_and(|n| n != pe) {
                li += 1;
                continue;
            }
        }
        if li < lhs.len() {
            let (pe, item) = &lhs[li];
            if !observed_r.contains_key(pe) {
                if let Some(v) = merge(elem, Some(item), None) {
                    out.push(v);
                }
                li += 1;
                continue;
            } else if merged_rhs.contains(pe) {
                li += 1;
            }
        }
        if ri < rhs.len() {
            let pe = &rhs[ri].0;
            merged_rhs.insert(pe);
            merged(pe, &mut out);
            ri += 1;
            if next_shared.is_some_and(|n| n == pe) {
                next_shared = shared.pop_front();
            }
        }
    }
    (!out.is_empty()).then_some(Value::Array(out))
}

/// `value` without the paths in `remove` (an exact match drops the whole subtree); `None`
/// when nothing is left of a map or list.
pub fn remove_items(tr: Tr, value: &Value, remove: &Set) -> Option<Value> {
    match resolve(tr, Some(value)) {
        Atom::Scalar(_) => Some(value.clone()),
        Atom::List { elem, kind } => {
            let Value::Array(items) = value else {
                return None;
            };
            if items.is_empty() || kind == ListKind::Atomic {
                return None;
            }
            let mut out = Vec::new();
            for item in items {
                let Ok(pe) = item_element(kind, item) else {
                    continue;
                };
                if remove.has(std::slice::from_ref(&pe)) {
                    continue;
                }
                let sub = remove.with_prefix(&pe);
                if sub.is_empty() {
                    out.push(item.clone());
                } else if let Some(v) = remove_items(elem, item, &sub) {
                    out.push(v);
                } else {
                    out.push(Value::Null);
                }
            }
            (!out.is_empty()).then_some(Value::Array(out))
        }
        Atom::Map(m) => {
            let Value::Object(map) = value else {
                return None;
            };
            if map.is_empty() || m.atomic {
                return None;
            }
            let mut out = Map::new();
            for (k, v) in map {
                let pe = PathElement::Field(k.clone());
                if remove.has(std::slice::from_ref(&pe)) {
                    continue;
                }
                let sub = remove.with_prefix(&pe);
                if sub.is_empty() {
                    out.insert(k.clone(), v.clone());
                } else {
                    let t = m.field_type(k).unwrap_or(Tr::Deduced);
                    out.insert(k.clone(), remove_items(t, v, &sub).unwrap_or(Value::Null));
                }
            }
            (!out.is_empty()).then_some(Value::Object(out))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resources::schema::CONTROLLER_REVISION;
    use serde_json::json;

    const CR: Tr = Tr::Struct(&CONTROLLER_REVISION);

    #[test]
    fn maps_merge_and_atomic_values_replace() {
        let live = json!({"metadata": {"labels": {"a": "1", "b": "2"}}, "data": {"x": [1, 2], "y": 1}, "revision": 1});
        let cfg = json!({"metadata": {"labels": {"b": "3"}}, "data": {"x": [3]}, "revision": 2});
        assert_eq!(
            merge(CR, Some(&live), Some(&cfg)).unwrap(),
            json!({"metadata": {"labels": {"a": "1", "b": "3"}}, "data": {"x": [3], "y": 1}, "revision": 2})
        );
    }

    #[test]
    fn sets_keep_live_order_and_place_new_items_by_the_configuration() {
        let live = json!({"metadata": {"finalizers": ["a", "b", "c"]}});
        let cfg = json!({"metadata": {"finalizers": ["x", "b", "y"]}});
        let out = merge(CR, Some(&live), Some(&cfg)).unwrap();
        assert_eq!(
            out["metadata"]["finalizers"],
            json!(["a", "x", "b", "c", "y"])
        );
    }

    #[test]
    fn owner_references_merge_by_uid_and_replace_each_item() {
        let live = json!({"metadata": {"ownerReferences": [
            {"uid": "1", "name": "a", "kind": "K", "apiVersion": "v1", "controller": true},
            {"uid": "2", "name": "b", "kind": "K", "apiVersion": "v1"}]}});
        let cfg = json!({"metadata": {"ownerReferences": [
            {"uid": "1", "name": "a2", "kind": "K", "apiVersion": "v1"}]}});
        let out = merge(CR, Some(&live), Some(&cfg)).unwrap();
        assert_eq!(
            out["metadata"]["ownerReferences"],
            json!([{"uid": "1", "name": "a2", "kind": "K", "apiVersion": "v1"},
                   {"uid": "2", "name": "b", "kind": "K", "apiVersion": "v1"}])
        );
    }

    #[test]
    fn removal_drops_exact_paths_and_emptied_containers() {
        let obj = json!({"metadata": {"labels": {"a": "1"}, "name": "r"}, "revision": 1});
        let mut s = Set::new();
        s.insert(&[
            PathElement::field("metadata"),
            PathElement::field("labels"),
            PathElement::field("a"),
        ]);
        s.insert(&[PathElement::field("revision")]);
        assert_eq!(
            remove_items(CR, &obj, &s).unwrap(),
            json!({"metadata": {"labels": null, "name": "r"}})
        );
    }
}
