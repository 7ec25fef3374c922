//! Field selectors (`fields.ParseSelector` from `k8s.io/apimachinery/pkg/fields/selector.go`).
//!
//! Grammar: comma-separated terms `field=value`, `field==value` or `field!=value`. Values may
//! escape `\`, `,` and `=` with a backslash (`fields.EscapeValue`); the field part is never
//! unescaped and is split at the first operator. Terms are sorted as raw strings before they
//! are parsed, so both the canonical form and *which* bad term is reported follow that order.
//!
//! Error texts (each the full 400 BadRequest message kube-apiserver returns):
//! * `invalid selector: 'a,b'; can't understand 'b'` (a term without an operator);
//! * `invalid field selector: invalid escape sequence: \x` (also a trailing lone `\`);
//! * `invalid field selector: unescaped character in value: 61` (an unescaped `=` in a value;
//!   Go prints the rune with `%v`, i.e. as its decimal code point);
//! * from [`FieldSelector::validate_fields`]: `"spec.foo" is not a known field selector: only
//!   "metadata.name", "metadata.namespace"` or `field label not supported: spec.foo`.

use std::fmt;

/// The fields `runtime.DefaultMetaV1FieldSelectorConversion` accepts: what every kind without
/// its own field-label conversion (ControllerRevision, the RBAC kinds) can select on.
pub const DEFAULT_FIELD_LABELS: &[&str] = &["metadata.name", "metadata.namespace"];

/// One `field=value` (`equals`) or `field!=value` term; `value` is unescaped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldTerm {
    field: String,
    value: String,
    equals: bool,
}

impl FieldTerm {
    /// The field path, e.g. `metadata.name`.
    pub fn field(&self) -> &str {
        &self.field
    }

    /// The literal (unescaped) value compared against.
    pub fn value(&self) -> &str {
        &self.value
    }

    /// True for `=`/`==` (`hasTerm`), false for `!=` (`notHasTerm`).
    pub fn is_equals(&self) -> bool {
        self.equals
    }
}

impl fmt::Display for FieldTerm {
    /// `field=value` / `field!=value` with the value re-escaped (`==` prints as `=`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let op = if self.equals { "=" } else { "!=" };
        write!(f, "{}{op}{}", self.field, escape_value(&self.value))
    }
}

/// A parsed field selector: all terms must hold. Empty matches everything.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FieldSelector {
    terms: Vec<FieldTerm>,
}

impl FieldSelector {
    /// `fields.ParseSelector(s)`. `Err` is the full text kube-apiserver returns in the 400
    /// BadRequest for a bad `fieldSelector` (nothing is wrapped around it). As in Go, a term
    /// whose field and value are both empty (`=`, `==`, `!=`) is dropped.
    pub fn parse(s: &str) -> Result<FieldSelector, String> {
        let mut parts = split_terms(s);
        crate::sort::sort(&mut parts);
        let mut terms = Vec::new();
        for part in parts {
            if part.is_empty() {
                continue;
            }
            let Some((field, op, raw)) = split_term(part) else {
                return Err(format!(
                    "invalid selector: '{s}'; can't understand '{part}'"
                ));
            };
            let value = unescape_value(raw)?;
            if field.is_empty() && value.is_empty() {
                continue; // Transform turns ""="" into Everything, which andTerm drops.
            }
            terms.push(FieldTerm {
                field: field.to_string(),
                value,
                equals: op != "!=",
            });
        }
        Ok(FieldSelector { terms })
    }

    /// `fields.Everything()`.
    pub fn everything() -> FieldSelector {
        FieldSelector::default()
    }

    /// `fields.OneTermEqualSelector(field, value)`: what the handler injects for the
    /// deprecated `/watch/.../NAME` path form (`metadata.name=NAME`).
    pub fn one_term_equal(field: &str, value: &str) -> FieldSelector {
        FieldSelector {
            terms: vec![FieldTerm {
                field: field.to_string(),
                value: value.to_string(),
                equals: true,
            }],
        }
    }

    /// `Selector.Empty()`: nothing restricted.
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// The terms in canonical (sorted raw text) order.
    pub fn terms(&self) -> &[FieldTerm] {
        &self.terms
    }

    /// Whether an object matches, given `get(field)` = its selectable field value (a kind's
    /// `GetAttrs` field set). An unknown field reads as `""`, as `fields.Set.Get` does.
    pub fn matches(&self, get: &dyn Fn(&str) -> Option<String>) -> bool {
        self.terms.iter().all(|t| {
            let got = get(&t.field).unwrap_or_default();
            (got == t.value) == t.equals
        })
    }

