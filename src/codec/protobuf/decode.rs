//! Protobuf message bytes → canonical JSON [`Value`], walking a [`Msg`] table.
//!
//! Reading follows gogo's generated `Unmarshal`: fields in any order, unknown fields skipped,
//! the last occurrence of a scalar wins, repeated occurrences of an embedded message merge
//! (decoded here by concatenating their bytes, which is protobuf's merge), map entries with a
//! missing key or value get `""`, and a wire type that does not match a known field is
//! `proto: wrong wireType = N for field Name`.
//!
//! Writing the result follows Go's `encoding/json` on the same struct, so the Value is the JSON
//! kube-apiserver would send: keys in Go struct order, `omitempty` scalars and collections
//! left out when zero, structs always present, pointers present exactly when set, a zero
//! `metav1.Time` as `null` (or absent under `omitzero`), map keys sorted, and `RawExtension` /
//! `FieldsV1` bytes parsed as JSON (a nil `raw` is `null`).

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::schema::{Field, Msg, Rule, Ty};
use super::wire::{read_fields, WireValue, LEN};
use crate::codec::{json, rfc3339};

/// What was read for one field.
#[derive(Debug, Clone, Default)]
enum Slot<'a> {
    /// Not on the wire.
    #[default]
    Unset,
    /// Last varint seen.
    Varint(u64),
    /// Last payload seen (strings, `metav1.Time`, which gogo replaces rather than merges).
    Last(&'a [u8]),
    /// Concatenated payloads of a singular embedded message (protobuf merge).
    Merged(Vec<u8>),
    /// Every occurrence of a repeated or map field.
    List(Vec<&'a [u8]>),
}

/// Where a message sits: the enclosing envelope's apiVersion (for list items whose JSON
/// carries TypeMeta that protobuf does not, `PartialObjectMetadataList`) and the envelope
/// nesting level (see [`super::decode_at`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ctx<'a> {
    /// The enclosing envelope's `typeMeta.apiVersion`.
    pub api_version: &'a str,
    /// How many envelopes enclose this message.
    pub depth: usize,
    /// The kinds an enclosed envelope may hold.
    pub scheme: &'a dyn super::Scheme,
}

/// Decodes `data` as the message `msg`.
pub(crate) fn message(
    msg: &'static Msg,
    data: &[u8],
    ctx: Ctx<'_>,
) -> Result<Map<String, Value>, String> {
    let mut slots: Vec<Slot<'_>> = vec![Slot::Unset; msg.fields.len()];
    for wf in read_fields(data, msg.name)? {
        let Some(idx) = msg.fields.iter().position(|f| f.num == wf.num) else {
            continue;
        };
        let f = &msg.fields[idx];
        let slot = &mut slots[idx];
        match (wf.value, f.wire_type() == LEN) {
            (WireValue::Varint(v), false) => *slot = Slot::Varint(v),
            (WireValue::Len(b), true) => match f.ty {
                _ if f.repeated() => match slot {
                    Slot::List(items) => items.push(b),
                    _ => *slot = Slot::List(vec![b]),
                },
                Ty::Message(_) | Ty::RawJson | Ty::RawObject => match slot {
                    Slot::Merged(acc) => acc.extend_from_slice(b),
                    _ => *slot = Slot::Merged(b.to_vec()),
                },
                _ => *slot = Slot::Last(b),
            },
            _ => {
                return Err(format!(
                    "proto: wrong wireType = {} for field {}",
                    wf.wire_type, f.go
                ))
            }
        }
    }
    let mut out = Map::new();
    for (f, slot) in msg.fields.iter().zip(&slots) {
        if let Some(v) = emit(f, slot, ctx)? {
            out.insert(f.json.to_string(), v);
        }
    }
    Ok(out)
}

/// The JSON member for one field, or `None` when Go's encoder would leave it out.
fn emit(f: &Field, slot: &Slot<'_>, ctx: Ctx<'_>) -> Result<Option<Value>, String> {
    if matches!(slot, Slot::Unset) && f.rule == Rule::Pointer {
        return Ok(None);
    }
    let v = value(f, slot, ctx)?;
    let keep = match f.rule {
        Rule::Always | Rule::Pointer => true,
        // Go never treats a struct (Time, RawExtension, embedded message) as empty.
        Rule::OmitEmpty => {
            matches!(
                f.ty,
                Ty::Time | Ty::MicroTime | Ty::Message(_) | Ty::RawJson | Ty::RawObject
            ) || !is_empty(&v)
        }
        Rule::OmitZero => !v.is_null(),
    };
    Ok(keep.then_some(v))
}

/// Go's `omitempty` emptiness for the scalar and collection values produced here.
fn is_empty(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::Number(n) => n.as_i64() == Some(0),
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(m) => m.is_empty(),
    }
}

