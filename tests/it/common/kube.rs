//! A kube-rs client whose transport calls the engine directly: a real client library,
//! in-process, with no sockets (`kubesim::Cluster::client`).

use std::sync::{Arc, Mutex};

use kube::Client;
use kubesim::Engine;

/// A client for `engine`, defaulting to namespace `default`.
pub fn in_process_client(engine: Arc<Mutex<Engine>>) -> Client {
    kubesim::Cluster::from_shared(engine).client()
}
