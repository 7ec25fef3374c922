//! Label and field selectors, parsed, printed and matched as kube-apiserver does.
//!
//! List, watch and deletecollection take `labelSelector` and `fieldSelector` query parameters;
//! RBAC and request attributes look at `metadata.name=` field selectors; watchers filter every
//! event through both. Each must accept exactly what apimachinery accepts, print the same
//! canonical form and fail with the same 400 text, so both grammars live here, ported from
//! `k8s.io/apimachinery/pkg/labels` and `pkg/fields`.
//!
//! How the list handler (`kubernetes/apiserver` `pkg/endpoints/handlers/get.go`, and the
//! deletecollection handler likewise) reports failures, in this order:
//! 1. `labelSelector` does not parse → 400 BadRequest, message = [`LabelSelector::parse`]'s
//!    error text verbatim (no prefix).
//! 2. `fieldSelector` does not parse → 400 BadRequest, message = [`FieldSelector::parse`]'s
//!    error text verbatim.
//! 3. a field label the kind cannot select on → 400 BadRequest, message =
//!    [`FieldSelector::validate_fields`]'s error text.
//!
//! All three are plain `errors.NewBadRequest(err.Error())`: reason `BadRequest`, code 400, no
//! `details`.

mod cel;
pub mod field;
pub mod label;
pub mod shard;

pub use field::FieldSelector;
pub use label::LabelSelector;

/// The string checks of apimachinery's `api/validate/content` package that label selectors
/// apply to keys and values. They live here, not in `label`, so object-metadata validation
/// can reuse the very same texts (`metadata.labels` uses the same two checks).
///
/// Two wordings are version-sensitive and kept as constants: the `validate/content` package
/// (present in 1.35) says "a valid label key" and "must be no more than N bytes"; the older
/// `util/validation` said "a qualified name" and "... N characters". Which one 1.35.0 ships
/// is unconfirmed; the newer wording is used.
pub mod content {
    /// Prefix of the "too many slashes" key error ("a qualified name " before `content`).
    pub const LABEL_KEY_SHAPE_PREFIX: &str = "a valid label key ";
    /// Unit word of `MaxLenError` ("characters" before `content`).
    pub const MAX_LEN_UNIT: &str = "bytes";

    const LABEL_KEY_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
    const LABEL_KEY_MSG: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
    const LABEL_VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
    const LABEL_VALUE_MSG: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
    const SUBDOMAIN_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
    const SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";

    /// `content.IsLabelKey` (a.k.a. `IsQualifiedName`): the error strings for a label key, empty
    /// when valid. Public so metadata validation can share the exact texts.
    pub fn label_key_errors(key: &str) -> Vec<String> {
        let mut errs = Vec::new();
        let parts: Vec<&str> = key.split('/').collect();
        let name = match parts.as_slice() {
            [name] => *name,
            [prefix, name] => {
                if prefix.is_empty() {
                    errs.push("prefix part must be non-empty".to_string());
                } else {
                    for e in dns1123_subdomain_errors(prefix) {
                        errs.push(format!("prefix part {e}"));
                    }
                }
                *name
            }
            _ => {
                return vec![format!(
                    "{LABEL_KEY_SHAPE_PREFIX}{} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                    regex_error(LABEL_KEY_MSG, LABEL_KEY_FMT, &["MyName", "my.name", "123-abc"])
                )]
            }
        };
        if name.is_empty() {
            errs.push("name part must be non-empty".to_string());
        } else if name.len() > 63 {
            errs.push(format!("name part {}", max_len_error(63)));
        }
        if !is_label_name(name) {
            let e = regex_error(
                LABEL_KEY_MSG,
                LABEL_KEY_FMT,
                &["MyName", "my.name", "123-abc"],
            );
            errs.push(format!("name part {e}"));
        }
        errs
    }

    /// `content.IsLabelValue`: error strings for a label value (≤ 63 bytes, may be empty).
    pub fn label_value_errors(value: &str) -> Vec<String> {
        let mut errs = Vec::new();
        if value.len() > 63 {
            errs.push(max_len_error(63));
        }
        if !value.is_empty() && !is_label_name(value) {
            let ex = ["MyValue", "my_value", "12345"];
            errs.push(regex_error(LABEL_VALUE_MSG, LABEL_VALUE_FMT, &ex));
        }
        errs
    }

    /// `content.IsDNS1123Subdomain` (prefix part of a key).
    pub fn dns1123_subdomain_errors(s: &str) -> Vec<String> {
        let mut errs = Vec::new();
        if s.len() > 253 {
            errs.push(max_len_error(253));
        }
        let label_ok = |l: &str| {
            let b = l.as_bytes();
            let edge = |c: &u8| c.is_ascii_lowercase() || c.is_ascii_digit();
            b.first().is_some_and(edge)
                && b.last().is_some_and(edge)
                && b.iter().all(|c| edge(c) || *c == b'-')
        };
        if !s.split('.').all(label_ok) {
            errs.push(regex_error(SUBDOMAIN_MSG, SUBDOMAIN_FMT, &["example.com"]));
        }
        errs
    }

    /// `^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$`.
    pub fn is_label_name(s: &str) -> bool {
        let b = s.as_bytes();
        let edge = |c: &u8| c.is_ascii_alphanumeric();
        b.first().is_some_and(edge)
            && b.last().is_some_and(edge)
            && b.iter().all(|c| edge(c) || matches!(c, b'-' | b'_' | b'.'))
    }

    /// `MaxLenError`.
    pub fn max_len_error(n: usize) -> String {
        format!("must be no more than {n} {MAX_LEN_UNIT}")
    }

    /// `RegexError`; note the quirky `'x',  or 'y', ` spacing, which clients see verbatim.
    pub fn regex_error(msg: &str, re: &str, examples: &[&str]) -> String {
        let ex: Vec<String> = examples.iter().map(|e| format!("'{e}', ")).collect();
        format!(
            "{msg} (e.g. {}regex used for validation is '{re}')",
            ex.join(" or ")
        )
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn key_and_value_checks() {
            let sub = "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
            let long_prefix = format!("{}/x", "a".repeat(254));
            let keys: [(&str, Vec<String>); 6] = [
                ("app", vec![]),
                ("k8s.io/app-1_x.y", vec![]),
                ("/a", vec!["prefix part must be non-empty".into()]),
                ("Ex.com/a", vec![sub.into()]),
                (
                    &long_prefix,
                    vec!["prefix part must be no more than 253 bytes".into()],
                ),
                (&"n".repeat(63), vec![]),
            ];
            for (key, want) in keys {
                assert_eq!(label_key_errors(key), want, "{key}");
            }
            assert!(label_value_errors("").is_empty() && label_value_errors("A.b-c_9").is_empty());
            let long = label_value_errors(&"v".repeat(64));
            assert_eq!(long, vec!["must be no more than 63 bytes".to_string()]);
            assert_eq!(label_value_errors("-a").len(), 1);
            assert_eq!(label_value_errors(&format!("{}-", "v".repeat(63))).len(), 2);
        }
    }
}
