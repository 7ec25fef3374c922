//! A custom resource's canonical form, as apiextensions-apiserver's decoders make it
//! (`unstructuredSchemaCoercer.apply`, then the defaulter): `metadata` through
//! `ObjectMeta` (`objectmeta.GetObjectMeta`/`SetObjectMeta`: unknown members and empty values
//! dropped), members the structural schema does not know pruned (`structuralpruning.Prune`,
//! the root counted as an embedded resource), `null`s of non-nullable fields without a
//! default removed, embedded resources' `metadata` coerced, schema defaults applied
//! (`structuraldefaulting.Default`), and every key sorted, as Go writes a
//! `map[string]interface{}`.
//!
//! [`decode`] is a request body's path: malformed `metadata` fails it, and what it drops is
//! reported for `fieldValidation`. [`canonicalize`] gives an object the server built or read
//! the same form silently, dropping malformed metadata field by field as the storage decoder
//! does.

use serde_json::{Map, Value};

use super::child;
use super::structural::Schema;
use crate::codec::decode;
use crate::resources::field::FieldError;
use crate::resources::schema::OBJECT_META;

/// A decoded request body.
#[derive(Debug, Clone, PartialEq)]
pub struct Decoded {
    pub object: Map<String, Value>,
    /// The unknown fields dropped, as `fieldValidation` reports them: the root metadata's,
    /// then the pruned paths, then embedded resources' metadata's, each group sorted.
    pub unknown: Vec<String>,
}

/// `apiVersion`, `kind` and `metadata`: kept at a resource's root (and an embedded one's).
fn meta_field(key: &str) -> bool {
    matches!(key, "apiVersion" | "kind" | "metadata")
}

/// A request body's object in canonical form, with what was dropped; an error (Go's
/// unmarshal text) when its `metadata` does not decode as `ObjectMeta`.
pub fn decode(schema: &Schema, obj: Map<String, Value>) -> Result<Decoded, String> {
    let mut unknown = Vec::new();
    let object = shape(schema, obj, Some(&mut unknown), true)?;
    Ok(Decoded { object, unknown })
}

/// The canonical form of an object built or changed by the server.
pub fn canonicalize(schema: &Schema, obj: Map<String, Value>) -> Map<String, Value> {
    shape(schema, obj, None, true).unwrap_or_default()
}

/// [`canonicalize`] without defaults: what the converter's coercer does to an object
/// converted to another version (`schemaCoercingConverter`).
pub fn prune(schema: &Schema, obj: Map<String, Value>) -> Map<String, Value> {
    shape(schema, obj, None, false).unwrap_or_default()
}

/// `structuralpruning.Prune` of one value against its node's schema (`root`: counted as a
/// resource's root, whose `apiVersion`, `kind` and `metadata` stay): what a CRD's `default`
/// is checked with.
pub fn prune_value(schema: &Schema, value: &mut Value, root: bool) {
    let (mut pruned, mut embedded) = (Vec::new(), Vec::new());
    let mut walk = Walk {
        pruned: &mut pruned,
        embedded: &mut embedded,
        strict: false,
    };
    // Not strict: nothing fails.
    let _ = match value {
        Value::Object(m) => walk.members(m, Some(schema), root, false, "", ""),
        v => walk.value(v, Some(schema), false, "", ""),
    };
}

fn shape(
    schema: &Schema,
    mut obj: Map<String, Value>,
    unknown: Option<&mut Vec<String>>,
    defaults: bool,
) -> Result<Map<String, Value>, String> {
    let strict = unknown.is_some();
    let mut meta_unknown = Vec::new();
    let meta = match obj.get("metadata") {
        Some(m) => Some(object_meta(m, strict, &mut meta_unknown)?),
        None => None,
    };
    let mut pruned = Vec::new();
    let mut embedded = Vec::new();
    let mut walk = Walk {
        pruned: &mut pruned,
        embedded: &mut embedded,
        strict,
    };
    walk.members(&mut obj, Some(schema), true, false, "", "")?;
    if let Some(meta) = meta {
        obj.insert("metadata".into(), Value::Object(meta));
    }
    let mut value = Value::Object(obj);
    remove_nulls(&mut value, schema);
    if defaults {
        apply_defaults(&mut value, schema);
    }
    sort_keys(&mut value);
    if let Some(u) = unknown {
        crate::sort::sort(&mut meta_unknown);
        crate::sort::sort(&mut pruned);
        crate::sort::sort(&mut embedded);
        u.extend(meta_unknown.into_iter().map(|p| format!("metadata.{p}")));
        u.extend(pruned);
        u.extend(embedded);
    }
    Ok(match value {
        Value::Object(m) => m,
        _ => Map::new(),
    })
}

