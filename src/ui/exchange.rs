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

/// A response, ready for display.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exchange {
    /// The status code, e.g. 201.
    pub code: u16,
    /// The code plus its reason phrase, e.g. `201 Created`.
    pub status_line: String,
    /// Response headers in the order the engine set them.
    pub headers: Vec<(String, String)>,
    /// The body: pretty-printed when it is JSON, otherwise the text (lossy UTF-8).
    pub body: String,
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
fn default_content_type(method: &Method) -> &'static str {
    if method == Method::PATCH {
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
            HeaderValue::from_static(default_content_type(&method)),
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
    Exchange {
        code: status.as_u16(),
        status_line,
        headers,
        body: pretty_body(resp.body().bytes()),
    }
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
