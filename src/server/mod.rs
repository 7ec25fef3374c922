//! The native host: an HTTP/1.1 server in front of the engine, for kubectl and real clients.
//!
//! The engine is a single-threaded state machine; the server shares it behind a mutex and
//! only moves bytes, so native behaviour is exactly the engine's.

pub mod kubeconfig;

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;

use crate::engine::{Body, Engine};

/// The engine as the server shares it between connections.
pub type SharedEngine = Arc<Mutex<Engine>>;

/// Converts a hyper request into the engine's type and the engine's response back.
pub async fn serve_one(
    engine: SharedEngine,
    req: hyper::Request<Incoming>,
) -> Result<hyper::Response<Full<Bytes>>, Infallible> {
    let (parts, body) = req.into_parts();
    let bytes = match body.collect().await {
        Ok(b) => b.to_bytes(),
        Err(_) => Bytes::new(),
    };
    let request = http::Request::from_parts(parts, bytes);
    let response = {
        let mut e = engine.lock().unwrap_or_else(|p| p.into_inner());
        e.handle(request)
    };
    let (parts, body) = response.into_parts();
    let Body::Full(bytes) = body;
    Ok(hyper::Response::from_parts(parts, Full::new(bytes)))
}

/// Serves `engine` on `listener` until `shutdown` resolves, then lets open connections
/// finish (graceful Ctrl-C).
pub async fn run(
    engine: SharedEngine,
    listener: TcpListener,
    shutdown: impl std::future::Future<Output = ()>,
) -> std::io::Result<()> {
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let (stream, _) = match accepted {
                    Ok(s) => s,
                    Err(_) => continue,
                };
                let _ = stream.set_nodelay(true);
                let engine = engine.clone();
                let service = service_fn(move |req| serve_one(engine.clone(), req));
                let conn = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), service);
                let conn = graceful.watch(conn);
                tokio::spawn(async move {
                    let _ = conn.await;
                });
            }
            _ = &mut shutdown => break,
        }
    }
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
