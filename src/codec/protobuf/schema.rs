//! Message tables: one row per Go struct field, carrying both its protobuf form and its JSON form.
//!
//! A single table per message drives the encoder (Value → bytes) and the decoder (bytes →
//! canonical Value), so the two cannot disagree. Rows are listed in **Go struct order**, which
//! is the JSON key order kube-apiserver writes; the encoder sorts by field number, which is the
//! order gogo writes. Field numbers and Go names come from the `generated.proto` files of
//! `k8s.io/api` and `k8s.io/apimachinery` (reference §5.2).

/// What a field holds, on both sides of the codec.
#[derive(Debug, Clone, Copy)]
pub enum Ty {
    /// `string` (JSON string; proto length-delimited UTF-8).
    Str,
    /// `int64` (JSON integer; proto varint).
    Int64,
    /// `int32` (JSON integer; proto varint, sign-extended).
    Int32,
    /// `bool` (JSON boolean; proto varint 0/1).
    Bool,
    /// `metav1.Time`: JSON RFC 3339 string or `null`; proto `Timestamp{seconds = 1, nanos = 2}`,
    /// empty when zero, nanos always 0 (second precision, like JSON).
    Time,
    /// `metav1.MicroTime`: JSON RFC 3339 with six fractional digits, or `null`; proto
    /// `Timestamp{seconds = 1, nanos = 2}` with the nanoseconds kept, empty when zero.
    MicroTime,
    /// An embedded struct.
    Message(&'static Msg),
    /// `map[string]string`: proto repeated `{key = 1, value = 2}` entries sorted by key.
    StrMap,
    /// `map[string][]byte`: proto repeated `{key = 1, value = 2 (bytes)}` entries sorted by
    /// key; JSON values are base64. A `null` (nil) value has no `value` field.
    BytesMap,
    /// `map[string]ExtraValue` (`ExtraValue` is `[]string`): proto repeated `{key = 1, value =
    /// 2}` entries sorted by key, each value a message `{repeated string items = 1}`.
    StringsMap,
    /// `[]string`.
    Strings,
    /// `metav1.Verbs`: a `[]string` that is one message `{repeated string items = 1}` in
    /// proto, written when non-nil.
    Verbs,
    /// `[]T` of structs. `typed` names the kind each item carries in JSON (only
    /// `PartialObjectMetadata`: the server sets TypeMeta on those items, protobuf drops it).
    Messages(&'static Msg, Option<&'static str>),
    /// `runtime.RawExtension` or `metav1.FieldsV1` holding JSON: proto `{raw = 1}` with the
    /// compact JSON bytes (absent when the value is `null`).
    RawJson,
    /// `runtime.RawExtension` holding a whole object (`WatchEvent.object`): `raw` is the
    /// object's own `k8s\0` envelope.
    RawObject,
}

/// How presence works for a field, which decides both encodings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// Non-pointer, no `omitempty`: always in JSON; scalars always in proto.
    Always,
    /// Non-pointer with `omitempty`: left out of JSON when zero (structs and `metav1.Time` are
    /// never "empty" to Go, a zero Time is written `null`); scalars always in proto.
    OmitEmpty,
    /// `metav1.Time` with `omitzero` (`creationTimestamp`): a zero time is left out of JSON.
    OmitZero,
    /// A Go pointer: in JSON and proto exactly when set (an explicit zero is kept).
    Pointer,
}

/// One field of a message.
#[derive(Debug)]
pub struct Field {
    /// JSON name.
    pub json: &'static str,
    /// Go field name, quoted in gogo's `proto: wrong wireType = 2 for field Generation`.
    pub go: &'static str,
    /// Protobuf field number.
    pub num: u32,
    /// Value type.
    pub ty: Ty,
    /// Presence rule.
    pub rule: Rule,
}

