//! A structural schema's value validations, as kube-openapi's `SchemaValidator` runs them on
//! a custom resource and apiextensions' `kubeOpenAPIResultToFieldErrors` turns its results
//! into field errors (the texts must match Go's byte for byte, so they are written here).
//!
//! Per node, in kube-openapi's order: type, `allOf`/`anyOf`/`oneOf`/`not`, string
//! (`maxLength`, `minLength`, `pattern`: the first failure only), format, number (1.36's
//! integer range check, `multipleOf`, `minimum`, `maximum`), list (items, `minItems`,
//! `maxItems`), `enum`, object (`minProperties`, `maxProperties`, members, `required`). A
//! type error does not stop the checks that fit the value; members are visited only in
//! objects and lists. Go visits properties in map order, which varies; here they go in name
//! order.
//!
//! An update is ratcheted: a member equal to the old object's is not checked again.

use serde_json::Value;

use super::child;
use super::structural::Schema;
use crate::resources::field::{go_quote, FieldError, FieldErrorKind};

/// The field errors of `value` against `schema` (the root: paths are relative to it; errors
/// about the root itself have field `<nil>`). `old`: the object an update replaces.
pub fn validate(schema: &Schema, value: &Value, old: Option<&Value>) -> Vec<FieldError> {
    let mut errs = Vec::new();
    node(schema, value, old, "", &mut errs);
    errs
}

/// The field an error names: kube-openapi's path, or `<nil>` at the root.
fn field(path: &str) -> String {
    if path.is_empty() {
        "<nil>".into()
    } else {
        path.to_string()
    }
}

fn invalid(path: &str, value: Value, detail: String) -> FieldError {
    FieldError::invalid(&field(path), value, &detail)
}

/// `kube-openapi`'s type name of a value (`schemaInfoForType`).
fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_f64() => "number",
        Value::Number(_) => "integer",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// The format a node keeps for validation (`StripUnsupportedFormatsPostProcessor`).
fn kept_format(s: &Schema) -> &str {
    let f = s.format.as_str();
    let keep = match s.ty.as_str() {
        "integer" => matches!(f, "int32" | "int64"),
        "number" => matches!(f, "float" | "double"),
        "string" | "" => STRING_FORMATS.contains(&f.replace('-', "").as_str()),
        _ => false,
    };
    if keep {
        f
    } else {
        ""
    }
}

const STRING_FORMATS: &[&str] = &[
    "bsonobjectid",
    "uri",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "cidr",
    "mac",
    "uuid",
    "uuid3",
    "uuid4",
    "uuid5",
    "isbn",
    "isbn10",
    "isbn13",
    "creditcard",
    "ssn",
    "hexcolor",
    "rgbcolor",
    "byte",
    "password",
    "date",
    "duration",
    "datetime",
    "k8sshortname",
    "k8slongname",
];

/// The node's types: `type`, or `integer,string` for int-or-string.
fn types(s: &Schema) -> Vec<&str> {
    if s.int_or_string {
        vec!["integer", "string"]
    } else if s.ty.is_empty() {
        Vec::new()
    } else {
        vec![s.ty.as_str()]
    }
}

