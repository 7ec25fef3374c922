//! `metadata.managedFields` as kube-apiserver reads and writes it: entries keyed by a manager
//! identifier (manager, operation, subresource, and for updates the apiVersion — the JSON
//! `BuildManagerIdentifier` produces), their times, and the order entries are written in.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use super::path::PathElement;
use super::set::Set;
use super::updater::{Owned, Owners};

/// `operation` of an entry.
pub const APPLY: &str = "Apply";
/// `operation` of an entry.
pub const UPDATE: &str = "Update";

/// Owners and the time each last changed something.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Managed {
    pub owners: Owners,
    pub times: BTreeMap<String, Option<String>>,
}

/// The parts of a manager identifier.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Manager {
    pub manager: String,
    pub operation: String,
    pub api_version: String,
    pub subresource: String,
}

impl Manager {
    /// The identifier JSON (`{"manager":"m","operation":"Update","apiVersion":"v1"}`): an
    /// applier's leaves out the apiVersion, so it stays one owner across versions.
    pub fn identifier(&self) -> String {
        let mut m = Map::new();
        if !self.manager.is_empty() {
            m.insert("manager".into(), json!(self.manager));
        }
        if !self.operation.is_empty() {
            m.insert("operation".into(), json!(self.operation));
        }
        if self.operation != APPLY && !self.api_version.is_empty() {
            m.insert("apiVersion".into(), json!(self.api_version));
        }
        if !self.subresource.is_empty() {
            m.insert("subresource".into(), json!(self.subresource));
        }
        crate::codec::json::to_compact_string(&Value::Object(m))
    }

    /// Reads an identifier back.
    pub fn parse(id: &str) -> Option<Manager> {
        let v: Value = serde_json::from_slice(id.as_bytes()).ok()?;
        let s = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
        Some(Manager {
            manager: s("manager"),
            operation: s("operation"),
            api_version: s("apiVersion"),
            subresource: s("subresource"),
        })
    }

    /// How conflicts name a manager (`printManager`): `"kubectl"`, `"m" with subresource
    /// "status"`, and for updaters ` using apps/v1`.
    pub fn describe(id: &str) -> String {
        let Some(m) = Manager::parse(id) else {
            return crate::codec::go_quote(id);
        };
        let mut out = crate::codec::go_quote(&m.manager);
        if !m.subresource.is_empty() {
            out = format!(
                "{out} with subresource {}",
                crate::codec::go_quote(&m.subresource)
            );
        }
        if m.operation == UPDATE {
            out = format!("{out} using {}", m.api_version);
        }
        out
    }
}

/// Why stored or requested managedFields could not be read.
pub type DecodeError = String;

/// Reads `metadata.managedFields` (`DecodeManagedFields`), checking each entry in Go's order
/// with its texts: operation, apiVersion, fieldsType, then the FieldsV1 set (whose error names
/// the entry by its manager identifier, where Go prints the entry struct).
pub fn decode(entries: &[Value]) -> Result<Managed, DecodeError> {
    let mut managed = Managed::default();
    for (i, e) in entries.iter().enumerate() {
        let s = |k: &str| e.get(k).and_then(Value::as_str).unwrap_or("").to_string();
        let applied = match s("operation").as_str() {
            APPLY => true,
            UPDATE => false,
            _ => return Err("operation must be `Apply` or `Update`".into()),
        };
        if s("apiVersion").is_empty() {
            return Err("apiVersion must not be empty".into());
        }
        match s("fieldsType").as_str() {
            "FieldsV1" => {}
            "" => return Err(format!("missing fieldsType in managed fields entry {i}")),
            other => {
                return Err(format!(
                    "invalid fieldsType {} in managed fields entry {i}",
                    crate::codec::go_quote(other)
                ))
            }
        }
        let m = Manager {
            manager: s("manager"),
            operation: s("operation"),
            api_version: s("apiVersion"),
            subresource: s("subresource"),
        };
        let id = m.identifier();
        let set = match e.get("fieldsV1") {
            Some(v) if !v.is_null() => Set::from_fields_v1(v).map_err(|err| {
                format!("error decoding versioned set from {id}: error decoding set: {err}")
            })?,
            _ => Set::new(),
        };
        managed.owners.insert(
            id.clone(),
            Owned {
                set,
                api_version: m.api_version,
                applied,
            },
        );
        let time = e.get("time").and_then(Value::as_str).map(str::to_string);
        managed.times.insert(id, time);
    }
    Ok(managed)
}