    /// `Selector.RequiresExactMatch(field)`: the value of the first `field=value` term, used
    /// for single-object watches (`metadata.name`) and RequestInfo's name for RBAC.
    pub fn requires_exact_match(&self, field: &str) -> Option<String> {
        self.terms
            .iter()
            .find(|t| t.equals && t.field == field)
            .map(|t| t.value.clone())
    }

    /// The handler's `FieldSelector.Transform(ConvertFieldLabel)`: rejects the first term
    /// (canonical order) whose field the kind cannot select on; 400 BadRequest with this text.
    ///
    /// `supported` is the kind's field-label list. Kinds without a conversion function use
    /// `runtime.DefaultMetaV1FieldSelectorConversion`, recognised here by `supported` being
    /// exactly `DEFAULT_FIELD_LABELS` (any order): `"spec.foo" is not a known field
    /// selector: only "metadata.name", "metadata.namespace"`. Any other list stands for a
    /// registered conversion function (Namespace: `metadata.name`, `status.phase`), which
    /// says `field label not supported: spec.foo`.
    pub fn validate_fields(&self, supported: &[&str]) -> Result<(), String> {
        let is_default = supported.len() == DEFAULT_FIELD_LABELS.len()
            && DEFAULT_FIELD_LABELS.iter().all(|d| supported.contains(d));
        match self.terms.iter().find(|t| !supported.contains(&t.field.as_str())) {
            None => Ok(()),
            Some(t) if is_default => Err(format!(
                "\"{}\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\"",
                go_quote_body(&t.field)
            )),
            Some(t) => Err(format!("field label not supported: {}", t.field)),
        }
    }
}

impl fmt::Display for FieldSelector {
    /// `Selector.String()`: terms joined by `,`, values escaped.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, t) in self.terms.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{t}")?;
        }
        Ok(())
    }
}

