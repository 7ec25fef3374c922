//! `ValidateStructural`: the invariants a structural schema meets
//! (`validateStructuralInvariants`), the rules for value validations nested in `allOf`,
//! `anyOf`, `oneOf` and `not` (`validateNestedValueValidation`: they may validate, never
//! describe structure), and the root's completeness (`validateStructuralCompleteness`:
//! what a nested value validation names must exist in the structure). Errors come sorted by
//! their text, as the real function sorts them.
//!
//! The walks read the definition's JSON (canonical: a member is present only when set).

use serde_json::{json, Map, Value};

use crate::resources::field::{FieldError, FieldPath};
use crate::resources::meta::map_str;

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Level {
    Root,
    Item,
    Field,
}

fn is_true(m: &Map<String, Value>, key: &str) -> bool {
    m.get(key) == Some(&Value::Bool(true))
}

fn object<'a>(m: &'a Map<String, Value>, key: &str) -> Option<&'a Map<String, Value>> {
    m.get(key).and_then(Value::as_object)
}

fn list<'a>(m: &'a Map<String, Value>, key: &str) -> impl Iterator<Item = &'a Value> {
    m.get(key).and_then(Value::as_array).into_iter().flatten()
}

fn properties(m: &Map<String, Value>) -> impl Iterator<Item = (&String, &Value)> {
    object(m, "properties").into_iter().flatten()
}

/// `ValidateStructural` of a root schema: its errors sorted by text.
pub(super) fn validate_structural(schema: &Value, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    invariants(schema, path, Level::Root, &mut errs);
    if let Some(m) = schema.as_object() {
        completeness(m, m, path, path, &mut errs);
    }
    crate::sort::sort_by_key(&mut errs, FieldError::message);
    errs
}

/// `validateStructuralInvariants` of one node at `level`.
fn invariants(s: &Value, path: &FieldPath, level: Level, errs: &mut Vec<FieldError>) {
    let Some(m) = s.as_object() else { return };
    let ty = map_str(m, "type");
    if ty == "array" && m.get("items").is_none_or(Value::is_null) {
        errs.push(FieldError::required(
            path.child("items").as_str(),
            "must be specified",
        ));
    }
    if let Some(items) = m.get("items").filter(|i| i.is_object()) {
        invariants(items, &path.child("items"), Level::Item, errs);
    }
    for (k, v) in properties(m) {
        invariants(v, &path.child("properties").key(k), Level::Field, errs);
    }
    if m.get("additionalProperties").is_some_and(|a| !a.is_null()) {
        if level == Level::Root {
            errs.push(FieldError::forbidden(
                path.child("additionalProperties").as_str(),
                "must not be used at the root",
            ));
        }
        if let Some(a) = m.get("additionalProperties").filter(|a| a.is_object()) {
            invariants(a, &path.child("additionalProperties"), Level::Field, errs);
        }
    }
    extensions(m, path, errs);
    let skip_any_of = int_or_string_any_of(m);
    let skip_first_all_of_any_of = list(m, "allOf")
        .next()
        .and_then(Value::as_object)
        .is_some_and(int_or_string_any_of);
    value_validation(m, skip_any_of, skip_first_all_of_any_of, level, path, errs);
    let embedded = is_true(m, "x-kubernetes-embedded-resource");
    let int_or_string = is_true(m, "x-kubernetes-int-or-string");
    let preserve = is_true(m, "x-kubernetes-preserve-unknown-fields");
    if embedded && ty != "object" {
        let detail = "must be object if x-kubernetes-embedded-resource is true";
        errs.push(match ty {
            "" => FieldError::required(path.child("type").as_str(), detail),
            _ => FieldError::invalid(path.child("type").as_str(), json!(ty), detail),
        });
    } else if ty.is_empty() && !int_or_string && !preserve {
        let detail = match level {
            Level::Root => "must not be empty at the root",
            Level::Item => "must not be empty for specified array items",
            Level::Field => "must not be empty for specified object fields",
        };
        errs.push(FieldError::required(path.child("type").as_str(), detail));
    }
    if embedded && m.get("additionalProperties").is_some_and(|a| !a.is_null()) {
        errs.push(FieldError::forbidden(
            path.child("additionalProperties").as_str(),
            "must not be used if x-kubernetes-embedded-resource is set",
        ));
    }
    if level == Level::Root && !ty.is_empty() && ty != "object" {
        errs.push(FieldError::invalid(
            path.child("type").as_str(),
            json!(ty),
            "must be object at the root",
        ));
    }
    let check_metadata = level == Level::Root || embedded;
    let props = object(m, "properties");
    for key in ["kind", "apiVersion"] {
        if let Some(p) = props.and_then(|p| p.get(key)).filter(|_| check_metadata) {
            let t = p.get("type").and_then(Value::as_str).unwrap_or("");
            if t != "string" {
                let at = path.child("properties").key(key).child("type");
                errs.push(FieldError::invalid(at.as_str(), json!(t), "must be string"));
            }
        }
    }
    if let Some(meta) = props.and_then(|p| p.get("metadata")) {
        let at = path.child("properties").key("metadata");
        metadata_invariants(meta, check_metadata, level, &at, errs);
    }
    if embedded && !preserve && props.is_none_or(Map::is_empty) {
        errs.push(FieldError::required(
            path.child("properties").as_str(),
            "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields",
        ));
    }
}

