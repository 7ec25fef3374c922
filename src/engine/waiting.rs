//! Reads that wait for the watch cache.
//!
//! kube-apiserver blocks a read that needs a fresher cache than it has (a Not older than
//! read, a consistent list, a streaming list) for up to 3 s (`waitUntilFreshAndBlock`), then
//! answers from the cache, or with 504 or its fallback to etcd. The engine cannot block: the
//! planner marks such a read ([`CacheWait`]) and the engine parks it here with its arrival;
//! each tick serves the parked requests that have come due again, planned as of their
//! arrival, and sends the answer to whoever waits for it.
//!
//! Hosts choose how to wait: [`Engine::serve`] hands them a [`Waiting`] future (the native
//! server and the shim on a wall clock await it while time passes for real);
//! [`Engine::handle`] lets the engine's own time pass until the answer is there (simulated
//! clocks: tests, lessons, the shim in manual mode).

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use futures_channel::oneshot;
use http::{Request, Response};

use super::{Body, Engine};
use crate::api::response::CacheWait;
use crate::cache::planner::Arrival;

/// What [`Engine::serve`] gives a host.
#[derive(Debug)]
pub enum Answer {
    /// The response, now.
    Now(Response<Body>),
    /// A read waiting for the watch cache: its response comes once time reaches its due
    /// time (and the engine has ticked).
    Later(Waiting),
}

/// The receiving end of a parked read: a future of its response.
#[derive(Debug)]
pub struct Waiting {
    due_ms: i64,
    receiver: oneshot::Receiver<Response<Body>>,
}

impl Waiting {
    /// When the engine next serves the read again (engine clock, ms).
    pub fn due_ms(&self) -> i64 {
        self.due_ms
    }

    /// The response, if the engine has given it.
    pub fn try_take(&mut self) -> Option<Response<Body>> {
        self.receiver.try_recv().ok().flatten()
    }
}

impl Future for Waiting {
    /// `None` when the engine went away before answering.
    type Output = Option<Response<Body>>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        Pin::new(&mut self.receiver).poll(cx).map(Result::ok)
    }
}

/// A request parked until `due_ms`, or until a write moves its due time (a read waiting for
/// a revision the store had not reached when it was parked).
#[derive(Debug)]
pub(super) struct Parked {
    request: Request<Bytes>,
    arrival: Arrival,
    due_ms: i64,
    /// The store's revision when the due time was computed.
    store_rev: u64,
    sender: oneshot::Sender<Response<Body>>,
}

/// The parked reads, in arrival order.
#[derive(Debug, Default)]
pub(super) struct Parking {
    parked: Vec<Parked>,
}

impl Parking {
    /// The earliest due time of a parked read.
    pub(super) fn next_due(&self) -> Option<i64> {
        self.parked.iter().map(|p| p.due_ms).min()
    }
}

/// The wait a response asks for, if it is the planner's placeholder.
fn wait_of(resp: &Response<Body>) -> Option<i64> {
    resp.extensions().get::<CacheWait>().map(|w| w.due_ms)
}

impl Engine {
    /// Serves one request as a host with its own notion of waiting does: the answer now,
    /// or — for a read that waits for the watch cache — a [`Waiting`] the engine answers
    /// on the tick at or after its due time.
    pub fn serve(&mut self, req: Request<Bytes>) -> Answer {
        // The cache is as fresh as the clock allows before the read is planned.
        self.registry.sync_cache();
        let arrival = self.registry.arrival_now();
        let resp = self.respond(&req);
        let answer = match wait_of(&resp) {
            None => Answer::Now(resp),
            Some(due_ms) => {
                let (sender, receiver) = oneshot::channel();
                self.parking.parked.push(Parked {
                    request: req,
                    arrival,
                    due_ms,
                    store_rev: self.registry.store().revision(),
                    sender,
                });
                Answer::Later(Waiting { due_ms, receiver })
            }
        };
        self.tick();
        answer
    }

    /// Serves one request and returns its response. A read that waits for the watch cache
    /// is answered after the engine's own time has moved on to its answer (the client
    /// waited): on a simulated clock this is the wait in simulated time; on a wall clock
    /// the engine's time runs ahead of the host's by the wait, so hosts that can wait for
    /// real use [`Engine::serve`].
    pub fn handle(&mut self, req: Request<Bytes>) -> Response<Body> {
        match self.serve(req) {
            Answer::Now(resp) => resp,
            Answer::Later(waiting) => self.finish(waiting),
        }
    }

    /// Lets the engine's time pass until `waiting` is answered.
    pub fn finish(&mut self, mut waiting: Waiting) -> Response<Body> {
        loop {
            if let Some(resp) = waiting.try_take() {
                return resp;
            }
            let now = self.clock().now_ms();
            match self.parking.next_due() {
                Some(due) if due > now => self.advance(due - now),
                Some(_) => self.tick(),
                // Not parked and not answered: the engine dropped it (cannot happen while
                // `self` lives); answer as the server would when its handler goes away.
                None => return abandoned(),
            }
        }
    }

    /// Serves again every parked read that has come due, or whose due time a write since
    /// may have moved, as of its arrival; answers those that no longer wait and parks the
    /// others until their new due time.
    pub(super) fn serve_parked(&mut self) {
        let now = self.clock().now_ms();
        let rev = self.registry.store().revision();
        let due = |p: &Parked| p.due_ms <= now || p.store_rev != rev;
        if !self.parking.parked.iter().any(due) {
            return;
        }
        let parked = std::mem::take(&mut self.parking.parked);
        for mut p in parked {
            if p.sender.is_canceled() {
                continue; // the client went away
            }
            if !due(&p) {
                self.parking.parked.push(p);
                continue;
            }
            self.registry.set_arrival(Some(p.arrival));
            let resp = self.respond(&p.request);
            self.registry.set_arrival(None);
            match wait_of(&resp) {
                Some(due_ms) => {
                    p.due_ms = due_ms.max(now + 1);
                    p.store_rev = rev;
                    self.parking.parked.push(p);
                }
                None => {
                    let _ = p.sender.send(resp);
                }
            }
        }
    }
}

/// The answer to a read whose wait ended without one (the engine went away, as a server
/// shutting down does): 503.
pub fn abandoned() -> Response<Body> {
    let mut e = crate::resources::status::ApiError::untyped(503, "the server is shutting down");
    e.reason = "ServiceUnavailable";
    crate::api::response::error(&e, false)
}
