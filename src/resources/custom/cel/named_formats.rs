//! Kubernetes' format library (`format.named`, `format.<name>()`, `<format>.validate`): the
//! named string formats of apimachinery's validators, each `validate` giving none for a
//! valid string or the validator's messages.

use std::rc::Rc;

use super::eval::Val;
use crate::resources::validation::names;

/// The formats, by the names the library declares (`ConstantFormats`).
pub const NAMES: &[&str] = &[
    "dns1123Label",
    "dns1123Subdomain",
    "dns1035Label",
    "qualifiedName",
    "dns1123LabelPrefix",
    "dns1123SubdomainPrefix",
    "dns1035LabelPrefix",
    "labelValue",
    "uri",
    "uuid",
    "byte",
    "date",
    "datetime",
];

/// apimachinery's `maskTrailingDash`: a name that may be a prefix (`generateName`) has its
/// trailing dash, and the byte before it, replaced by `a`.
fn mask_trailing_dash(s: &str) -> String {
    let b = s.as_bytes();
    if b.len() > 1 && s.ends_with('-') {
        format!("{}a", String::from_utf8_lossy(&b[..b.len() - 2]))
    } else {
        s.to_string()
    }
}

/// The messages of format `name` for `s`; none when it is valid.
fn validate(name: &str, s: &str) -> Vec<String> {
    let format = |f: &str, msg: &str| {
        if crate::resources::custom::formats::valid(f, s) {
            Vec::new()
        } else {
            vec![msg.to_string()]
        }
    };
    match name {
        "dns1123Label" => names::is_dns1123_label(s),
        "dns1123Subdomain" => names::is_dns1123_subdomain(s),
        "dns1035Label" => names::is_dns1035_label(s),
        "qualifiedName" => names::is_qualified_name(s),
        "dns1123LabelPrefix" => names::is_dns1123_label(&mask_trailing_dash(s)),
        "dns1123SubdomainPrefix" => names::is_dns1123_subdomain(&mask_trailing_dash(s)),
        "dns1035LabelPrefix" => names::is_dns1035_label(&mask_trailing_dash(s)),
        "labelValue" => names::is_valid_label_value(s),
        "uri" => crate::resources::custom::neturl::parse_request_uri(s)
            .err()
            .into_iter()
            .collect(),
        "uuid" => format("uuid", "does not match the UUID format"),
        "byte" => format("byte", "invalid base64"),
        "date" => format("date", "invalid date"),
        _ => format("datetime", "invalid datetime"),
    }
}

/// The library's functions; `None` when `name` is not theirs for these arguments.
pub fn call(name: &str, target: Option<&Val>, args: &[Val]) -> Option<Result<Val, String>> {
    let ok = |v: Val| Some(Ok(v));
    match (name, target, args) {
        ("format.named", None, [Val::Str(n)]) => ok(match NAMES.iter().find(|f| **f == n) {
            Some(f) => super::optional::of(Val::Format(f)),
            None => super::optional::NONE,
        }),
        ("validate", Some(Val::Format(f)), [Val::Str(s)]) => {
            let errs = validate(f, s);
            ok(if errs.is_empty() {
                super::optional::NONE
            } else {
                super::optional::of(Val::List(Rc::new(errs.into_iter().map(Val::Str).collect())))
            })
        }
        (qualified, None, []) => {
            let f = qualified.strip_prefix("format.")?;
            NAMES.iter().find(|n| **n == f).map(|n| Ok(Val::Format(n)))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests;
