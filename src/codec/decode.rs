//! Schema-aware decoding: request bodies into canonical objects, as kube-apiserver's
//! sigs.k8s.io/json decoder fills Go structs.
//!
//! The API server decodes a body into the kind's Go struct and re-encodes that struct, so what
//! a client gets back is the struct's view of the body: fields in struct order, unknown fields
//! gone, `omitempty` zeros dropped, maps sorted, times normalized to UTC seconds. The decoder
//! also decides the 400 texts (`json: cannot unmarshal string into Go struct field
//! ControllerRevision.revision of type int64`) and the `fieldValidation` findings
//! (`unknown field "metadata.bar"`, `duplicate field "metadata.name"`). This module reproduces
//! all three from the kind's [`Struct`] schema:
//!
//! * [`decode_bytes`] takes the request bytes and reports syntax errors, type errors and, in
//!   document order, unknown *and* duplicate fields, quoting number literals as written;
//! * [`decode_struct`] does the same from an already parsed [`Value`] (patch results);
//! * [`canonicalize`] gives objects built in Rust the same canonical form, never failing.
//!
//! Go semantics kept on purpose: `null` leaves a non-pointer scalar or struct unchanged (so
//! `revision: null` is 0) and unsets pointers, maps and slices; a zero-valued pointer field is
//! kept (`"gracePeriodSeconds":0`); an omitempty struct is never omitted (Go never considers a
//! struct empty); a duplicate member decodes into what the first one left (objects merge); the
//! first type error is reported unless a timestamp fails, which aborts at once; strict errors
//! count only when there is no type error, are deduplicated and capped at 100.
//!
//! Known differences, all from representing `RawExtension`/`FieldsV1` (schema `Any`) as a
//! [`Value`] rather than raw bytes: inside them duplicate keys collapse (last wins), number
//! literals are re-encoded (`1.0` becomes `1`, `1e3` becomes `1000`), string escapes are
//! re-encoded, and a number beyond `float64` (`1e400`) is refused where Go would keep the
//! bytes. Through [`decode_struct`] the literal of a non-integer number in an integer field is
//! serde_json's rendering (`1.0`, `1e20`), not necessarily the client's text.

use std::collections::{BTreeMap, HashSet};

use serde_json::{Map, Number, Value};

use super::gotypes::{go_field, go_type_name, qualified_struct_name, struct_name, GoField};
use super::json::{self, SyntaxError, MAX_STRICT_ERRORS};
use super::rfc3339;
use super::source::{Kind, Src};
use crate::codec::go_quote;
use crate::codec::schema::{OrAlt, OrType, Struct, Type};

/// A decoded object: canonical JSON for the schema, plus the unknown fields that were dropped.
#[derive(Debug, Clone, PartialEq)]
pub struct Decoded {
    /// The canonical object (see the module docs).
    pub object: Map<String, Value>,
    /// Unknown field paths in document order (`foo`, `metadata.bar`,
    /// `metadata.ownerReferences[0].x`), for `unknown field "<path>"`.
    pub unknown: Vec<String>,
}

/// A decoding failure that is Go's type error (or a timestamp parse error): the request fails
/// with this text whatever `fieldValidation` says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeError {
    /// Go's exact message, for example
    /// `json: cannot unmarshal string into Go struct field ControllerRevision.revision of type int64`.
    pub message: String,
}

impl std::fmt::Display for TypeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for TypeError {}

/// Whether a strict finding is an unknown or a duplicate field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StrictKind {
    /// A member the schema does not have.
    Unknown,
    /// A member given twice (a struct field or a map key).
    Duplicate,
}

/// One `fieldValidation` finding, as sigs.k8s.io/json reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StrictError {
    /// Unknown or duplicate.
    pub kind: StrictKind,
    /// Dotted path from the object root with `[i]` for list items.
    pub path: String,
    /// The member's position in its own object (how fxamacker/cbor names an unknown field).
    pub index: usize,
}

impl StrictError {
    /// `unknown field "metadata.bar"` / `duplicate field "metadata.name"` (the path is quoted
    /// with Go's `%q`): one warning, or one item of the strict error.
    pub fn message(&self) -> String {
        let what = match self.kind {
            StrictKind::Unknown => "unknown field",
            StrictKind::Duplicate => "duplicate field",
        };
        format!("{what} {}", go_quote(&self.path))
    }
}

/// apimachinery's strict decoding error text (`runtime.NewStrictDecodingError`) for findings
/// already worded: `strict decoding error: unknown field "foo", duplicate field "metadata.name"`.
pub fn strict_decoding_message(findings: &[String]) -> String {
    format!("strict decoding error: {}", findings.join(", "))
}

