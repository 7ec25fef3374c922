//! The plug-in point between negotiated encodings and codecs: objects to bytes
//! ([`encode`], [`watch_frame`]) and request bodies to the JSON the decoder reads
//! ([`body_to_json`]).
//!
//! JSON and YAML are served. Protobuf and CBOR are recognised by negotiation but not served
//! until their codecs are wired here: flip [`codec_ready`] and fill the marked arms with
//! `crate::codec::protobuf::{encode(&Value) -> Result<Vec<u8>, String>, decode(&[u8]) ->
//! Result<Value, String>, watch_frame(&str, &Value) -> Result<Vec<u8>, String>}` and
//! `crate::codec::cbor::{encode(&Value) -> Vec<u8>, decode(&[u8]) -> Result<Value, String>}`
//! (a protobuf `Table` is a 406 with `encode`'s error text).
//!
//! Typed lists are written item by item from the stored objects (JSON, YAML): the items are
//! never copied into a second list to be encoded.

use std::borrow::Cow;

use bytes::Bytes;
use serde_json::Value;

use super::negotiation::Encoding;
use super::status::ApiError;
use crate::cache::watchers::EventType;
use crate::codec::{json, yaml};
use crate::store::Object;

/// Whether an encoding's codec is wired in (negotiation serves only these).
pub fn codec_ready(enc: Encoding) -> bool {
    // TODO(protobuf, cbor): return true once the arms below call the codecs.
    matches!(enc, Encoding::Json | Encoding::Yaml)
}

/// What a response carries.
#[derive(Debug, Clone, Copy)]
pub enum Payload<'a> {
    Object(&'a Value),
    /// A typed list: `envelope` has `kind`, `apiVersion` and `metadata`; `items` are stored
    /// objects, written without their `kind` and `apiVersion`.
    List {
        envelope: &'a Value,
        items: &'a [Object],
    },
}

/// The response body for `payload` (`pretty`: `json.MarshalIndent` instead of `Encode`).
pub fn encode(payload: Payload<'_>, enc: Encoding, pretty: bool) -> Result<Vec<u8>, ApiError> {
    match (enc, payload) {
        (Encoding::Json, Payload::Object(v)) if pretty => Ok(json::to_pretty_vec(v)),
        (Encoding::Json, Payload::Object(v)) => Ok(json::to_vec(v)),
        (Encoding::Json, Payload::List { envelope, items }) => {
            Ok(json_list(envelope, items, pretty))
        }
        (Encoding::Yaml, Payload::Object(v)) => Ok(yaml::to_vec(v)),
        (Encoding::Yaml, Payload::List { envelope, items }) => {
            let mut entries: Vec<(&str, yaml::Node<'_>)> = envelope
                .as_object()
                .map(|m| {
                    m.iter()
                        .map(|(k, v)| (k.as_str(), yaml::Node::Value(v)))
                        .collect()
                })
                .unwrap_or_default();
            entries.push(("items", yaml::Node::Items(items)));
            Ok(yaml::write_document(yaml::Node::Map(&entries)))
        }
        // TODO(protobuf): `crate::codec::protobuf::encode(v)`; a list needs its items with
        // the envelope (`kind`/`apiVersion` of items are ignored by the message).
        // TODO(cbor): `crate::codec::cbor::encode(v)`.
        (Encoding::Protobuf | Encoding::Cbor, _) => Err(ApiError::internal(format!(
            "no codec for {} yet",
            enc.media_type()
        ))),
    }
}

/// A typed list as Go's streaming collection encoder writes it: `{"kind":..,"apiVersion":..,
/// "metadata":{..},"items":[..]}`, one item at a time, byte-identical to encoding the whole
/// list (compact with a trailing newline, or `MarshalIndent`'s two-space form).
fn json_list(envelope: &Value, items: &[Object], pretty: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(256 + items.len() * 512);
    let indent = |out: &mut Vec<u8>, depth: usize| {
        if pretty {
            out.push(b'\n');
            out.extend(std::iter::repeat_n(b' ', depth * 2));
        }
    };
    let colon: &[u8] = if pretty { b": " } else { b":" };
    out.push(b'{');
    let mut first = true;
    if let Some(m) = envelope.as_object() {
        for (k, v) in m {
            if !first {
                out.push(b',');
            }
            first = false;
            indent(&mut out, 1);
            json::write_string(k, &mut out);
            out.extend_from_slice(colon);
            json::write_at(v, &mut out, pretty.then_some(1));
        }
    }
    if !first {
        out.push(b',');
    }
    indent(&mut out, 1);
    json::write_string("items", &mut out);
    out.extend_from_slice(colon);
    out.push(b'[');
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        indent(&mut out, 2);
        let fields: Vec<(&String, &Value)> = item
            .as_object()
            .map(|m| {
                m.iter()
                    .filter(|(k, _)| *k != "kind" && *k != "apiVersion")
                    .collect()
            })
            .unwrap_or_default();
        out.push(b'{');
        for (j, (k, v)) in fields.iter().enumerate() {
            if j > 0 {
                out.push(b',');
            }
            indent(&mut out, 3);
            json::write_string(k, &mut out);
            out.extend_from_slice(colon);
            json::write_at(v, &mut out, pretty.then_some(3));
        }
        if !fields.is_empty() {
            indent(&mut out, 2);
        }
        out.push(b'}');
    }
    if !items.is_empty() {
        indent(&mut out, 1);
    }
    out.push(b']');
    indent(&mut out, 0);
    out.push(b'}');
    if !pretty {
        out.push(b'\n');
    }
    out
}

