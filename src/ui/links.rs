//! Owner and dependent links between stored objects, and why a terminating object is still
//! there, for the Store tab: what the garbage collector and the finalizers are waiting for.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::resources::meta::{str_at, strings};

/// One object's links and state.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Links {
    /// `Kind/name` of each owner, and whether it exists (same uid).
    pub owners: Vec<(String, bool)>,
    /// `Kind/name` of each dependent, and whether it blocks this object's deletion.
    pub dependents: Vec<(String, bool)>,
    /// For a terminating object: what holds it, one line per finalizer.
    pub waiting_for: Vec<String>,
}

fn label(o: &Value) -> String {
    format!("{}/{}", str_at(o, "kind"), str_at(&o["metadata"], "name"))
}

/// The links of every object, keyed by uid. (An owner in a namespace named by a
/// cluster-scoped dependent shows as gone here, though the collector leaves that reference
/// alone rather than acting on it.)
pub fn links(objects: &[Value]) -> BTreeMap<String, Links> {
    let by_uid: BTreeMap<&str, &Value> = objects
        .iter()
        .map(|o| (str_at(&o["metadata"], "uid"), o))
        .collect();
    let mut out: BTreeMap<String, Links> = BTreeMap::new();
    for o in objects {
        let uid = str_at(&o["metadata"], "uid").to_string();
        let ns = str_at(&o["metadata"], "namespace");
        for r in o["metadata"]["ownerReferences"]
            .as_array()
            .into_iter()
            .flatten()
        {
            let owner_uid = str_at(r, "uid");
            // As the garbage collector looks owners up: by name and uid, in the dependent's
            // namespace unless the owner is cluster-scoped.
            let alive = by_uid.get(owner_uid).is_some_and(|owner| {
                let owner_ns = str_at(&owner["metadata"], "namespace");
                str_at(&owner["metadata"], "name") == str_at(r, "name")
                    && (owner_ns.is_empty() || owner_ns == ns)
            });
            let name = format!("{}/{}", str_at(r, "kind"), str_at(r, "name"));
            out.entry(uid.clone())
                .or_default()
                .owners
                .push((name, alive));
            if alive {
                let block = r["blockOwnerDeletion"].as_bool().unwrap_or(false);
                out.entry(owner_uid.to_string())
                    .or_default()
                    .dependents
                    .push((label(o), block));
            }
        }
    }
    for o in objects {
        let meta = &o["metadata"];
        if meta["deletionTimestamp"].is_null() {
            continue;
        }
        let entry = out.entry(str_at(meta, "uid").to_string()).or_default();
        let blocking: Vec<String> = entry
            .dependents
            .iter()
            .filter(|(_, b)| *b)
            .map(|(n, _)| n.clone())
            .collect();
        let mut reasons = Vec::new();
        for f in strings(meta.get("finalizers")) {
            reasons.push(match f.as_str() {
                "foregroundDeletion" if blocking.is_empty() => {
                    "foregroundDeletion: no blocking dependents left; the garbage collector removes it next".to_string()
                }
                "foregroundDeletion" => format!(
                    "foregroundDeletion: waiting for dependents with blockOwnerDeletion: {}",
                    blocking.join(", ")
                ),
                "orphan" => format!(
                    "orphan: the garbage collector removes this owner from {} dependent(s), then the finalizer",
                    entry.dependents.len()
                ),
                other => format!("{other}: held until whoever set it removes it"),
            });
        }
        for f in strings(o["spec"].get("finalizers")) {
            reasons.push(format!(
                "{f} (spec): the namespace controller empties the namespace, then removes it"
            ));
        }
        entry.waiting_for = reasons;
    }
    out
}

