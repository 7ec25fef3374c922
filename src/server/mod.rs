//! The native host: an HTTP/1.1 server in front of the engine, for kubectl and real clients.
//!
//! The engine is a single-threaded state machine; the server shares it behind a mutex and
//! only moves bytes, so native behaviour is exactly the engine's.

mod deadlines;
pub mod kubeconfig;
pub mod limits;
pub mod state_file;
pub mod tls;

pub use limits::Limits;

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use http_body_util::BodyExt;
use hyper::body::{Body as _, Incoming};
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;

use crate::engine::{Answer, Body, Engine, Predecoder, Waiting};

/// The stack of each thread that runs the engine. Bodies may nest as deep as Go's decoders
/// allow (10,000 levels of JSON), and the engine's decoding, validation, patching and
/// encoding walk such trees recursively, as the real server's do on goroutine stacks that
/// grow to 1 GB: a few hundred bytes a level in an optimized build, a few kilobytes in a
/// debug one. The reservation is virtual; only the depth a request reaches is ever touched.
/// With it the engine never needs to switch stacks (`engine/stack.rs`).
pub const ENGINE_STACK_BYTES: usize = 256 << 20;

/// The engine as the server shares it between connections.
pub type SharedEngine = Arc<Mutex<Engine>>;

/// The engine's body as hyper sends it: a sized body, or a chunked stream of watch frames
/// flushed as they come.
pub struct ServerBody(pub Body);

impl hyper::body::Body for ServerBody {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<hyper::body::Frame<Bytes>, Infallible>>> {
        use futures_core::Stream;
        match &mut self.get_mut().0 {
            Body::Full(b) if b.is_empty() => std::task::Poll::Ready(None),
            Body::Full(b) => {
                std::task::Poll::Ready(Some(Ok(hyper::body::Frame::data(std::mem::take(b)))))
            }
            Body::Watch(s) => std::pin::Pin::new(s)
                .poll_next(cx)
                .map(|o| o.map(|b| Ok(hyper::body::Frame::data(b)))),
        }
    }

    fn is_end_stream(&self) -> bool {
        matches!(&self.0, Body::Full(b) if b.is_empty())
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        match &self.0 {
            Body::Full(b) => hyper::body::SizeHint::with_exact(b.len() as u64),
            Body::Watch(_) => hyper::body::SizeHint::default(),
        }
    }
}

/// Converts a hyper request into the engine's type and the engine's response back.
pub async fn serve_one(
    engine: SharedEngine,
    req: hyper::Request<Incoming>,
) -> Result<hyper::Response<ServerBody>, Infallible> {
    serve_within(
        engine,
        req,
        Limits::default().request,
        &Connection::default(),
    )
    .await
}

/// What a connection keeps between its requests: the [`Predecoder`] taken, with the engine's
/// lock, at the end of its last request, so that the next write predecodes without taking
/// the lock once more just for it (a second acquisition per create, contended by every other
/// connection's). One stale by the time the request comes (a kind added, the clock moved on)
/// costs nothing but speed: the engine decodes again what it cannot use.
#[derive(Default)]
struct Connection {
    predecoder: Mutex<Option<Predecoder>>,
}

impl Connection {
    /// The predecoder kept, or one taken now from `engine`.
    async fn predecoder(&self, engine: &SharedEngine) -> Predecoder {
        let kept = self
            .predecoder
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        match kept {
            Some(p) => p,
            None => lock_engine(engine).await.predecoder(),
        }
    }

    fn keep(&self, predecoder: Predecoder) {
        *self.predecoder.lock().unwrap_or_else(|p| p.into_inner()) = Some(predecoder);
    }
}

/// [`serve_one`], answering 504 when the request's body has not arrived within `timeout`.
async fn serve_within(
    engine: SharedEngine,
    req: hyper::Request<Incoming>,
    timeout: std::time::Duration,
    connection: &Connection,
) -> Result<hyper::Response<ServerBody>, Infallible> {
    let (parts, body) = req.into_parts();
    let cap = crate::api::handlers::MAX_REQUEST_BODY_BYTES + 1;
    let Ok(bytes) = tokio::time::timeout(timeout, read_body(body, cap)).await else {
        let (parts, body) = limits::timed_out().into_parts();
        return Ok(hyper::Response::from_parts(parts, ServerBody(body)));
    };
    let mut request = http::Request::from_parts(parts, bytes);
    // A write's body is decoded here, in parallel with other requests, not under the lock.
    let write = Predecoder::wants(&request);
    if write {
        let predecoder = connection.predecoder(&engine).await;
        predecoder.predecode_against(&mut request, |key| {
            engine
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .stored_at(key)
        });
    }
    // What was made ahead and not taken (a request refused before its handler) is freed
    // here, after the lock, rather than with the request under it.
    let made_ahead = request
        .extensions()
        .get::<crate::api::predecode::Predecoded>()
        .cloned();
    let answer = {
        let mut engine = lock_engine(&engine).await;
        let answer = engine.serve_hosted(request);
        // Kept after a write only: a connection that writes writes again, and a read adds
        // nothing under the lock.
        if write {
            connection.keep(engine.predecoder());
        }
        answer
    };
    drop(made_ahead);
    let response = match answer {
        Answer::Now(resp) => resp,
        Answer::Later(waiting) => wait_for(&engine, waiting).await,
    };
    let (parts, body) = response.into_parts();
    Ok(hyper::Response::from_parts(parts, ServerBody(body)))
}

