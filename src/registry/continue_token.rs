//! Continue tokens in Kubernetes's own format (apiserver `storage/continue.go`): unpadded
//! base64url of `{"v":"meta.k8s.io/v1","rv":N,"start":"<key>"}`.
//!
//! `start` is what the watch cache writes: the next storage key below the resource's prefix,
//! with its leading slash (`/<name>\0` in one namespace, `/<namespace>/<name>\0` across
//! namespaces). The token handed out with a 410 is etcd's, relative to the list's prefix with
//! its trailing slash, so it has no leading slash; both forms decode to the same key, as
//! `DecodeContinue` prefixes a missing slash before checking `path.Clean`.
//!
//! Decoding errors carry Go's texts, so the base64 step is Go's `RawURLEncoding` decoder
//! (written here by hand: it skips CR and LF, ignores non-zero trailing bits and reports
//! Go's byte offsets, where the base64 crate does none of these; encoding uses the crate) and the JSON step is the project's Go-compatible decoder with the token's
//! Go struct as its schema.

use base64::Engine as _;
use serde_json::{json, Value};

use crate::codec::decode::{decode_bytes, DecodeError};
use crate::codec::schema::{always, Struct, Type};
use crate::resources::status::ApiError;

/// A decoded continue token: the snapshot revision (`-1` = latest) and the start key
/// relative to the list's key prefix (which ends in `/`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContinueToken {
    pub rv: i64,
    pub start: String,
}

/// apiserver's `storage.continueToken`, for Go's decoding texts
/// (`json: cannot unmarshal string into Go struct field continueToken.rv of type int64`).
static CONTINUE_TOKEN: Struct = Struct {
    openapi_name: "io.k8s.apiserver.pkg.storage.continueToken",
    atomic: false,
    description: "",
    fields: &[
        always("v", Type::String, ""),
        always("rv", Type::Int64, ""),
        always("start", Type::String, ""),
    ],
};

/// Encodes a token as the watch cache does for the next page after the item at `rel` (its
/// key relative to the list's prefix): `start` is `/<rel>\0`.
pub fn encode_next_page(rv: i64, rel: &str) -> String {
    encode_continue(rv, &format!("/{rel}\u{0}"))
}

/// Encodes a token with `start` as given: unpadded base64url of
/// `{"v":"meta.k8s.io/v1","rv":N,"start":"<start>"}`.
pub fn encode_continue(rv: i64, start: &str) -> String {
    let doc = json!({"v": "meta.k8s.io/v1", "rv": rv, "start": start});
    base64::engine::general_purpose::URL_SAFE_NO_PAD
        .encode(crate::codec::json::to_compact_string(&doc))
}

/// Decodes and validates a token, with apiserver's `invalid continue token: ...` texts.
pub fn decode_continue(token: &str) -> Result<ContinueToken, String> {
    let fail = |m: &dyn std::fmt::Display| {
        format!("invalid continue token: continue key is not valid: {m}")
    };
    let bytes = decode_raw_url(token)
        .map_err(|at| fail(&format!("illegal base64 data at input byte {at}")))?;
    let decoded = decode_bytes(&bytes, &CONTINUE_TOKEN).map_err(|e| match e {
        DecodeError::Syntax(e) => fail(&e),
        DecodeError::Type(e) => fail(&e),
    })?;
    let text = |name: &str| {
        decoded
            .object
            .get(name)
            .and_then(Value::as_str)
            .unwrap_or("")
    };
    let version = text("v");
    if version != "meta.k8s.io/v1" {
        return Err(fail(&format!(
            "server does not recognize this encoded version {version}"
        )));
    }
    let rv = decoded
        .object
        .get("rv")
        .and_then(Value::as_i64)
        .unwrap_or(0);
    if rv == 0 {
        return Err(fail(
            &"incorrect encoded start resourceVersion (version meta.k8s.io/v1)",
        ));
    }
    let start = text("start");
    if start.is_empty() {
        return Err(fail(&"encoded start key empty (version meta.k8s.io/v1)"));
    }
    let key = match start.strip_prefix('/') {
        Some(_) => start.to_string(),
        None => format!("/{start}"),
    };
    if !is_clean_path(&key) {
        return Err(fail(&start));
    }
    Ok(ContinueToken {
        rv,
        start: key[1..].to_string(),
    })
}

/// Whether Go's `path.Clean` leaves the rooted `key` unchanged: no empty, `.` or `..`
/// segment and no trailing slash (the root itself excepted).
fn is_clean_path(key: &str) -> bool {
    key == "/"
        || key[1..]
            .split('/')
            .all(|s| !(s.is_empty() || s == "." || s == ".."))
}

