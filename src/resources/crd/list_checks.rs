//! The list and map type rules of one schema node (`ValidateCustomResourceDefinitionOpenAPISchema`
//! and `validateMapListKeysMapSet`): `x-kubernetes-map-type` only on objects and `atomic` or
//! `granular`; `x-kubernetes-list-type` only on arrays and `atomic`, `set` or `map`, a set's
//! items atomic; `x-kubernetes-list-map-keys` only with `map`, naming scalar item properties
//! once each, each required or defaulted and not nullable; a map or set's items not
//! nullable. Also whether a rule's `fieldPath` names a field of its node.

use serde_json::{json, Map, Value};

use super::internal_json::items_props;
use crate::resources::custom::structural::Schema;
use crate::resources::field::{FieldError, FieldPath};
use crate::resources::meta::str_items;

fn str_of<'a>(m: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    m.get(key).and_then(Value::as_str)
}

/// "must be `want` if `ext` is specified" at `type`: Required when unset, else Invalid.
fn type_must_be(ty: &str, want: &str, ext: &str, path: &FieldPath) -> FieldError {
    let detail = format!("must be {want} if {ext} is specified");
    let at = path.child("type");
    match ty {
        "" => FieldError::required(at.as_str(), &detail),
        _ => FieldError::invalid(at.as_str(), json!(ty), &detail),
    }
}

/// The node's list and map type errors, in the real order.
pub(super) fn list_and_map_types(
    m: &Map<String, Value>,
    ty: &str,
    path: &FieldPath,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let map_type = str_of(m, "x-kubernetes-map-type");
    if map_type.is_some() && ty != "object" {
        errs.push(type_must_be(ty, "object", "x-kubernetes-map-type", path));
    }
    if let Some(t) = map_type.filter(|t| !matches!(*t, "atomic" | "granular")) {
        errs.push(FieldError::not_supported(
            path.child("x-kubernetes-map-type").as_str(),
            json!(t),
            &["atomic", "granular"],
        ));
    }
    let list_type = str_of(m, "x-kubernetes-list-type");
    let items = m.get("items").filter(|i| !i.is_null());
    let item = items.and_then(Value::as_object);
    if list_type.is_some() && ty != "array" {
        errs.push(type_must_be(ty, "array", "x-kubernetes-list-type", path));
    } else if let (Some("set"), Some(is)) = (list_type, item) {
        let set_rule = "must be atomic as item of a list with x-kubernetes-list-type=set";
        let item_list = is
            .get("x-kubernetes-list-type")
            .cloned()
            .unwrap_or(Value::Null);
        match str_of(is, "type") {
            Some("array")
                if str_of(is, "x-kubernetes-list-type").is_some_and(|t| t != "atomic") =>
            {
                let at = path.child("items").child("x-kubernetes-list-type");
                errs.push(FieldError::invalid(at.as_str(), item_list, set_rule));
            }
            // (The real check names the item's list type as the bad value.)
            Some("object") if str_of(is, "x-kubernetes-map-type") != Some("atomic") => {
                let at = path.child("items").child("x-kubernetes-map-type");
                errs.push(FieldError::invalid(at.as_str(), item_list, set_rule));
            }
            _ => {}
        }
    }
    if let Some(t) = list_type.filter(|t| !matches!(*t, "atomic" | "set" | "map")) {
        errs.push(FieldError::not_supported(
            path.child("x-kubernetes-list-type").as_str(),
            json!(t),
            &["atomic", "set", "map"],
        ));
    }
    let keys: Vec<&str> = m
        .get("x-kubernetes-list-map-keys")
        .into_iter()
        .flat_map(str_items)
        .collect();
    let keys_value = || json!(keys);
    if !keys.is_empty() {
        let detail = "must be map if x-kubernetes-list-map-keys is non-empty";
        let at = path.child("x-kubernetes-list-type");
        match list_type {
            None => errs.push(FieldError::required(at.as_str(), detail)),
            Some("map") => {}
            Some(t) => errs.push(FieldError::invalid(at.as_str(), json!(t), detail)),
        }
    }
    if list_type == Some("map") {
        if keys.is_empty() {
            errs.push(FieldError::required(
                path.child("x-kubernetes-list-map-keys").as_str(),
                "must not be empty if x-kubernetes-list-type is map",
            ));
        }
        match items {
            None => errs.push(FieldError::required(
                path.child("items").as_str(),
                "must have a schema if x-kubernetes-list-type is map",
            )),
            Some(a @ Value::Array(_)) => errs.push(FieldError::invalid(
                path.child("items").as_str(),
                items_props(a),
                "must only have a single schema if x-kubernetes-list-type is map",
            )),
            Some(_) => {}
        }
        if let Some(is) = item {
            let item_ty = str_of(is, "type").unwrap_or("");
            if item_ty != "object" {
                errs.push(FieldError::invalid(
                    path.child("items").child("type").as_str(),
                    json!(item_ty),
                    "must be object if parent array's x-kubernetes-list-type is map",
                ));
            } else {
                let props = is.get("properties").and_then(Value::as_object);
                for (i, k) in keys.iter().enumerate() {
                    match props.and_then(|p| p.get(*k)) {
                        Some(p) => {
                            if matches!(
                                p.get("type").and_then(Value::as_str),
                                Some("array" | "object")
                            ) {
                                let at =
                                    path.child("items").child("properties").key(k).child("type");
                                errs.push(FieldError::invalid(
                                    at.as_str(),
                                    json!(item_ty),
                                    "must be a scalar type if parent array's x-kubernetes-list-type is map",
                                ));
                            }
                        }
                        None => errs.push(FieldError::invalid(
                            path.child("x-kubernetes-list-map-keys").as_str(),
                            keys_value(),
                            "entries must all be names of item properties",
                        )),
                    }
                    if keys[..i].contains(k) {
                        errs.push(FieldError::invalid(
                            path.child("x-kubernetes-list-map-keys").as_str(),
                            keys_value(),
                            "must not contain duplicate entries",
                        ));
                    }
                }
            }
        }
    }
    if let (Some(t @ ("set" | "map")), Some(is)) = (list_type, item) {
        errs.extend(keys_and_items(is, t, &keys, path));
    }
    errs
}