/// `fields.EscapeValue`: `\` → `\\`, `,` → `\,`, `=` → `\=`, so any literal can be a value.
pub fn escape_value(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(c, '\\' | ',' | '=') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `fields.UnescapeValue`: the inverse of [`escape_value`]; `Err` carries Go's error text.
pub fn unescape_value(s: &str) -> Result<String, String> {
    let mut out = String::with_capacity(s.len());
    let mut in_slash = false;
    for c in s.chars() {
        if in_slash {
            if !matches!(c, '\\' | ',' | '=') {
                return Err(format!(
                    "invalid field selector: invalid escape sequence: \\{c}"
                ));
            }
            out.push(c);
            in_slash = false;
        } else if c == '\\' {
            in_slash = true;
        } else if c == ',' || c == '=' {
            let code = c as u32;
            return Err(format!(
                "invalid field selector: unescaped character in value: {code}"
            ));
        } else {
            out.push(c);
        }
    }
    if in_slash {
        return Err("invalid field selector: invalid escape sequence: \\".to_string());
    }
    Ok(out)
}

/// `splitTerms`: split at commas not preceded by an escaping backslash (escapes kept).
fn split_terms(s: &str) -> Vec<&str> {
    if s.is_empty() {
        return Vec::new();
    }
    let mut terms = Vec::new();
    let (mut start, mut in_slash) = (0, false);
    for (i, c) in s.char_indices() {
        if in_slash {
            in_slash = false;
        } else if c == '\\' {
            in_slash = true;
        } else if c == ',' {
            terms.push(&s[start..i]);
            start = i + 1;
        }
    }
    terms.push(&s[start..]);
    terms
}

/// `splitTerm`: the first position where `!=`, `==` or `=` starts (tried in that order).
fn split_term(term: &str) -> Option<(&str, &'static str, &str)> {
    for (i, _) in term.char_indices() {
        for op in ["!=", "==", "="] {
            if term[i..].starts_with(op) {
                return Some((&term[..i], op, &term[i + op.len()..]));
            }
        }
    }
    None
}

/// The inside of Go's `%q` for a field label: quotes and backslashes escaped, control
/// characters as `\xNN` / `\u...`, printable text as is.
fn go_quote_body(s: &str) -> String {
    let q = crate::codec::go_quote(s);
    q[1..q.len() - 1].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_forms() {
        let cases = [
            ("", ""),
            ("a=b", "a=b"),
            ("a==b", "a=b"),
            ("a!=b", "a!=b"),
            ("b=1,a=2", "a=2,b=1"),
            ("x=", "x="),
            ("=", ""),
            ("==", ""),
            ("!=", ""),
            ("=,a=b", "a=b"),
            ("a=b,,c=d,", "a=b,c=d"),
            ("=x", "=x"),
            ("a=b\\,c", "a=b\\,c"),
            ("a=b\\=c\\\\", "a=b\\=c\\\\"),
            ("a=!b", "a=!b"),
        ];
        for (input, want) in cases {
            let sel = FieldSelector::parse(input).unwrap_or_else(|e| panic!("{input:?}: {e}"));
            assert_eq!(sel.to_string(), want, "{input:?}");
        }
        let sel = FieldSelector::parse("a=b\\,c").unwrap();
        let t = &sel.terms()[0];
        assert_eq!((t.field(), t.value(), t.is_equals()), ("a", "b,c", true));
    }

    #[test]
    fn parse_errors() {
        let cases = [
            ("a", "invalid selector: 'a'; can't understand 'a'"),
            ("z=1,b", "invalid selector: 'z=1,b'; can't understand 'b'"),
            (
                "a!==b",
                "invalid field selector: unescaped character in value: 61",
            ),
            (
                "a=b=c",
                "invalid field selector: unescaped character in value: 61",
            ),
            (
                "a\\=b=c",
                "invalid field selector: unescaped character in value: 61",
            ),
            (
                "a=b\\x",
                "invalid field selector: invalid escape sequence: \\x",
            ),
            (
                "a=b\\",
                "invalid field selector: invalid escape sequence: \\",
            ),
            (
                "b=\\q,a",
                "invalid selector: 'b=\\q,a'; can't understand 'a'",
            ),
        ];
        for (input, want) in cases {
            assert_eq!(
                FieldSelector::parse(input),
                Err(want.to_string()),
                "{input:?}"
            );
        }
    }

    #[test]
    fn matching_and_exact_match() {
        let get = |f: &str| match f {
            "metadata.name" => Some("x".to_string()),
            "metadata.namespace" => Some("ns".to_string()),
            _ => None,
        };
        let cases = [
            ("", true),
            ("metadata.name=x", true),
            ("metadata.name==y", false),
            ("metadata.name!=y", true),
            ("metadata.name=x,metadata.namespace=ns", true),
            ("metadata.name=x,metadata.namespace!=ns", false),
            ("spec.foo=", true),
            ("spec.foo!=", false),
        ];
        for (sel, want) in cases {
            assert_eq!(
                FieldSelector::parse(sel).unwrap().matches(&get),
                want,
                "{sel}"
            );
        }
        let exact = [
            ("metadata.name=x", Some("x")),
            ("metadata.name!=x", None),
            ("metadata.name!=y,metadata.name=x", Some("x")),
            ("metadata.namespace=ns", None),
            ("metadata.name=a\\,b", Some("a,b")),
        ];
        for (sel, want) in exact {
            let s = FieldSelector::parse(sel).unwrap();
            assert_eq!(
                s.requires_exact_match("metadata.name").as_deref(),
                want,
                "{sel}"
            );
        }
        let one = FieldSelector::one_term_equal("metadata.name", "a=b");
        assert_eq!(one.to_string(), "metadata.name=a\\=b");
        assert!(FieldSelector::everything().is_empty() && !one.is_empty());
    }

    #[test]
    fn field_label_validation() {
        let ns: &[&str] = &["metadata.name", "status.phase"];
        let cases: [(&str, &[&str], Result<(), String>); 6] = [
            ("metadata.name=a,metadata.namespace=b", DEFAULT_FIELD_LABELS, Ok(())),
            ("", DEFAULT_FIELD_LABELS, Ok(())),
            (
                "spec.foo=bar",
                &["metadata.namespace", "metadata.name"],
                Err(r#""spec.foo" is not a known field selector: only "metadata.name", "metadata.namespace""#.into()),
            ),
            (
                "z=1,b\"q=2",
                DEFAULT_FIELD_LABELS,
                Err(r#""b\"q" is not a known field selector: only "metadata.name", "metadata.namespace""#.into()),
            ),
            ("status.phase=Active", ns, Ok(())),
            ("metadata.namespace=x", ns, Err("field label not supported: metadata.namespace".into())),
        ];
        for (sel, supported, want) in cases {
            assert_eq!(
                FieldSelector::parse(sel)
                    .unwrap()
                    .validate_fields(supported),
                want,
                "{sel}"
            );
        }
    }

    #[test]
    fn escape_round_trip() {
        for s in ["", "plain", "a,b=c\\d", "\\\\,,==", "ünï"] {
            assert_eq!(unescape_value(&escape_value(s)).as_deref(), Ok(s));
        }
    }
}
