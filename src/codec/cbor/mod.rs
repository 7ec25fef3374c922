//! CBOR bytes exactly as kube-apiserver writes and reads them (`CBORServingAndStorage`, alpha).
//!
//! The server's CBOR serializer (k8s.io/apimachinery `pkg/runtime/serializer/cbor`) is
//! fxamacker/cbor configured in `internal/modes/encode.go` and `decode.go`. This module is a
//! hand-written codec that reproduces those settings over kubesim's canonical
//! [`serde_json::Value`] objects (no third-party CBOR crate, so every byte is under our control
//! and the module builds unchanged for `wasm32-unknown-unknown`).
//!
//! # Writing ([`encode`])
//!
//! * Every document starts with the self-described CBOR tag 55799 (`0xd9 0xd9 0xf7`), written by
//!   the serializer's `Encode` before the item; `RecognizesData` uses it as the magic number
//!   ([`is_cbor`]).
//! * JSON data model: strings, including map keys, are CBOR **byte strings** (major type 2,
//!   `String: StringToByteString`, `FieldName: FieldNameToByteString`); integers stay integers
//!   in their shortest head; floats use the shortest of float16/float32/float64 that holds the
//!   value exactly (`ShortestFloat: ShortestFloat16`); `null`, `true`, `false` are the simple
//!   values `0xf6 0xf5 0xf4`; only definite lengths are written (`IndefLength: Forbidden`).
//! * Map keys are sorted bytewise-lexically by their *encoded* bytes (`SortBytewiseLexical`,
//!   RFC 8949 §4.2.1). Because the head carries the length, shorter keys come first:
//!   `data`, `kind`, `metadata`, `revision`, `apiVersion`.
//! * The real server encodes responses and watch events with `EncodeNondeterministic`
//!   (`SortNone`/`SortFastShuffle`: Go map iteration order and a random rotation of struct
//!   fields) whenever the gate is on, so its map order is **not stable**. kubesim always writes
//!   the deterministic order; clients must not (and cannot) depend on either.
//!
//! # Reading ([`decode`], [`decode_object`])
//!
//! `modes.Decode` / `DecodeLax` into `interface{}` / `map[string]interface{}`:
//!
//! * Text and byte strings are both accepted as strings and as map keys. Text strings must be
//!   valid UTF-8 (`cbor: invalid UTF-8 string`); byte strings are **not** validated
//!   (`DefaultByteStringType: string`). Go keeps invalid bytes in the string and its JSON
//!   encoder later writes each invalid byte as U+FFFD; kubesim's strings are Rust `String`s, so
//!   each invalid byte becomes U+FFFD right away (what the JSON view shows; a CBOR echo of such a
//!   string differs from the server's, which would return the raw bytes).
//! * A byte string under tag 21/22/23 ("expected later encoding",
//!   `ByteStringToStringAllowedWithExpectedLaterEncoding`) becomes base64url without padding,
//!   standard base64 or lower-case hex; the nearest such tag applies to every byte string inside
//!   the tagged item. This is how Go `[]byte` fields (tag 22) round-trip to JSON's base64.
//! * Tags 0 and 1 (times) become RFC 3339 strings with nanoseconds (`TimeTagToRFC3339Nano`);
//!   tag 55799 is dropped wherever it appears; any other tag is replaced by its content
//!   (`UnrecognizedTagContentToAny`); bignum tags 2 and 3 are rejected (`BignumTagForbidden`).
//! * Integers must fit `int64` (`IntDecConvertSignedOrFail`); floats become `f64`; NaN and the
//!   infinities are rejected; the only simple values accepted are `false`, `true`, `null`
//!   (`undefined` is rejected).
//! * Duplicate map keys are rejected outright (`DupMapKeyEnforcedAPF`), not reported as a
//!   strict-decoding warning as in JSON.
//! * Limits: 64 nested levels, 1024 array elements, 1024 map pairs; indefinite-length items are
//!   accepted; exactly one item with no trailing bytes.
//! * Error texts are fxamacker/cbor's (`cbor: ...`, plus Go's bare `EOF` and
//!   `unexpected EOF`), and when several items are bad the one reported is the one Go reports
//!   (the first in document order, except that a duplicate key wins within its map).
//!
//! # `RawExtension` (ControllerRevision `data`) and watch events
//!
//! `RawExtension.MarshalCBOR` (`pkg/runtime/extension.go`) emits its raw bytes verbatim when
//! they start with the self-described tag and otherwise parses them as JSON into an
//! unstructured value and encodes that with `direct.Marshal` (= `modes.Encode.Marshal`: sorted,
//! and **without** the 55799 prefix). A ControllerRevision stored by the server holds JSON
//! `data` (the CBOR decoder transcodes raw CBOR to JSON by default), so its `data` is written
//! as a plain nested map. kubesim keeps `data` as a [`Value`], so "convert JSON to CBOR" is
//! just encoding that value in place, which [`encode`] does; no raw bytes survive to be
//! emitted verbatim.
//!
//! A watch event, unlike a stored `data`, wraps the object the embedded encoder already
//! serialized (with its own `0xd9d9f7`) in `RawExtension{Raw}`; those bytes are emitted
//! verbatim, so the object inside each event is a nested, *tagged* CBOR map, not a byte string
//! ([`watch_event`]).
//!
//! Go `[]byte` fields of typed objects (ConfigMap `binaryData`) are written by the real
//! encoder as tag 22 around the raw bytes (`ByteSliceLaterFormat: Base64`), not as the base64
//! text JSON shows. [`encode_with`] and [`watch_event`] find them through the kind's message
//! table (the one protobuf uses; a kind without one is written untyped), so a served object
//! is written as the real server writes it. Reading, a tag-22 byte string becomes the base64
//! text; [`decode_typed`] also reads an untagged byte string in a `[]byte` field as its raw
//! bytes, as decoding into the typed struct does.

