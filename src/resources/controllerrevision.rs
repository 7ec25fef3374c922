//! apps/v1 ControllerRevision: validation and update rules (reference §10).
//!
//! One deliberate difference from kube-apiserver, required by the spec: a missing `revision`
//! is rejected (`revision: Required value`) where the real server defaults it to 0.

use serde_json::{Map, Value};

use super::field::FieldError;
use super::validation::object_meta::validate_object_meta;
use super::validation::validate_controller_revision_name;
use super::Strategy;

/// The ControllerRevision strategy: no defaulting, immutable `data`.
#[derive(Debug)]
pub struct ControllerRevisionStrategy;

fn meta(obj: &Map<String, Value>) -> Map<String, Value> {
    obj.get("metadata")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default()
}

/// `ValidateControllerRevision`: metadata, `data` present, `revision` non-negative.
fn validate(obj: &Map<String, Value>) -> Vec<FieldError> {
    let mut errs = validate_object_meta(&meta(obj), true, validate_controller_revision_name);
    if obj.get("data").is_none_or(Value::is_null) {
        errs.push(FieldError::required("data", "data is mandatory"));
    }
    let revision = obj.get("revision").and_then(Value::as_i64).unwrap_or(0);
    if revision < 0 {
        errs.push(FieldError::invalid(
            "revision",
            Value::from(revision),
            "must be greater than or equal to 0",
        ));
    }
    errs
}

impl Strategy for ControllerRevisionStrategy {
    fn validate_create(
        &self,
        obj: &Map<String, Value>,
        raw: &Map<String, Value>,
    ) -> Vec<FieldError> {
        let mut errs = validate(obj);
        // Since 1.31 the bytes of `data` must decode as a JSON object on create.
        if let Some(d) = obj.get("data") {
            if !d.is_null() && !d.is_object() {
                errs.push(FieldError::required(
                    "data",
                    "data must be a valid JSON object",
                ));
            }
        }
        // The spec's rule (stricter than the real server): `revision` is required.
        if raw.get("revision").is_none_or(Value::is_null) {
            errs.push(FieldError::required("revision", ""));
        }
        errs
    }

    fn validate_update(
        &self,
        new: &Map<String, Value>,
        old: &Map<String, Value>,
    ) -> Vec<FieldError> {
        // `ValidateControllerRevisionUpdate` repeats the ObjectMeta update checks the generic
        // store already ran; the real server's `details.causes` carry both, and so do ours.
        let mut errs =
            super::validation::object_meta::validate_object_meta_update(&meta(new), &meta(old));
        errs.extend(validate(new));
        let new_data = new.get("data").cloned().unwrap_or(Value::Null);
        let old_data = old.get("data").cloned().unwrap_or(Value::Null);
        // The real server compares the raw bytes; kubesim compares the compacted JSON (same
        // key order required), so only whitespace differences are treated more leniently.
        if crate::codec::json::to_compact_string(&new_data)
            != crate::codec::json::to_compact_string(&old_data)
        {
            errs.push(FieldError::invalid("data", new_data, "field is immutable"));
        }
        errs
    }
}
