//! RFC 3339 timestamps as `metav1.Time` reads and writes them.
//!
//! The API server parses timestamps with Go's `time.Parse(time.RFC3339, s)` and writes them as
//! `t.UTC().Format(time.RFC3339)`: UTC, second precision, `Z` suffix. Clients see the parse
//! errors verbatim (a bad `creationTimestamp` answers 400 with Go's text), so [`parse`] follows
//! Go's layout-driven parser, including its leniency (a one-digit hour, `,` as the fraction
//! separator, offsets up to `+24:60`) and its exact error messages. No wall clock is read here.

/// Go's `time.RFC3339` layout, quoted in every "cannot parse" message.
const LAYOUT: &str = "2006-01-02T15:04:05Z07:00";

/// Unix seconds of Go's zero `time.Time` (`0001-01-01T00:00:00Z`), which `metav1.Time` treats as
/// unset (marshals as `null`, dropped by `omitzero`).
pub const ZERO_TIME_UNIX: i64 = -62_135_596_800;

const SECONDS_PER_DAY: i64 = 86_400;

/// Formats Unix seconds as `2024-01-02T03:04:05Z`, exactly as `metav1.Time` marshals.
///
/// Years outside 0..=9999 are written as Go's `appendInt(year, 4)` does (sign, at least four
/// digits), so any `i64` formats without panicking.
pub fn format(unix_seconds: i64) -> String {
    let days = unix_seconds.div_euclid(SECONDS_PER_DAY);
    let secs = unix_seconds.rem_euclid(SECONDS_PER_DAY);
    let (year, month, day) = civil_from_days(days);
    let (h, m, s) = (secs / 3600, (secs % 3600) / 60, secs % 60);
    // Written digit by digit: every write stamps a time or two, where `format!` cost more
    // than a thousand instructions a call.
    let mut out = String::with_capacity(20);
    if year < 0 {
        out.push('-');
    }
    let year = year.unsigned_abs();
    if year >= 10_000 {
        out.push_str(&(year / 10_000).to_string());
    }
    for d in [year / 1000 % 10, year / 100 % 10, year / 10 % 10, year % 10] {
        out.push(char::from(b'0' + d as u8));
    }
    let two = |out: &mut String, sep: char, v: i64| {
        out.push(sep);
        out.push(char::from(b'0' + (v / 10) as u8));
        out.push(char::from(b'0' + (v % 10) as u8));
    };
    two(&mut out, '-', month);
    two(&mut out, '-', day);
    two(&mut out, 'T', h);
    two(&mut out, ':', m);
    two(&mut out, ':', s);
    out.push('Z');
    out
}

/// Formats Unix seconds one year on (`AddDate(1, 0, 0)`: 29 February becomes 1 March) as
/// `Format(time.RFC1123)` writes a UTC time: `Mon, 02 Jan 2006 15:04:05 UTC` (kube-openapi's
/// `Expires` on a document asked for by hash).
pub fn format_rfc1123_next_year(unix_seconds: i64) -> String {
    let secs = unix_seconds.rem_euclid(SECONDS_PER_DAY);
    let (year, month, day) = civil_from_days(unix_seconds.div_euclid(SECONDS_PER_DAY));
    let days = days_from_civil(year + 1, month, 1) + day - 1;
    format_rfc1123(days * SECONDS_PER_DAY + secs, "UTC")
}

/// A UTC time as `Format(time.RFC1123)` (`zone` "UTC") or `Format(time.RFC1123Z)` (`zone`
/// "+0000") writes it: `Mon, 02 Jan 2006 15:04:05 UTC`.
pub fn format_rfc1123(unix_seconds: i64, zone: &str) -> String {
    const DAYS: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let secs = unix_seconds.rem_euclid(SECONDS_PER_DAY);
    let days = unix_seconds.div_euclid(SECONDS_PER_DAY);
    let (year, month, day) = civil_from_days(days);
    let weekday = DAYS[(days + 4).rem_euclid(7) as usize];
    let (h, m, s) = (secs / 3600, (secs % 3600) / 60, secs % 60);
    format!(
        "{weekday}, {day:02} {} {year:04} {h:02}:{m:02}:{s:02} {zone}",
        MONTHS[(month - 1) as usize]
    )
}