/// The entries to store, in kube-apiserver's order: Apply before Update, then by time, manager,
/// apiVersion and subresource.
pub fn encode(managed: &Managed) -> Vec<Value> {
    encode_with(managed, BTreeMap::new())
}

/// [`encode`], taking each owner's FieldsV1 from `fields_v1` (by manager identifier) where it
/// was encoded already.
pub fn encode_with(managed: &Managed, mut fields_v1: BTreeMap<String, Value>) -> Vec<Value> {
    let mut entries: Vec<(Manager, Option<String>, &String, &Owned)> = managed
        .owners
        .iter()
        .filter_map(|(id, owned)| {
            let mut m = Manager::parse(id)?;
            m.api_version = owned.api_version.clone();
            Some((m, managed.times.get(id).cloned().flatten(), id, owned))
        })
        .collect();
    let secs = |t: &Option<String>| {
        t.as_deref()
            .and_then(|t| crate::codec::rfc3339::parse(t).ok())
            .unwrap_or(0)
    };
    crate::sort::sort_by(&mut entries, |(p, pt, _, _), (q, qt, _, _)| {
        p.operation
            .cmp(&q.operation)
            .then_with(|| secs(pt).cmp(&secs(qt)))
            .then_with(|| p.manager.cmp(&q.manager))
            .then_with(|| p.api_version.cmp(&q.api_version))
            .then_with(|| p.subresource.cmp(&q.subresource))
    });
    entries
        .into_iter()
        .map(|(m, time, id, owned)| {
            let mut e = Map::new();
            e.insert("manager".into(), json!(m.manager));
            e.insert("operation".into(), json!(m.operation));
            e.insert("apiVersion".into(), json!(m.api_version));
            if let Some(t) = time {
                e.insert("time".into(), json!(t));
            }
            e.insert("fieldsType".into(), json!("FieldsV1"));
            let fields = fields_v1
                .remove(id)
                .unwrap_or_else(|| owned.set.to_fields_v1());
            e.insert("fieldsV1".into(), fields);
            if !m.subresource.is_empty() {
                e.insert("subresource".into(), json!(m.subresource));
            }
            Value::Object(e)
        })
        .collect()
}

/// Fields never tracked (`stripMeta`): type meta, and the metadata the server owns. Built
/// once.
pub fn strip_set() -> &'static Set {
    static STRIP: std::sync::LazyLock<Set> = std::sync::LazyLock::new(build_strip_set);
    &STRIP
}

fn build_strip_set() -> Set {
    let mut s = Set::new();
    for f in ["apiVersion", "kind", "metadata"] {
        s.insert(&[PathElement::field(f)]);
    }
    for f in [
        "name",
        "namespace",
        "creationTimestamp",
        "selfLink",
        "uid",
        "clusterName",
        "generation",
        "managedFields",
        "resourceVersion",
    ] {
        s.insert(&[PathElement::field("metadata"), PathElement::field(f)]);
    }
    s
}

/// `isResetManagedFields`: `[]` or `[{}]` in a request clears the tracking.
pub fn is_reset(v: Option<&Value>) -> bool {
    match v {
        Some(Value::Array(items)) => match items.as_slice() {
            [] => true,
            [only] => only.as_object().is_some_and(Map::is_empty),
            _ => false,
        },
        _ => false,
    }
}

/// The name of the entry the oldest updates are merged into past the cap.
pub const ANCIENT_CHANGES: &str = "ancient-changes";

/// `DefaultMaxUpdateManagers`.
pub const MAX_UPDATE_MANAGERS: usize = 10;

