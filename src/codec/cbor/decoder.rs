//! The decoder: `modes.Decode` (fxamacker/cbor) as kube-apiserver configures it.
//!
//! Like fxamacker/cbor it works in two passes. [`Decoder::wellformed`] (in `wellformed.rs`)
//! checks the syntax and the limits (and rejects bignums, NaN and infinities) before anything
//! is built; the value pass here then assumes well-formed input and, like Go, keeps going
//! after a bad element so that the error reported is the one Go reports (the first, except a
//! duplicate key, which wins within its map). Recursion is bounded by the 64-level nesting
//! limit checked first.

use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine as _;
use serde_json::{Map, Number, Value};

use super::hint::Hint;
use super::timetag;

/// Go's `io.ErrUnexpectedEOF` text.
pub(super) const UNEXPECTED_EOF: &str = "unexpected EOF";
/// The Go type an `Unstructured` body decodes into, as `reflect` prints it.
const GO_MAP: &str = "map[string]interface {}";

/// Major types (high three bits of the initial byte).
pub(super) const UINT: u8 = 0;
pub(super) const NINT: u8 = 1;
pub(super) const BYTES: u8 = 2;
pub(super) const TEXT: u8 = 3;
pub(super) const ARRAY: u8 = 4;
pub(super) const MAP: u8 = 5;
pub(super) const TAG: u8 = 6;
pub(super) const SIMPLE: u8 = 7;

/// Tag numbers with built-in meaning.
const TAG_RFC3339: u64 = 0;
const TAG_EPOCH: u64 = 1;
pub(super) const TAG_BIGNUM_POS: u64 = 2;
pub(super) const TAG_BIGNUM_NEG: u64 = 3;
const TAG_BASE64URL: u64 = 21;
const TAG_BASE64: u64 = 22;
const TAG_BASE16: u64 = 23;
const TAG_SELF_DESCRIBED: u64 = 55799;

/// fxamacker's `cborType.String()`.
pub(super) fn type_name(major: u8) -> &'static str {
    match major {
        UINT => "positive integer",
        NINT => "negative integer",
        BYTES => "byte string",
        TEXT => "UTF-8 text string",
        ARRAY => "array",
        MAP => "map",
        TAG => "tag",
        _ => "primitives",
    }
}

/// `UnmarshalTypeError.Error()`.
fn type_error(cbor_type: &str, go_type: &str, msg: Option<String>) -> String {
    match msg {
        Some(m) => {
            format!("cbor: cannot unmarshal {cbor_type} into Go value of type {go_type} ({m})")
        }
        None => format!("cbor: cannot unmarshal {cbor_type} into Go value of type {go_type}"),
    }
}

/// `UnacceptableDataItemError.Error()`.
pub(super) fn unacceptable(cbor_type: &str, msg: &str) -> String {
    format!("cbor: data item of cbor type {cbor_type} is not accepted by protocol: {msg}")
}

/// The simple-value error `modes.Decode`'s registry produces for everything but
/// false/true/null.
fn rejected_simple(val: u64) -> String {
    unacceptable(
        "primitives",
        &format!("simple value {val} is not recognized"),
    )
}

/// Half-precision bits as `f64` (exact).
pub(super) fn f16_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((h >> 10) & 0x1f);
    let mant = f64::from(h & 0x3ff);
    match exp {
        0 => sign * mant * 2f64.powi(-24),
        31 if mant == 0.0 => sign * f64::INFINITY,
        31 => f64::NAN,
        _ => sign * (1024.0 + mant) * 2f64.powi(exp - 25),
    }
}

/// A cursor over one input, plus the stack of "expected later encoding" tags in force.
pub(super) struct Decoder<'a> {
    /// The whole input.
    pub(super) data: &'a [u8],
    /// The next byte to read.
    pub(super) off: usize,
    /// Tags 21/22/23 enclosing the cursor, innermost last (the nearest one applies).
    later_encoding: Vec<u64>,
    /// The Go type of the item at the cursor, when decoding a typed object.
    hint: Hint,
}

impl<'a> Decoder<'a> {
    /// A decoder at the start of `data`.
    pub(super) fn new(data: &'a [u8]) -> Self {
        Decoder {
            data,
            off: 0,
            later_encoding: Vec::new(),
            hint: Hint::None,
        }
    }

    /// Decodes the next item as the Go type `hint` describes.
    pub(super) fn set_hint(&mut self, hint: Hint) {
        self.hint = hint;
    }

    /// The read offset (after [`Self::wellformed`], the end of the first item).
    pub(super) fn offset(&self) -> usize {
        self.off
    }

    /// Back to the start, for the value pass after the well-formedness pass.
    pub(super) fn rewind(&mut self) {
        self.off = 0;
        self.later_encoding.clear();
    }

