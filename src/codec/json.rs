//! JSON bytes exactly as kube-apiserver writes and reads them (Go `encoding/json`).
//!
//! Writing: Go escapes `<`, `>`, `&`, U+2028 and U+2029, writes `\b \f \n \r \t` short and
//! other control characters as `\u00XX` (lower-case hex), and formats floats like ES6
//! (`1e+21`, `1e-7`, `1000`). `json.Encoder` ends each document with `\n` ([`to_vec`]);
//! `json.MarshalIndent(obj, "", "  ")` (the `pretty` output) does not ([`to_pretty_vec`]).
//! Object keys are written in the [`Value`]'s insertion order: callers canonicalize first
//! (see [`crate::codec::decode`]).
//!
//! Reading: [`parse`] runs Go's scanner for the syntax errors (same texts and offsets), keeps
//! key order, decodes numbers the way sigs.k8s.io/json's `PreserveInts` does (an integer
//! without `.` that fits `int64` stays an integer, everything else is `float64`), replaces
//! invalid UTF-8 and bad surrogates with U+FFFD as Go does, and reports duplicate keys as the
//! field paths Go's strict decoder prints (`duplicate field "metadata.labels.a"`).
//!
//! Deep nesting (Go accepts 10 000 levels) is handled without recursion.

use serde_json::{Number, Value};

/// Writes `v` as compact JSON with Go's escaping, without a trailing newline.
pub fn to_compact_string(v: &Value) -> String {
    let mut out = Vec::new();
    write_compact(v, &mut out);
    // Only ASCII escapes and whole UTF-8 sequences from `String`s were written.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Appends `v` as compact JSON with Go's escaping to `out` (no trailing newline).
pub fn write_compact(v: &Value, out: &mut Vec<u8>) {
    write(v, out, None);
}

/// The bytes `json.NewEncoder(w).Encode(v)` writes: compact JSON plus `"\n"`. This is every
/// non-pretty JSON response body and every JSON watch frame.
pub fn to_vec(v: &Value) -> Vec<u8> {
    let mut out = Vec::new();
    write_compact(v, &mut out);
    out.push(b'\n');
    out
}

/// `v` with every map's keys sorted, as Go marshals a `map[string]interface{}` (an
/// unstructured object): kubectl's output, its patches and last-applied annotations.
pub fn sorted_keys(v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            crate::sort::sort(&mut keys);
            Value::Object(
                keys.into_iter()
                    .map(|k| (k.clone(), sorted_keys(&m[k])))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted_keys).collect()),
        other => other.clone(),
    }
}

/// The bytes `json.MarshalIndent(v, "", "  ")` returns: two-space indentation, `": "` after
/// keys, `{}` and `[]` written inline when empty, and no trailing newline (kube-apiserver writes
/// these bytes as they are when `pretty` is on).
pub fn to_pretty_vec(v: &Value) -> Vec<u8> {
    let mut out = Vec::new();
    write(v, &mut out, Some(0));
    out
}