/// How many times a request whose engine lock is taken yields to the runtime before it
/// blocks on the lock: a write holds it for some 15 µs, a list of everything for tens of
/// milliseconds, which is not worth spinning through.
const LOCK_YIELDS: u32 = 100;

/// Takes the engine's lock from a task: while another holds it, the task first yields to
/// the runtime, so its worker goes on with other connections' TLS, parsing and predecoding
/// rather than sleeping in the kernel; only a long hold blocks the thread. Blocking at once
/// left the second worker idle in futex waits: 10.4k creates/s with two workers, no more
/// than with one; yielding gives 13.5k (2 cores, wrk -t2 -c16, HTTPS). Never held across an
/// `.await`, so the yields cannot wait on the task itself.
async fn lock_engine(engine: &SharedEngine) -> std::sync::MutexGuard<'_, Engine> {
    for _ in 0..LOCK_YIELDS {
        match engine.try_lock() {
            Ok(guard) => return guard,
            Err(std::sync::TryLockError::Poisoned(p)) => return p.into_inner(),
            Err(std::sync::TryLockError::WouldBlock) => {}
        }
        tokio::task::yield_now().await;
    }
    engine.lock().unwrap_or_else(|p| p.into_inner())
}

/// Reads a request body, stopping once it has `cap` bytes, as `limitedReadBody` reads one
/// byte past the limit: a handler that reads the body then answers 413 without the rest
/// having been taken in (hyper closes a connection whose request body was left unread).
async fn read_body(mut body: Incoming, cap: usize) -> Bytes {
    let mut out = bytes::BytesMut::new();
    while out.len() < cap {
        match body.frame().await {
            Some(Ok(frame)) => {
                if let Ok(data) = frame.into_data() {
                    let take = data.len().min(cap - out.len());
                    if out.is_empty() && take == data.len() && body.is_end_stream() {
                        return data;
                    }
                    out.extend_from_slice(&data[..take]);
                }
            }
            Some(Err(_)) | None => break,
        }
    }
    out.freeze()
}

/// Waits, in real time, for a read parked until the watch cache is fresh enough. A timer
/// ticks the engine at its due time so it is answered then; should a write move that time,
/// the ticker's next tick answers it.
async fn wait_for(engine: &SharedEngine, waiting: Waiting) -> http::Response<Body> {
    let delay = waiting.due_ms() - lock_engine(engine).await.clock().now_ms();
    let timer = {
        let engine = engine.clone();
        tokio::spawn(async move {
            tokio::time::sleep(std::time::Duration::from_millis(delay.max(0) as u64)).await;
            lock_engine(&engine).await.tick();
        })
    };
    let resp = waiting.await.unwrap_or_else(crate::engine::abandoned);
    timer.abort();
    resp
}

/// Serves HTTP/1.1 on one connection (plain TCP or TLS) until it closes or the server shuts
/// down gracefully.
async fn serve_connection<I>(
    io: I,
    engine: SharedEngine,
    watcher: hyper_util::server::graceful::Watcher,
    limits: &Limits,
) where
    I: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let request = limits.request;
    let pacer = deadlines::Pacer::new(limits.read_header, limits.idle);
    let io = deadlines::Paced::new(io, pacer.clone());
    let connection = Arc::new(Connection::default());
    let service = service_fn(move |req| {
        pacer.busy();
        let pacer = pacer.clone();
        let engine = engine.clone();
        let connection = connection.clone();
        async move {
            let resp = serve_within(engine, req, request, &connection).await?;
            Ok::<_, Infallible>(resp.map(|body| pacer.body(body)))
        }
    });
    let conn = hyper::server::conn::http1::Builder::new()
        .timer(hyper_util::rt::TokioTimer::new())
        // The head's and the idle connection's deadlines are the stream's (`deadlines`):
        // hyper's header timer would also run while a kept-alive connection idles.
        .header_read_timeout(None)
        // Go's `MaxHeaderBytes` (1 MiB) plus the 4 KiB it allows over it.
        .max_buf_size((1 << 20) + 4096)
        .serve_connection(TokioIo::new(io), service);
    let _ = watcher.watch(conn).await;
}

