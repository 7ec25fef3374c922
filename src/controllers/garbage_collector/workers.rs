//! The collector's workers: `attemptToDeleteItem` and `attemptToOrphanWorker`, acting on
//! live reads of the store (as the real ones read through the API) and writing as
//! kube-controller-manager.

use std::collections::BTreeSet;

use serde_json::{json, Map, Value};

use super::graph::{blocks, has_finalizer, owner_refs, Graph, Identity, Node};
use super::{Item, Outcome};
use crate::controllers::MANAGER;
use crate::registry::{DeleteOptions, Registry, Write};
use crate::resources::meta::{meta_mut, meta_str, set_finalizers, str_at, strings};
use crate::resources::validation::meta_fields::{
    FINALIZER_FOREGROUND as FOREGROUND, FINALIZER_ORPHAN as ORPHAN,
};
use crate::resources::ResourceInfo;

/// Where an identity lives: its kind and storage key, when the server serves the kind.
fn locate(reg: &Registry, id: &Identity) -> Option<(&'static ResourceInfo, String)> {
    let info = reg.kinds().by_kind(&id.api_version, &id.kind)?;
    let ns = if info.namespaced {
        id.namespace.as_str()
    } else {
        ""
    };
    Some((info, info.key(ns, &id.name)))
}

/// The live object at `id`, if it is the one with `id`'s uid.
fn live(reg: &Registry, id: &Identity) -> Option<(&'static ResourceInfo, String, Value)> {
    let (info, key) = locate(reg, id)?;
    let obj = reg.store().get(&key)?.decode();
    (meta_str(&obj, "uid") == id.uid).then_some((info, key, obj))
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

/// Why a reference could not be classified.
enum Unresolved {
    /// The owner's kind is not served: try again later.
    Retry,
    /// A cluster-scoped dependent naming a namespaced owner: never valid, left alone.
    Never,
}

/// `isDangling`, plus whether a live owner waits for its dependents.
fn classify(
    graph: &mut Graph,
    reg: &Registry,
    item: &Identity,
    r: &Value,
) -> Result<Owner, Unresolved> {
    let mut key = Identity::of_ref(r, "");
    if graph.is_absent(&key) {
        return Ok(Owner::Dangling);
    }
    key.namespace = item.namespace.clone();
    if graph.is_absent(&key) {
        return Ok(Owner::Dangling);
    }
    let info = reg
        .kinds()
        .by_kind(str_at(r, "apiVersion"), str_at(r, "kind"))
        .ok_or(Unresolved::Retry)?;
    if !info.namespaced {
        key.namespace.clear();
    }
    if item.namespace.is_empty() && info.namespaced {
        return Err(Unresolved::Never);
    }
    let ns = if info.namespaced {
        item.namespace.as_str()
    } else {
        ""
    };
    let owner = reg
        .store()
        .get(&info.key(ns, str_at(r, "name")))
        .map(super::graph::metadata_of);
    match &owner {
        Some(o) if meta_str(o, "uid") == str_at(r, "uid") => {
            let waiting =
                !meta_str(o, "deletionTimestamp").is_empty() && has_finalizer(o, FOREGROUND);
            Ok(if waiting {
                Owner::Waiting
            } else {
                Owner::Solid
            })
        }
        _ => {
            graph.add_absent(key);
            Ok(Owner::Dangling)
        }
    }
}

/// `attemptToDeleteItem` for the node `uid`.
pub(super) fn attempt_to_delete(
    graph: &mut Graph,
    reg: &mut Registry,
    uid: String,
    at: i64,
) -> Outcome {
    let forget = Outcome::Forget(Item::Delete(uid.clone()));
    // The node's own fields only: its dependents stay in the graph, read where needed.
    let Some((identity, virtual_node, deleting_dependents)) = graph
        .nodes
        .get(&uid)
        .filter(|n| !n.being_deleted || n.deleting_dependents)
        .map(|n| (n.identity.clone(), n.virtual_node, n.deleting_dependents))
    else {
        return forget;
    };
    match reg.kinds().by_kind(&identity.api_version, &identity.kind) {
        None => return Outcome::Requeue(Item::Delete(uid)),
        // A namespaced kind without a namespace: the virtual owner of a cluster-scoped
        // dependent, which cannot be looked up (`getObject` fails and the item is dropped).
        Some(info) if info.namespaced && identity.namespace.is_empty() => return forget,
        Some(_) => {}
    }
    let Some((info, key, latest)) = live(reg, &identity) else {
        // `enqueueVirtualDeleteEvent`: the node goes and its dependents are looked at again.
        // (Its identity is the node's own, so Go's partition of dependents that name other
        // coordinates has nothing to do here.)
        graph.remove(&uid, at);
        return forget;
    };
    if virtual_node {
        // It exists but is not observed yet (`attemptToDeleteWorker` requeues): the change
        // stream, read before the next item, shows it to the graph. (Events, which the graph
        // ignores, cannot be owners.)
        return Outcome::Requeue(Item::Delete(uid));
    }
    if deleting_dependents {
        return if process_deleting_dependents(graph, reg, &uid, info, &key, &latest, at) {
            forget
        } else {
            Outcome::Requeue(Item::Delete(uid))
        };
    }
    let refs = owner_refs(&latest);
    if refs.is_empty() {
        return forget;
    }
    let mut states = Vec::new();
    for r in &refs {
        match classify(graph, reg, &identity, r) {
            Ok(s) => states.push((str_at(r, "uid").to_string(), s)),
            Err(Unresolved::Retry) => return Outcome::Requeue(Item::Delete(uid)),
            Err(Unresolved::Never) => return forget,
        }
    }
    let has = |want: Owner| states.iter().any(|(_, s)| *s == want);
    if has(Owner::Solid) {
        // Keep the live owners; the references to absent or waiting ones go.
        let gone: BTreeSet<String> = crate::sort::btree_set(
            states
                .iter()
                .filter(|(_, s)| *s != Owner::Solid)
                .map(|(uid, _)| uid.clone()),
        );
        if !gone.is_empty() && !edit(reg, info, &key, &latest, |m| remove_refs(m, &gone)) {
            return Outcome::Requeue(Item::Delete(uid));
        }
        return forget;
    }
    let dependents = graph.nodes.get(&uid).map(|n| &n.dependents);
    if has(Owner::Waiting) && dependents.is_some_and(|d| !d.is_empty()) {
        // A dependent that is itself deleting its dependents would wait for this one forever
        // (a cycle): stop blocking the owners first.
        let cycle = dependents
            .into_iter()
            .flatten()
            .any(|d| graph.nodes.get(d).is_some_and(|n| n.deleting_dependents));
        if cycle && !edit(reg, info, &key, &latest, unblock_refs) {
            return Outcome::Requeue(Item::Delete(uid));
        }
        return if delete(reg, info, &key, &latest, "Foreground") {
            forget
        } else {
            Outcome::Requeue(Item::Delete(uid))
        };
    }
    let policy = if has_finalizer(&latest, ORPHAN) {
        "Orphan"
    } else if has_finalizer(&latest, FOREGROUND) {
        "Foreground"
    } else {
        "Background"
    };
    if delete(reg, info, &key, &latest, policy) {
        forget
    } else {
        Outcome::Requeue(Item::Delete(uid))
    }
}

/// `processDeletingDependentsItem`: the finalizer goes once no dependent blocks; otherwise
/// the blocking dependents are looked at. Whether it went well.
fn process_deleting_dependents(
    graph: &mut Graph,
    reg: &mut Registry,
    uid: &str,
    info: &'static ResourceInfo,
    key: &str,
    latest: &Value,
    at: i64,
) -> bool {
    let blocking: Vec<String> = graph
        .nodes
        .get(uid)
        .into_iter()
        .flat_map(|n| &n.dependents)
        .filter(|d| {
            graph.nodes.get(*d).is_some_and(|dep| {
                dep.owners
                    .iter()
                    .any(|r| str_at(r, "uid") == uid && blocks(r))
            })
        })
        .cloned()
        .collect();
    if blocking.is_empty() {
        return remove_finalizer(reg, info, key, latest, FOREGROUND);
    }
    for dep in blocking {
        if !graph.nodes.get(&dep).is_some_and(|n| n.deleting_dependents) {
            graph.enqueue_delete(&dep, at);
        }
    }
    true
}

/// `attemptToOrphanWorker`: the owner leaves every dependent's references, then its
/// `orphan` finalizer goes.
pub(super) fn attempt_to_orphan(graph: &mut Graph, reg: &mut Registry, uid: String) -> Outcome {
    let owner = match graph.nodes.get(&uid) {
        Some(node) => node.clone(),
        None => match graph.orphan_stash.remove(&uid) {
            Some(node) => node,
            None => return Outcome::Forget(Item::Orphan(uid)),
        },
    };
    let requeue = |graph: &mut Graph, owner: Node| {
        graph.orphan_stash.insert(owner.identity.uid.clone(), owner);
        Outcome::Requeue(Item::Orphan(uid.clone()))
    };
    // `orphanDependents`: every dependent lets go of the owner, or the finalizer stays.
    let gone: BTreeSet<String> = [uid.clone()].into();
    for dep in &owner.dependents {
        let Some(dep) = graph.nodes.get(dep).map(|n| n.identity.clone()) else {
            continue;
        };
        if locate(reg, &dep).is_none() {
            return requeue(graph, owner);
        }
        if let Some((info, key, obj)) = live(reg, &dep) {
            if !edit(reg, info, &key, &obj, |m| remove_refs(m, &gone)) {
                return requeue(graph, owner);
            }
        }
    }
    match live(reg, &owner.identity) {
        Some((info, key, obj)) if !remove_finalizer(reg, info, &key, &obj, ORPHAN) => {
            requeue(graph, owner)
        }
        _ => {
            graph.orphan_stash.remove(&uid);
            Outcome::Forget(Item::Orphan(uid))
        }
    }
}

/// `deleteObject`: a delete with the policy and the uid as a precondition (so a recreated
/// object of the same name is left alone). Whether it went well (gone already counts).
fn delete(
    reg: &mut Registry,
    info: &'static ResourceInfo,
    key: &str,
    obj: &Value,
    policy: &str,
) -> bool {
    let opts = DeleteOptions {
        propagation: Some(policy.to_string()),
        precondition_uid: Some(meta_str(obj, "uid").to_string()),
        ..DeleteOptions::default()
    };
    settled(
        reg.delete(info, key, meta_str(obj, "name"), &opts)
            .map(|_| ()),
    )
}

/// A write's result as the workers count it: done, or the object is gone already.
fn settled(result: crate::resources::status::ApiResult<()>) -> bool {
    match result {
        Ok(()) => true,
        Err(e) => e.code == 404,
    }
}

/// `removeFinalizer`.
fn remove_finalizer(
    reg: &mut Registry,
    info: &'static ResourceInfo,
    key: &str,
    obj: &Value,
    finalizer: &str,
) -> bool {
    edit(reg, info, key, obj, |m| {
        let meta = meta_mut(m);
        let mut kept = strings(meta.get("finalizers"));
        kept.retain(|f| f != finalizer);
        set_finalizers(meta, kept);
    })
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
        if blocks(r) {
            r["blockOwnerDeletion"] = json!(false);
        }
    }
}

/// Writes `change` to `obj` (the live object at `key`), as the collector's own update;
/// whether it went well.
fn edit(
    reg: &mut Registry,
    info: &'static ResourceInfo,
    key: &str,
    obj: &Value,
    change: impl FnOnce(&mut Map<String, Value>),
) -> bool {
    let mut next = obj.as_object().cloned().unwrap_or_default();
    change(&mut next);
    if obj.as_object() == Some(&next) {
        return true;
    }
    settled(
        reg.update(info, key, next, &Write::by(MANAGER, false))
            .map(|_| ()),
    )
}
