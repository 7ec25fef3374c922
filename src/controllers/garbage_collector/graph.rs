//! The `GraphBuilder`: the ownership graph kept from the store's changes (`processGraphChanges`).
//!
//! Each node is an object seen in the store, or a *virtual* node for an owner a dependent
//! names but the builder has not seen (queued so that a worker checks whether it exists).
//! A change updates the node's owners and dependents and queues the items that may now have
//! work, as the real builder does; nothing here reads the store beyond the change itself.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use serde_json::Value;

use super::{Item, Queue};
use crate::registry::Registry;
use crate::resources::meta::{meta_str, str_at, str_items};
use crate::resources::validation::meta_fields::{
    FINALIZER_FOREGROUND as FOREGROUND, FINALIZER_ORPHAN as ORPHAN,
};

/// `absentOwnerCache`'s size (an LRU of 500 in the real collector).
const ABSENT_CACHE_SIZE: usize = 500;

/// An object's coordinates (`objectReference`): an owner reference plus a namespace.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Default)]
pub(super) struct Identity {
    pub api_version: String,
    pub kind: String,
    pub namespace: String,
    pub name: String,
    pub uid: String,
}

impl Identity {
    /// The coordinates an owner reference gives, in `namespace`.
    pub(super) fn of_ref(r: &Value, namespace: &str) -> Identity {
        Identity {
            api_version: str_at(r, "apiVersion").into(),
            kind: str_at(r, "kind").into(),
            namespace: namespace.into(),
            name: str_at(r, "name").into(),
            uid: str_at(r, "uid").into(),
        }
    }

    fn of_object(obj: &Value) -> Identity {
        Identity {
            api_version: str_at(obj, "apiVersion").into(),
            kind: str_at(obj, "kind").into(),
            namespace: meta_str(obj, "namespace").into(),
            name: meta_str(obj, "name").into(),
            uid: meta_str(obj, "uid").into(),
        }
    }

    /// `ownerReferenceMatchesCoordinates`: uid, name, kind and apiVersion agree.
    pub(super) fn matches(&self, r: &Value) -> bool {
        str_at(r, "uid") == self.uid
            && str_at(r, "name") == self.name
            && str_at(r, "kind") == self.kind
            && str_at(r, "apiVersion") == self.api_version
    }
}

/// One node of the graph.
#[derive(Debug, Clone, Default)]
pub(super) struct Node {
    pub identity: Identity,
    /// The object's owner references, as last seen.
    pub owners: Vec<Value>,
    /// The uids of the nodes naming this one as an owner.
    pub dependents: BTreeSet<String>,
    /// Being deleted in the foreground (waiting for its dependents).
    pub deleting_dependents: bool,
    pub being_deleted: bool,
    /// Added for an owner reference, not (yet) seen in the store.
    pub virtual_node: bool,
    /// The last seen object's (orphaning, deleting in the foreground), which a relist
    /// compares with, as an informer's replace does with its cached object.
    pub last: Waiting,
}

/// Whether an object waits for its dependents: being deleted with the `orphan`, or the
/// `foregroundDeletion`, finalizer.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Waiting {
    orphan: bool,
    foreground: bool,
}

impl Waiting {
    fn of(obj: Option<&Value>) -> Waiting {
        let Some(obj) = obj else {
            return Waiting::default();
        };
        let deleting = !meta_str(obj, "deletionTimestamp").is_empty();
        Waiting {
            orphan: deleting && has_finalizer(obj, ORPHAN),
            foreground: deleting && has_finalizer(obj, FOREGROUND),
        }
    }
}

impl Node {
    fn from_object(obj: &Value) -> Node {
        let deleting = !meta_str(obj, "deletionTimestamp").is_empty();
        Node {
            identity: Identity::of_object(obj),
            owners: owner_refs(obj),
            dependents: BTreeSet::new(),
            deleting_dependents: deleting && has_finalizer(obj, FOREGROUND),
            being_deleted: deleting,
            virtual_node: false,
            last: Waiting::of(Some(obj)),
        }
    }
}

