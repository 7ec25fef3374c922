//! Field-level validation errors, formatted exactly as apimachinery's `field.Error`.
//!
//! Validation collects these, then `crate::resources::status::ApiError::invalid` aggregates them
//! into one 422 whose message and `details.causes` match kube-apiserver's byte for byte.

pub use crate::codec::go_quote;
use serde_json::Value;

/// The kind of a field error (apimachinery `field.ErrorType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldErrorKind {
    Required,
    Forbidden,
    TooLong,
    Internal,
    NotFound,
    Duplicate,
    Invalid,
    NotSupported,
    TooMany,
    TypeInvalid,
}

impl FieldErrorKind {
    /// The text that starts the error body (`Required value`, `Invalid value`, ...).
    pub fn text(self) -> &'static str {
        match self {
            Self::Required => "Required value",
            Self::Forbidden => "Forbidden",
            Self::TooLong => "Too long",
            Self::Internal => "Internal error",
            Self::NotFound => "Not found",
            Self::Duplicate => "Duplicate value",
            Self::Invalid | Self::TypeInvalid => "Invalid value",
            Self::NotSupported => "Unsupported value",
            Self::TooMany => "Too many",
        }
    }

    /// The `StatusCause` reason (CauseType) for this kind.
    pub fn cause_type(self) -> &'static str {
        match self {
            Self::Required => "FieldValueRequired",
            Self::Forbidden => "FieldValueForbidden",
            Self::TooLong => "FieldValueTooLong",
            Self::Internal => "InternalError",
            Self::NotFound => "FieldValueNotFound",
            Self::Duplicate => "FieldValueDuplicate",
            Self::Invalid => "FieldValueInvalid",
            Self::NotSupported => "FieldValueNotSupported",
            Self::TooMany => "FieldValueTooMany",
            Self::TypeInvalid => "FieldValueTypeInvalid",
        }
    }
}

/// The offending value as Go prints it: `%v` for numbers and bools, `%q` for strings, JSON
/// for anything else; `Omit` when the real server omits the value.
#[derive(Debug, Clone, PartialEq)]
pub enum BadValue {
    Omit,
    Value(Value),
}

/// One field error: path, kind, offending value and detail.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldError {
    pub kind: FieldErrorKind,
    /// Dotted path with `[i]` / `[key]` subscripts, as `field.Path.String()` renders it.
    pub field: String,
    pub value: BadValue,
    pub detail: String,
}

impl FieldError {
    fn make(kind: FieldErrorKind, field: &str, value: BadValue, detail: &str) -> Self {
        FieldError {
            kind,
            field: field.to_string(),
            value,
            detail: detail.to_string(),
        }
    }

    /// `field: Required value[: detail]`.
    pub fn required(field: &str, detail: &str) -> Self {
        Self::make(FieldErrorKind::Required, field, BadValue::Omit, detail)
    }

    /// `field: Forbidden[: detail]`.
    pub fn forbidden(field: &str, detail: &str) -> Self {
        Self::make(FieldErrorKind::Forbidden, field, BadValue::Omit, detail)
    }

    /// `field: Too long: may not be more than N bytes`.
    pub fn too_long(field: &str, max: usize) -> Self {
        Self::make(
            FieldErrorKind::TooLong,
            field,
            BadValue::Omit,
            &format!("may not be more than {max} bytes"),
        )
    }

    /// `field: Invalid value: <value>[: detail]`.
    pub fn invalid(field: &str, value: Value, detail: &str) -> Self {
        Self::make(
            FieldErrorKind::Invalid,
            field,
            BadValue::Value(value),
            detail,
        )
    }

    /// `field: Unsupported value: <value>: supported values: "a", "b"`.
    pub fn not_supported(field: &str, value: Value, supported: &[&str]) -> Self {
        let list: Vec<String> = supported.iter().map(|s| go_quote(s)).collect();
        Self::make(
            FieldErrorKind::NotSupported,
            field,
            BadValue::Value(value),
            &format!("supported values: {}", list.join(", ")),
        )
    }

    /// `field: Duplicate value: <value>`.
    pub fn duplicate(field: &str, value: Value) -> Self {
        Self::make(FieldErrorKind::Duplicate, field, BadValue::Value(value), "")
    }