/// A `{repeated string items = 1}` message (`ExtraValue`, `Verbs`) as a JSON array.
fn strings_message(b: &[u8], name: &str) -> Result<Value, String> {
    let mut strings = Vec::new();
    for wf in read_fields(b, name)? {
        if let (1, WireValue::Len(b)) = (wf.num, wf.value) {
            strings.push(Value::String(text(b)));
        }
    }
    Ok(Value::Array(strings))
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The field's value (its zero value when unset).
fn value(f: &Field, slot: &Slot<'_>, ctx: Ctx<'_>) -> Result<Value, String> {
    let varint = match slot {
        Slot::Varint(v) => *v,
        _ => 0,
    };
    let bytes: &[u8] = match slot {
        Slot::Last(b) => b,
        Slot::Merged(b) => b,
        _ => &[],
    };
    let items: &[&[u8]] = match slot {
        Slot::List(items) => items,
        _ => &[],
    };
    Ok(match f.ty {
        Ty::Str => Value::String(text(bytes)),
        Ty::Int64 => Value::from(varint as i64),
        // gogo accumulates into an int32: the high bits are dropped.
        Ty::Int32 => Value::from(varint as i32),
        Ty::Bool => Value::Bool(varint != 0),
        Ty::Time => time(bytes, false)?,
        Ty::MicroTime => time(bytes, true)?,
        Ty::Message(m) => Value::Object(message(m, bytes, ctx)?),
        Ty::StrMap => {
            let mut map = BTreeMap::new();
            for entry in items {
                let (k, v) = map_entry(entry)?;
                map.insert(k, Value::String(v));
            }
            Value::Object(map.into_iter().collect())
        }
        Ty::StringsMap => {
            let mut map = BTreeMap::new();
            for entry in items {
                let (k, v) = bytes_entry(entry)?;
                map.insert(
                    k,
                    strings_message(v.as_deref().unwrap_or(&[]), "ExtraValue")?,
                );
            }
            Value::Object(map.into_iter().collect())
        }
        Ty::BytesMap => {
            use base64::Engine as _;
            let mut map = BTreeMap::new();
            for entry in items {
                let (k, v) = bytes_entry(entry)?;
                let v = v.map_or(Value::Null, |b| {
                    Value::String(base64::engine::general_purpose::STANDARD.encode(b))
                });
                map.insert(k, v);
            }
            Value::Object(map.into_iter().collect())
        }
        Ty::Strings => Value::Array(items.iter().map(|b| Value::String(text(b))).collect()),
        Ty::Verbs => match slot {
            Slot::Last(b) => strings_message(b, "Verbs")?,
            _ => Value::Null,
        },
        Ty::Messages(m, typed) => {
            let mut out = Vec::with_capacity(items.len());
            for item in items {
                let body = message(m, item, ctx)?;
                let obj = match typed {
                    Some(kind) => {
                        let mut o = Map::new();
                        o.insert("kind".into(), Value::String(kind.to_string()));
                        o.insert(
                            "apiVersion".into(),
                            Value::String(ctx.api_version.to_string()),
                        );
                        o.extend(body);
                        o
                    }
                    None => body,
                };
                out.push(Value::Object(obj));
            }
            Value::Array(out)
        }
        Ty::RawJson => match raw(bytes)? {
            None => Value::Null,
            Some(r) => json::parse(r)
                .map(|p| p.value)
                .map_err(|e| format!("{}: {}", f.json, e.message))?,
        },
        Ty::RawObject => match raw(bytes)? {
            None => Value::Null,
            Some(r) => super::decode_at(r, ctx.depth + 1, ctx.scheme)?,
        },
    })
}

/// `RawExtension.raw` / `FieldsV1.raw` (field 1). Empty bytes stay nil in Go
/// (`append(m.Raw[:0], ...)` of nothing onto nil), so they read as absent.
fn raw(data: &[u8]) -> Result<Option<&[u8]>, String> {
    let mut out = None;
    for wf in read_fields(data, "RawExtension")? {
        match (wf.num, wf.value) {
            (1, WireValue::Len(b)) => out = Some(b).filter(|b| !b.is_empty()),
            (1, _) => {
                return Err(format!(
                    "proto: wrong wireType = {} for field Raw",
                    wf.wire_type
                ))
            }
            _ => {}
        }
    }
    Ok(out)
}

/// One `map<string,string>` entry `{key = 1, value = 2}`; a missing half is `""`.
fn map_entry(data: &[u8]) -> Result<(String, String), String> {
    let (mut k, mut v) = (String::new(), String::new());
    for wf in read_fields(data, "MapEntry")? {
        let WireValue::Len(b) = wf.value else {
            continue;
        };
        match wf.num {
            1 => k = text(b),
            2 => v = text(b),
            _ => {}
        }
    }
    Ok((k, v))
}

/// A `map[string][]byte` entry: the key, and the value when present (nil otherwise).
fn bytes_entry(data: &[u8]) -> Result<(String, Option<Vec<u8>>), String> {
    let (mut k, mut v) = (String::new(), None);
    for wf in read_fields(data, "MapEntry")? {
        let WireValue::Len(b) = wf.value else {
            continue;
        };
        match wf.num {
            1 => k = text(b),
            2 => v = Some(b.to_vec()),
            _ => {}
        }
    }
    Ok((k, v))
}

/// `metav1.Time.Unmarshal` (and `MicroTime`'s, when `micro`): empty is the zero time
/// (`null`); otherwise `Timestamp` seconds, and for a `MicroTime` its nanoseconds (a `Time`
/// drops them, to match JSON's second precision).
fn time(data: &[u8], micro: bool) -> Result<Value, String> {
    if data.is_empty() {
        return Ok(Value::Null);
    }
    let mut secs: i64 = 0;
    let mut nanos: u32 = 0;
    for wf in read_fields(data, "Timestamp")? {
        match (wf.num, wf.value) {
            (1, WireValue::Varint(v)) => secs = v as i64,
            (2, WireValue::Varint(v)) => nanos = (v as i32).clamp(0, 999_999_999) as u32,
            (1, _) => {
                return Err(format!(
                    "proto: wrong wireType = {} for field Seconds",
                    wf.wire_type
                ))
            }
            (2, _) => {
                return Err(format!(
                    "proto: wrong wireType = {} for field Nanos",
                    wf.wire_type
                ))
            }
            _ => {}
        }
    }
    if secs == rfc3339::ZERO_TIME_UNIX && (!micro || nanos == 0) {
        return Ok(Value::Null);
    }
    Ok(Value::String(if micro {
        rfc3339::format_micro(secs, nanos)
    } else {
        rfc3339::format(secs)
    }))
}
