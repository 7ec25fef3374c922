//! The challenges graded: each solved the right way passes, and the mistake its fault is
//! about fails with a line that says what was missed or kept stale.

// In the browser suite these are wasm-bindgen tests.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use std::rc::Rc;

use super::{draft, Reduce};
use crate::ui::challenge::PATH;
use crate::ui::state::{Action, AppState, Outcome};

fn get(state: Rc<AppState>, path: &str) -> (Rc<AppState>, serde_json::Value) {
    let state = state
        .reduce(Action::LoadAndSend(draft("GET", path, "", "")))
        .reduce(Action::Poll);
    let json = match &state.outcome {
        Outcome::Answered(x, _) => x.json().unwrap_or_default(),
        _ => serde_json::Value::Null,
    };
    (state, json)
}

fn rv_of(v: &serde_json::Value) -> String {
    v["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .to_string()
}

fn verdict(state: Rc<AppState>) -> (bool, Vec<String>) {
    let state = state.reduce(Action::CheckChallenge);
    state.challenge.as_ref().unwrap().verdict.clone().unwrap()
}

/// The last event's resourceVersion in the newest watch panel.
fn last_event_rv(state: &AppState) -> String {
    let sim = state.sim.borrow();
    let w = sim.watches.last().unwrap();
    w.rows
        .iter()
        .rev()
        .find(|r| r.kind != "ERROR")
        .unwrap()
        .rv
        .clone()
}

#[test]
fn a_dropped_watch_resumed_from_its_last_event_misses_nothing() {
    for resume_right in [true, false] {
        let state = Rc::new(AppState::new(false)).reduce(Action::StartChallenge("dropped-watch"));
        let (state, list) = get(state, PATH);
        assert_eq!(list["items"].as_array().unwrap().len(), 2);
        let (state, _) = get(
            state,
            &format!("{PATH}?watch=1&resourceVersion={}", rv_of(&list)),
        );
        assert_eq!(
            state.sim.borrow().open_watches(),
            0,
            "the simulator dropped it"
        );
        let from = match resume_right {
            true => last_event_rv(&state),
            false => state.sim.borrow().engine.store().revision().to_string(),
        };
        let (state, _) = get(state, &format!("{PATH}?watch=1&resourceVersion={from}"));
        let (ok, lines) = verdict(state);
        assert_eq!(ok, resume_right, "{lines:?}");
        if !resume_right {
            assert!(
                lines
                    .iter()
                    .any(|l| l.contains("the writes in between were missed")),
                "{lines:?}"
            );
        }
    }
}

#[test]
fn a_paged_list_broken_by_compaction_is_started_over() {
    for start_over in [true, false] {
        let state =
            Rc::new(AppState::new(false)).reduce(Action::StartChallenge("compacted-paging"));
        let (state, first) = get(state, &format!("{PATH}?limit=2"));
        let token = first["metadata"]["continue"].as_str().unwrap().to_string();
        let (mut state, gone) = get(state, &format!("{PATH}?limit=2&continue={token}"));
        assert_eq!(gone["reason"], "Expired", "the fault compacted the history");
        let mut next = if start_over {
            let (s, page) = get(state, &format!("{PATH}?limit=2"));
            state = s;
            page["metadata"]["continue"].as_str().map(str::to_owned)
        } else {
            gone["metadata"]["continue"].as_str().map(str::to_owned)
        };
        let mut names = Vec::new();
        while let Some(t) = next.filter(|t| !t.is_empty()) {
            let (s, page) = get(state, &format!("{PATH}?limit=2&continue={t}"));
            state = s;
            names.extend(
                page["items"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|o| o["metadata"]["name"].clone()),
            );
            next = page["metadata"]["continue"].as_str().map(str::to_owned);
        }
        let (ok, lines) = verdict(state);
        assert_eq!(ok, start_over, "{lines:?}");
        if !start_over {
            assert!(
                lines.iter().any(|l| l.contains("not one snapshot")),
                "{lines:?}"
            );
        }
    }
}

#[test]
fn your_own_write_is_read_back_from_the_store_not_the_lagging_cache() {
    let body = r#"{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"mine"},"data":{},"revision":1}"#;
    let state = Rc::new(AppState::new(false))
        .reduce(Action::StartChallenge("lagging-cache"))
        .reduce(Action::LoadAndSend(draft("POST", PATH, "", body)));
    let (state, stale) = get(state, &format!("{PATH}/mine?resourceVersion=0"));
    assert_eq!(stale["reason"], "NotFound", "the cache has not seen it");
    let (ok, lines) = verdict(state.clone());
    assert!(!ok);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("does not show mine (stale)")),
        "{lines:?}"
    );
    let (state, _) = get(state, &format!("{PATH}/mine"));
    let (ok, lines) = verdict(state);
    assert!(ok, "{lines:?}");
}
