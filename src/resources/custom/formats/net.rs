//! The address formats: Go's `net.ParseIP` (strict, for `ipv6`), k8s.io/utils' sloppy
//! `ParseIPSloppy` and `ParseCIDRSloppy` (Go 1.16's parser, which takes leading zeros, for
//! `ipv4` and `cidr`), `net.ParseMAC`, and strfmt's `IsHostname`.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// Go's `net.ParseIP` (1.17 and later: no leading zeros in an IPv4 field, no zone).
pub(super) fn parse_ip(text: &str) -> Option<IpAddr> {
    text.parse::<IpAddr>().ok()
}

/// `ParseIPSloppy`: as `net.ParseIP` was before Go 1.17, an IPv4 field may have leading zeros
/// (`010.0.0.1` is 10.0.0.1), in an IPv6 address's trailing IPv4 part too.
pub(super) fn parse_ip_sloppy(text: &str) -> Option<IpAddr> {
    if !text.contains(':') {
        return parse_ipv4_sloppy(text).map(IpAddr::V4);
    }
    let (head, last) = text.rsplit_once(':')?;
    if last.contains('.') {
        let v4 = parse_ipv4_sloppy(last)?;
        return format!("{head}:{v4}")
            .parse::<Ipv6Addr>()
            .ok()
            .map(IpAddr::V6);
    }
    text.parse::<Ipv6Addr>().ok().map(IpAddr::V6)
}

/// Go 1.16's `parseIPv4`: four dot-separated decimal fields, each at most 255.
fn parse_ipv4_sloppy(text: &str) -> Option<Ipv4Addr> {
    let fields: Vec<&str> = text.split('.').collect();
    let [a, b, c, d] = fields.as_slice() else {
        return None;
    };
    // Digits only (Rust's parse would take a sign), any number of leading zeros.
    let octet = |f: &str| -> Option<u8> {
        if f.is_empty() || !f.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        f.parse::<u32>().ok().and_then(|v| u8::try_from(v).ok())
    };
    Some(Ipv4Addr::new(octet(a)?, octet(b)?, octet(c)?, octet(d)?))
}

/// `ParseCIDRSloppy`: a sloppy IP, `/`, and a decimal prefix length within the address's
/// bits (32 when the address has no colon, else 128).
pub(super) fn is_cidr(text: &str) -> bool {
    let Some((ip, bits)) = text.split_once('/') else {
        return false;
    };
    let max = if ip.contains(':') { 128 } else { 32 };
    parse_ip_sloppy(ip).is_some()
        && !bits.is_empty()
        && bits.bytes().all(|b| b.is_ascii_digit())
        && bits.parse::<u32>().is_ok_and(|b| b <= max)
}

/// Go's `net.ParseMAC`: 6, 8 or 20 octets as `xx:xx:..`, `xx-xx-..` or `xxxx.xxxx.xxxx`.
pub(super) fn is_mac(text: &str) -> bool {
    let s = text.as_bytes();
    if s.len() < 14 {
        return false;
    }
    let octets_ok = |n: usize| matches!(n, 6 | 8 | 20);
    let hex2 = |at: usize| s[at].is_ascii_hexdigit() && s[at + 1].is_ascii_hexdigit();
    if s[2] == b':' || s[2] == b'-' {
        if !(s.len() + 1).is_multiple_of(3) || !octets_ok((s.len() + 1) / 3) {
            return false;
        }
        (0..s.len())
            .step_by(3)
            .all(|x| hex2(x) && (x + 2 == s.len() || s[x + 2] == s[2]))
    } else if s[4] == b'.' {
        if !(s.len() + 1).is_multiple_of(5) || !octets_ok(2 * (s.len() + 1) / 5) {
            return false;
        }
        (0..s.len())
            .step_by(5)
            .all(|x| hex2(x) && hex2(x + 2) && (x + 4 == s.len() || s[x + 4] == b'.'))
    } else {
        false
    }
}

/// strfmt's `IsHostname`: its pattern, then at most 255 bytes and 63 per label.
///
/// The pattern, `^(X(-?X{0,62})?|(X((X|-){0,61}X)?\.)+L{2,63})$` with X a letter, digit or
/// symbol (`[a-zA-Z0-9\p{S}\p{L}]`) and L a letter, takes either one label with at most one
/// dash, right after its first character, or dotted labels ending in a top-level domain of
/// letters. So `my-host` is not a hostname to the real server, while `a-host` and
/// `my-host.example` are. Outside ASCII, Unicode's letter and symbol categories are
/// approximated: a letter is what Rust calls alphabetic, a symbol one of the main symbol
/// blocks (currency, arrows, mathematical operators, technical and miscellaneous symbols,
/// dingbats, emoji).
pub(super) fn is_hostname(text: &str) -> bool {
    if !hostname_pattern(text) || text.len() > 255 {
        return false;
    }
    text.split('.').all(|label| label.len() <= 63)
}

fn hostname_pattern(text: &str) -> bool {
    let chars: Vec<char> = text.chars().collect();
    // One label: X, an optional dash, then up to 62 more X.
    let single = chars.first().is_some_and(|c| letter_digit_symbol(*c)) && {
        let rest = &chars[1..];
        let rest = rest.strip_prefix(&['-']).unwrap_or(rest);
        rest.len() <= 62 && rest.iter().all(|c| letter_digit_symbol(*c))
    };
    if single {
        return true;
    }
    let labels: Vec<&[char]> = chars.split(|c| *c == '.').collect();
    let Some((tld, labels)) = labels.split_last() else {
        return false;
    };
    !labels.is_empty()
        && (2..=63).contains(&tld.len())
        && tld
            .iter()
            .all(|c| c.is_ascii_alphabetic() || (!c.is_ascii() && c.is_alphabetic()))
        && labels.iter().all(|l| match l {
            [] => false,
            [one] => letter_digit_symbol(*one),
            [first, middle @ .., last] => {
                middle.len() <= 61
                    && letter_digit_symbol(*first)
                    && letter_digit_symbol(*last)
                    && middle.iter().all(|c| *c == '-' || letter_digit_symbol(*c))
            }
        })
}

/// `[a-zA-Z0-9\p{S}\p{L}]`, outside ASCII approximated (see `is_hostname`).
fn letter_digit_symbol(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric() || "$+<=>^`|~".contains(c);
    }
    c.is_alphabetic()
        || matches!(u32::from(c),
            0xA2..=0xA6 | 0xA8 | 0xA9 | 0xAC | 0xAE..=0xB1 | 0xB4 | 0xB8 | 0xD7 | 0xF7
            | 0x20A0..=0x20C0 | 0x2100..=0x214F | 0x2190..=0x2307 | 0x230C..=0x2328
            | 0x232B..=0x2767 | 0x2794..=0x27C4 | 0x27C7..=0x27E5 | 0x27F0..=0x2982
            | 0x2999..=0x29D7 | 0x29DC..=0x29FB | 0x29FE..=0x2BFF | 0x1F000..=0x1FAFF)
}