/// Why `obj`, an object a response carried, is still there: `None` unless it was being
/// deleted; else one line per thing that holds it, from its version in the store
/// (`objects` gives every stored object, asked for only then) with the dependents the
/// garbage collector waits for. The response's copy may be older than the store's: an object
/// that has since gone says so.
pub fn still_there(obj: &Value, objects: impl FnOnce() -> Vec<Value>) -> Option<Vec<String>> {
    let meta = &obj["metadata"];
    if meta["deletionTimestamp"].is_null() {
        return None;
    }
    let objects = objects();
    let objects = objects.as_slice();
    let uid = str_at(meta, "uid");
    if !objects.iter().any(|o| str_at(&o["metadata"], "uid") == uid) {
        return Some(vec![
            "gone from the store since: its last finalizer was removed, and with it the object"
                .to_string(),
        ]);
    }
    let lines = links(objects)
        .remove(uid)
        .map(|l| l.waiting_for)
        .unwrap_or_default();
    Some(lines)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cm(name: &str, uid: &str, meta: Value) -> Value {
        let mut m = json!({"name": name, "namespace": "default", "uid": uid});
        m.as_object_mut()
            .unwrap()
            .extend(meta.as_object().unwrap().clone());
        json!({"kind": "ConfigMap", "metadata": m})
    }

    #[test]
    fn owners_dependents_and_what_a_terminating_object_waits_for() {
        let owner_ref = |uid: &str, block: bool| json!({"kind": "ConfigMap", "name": "o", "uid": uid, "blockOwnerDeletion": block});
        let objects = vec![
            cm(
                "o",
                "u1",
                json!({"deletionTimestamp": "t", "finalizers": ["foregroundDeletion", "x.io/hold"]}),
            ),
            cm(
                "a",
                "u2",
                json!({"ownerReferences": [owner_ref("u1", true)]}),
            ),
            cm(
                "b",
                "u3",
                json!({"ownerReferences": [owner_ref("u1", false), owner_ref("gone", false)]}),
            ),
            {
                let mut c = cm(
                    "c",
                    "u4",
                    json!({"ownerReferences": [owner_ref("u1", false)]}),
                );
                c["metadata"]["namespace"] = json!("elsewhere");
                c
            },
        ];
        let l = links(&objects);
        assert_eq!(
            l["u1"].dependents,
            [
                ("ConfigMap/a".to_string(), true),
                ("ConfigMap/b".to_string(), false)
            ]
        );
        assert_eq!(
            l["u3"].owners,
            [
                ("ConfigMap/o".to_string(), true),
                ("ConfigMap/o".to_string(), false)
            ]
        );
        assert_eq!(
            l["u1"].waiting_for,
            [
                "foregroundDeletion: waiting for dependents with blockOwnerDeletion: ConfigMap/a",
                "x.io/hold: held until whoever set it removes it"
            ]
        );
        assert!(l.get("u2").is_some_and(|x| x.waiting_for.is_empty()));
        // An owner in another namespace is absent for the collector, and here.
        assert_eq!(l["u4"].owners, [("ConfigMap/o".to_string(), false)]);
    }

    /// A response's object explains itself from the store: what holds it while it is
    /// stored, that it has gone once it is not, nothing when it is not being deleted.
    #[test]
    fn a_responses_terminating_object_says_what_holds_it() {
        let owner = cm(
            "o",
            "u1",
            json!({"deletionTimestamp": "t", "finalizers": ["foregroundDeletion"]}),
        );
        let blocker = cm(
            "a",
            "u2",
            json!({"ownerReferences": [{"kind": "ConfigMap", "name": "o", "uid": "u1", "blockOwnerDeletion": true}]}),
        );
        let stored = vec![owner.clone(), blocker.clone()];
        assert_eq!(
            still_there(&owner, || stored.clone()).unwrap(),
            ["foregroundDeletion: waiting for dependents with blockOwnerDeletion: ConfigMap/a"]
        );
        assert!(still_there(&owner, || vec![blocker.clone()]).unwrap()[0]
            .starts_with("gone from the store"));
        assert_eq!(still_there(&blocker, || unreachable!()), None);
    }
}
