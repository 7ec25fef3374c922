//! One request/response round trip through the in-tab engine, without any DOM.
//!
//! The form's text fields become an `http::Request<Bytes>`, the engine answers, and the
//! answer becomes display text. Keeping this free of `web-sys` and Yew makes it the part of
//! the playground the browser tests can check directly.

use bytes::Bytes;
use http::header::{HeaderName, HeaderValue, CONTENT_TYPE};
use http::{Method, Request, Response, StatusCode};

use crate::engine::{Body, Engine};

/// The methods the form offers, in the order of the `<select>`.
pub const METHODS: &[&str] = &["GET", "POST", "PUT", "PATCH", "DELETE"];

/// What the user typed into the form.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Draft {
    /// The HTTP method (one of [`METHODS`], or any token).
    pub method: String,
    /// Path plus optional query, e.g. `/api/v1/namespaces?limit=1`.
    pub path: String,
    /// Optional `Name: value` lines; blank lines are ignored.
    pub headers: String,
    /// The request body, sent as-is (empty means no body).
    pub body: String,
}

impl Draft {
    /// A GET of `path`, with no headers and no body.
    pub fn get(path: impl Into<String>) -> Draft {
        Draft {
            method: "GET".into(),
            path: path.into(),
            ..Draft::default()
        }
    }
}

/// A response, ready for display.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exchange {
    /// The status code, e.g. 201.
    pub code: u16,
    /// The code plus its reason phrase, e.g. `201 Created`.
    pub status_line: String,
    /// Response headers in the order the engine set them.
    pub headers: Vec<(String, String)>,
    /// The body: pretty-printed when it is JSON, the text when it is text, and a hex dump
    /// when it is binary.
    pub body: String,
    /// The raw bytes of a binary body (Protobuf, CBOR, gzip), for the hex view.
    pub binary: Option<Vec<u8>>,
    /// A binary body decoded to JSON, when the playground can decode it.
    pub decoded: Option<String>,
}

impl Exchange {
    /// The value of a response header (names are lower case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The body as JSON, when it is JSON.
    pub fn json(&self) -> Option<serde_json::Value> {
        if self.binary.is_some() {
            return None;
        }
        serde_json::from_slice(self.body.as_bytes()).ok()
    }
}

/// Parses `Name: value` lines; the error names the first bad line (1-based).
pub fn parse_headers(text: &str) -> Result<Vec<(HeaderName, HeaderValue)>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let (name, value) = line
            .split_once(':')
            .ok_or_else(|| format!("header line {}: expected `Name: value`", i + 1))?;
        let name = HeaderName::from_bytes(name.trim().as_bytes())
            .map_err(|_| format!("header line {}: invalid header name", i + 1))?;
        let value = HeaderValue::from_str(value.trim())
            .map_err(|_| format!("header line {}: invalid header value", i + 1))?;
        out.push((name, value));
    }
    Ok(out)
}

/// The Content-Type a body gets when the user gave none: JSON for writes, a JSON merge
/// patch for PATCH (the one patch type every client can write by hand).
pub fn default_content_type(method: &str) -> &'static str {
    if method.eq_ignore_ascii_case("PATCH") {
        "application/merge-patch+json"
    } else {
        "application/json"
    }
}

/// Turns the form into a request; the error says what to fix.
pub fn build_request(draft: &Draft) -> Result<Request<Bytes>, String> {
    let method = Method::from_bytes(draft.method.trim().as_bytes())
        .map_err(|_| format!("invalid method {:?}", draft.method))?;
    let path = draft.path.trim();
    if !path.starts_with('/') {
        return Err("the path must start with `/`".into());
    }
    let uri: http::Uri = path.parse().map_err(|e| format!("invalid path: {e}"))?;
    let mut req = Request::builder()
        .method(method.clone())
        .uri(uri)
        .body(Bytes::from(draft.body.clone()))
        .map_err(|e| format!("invalid request: {e}"))?;
    for (name, value) in parse_headers(&draft.headers)? {
        req.headers_mut().append(name, value);
    }
    if !draft.body.is_empty() && !req.headers().contains_key(CONTENT_TYPE) {
        req.headers_mut().insert(
            CONTENT_TYPE,
            HeaderValue::from_static(default_content_type(method.as_str())),
        );
    }
    Ok(req)
}

/// Renders a response for display.
pub fn describe(resp: &Response<Body>) -> Exchange {
    let status: StatusCode = resp.status();
    let status_line = match status.canonical_reason() {
        Some(reason) => format!("{} {reason}", status.as_u16()),
        None => status.as_u16().to_string(),
    };
    let headers = resp
        .headers()
        .iter()
        .map(|(k, v)| {
            let v = v
                .to_str()
                .map(str::to_owned)
                .unwrap_or_else(|_| String::from_utf8_lossy(v.as_bytes()).into_owned());
            (k.as_str().to_owned(), v)
        })
        .collect();
    let bytes = resp.body().bytes();
    let (body, binary, decoded) = if super::hexdump::is_text(bytes) {
        (pretty_body(bytes), None, None)
    } else {
        (
            super::hexdump::hexdump(bytes, 64 * 1024),
            Some(bytes.to_vec()),
            decode_binary(bytes),
        )
    };
    Exchange {
        code: status.as_u16(),
        status_line,
        headers,
        body,
        binary,
        decoded,
    }
}

/// A binary body decoded with the engine's own codecs (Protobuf's `k8s\0` envelope, CBOR's
/// self-described tag) as pretty JSON, or why it could not be decoded; `None` for bodies that
/// are neither. A gzip body (`Accept-Encoding: gzip`) is inflated first, as a browser's
/// `fetch` would do, and shown as the text or the decoded form inside.
pub fn decode_binary(bytes: &[u8]) -> Option<String> {
    if bytes.starts_with(&[0x1f, 0x8b]) {
        use std::io::Read;
        let mut inflated = Vec::new();
        if let Err(e) = flate2::read::GzDecoder::new(bytes).read_to_end(&mut inflated) {
            return Some(format!("(could not inflate gzip: {e})"));
        }
        let head = format!(
            "gzip: {} bytes inflate to {}\n\n",
            bytes.len(),
            inflated.len()
        );
        return Some(if super::hexdump::is_text(&inflated) {
            head + &pretty_body(&inflated)
        } else {
            head + &decode_binary(&inflated)
                .unwrap_or_else(|| super::hexdump::hexdump(&inflated, 4096))
        });
    }
    let decoded = if bytes.starts_with(b"k8s\0") {
        crate::codec::protobuf::decode(bytes, &crate::resources::SCHEME)
    } else if crate::codec::cbor::is_cbor(bytes) {
        crate::codec::cbor::decode(bytes)
    } else {
        return None;
    };
    Some(match decoded {
        Ok(v) => serde_json::to_string_pretty(&v).unwrap_or_default(),
        Err(e) => format!("(could not decode: {e})"),
    })
}

/// Pretty-prints JSON (keeping the engine's key order); other bodies are shown as text.
pub fn pretty_body(bytes: &[u8]) -> String {
    match serde_json::from_slice::<serde_json::Value>(bytes) {
        Ok(v) => serde_json::to_string_pretty(&v)
            .unwrap_or_else(|_| String::from_utf8_lossy(bytes).into_owned()),
        Err(_) => String::from_utf8_lossy(bytes).into_owned(),
    }
}

/// Sends the form to the engine: the rendered response, or why the form is not a request.
pub fn send(engine: &mut Engine, draft: &Draft) -> Result<Exchange, String> {
    let req = build_request(draft)?;
    Ok(describe(&engine.handle(req)))
}
