//! The namespace lifecycle controller (`pkg/controller/namespace`): empties a terminating
//! namespace, reports progress in its status conditions, then removes the `kubernetes`
//! finalizer (as `namespaces/NAME/finalize` does), which lets the namespace go.
//!
//! Its queue is the real one's, on simulated time. Every change to a terminating namespace
//! (the delete that marks it, its own status write, anyone's update) queues it
//! `namespaceDeletionGracePeriod` (5 s, configurable) later; a pass that leaves content held
//! by finalizers queues it again after `finalizerEstimateSeconds/2 + 1` = 8 s; content that
//! remains without finalizers is an error, retried with the rate limiter's backoff (5 ms
//! doubling to 60 s); the earliest wins, as in the delaying queue. Content is deleted in the
//! background, as the controller's deletecollection calls do; what finalizers hold is
//! counted into `NamespaceContentRemaining` and `NamespaceFinalizersRemaining`. Its writes
//! are attributed as kube-controller-manager's: `Update` entries with the `status`
//! (and, while other spec finalizers remain, `finalize`) subresource.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use crate::registry::{DeleteOptions, Deleted, Registry, Write};
use crate::resources::meta::{meta_str, strings};
use crate::resources::{namespace::KUBERNETES_FINALIZER, NAMESPACES};

/// `namespaceDeletionGracePeriod`.
pub const DEFAULT_DELAY_MS: i64 = 5000;

/// The requeue after a pass that leaves content held by finalizers: the deleter's estimate
/// (`finalizerEstimateSeconds`, 15) halved, plus one, in seconds.
const FINALIZER_REQUEUE_MS: i64 = (15 / 2 + 1) * 1000;

/// The rate limiter's per-item backoff (`ItemExponentialFailureRateLimiter(5ms, 60s)`).
const BACKOFF_BASE_MS: i64 = 5;
const BACKOFF_MAX_MS: i64 = 60_000;

/// The manager kube-controller-manager's writes are recorded under (its User-Agent's
/// product).
const MANAGER: &str = "kube-controller-manager";

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

/// One terminating namespace in the queue.
#[derive(Debug, Clone, Default)]
struct Queued {
    /// When it is next handled (`None`: not queued).
    due: Option<i64>,
    /// The resourceVersion last seen (a new one is an informer update event).
    rv: String,
    /// Failed passes since the last success (the rate limiter's count).
    failures: u32,
}

impl Queued {
    /// `AddAfter`: the earliest of the pending time and `at`.
    fn add_at(&mut self, at: i64) {
        self.due = Some(self.due.map_or(at, |d| d.min(at)));
    }
}

/// What a pass left.
enum Pass {
    Finalized,
    /// Content remains; `held`: some of it by finalizers.
    Remaining {
        held: bool,
    },
}

/// The terminating namespaces and when each is next handled.
#[derive(Debug, Clone)]
pub struct NamespaceController {
    delay_ms: i64,
    queue: BTreeMap<String, Queued>,
    /// The store revision last looked at (no write since: no namespace changed).
    seen: u64,
}

impl Default for NamespaceController {
    fn default() -> Self {
        NamespaceController::new(DEFAULT_DELAY_MS)
    }
}

impl NamespaceController {
    /// A controller acting `delay_ms` after a terminating namespace changes.
    pub fn new(delay_ms: i64) -> Self {
        NamespaceController {
            delay_ms: delay_ms.max(0),
            queue: BTreeMap::new(),
            seen: 0,
        }
    }

    /// Handles the terminating namespaces that are due. (It runs after every request: it
    /// looks at the namespaces only when the store changed.)
    pub fn run(&mut self, registry: &mut Registry) {
        let now = registry.clock().now_ms();
        if registry.store().revision() != self.seen {
            self.observe(registry, now);
        }
        let due: Vec<String> = self
            .queue
            .iter()
            .filter(|(_, q)| q.due.is_some_and(|t| t <= now))
            .map(|(ns, _)| ns.clone())
            .collect();
        for ns in due {
            let Some(q) = self.queue.get_mut(&ns) else {
                continue;
            };
            q.due = None;
            match delete(registry, &ns) {
                Pass::Finalized => {
                    q.failures = 0;
                }
                Pass::Remaining { held: true } => {
                    q.failures = 0;
                    q.add_at(now + FINALIZER_REQUEUE_MS);
                }
                Pass::Remaining { held: false } => {
                    let backoff = BACKOFF_BASE_MS
                        .saturating_mul(1i64 << q.failures.min(40))
                        .min(BACKOFF_MAX_MS);
                    q.failures += 1;
                    q.add_at(now + backoff);
                }
            }
            // The pass's own status write is an update event too, seen at once.
            self.observe(registry, now);
        }
        self.seen = registry.store().revision();
    }

    /// When the next namespace comes due, if any is queued.
    pub fn next_due(&self) -> Option<i64> {
        self.queue.values().filter_map(|q| q.due).min()
    }

    /// The informer's view: a terminating namespace whose resourceVersion changed is queued
    /// a delay from now; namespaces gone or live again leave the queue.
    fn observe(&mut self, registry: &Registry, now: i64) {
        let terminating: Vec<(String, String)> = registry
            .live(&NAMESPACES, None)
            .iter()
            .filter(|ns| !meta_str(ns, "deletionTimestamp").is_empty())
            .map(|ns| {
                let rv = meta_str(ns, "resourceVersion").to_string();
                (meta_str(ns, "name").to_string(), rv)
            })
            .collect();
        self.queue
            .retain(|ns, _| terminating.iter().any(|(n, _)| n == ns));
        for (ns, rv) in terminating {
            let q = self.queue.entry(ns).or_default();
            if q.rv != rv {
                q.rv = rv;
                q.add_at(now + self.delay_ms);
            }
        }
    }
}

/// `namespacedResourcesDeleter.Delete`: deletes the content, updates the conditions, and
/// finalizes the namespace when nothing is left.
fn delete(registry: &mut Registry, ns: &str) -> Pass {
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
        return Pass::Remaining {
            held: !finalizers.is_empty(),
        };
    }
    finalize(registry, ns);
    Pass::Finalized
}

/// A write as kube-controller-manager's namespace controller makes it, through
/// `subresource`.
fn write(subresource: &str) -> Write {
    Write {
        subresource: subresource.into(),
        ..Write::by(MANAGER, false)
    }
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
    if Value::Object(next.clone()) == *current {
        return;
    }
    // `UpdateStatus`: only the status changes, and the entry says so.
    let _ = registry.update(&NAMESPACES, &key, next, &write("status"));
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
    let mut request = current.as_object().cloned().unwrap_or_default();
    request.insert("spec".into(), json!({ "finalizers": kept }));
    let Some(next) =
        NAMESPACES
            .strategy
            .update_subresource("finalize", &current_map(&current), &request)
    else {
        return;
    };
    let next = registry.track_into(&NAMESPACES, &current, request, next, &write("finalize"));
    let _ = registry.write_update(&NAMESPACES, &key, &current, next, false);
}

fn current_map(v: &Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap_or_default()
}
