//! The wall-clock heartbeat: a JS interval that calls `Engine::tick` while a simulator
//! follows wall time, so bookmarks, `timeoutSeconds`, cache lag and history compaction happen
//! on time even when no request arrives.
//!
//! It uses the global `setInterval`, which browsers, workers (the Service Worker included)
//! and Node all have. In Node an interval keeps the process alive; a real open HTTP
//! connection does too, and nothing else should, so the timer is `ref()`ed only while a watch
//! is open and `unref()`ed otherwise: a script exits when its work is done, but not in the
//! middle of a watch.

use std::rc::Rc;

use js_sys::{Function, Reflect};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

use super::Core;

/// Wall time as JavaScript sees it (`Date.now()`): browsers, workers and Node alike.
#[derive(Debug, Default, Clone, Copy)]
pub struct DateNow;

impl crate::clock::TimeSource for DateNow {
    fn now_ms(&self) -> i64 {
        js_sys::Date::now() as i64
    }
}

/// How often the engine catches up with wall time (ms).
pub const TICK_MS: i32 = 100;

/// A running interval; dropping it stops the interval.
pub struct Ticker {
    core: Rc<Core>,
    _tick: Closure<dyn FnMut()>,
}

fn global_fn(name: &str) -> Result<Function, JsValue> {
    Reflect::get(&js_sys::global(), &name.into())?.dyn_into()
}

/// Calls `handle.ref()` or `handle.unref()` when the handle has them (Node's `Timeout`).
pub fn set_ref(handle: &JsValue, keep_alive: bool) {
    if !handle.is_object() {
        return; // browsers: a number
    }
    let name = if keep_alive { "ref" } else { "unref" };
    if let Ok(f) = Reflect::get(handle, &name.into()) {
        if let Some(f) = f.dyn_ref::<Function>() {
            let _ = f.call0(handle);
        }
    }
}

impl Ticker {
    /// Starts ticking `core` every [`TICK_MS`].
    pub fn start(core: Rc<Core>) -> Result<Ticker, JsValue> {
        let tick = {
            let core = core.clone();
            Closure::<dyn FnMut()>::new(move || core.tick())
        };
        let id = global_fn("setInterval")?.call2(
            &JsValue::UNDEFINED,
            tick.as_ref(),
            &JsValue::from(TICK_MS),
        )?;
        core.set_timer(id);
        Ok(Ticker { core, _tick: tick })
    }
}

impl Drop for Ticker {
    fn drop(&mut self) {
        let id = self.core.take_timer();
        if let Ok(clear) = global_fn("clearInterval") {
            let _ = clear.call1(&JsValue::UNDEFINED, &id);
        }
    }
}

/// Resolves after `ms` milliseconds (`setTimeout`; in Node the pending timer keeps the
/// process alive until then, as a real request in flight does).
pub async fn sleep(ms: i64) {
    let ms = ms.clamp(0, i32::MAX as i64) as i32;
    let promise = js_sys::Promise::new(&mut |resolve, _reject| {
        if let Ok(set_timeout) = global_fn("setTimeout") {
            let _ = set_timeout.call2(&JsValue::UNDEFINED, &resolve, &JsValue::from(ms));
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}
