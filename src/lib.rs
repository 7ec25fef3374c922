//! kubesim: a faithful, deterministic simulator of the Kubernetes API server.
//!
//! The [`engine::Engine`] serves HTTP requests (`http::Request<Bytes>` in,
//! `http::Response<Body>` out) with kube-apiserver's semantics: etcd-style resource versions,
//! optimistic concurrency, two-phase deletion, selectors, discovery and Status errors. The
//! same engine runs natively behind an HTTP server (`kubesim serve`), in-process in Rust
//! tests, and in the browser as WebAssembly. See ARCHITECTURE.md for the module map.

pub mod api;
pub mod auth;
pub mod cache;
pub mod clock;
pub mod codec;
pub(crate) mod controllers;
pub mod engine;
pub mod features;
pub mod fieldmanager;
#[doc(hidden)]
pub mod fuzz;
pub mod patch;
pub(crate) mod registry;
pub mod resource_version;
pub mod resources;
pub mod rng;
pub mod selectors;
pub mod sort;
pub mod store;

#[cfg(not(target_arch = "wasm32"))]
pub mod server;

#[cfg(target_arch = "wasm32")]
pub mod shim;
pub mod ui;

pub use auth::AuthConfig;
pub use engine::{Body, Config, Engine, WatchStream};
pub use registry::{AuthorizationMode, Decision};
pub use resources::rbac::UserInfo;

#[cfg(test)]
mod tidy;
