//! The namespace lifecycle controller (`pkg/controller/namespace`): empties a terminating
//! namespace, reports progress in its status conditions, then removes the `kubernetes`
//! finalizer (as `namespaces/NAME/finalize` does), which lets the namespace go.
//!
//! Its queue is the real one's, on simulated time. Every change to a terminating namespace
//! (the delete that marks it, its own status write, anyone's update) queues it
//! `namespaceDeletionGracePeriod` (5 s, configurable) later; a pass that leaves content held
//! by finalizers queues it again after `finalizerEstimateSeconds/2 + 1` = 8 s; content that
//! remains without finalizers is an error, retried with the rate limiter's backoff (5 ms
//! doubling to 60 s, the count kept until a pass finalizes); the earliest wins, as in the
//! delaying queue. It sees changes as its informer does, from the store's events. A pass
//! reads the namespace first (gone, live, finalized or unreadable: nothing to do, or an
//! error), then deletes each kind's content with a background deletecollection and lists
//! what remains: per kind, leftovers with finalizers are waited for, leftovers without are
//! an error (`NamespaceDeletionContentFailure`). Its writes are kube-controller-manager's:
//! `Update` entries with the `status` (and, while other spec finalizers remain, `finalize`)
//! subresource.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use super::MANAGER;
use crate::registry::{DeleteOptions, ListOptions, Registry, Write};
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
    /// Failed passes since the last success (the rate limiter's count).
    failures: u32,
}

impl Queued {
    /// `AddAfter`: the earliest of the pending time and `at`.
    fn add_at(&mut self, at: i64) {
        self.due = Some(self.due.map_or(at, |d| d.min(at)));
    }
}

/// How a pass ended, as the worker sees `Delete`'s result.
enum Pass {
    /// Nothing left to do (finalized, or nothing to finalize): `Forget`.
    Done,
    /// Content held by finalizers (`ResourcesRemainingError`): `AddAfter` the estimate.
    Held,
    /// An error: `AddRateLimited`.
    Failed,
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

    /// Handles the terminating namespaces that are due. (It runs after every request; it
    /// reads the store's events only when the store changed.)
    pub fn run(&mut self, registry: &mut Registry) {
        let now = registry.clock().now_ms();
        self.observe(registry, now);
        let due: Vec<String> = self
            .queue
            .iter()
            .filter(|(_, q)| q.due.is_some_and(|t| t <= now))
            .map(|(ns, _)| ns.clone())
            .collect();
        for ns in due {
            let pass = delete(registry, &ns);
            if let Some(q) = self.queue.get_mut(&ns) {
                q.due = None;
                match pass {
                    Pass::Done => q.failures = 0,
                    Pass::Held => q.add_at(now + FINALIZER_REQUEUE_MS),
                    Pass::Failed => {
                        let backoff = BACKOFF_BASE_MS
                            .saturating_mul(1i64 << q.failures.min(40))
                            .min(BACKOFF_MAX_MS);
                        q.failures += 1;
                        q.add_at(now + backoff);
                    }
                }
            }
            // The pass's own writes are update events too, seen at once.
            self.observe(registry, now);
        }
    }

    /// The controller after a restart of kube-controller-manager: the same settings, an
    /// empty queue, nothing seen (its first look is a relist).
    pub fn restarted(&self) -> Self {
        NamespaceController::new(self.delay_ms)
    }

    /// When the next namespace comes due, if any is queued.
    pub fn next_due(&self) -> Option<i64> {
        self.queue.values().filter_map(|q| q.due).min()
    }

    /// The informer's view of the writes since the last look: a terminating namespace that
    /// changed is queued a delay from now; one deleted or live again leaves the queue. When
    /// the events are compacted away, every terminating namespace counts as changed (a
    /// relist).
    fn observe(&mut self, registry: &Registry, now: i64) {
        let store = registry.store();
        let rev = store.revision();
        if rev == self.seen {
            return;
        }
        let at = now + self.delay_ms;
        let prefix = NAMESPACES.key_prefix();
        match store.events_after(self.seen) {
            Ok(events) => {
                for e in events {
                    let Some(name) = e.key.strip_prefix(&prefix) else {
                        continue;
                    };
                    match &e.value {
                        Some(ns) if !meta_str(&ns.decode(), "deletionTimestamp").is_empty() => {
                            self.queue.entry(name.to_string()).or_default().add_at(at);
                        }
                        _ => {
                            self.queue.remove(name);
                        }
                    }
                }
            }
            Err(_) => {
                let terminating: Vec<String> = registry
                    .live(&NAMESPACES, None)
                    .iter()
                    .filter(|ns| !meta_str(ns, "deletionTimestamp").is_empty())
                    .map(|ns| meta_str(ns, "name").to_string())
                    .collect();
                self.queue.retain(|ns, _| terminating.contains(ns));
                for ns in terminating {
                    self.queue.entry(ns).or_default().add_at(at);
                }
            }
        }
        self.seen = rev;
    }
}