    /// `field: Not found: <value>`.
    pub fn not_found(field: &str, value: Value) -> Self {
        Self::make(FieldErrorKind::NotFound, field, BadValue::Value(value), "")
    }

    /// `field: Too many: <n>: must have at most <max> items`.
    pub fn too_many(field: &str, actual: usize, max: usize) -> Self {
        Self::make(
            FieldErrorKind::TooMany,
            field,
            BadValue::Value(Value::from(actual)),
            &format!("must have at most {max} items"),
        )
    }

    /// The message without the `field: ` prefix (the `StatusCause` message).
    pub fn body(&self) -> String {
        let mut s = String::from(self.kind.text());
        let show_value = !matches!(
            self.kind,
            FieldErrorKind::Required
                | FieldErrorKind::Forbidden
                | FieldErrorKind::TooLong
                | FieldErrorKind::Internal
        );
        if show_value {
            if let BadValue::Value(v) = &self.value {
                s.push_str(": ");
                s.push_str(&render_value(v));
            }
        }
        if !self.detail.is_empty() {
            s.push_str(": ");
            s.push_str(&self.detail);
        }
        s
    }

    /// The full error text: `field: body`.
    pub fn message(&self) -> String {
        if self.field.is_empty() {
            self.body()
        } else {
            format!("{}: {}", self.field, self.body())
        }
    }
}

/// Renders a value as apimachinery does in error bodies.
pub fn render_value(v: &Value) -> String {
    match v {
        Value::Null => "null".to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) if n.is_f64() => go_v_float(n.as_f64().unwrap_or(0.0)),
        Value::Number(n) => n.to_string(),
        Value::String(s) => go_quote(s),
        other => crate::codec::json::to_compact_string(other),
    }
}

/// A `float64` as Go's `%v` prints it: shortest digits, in exponent form (`2e+06`,
/// `1e-05`) when the exponent is below -4 or at least 6.
pub fn go_v_float(f: f64) -> String {
    if f == 0.0 || !f.is_finite() {
        return format!("{f}");
    }
    let sci = format!("{f:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if !(-4..6).contains(&exp) {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", exp.abs())
    } else {
        format!("{f}")
    }
}

/// Aggregates field errors as `utilerrors.NewAggregate(...).Error()` does ([`aggregate`]).
pub fn aggregate_messages(errs: &[FieldError]) -> String {
    aggregate(errs.iter().map(FieldError::message))
}

/// `utilerrors.NewAggregate(errs).Error()`: one distinct message verbatim, several as
/// `[a, b]`, duplicates dropped.
pub fn aggregate<S: AsRef<str>>(messages: impl IntoIterator<Item = S>) -> String {
    let mut seen: Vec<String> = Vec::new();
    for m in messages {
        let m = m.as_ref();
        if !seen.iter().any(|s| s == m) {
            seen.push(m.to_string());
        }
    }
    if seen.len() == 1 {
        seen.remove(0)
    } else {
        format!("[{}]", seen.join(", "))
    }
}

/// A `field.Path` builder: `metadata.labels[app]`, `items[0].name`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FieldPath(String);

impl FieldPath {
    /// A root path element.
    pub fn new(root: &str) -> Self {
        FieldPath(root.to_string())
    }

    /// `path.child`. (Validation makes several for every object written, most never shown:
    /// joined directly, not through `format!`.)
    pub fn child(&self, name: &str) -> Self {
        if self.0.is_empty() {
            return FieldPath(name.to_string());
        }
        let mut path = String::with_capacity(self.0.len() + 1 + name.len());
        path.push_str(&self.0);
        path.push('.');
        path.push_str(name);
        FieldPath(path)
    }

    /// `path[i]`.
    pub fn index(&self, i: usize) -> Self {
        self.key(&i.to_string())
    }

    /// `path[key]` (map keys are not quoted, as in apimachinery).
    pub fn key(&self, k: &str) -> Self {
        let mut path = String::with_capacity(self.0.len() + 2 + k.len());
        path.push_str(&self.0);
        path.push('[');
        path.push_str(k);
        path.push(']');
        FieldPath(path)
    }

    /// The rendered path.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for FieldPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
