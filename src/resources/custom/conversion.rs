//! Conversion between a definition's versions with `conversion: None` (the CRD handler's
//! `nopConverter`): only `apiVersion` changes. Objects are stored in the storage version
//! (the canonical form sets it); what a request for another served version reads is
//! rewritten on the way out.

use serde_json::{Map, Value};

use super::CustomKind;
use crate::resources::ResourceInfo;

/// The storage version's `group/version`.
pub fn storage_api_version(kind: &CustomKind) -> String {
    format!("{}/{}", kind.group, kind.storage_version)
}

/// Whether what `info` serves is read from another (stored) version.
pub fn converts(info: &ResourceInfo) -> bool {
    info.custom
        .is_some_and(|c| !c.storage_version.is_empty() && c.storage_version != c.version)
}

/// Sets an object of this kind (of any of its versions) to `api_version`, in its sorted
/// place.
fn set(obj: &mut Map<String, Value>, kind: &str, api_version: &str) {
    if obj.get("kind").and_then(Value::as_str) == Some(kind) && obj.contains_key("apiVersion") {
        obj.insert("apiVersion".into(), Value::String(api_version.to_string()));
    }
}

/// An object as stored: in the storage version.
pub fn to_storage(kind: &CustomKind, obj: &mut Map<String, Value>) {
    if !kind.storage_version.is_empty() {
        set(obj, &kind.kind, &storage_api_version(kind));
    }
}

/// A value read through `info` (a stored object, or a write's answer): in `info`'s version.
pub fn value_to_served(info: &ResourceInfo, v: &mut Value) {
    if let Value::Object(m) = v {
        set(m, info.kind, &info.api_version());
    }
}
