//! The two inputs of the typed decoder behind one interface.
//!
//! Request bytes are decoded from the raw parse tree (every duplicate member and each number's
//! literal text kept, so type errors quote `number 1.0` as written), patch results and
//! Rust-built objects from a [`Value`]. The walker in [`super::decode`] reads both through
//! [`Src`], so the two paths cannot drift apart.

use std::borrow::Cow;

use serde_json::Value;

use super::json::{self, Raw};

/// The JSON kind of a value.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Null,
    Bool,
    Number,
    String,
    Array,
    Object,
}

impl Kind {
    /// How Go's `UnmarshalTypeError` names the JSON value.
    pub(crate) fn desc(self) -> &'static str {
        match self {
            Kind::Null => "null",
            Kind::Bool => "bool",
            Kind::Number => "number",
            Kind::String => "string",
            Kind::Array => "array",
            Kind::Object => "object",
        }
    }
}

/// Read access to a JSON value, raw or parsed.
pub(crate) trait Src: Sized {
    /// The JSON kind.
    fn kind(&self) -> Kind;
    /// The boolean (false for other kinds).
    fn as_bool(&self) -> bool;
    /// The string (empty for other kinds).
    fn as_str(&self) -> &str;
    /// A number's text: the literal for raw input, serde_json's rendering for a `Value`.
    fn number_text(&self) -> Cow<'_, str>;
    /// Array items (empty for other kinds).
    fn items(&self) -> &[Self];
    /// Object members in document order, duplicates included for raw input.
    fn members(&self) -> Vec<(&str, &Self)>;
    /// The value as untyped JSON (for `Any` fields).
    fn to_any(&self) -> Result<Value, String>;
}

impl Src for Raw {
    fn kind(&self) -> Kind {
        match self {
            Raw::Null => Kind::Null,
            Raw::Bool(_) => Kind::Bool,
            Raw::Number(..) => Kind::Number,
            Raw::String(_) => Kind::String,
            Raw::Array(_) => Kind::Array,
            Raw::Object(_) => Kind::Object,
        }
    }
    fn as_bool(&self) -> bool {
        matches!(self, Raw::Bool(true))
    }
    fn as_str(&self) -> &str {
        match self {
            Raw::String(s) => s,
            _ => "",
        }
    }
    fn number_text(&self) -> Cow<'_, str> {
        match self {
            Raw::Number(t, _) => Cow::Borrowed(t),
            _ => Cow::Borrowed(""),
        }
    }
    fn items(&self) -> &[Self] {
        match self {
            Raw::Array(items) => items,
            _ => &[],
        }
    }
    fn members(&self) -> Vec<(&str, &Self)> {
        match self {
            Raw::Object(m) => m.iter().map(|(k, v)| (k.as_str(), v)).collect(),
            _ => Vec::new(),
        }
    }
    fn to_any(&self) -> Result<Value, String> {
        json::raw_to_value(self, None).map_err(|e| e.message)
    }
}

impl Src for Value {
    fn kind(&self) -> Kind {
        match self {
            Value::Null => Kind::Null,
            Value::Bool(_) => Kind::Bool,
            Value::Number(_) => Kind::Number,
            Value::String(_) => Kind::String,
            Value::Array(_) => Kind::Array,
            Value::Object(_) => Kind::Object,
        }
    }
    fn as_bool(&self) -> bool {
        self.as_bool().unwrap_or(false)
    }
    fn as_str(&self) -> &str {
        self.as_str().unwrap_or("")
    }
    fn number_text(&self) -> Cow<'_, str> {
        match self {
            Value::Number(n) => Cow::Owned(n.to_string()),
            _ => Cow::Borrowed(""),
        }
    }
    fn items(&self) -> &[Self] {
        match self {
            Value::Array(items) => items,
            _ => &[],
        }
    }
    fn members(&self) -> Vec<(&str, &Self)> {
        match self {
            Value::Object(m) => m.iter().map(|(k, v)| (k.as_str(), v)).collect(),
            _ => Vec::new(),
        }
    }
    fn to_any(&self) -> Result<Value, String> {
        Ok(self.clone())
    }
}