/// `validateMapListKeysMapSet`: a set's or map's items are not nullable; a map's key
/// properties are required or defaulted, and not nullable.
fn keys_and_items(
    is: &Map<String, Value>,
    list_type: &str,
    keys: &[&str],
    path: &FieldPath,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let nullable = |m: &Map<String, Value>| m.get("nullable") == Some(&Value::Bool(true));
    if nullable(is) {
        errs.push(FieldError::forbidden(
            path.child("items").child("nullable").as_str(),
            &format!("cannot be nullable when x-kubernetes-list-type is {list_type}"),
        ));
    }
    if list_type != "map" {
        return errs;
    }
    let required: Vec<&str> = is.get("required").into_iter().flat_map(str_items).collect();
    let props = is.get("properties").and_then(Value::as_object);
    for k in keys {
        let Some(p) = props.and_then(|p| p.get(*k)).and_then(Value::as_object) else {
            continue;
        };
        let at = path.child("items").child("properties").key(k);
        if !required.contains(k) && p.get("default").is_none_or(Value::is_null) {
            errs.push(FieldError::required(
                at.child("default").as_str(),
                "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property",
            ));
        }
        if nullable(p) {
            errs.push(FieldError::forbidden(
                at.child("nullable").as_str(),
                "this property is in x-kubernetes-list-map-keys, so it cannot be nullable",
            ));
        }
    }
    errs
}

/// `pathValid`: whether a rule's `fieldPath` names a field of the node `m`.
pub(super) fn field_path_valid(m: &Map<String, Value>, field_path: &str) -> bool {
    let node = Schema::parse(&Value::Object(m.clone()));
    crate::resources::custom::field_path::resolve(&node, field_path).is_ok()
}
