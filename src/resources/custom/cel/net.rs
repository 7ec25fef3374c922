//! Kubernetes' IP and CIDR libraries (`ip`, `isIP`, `ip.isCanonical`, `family`, the
//! address-class tests; `cidr`, `isCIDR`, `containsIP`, `containsCIDR`, `prefixLength`,
//! `masked`), on a port of Go's `net/netip` parsing and printing: the libraries quote
//! `netip`'s error texts and print addresses in its canonical form (RFC 5952), so both are
//! written here byte for byte.

use super::eval::Val;
use crate::codec::go_quote;

/// An address as `netip.Addr` holds one, without a zone (the libraries refuse zones).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Addr {
    /// The address's bits; an IPv4 address in the low 32.
    bits: u128,
    v4: bool,
}

/// `netip.Prefix`: an address and a prefix length, the address left unmasked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Prefix {
    addr: Addr,
    len: u8,
}

/// `parseAddrError`'s text.
fn addr_error(input: &str, msg: &str, at: &str) -> String {
    let mut out = format!("ParseAddr({}): {msg}", go_quote(input));
    if !at.is_empty() {
        out.push_str(&format!(" (at {})", go_quote(at)));
    }
    out
}

/// `netip.ParseAddr`, with whether the address had a zone.
fn parse_addr(s: &str) -> Result<(Addr, bool), String> {
    for c in s.bytes() {
        match c {
            b'.' => return parse_v4_fields(s, 0, s.len()).map(|b| (v4(b), false)),
            b':' => return parse_v6(s),
            b'%' => return Err(addr_error(s, "missing IPv6 address", "")),
            _ => {}
        }
    }
    Err(addr_error(s, "unable to parse IP", ""))
}

fn v4(b: [u8; 4]) -> Addr {
    Addr {
        bits: u128::from(u32::from_be_bytes(b)),
        v4: true,
    }
}

/// `parseIPv4Fields`: `input[off..end]` as four decimal octets.
fn parse_v4_fields(input: &str, off: usize, end: usize) -> Result<[u8; 4], String> {
    let s = &input.as_bytes()[off..end];
    let mut fields = [0u8; 4];
    let (mut val, mut pos, mut digits) = (0u32, 0usize, 0);
    for (i, &c) in s.iter().enumerate() {
        if c.is_ascii_digit() {
            if digits == 1 && val == 0 {
                return Err(addr_error(
                    input,
                    "IPv4 field has octet with leading zero",
                    "",
                ));
            }
            val = val * 10 + u32::from(c - b'0');
            digits += 1;
            if val > 255 {
                return Err(addr_error(input, "IPv4 field has value >255", ""));
            }
        } else if c == b'.' {
            if i == 0 || i == s.len() - 1 || s[i - 1] == b'.' {
                let at = &input[off + i..end];
                return Err(addr_error(
                    input,
                    "IPv4 field must have at least one digit",
                    at,
                ));
            }
            if pos == 3 {
                return Err(addr_error(input, "IPv4 address too long", ""));
            }
            fields[pos] = val as u8;
            pos += 1;
            val = 0;
            digits = 0;
        } else {
            let at = &input[off + i..end];
            return Err(addr_error(input, "unexpected character", at));
        }
    }
    if pos < 3 {
        return Err(addr_error(input, "IPv4 address too short", ""));
    }
    fields[3] = val as u8;
    Ok(fields)
}