/// The result of [`decode_bytes`]: the canonical object and every strict finding in order.
#[derive(Debug, Clone, PartialEq)]
pub struct StrictDecoded {
    /// The canonical object.
    pub object: Map<String, Value>,
    /// Unknown and duplicate fields, interleaved in document order, deduplicated, at most 100.
    pub strict: Vec<StrictError>,
}

/// Why [`decode_bytes`] failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecodeError {
    /// Malformed JSON (Go's scanner text).
    Syntax(SyntaxError),
    /// A value of the wrong type, or a bad timestamp.
    Type(TypeError),
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DecodeError::Syntax(e) => e.fmt(f),
            DecodeError::Type(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for DecodeError {}

/// Decodes request bytes into the canonical object for `schema`, with the syntax, type and
/// strict findings kube-apiserver's decoder produces (see the module docs).
pub fn decode_bytes(bytes: &[u8], schema: &'static Struct) -> Result<StrictDecoded, DecodeError> {
    let raw = json::parse_raw(bytes).map_err(DecodeError::Syntax)?;
    let result = decode_parsed(&raw, schema);
    json::drop_raw(raw);
    result.map_err(DecodeError::Type)
}

/// [`decode_bytes`] of a document already parsed (a request body is parsed once, for its
/// type meta and the typed decode both).
pub(crate) fn decode_parsed(
    raw: &json::Raw,
    schema: &'static Struct,
) -> Result<StrictDecoded, TypeError> {
    let (object, strict) = decode_src(raw, schema, false)?;
    Ok(StrictDecoded { object, strict })
}

/// Sets an object's `kind` and `apiVersion` where the canonical form has them: first, in
/// that order (Go's inline `TypeMeta` leads every top-level type), so a canonical object stays
/// canonical without another pass.
pub fn set_type_meta(obj: &mut Map<String, Value>, kind: &str, api_version: &str) {
    obj.shift_insert(0, "kind".into(), Value::String(kind.to_string()));
    obj.shift_insert(
        1,
        "apiVersion".into(),
        Value::String(api_version.to_string()),
    );
}

/// Decodes a parsed document into the canonical object for `schema`, reporting the unknown
/// fields it drops; fails with Go's type error text.
pub fn decode_struct(value: &Value, schema: &'static Struct) -> Result<Decoded, TypeError> {
    let (object, strict) = decode_src(value, schema, false)?;
    let unknown = strict
        .into_iter()
        .filter(|e| e.kind == StrictKind::Unknown)
        .map(|e| e.path)
        .collect();
    Ok(Decoded { object, unknown })
}

/// The canonical form of an object built or modified in Rust: the same shape [`decode_struct`]
/// produces (idempotent on its output). Unknown fields are dropped; a value of the wrong type,
/// or a timestamp that does not parse, is kept as it is rather than failing.
pub fn canonicalize(obj: &Map<String, Value>, schema: &'static Struct) -> Map<String, Value> {
    let mut w = Walker::new(true);
    let mut slots = vec![Slot::Zero; schema.fields.len()];
    let members: Vec<(&str, &Value)> = obj.iter().map(|(k, v)| (k.as_str(), v)).collect();
    // Lenient walks never fail.
    let _ = w.members(members, schema, &mut slots);
    emit_struct(schema, slots)
}

/// Go's `omitempty` test on a JSON value: `null`, `false`, `0`, `""`, `[]` and `{}` are empty.
/// (For struct-typed fields Go never omits; [`canonicalize`] applies that rule from the schema.)
pub fn is_empty_value(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(m) => m.is_empty(),
    }
}

// ---------------------------------------------------------------------------------------------
// The walker: Go's decodeState over a schema.

/// The Go value being filled. `Zero` is Go's zero value (nil for pointers, maps and slices).
#[derive(Debug, Clone, PartialEq)]
enum Slot {
    Zero,
    /// A scalar, a normalized timestamp, untyped JSON, or (lenient mode) a mistyped value.
    Val(Value),
    Struct(Vec<Slot>),
    Map(BTreeMap<String, Slot>),
    List(Vec<Slot>),
}

/// A fatal error (Go returns it at once instead of saving it).
type Fatal = Result<(), String>;

struct Walker {
    /// Canonicalize mode: keep mistyped values, never fail.
    lenient: bool,
    /// The first saved type error (Go's `savedError`).
    saved: Option<String>,
    strict: Vec<StrictError>,
    seen_strict: HashSet<(bool, String)>,
    /// Go's errorContext: innermost struct name and the field-name path.
    ctx_struct: Option<&'static str>,
    ctx_stack: Vec<&'static str>,
    /// Go's strictFieldStack, rendered.
    spath: String,
}

