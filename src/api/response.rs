//! Writing responses: bodies in the negotiated encoding, Status errors as `ErrorNegotiated`
//! writes them, gzip, and the headers kube-apiserver always sets.

use bytes::Bytes;
use http::{header, HeaderValue, Response};
use serde_json::Value;

use super::encode::{self, Payload};
use super::negotiation::{self, Negotiated, Restrictions};
use super::{Reply, Request};
use crate::api::body::Body;
use crate::codec::json;
use crate::features::parse_go_bool;
use crate::resources::status::ApiError;

/// Whether to indent (`negotiation.isPrettyPrint`): a non-empty `pretty` query value decides
/// (Go's `ParseBool`, anything else is false); otherwise a browser / curl / wget user agent.
pub fn wants_pretty(req: &Request<'_>) -> bool {
    pretty_for(&req.query, req.headers)
}

/// [`wants_pretty`] from the query and headers of any request.
pub fn pretty_for(query: &super::query::Query, headers: &http::HeaderMap) -> bool {
    if let Some(p) = query.get("pretty").filter(|p| !p.is_empty()) {
        return parse_go_bool(p).unwrap_or(false);
    }
    let ua = headers
        .get("user-agent")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    ua.starts_with("curl") || ua.starts_with("Wget") || ua.starts_with("Mozilla/5.0")
}

/// The response header in which every read explains itself: which semantic applied, which
/// layer served it, at which resourceVersion.
pub const READ_HEADER: &str = "x-kubesim-read";

/// How a resource response is written.
#[derive(Debug, Clone, Copy)]
pub struct Output {
    pub negotiated: Negotiated,
    /// Query/user-agent pretty printing (or the media type's `pretty=1`).
    pub pretty: bool,
    /// The client accepts gzip and `APIResponseCompression` is on.
    pub gzip: bool,
}

fn base(code: u16, content_type: &str, body: Vec<u8>) -> Response<Body> {
    let mut resp = Response::new(Body::Full(Bytes::from(body)));
    *resp.status_mut() =
        http::StatusCode::from_u16(code).unwrap_or(http::StatusCode::INTERNAL_SERVER_ERROR);
    let h = resp.headers_mut();
    if let Ok(ct) = HeaderValue::from_str(content_type) {
        h.insert(header::CONTENT_TYPE, ct);
    }
    h.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("no-cache, private"),
    );
    resp
}

/// A body of `len` bytes compressed when the client allows it and it is large enough.
fn maybe_gzip(resp: &mut Response<Body>, gzip: bool) {
    let Body::Full(bytes) = resp.body() else {
        return;
    };
    if !gzip || !super::compress::should_compress(bytes.len()) {
        return;
    }
    let compressed = super::compress::gzip(bytes);
    *resp.body_mut() = Body::Full(Bytes::from(compressed));
    let h = resp.headers_mut();
    h.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
    h.append(header::VARY, HeaderValue::from_static("Accept-Encoding"));
}

fn extras(resp: &mut Response<Body>, r: &Reply) {
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
}

/// A non-resource reply (discovery, OpenAPI, health) as JSON.
pub fn reply(r: &Reply, pretty: bool) -> Response<Body> {
    let content_type = r.content_type.unwrap_or("application/json");
    let mut resp = match &r.body {
        // A document built once (OpenAPI): its JSON as written once, copied.
        _ if r.stored.is_some() => {
            let bytes = match &r.stored {
                Some(doc) if pretty => json::to_pretty_vec(&doc.decode()),
                Some(doc) => [doc.json(), b"\n"].concat(),
                None => Vec::new(),
            };
            base(r.code, content_type, bytes)
        }
        // A 304 revalidates a cached body: it carries no Content-Type, because client-go's
        // HTTP cache copies the 304's headers onto the cached response and would then read
        // the cached aggregated-discovery body as whatever type the 304 named.
        _ if r.code == 304 => {
            let mut resp = base(r.code, "", Vec::new());
            resp.headers_mut().remove(header::CONTENT_TYPE);
            resp
        }
        Value::String(s) => base(r.code, "text/plain; charset=utf-8", s.clone().into_bytes()),
        Value::Null => base(r.code, "application/json", Vec::new()),
        body => base(
            r.code,
            content_type,
            if pretty {
                json::to_pretty_vec(body)
            } else {
                json::to_vec(body)
            },
        ),
    };
    extras(&mut resp, r);
    resp
}

/// A JSON body with `code`.
pub fn json(code: u16, body: &Value, pretty: bool) -> Response<Body> {
    reply(&Reply::new(code, body.clone()), pretty)
}

