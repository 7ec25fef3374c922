//! One connection's read deadlines, as Go's `net/http` sets them for kube-apiserver
//! (`ReadHeaderTimeout` 32 s, `IdleTimeout` 90 s):
//!
//! - a request's head must arrive within the header timeout, counted from when the server
//!   starts waiting for it on a new connection, and from the first bytes of the next request
//!   on a kept-alive one (Go peeks 4 bytes under the idle deadline, then reads the head under
//!   the header deadline);
//! - between requests, a kept-alive connection may stay silent for the idle timeout;
//! - while a request is served (its body read, its response written, a watch streamed) no
//!   read deadline applies: the request timeout and the watch's own end govern it.
//!
//! hyper's own header timer starts whenever it waits for a head, so it would close every
//! kept-alive connection after the header timeout of silence. The server turns it off and
//! wraps the connection's stream in [`Paced`], which the service tells when a request starts
//! ([`Pacer::busy`]) and when its response is done ([`PacedBody`] dropped).

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::{Instant, Sleep};

/// How many bytes of the next request Go waits for under the idle deadline (`Peek(4)`).
const PEEKED: usize = 4;

#[derive(Debug, Clone, Copy)]
enum Phase {
    /// Reading a request's head: the connection closes at `deadline`.
    Head { deadline: Instant },
    /// A request is being served.
    Busy,
    /// Between requests, `seen` bytes of the next one read: closes at `deadline`.
    Idle { deadline: Instant, seen: usize },
}

#[derive(Debug)]
struct State {
    phase: Phase,
    /// The reader waiting for bytes, woken when a response ends so it arms the idle timer.
    reader: Option<Waker>,
}

/// The connection's phase, shared by its stream and its service.
#[derive(Debug, Clone)]
pub(super) struct Pacer {
    state: Arc<Mutex<State>>,
    read_header: Duration,
    idle: Duration,
}

impl Pacer {
    /// A new connection, whose first request's head is awaited from now.
    pub(super) fn new(read_header: Duration, idle: Duration) -> Self {
        Pacer {
            state: Arc::new(Mutex::new(State {
                phase: Phase::Head {
                    deadline: Instant::now() + read_header,
                },
                reader: None,
            })),
            read_header,
            idle,
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A request's head has arrived: no deadline until its response is done.
    pub(super) fn busy(&self) {
        self.state().phase = Phase::Busy;
    }

    /// The response is done: the connection idles until the next request.
    fn done(&self) {
        let mut s = self.state();
        s.phase = Phase::Idle {
            deadline: Instant::now() + self.idle,
            seen: 0,
        };
        if let Some(w) = s.reader.take() {
            w.wake();
        }
    }

    /// `n` bytes were read: the first bytes of the next request start its head's deadline.
    fn read(&self, n: usize) {
        let mut s = self.state();
        if let Phase::Idle { deadline, seen } = s.phase {
            let seen = seen + n;
            s.phase = if seen >= PEEKED {
                Phase::Head {
                    deadline: Instant::now() + self.read_header,
                }
            } else {
                Phase::Idle { deadline, seen }
            };
        }
    }

    /// The deadline of a read that found nothing to read, remembering who waits.
    fn waiting(&self, cx: &Context<'_>) -> Option<Instant> {
        let mut s = self.state();
        if !s.reader.as_ref().is_some_and(|w| w.will_wake(cx.waker())) {
            s.reader = Some(cx.waker().clone());
        }
        match s.phase {
            Phase::Head { deadline } | Phase::Idle { deadline, .. } => Some(deadline),
            Phase::Busy => None,
        }
    }

    /// A response body that tells this pacer when it is done.
    pub(super) fn body<B>(&self, inner: B) -> PacedBody<B> {
        PacedBody {
            inner,
            pacer: self.clone(),
        }
    }
}

/// A connection's stream, closed (a read fails with `TimedOut`) when the pacer's deadline
/// passes while it waits for bytes.
pub(super) struct Paced<I> {
    inner: I,
    pacer: Pacer,
    timer: Pin<Box<Sleep>>,
}

impl<I> Paced<I> {
    pub(super) fn new(inner: I, pacer: Pacer) -> Self {
        Paced {
            inner,
            pacer,
            timer: Box::pin(tokio::time::sleep_until(Instant::now())),
        }
    }
}

impl<I: AsyncRead + Unpin> AsyncRead for Paced<I> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        match Pin::new(&mut this.inner).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                this.pacer.read(buf.filled().len() - before);
                Poll::Ready(Ok(()))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => {
                let Some(deadline) = this.pacer.waiting(cx) else {
                    return Poll::Pending;
                };
                if this.timer.deadline() != deadline {
                    this.timer.as_mut().reset(deadline);
                }
                match this.timer.as_mut().poll(cx) {
                    Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                        io::ErrorKind::TimedOut,
                        "read deadline passed",
                    ))),
                    Poll::Pending => Poll::Pending,
                }
            }
        }
    }
}

impl<I: AsyncWrite + Unpin> AsyncWrite for Paced<I> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

/// A response body that marks its connection idle when hyper is done with it (written to the
/// end, or dropped because the connection went away).
pub(super) struct PacedBody<B> {
    inner: B,
    pacer: Pacer,
}

impl<B> Drop for PacedBody<B> {
    fn drop(&mut self) {
        self.pacer.done();
    }
}

impl<B: hyper::body::Body + Unpin> hyper::body::Body for PacedBody<B> {
    type Data = B::Data;
    type Error = B::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<hyper::body::Frame<B::Data>, B::Error>>> {
        Pin::new(&mut self.get_mut().inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.inner.size_hint()
    }
}
