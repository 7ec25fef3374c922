//! The whole cluster as data: lossless export and import, and bulk loading of fixtures.

use serde_json::{json, Map, Value};

use serde::Deserialize;

use super::Engine;
use crate::clock::Clock;
use crate::features::FeatureGates;
use crate::resources::Kinds;
use crate::rng::Rng;
use crate::store::Store;

/// Reads an exported state's JSON text. Its objects nest as deep as the engine stores them
/// (Go's 10,000 levels, and their managedFields a few more), far past serde_json's default
/// limit of 128, so the limit is lifted and the parse runs with stack room.
///
/// A WebAssembly host has no stack room to make: it first checks that the state nests no
/// deeper than its objects may (the scanner's `MAX_NESTING_DEPTH` and the state's own levels around
/// them), so a state saved by a native server with deeper objects is refused with an error
/// rather than exhausting the JavaScript engine's stack.
pub fn parse_state(text: &[u8]) -> Result<Value, serde_json::Error> {
    if cfg!(target_arch = "wasm32") {
        check_state_depth(text)?;
    }
    super::stack::with_room(|| {
        let mut de = serde_json::Deserializer::from_slice(text);
        de.disable_recursion_limit();
        let value = Value::deserialize(&mut de)?;
        de.end()?;
        Ok(value)
    })
}

/// The levels a state adds around its objects, and managedFields' `fieldsV1` around the
/// fields they mirror, with room to spare.
const STATE_LEVELS: usize = 32;

/// Refuses a state that nests deeper than an engine on this host stores objects.
fn check_state_depth(text: &[u8]) -> Result<(), serde_json::Error> {
    use crate::codec::scanner;
    match scanner::check_valid_within(text, scanner::MAX_NESTING_DEPTH + STATE_LEVELS) {
        Err(e) if e.too_deep() => Err(<serde_json::Error as serde::de::Error>::custom(format!(
            "the state nests deeper than the {} levels an object may have on this host",
            scanner::MAX_NESTING_DEPTH
        ))),
        // Any other syntax error is serde_json's to report, in its own words.
        _ => Ok(()),
    }
}

impl Engine {
    /// [`Engine::export_state`] as JSON text, ending in a newline (what [`parse_state`]
    /// reads back), encoded with stack room for the deepest objects.
    pub fn export_state_json(&self) -> Vec<u8> {
        super::stack::with_room(|| {
            let mut bytes = serde_json::to_vec(&self.export_state_here()).unwrap_or_default();
            bytes.push(b'\n');
            bytes
        })
    }

    /// The whole simulated cluster as JSON (clock, RNG, store history, cache lag, gates), so
    /// a reload answers every request exactly as before. Open watches are not part of it.
    pub fn export_state(&self) -> Value {
        super::stack::with_room(|| self.export_state_here())
    }

    fn export_state_here(&self) -> Value {
        let gates: Map<String, Value> = self
            .feature_gates()
            .iter()
            .map(|(k, v)| (k.to_string(), Value::Bool(v)))
            .collect();
        let clock = self.clock();
        json!({
            "kind": "KubesimState",
            "version": 1,
            "clockMs": clock.now_ms(),
            "simulatedClock": clock.is_simulated(),
            "rngState": self.registry.rng_state().to_string(),
            "historyMs": self.history_ms,
            "cacheLagMs": self.cache().config().lag_ms,
            "featureGates": gates,
            "store": self.store().export(),
        })
    }

    /// Replaces the cluster with one exported by [`Engine::export_state`]. A simulated clock
    /// jumps to the exported time; a wall clock keeps following the host. The watch cache is
    /// rebuilt from the store (as after an apiserver restart) and open watches end.
    pub fn import_state(&mut self, state: &Value) -> Result<(), String> {
        super::stack::with_room(|| self.import_state_here(state))
    }

    fn import_state_here(&mut self, state: &Value) -> Result<(), String> {
        if state["kind"] != "KubesimState" || state["version"] != 1 {
            return Err("not a kubesim state (kind KubesimState, version 1)".into());
        }
        let store = Store::import(&state["store"])?;
        let mut gates = FeatureGates::default();
        if let Some(g) = state["featureGates"].as_object() {
            for (k, v) in g {
                gates.set(k, v.as_bool().unwrap_or(false))?;
            }
        }
        let rng_state = state["rngState"]
            .as_str()
            .and_then(|s| s.parse::<u64>().ok())
            .ok_or("state: rngState")?;
        if self.clock().is_simulated() {
            let target = state["clockMs"].as_i64().ok_or("state: clockMs")?;
            *self.registry.clock_mut() = Clock::simulated(target);
        }
        let lag_ms = state["cacheLagMs"].as_i64().unwrap_or(0);
        self.registry
            .replace(store, Rng::from_state(rng_state), gates, lag_ms);
        self.history_ms = state["historyMs"].as_i64().unwrap_or(self.history_ms);
        // The controllers start over against the new store, as a restarted
        // kube-controller-manager relists: nothing they had queued for the old one acts.
        self.namespaces = self.namespaces.restarted();
        self.gc = self.gc.restarted();
        // etcd's leases are not part of the exported state: each object with a ttl gets a
        // fresh one.
        self.leases = Default::default();
        self.aggregation = Default::default();
        // A restarted apiserver's impersonation filter remembers nothing.
        self.impersonation = Default::default();
        // Nor does it keep the connections of reads that were waiting.
        self.abandon_parked();
        Ok(())
    }

    /// Loads objects directly (no validation, no request path), one revision each, then
    /// rebuilds the cache: for benchmarks and large fixtures. Objects must be canonical and
    /// carry kind, apiVersion, metadata.name (and namespace when namespaced).
    pub fn load_objects(&mut self, objects: impl IntoIterator<Item = Value>) {
        let kinds = self.registry.kinds().clone();
        let keyed = objects.into_iter().map(|o| (storage_key(&kinds, &o), o));
        self.registry.load(keyed);
    }
}

/// The storage key of an object (`/registry/<plural>/<ns>/<name>`), from its kind and
/// metadata.
fn storage_key(kinds: &Kinds, obj: &Value) -> String {
    let meta = &obj["metadata"];
    let name = meta["name"].as_str().unwrap_or("");
    let ns = meta["namespace"].as_str().unwrap_or("");
    let kind = obj["kind"].as_str().unwrap_or("");
    let api_version = obj["apiVersion"].as_str().unwrap_or("");
    match kinds.by_kind(api_version, kind) {
        Some(info) => info.key(ns, name),
        None => format!("/registry/unknown/{ns}/{name}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::scanner::MAX_NESTING_DEPTH;

    /// A state nested `levels` deep: `{"a":{"a":...1...}}`.
    fn nested(levels: usize) -> Vec<u8> {
        let mut text = "{\"a\":".repeat(levels);
        text.push('1');
        text.push_str(&"}".repeat(levels));
        text.into_bytes()
    }

    /// The check a WebAssembly host runs before parsing a state: the deepest object the host
    /// stores, with the state's levels around it, passes; deeper is refused by name, and other
    /// syntax errors are left to serde_json.
    #[test]
    fn a_state_deeper_than_the_hosts_objects_is_refused() {
        assert!(check_state_depth(&nested(MAX_NESTING_DEPTH + STATE_LEVELS)).is_ok());
        let e = check_state_depth(&nested(MAX_NESTING_DEPTH + STATE_LEVELS + 1)).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "the state nests deeper than the {MAX_NESTING_DEPTH} levels an object may have on \
                 this host"
            )
        );
        assert!(check_state_depth(b"{\"a\":").is_ok());
    }
}
