//! The `uri` format: whether Go's `url.ParseRequestURI` takes the text (govalidator's
//! `IsRequestURI`): an absolute URI or an absolute path, as an HTTP request line carries it.
//! The fragment is not split off, so a `#` is part of the path, or of the host, where it is
//! refused.

/// `url.ParseRequestURI(text)` succeeds.
pub(super) fn is_request_uri(text: &str) -> bool {
    if text.is_empty() || text.bytes().any(|b| b < 0x20 || b == 0x7f) {
        return false;
    }
    if text == "*" {
        return true;
    }
    let Some((scheme, rest)) = scheme(text) else {
        return false;
    };
    let rest = match rest.strip_suffix('?') {
        Some(r) if rest.matches('?').count() == 1 => r,
        _ => rest.split_once('?').map_or(rest, |(path, _query)| path),
    };
    if !rest.starts_with('/') {
        // A rootless path after a scheme is opaque (`mailto:a@b`); without one, refused.
        return !scheme.is_empty();
    }
    let path = match rest.strip_prefix("//") {
        Some(after) if !scheme.is_empty() => {
            let (authority, path) = after.find('/').map_or((after, ""), |i| after.split_at(i));
            if !authority_ok(authority) {
                return false;
            }
            path
        }
        _ => rest,
    };
    escapes_ok(path, false)
}

/// `getScheme`: the scheme and what follows its colon; no scheme (empty) when the text does
/// not start with one; `None` for a leading colon ("missing protocol scheme").
fn scheme(text: &str) -> Option<(&str, &str)> {
    for (i, c) in text.bytes().enumerate() {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' if i > 0 => {}
            b':' if i == 0 => return None,
            b':' => return Some((&text[..i], &text[i + 1..])),
            _ => return Some(("", text)),
        }
    }
    Some(("", text))
}

/// `parseAuthority`: `userinfo@host`, the userinfo's characters and escapes, the host's.
fn authority_ok(authority: &str) -> bool {
    let (userinfo, host) = match authority.rfind('@') {
        Some(i) => (Some(&authority[..i]), &authority[i + 1..]),
        None => (None, authority),
    };
    if !host_ok(host) {
        return false;
    }
    userinfo.is_none_or(|u| {
        u.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-._:~!$&'()*+,;=%@".contains(c))
            && escapes_ok(u, false)
    })
}

/// `parseHost`: an IP literal in brackets with an optional port, or a host with an optional
/// port after its last colon; then its escapes (only `%25` or non-ASCII bytes may be
/// escaped) and characters.
fn host_ok(host: &str) -> bool {
    let port_ok = |p: &str| {
        p.is_empty()
            || p.strip_prefix(':')
                .is_some_and(|d| d.bytes().all(|b| b.is_ascii_digit()))
    };
    if host.starts_with('[') {
        let Some(i) = host.rfind(']') else {
            return false;
        };
        if !port_ok(&host[i + 1..]) {
            return false;
        }
    } else if let Some(i) = host.rfind(':') {
        if !port_ok(&host[i..]) {
            return false;
        }
    }
    escapes_ok(host, true)
}

/// `unescape`'s checks: every `%` starts two hex digits; in a host an escape must be `%25`
/// or of a byte of 0x80 or more, and an ASCII character must be one a host may hold.
fn escapes_ok(s: &str, host: bool) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            if i + 2 >= b.len() || !b[i + 1].is_ascii_hexdigit() || !b[i + 2].is_ascii_hexdigit() {
                return false;
            }
            if host && hex(b[i + 1]) < 8 && &b[i..i + 3] != b"%25" {
                return false;
            }
            i += 3;
            continue;
        }
        if host && b[i] < 0x80 && !host_char(b[i]) {
            return false;
        }
        i += 1;
    }
    true
}

fn hex(c: u8) -> u8 {
    (c as char).to_digit(16).unwrap_or(0) as u8
}

/// `!shouldEscape(c, encodeHost)`: unreserved characters, sub-delims, and `:[]<>"`.
fn host_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b"-_.~!$&'()*+,;=:[]<>\"".contains(&c)
}
