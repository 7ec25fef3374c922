//! The namespace lifecycle controller (`pkg/controller/namespace`): empties a terminating
//! namespace, reports progress in its status conditions, then removes the `kubernetes`
//! finalizer (as `namespaces/NAME/finalize` does), which lets the namespace go.
//!
//! The real controller handles a namespace 5 s after it sees the deletion
//! (`namespaceDeletionGracePeriod`), and again while content remains. kubesim does the same
//! on simulated time, with a configurable delay: a deleted namespace is first seen
//! `Terminating` without conditions, then with them, then gone. Content is deleted in the
//! background, as the controller's deletecollection calls do; what finalizers hold is
//! counted into `NamespaceContentRemaining` and `NamespaceFinalizersRemaining`.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use crate::registry::{DeleteOptions, Deleted, Registry};
use crate::resources::meta::{meta_str, strings};
use crate::resources::{namespace::KUBERNETES_FINALIZER, NAMESPACES};

/// `namespaceDeletionGracePeriod`.
pub const DEFAULT_DELAY_MS: i64 = 5000;

/// The condition types the deleter maintains, in its order, with their "ok" reason and
/// message (`status_condition_utils.go`).
const CONDITIONS: [(&str, &str, &str); 5] = [
    (
        "NamespaceDeletionDiscoveryFailure",
        "ResourcesDiscovered",
        "All resources successfully discovered",
    ),
    (
        "NamespaceDeletionGroupVersionParsingFailure",
        "ParsedGroupVersions",
        "All legacy kube types successfully parsed",
    ),
    (
        "NamespaceDeletionContentFailure",
        "ContentDeleted",
        "All content successfully deleted, may be waiting on finalization",
    ),
    (
        "NamespaceContentRemaining",
        "ContentRemoved",
        "All content successfully removed",
    ),
    (
        "NamespaceFinalizersRemaining",
        "ContentHasNoFinalizers",
        "All content-preserving finalizers finished",
    ),
];

/// When each terminating namespace is next handled.
#[derive(Debug, Clone)]
pub struct NamespaceController {
    delay_ms: i64,
    due: BTreeMap<String, i64>,
    /// The store revision last looked at (no write since: no namespace became terminating).
    seen: u64,
}

impl Default for NamespaceController {
    fn default() -> Self {
        NamespaceController::new(DEFAULT_DELAY_MS)
    }
}

impl NamespaceController {
    /// A controller acting `delay_ms` after it sees a namespace terminating.
    pub fn new(delay_ms: i64) -> Self {
        NamespaceController {
            delay_ms: delay_ms.max(0),
            due: BTreeMap::new(),
            seen: 0,
        }
    }

    /// Handles the terminating namespaces that are due. (It runs after every request: it
    /// looks at the namespaces only when the store changed.)
    pub fn run(&mut self, registry: &mut Registry) {
        let now = registry.clock().now_ms();
        if registry.store().revision() != self.seen {
            let terminating: Vec<String> = registry
                .live(&NAMESPACES, None)
                .iter()
                .filter(|ns| !meta_str(ns, "deletionTimestamp").is_empty())
                .map(|ns| meta_str(ns, "name").to_string())
                .collect();
            self.due.retain(|ns, _| terminating.contains(ns));
            for ns in terminating {
                self.due.entry(ns).or_insert(now + self.delay_ms);
            }
        }
        let due: Vec<String> = self
            .due
            .iter()
            .filter(|(_, t)| **t <= now)
            .map(|(ns, _)| ns.clone())
            .collect();
        for ns in due {
            // Content remains: handled again a delay from now (the real controller requeues).
            if delete(registry, &ns) {
                self.due.insert(ns, now + self.delay_ms.max(1));
            } else {
                self.due.remove(&ns);
            }
        }
        self.seen = registry.store().revision();
    }
}

