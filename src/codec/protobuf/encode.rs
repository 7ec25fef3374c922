//! Canonical JSON [`Value`] → protobuf message bytes, walking a [`Msg`] table.
//!
//! Follows gogo's generated `MarshalToSizedBuffer`: fields ascending by number; non-pointer
//! scalars and strings always written (zero when absent or `null`); non-pointer structs always
//! written (an empty struct is still a length-0 field); pointers only when set; repeated and
//! map fields one entry per element, map entries sorted by key. JSON members the table does not
//! know (`kind`, `apiVersion`, unknown fields) have no protobuf field and are dropped, as the Go
//! struct would have dropped them.

use serde_json::{Map, Value};

use super::schema::{Field, Msg, Rule, Ty};
use super::wire::Writer;
use crate::codec::{json, rfc3339};

/// Encodes `obj` as the message `msg` (no envelope). `path` prefixes error locations; `depth`
/// is the envelope nesting level (see [`super::encode_at`]).
pub(crate) fn message(
    msg: &'static Msg,
    obj: &Map<String, Value>,
    path: &str,
    depth: super::Nest<'_>,
) -> Result<Vec<u8>, String> {
    let mut w = Writer::new();
    for f in msg.wire_order() {
        let at = join(path, f.json);
        let v = obj.get(f.json).filter(|v| !v.is_null());
        if v.is_none() && f.rule == Rule::Pointer {
            continue;
        }
        write_field(&mut w, f, v, &at, depth)?;
    }
    Ok(w.buf)
}

/// A map's entries in Go's `sortkeys.Strings` order (byte-wise, `str`'s `Ord`); none when
/// absent.
fn sorted_entries<'a>(
    v: Option<&'a Value>,
    at: &str,
) -> Result<Vec<(&'a String, &'a Value)>, String> {
    let Some(v) = v else { return Ok(Vec::new()) };
    let Value::Object(o) = v else {
        return Err(type_error(at, "object", v));
    };
    let mut entries: Vec<(&String, &Value)> = o.iter().collect();
    crate::sort::sort_by(&mut entries, |a, b| a.0.cmp(b.0));
    Ok(entries)
}

fn join(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_string()
    } else {
        format!("{path}.{name}")
    }
}

fn type_error(at: &str, want: &str, got: &Value) -> String {
    format!("{at}: expected {want}, got {got}")
}

/// A `[]string` as its own message `{repeated string items = 1}` (`ExtraValue`, `Verbs`).
fn strings_message(v: Option<&Value>, at: &str) -> Result<Vec<u8>, String> {
    let mut items = Writer::new();
    for (i, item) in array(v, at)?.iter().enumerate() {
        let s = string(Some(item).filter(|v| !v.is_null()), &format!("{at}[{i}]"))?;
        items.string(1, s);
    }
    Ok(items.buf)
}

