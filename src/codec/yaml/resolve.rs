//! go-yaml v2's implicit typing of plain scalars (`resolve.go`), as sigs.k8s.io/yaml uses it.
//!
//! Both directions need it: reading a request body, a plain `yes` is the boolean `true` and
//! `0x1F` the integer 31 (YAML 1.1); writing a response, a string that would read back as
//! something else (`"true"`, `"123"`, a timestamp such as `creationTimestamp`) must be quoted.

use super::float::format_g32;

/// What a plain scalar means.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Plain {
    Null,
    Bool(bool),
    /// An integer, as decimal JSON text (any size: go-yaml keeps big ones as `big.Int`).
    Int(String),
    Float(f64),
    /// Looks like a timestamp. go-yaml v2 hands it to `interface{}` targets as the string.
    Timestamp,
    Str,
}

/// `resolve("", s)` for a plain scalar.
pub(crate) fn resolve_plain(s: &str) -> Plain {
    let hint = match s.as_bytes().first() {
        None => b'N',
        Some(b'+' | b'-') => b'S',
        Some(b'0'..=b'9') => b'D',
        Some(b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~') => b'M',
        Some(b'.') => b'.',
        Some(_) => return Plain::Str,
    };
    if let Some(p) = lookup(s) {
        return p;
    }
    match hint {
        b'.' => match parse_go_float(s) {
            Some(f) => Plain::Float(f),
            None => Plain::Str,
        },
        b'D' | b'S' => resolve_number(s),
        _ => Plain::Str,
    }
}

/// Whether go-yaml's encoder may write `s` unquoted (`stringv`'s `canUsePlain`): it must read
/// back as a string and not look like a YAML 1.1 base-60 float.
pub(crate) fn can_use_plain(s: &str) -> bool {
    resolve_plain(s) == Plain::Str && !is_base60_float(s)
}

/// The fixed words of `resolveMap`.
fn lookup(s: &str) -> Option<Plain> {
    Some(match s {
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            Plain::Bool(true)
        }
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            Plain::Bool(false)
        }
        "" | "~" | "null" | "Null" | "NULL" => Plain::Null,
        ".nan" | ".NaN" | ".NAN" => Plain::Float(f64::NAN),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => Plain::Float(f64::INFINITY),
        "-.inf" | "-.Inf" | "-.INF" => Plain::Float(f64::NEG_INFINITY),
        _ => return None,
    })
}

/// The `'D'`/`'S'` branch: timestamp, int, uint, float, big int, in go-yaml's order.
fn resolve_number(s: &str) -> Plain {
    if is_timestamp(s) {
        return Plain::Timestamp;
    }
    let plain: String = s.chars().filter(|c| *c != '_').collect();
    let parsed = parse_go_int(&plain);
    if let IntParse::Value {
        negative,
        magnitude,
    } = &parsed
    {
        let fits_i64 = if *negative {
            *magnitude <= 1u128 << 63
        } else {
            *magnitude < 1u128 << 63
        };
        if fits_i64 {
            return Plain::Int(signed_text(*negative, &magnitude.to_string()));
        }
        // `ParseUint` takes no sign.
        let unsigned = !plain.starts_with(['+', '-']);
        if unsigned && *magnitude <= u128::from(u64::MAX) {
            return Plain::Int(magnitude.to_string());
        }
    }
    if is_yaml_style_float(&plain) {
        if let Some(f) = parse_go_float(&plain) {
            return Plain::Float(f);
        }
    }
    // A range error from `ParseUint` (no sign, digits valid) falls back to `big.Int`.
    if !plain.starts_with(['+', '-']) {
        if let IntParse::Value { .. } | IntParse::Big = parsed {
            if let Some(digits) = big_decimal(&plain) {
                return Plain::Int(digits);
            }
        }
    }
    Plain::Str
}

fn signed_text(negative: bool, digits: &str) -> String {
    if negative && digits != "0" {
        format!("-{digits}")
    } else {
        digits.to_string()
    }
}

enum IntParse {
    /// Syntax is valid and the magnitude fits `u128`.
    Value {
        negative: bool,
        magnitude: u128,
    },
    /// Syntax is valid but the magnitude is larger still.
    Big,
    Syntax,
}

/// The base and digits of a Go base-0 integer literal (after any sign): `0x`, `0o`, `0b` need
/// at least one more character; a lone leading `0` means octal.
fn split_base(s: &str) -> (u32, &str) {
    let b = s.as_bytes();
    if b.first() == Some(&b'0') {
        if b.len() >= 3 {
            match b[1].to_ascii_lowercase() {
                b'b' => return (2, &s[2..]),
                b'o' => return (8, &s[2..]),
                b'x' => return (16, &s[2..]),
                _ => {}
            }
        }
        return (8, &s[1..]);
    }
    (10, s)
}