impl Walker {
    fn new(lenient: bool) -> Self {
        Walker {
            lenient,
            saved: None,
            strict: Vec::new(),
            seen_strict: HashSet::new(),
            ctx_struct: None,
            ctx_stack: Vec::new(),
            spath: String::new(),
        }
    }

    /// `json: cannot unmarshal <value> into Go struct field <S>.<path> of type <T>`.
    fn type_message(&self, value: &str, go_type: &str) -> String {
        match self.ctx_struct {
            Some(s) => format!(
                "json: cannot unmarshal {value} into Go struct field {s}.{} of type {go_type}",
                self.ctx_stack.join(".")
            ),
            None => format!("json: cannot unmarshal {value} into Go value of type {go_type}"),
        }
    }

    /// A non-fatal type error: remembered if it is the first; lenient mode keeps the value.
    fn mismatch<S: Src>(&mut self, src: &S, value: &str, go_type: &str, slot: &mut Slot) -> Fatal {
        if self.lenient {
            *slot = Slot::Val(src.to_any().unwrap_or(Value::Null));
        } else if self.saved.is_none() {
            self.saved = Some(self.type_message(value, go_type));
        }
        Ok(())
    }

    fn strict_error(&mut self, kind: StrictKind, key: &str, index: usize) {
        if self.lenient || self.strict.len() >= MAX_STRICT_ERRORS {
            return;
        }
        let path = json::child_path(&self.spath, key);
        if self
            .seen_strict
            .insert((kind == StrictKind::Unknown, path.clone()))
        {
            self.strict.push(StrictError { kind, path, index });
        }
    }

    fn push_spath(&mut self, key: &str) -> usize {
        let len = self.spath.len();
        if !self.spath.is_empty() {
            self.spath.push('.');
        }
        self.spath.push_str(key);
        len
    }

    /// Decodes the members of a JSON object into struct `s` (Go's `object` for a struct).
    fn members<S: Src>(
        &mut self,
        members: Vec<(&str, &S)>,
        s: &'static Struct,
        slots: &mut [Slot],
    ) -> Fatal {
        let mut seen = vec![false; s.fields.len()];
        for (at, (key, v)) in members.into_iter().enumerate() {
            let Some(idx) = s.fields.iter().position(|f| f.name == key) else {
                self.strict_error(StrictKind::Unknown, key, at);
                continue;
            };
            let f = &s.fields[idx];
            if seen[idx] {
                self.strict_error(StrictKind::Duplicate, f.name, at);
            }
            seen[idx] = true;
            let g = go_field(f);
            let (ctx_struct, ctx_len) = (self.ctx_struct, self.ctx_stack.len());
            if let Some(embedded) = g.embedded_in {
                self.ctx_stack.push(embedded);
            }
            self.ctx_struct = Some(struct_name(s));
            self.ctx_stack.push(f.name);
            let spath_len = self.push_spath(f.name);
            self.value(v, &f.ty, g, &mut slots[idx])?;
            self.spath.truncate(spath_len);
            self.ctx_stack.truncate(ctx_len);
            self.ctx_struct = ctx_struct;
        }
        Ok(())
    }

