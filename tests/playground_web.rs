//! The playground's logic in a real browser (headless Chromium through
//! wasm-bindgen-test-runner): the same test files `cargo test` runs natively
//! (`src/ui/tests/`) — query editing, links, copy-as renderings, the read badge, watch rows,
//! the semantics tables, the engine behind the page, and every lesson replayed through the
//! page's reducer.
//!
//! Run with `cargo test --target wasm32-unknown-unknown --test playground_web`; `make
//! test-web` does this.
#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::wasm_bindgen_test_configure;

wasm_bindgen_test_configure!(run_in_browser);

/// The shared files name the library's items as `crate::...`, as they do inside it.
mod ui {
    pub use kubesim::ui::*;
}
#[allow(unused_imports)]
use kubesim::{codec, features, resources, Config, Engine};

#[path = "../src/ui/tests/support.rs"]
mod support;
use support::{draft, Reduce, CR};

#[path = "../src/ui/tests/cascade.rs"]
mod cascade;
#[path = "../src/ui/tests/challenge.rs"]
mod challenge;
#[path = "../src/ui/tests/conditions.rs"]
mod conditions;
#[path = "../src/ui/tests/effects.rs"]
mod effects;
#[path = "../src/ui/tests/forms.rs"]
mod forms;
#[path = "../src/ui/tests/identity.rs"]
mod identity;
#[path = "../src/ui/tests/informer.rs"]
mod informer;
#[path = "../src/ui/tests/ownership.rs"]
mod ownership;
#[path = "../src/ui/tests/reducer.rs"]
mod reducer;
#[path = "../src/ui/tests/sim.rs"]
mod sim;
#[path = "../src/ui/tests/terminal.rs"]
mod terminal;
