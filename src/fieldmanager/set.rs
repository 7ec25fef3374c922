//! Field sets, as structured-merge-diff's `fieldpath.Set`: a trie of path elements whose
//! members are owned paths, and their FieldsV1 encoding (`f:`/`k:`/`v:`/`i:` keys, `.` for a
//! node that is itself a member and has children, `{}` leaves, children in element order),
//! which kube-apiserver writes into every managedFields entry.
//!
//! Invariant: no child node is empty (operations drop the nodes they empty).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use super::path::{Path, PathElement};
use super::typed::{resolve, Atom, Tr};
use crate::sort::btree_set;

/// A set of field paths.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Set {
    members: BTreeSet<PathElement>,
    children: BTreeMap<PathElement, Set>,
}

impl Set {
    /// The empty set.
    pub fn new() -> Self {
        Set::default()
    }

    /// Whether no path is in the set.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty() && self.children.is_empty()
    }

    /// Adds a path (the empty path is ignored: no one owns the whole object).
    pub fn insert(&mut self, path: &[PathElement]) {
        match path {
            [] => {}
            [last] => {
                self.members.insert(last.clone());
            }
            // The element is cloned only for a new node: a create inserts every leaf of
            // the object from the root.
            [first, rest @ ..] => match self.children.get_mut(first) {
                Some(child) => child.insert(rest),
                None => self.children.entry(first.clone()).or_default().insert(rest),
            },
        }
    }

    /// Whether `path` is a member.
    pub fn has(&self, path: &[PathElement]) -> bool {
        match path {
            [] => false,
            [last] => self.members.contains(last),
            [first, rest @ ..] => self.children.get(first).is_some_and(|c| c.has(rest)),
        }
    }

    /// The members under `pe`, without the prefix.
    pub fn with_prefix(&self, pe: &PathElement) -> Set {
        self.children.get(pe).cloned().unwrap_or_default()
    }

    /// Replaces the node under `pe` (dropped when empty).
    fn set_child(&mut self, pe: PathElement, child: Set) {
        if child.is_empty() {
            self.children.remove(&pe);
        } else {
            self.children.insert(pe, child);
        }
    }

    /// Paths in either set.
    pub fn union(&self, other: &Set) -> Set {
        let mut out = self.clone();
        out.union_with(other);
        out
    }

    /// Adds the paths of `other`, in place (no copy of what is already here).
    pub fn union_with(&mut self, other: &Set) {
        self.members.extend(other.members.iter().cloned());
        for (pe, child) in &other.children {
            match self.children.get_mut(pe) {
                Some(mine) => mine.union_with(child),
                None => {
                    self.children.insert(pe.clone(), child.clone());
                }
            }
        }
    }

    /// Removes the paths of `other`, in place ([`Set::difference`] without a copy).
    pub fn subtract(&mut self, other: &Set) {
        if other.is_empty() || self.is_empty() {
            return;
        }
        self.members.retain(|m| !other.members.contains(m));
        self.children.retain(|pe, child| {
            if let Some(theirs) = other.children.get(pe) {
                child.subtract(theirs);
            }
            !child.is_empty()
        });
    }

    /// Removes the paths that lie under (or at) a member of `other`, in place
    /// ([`Set::recursive_difference`] without a copy).
    pub fn subtract_recursive(&mut self, other: &Set) {
        if other.is_empty() || self.is_empty() {
            return;
        }
        self.members.retain(|m| !other.members.contains(m));
        self.children.retain(|pe, child| {
            if other.members.contains(pe) {
                return false;
            }
            if let Some(theirs) = other.children.get(pe) {
                child.subtract_recursive(theirs);
            }
            !child.is_empty()
        });
    }

    /// Paths in this set and not in `other`.
    pub fn difference(&self, other: &Set) -> Set {
        let mut out = Set {
            members: btree_set(self.members.difference(&other.members).cloned()),
            children: BTreeMap::new(),
        };
        for (pe, child) in &self.children {
            match other.children.get(pe) {
                Some(theirs) => out.set_child(pe.clone(), child.difference(theirs)),
                None => out.set_child(pe.clone(), child.clone()),
            }
        }
        out
    }

    /// Paths in this set that do not lie under (or at) a member of `other`
    /// (`RecursiveDifference`, how reset fields such as `status` are excluded).
    pub fn recursive_difference(&self, other: &Set) -> Set {
        let mut out = Set {
            members: btree_set(self.members.difference(&other.members).cloned()),
            children: BTreeMap::new(),
        };
        for (pe, child) in &self.children {
            if other.members.contains(pe) {
                continue;
            }
            match other.children.get(pe) {
                Some(theirs) => out.set_child(pe.clone(), child.recursive_difference(theirs)),
                None => out.set_child(pe.clone(), child.clone()),
            }
        }
        out
    }

    /// Paths in both sets.
    pub fn intersection(&self, other: &Set) -> Set {
        let mut out = Set {
            members: btree_set(self.members.intersection(&other.members).cloned()),
            children: BTreeMap::new(),
        };
        for (pe, child) in &self.children {
            if let Some(theirs) = other.children.get(pe) {
                out.set_child(pe.clone(), child.intersection(theirs));
            }
        }
        out
    }

    /// This set plus the named (struct) fields on the way to its paths
    /// (`EnsureNamedFieldsAreMembers`): owning `.metadata.labels.a` then also owns
    /// `.metadata` and `.metadata.labels`, but owning `.data.x.y` does not own the map key
    /// `.data.x`.
    pub fn with_named_parents(&self, tr: Tr) -> Set {
        let atom = resolve(tr, None);
        let mut out = Set {
            members: self.members.clone(),
            children: BTreeMap::new(),
        };
        for (pe, child) in &self.children {
            let mut child_tr = Tr::Deduced;
            match (pe, atom) {
                (PathElement::Field(name), Atom::Map(m)) => {
                    if m.is_named(name) {
                        out.members.insert(pe.clone());
                    }
                    child_tr = m.field_type(name).unwrap_or(Tr::Deduced);
                }
                (PathElement::Key(_), Atom::List { elem, .. }) => child_tr = elem,
                _ => {}
            }
            out.children
                .insert(pe.clone(), child.with_named_parents(child_tr));
        }
        out
    }

    /// Every path, members of a level before its children (`Set.Iterate`, a preorder walk).
    pub fn paths(&self) -> Vec<Path> {
        let mut out = Vec::new();
        self.collect(&mut Vec::new(), &mut out);
        out
    }

    fn collect(&self, prefix: &mut Path, out: &mut Vec<Path>) {
        for m in &self.members {
            let mut p = prefix.clone();
            p.push(m.clone());
            out.push(p);
        }
        for (pe, child) in &self.children {
            prefix.push(pe.clone());
            child.collect(prefix, out);
            prefix.pop();
        }
    }

    /// The FieldsV1 JSON of this set.
    pub fn to_fields_v1(&self) -> Value {
        Value::Object(self.emit(false))
    }

    fn emit(&self, include_self: bool) -> Map<String, Value> {
        let mut out = Map::new();
        if include_self && !self.is_empty() {
            out.insert(".".into(), Value::Object(Map::new()));
        }
        // Members and children interleave in element order (both are sorted: merged as
        // they go); a member with children is written once, as a node that lists itself
        // with `.`.
        let mut members = self.members.iter().peekable();
        let mut children = self.children.iter().peekable();
        loop {
            let (pe, body) = match (members.peek(), children.peek()) {
                (None, None) => break,
                (Some(m), Some((c, _))) if m < c => (members.next().expect("peeked"), Map::new()),
                (Some(_), None) => (members.next().expect("peeked"), Map::new()),
                (m, Some((c, child))) => {
                    let member = m.is_some_and(|m| m == c);
                    if member {
                        members.next();
                    }
                    let (c, child) = (*c, *child);
                    children.next();
                    (c, child.emit(member))
                }
            };
            out.insert(pe.serialize(), Value::Object(body));
        }
        out
    }

    /// Reads FieldsV1 JSON (`Set.FromJSON`).
    pub fn from_fields_v1(v: &Value) -> Result<Set, String> {
        let Value::Object(m) = v else {
            return Err("expect object".into());
        };
        Ok(Self::read(m)?.0)
    }

    /// The set a FieldsV1 object describes, and whether it listed itself (`.`).
    fn read(m: &Map<String, Value>) -> Result<(Set, bool), String> {
        let mut set = Set::new();
        let mut is_member = false;
        for (k, v) in m {
            if k == "." {
                is_member = true;
                continue;
            }
            let pe = PathElement::deserialize(k).map_err(|e| format!("parsing JSON: {e}"))?;
            let Value::Object(inner) = v else {
                return Err("expect object value".into());
            };
            if inner.is_empty() {
                set.members.insert(pe);
                continue;
            }
            let (child, member) = Self::read(inner)?;
            if member {
                set.members.insert(pe.clone());
            }
            set.set_child(pe, child);
        }
        Ok((set, is_member))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn f(n: &str) -> PathElement {
        PathElement::field(n)
    }

    #[test]
    fn fields_v1_writes_dot_for_members_with_children() {
        let mut s = Set::new();
        s.insert(&[f("metadata"), f("labels")]);
        s.insert(&[f("metadata"), f("labels"), f("app")]);
        s.insert(&[f("revision")]);
        s.insert(&[
            f("metadata"),
            f("finalizers"),
            PathElement::Value(json!("x")),
        ]);
        let v = s.to_fields_v1();
        assert_eq!(
            crate::codec::json::to_compact_string(&v),
            r#"{"f:metadata":{"f:finalizers":{"v:\"x\"":{}},"f:labels":{".":{},"f:app":{}}},"f:revision":{}}"#
        );
        assert_eq!(Set::from_fields_v1(&v).unwrap(), s);
    }

    #[test]
    fn operations_drop_emptied_nodes() {
        let mut a = Set::new();
        a.insert(&[f("a"), f("b")]);
        a.insert(&[f("c")]);
        let mut b = Set::new();
        b.insert(&[f("a"), f("b")]);
        assert_eq!(a.difference(&b).paths(), vec![vec![f("c")]]);
        assert!(a.intersection(&Set::new()).is_empty());
        assert_eq!(a.union(&b), a);
        assert!(a.has(&[f("a"), f("b")]) && !a.has(&[f("a")]));
    }

    /// The in-place operations leave what their copying forms return.
    #[test]
    fn in_place_operations_equal_their_copying_forms() {
        let set = |paths: &[&[&str]]| {
            let mut s = Set::new();
            for p in paths {
                s.insert(&p.iter().map(|n| f(n)).collect::<Vec<_>>());
            }
            s
        };
        let a = set(&[&["a", "b"], &["a", "c"], &["a"], &["d"], &["e", "f", "g"]]);
        let others = [
            set(&[]),
            set(&[&["a"]]),
            set(&[&["a", "b"]]),
            set(&[&["a", "b"], &["a", "c"], &["e", "f", "g"]]),
            set(&[&["e"], &["d", "x"]]),
            a.clone(),
        ];
        for b in &others {
            let mut d = a.clone();
            d.subtract(b);
            assert_eq!(d, a.difference(b));
            let mut r = a.clone();
            r.subtract_recursive(b);
            assert_eq!(r, a.recursive_difference(b));
        }
    }

    #[test]
    fn paths_list_members_before_children() {
        let mut s = Set::new();
        s.insert(&[f("data"), f("x")]);
        s.insert(&[f("revision")]);
        let paths: Vec<String> = s
            .paths()
            .iter()
            .map(|p| super::super::path::path_string(p))
            .collect();
        assert_eq!(paths, [".revision", ".data.x"]);
    }
}
