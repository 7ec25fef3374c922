//! Protobuf (`application/vnd.kubernetes.protobuf`) exactly as kube-apiserver writes and reads it.
//!
//! Clients such as client-go ask for protobuf first and compare nothing but the decoded
//! structs, yet golden tests and `kubectl get --raw` see the bytes, so the encoder matches the
//! gogo-generated Go marshallers byte for byte (reference §5): the `k8s\0` magic and
//! `runtime.Unknown` envelope, fields in ascending number order, non-pointer scalars written
//! even when zero, pointers only when set, map entries sorted by key, `metav1.Time` as
//! `{seconds, nanos = 0}` (empty when zero), and `RawExtension.raw` holding the compact JSON of
//! ControllerRevision `data`. The decoder turns bytes back into the canonical JSON [`Value`]
//! the server would have sent for the same object, so a protobuf request body enters the
//! engine in the same form as a JSON one.
//!
//! Objects are `serde_json::Value`s in canonical form (see `crate::codec::decode`). Served
//! kinds with a protobuf form: ControllerRevision(List), Namespace(List), Status,
//! DeleteOptions, PartialObjectMetadata(List) and WatchEvent. `Table` has none (the caller
//! answers 406; see [`supports`]).
//!
//! Watch streams (`;stream=watch`) are frames of a 4-byte big-endian length followed by a bare
//! `WatchEvent` whose `object.raw` is the object's full envelope ([`watch_frame`]).
//!
//! Pure computation: no I/O, no threads, builds for `wasm32-unknown-unknown`.

mod decode;
mod derive;
mod encode;
mod envelope;
pub mod meta_v1;
pub mod schema;
mod wire;

use serde_json::Value;

use schema::Msg;

/// What the serializer knows of the served kinds (the part of Go's `runtime.Scheme` a
/// protobuf serializer is built with): each kind's message table and its list's. The meta
/// kinds (Status, DeleteOptions, PartialObjectMetadata(List), WatchEvent) are built in.
pub trait Scheme: std::fmt::Debug {
    /// The message table of `kind` (`ConfigMap`, `ConfigMapList`) in `api_version` (`v1`),
    /// if it has a protobuf form.
    fn message(&self, api_version: &str, kind: &str) -> Option<&'static Msg>;
    /// Whether `kind` (or its list) in `api_version` is a custom resource's, which the server
    /// holds as `unstructured.Unstructured` (the protobuf error names that type).
    fn unstructured(&self, _api_version: &str, _kind: &str) -> bool {
        false
    }
}

/// A scheme of the meta kinds only.
#[derive(Debug, Clone, Copy)]
pub struct MetaOnly;

impl Scheme for MetaOnly {
    fn message(&self, _api_version: &str, _kind: &str) -> Option<&'static Msg> {
        None
    }
}

/// Where an encoder is: how many envelopes enclose it, and the kinds it may meet.
#[derive(Clone, Copy)]
pub(crate) struct Nest<'a> {
    pub depth: usize,
    pub scheme: &'a dyn Scheme,
}

impl Nest<'_> {
    /// One envelope further down.
    pub fn deeper(self) -> Self {
        Nest {
            depth: self.depth + 1,
            scheme: self.scheme,
        }
    }
}

pub use derive::{list_message_of, message_of};
pub use envelope::MAGIC;

/// The media type of a protobuf body (request or response).
pub const MEDIA_TYPE: &str = "application/vnd.kubernetes.protobuf";

/// The `Content-Type` of a protobuf watch stream (length-prefixed frames).
pub const STREAM_MEDIA_TYPE: &str = "application/vnd.kubernetes.protobuf;stream=watch";

/// The message table for a kind, if it has a protobuf form.
fn message_for(api_version: &str, kind: &str, scheme: &dyn Scheme) -> Option<&'static Msg> {
    Some(match kind {
        "Status" => &meta_v1::STATUS,
        "DeleteOptions" => &meta_v1::DELETE_OPTIONS,
        "PartialObjectMetadata" => &meta_v1::PARTIAL_OBJECT_METADATA,
        "PartialObjectMetadataList" => &meta_v1::PARTIAL_OBJECT_METADATA_LIST,
        "WatchEvent" => &meta_v1::WATCH_EVENT,
        "APIVersions" => &meta_v1::API_VERSIONS,
        "APIGroupList" => &meta_v1::API_GROUP_LIST,
        "APIGroup" => &meta_v1::API_GROUP,
        "APIResourceList" => &meta_v1::API_RESOURCE_LIST,
        _ => return scheme.message(api_version, kind),
    })
}

/// Whether objects of `kind` can be sent or received as protobuf. `Table` (and its parts) are
/// `+protobuf=false` in Go, so a protobuf-only `Accept` for a Table must be answered 406 (the
/// error text is [`encode`]'s for that kind).
pub fn supports(api_version: &str, kind: &str, scheme: &dyn Scheme) -> bool {
    message_for(api_version, kind, scheme).is_some()
}

/// Go's package name for an apiVersion, as `%T` prints a type (`*v1.Table`).
fn go_package(api_version: &str) -> &str {
    api_version.rsplit('/').next().unwrap_or(api_version)
}

/// Encodes an object (with `kind` and `apiVersion`) as a protobuf body: `k8s\0` +
/// `Unknown{typeMeta{apiVersion, kind}, raw = <message>, contentEncoding = "", contentType = ""}`.
///
/// Errors: a value that is not an object, a kind without protobuf form
/// (`object *v1.Table does not implement the protobuf marshalling interface and cannot be
/// encoded to a protobuf message`, the server's 406 text), or a member of the wrong JSON type
/// (`metadata.generation: expected integer, got "x"`; canonical values never have one).
pub fn encode(obj: &Value, scheme: &dyn Scheme) -> Result<Vec<u8>, String> {
    encode_at(obj, Nest { depth: 0, scheme })
}

