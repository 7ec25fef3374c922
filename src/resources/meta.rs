//! Accessors for the parts of an object every kind shares (`metadata`, finalizers,
//! resourceVersion), as `meta.Accessor` gives apiserver's generic code.

use serde_json::{Map, Value};

/// `metadata` of a stored or decoded object.
pub fn meta(obj: &Value) -> &Map<String, Value> {
    static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();
    obj.get("metadata")
        .and_then(Value::as_object)
        .unwrap_or_else(|| EMPTY.get_or_init(Map::new))
}

/// A string field of `metadata` ("" when absent).
pub fn meta_str<'a>(obj: &'a Value, field: &str) -> &'a str {
    meta(obj).get(field).and_then(Value::as_str).unwrap_or("")
}

/// Sets `metadata.finalizers` (in `meta`) to `fins`, dropping the field when empty (Go's
/// omitempty).
pub fn set_finalizers(meta: &mut Map<String, Value>, fins: Vec<String>) {
    if fins.is_empty() {
        meta.shift_remove("finalizers");
    } else {
        meta.insert(
            "finalizers".into(),
            Value::Array(fins.into_iter().map(Value::String).collect()),
        );
    }
}

/// Mutable `metadata` of an object map, created if missing.
pub fn meta_mut(obj: &mut Map<String, Value>) -> &mut Map<String, Value> {
    let m = obj
        .entry("metadata")
        .or_insert_with(|| Value::Object(Map::new()));
    if !m.is_object() {
        *m = Value::Object(Map::new());
    }
    m.as_object_mut().expect("metadata is an object")
}

/// A string field of an object map's `metadata` ("" when absent).
pub fn map_meta_str<'a>(obj: &'a Map<String, Value>, field: &str) -> &'a str {
    obj.get("metadata")
        .and_then(|m| m.get(field))
        .and_then(Value::as_str)
        .unwrap_or("")
}

/// Whether an object map's `metadata.finalizers` is non-empty.
pub fn map_has_finalizers(obj: &Map<String, Value>) -> bool {
    obj.get("metadata")
        .and_then(|m| m.get("finalizers"))
        .and_then(Value::as_array)
        .is_some_and(|a| !a.is_empty())
}

/// An object map's `metadata` (empty when absent), as the validators take it: borrowed, not
/// copied (it holds managedFields).
pub fn meta_map(obj: &Map<String, Value>) -> std::borrow::Cow<'_, Map<String, Value>> {
    match obj.get("metadata").and_then(Value::as_object) {
        Some(m) => std::borrow::Cow::Borrowed(m),
        None => std::borrow::Cow::Owned(Map::new()),
    }
}

/// The strings of a JSON array (other items skipped; empty when absent).
pub fn strings(v: Option<&Value>) -> Vec<String> {
    v.map(str_items)
        .into_iter()
        .flatten()
        .map(str::to_string)
        .collect()
}

/// The strings of a JSON array, borrowed (other items skipped; none when not an array).
pub fn str_items(v: &Value) -> impl Iterator<Item = &str> {
    v.as_array().into_iter().flatten().filter_map(Value::as_str)
}

/// A string field of any JSON object ("" when absent or not a string), as Go reads a
/// string field of a decoded struct.
pub fn str_at<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

/// A map's string member, `""` when absent or not a string ([`str_at`] on a map).
pub fn map_str<'a>(m: &'a Map<String, Value>, key: &str) -> &'a str {
    m.get(key).and_then(Value::as_str).unwrap_or("")
}

/// Whether `metadata.finalizers` is non-empty.
pub fn has_finalizers(obj: &Value) -> bool {
    meta(obj)
        .get("finalizers")
        .and_then(Value::as_array)
        .is_some_and(|a| !a.is_empty())
}

/// An object without `kind`/`apiVersion`, as items of a typed list are written.
pub fn strip_type_meta(obj: &Value) -> Value {
    let mut o = obj.clone();
    if let Some(m) = o.as_object_mut() {
        m.shift_remove("kind");
        m.shift_remove("apiVersion");
    }
    o
}

/// Go's `ParseUint` failure for a resourceVersion, as the storage versioner's
/// `ParseResourceVersion` reports it (a field error around [`parse_uint_error`]).
pub fn invalid_rv_text(rv: &str) -> String {
    format!(
        "resourceVersion: Invalid value: {}: {}",
        crate::codec::go_quote(rv),
        parse_uint_error(rv)
    )
}

/// Go's `strconv.ParseUint(s, 10, 64)` error for a string that does not parse: a value out of
/// range when it is all digits, invalid syntax otherwise.
pub fn parse_uint_error(s: &str) -> String {
    let why = match !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
        true => "value out of range",
        false => "invalid syntax",
    };
    format!(
        "strconv.ParseUint: parsing {}: {why}",
        crate::codec::go_quote(s)
    )
}

/// Parses a resourceVersion as the storage versioner does (`0` is "unset").
pub fn parse_rv(rv: &str) -> Option<u64> {
    if rv.is_empty() || rv.starts_with('+') {
        return None;
    }
    rv.parse::<u64>().ok()
}

/// `schema.ParseGroupVersion`: `group/version`, a bare version (the core group), or nothing
/// for an empty, `/` or over-slashed value.
pub fn parse_group_version(api_version: &str) -> (&str, &str) {
    if api_version.is_empty() || api_version == "/" {
        return ("", "");
    }
    match api_version.matches('/').count() {
        0 => ("", api_version),
        1 => api_version.split_once('/').unwrap_or(("", "")),
        _ => ("", ""),
    }
}

/// `gvkWithDefaults`: a body's group, version and kind (its apiVersion as
/// [`parse_group_version`] reads it) with the gaps filled from the decoder's defaults (the
/// URL's kind, or meta.k8s.io/v1 DeleteOptions): the kind when empty, group and version when
/// both are, the version alone when the group is the default's.
pub fn gvk_with_defaults<'a>(
    api_version: &'a str,
    kind: &'a str,
    defaults: (&'a str, &'a str, &'a str),
) -> (&'a str, &'a str, &'a str) {
    let (dg, dv, dk) = defaults;
    let kind = if kind.is_empty() { dk } else { kind };
    let (group, version) = match parse_group_version(api_version) {
        ("", "") => (dg, dv),
        (g, "") if g == dg => (g, dv),
        gv => gv,
    };
    (group, version, kind)
}

/// `GroupVersion.String()`: `group/version`, the version alone for the core group.
pub fn group_version_string(group: &str, version: &str) -> String {
    match group {
        "" => version.to_string(),
        g => format!("{g}/{version}"),
    }
}

/// An object's `GroupVersionKind().String()` (as `Unstructured` reads it): `apps/v1,
/// Kind=Deployment`, `/v1, Kind=ConfigMap` for the core group, and the empty `/, Kind=` when
/// the apiVersion does not parse.
pub fn gvk_string(api_version: &str, kind: &str) -> String {
    match parse_group_version(api_version) {
        ("", "") if !api_version.is_empty() && api_version != "/" => "/, Kind=".to_string(),
        (group, version) => format!("{group}/{version}, Kind={kind}"),
    }
}
