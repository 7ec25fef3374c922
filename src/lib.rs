//! kubesim: a faithful, deterministic simulator of the Kubernetes API server.
//!
//! The [`engine::Engine`] serves HTTP requests (`http::Request<Bytes>` in,
//! `http::Response<Body>` out) with kube-apiserver's semantics: etcd-style resource versions,
//! optimistic concurrency, two-phase deletion, selectors, discovery and Status errors. The
//! same engine runs natively behind an HTTP server (`kubesim serve`), in-process in Rust
//! tests, and in the browser as WebAssembly. See ARCHITECTURE.md for the module map.
//!
//! # Testing your code against it
//!
//! A [`Cluster`] is an engine shared by a test and the clients under test. It starts from a
//! [`Config`] (a simulated clock unless `time_source` is set, a seed for uids and generated
//! names, feature gates, authorization) and, if you like, from manifests:
//!
//! ```
//! use kubesim::engine::Manifest;
//! use kubesim::{Cluster, Config};
//!
//! let fixtures = "\
//! apiVersion: v1
//! kind: Namespace
//! metadata: {name: team-a}
//! ---
//! apiVersion: v1
//! kind: ConfigMap
//! metadata: {name: settings, namespace: team-a}
//! data: {mode: fast}
//! ";
//! let cluster = Cluster::with_manifests(
//!     Config { seed: 7, ..Config::default() },
//!     &[Manifest::new("fixtures.yaml", fixtures)],
//! )?;
//! // The store, read directly, as `etcdctl get` would.
//! let stored = cluster.stored("/registry/configmaps/team-a/settings").unwrap();
//! assert_eq!(stored["data"]["mode"], "fast");
//! # Ok::<(), kubesim::engine::LoadError>(())
//! ```
//!
//! Requests go through [`Cluster::handle`] exactly as they would over the wire, and the test
//! drives what a real cluster does on its own: time ([`Cluster::advance`]), compaction
//! ([`Cluster::compact`]), a lagging watch cache ([`Cluster::set_cache_lag`]) and corrupt
//! storage ([`Cluster::corrupt`]). Here a list at a compacted resourceVersion gets the real
//! server's 410:
//!
//! ```
//! use bytes::Bytes;
//! use kubesim::{Cluster, Config};
//!
//! let cluster = Cluster::new(Config::default());
//! let get = |path: &str| {
//!     let req = http::Request::get(path).body(Bytes::new()).unwrap();
//!     cluster.handle(req)
//! };
//! let listed = get("/api/v1/namespaces");
//! assert_eq!(listed.status(), 200);
//! cluster.apply_yaml("apiVersion: v1\nkind: Namespace\nmetadata: {name: later}\n")?;
//! let old = 3; // the revision of the three namespaces every cluster starts with
//! cluster.compact();
//! let gone = get(&format!(
//!     "/api/v1/namespaces?resourceVersion={old}&resourceVersionMatch=Exact"
//! ));
//! assert_eq!(gone.status(), 410);
//! # Ok::<(), kubesim::engine::LoadError>(())
//! ```
//!
//! With the `kube-client` feature, `Cluster::client` is a `kube::Client` that talks to the
//! cluster in-process, so controllers written with kube-rs run against it unchanged (see
//! `examples/controller.rs`):
//!
//! ```
//! # #[cfg(feature = "kube-client")]
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use k8s_openapi::api::core::v1::ConfigMap;
//! use kube::api::{Api, PostParams};
//!
//! let cluster = kubesim::Cluster::new(kubesim::Config::default());
//! let configmaps: Api<ConfigMap> = Api::default_namespaced(cluster.client());
//! let mut cm = ConfigMap::default();
//! cm.metadata.name = Some("settings".into());
//! configmaps.create(&PostParams::default(), &cm).await?;
//! assert_eq!(cluster.stored("/registry/configmaps/default/settings").unwrap()["kind"], "ConfigMap");
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "kube-client"))]
//! # fn main() {}
//! ```
//!
//! The default feature `jemalloc` is for the `kubesim` binary, which allocates with it; the
//! library never chooses an allocator, so a crate that embeds it can build without jemalloc
//! (`default-features = false`).

pub mod api;
pub mod auth;
pub mod cache;
pub mod clock;
pub mod cluster;
pub mod codec;
pub(crate) mod controllers;
pub mod engine;
pub mod features;
pub mod fieldmanager;
#[doc(hidden)]
pub mod fuzz;
pub mod kubectl;
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
pub use cluster::Cluster;
pub use engine::{Body, Config, Engine, WatchStream};
pub use registry::{AuthorizationMode, Decision};
pub use resources::rbac::UserInfo;

#[cfg(test)]
mod tidy;