/// `metadata` as `ObjectMeta` gives it back: unknown members (collected, relative to
/// `metadata`) and empty values dropped. `strict` (a request): a member of the wrong type
/// fails with Go's text; otherwise (`DropMalformedFields`) such members are dropped one by
/// one. `null` is an empty `metadata`.
fn object_meta(
    meta: &Value,
    strict: bool,
    unknown: &mut Vec<String>,
) -> Result<Map<String, Value>, String> {
    let meta = match meta {
        Value::Null => return Ok(Map::new()),
        Value::Object(_) => meta,
        other if strict => {
            return Err(format!(
                "json: cannot unmarshal {} into Go value of type v1.ObjectMeta",
                crate::codec::decode::kind_desc(other)
            ))
        }
        _ => return Ok(Map::new()),
    };
    match decode::decode_struct(meta, &OBJECT_META) {
        Ok(d) => {
            unknown.extend(d.unknown);
            Ok(d.object)
        }
        Err(e) if strict => Err(e.message),
        Err(_) => Ok(drop_malformed(meta)),
    }
}

/// `ObjectMeta` from members of which some do not decode: each kept only when it decodes on
/// its own.
fn drop_malformed(meta: &Value) -> Map<String, Value> {
    let mut kept = Map::new();
    for (k, v) in meta.as_object().into_iter().flatten() {
        let mut one = Map::new();
        one.insert(k.clone(), v.clone());
        if decode::decode_struct(&Value::Object(one), &OBJECT_META).is_ok() {
            kept.insert(k.clone(), v.clone());
        }
    }
    decode::decode_struct(&Value::Object(kept), &OBJECT_META)
        .map(|d| d.object)
        .unwrap_or_default()
}

/// One pruning walk (`prune`/`skipPrune`, with `Coerce` of embedded resources' metadata).
struct Walk<'a> {
    /// Pruned paths: keys joined by `.`, items as `[i]`.
    pruned: &'a mut Vec<String>,
    /// Unknown fields in embedded resources' metadata, as `field.Path` writes them (map
    /// keys as `[k]`).
    embedded: &'a mut Vec<String>,
    strict: bool,
}

