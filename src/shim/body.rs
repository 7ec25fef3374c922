//! A watch as a `ReadableStream` body: one `Uint8Array` chunk per watch frame, as the engine
//! produces it; closed when the watch ends; and ended *inside the engine* when the reader
//! cancels or the request's `AbortSignal` fires.
//!
//! Ending inside the engine means dropping the [`WatchStream`]: its channel closes, so the
//! engine's watcher reports itself closed at once (`watchCount()` drops) and is removed on the
//! next dispatch or tick. Cancelling the reader makes wasm-streams drop this stream (and with
//! it the `WatchStream`). An abort drops the `WatchStream` from the signal's event listener
//! directly, so the watcher goes even when nobody is reading the body, and the next read
//! rejects with the signal's reason, as fetch's body streams do.

use std::cell::RefCell;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use futures_core::Stream;
use js_sys::Uint8Array;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{AbortSignal, ReadableStream};

use super::request::abort_reason;
use crate::engine::WatchStream;

/// State shared between the stream and the abort listener.
struct Shared {
    watch: Option<WatchStream>,
    /// Set by the abort listener; delivered as the stream's error on the next read.
    aborted: Option<JsValue>,
    /// The reader waiting for a frame, woken on abort.
    waker: Option<Waker>,
}

/// The abort listener; removed from the signal when the body ends (no closure leaks).
struct AbortHook {
    signal: AbortSignal,
    listener: Closure<dyn FnMut()>,
}

impl Drop for AbortHook {
    fn drop(&mut self) {
        let _ = self
            .signal
            .remove_event_listener_with_callback("abort", self.listener.as_ref().unchecked_ref());
    }
}

/// The Rust side of the body stream.
struct WatchBody {
    shared: Rc<RefCell<Shared>>,
    hook: Option<AbortHook>,
}

impl Stream for WatchBody {
    type Item = Result<JsValue, JsValue>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        let mut shared = this.shared.borrow_mut();
        if let Some(reason) = shared.aborted.take() {
            shared.watch = None;
            drop(shared);
            this.hook = None;
            return Poll::Ready(Some(Err(reason)));
        }
        let polled = match shared.watch.as_mut() {
            None => Poll::Ready(None),
            Some(w) => Pin::new(w).poll_next(cx),
        };
        match polled {
            Poll::Ready(Some(frame)) => Poll::Ready(Some(Ok(Uint8Array::from(&frame[..]).into()))),
            Poll::Ready(None) => {
                shared.watch = None;
                drop(shared);
                this.hook = None;
                Poll::Ready(None)
            }
            Poll::Pending => {
                shared.waker = Some(cx.waker().clone());
                Poll::Pending
            }
        }
    }
}

/// The `ReadableStream` for a watch response's body.
pub fn watch_body(watch: WatchStream, signal: Option<&AbortSignal>) -> ReadableStream {
    let shared = Rc::new(RefCell::new(Shared {
        watch: Some(watch),
        aborted: None,
        waker: None,
    }));
    let hook = signal.map(|signal| {
        let (shared, sig) = (shared.clone(), signal.clone());
        let listener = Closure::<dyn FnMut()>::new(move || {
            let waker = {
                let mut s = shared.borrow_mut();
                if s.watch.is_none() {
                    return; // already ended: fetch leaves a finished body alone
                }
                s.watch = None;
                s.aborted = Some(abort_reason(&sig));
                s.waker.take()
            };
            if let Some(w) = waker {
                w.wake();
            }
        });
        let _ = signal.add_event_listener_with_callback("abort", listener.as_ref().unchecked_ref());
        AbortHook {
            signal: signal.clone(),
            listener,
        }
    });
    wasm_streams::ReadableStream::from_stream(WatchBody { shared, hook }).into_raw()
}
