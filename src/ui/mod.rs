//! The browser playground: a Yew app in front of an engine that runs in the tab.
//!
//! There is no server behind the page: `kubesim` compiled to WebAssembly handles every
//! request synchronously inside the page, so the playground works offline and each tab is
//! its own cluster. It is built for people learning the API's read semantics: a request
//! builder that knows the spec's parameters, a response view that explains which semantic
//! served a read, live watch panels, a store inspector with a revision timeline, time and
//! chaos controls, guided lessons, and the spec's tables made clickable.
//!
//! The logic here is free of the DOM and compiles natively too, so `cargo test` checks it
//! without a browser (`tests`; `tests/playground_web.rs` runs the same cases in one):
//! [`exchange`] (form ⇄ HTTP), [`query`] (parameters in the path), [`curl`] (copy as
//! curl/kubectl/fetch), [`share`] (links), [`history`], [`badge`] (`x-kubesim-read`),
//! [`hexdump`], [`ownership`] (managedFields as a table), [`links`] (owners, dependents,
//! what a terminating object waits for), [`identity`] (who requests act as), [`watchlog`],
//! [`reflect`] (which revision each answer reflects), [`informer`] (a simulated
//! client's list-then-watch, and where it diverges from the store), [`discovery`], [`semantics`] ([`conditions`]: every cell rerun under a condition), [`challenge`] (graded exercises with injected faults), [`script`] and [`lesson_data`]
//! (lessons; [`predict`]: the outcome a step asks the learner to predict), [`templates`], [`sim`] (engine + watches) and [`state`] (the page state and, in `state/reducer.rs`, the reducer every
//! control dispatches to; it returns [`state::Effect`]s instead of touching the browser).
//! The components and all browser I/O are in `web` (wasm32 only). Element ids (`#method`,
//! `#path`, `#headers`, `#body`, `#send`, `#status`, `#resp-headers`, `#resp-body`) are
//! stable because the end-to-end tests drive them.

pub mod badge;
pub mod challenge;
pub mod conditions;
pub mod curl;
pub mod discovery;
pub mod exchange;
pub mod hexdump;
pub mod history;
pub mod identity;
pub mod informer;
pub mod lesson_check;
pub mod lesson_data;
pub mod links;
pub mod ownership;
pub mod predict;
pub mod query;
pub mod reflect;
pub mod script;
pub mod semantics;
pub mod share;
pub mod sim;
pub mod state;
pub mod templates;
pub mod terminal;
pub mod watchlog;

#[cfg(target_arch = "wasm32")]
pub mod web;

#[cfg(test)]
mod tests;

use crate::clock::TimeSource;

pub use state::DEFAULT_PATH;
#[cfg(target_arch = "wasm32")]
pub use web::{start, App, JsDateTimeSource};

/// The wall time the wall-clock mode follows: the browser's `Date.now()` on wasm32, the
/// operating system's clock natively (where the playground's logic is tested).
fn wall_time() -> Box<dyn TimeSource> {
    #[cfg(target_arch = "wasm32")]
    return Box::new(web::JsDateTimeSource);
    #[cfg(not(target_arch = "wasm32"))]
    return Box::new(crate::clock::SystemTimeSource);
}