/// Writes one field; `v` is `None` when absent or `null` (then the zero value is written for
/// non-pointer fields; the caller already skipped unset pointers).
fn write_field(
    w: &mut Writer,
    f: &Field,
    v: Option<&Value>,
    at: &str,
    depth: super::Nest<'_>,
) -> Result<(), String> {
    let num = f.num;
    match f.ty {
        Ty::Str => w.string(num, string(v, at)?),
        Ty::Int64 => w.int64(num, int64(v, at)?),
        Ty::Int32 => {
            let n = int64(v, at)?;
            let n = i32::try_from(n).map_err(|_| format!("{at}: {n} does not fit int32"))?;
            w.int32(num, n);
        }
        Ty::Bool => match v {
            None => w.bool(num, false),
            Some(Value::Bool(b)) => w.bool(num, *b),
            Some(other) => return Err(type_error(at, "boolean", other)),
        },
        Ty::Time => {
            let s = string(v, at)?;
            w.bytes(num, &time(s, at)?);
        }
        Ty::MicroTime => {
            let s = string(v, at)?;
            w.bytes(num, &micro_time(s, at)?);
        }
        Ty::Message(m) => {
            let empty = Map::new();
            let obj = match v {
                None => &empty,
                Some(Value::Object(o)) => o,
                Some(other) => return Err(type_error(at, "object", other)),
            };
            w.bytes(num, &message(m, obj, at, depth)?);
        }
        Ty::StrMap => {
            for (k, val) in sorted_entries(v, at)? {
                let mut e = Writer::new();
                e.string(1, k);
                e.string(2, string(Some(val).filter(|v| !v.is_null()), &join(at, k))?);
                w.bytes(num, &e.buf);
            }
        }
        Ty::StringsMap => {
            for (k, val) in sorted_entries(v, at)? {
                let mut e = Writer::new();
                e.string(1, k);
                e.bytes(2, &strings_message(Some(val), &join(at, k))?);
                w.bytes(num, &e.buf);
            }
        }
        Ty::BytesMap => {
            for (k, val) in sorted_entries(v, at)? {
                let mut e = Writer::new();
                e.string(1, k);
                if let Some(text) = val.as_str() {
                    use base64::Engine as _;
                    let raw = base64::engine::general_purpose::STANDARD
                        .decode(text)
                        .map_err(|err| format!("{}: {err}", join(at, k)))?;
                    e.bytes(2, &raw);
                }
                w.bytes(num, &e.buf);
            }
        }
        // A pointer field: only written when present.
        Ty::Verbs => w.bytes(num, &strings_message(v, at)?),
        Ty::Strings => {
            for (i, item) in array(v, at)?.iter().enumerate() {
                let s = string(Some(item).filter(|v| !v.is_null()), &format!("{at}[{i}]"))?;
                w.string(num, s);
            }
        }
        Ty::Messages(m, _) => {
            let empty = Map::new();
            for (i, item) in array(v, at)?.iter().enumerate() {
                let item_at = format!("{at}[{i}]");
                let obj = match item {
                    Value::Null => &empty,
                    Value::Object(o) => o,
                    other => return Err(type_error(&item_at, "object", other)),
                };
                w.bytes(num, &message(m, obj, &item_at, depth)?);
            }
        }
        Ty::RawJson => {
            // RawExtension / FieldsV1 {raw = 1}: raw only when there is JSON to hold.
            let mut e = Writer::new();
            if let Some(v) = v {
                e.bytes(1, json::to_compact_string(v).as_bytes());
            }
            w.bytes(num, &e.buf);
        }
        Ty::RawObject => {
            let mut e = Writer::new();
            if let Some(v) = v {
                e.bytes(
                    1,
                    &super::encode_at(v, depth.deeper()).map_err(|err| format!("{at}: {err}"))?,
                );
            }
            w.bytes(num, &e.buf);
        }
    }
    Ok(())
}

fn string<'a>(v: Option<&'a Value>, at: &str) -> Result<&'a str, String> {
    match v {
        None => Ok(""),
        Some(Value::String(s)) => Ok(s),
        Some(other) => Err(type_error(at, "string", other)),
    }
}

fn int64(v: Option<&Value>, at: &str) -> Result<i64, String> {
    match v {
        None => Ok(0),
        Some(Value::Number(n)) => n
            .as_i64()
            .ok_or_else(|| format!("{at}: {n} is not an int64")),
        Some(other) => Err(type_error(at, "integer", other)),
    }
}

fn array<'a>(v: Option<&'a Value>, at: &str) -> Result<&'a [Value], String> {
    match v {
        None => Ok(&[]),
        Some(Value::Array(a)) => Ok(a),
        Some(other) => Err(type_error(at, "array", other)),
    }
}

/// `metav1.Time` as gogo writes it: nothing for the zero time, else `Timestamp{seconds, nanos}`
/// with both fields always present and nanos 0 (the JSON form has second precision). An empty
/// string is taken as the zero time (leniency: canonical values never hold one).
/// `metav1.MicroTime` as gogo writes it: nothing for the zero time, else
/// `Timestamp{seconds, nanos}` with the nanoseconds.
fn micro_time(s: &str, at: &str) -> Result<Vec<u8>, String> {
    if s.is_empty() {
        return Ok(Vec::new());
    }
    let t = rfc3339::parse_micro(s).map_err(|e| format!("{at}: {e}"))?;
    if t.is_go_zero() {
        return Ok(Vec::new());
    }
    let mut w = Writer::new();
    w.int64(1, t.unix);
    w.int32(2, t.nanos as i32);
    Ok(w.buf)
}

pub(crate) fn time(s: &str, at: &str) -> Result<Vec<u8>, String> {
    if s.is_empty() {
        return Ok(Vec::new());
    }
    let t = rfc3339::parse_full(s).map_err(|e| format!("{at}: {e}"))?;
    if t.unix == rfc3339::ZERO_TIME_UNIX {
        return Ok(Vec::new());
    }
    let mut w = Writer::new();
    w.int64(1, t.unix);
    w.int32(2, 0);
    Ok(w.buf)
}
