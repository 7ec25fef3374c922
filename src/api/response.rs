//! Writing responses: JSON bodies as Go's encoder writes them, Status errors, the headers
//! kube-apiserver always sets, and the `Accept` check.

use bytes::Bytes;
use http::{header, HeaderValue, Response};
use serde_json::Value;

use super::status::ApiError;
use super::{Reply, Request};
use crate::codec::json;
use crate::engine::Body;

/// Whether to indent: `pretty=true|1` in the query, or a browser / curl / wget user agent
/// (`negotiation.isPrettyPrint`).
pub fn wants_pretty(req: &Request<'_>) -> bool {
    if let Some(p) = req.query.get("pretty") {
        return matches!(p, "true" | "1");
    }
    let ua = req.header("user-agent");
    ua.starts_with("curl") || ua.starts_with("Wget") || ua.starts_with("Mozilla/5.0")
}

/// The response header in which every read explains itself: which semantic applied, which
/// layer served it, at which resourceVersion.
pub const READ_HEADER: &str = "x-kubesim-read";

/// The media types kubesim serves today (Order 3 adds YAML, Protobuf, CBOR and Table).
pub const SERVED_MEDIA_TYPES: &[&str] = &["application/json"];

/// Checks `Accept`: at least one listed media range must be servable, else 406.
pub fn check_accept(req: &Request<'_>) -> Result<(), ApiError> {
    let accept = req.header("accept");
    if accept.trim().is_empty() {
        return Ok(());
    }
    for range in accept.split(',') {
        let mut parts = range.split(';').map(str::trim);
        let media = parts.next().unwrap_or("").to_ascii_lowercase();
        let params: Vec<&str> = parts.collect();
        // Parameterised forms (as=Table, as=PartialObjectMetadata) are not served yet.
        let transform = params.iter().any(|p| p.starts_with("as="));
        let q_zero = params.iter().any(|p| *p == "q=0" || *p == "q=0.0");
        if q_zero || transform {
            continue;
        }
        if media == "*/*" || SERVED_MEDIA_TYPES.contains(&media.as_str()) {
            return Ok(());
        }
    }
    Err(ApiError::not_acceptable(format!(
        "only the following media types are accepted: {}",
        SERVED_MEDIA_TYPES.join(", ")
    )))
}

fn encode(v: &Value, pretty: bool) -> Vec<u8> {
    if pretty {
        json::to_pretty_vec(v)
    } else {
        json::to_vec(v)
    }
}

fn base(code: u16, content_type: &'static str, body: Vec<u8>) -> Response<Body> {
    let mut resp = Response::new(Body::Full(Bytes::from(body)));
    *resp.status_mut() =
        http::StatusCode::from_u16(code).unwrap_or(http::StatusCode::INTERNAL_SERVER_ERROR);
    let h = resp.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    h.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("no-cache, private"),
    );
    resp
}

/// A successful reply as a response.
pub fn reply(r: &Reply, pretty: bool) -> Response<Body> {
    let mut resp = match &r.body {
        Value::String(s) => base(r.code, "text/plain; charset=utf-8", s.clone().into_bytes()),
        Value::Null => base(r.code, "application/json", Vec::new()),
        body => base(
            r.code,
            r.content_type.unwrap_or("application/json"),
            encode(body, pretty),
        ),
    };
    for (name, value) in &r.headers {
        if let Ok(v) = HeaderValue::from_str(value) {
            resp.headers_mut().insert(*name, v);
        }
    }
    for w in &r.warnings {
        if let Ok(v) = HeaderValue::from_str(&warning_header(w)) {
            resp.headers_mut().append(header::WARNING, v);
        }
    }
    resp
}

/// An error as its Status response (with `Retry-After` when the Status carries one).
pub fn error(e: &ApiError, pretty: bool) -> Response<Body> {
    let mut resp = base(e.code, "application/json", encode(&e.to_status(), pretty));
    if let Some(s) = e.retry_after() {
        resp.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(s));
    }
    resp
}

/// The plain-text 404 kube-apiserver's not-found handler writes outside served paths.
pub fn page_not_found() -> Response<Body> {
    let mut resp = base(
        404,
        "text/plain; charset=utf-8",
        b"404 page not found\n".to_vec(),
    );
    resp.headers_mut().insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    resp
}

/// `299 - "<text>"` with `"` and `\` escaped (`net.NewWarningHeader`).
pub fn warning_header(text: &str) -> String {
    let escaped = text.replace('\\', "\\\\").replace('"', "\\\"");
    format!("299 - \"{escaped}\"")
}
