//! fetch's arguments, normalised exactly as fetch normalises them.
//!
//! Rather than re-implement the Fetch standard's argument rules (method normalisation, the
//! three header forms, string / ArrayBuffer / typed array / Blob / URLSearchParams / FormData
//! bodies and their default `Content-Type`, the TypeErrors for a GET with a body or a
//! forbidden method, a `Request` as input plus overriding init), the shim hands `input` and
//! `init` to the platform's own `Request` constructor and reads the result back. Whatever a
//! real `fetch` would send to a real API server, the engine receives.

use bytes::Bytes;
use js_sys::{Array, Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortSignal, Request, Url};

/// What `redirect:` asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Redirect {
    Follow,
    Error,
    Manual,
}

/// One request, read out of the platform `Request`.
pub struct Prepared {
    pub method: String,
    /// The absolute URL (for `Response.url` and resolving `Location`).
    pub url: Url,
    pub headers: Vec<(String, String)>,
    pub body: Bytes,
    pub signal: Option<AbortSignal>,
    pub redirect: Redirect,
}

/// The base a relative URL resolves against: the page (or worker) location when there is
/// one; in Node, which has none, a placeholder origin (only the path and query matter).
pub fn base_url() -> String {
    let global = js_sys::global();
    Reflect::get(&global, &"location".into())
        .ok()
        .filter(|l| !l.is_undefined() && !l.is_null())
        .and_then(|l| Reflect::get(&l, &"href".into()).ok())
        .and_then(|h| h.as_string())
        .unwrap_or_else(|| "http://localhost/".to_string())
}

/// The absolute URL `input` names: a Request's `url`, otherwise `String(input)` resolved
/// against [`base_url`] (what fetch does with a string or a `URL`).
pub fn input_url(input: &JsValue) -> Result<Url, JsValue> {
    if let Some(req) = as_request(input) {
        return Url::new(&req.url());
    }
    let text = match input.as_string() {
        Some(s) => s,
        None => js_sys::Function::from(Reflect::get(&js_sys::global(), &"String".into())?)
            .call1(&JsValue::UNDEFINED, input)?
            .as_string()
            .unwrap_or_default(),
    };
    Url::new_with_base(&text, &base_url())
        .map_err(|_| js_sys::TypeError::new(&format!("Failed to parse URL from {text}")).into())
}

fn as_request(input: &JsValue) -> Option<&Request> {
    input.dyn_ref::<Request>()
}

/// `new Request(input, init)` with a relative string input first made absolute, so Node
/// (which has no page URL) accepts `sim.fetch('/api/v1/namespaces')` too.
fn construct(input: &JsValue, init: &JsValue) -> Result<Request, JsValue> {
    let global = js_sys::global();
    let ctor: js_sys::Function = Reflect::get(&global, &"Request".into())?.dyn_into()?;
    let input = match as_request(input) {
        Some(_) => input.clone(),
        None => JsValue::from(input_url(input)?.href()),
    };
    let req = Reflect::construct(&ctor, &Array::of2(&input, init))?;
    Ok(req.unchecked_into())
}

/// Reads `input` and `init` the way fetch does, body included (awaited: a Blob or a stream
/// body is only available asynchronously).
pub async fn prepare(input: &JsValue, init: &JsValue) -> Result<Prepared, JsValue> {
    let req = construct(input, init)?;
    let signal = Some(req.signal()).filter(|s| !s.is_undefined());
    if let Some(s) = &signal {
        check_aborted(s)?;
    }
    let redirect = match Reflect::get(&req, &"redirect".into())?
        .as_string()
        .as_deref()
    {
        Some("error") => Redirect::Error,
        Some("manual") => Redirect::Manual,
        _ => Redirect::Follow,
    };
    let mut headers = Vec::new();
    if let Some(iter) = js_sys::try_iter(&req.headers())? {
        for entry in iter {
            let pair: Array = entry?.unchecked_into();
            headers.push((
                pair.get(0).as_string().unwrap_or_default(),
                pair.get(1).as_string().unwrap_or_default(),
            ));
        }
    }
    let body = if req.body().is_some() {
        let buf = JsFuture::from(req.array_buffer()?).await?;
        Bytes::from(Uint8Array::new(&buf).to_vec())
    } else {
        Bytes::new()
    };
    Ok(Prepared {
        method: req.method(),
        url: Url::new(&req.url())?,
        headers,
        body,
        signal,
        redirect,
    })
}

/// Rejects with the signal's reason (an `AbortError` DOMException unless the caller gave
/// one), as fetch does for an already aborted signal.
pub fn check_aborted(signal: &AbortSignal) -> Result<(), JsValue> {
    if signal.aborted() {
        Err(abort_reason(signal))
    } else {
        Ok(())
    }
}

/// `signal.reason`, or a fresh `AbortError` on platforms without it.
pub fn abort_reason(signal: &AbortSignal) -> JsValue {
    let reason = signal.reason();
    if reason.is_undefined() {
        web_sys::DomException::new_with_message_and_name("The operation was aborted.", "AbortError")
            .map(JsValue::from)
            .unwrap_or(reason)
    } else {
        reason
    }
}

/// Builds the engine's request for `path_and_query`, adding what the browser's network layer
/// would (`Accept: */*` when the caller set none). `Accept-Encoding` is dropped: fetch always
/// hands its caller decoded bodies, so the engine is asked for the identity encoding (Node
/// lets a caller set the header; browsers do not).
pub fn to_http(
    method: &str,
    path_and_query: &str,
    headers: &[(String, String)],
    body: Bytes,
) -> Result<http::Request<Bytes>, JsValue> {
    let bad = |e: &dyn std::fmt::Display| -> JsValue {
        js_sys::TypeError::new(&format!("Failed to fetch: {e}")).into()
    };
    let mut b = http::Request::builder().method(method).uri(path_and_query);
    let mut has_accept = false;
    for (k, v) in headers {
        if k.eq_ignore_ascii_case("accept-encoding") {
            continue;
        }
        has_accept |= k.eq_ignore_ascii_case("accept");
        b = b.header(k.as_str(), v.as_str());
    }
    if !has_accept {
        b = b.header("accept", "*/*");
    }
    b.body(body).map_err(|e| bad(&e))
}
