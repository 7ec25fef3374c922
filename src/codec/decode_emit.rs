//! Emission: Go's encoder over the filled struct — which fields `omitempty`, pointers and
//! `omitzero` keep, and the zero values Go writes — so the decoded object is the canonical
//! JSON the API server sends back.

use serde_json::{Map, Value};

use super::{is_empty_value, Slot};
use crate::codec::gotypes::{go_field, GoField};
use crate::codec::schema::{Struct, Type};

pub(super) fn emit_struct(s: &'static Struct, slots: &[Slot]) -> Map<String, Value> {
    let mut out = Map::new();
    for (f, slot) in s.fields.iter().zip(slots) {
        let g = go_field(f);
        let set = !matches!(slot, Slot::Zero);
        let emit = if !f.omit_empty {
            true
        } else if g.pointer {
            set
        } else {
            match f.ty {
                // Go never considers a struct (or RawExtension) empty; a zero metav1.Time is
                // written as null unless the tag also says omitzero.
                Type::Object(_) | Type::Any => true,
                Type::DateTime | Type::MicroTime => set || !g.omit_zero,
                _ => set && !is_empty_value(&emit_value(&f.ty, g, slot)),
            }
        };
        if emit {
            out.insert(f.name.to_string(), emit_value(&f.ty, g, slot));
        }
    }
    out
}

fn emit_value(ty: &'static Type, g: GoField, slot: &Slot) -> Value {
    let elem = GoField {
        elem_name: g.elem_name,
        ..GoField::default()
    };
    match (slot, ty) {
        (Slot::Zero, _) => zero_value(ty, g),
        (Slot::Val(v), _) => v.clone(),
        (Slot::Struct(slots), Type::Object(s)) => Value::Object(emit_struct(s, slots)),
        (Slot::Map(m), Type::Map(inner)) => Value::Object(
            m.iter()
                .map(|(k, v)| (k.clone(), emit_value(inner, elem, v)))
                .collect(),
        ),
        (Slot::List(items), Type::Array(inner, _)) => {
            Value::Array(items.iter().map(|v| emit_value(inner, elem, v)).collect())
        }
        _ => Value::Null,
    }
}

/// Go's zero value of the field as the encoder writes it.
fn zero_value(ty: &'static Type, g: GoField) -> Value {
    if g.pointer {
        return Value::Null;
    }
    match ty {
        Type::String => Value::String(String::new()),
        Type::Int64 | Type::Int32 => Value::from(0),
        Type::Boolean => Value::Bool(false),
        Type::Object(s) => Value::Object(emit_struct(s, &vec![Slot::Zero; s.fields.len()])),
        Type::DateTime
        | Type::MicroTime
        | Type::Bytes
        | Type::Map(_)
        | Type::Array(..)
        | Type::Any => Value::Null,
    }
}
