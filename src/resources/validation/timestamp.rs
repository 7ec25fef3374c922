//! `metav1.Time` semantics needed by the immutability checks: Go parses timestamps with
//! `time.Parse(time.RFC3339, s)`, compares instants (`Semantic.DeepEqual` uses
//! `a.UTC() == b.UTC()`, nanoseconds included) and prints them with `json.Marshal`, i.e.
//! `"2006-01-02T15:04:05Z"` in UTC with the fraction dropped, or `null` for the zero time.
//! Parsing and formatting are [`crate::codec::rfc3339`]'s.

use serde_json::Value;

use crate::codec::rfc3339;

/// A timestamp field's value as a `metav1.Time`, so that equal instants written differently
/// (other offset) compare equal and errors print them as Go does.
#[derive(Debug, PartialEq)]
pub enum Instant<'a> {
    /// Go's zero `time.Time` (absent, `null` or `0001-01-01T00:00:00Z`); marshals as `null`.
    Zero,
    /// Unix seconds and nanoseconds, compared exactly as `a.UTC() == b.UTC()` does.
    At(i64, u32),
    /// Text Go could not have decoded; compared and shown verbatim.
    Unparsed(&'a Value),
}

/// Reads a timestamp field as Go would hold it.
pub fn instant(v: Option<&Value>) -> Instant<'_> {
    match v {
        None | Some(Value::Null) => Instant::Zero,
        Some(raw @ Value::String(s)) => match rfc3339::parse_full(s) {
            Ok(p) if p.is_go_zero() => Instant::Zero,
            Ok(p) => Instant::At(p.unix, p.nanos),
            Err(_) => Instant::Unparsed(raw),
        },
        Some(raw) => Instant::Unparsed(raw),
    }
}

/// The value Go's field error shows for a `metav1.Time`: `null` or the UTC second string.
pub fn render(i: &Instant<'_>) -> Value {
    match i {
        Instant::Zero => Value::Null,
        Instant::At(secs, _) => Value::String(rfc3339::format(*secs)),
        Instant::Unparsed(raw) => (*raw).clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn instants() {
        let rows = [
            (None, Instant::Zero),
            (Some(json!(null)), Instant::Zero),
            (Some(json!("0001-01-01T00:00:00Z")), Instant::Zero),
            (
                Some(json!("2024-02-29T13:34:56+01:00")),
                Instant::At(1_709_210_096, 0),
            ),
            (
                Some(json!("2024-01-01T00:00:00.5Z")),
                Instant::At(1_704_067_200, 500_000_000),
            ),
        ];
        for (v, want) in rows {
            assert_eq!(instant(v.as_ref()), want, "{v:?}");
        }
        let v = json!("2024-01-01T01:00:00+01:00");
        assert_eq!(render(&instant(Some(&v))), json!("2024-01-01T00:00:00Z"));
        let bad = json!("yesterday");
        assert_eq!(render(&instant(Some(&bad))), bad);
        let not_leap = json!("2023-02-29T00:00:00Z");
        assert_eq!(instant(Some(&not_leap)), Instant::Unparsed(&not_leap));
    }
}
