//! The simulated informer: list, then watch from the list's resourceVersion; a dropped watch
//! resumes from the last resourceVersion, one too old for that gets 410 and relists; started
//! at the wrong resourceVersion it misses the writes in between, and says so.

// In the browser suite these are wasm-bindgen tests.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use std::rc::Rc;

use super::{draft, Reduce, CR};
use crate::ui::informer::{Divergence, WatchFrom};
use crate::ui::state::{Action, AppState, InformerOp};

fn create(state: Rc<AppState>, name: &str) -> Rc<AppState> {
    let body = format!(
        r#"{{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{{"name":"{name}"}},"data":{{}},"revision":1}}"#
    );
    let state = state.reduce(Action::LoadAndSend(draft("POST", CR, "", &body)));
    if let crate::ui::state::Outcome::Answered(x, _) = &state.outcome {
        assert_eq!(x.code, 201, "{}", x.body);
    }
    state.reduce(Action::Poll)
}

#[test]
fn the_informer_follows_the_store_through_a_forced_410() {
    let mut state = Rc::new(AppState::new(false));
    state = create(state, "a");
    state = state
        .reduce(Action::Informer(InformerOp::List))
        .reduce(Action::Informer(InformerOp::Watch(WatchFrom::LastSeen)));
    state = create(state, "b");
    {
        let informer = state.informer.as_ref().unwrap();
        let sim = state.sim.borrow();
        assert_eq!(
            informer.believed.keys().collect::<Vec<_>>(),
            ["a", "b"],
            "{:?} {:?}",
            informer.log,
            state.informer_error
        );
        assert_eq!(informer.rv, Some(sim.engine.store().revision()));
        assert!(informer.divergence(&sim).is_empty(), "in sync");
    }
    // Disconnected while history moves on: it resumes from its old revision, which the
    // cache and the store have let go (410), so it lists again.
    state = state.reduce(Action::Informer(InformerOp::Disconnect));
    state = create(state, "c");
    assert_eq!(state.informer.as_ref().unwrap().watch, None, "still down");
    state.sim.borrow_mut().engine.advance(360_000);
    state.sim.borrow_mut().engine.compact();
    state = state.reduce(Action::Informer(InformerOp::Reconnect));
    let informer = state.informer.clone().unwrap();
    assert_eq!(informer.relists, 1, "{:?}", informer.log);
    assert!(
        informer
            .log
            .iter()
            .any(|l| l.starts_with("ERROR 410 Expired")),
        "{:?}",
        informer.log
    );
    assert_eq!(
        informer.believed.keys().collect::<Vec<_>>(),
        ["a", "b", "c"]
    );
    assert!(informer.divergence(&state.sim.borrow()).is_empty());
    assert_eq!(state.informer_error, None);
}

#[test]
fn started_at_the_wrong_resource_version_it_misses_the_writes_in_between() {
    let mut state = Rc::new(AppState::new(false));
    state = create(state, "a");
    state = state.reduce(Action::Informer(InformerOp::List));
    // Written after the list, before the watch starts.
    state = create(state, "b");
    state = state.reduce(Action::Informer(InformerOp::Watch(WatchFrom::Current)));
    state = create(state, "c");
    let informer = state.informer.clone().unwrap();
    let sim = state.sim.borrow();
    assert_eq!(informer.believed.keys().collect::<Vec<_>>(), ["a", "c"]);
    let diverged = informer.divergence(&sim);
    assert!(
        matches!(diverged.as_slice(), [Divergence::Missing { name, .. }] if name == "b"),
        "{diverged:?}"
    );
    assert!(diverged[0].text().starts_with("b: in the store at rv "));
    assert!(informer.log.iter().any(|l| l.contains("(wrong)")));
}

/// An informer whose cluster was replaced stops and says so, instead of watching the new
/// cluster from revisions it never had.
#[test]
fn a_replaced_cluster_stops_the_informer() {
    let mut state = Rc::new(AppState::new(false));
    state = create(state, "a");
    state = state
        .reduce(Action::Informer(InformerOp::List))
        .reduce(Action::Informer(InformerOp::Watch(WatchFrom::LastSeen)));
    state = state.reduce(Action::Reset).reduce(Action::Poll);
    let watches = state.sim.borrow().watches.len();
    for _ in 0..3 {
        state.sim.borrow_mut().engine.advance(1000);
        state = state.reduce(Action::Poll);
    }
    let informer = state.informer.clone().unwrap();
    assert!(informer.disconnected && informer.watch.is_none());
    assert!(informer
        .log
        .last()
        .unwrap()
        .starts_with("the cluster was replaced"));
    assert_eq!(state.sim.borrow().watches.len(), watches, "no new watches");
}
