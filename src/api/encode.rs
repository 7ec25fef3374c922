//! The plug-in point between negotiated encodings and codecs: objects to bytes
//! ([`encode`], [`watch_frame`]) and request bodies to the JSON the decoder reads
//! ([`body_to_json`]).
//!
//! JSON, YAML and Protobuf are served; CBOR when `CBORServingAndStorage` is on (see
//! [`crate::api::negotiation::served`]). The binary codecs are `crate::codec::protobuf` and
//! `crate::codec::cbor`; their request bodies are decoded to the canonical object and handed
//! to the JSON decoder as JSON, so validation and field errors are shared.
//!
//! Typed lists are written item by item from the stored objects (JSON, YAML): the items are
//! never copied into a second list to be encoded.

use crate::codec::protobuf::Scheme;
use std::borrow::Cow;

use bytes::Bytes;
use serde_json::Value;

use super::negotiation::Encoding;
use crate::cache::watchers::EventType;
use crate::cache::Items;
use crate::codec::Object;
use crate::codec::{json, yaml};
use crate::resources::status::ApiError;

/// Whether an encoding's codec is wired in (negotiation serves only these).
pub fn codec_ready(enc: Encoding) -> bool {
    matches!(
        enc,
        Encoding::Json | Encoding::Yaml | Encoding::Protobuf | Encoding::Cbor
    )
}

/// What a response carries.
#[derive(Debug, Clone, Copy)]
pub enum Payload<'a> {
    Object(&'a Value),
    /// One stored object: JSON copies its bytes, other encodings read its value.
    Stored(&'a Object),
    /// A typed list: `envelope` has `kind`, `apiVersion` and `metadata`; `items` are stored
    /// objects, written without their `kind` and `apiVersion`.
    List {
        envelope: &'a Value,
        items: &'a Items,
    },
    /// A custom resource's list (`UnstructuredList`): keys sorted, the items whole.
    UnstructuredList {
        envelope: &'a Value,
        items: &'a Items,
    },
}

/// The response body for `payload` (`pretty`: `json.MarshalIndent` instead of `Encode`);
/// `scheme` is the served kinds, for protobuf.
pub fn encode(
    payload: Payload<'_>,
    enc: Encoding,
    pretty: bool,
    scheme: &dyn Scheme,
) -> Result<Vec<u8>, ApiError> {
    match (enc, payload) {
        (Encoding::Json, Payload::UnstructuredList { envelope, items }) if !pretty => {
            Ok(unstructured_json_list(envelope, items))
        }
        (_, Payload::UnstructuredList { envelope, items }) => {
            let mut list = envelope.clone();
            if let Some(m) = list.as_object_mut() {
                let items = items.iter().map(Object::decode).collect();
                m.insert("items".into(), Value::Array(items));
            }
            crate::resources::custom::canonical::sort_keys(&mut list);
            encode(Payload::Object(&list), enc, pretty, scheme)
        }
        (Encoding::Json, Payload::Stored(obj)) if !pretty => {
            let j = obj.json();
            let mut out = Vec::with_capacity(j.len() + 1);
            out.extend_from_slice(j);
            out.push(b'\n');
            Ok(out)
        }
        (_, Payload::Stored(obj)) => encode(Payload::Object(&obj.decode()), enc, pretty, scheme),
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
            let items: Vec<Value> = items.iter().map(Object::decode).collect();
            entries.push(("items", yaml::Node::Items(&items)));
            Ok(yaml::write_document(yaml::Node::Map(&entries)))
        }
        (Encoding::Protobuf, Payload::Object(v)) => binary_protobuf(v, scheme),
        (Encoding::Protobuf, Payload::List { envelope, items }) => {
            binary_protobuf(&whole_list(envelope, items), scheme)
        }
        (Encoding::Cbor, Payload::Object(v)) => Ok(crate::codec::cbor::encode_with(v, scheme)),
        (Encoding::Cbor, Payload::List { envelope, items }) => Ok(crate::codec::cbor::encode_with(
            &whole_list(envelope, items),
            scheme,
        )),
    }
}