/// `strconv.ParseInt(s, 0, 64)`'s syntax, with the magnitude kept wide enough to also answer
/// `ParseUint` and to tell range errors from syntax errors.
fn parse_go_int(s: &str) -> IntParse {
    if s.is_empty() {
        return IntParse::Syntax;
    }
    let (negative, rest) = match s.as_bytes()[0] {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    if rest.is_empty() {
        return IntParse::Syntax;
    }
    let (base, digits) = split_base(rest);
    let mut magnitude: u128 = 0;
    let mut big = false;
    for c in digits.chars() {
        let Some(d) = c.to_digit(base) else {
            return IntParse::Syntax;
        };
        match magnitude
            .checked_mul(u128::from(base))
            .and_then(|m| m.checked_add(u128::from(d)))
        {
            Some(m) => magnitude = m,
            None => big = true,
        }
    }
    if big {
        IntParse::Big
    } else {
        IntParse::Value {
            negative,
            magnitude,
        }
    }
}

/// `big.Int.SetString(s, 0)` for an unsigned literal, as decimal digits.
fn big_decimal(s: &str) -> Option<String> {
    let (base, digits) = split_base(s);
    if digits.is_empty() && base != 8 {
        return None;
    }
    // Little-endian limbs of 10^9.
    let mut limbs: Vec<u64> = vec![0];
    for c in digits.chars() {
        let d = u64::from(c.to_digit(base)?);
        let mut carry = d;
        for limb in limbs.iter_mut() {
            let v = *limb * u64::from(base) + carry;
            *limb = v % 1_000_000_000;
            carry = v / 1_000_000_000;
        }
        while carry > 0 {
            limbs.push(carry % 1_000_000_000);
            carry /= 1_000_000_000;
        }
    }
    let mut out = limbs.last().copied().unwrap_or(0).to_string();
    for limb in limbs.iter().rev().skip(1) {
        out.push_str(&format!("{limb:09}"));
    }
    Some(out)
}

/// `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`
fn is_yaml_style_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    if b.get(i) == Some(&b'.') {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    } else {
        if digits(&mut i) == 0 {
            return false;
        }
        if b.get(i) == Some(&b'.') {
            i += 1;
            digits(&mut i);
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// `strconv.ParseFloat(s, 64)` for decimal forms: `None` on a syntax error or an overflow
/// (Go's `ErrRange`). Underflow is not an error, as in Go.
pub(crate) fn parse_go_float(s: &str) -> Option<f64> {
    let body = s.strip_prefix(['+', '-']).unwrap_or(s);
    let lower = body.to_ascii_lowercase();
    if matches!(lower.as_str(), "inf" | "infinity") {
        return Some(if s.starts_with('-') {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        });
    }
    if lower == "nan" && body.len() == s.len() {
        return Some(f64::NAN);
    }
    if !is_yaml_style_float(s) {
        return None;
    }
    let f: f64 = s.parse().ok()?;
    f.is_finite().then_some(f)
}

/// YAML 1.1 base-60 floats (`1:20`, `-3:25:45.5`), which go-yaml v2 quotes on output.
fn is_base60_float(s: &str) -> bool {
    let b = s.as_bytes();
    match b.first() {
        Some(b'+' | b'-' | b'0'..=b'9') if b.contains(&b':') => {}
        _ => return false,
    }
    // ^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$
    let mut i = usize::from(matches!(b[0], b'+' | b'-'));
    if !b.get(i).is_some_and(u8::is_ascii_digit) {
        return false;
    }
    i += 1;
    while b.get(i).is_some_and(|c| c.is_ascii_digit() || *c == b'_') {
        i += 1;
    }
    let mut groups = 0;
    while b.get(i) == Some(&b':') {
        i += 1;
        let start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) && i - start < 2 {
            i += 1;
        }
        match i - start {
            1 => {}
            2 if b[start] <= b'5' => {}
            _ => return false,
        }
        groups += 1;
    }
    if groups == 0 {
        return false;
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        while b.get(i).is_some_and(|c| c.is_ascii_digit() || *c == b'_') {
            i += 1;
        }
    }
    i == b.len()
}

/// go-yaml v2's `parseTimestamp`: `YYYY-` then one of `2006-1-2T15:4:5.999999999Z07:00` (with
/// `T` or `t`), `2006-1-2 15:4:5.999999999` or `2006-1-2`, under Go's `time.Parse` rules
/// (one- or two-digit fields, range checks, any number of fraction digits).
pub(crate) fn is_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 5 || !b[..4].iter().all(u8::is_ascii_digit) || b[4] != b'-' {
        return false;
    }
    let year: i64 = s[..4].parse().unwrap_or(0);
    let mut p = Cursor { b, i: 5 };
    let Some(month) = p.num(1, 12) else {
        return false;
    };
    if !p.lit(b'-') {
        return false;
    }
    let Some(day) = p.num(1, 31) else {
        return false;
    };
    if day > days_in(month, year) {
        return false;
    }
    if p.done() {
        return true;
    }
    let zone = match b[p.i] {
        b'T' | b't' => true,
        b' ' => false,
        _ => return false,
    };
    p.i += 1;
    let time_ok = p.num(0, 23).is_some()
        && p.lit(b':')
        && p.num(0, 59).is_some()
        && p.lit(b':')
        && p.num(0, 59).is_some();
    if !time_ok {
        return false;
    }
    if p.i + 1 < b.len() && matches!(b[p.i], b'.' | b',') && b[p.i + 1].is_ascii_digit() {
        p.i += 1;
        while p.i < b.len() && b[p.i].is_ascii_digit() {
            p.i += 1;
        }
    }
    if !zone {
        return p.done();
    }
    if p.lit(b'Z') {
        return p.done();
    }
    let rest = &b[p.i..];
    rest.len() == 6
        && matches!(rest[0], b'+' | b'-')
        && rest[1..3].iter().all(u8::is_ascii_digit)
        && rest[3] == b':'
        && rest[4..6].iter().all(u8::is_ascii_digit)
        && (rest[1] - b'0') * 10 + (rest[2] - b'0') <= 24
        && (rest[4] - b'0') * 10 + (rest[5] - b'0') <= 60
}

struct Cursor<'a> {
    b: &'a [u8],
    i: usize,
}

