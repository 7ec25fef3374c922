//! The string formats kube-openapi's `strfmt` registry checks on custom resources: every
//! format a CRD schema may keep (`schema_errors::kept_format`), each with the check its
//! registry runs. Written by hand because each must accept exactly what Go's check accepts
//! (a regular expression of govalidator's, `net.ParseMAC`, `net/mail.ParseAddress`,
//! `url.ParseRequestURI`, `time.ParseDuration`), not what a crate for the same format would.
//!
//! Here: the dates, UUIDs, base64, the numbers with check digits (ISBN, credit card), SSN,
//! colours, BSON object ids and durations; `net.rs` has the addresses (IP, CIDR, MAC,
//! hostname), `mail.rs` the email address; the request URI is `super::neturl`'s.

mod mail;
mod net;

#[cfg(test)]
mod tests;

/// Whether `text` is a valid `format` (as written in the schema; go-openapi drops its
/// dashes, so `date-time` is `datetime`). A format the registry does not know passes.
pub fn valid(format: &str, text: &str) -> bool {
    match format.replace('-', "").as_str() {
        "datetime" => is_date_time(text),
        "date" => is_date(text),
        "duration" => is_duration(text),
        "byte" => is_base64(text),
        "uuid" => is_uuid(text, None),
        "uuid3" => is_uuid(text, Some(b'3')),
        "uuid4" => is_uuid(text, Some(b'4')),
        "uuid5" => is_uuid(text, Some(b'5')),
        "ipv4" => text.contains('.') && net::parse_ip_sloppy(text).is_some(),
        "ipv6" => text.contains(':') && net::parse_ip(text).is_some(),
        "cidr" => net::is_cidr(text),
        "mac" => net::is_mac(text),
        "hostname" => net::is_hostname(text),
        "uri" => super::neturl::parse_request_uri(text).is_ok(),
        "email" => mail::is_address(text),
        "isbn" => is_isbn10(text) || is_isbn13(text),
        "isbn10" => is_isbn10(text),
        "isbn13" => is_isbn13(text),
        "creditcard" => is_credit_card(text),
        "ssn" => is_ssn(text),
        "hexcolor" => is_hex_color(text),
        "rgbcolor" => is_rgb_color(text),
        "bsonobjectid" => text.len() == 24 && text.bytes().all(|b| b.is_ascii_hexdigit()),
        "k8sshortname" => crate::resources::validation::names::is_dns1035_label(text).is_empty(),
        "k8slongname" => crate::resources::validation::names::is_dns1123_subdomain(text).is_empty(),
        _ => true,
    }
}

fn digits(s: &str, n: usize) -> Option<u32> {
    (s.len() == n && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse().unwrap_or(0))
}

/// `time.Parse("2006-01-02", text)`.
fn is_date(text: &str) -> bool {
    let parts: Vec<&str> = text.split('-').collect();
    let [y, m, d] = parts.as_slice() else {
        return false;
    };
    let (Some(y), Some(m), Some(d)) = (digits(y, 4), digits(m, 2), digits(d, 2)) else {
        return false;
    };
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&d)
}

/// `strfmt.IsDateTime`: a date, `t` (any case), then
/// `hh:mm:ss(.fraction)?(z|±hh:mm)`.
fn is_date_time(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    let parts: Vec<&str> = lower.split('t').collect();
    if parts.len() < 2 || !is_date(parts[0]) {
        return false;
    }
    let time = parts[1];
    let (clock, zone) = match time.find(['z', '+', '-']) {
        Some(i) => time.split_at(i),
        None => return false,
    };
    let zone_ok = zone == "z" || {
        let z = &zone[1..];
        z.split_once(':')
            .is_some_and(|(h, m)| digits(h, 2).is_some() && digits(m, 2).is_some())
    };
    let (hms, fraction) = match clock.split_once('.') {
        Some((hms, f)) => (hms, Some(f)),
        None => (clock, None),
    };
    let hms: Vec<&str> = hms.split(':').collect();
    let [h, m, s] = hms.as_slice() else {
        return false;
    };
    let (Some(h), Some(m), Some(s)) = (digits(h, 2), digits(m, 2), digits(s, 2)) else {
        return false;
    };
    let fraction_ok =
        fraction.is_none_or(|f| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()));
    zone_ok && fraction_ok && h <= 23 && m <= 59 && s <= 59
}

/// `strfmt`'s UUID patterns: `(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?V[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?
/// [0-9a-f]{12}$`, each dash optional on its own; with a `version`, its digit leads the third
/// group and the fourth starts with a variant digit (8, 9, a or b), except for version 3.
fn is_uuid(text: &str, version: Option<u8>) -> bool {
    let b = text.as_bytes();
    let mut at = 0;
    for (i, n) in [8, 4, 4, 4, 12].into_iter().enumerate() {
        if i > 0 && b.get(at) == Some(&b'-') {
            at += 1;
        }
        let Some(group) = b.get(at..at + n) else {
            return false;
        };
        if !group.iter().all(u8::is_ascii_hexdigit) {
            return false;
        }
        match (i, version) {
            (2, Some(v)) if group[0] != v => return false,
            (3, Some(v)) if v != b'3' && !b"89abAB".contains(&group[0]) => return false,
            _ => {}
        }
        at += n;
    }
    at == b.len()
}