    /// The major type of the next item.
    fn peek_major(&self) -> u8 {
        self.data[self.off] >> 5
    }

    /// `getHead`: major type, additional information, argument.
    pub(super) fn head(&mut self) -> (u8, u8, u64) {
        let b = self.data[self.off];
        let (major, ai) = (b >> 5, b & 0x1f);
        self.off += 1;
        let arg_len = match ai {
            24 => 1,
            25 => 2,
            26 => 4,
            27 => 8,
            _ => return (major, ai, u64::from(ai)),
        };
        let val = self.data[self.off..self.off + arg_len]
            .iter()
            .fold(0u64, |acc, &b| (acc << 8) | u64::from(b));
        self.off += arg_len;
        (major, ai, val)
    }

    /// Whether the next byte is the break code; consumes it if so.
    fn found_break(&mut self) -> bool {
        if self.data[self.off] == 0xff {
            self.off += 1;
            true
        } else {
            false
        }
    }

    /// Moves past the next item.
    fn skip(&mut self) {
        let (major, ai, val) = self.head();
        if ai == 31 && matches!(major, BYTES | TEXT | ARRAY | MAP) {
            while !self.found_break() {
                self.skip();
            }
            return;
        }
        match major {
            BYTES | TEXT => self.off += val as usize,
            ARRAY => (0..val).for_each(|_| self.skip()),
            MAP => (0..val * 2).for_each(|_| self.skip()),
            TAG => self.skip(),
            _ => {}
        }
    }