/// How many envelopes may nest (a `WatchEvent` whose object is a `WatchEvent` ...): a bound on
/// recursion so that a hostile body cannot exhaust the stack. Real objects nest at most once.
const MAX_NESTING: usize = 16;

/// The error for envelopes nested deeper than [`MAX_NESTING`] (no Go equivalent: Go's
/// growable stacks have no such limit).
fn too_deep() -> String {
    format!("protobuf envelopes nested deeper than {MAX_NESTING}")
}

/// [`encode`] at nesting level `depth` (`WatchEvent.object` is one level down).
pub(crate) fn encode_at(obj: &Value, depth: Nest<'_>) -> Result<Vec<u8>, String> {
    if depth.depth > MAX_NESTING {
        return Err(too_deep());
    }
    let Value::Object(map) = obj else {
        return Err(format!("expected an object, got {obj}"));
    };
    let text = |k: &str| map.get(k).and_then(Value::as_str).unwrap_or("");
    let (kind, api_version) = (text("kind"), text("apiVersion"));
    let Some(msg) = message_for(api_version, kind, depth.scheme) else {
        let go_type = if depth.scheme.unstructured(api_version, kind) {
            let list = if kind.ends_with("List") { "List" } else { "" };
            format!("unstructured.Unstructured{list}")
        } else {
            format!("{}.{kind}", go_package(api_version))
        };
        return Err(format!(
            "object *{go_type} does not implement the protobuf marshalling interface and cannot be encoded to a protobuf message"
        ));
    };
    let raw = encode::message(msg, map, "", depth)?;
    Ok(envelope::wrap(api_version, kind, &raw))
}

/// Decodes a protobuf body into the canonical JSON Value: `kind` and `apiVersion` from the
/// envelope first, then the object's fields as kube-apiserver's JSON would show them.
///
/// Errors are the Go serializer's texts: `empty data`, `empty body`, `provided data does not
/// appear to be a protobuf message, expected prefix [107 56 115 0]`, `Object 'Kind' is
/// missing in '...'`, `no kind "X" is registered for version "v"` (Go appends the scheme's
/// name), and gogo's `unexpected EOF` / `proto: ...` for malformed messages.
pub fn decode(bytes: &[u8], scheme: &dyn Scheme) -> Result<Value, String> {
    decode_at(bytes, 0, scheme)
}

/// [`decode`] at nesting level `depth` (`WatchEvent.object` is one level down).
pub(crate) fn decode_at(bytes: &[u8], depth: usize, scheme: &dyn Scheme) -> Result<Value, String> {
    if depth > MAX_NESTING {
        return Err(too_deep());
    }
    let unk = envelope::unwrap(bytes)?;
    let type_meta = format!(
        "runtime.TypeMeta{{APIVersion:{:?}, Kind:{:?}}}",
        unk.api_version, unk.kind
    );
    if unk.kind.is_empty() {
        return Err(format!("Object 'Kind' is missing in '{type_meta}'"));
    }
    if go_package(&unk.api_version).is_empty() {
        return Err(format!("Object 'apiVersion' is missing in '{type_meta}'"));
    }
    let Some(msg) = message_for(&unk.api_version, &unk.kind, scheme) else {
        return Err(format!(
            "no kind {:?} is registered for version {:?}",
            unk.kind, unk.api_version
        ));
    };
    let ctx = decode::Ctx {
        api_version: &unk.api_version,
        depth,
        scheme,
    };
    let body = decode::message(msg, unk.raw.unwrap_or_default(), ctx)?;
    let mut out = serde_json::Map::new();
    out.insert("kind".into(), Value::String(unk.kind.clone()));
    out.insert("apiVersion".into(), Value::String(unk.api_version.clone()));
    out.extend(body);
    Ok(Value::Object(out))
}

/// One watch frame: big-endian `u32` length + `WatchEvent{type, object: RawExtension{raw:
/// encode(obj)}}` (no envelope around the event itself). `obj` is the event's object (a
/// `Status` for `ERROR` events).
pub fn watch_frame(event_type: &str, obj: &Value, scheme: &dyn Scheme) -> Result<Vec<u8>, String> {
    // Written directly (mirroring `meta_v1::WATCH_EVENT`) so the object is not cloned into a
    // WatchEvent Value for every event.
    let mut object = wire::Writer::new();
    object.bytes(1, &encode(obj, scheme)?);
    let mut event = wire::Writer::new();
    event.string(1, event_type);
    event.bytes(2, &object.buf);
    envelope::frame(&event.buf)
}

/// Splits a protobuf watch stream into `(type, object)` pairs, decoding each object's
/// envelope with [`decode`]. A truncated final frame is `unexpected EOF`.
pub fn decode_watch_frames(
    bytes: &[u8],
    scheme: &dyn Scheme,
) -> Result<Vec<(String, Value)>, String> {
    let mut out = Vec::new();
    for frame in envelope::split_frames(bytes)? {
        let ctx = decode::Ctx {
            api_version: "",
            depth: 0,
            scheme,
        };
        let mut event = decode::message(&meta_v1::WATCH_EVENT, frame, ctx)?;
        let event_type = match event.remove("type") {
            Some(Value::String(s)) => s,
            _ => String::new(),
        };
        out.push((event_type, event.remove("object").unwrap_or(Value::Null)));
    }
    Ok(out)
}

#[cfg(test)]
mod test_scheme;

#[cfg(test)]
#[path = "golden_tests.rs"]
mod golden_tests;

#[cfg(test)]
#[path = "roundtrip_tests.rs"]
mod roundtrip_tests;
