//! What the reducer asks the browser to do, in order: save the history, put the request or
//! lesson step in the URL fragment. The page (`ui::web`) performs these after each action;
//! here they are only looked at, which a browser test cannot do once they are performed.

// In the browser suite these are wasm-bindgen tests.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use std::rc::Rc;

use super::{draft, Reduce, CR};
use crate::ui::exchange::Draft;
use crate::ui::history::{self, Entry};
use crate::ui::semantics::{Cell, TableId};
use crate::ui::share::{self, Shared};
use crate::ui::state::{Action, AppState, Effect, Outcome};
use crate::ui::DEFAULT_PATH;

fn fresh() -> Rc<AppState> {
    Rc::new(AppState::new(false))
}

fn fragment(hash: &str) -> Effect {
    Effect::ReplaceUrlFragment(hash.into())
}

/// The fragment that shares `d`.
fn request_fragment(d: &Draft) -> Effect {
    fragment(&format!(
        "#{}",
        share::encode_hash(&Shared::Request(d.clone()))
    ))
}

fn saves(fx: &[Effect]) -> usize {
    fx.iter()
        .filter(|e| matches!(e, Effect::SaveHistory(_)))
        .count()
}

#[test]
fn a_send_saves_the_history_then_shares_the_request_in_the_url() {
    let (state, fx) = fresh().update(Action::Send);
    let entry = Entry::new(&draft("GET", DEFAULT_PATH, "", ""), 200);
    let list = Rc::new(vec![entry]);
    assert_eq!(state.history, list);
    assert_eq!(
        fx,
        [
            Effect::SaveHistory(list),
            fragment("#method=GET&path=/api/v1/namespaces"),
        ]
    );
    let Effect::SaveHistory(saved) = &fx[0] else {
        unreachable!()
    };
    assert!(
        Rc::ptr_eq(saved, &state.history),
        "saves what the page shows"
    );
    assert_eq!(history::parse(&history::serialize(saved)), **saved);
}

#[test]
fn editing_the_form_and_the_cluster_has_no_effects() {
    let mut state = fresh();
    for (i, action) in [
        Action::SetMethod("POST".into()),
        Action::SetPath(CR.into()),
        Action::SetHeaders("Accept: application/yaml".into()),
        Action::SetBody("{}".into()),
        Action::Load(draft("DELETE", CR, "", "")),
        Action::Tab(crate::ui::state::Tab::History),
        Action::Notice(Some("hi".into())),
        Action::Advance(1_000),
        Action::SetLag(500),
        Action::Compact,
        Action::SetGate("CBORServingAndStorage", true),
        Action::SetWall(false),
        Action::Import("{}".into()),
        Action::StopWatch(1),
        Action::CloseWatch(1),
        Action::Reset,
        Action::StartLesson("no-such-lesson"),
    ]
    .into_iter()
    .enumerate()
    {
        let v = state.version;
        let (next, fx) = state.update(action);
        assert_eq!(fx, [], "action {i}");
        assert_eq!(next.version, v + 1, "action {i}");
        state = next;
    }
    assert_eq!(state.draft, draft("DELETE", CR, "", ""));
    assert!(state.history.is_empty() && state.lesson.is_none());
    assert_eq!(
        state.notice.as_deref(),
        Some("There is no lesson \"no-such-lesson\".")
    );
}

#[test]
fn the_stored_history_grows_and_is_cleared() {
    let old = Entry::new(&draft("POST", CR, "", "{}"), 201);
    let state = Rc::new(AppState::new(false).with_history(vec![old.clone()]));
    let (state, fx) = state.update(Action::LoadAndSend(draft("GET", "/api", "", "")));
    let new = Entry::new(&draft("GET", "/api", "", ""), 200);
    let list = Rc::new(vec![new, old]);
    assert_eq!(state.history, list);
    assert_eq!(
        fx,
        [Effect::SaveHistory(list), fragment("#method=GET&path=/api"),]
    );
    let (state, fx) = state.update(Action::ClearHistory);
    assert!(state.history.is_empty());
    assert_eq!(fx, [Effect::SaveHistory(Rc::new(Vec::new()))]);
}