impl Walk<'_> {
    /// An object's members against `schema` (`None`: no schema, nothing is kept). `root`:
    /// the resource's own root, whose metadata the caller coerces; `skip`: under a node that
    /// preserves unknown fields (`skipPrune`), where only what a schema describes is pruned.
    fn members(
        &mut self,
        obj: &mut Map<String, Value>,
        schema: Option<&Schema>,
        root: bool,
        skip: bool,
        path: &str,
        fpath: &str,
    ) -> Result<(), String> {
        let embedded = root || schema.is_some_and(|s| s.embedded);
        if embedded && !root {
            self.coerce_embedded(obj, fpath)?;
        }
        let keep = skip || schema.is_some_and(|s| s.preserve_unknown);
        let mut dropped = Vec::new();
        for (key, value) in obj.iter_mut() {
            if embedded && meta_field(key) {
                continue;
            }
            let Some(s) = schema else {
                if !keep {
                    dropped.push(key.clone());
                }
                continue;
            };
            if let Some(prop) = s.properties.get(key) {
                self.value(
                    value,
                    Some(prop),
                    false,
                    &child(path, key),
                    &child(fpath, key),
                )?;
            } else if let Some(add) = s.additional.as_deref() {
                let add = (!add.absent).then_some(add);
                let fp = format!("{fpath}[{key}]");
                self.value(value, add, false, &child(path, key), &fp)?;
            } else if !keep {
                dropped.push(key.clone());
            }
        }
        for key in dropped {
            obj.shift_remove(&key);
            self.pruned.push(child(path, &key));
        }
        Ok(())
    }

    fn value(
        &mut self,
        value: &mut Value,
        schema: Option<&Schema>,
        skip: bool,
        path: &str,
        fpath: &str,
    ) -> Result<(), String> {
        match value {
            Value::Object(m) => self.members(m, schema, false, skip, path, fpath),
            Value::Array(items) => {
                let keep = skip || schema.is_some_and(|s| s.preserve_unknown);
                let item = schema.and_then(|s| s.items.as_deref());
                for (i, v) in items.iter_mut().enumerate() {
                    let (p, fp) = (format!("{path}[{i}]"), format!("{fpath}[{i}]"));
                    self.value(v, item, keep, &p, &fp)?;
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// `CoerceWithOptions` at an embedded resource: `apiVersion` and `kind` must be strings,
    /// `metadata` goes through `ObjectMeta`.
    fn coerce_embedded(&mut self, obj: &mut Map<String, Value>, fpath: &str) -> Result<(), String> {
        for key in ["apiVersion", "kind"] {
            match obj.get(key) {
                Some(Value::String(_)) | None => {}
                Some(v) if self.strict => {
                    let e = FieldError::invalid(&child(fpath, key), v.clone(), "must be a string");
                    return Err(e.message());
                }
                Some(_) => {
                    obj.shift_remove(key);
                }
            }
        }
        let Some(meta) = obj.get("metadata") else {
            return Ok(());
        };
        let mut unknown = Vec::new();
        match object_meta(meta, self.strict, &mut unknown) {
            Ok(mut m) => {
                m.shift_remove("creationTimestamp");
                let at = child(fpath, "metadata");
                self.embedded
                    .extend(unknown.into_iter().map(|p| format!("{at}.{p}")));
                obj.insert("metadata".into(), Value::Object(m));
                Ok(())
            }
            Err(e) => {
                Err(FieldError::invalid(&child(fpath, "metadata"), meta.clone(), &e).message())
            }
        }
    }
}

/// `schemaobjectmeta.Coerce` of `value` at `schema`, an embedded resource's node, without
/// dropping anything: the first `apiVersion` or `kind` that is not a string, or `metadata`
/// that does not decode as `ObjectMeta`, is the error (what a CRD's default inside an
/// embedded resource's metadata is checked with).
pub fn coerce_as_embedded(schema: &Schema, value: &Value) -> Result<(), String> {
    let Value::Object(m) = value else {
        return Ok(());
    };
    let (mut pruned, mut embedded) = (Vec::new(), Vec::new());
    let mut walk = Walk {
        pruned: &mut pruned,
        embedded: &mut embedded,
        strict: true,
    };
    walk.members(&mut m.clone(), Some(schema), false, false, "", "")
}

/// `PruneNonNullableNullsWithoutDefaults`: members that are `null` where the schema neither
/// allows it nor has a default are removed (items of lists are left alone).
fn remove_nulls(value: &mut Value, schema: &Schema) {
    match value {
        Value::Object(m) => {
            m.retain(
                |k, v| match (v, schema.properties.get(k).or(schema.additional.as_deref())) {
                    (Value::Null, Some(s)) => s.absent || s.nullable || s.default.is_some(),
                    _ => true,
                },
            );
            for (k, v) in m.iter_mut() {
                if let Some(s) = schema.properties.get(k).or(schema.additional.as_deref()) {
                    remove_nulls(v, s);
                }
            }
        }
        Value::Array(items) => {
            if let Some(item) = schema.items.as_deref() {
                items.iter_mut().for_each(|v| remove_nulls(v, item));
            }
        }
        _ => {}
    }
}

/// `structuraldefaulting.Default`: a property's default where the member is missing, or
/// `null` and not nullable (likewise for map values and list items), then depth first into
/// every member, defaults just set included.
pub fn apply_defaults(value: &mut Value, schema: &Schema) {
    let non_nullable_null = |v: &Value, s: &Schema| v.is_null() && !s.nullable;
    match value {
        Value::Object(m) => {
            for (key, prop) in &schema.properties {
                let Some(default) = &prop.default else {
                    continue;
                };
                if m.get(key).is_none_or(|v| non_nullable_null(v, prop)) {
                    m.insert(key.clone(), default.clone());
                }
            }
            for (key, v) in m.iter_mut() {
                if let Some(prop) = schema.properties.get(key) {
                    apply_defaults(v, prop);
                } else if let Some(add) = schema.additional.as_deref() {
                    if let (Some(d), true) = (&add.default, non_nullable_null(v, add)) {
                        *v = d.clone();
                    }
                    apply_defaults(v, add);
                }
            }
        }
        Value::Array(items) => {
            if let Some(item) = schema.items.as_deref() {
                for v in items.iter_mut() {
                    if let (Some(d), true) = (&item.default, non_nullable_null(v, item)) {
                        *v = d.clone();
                    }
                    apply_defaults(v, item);
                }
            }
        }
        _ => {}
    }
}

/// Sorts every object's keys (Go writes maps in key order).
pub fn sort_keys(value: &mut Value) {
    match value {
        Value::Object(m) => {
            m.sort_keys();
            for v in m.values_mut() {
                sort_keys(v);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(sort_keys),
        _ => {}
    }
}
