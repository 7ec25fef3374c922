//! The user switcher and the RBAC lesson: who the page's requests act as, kept across
//! cluster rebuilds, reset to the administrator by a lesson, and the lesson's 403 texts as
//! the server words them.

// In the browser suite these are wasm-bindgen tests.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use std::rc::Rc;

use super::{draft, Reduce};
use crate::ui::identity::Identity;
use crate::ui::lesson_data;
use crate::ui::state::{Action, AppState, Outcome};

fn code_and_message(state: &AppState) -> (u16, String) {
    let Outcome::Answered(x, _) = &state.outcome else {
        panic!("not answered: {:?}", state.outcome);
    };
    let msg = x
        .json()
        .map(|j| j["message"].as_str().unwrap_or("").to_string());
    (x.code, msg.unwrap_or_default())
}

#[test]
fn the_switcher_changes_who_requests_act_as() {
    let list = || Action::LoadAndSend(draft("GET", "/api/v1/namespaces", "", ""));
    let s = Rc::new(AppState::new(false)).reduce(list());
    assert_eq!(code_and_message(&s).0, 200);
    let s = s
        .reduce(Action::SetIdentity(Identity::NoGrants))
        .reduce(list());
    assert_eq!(
        code_and_message(&s),
        (403, "namespaces is forbidden: User \"alice\" cannot list resource \"namespaces\" in API group \"\" at the cluster scope".into())
    );
    assert_eq!(
        s.notice.as_deref(),
        Some("Requests now act as alice (groups: system:authenticated).")
    );
    // A rebuild (another gate) keeps the identity.
    let s = s.reduce(Action::SetGate("WatchList", false)).reduce(list());
    assert_eq!(code_and_message(&s).0, 403);
    let custom = Identity::Custom {
        name: "root".into(),
        groups: "system:masters".into(),
    };
    let s = s.reduce(Action::SetIdentity(custom)).reduce(list());
    assert_eq!(code_and_message(&s).0, 200);
    // A lesson acts as the administrator.
    let s = s
        .reduce(Action::SetIdentity(Identity::NoGrants))
        .reduce(Action::StartLesson("rbac"));
    assert_eq!(s.identity, Identity::Admin);
}

#[test]
fn the_rbac_lessons_denials_quote_the_server() {
    let lesson = lesson_data::find("rbac").expect("the RBAC lesson");
    let mut state = Rc::new(AppState::new(false)).reduce(Action::StartLesson("rbac"));
    let mut denials = 0;
    for (i, step) in lesson.steps.iter().enumerate() {
        state = state.reduce(Action::Send);
        let (code, message) = code_and_message(&state);
        if code == 403 {
            assert!(!message.is_empty(), "step {}", i + 1);
            assert!(step.expect.ends_with(&message), "step {}: {message}", i + 1);
            denials += 1;
        }
        state = state.reduce(Action::LessonGoto(i + 1));
    }
    assert_eq!(
        denials, 3,
        "the lesson's three denials were answered and compared"
    );
}
