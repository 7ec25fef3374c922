//! apiextensions-apiserver's CRDFinalizer (`pkg/controller/finalizer`): a definition marked
//! for deletion (the `customresourcecleanup.apiextensions.k8s.io` finalizer, `Terminating`)
//! first loses its custom resources, then the finalizer, and with it the definition.
//!
//! Conditions as the real controller writes them, through `status` as `kube-apiserver`:
//! `InstanceDeletionInProgress`, then `InstanceDeletionCompleted` once no object is left (or
//! `NeverEstablished` for a definition that never served). Objects held by finalizers of
//! their own keep the definition terminating until they are gone.

use serde_json::{Map, Value};

use crate::registry::{DeleteOptions, ListOptions, Registry};
use crate::resources::crd::conditions::set_on;
use crate::resources::crd::validation::condition_true;
use crate::resources::crd::{CLEANUP_FINALIZER, CUSTOM_RESOURCE_DEFINITIONS as CRDS};
use crate::resources::meta::{map_meta_str, meta_mut, set_finalizers, str_items, strings};

/// The controller between ticks: it looks when a definition changed, and while one
/// terminates, whenever anything was written.
#[derive(Debug, Default, Clone, Copy)]
pub struct CrdFinalizer {
    seen: super::Seen,
    seen_definitions: super::Seen,
    /// A definition was terminating when last looked at.
    pending: bool,
}

impl CrdFinalizer {
    /// Finalizes the terminating definitions when the store changed since the last call.
    pub fn run(&mut self, reg: &mut Registry) {
        // Definitions are read when one changed, or, while one terminates, when anything did
        // (its objects going).
        let definitions = self.seen_definitions.changed_under(reg, &CRDS.key_prefix());
        let anything = self.seen.changed_under(reg, "/registry/");
        if !(definitions || (self.pending && anything)) {
            return;
        }
        let terminating: Vec<Map<String, Value>> = reg
            .live(&CRDS, None)
            .into_iter()
            .filter_map(|c| match c {
                Value::Object(m) => Some(m),
                _ => None,
            })
            .filter(|c| {
                !map_meta_str(c, "deletionTimestamp").is_empty()
                    && c.get("metadata")
                        .and_then(|m| m.get("finalizers"))
                        .is_some_and(|f| str_items(f).any(|f| f == CLEANUP_FINALIZER))
            })
            .collect();
        self.pending = !terminating.is_empty();
        if terminating.is_empty() {
            return;
        }
        for crd in terminating {
            finalize(reg, crd);
        }
        reg.serve_definitions();
    }
}

/// One definition's `sync`.
fn finalize(reg: &mut Registry, mut crd: Map<String, Value>) {
    let now = reg.now_text();
    // The cleanup could take a while: first the condition that says so, established or not.
    let in_progress = (
        "Terminating",
        "True",
        "InstanceDeletionInProgress",
        "CustomResource deletion is in progress",
    );
    if !has_condition(&crd, in_progress) {
        let (t, s, r, m) = in_progress;
        set_on(&mut crd, t, s, r, m, &now);
        match super::crd_names::write_status(reg, crd) {
            Some(next) => crd = next,
            None => return,
        }
    }
    if condition_true(&crd, "Established") {
        if !delete_instances(reg, &crd) {
            return;
        }
        set_on(
            &mut crd,
            "Terminating",
            "False",
            "InstanceDeletionCompleted",
            "removed all instances",
            &now,
        );
    } else {
        set_on(
            &mut crd,
            "Terminating",
            "False",
            "NeverEstablished",
            "resource was never established",
            &now,
        );
    }
    // The last condition and the finalizer's removal are one status write.
    let meta = meta_mut(&mut crd);
    let left: Vec<String> = strings(meta.get("finalizers"))
        .into_iter()
        .filter(|f| f != CLEANUP_FINALIZER)
        .collect();
    set_finalizers(meta, left);
    super::crd_names::write_status(reg, crd);
}

fn has_condition(crd: &Map<String, Value>, (t, s, r, m): (&str, &str, &str, &str)) -> bool {
    let c = serde_json::json!({"type": t, "status": s, "reason": r, "message": m});
    crd.get("status")
        .is_some_and(|st| crate::resources::crd::conditions::same_condition(st, &c))
}

/// `deleteInstances`: a DeleteCollection in each namespace that holds an object of the
/// definition (through the registry, so admission and finalizers apply); whether none is
/// left.
fn delete_instances(reg: &mut Registry, crd: &Map<String, Value>) -> bool {
    let name = map_meta_str(crd, "name");
    let Some(info) = reg
        .kinds()
        .iter()
        .find(|k| k.custom.is_some_and(|c| c.definition == name))
    else {
        return true;
    };
    let all = ListOptions::everything();
    let mut namespaces: Vec<String> = reg
        .live(info, None)
        .iter()
        .map(|o| crate::resources::meta::meta_str(o, "namespace").to_string())
        .collect();
    namespaces.dedup(); // listed in key order: a namespace's objects are consecutive
    for ns in namespaces {
        let ns = info.namespaced.then_some(ns.as_str());
        let _ = reg.delete_collection(info, ns, &all, &DeleteOptions::default());
    }
    reg.live(info, None).is_empty()
}
