//! The encoder: `modes.Encode` (fxamacker/cbor) applied to kubesim's JSON data model.
//!
//! Iterative rather than recursive: JSON bodies may nest 10 000 levels deep and Go's encoder
//! has no depth limit, while wasm's stack is small.

use serde_json::{Number, Value};

use super::hint::Hint;

/// Major types, shifted into the initial byte.
const MAJOR_UINT: u8 = 0x00;
const MAJOR_NINT: u8 = 0x20;
const MAJOR_BYTES: u8 = 0x40;
const MAJOR_ARRAY: u8 = 0x80;
const MAJOR_MAP: u8 = 0xa0;
/// Tag 22, "expected conversion to base64": the real encoder's `ByteSliceLaterFormatBase64`
/// wraps every Go `[]byte` in it.
const TAG_BASE64_LATER: u8 = 0xd6;

/// Appends a head (initial byte plus argument) in its shortest form, as `encodeHead` does:
/// arguments below 24 live in the initial byte, larger ones take 1, 2, 4 or 8 bytes.
pub(super) fn write_head(major: u8, arg: u64, out: &mut Vec<u8>) {
    if arg < 24 {
        out.push(major | arg as u8);
    } else if arg <= u64::from(u8::MAX) {
        out.extend_from_slice(&[major | 24, arg as u8]);
    } else if arg <= u64::from(u16::MAX) {
        out.push(major | 25);
        out.extend_from_slice(&(arg as u16).to_be_bytes());
    } else if arg <= u64::from(u32::MAX) {
        out.push(major | 26);
        out.extend_from_slice(&(arg as u32).to_be_bytes());
    } else {
        out.push(major | 27);
        out.extend_from_slice(&arg.to_be_bytes());
    }
}

/// Appends a Go string the way `StringToByteString` writes it: a byte string (major type 2),
/// whether it is a value or a map key.
pub(super) fn write_bytes_key(s: &str, out: &mut Vec<u8>) {
    write_head(MAJOR_BYTES, s.len() as u64, out);
    out.extend_from_slice(s.as_bytes());
}

/// Appends a number: integers as major type 0/1 (the JSON reader only produces `i64`; a `u64`
/// beyond it is written as Go writes a `uint64`), floats in the shortest exact width.
fn write_number(n: &Number, out: &mut Vec<u8>) {
    if let Some(i) = n.as_i64() {
        if i >= 0 {
            write_head(MAJOR_UINT, i as u64, out);
        } else {
            // -1 - i without overflow for i64::MIN: !i == -1 - i in two's complement.
            write_head(MAJOR_NINT, !i as u64, out);
        }
    } else if let Some(u) = n.as_u64() {
        write_head(MAJOR_UINT, u, out);
    } else {
        write_float(n.as_f64().unwrap_or(0.0), out);
    }
}

/// `ShortestFloat16`: float16 when the value survives the trip exactly (subnormals included),
/// else float32 when `float64(float32(f)) == f`, else float64. `serde_json` numbers are always
/// finite, so the NaN/Inf rejection of `NaNConvertReject`/`InfConvertReject` cannot arise.
pub(super) fn write_float(f: f64, out: &mut Vec<u8>) {
    if let Some(h) = f16_bits_exact(f) {
        out.push(0xf9);
        out.extend_from_slice(&h.to_be_bytes());
    } else if f64::from(f as f32) == f {
        out.push(0xfa);
        out.extend_from_slice(&(f as f32).to_bits().to_be_bytes());
    } else {
        out.push(0xfb);
        out.extend_from_slice(&f.to_bits().to_be_bytes());
    }
}

