//! Go's `net/url` parser, as far as the `uri` format (`url.ParseRequestURI`) and CEL's URL
//! library (`url.Parse`, then the URL's accessors) read it. Written by hand because which
//! texts pass, how they split, and the error texts rules quote must match Go's byte for
//! byte.

use crate::codec::go_quote;

/// A parsed URL: the parts the CEL library reads.
#[derive(Debug, Clone, PartialEq)]
pub struct Url {
    /// Lower-cased.
    pub scheme: String,
    pub opaque: String,
    /// Unescaped, with its port.
    pub host: String,
    /// Unescaped.
    pub path: String,
    /// The path as written, when its escaping is not the default one.
    pub raw_path: String,
    pub raw_query: String,
    /// The text parsed, which URL equality compares.
    pub text: String,
}

/// `url.ParseRequestURI(text)`: an absolute URI or an absolute path, the fragment not
/// split off; the error is Go's (`parse "x": invalid URI for request`).
pub fn parse_request_uri(text: &str) -> Result<Url, String> {
    parse(text, true).map_err(|e| url_error(text, &e))
}

/// `url.Parse(text)`: the fragment split off first.
pub fn parse_url(text: &str) -> Result<Url, String> {
    let (u, frag) = text.split_once('#').unwrap_or((text, ""));
    let mut url = parse(u, false).map_err(|e| url_error(u, &e))?;
    unescape(frag, Mode::Fragment).map_err(|e| url_error(text, &e))?;
    url.text = text.to_string();
    Ok(url)
}

/// `url.Error`'s text.
fn url_error(text: &str, err: &str) -> String {
    format!("parse {}: {err}", go_quote(text))
}

fn parse(raw: &str, via_request: bool) -> Result<Url, String> {
    if raw.bytes().any(|b| b < 0x20 || b == 0x7f) {
        return Err("net/url: invalid control character in URL".into());
    }
    if raw.is_empty() && via_request {
        return Err("empty url".into());
    }
    let mut url = Url {
        scheme: String::new(),
        opaque: String::new(),
        host: String::new(),
        path: String::new(),
        raw_path: String::new(),
        raw_query: String::new(),
        text: raw.to_string(),
    };
    if raw == "*" {
        url.path = "*".into();
        return Ok(url);
    }
    let (scheme, rest) = scheme(raw)?;
    url.scheme = scheme.to_ascii_lowercase();
    let rest = match rest.strip_suffix('?') {
        Some(r) if rest.matches('?').count() == 1 => r,
        _ => match rest.split_once('?') {
            Some((path, query)) => {
                url.raw_query = query.to_string();
                path
            }
            None => rest,
        },
    };
    if !rest.starts_with('/') {
        if !url.scheme.is_empty() {
            // A rootless path after a scheme is opaque (`mailto:a@b`).
            url.opaque = rest.to_string();
            return Ok(url);
        }
        if via_request {
            return Err("invalid URI for request".into());
        }
        if rest.split('/').next().is_some_and(|s| s.contains(':')) {
            return Err("first path segment in URL cannot contain colon".into());
        }
    }
    let mut path = rest;
    let authority_follows = !url.scheme.is_empty() || !via_request && !rest.starts_with("///");
    if authority_follows && rest.starts_with("//") {
        let after = &rest[2..];
        let (authority, p) = after.find('/').map_or((after, ""), |i| after.split_at(i));
        url.host = authority_host(authority)?;
        path = p;
    }
    url.path = unescape(path, Mode::Path)?;
    if escape_path(&url.path) != path {
        url.raw_path = path.to_string();
    }
    Ok(url)
}

/// `getScheme`: the scheme and what follows its colon; no scheme (empty) when the text does
/// not start with one.
fn scheme(text: &str) -> Result<(&str, &str), String> {
    for (i, c) in text.bytes().enumerate() {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' if i > 0 => {}
            b':' if i == 0 => return Err("missing protocol scheme".into()),
            b':' => return Ok((&text[..i], &text[i + 1..])),
            _ => return Ok(("", text)),
        }
    }
    Ok(("", text))
}

/// `parseAuthority`: `userinfo@host`; the host, unescaped.
fn authority_host(authority: &str) -> Result<String, String> {
    let (userinfo, host) = match authority.rfind('@') {
        Some(i) => (Some(&authority[..i]), &authority[i + 1..]),
        None => (None, authority),
    };
    let host = parse_host(host)?;
    if let Some(u) = userinfo {
        let valid = u
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-._:~!$&'()*+,;=%@".contains(c));
        if !valid {
            return Err("net/url: invalid userinfo".into());
        }
        for part in u.splitn(2, ':') {
            unescape(part, Mode::UserPassword)?;
        }
    }
    Ok(host)
}