const URL_ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Go's `base64.RawURLEncoding.DecodeString`: quanta of four symbols, CR and LF skipped,
/// a last quantum of two or three symbols taken with its trailing bits ignored; the error is
/// Go's `CorruptInputError`, the offset of the offending byte.
fn decode_raw_url(s: &str) -> Result<Vec<u8>, usize> {
    let src = s.as_bytes();
    let mut out = Vec::with_capacity(src.len() / 4 * 3 + 2);
    let mut si = 0;
    loop {
        let mut quantum = [0u8; 4];
        let mut len = 4;
        let mut j = 0;
        while j < 4 {
            if si == src.len() {
                match j {
                    0 => return Ok(out),
                    1 => return Err(si - 1),
                    _ => {}
                }
                len = j;
                break;
            }
            let c = src[si];
            si += 1;
            match URL_ALPHABET.iter().position(|a| *a == c) {
                Some(v) => {
                    quantum[j] = v as u8;
                    j += 1;
                }
                None if c == b'\n' || c == b'\r' => {}
                None => return Err(si - 1),
            }
        }
        let n = quantum.iter().fold(0u32, |n, v| n << 6 | *v as u32);
        out.extend_from_slice(&n.to_be_bytes()[1..len]);
        if len < 4 {
            return Ok(out);
        }
    }
}
/// The 410 for a continue token whose snapshot was compacted, carrying an inconsistent
/// continuation token (`rv: -1`, same start). The real server builds it in its etcd layer,
/// relative to the prefix with its trailing slash, so `start` has no leading slash here.
pub fn expired_token(t: &ContinueToken) -> ApiError {
    let mut e = ApiError::expired("The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.");
    e.continue_token = Some(encode_continue(-1, &t.start));
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc(s: &str) -> String {
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(s)
    }

    #[test]
    fn token_format_matches_reference_example() {
        let t = encode_continue(12345, "cr-b\u{0}");
        assert_eq!(
            t,
            "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTIzNDUsInN0YXJ0IjoiY3ItYlx1MDAwMCJ9"
        );
        assert_eq!(
            decode_continue(&t).unwrap(),
            ContinueToken {
                rv: 12345,
                start: "cr-b\u{0}".into()
            }
        );
    }

    #[test]
    fn next_page_start_has_the_leading_slash_and_decodes_to_the_same_key() {
        let t = encode_next_page(7, "ns/cr-b");
        let json = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(&t)
            .unwrap();
        assert_eq!(
            String::from_utf8(json).unwrap(),
            r#"{"v":"meta.k8s.io/v1","rv":7,"start":"/ns/cr-b\u0000"}"#
        );
        assert_eq!(decode_continue(&t).unwrap().start, "ns/cr-b\u{0}");
    }

    #[test]
    fn decoder_reads_what_the_crate_encodes() {
        for s in ["", "a", "ab", "abc", "abcd", "\u{0}\u{ff}~?>"] {
            assert_eq!(decode_raw_url(&enc(s)).unwrap(), s.as_bytes());
        }
    }

    #[test]
    fn base64_is_decoded_as_go_does() {
        // Go skips CR/LF, ignores trailing bits, and names the offending byte.
        assert_eq!(decode_raw_url("YW\r\nJj").unwrap(), b"abc");
        assert_eq!(decode_raw_url("YR").unwrap(), b"a");
        assert_eq!(decode_raw_url("!!!"), Err(0));
        assert_eq!(decode_raw_url("YWJj="), Err(4));
        assert_eq!(decode_raw_url("YWJjZ"), Err(4));
        assert_eq!(decode_raw_url("Y"), Err(0));
        assert_eq!(decode_raw_url("YW+j"), Err(2));
    }

    #[test]
    fn malformed_tokens() {
        let cases = [
            (
                enc(r#"{"v":"meta.k8s.io/v0","rv":1,"start":"a"}"#),
                "server does not recognize this encoded version meta.k8s.io/v0",
            ),
            (
                enc("null"),
                "server does not recognize this encoded version ",
            ),
            (
                enc("nope"),
                "invalid character 'o' in literal null (expecting 'u')",
            ),
            (enc(r#"{"v":"#), "unexpected end of JSON input"),
            (
                enc(r#"{"v":"meta.k8s.io/v1","rv":"1","start":"a"}"#),
                "json: cannot unmarshal string into Go struct field continueToken.rv of type int64",
            ),
            (
                enc(r#"{"v":"meta.k8s.io/v1","rv":0,"start":"a"}"#),
                "incorrect encoded start resourceVersion (version meta.k8s.io/v1)",
            ),
            (
                enc(r#"{"v":"meta.k8s.io/v1","rv":3,"start":""}"#),
                "encoded start key empty (version meta.k8s.io/v1)",
            ),
            (
                enc(r#"{"v":"meta.k8s.io/v1","rv":3,"start":"../x"}"#),
                "../x",
            ),
            (
                enc(r#"{"v":"meta.k8s.io/v1","rv":3,"start":"/a//b"}"#),
                "/a//b",
            ),
            (enc(r#"{"v":"meta.k8s.io/v1","rv":3,"start":"a/"}"#), "a/"),
            ("!!!".into(), "illegal base64 data at input byte 0"),
        ];
        for (tok, want) in cases {
            let err = decode_continue(&tok).unwrap_err();
            assert_eq!(
                err,
                format!("invalid continue token: continue key is not valid: {want}")
            );
        }
    }
}