/// Parses an RFC 3339 timestamp as Go's `time.Parse(time.RFC3339, s)` does and returns Unix
/// seconds (fractions truncated toward the past, as `Time.Unix()` does).
///
/// On failure the error is Go's `*time.ParseError` text, for example
/// `parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"` or
/// `parsing time "2024-13-01T00:00:00Z": month out of range`.
pub fn parse(s: &str) -> Result<i64, String> {
    parse_full(s).map(|p| p.unix)
}

/// A parsed timestamp: Unix seconds plus the nanoseconds Go keeps (only needed to tell Go's
/// zero time apart from a time a fraction after it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Parsed {
    /// Seconds since the Unix epoch, UTC.
    pub unix: i64,
    /// Fractional nanoseconds (0..1e9).
    pub nanos: u32,
}

impl Parsed {
    /// Whether this is Go's zero `time.Time` (`IsZero()`), which `metav1.Time` encodes as `null`.
    pub fn is_go_zero(&self) -> bool {
        self.unix == ZERO_TIME_UNIX && self.nanos == 0
    }
}

/// Like [`parse`] but keeps the nanoseconds, for callers that must know whether the value is
/// Go's zero time.
pub fn parse_full(s: &str) -> Result<Parsed, String> {
    parse_layout(s, false)
}

/// `metav1.MicroTime`'s layout, `RFC3339Micro`: exactly six fractional digits.
const MICRO_LAYOUT: &str = "2006-01-02T15:04:05.000000Z07:00";

/// Parses as `time.Parse(metav1.RFC3339Micro, s)` does (`MicroTime.UnmarshalJSON`): the
/// fraction is required and has exactly six digits.
pub fn parse_micro(s: &str) -> Result<Parsed, String> {
    parse_layout(s, true)
}

/// Formats as `MicroTime` marshals: UTC, `.000000` microseconds (nanoseconds truncated), `Z`.
pub fn format_micro(unix_seconds: i64, nanos: u32) -> String {
    let seconds = format(unix_seconds);
    let stem = seconds.strip_suffix('Z').unwrap_or(&seconds);
    format!("{stem}.{:06}Z", nanos / 1000)
}