fn node(s: &Schema, v: &Value, old: Option<&Value>, path: &str, errs: &mut Vec<FieldError>) {
    if old == Some(v) {
        return;
    }
    type_check(s, v, path, errs);
    if v.is_null() {
        enumeration(s, v, path, errs);
        return;
    }
    branches(s, v, path, errs);
    if let Value::String(text) = v {
        string_checks(s, text, path, errs);
        format_check(s, text, path, errs);
    }
    if let Value::Number(_) = v {
        number_checks(s, v, path, errs);
    }
    if let Value::Array(items) = v {
        if let Some(item) = s.items.as_deref() {
            for (i, x) in items.iter().enumerate() {
                let o = s.correlated_item(old, x);
                node(item, x, o, &format!("{path}[{i}]"), errs);
            }
        }
        let n = items.len() as i64;
        if let Some(min) = s.checks.min_items.filter(|m| n < *m) {
            let d = format!("{path} in body should have at least {min} items");
            errs.push(invalid(path, Value::from(n), d));
        }
        if let Some(max) = s.checks.max_items.filter(|m| n > *m) {
            errs.push(FieldError::too_many(
                &field(path),
                items.len(),
                max as usize,
            ));
        }
    }
    enumeration(s, v, path, errs);
    if let Value::Object(m) = v {
        let n = m.len() as i64;
        if let Some(min) = s.checks.min_properties.filter(|x| n < *x) {
            let d = format!("{path} in body should have at least {min} properties");
            errs.push(invalid(path, Value::from(n), d));
        }
        if let Some(max) = s.checks.max_properties.filter(|x| n > *x) {
            errs.push(FieldError::too_many(&field(path), m.len(), max as usize));
        }
        let olds = old.and_then(Value::as_object);
        let mut keys: Vec<&String> = m.keys().collect();
        crate::sort::sort(&mut keys);
        // additionalProperties' values first, then the declared properties.
        if let Some(add) = s.additional.as_deref().filter(|a| !a.absent) {
            for k in keys
                .iter()
                .filter(|k| !s.properties.contains_key(k.as_str()))
            {
                let o = olds.and_then(|o| o.get(k.as_str()));
                node(add, &m[k.as_str()], o, &child(path, k), errs);
            }
        }
        for (k, prop) in &s.properties {
            if let Some(x) = m.get(k) {
                let o = olds.and_then(|o| o.get(k));
                node(prop, x, o, &child(path, k), errs);
            }
        }
        for r in &s.checks.required {
            if !m.contains_key(r) {
                errs.push(FieldError::required(&child(path, r), ""));
            }
        }
    }
}

/// `typeValidator`.
fn type_check(s: &Schema, v: &Value, path: &str, errs: &mut Vec<FieldError>) {
    let want = types(s);
    if want.is_empty() {
        return;
    }
    if v.is_null() {
        if !s.nullable {
            push_type(path, &want.join(","), "null", errs);
        }
        return;
    }
    let got = type_name(v);
    let integral_float = v
        .as_f64()
        .is_some_and(|f| f.fract() == 0.0 && f.is_finite());
    let ok = want.contains(&got)
        || (got == "integer" && want.contains(&"number"))
        || (got == "number" && integral_float && want.contains(&"integer"));
    if ok {
        return;
    }
    let format = kept_format(s);
    match v {
        // A kept format names the type, and the value's Go type stands for it.
        _ if !format.is_empty() && !matches!(v, Value::String(_) | Value::Array(_)) => {
            let go = match v {
                Value::Number(n) if n.is_f64() => "float64",
                Value::Number(_) => "int64",
                _ => "",
            };
            push_type(path, format, go, errs);
        }
        Value::Array(_) if !format.is_empty() => {}
        _ => push_type(path, &want.join(","), got, errs),
    }
}

fn push_type(path: &str, want: &str, got: &str, errs: &mut Vec<FieldError>) {
    errs.push(FieldError {
        kind: FieldErrorKind::TypeInvalid,
        field: field(path),
        value: crate::resources::field::BadValue::Value(Value::String(got.into())),
        detail: format!("{path} in body must be of type {want}: {}", go_quote(got)),
    });
}

