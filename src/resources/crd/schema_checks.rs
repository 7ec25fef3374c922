//! The checks of a CustomResourceDefinition's OpenAPI schemas that every schema meets first:
//! the standard validator's forbidden keywords and types (`specStandardValidatorV3`), then,
//! when those pass, the structural invariants (`validateStructuralInvariants` and the type
//! rules of `ValidateStructural`), sorted by their text as the real server sorts them.
//!
//! Then the rules' estimated costs (`rule_costs`). Not checked yet: value validations
//! carrying structure, list and map types, defaults.

use serde_json::{json, Map, Value};

use crate::resources::field::{FieldError, FieldPath};

/// A schema's checks in `validateCustomResourceDefinitionValidation`'s order: the structural
/// invariants sorted by text, then the standard validator's, recursively.
///
/// A schema using a keyword a structural schema cannot hold (`id`, `$ref`, an items array,
/// ...) fails `NewStructural`, so the invariants are not checked; the real server then reports
/// that failure as `openAPIV3Schema: Invalid value: ""` only when nothing else was found, and
/// the standard validator always finds the keyword itself, so that line is not reproduced.
pub(super) fn validate_schema(schema: &Value, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if !has_unstructural_keyword(schema) {
        structural_walk(schema, path, Level::Root, &mut errs);
        crate::sort::sort_by_key(&mut errs, FieldError::message);
    }
    standard_walk(schema, path, &mut errs);
    // Rules are estimated only on a schema with no other fault than rules that do not
    // compile (those cost nothing).
    if errs
        .iter()
        .all(|e| e.field.contains("x-kubernetes-validations"))
    {
        errs.extend(super::rule_costs::check(schema, path));
    }
    errs
}

/// The keywords JSON Schema has and structural schemas forbid, when set: `id` non-empty,
/// `$ref` and `additionalItems` present (pointers), the maps non-empty.
const UNSUPPORTED: &[&str] = &[
    "id",
    "additionalItems",
    "patternProperties",
    "definitions",
    "dependencies",
    "$ref",
];

fn keyword_set(m: &Map<String, Value>, key: &str) -> bool {
    match m.get(key) {
        None | Some(Value::Null) => false,
        Some(Value::String(x)) if key == "id" => !x.is_empty(),
        Some(Value::Object(x)) if key != "additionalItems" => !x.is_empty(),
        Some(_) => true,
    }
}

/// Whether any schema in the tree uses an [`UNSUPPORTED`] keyword or an items array.
fn has_unstructural_keyword(s: &Value) -> bool {
    let Some(m) = s.as_object() else {
        return false;
    };
    UNSUPPORTED.iter().any(|k| keyword_set(m, k))
        || m.get("items").is_some_and(Value::is_array)
        || children(m).any(has_unstructural_keyword)
}

/// The sub-schemas of one schema, in the recursion's order.
fn children(m: &Map<String, Value>) -> impl Iterator<Item = &Value> {
    let props = m.get("properties").and_then(Value::as_object);
    let lists = ["allOf", "oneOf", "anyOf"]
        .into_iter()
        .flat_map(move |k| m.get(k).and_then(Value::as_array).into_iter().flatten());
    props
        .into_iter()
        .flat_map(|p| p.values())
        .chain(m.get("additionalProperties").filter(|a| a.is_object()))
        .chain(m.get("not"))
        .chain(lists)
        .chain(m.get("items").filter(|i| i.is_object()))
}

const TYPES: &[&str] = &["array", "boolean", "integer", "number", "object", "string"];

/// `specStandardValidatorV3.validate` and the recursion of `ValidateCustomResourceDefinitionOpenAPISchema`.
fn standard_walk(s: &Value, path: &FieldPath, errs: &mut Vec<FieldError>) {
    let Some(m) = s.as_object() else { return };
    let ty = m.get("type").and_then(Value::as_str).unwrap_or("");
    if ty == "null" {
        errs.push(FieldError::forbidden(
            path.child("type").as_str(),
            "type cannot be set to null, use nullable as an alternative",
        ));
    } else if !ty.is_empty() && !TYPES.contains(&ty) {
        errs.push(FieldError::not_supported(
            path.child("type").as_str(),
            json!(ty),
            TYPES,
        ));
    }
    for key in UNSUPPORTED.iter().filter(|k| keyword_set(m, k)) {
        errs.push(FieldError::forbidden(
            path.child(key).as_str(),
            &format!("{key} is not supported"),
        ));
    }
    if m.get("items").is_some_and(Value::is_array) {
        errs.push(FieldError::forbidden(
            path.child("items").as_str(),
            "items must be a schema object and not an array",
        ));
    }
    if m.get("uniqueItems") == Some(&Value::Bool(true)) {
        errs.push(FieldError::forbidden(
            path.child("uniqueItems").as_str(),
            "uniqueItems cannot be set to true since the runtime complexity becomes quadratic",
        ));
    }
    let has_props = m
        .get("properties")
        .and_then(Value::as_object)
        .is_some_and(|p| !p.is_empty());
    if has_props
        && m.get("additionalProperties")
            .is_some_and(|a| a.is_object() || a == &Value::Bool(false))
    {
        errs.push(FieldError::forbidden(
            path.child("additionalProperties").as_str(),
            "additionalProperties and properties are mutual exclusive",
        ));
    }
    if m.get("x-kubernetes-preserve-unknown-fields") == Some(&Value::Bool(false)) {
        errs.push(FieldError::invalid(
            path.child("x-kubernetes-preserve-unknown-fields").as_str(),
            json!(false),
            "must be true or undefined",
        ));
    }
    rule_checks(m, path, errs);
    if let Some(props) = m.get("properties").and_then(Value::as_object) {
        for (k, v) in props {
            standard_walk(v, &path.child("properties").key(k), errs);
        }
    }
    if let Some(a) = m.get("additionalProperties").filter(|a| a.is_object()) {
        standard_walk(a, &path.child("additionalProperties"), errs);
    }
    if let Some(n) = m.get("not") {
        standard_walk(n, &path.child("not"), errs);
    }
    for key in ["allOf", "oneOf", "anyOf"] {
        for (i, x) in m
            .get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            standard_walk(x, &path.child(key).index(i), errs);
        }
    }
    if let Some(items) = m.get("items").filter(|i| i.is_object()) {
        standard_walk(items, &path.child("items"), errs);
    }
}

