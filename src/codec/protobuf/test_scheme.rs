//! The serializer as the tests call it: built with the built-in kinds.

use serde_json::Value;

use crate::resources::SCHEME;

pub fn encode(obj: &Value) -> Result<Vec<u8>, String> {
    super::encode(obj, &SCHEME)
}

pub fn decode(bytes: &[u8]) -> Result<Value, String> {
    super::decode(bytes, &SCHEME)
}

pub fn watch_frame(event_type: &str, obj: &Value) -> Result<Vec<u8>, String> {
    super::watch_frame(event_type, obj, &SCHEME)
}

pub fn decode_watch_frames(bytes: &[u8]) -> Result<Vec<(String, Value)>, String> {
    super::decode_watch_frames(bytes, &SCHEME)
}

/// Whether `kind` has a protobuf form in any built-in group version.
pub fn supports(kind: &str) -> bool {
    ["v1", "apps/v1", "meta.k8s.io/v1"]
        .iter()
        .any(|v| super::supports(v, kind, &SCHEME))
}