/// `namespacedResourcesDeleter.Delete`: deletes the content, updates the conditions, and
/// finalizes the namespace when nothing is left. Whether content remains.
fn delete(registry: &mut Registry, ns: &str) -> bool {
    let opts = DeleteOptions {
        propagation: Some("Background".into()),
        ..DeleteOptions::default()
    };
    let kinds = registry.kinds().clone();
    // (resource.group, count) and (finalizer, count) of what remains.
    let mut remaining: Vec<(String, usize)> = Vec::new();
    let mut finalizers: BTreeMap<String, usize> = BTreeMap::new();
    for info in kinds.iter().filter(|r| r.namespaced && r.strategy.stored()) {
        let mut left = 0;
        for obj in registry.live(info, Some(ns)) {
            let name = meta_str(&obj, "name").to_string();
            let still = if meta_str(&obj, "deletionTimestamp").is_empty() {
                match registry.delete(info, &info.key(ns, &name), &name, &opts) {
                    Ok(Deleted::Gone(_)) => None,
                    Ok(Deleted::Terminating(kept)) => Some(kept),
                    Err(_) => Some((*obj).clone()),
                }
            } else {
                Some((*obj).clone())
            };
            if let Some(obj) = still {
                left += 1;
                for f in strings(obj["metadata"].get("finalizers")) {
                    *finalizers.entry(f).or_default() += 1;
                }
            }
        }
        if left > 0 {
            // `<resource>.<group>`: "configmaps." for the core group, as the real one prints.
            remaining.push((format!("{}.{}", info.plural, info.group), left));
        }
    }
    update_conditions(registry, ns, &remaining, &finalizers);
    if !remaining.is_empty() {
        return true;
    }
    finalize(registry, ns);
    false
}

/// The conditions the deleter reports (`ProcessContentTotals`, `updateConditions`): a
/// condition whose status changes gets a new transition time; one that only changes its
/// message keeps it.
fn update_conditions(
    registry: &mut Registry,
    ns: &str,
    remaining: &[(String, usize)],
    finalizers: &BTreeMap<String, usize>,
) {
    let key = NAMESPACES.key("", ns);
    let Some(current) = registry.store().get(&key).cloned() else {
        return;
    };
    let now = registry.now_text();
    let mut failing: BTreeMap<&str, (&str, String)> = BTreeMap::new();
    if !remaining.is_empty() {
        let mut parts: Vec<String> = remaining
            .iter()
            .map(|(r, n)| format!("{r} has {n} resource instances"))
            .collect();
        parts.sort();
        let msg = format!("Some resources are remaining: {}", parts.join(", "));
        failing.insert("NamespaceContentRemaining", ("SomeResourcesRemain", msg));
    }
    if !finalizers.is_empty() {
        let mut parts: Vec<String> = finalizers
            .iter()
            .map(|(f, n)| format!("{f} in {n} resource instances"))
            .collect();
        parts.sort();
        let msg = format!(
            "Some content in the namespace has finalizers remaining: {}",
            parts.join(", ")
        );
        failing.insert(
            "NamespaceFinalizersRemaining",
            ("SomeFinalizersRemain", msg),
        );
    }
    let mut conditions: Vec<Value> = current["status"]["conditions"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    for (ty, ok_reason, ok_message) in CONDITIONS {
        let (status, reason, message) = match failing.get(ty) {
            Some((reason, message)) => ("True", *reason, message.clone()),
            None => ("False", ok_reason, ok_message.to_string()),
        };
        match conditions.iter_mut().find(|c| c["type"] == ty) {
            None => conditions.push(json!({"type": ty, "status": status,
                "lastTransitionTime": now, "reason": reason, "message": message})),
            Some(c) => {
                if c["status"] != status {
                    c["lastTransitionTime"] = json!(now);
                }
                c["status"] = json!(status);
                c["reason"] = json!(reason);
                c["message"] = json!(message);
            }
        }
    }
    let mut next: Map<String, Value> = current.as_object().cloned().unwrap_or_default();
    if let Some(status) = next.get_mut("status").and_then(Value::as_object_mut) {
        status.insert("conditions".into(), Value::Array(conditions));
    }
    let _ = registry.write_update(&NAMESPACES, &key, &current, next, false);
}

/// `finalizeNamespace`: the `kubernetes` finalizer removed from `spec.finalizers`.
fn finalize(registry: &mut Registry, ns: &str) {
    let key = NAMESPACES.key("", ns);
    let Some(current) = registry.store().get(&key).cloned() else {
        return;
    };
    let fins = strings(current["spec"].get("finalizers"));
    if !fins.iter().any(|f| f == KUBERNETES_FINALIZER) {
        return;
    }
    let kept: Vec<String> = fins
        .into_iter()
        .filter(|f| f != KUBERNETES_FINALIZER)
        .collect();
    let mut next = current.as_object().cloned().unwrap_or_default();
    next.insert("spec".into(), json!({ "finalizers": kept }));
    let _ = registry.write_update(&NAMESPACES, &key, &current, next, false);
}