/// The ticker's 100 ms ticks between two returns of freed memory to the system.
const RELEASE_EVERY_TICKS: u32 = 100;

/// How freed memory goes back to the system after a compaction, when the process's allocator
/// is not the system's ([`set_memory_release`]).
static MEMORY_RELEASE: std::sync::OnceLock<fn()> = std::sync::OnceLock::new();

/// Sets how the server returns freed memory to the system (after a compaction and every ten
/// seconds): for a binary with its own global allocator (the `kubesim` binary's jemalloc
/// purges its arenas). Without it, glibc's `malloc_trim`. The first call wins.
pub fn set_memory_release(release: fn()) {
    let _ = MEMORY_RELEASE.set(release);
}

/// Returns the heap's free pages to the system. A compaction frees the history and the watch
/// cache's window of everything written before it, which the allocator would otherwise keep
/// resident at its high-water mark (Go's runtime returns such memory through its scavenger).
fn give_back_freed_memory() {
    if let Some(release) = MEMORY_RELEASE.get() {
        return release();
    }
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases memory the allocator holds free; it takes its own
    // locks and may be called from any thread at any time.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Serves `engine` on `listener` until `shutdown` resolves, then lets open connections
/// finish (graceful Ctrl-C), with kube-apiserver's [`Limits`].
pub async fn run(
    engine: SharedEngine,
    listener: TcpListener,
    tls: Option<tokio_rustls::TlsAcceptor>,
    shutdown: impl std::future::Future<Output = ()>,
) -> std::io::Result<()> {
    run_with(engine, listener, tls, Limits::default(), shutdown).await
}

/// [`run`] with other limits.
pub async fn run_with(
    engine: SharedEngine,
    listener: TcpListener,
    tls: Option<tokio_rustls::TlsAcceptor>,
    limits: Limits,
    shutdown: impl std::future::Future<Output = ()>,
) -> std::io::Result<()> {
    let limits = Arc::new(limits);
    let slots = Arc::new(tokio::sync::Semaphore::new(limits.max_connections));
    let mut backoff = limits::AcceptBackoff::default();
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    tokio::pin!(shutdown);
    // Time-driven work (cache lag, bookmarks, watch timeouts, compaction) follows the clock.
    let ticker = {
        let engine = engine.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(std::time::Duration::from_millis(100));
            let mut compacted = 0;
            let mut ticks = 0u32;
            loop {
                every.tick().await;
                let now = {
                    let mut e = lock_engine(&engine).await;
                    e.tick();
                    e.store().compacted_revision()
                };
                ticks += 1;
                // After a compaction, and every ten seconds for what requests freed (an
                // allocator without decay of its own keeps it otherwise).
                if now != compacted || ticks == RELEASE_EVERY_TICKS {
                    compacted = now;
                    ticks = 0;
                    give_back_freed_memory();
                }
            }
        })
    };
    loop {
        // At the connection cap, wait for one to close before accepting another.
        let slot = tokio::select! {
            slot = slots.clone().acquire_owned() => slot,
            _ = &mut shutdown => break,
        };
        let Ok(slot) = slot else { break };
        tokio::select! {
            accepted = listener.accept() => {
                let stream = match accepted {
                    Ok((s, _)) => s,
                    Err(_) => {
                        tokio::time::sleep(backoff.failed()).await;
                        continue;
                    }
                };
                backoff.succeeded();
                let _ = stream.set_nodelay(true);
                let engine = engine.clone();
                let watcher = graceful.watcher();
                let tls = tls.clone();
                let limits = limits.clone();
                tokio::spawn(async move {
                    let _slot = slot;
                    match tls {
                        Some(acceptor) => {
                            let handshake = acceptor.accept(stream);
                            // Go bounds the TLS handshake by the header timeout.
                            if let Ok(Ok(stream)) =
                                tokio::time::timeout(limits.read_header, handshake).await
                            {
                                serve_connection(stream, engine, watcher, &limits).await;
                            }
                        }
                        None => serve_connection(stream, engine, watcher, &limits).await,
                    }
                });
            }
            _ = &mut shutdown => break,
        }
    }
    ticker.abort();
    // Open watches would keep connections alive forever: end them, then drain.
    lock_engine(&engine).await.close_watches();
    tokio::select! {
        _ = graceful.shutdown() => {}
        _ = tokio::time::sleep(std::time::Duration::from_secs(5)) => {}
    }
    Ok(())
}

/// Binds `addr` and returns the listener with the address actually bound (port 0 picks one).
pub async fn bind(addr: SocketAddr) -> std::io::Result<(TcpListener, SocketAddr)> {
    let listener = TcpListener::bind(addr).await?;
    let local = listener.local_addr()?;
    Ok((listener, local))
}
