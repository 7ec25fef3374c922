//! Continue tokens in Kubernetes's own format (apiserver `storage/continue.go`): unpadded
//! base64url of `{"v":"meta.k8s.io/v1","rv":N,"start":"<key>"}`, where `start` is the next
//! storage key relative to the list's prefix.

use base64::Engine as _;
use serde_json::{json, Value};

use crate::resources::status::ApiError;

/// A decoded continue token: the snapshot revision (`-1` = latest) and the start key
/// relative to the list's key prefix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContinueToken {
    pub rv: i64,
    pub start: String,
}

/// Encodes a token as apiserver does: unpadded base64url of
/// `{"v":"meta.k8s.io/v1","rv":N,"start":"<key>"}`.
pub fn encode_continue(rv: i64, start: &str) -> String {
    let doc = json!({"v": "meta.k8s.io/v1", "rv": rv, "start": start});
    base64::engine::general_purpose::URL_SAFE_NO_PAD
        .encode(crate::codec::json::to_compact_string(&doc))
}

/// Decodes and validates a token, with apiserver's `invalid continue token: ...` texts.
pub fn decode_continue(token: &str) -> Result<ContinueToken, String> {
    let fail = |m: String| format!("invalid continue token: continue key is not valid: {m}");
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(token.trim_end_matches('='))
        .map_err(|e| {
            fail(format!(
                "illegal base64 data at input byte {}",
                base64_offset(&e)
            ))
        })?;
    let v: Value = serde_json::from_slice(&bytes).map_err(|e| fail(e.to_string()))?;
    let version = v.get("v").and_then(Value::as_str).unwrap_or("");
    if version != "meta.k8s.io/v1" {
        return Err(fail(format!(
            "server does not recognize this encoded version {version:?}"
        )));
    }
    let rv = v.get("rv").and_then(Value::as_i64).unwrap_or(0);
    if rv == 0 {
        return Err(fail(
            "incorrect encoded start resourceVersion (version meta.k8s.io/v1)".into(),
        ));
    }
    let start = v.get("start").and_then(Value::as_str).unwrap_or("");
    if start.is_empty() {
        return Err(fail(
            "encoded start key empty (version meta.k8s.io/v1)".into(),
        ));
    }
    if !is_clean_path(start) {
        return Err(fail(start.to_string()));
    }
    Ok(ContinueToken {
        rv,
        start: start.to_string(),
    })
}

fn base64_offset(e: &base64::DecodeError) -> usize {
    match e {
        base64::DecodeError::InvalidByte(i, _) => *i,
        base64::DecodeError::InvalidLastSymbol(i, _) => *i,
        _ => 0,
    }
}

/// `path.Clean("/" + start)` must not change the key (no `..`, `//`, trailing `/`).
fn is_clean_path(start: &str) -> bool {
    let key = start.trim_end_matches('\0');
    !(key.split('/').any(|s| s == "." || s == "..")
        || key.contains("//")
        || key.ends_with('/')
        || key.starts_with('/'))
}

/// The 410 for a continue token whose snapshot was compacted, carrying an inconsistent
/// continuation token (`rv: -1`, same start).
pub fn expired_token(t: &ContinueToken) -> ApiError {
    let mut e = ApiError::expired("The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.");
    e.continue_token = Some(encode_continue(-1, &t.start));
    e
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn malformed_tokens() {
        let enc = |s: &str| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(s);
        let cases = [
            (
                enc(r#"{"v":"x","rv":1,"start":"a"}"#),
                "server does not recognize this encoded version \"x\"",
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
        ];
        for (tok, want) in cases {
            let err = decode_continue(&tok).unwrap_err();
            assert_eq!(
                err,
                format!("invalid continue token: continue key is not valid: {want}")
            );
        }
        assert!(decode_continue("!!!")
            .unwrap_err()
            .starts_with("invalid continue token: continue key is not valid: illegal base64 data"));
    }
}