/// `parseIPv6`, with whether a zone followed the address.
fn parse_v6(input: &str) -> Result<(Addr, bool), String> {
    let (mut s, zone) = match input.find('%') {
        Some(i) if i + 1 == input.len() => {
            return Err(addr_error(input, "zone must be a non-empty string", ""))
        }
        Some(i) => (&input[..i], &input[i + 1..]),
        None => (input, ""),
    };
    let six = |bytes: [u8; 16]| Addr {
        bits: u128::from_be_bytes(bytes),
        v4: false,
    };
    let mut ip = [0u8; 16];
    let mut ellipsis: Option<usize> = None;
    if s.starts_with("::") {
        ellipsis = Some(0);
        s = &s[2..];
        if s.is_empty() {
            return Ok((six(ip), !zone.is_empty()));
        }
    }
    let mut i = 0;
    while i < 16 {
        let b = s.as_bytes();
        let mut off = 0;
        let mut acc = 0u32;
        while off < b.len() {
            let Some(d) = (b[off] as char).to_digit(16) else {
                break;
            };
            acc = (acc << 4) + d;
            if off > 3 {
                return Err(addr_error(
                    input,
                    "each group must have 4 or less digits",
                    s,
                ));
            }
            if acc > 0xffff {
                return Err(addr_error(input, "IPv6 field has value >=2^16", s));
            }
            off += 1;
        }
        if off == 0 {
            let msg = "each colon-separated field must have at least one digit";
            return Err(addr_error(input, msg, s));
        }
        if b.get(off) == Some(&b'.') {
            if ellipsis.is_none() && i != 12 {
                let msg = "embedded IPv4 address must replace the final 2 fields of the address";
                return Err(addr_error(input, msg, s));
            }
            if i + 4 > 16 {
                let msg = "too many hex fields to fit an embedded IPv4 at the end of the address";
                return Err(addr_error(input, msg, s));
            }
            let end = input.len() - if zone.is_empty() { 0 } else { zone.len() + 1 };
            let f = parse_v4_fields(input, end - s.len(), end)?;
            ip[i..i + 4].copy_from_slice(&f);
            s = "";
            i += 4;
            break;
        }
        ip[i] = (acc >> 8) as u8;
        ip[i + 1] = acc as u8;
        i += 2;
        s = &s[off..];
        if s.is_empty() {
            break;
        }
        if !s.starts_with(':') {
            return Err(addr_error(input, "unexpected character, want colon", s));
        } else if s.len() == 1 {
            return Err(addr_error(
                input,
                "colon must be followed by more characters",
                s,
            ));
        }
        s = &s[1..];
        if s.starts_with(':') {
            if ellipsis.is_some() {
                return Err(addr_error(input, "multiple :: in address", s));
            }
            ellipsis = Some(i);
            s = &s[1..];
            if s.is_empty() {
                break;
            }
        }
    }
    if !s.is_empty() {
        return Err(addr_error(input, "trailing garbage after address", s));
    }
    if i < 16 {
        let Some(e) = ellipsis else {
            return Err(addr_error(input, "address string too short", ""));
        };
        let n = 16 - i;
        for j in (e..i).rev() {
            ip[j + n] = ip[j];
        }
        ip[e..e + n].fill(0);
    } else if ellipsis.is_some() {
        let msg = "the :: must expand to at least one field of zeros";
        return Err(addr_error(input, msg, ""));
    }
    Ok((six(ip), !zone.is_empty()))
}

impl Addr {
    fn bit_len(self) -> u32 {
        if self.v4 {
            32
        } else {
            128
        }
    }

    fn is_4in6(self) -> bool {
        !self.v4 && self.bits >> 32 == 0xffff
    }

    /// The address with `Unmap` applied, as the class tests read it.
    fn unmapped(self) -> Addr {
        if self.is_4in6() {
            Addr {
                bits: self.bits & 0xffff_ffff,
                v4: true,
            }
        } else {
            self
        }
    }

    fn octet(self, i: u32) -> u8 {
        (self.bits >> (24 - 8 * i)) as u8
    }

    fn group(self, i: u32) -> u16 {
        (self.bits >> (112 - 16 * i)) as u16
    }

    fn is_unspecified(self) -> bool {
        self.bits == 0
    }

    fn is_loopback(self) -> bool {
        let ip = self.unmapped();
        if ip.v4 {
            ip.octet(0) == 127
        } else {
            ip.bits == 1
        }
    }

    fn is_multicast(self) -> bool {
        let ip = self.unmapped();
        if ip.v4 {
            ip.octet(0) & 0xf0 == 0xe0
        } else {
            ip.bits >> 120 == 0xff
        }
    }

    fn is_link_local_unicast(self) -> bool {
        let ip = self.unmapped();
        if ip.v4 {
            ip.octet(0) == 169 && ip.octet(1) == 254
        } else {
            ip.group(0) & 0xffc0 == 0xfe80
        }
    }

