//! The browser side of the playground (wasm32 only): the Yew components, one per file, and
//! everything that touches the browser: local storage, the address bar, `Date.now()`.
//!
//! The page's logic (`super::state` and the modules it uses) never does I/O: its reducer
//! returns [`Effect`]s, and the [`Reducible`] impl here performs them. Components:
//! [`app`], [`builder`], [`params`], [`copy_as`], [`identity`], [`response`] (with
//! [`ownership`]), [`watches`], [`inspector`],
//! [`timeline`], [`clock`], [`lessons`], [`semantics_table`], [`recent`].

pub mod app;
pub mod builder;
pub mod challenges;
pub mod clock;
pub mod copy_as;
pub mod identity;
pub mod informer_view;
pub mod inspector;
pub mod lessons;
pub mod ownership;
pub mod params;
pub mod recent;
pub mod response;
pub mod semantics_table;
pub mod terminal;
pub mod timeline;
pub mod watches;

use std::rc::Rc;

use yew::Reducible;

use super::history::{self, Entry};
use super::state::{Action, AppState, Effect};
use crate::clock::TimeSource;

pub use app::App;

/// Wall time from the browser (`Date.now()`), for the wall-clock mode.
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

/// The page's local storage, where there is one.
fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The state the page opens with: a fresh cluster and the history kept in local storage.
pub fn initial_state() -> AppState {
    AppState::new(true).with_history(load_history())
}

/// Reads the history from local storage.
pub fn load_history() -> Vec<Entry> {
    storage()
        .and_then(|s| s.get_item(history::KEY).ok().flatten())
        .map(|t| history::parse(&t))
        .unwrap_or_default()
}

/// Writes the history to local storage (quietly does nothing where storage is unavailable).
pub fn save_history(list: &[Entry]) {
    if let Some(s) = storage() {
        let _ = s.set_item(history::KEY, &history::serialize(list));
    }
}

/// Does what the reducer asked for.
pub fn perform(effect: &Effect) {
    match effect {
        Effect::SaveHistory(list) => save_history(list),
        Effect::ReplaceUrlFragment(hash) => {
            // Without a history entry or a `hashchange` event.
            if let Some(h) = web_sys::window().and_then(|w| w.history().ok()) {
                let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(hash));
            }
        }
    }
}

/// Yew's reducer: the pure [`AppState::update`], then its effects (only on the real page,
/// not in tests: see [`AppState::browser`]).
impl Reducible for AppState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let (state, effects) = self.update(action);
        if state.browser {
            effects.iter().for_each(perform);
        }
        state
    }
}
