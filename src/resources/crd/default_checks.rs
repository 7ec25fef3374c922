//! `ValidateDefaults`: each `default` in a definition's schema must survive pruning by its
//! node's schema unchanged (`must not have unknown fields`) and pass that node's value
//! validations and rules. The root counts as an embedded resource, as does every node
//! marked `x-kubernetes-embedded-resource`; a default inside such a resource's `metadata`,
//! `apiVersion` or `kind` is checked for its value alone (the real server also checks the
//! metadata it would produce, which this does not).
//!
//! Run only on a schema that passed `ValidateStructural`, as the real server does.

use serde_json::Value;

use crate::resources::custom::structural::Schema;
use crate::resources::custom::{canonical, validate};
use crate::resources::field::{FieldError, FieldPath};

/// The errors of every default under `schema` (the root, at `path`).
pub(super) fn validate_defaults(schema: &Value, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    walk(schema, path, true, false, &mut errs);
    errs
}

fn walk(s: &Value, path: &FieldPath, root: bool, inside_meta: bool, errs: &mut Vec<FieldError>) {
    let Some(m) = s.as_object() else { return };
    let embedded = root || m.get("x-kubernetes-embedded-resource") == Some(&Value::Bool(true));
    let inside_meta = inside_meta && !embedded;
    if let Some(default) = m.get("default").filter(|d| !d.is_null()) {
        let node = Schema::parse(s);
        let at = path.child("default");
        if !inside_meta {
            let mut pruned = default.clone();
            canonical::prune_value(&node, &mut pruned, embedded);
            if pruned != *default {
                // The value as Go writes a decoded map: keys sorted.
                let mut shown = default.clone();
                canonical::sort_keys(&mut shown);
                errs.push(FieldError::invalid(
                    at.as_str(),
                    shown,
                    "must not have unknown fields",
                ));
            }
        }
        errs.extend(validate::default_errors(&node, default, at.as_str()));
    }
    if let Some(items) = m.get("items").filter(|i| i.is_object()) {
        walk(items, &path.child("items"), false, inside_meta, errs);
    }
    for (k, v) in m
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let meta = embedded && matches!(k.as_str(), "metadata" | "apiVersion" | "kind");
        walk(
            v,
            &path.child("properties").key(k),
            false,
            inside_meta || meta,
            errs,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(schema: Value) -> Vec<String> {
        validate_defaults(&schema, &FieldPath::new("s"))
            .iter()
            .map(FieldError::message)
            .collect()
    }

    #[test]
    fn defaults_are_pruned_and_validated_by_their_own_node() {
        let obj = json!({"type": "object", "properties": {"spec": {
            "type": "object",
            "default": {"size": 0, "bogus": 1},
            "properties": {"size": {"type": "integer", "minimum": 1, "default": 5}}
        }}});
        assert_eq!(
            check(obj),
            [
                "s.properties[spec].default: Invalid value: {\"bogus\":1,\"size\":0}: must not have unknown fields",
                "s.properties[spec].default.size: Invalid value: 0: size in body should be greater than or equal to 1",
            ]
        );
        let scalar = json!({"type": "object", "properties": {
            "n": {"type": "integer", "maximum": 3, "default": 4}}});
        assert_eq!(
            check(scalar),
            ["s.properties[n].default: Invalid value: 4:  in body should be less than or equal to 3"]
        );
        let fine = json!({"type": "object", "properties": {"spec": {
            "type": "object", "default": {},
            "properties": {"size": {"type": "integer", "default": 5}}}}});
        assert!(check(fine).is_empty());
    }
}
