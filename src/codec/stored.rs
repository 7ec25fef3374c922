//! A stored object version, kept as its JSON and encoded once for every reader.
//!
//! kube-apiserver's cacher wraps each object it hands to watchers in a `cachingObject`, which
//! keeps the object's serialized form per encoding so that a thousand watchers, or every list
//! that includes it, cost one encode and then copies; etcd itself keeps only bytes. Here every
//! version the store writes is an [`Object`]: its compact JSON, written once when the store
//! takes the value, shared by the store's history, the watch cache and its snapshots (a clone
//! is a reference count), and copied into every GET, list page and watch frame that carries
//! this version. No decoded tree is kept: a tree of `serde_json::Value`s costs about ten times
//! its JSON, so a reader that needs the value ([`Object::decode`]: writes, selectors, the
//! controllers, the other encodings) decodes it, as the real server decodes what etcd returns.
//! The bytes are exactly `json::write_compact` of the value, and decoding them gives the value
//! back (checked on every store in debug builds).

use triomphe::{Arc, HeaderSlice};

use serde_json::value::RawValue;
use serde_json::Value;

use super::json;

/// A stored object: immutable once written.
/// One allocation per version: the header and the JSON after it, in the `Arc`'s own block
/// (triomphe's `HeaderSlice`). With the JSON in a second allocation, a list of thousands
/// touched two scattered places per item, the reference count and the bytes.
#[derive(Clone)]
pub struct Object(Arc<HeaderSlice<Stored, [u8]>>);

/// What a version keeps beside its compact JSON (the slice after this header).
struct Stored {
    /// When the object's first two members are `kind` and `apiVersion` (every typed object the
    /// decoder canonicalizes), the offset of what follows them: a list item is `{` and the
    /// rest. `u32::MAX` when they are not.
    rest_at: u32,
    /// The value itself, kept only when its JSON does not give it back: a float with an
    /// integral value is written as Go writes it (`1`), which reads back as an integer, and
    /// the encodings that tell them apart (CBOR) must still see the float.
    lossy: Option<Box<Value>>,
}

impl Object {
    /// A stored object holding `value`, encoded now.
    pub fn new(value: Value) -> Self {
        Self::encode(&value)
    }

    /// A stored object holding a copy of `value`, encoded now.
    pub fn encode(value: &Value) -> Self {
        let mut bytes = Vec::with_capacity(1024);
        json::write_compact(value, &mut bytes);
        let rest_at = type_meta_end(value, &bytes)
            .and_then(|at| u32::try_from(at).ok())
            .unwrap_or(u32::MAX);
        let lossy = has_integral_float(value).then(|| Box::new(value.clone()));
        let obj = Object(Arc::from_header_and_slice(
            Stored { rest_at, lossy },
            &bytes,
        ));
        debug_assert!(
            obj.decode() == *value,
            "a stored value does not survive its JSON: {}",
            String::from_utf8_lossy(obj.json())
        );
        obj
    }

    /// The value, decoded from the stored JSON (a new tree each call: hold on to it rather
    /// than decoding twice).
    pub fn decode(&self) -> Value {
        if let Some(v) = &self.0.header.lossy {
            return (**v).clone();
        }
        // serde_json stops at 128 levels; the project's own reader has no limit and reads
        // what the writer wrote just the same.
        serde_json::from_slice(&self.0.slice)
            .unwrap_or_else(|_| json::parse_written(&self.0.slice).unwrap_or(Value::Null))
    }

    /// Whether `other` is this very stored version (not an equal copy): what a write prepared
    /// against a version checks before it commits.
    pub fn same_version(&self, other: &Object) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    /// The object with only its top-level members named in `names` (in stored order), the
    /// others skipped unparsed: what a reader of identity and ownership needs (the garbage
    /// collector's graph, a namespace's deletion for admission) at a fraction of a full decode.
    pub fn decode_members(&self, names: &[&str]) -> Value {
        let mut out = serde_json::Map::new();
        if let Some(v) = &self.0.header.lossy {
            if let Value::Object(m) = &**v {
                out.extend(
                    m.iter()
                        .filter(|(k, _)| names.contains(&k.as_str()))
                        .map(|(k, v)| (k.clone(), v.clone())),
                );
            }
            return Value::Object(out);
        }
        json::for_each_member(&self.0.slice, |key, bytes| {
            if names.contains(&key) {
                let value = serde_json::from_slice(bytes)
                    .unwrap_or_else(|_| json::parse_written(bytes).unwrap_or(Value::Null));
                out.insert(key.to_string(), value);
            }
        });
        Value::Object(out)
    }

