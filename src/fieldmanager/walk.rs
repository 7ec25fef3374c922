//! The two read-only walks of structured-merge-diff: the set of fields an object sets
//! (`TypedValue.ToFieldSet`, which is what an applier owns) and the comparison of two
//! objects (`TypedValue.Compare`: added, modified and removed paths, which is what an
//! updater takes ownership of).
//!
//! Ported for exact results, including their quirks: an empty or null map or list is a leaf;
//! a node that appears or disappears is itself added or removed (hence the `.` entries of
//! Update operations); duplicated set items or keys are owned as a whole.

use serde_json::{Map, Value};

use super::path::{Path, PathElement};
use super::set::Set;
use std::collections::BTreeMap;

use super::typed::{indexed_items, resolve, same_atom, zip_keys, Atom, ListKind, MapAtom, Tr};

/// The fields `value` sets.
pub fn to_field_set(tr: Tr, value: &Value) -> Set {
    let mut set = Set::new();
    field_set_into(tr, value, &mut Vec::new(), &mut set);
    set
}

fn field_set_into(tr: Tr, value: &Value, path: &mut Path, set: &mut Set) {
    match resolve(tr, Some(value)) {
        Atom::Scalar(_) => set.insert(path),
        Atom::List { elem, kind } => {
            if kind == ListKind::Atomic {
                set.insert(path);
                return;
            }
            // Items whose key repeats are owned as a whole, once.
            let items = indexed_items(kind, value.as_array());
            let mut count: BTreeMap<&PathElement, usize> = BTreeMap::new();
            for (pe, _) in &items {
                *count.entry(pe).or_default() += 1;
            }
            for (pe, item) in &items {
                path.push(pe.clone());
                if count[pe] == 1 {
                    field_set_into(elem, item, path, set);
                }
                set.insert(path);
                path.pop();
            }
        }
        Atom::Map(m) => {
            if m.atomic {
                set.insert(path);
                return;
            }
            let Value::Object(map) = value else { return };
            for (k, v) in map {
                let Some(t) = m.field_type(k) else { continue };
                path.push(PathElement::Field(k.clone()));
                field_set_into(t, v, path, set);
                let empty_map = v.as_object().is_some_and(Map::is_empty);
                if v.is_null() || empty_map || !m.is_named(k) {
                    set.insert(path);
                }
                path.pop();
            }
        }
    }
}

/// What changed from `lhs` to `rhs`.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Comparison {
    pub removed: Set,
    pub modified: Set,
    pub added: Set,
}

/// Compares two objects of type `tr`.
pub fn compare(tr: Tr, lhs: &Value, rhs: &Value) -> Comparison {
    let mut c = Comparison::default();
    let mut w = Walker {
        path: Vec::new(),
        out: &mut c,
    };
    w.node(tr, Some(lhs), Some(rhs), false);
    c
}

struct Walker<'a> {
    path: Path,
    out: &'a mut Comparison,
}