/// govalidator's `IsBase64`: `^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|
/// [A-Za-z0-9+/]{4})$`: whole quads, padding only at the end, and never empty.
fn is_base64(text: &str) -> bool {
    let b = text.as_bytes();
    if b.is_empty() || !b.len().is_multiple_of(4) {
        return false;
    }
    let alpha = |c: &u8| c.is_ascii_alphanumeric() || *c == b'+' || *c == b'/';
    let (body, last) = b.split_at(b.len() - 4);
    body.iter().all(alpha)
        && match last {
            [a, b, b'=', b'='] => alpha(a) && alpha(b),
            [a, b, c, b'='] => alpha(a) && alpha(b) && alpha(c),
            quad => quad.iter().all(alpha),
        }
}

/// govalidator's `IsISBN10`: whitespace and dashes removed, nine digits and a check digit
/// (or `X`) whose weighted sum is a multiple of 11.
fn is_isbn10(text: &str) -> bool {
    let s = without(text, |c| c.is_ascii_whitespace() || c == '-');
    let b = s.as_bytes();
    if b.len() != 10 || !b[..9].iter().all(u8::is_ascii_digit) {
        return false;
    }
    let last = match b[9] {
        b'X' => 10,
        d if d.is_ascii_digit() => u32::from(d - b'0'),
        _ => return false,
    };
    let sum: u32 = (0..9)
        .map(|i| (i as u32 + 1) * u32::from(b[i] - b'0'))
        .sum();
    (sum + 10 * last).is_multiple_of(11)
}

/// govalidator's `IsISBN13`: whitespace and dashes removed, thirteen digits with the EAN
/// check digit.
fn is_isbn13(text: &str) -> bool {
    let s = without(text, |c| c.is_ascii_whitespace() || c == '-');
    let b = s.as_bytes();
    if b.len() != 13 || !b.iter().all(u8::is_ascii_digit) {
        return false;
    }
    let sum: u32 = (0..12)
        .map(|i| [1, 3][i % 2] * u32::from(b[i] - b'0'))
        .sum();
    u32::from(b[12] - b'0') == (10 - sum % 10) % 10
}

/// govalidator's `IsCreditCard`: every non-digit removed, a known issuer's number pattern,
/// then the Luhn checksum.
fn is_credit_card(text: &str) -> bool {
    let s = without(text, |c| !c.is_ascii_digit());
    let d = s.as_bytes();
    let starts = |p: &str| s.starts_with(p);
    let n = d.len();
    let issuer = (starts("4") && (n == 13 || n == 16))
        || (n == 16 && starts("5") && (b'1'..=b'5').contains(&d[1]))
        || (n == 16 && (starts("6011") || (starts("65"))))
        || (n == 15 && (starts("34") || starts("37")))
        || (n == 14
            && (starts("30") && (b'0'..=b'5').contains(&d[2]) || starts("36") || starts("38")))
        || (n == 15 && (starts("2131") || starts("1800")))
        || (n == 16 && starts("35"));
    if !issuer {
        return false;
    }
    let sum: u32 = d
        .iter()
        .rev()
        .enumerate()
        .map(|(i, c)| {
            let v = u32::from(c - b'0');
            match (i % 2 == 1, v * 2) {
                (true, x) if x >= 10 => x % 10 + 1,
                (true, x) => x,
                (false, _) => v,
            }
        })
        .sum();
    sum.is_multiple_of(10)
}

/// govalidator's `IsSSN`: eleven characters, `ddd`, `-` or space, `dd`, `-` or space, `dddd`.
fn is_ssn(text: &str) -> bool {
    let b = text.as_bytes();
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    let sep = |c: u8| c == b'-' || c == b' ';
    b.len() == 11 && digits(0..3) && sep(b[3]) && digits(4..6) && sep(b[6]) && digits(7..11)
}

/// govalidator's `Hexcolor`: `^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$`.
fn is_hex_color(text: &str) -> bool {
    let hex = text.strip_prefix('#').unwrap_or(text);
    matches!(hex.len(), 3 | 6) && hex.bytes().all(|b| b.is_ascii_hexdigit())
}

/// govalidator's `RGBcolor`: `rgb(r, g, b)`, each 0 to 255 without leading zeros, spaces
/// (Go's `\s`) around each.
fn is_rgb_color(text: &str) -> bool {
    let Some(inner) = text.strip_prefix("rgb(").and_then(|r| r.strip_suffix(')')) else {
        return false;
    };
    let parts: Vec<&str> = inner.split(',').collect();
    parts.len() == 3
        && parts.iter().all(|p| {
            let n = p.trim_matches(|c: char| c.is_ascii_whitespace());
            !n.is_empty()
                && n.len() <= 3
                && n.bytes().all(|b| b.is_ascii_digit())
                && (n == "0" || !n.starts_with('0'))
                && n.parse::<u32>().is_ok_and(|v| v <= 255)
        })
}

