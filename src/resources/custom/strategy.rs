//! `pkg/registry/customresource`'s strategies: `generation` from 1, bumped by any change
//! outside `metadata` (and `status`, when the status subresource is enabled); the main
//! resource and `status` each keeping what the other owns.

use serde_json::{json, Map, Value};

use super::CustomKind;
use crate::resources::field::FieldError;
use crate::resources::{Printer, Sent, Strategy};

/// An object without `metadata` (and `status` when `status` is its own endpoint): what a
/// change of bumps `generation`. (`apiVersion` is left out too: the stored object is in the
/// storage version, the request's in its own, and `conversion: None` changes nothing else.)
fn spec_part<'a>(kind: &CustomKind, obj: &'a Map<String, Value>) -> Vec<(&'a String, &'a Value)> {
    obj.iter()
        .filter(|(k, _)| {
            let own = matches!(k.as_str(), "metadata" | "apiVersion");
            let status = kind.status && k.as_str() == "status";
            !(own || status)
        })
        .collect()
}

fn generation(obj: &Map<String, Value>) -> i64 {
    obj.get("metadata")
        .and_then(|m| m.get("generation"))
        .and_then(Value::as_i64)
        .unwrap_or(0)
}

fn set_generation(obj: &mut Map<String, Value>, g: i64) {
    if let Some(meta) = obj.get_mut("metadata").and_then(Value::as_object_mut) {
        meta.insert("generation".into(), json!(g));
    }
}

impl Strategy for CustomKind {
    fn default(&self, obj: &mut Map<String, Value>) {
        let mut v = Value::Object(std::mem::take(obj));
        super::canonical::apply_defaults(&mut v, &self.schema);
        if let Value::Object(m) = v {
            *obj = m;
        }
    }

    /// `generation: 1`; with the status subresource, a create sets no status.
    fn prepare_for_create(&self, obj: &mut Map<String, Value>) {
        if self.status {
            obj.shift_remove("status");
        }
        set_generation(obj, 1);
    }

    fn prepare_for_update(
        &self,
        new: &mut Map<String, Value>,
        old: &Map<String, Value>,
        subresource: &str,
    ) {
        if subresource == "status" {
            // Only `status` (and the field tracking of this write) comes from the request.
            let status = new.shift_remove("status");
            let managed = new
                .get("metadata")
                .and_then(|m| m.get("managedFields"))
                .cloned();
            let api_version = new.get("apiVersion").cloned();
            *new = old.clone();
            // In the version the request was made in.
            if let Some(v) = api_version {
                new.insert("apiVersion".into(), v);
            }
            if let (Some(managed), Some(meta)) = (
                managed,
                new.get_mut("metadata").and_then(Value::as_object_mut),
            ) {
                meta.insert("managedFields".into(), managed);
            }
            match status {
                Some(s) => new.insert("status".into(), s),
                None => new.shift_remove("status"),
            };
            return;
        }
        if self.status {
            match old.get("status") {
                Some(s) => new.insert("status".into(), s.clone()),
                None => new.shift_remove("status"),
            };
        }
        let g = generation(old);
        if spec_part(self, new) != spec_part(self, old) {
            set_generation(new, g + 1);
        } else {
            set_generation(new, g);
        }
    }

    fn validate_create(&self, obj: &Map<String, Value>, _sent: &Sent) -> Vec<FieldError> {
        super::validate::validate_create(self, obj)
    }

    fn validate_update(
        &self,
        new: &Map<String, Value>,
        old: &Map<String, Value>,
    ) -> Vec<FieldError> {
        super::validate::validate_update(self, new, old)
    }

    fn validate_subresource_update(
        &self,
        new: &Map<String, Value>,
        old: &Map<String, Value>,
        subresource: &str,
    ) -> Vec<FieldError> {
        match subresource {
            "status" => super::validate::validate_status_update(self, new, old),
            _ => self.validate_update(new, old),
        }
    }

    fn reset_fields(&self, subresource: &str) -> &'static [&'static str] {
        match (self.status, subresource) {
            (true, "status") => &["metadata", "spec"],
            (true, _) => &["status"],
            _ => &[],
        }
    }

    /// A selectable field's value, as its JSONPath gives it (`GetAttrs` over
    /// `selectableFields`); a missing one is the empty string.
    fn field_value(&self, obj: &Value, label: &str) -> Option<String> {
        if !self.selectable.iter().any(|s| s == label) {
            return None;
        }
        // `fmt.Sprint` of the value; a missing one is empty.
        Some(match super::at(obj, label).unwrap_or(&Value::Null) {
            Value::String(s) => s.clone(),
            Value::Null => String::new(),
            Value::Number(n) if n.is_f64() => {
                crate::resources::field::go_v_float(n.as_f64().unwrap_or(0.0))
            }
            other => other.to_string(),
        })
    }

    fn printer(&self) -> Option<&'static dyn Printer> {
        Some(self.printer)
    }
}
