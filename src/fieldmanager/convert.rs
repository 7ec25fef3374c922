//! The merged object's conversion to the kind's Go type (`toVersioned`, through
//! `DefaultUnstructuredConverter.FromUnstructured`), which an apply goes through after the
//! merge. Structured merge accepts any number for an integer field ("numeric"), so this is
//! where a `1.5` given for an int64 fails, and where a whole float (`2.0`) becomes the integer
//! the Go struct holds. `[]byte` fields are base64-decoded here too, so bad base64 fails and
//! good base64 is written back canonically. The texts are `converter.go`'s.

use serde_json::Value;

use super::typed::Tr;
use crate::codec::schema::Type;

/// Converts `value` in place as `fromUnstructured` fills the typed struct, or gives the error
/// text of the first field that does not convert.
pub fn to_versioned(tr: Tr, value: &mut Value) -> Result<(), String> {
    match tr {
        Tr::Deduced => Ok(()),
        Tr::Struct(s) => {
            let Value::Object(m) = value else {
                return Ok(());
            };
            for (key, v) in m.iter_mut() {
                if let Some(f) = s.field(key) {
                    to_versioned(super::typed::tr_of(&f.ty), v)?;
                }
            }
            Ok(())
        }
        Tr::Ty(ty) => convert_type(ty, value),
    }
}

fn convert_type(ty: &'static Type, value: &mut Value) -> Result<(), String> {
    match (ty, value) {
        (Type::Int64 | Type::Int32, value @ Value::Number(_)) => {
            let Some(f) = value.as_f64().filter(|_| value.is_f64()) else {
                return Ok(());
            };
            if f.trunc() != f {
                let go = if matches!(ty, Type::Int64) {
                    "int64"
                } else {
                    "int32"
                };
                return Err(format!("cannot convert float64 to {go}"));
            }
            // `reflect.Value.Convert`: a whole float becomes the integer (saturating here;
            // Go's conversion of an out-of-range float is unspecified).
            *value = Value::from(f as i64);
            Ok(())
        }
        (Type::Bytes, Value::String(s)) if !s.is_empty() => {
            *s = crate::codec::base64_std(s)
                .map_err(|e| format!("error decoding from json: {e}"))?;
            Ok(())
        }
        (Type::Object(_) | Type::Any, value) => to_versioned(super::typed::tr_of(ty), value),
        (Type::Map(inner), Value::Object(m)) => {
            m.values_mut().try_for_each(|v| convert_type(inner, v))
        }
        (Type::Array(inner, _), Value::Array(items)) => {
            items.iter_mut().try_for_each(|v| convert_type(inner, v))
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_and_bytes_convert_as_go_fills_the_struct() {
        let int64 = Tr::Ty(&Type::Int64);
        let int32 = Tr::Ty(&Type::Int32);
        let bytes = Tr::Ty(&Type::Bytes);
        let cases: &[(Tr, Value, Result<Value, &str>)] = &[
            (int64, json!(2.0), Ok(json!(2))),
            (int64, json!(2), Ok(json!(2))),
            (int64, json!(1.5), Err("cannot convert float64 to int64")),
            (int32, json!(-0.5), Err("cannot convert float64 to int32")),
            (bytes, json!("aGk="), Ok(json!("aGk="))),
            (bytes, json!("aG\nk="), Ok(json!("aGk="))),
            (bytes, json!(""), Ok(json!(""))),
            (
                bytes,
                json!("!!!"),
                Err("error decoding from json: illegal base64 data at input byte 0"),
            ),
        ];
        for (tr, input, want) in cases {
            let mut v = input.clone();
            let got = to_versioned(*tr, &mut v).map(|()| v);
            assert_eq!(got, want.clone().map_err(String::from), "{input}");
        }
    }
}
