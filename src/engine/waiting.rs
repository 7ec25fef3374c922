//! Reads that wait for the watch cache.
//!
//! kube-apiserver blocks a read that needs a fresher cache than it has (a Not older than
//! read, a consistent list, a streaming list) for up to 3 s (`waitUntilFreshAndBlock`), then
//! answers from the cache, or with 504 or its fallback to etcd. The engine cannot block: the
//! planner marks such a read ([`CacheWait`]: its wait, its arrival, the user the filters
//! admitted) and the engine parks it here; each tick resumes the parked reads whose wait is
//! over — past the filters, planned as of their arrival — and sends the answer to whoever
//! waits for it.
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

/// A request parked until its wait for the cache is over.
#[derive(Debug)]
pub(super) struct Parked {
    request: Request<Bytes>,
    /// The wait and the admitted user, to resume the request with.
    resume: CacheWait,
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
        self.parked.iter().map(|p| p.resume.wait.due_ms).min()
    }
}

/// The wait a response asks for, if it is the planner's placeholder.
fn wait_of(resp: &Response<Body>) -> Option<&CacheWait> {
    resp.extensions().get::<CacheWait>()
}

impl Engine {
    /// Serves one request as a host with its own notion of waiting does: the answer now,
    /// or — for a read that waits for the watch cache — a [`Waiting`] the engine answers
    /// on the tick at or after its due time.
    pub fn serve(&mut self, req: Request<Bytes>) -> Answer {
        super::stack::with_room(|| self.serve_here(req))
    }

    fn serve_here(&mut self, req: Request<Bytes>) -> Answer {
        // The cache is as fresh as the clock allows before the read is planned.
        self.registry.sync_cache();
        let resp = self.respond(&req, None);
        let answer = match wait_of(&resp).cloned() {
            None => Answer::Now(resp),
            Some(resume) => {
                let (sender, receiver) = oneshot::channel();
                let due_ms = resume.wait.due_ms;
                self.parking.parked.push(Parked {
                    request: req,
                    resume,
                    sender,
                });
                Answer::Later(Waiting { due_ms, receiver })
            }
        };
        self.tick();
        answer
    }

    /// [`Engine::serve`] for a host: on a simulated clock a read's wait is simulated time
    /// passing at once ([`Engine::finish`]); on a wall clock the host waits for real.
    pub fn serve_hosted(&mut self, req: Request<Bytes>) -> Answer {
        match self.serve(req) {
            Answer::Later(waiting) if self.clock().is_simulated() => {
                Answer::Now(self.finish(waiting))
            }
            answer => answer,
        }
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

    /// Resumes every parked read whose wait is over (the cache has the revision it needs,
    /// or its 3 s are up) and answers it; a write may have brought the others' due time
    /// closer (the store reached the revision they need), which only moves when `advance`
    /// stops.
    pub(super) fn serve_parked(&mut self) {
        let now = self.clock().now_ms();
        let cache_rev = self.registry.cache().revision();
        let parked = std::mem::take(&mut self.parking.parked);
        for mut p in parked {
            if p.sender.is_canceled() {
                continue; // the client went away
            }
            if !p.resume.wait.over(cache_rev, now) {
                p.resume.wait.due_ms = self.registry.sources().due(&p.resume.wait);
                self.parking.parked.push(p);
                continue;
            }
            // Served as of its arrival, a resumed read does not wait again
            // (`Registry::cache_wait`).
            let _ = p.sender.send(self.respond(&p.request, Some(&p.resume)));
        }
    }

    /// Ends every parked read as a restarting server ends its connections (503).
    pub(super) fn abandon_parked(&mut self) {
        for p in std::mem::take(&mut self.parking.parked) {
            let _ = p.sender.send(abandoned());
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