/// `x-kubernetes-validations` must compile: a rule (or message expression) that does not
/// parse is `compilation failed` at its path. (The text after `ERROR: <input>:` is this
/// parser's, not cel-go's, and rules are not type-checked here.)
fn rule_checks(m: &Map<String, Value>, path: &FieldPath, errs: &mut Vec<FieldError>) {
    let rules = m.get("x-kubernetes-validations").and_then(Value::as_array);
    for (i, r) in rules.into_iter().flatten().enumerate() {
        let at = path.child("x-kubernetes-validations").index(i);
        let rule = r.get("rule").and_then(Value::as_str).unwrap_or("");
        if rule.trim().is_empty() {
            errs.push(FieldError::required(
                at.child("rule").as_str(),
                "rule is not specified",
            ));
            continue;
        }
        if let Err(e) = crate::resources::custom::cel::parse(rule) {
            errs.push(FieldError::invalid(
                at.child("rule").as_str(),
                r.clone(),
                &format!("compilation failed: ERROR: <input>:1:1: {e}"),
            ));
        }
        if let Some(m) = r
            .get("messageExpression")
            .and_then(Value::as_str)
            .filter(|m| !m.is_empty())
        {
            if let Err(e) = crate::resources::custom::cel::parse(m) {
                errs.push(FieldError::invalid(
                    at.child("messageExpression").as_str(),
                    r.clone(),
                    &format!("messageExpression compilation failed: ERROR: <input>:1:1: {e}"),
                ));
            }
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Level {
    Root,
    Item,
    Field,
}

fn is_true(m: &Map<String, Value>, key: &str) -> bool {
    m.get(key) == Some(&Value::Bool(true))
}

/// The structural invariants every schema must meet (`validateStructuralInvariants` and the
/// type rules of `ValidateStructural`).
fn structural_walk(s: &Value, path: &FieldPath, level: Level, errs: &mut Vec<FieldError>) {
    let Some(m) = s.as_object() else { return };
    let ty = m.get("type").and_then(Value::as_str).unwrap_or("");
    if ty == "array" && m.get("items").is_none_or(Value::is_null) {
        errs.push(FieldError::required(
            path.child("items").as_str(),
            "must be specified",
        ));
    }
    if level == Level::Root && m.get("additionalProperties").is_some_and(|a| !a.is_null()) {
        errs.push(FieldError::forbidden(
            path.child("additionalProperties").as_str(),
            "must not be used at the root",
        ));
    }
    let int_or_string = is_true(m, "x-kubernetes-int-or-string");
    let preserve = is_true(m, "x-kubernetes-preserve-unknown-fields");
    if ty.is_empty() && !int_or_string && !preserve {
        let detail = match level {
            Level::Root => "must not be empty at the root",
            Level::Item => "must not be empty for specified array items",
            Level::Field => "must not be empty for specified object fields",
        };
        errs.push(FieldError::required(path.child("type").as_str(), detail));
    }
    if level == Level::Root {
        if !ty.is_empty() && ty != "object" {
            errs.push(FieldError::invalid(
                path.child("type").as_str(),
                json!(ty),
                "must be object at the root",
            ));
        }
        let props = m.get("properties").and_then(Value::as_object);
        for (key, want) in [
            ("kind", "string"),
            ("apiVersion", "string"),
            ("metadata", "object"),
        ] {
            let t = props
                .and_then(|p| p.get(key))
                .and_then(|p| p.get("type"))
                .and_then(Value::as_str);
            if let Some(t) = t.filter(|t| *t != want) {
                let p = path.child("properties").key(key).child("type");
                errs.push(FieldError::invalid(
                    p.as_str(),
                    json!(t),
                    &format!("must be {want}"),
                ));
            }
        }
        if let Some(meta) = props
            .and_then(|p| p.get("metadata"))
            .and_then(Value::as_object)
        {
            let extra = meta.iter().any(|(k, v)| match k.as_str() {
                "type" => false,
                "properties" => v
                    .as_object()
                    .is_some_and(|p| p.keys().any(|k| k != "name" && k != "generateName")),
                _ => !v.is_null(),
            });
            if extra {
                errs.push(FieldError::forbidden(path.child("properties").key("metadata").as_str(), "must not specify anything other than name and generateName, but metadata is implicitly specified"));
            }
        }
    }
    if let Some(props) = m.get("properties").and_then(Value::as_object) {
        for (k, v) in props {
            // Root metadata is ObjectMeta's, not checked as a field schema.
            if level == Level::Root && k == "metadata" {
                continue;
            }
            structural_walk(v, &path.child("properties").key(k), Level::Field, errs);
        }
    }
    if let Some(a) = m.get("additionalProperties").filter(|a| a.is_object()) {
        structural_walk(a, &path.child("additionalProperties"), Level::Field, errs);
    }
    if let Some(items) = m.get("items").filter(|i| i.is_object()) {
        structural_walk(items, &path.child("items"), Level::Item, errs);
    }
}
