//! The cascading-deletion lesson says what the garbage collector did after each second;
//! this replays it and checks the store agrees.

// In the browser suite these are wasm-bindgen tests.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use std::rc::Rc;

use super::Reduce;
use crate::ui::lesson_data;
use crate::ui::state::{Action, AppState};

/// The ConfigMaps in default, `*` marking the terminating ones.
fn configmaps(state: &AppState) -> Vec<String> {
    let sim = state.sim.borrow();
    let mut out: Vec<String> = sim
        .engine
        .objects()
        .into_iter()
        .filter(|o| o["kind"] == "ConfigMap" && o["metadata"]["namespace"] == "default")
        .map(|o| {
            let mark = if o["metadata"]["deletionTimestamp"].is_string() {
                "*"
            } else {
                ""
            };
            format!("{}{mark}", o["metadata"]["name"].as_str().unwrap_or(""))
        })
        .collect();
    out.sort();
    out
}

#[test]
fn the_cascade_lesson_matches_the_collector() {
    let lesson = lesson_data::find("cascade").expect("the cascade lesson");
    // After step N (1-based): the ConfigMaps left.
    let after: &[(usize, &[&str])] = &[
        (4, &["app*", "app-cache", "app-config"]),
        (6, &["app-cache*"]),
        (10, &["app-cache*", "db*", "db-settings"]),
        (11, &["app-cache*", "db-settings"]),
    ];
    let mut state = Rc::new(AppState::new(false)).reduce(Action::StartLesson("cascade"));
    for i in 0..lesson.steps.len() {
        state = state.reduce(Action::Send);
        if let Some((_, want)) = after.iter().find(|(n, _)| *n == i + 1) {
            assert_eq!(configmaps(&state), *want, "after step {}", i + 1);
        }
        state = state.reduce(Action::LessonGoto(i + 1));
    }
    let sim = state.sim.borrow();
    let orphan = sim
        .engine
        .objects()
        .into_iter()
        .find(|o| o["metadata"]["name"] == "db-settings")
        .expect("db-settings");
    assert!(orphan["metadata"].get("ownerReferences").is_none());
    // As the last step says: no field left to own, so no managedFields entry either.
    assert!(
        orphan["metadata"].get("managedFields").is_none(),
        "{orphan}"
    );
}

/// The corrupt-object lesson turns its gate on and quotes the server's errors.
#[test]
fn the_corrupt_lesson_quotes_the_server() {
    let lesson = lesson_data::find("corrupt").expect("the corrupt lesson");
    let mut state = Rc::new(AppState::new(false)).reduce(Action::StartLesson("corrupt"));
    assert!(state
        .sim
        .borrow()
        .engine
        .feature_gates()
        .enabled("AllowUnsafeMalformedObjectDeletion"));
    let mut quoted = 0;
    for (i, step) in lesson.steps.iter().enumerate() {
        state = state.reduce(Action::Send);
        if let crate::ui::state::Outcome::Answered(x, _) = &state.outcome {
            let message = x
                .json()
                .and_then(|j| j["message"].as_str().map(str::to_owned))
                .unwrap_or_default();
            if matches!(x.code, 422 | 500) && step.expect.contains(": ") && !message.is_empty() {
                // A step that repeats an earlier error says so instead of quoting it again.
                let repeats = step.expect.ends_with("the same corrupt-object error.");
                assert!(
                    step.expect.contains(&message) || repeats,
                    "step {}: {message}",
                    i + 1
                );
                quoted += usize::from(!repeats);
            }
        }
        state = state.reduce(Action::LessonGoto(i + 1));
    }
    assert_eq!(quoted, 2, "the 500 and the 422 were answered and quoted");
}