    /// Runs `f` on the item at the cursor and, if it fails, leaves the cursor after the item
    /// (Go's decoder always consumes the whole item, so the next element is read correctly).
    fn whole<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T, String>) -> Result<T, String> {
        let start = self.off;
        let r = f(self);
        if r.is_err() {
            self.off = start;
            self.skip();
        }
        r
    }

    /// Drops leading self-described tags (55799), which carry no meaning.
    fn strip_self_described(&mut self) {
        while self.peek_major() == TAG {
            let save = self.off;
            if self.head().2 != TAG_SELF_DESCRIBED {
                self.off = save;
                break;
            }
        }
    }

    /// `validBuiltinTag` over the chain of tags at the cursor: time tags need a text string or
    /// a number, bignum tags a byte string. The cursor is left where it was.
    fn check_builtin_tags(&mut self) -> Result<(), String> {
        let save = self.off;
        while self.peek_major() == TAG {
            let tag = self.head().2;
            let next = self.data[self.off];
            let got = type_name(next >> 5);
            let err = match tag {
                TAG_RFC3339 if next >> 5 != TEXT => Some(format!(
                    "cbor: tag number 0 must be followed by text string, got {got}"
                )),
                TAG_EPOCH if !matches!(next >> 5, UINT | NINT) && !(0xf9..=0xfb).contains(&next) => {
                    Some(format!(
                        "cbor: tag number 1 must be followed by integer or floating-point number, got {got}"
                    ))
                }
                TAG_BIGNUM_POS | TAG_BIGNUM_NEG if next >> 5 != BYTES => Some(format!(
                    "cbor: tag number 2 or 3 must be followed by byte string, got {got}"
                )),
                _ => None,
            };
            if let Some(e) = err {
                self.off = save;
                return Err(e);
            }
        }
        self.off = save;
        Ok(())
    }

    /// The content of the byte or text string whose head was just read (chunks joined).
    /// Text chunks are validated one by one, as Go does.
    pub(super) fn string_bytes(&mut self, major: u8, ai: u8, len: u64) -> Result<Vec<u8>, String> {
        let mut out = Vec::new();
        let chunk = |d: &mut Self, len: u64, out: &mut Vec<u8>| {
            let bytes = &d.data[d.off..d.off + len as usize];
            d.off += len as usize;
            if major == TEXT && std::str::from_utf8(bytes).is_err() {
                return Err("cbor: invalid UTF-8 string".to_string());
            }
            out.extend_from_slice(bytes);
            Ok(())
        };
        if ai != 31 {
            chunk(self, len, &mut out)?;
            return Ok(out);
        }
        while !self.found_break() {
            let (_, _, len) = self.head();
            chunk(self, len, &mut out)?;
        }
        Ok(out)
    }

    /// A byte string as a Go string: text-encoded under the nearest tag 21/22/23, otherwise
    /// the bytes themselves (see [`go_string_lossy`]).
    fn byte_string_text(&self, bytes: &[u8]) -> String {
        match self.later_encoding.last() {
            Some(&TAG_BASE64URL) => URL_SAFE_NO_PAD.encode(bytes),
            Some(&TAG_BASE64) => STANDARD.encode(bytes),
            Some(&TAG_BASE16) => bytes.iter().map(|b| format!("{b:02x}")).collect(),
            _ => go_string_lossy(bytes),
        }
    }

    /// Decodes the item under a tag 21/22/23 with that tag in force.
    fn with_later_encoding<T>(
        &mut self,
        tag: u64,
        f: impl FnOnce(&mut Self) -> Result<T, String>,
    ) -> Result<T, String> {
        self.later_encoding.push(tag);
        let r = f(self);
        self.later_encoding.pop();
        r
    }

    /// `parseToValue` into an `interface{}`: the decoded value of the next item.
    pub(super) fn value_any(&mut self) -> Result<Value, String> {
        self.whole(|d| {
            d.strip_self_described();
            d.check_builtin_tags()?;
            d.parse(false)
        })
    }

    /// `parse`: an item as the default Go type (here, a JSON value).
    fn parse(&mut self, skip_self_described: bool) -> Result<Value, String> {
        if skip_self_described {
            self.strip_self_described();
        }
        self.check_builtin_tags()?;
        let start = self.off;
        let (major, ai, val) = self.head();
        match major {
            UINT if val > i64::MAX as u64 => Err(type_error(
                "positive integer",
                "int64",
                Some(format!("{val} overflows Go's int64")),
            )),
            UINT => Ok(Value::from(val as i64)),
            NINT if val > i64::MAX as u64 => Err(type_error(
                "negative integer",
                "int64",
                Some(format!("-{} overflows Go's int64", u128::from(val) + 1)),
            )),
            NINT => Ok(Value::from(!(val as i64))),
            BYTES => {
                let bytes = self.string_bytes(major, ai, val)?;
                // A typed `[]byte` takes a byte string's bytes as they are.
                if self.later_encoding.is_empty() && matches!(self.hint, Hint::Bytes) {
                    return Ok(Value::String(STANDARD.encode(bytes)));
                }
                Ok(Value::String(self.byte_string_text(&bytes)))
            }
            TEXT => {
                let bytes = self.string_bytes(major, ai, val)?;
                Ok(Value::String(String::from_utf8(bytes).unwrap_or_default()))
            }
            TAG => match val {
                TAG_RFC3339 | TAG_EPOCH => {
                    self.off = start;
                    timetag::decode_time_tag(self).map(Value::String)
                }
                TAG_BASE64URL | TAG_BASE64 | TAG_BASE16 => {
                    self.with_later_encoding(val, |d| d.parse(false))
                }
                _ => self.parse(false),
            },
            SIMPLE => match ai {
                20 => Ok(Value::Bool(false)),
                21 => Ok(Value::Bool(true)),
                22 => Ok(Value::Null),
                25 => Ok(float_value(f16_to_f64(val as u16))),
                26 => Ok(float_value(f64::from(f32::from_bits(val as u32)))),
                27 => Ok(float_value(f64::from_bits(val))),
                _ => Err(rejected_simple(val)),
            },
            ARRAY => self.array(ai, val),
            _ => {
                self.off = start;
                self.map_to_map().map(Value::Object)
            }
        }
    }

    /// `parseArray`: every element is decoded even after a failure; the first error wins.
    fn array(&mut self, ai: u8, len: u64) -> Result<Value, String> {
        let mut items = Vec::new();
        let mut err = None;
        let mut i = 0u64;
        let parent = self.hint;
        self.hint = parent.item();
        loop {
            if ai == 31 {
                if self.found_break() {
                    break;
                }
            } else if i == len {
                break;
            }
            match self.whole(|d| d.parse(true)) {
                Ok(v) => items.push(v),
                Err(e) => {
                    err.get_or_insert(e);
                }
            }
            i += 1;
        }
        self.hint = parent;
        match err {
            Some(e) => Err(e),
            None => Ok(Value::Array(items)),
        }
    }

    /// `parseMapToMap` into `map[string]interface{}`: keys decode as Go strings, values as
    /// `interface{}`. A bad key skips its value; a bad value drops the entry; the first error
    /// is kept, but a duplicate key replaces it and ends the map at once.
    fn map_to_map(&mut self) -> Result<Map<String, Value>, String> {
        let (_, ai, len) = self.head();
        let mut map = Map::new();
        let mut err = None;
        // Go reuses one key variable, so a null key (a no-op decode into string) repeats the
        // previous key; the first key starts out as "".
        let mut key = String::new();
        let mut i = 0u64;
        loop {
            if ai == 31 {
                if self.found_break() {
                    break;
                }
            } else if i == len {
                break;
            }
            if let Err(e) = self.whole(|d| d.value_string(&mut key)) {
                err.get_or_insert(e);
                self.skip();
                i += 1;
                continue;
            }
            let parent = self.hint;
            self.hint = parent.member(&key);
            let value = self.value_any();
            self.hint = parent;
            let value = match value {
                Ok(v) => v,
                Err(e) => {
                    err.get_or_insert(e);
                    i += 1;
                    continue;
                }
            };
            if map.insert(key.clone(), value).is_some() {
                let e = format!("cbor: found duplicate map key \"{key}\" at map element index {i}");
                i += 1;
                self.skip_rest_of_map(ai, len, i);
                return Err(e);
            }
            i += 1;
        }
        match err {
            Some(e) => Err(e),
            None => Ok(map),
        }
    }

    /// Skips the remaining pairs of a map whose `done` pairs have been read.
    fn skip_rest_of_map(&mut self, ai: u8, len: u64, done: u64) {
        if ai == 31 {
            while !self.found_break() {
                self.skip();
                self.skip();
            }
        } else {
            for _ in done..len {
                self.skip();
                self.skip();
            }
        }
    }

    /// `parseToValue` into a Go `string` (a map key). Strings (byte strings under tags
    /// 21-23 text-encoded) fill `key`; `null` leaves it unchanged; anything else is a type
    /// error naming `string`.
    fn value_string(&mut self, key: &mut String) -> Result<(), String> {
        self.strip_self_described();
        self.check_builtin_tags()?;
        let start = self.off;
        let (major, ai, val) = self.head();
        match major {
            UINT => Err(type_error("positive integer", "string", None)),
            NINT if val > i64::MAX as u64 => Err(type_error(
                "negative integer",
                "string",
                Some(format!("-{} overflows Go's int64", u128::from(val) + 1)),
            )),
            NINT => Err(type_error("negative integer", "string", None)),
            BYTES => {
                let bytes = self.string_bytes(major, ai, val)?;
                *key = self.byte_string_text(&bytes);
                Ok(())
            }
            TEXT => {
                let bytes = self.string_bytes(major, ai, val)?;
                *key = String::from_utf8(bytes).unwrap_or_default();
                Ok(())
            }
            TAG => match val {
                TAG_BASE64URL | TAG_BASE64 | TAG_BASE16 => {
                    self.with_later_encoding(val, |d| d.value_string(key))
                }
                _ => self.value_string(key),
            },
            SIMPLE => match ai {
                25..=27 | 20 | 21 => Err(type_error("primitives", "string", None)),
                22 => Ok(()),
                _ => Err(rejected_simple(val)),
            },
            _ => {
                self.off = start;
                self.skip();
                Err(type_error(type_name(major), "string", None))
            }
        }
    }

    /// `parseToValue` into `map[string]interface{}` (the top level of an `Unstructured`
    /// body): a map, or `None` for `null`; anything else is a type error naming the map type.
    pub(super) fn value_object(&mut self) -> Result<Option<Map<String, Value>>, String> {
        self.whole(|d| {
            d.strip_self_described();
            d.check_builtin_tags()?;
            let start = d.off;
            let (major, ai, val) = d.head();
            match major {
                MAP => {
                    d.off = start;
                    d.map_to_map().map(Some)
                }
                TAG => match val {
                    TAG_BASE64URL | TAG_BASE64 | TAG_BASE16 => {
                        d.with_later_encoding(val, |d| d.value_object())
                    }
                    _ => d.value_object(),
                },
                SIMPLE => match ai {
                    25..=27 | 20 | 21 => Err(type_error("primitives", GO_MAP, None)),
                    22 => Ok(None),
                    _ => Err(rejected_simple(val)),
                },
                NINT if val > i64::MAX as u64 => Err(type_error(
                    "negative integer",
                    GO_MAP,
                    Some(format!("-{} overflows Go's int64", u128::from(val) + 1)),
                )),
                TEXT => {
                    d.string_bytes(major, ai, val)?;
                    Err(type_error(type_name(major), GO_MAP, None))
                }
                _ => {
                    d.off = start;
                    d.skip();
                    Err(type_error(type_name(major), GO_MAP, None))
                }
            }
        })
    }
}

/// A finite float as a JSON number (NaN and infinities never get past pass 1).
fn float_value(f: f64) -> Value {
    Number::from_f64(f).map_or(Value::Null, Value::Number)
}

/// Bytes as a Rust string the way Go's JSON encoder renders a Go string holding them: valid
/// UTF-8 unchanged, every byte that does not start a valid sequence as U+FFFD
/// (`utf8.DecodeRuneInString` returns `RuneError` with width 1).
pub(super) fn go_string_lossy(mut bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    loop {
        match std::str::from_utf8(bytes) {
            Ok(s) => {
                out.push_str(s);
                return out;
            }
            Err(e) => {
                let (valid, rest) = bytes.split_at(e.valid_up_to());
                out.push_str(std::str::from_utf8(valid).unwrap_or_default());
                out.push('\u{fffd}');
                bytes = &rest[1..];
            }
        }
    }
}