    /// The member `name` of the object's metadata, read from the JSON with everything else
    /// skipped unbuilt (admission's look at a namespace's deletion, on every namespaced write).
    pub fn metadata_member(&self, name: &str) -> Option<Value> {
        #[derive(serde::Deserialize)]
        struct Doc<'a> {
            #[serde(borrow, default)]
            metadata: Option<std::collections::BTreeMap<std::borrow::Cow<'a, str>, &'a RawValue>>,
        }
        if self.0.header.lossy.is_none() {
            if let Ok(doc) = serde_json::from_slice::<Doc<'_>>(&self.0.slice) {
                let raw = doc.metadata?.remove(name)?;
                return serde_json::from_slice(raw.get().as_bytes()).ok();
            }
        }
        // A tree kept for its floats, or nesting beyond serde_json's limit.
        self.decode_members(&["metadata"])
            .get("metadata")
            .and_then(|m| m.get(name))
            .cloned()
    }

    /// An identity for this version while a handle to it is alive (frame memo keys).
    pub fn addr(&self) -> usize {
        Arc::as_ptr(&self.0) as *const u8 as usize
    }

    /// The compact JSON (no trailing newline).
    pub fn json(&self) -> &[u8] {
        &self.0.slice
    }

    /// Appends this object as a typed list's item: compact, without `kind` and `apiVersion`
    /// (Go's list items have an empty TypeMeta), as an encode of the stripped value writes it.
    pub fn write_item(&self, out: &mut Vec<u8>) {
        match self.item_rest() {
            None => json::write_compact(&without_type_meta(self.decode()), out),
            Some(rest) => {
                out.push(b'{');
                out.extend_from_slice(rest);
            }
        }
    }

    /// What follows `{` in this object's list item form, when it is a slice of the stored
    /// JSON (the first two members are `kind` and `apiVersion`): `}` alone when nothing
    /// follows them. `None` when the item must be encoded from the value. A list gathers
    /// these once to size its buffer and then copy, touching each item's block once.
    pub fn item_rest(&self) -> Option<&[u8]> {
        match self.0.header.rest_at {
            u32::MAX => None,
            at => Some(&self.0.slice[at as usize..]),
        }
    }
}

/// Whether `value` holds a float whose JSON reads back as an integer (one without a fraction:
/// Go writes `1.0` as `1`, and up to 1e21 without an exponent).
fn has_integral_float(value: &Value) -> bool {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Number(n) if n.is_f64() && n.as_f64().is_some_and(|f| f.fract() == 0.0) => {
                return true
            }
            Value::Array(a) => stack.extend(a),
            Value::Object(m) => stack.extend(m.values()),
            _ => {}
        }
    }
    false
}

/// `value` without its `kind` and `apiVersion` members.
fn without_type_meta(mut v: Value) -> Value {
    if let Some(m) = v.as_object_mut() {
        m.shift_remove("kind");
        m.shift_remove("apiVersion");
    }
    v
}

/// The offset after `{"kind":K,"apiVersion":V,` (or of the closing brace when nothing follows)
/// when those are the value's first two members; the members' encodings are measured, not
/// searched for, so a string that contains the same text cannot mislead it.
fn type_meta_end(value: &Value, bytes: &[u8]) -> Option<usize> {
    let m = value.as_object()?;
    let mut it = m.iter();
    let (k1, v1) = it.next()?;
    let (k2, v2) = it.next()?;
    if k1 != "kind" || k2 != "apiVersion" {
        return None;
    }
    let mut head = Vec::with_capacity(64);
    head.push(b'{');
    json::write_string(k1, &mut head);
    head.push(b':');
    json::write_compact(v1, &mut head);
    head.push(b',');
    json::write_string(k2, &mut head);
    head.push(b':');
    json::write_compact(v2, &mut head);
    if !bytes.starts_with(&head) {
        return None;
    }
    match bytes.get(head.len()) {
        Some(b',') => Some(head.len() + 1),
        Some(b'}') => Some(head.len()),
        _ => None,
    }
}

impl PartialEq for Object {
    fn eq(&self, other: &Object) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.0.slice == other.0.slice
    }
}

impl std::fmt::Debug for Object {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&String::from_utf8_lossy(&self.0.slice))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The item form equals encoding the value without `kind` and `apiVersion`, whatever the
    /// value's shape.
    #[test]
    fn item_bytes_equal_encoding_the_stripped_value() {
        let cases = [
            json!({"kind": "ConfigMap", "apiVersion": "v1", "metadata": {"name": "a"}, "data": {"k": "v"}}),
            json!({"kind": "ConfigMap", "apiVersion": "v1"}),
            json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {}}),
            json!({"metadata": {"name": "kind"}, "kind": "X"}),
            json!({"kind": "K\"ind", "apiVersion": "a/v1", "x": "\u{2028}<>&"}),
            json!({"kind": "K"}),
            json!({}),
            json!({"kind": "K", "apiVersion": "v1", "data": {"a": 1.0, "b": [2.0, -0.0, 1e21]}}),
        ];
        for v in cases {
            let obj = Object::new(v.clone());
            let mut got = Vec::new();
            obj.write_item(&mut got);
            let mut want = Vec::new();
            json::write_compact(&without_type_meta(v.clone()), &mut want);
            assert_eq!(
                String::from_utf8(got).unwrap(),
                String::from_utf8(want).unwrap()
            );
            assert_eq!(obj.json(), json::to_compact_string(&v).as_bytes());
            assert_eq!(obj.decode(), v, "decoding gives the value back");
            let mut some = v.clone();
            if let Some(m) = some.as_object_mut() {
                m.retain(|k, _| k == "kind" || k == "data");
            }
            assert_eq!(obj.decode_members(&["kind", "data"]), some);
            assert_eq!(
                obj.metadata_member("name"),
                v.get("metadata").and_then(|m| m.get("name")).cloned()
            );
        }
    }
}