/// `strfmt.ParseDuration`: Go's `time.ParseDuration`, else any `\d+\s*[A-Za-zµ]+` in the
/// text whose unit is one strfmt knows (`ns`, `us`, `µs`, `ms`, `s`, `m`, `h`, `d`, `w`, their
/// spelled forms, and the longest form as a prefix: `hours`, `days`).
fn is_duration(text: &str) -> bool {
    go_duration_ok(text) || strfmt_duration(text).is_some()
}

/// strfmt's own duration form (after Go's): every number and unit in the text, summed.
pub fn strfmt_duration(text: &str) -> Option<i64> {
    const UNITS: &[(&[&str], i64)] = &[
        (&["ns", "nano"], 1),
        (&["us", "µs", "micro"], 1_000),
        (&["ms", "milli"], 1_000_000),
        (&["s", "sec"], 1_000_000_000),
        (&["m", "min"], 60_000_000_000),
        (&["h", "hr", "hour"], 3_600_000_000_000),
        (&["d", "day"], 86_400_000_000_000),
        (&["w", "wk", "week"], 604_800_000_000_000),
    ];
    let mut total: i64 = 0;
    let chars: Vec<char> = text.chars().collect();
    let (mut i, mut ok) = (0, false);
    while i < chars.len() {
        if !chars[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        let digits: String = chars[start..i].iter().collect();
        let mut j = i;
        while j < chars.len() && matches!(chars[j], ' ' | '\t' | '\n' | '\r' | '\x0c') {
            j += 1;
        }
        let unit_start = j;
        while j < chars.len() && (chars[j].is_ascii_alphabetic() || chars[j] == 'µ') {
            j += 1;
        }
        if j == unit_start {
            continue;
        }
        // strconv.Atoi's range error ends the parse.
        let factor = digits.parse::<i64>().ok()?;
        let unit: String = chars[unit_start..j]
            .iter()
            .collect::<String>()
            .to_lowercase();
        for (variants, multiplier) in UNITS {
            let last = variants.len() - 1;
            for (k, v) in variants.iter().enumerate() {
                if (k == last && unit.starts_with(v)) || unit.eq_ignore_ascii_case(v) {
                    ok = true;
                    total = total.wrapping_add(factor.wrapping_mul(*multiplier));
                }
            }
        }
        i = j;
    }
    ok.then_some(total)
}

/// Whether Go's `time.ParseDuration` takes `text`.
fn go_duration_ok(text: &str) -> bool {
    go_parse_duration(text).is_some()
}

/// Go's `time.ParseDuration`: `[-+]?([0-9]*(\.[0-9]*)?[a-z]+)+` with the units ns, us, µs,
/// μs, ms, s, m, h (or a bare `0`), within ±2^63 ns; the nanoseconds.
pub fn go_parse_duration(text: &str) -> Option<i64> {
    let s = text.strip_prefix(['-', '+']).unwrap_or(text);
    let negative = text.starts_with('-');
    if s == "0" {
        return Some(0);
    }
    if s.is_empty() {
        return None;
    }
    let mut rest = s;
    let mut total: u128 = 0;
    while !rest.is_empty() {
        let int_len = rest.bytes().take_while(u8::is_ascii_digit).count();
        let (int, after) = rest.split_at(int_len);
        let (frac, after) = match after.strip_prefix('.') {
            Some(a) => {
                let n = a.bytes().take_while(u8::is_ascii_digit).count();
                a.split_at(n)
            }
            None => ("", after),
        };
        if int.is_empty() && frac.is_empty() {
            return None;
        }
        let unit_len = after
            .char_indices()
            .find(|(_, c)| *c == '.' || c.is_ascii_digit())
            .map_or(after.len(), |(i, _)| i);
        let (unit, next) = after.split_at(unit_len);
        let scale: u128 = match unit {
            "ns" => 1,
            "us" | "µs" | "μs" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            "m" => 60_000_000_000,
            "h" => 3_600_000_000_000,
            _ => return None,
        };
        let whole = match int.parse::<u128>() {
            Ok(v) => v,
            Err(_) if int.is_empty() => 0,
            Err(_) => return None, // more digits than fit: Go's "invalid duration"
        };
        if whole > 1 << 63 {
            return None;
        }
        let mut part = whole * scale;
        let mut unit_frac = scale;
        for d in frac.bytes().take(30) {
            unit_frac /= 10;
            part += u128::from(d - b'0') * unit_frac;
        }
        total += part;
        if total > 1 << 63 {
            return None;
        }
        rest = next;
    }
    match (negative, total) {
        (false, t) if t < 1 << 63 => Some(t as i64),
        (true, t) if t <= 1 << 63 => Some((t as i128).wrapping_neg() as i64),
        _ => None,
    }
}

/// `text` without the characters `drop` names.
fn without(text: &str, drop: impl Fn(char) -> bool) -> String {
    text.chars().filter(|c| !drop(*c)).collect()
}