mod decoder;
mod encoder;
mod hint;
mod timetag;
mod wellformed;

#[cfg(test)]
mod tests;

use serde_json::{Map, Value};

use crate::codec::protobuf::schema::Msg;
use crate::codec::protobuf::Scheme;

/// The media type of a CBOR document (request bodies, responses), served only with the
/// `CBORServingAndStorage` gate on.
pub const MEDIA_TYPE: &str = "application/cbor";

/// The media type of a CBOR watch stream (RFC 8742 CBOR Sequence). A client asking for
/// `application/cbor` on a watch gets this in `Content-Type`.
pub const SEQ_MEDIA_TYPE: &str = "application/cbor-seq";

/// The server-side apply patch type for CBOR bodies; the only CBOR patch type (there is no CBOR
/// JSON Patch, merge patch or strategic merge patch).
pub const APPLY_PATCH_MEDIA_TYPE: &str = "application/apply-patch+cbor";

/// The head of tag 55799 ("self-described CBOR"), the serializer's prefix and magic number.
pub const SELF_DESCRIBED_TAG: [u8; 3] = [0xd9, 0xd9, 0xf7];

/// Whether `bytes` are recognized as CBOR by the server (`RecognizesData`: a
/// [`SELF_DESCRIBED_TAG`] prefix), as used for content sniffing and `RawExtension`.
pub fn is_cbor(bytes: &[u8]) -> bool {
    bytes.starts_with(&SELF_DESCRIBED_TAG)
}

/// A whole CBOR document for `v`, as the serializer's `Encode` writes it: the self-described
/// tag followed by the item (byte-string keys and strings, sorted keys, shortest heads and
/// floats, definite lengths). See the module docs for why key order differs from the real
/// server's shuffled order.
///
/// Untyped: a `[]byte` field is written as its base64 string; see [`encode_with`].
pub fn encode(v: &Value) -> Vec<u8> {
    encode_with(v, &crate::codec::protobuf::MetaOnly)
}

/// [`encode`] for an object of a kind `scheme` knows (from its `apiVersion` and `kind`):
/// its `[]byte` fields are written as the real encoder writes them.
pub fn encode_with(v: &Value, scheme: &dyn Scheme) -> Vec<u8> {
    let mut out = Vec::with_capacity(256);
    out.extend_from_slice(&SELF_DESCRIBED_TAG);
    encoder::write_value(v, hint_of(v, scheme), &mut out);
    out
}