/// One message (Go struct).
#[derive(Debug)]
pub struct Msg {
    /// Go type name, quoted in gogo's errors (`proto: ObjectMeta: illegal tag 0 ...`).
    pub name: &'static str,
    /// Fields in Go struct (JSON) order.
    pub fields: &'static [Field],
}

/// A table row (kept `const` so the tables read like the Go structs they mirror).
pub const fn field(json: &'static str, go: &'static str, num: u32, ty: Ty, rule: Rule) -> Field {
    Field {
        json,
        go,
        num,
        ty,
        rule,
    }
}

impl Msg {
    /// Fields in ascending field-number order: the order gogo writes them.
    pub fn wire_order(&self) -> Vec<&'static Field> {
        let mut v: Vec<&'static Field> = self.fields.iter().collect();
        crate::sort::sort_by_key(&mut v, |f| f.num);
        v
    }
}

impl Field {
    /// The wire type this field's values use.
    pub fn wire_type(&self) -> u8 {
        match self.ty {
            Ty::Int64 | Ty::Int32 | Ty::Bool => super::wire::VARINT,
            _ => super::wire::LEN,
        }
    }

    /// Whether the field may occur many times (each occurrence is one element).
    pub fn repeated(&self) -> bool {
        matches!(
            self.ty,
            Ty::StrMap | Ty::BytesMap | Ty::StringsMap | Ty::Strings | Ty::Messages(..)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::super::derive::{list_message_of, message_of};
    use super::super::meta_v1 as meta;
    use super::*;
    use crate::resources::schema as kinds;

    /// Every table: field numbers unique, JSON names unique.
    #[test]
    fn tables_are_consistent() {
        let all: &[&Msg] = &[
            &meta::OBJECT_META,
            &meta::LIST_META,
            &meta::SHARD_INFO,
            &meta::OWNER_REFERENCE,
            &meta::MANAGED_FIELDS_ENTRY,
            &meta::STATUS,
            &meta::STATUS_DETAILS,
            &meta::STATUS_CAUSE,
            &meta::DELETE_OPTIONS,
            &meta::PRECONDITIONS,
            &meta::PARTIAL_OBJECT_METADATA,
            &meta::PARTIAL_OBJECT_METADATA_LIST,
            &meta::WATCH_EVENT,
            message_of(&kinds::CONTROLLER_REVISION).unwrap(),
            list_message_of(&kinds::CONTROLLER_REVISION).unwrap(),
            message_of(&kinds::NAMESPACE).unwrap(),
            message_of(&kinds::NAMESPACE_SPEC).unwrap(),
            message_of(&kinds::NAMESPACE_STATUS).unwrap(),
            message_of(&kinds::NAMESPACE_CONDITION).unwrap(),
            list_message_of(&kinds::NAMESPACE).unwrap(),
            message_of(&crate::resources::configmap::CONFIG_MAP).unwrap(),
            list_message_of(&crate::resources::configmap::CONFIG_MAP).unwrap(),
        ];
        for m in all {
            for (i, a) in m.fields.iter().enumerate() {
                for b in &m.fields[i + 1..] {
                    assert_ne!(a.num, b.num, "{}: duplicate number", m.name);
                    assert_ne!(a.json, b.json, "{}: duplicate json name", m.name);
                }
                assert!(a.num > 0 && a.num < 536_870_912, "{}.{}", m.name, a.go);
            }
        }
    }

    #[test]
    fn wire_order_is_ascending() {
        let nums: Vec<u32> = meta::OWNER_REFERENCE
            .wire_order()
            .iter()
            .map(|f| f.num)
            .collect();
        assert_eq!(nums, [1, 3, 4, 5, 6, 7]);
        let json: Vec<&str> = meta::OWNER_REFERENCE
            .fields
            .iter()
            .map(|f| f.json)
            .collect();
        assert_eq!(
            json,
            [
                "apiVersion",
                "kind",
                "name",
                "uid",
                "controller",
                "blockOwnerDeletion"
            ]
        );
    }
}