/// `parseHost`: an IP literal in brackets with an optional port, or a host with an optional
/// port after its last colon; unescaped (only `%25` or non-ASCII bytes may be escaped).
fn parse_host(host: &str) -> Result<String, String> {
    let colon_port = if host.starts_with('[') {
        let Some(i) = host.rfind(']') else {
            return Err("missing ']' in host".into());
        };
        &host[i + 1..]
    } else {
        host.rfind(':').map_or("", |i| &host[i..])
    };
    if !valid_optional_port(colon_port) {
        return Err(format!("invalid port {} after host", go_quote(colon_port)));
    }
    unescape(host, Mode::Host)
}

/// `validOptionalPort`: empty, or a colon and digits.
fn valid_optional_port(p: &str) -> bool {
    p.is_empty()
        || p.strip_prefix(':')
            .is_some_and(|d| d.bytes().all(|b| b.is_ascii_digit()))
}

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Path,
    Host,
    UserPassword,
    QueryComponent,
    Fragment,
}

/// `shouldEscape(c, mode)` for the modes escaping is asked of here.
fn should_escape(c: u8, mode: Mode) -> bool {
    if c.is_ascii_alphanumeric() {
        return false;
    }
    if mode == Mode::Host && b"!$&'()*+,;=:[]<>\"".contains(&c) {
        return false;
    }
    match c {
        b'-' | b'_' | b'.' | b'~' => false,
        b'$' | b'&' | b'+' | b',' | b'/' | b':' | b';' | b'=' | b'?' | b'@' => match mode {
            Mode::Path => c == b'?',
            Mode::UserPassword => matches!(c, b'@' | b'/' | b'?' | b':'),
            Mode::QueryComponent => true,
            Mode::Fragment => false,
            Mode::Host => true,
        },
        b'!' | b'(' | b')' | b'*' if mode == Mode::Fragment => false,
        _ => true,
    }
}

fn unhex(c: u8) -> u8 {
    (c as char).to_digit(16).unwrap_or(0) as u8
}

/// `unescape(s, mode)`, with Go's `EscapeError` and `InvalidHostError` texts.
fn unescape(s: &str, mode: Mode) -> Result<String, String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                if i + 2 >= b.len()
                    || !b[i + 1].is_ascii_hexdigit()
                    || !b[i + 2].is_ascii_hexdigit()
                {
                    let bad = &b[i..(i + 3).min(b.len())];
                    return Err(format!("invalid URL escape {}", quote_bytes(bad)));
                }
                if mode == Mode::Host && unhex(b[i + 1]) < 8 && &b[i..i + 3] != b"%25" {
                    return Err(format!("invalid URL escape {}", quote_bytes(&b[i..i + 3])));
                }
                out.push(unhex(b[i + 1]) << 4 | unhex(b[i + 2]));
                i += 3;
            }
            b'+' if mode == Mode::QueryComponent => {
                out.push(b' ');
                i += 1;
            }
            c => {
                if mode == Mode::Host && c < 0x80 && should_escape(c, mode) {
                    let bad = String::from(c as char);
                    return Err(format!("invalid character {} in host name", go_quote(&bad)));
                }
                out.push(c);
                i += 1;
            }
        }
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// Go's `%q` of bytes that may end inside a character: valid text quoted as text, the
/// other bytes as `\xNN`.
fn quote_bytes(b: &[u8]) -> String {
    let Err(e) = std::str::from_utf8(b) else {
        return go_quote(std::str::from_utf8(b).unwrap_or(""));
    };
    let (valid, rest) = b.split_at(e.valid_up_to());
    let mut out = go_quote(std::str::from_utf8(valid).unwrap_or(""));
    out.pop();
    for byte in rest {
        match byte.is_ascii() {
            true => out.push_str(go_quote(&(*byte as char).to_string()).trim_matches('"')),
            false => out.push_str(&format!("\\x{byte:02x}")),
        }
    }
    out.push('"');
    out
}

/// `escape(s, encodePath)`.
fn escape_path(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for &c in s.as_bytes() {
        if should_escape(c, Mode::Path) {
            out.push_str(&format!("%{c:02X}"));
        } else {
            out.push(c as char);
        }
    }
    out
}

impl Url {
    /// `Hostname()`: the host without its port, an IPv6 literal without its brackets.
    pub fn hostname(&self) -> &str {
        let (host, _) = self.split_host_port();
        host.strip_prefix('[')
            .and_then(|h| h.strip_suffix(']'))
            .unwrap_or(host)
    }