    fn is_link_local_multicast(self) -> bool {
        let ip = self.unmapped();
        if ip.v4 {
            ip.octet(0) == 224 && ip.octet(1) == 0 && ip.octet(2) == 0
        } else {
            ip.group(0) & 0xff0f == 0xff02
        }
    }

    fn is_global_unicast(self) -> bool {
        let ip = self.unmapped();
        if ip.v4 && (ip.bits == 0 || ip.bits == 0xffff_ffff) {
            return false;
        }
        (ip.v4 || ip.bits != 0)
            && !ip.is_loopback()
            && !ip.is_multicast()
            && !ip.is_link_local_unicast()
    }

    /// The address with all but its first `len` bits cleared.
    fn masked(self, len: u8) -> Addr {
        let keep = u32::from(len);
        let width = self.bit_len();
        let mask = if keep == 0 {
            0
        } else {
            (u128::MAX << (width - keep)) & (u128::MAX >> (128 - width))
        };
        Addr {
            bits: self.bits & mask,
            v4: self.v4,
        }
    }
}

impl std::fmt::Display for Addr {
    /// `Addr.String`: dotted decimal, or RFC 5952 (the longest run of two or more zero
    /// groups elided, the first of equal runs).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.v4 {
            let o = |i| self.octet(i);
            return write!(f, "{}.{}.{}.{}", o(0), o(1), o(2), o(3));
        }
        if self.is_4in6() {
            return write!(f, "::ffff:{}", self.unmapped());
        }
        let (mut start, mut end) = (8u32, 8u32);
        let mut i = 0;
        while i < 8 {
            let mut j = i;
            while j < 8 && self.group(j) == 0 {
                j += 1;
            }
            if j - i >= 2 && (start == 8 || j - i > end - start) {
                (start, end) = (i, j);
            }
            i = j.max(i + 1);
        }
        let mut i = 0;
        while i < 8 {
            if i == start {
                f.write_str("::")?;
                i = end;
                if i >= 8 {
                    break;
                }
            } else if i > 0 {
                f.write_str(":")?;
            }
            write!(f, "{:x}", self.group(i))?;
            i += 1;
        }
        Ok(())
    }
}

impl std::fmt::Display for Prefix {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.addr, self.len)
    }
}

impl Prefix {
    fn contains(self, ip: Addr) -> bool {
        self.addr.v4 == ip.v4 && ip.masked(self.len) == self.addr.masked(self.len)
    }

    fn overlaps(self, o: Prefix) -> bool {
        if self.addr.v4 != o.addr.v4 {
            return false;
        }
        let min = self.len.min(o.len);
        self.addr.masked(min) == o.addr.masked(min)
    }
}

/// `parseIPAddr`: an address without a zone, not IPv4-mapped.
fn parse_ip(raw: &str) -> Result<Addr, String> {
    let (addr, zone) = parse_addr(raw).map_err(|e| {
        format!(
            "IP Address {} parse error during conversion from string: {e}",
            go_quote(raw)
        )
    })?;
    if zone {
        return Err(format!(
            "IP address {} with zone value is not allowed",
            go_quote(raw)
        ));
    }
    if addr.is_4in6() {
        return Err(format!(
            "IPv4-mapped IPv6 address {} is not allowed",
            go_quote(raw)
        ));
    }
    Ok(addr)
}

/// `netip.ParsePrefix`.
fn parse_prefix(s: &str) -> Result<Prefix, String> {
    let fail = |msg: &str| format!("netip.ParsePrefix({}): {msg}", go_quote(s));
    let Some(i) = s.rfind('/') else {
        return Err(fail("no '/'"));
    };
    let (addr, zone) = parse_addr(&s[..i]).map_err(|e| fail(&e))?;
    if !addr.v4 && zone {
        return Err(fail("IPv6 zones cannot be present in a prefix"));
    }
    let bits = &s[i + 1..];
    let bad = || fail(&format!("bad bits after slash: {}", go_quote(bits)));
    if bits.len() > 1 && !matches!(bits.as_bytes()[0], b'1'..=b'9') {
        return Err(bad());
    }
    // strconv.Atoi: a sign is read, leading zeros were refused above.
    let len: i64 = bits.parse().map_err(|_| bad())?;
    if len < 0 || len > i64::from(addr.bit_len()) {
        return Err(fail("prefix length out of range"));
    }
    Ok(Prefix {
        addr,
        len: len as u8,
    })
}

