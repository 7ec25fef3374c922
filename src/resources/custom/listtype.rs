//! `structurallisttype.ValidateListSetsAndMaps`: a `set` list may not repeat an item, a `map`
//! list may not repeat a key (`Duplicate value`, the item, or the key fields, at the second
//! one). An update is checked only when the old object passed.

use serde_json::{Map, Value};

use super::child;
use super::structural::Schema;
use crate::resources::field::FieldError;

/// The errors of `value` (with `old`, an update's, checked first).
pub fn validate(schema: &Schema, value: &Value, old: Option<&Value>) -> Vec<FieldError> {
    if let Some(old) = old {
        let mut before = Vec::new();
        walk(schema, old, "", &mut before);
        if !before.is_empty() {
            return Vec::new();
        }
    }
    let mut errs = Vec::new();
    walk(schema, value, "", &mut errs);
    errs
}

fn walk(s: &Schema, v: &Value, path: &str, errs: &mut Vec<FieldError>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                if let Some(p) = s.properties.get(k) {
                    walk(p, x, &child(path, k), errs);
                } else if let Some(a) = s.additional.as_deref() {
                    walk(a, x, &format!("{path}[{k}]"), errs);
                }
            }
        }
        Value::Array(items) => {
            match s.list_type.as_str() {
                "set" => {
                    for (i, x) in items.iter().enumerate() {
                        if items[..i].contains(x) {
                            errs.push(FieldError::duplicate(&format!("{path}[{i}]"), x.clone()));
                        }
                    }
                }
                "map" => {
                    let key = |x: &Value| -> Map<String, Value> {
                        s.list_map_keys
                            .iter()
                            .filter_map(|k| x.get(k).map(|v| (k.clone(), v.clone())))
                            .collect()
                    };
                    let keys: Vec<Map<String, Value>> = items.iter().map(key).collect();
                    for (i, k) in keys.iter().enumerate() {
                        if keys[..i].contains(k) {
                            let mut k = Value::Object(k.clone());
                            super::canonical::sort_keys(&mut k);
                            errs.push(FieldError::duplicate(&format!("{path}[{i}]"), k));
                        }
                    }
                }
                _ => {}
            }
            if let Some(item) = s.items.as_deref() {
                for (i, x) in items.iter().enumerate() {
                    walk(item, x, &format!("{path}[{i}]"), errs);
                }
            }
        }
        _ => {}
    }
}
