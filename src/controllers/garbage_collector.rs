//! The garbage collector (kube-controller-manager's `garbagecollector`): follows
//! `metadata.ownerReferences` across every stored kind.
//!
//! - A dependent whose owners are all gone (absent, or the name now holds another uid) is
//!   deleted; references to vanished owners are removed from one that keeps a live owner.
//! - An owner deleted in the foreground keeps `foregroundDeletion` while dependents with
//!   `blockOwnerDeletion` remain; its dependents are deleted (in the foreground themselves
//!   when they have dependents), then the finalizer goes and the owner with it.
//! - An owner deleted with `Orphan` keeps `orphan` until its reference is removed from every
//!   dependent.
//! - A namespaced dependent's owner is looked up in its own namespace (or cluster-wide for a
//!   cluster-scoped kind); a cluster-scoped dependent naming a namespaced owner, or an owner
//!   kind the server does not serve, is left alone, as the real collector gives up on it.
//! - A dependent whose owner reference names the uid of an object in another namespace gets
//!   a Warning Event `OwnerRefInvalidNamespace`, once, as the graph builder records it
//!   ([`events`]).
//!
//! The real collector reacts to watch events through work queues within about a second.
//! kubesim runs whole passes over a graph built from the store, `delay_ms` of simulated time
//! after a change that can matter to it, and again `delay_ms` after each pass that acted —
//! so a cascade unfolds one level per step, deterministically, and can be watched
//! (`Engine::advance` stops at each pass's time).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Map, Value};

use crate::codec::Object;
use crate::registry::{DeleteOptions, Registry, Write};
use crate::resources::meta::{meta_mut, meta_str, set_finalizers, str_at, str_items, strings};
use crate::resources::ResourceInfo;

/// The default delay: the real collector acts within about a second.
pub const DEFAULT_DELAY_MS: i64 = 1000;
use super::MANAGER;
use crate::resources::validation::meta_fields::{
    FINALIZER_FOREGROUND as FOREGROUND, FINALIZER_ORPHAN as ORPHAN,
};
/// At most this many passes per tick (a cascade deeper than this continues on later ticks).
const MAX_PASSES: usize = 64;

/// The collector's schedule, held by the engine.
#[derive(Debug, Clone)]
pub struct GarbageCollector {
    delay_ms: i64,
    /// The store revision last looked at.
    seen: u64,
    /// When the next pass is due (simulated ms).
    due: Option<i64>,
    /// (dependent uid, owner uid) pairs already reported as invalid-namespace references.
    reported: BTreeSet<(String, String)>,
}

impl GarbageCollector {
    /// A collector acting `delay_ms` after changes.
    pub fn new(delay_ms: i64) -> Self {
        GarbageCollector {
            delay_ms: delay_ms.max(0),
            seen: 0,
            due: None,
            reported: BTreeSet::new(),
        }
    }

    /// The collector after a restart of kube-controller-manager: the same settings, nothing
    /// seen or scheduled.
    pub fn restarted(&self) -> Self {
        GarbageCollector::new(self.delay_ms)
    }

    /// When the next pass is due, if one is scheduled.
    pub fn next_due(&self) -> Option<i64> {
        self.due
    }

    /// Runs the passes that are due.
    pub fn run(&mut self, reg: &mut Registry) {
        let now = reg.clock().now_ms();
        let rev = reg.store().revision();
        if rev != self.seen {
            // Only writes that can matter to the collector schedule a pass (`Engine::tick`
            // runs after every request).
            let relevant = match reg.store().events_after(self.seen) {
                Ok(events) => events.iter().any(matters),
                Err(_) => true,
            };
            if relevant {
                self.due.get_or_insert(now + self.delay_ms);
            }
            self.seen = rev;
        }
        for _ in 0..MAX_PASSES {
            match self.due {
                Some(due) if due <= now => {
                    let acted = pass(reg, &mut self.reported);
                    self.seen = reg.store().revision();
                    self.due = acted.then_some(due + self.delay_ms);
                }
                _ => break,
            }
        }
    }
}

/// Whether a store event can give the collector work: a deletion (an owner may be gone), a
/// change of owner references (a new dependent included), or a terminating object whose
/// deletion or finalizers changed (a foreground or orphaning owner). Other writes, such as
/// an owned object's status, cannot.
fn matters(e: &crate::store::Event) -> bool {
    fn meta_field<'a>(v: &'a Option<Object>, f: &str) -> Option<&'a Value> {
        v.as_ref()?.get("metadata")?.get(f)
    }
    let Some(value) = &e.value else {
        return true;
    };
    let changed = |f: &str| meta_field(&e.value, f) != meta_field(&e.prev, f);
    changed("ownerReferences")
        || (!meta_str(value, "deletionTimestamp").is_empty()
            && (changed("deletionTimestamp") || changed("finalizers")))
}