/// An `UnstructuredList` in compact JSON: its members in key order, the items' stored JSON
/// copied whole.
fn unstructured_json_list(envelope: &Value, items: &Items) -> Vec<u8> {
    let items_len: usize = items.iter().map(|o| o.json().len() + 1).sum();
    let mut out = Vec::with_capacity(256 + items_len);
    let mut members: Vec<(&str, Option<&Value>)> = envelope
        .as_object()
        .map(|m| m.iter().map(|(k, v)| (k.as_str(), Some(v))).collect())
        .unwrap_or_default();
    members.push(("items", None));
    crate::sort::sort_by(&mut members, |a, b| a.0.cmp(b.0));
    out.push(b'{');
    for (i, (k, v)) in members.into_iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        json::write_string(k, &mut out);
        out.push(b':');
        match v {
            Some(v) => {
                let mut v = v.clone();
                crate::resources::custom::canonical::sort_keys(&mut v);
                json::write_compact(&v, &mut out);
            }
            None => {
                out.push(b'[');
                for (j, item) in items.iter().enumerate() {
                    if j > 0 {
                        out.push(b',');
                    }
                    out.extend_from_slice(item.json());
                }
                out.push(b']');
            }
        }
    }
    out.extend_from_slice(b"}\n");
    out
}

/// A protobuf body; a kind without a protobuf form is the serializer's error (406).
fn binary_protobuf(v: &Value, scheme: &dyn Scheme) -> Result<Vec<u8>, ApiError> {
    crate::codec::protobuf::encode(v, scheme).map_err(ApiError::not_acceptable)
}

/// `v` without `kind` and `apiVersion`.
fn without_type_meta(mut v: Value) -> Value {
    if let Some(m) = v.as_object_mut() {
        m.shift_remove("kind");
        m.shift_remove("apiVersion");
    }
    v
}

/// The whole list value for the binary codecs, which take one object. (Go's protobuf list
/// encoder also streams items; here the items are copied once into the list.)
fn whole_list(envelope: &Value, items: &Items) -> Value {
    let mut list = envelope.clone();
    let stripped: Vec<Value> = items
        .iter()
        .map(|o| without_type_meta(o.decode()))
        .collect();
    if let Some(m) = list.as_object_mut() {
        m.insert("items".into(), Value::Array(stripped));
    }
    list
}

/// A typed list as Go's streaming collection encoder writes it: `{"kind":..,"apiVersion":..,
/// "metadata":{..},"items":[..]}`, one item at a time, byte-identical to encoding the whole
/// list (compact with a trailing newline, or `MarshalIndent`'s two-space form). Compact items
/// are copies of each stored version's JSON, which is encoded once for all readers.
fn json_list(envelope: &Value, items: &Items, pretty: bool) -> Vec<u8> {
    // Sized for the compact form at once: the stored JSON of each item is known, so the
    // buffer never grows and copies. The items are gathered first (a run of the cache's
    // index is walked once), then each one's item slice is read (independent loads, which
    // the CPU overlaps), then the slices are summed and copied.
    let items: Vec<&Object> = items.iter().collect();
    let items: Vec<(&Object, Option<&[u8]>)> = items
        .into_iter()
        .map(|o| (o, if pretty { None } else { o.item_rest() }))
        .collect();
    let items_len: usize = if pretty {
        items.len() * 512
    } else {
        items
            .iter()
            .map(|(o, rest)| 2 + rest.map_or(o.json().len(), <[u8]>::len))
            .sum()
    };
    let mut out = Vec::with_capacity(256 + items_len);
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
    for (i, &(item, rest)) in items.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        if let Some(rest) = rest {
            // The item's JSON as stored, copied (encoded once per stored version).
            out.push(b'{');
            out.extend_from_slice(rest);
            continue;
        }
        if !pretty {
            item.write_item(&mut out);
            continue;
        }
        indent(&mut out, 2);
        let item = item.decode();
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

/// One watch frame in `enc`: JSON (the event object and a newline), protobuf (a
/// length-prefixed `WatchEvent` whose object is a full `k8s\0` body) or CBOR (one tagged
/// `WatchEvent` item of a `cbor-seq`).
pub fn watch_frame(kind: EventType, object: &Value, enc: Encoding, scheme: &dyn Scheme) -> Bytes {
    match enc {
        Encoding::Json | Encoding::Yaml => crate::cache::watchers::frame(kind, object),
        Encoding::Protobuf => {
            match crate::codec::protobuf::watch_frame(kind.as_str(), object, scheme) {
                Ok(frame) => Bytes::from(frame),
                // Every watched kind and Status have a protobuf form; should one not, the
                // client at least gets the event.
                Err(_) => crate::cache::watchers::frame(kind, object),
            }
        }
        Encoding::Cbor => Bytes::from(crate::codec::cbor::watch_event(
            kind.as_str(),
            object,
            scheme,
        )),
    }
}

/// [`watch_frame`] of a stored object: JSON frames copy the object's bytes, encoded once.
pub fn stored_watch_frame(
    kind: EventType,
    object: &Object,
    enc: Encoding,
    scheme: &dyn Scheme,
) -> Bytes {
    match enc {
        Encoding::Json | Encoding::Yaml => crate::cache::watchers::stored_frame(kind, object),
        _ => watch_frame(kind, &object.decode(), enc, scheme),
    }
}

/// A request body as the JSON the decoder reads, plus the YAML strict pass's finding.
#[derive(Debug)]
pub struct JsonBody<'a> {
    pub json: Cow<'a, [u8]>,
    /// `yaml: unmarshal errors:\n  line N: ...`.
    pub yaml_strict: Option<String>,
}

