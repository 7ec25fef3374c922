//! A kube-rs client whose transport calls the engine directly: a real client library,
//! in-process, with no sockets.

use std::sync::{Arc, Mutex};

use http_body_util::BodyExt;
use kube::Client;
use kubesim::Engine;

/// A client for `engine`, defaulting to namespace `default`.
pub fn in_process_client(engine: Arc<Mutex<Engine>>) -> Client {
    let service = tower::service_fn(move |req: http::Request<kube::client::Body>| {
        let engine = engine.clone();
        async move {
            let (parts, body) = req.into_parts();
            let bytes = body.collect().await?.to_bytes();
            let resp = engine
                .lock()
                .expect("engine lock")
                .handle(http::Request::from_parts(parts, bytes));
            let (parts, body) = resp.into_parts();
            Ok::<_, Box<dyn std::error::Error + Send + Sync>>(http::Response::from_parts(
                parts,
                kubesim::server::ServerBody(body),
            ))
        }
    });
    Client::new(service, "default")
}