impl Walker<'_> {
    /// One node (`compareWalker.compare`); `in_leaf` is true inside an atomic map or list.
    fn node(&mut self, tr: Tr, lhs: Option<&Value>, rhs: Option<&Value>, in_leaf: bool) {
        let a_l = resolve(tr, lhs);
        let a_r = resolve(tr, rhs);
        if rhs.is_none() {
            self.atom(a_l, lhs, rhs, in_leaf);
        } else if lhs.is_none() || same_atom(&a_l, &a_r) {
            self.atom(a_r, lhs, rhs, in_leaf);
        } else {
            self.atom(a_l, lhs, rhs, in_leaf);
            self.atom(a_r, lhs, rhs, in_leaf);
        }
        if !in_leaf {
            if lhs.is_none() {
                self.out.added.insert(&self.path);
            } else if rhs.is_none() {
                self.out.removed.insert(&self.path);
            }
        }
    }

    fn leaf(&mut self, lhs: Option<&Value>, rhs: Option<&Value>, in_leaf: bool) {
        if in_leaf {
            return;
        }
        match (lhs, rhs) {
            (None, _) => self.out.added.insert(&self.path),
            (_, None) => self.out.removed.insert(&self.path),
            (Some(l), Some(r)) if l != r => self.out.modified.insert(&self.path),
            _ => {}
        }
    }

    fn atom(&mut self, atom: Atom, lhs: Option<&Value>, rhs: Option<&Value>, in_leaf: bool) {
        match atom {
            Atom::Scalar(_) => self.leaf(lhs, rhs, in_leaf),
            Atom::List { elem, kind } => self.list(elem, kind, lhs, rhs, in_leaf),
            Atom::Map(m) => self.map(m, lhs, rhs, in_leaf),
        }
    }

    fn list(
        &mut self,
        elem: Tr,
        kind: ListKind,
        lhs: Option<&Value>,
        rhs: Option<&Value>,
        in_leaf: bool,
    ) {
        let l = lhs.and_then(Value::as_array);
        let r = rhs.and_then(Value::as_array);
        let empty = |x: Option<&Vec<Value>>| x.is_none_or(Vec::is_empty);
        if kind == ListKind::Atomic || (empty(l) && empty(r)) {
            self.leaf(lhs, rhs, in_leaf);
            return;
        }
        if in_leaf {
            return;
        }
        // Items by path element, left and right (a repeated key gathers its items).
        let mut items: BTreeMap<PathElement, (Vec<&Value>, Vec<&Value>)> = BTreeMap::new();
        for (pe, v) in indexed_items(kind, l) {
            items.entry(pe).or_default().0.push(v);
        }
        for (pe, v) in indexed_items(kind, r) {
            items.entry(pe).or_default().1.push(v);
        }
        for (pe, (ls, rs)) in items {
            self.path.push(pe);
            match (ls.len(), rs.len()) {
                (0 | 1, 0 | 1) => self.node(elem, ls.first().copied(), rs.first().copied(), false),
                (a, b) if a >= 2 && b >= 2 => {
                    if ls != rs {
                        self.out.modified.insert(&self.path);
                    }
                }
                (a, _) if a >= 2 => {
                    if let Some(r0) = rs.first() {
                        self.node(elem, None, Some(*r0), false);
                    }
                    self.out.removed.insert(&self.path);
                }
                _ => {
                    if let Some(l0) = ls.first() {
                        self.node(elem, Some(*l0), None, false);
                    }
                    self.out.added.insert(&self.path);
                }
            }
            self.path.pop();
        }
    }

    fn map(&mut self, m: MapAtom, lhs: Option<&Value>, rhs: Option<&Value>, in_leaf: bool) {
        let l = lhs.and_then(Value::as_object);
        let r = rhs.and_then(Value::as_object);
        let empty = |x: Option<&Map<String, Value>>| x.is_none_or(Map::is_empty);
        if m.atomic || (empty(l) && empty(r)) {
            self.leaf(lhs, rhs, in_leaf);
            return;
        }
        if in_leaf {
            return;
        }
        for k in zip_keys(l, r) {
            let t = m.field_type(k).unwrap_or(Tr::Deduced);
            self.path.push(PathElement::Field(k.clone()));
            self.node(t, l.and_then(|l| l.get(k)), r.and_then(|r| r.get(k)), false);
            self.path.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resources::schema::CONTROLLER_REVISION;
    use serde_json::json;

    fn fields(s: &Set) -> String {
        crate::codec::json::to_compact_string(&s.to_fields_v1())
    }

    const CR: Tr = Tr::Struct(&CONTROLLER_REVISION);

    #[test]
    fn an_applied_configuration_owns_its_leaves_and_map_keys() {
        let cfg = json!({
            "apiVersion": "apps/v1", "kind": "ControllerRevision",
            "metadata": {"name": "r", "labels": {"app": "x"}, "finalizers": ["f"],
                         "ownerReferences": [{"uid": "u", "name": "o", "kind": "K", "apiVersion": "v1"}]},
            "data": {"a": {"b": 1}, "l": [1, 2]},
            "revision": 1
        });
        assert_eq!(
            fields(&to_field_set(CR, &cfg)),
            r#"{"f:apiVersion":{},"f:data":{"f:a":{".":{},"f:b":{}},"f:l":{}},"f:kind":{},"f:metadata":{"f:finalizers":{"v:\"f\"":{}},"f:labels":{"f:app":{}},"f:name":{},"f:ownerReferences":{"k:{\"uid\":\"u\"}":{}}},"f:revision":{}}"#
        );
    }

    #[test]
    fn a_comparison_adds_the_nodes_that_appear() {
        let old = json!({"metadata": {"name": "r"}, "data": null, "revision": 0});
        let new = json!({"metadata": {"name": "r", "labels": {"a": "1"}}, "data": {"x": 1}, "revision": 2});
        let c = compare(CR, &old, &new);
        assert_eq!(
            fields(&c.added),
            r#"{"f:data":{"f:x":{}},"f:metadata":{"f:labels":{".":{},"f:a":{}}}}"#
        );
        assert_eq!(fields(&c.modified), r#"{"f:revision":{}}"#);
        let back = compare(CR, &new, &old);
        assert_eq!(
            fields(&back.removed),
            r#"{"f:data":{"f:x":{}},"f:metadata":{"f:labels":{".":{},"f:a":{}}}}"#
        );
        assert_eq!(compare(CR, &new, &new), Comparison::default());
    }
}