fn parse_layout(s: &str, micro: bool) -> Result<Parsed, String> {
    let layout = if micro { MICRO_LAYOUT } else { LAYOUT };
    let err_elem = |layout_elem: &str, value_elem: &str| {
        format!(
            "parsing time {} as {}: cannot parse {} as {}",
            quote(s),
            quote(layout),
            quote(value_elem),
            quote(layout_elem)
        )
    };
    let err_msg = |msg: &str| format!("parsing time {}{}", quote(s), msg);

    let b = s.as_bytes();
    let mut rest: &[u8] = b;
    // "2006": exactly four bytes, the first a digit, all digits.
    if rest.len() < 4 || !rest[0].is_ascii_digit() {
        return Err(err_elem("2006", as_str(rest)));
    }
    let year = match atoi(&rest[..4]) {
        Some(y) => y,
        None => return Err(err_elem("2006", as_str(rest))),
    };
    rest = &rest[4..];

    rest = skip(rest, b'-').map_err(|r| err_elem("-", as_str(r)))?;
    let hold = rest;
    let (month, r) = getnum(rest, true).ok_or_else(|| err_elem("01", as_str(hold)))?;
    rest = r;
    if !(1..=12).contains(&month) {
        return Err(err_msg(": month out of range"));
    }

    rest = skip(rest, b'-').map_err(|r| err_elem("-", as_str(r)))?;
    let hold = rest;
    let (day, r) = getnum(rest, true).ok_or_else(|| err_elem("02", as_str(hold)))?;
    rest = r;

    rest = skip(rest, b'T').map_err(|r| err_elem("T", as_str(r)))?;
    let hold = rest;
    let (hour, r) = getnum(rest, false).ok_or_else(|| err_elem("15", as_str(hold)))?;
    rest = r;
    if hour >= 24 {
        return Err(err_msg(": hour out of range"));
    }

    rest = skip(rest, b':').map_err(|r| err_elem(":", as_str(r)))?;
    let hold = rest;
    let (minute, r) = getnum(rest, true).ok_or_else(|| err_elem("04", as_str(hold)))?;
    rest = r;
    if minute >= 60 {
        return Err(err_msg(": minute out of range"));
    }

    rest = skip(rest, b':').map_err(|r| err_elem(":", as_str(r)))?;
    let hold = rest;
    let (second, r) = getnum(rest, true).ok_or_else(|| err_elem("05", as_str(hold)))?;
    rest = r;
    if second >= 60 {
        return Err(err_msg(": second out of range"));
    }
    let mut nanos: u32 = 0;
    if micro {
        // stdFracSecond0: a separator and exactly six digits.
        let six = rest.len() >= 7
            && matches!(rest[0], b'.' | b',')
            && rest[1..7].iter().all(u8::is_ascii_digit);
        if !six {
            return Err(err_elem(".000000", as_str(rest)));
        }
        let micros = rest[1..7]
            .iter()
            .fold(0u32, |acc, d| acc * 10 + u32::from(d - b'0'));
        nanos = micros * 1000;
        rest = &rest[7..];
    } else if rest.len() >= 2 && (rest[0] == b'.' || rest[0] == b',') && rest[1].is_ascii_digit() {
        // A fraction the layout does not name is still accepted after the seconds.
        let mut n = 2;
        while n < rest.len() && rest[n].is_ascii_digit() {
            n += 1;
        }
        let digits = &rest[1..n.min(10)];
        let mut ns: u64 = 0;
        for d in digits {
            ns = ns * 10 + u64::from(d - b'0');
        }
        for _ in digits.len()..9 {
            ns *= 10;
        }
        nanos = ns as u32;
        rest = &rest[n..];
    }

    // "Z07:00": `Z`, or a sign, two-digit hours, `:`, two-digit minutes.
    let offset_seconds: i64;
    if !rest.is_empty() && rest[0] == b'Z' {
        rest = &rest[1..];
        offset_seconds = 0;
    } else {
        let hold = rest;
        if rest.len() < 6 || rest[3] != b':' {
            return Err(err_elem("Z07:00", as_str(hold)));
        }
        let sign = rest[0];
        let hh = getnum(&rest[1..3], true).map(|(n, _)| n);
        let mm = hh.and_then(|_| getnum(&rest[4..6], true).map(|(n, _)| n));
        let (hr, mn) = (hh.unwrap_or(0), mm.unwrap_or(0));
        // Go records a range problem before it looks at the parse error or the sign.
        if hr > 24 {
            return Err(err_msg(": time zone offset hour out of range"));
        }
        if mn > 60 {
            return Err(err_msg(": time zone offset minute out of range"));
        }
        if hh.is_none() || mm.is_none() {
            return Err(err_elem("Z07:00", as_str(hold)));
        }
        let magnitude = (hr * 60 + mn) * 60;
        offset_seconds = match sign {
            b'+' => magnitude,
            b'-' => -magnitude,
            _ => return Err(err_elem("Z07:00", as_str(hold))),
        };
        rest = &rest[6..];
    }
    if !rest.is_empty() {
        return Err(err_msg(&format!(": extra text: {}", quote(as_str(rest)))));
    }
    if day < 1 || day > days_in(month, year) {
        return Err(err_msg(": day out of range"));
    }
    let days = days_from_civil(year, month, day);
    let unix = days * SECONDS_PER_DAY + hour * 3600 + minute * 60 + second - offset_seconds;
    Ok(Parsed { unix, nanos })
}

/// The remaining input as text for error messages (the input is `&str`, and every cut is at an
/// ASCII byte or the end, so this never fails; lossy as a guard).
fn as_str(b: &[u8]) -> &str {
    std::str::from_utf8(b).unwrap_or("")
}

/// Go's `skip` for a one-byte literal: the rest after it, or the rest where it failed.
fn skip(value: &[u8], lit: u8) -> Result<&[u8], &[u8]> {
    match value.first() {
        Some(&c) if c == lit => Ok(&value[1..]),
        _ => Err(value),
    }
}

/// Go's `getnum`: one or two leading digits (exactly two when `fixed`).
fn getnum(s: &[u8], fixed: bool) -> Option<(i64, &[u8])> {
    let d0 = *s.first().filter(|c| c.is_ascii_digit())?;
    match s.get(1).filter(|c| c.is_ascii_digit()) {
        Some(&d1) => Some((i64::from(d0 - b'0') * 10 + i64::from(d1 - b'0'), &s[2..])),
        None if fixed => None,
        None => Some((i64::from(d0 - b'0'), &s[1..])),
    }
}

