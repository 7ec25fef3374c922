//! `sim.fetch(input, init)`: one fetch against the engine, with fetch's contract.
//!
//! Only the path and query of the URL reach the engine (any origin works). Redirects follow
//! `init.redirect` as fetch does: `follow` (the default; at most 20 hops, 303 — and 301/302
//! after a POST — turn into a GET without body), `error` (a TypeError), `manual` (the 3xx
//! itself is returned, as Node's fetch does; browsers' opaque-redirect responses cannot be
//! constructed by script). An aborted signal rejects with its reason; after the response,
//! aborting ends a watch body (see `body.rs`).

use std::rc::Rc;

use bytes::Bytes;
use wasm_bindgen::JsValue;
use web_sys::Url;

use super::request::{self, Redirect};
use super::response::{self, Origin};
use super::Core;

/// fetch's redirect limit.
const MAX_REDIRECTS: usize = 20;

/// The engine path for `url`: its path with `strip` (an installed base URL's path) removed,
/// plus its query.
fn engine_path(url: &Url, strip: &str) -> String {
    let path = url.pathname();
    let rest = path.strip_prefix(strip).unwrap_or(&path);
    let rest = if rest.starts_with('/') {
        rest.to_string()
    } else {
        format!("/{rest}")
    };
    format!("{rest}{}", url.search())
}

fn type_error(msg: &str) -> JsValue {
    js_sys::TypeError::new(msg).into()
}

/// Serves one fetch. `strip` is the path prefix of an installed base URL ("" for none).
pub async fn fetch(
    core: Rc<Core>,
    input: JsValue,
    init: JsValue,
    strip: String,
) -> Result<JsValue, JsValue> {
    let req = request::prepare(&input, &init).await?;
    if let Some(s) = &req.signal {
        request::check_aborted(s)?;
    }
    let mut method = req.method.clone();
    let mut headers = req.headers;
    let mut body = req.body;
    let mut url = req.url;
    let mut redirected = false;
    let mut hops = 0;
    loop {
        let http_req =
            request::to_http(&method, &engine_path(&url, &strip), &headers, body.clone())?;
        let resp = core.handle(http_req).await;
        let code = resp.status().as_u16();
        let location = resp
            .headers()
            .get("location")
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let is_redirect = matches!(code, 301 | 302 | 303 | 307 | 308) && location.is_some();
        if !is_redirect || req.redirect == Redirect::Manual {
            let origin = Origin {
                method: &method,
                url: &url.href(),
                redirected,
                signal: req.signal.as_ref(),
            };
            return response::to_js(resp, &origin).map(JsValue::from);
        }
        if req.redirect == Redirect::Error {
            return Err(type_error(
                "Failed to fetch: unexpected redirect (redirect: \"error\")",
            ));
        }
        hops += 1;
        if hops > MAX_REDIRECTS {
            return Err(type_error("Failed to fetch: redirect count exceeded"));
        }
        let location = location.unwrap_or_default();
        url = Url::new_with_base(&location, &url.href())
            .map_err(|_| type_error(&format!("Failed to fetch: invalid Location {location:?}")))?;
        redirected = true;
        // Fetch's "HTTP-redirect fetch" step 12: these become a GET without a body.
        if (code == 303 && method != "HEAD") || (matches!(code, 301 | 302) && method == "POST") {
            method = "GET".into();
            body = Bytes::new();
            headers.retain(|(k, _)| {
                !matches!(
                    k.as_str(),
                    "content-type"
                        | "content-length"
                        | "content-encoding"
                        | "content-language"
                        | "content-location"
                )
            });
        }
        if let Some(s) = &req.signal {
            request::check_aborted(s)?;
        }
    }
}