impl Cursor<'_> {
    /// Go's `getnum(value, false)`: one digit, or two when the second is a digit; in range.
    fn num(&mut self, min: u32, max: u32) -> Option<u32> {
        let d0 = self.b.get(self.i).filter(|c| c.is_ascii_digit())?;
        let mut n = u32::from(d0 - b'0');
        self.i += 1;
        if let Some(d1) = self.b.get(self.i).filter(|c| c.is_ascii_digit()) {
            n = n * 10 + u32::from(d1 - b'0');
            self.i += 1;
        }
        (min..=max).contains(&n).then_some(n)
    }

    fn lit(&mut self, c: u8) -> bool {
        if self.b.get(self.i) == Some(&c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn done(&self) -> bool {
        self.i == self.b.len()
    }
}

fn days_in(month: u32, year: i64) -> u32 {
    match month {
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// A resolved map key as sigs.k8s.io/yaml turns it into a JSON object key
/// (`convertToJSONableObject`): ints in decimal, floats as `FormatFloat(f, 'g', -1, 32)`,
/// booleans as `true`/`false`. `None` for keys JSON cannot have (null).
pub(crate) fn key_text(p: &Plain, raw: &str) -> Option<String> {
    Some(match p {
        Plain::Str | Plain::Timestamp => raw.to_string(),
        Plain::Int(digits) => digits.clone(),
        Plain::Bool(b) => b.to_string(),
        Plain::Float(f) if f.is_nan() => ".nan".into(),
        Plain::Float(f) if f.is_infinite() => {
            if *f > 0.0 {
                ".inf".into()
            } else {
                "-.inf".into()
            }
        }
        Plain::Float(f) => format_g32(*f as f32),
        Plain::Null => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_scalars_resolve_as_go_yaml_v2() {
        let cases: &[(&str, Plain)] = &[
            ("yes", Plain::Bool(true)),
            ("Off", Plain::Bool(false)),
            ("~", Plain::Null),
            ("", Plain::Null),
            ("12", Plain::Int("12".into())),
            ("-0", Plain::Int("0".into())),
            ("0x1F", Plain::Int("31".into())),
            ("010", Plain::Int("8".into())),
            ("0b101", Plain::Int("5".into())),
            ("1_000", Plain::Int("1000".into())),
            (
                "18446744073709551615",
                Plain::Int("18446744073709551615".into()),
            ),
            ("18446744073709551616", Plain::Float(18446744073709551616.0)),
            (
                "0x10000000000000000",
                Plain::Int("18446744073709551616".into()),
            ),
            ("1.5", Plain::Float(1.5)),
            (".5", Plain::Float(0.5)),
            ("1e3", Plain::Float(1000.0)),
            ("1e400", Plain::Str),
            ("08", Plain::Float(8.0)),
            ("2024-01-02T03:04:05Z", Plain::Timestamp),
            ("2024-1-2", Plain::Timestamp),
            ("2024-02-30", Plain::Str),
            ("2024-01-02 3:04:05.123", Plain::Timestamp),
            ("2024-01-02T03:04:05+01:00", Plain::Timestamp),
            ("abc", Plain::Str),
            ("<<", Plain::Str),
            ("-", Plain::Str),
        ];
        for (s, want) in cases {
            assert_eq!(&resolve_plain(s), want, "{s:?}");
        }
    }

    #[test]
    fn base60_floats_are_quoted() {
        assert!(!can_use_plain("1:20"));
        assert!(!can_use_plain("-3:25:45.5"));
        assert!(can_use_plain("1:99"));
        assert!(can_use_plain("a:b"));
    }
}
