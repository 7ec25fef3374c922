//! What every playground test file shares (also included by `tests/playground_web.rs`).

use std::rc::Rc;

use crate::ui::exchange::Draft;
use crate::ui::state::{Action, AppState};

pub const CR: &str = "/apis/apps/v1/namespaces/default/controllerrevisions";

pub fn draft(method: &str, path: &str, headers: &str, body: &str) -> Draft {
    Draft {
        method: method.into(),
        path: path.into(),
        headers: headers.into(),
        body: body.into(),
    }
}

/// `state.reduce(action)` as the page's Yew reducer runs it, minus performing the effects
/// (which the page does only when `browser` is set, and the tests' states never set it).
pub trait Reduce {
    fn reduce(self, action: Action) -> Self;
}

impl Reduce for Rc<AppState> {
    fn reduce(self, action: Action) -> Self {
        self.update(action).0
    }
}