/// `parseCIDR`, as `cidr()` reports it (the library wraps its own text once more).
fn parse_cidr(raw: &str) -> Result<Prefix, String> {
    let p = parse_prefix(raw)
        .map_err(|e| format!("network address parse error during conversion from string: {e}"))?;
    if p.addr.is_4in6() {
        return Err(format!(
            "IPv4-mapped IPv6 address {} is not allowed",
            go_quote(raw)
        ));
    }
    Ok(p)
}

fn cidr_of(raw: &str) -> Result<Prefix, String> {
    parse_cidr(raw)
        .map_err(|e| format!("network address parse error during conversion from string: {e}"))
}

/// The libraries' functions; `None` when `name` is not theirs for these arguments.
pub fn call(name: &str, target: Option<&Val>, args: &[Val]) -> Option<Result<Val, String>> {
    let ok = |v: Val| Some(Ok(v));
    match (name, target, args) {
        ("ip", None, [Val::Str(s)]) => Some(parse_ip(s).map(Val::Ip)),
        ("isIP", None, [Val::Str(s)]) => ok(Val::Bool(parse_ip(s).is_ok())),
        ("ip.isCanonical", None, [Val::Str(s)]) => {
            Some(parse_ip(s).map(|a| Val::Bool(a.to_string() == *s)))
        }
        ("string", None, [Val::Ip(a)]) => ok(Val::Str(a.to_string())),
        ("family", Some(Val::Ip(a)), []) => ok(Val::Int(if a.v4 { 4 } else { 6 })),
        ("isUnspecified", Some(Val::Ip(a)), []) => ok(Val::Bool(a.is_unspecified())),
        ("isLoopback", Some(Val::Ip(a)), []) => ok(Val::Bool(a.is_loopback())),
        ("isLinkLocalMulticast", Some(Val::Ip(a)), []) => {
            ok(Val::Bool(a.is_link_local_multicast()))
        }
        ("isLinkLocalUnicast", Some(Val::Ip(a)), []) => ok(Val::Bool(a.is_link_local_unicast())),
        ("isGlobalUnicast", Some(Val::Ip(a)), []) => ok(Val::Bool(a.is_global_unicast())),
        ("cidr", None, [Val::Str(s)]) => Some(cidr_of(s).map(Val::Cidr)),
        ("isCIDR", None, [Val::Str(s)]) => ok(Val::Bool(parse_cidr(s).is_ok())),
        ("string", None, [Val::Cidr(p)]) => ok(Val::Str(p.to_string())),
        // `cidrContainsIP` answers a string that is no address with `no such overload`,
        // not the parse error (it hands on its receiver's state, not the argument's).
        ("containsIP", Some(Val::Cidr(p)), [Val::Str(s)]) => Some(
            parse_ip(s)
                .map(|a| Val::Bool(p.contains(a)))
                .map_err(|_| "no such overload".to_string()),
        ),
        ("containsIP", Some(Val::Cidr(p)), [Val::Ip(a)]) => ok(Val::Bool(p.contains(*a))),
        ("containsCIDR", Some(Val::Cidr(p)), [other]) => {
            let o = match other {
                Val::Cidr(o) => *o,
                Val::Str(s) => match cidr_of(s) {
                    Ok(o) => o,
                    Err(e) => return Some(Err(e)),
                },
                _ => return None,
            };
            ok(Val::Bool(p.overlaps(o) && p.len <= o.len))
        }
        ("ip", Some(Val::Cidr(p)), []) => ok(Val::Ip(p.addr)),
        ("prefixLength", Some(Val::Cidr(p)), []) => ok(Val::Int(i64::from(p.len))),
        ("masked", Some(Val::Cidr(p)), []) => ok(Val::Cidr(Prefix {
            addr: p.addr.masked(p.len),
            len: p.len,
        })),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
