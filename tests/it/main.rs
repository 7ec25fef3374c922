//! The native integration tests, as one test binary (`cargo test --test it`): each module was
//! its own `tests/*.rs` target before, and linking 29 binaries against kubesim and its
//! dev-dependencies dominated `cargo test` after a change. The browser tests (tests/web.rs,
//! tests/playground_web.rs, tests/shim.rs) stay separate targets for `--target wasm32`.
//!
//! proptest's default persistence (`SourceParallel`) finds this main.rs, so the seeds of
//! `model.rs` are read from (and new failures saved to) `tests/proptest-regressions/model.txt`.
#![cfg(not(target_arch = "wasm32"))]

mod common;

mod access_reviews;
mod apply;
mod binary_encodings;
mod cache_wait;
mod compression;
mod configmaps;
mod connections;
mod control;
mod controller_example;
mod corrupt_objects;
mod crd_schemas;
mod crds;
mod crud;
mod custom_apply;
mod custom_reading;
mod custom_resources;
mod custom_rules;
mod custom_scale;
mod custom_serving;
mod discovery;
mod durable_state;
mod events;
mod fixtures;
mod force_delete;
mod fuzz_corpus;
mod garbage_collection;
mod generate_name;
mod impersonation;
mod kube_auth;
mod kube_client;
mod kube_crd;
mod kube_watcher;
mod kubectl;
mod kubectl_apply;
mod kubectl_auth;
mod kubectl_crds;
mod kubectl_delete;
mod kubectl_edit_parity;
mod kubectl_parity;
mod kubectl_reads;
mod kubectl_session;
mod kubectl_tables;
mod limits;
mod model;
mod namespaces;
mod negotiation;
mod paging;
mod partial_metadata;
mod patch;
mod predecode;
mod protobuf_k8s_pb;
mod rbac;
mod rbac_bootstrap;
mod rbac_escalation;
mod rbac_reads;
mod read_semantics;
mod request_bodies;

mod robustness;
mod runtime_kinds;
mod selectors;
mod server;
mod sharding;
mod soak;
mod state;
mod tables;
mod validation;
mod watch;
mod yaml;
