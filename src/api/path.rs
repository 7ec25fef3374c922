//! The request path as kube-apiserver routes it: Go's `net/http` parses the request line with
//! `url.ParseRequestURI` and every filter and route after it reads `URL.Path`, the path with
//! its percent-escapes decoded (`/api/v1/namespaces/%64efault` is the `default` namespace, and
//! an escaped slash is a slash). A malformed escape never reaches the server's handlers.

use std::borrow::Cow;

use percent_encoding::percent_decode_str;

/// `url.PathUnescape`'s decoding of a request path: `None` for a `%` not followed by two hex
/// digits (Go refuses those where `percent_decode_str` would pass them through). Bytes that do
/// not form UTF-8 are replaced, as no route or name can hold them.
pub fn unescape(raw: &str) -> Option<Cow<'_, str>> {
    let bytes = raw.as_bytes();
    let malformed = bytes.iter().enumerate().any(|(i, &b)| {
        b == b'%'
            && !bytes
                .get(i + 1..i + 3)
                .is_some_and(|hex| hex.iter().all(u8::is_ascii_hexdigit))
    });
    if malformed {
        return None;
    }
    Some(percent_decode_str(raw).decode_utf8_lossy())
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
