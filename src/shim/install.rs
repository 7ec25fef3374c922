//! `sim.install({ baseUrl })`: the page's (or worker's, or Node's) global `fetch` answers
//! requests under `baseUrl` from the simulator and passes every other request, untouched, to
//! the `fetch` it replaced. Code that was written against a real API server URL then runs
//! against the simulator without a change.
//!
//! Matching is by URL, not by string prefix: same origin, and a path equal to the base path
//! or below it (`http://kube/api` matches base `http://kube`, `http://kubernetes/` does not).
//! The base path is removed before the engine sees the path, as for an API server behind a
//! path-prefix proxy (client-go allows a server URL with a path).

use std::cell::Cell;
use std::rc::Rc;

use js_sys::{Function, Promise, Reflect};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::Url;

use super::request::{base_url, input_url};
use super::Core;

/// The parsed `baseUrl`.
#[derive(Debug, Clone)]
pub struct Base {
    origin: String,
    /// The path without a trailing slash ("" for the root).
    path: String,
}

impl Base {
    /// Parses `baseUrl` (relative values resolve against the page location).
    pub fn parse(base: &str) -> Result<Base, JsValue> {
        let url = Url::new_with_base(base, &base_url()).map_err(|_| {
            JsValue::from(js_sys::TypeError::new(&format!(
                "kubesim: invalid baseUrl {base:?}"
            )))
        })?;
        Ok(Base {
            origin: url.origin(),
            path: url.pathname().trim_end_matches('/').to_string(),
        })
    }

    /// Whether `url` is under this base.
    pub fn matches(&self, url: &Url) -> bool {
        if url.origin() != self.origin {
            return false;
        }
        let path = url.pathname();
        self.path.is_empty()
            || path == self.path
            || path
                .strip_prefix(&self.path)
                .is_some_and(|rest| rest.starts_with('/'))
    }

    /// The path prefix the engine must not see.
    pub fn path(&self) -> &str {
        &self.path
    }
}

/// An installed router. Dropping it uninstalls.
pub struct Installed {
    wrapper: Function,
    previous: JsValue,
    /// Cleared on uninstall; a wrapper that someone else captured then forwards everything.
    active: Rc<Cell<bool>>,
    closure: Option<Closure<dyn FnMut(JsValue, JsValue) -> JsValue>>,
}

fn global() -> js_sys::Object {
    js_sys::global()
}

/// Replaces `globalThis.fetch` with a router for `base`.
pub fn install(core: Rc<Core>, base: Base) -> Result<Installed, JsValue> {
    let previous = Reflect::get(&global(), &"fetch".into())?;
    let active = Rc::new(Cell::new(true));
    let closure = {
        let (previous, active) = (previous.clone(), active.clone());
        Closure::<dyn FnMut(JsValue, JsValue) -> JsValue>::new(
            move |input: JsValue, init: JsValue| {
                let ours = active.get() && input_url(&input).is_ok_and(|url| base.matches(&url));
                if ours {
                    let core = core.clone();
                    let strip = base.path().to_string();
                    let fut = super::fetch::fetch(core, input, init, strip);
                    return wasm_bindgen_futures::future_to_promise(fut).into();
                }
                match previous.dyn_ref::<Function>() {
                    Some(f) => f
                        .call2(&global(), &input, &init)
                        .unwrap_or_else(|e| Promise::reject(&e).into()),
                    None => {
                        Promise::reject(&js_sys::TypeError::new("fetch is not available").into())
                            .into()
                    }
                }
            },
        )
    };
    let wrapper: Function = closure.as_ref().clone().unchecked_into();
    Reflect::set(&global(), &"fetch".into(), &wrapper)?;
    Ok(Installed {
        wrapper,
        previous,
        active,
        closure: Some(closure),
    })
}

impl Drop for Installed {
    fn drop(&mut self) {
        self.active.set(false);
        let current = Reflect::get(&global(), &"fetch".into()).unwrap_or(JsValue::UNDEFINED);
        if current == JsValue::from(&self.wrapper) {
            let _ = Reflect::set(&global(), &"fetch".into(), &self.previous);
        } else if let Some(c) = self.closure.take() {
            // Someone wrapped our wrapper after us: it must stay callable, forwarding only.
            c.forget();
        }
    }
}