/// Go's `atoi` on the four year bytes: digits only (the first byte is already a digit).
fn atoi(s: &[u8]) -> Option<i64> {
    s.iter().try_fold(0i64, |acc, &c| {
        c.is_ascii_digit().then(|| acc * 10 + i64::from(c - b'0'))
    })
}

fn is_leap(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

fn days_in(month: i64, year: i64) -> i64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
pub(crate) fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (inverse of the above).
pub(crate) fn civil_from_days(days: i64) -> (i64, i64, i64) {
    // i128 keeps the arithmetic exact for every i64 second count.
    let z = i128::from(days) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i128::from(month <= 2);
    (year as i64, month as i64, day as i64)
}

/// The `time` package's `quote`: ASCII printable bytes verbatim (`"` and `\` escaped), every
/// other byte (controls, each byte of a non-ASCII character) as `\xNN`.
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for &b in s.as_bytes() {
        match b {
            b'"' | b'\\' => {
                out.push('\\');
                out.push(b as char);
            }
            0x20..=0x7e => out.push(b as char),
            _ => out.push_str(&format!("\\x{b:02x}")),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc1123_a_year_on() {
        assert_eq!(
            format_rfc1123_next_year(1_795_515_072),
            "Wed, 24 Nov 2027 10:11:12 UTC"
        );
        // 29 February 2024, a year on, is normalized as Go's AddDate does.
        assert_eq!(
            format_rfc1123_next_year(1_709_164_800),
            "Sat, 01 Mar 2025 00:00:00 UTC"
        );
    }

    #[test]
    fn format_table() {
        let cases: &[(i64, &str)] = &[
            (0, "1970-01-01T00:00:00Z"),
            (1_704_164_645, "2024-01-02T03:04:05Z"),
            (-1, "1969-12-31T23:59:59Z"),
            (951_782_400, "2000-02-29T00:00:00Z"),
            (ZERO_TIME_UNIX, "0001-01-01T00:00:00Z"),
            (253_402_300_799, "9999-12-31T23:59:59Z"),
            (253_402_300_800, "10000-01-01T00:00:00Z"),
            (-62_167_219_200, "0000-01-01T00:00:00Z"),
            (-62_167_219_201, "-0001-12-31T23:59:59Z"),
        ];
        for (unix, text) in cases {
            assert_eq!(format(*unix), *text, "format({unix})");
        }
        // Extremes do not panic.
        let _ = format(i64::MIN);
        let _ = format(i64::MAX);
    }

    #[test]
    fn parse_ok_table() {
        let cases: &[(&str, i64)] = &[
            ("2024-01-02T03:04:05Z", 1_704_164_645),
            ("1970-01-01T00:00:00Z", 0),
            ("2024-01-02T03:04:05.999999999Z", 1_704_164_645),
            ("2024-01-02T03:04:05,5Z", 1_704_164_645),
            ("2024-01-02T03:04:05.1234567890123Z", 1_704_164_645),
            ("2024-01-02T04:04:05+01:00", 1_704_164_645),
            ("2024-01-02T02:04:05-01:00", 1_704_164_645),
            ("2024-01-02T3:04:05Z", 1_704_164_645),
            ("2024-01-02T03:04:05+24:00", 1_704_164_645 - 86_400),
            ("2000-02-29T00:00:00Z", 951_782_400),
            ("0001-01-01T00:00:00Z", ZERO_TIME_UNIX),
            ("1969-12-31T23:59:59.5Z", -1),
        ];
        for (text, unix) in cases {
            assert_eq!(parse(text), Ok(*unix), "parse({text})");
        }
    }

    #[test]
    fn parse_err_table() {
        let p = |s: &str, elem_v: &str, elem_l: &str| {
            format!(
                "parsing time \"{s}\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"{elem_v}\" as \"{elem_l}\""
            )
        };
        let cases: Vec<(&str, String)> = vec![
            ("x", p("x", "x", "2006")),
            ("", p("", "", "2006")),
            ("20x4-01-01T00:00:00Z", p("20x4-01-01T00:00:00Z", "20x4-01-01T00:00:00Z", "2006")),
            ("2024/01/01", p("2024/01/01", "/01/01", "-")),
            ("2024-1-01T00:00:00Z", p("2024-1-01T00:00:00Z", "1-01T00:00:00Z", "01")),
            ("2024-01-01", p("2024-01-01", "", "T")),
            ("2024-01-01 00:00:00Z", p("2024-01-01 00:00:00Z", " 00:00:00Z", "T")),
            ("2024-01-01T00:00:00", p("2024-01-01T00:00:00", "", "Z07:00")),
            ("2024-01-01T00:00:00z", p("2024-01-01T00:00:00z", "z", "Z07:00")),
            ("2024-01-01T00:00:00.Z", p("2024-01-01T00:00:00.Z", ".Z", "Z07:00")),
            ("2024-01-01T00:00:00*01:00", p("2024-01-01T00:00:00*01:00", "*01:00", "Z07:00")),
            ("2024-01-01T00:0:00Z", p("2024-01-01T00:0:00Z", "0:00Z", "04")),
            (
                "2024-13-01T00:00:00Z",
                "parsing time \"2024-13-01T00:00:00Z\": month out of range".into(),
            ),
            (
                "2024-00-01T00:00:00Z",
                "parsing time \"2024-00-01T00:00:00Z\": month out of range".into(),
            ),
            (
                "2023-02-29T00:00:00Z",
                "parsing time \"2023-02-29T00:00:00Z\": day out of range".into(),
            ),
            (
                "2024-01-00T00:00:00Z",
                "parsing time \"2024-01-00T00:00:00Z\": day out of range".into(),
            ),
            (
                "2024-01-01T24:00:00Z",
                "parsing time \"2024-01-01T24:00:00Z\": hour out of range".into(),
            ),
            (
                "2024-01-01T00:60:00Z",
                "parsing time \"2024-01-01T00:60:00Z\": minute out of range".into(),
            ),
            (
                "2024-01-01T00:00:60Z",
                "parsing time \"2024-01-01T00:00:60Z\": second out of range".into(),
            ),
            (
                "2024-01-01T00:00:00Zjunk",
                "parsing time \"2024-01-01T00:00:00Zjunk\": extra text: \"junk\"".into(),
            ),
            (
                "2024-01-01T00:00:00+25:00",
                "parsing time \"2024-01-01T00:00:00+25:00\": time zone offset hour out of range"
                    .into(),
            ),
            (
                "2024-01-01T00:00:00é",
                "parsing time \"2024-01-01T00:00:00\\xc3\\xa9\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"\\xc3\\xa9\" as \"Z07:00\"".into(),
            ),
        ];
        for (text, want) in cases {
            assert_eq!(parse(text), Err(want), "parse({text:?})");
        }
    }

    #[test]
    fn round_trip_and_zero() {
        for unix in [-86_401i64, 0, 1, 1_700_000_000, 4_102_444_800] {
            assert_eq!(parse(&format(unix)), Ok(unix));
        }
        assert!(parse_full("0001-01-01T00:00:00Z").unwrap().is_go_zero());
        assert!(!parse_full("0001-01-01T00:00:00.5Z").unwrap().is_go_zero());
    }

    /// `MicroTime`: `RFC3339Micro` in, six digits out, UTC.
    #[test]
    fn micro_time() {
        let ok = parse_micro("2026-11-24T10:00:01.123456+01:00").unwrap();
        assert_eq!(
            format_micro(ok.unix, ok.nanos),
            "2026-11-24T09:00:01.123456Z"
        );
        assert_eq!(format_micro(0, 999_999_999), "1970-01-01T00:00:00.999999Z");
        let layout = "\"2006-01-02T15:04:05.000000Z07:00\"";
        for (text, rest) in [
            ("2026-11-24T10:00:01Z", "Z"),
            ("2026-11-24T10:00:01.12345Z", ".12345Z"),
            ("2026-11-24T10:00:01.1234567Z", "7Z"),
        ] {
            let elem = if rest == "7Z" { "Z07:00" } else { ".000000" };
            assert_eq!(
                parse_micro(text).unwrap_err(),
                format!(
                    "parsing time \"{text}\" as {layout}: cannot parse \"{rest}\" as \"{elem}\""
                ),
            );
        }
    }
}