/// Converts a request body of `enc` to JSON. `Err` is the decoder's message (reported as the
/// "unrecognized object" 400 by the caller). `target` is the `(apiVersion, kind)` the body is
/// decoded into, when typed (CBOR `[]byte` fields depend on it).
pub fn body_to_json<'a>(
    bytes: &'a [u8],
    enc: Encoding,
    scheme: &dyn Scheme,
    target: Option<(&str, &str)>,
) -> Result<JsonBody<'a>, String> {
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
        Encoding::Protobuf => Ok(JsonBody {
            json: Cow::Owned(json::to_vec(&crate::codec::protobuf::decode(
                bytes, scheme,
            )?)),
            yaml_strict: None,
        }),
        // The CBOR serializer's typed decode reads TypeMeta first (`Interpret`), which any
        // malformed document or duplicate key fails.
        Encoding::Cbor => Ok(JsonBody {
            json: Cow::Owned(json::to_vec(
                &crate::codec::cbor::decode_typed(
                    bytes,
                    target.and_then(|(v, k)| scheme.message(v, k)),
                )
                .map_err(|e| format!("unable to determine group/version/kind: {e}"))?,
            )),
            yaml_strict: None,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn streamed_json_list_equals_whole_list_encoding() {
        let items: Vec<Object> = vec![
            Object::new(
                json!({"kind": "K", "apiVersion": "v1", "metadata": {"name": "a", "labels": {"x": "<"}}, "n": [1, {}]}),
            ),
            Object::new(json!({"kind": "K", "apiVersion": "v1"})),
        ];
        let envelope =
            json!({"kind": "KList", "apiVersion": "v1", "metadata": {"resourceVersion": "3"}});
        let mut whole = envelope.clone();
        whole["items"] = Value::Array(
            items
                .iter()
                .map(|o| {
                    let mut o = o.decode();
                    o.as_object_mut().unwrap().shift_remove("kind");
                    o.as_object_mut().unwrap().shift_remove("apiVersion");
                    o
                })
                .collect(),
        );
        let mut index = crate::store::index::OrdIndex::new();
        for (i, o) in items.iter().enumerate() {
            index.insert(format!("/r/{i}"), o.clone());
        }
        // A run of the cache's index is written as the same objects owned would be.
        let run = Items::Run {
            index,
            from: "/r/".into(),
            len: items.len(),
        };
        let items = Items::Owned(items);
        for pretty in [false, true] {
            let streamed = json_list(&envelope, &items, pretty);
            assert_eq!(json_list(&envelope, &run, pretty), streamed);
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
            assert_eq!(json_list(&envelope, &Items::default(), pretty), expected);
        }
    }
}
