//! The request path as kube-apiserver routes it: Go's `net/http` parses the request line with
//! `url.ParseRequestURI` and every filter and route after it reads `URL.Path`, the path with
//! its percent-escapes decoded (`/api/v1/namespaces/%64efault` is the `default` namespace, and
//! an escaped slash is a slash). A malformed escape never reaches the server's handlers.

use std::borrow::Cow;

/// `url.PathUnescape`'s decoding of a request path: `None` for a `%` not followed by two hex
/// digits. Bytes that do not form UTF-8 are replaced, as no route or name can hold them.
pub fn unescape(raw: &str) -> Option<Cow<'_, str>> {
    if !raw.contains('%') {
        return Some(Cow::Borrowed(raw));
    }
    let bytes = raw.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes.get(i + 1..i + 3)?;
            if !hex.iter().all(u8::is_ascii_hexdigit) {
                return None;
            }
            let digit = |b: u8| (b as char).to_digit(16).unwrap_or(0) as u8;
            out.push(digit(hex[0]) << 4 | digit(hex[1]));
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    Some(match String::from_utf8(out) {
        Ok(s) => Cow::Owned(s),
        Err(e) => Cow::Owned(String::from_utf8_lossy(e.as_bytes()).into_owned()),
    })
}

#[cfg(test)]
mod tests {
    use super::unescape;

    #[test]
    fn escapes_decode_as_go_decodes_a_path() {
        let rows: &[(&str, Option<&str>)] = &[
            (
                "/api/v1/namespaces/default",
                Some("/api/v1/namespaces/default"),
            ),
            (
                "/api/v1/namespaces/%64efault",
                Some("/api/v1/namespaces/default"),
            ),
            (
                "/api/v1/namespaces/%64%65fault",
                Some("/api/v1/namespaces/default"),
            ),
            ("/a%2Fb", Some("/a/b")),
            ("/a%2fb", Some("/a/b")),
            ("/a%20b", Some("/a b")),
            ("/a+b", Some("/a+b")),
            ("/caf%C3%A9", Some("/café")),
            ("/a%", None),
            ("/a%4", None),
            ("/a%zz", None),
            ("/a%+1", None),
        ];
        for (raw, want) in rows {
            assert_eq!(unescape(raw).as_deref(), *want, "{raw}");
        }
    }
}
