//! Where the codec is in a typed object: the Go type at a value, as far as CBOR cares. Only
//! `[]byte` differs from the JSON data model (tag 22 around raw bytes on the wire, base64 text
//! in kubesim's values), so the kind's message table (the one protobuf uses) is enough.

use crate::codec::protobuf::schema::{Msg, Ty};

/// What the Go type at a value is, as far as the codec cares: a struct (its message
/// table), a slice of structs, a `map[string][]byte`, a `[]byte`, or anything else.
#[derive(Clone, Copy)]
pub(crate) enum Hint {
    None,
    Struct(&'static Msg),
    Structs(&'static Msg),
    BytesMap,
    Bytes,
}

impl Hint {
    /// The hint of the member `key` of a value with this hint.
    pub(super) fn member(self, key: &str) -> Hint {
        match self {
            Hint::Struct(m) => match m.fields.iter().find(|f| f.json == key).map(|f| f.ty) {
                Some(Ty::Message(m)) => Hint::Struct(m),
                Some(Ty::Messages(m, _)) => Hint::Structs(m),
                Some(Ty::BytesMap) => Hint::BytesMap,
                _ => Hint::None,
            },
            Hint::BytesMap => Hint::Bytes,
            _ => Hint::None,
        }
    }

    /// The hint of an item of an array with this hint.
    pub(super) fn item(self) -> Hint {
        match self {
            Hint::Structs(m) => Hint::Struct(m),
            _ => Hint::None,
        }
    }
}