/// One watch frame in `enc` (JSON: the event object and a newline).
pub fn watch_frame(kind: EventType, object: &Value, enc: Encoding) -> Bytes {
    match enc {
        Encoding::Json | Encoding::Yaml => crate::cache::watchers::frame(kind, object),
        // TODO(protobuf): `crate::codec::protobuf::watch_frame(kind.as_str(), object)`.
        // TODO(cbor): one `cbor::encode` of `{"type":..,"object":..}` per event (cbor-seq).
        Encoding::Protobuf | Encoding::Cbor => crate::cache::watchers::frame(kind, object),
    }
}

/// A request body as the JSON the decoder reads, plus the YAML strict pass's finding.
#[derive(Debug)]
pub struct JsonBody<'a> {
    pub json: Cow<'a, [u8]>,
    /// `error converting YAML to JSON: yaml: unmarshal errors:\n  line N: ...`.
    pub yaml_strict: Option<String>,
}

/// Converts a request body of `enc` to JSON. `Err` is the decoder's message (reported as the
/// "unrecognized object" 400 by the caller).
pub fn body_to_json(bytes: &[u8], enc: Encoding) -> Result<JsonBody<'_>, String> {
    match enc {
        Encoding::Json => Ok(JsonBody {
            json: Cow::Borrowed(bytes),
            yaml_strict: None,
        }),
        Encoding::Yaml => {
            let c = yaml::to_json(bytes)?;
            Ok(JsonBody {
                json: Cow::Owned(c.json),
                yaml_strict: c.strict,
            })
        }
        // TODO(protobuf, cbor): decode to a Value, then `json::to_vec` it.
        Encoding::Protobuf | Encoding::Cbor => {
            Err(format!("no codec for {} yet", enc.media_type()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::sync::Arc;

    #[test]
    fn streamed_json_list_equals_whole_list_encoding() {
        let items: Vec<Object> = vec![
            Arc::new(
                json!({"kind": "K", "apiVersion": "v1", "metadata": {"name": "a", "labels": {"x": "<"}}, "n": [1, {}]}),
            ),
            Arc::new(json!({"kind": "K", "apiVersion": "v1"})),
        ];
        let envelope =
            json!({"kind": "KList", "apiVersion": "v1", "metadata": {"resourceVersion": "3"}});
        let mut whole = envelope.clone();
        whole["items"] = Value::Array(
            items
                .iter()
                .map(|o| {
                    let mut o = (**o).clone();
                    o.as_object_mut().unwrap().shift_remove("kind");
                    o.as_object_mut().unwrap().shift_remove("apiVersion");
                    o
                })
                .collect(),
        );
        for pretty in [false, true] {
            let streamed = json_list(&envelope, &items, pretty);
            let expected = if pretty {
                json::to_pretty_vec(&whole)
            } else {
                json::to_vec(&whole)
            };
            assert_eq!(
                String::from_utf8(streamed).unwrap(),
                String::from_utf8(expected).unwrap()
            );
        }
        let mut empty = envelope.clone();
        empty["items"] = json!([]);
        for pretty in [false, true] {
            let expected = if pretty {
                json::to_pretty_vec(&empty)
            } else {
                json::to_vec(&empty)
            };
            assert_eq!(json_list(&envelope, &[], pretty), expected);
        }
    }
}