/// `validateStructuralMetadataInvariants`: a resource's metadata is an object, and at the
/// root it may say nothing but that its `name` and `generateName` are strings.
fn metadata_invariants(
    meta: &Value,
    check: bool,
    level: Level,
    path: &FieldPath,
    errs: &mut Vec<FieldError>,
) {
    let m = meta.as_object();
    let ty = m.map_or("", |m| map_str(m, "type"));
    if check && ty != "object" {
        errs.push(FieldError::invalid(
            path.child("type").as_str(),
            json!(ty),
            "must be object",
        ));
    }
    if level != Level::Root {
        return;
    }
    let extra = m.into_iter().flatten().any(|(k, v)| match k.as_str() {
        "type" | "default" => false,
        // Only `name` and `generateName` may be described.
        "properties" => v
            .as_object()
            .is_some_and(|p| p.keys().any(|k| k != "name" && k != "generateName")),
        _ => !v.is_null(),
    });
    if extra {
        errs.push(FieldError::forbidden(
            path.as_str(),
            "must not specify anything other than name and generateName, but metadata is implicitly specified",
        ));
    }
}

/// `validateExtensions`.
fn extensions(m: &Map<String, Value>, path: &FieldPath, errs: &mut Vec<FieldError>) {
    if !is_true(m, "x-kubernetes-int-or-string") {
        return;
    }
    for key in [
        "x-kubernetes-preserve-unknown-fields",
        "x-kubernetes-embedded-resource",
    ] {
        if is_true(m, key) {
            errs.push(FieldError::invalid(
                path.child(key).as_str(),
                json!(true),
                "must be false if x-kubernetes-int-or-string is true",
            ));
        }
    }
}

/// Whether `anyOf` is exactly `[{type: integer}, {type: string}]`, the form int-or-string
/// fields take in OpenAPI (allowed where the nested rules would forbid `type`).
fn int_or_string_any_of(m: &Map<String, Value>) -> bool {
    let any: Vec<&Value> = list(m, "anyOf").collect();
    any.len() == 2 && *any[0] == json!({"type": "integer"}) && *any[1] == json!({"type": "string"})
}

/// `validateValueValidation`: each nested clause, then the pattern.
fn value_validation(
    m: &Map<String, Value>,
    skip_any_of: bool,
    skip_first_all_of_any_of: bool,
    level: Level,
    path: &FieldPath,
    errs: &mut Vec<FieldError>,
) {
    if !skip_any_of {
        for (i, x) in list(m, "anyOf").enumerate() {
            nested(x, false, level, &path.child("anyOf").index(i), errs);
        }
    }
    for (i, x) in list(m, "allOf").enumerate() {
        let skip = skip_first_all_of_any_of && i == 0;
        nested(x, skip, level, &path.child("allOf").index(i), errs);
    }
    for (i, x) in list(m, "oneOf").enumerate() {
        nested(x, false, level, &path.child("oneOf").index(i), errs);
    }
    if let Some(not) = m.get("not") {
        nested(not, false, level, &path.child("not"), errs);
    }
    let pattern = map_str(m, "pattern");
    if !pattern.is_empty() {
        if let Err(e) = crate::resources::custom::go_regexp::check(pattern) {
            errs.push(FieldError::invalid(
                path.child("pattern").as_str(),
                json!(pattern),
                &format!("must be a valid regular expression, but isn't: {e}"),
            ));
        }
    }
}

/// What a nested clause may not hold (`validateNestedValueValidation`), in the real order.
const FORBIDDEN_NESTED: &[(&str, &str)] = &[
    ("title", "must be empty to be structural"),
    ("description", "must be empty to be structural"),
    ("nullable", "must be false to be structural"),
    (
        "x-kubernetes-preserve-unknown-fields",
        "must be false to be structural",
    ),
    (
        "x-kubernetes-embedded-resource",
        "must be false to be structural",
    ),
    (
        "x-kubernetes-int-or-string",
        "must be false to be structural",
    ),
    (
        "x-kubernetes-list-map-keys",
        "must be empty to be structural",
    ),
    (
        "x-kubernetes-list-type",
        "must be undefined to be structural",
    ),
    (
        "x-kubernetes-map-type",
        "must be undefined to be structural",
    ),
    ("x-kubernetes-validations", "must be empty to be structural"),
];