    /// `Port()`.
    pub fn port(&self) -> &str {
        self.split_host_port().1
    }

    fn split_host_port(&self) -> (&str, &str) {
        match self.host.rfind(':') {
            Some(i) if valid_optional_port(&self.host[i..]) => {
                (&self.host[..i], &self.host[i + 1..])
            }
            _ => (&self.host, ""),
        }
    }

    /// `EscapedPath()`: the path as written when that is a valid encoding of it, else the
    /// path escaped.
    pub fn escaped_path(&self) -> String {
        let valid = |s: &str| {
            s.bytes()
                .all(|c| b"!$&'()*+,;=:@[]%".contains(&c) || !should_escape(c, Mode::Path))
        };
        if !self.raw_path.is_empty()
            && valid(&self.raw_path)
            && unescape(&self.raw_path, Mode::Path).as_deref() == Ok(self.path.as_str())
        {
            return self.raw_path.clone();
        }
        if self.path == "*" {
            return "*".into();
        }
        escape_path(&self.path)
    }

    /// `Query()`: `ParseQuery` of the raw query, pairs that do not parse left out; each key's
    /// values in order, the keys sorted.
    pub fn query(&self) -> Vec<(String, Vec<String>)> {
        let mut out: Vec<(String, Vec<String>)> = Vec::new();
        for pair in self.raw_query.split('&') {
            if pair.is_empty() || pair.contains(';') {
                continue;
            }
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            let (Ok(k), Ok(v)) = (
                unescape(k, Mode::QueryComponent),
                unescape(v, Mode::QueryComponent),
            ) else {
                continue;
            };
            match out.iter_mut().find(|(key, _)| *key == k) {
                Some((_, values)) => values.push(v),
                None => out.push((k, vec![v])),
            }
        }
        crate::sort::sort_by(&mut out, |a, b| a.0.cmp(&b.0));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_uris_and_their_errors() {
        for (text, want) in [
            ("https://example.com/path?q=1", Ok(())),
            ("/absolute/path", Ok(())),
            ("mailto:user@example.com", Ok(())),
            ("*", Ok(())),
            ("http://user:pass@host:8080/", Ok(())),
            ("http://example.com/p#frag", Ok(())),
            (
                "relative/path",
                Err(r#"parse "relative/path": invalid URI for request"#),
            ),
            ("", Err(r#"parse "": empty url"#)),
            (":nope", Err(r#"parse ":nope": missing protocol scheme"#)),
            (
                "http://host:port/",
                Err(r#"parse "http://host:port/": invalid port ":port" after host"#),
            ),
            (
                "http://ho st/",
                Err(r#"parse "http://ho st/": invalid character " " in host name"#),
            ),
            (
                "http://example.com/%zz",
                Err(r#"parse "http://example.com/%zz": invalid URL escape "%zz""#),
            ),
            (
                "http://[::1/",
                Err(r#"parse "http://[::1/": missing ']' in host"#),
            ),
            (
                "http://a b@h/",
                Err(r#"parse "http://a b@h/": net/url: invalid userinfo"#),
            ),
            (
                "http://h/\u{7f}",
                Err("parse \"http://h/\\x7f\": net/url: invalid control character in URL"),
            ),
            ("/%zé", Err(r#"parse "/%zé": invalid URL escape "%z\xc3""#)),
        ] {
            assert_eq!(
                parse_request_uri(text).map(|_| ()),
                want.map_err(String::from),
                "{text}"
            );
        }
    }

    #[test]
    fn parts_as_go_reads_them() {
        let u = parse_url("HTTPS://user@[::1]:8443/a%20b/c?x=1&y=a+b&x=2&bad=%zz#top").unwrap();
        assert_eq!(
            (u.scheme.as_str(), u.host.as_str(), u.hostname(), u.port()),
            ("https", "[::1]:8443", "::1", "8443")
        );
        assert_eq!(
            (u.path.as_str(), u.escaped_path()),
            ("/a b/c", "/a%20b/c".to_string())
        );
        assert_eq!(
            u.query(),
            [
                ("x".to_string(), vec!["1".to_string(), "2".to_string()]),
                ("y".to_string(), vec!["a b".to_string()])
            ]
        );
        // A path written with escapes it need not have keeps them.
        let u = parse_url("https://h/%61b").unwrap();
        assert_eq!(
            (u.path.as_str(), u.escaped_path()),
            ("/ab", "/%61b".to_string())
        );
        let u = parse_url("https://example.com").unwrap();
        assert_eq!(
            (u.hostname(), u.port(), u.escaped_path()),
            ("example.com", "", String::new())
        );
    }
}
