//! The playground's logic, natively: `cargo test` runs these without a browser. The same
//! files run in headless Chromium, where the page runs, through `tests/playground_web.rs`
//! (each file swaps `#[test]` for `#[wasm_bindgen_test]` on wasm32). They cover the form ⇄
//! HTTP cases, the engine behind the page, every lesson replayed through the reducer, and
//! the reducer's effects, which a browser test cannot see once they are performed.

mod cascade;
mod challenge;
mod conditions;
mod effects;
mod forms;
mod identity;
mod informer;
mod ownership;
mod reducer;
mod sim;
mod support;
mod terminal;

use support::{draft, Reduce, CR};