    /// Decodes one JSON value into a Go value of schema type `ty` (Go's `value`/`literalStore`).
    fn value<S: Src>(&mut self, src: &S, ty: &'static Type, g: GoField, slot: &mut Slot) -> Fatal {
        let kind = src.kind();
        if kind == Kind::Null {
            // Go ignores null for non-pointer scalars and structs, and RawExtension's
            // UnmarshalJSON ignores it too; everything else becomes nil / zero.
            let keeps = !g.pointer
                && matches!(
                    ty,
                    Type::Object(_)
                        | Type::Any
                        | Type::String
                        | Type::Int64
                        | Type::Int32
                        | Type::Boolean
                );
            if !keeps {
                *slot = Slot::Zero;
            }
            return Ok(());
        }
        let elem = GoField {
            elem_name: g.elem_name,
            ..GoField::default()
        };
        match ty {
            Type::String => match kind {
                Kind::String => *slot = Slot::Val(Value::String(src.as_str().to_string())),
                k => self.mismatch(src, k.desc(), &go_type_name(ty, g.elem_name), slot)?,
            },
            Type::Boolean => match kind {
                Kind::Bool => *slot = Slot::Val(Value::Bool(src.as_bool())),
                k => self.mismatch(src, k.desc(), &go_type_name(ty, g.elem_name), slot)?,
            },
            // `[]byte`: a corrupt base64 string is saved as Go's decoder saves it.
            Type::Bytes => match kind {
                Kind::String => match super::goquote::base64_std(src.as_str()) {
                    Ok(canonical) => *slot = Slot::Val(Value::String(canonical)),
                    Err(_) if self.lenient => *slot = Slot::Val(src.to_any().unwrap_or_default()),
                    Err(e) => self.saved = self.saved.take().or(Some(e)),
                },
                k => self.mismatch(src, k.desc(), &go_type_name(ty, g.elem_name), slot)?,
            },
            Type::Int64 | Type::Int32 => match kind {
                Kind::Number => {
                    let text = src.number_text();
                    let parsed = text
                        .parse::<i64>()
                        .ok()
                        .filter(|n| !matches!(ty, Type::Int32) || i32::try_from(*n).is_ok());
                    match parsed {
                        Some(n) => *slot = Slot::Val(Value::Number(Number::from(n))),
                        None => {
                            let desc = format!("number {text}");
                            self.mismatch(src, &desc, &go_type_name(ty, g.elem_name), slot)?
                        }
                    }
                }
                k => self.mismatch(src, k.desc(), &go_type_name(ty, g.elem_name), slot)?,
            },
            Type::MicroTime => {
                // metav1.MicroTime.UnmarshalJSON: a string parsed with RFC3339Micro (`null`
                // is the zero time, above).
                if kind != Kind::String {
                    if self.lenient {
                        *slot = Slot::Val(src.to_any().unwrap_or(Value::Null));
                        return Ok(());
                    }
                    return Err(self.type_message(kind.desc(), "string"));
                }
                match rfc3339::parse_micro(src.as_str()) {
                    Ok(t) if t.is_go_zero() => *slot = Slot::Zero,
                    Ok(t) => {
                        *slot = Slot::Val(Value::String(rfc3339::format_micro(t.unix, t.nanos)))
                    }
                    Err(_) if self.lenient => {
                        *slot = Slot::Val(Value::String(src.as_str().to_string()))
                    }
                    Err(e) => return Err(e),
                }
            }
            Type::DateTime => {
                // metav1.Time.UnmarshalJSON: json.Unmarshal into a string, then time.Parse.
                // Both failures are returned at once (fatal), the first with field context.
                if kind != Kind::String {
                    if self.lenient {
                        *slot = Slot::Val(src.to_any().unwrap_or(Value::Null));
                        return Ok(());
                    }
                    return Err(self.type_message(kind.desc(), "string"));
                }
                match rfc3339::parse_full(src.as_str()) {
                    Ok(t) if t.is_go_zero() => *slot = Slot::Zero,
                    Ok(t) => *slot = Slot::Val(Value::String(rfc3339::format(t.unix))),
                    Err(_) if self.lenient => {
                        *slot = Slot::Val(Value::String(src.as_str().to_string()))
                    }
                    Err(e) => return Err(e),
                }
            }
            Type::Float64 => match kind {
                Kind::Number => {
                    let text = src.number_text();
                    let parsed = text
                        .parse::<f64>()
                        .ok()
                        .filter(|f| f.is_finite())
                        .and_then(Number::from_f64);
                    match parsed {
                        Some(n) => *slot = Slot::Val(Value::Number(n)),
                        None => {
                            let desc = format!("number {text}");
                            self.mismatch(src, &desc, &go_type_name(ty, g.elem_name), slot)?
                        }
                    }
                }
                k => self.mismatch(src, k.desc(), &go_type_name(ty, g.elem_name), slot)?,
            },
            Type::Or(o) => self.either(src, o, slot)?,
            Type::Any => match src.to_any() {
                Ok(v) => *slot = Slot::Val(v),
                Err(_) if self.lenient => {}
                Err(e) => return Err(e),
            },
            Type::Object(s) => match kind {
                Kind::Object => {
                    if !matches!(slot, Slot::Struct(_)) {
                        *slot = Slot::Struct(vec![Slot::Zero; s.fields.len()]);
                    }
                    if let Slot::Struct(slots) = slot {
                        self.members(src.members(), s, slots)?;
                    }
                }
                k => self.mismatch(src, k.desc(), &qualified_struct_name(s), slot)?,
            },
            Type::Map(inner) => match kind {
                Kind::Object => {
                    if !matches!(slot, Slot::Map(_)) {
                        *slot = Slot::Map(BTreeMap::new());
                    }
                    let mut seen: HashSet<&str> = HashSet::new();
                    for (at, (key, v)) in src.members().into_iter().enumerate() {
                        if !seen.insert(key) {
                            self.strict_error(StrictKind::Duplicate, key, at);
                        }
                        let spath_len = self.push_spath(key);
                        let mut e = Slot::Zero;
                        self.value(v, inner, elem, &mut e)?;
                        self.spath.truncate(spath_len);
                        if let Slot::Map(m) = slot {
                            m.insert(key.to_string(), e);
                        }
                    }
                }
                k => self.mismatch(src, k.desc(), &go_type_name(ty, g.elem_name), slot)?,
            },
            Type::Array(inner, _) => match kind {
                Kind::Array => {
                    // Go reuses the old elements (a repeated member merges element-wise), then
                    // truncates; `[]` is an empty, non-nil slice.
                    let mut old = match std::mem::replace(slot, Slot::Zero) {
                        Slot::List(items) => items,
                        _ => Vec::new(),
                    };
                    let items = src.items();
                    old.truncate(items.len());
                    let mut out = Vec::with_capacity(items.len());
                    let mut old = old.into_iter();
                    for (i, item) in items.iter().enumerate() {
                        let spath_len = self.spath.len();
                        self.spath.push_str(&format!("[{i}]"));
                        let mut e = old.next().unwrap_or(Slot::Zero);
                        let result = self.value(item, inner, elem, &mut e);
                        self.spath.truncate(spath_len);
                        out.push(e);
                        if let Err(e) = result {
                            *slot = Slot::List(out);
                            return Err(e);
                        }
                    }
                    *slot = Slot::List(out);
                }
                k => self.mismatch(src, k.desc(), &go_type_name(ty, g.elem_name), slot)?,
            },
        }
        Ok(())
    }
}

