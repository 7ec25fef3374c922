//! `ValidateDefaults`: each `default` in a definition's schema must survive pruning by its
//! node's schema unchanged (`must not have unknown fields`) and pass that node's value
//! validations and rules. The root counts as an embedded resource, as does every node
//! marked `x-kubernetes-embedded-resource`. A default inside such a resource's `metadata`,
//! `apiVersion` or `kind` is not pruned; the object it would produce (the default under its
//! path from the resource, with the placeholder type meta `validation/v1` `Validation`) must
//! first coerce and validate as that resource (`must result in valid metadata: ...`).
//!
//! Run only on a schema that passed `ValidateStructural`, as the real server does.

use serde_json::{json, Value};

use crate::resources::custom::structural::Schema;
use crate::resources::custom::{canonical, validate};
use crate::resources::field::{FieldError, FieldPath};

/// The errors of every default under `schema` (the root, at `path`).
pub(super) fn validate_defaults(schema: &Value, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    walk(schema, path, true, None, &mut errs);
    errs
}

/// Where a node inside an embedded resource's type meta or metadata sits: the resource's
/// schema, and the way from it to the node (`SurroundingObjectFunc`).
#[derive(Clone)]
struct Surround<'a> {
    resource: &'a Value,
    /// Member names, and `None` for a list's item.
    steps: Vec<Option<&'a str>>,
}

impl<'a> Surround<'a> {
    fn then(&self, step: Option<&'a str>) -> Self {
        let mut next = self.clone();
        next.steps.push(step);
        next
    }

    /// The resource `default` would produce, with the placeholder type meta.
    fn object(&self, default: &Value) -> Value {
        let mut x = default.clone();
        for step in self.steps.iter().rev() {
            x = match step {
                Some(k) => json!({ *k: x }),
                None => json!([x]),
            };
        }
        if let Value::Object(m) = &mut x {
            m.entry("kind").or_insert_with(|| json!("Validation"));
            m.entry("apiVersion")
                .or_insert_with(|| json!("validation/v1"));
        }
        x
    }

    /// The metadata error of `default`, worded as apiextensions does.
    fn error(&self, default: &Value) -> Option<String> {
        // The resource's node, counted as embedded (`isResourceRoot`: the root is one too).
        let resource = Schema {
            embedded: true,
            ..Schema::parse(self.resource)
        };
        let obj = self.object(default);
        if let Err(e) = canonical::coerce_as_embedded(&resource, &obj) {
            return Some(format!("must result in valid metadata: {e}"));
        }
        let errs = validate::embedded_resource_errors(&resource, &obj);
        // An aggregate's text: one error alone, several in brackets, duplicates once.
        let mut texts: Vec<String> = Vec::new();
        for t in errs.iter().map(FieldError::message) {
            if !texts.contains(&t) {
                texts.push(t);
            }
        }
        match texts.len() {
            0 => None,
            1 => Some(format!("must result in valid metadata: {}", texts[0])),
            _ => Some(format!(
                "must result in valid metadata: [{}]",
                texts.join(", ")
            )),
        }
    }
}

fn walk<'a>(
    s: &'a Value,
    path: &FieldPath,
    root: bool,
    meta: Option<Surround<'a>>,
    errs: &mut Vec<FieldError>,
) {
    let Some(m) = s.as_object() else { return };
    let embedded = root || m.get("x-kubernetes-embedded-resource") == Some(&Value::Bool(true));
    let meta = meta.filter(|_| !embedded);
    if let Some(default) = m.get("default").filter(|d| !d.is_null()) {
        let node = Schema::parse(s);
        let at = path.child("default");
        match &meta {
            Some(surround) => {
                if let Some(e) = surround.error(default) {
                    errs.push(FieldError::invalid(at.as_str(), default.clone(), &e));
                    return walk_children(m, s, path, embedded, meta, errs);
                }
            }
            None => {
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
        }
        errs.extend(validate::default_errors(&node, default, at.as_str()));
    }
    walk_children(m, s, path, embedded, meta, errs);
}

/// The items, then the properties (additionalProperties may hold no default).
fn walk_children<'a>(
    m: &'a serde_json::Map<String, Value>,
    s: &'a Value,
    path: &FieldPath,
    embedded: bool,
    meta: Option<Surround<'a>>,
    errs: &mut Vec<FieldError>,
) {
    if let Some(items) = m.get("items").filter(|i| i.is_object()) {
        let sub = meta.as_ref().map(|x| x.then(None));
        walk(items, &path.child("items"), false, sub, errs);
    }
    for (k, v) in m
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let sub = match &meta {
            Some(x) => Some(x.then(Some(k))),
            None if embedded && matches!(k.as_str(), "metadata" | "apiVersion" | "kind") => {
                Some(Surround {
                    resource: s,
                    steps: vec![Some(k)],
                })
            }
            None => None,
        };
        walk(v, &path.child("properties").key(k), false, sub, errs);
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

    /// A default inside an embedded resource's type meta or metadata is checked as the
    /// resource it would produce; one that fails is not validated as a value too.
    #[test]
    fn defaults_inside_embedded_metadata_make_valid_metadata() {
        let embedded = |props: Value| {
            json!({"type": "object", "properties": {"tpl": {
                "type": "object", "x-kubernetes-embedded-resource": true,
                "properties": props}}})
        };
        let at = "s.properties[tpl].properties";
        let name = embedded(json!({"metadata": {"type": "object", "properties": {
            "name": {"type": "string", "default": "a/b", "maxLength": 1}}}}));
        assert_eq!(
            check(name),
            [format!("{at}[metadata].properties[name].default: Invalid value: \"a/b\": must result in valid metadata: metadata.name: Invalid value: \"a/b\": may not contain '/'")]
        );
        let kind = embedded(json!({"kind": {"type": "string", "default": "Bad_Kind"}}));
        let got = check(kind);
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(
            got[0].starts_with(&format!("{at}[kind].default: Invalid value: \"Bad_Kind\": must result in valid metadata: kind: Invalid value: \"Bad_Kind\": may have mixed case, but should otherwise match: ")),
            "{got:?}"
        );
        let labels = embedded(json!({"metadata": {"type": "object", "properties": {
            "labels": {"type": "object", "default": {"a": 1},
                "additionalProperties": {"type": "integer"}}}}}));
        let got = check(labels);
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(
            got[0].starts_with(&format!("{at}[metadata].properties[labels].default: Invalid value: {{\"a\":1}}: must result in valid metadata: metadata: Invalid value: ")),
            "{got:?}"
        );
        let fine = embedded(json!({"metadata": {"type": "object", "properties": {
            "name": {"type": "string", "default": "web"},
            "finalizers": {"type": "array", "items": {"type": "string", "default": "example.com/f"}}}}}));
        let got = check(fine);
        assert!(got.is_empty(), "{got:?}");
    }
}