impl Default for GarbageCollector {
    fn default() -> Self {
        GarbageCollector::new(DEFAULT_DELAY_MS)
    }
}

mod events;

/// One object in the graph.
struct Node {
    info: &'static ResourceInfo,
    obj: Object,
}

impl Node {
    fn uid(&self) -> &str {
        meta_str(&self.obj, "uid")
    }
    fn namespace(&self) -> &str {
        meta_str(&self.obj, "namespace")
    }
    fn name(&self) -> &str {
        meta_str(&self.obj, "name")
    }
    fn key(&self) -> String {
        self.info.key(self.namespace(), self.name())
    }
    fn deleting(&self) -> bool {
        !meta_str(&self.obj, "deletionTimestamp").is_empty()
    }
    fn has_finalizer(&self, f: &str) -> bool {
        str_items(&self.obj["metadata"]["finalizers"]).any(|x| x == f)
    }
    /// `isDeletingDependents`: being deleted in the foreground.
    fn deleting_dependents(&self) -> bool {
        self.deleting() && self.has_finalizer(FOREGROUND)
    }
    fn owner_refs(&self) -> &[Value] {
        self.obj["metadata"]["ownerReferences"]
            .as_array()
            .map_or(&[], Vec::as_slice)
    }
}

/// The objects of every stored kind, and who depends on whom (by owner uid).
struct Graph {
    nodes: Vec<Node>,
    /// Owner uid → (dependent index, `blockOwnerDeletion`).
    dependents: BTreeMap<String, Vec<(usize, bool)>>,
    /// Storage key → index.
    by_key: BTreeMap<String, usize>,
}

impl Graph {
    fn build(reg: &Registry) -> Graph {
        let mut nodes = Vec::new();
        for info in reg.kinds().iter().filter(|k| k.strategy.stored()) {
            for obj in reg.live(info, None) {
                nodes.push(Node { info, obj });
            }
        }
        let mut dependents: BTreeMap<String, Vec<(usize, bool)>> = BTreeMap::new();
        for (i, n) in nodes.iter().enumerate() {
            for r in n.owner_refs() {
                let block = r["blockOwnerDeletion"].as_bool().unwrap_or(false);
                dependents
                    .entry(str_at(r, "uid").to_string())
                    .or_default()
                    .push((i, block));
            }
        }
        let by_key = nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.key(), i))
            .collect();
        Graph {
            nodes,
            dependents,
            by_key,
        }
    }

    fn dependents_of(&self, owner: &Node) -> &[(usize, bool)] {
        self.dependents.get(owner.uid()).map_or(&[], Vec::as_slice)
    }
}

/// How one owner reference stands (`classifyReferences`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Owner {
    Solid,
    /// Absent, or the name holds another uid.
    Dangling,
    /// Being deleted in the foreground, waiting for its dependents.
    Waiting,
}

/// `isDangling` and the owner's state, as the pass's graph saw them (so one pass acts on
/// one level of a cascade); `None` when the reference cannot be resolved (an unserved kind,
/// or a namespaced owner of a cluster-scoped object).
fn classify(reg: &Registry, graph: &Graph, dependent: &Node, r: &Value) -> Option<Owner> {
    let info = reg
        .kinds()
        .by_kind(str_at(r, "apiVersion"), str_at(r, "kind"))?;
    if info.namespaced && !dependent.info.namespaced {
        return None;
    }
    let ns = if info.namespaced {
        dependent.namespace()
    } else {
        ""
    };
    let Some(&i) = graph.by_key.get(&info.key(ns, str_at(r, "name"))) else {
        return Some(Owner::Dangling);
    };
    let owner = &graph.nodes[i];
    if owner.uid() != str_at(r, "uid") {
        return Some(Owner::Dangling);
    }
    Some(if owner.deleting_dependents() {
        Owner::Waiting
    } else {
        Owner::Solid
    })
}

/// One pass over the graph; whether anything was written.
fn pass(reg: &mut Registry, reported: &mut BTreeSet<(String, String)>) -> bool {
    let graph = Graph::build(reg);
    let before = reg.store().revision();
    events::report_invalid_namespaces(reg, &graph, reported);
    for node in graph.nodes.iter().filter(|n| n.deleting()) {
        if node.has_finalizer(ORPHAN) {
            orphan(reg, &graph, node);
        }
    }
    for node in graph.nodes.iter().filter(|n| n.deleting_dependents()) {
        let blocking = graph.dependents_of(node).iter().any(|(_, block)| *block);
        if !blocking {
            remove_finalizer(reg, node, FOREGROUND);
        }
    }
    for node in &graph.nodes {
        attempt_to_delete(reg, &graph, node);
    }
    reg.store().revision() != before
}