/// `allOf`, `anyOf`, `oneOf` and `not`.
fn branches(s: &Schema, v: &Value, path: &str, errs: &mut Vec<FieldError>) {
    let c = &s.checks;
    let result = |b: &Schema| validate_at(b, v, path);
    if !c.all_of.is_empty() {
        let results: Vec<_> = c.all_of.iter().map(result).collect();
        let valid = results.iter().filter(|r| r.is_empty()).count();
        if valid != results.len() {
            let extra = if valid == 0 { ". None validated" } else { "" };
            let d = format!(
                "{} must validate all the schemas (allOf){extra}",
                go_quote(path)
            );
            errs.push(invalid("", Value::String(String::new()), d));
            errs.extend(results.into_iter().flatten());
        }
    }
    if !c.any_of.is_empty() {
        let results: Vec<_> = c.any_of.iter().map(result).collect();
        if !results.iter().any(Vec::is_empty) {
            let d = format!(
                "{} must validate at least one schema (anyOf)",
                go_quote(path)
            );
            errs.push(invalid("", Value::String(String::new()), d));
            errs.extend(results.into_iter().next().into_iter().flatten());
        }
    }
    if !c.one_of.is_empty() {
        let valid = c.one_of.iter().map(result).filter(Vec::is_empty).count();
        if valid != 1 {
            let found = if valid == 0 {
                "Found none valid".to_string()
            } else {
                format!("Found {valid} valid alternatives")
            };
            let d = format!(
                "{} must validate one and only one schema (oneOf). {found}",
                go_quote(path)
            );
            errs.push(invalid("", Value::String(String::new()), d));
        }
    }
    if let Some(not) = c.not.as_deref() {
        if result(not).is_empty() {
            let d = format!("{} must not validate the schema (not)", go_quote(path));
            errs.push(invalid("", Value::String(String::new()), d));
        }
    }
}

/// A branch's errors for the value at `path`.
fn validate_at(s: &Schema, v: &Value, path: &str) -> Vec<FieldError> {
    let mut errs = Vec::new();
    node(s, v, None, path, &mut errs);
    errs
}

/// `stringValidator`: the first failure only.
fn string_checks(s: &Schema, text: &str, path: &str, errs: &mut Vec<FieldError>) {
    let n = text.chars().count() as i64;
    let c = &s.checks;
    if let Some(max) = c.max_length.filter(|m| n > *m) {
        let unit = if max == 1 { "byte" } else { "bytes" };
        errs.push(FieldError {
            kind: FieldErrorKind::TooLong,
            field: field(path),
            value: crate::resources::field::BadValue::Omit,
            detail: format!("may not be more than {max} {unit}"),
        });
        return;
    }
    if let Some(min) = c.min_length.filter(|m| n < *m) {
        let d = format!("{path} in body should be at least {min} chars long");
        errs.push(invalid(path, Value::String(text.into()), d));
        return;
    }
    if let Some(p) = &c.pattern {
        if !p.matches(text) {
            let d = format!("{path} in body should match '{}'", p.text);
            errs.push(invalid(path, Value::String(text.into()), d));
        }
    }
}

/// `formatValidator` for the string formats checked here.
fn format_check(s: &Schema, text: &str, path: &str, errs: &mut Vec<FieldError>) {
    let format = kept_format(s);
    if format.is_empty() || super::formats::valid(format, text) {
        return;
    }
    errs.push(FieldError {
        kind: FieldErrorKind::TypeInvalid,
        field: field(path),
        value: crate::resources::field::BadValue::Value(Value::String(text.into())),
        detail: format!(
            "{path} in body must be of type {format}: {}",
            go_quote(text)
        ),
    });
}

