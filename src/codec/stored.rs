//! A stored object version and its JSON, encoded once for every reader.
//!
//! kube-apiserver's cacher wraps each object it hands to watchers in a `cachingObject`, which
//! keeps the object's serialized form per encoding so that a thousand watchers, or every list
//! that includes it, cost one encode and then copies. Here every version the store writes is
//! an [`Object`]: the value, shared by the store's history, the watch cache and its snapshots
//! (a clone is a reference count), and its compact JSON, written the first time a reader needs
//! it and then reused for every GET, list page and watch frame that carries this version. The
//! bytes are exactly `json::write_compact` of the value, so responses built from them are the
//! ones an encode of the value writes.

use std::sync::{Arc, OnceLock};

use serde_json::Value;

use super::json;

/// A stored object: immutable once written.
#[derive(Clone)]
pub struct Object(Arc<Stored>);

struct Stored {
    value: Value,
    json: OnceLock<Json>,
}

/// The compact JSON of a value, and where its members after `kind` and `apiVersion` start.
struct Json {
    bytes: Box<[u8]>,
    /// When the object's first two members are `kind` and `apiVersion` (every typed object the
    /// decoder canonicalizes), the offset of what follows them: a list item is `{` and the rest.
    rest_at: Option<usize>,
}

impl Object {
    /// A stored object holding `value`.
    pub fn new(value: Value) -> Self {
        Object(Arc::new(Stored {
            value,
            json: OnceLock::new(),
        }))
    }

    /// The value.
    pub fn value(&self) -> &Value {
        &self.0.value
    }

    /// An identity for this version while a handle to it is alive (frame memo keys).
    pub fn addr(&self) -> usize {
        Arc::as_ptr(&self.0) as *const u8 as usize
    }

    /// The compact JSON (no trailing newline).
    pub fn json(&self) -> &[u8] {
        &self.encoded().bytes
    }

    /// Appends this object as a typed list's item: compact, without `kind` and `apiVersion`
    /// (Go's list items have an empty TypeMeta), as an encode of the stripped value writes it.
    pub fn write_item(&self, out: &mut Vec<u8>) {
        let j = self.encoded();
        match j.rest_at {
            // `{` and the rest, which is `}` alone when nothing follows `apiVersion`.
            Some(at) => {
                out.push(b'{');
                out.extend_from_slice(&j.bytes[at..]);
            }
            None => json::write_compact(&without_type_meta(&self.0.value), out),
        }
    }

    fn encoded(&self) -> &Json {
        self.0.json.get_or_init(|| {
            let mut bytes = Vec::with_capacity(512);
            json::write_compact(&self.0.value, &mut bytes);
            let rest_at = type_meta_end(&self.0.value, &bytes);
            Json {
                bytes: bytes.into_boxed_slice(),
                rest_at,
            }
        })
    }
}

/// `value` without its `kind` and `apiVersion` members.
fn without_type_meta(value: &Value) -> Value {
    let mut v = value.clone();
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

impl std::ops::Deref for Object {
    type Target = Value;
    fn deref(&self) -> &Value {
        &self.0.value
    }
}

impl AsRef<Value> for Object {
    fn as_ref(&self) -> &Value {
        &self.0.value
    }
}

impl PartialEq for Object {
    fn eq(&self, other: &Object) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.0.value == other.0.value
    }
}

impl std::fmt::Debug for Object {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.value.fmt(f)
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
        ];
        for v in cases {
            let obj = Object::new(v.clone());
            let mut got = Vec::new();
            obj.write_item(&mut got);
            let mut want = Vec::new();
            json::write_compact(&without_type_meta(&v), &mut want);
            assert_eq!(
                String::from_utf8(got).unwrap(),
                String::from_utf8(want).unwrap()
            );
            assert_eq!(obj.json(), json::to_compact_string(&v).as_bytes());
        }
    }
}