/// The encoder's view of `v`'s type: its kind's message table, if `scheme` has one.
fn hint_of(v: &Value, scheme: &dyn Scheme) -> hint::Hint {
    let s = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or("");
    match scheme.message(s("apiVersion"), s("kind")) {
        Some(m) => hint::Hint::Struct(m),
        None => hint::Hint::None,
    }
}

/// `v` as a bare CBOR item without the 55799 prefix: what `direct.Marshal` produces for nested
/// values such as a JSON-backed `RawExtension`, and the building block of [`encode`].
pub fn encode_untagged(v: &Value) -> Vec<u8> {
    let mut out = Vec::with_capacity(256);
    encoder::write_value(v, hint::Hint::None, &mut out);
    out
}

/// Decodes one CBOR item (tagged or not) into a [`Value`], as `modes.Decode.Unmarshal` into an
/// `interface{}` does: any top-level type, the rules and error texts in the module docs.
pub fn decode(bytes: &[u8]) -> Result<Value, String> {
    decode_typed(bytes, None)
}

/// [`decode`] of a request body decoded into the typed struct `msg` describes (the kind
/// the URL names, as the serializer's `into`): an untagged byte string in a `[]byte` field is
/// its raw bytes (base64 in the value). One pass; `None` is [`decode`].
pub fn decode_typed(bytes: &[u8], msg: Option<&'static Msg>) -> Result<Value, String> {
    let mut d = decoder::Decoder::new(bytes);
    d.wellformed(false)?;
    d.rewind();
    if let Some(m) = msg {
        d.set_hint(hint::Hint::Struct(m));
    }
    d.value_any()
}

/// Decodes a request body the way the serializer fills an `Unstructured`
/// (`Unmarshal` into `map[string]interface{}`): the top level must be a map (otherwise
/// `cbor: cannot unmarshal array into Go value of type map[string]interface {}` and the like).
/// A top-level `null` leaves the map empty, as Go's nil map; the caller then reports the
/// missing kind.
pub fn decode_object(bytes: &[u8]) -> Result<Map<String, Value>, String> {
    let mut d = decoder::Decoder::new(bytes);
    d.wellformed(false)?;
    d.rewind();
    Ok(d.value_object()?.unwrap_or_default())
}

/// One `application/cbor-seq` watch frame: a `metav1.WatchEvent` document
/// (`{"type": ..., "object": ...}`) whose `object` is the object's own complete CBOR document
/// (tag included) carried verbatim by `RawExtension.MarshalCBOR`. Frames are concatenated with
/// no length prefix or delimiter (the CBOR framer's writer is a pass-through), so a stream is
/// just the frames back to back.
///
/// In sorted order `type` (head `0x44`) precedes `object` (head `0x46`); the real server
/// rotates the two fields at random.
pub fn watch_event(event_type: &str, obj: &Value, scheme: &dyn Scheme) -> Vec<u8> {
    let mut out = Vec::with_capacity(256);
    out.extend_from_slice(&SELF_DESCRIBED_TAG);
    out.push(0xa2); // map(2)
    encoder::write_bytes_key("type", &mut out);
    encoder::write_bytes_key(event_type, &mut out);
    encoder::write_bytes_key("object", &mut out);
    out.extend_from_slice(&SELF_DESCRIBED_TAG);
    encoder::write_value(obj, hint_of(obj, scheme), &mut out);
    out
}

/// Splits an `application/cbor-seq` stream into its items and decodes each with [`decode`]
/// (so a watch event's embedded, tagged object comes back as a nested map). Items are framed
/// by CBOR's own self-delimiting structure, as the client's frame reader does; an empty stream
/// is an empty list, and a truncated last item is `unexpected EOF`.
pub fn decode_seq(bytes: &[u8]) -> Result<Vec<Value>, String> {
    let mut items = Vec::new();
    let mut rest = bytes;
    while !rest.is_empty() {
        let mut d = decoder::Decoder::new(rest);
        d.wellformed(true)?;
        let (item, tail) = rest.split_at(d.offset());
        items.push(decode(item)?);
        rest = tail;
    }
    Ok(items)
}

/// The strict-decoding finding fxamacker/cbor reports for the first unknown field:
/// `cbor: found unknown field at map element index N`, where N is the member's position in
/// its own map (which map is not said).
pub fn unknown_field_message(index: usize) -> String {
    format!("cbor: found unknown field at map element index {index}")
}