/// `capManagersManager`: past ten Update entries, the oldest are merged, per apiVersion,
/// into one `ancient-changes` entry; whether there were more than ten (the entries changed).
pub fn cap_update_managers(managed: &mut Managed) -> bool {
    let mut updaters: Vec<String> = managed
        .owners
        .iter()
        .filter(|(_, o)| !o.applied)
        .map(|(id, _)| id.clone())
        .collect();
    if updaters.len() <= MAX_UPDATE_MANAGERS {
        return false;
    }
    let secs = |id: &String| {
        managed
            .times
            .get(id)
            .cloned()
            .flatten()
            .as_deref()
            .and_then(|t| crate::codec::rfc3339::parse(t).ok())
            .unwrap_or(0)
    };
    crate::sort::sort_by(&mut updaters, |a, b| {
        secs(a).cmp(&secs(b)).then_with(|| a.cmp(b))
    });
    let mut first_by_version: BTreeMap<String, String> = BTreeMap::new();
    let mut length = updaters.len();
    for id in &updaters {
        if length <= MAX_UPDATE_MANAGERS {
            break;
        }
        let Some(owned) = managed.owners.get(id).cloned() else {
            continue;
        };
        let time = managed.times.get(id).cloned().flatten();
        let version = owned.api_version.clone();
        let bucket = Manager {
            manager: ANCIENT_CHANGES.into(),
            operation: UPDATE.into(),
            api_version: version.clone(),
            subresource: String::new(),
        }
        .identifier();
        match first_by_version.get(&version) {
            Some(first) => {
                if !managed.owners.contains_key(&bucket) {
                    if let Some(s) = managed.owners.remove(first) {
                        managed.owners.insert(bucket.clone(), s);
                    }
                }
                let merged = managed.owners.get(&bucket).map(|b| b.set.union(&owned.set));
                managed.owners.insert(
                    bucket.clone(),
                    Owned {
                        set: merged.unwrap_or(owned.set),
                        api_version: version,
                        applied: false,
                    },
                );
                managed.owners.remove(id);
                managed.times.remove(id);
                managed.times.insert(bucket, time);
                length -= 1;
            }
            None => {
                first_by_version.insert(version, id.clone());
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_and_descriptions_match_apimachinery() {
        let m = Manager {
            manager: "kube-controller-manager".into(),
            operation: UPDATE.into(),
            api_version: "apps/v1".into(),
            subresource: String::new(),
        };
        let id = m.identifier();
        assert_eq!(
            id,
            r#"{"manager":"kube-controller-manager","operation":"Update","apiVersion":"apps/v1"}"#
        );
        assert_eq!(
            Manager::describe(&id),
            r#""kube-controller-manager" using apps/v1"#
        );
        let a = Manager {
            operation: APPLY.into(),
            subresource: "status".into(),
            ..m
        };
        assert_eq!(
            Manager::describe(&a.identifier()),
            r#""kube-controller-manager" with subresource "status""#
        );
    }

    #[test]
    fn entries_round_trip_in_order() {
        let entries = vec![
            json!({"manager": "b", "operation": "Update", "apiVersion": "v1", "time": "2024-01-01T00:00:01Z", "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {"f:x": {}}}}),
            json!({"manager": "a", "operation": "Update", "apiVersion": "v1", "time": "2024-01-01T00:00:02Z", "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {"f:y": {}}}}),
            json!({"manager": "z", "operation": "Apply", "apiVersion": "v1", "time": "2024-01-01T00:00:09Z", "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {"f:z": {}}}, "subresource": "status"}),
        ];
        let managed = decode(&entries).unwrap();
        let out = encode(&managed);
        let names: Vec<&str> = out.iter().map(|e| e["manager"].as_str().unwrap()).collect();
        assert_eq!(names, ["z", "b", "a"]);
        assert_eq!(out[0], entries[2]);
        assert!(decode(&[
            json!({"manager": "x", "operation": "Update", "fieldsType": "FieldsV2"})
        ])
        .is_err());
    }

    #[test]
    fn unreadable_entries_fail_in_go_order_with_go_texts() {
        let cases = [
            (
                json!({"operation": "Bogus", "fieldsType": "x"}),
                "operation must be `Apply` or `Update`",
            ),
            (
                json!({"operation": "Update"}),
                "apiVersion must not be empty",
            ),
            (
                json!({"operation": "Update", "apiVersion": "v1"}),
                "missing fieldsType in managed fields entry 0",
            ),
            (
                json!({"operation": "Update", "apiVersion": "v1", "fieldsType": "FieldsV2"}),
                "invalid fieldsType \"FieldsV2\" in managed fields entry 0",
            ),
        ];
        for (entry, text) in cases {
            assert_eq!(
                decode(std::slice::from_ref(&entry)).unwrap_err(),
                text,
                "{entry}"
            );
        }
    }

    #[test]
    fn only_empty_lists_reset() {
        assert!(is_reset(Some(&json!([]))));
        assert!(is_reset(Some(&json!([{}]))));
        assert!(!is_reset(Some(&json!([{"manager": "x"}]))));
        assert!(!is_reset(None));
        assert!(!is_reset(Some(&Value::Null)));
    }
}
