//! The namespace lifecycle controller: empties a terminating namespace, then removes the
//! `kubernetes` finalizer through `namespaces/NAME/finalize`, which lets it be removed.
//!
//! The real controller does this asynchronously within seconds; kubesim does it on the next
//! registry tick, so a terminating namespace is observable in the response to its DELETE and
//! gone right after.

use serde_json::{json, Value};

use crate::registry::{DeleteOptions, Registry};
use crate::resources::meta::meta_str;
use crate::resources::{namespace::KUBERNETES_FINALIZER, NAMESPACES};

/// Finalizes every terminating namespace.
pub fn reconcile(registry: &mut Registry) {
    let rev = registry.store().revision();
    let terminating: Vec<String> =
        match registry
            .store()
            .range(&NAMESPACES.key_prefix(), None, rev, None, |ns| {
                !meta_str(ns, "deletionTimestamp").is_empty()
            }) {
            Ok(page) => page
                .items
                .iter()
                .map(|o| meta_str(o, "name").to_string())
                .collect(),
            Err(_) => return,
        };
    for ns in terminating {
        finalize(registry, &ns);
    }
}

fn finalize(registry: &mut Registry, ns: &str) {
    let opts = DeleteOptions::default();
    // Delete all content of the namespace.
    let kinds = registry.kinds().clone();
    for info in kinds.iter().filter(|r| r.namespaced) {
        let prefix = format!("{}{}/", info.key_prefix(), ns);
        let rev = registry.store().revision();
        let Ok(page) = registry.store().range(&prefix, None, rev, None, |_| true) else {
            continue;
        };
        for obj in page.items {
            let name = meta_str(&obj, "name").to_string();
            let key = info.key(ns, &name);
            if meta_str(&obj, "deletionTimestamp").is_empty() {
                let _ = registry.delete(info, &key, &name, &opts);
            }
        }
    }
    // Wait for objects held by finalizers.
    let remaining = kinds.iter().filter(|r| r.namespaced).any(|info| {
        let prefix = format!("{}{}/", info.key_prefix(), ns);
        let rev = registry.store().revision();
        registry
            .store()
            .range(&prefix, None, rev, Some(1), |_| true)
            .map(|p| !p.items.is_empty())
            .unwrap_or(false)
    });
    if remaining {
        return;
    }
    let key = NAMESPACES.key("", ns);
    let Some(current) = registry.store().get(&key).cloned() else {
        return;
    };
    let has_kube_finalizer = current
        .get("spec")
        .and_then(|s| s.get("finalizers"))
        .and_then(Value::as_array)
        .is_some_and(|a| a.iter().any(|f| f == KUBERNETES_FINALIZER));
    if has_kube_finalizer {
        let mut next = current.as_object().cloned().unwrap_or_default();
        let fins: Vec<Value> = current["spec"]["finalizers"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter(|f| *f != KUBERNETES_FINALIZER)
                    .cloned()
                    .collect()
            })
            .unwrap_or_default();
        next.insert("spec".into(), json!({ "finalizers": fins }));
        let _ = registry.write_update(&NAMESPACES, &key, &current, next, false);
    }
}
