//! Properties of ownership over random sequences of applies and updates by several managers:
//! an applied field has one Apply owner unless its appliers agree on its value, and
//! re-applying the configuration just applied changes nothing.

use std::collections::BTreeMap;

use proptest::prelude::*;
use serde_json::{json, Map, Value};

use super::*;
use crate::resources::configmap::CONFIG_MAPS;
use crate::resources::schema::CONFIG_MAP;

const MANAGERS: &[&str] = &["a", "b", "c"];
const KEYS: &[&str] = &["k1", "k2", "k3"];

#[derive(Debug, Clone)]
enum Op {
    Apply {
        manager: usize,
        data: BTreeMap<usize, u8>,
        force: bool,
    },
    Update {
        manager: usize,
        key: usize,
        value: Option<u8>,
    },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (
            0..3usize,
            prop::collection::btree_map(0..3usize, 0..2u8, 0..3),
            any::<bool>()
        )
            .prop_map(|(manager, data, force)| Op::Apply {
                manager,
                data,
                force
            }),
        (0..3usize, 0..3usize, prop::option::of(0..2u8)).prop_map(|(manager, key, value)| {
            Op::Update {
                manager,
                key,
                value,
            }
        }),
    ]
}

fn fm() -> FieldManager {
    FieldManager::new(&CONFIG_MAPS, "")
}

/// A configuration setting `data` (left out when empty: an applied empty map owns the map
/// itself, and storage then drops it, so re-applying `data: {}` conflicts on a real server too).
fn config(data: &BTreeMap<usize, u8>) -> Value {
    let data: Map<String, Value> = data
        .iter()
        .map(|(k, v)| (KEYS[*k].to_string(), json!(v.to_string())))
        .collect();
    let mut cfg = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "namespace": "d"}});
    if !data.is_empty() {
        cfg["data"] = Value::Object(data);
    }
    cfg
}

/// The object as storage keeps it (Go's encoding drops empty maps and nulls).
fn stored(v: Value) -> Value {
    Value::Object(crate::codec::decode::canonicalize(
        v.as_object().unwrap(),
        &CONFIG_MAP,
    ))
}

/// The keys of `.data` each Apply entry owns.
fn applied_keys(obj: &Value) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    for e in obj["metadata"]["managedFields"]
        .as_array()
        .into_iter()
        .flatten()
    {
        if e["operation"] != "Apply" {
            continue;
        }
        let keys = e["fieldsV1"]["f:data"]
            .as_object()
            .map(|m| {
                m.keys()
                    .filter_map(|k| k.strip_prefix("f:"))
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        out.push((e["manager"].as_str().unwrap().to_string(), keys));
    }
    out
}

proptest! {
    #[test]
    fn ownership_stays_consistent(ops in prop::collection::vec(op(), 1..12)) {
        let fm = fm();
        let mut live: Option<Value> = None;
        let mut last: BTreeMap<&str, Value> = BTreeMap::new();
        for (i, op) in ops.iter().enumerate() {
            let now = format!("2026-01-01T00:00:{:02}Z", i);
            match op {
                Op::Apply { manager, data, force } => {
                    let m = MANAGERS[*manager];
                    let cfg = config(data);
                    let req = ApplyRequest { manager: m, force: *force, now: &now };
                    let Ok(mut out) = fm.apply(live.as_ref(), &cfg, &req) else { continue };
                    out["metadata"]["uid"] = json!("u");
                    let out = stored(out);
                    // Re-applying what was just applied is a no-op once stored.
                    let again = fm.apply(Some(&out), &cfg, &ApplyRequest { manager: m, force: false, now: "2026-01-02T00:00:00Z" });
                    let mut again = stored(again.expect("re-apply succeeds")).as_object().cloned().unwrap();
                    keep_times_of_unchanged(&mut again, &out);
                    prop_assert_eq!(Value::Object(again), out.clone());
                    last.insert(m, cfg);
                    live = Some(out);
                }
                Op::Update { manager, key, value } => {
                    let Some(cur) = live.clone() else { continue };
                    let mut new = cur.clone();
                    let data = new.as_object_mut().unwrap().entry("data").or_insert(json!({}));
                    match value {
                        Some(v) => { data[KEYS[*key]] = json!(v.to_string()); }
                        None => { data.as_object_mut().map(|d| d.remove(KEYS[*key])); }
                    }
                    let out = fm.update(Some(&cur), new.as_object().cloned().unwrap(), MANAGERS[*manager], &now);
                    live = Some(stored(Value::Object(out)));
                }
            }
            // A field owned by several appliers holds the value each of them applied.
            let obj = live.as_ref().unwrap();
            let owners = applied_keys(obj);
            for k in KEYS {
                let holders: Vec<&String> = owners.iter().filter(|(_, ks)| ks.iter().any(|x| x == k)).map(|(m, _)| m).collect();
                if holders.len() > 1 {
                    for m in holders {
                        let applied = &last[m.as_str()]["data"][k];
                        prop_assert_eq!(applied, &obj["data"][k], "{} shares {} with another applier", m, k);
                    }
                }
            }
        }
    }
}
