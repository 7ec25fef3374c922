//! Message tables derived from schema structs, so a kind describes its type once: its schema
//! fields carry their `generated.proto` numbers (`Field::pb`) and Go facts, and the protobuf
//! codec builds the table from them.
//!
//! Derivation rules, as gogo generates the Go marshallers: a field with number 0 is not in the
//! message (`kind`/`apiVersion` travel in the envelope); Go field names are the JSON names
//! with a capital (`uid` → `UID`, `apiVersion` → `APIVersion`, embedded `metadata` →
//! `ObjectMeta`); pointer fields are written when set, non-pointer scalars always; lists are
//! `ListMeta metadata = 1` and `repeated items = 2`. Meta structs (ObjectMeta, ListMeta) use
//! the hand-checked tables of `meta_v1`. Tables are built once per struct and shared.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use super::meta_v1;
use super::schema::{Field as PbField, Msg, Rule, Ty};
use crate::codec::schema::{Field, Struct, Type};

/// The message of `s`, or `None` when one of its numbered fields has no protobuf form.
pub fn message_of(s: &'static Struct) -> Option<&'static Msg> {
    if let Some(m) = meta_message(s) {
        return Some(m);
    }
    cached((s as *const Struct as usize, false), || build(s))
}

/// The list message of kind `s` (`<Kind>List`: `ListMeta metadata = 1`, `items = 2`).
pub fn list_message_of(s: &'static Struct) -> Option<&'static Msg> {
    let item = message_of(s)?;
    cached((s as *const Struct as usize, true), || {
        let fields = vec![
            PbField {
                json: "metadata",
                go: "ListMeta",
                num: 1,
                ty: Ty::Message(&meta_v1::LIST_META),
                rule: Rule::Always,
            },
            PbField {
                json: "items",
                go: "Items",
                num: 2,
                ty: Ty::Messages(item, None),
                rule: Rule::Always,
            },
        ];
        Some(Msg {
            name: leak(format!("{}List", go_type_name(s))),
            fields: Box::leak(fields.into_boxed_slice()),
        })
    })
}

type Cache = Mutex<HashMap<(usize, bool), Option<&'static Msg>>>;

/// Looks a table up, building it (outside the lock: building recurses) on first use.
fn cached(key: (usize, bool), make: impl FnOnce() -> Option<Msg>) -> Option<&'static Msg> {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(m) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return *m;
    }
    let built: Option<&'static Msg> = make().map(|m| &*Box::leak(Box::new(m)));
    *cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry(key)
        .or_insert(built)
}

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

/// The hand-checked tables of the meta structs kinds embed.
fn meta_message(s: &Struct) -> Option<&'static Msg> {
    match s.openapi_name {
        "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta" => Some(&meta_v1::OBJECT_META),
        "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta" => Some(&meta_v1::LIST_META),
        _ => None,
    }
}

/// The Go type's name (`ControllerRevision`).
fn go_type_name(s: &Struct) -> &'static str {
    s.openapi_name.rsplit('.').next().unwrap_or(s.openapi_name)
}

fn build(s: &'static Struct) -> Option<Msg> {
    let mut fields = Vec::new();
    for f in s.fields.iter().filter(|f| f.proto != 0) {
        fields.push(PbField {
            json: f.name,
            go: go_field_name(f),
            num: f.proto,
            ty: ty_of(&f.ty)?,
            rule: rule_of(f),
        });
    }
    Some(Msg {
        name: go_type_name(s),
        fields: Box::leak(fields.into_boxed_slice()),
    })
}

/// The Go field's name, as gogo's errors quote it.
fn go_field_name(f: &Field) -> &'static str {
    match (f.name, &f.ty) {
        ("metadata", Type::Object(s)) => go_type_name(s),
        ("uid", _) => "UID",
        ("apiVersion", _) => "APIVersion",
        (name, _) => {
            let mut chars = name.chars();
            match chars.next() {
                Some(c) => leak(c.to_uppercase().chain(chars).collect()),
                None => "",
            }
        }
    }
}

fn ty_of(t: &'static Type) -> Option<Ty> {
    Some(match t {
        Type::String => Ty::Str,
        Type::Int64 => Ty::Int64,
        Type::Int32 => Ty::Int32,
        Type::Boolean => Ty::Bool,
        Type::DateTime => Ty::Time,
        Type::MicroTime => Ty::MicroTime,
        Type::Any => Ty::RawJson,
        Type::Object(s) => Ty::Message(message_of(s)?),
        Type::Map(Type::String) => Ty::StrMap,
        Type::Map(Type::Bytes) => Ty::BytesMap,
        Type::Map(Type::Array(Type::String, _)) => Ty::StringsMap,
        Type::Array(Type::String, _) => Ty::Strings,
        Type::Array(Type::Object(s), _) => Ty::Messages(message_of(s)?, None),
        _ => return None,
    })
}

fn rule_of(f: &Field) -> Rule {
    if f.pointer {
        Rule::Pointer
    } else if f.omit_zero {
        Rule::OmitZero
    } else if f.omit_empty {
        Rule::OmitEmpty
    } else {
        Rule::Always
    }
}