/// A resource reply in the negotiated encoding (lists written item by item).
pub fn resource_reply(r: &Reply, out: &Output, req: &Request<'_>) -> Response<Body> {
    let enc = out.negotiated.encoding;
    let pretty = out.pretty || out.negotiated.pretty;
    let payload = match (&r.items, &r.stored) {
        (Some(items), _) if r.unstructured => Payload::UnstructuredList {
            envelope: &r.body,
            items,
        },
        (Some(items), _) => Payload::List {
            envelope: &r.body,
            items,
        },
        // A write's reply has its value too: only compact JSON is the stored bytes copied.
        (None, Some(_)) if r.body.is_object() && (enc != super::Encoding::Json || pretty) => {
            Payload::Object(&r.body)
        }
        (None, Some(obj)) => Payload::Stored(obj),
        (None, None) => Payload::Object(&r.body),
    };
    let mut resp = match encode::encode(payload, enc, pretty, &*req.kinds) {
        Ok(bytes) => base(r.code, enc.media_type(), bytes),
        Err(e) => return negotiated_error(&e, req, out.pretty, out.gzip),
    };
    extras(&mut resp, r);
    maybe_gzip(&mut resp, out.gzip);
    resp
}

/// An error as `ErrorNegotiated` writes it: the Status in the encoding `Accept` allows with no
/// transforms, or, when nothing is acceptable, indented JSON (`WriteRawJSON`).
pub fn negotiated_error(
    e: &ApiError,
    req: &Request<'_>,
    pretty: bool,
    gzip: bool,
) -> Response<Body> {
    let status = e.to_status();
    let mut resp =
        match negotiation::negotiate(req.header("accept"), &req.served, Restrictions::Default) {
            Some(n) => {
                match encode::encode(
                    Payload::Object(&status),
                    n.encoding,
                    pretty || n.pretty,
                    &*req.kinds,
                ) {
                    Ok(bytes) => base(e.code, n.encoding.media_type(), bytes),
                    Err(_) => base(e.code, "application/json", json::to_pretty_vec(&status)),
                }
            }
            None => base(e.code, "application/json", json::to_pretty_vec(&status)),
        };
    if let Some(s) = e.retry_after() {
        resp.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(s));
    }
    maybe_gzip(&mut resp, gzip);
    resp
}

/// A filter's rejection (401, 400, 403), negotiated as `ErrorNegotiated` does;
/// `RespondWithError` and `Forbidden` (every code but the authenticator's 401) also set
/// `X-Content-Type-Options: nosniff`.
pub fn filter_error(e: &ApiError, req: &Request<'_>, pretty: bool, gzip: bool) -> Response<Body> {
    let mut resp = negotiated_error(e, req, pretty, gzip);
    if e.code != 401 {
        resp.headers_mut().insert(
            "x-content-type-options",
            HeaderValue::from_static("nosniff"),
        );
    }
    resp
}

/// A filter's internal error (`responsewriters.InternalError`): Go's `http.Error` text,
/// `Internal Server Error: "<request URI>": <err>`, sanitized, as text/plain.
pub fn filter_internal_error(uri: &str, err: &str) -> Response<Body> {
    let text = crate::auth::forbidden::sanitize(&format!(
        "Internal Server Error: {}: {err}",
        crate::codec::go_quote(uri)
    ));
    let mut resp = base(
        500,
        "text/plain; charset=utf-8",
        format!("{text}\n").into_bytes(),
    );
    resp.headers_mut().insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    resp
}

/// An error for a non-resource path, as JSON (with `Retry-After` when the Status has one).
pub fn error(e: &ApiError, pretty: bool) -> Response<Body> {
    let body = if pretty {
        json::to_pretty_vec(&e.to_status())
    } else {
        json::to_vec(&e.to_status())
    };
    let mut resp = base(e.code, "application/json", body);
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

/// Go's `net/http` answer to a request line whose target does not parse (a malformed
/// percent-escape): written by the server itself before any handler, and the connection
/// closed.
pub fn bad_request_line() -> Response<Body> {
    let mut resp = Response::new(Body::Full(Bytes::from_static(b"400 Bad Request")));
    *resp.status_mut() = http::StatusCode::BAD_REQUEST;
    let h = resp.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    h.insert(header::CONNECTION, HeaderValue::from_static("close"));
    resp
}

/// `299 - "<text>"` with `"` and `\` escaped (`net.NewWarningHeader`).
pub fn warning_header(text: &str) -> String {
    let escaped = text.replace('\\', "\\\\").replace('"', "\\\"");
    format!("299 - \"{escaped}\"")
}

/// The mark on a response that is not an answer yet: the read waits for the watch cache,
/// and the engine resumes it when the wait is over — as the user the filters admitted, as
/// of its arrival (kube-apiserver waits inside storage, after its filters).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CacheWait {
    pub wait: crate::cache::planner::Wait,
    /// Who the filters admitted.
    pub user: Option<crate::resources::rbac::UserInfo>,
}

/// A placeholder response carrying [`CacheWait`] for `req`'s read; never sent to a client.
pub fn waiting(wait: crate::cache::planner::Wait, req: &Request<'_>) -> Response<Body> {
    let mut resp = Response::new(Body::Full(bytes::Bytes::new()));
    resp.extensions_mut().insert(CacheWait {
        wait,
        user: req.user.clone(),
    });
    resp
}