enum Frame<'a> {
    Array(std::slice::Iter<'a, Value>, bool),
    Object(serde_json::map::Iter<'a>, bool),
}

/// Appends `v` compact (`None`) or indented as a value nested `Some(depth)` levels deep in a
/// pretty document (so a collection encoder can write one item of a larger document).
pub fn write_at(v: &Value, out: &mut Vec<u8>, indent: Option<usize>) {
    write(v, out, indent);
}

/// Iterative writer shared by compact (`indent == None`) and pretty output; `Some(base)` is
/// the nesting depth of `root` in the document being written.
fn write(root: &Value, out: &mut Vec<u8>, indent: Option<usize>) {
    let pretty = indent.is_some();
    let base = indent.unwrap_or(0);
    let mut stack: Vec<Frame<'_>> = Vec::new();
    let mut next = Some(root);
    loop {
        if let Some(v) = next.take() {
            match v {
                Value::Array(a) if !a.is_empty() => {
                    out.push(b'[');
                    stack.push(Frame::Array(a.iter(), true));
                }
                Value::Object(m) if !m.is_empty() => {
                    out.push(b'{');
                    stack.push(Frame::Object(m.iter(), true));
                }
                scalar => write_scalar(scalar, out),
            }
        }
        let depth = stack.len();
        let Some(top) = stack.last_mut() else {
            return;
        };
        let (item, first) = match top {
            Frame::Array(it, first) => (it.next().map(|v| (None, v)), first),
            Frame::Object(it, first) => (it.next().map(|(k, v)| (Some(k), v)), first),
        };
        match item {
            Some((key, v)) => {
                if !*first {
                    out.push(b',');
                }
                *first = false;
                if pretty {
                    newline(out, base + depth);
                }
                if let Some(k) = key {
                    write_string(k, out);
                    out.push(b':');
                    if pretty {
                        out.push(b' ');
                    }
                }
                next = Some(v);
            }
            None => {
                let close = match top {
                    Frame::Array(..) => b']',
                    Frame::Object(..) => b'}',
                };
                stack.pop();
                if pretty {
                    newline(out, base + depth - 1);
                }
                out.push(close);
            }
        }
    }
}

fn newline(out: &mut Vec<u8>, depth: usize) {
    out.push(b'\n');
    for _ in 0..depth {
        out.extend_from_slice(b"  ");
    }
}

fn write_scalar(v: &Value, out: &mut Vec<u8>) {
    match v {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(true) => out.extend_from_slice(b"true"),
        Value::Bool(false) => out.extend_from_slice(b"false"),
        Value::Number(n) => out.extend_from_slice(format_number(n).as_bytes()),
        Value::String(s) => write_string(s, out),
        Value::Array(_) => out.extend_from_slice(b"[]"),
        Value::Object(_) => out.extend_from_slice(b"{}"),
    }
}

/// A number as Go writes it: integers in decimal, floats per [`format_go_float`].
pub fn format_number(n: &Number) -> String {
    if let Some(i) = n.as_i64() {
        i.to_string()
    } else if let Some(u) = n.as_u64() {
        u.to_string()
    } else {
        format_go_float(n.as_f64().unwrap_or(0.0))
    }
}

/// Go's `float64` encoding: shortest round-trip digits, plain notation for
/// `1e-6 <= |f| < 1e21` (`1000`, `0.000001`), otherwise exponent form with a signed exponent
/// (`1e+21`, `1.5e-7`).
pub fn format_go_float(f: f64) -> String {
    let abs = f.abs();
    if abs != 0.0 && !(1e-6..1e21).contains(&abs) {
        let s = format!("{f:e}");
        match s.split_once('e') {
            Some((mant, exp)) if !exp.starts_with('-') => format!("{mant}e+{exp}"),
            _ => s,
        }
    } else {
        format!("{f}")
    }
}

/// Writes a JSON string with Go's escaping (`escapeHTML` on, as `json.Marshal` and
/// `json.Encoder` use it).
pub fn write_string(s: &str, out: &mut Vec<u8>) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push(b'"');
    let bytes = s.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let esc: Option<&[u8]> = match b {
            b'"' => Some(b"\\\""),
            b'\\' => Some(b"\\\\"),
            0x08 => Some(b"\\b"),
            0x0c => Some(b"\\f"),
            b'\n' => Some(b"\\n"),
            b'\r' => Some(b"\\r"),
            b'\t' => Some(b"\\t"),
            _ => None,
        };
        if let Some(e) = esc {
            out.extend_from_slice(&bytes[start..i]);
            out.extend_from_slice(e);
            i += 1;
            start = i;
        } else if b < 0x20 || b == b'<' || b == b'>' || b == b'&' {
            out.extend_from_slice(&bytes[start..i]);
            out.extend_from_slice(b"\\u00");
            out.push(HEX[usize::from(b >> 4)]);
            out.push(HEX[usize::from(b & 0xf)]);
            i += 1;
            start = i;
        } else if b == 0xe2 && i + 2 < bytes.len() && bytes[i + 1] == 0x80 {
            // U+2028 / U+2029 are E2 80 A8 / E2 80 A9.
            match bytes[i + 2] {
                0xa8 | 0xa9 => {
                    out.extend_from_slice(&bytes[start..i]);
                    out.extend_from_slice(if bytes[i + 2] == 0xa8 {
                        b"\\u2028"
                    } else {
                        b"\\u2029"
                    });
                    i += 3;
                    start = i;
                }
                _ => i += 1,
            }
        } else {
            i += 1;
        }
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

// The reader lives in its own module (one concept per file); callers keep using `json::parse`.

pub(crate) use super::json_parse::{
    check_numbers, child_path, drop_raw, for_each_member, parse_raw, parse_written, raw_to_value,
    sent_managed_fields, top_level_member, type_meta_members, Raw, MAX_STRICT_ERRORS,
};
pub use super::json_parse::{parse, SyntaxError};

#[cfg(test)]
#[path = "json_tests.rs"]
mod tests;