impl Walker {
    /// A value of a type with its own `UnmarshalJSON` choosing between a struct and another
    /// form ([`OrType`]): an object fills the struct, the alternative form is kept as it is,
    /// anything else is the zero value, or for `OrBool` an error.
    fn either<S: Src>(&mut self, src: &S, o: &'static OrType, slot: &mut Slot) -> Fatal {
        // Go's `UnmarshalJSON` of these types decodes with a plain, non-strict decoder:
        // unknown or duplicate fields inside are dropped without a finding.
        let strict = self.strict.len();
        match (src.kind(), o.alt) {
            (Kind::Object, _) => {
                let mut slots = vec![Slot::Zero; o.object.fields.len()];
                self.members(src.members(), o.object, &mut slots)?;
                *slot = Slot::Struct(slots);
            }
            (Kind::Array, OrAlt::Array | OrAlt::Strings) => {
                self.value(src, o.array, GoField::default(), slot)?
            }
            (Kind::Bool, OrAlt::Bool) => *slot = Slot::Val(Value::Bool(src.as_bool())),
            (_, OrAlt::Bool) if self.lenient => *slot = Slot::Val(src.to_any().unwrap_or_default()),
            (_, OrAlt::Bool) => return Err("boolean or JSON schema expected".into()),
            _ => *slot = Slot::Val(Value::Null),
        }
        self.strict.truncate(strict);
        Ok(())
    }
}

/// Runs the walker over a whole document for `schema`.
fn decode_src<S: Src>(
    src: &S,
    schema: &'static Struct,
    lenient: bool,
) -> Result<(Map<String, Value>, Vec<StrictError>), TypeError> {
    let mut w = Walker::new(lenient);
    let mut slots = vec![Slot::Zero; schema.fields.len()];
    match src.kind() {
        Kind::Null => {}
        Kind::Object => w
            .members(src.members(), schema, &mut slots)
            .map_err(|message| TypeError { message })?,
        k => {
            let mut ignored = Slot::Zero;
            // Cannot fail: `mismatch` only records.
            let _ = w.mismatch(src, k.desc(), &qualified_struct_name(schema), &mut ignored);
        }
    }
    if let Some(message) = w.saved {
        return Err(TypeError { message });
    }
    Ok((emit_struct(schema, slots), w.strict))
}

#[path = "decode_emit.rs"]
mod emit;

#[path = "decode_owned.rs"]
mod owned;
pub use owned::canonicalize_owned;

#[path = "decode_type_meta.rs"]
mod type_meta;
pub(crate) use type_meta::kind_desc;
pub use type_meta::{check_group_version, interpret_type_meta, TypeMeta, TYPE_META_ERROR};

use emit::emit_struct;

#[cfg(test)]
#[path = "decode_tests.rs"]
mod tests;
