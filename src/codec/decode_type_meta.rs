//! `SimpleMetaFactory.Interpret`: the `apiVersion` and `kind` the serializers read from a body
//! before the typed decode, and the texts of its failures.

use serde_json::Value;

use super::super::source::Src;

/// What precedes `Interpret`'s failures to read `apiVersion` and `kind` (a JSON syntax error's
/// included).
pub const TYPE_META_ERROR: &str = "couldn't get version/kind; json parse error: ";

/// `apiVersion` and `kind` as the serializer reads them before the typed decode.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TypeMeta {
    /// `apiVersion`, empty when absent.
    pub api_version: String,
    /// `kind`, empty when absent.
    pub kind: String,
}

/// What `SimpleMetaFactory.Interpret` does first with every JSON body: read `apiVersion` and
/// `kind` with Go's standard decoder (keys matched case-insensitively, the last match wins).
/// Its failures precede any typed-decode error and read
/// `couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string`.
/// (A syntax error gets the same prefix; the caller adds it to
/// [`SyntaxError::message`](crate::codec::json::SyntaxError::message).)
/// (The JSON serializer's `ParseGroupVersion` step is [`check_group_version`].)
pub fn interpret_type_meta(value: &Value) -> Result<TypeMeta, String> {
    let mut tm = TypeMeta::default();
    let members = match value {
        Value::Null => return Ok(tm),
        Value::Object(m) => m,
        other => {
            return Err(format!(
                "{TYPE_META_ERROR}json: cannot unmarshal {} into Go value of type struct {{ APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; Kind string \"json:\\\"kind,omitempty\\\"\" }}",
                kind_desc(other)
            ))
        }
    };
    let mut first_err: Option<String> = None;
    for (k, v) in members {
        let (name, slot) = if k.eq_ignore_ascii_case("apiVersion") {
            ("apiVersion", &mut tm.api_version)
        } else if k.eq_ignore_ascii_case("kind") {
            ("kind", &mut tm.kind)
        } else {
            continue;
        };
        match v {
            Value::String(s) => *slot = s.clone(),
            Value::Null => {}
            other => {
                first_err.get_or_insert_with(|| {
                    format!(
                        "{TYPE_META_ERROR}json: cannot unmarshal {} into Go struct field .{name} of type string",
                        kind_desc(other)
                    )
                });
            }
        }
    }
    match first_err {
        Some(e) => Err(e),
        None => Ok(tm),
    }
}

/// What the JSON serializer's `Interpret` does next: `schema.ParseGroupVersion`, whose only
/// failure is a second slash. The CBOR serializer reads the version with
/// `FromAPIVersionAndKind` instead, which takes such a value as empty (then defaulted).
pub fn check_group_version(tm: &TypeMeta) -> Result<(), String> {
    if tm.api_version.matches('/').count() > 1 {
        return Err(format!(
            "unexpected GroupVersion string: {}",
            tm.api_version
        ));
    }
    Ok(())
}

/// Go's name for the kind of a JSON value in `json: cannot unmarshal <kind> into ...`.
pub(crate) fn kind_desc(v: &Value) -> &'static str {
    Src::kind(v).desc()
}
