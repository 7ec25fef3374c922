//! `metav1.Time` semantics needed by the immutability checks: Go parses timestamps with
//! `time.Parse(time.RFC3339, s)`, compares instants (`Semantic.DeepEqual` uses
//! `a.UTC() == b.UTC()`, nanoseconds included) and prints them with `json.Marshal`, i.e.
//! `"2006-01-02T15:04:05Z"` in UTC with the fraction dropped, or `null` for the zero time.

use serde_json::Value;

fn digits(b: &[u8]) -> Option<i64> {
    if b.is_empty() || !b.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(b.iter().fold(0i64, |n, d| n * 10 + i64::from(d - b'0')))
}

fn is_leap(y: i64) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        2 if is_leap(y) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// Parses an RFC 3339 timestamp as Go's fast path does (`2006-01-02T15:04:05[.frac](Z|±hh:mm)`)
/// into Unix seconds and nanoseconds; `None` where Go would fail to decode.
pub fn parse_rfc3339(s: &str) -> Option<(i64, u32)> {
    let b = s.as_bytes();
    if b.len() < 19
        || b[4] != b'-'
        || b[7] != b'-'
        || b[10] != b'T'
        || b[13] != b':'
        || b[16] != b':'
    {
        return None;
    }
    let year = digits(&b[0..4])?;
    let month = digits(&b[5..7]).filter(|m| (1..=12).contains(m))?;
    let day = digits(&b[8..10]).filter(|d| (1..=days_in_month(year, month)).contains(d))?;
    let hour = digits(&b[11..13]).filter(|h| *h <= 23)?;
    let min = digits(&b[14..16]).filter(|m| *m <= 59)?;
    let sec = digits(&b[17..19]).filter(|s| *s <= 59)?;
    let mut rest = &b[19..];
    let mut nanos: u32 = 0;
    if rest.len() >= 2 && rest[0] == b'.' && rest[1].is_ascii_digit() {
        let n = 1 + rest[1..].iter().take_while(|c| c.is_ascii_digit()).count();
        let frac = &rest[1..n];
        for i in 0..9 {
            nanos = nanos * 10 + frac.get(i).map_or(0, |d| u32::from(d - b'0'));
        }
        rest = &rest[n..];
    }
    let offset = match rest {
        [b'Z'] => 0,
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] => {
            let h = digits(&[*h1, *h2]).filter(|h| *h <= 23)?;
            let m = digits(&[*m1, *m2]).filter(|m| *m <= 59)?;
            let off = (h * 60 + m) * 60;
            if *sign == b'-' {
                -off
            } else {
                off
            }
        }
        _ => return None,
    };
    let secs = days_from_civil(year, month, day) * 86_400 + hour * 3600 + min * 60 + sec - offset;
    Some((secs, nanos))
}

/// Formats Unix seconds as `metav1.Time` marshals: UTC, second precision, `Z` suffix.
pub fn format_rfc3339_utc(secs: i64) -> String {
    let (y, m, d) = civil_from_days(secs.div_euclid(86_400));
    let t = secs.rem_euclid(86_400);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        t / 3600,
        t % 3600 / 60,
        t % 60
    )
}

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
        Some(raw @ Value::String(s)) => match parse_rfc3339(s) {
            // Go's zero time is 0001-01-01T00:00:00Z, which marshals as null.
            Some((secs, 0)) if secs == ZERO_TIME_SECS => Instant::Zero,
            Some((secs, nanos)) => Instant::At(secs, nanos),
            None => Instant::Unparsed(raw),
        },
        Some(raw) => Instant::Unparsed(raw),
    }
}

/// Unix seconds of Go's zero `time.Time` (0001-01-01T00:00:00Z).
const ZERO_TIME_SECS: i64 = -62_135_596_800;

/// The value Go's field error shows for a `metav1.Time`: `null` or the UTC second string.
pub fn render(i: &Instant<'_>) -> Value {
    match i {
        Instant::Zero => Value::Null,
        Instant::At(secs, _) => Value::String(format_rfc3339_utc(*secs)),
        Instant::Unparsed(raw) => (*raw).clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parse_and_format() {
        let cases: &[(&str, Option<(i64, u32)>)] = &[
            ("1970-01-01T00:00:00Z", Some((0, 0))),
            ("2024-02-29T12:34:56Z", Some((1_709_210_096, 0))),
            ("2024-02-29T13:34:56+01:00", Some((1_709_210_096, 0))),
            ("2024-02-29T12:04:56-00:30", Some((1_709_210_096, 0))),
            ("2024-01-01T00:00:00.5Z", Some((1_704_067_200, 500_000_000))),
            (
                "2024-01-01T00:00:00.1234567891Z",
                Some((1_704_067_200, 123_456_789)),
            ),
            ("2023-02-29T00:00:00Z", None),
            ("2024-01-01 00:00:00Z", None),
            ("2024-01-01T24:00:00Z", None),
            ("2024-01-01T00:00:00", None),
            ("2024-01-01T00:00:00+0100", None),
            ("", None),
        ];
        for (s, want) in cases {
            assert_eq!(parse_rfc3339(s), *want, "{s}");
        }
        assert_eq!(format_rfc3339_utc(1_709_210_096), "2024-02-29T12:34:56Z");
        assert_eq!(format_rfc3339_utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(format_rfc3339_utc(-1), "1969-12-31T23:59:59Z");
        assert_eq!(
            parse_rfc3339("0001-01-01T00:00:00Z"),
            Some((ZERO_TIME_SECS, 0))
        );
    }

    #[test]
    fn instants() {
        assert_eq!(instant(None), Instant::Zero);
        assert_eq!(instant(Some(&json!("0001-01-01T00:00:00Z"))), Instant::Zero);
        let v = json!("2024-01-01T01:00:00+01:00");
        assert_eq!(render(&instant(Some(&v))), json!("2024-01-01T00:00:00Z"));
        let bad = json!("yesterday");
        assert_eq!(render(&instant(Some(&bad))), bad);
    }
}
