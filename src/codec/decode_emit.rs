//! Emission: Go's encoder over the filled struct — which fields `omitempty`, pointers and
//! `omitzero` keep, and the zero values Go writes — so the decoded object is the canonical
//! JSON the API server sends back.

use serde_json::{Map, Value};

use super::{is_empty_value, Slot};
use crate::codec::gotypes::{go_field, GoField};
use crate::codec::schema::{Struct, Type};

/// Emits the filled struct, consuming its slots: each value is built once and moved into
/// the object (an `omitempty` field is tested on the value it would write).
pub(super) fn emit_struct(s: &'static Struct, slots: Vec<Slot>) -> Map<String, Value> {
    let mut out = Map::new();
    for (f, slot) in s.fields.iter().zip(slots) {
        let g = go_field(f);
        let set = !matches!(slot, Slot::Zero);
        let value = if !f.omit_empty {
            emit_value(&f.ty, g, slot)
        } else if g.pointer {
            if !set {
                continue;
            }
            emit_value(&f.ty, g, slot)
        } else {
            match f.ty {
                // Go never considers a struct (or RawExtension) empty; a zero metav1.Time is
                // written as null unless the tag also says omitzero.
                Type::Object(_) | Type::Any => emit_value(&f.ty, g, slot),
                Type::DateTime | Type::MicroTime if set || !g.omit_zero => {
                    emit_value(&f.ty, g, slot)
                }
                Type::DateTime | Type::MicroTime => continue,
                _ if !set => continue,
                _ => {
                    let v = emit_value(&f.ty, g, slot);
                    if is_empty_value(&v) {
                        continue;
                    }
                    v
                }
            }
        };
        out.insert(f.name.to_string(), value);
    }
    out
}

fn emit_value(ty: &'static Type, g: GoField, slot: Slot) -> Value {
    let elem = GoField {
        elem_name: g.elem_name,
        ..GoField::default()
    };
    match (slot, ty) {
        (Slot::Zero, _) => zero_value(ty, g),
        (Slot::Val(v), _) => v,
        (Slot::Struct(slots), Type::Object(s)) => Value::Object(emit_struct(s, slots)),
        (Slot::Map(m), Type::Map(inner)) => Value::Object(
            m.into_iter()
                .map(|(k, v)| (k, emit_value(inner, elem, v)))
                .collect(),
        ),
        (Slot::Struct(slots), Type::Or(o)) => Value::Object(emit_struct(o.object, slots)),
        // Go writes the array form only when it has items (`items: []` reads back as null).
        (Slot::List(items), Type::Or(_)) if items.is_empty() => Value::Null,
        (list @ Slot::List(_), Type::Or(o)) => emit_value(o.array, GoField::default(), list),
        (Slot::List(items), Type::Array(inner, _)) => Value::Array(
            items
                .into_iter()
                .map(|v| emit_value(inner, elem, v))
                .collect(),
        ),
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
        Type::Float64 => Value::from(0),
        Type::Boolean => Value::Bool(false),
        Type::Object(s) => Value::Object(emit_struct(s, vec![Slot::Zero; s.fields.len()])),
        Type::DateTime
        | Type::MicroTime
        | Type::Bytes
        | Type::Map(_)
        | Type::Array(..)
        | Type::Any
        | Type::Or(_) => Value::Null,
    }
}
