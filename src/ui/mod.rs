//! The browser playground: a Yew app in front of an engine that runs in the tab.
//!
//! There is no server behind the page: `kubesim` compiled to WebAssembly handles every
//! request synchronously inside the page, so the playground works offline and each tab is
//! its own cluster. It is built for people learning the API's read semantics: a request
//! builder that knows the spec's parameters, a response view that explains which semantic
//! served a read, live watch panels, a store inspector with a revision timeline, time and
//! chaos controls, guided lessons, and the spec's tables made clickable.
//!
//! Pure logic (no DOM; checked by `tests/playground_web.rs`): [`exchange`] (form ⇄ HTTP),
//! [`query`] (parameters in the path), [`curl`] (copy as curl/kubectl/fetch), [`share`]
//! (links), [`history`], [`badge`] (`x-kubesim-read`), [`hexdump`], [`watchlog`],
//! [`discovery`], [`semantics`], [`script`] and [`lesson_data`] (lessons), [`templates`],
//! [`sim`] (engine + watches) and [`state`] (the reducer every control dispatches to).
//! Components, one per file: [`app`], [`builder`], [`params`], [`copy_as`], [`response`],
//! [`watches`], [`inspector`], [`timeline`], [`clock`], [`lessons`], [`semantics_table`],
//! [`recent`]. Element ids (`#method`, `#path`, `#headers`, `#body`, `#send`, `#status`,
//! `#resp-headers`, `#resp-body`) are stable because the end-to-end tests drive them.

pub mod app;
pub mod badge;
pub mod builder;
pub mod clock;
pub mod copy_as;
pub mod curl;
pub mod discovery;
pub mod exchange;
pub mod hexdump;
pub mod history;
pub mod inspector;
pub mod lesson_data;
pub mod lessons;
pub mod params;
pub mod query;
pub mod recent;
pub mod response;
pub mod script;
pub mod semantics;
pub mod semantics_table;
pub mod share;
pub mod sim;
pub mod state;
pub mod templates;
pub mod timeline;
pub mod watches;
pub mod watchlog;

use crate::clock::TimeSource;

pub use app::App;
pub use state::DEFAULT_PATH;

/// Wall time from the browser (`Date.now()`), for the wall-clock mode (and the JS shim).
#[derive(Debug, Default, Clone, Copy)]
pub struct JsDateTimeSource;

impl TimeSource for JsDateTimeSource {
    fn now_ms(&self) -> i64 {
        js_sys::Date::now() as i64
    }
}

/// Mounts the playground on `<body>`; called by `examples/playground.rs` on wasm32.
pub fn start() {
    yew::Renderer::<App>::new().render();
}