/// The IEEE 754 half-precision bits of a finite `f` if it is exactly representable, else
/// `None`.
pub(super) fn f16_bits_exact(f: f64) -> Option<u16> {
    let bits = f.to_bits();
    let sign = ((bits >> 48) & 0x8000) as u16;
    if f == 0.0 {
        return Some(sign);
    }
    let exp = ((bits >> 52) & 0x7ff) as i32 - 1023;
    let mant = bits & ((1u64 << 52) - 1);
    if (-14..=15).contains(&exp) {
        // Normal half: 10 mantissa bits, the low 42 of the double's 52 must be zero.
        if mant & ((1u64 << 42) - 1) != 0 {
            return None;
        }
        Some(sign | (((exp + 15) as u16) << 10) | (mant >> 42) as u16)
    } else if (-24..-14).contains(&exp) {
        // Subnormal half: the value must be a whole multiple of 2^-24.
        let full = mant | (1u64 << 52);
        let shift = (28 - exp) as u32; // 52 - (exp + 24)
        if full & ((1u64 << shift) - 1) != 0 {
            return None;
        }
        Some(sign | (full >> shift) as u16)
    } else {
        None
    }
}

/// Appends a `[]byte` held as base64 text the way the real encoder writes the bytes: tag 22
/// around a byte string of the raw bytes. (Text that is not base64 cannot come from a stored
/// object; it is written as the string it is.)
fn write_byte_slice(text: &str, out: &mut Vec<u8>) {
    use base64::Engine as _;
    match base64::engine::general_purpose::STANDARD.decode(text) {
        Ok(bytes) => {
            out.push(TAG_BASE64_LATER);
            write_head(MAJOR_BYTES, bytes.len() as u64, out);
            out.extend_from_slice(&bytes);
        }
        Err(_) => write_bytes_key(text, out),
    }
}

/// Appends the scalar `v` (anything but an array or object).
fn write_scalar(v: &Value, out: &mut Vec<u8>) {
    match v {
        Value::Null => out.push(0xf6),
        Value::Bool(false) => out.push(0xf4),
        Value::Bool(true) => out.push(0xf5),
        Value::Number(n) => write_number(n, out),
        Value::String(s) => write_bytes_key(s, out),
        Value::Array(_) | Value::Object(_) => {}
    }
}

/// Work left on an open container: the remaining elements (with their hint), or the
/// remaining entries with their keys already encoded and sorted, and their hints.
enum Frame<'a> {
    Array(std::slice::Iter<'a, Value>, Hint),
    Map(std::vec::IntoIter<(Vec<u8>, &'a Value, Hint)>),
}

/// Appends `root` (of the Go type `hint` describes) as one CBOR item (no self-described
/// tag).
pub(super) fn write_value(root: &Value, hint: Hint, out: &mut Vec<u8>) {
    let mut stack: Vec<Frame<'_>> = Vec::new();
    let mut next = Some((root, hint));
    loop {
        match next.take() {
            Some((Value::Array(items), hint)) => {
                write_head(MAJOR_ARRAY, items.len() as u64, out);
                stack.push(Frame::Array(items.iter(), hint.item()));
            }
            Some((Value::Object(map), hint)) => {
                write_head(MAJOR_MAP, map.len() as u64, out);
                // SortBytewiseLexical compares the encoded keys (head included).
                let mut entries: Vec<(Vec<u8>, &Value, Hint)> = map
                    .iter()
                    .map(|(k, v)| {
                        let mut key = Vec::with_capacity(k.len() + 3);
                        write_bytes_key(k, &mut key);
                        (key, v, hint.member(k))
                    })
                    .collect();
                crate::sort::sort_by(&mut entries, |a, b| a.0.cmp(&b.0));
                stack.push(Frame::Map(entries.into_iter()));
            }
            Some((Value::String(s), Hint::Bytes)) => write_byte_slice(s, out),
            Some((scalar, _)) => write_scalar(scalar, out),
            None => {}
        }
        match stack.last_mut() {
            None => return,
            Some(Frame::Array(items, hint)) => match items.next() {
                Some(v) => next = Some((v, *hint)),
                None => {
                    stack.pop();
                }
            },
            Some(Frame::Map(entries)) => match entries.next() {
                Some((key, v, hint)) => {
                    out.extend_from_slice(&key);
                    next = Some((v, hint));
                }
                None => {
                    stack.pop();
                }
            },
        }
    }
}
