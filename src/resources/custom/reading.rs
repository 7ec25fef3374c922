//! What a stored custom resource reads as: the CRD storage's decoder
//! (`crdConversionRESTOptionsGetter`'s codec). An object is pruned and defaulted by the schema
//! of the version it was stored in (`schemaCoercingDecoder`, then `unstructuredDefaulter`),
//! then converted to the version read and pruned by that version's schema
//! (`schemaCoercingConverter`). So a default added to a definition after its objects were
//! written shows on every read of them (GET, list, watch, and the object a write starts
//! from), and a property removed from the schema disappears, with no write and no new
//! resourceVersion.
//!
//! Most reads need none of it: an object written while this kind was served, through a
//! schema every version shares, is stored exactly as it reads. [`read`] tells those apart
//! from the few bytes of their head and copies them; only the others are decoded.

use std::sync::atomic::Ordering;

use serde_json::Value;

use super::canonical;
use super::CustomKind;
use crate::codec::Object;
use crate::resources::meta::{group_version_string, parse_group_version, parse_rv};

/// The members of a stored object's head that tell whether it reads as stored.
#[derive(serde::Deserialize)]
struct Head<'a> {
    #[serde(rename = "apiVersion", borrow)]
    api_version: Option<std::borrow::Cow<'a, str>>,
    #[serde(borrow)]
    metadata: Option<MetaHead<'a>>,
}

#[derive(serde::Deserialize)]
struct MetaHead<'a> {
    #[serde(rename = "resourceVersion", borrow)]
    resource_version: Option<std::borrow::Cow<'a, str>>,
}

/// The version of `kind`'s group an `apiVersion` names, if it names one.
fn version_in<'a>(kind: &CustomKind, api_version: &'a str) -> Option<&'a str> {
    match parse_group_version(api_version) {
        (group, version) if group == kind.group && !version.is_empty() => Some(version),
        _ => None,
    }
}

/// Whether `obj`, stored, is what a read in `version` gives: that is the storage version,
/// the object was written in it after this kind began to be served, and every version's
/// schema is this one.
fn reads_as_stored(kind: &CustomKind, version: &str, obj: &Object) -> bool {
    if version != kind.storage_version || !kind.others.is_empty() {
        return false;
    }
    let Ok(head) = serde_json::from_slice::<Head<'_>>(obj.json()) else {
        return false;
    };
    let written = head
        .metadata
        .and_then(|m| m.resource_version)
        .and_then(|rv| parse_rv(&rv));
    written.is_some_and(|rv| rv > kind.settled.load(Ordering::Relaxed))
        && version_in(kind, &head.api_version.unwrap_or_default()) == Some(version)
}

/// A stored object as read through `kind`'s version, decoded; `None` when its bytes as
/// stored are the answer.
pub fn read_decoded(kind: &CustomKind, obj: &Object) -> Option<Value> {
    if reads_as_stored(kind, &kind.version, obj) {
        return None;
    }
    let stored = obj.decode();
    let read = read_value(kind, &kind.version, stored.clone());
    (read != stored).then_some(read)
}

/// [`read_decoded`], encoded: what is copied into a list or a watch frame.
pub fn read(kind: &CustomKind, obj: &Object) -> Option<Object> {
    read_decoded(kind, obj).map(Object::new)
}

/// A stored object as a write reads it before changing it: decoded, in the storage version.
fn read_stored(kind: &CustomKind, obj: &Object) -> Value {
    let version = kind.storage_version.as_str();
    match reads_as_stored(kind, version, obj) {
        true => obj.decode(),
        false => read_value(kind, version, obj.decode()),
    }
}

/// What a stored object of `info`'s kind reads as now, decoded: a custom resource through
/// its schema, in its storage version; any other kind as stored. What a write starts from
/// and what list and watch selectors look at.
pub fn current(info: &crate::resources::ResourceInfo, obj: &Object) -> Value {
    match info.custom {
        Some(kind) => read_stored(kind, obj),
        None => obj.decode(),
    }
}

/// A stored object (decoded) as read in `version`, one of the definition's.
fn read_value(kind: &CustomKind, version: &str, stored: Value) -> Value {
    let Value::Object(obj) = stored else {
        return stored;
    };
    let own_kind = obj.get("kind").and_then(Value::as_str) == Some(kind.kind.as_str());
    let api_version = obj.get("apiVersion").and_then(Value::as_str).unwrap_or("");
    let Some(stored_version) = version_in(kind, api_version).filter(|_| own_kind) else {
        return Value::Object(obj);
    };
    let stored_version = stored_version.to_string();
    // Pruned and defaulted as stored. (A version no longer defined keeps what it has; the
    // real server prunes such an object to its type and metadata, a state a definition's
    // storedVersions keeps it from reaching.)
    let mut obj = match kind.schema_of(&stored_version) {
        Some(schema) => canonical::canonicalize(schema, obj),
        None => obj,
    };
    if stored_version != version {
        let api_version = group_version_string(&kind.group, version);
        obj.insert("apiVersion".into(), Value::String(api_version));
        if let Some(schema) = kind.schema_of(version) {
            obj = canonical::prune(schema, obj);
        }
    }
    Value::Object(obj)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn kind() -> CustomKind {
        let crd = json!({
            "metadata": {"name": "widgets.example.com"},
            "spec": {"group": "example.com", "scope": "Namespaced",
                "names": {"plural": "widgets", "kind": "Widget"},
                "versions": [{"name": "v1", "served": true, "storage": true,
                    "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                        "spec": {"type": "object", "properties": {
                            "size": {"type": "integer", "default": 3}}}}}}}]},
            "status": {"acceptedNames": {"plural": "widgets", "kind": "Widget"}}
        });
        let crd = crd.as_object().unwrap();
        let kind = CustomKind::of(crd, &crd["spec"]["versions"][0]);
        kind.settled.store(5, Ordering::Relaxed);
        kind
    }

    fn stored(rv: &str, api_version: &str, spec: Value) -> Object {
        Object::new(json!({"apiVersion": api_version, "kind": "Widget",
            "metadata": {"name": "w", "resourceVersion": rv}, "spec": spec}))
    }

    /// Only what was written in the storage version after the kind began to be served reads
    /// as its bytes; the rest is decoded, and copied again when nothing changed.
    #[test]
    fn what_reads_as_stored() {
        let kind = kind();
        let size = json!({"size": 1});
        assert!(reads_as_stored(
            &kind,
            "v1",
            &stored("6", "example.com/v1", size.clone())
        ));
        for obj in [
            stored("5", "example.com/v1", size.clone()),
            stored("6", "example.com/v1beta1", size.clone()),
            stored("x", "example.com/v1", size.clone()),
        ] {
            assert!(!reads_as_stored(&kind, "v1", &obj), "{:?}", obj.decode());
        }
        assert!(read(&kind, &stored("5", "example.com/v1", size)).is_none());
        let defaulted = read(&kind, &stored("5", "example.com/v1", json!({}))).unwrap();
        assert_eq!(defaulted.decode()["spec"], json!({"size": 3}));
    }
}