/// Whether a nested clause sets `key` (a false flag, an empty text or list is not set).
fn sets(m: &Map<String, Value>, key: &str) -> bool {
    match m.get(key) {
        None | Some(Value::Null) | Some(Value::Bool(false)) => false,
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(a)) => !a.is_empty(),
        Some(_) => true,
    }
}

/// `validateNestedValueValidation` of one clause.
fn nested(
    v: &Value,
    skip_any_of: bool,
    level: Level,
    path: &FieldPath,
    errs: &mut Vec<FieldError>,
) {
    let Some(m) = v.as_object() else { return };
    value_validation(m, skip_any_of, false, level, path, errs);
    if let Some(items) = m.get("items").filter(|i| i.is_object()) {
        nested(items, false, level, &path.child("items"), errs);
    }
    for (k, x) in properties(m) {
        nested(
            x,
            false,
            Level::Field,
            &path.child("properties").key(k),
            errs,
        );
    }
    if sets(m, "type") {
        errs.push(FieldError::forbidden(
            path.child("type").as_str(),
            "must be empty to be structural",
        ));
    }
    // additionalProperties: a schema, or `true`.
    if matches!(
        m.get("additionalProperties"),
        Some(Value::Object(_) | Value::Bool(true))
    ) {
        errs.push(FieldError::forbidden(
            path.child("additionalProperties").as_str(),
            "must be undefined to be structural",
        ));
    }
    if m.get("default").is_some_and(|d| !d.is_null()) {
        errs.push(FieldError::forbidden(
            path.child("default").as_str(),
            "must be undefined to be structural",
        ));
    }
    for (key, detail) in FORBIDDEN_NESTED {
        let set = match *key {
            "x-kubernetes-list-type" | "x-kubernetes-map-type" => {
                m.get(*key).is_some_and(|x| !x.is_null())
            }
            _ => sets(m, key),
        };
        if set {
            errs.push(FieldError::forbidden(path.child(key).as_str(), detail));
        }
    }
    if object(m, "properties").is_some_and(|p| p.contains_key("metadata")) {
        errs.push(FieldError::forbidden(
            path.child("properties").key("metadata").as_str(),
            "must not be specified in a nested context",
        ));
    }
}

/// `validateValueValidationCompleteness` of node `v` (the root's own clauses, then each
/// clause's) against the structure `s` at `s_path`: every property, item and additional
/// property a clause names must be in the structure.
fn completeness(
    v: &Map<String, Value>,
    s: &Map<String, Value>,
    s_path: &FieldPath,
    v_path: &FieldPath,
    errs: &mut Vec<FieldError>,
) {
    if let Some(not) = object(v, "not") {
        nested_completeness(not, Some(s), s_path, &v_path.child("not"), errs);
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        for (i, x) in list(v, key).enumerate() {
            if let Some(x) = x.as_object() {
                nested_completeness(x, Some(s), s_path, &v_path.child(key).index(i), errs);
            }
        }
    }
}

fn nested_completeness(
    v: &Map<String, Value>,
    s: Option<&Map<String, Value>>,
    s_path: &FieldPath,
    v_path: &FieldPath,
    errs: &mut Vec<FieldError>,
) {
    let Some(s) = s else {
        errs.push(undefined(s_path, v_path));
        return;
    };
    completeness(v, s, s_path, v_path, errs);
    if let Some(items) = object(v, "items") {
        let s_items = object(s, "items");
        nested_completeness(
            items,
            s_items,
            &s_path.child("items"),
            &v_path.child("items"),
            errs,
        );
    }
    let s_props = object(s, "properties");
    for (k, x) in properties(v) {
        let Some(x) = x.as_object() else { continue };
        let v_at = v_path.child("properties").key(k);
        match s_props.and_then(|p| p.get(k)).and_then(Value::as_object) {
            Some(field) => nested_completeness(
                x,
                Some(field),
                &s_path.child("properties").key(k),
                &v_at,
                errs,
            ),
            None => errs.push(undefined(&s_path.child("properties").key(k), &v_at)),
        }
    }
}

/// What a clause at `v_path` names and the structure lacks at `s_path`.
fn undefined(s_path: &FieldPath, v_path: &FieldPath) -> FieldError {
    FieldError::required(
        s_path.as_str(),
        &format!("because it is defined in {}", v_path.as_str()),
    )
}