/// `namespacedResourcesDeleter.Delete`: reads the namespace (gone, live or already
/// finalized: nothing to do; unreadable: an error), deletes the content, updates the
/// conditions, and finalizes the namespace when nothing is left.
fn delete(registry: &mut Registry, ns: &str) -> Pass {
    let current = match registry.read_current(&NAMESPACES, &NAMESPACES.key("", ns)) {
        Ok(Some(current)) => current,
        Ok(None) => return Pass::Done,
        Err(_) => return Pass::Failed,
    };
    if meta_str(&current, "deletionTimestamp").is_empty()
        || strings(current["spec"].get("finalizers")).is_empty()
    {
        return Pass::Done;
    }
    let content = delete_content(registry, ns);
    update_conditions(registry, ns, &content);
    if !content.errors.is_empty() {
        return Pass::Failed;
    }
    if !content.remaining.is_empty() {
        return Pass::Held;
    }
    match finalize(registry, ns) {
        Ok(()) => Pass::Done,
        Err(()) => Pass::Failed,
    }
}

/// What `deleteAllContent` found: per kind what remains, the finalizers holding it, and
/// the errors (`ProcessDeleteContentErr`).
#[derive(Default)]
struct Content {
    /// (`resource.group`, count) of what remains.
    remaining: Vec<(String, usize)>,
    /// (finalizer, count) over what remains.
    finalizers: BTreeMap<String, usize>,
    errors: Vec<String>,
}

/// `deleteAllContentForGroupVersionResource` for every namespaced kind: a background
/// deletecollection, then a list of what remains. Leftovers with finalizers are waited for;
/// leftovers of a kind none of whose items has a finalizer are an error.
fn delete_content(registry: &mut Registry, ns: &str) -> Content {
    let opts = DeleteOptions {
        propagation: Some("Background".into()),
        ..DeleteOptions::default()
    };
    let all = ListOptions::everything();
    let kinds = registry.kinds().clone();
    let mut out = Content::default();
    for info in kinds.iter().filter(|r| r.namespaced && r.strategy.stored()) {
        let left = registry
            .delete_collection(info, Some(ns), &all, &opts)
            .and_then(|_| registry.list(info, Some(ns), &all));
        let items = match left {
            Ok(page) => page.items,
            Err(e) => {
                out.errors.push(e.message);
                continue;
            }
        };
        if items.is_empty() {
            continue;
        }
        let mut held = false;
        for item in &items {
            let item = item.decode();
            for f in strings(item["metadata"].get("finalizers")) {
                held = true;
                *out.finalizers.entry(f).or_default() += 1;
            }
        }
        // `<resource>.<group>`: "configmaps." for the core group, as the real one prints.
        out.remaining
            .push((format!("{}.{}", info.plural, info.group), items.len()));
        if !held {
            // `%v` of the GroupVersionResource struct.
            out.errors.push(format!(
                "unexpected items still remain in namespace: {ns} for gvr: {{{} {} {}}}",
                info.group, info.version, info.plural
            ));
        }
    }
    out
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
fn update_conditions(registry: &mut Registry, ns: &str, content: &Content) {
    let key = NAMESPACES.key("", ns);
    let Ok(Some(current)) = registry.read_current(&NAMESPACES, &key) else {
        return;
    };
    let now = registry.now_text();
    let mut failing: BTreeMap<&str, (&str, String)> = BTreeMap::new();
    if !content.errors.is_empty() {
        // `makeDeleteContentCondition`.
        let mut msgs = content.errors.clone();
        crate::sort::sort(&mut msgs);
        let msg = format!(
            "Failed to delete all resource types, {} remaining: {}",
            msgs.len(),
            msgs.join(", ")
        );
        failing.insert(
            "NamespaceDeletionContentFailure",
            ("ContentDeletionFailed", msg),
        );
    }
    let (remaining, finalizers) = (&content.remaining, &content.finalizers);
    if !remaining.is_empty() {
        let mut parts: Vec<String> = remaining
            .iter()
            .map(|(r, n)| format!("{r} has {n} resource instances"))
            .collect();
        crate::sort::sort(&mut parts);
        let msg = format!("Some resources are remaining: {}", parts.join(", "));
        failing.insert("NamespaceContentRemaining", ("SomeResourcesRemain", msg));
    }
    if !finalizers.is_empty() {
        let mut parts: Vec<String> = finalizers
            .iter()
            .map(|(f, n)| format!("{f} in {n} resource instances"))
            .collect();
        crate::sort::sort(&mut parts);
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
    if current.as_object() == Some(&next) {
        return;
    }
    // `UpdateStatus`: only the status changes, and the entry says so.
    let _ = registry.update(&NAMESPACES, &key, next, &write("status"));
}

/// `finalizeNamespace`: `spec.finalizers` without `kubernetes`, sorted and de-duplicated
/// (a string set's list), written through `namespaces/NAME/finalize`.
fn finalize(registry: &mut Registry, ns: &str) -> Result<(), ()> {
    let key = NAMESPACES.key("", ns);
    let Ok(Some(current)) = registry.read_current(&NAMESPACES, &key) else {
        return Err(());
    };
    let kept = crate::sort::btree_set(
        strings(current["spec"].get("finalizers"))
            .into_iter()
            .filter(|f| f != KUBERNETES_FINALIZER),
    );
    let mut request = current.as_object().cloned().unwrap_or_default();
    request.insert("spec".into(), json!({ "finalizers": kept }));
    registry
        .update_own_subresource(
            &NAMESPACES,
            &key,
            ns,
            "finalize",
            request,
            &write("finalize"),
        )
        .map(|_| ())
        .map_err(|_| ())
}
