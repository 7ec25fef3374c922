//! The engine's `http::Response<Body>` as a real `Response`: status, the HTTP reason phrase as
//! `statusText`, every header (the read explanation `x-kubesim-read` included), and a body
//! that is either the complete bytes or, for a watch, a live `ReadableStream`.

use js_sys::{Object, Reflect, Uint8Array};
use wasm_bindgen::JsValue;
use web_sys::{AbortSignal, Headers, Response, ResponseInit};

use super::body::watch_body;
use crate::engine::Body;

/// Statuses whose responses have no body (the Fetch standard's "null body status").
fn null_body_status(code: u16) -> bool {
    matches!(code, 101 | 103 | 204 | 205 | 304)
}

/// What the caller sees of where the answer came from.
pub struct Origin<'a> {
    pub method: &'a str,
    pub url: &'a str,
    pub redirected: bool,
    pub signal: Option<&'a AbortSignal>,
}

/// Converts an engine response.
pub fn to_js(resp: http::Response<Body>, origin: &Origin<'_>) -> Result<Response, JsValue> {
    let (parts, body) = resp.into_parts();
    let code = parts.status.as_u16();
    let init = ResponseInit::new();
    init.set_status(code);
    init.set_status_text(parts.status.canonical_reason().unwrap_or(""));
    let headers = Headers::new()?;
    for (name, value) in &parts.headers {
        headers.append(name.as_str(), &String::from_utf8_lossy(value.as_bytes()))?;
    }
    let no_body = origin.method == "HEAD" || null_body_status(code);
    let response = match body {
        Body::Full(bytes) => {
            // An HTTP/1.1 server states the length of a complete body; hyper does for the
            // native host, so fetch callers see the same header here.
            if !no_body && !headers.has("content-length")? {
                headers.set("content-length", &bytes.len().to_string())?;
            }
            init.set_headers(&headers);
            let array = (!no_body).then(|| Object::from(Uint8Array::from(&bytes[..])));
            Response::new_with_opt_buffer_source_and_init(array.as_ref(), &init)?
        }
        Body::Watch(stream) => {
            init.set_headers(&headers);
            if no_body {
                Response::new_with_opt_buffer_source_and_init(None, &init)?
            } else {
                let body = watch_body(stream, origin.signal);
                Response::new_with_opt_readable_stream_and_init(Some(&body), &init)?
            }
        }
    };
    // A constructed Response has `url: ""` and `redirected: false`; fetch's carry the final
    // URL and whether redirects were followed. Own properties shadow the prototype getters.
    define(&response, "url", &JsValue::from_str(origin.url))?;
    if origin.redirected {
        define(&response, "redirected", &JsValue::TRUE)?;
    }
    Ok(response)
}

fn define(target: &Response, key: &str, value: &JsValue) -> Result<(), JsValue> {
    let desc = Object::new();
    Reflect::set(&desc, &"value".into(), value)?;
    Reflect::set(&desc, &"enumerable".into(), &JsValue::TRUE)?;
    Object::define_property(target, &key.into(), &desc);
    Ok(())
}