#[test]
fn a_form_that_is_no_request_is_shared_but_not_recorded() {
    let state = fresh().reduce(Action::SetPath("api/v1".into()));
    let (state, fx) = state.update(Action::Send);
    assert!(matches!(state.outcome, Outcome::Invalid(_)));
    assert_eq!(state.seq, 1);
    assert!(state.history.is_empty());
    assert_eq!(fx, [fragment("#method=GET&path=api/v1")]);
}

#[test]
fn a_request_link_runs_a_get_without_recording_it() {
    let get = draft("GET", "/api/v1/namespaces/default", "", "");
    let (state, fx) = fresh().update(Action::Open(Shared::Request(get)));
    let Outcome::Answered(x, None) = &state.outcome else {
        panic!("not sent: {:?}", state.outcome)
    };
    assert_eq!(x.code, 200);
    assert!(state.history.is_empty(), "links are not history");
    assert_eq!(
        fx,
        [fragment("#method=GET&path=/api/v1/namespaces/default")]
    );

    let post = draft("POST", CR, "", "{}");
    let (state, fx) = state.update(Action::Open(Shared::Request(post.clone())));
    assert_eq!(fx, [], "only loaded: the URL already says it");
    assert_eq!((&state.draft, state.seq), (&post, 1));
    assert!(state.notice.as_deref().unwrap().contains("press Send"));
}

#[test]
fn lessons_share_the_step_shown() {
    let (state, fx) = fresh().update(Action::StartLesson("paging"));
    assert_eq!(fx, [fragment("#lesson=paging&step=1")]);
    let (state, fx) = state.update(Action::Send);
    assert_eq!(saves(&fx), 1, "a lesson step sent by hand is history");
    assert_eq!(fx.last(), Some(&fragment("#lesson=paging&step=1")));
    let (state, fx) = state.update(Action::LessonGoto(1));
    assert_eq!(fx, [fragment("#lesson=paging&step=2")]);
    let (state, fx) = state.update(Action::ExitLesson);
    assert!(state.lesson.is_none());
    assert_eq!(fx, [request_fragment(&state.draft)]);
}

#[test]
fn a_lesson_link_replays_without_recording_and_ends_on_its_step() {
    let (state, fx) = fresh().update(Action::Open(Shared::Lesson {
        lesson: "paging".into(),
        step: 5,
    }));
    assert_eq!(state.lesson.as_ref().map(|r| r.step), Some(5));
    assert_eq!(saves(&fx), 0, "replayed steps are not history");
    assert!(state.history.is_empty());
    assert!(fx.iter().all(
        |e| matches!(e, Effect::ReplaceUrlFragment(h) if h.starts_with("#lesson=paging&step="))
    ));
    assert_eq!(fx.last(), Some(&fragment("#lesson=paging&step=6")));
}

#[test]
fn a_table_cell_is_recorded_and_shared() {
    let cell = Cell {
        table: TableId::List,
        row: 2,
        col: 0,
    };
    let (state, fx) = fresh().update(Action::RunCell(cell));
    assert!(state.cells.contains_key(&cell));
    assert_eq!(state.history.len(), 1, "the token fetch is not recorded");
    assert_eq!(fx.len(), 2);
    assert_eq!(fx[0], Effect::SaveHistory(state.history.clone()));
    assert!(
        state.draft.path.contains("continue=ey"),
        "{}",
        state.draft.path
    );
    assert_eq!(fx[1], request_fragment(&state.draft));
}

#[test]
fn an_idle_poll_returns_the_same_state_and_no_effects() {
    let state = fresh().reduce(Action::Poll);
    let (next, fx) = state.clone().update(Action::Poll);
    assert!(Rc::ptr_eq(&state, &next), "nothing to re-render");
    assert_eq!(fx, []);
}

#[test]
fn effects_are_returned_whatever_the_browser_flag() {
    // The flag only says whether the page performs them (`ui::web`); natively nothing does.
    let (_, in_tests) = fresh().update(Action::Send);
    let (state, on_page) = Rc::new(AppState::new(true)).update(Action::Send);
    assert!(state.browser);
    assert_eq!(in_tests, on_page);
}
