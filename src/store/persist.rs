//! Saving and restoring the store losslessly: the state at the compacted revision plus every
//! retained event, so reads and watches at any retained revision answer the same after a
//! reload as before it; with them the values marked unreadable (and the events that removed
//! one) and the client's bytes of raw fields, so a corrupt object stays corrupt and a
//! ControllerRevision's `data` compares as the client wrote it.

use serde_json::{json, Value};

use super::{Event, Object, Store, Version};

impl Store {
    /// The store as JSON: revision counters, the base state at the compacted revision and the
    /// retained events (with write times and previous values).
    pub fn export(&self) -> Value {
        let base: Vec<Value> = self
            .keys
            .iter()
            .filter_map(|(k, h)| {
                let idx = h.partition_point(|v| v.mod_rev <= self.compacted);
                let v = idx.checked_sub(1).map(|i| &h[i])?;
                v.value
                    .as_ref()
                    .map(|o| json!({"key": k, "rev": v.mod_rev, "value": o.decode()}))
            })
            .collect();
        let events: Vec<Value> = self
            .events
            .iter()
            .map(|e| {
                let mut ev = json!({
                    "rev": e.rev,
                    "timeMs": e.time_ms,
                    "key": e.key,
                    "value": e.value.as_ref().map(Object::decode),
                });
                if e.corrupt_prev {
                    ev["corruptPrev"] = json!(true);
                }
                ev
            })
            .collect();
        let corrupt: serde_json::Map<String, Value> = self
            .corrupt
            .iter()
            .map(|(k, how)| (k.clone(), json!(how.name())))
            .collect();
        let raw: serde_json::Map<String, Value> = self
            .raw_texts
            .iter()
            .map(|(k, t)| (k.clone(), json!(&**t)))
            .collect();
        json!({
            "revision": self.rev,
            "compactedRevision": self.compacted,
            "base": base,
            "events": events,
            "corrupt": corrupt,
            "rawTexts": raw,
        })
    }

    /// Rebuilds a store from [`Store::export`]'s output.
    pub fn import(doc: &Value) -> Result<Store, String> {
        let mut s = Store::new();
        let num = |v: &Value, k: &str| {
            v.get(k)
                .and_then(Value::as_u64)
                .ok_or_else(|| format!("state: missing {k}"))
        };
        for b in doc["base"].as_array().ok_or("state: missing base")? {
            let key = b["key"].as_str().ok_or("state: base key")?.to_string();
            let rev = num(b, "rev")?;
            s.keys.entry(key).or_default().push(Version {
                mod_rev: rev,
                value: Some(Object::new(b["value"].clone())),
            });
        }
        for e in doc["events"].as_array().ok_or("state: missing events")? {
            let key = e["key"].as_str().ok_or("state: event key")?.to_string();
            let rev = num(e, "rev")?;
            let value = (!e["value"].is_null()).then(|| Object::new(e["value"].clone()));
            let history = s.keys.entry(key.clone()).or_default();
            let prev = history.last().and_then(|v| v.value.clone());
            history.push(Version {
                mod_rev: rev,
                value: value.clone(),
            });
            s.events.push(Event {
                rev,
                time_ms: e["timeMs"].as_i64().unwrap_or(0),
                key,
                value,
                prev,
                corrupt_prev: e["corruptPrev"].as_bool().unwrap_or(false),
            });
        }
        s.rev = num(doc, "revision")?;
        s.compacted = num(doc, "compactedRevision")?;
        // Both are optional: states exported before they were kept have neither.
        for (key, how) in doc["corrupt"].as_object().into_iter().flatten() {
            let how = how
                .as_str()
                .and_then(super::Corruption::parse)
                .ok_or_else(|| format!("state: corruption of {key}"))?;
            if !s.corrupt(key, how) {
                return Err(format!("state: corrupt key {key} holds no value"));
            }
        }
        for (key, text) in doc["rawTexts"].as_object().into_iter().flatten() {
            let text = text
                .as_str()
                .ok_or_else(|| format!("state: raw text of {key}"))?;
            if s.get(key).is_none() {
                return Err(format!("state: raw text of {key}, which holds no value"));
            }
            s.set_raw_text(key, Some(text));
        }
        Ok(s)
    }

    /// Loads objects straight into the store, one revision each, without the request path
    /// (benchmarks and fixtures with many objects). Each object gets the revision as its
    /// `metadata.resourceVersion`.
    pub fn load(&mut self, objects: impl IntoIterator<Item = (String, Value)>, time_ms: i64) {
        for (key, mut obj) in objects {
            obj["metadata"]["resourceVersion"] = json!((self.rev + 1).to_string());
            self.put(&key, obj, time_ms);
            // A loaded value was not written by a client: no raw bytes stand for it.
            self.set_raw_text(&key, None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn export_import_round_trips_history() {
        let mut s = Store::new();
        s.put("/r/a", json!({"n": 1}), 10);
        s.put("/r/b", json!({"n": 2}), 20);
        s.put("/r/a", json!({"n": 3}), 30);
        s.delete("/r/b", 40);
        s.compact(2);
        let t = Store::import(&s.export()).unwrap();
        assert_eq!(t.export(), s.export());
        assert_eq!(t.get_at("/r/a", 2).unwrap().unwrap().decode()["n"], 1);
        assert_eq!(t.get_at("/r/b", 3).unwrap().unwrap().decode()["n"], 2);
        assert!(t.get_at("/r/b", 4).unwrap().is_none());
        assert!(t.get_at("/r/a", 1).is_err());
        assert_eq!(t.events_after(2).unwrap().len(), 2);
    }

    #[test]
    fn corruption_and_raw_texts_survive_a_reload() {
        let mut s = Store::new();
        s.put("/r/a", json!({"n": 1}), 10);
        s.set_raw_text("/r/a", Some("{ \"x\" : 1 }"));
        s.put("/r/b", json!({"n": 2}), 20);
        s.put("/r/c", json!({"n": 3}), 30);
        assert!(s.corrupt("/r/b", super::super::Corruption::Undecodable));
        assert!(s.corrupt("/r/c", super::super::Corruption::Undecryptable));
        s.delete("/r/c", 40);
        let t = Store::import(&s.export()).unwrap();
        assert_eq!(t.export(), s.export());
        assert_eq!(t.raw_text("/r/a"), Some("{ \"x\" : 1 }"));
        assert_eq!(
            t.corruption("/r/b").map(|c| c.corruption),
            Some(super::super::Corruption::Undecodable)
        );
        assert!(t.events_after(3).unwrap()[0].corrupt_prev);
        // A state from before they were kept still loads.
        let mut old = s.export();
        old.as_object_mut().unwrap().remove("corrupt");
        old.as_object_mut().unwrap().remove("rawTexts");
        assert!(Store::import(&old).unwrap().corruption("/r/b").is_none());
    }
}
