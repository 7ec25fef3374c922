//! The string formats kube-openapi's `strfmt` checks on custom resources (those its
//! `formatValidator` knows; a format it does not check passes).
//!
//! Checked here: `date-time`, `date`, `byte`, `uuid` (and `uuid3`/`4`/`5` as any UUID),
//! `ipv4`, `ipv6`, `cidr`, `k8s-short-name` and `k8s-long-name`. The others kube-openapi
//! knows (`email`, `hostname`, `uri`, `mac`, `duration`, `isbn`, `creditcard`, ...) pass
//! unchecked.

use std::net::{IpAddr, Ipv4Addr};

/// Whether `text` is a valid `format` (as written in the schema).
pub fn valid(format: &str, text: &str) -> bool {
    match format.replace('-', "").as_str() {
        "datetime" => is_date_time(text),
        "date" => is_date(text),
        "byte" => {
            use base64::Engine as _;
            base64::engine::general_purpose::STANDARD
                .decode(text)
                .is_ok()
        }
        "uuid" | "uuid3" | "uuid4" | "uuid5" => is_uuid(text),
        "ipv4" => text.contains('.') && parse_ip(text).is_some(),
        "ipv6" => text.contains(':') && parse_ip(text).is_some(),
        "cidr" => text.split_once('/').is_some_and(|(ip, bits)| {
            let max = match parse_ip(ip) {
                Some(IpAddr::V4(_)) => 32,
                Some(IpAddr::V6(_)) => 128,
                None => return false,
            };
            bits.parse::<u32>().is_ok_and(|b| b <= max) && !bits.starts_with('+')
        }),
        "k8sshortname" => crate::resources::validation::names::is_dns1035_label(text).is_empty(),
        "k8slongname" => crate::resources::validation::names::is_dns1123_subdomain(text).is_empty(),
        _ => true,
    }
}

/// Go's `net.ParseIP`, which also takes an IPv4 address written in IPv6 form.
fn parse_ip(text: &str) -> Option<IpAddr> {
    text.parse::<IpAddr>()
        .ok()
        .or_else(|| text.parse::<Ipv4Addr>().ok().map(IpAddr::V4))
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

/// `strfmt`'s UUID: 32 hex digits, bare or as 8-4-4-4-12.
fn is_uuid(text: &str) -> bool {
    let hex = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_hexdigit());
    let parts: Vec<&str> = text.split('-').collect();
    match parts.as_slice() {
        [one] => hex(one, 32),
        [a, b, c, d, e] => hex(a, 8) && hex(b, 4) && hex(c, 4) && hex(d, 4) && hex(e, 12),
        _ => false,
    }
}