/// What the graph builder reads of an object: its type and the metadata it tracks (the real
/// one watches through metadata informers), read straight from the stored JSON with the rest
/// skipped unbuilt (the spec, the data and managedFields never become values: a write's
/// observation costs a scan, not a decode).
pub(super) fn metadata_of(obj: &crate::codec::Object) -> Value {
    #[derive(serde::Deserialize, serde::Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Seen {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        kind: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        api_version: Option<String>,
        #[serde(default)]
        metadata: SeenMeta,
    }
    #[derive(serde::Deserialize, serde::Serialize, Default)]
    #[serde(rename_all = "camelCase", default)]
    struct SeenMeta {
        #[serde(skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        namespace: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        uid: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        deletion_timestamp: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        finalizers: Option<Value>,
        #[serde(skip_serializing_if = "Option::is_none")]
        owner_references: Option<Value>,
    }
    // A value of another type than Go's (kept by a lenient canonicalization) or nesting
    // beyond serde_json's limit: the whole metadata, decoded.
    serde_json::from_slice::<Seen>(obj.json())
        .ok()
        .and_then(|seen| serde_json::to_value(seen).ok())
        .unwrap_or_else(|| obj.decode_members(&["kind", "apiVersion", "metadata"]))
}

pub(super) fn owner_refs(obj: &Value) -> Vec<Value> {
    obj["metadata"]["ownerReferences"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

pub(super) fn has_finalizer(obj: &Value, f: &str) -> bool {
    str_items(&obj["metadata"]["finalizers"]).any(|x| x == f)
}

/// The kinds the graph builder does not watch (`ignoredResources`): Events, which come and go
/// by their own TTL.
fn ignored(obj: &Value) -> bool {
    str_at(obj, "kind") == "Event" && matches!(str_at(obj, "apiVersion"), "v1" | "events.k8s.io/v1")
}

pub(super) fn blocks(r: &Value) -> bool {
    r["blockOwnerDeletion"].as_bool() == Some(true)
}

/// The graph, its work queue, the owners known to be absent, and the Events to record.
#[derive(Debug, Clone, Default)]
pub(super) struct Graph {
    pub nodes: BTreeMap<String, Node>,
    pub queue: Queue,
    absent: BTreeSet<Identity>,
    absent_order: VecDeque<Identity>,
    /// (dependent, owner reference) pairs to report as `OwnerRefInvalidNamespace`.
    pub reports: Vec<(Identity, Value)>,
    /// Nodes removed from the graph while queued for orphaning.
    pub orphan_stash: BTreeMap<String, Node>,
}

impl Graph {
    pub(super) fn enqueue_delete(&mut self, uid: &str, at: i64) {
        self.queue.add(Item::Delete(uid.to_string()), at);
    }

    /// Records `id` as absent (`absentOwnerCache.Add`).
    pub(super) fn add_absent(&mut self, id: Identity) {
        if self.absent.insert(id.clone()) {
            self.absent_order.push_back(id);
            if self.absent_order.len() > ABSENT_CACHE_SIZE {
                if let Some(old) = self.absent_order.pop_front() {
                    self.absent.remove(&old);
                }
            }
        }
    }

    pub(super) fn is_absent(&self, id: &Identity) -> bool {
        self.absent.contains(id)
    }

    /// A fresh list: every live object as an addition or update, and every node no longer
    /// in the store as a deletion (an informer's replace).
    pub(super) fn relist(&mut self, reg: &Registry, at: i64) {
        let mut live = BTreeSet::new();
        for info in reg.kinds().iter().filter(|k| k.strategy.stored()) {
            for obj in reg.live(info, None) {
                if ignored(&obj) {
                    continue;
                }
                let uid = meta_str(&obj, "uid").to_string();
                // A node seen before compares with what was seen; a new or virtual one is
                // an addition.
                let before = self
                    .nodes
                    .get(&uid)
                    .filter(|n| !n.virtual_node)
                    .map_or(Waiting::default(), |n| n.last);
                self.apply(&obj, before, at);
                live.insert(uid);
            }
        }
        let gone: Vec<String> = self
            .nodes
            .iter()
            .filter(|(uid, n)| !n.virtual_node && !live.contains(*uid))
            .map(|(uid, _)| uid.clone())
            .collect();
        for uid in gone {
            self.remove(&uid, at);
        }
    }

    /// One change from the store's stream: `prev` → `value` (`None` for a creation or a
    /// deletion).
    pub(super) fn change(&mut self, prev: Option<&Value>, value: Option<&Value>, at: i64) {
        let Some(obj) = value.or(prev) else {
            return;
        };
        if ignored(obj) {
            return;
        }
        match value {
            Some(obj) => self.apply(obj, Waiting::of(prev), at),
            None => self.remove(meta_str(obj, "uid"), at),
        }
    }

    /// An addition or update of `obj`, whose previous state waited as `before`.
    fn apply(&mut self, obj: &Value, before: Waiting, at: i64) {
        let uid = meta_str(obj, "uid").to_string();
        // One lookup for the common case, an object not seen before.
        let seen = match self.nodes.get(&uid) {
            None => None,
            Some(n) if n.virtual_node => {
                self.observe_virtual(&uid, obj, at);
                self.nodes.get(&uid).map(|n| n.owners.clone())
            }
            Some(n) => Some(n.owners.clone()),
        };
        match seen {
            None => {
                let node = Node::from_object(obj);
                let owners = node.owners.clone();
                self.nodes.insert(uid.clone(), node);
                self.add_dependent_to_owners(&uid, &owners, at);
                self.transitions(before, obj, &uid, at);
            }
            Some(old_owners) => {
                let new_owners = owner_refs(obj);
                let (added, removed, changed) = diff(&old_owners, &new_owners);
                if !added.is_empty() || !removed.is_empty() || !changed.is_empty() {
                    // An owner waiting for this blocking dependent may go on now.
                    let unblocked = removed.iter().filter(|r| blocks(r)).chain(
                        changed
                            .iter()
                            .filter(|(o, n)| blocks(o) && !blocks(n))
                            .map(|(_, n)| n),
                    );
                    for r in unblocked {
                        if self.nodes.contains_key(str_at(r, "uid")) {
                            self.enqueue_delete(str_at(r, "uid"), at);
                        }
                    }
                    if let Some(node) = self.nodes.get_mut(&uid) {
                        node.owners = new_owners;
                    }
                    self.add_dependent_to_owners(&uid, &added, at);
                    for r in &removed {
                        if let Some(owner) = self.nodes.get_mut(str_at(r, "uid")) {
                            owner.dependents.remove(&uid);
                        }
                    }
                }
                if let Some(node) = self.nodes.get_mut(&uid) {
                    node.being_deleted |= !meta_str(obj, "deletionTimestamp").is_empty();
                    node.last = Waiting::of(Some(obj));
                }
                self.transitions(before, obj, &uid, at);
            }
        }
    }

    /// A virtual node seen in the store for the first time: when its coordinates differ
    /// from what its dependents said, those dependents are looked at again (and reported
    /// when the owner turns out to live in another namespace).
    fn observe_virtual(&mut self, uid: &str, obj: &Value, at: i64) {
        let observed = Identity::of_object(obj);
        let Some(node) = self.nodes.get_mut(uid) else {
            return;
        };
        node.virtual_node = false;
        if node.identity == observed {
            return;
        }
        node.identity = observed.clone();
        let dependents: Vec<String> = node.dependents.iter().cloned().collect();
        for dep_uid in dependents {
            let Some(dep) = self.nodes.get(&dep_uid) else {
                continue;
            };
            let refs: Vec<Value> = dep
                .owners
                .iter()
                .filter(|r| str_at(r, "uid") == uid)
                .cloned()
                .collect();
            let matching = |r: &Value| {
                observed.matches(r)
                    && (observed.namespace.is_empty()
                        || observed.namespace == dep.identity.namespace)
            };
            let Some(r) = refs.iter().find(|r| !matching(r)) else {
                continue;
            };
            if !observed.namespace.is_empty() && dep.identity.namespace != observed.namespace {
                self.reports.push((dep.identity.clone(), r.clone()));
            }
            self.enqueue_delete(&dep_uid, at);
        }
    }

    /// `addDependentToOwners`: `uid` joins each owner's dependents (a virtual node, queued
    /// for a check, for an owner not seen yet); a reference that may be invalid queues the
    /// dependent itself.
    fn add_dependent_to_owners(&mut self, uid: &str, owners: &[Value], at: i64) {
        if owners.is_empty() {
            return;
        }
        let Some(dependent) = self.nodes.get(uid).map(|n| n.identity.clone()) else {
            return;
        };
        let mut potentially_invalid = false;
        for r in owners {
            let owner_uid = str_at(r, "uid").to_string();
            match self.nodes.get_mut(&owner_uid) {
                None => {
                    let mut node = Node {
                        identity: Identity::of_ref(r, &dependent.namespace),
                        virtual_node: true,
                        ..Node::default()
                    };
                    node.dependents.insert(uid.to_string());
                    self.nodes.insert(owner_uid.clone(), node);
                    self.enqueue_delete(&owner_uid, at);
                }
                Some(owner) => {
                    owner.dependents.insert(uid.to_string());
                    if potentially_invalid {
                        continue;
                    }
                    let owner_ns = owner.identity.namespace.clone();
                    if !owner_ns.is_empty() && owner_ns != dependent.namespace {
                        if !owner.virtual_node {
                            self.reports.push((dependent.clone(), r.clone()));
                        }
                        potentially_invalid = true;
                    } else if !owner.identity.matches(r)
                        || (owner_ns.is_empty()
                            && !dependent.namespace.is_empty()
                            && owner.virtual_node)
                    {
                        potentially_invalid = true;
                    }
                }
            }
        }
        if potentially_invalid {
            self.enqueue_delete(uid, at);
        }
    }

    /// `processTransitions`: the start of an orphaning or a foreground deletion.
    fn transitions(&mut self, before: Waiting, obj: &Value, uid: &str, at: i64) {
        let now = Waiting::of(Some(obj));
        if now.orphan && !before.orphan {
            self.queue.add(Item::Orphan(uid.to_string()), at);
            return;
        }
        if now.foreground && !before.foreground {
            let Some(node) = self.nodes.get_mut(uid) else {
                return;
            };
            node.deleting_dependents = true;
            let dependents: Vec<String> = node.dependents.iter().cloned().collect();
            for dep in dependents {
                self.enqueue_delete(&dep, at);
            }
            self.enqueue_delete(uid, at);
        }
    }

    /// A deletion: the node leaves the graph; its dependents are queued (their owner is now
    /// known absent) and so are owners waiting for their dependents.
    pub(super) fn remove(&mut self, uid: &str, at: i64) {
        let Some(current) = self.nodes.remove(uid) else {
            return;
        };
        if self.queue.contains(&Item::Orphan(uid.to_string())) {
            // The orphan worker still needs its dependents (Go's queue holds the node).
            self.orphan_stash.insert(uid.to_string(), current.clone());
        }
        for r in &current.owners {
            if let Some(owner) = self.nodes.get_mut(str_at(r, "uid")) {
                owner.dependents.remove(uid);
            }
        }
        if !current.dependents.is_empty() {
            self.add_absent(current.identity.clone());
        }
        for dep in &current.dependents {
            self.enqueue_delete(dep, at);
        }
        for r in &current.owners {
            let owner_uid = str_at(r, "uid");
            if self
                .nodes
                .get(owner_uid)
                .is_some_and(|o| o.deleting_dependents)
            {
                self.enqueue_delete(owner_uid, at);
            }
        }
    }
}

/// `referencesDiffs`: owner references added, removed, and changed (by uid).
fn diff(old: &[Value], new: &[Value]) -> (Vec<Value>, Vec<Value>, Vec<(Value, Value)>) {
    let old_by_uid: BTreeMap<&str, &Value> =
        crate::sort::btree_map(old.iter().map(|r| (str_at(r, "uid"), r)));
    let mut seen = BTreeSet::new();
    let (mut added, mut changed) = (Vec::new(), Vec::new());
    for r in new {
        let uid = str_at(r, "uid");
        match old_by_uid.get(uid) {
            Some(o) => {
                seen.insert(uid);
                if *o != r {
                    changed.push(((*o).clone(), r.clone()));
                }
            }
            None => added.push(r.clone()),
        }
    }
    let removed = old
        .iter()
        .filter(|r| !seen.contains(str_at(r, "uid")))
        .cloned()
        .collect();
    (added, removed, changed)
}
