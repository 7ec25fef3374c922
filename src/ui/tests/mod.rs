//! The playground's logic, natively: `cargo test` runs these without a browser. The cases are
//! those of `tests/playground_web.rs` (which runs them in headless Chromium, where the page
//! runs) and the form ⇄ HTTP cases of `tests/web.rs`, plus the reducer's effects, which a
//! browser test cannot see once they are performed.

mod effects;
mod forms;
mod reducer;
mod sim;

use std::rc::Rc;

use super::exchange::Draft;
use super::state::{Action, AppState};

const CR: &str = "/apis/apps/v1/namespaces/default/controllerrevisions";

fn draft(method: &str, path: &str, headers: &str, body: &str) -> Draft {
    Draft {
        method: method.into(),
        path: path.into(),
        headers: headers.into(),
        body: body.into(),
    }
}

/// `state.reduce(action)` as the page's Yew reducer runs it, minus performing the effects
/// (which the page does only when `browser` is set, and the tests' states never set it).
trait Reduce {
    fn reduce(self, action: Action) -> Self;
}

impl Reduce for Rc<AppState> {
    fn reduce(self, action: Action) -> Self {
        self.update(action).0
    }
}