/// `numberValidator`: 1.36's range check of integer formats, then `multipleOf`, `minimum`
/// and `maximum`.
fn number_checks(s: &Schema, v: &Value, path: &str, errs: &mut Vec<FieldError>) {
    let Some(f) = v.as_f64() else {
        return;
    };
    let int = v
        .as_i64()
        .filter(|_| !v.as_number().is_some_and(|n| n.is_f64()));
    let format = kept_format(s);
    if s.ty == "integer" {
        let detail = if format.is_empty() {
            "(default format)".to_string()
        } else {
            format!("with format {format}")
        };
        let out_of_range = int.is_none() && f.fract() != 0.0
            || (format == "int32" && !(f64::from(i32::MIN)..=f64::from(i32::MAX)).contains(&f));
        if out_of_range {
            let d = format!("Checked value must be of type integer {detail} in {path}");
            errs.push(invalid("", Value::String(String::new()), d));
        }
    }
    if s.ty == "number" && format == "float" && f.is_finite() && f.abs() > f64::from(f32::MAX) {
        let d = format!("Checked value must be of type number with format float in {path}");
        errs.push(invalid("", Value::String(String::new()), d));
    }
    let c = &s.checks;
    let bound = |b: f64| match int {
        Some(_) => (b as i64).to_string(),
        None => crate::resources::field::go_v_float(b),
    };
    if let Some(m) = c.multiple_of {
        let factor = if int.is_some() { m.trunc() } else { m };
        if factor <= 0.0 {
            let d = format!(
                "factor MultipleOf declared for {path} must be positive: {}",
                bound(m)
            );
            errs.push(invalid(path, Value::from(factor as i64), d));
        } else if !multiple(f, factor) {
            let d = format!("{path} in body should be a multiple of {}", bound(m));
            errs.push(invalid(path, v.clone(), d));
        }
    }
    if let Some(min) = c.minimum {
        let (bad, word) = if c.exclusive_minimum {
            (f <= min, "greater than")
        } else {
            (f < min, "greater than or equal to")
        };
        if bad {
            let d = format!("{path} in body should be {word} {}", bound(min));
            errs.push(invalid(path, v.clone(), d));
        }
    }
    if let Some(max) = c.maximum {
        let (bad, word) = if c.exclusive_maximum {
            (f >= max, "less than")
        } else {
            (f > max, "less than or equal to")
        };
        if bad {
            let d = format!("{path} in body should be {word} {}", bound(max));
            errs.push(invalid(path, v.clone(), d));
        }
    }
}

/// kube-openapi's `MultipleOf`: the quotient (`1/factor*data` for a factor below 1) is an
/// integer within a relative 1e-9 (`IsFloat64AJSONInteger`).
fn multiple(data: f64, factor: f64) -> bool {
    let q = if factor < 1.0 {
        1.0 / factor * data
    } else {
        data / factor
    };
    if !q.is_finite() {
        return false;
    }
    let g = q.trunc();
    let diff = (q - g).abs();
    if diff == 0.0 {
        return true;
    }
    if g == 0.0 {
        return diff < 1e-9 * f64::MIN_POSITIVE;
    }
    diff / (q.abs() + g.abs()) < 1e-9
}

/// `basicCommonValidator`: `enum` (never matched by `null`).
fn enumeration(s: &Schema, v: &Value, path: &str, errs: &mut Vec<FieldError>) {
    let Some(allowed) = &s.checks.enumeration else {
        return;
    };
    if !v.is_null() && allowed.iter().any(|a| a == v || same_number(a, v)) {
        return;
    }
    let texts: Vec<String> = allowed
        .iter()
        .map(|a| match a {
            Value::String(t) => t.clone(),
            other => crate::codec::json::to_compact_string(other),
        })
        .collect();
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    errs.push(FieldError::not_supported(&field(path), v.clone(), &refs));
}

fn same_number(a: &Value, b: &Value) -> bool {
    matches!((a.as_f64(), b.as_f64()), (Some(x), Some(y)) if x == y)
}

#[cfg(test)]
mod tests {
    /// kube-openapi's tolerance: 0.3 is a multiple of 0.1 although 0.3 / 0.1 is not exactly 3.
    #[test]
    fn multiple_of_tolerates_float_error() {
        for (data, factor, want) in [
            (0.3, 0.1, true),
            (0.3, 0.5, false),
            (1.5, 0.5, true),
            (7.0, 2.0, false),
            (6.0, 2.0, true),
            (0.0, 0.5, true),
        ] {
            assert_eq!(super::multiple(data, factor), want, "{data} / {factor}");
        }
    }
}