/// `attemptToDeleteItem`.
fn attempt_to_delete(reg: &mut Registry, graph: &Graph, item: &Node) {
    if item.deleting() || item.owner_refs().is_empty() {
        return;
    }
    let mut states = Vec::new();
    for r in item.owner_refs() {
        match classify(reg, graph, item, r) {
            Some(s) => states.push((str_at(r, "uid").to_string(), s)),
            None => return,
        }
    }
    let has = |want: Owner| states.iter().any(|(_, s)| *s == want);
    if has(Owner::Solid) {
        // Keep the live owners; the references to absent or waiting ones go.
        let gone: BTreeSet<String> = states
            .iter()
            .filter(|(_, s)| *s != Owner::Solid)
            .map(|(uid, _)| uid.clone())
            .collect();
        if !gone.is_empty() {
            edit(reg, item, |m| remove_refs(m, &gone));
        }
        return;
    }
    let dependents = graph.dependents_of(item);
    if has(Owner::Waiting) && !dependents.is_empty() {
        // A dependent that is itself deleting its dependents would wait for this one forever
        // (a cycle): stop blocking the owners first.
        if dependents
            .iter()
            .any(|(i, _)| graph.nodes[*i].deleting_dependents())
        {
            edit(reg, item, unblock_refs);
        }
        delete(reg, item, "Foreground");
        return;
    }
    let policy = if item.has_finalizer(ORPHAN) {
        "Orphan"
    } else if item.has_finalizer(FOREGROUND) {
        "Foreground"
    } else {
        "Background"
    };
    delete(reg, item, policy);
}

/// `orphanDependents`, then the `orphan` finalizer removed.
fn orphan(reg: &mut Registry, graph: &Graph, owner: &Node) {
    let uid: BTreeSet<String> = [owner.uid().to_string()].into();
    for (i, _) in graph.dependents_of(owner) {
        edit(reg, &graph.nodes[*i], |m| remove_refs(m, &uid));
    }
    remove_finalizer(reg, owner, ORPHAN);
}

/// `deleteObject`: a delete with the policy and the uid as a precondition (so a recreated
/// object of the same name is left alone). Errors (gone already, recreated) are expected.
fn delete(reg: &mut Registry, node: &Node, policy: &str) {
    let opts = DeleteOptions {
        propagation: Some(policy.to_string()),
        precondition_uid: Some(node.uid().to_string()),
        ..DeleteOptions::default()
    };
    let _ = reg.delete(node.info, &node.key(), node.name(), &opts);
}

/// `removeFinalizer`: a merge patch of the finalizers, guarded by the resourceVersion.
fn remove_finalizer(reg: &mut Registry, node: &Node, finalizer: &str) {
    edit(reg, node, |m| {
        let meta = meta_mut(m);
        let mut kept = strings(meta.get("finalizers"));
        kept.retain(|f| f != finalizer);
        set_finalizers(meta, kept);
    });
}

/// Removes the owner references to `uids`.
fn remove_refs(m: &mut Map<String, Value>, uids: &BTreeSet<String>) {
    let Some(meta) = m.get_mut("metadata").and_then(Value::as_object_mut) else {
        return;
    };
    let kept: Vec<Value> = meta
        .get("ownerReferences")
        .and_then(Value::as_array)
        .map(|refs| {
            refs.iter()
                .filter(|r| !uids.contains(str_at(r, "uid")))
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    if kept.is_empty() {
        meta.shift_remove("ownerReferences");
    } else {
        meta.insert("ownerReferences".into(), Value::Array(kept));
    }
}

/// `unblockOwnerReferences`: `blockOwnerDeletion: false` on every reference that blocks.
fn unblock_refs(m: &mut Map<String, Value>) {
    let refs = m
        .get_mut("metadata")
        .and_then(|meta| meta.get_mut("ownerReferences"))
        .and_then(Value::as_array_mut);
    for r in refs.into_iter().flatten() {
        if r["blockOwnerDeletion"] == json!(true) {
            r["blockOwnerDeletion"] = json!(false);
        }
    }
}

/// Writes `change` to the live object (if it still is the one in the graph), as the
/// collector's own update.
fn edit(reg: &mut Registry, node: &Node, change: impl FnOnce(&mut Map<String, Value>)) {
    let key = node.key();
    let Some(live) = reg.store().get(&key) else {
        return;
    };
    if meta_str(live, "uid") != node.uid() {
        return;
    }
    let mut next = live.as_object().cloned().unwrap_or_default();
    change(&mut next);
    if live.as_object() == Some(&next) {
        return;
    }
    let _ = reg.update(node.info, &key, next, &Write::by(MANAGER, false));
}
