//! The page's reducer driven as its controls drive it: every lesson, a lesson link, a table
//! cell, the clock and the cache lag.

// In the browser suite these are wasm-bindgen tests.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use std::rc::Rc;

use super::Reduce;
use crate::ui::exchange;
use crate::ui::lesson_check::STATES_THE_ANSWER;
use crate::ui::lesson_data::LESSONS;
use crate::ui::semantics::{Cell, TableId};
use crate::ui::share::Shared;
use crate::ui::state::{Action, AppState, LessonStart, Outcome};
use crate::ui::{query, script};

/// Runs every lesson through the page's reducer exactly as the Run/Next buttons do, and
/// checks each step's status code and, for watches, the events its panel shows at once.
/// A lesson's gates are names the engine knows (loading a lesson turns them on without
/// reporting a typo).
#[test]
fn every_lesson_gate_is_known() {
    for lesson in LESSONS {
        for g in lesson.gates {
            let mut gates = crate::features::FeatureGates::default();
            assert!(gates.set(g, true).is_ok(), "{}: {g}", lesson.id);
        }
    }
}

#[test]
fn every_lesson_runs_as_written() {
    let mut ids = std::collections::BTreeSet::new();
    assert!(LESSONS.len() >= 8);
    for lesson in LESSONS {
        assert!(ids.insert(lesson.id), "duplicate lesson id {}", lesson.id);
        let mut saved: Vec<&str> = Vec::new();
        let mut state = Rc::new(AppState::new(false)).reduce(Action::StartLesson(lesson.id));
        let start = state.sim.borrow().engine.store().revision();
        for (i, step) in lesson.steps.iter().enumerate() {
            let at = format!("{} step {}", lesson.id, i + 1);
            assert!(
                !step.title.is_empty() && !step.expect.is_empty(),
                "{at}: title and expectation"
            );
            for p in script::placeholders(step.path)
                .into_iter()
                .chain(script::placeholders(step.body))
            {
                assert!(
                    saved.contains(&p.as_str()),
                    "{at}: {{{{{p}}}}} is not saved by an earlier step"
                );
            }
            saved.extend(step.save.iter().map(|(n, _)| *n));
            let run = state.lesson.clone().unwrap();
            assert_eq!((run.step, run.error), (i, None), "{at}");
            if !step.kubectl.is_empty() {
                // A terminal step: the command runs in the terminal; its exit status is the
                // step's answer.
                state = state.reduce(Action::Send);
                let got = state.lesson.as_ref().unwrap().results[i].clone().unwrap();
                let printed = state.terminal.borrow().entries.last().map(|e| e.text());
                assert_eq!(got.code, step.status, "{at}: {printed:?}");
                assert!(crate::ui::lesson_check::verdict(step, &got, true).0, "{at}");
                if i + 1 < lesson.steps.len() {
                    state = state.reduce(Action::LessonGoto(i + 1));
                }
                continue;
            }
            assert!(
                exchange::build_request(&state.draft).is_ok(),
                "{at}: well-formed"
            );
            let watches_before = state.sim.borrow().watches.len();
            state = state.reduce(Action::Send);
            let Outcome::Answered(x, watch) = &state.outcome else {
                panic!("{at}: not sent: {:?}", state.outcome);
            };
            assert_eq!(x.code, step.status, "{at} ({}): {}", step.title, x.body);
            if query::is_watch(&state.draft.path) && step.status == 200 {
                assert!(watch.is_some(), "{at}: a watch opens a panel");
                let sim = state.sim.borrow();
                assert_eq!(sim.watches.len(), watches_before + 1);
                let kinds: Vec<&str> = sim
                    .watches
                    .last()
                    .unwrap()
                    .rows
                    .iter()
                    .map(|r| r.kind.as_str())
                    .collect();
                assert_eq!(kinds, step.events, "{at}: events shown at once");
            } else {
                assert!(
                    step.events.is_empty(),
                    "{at}: events listed for a non-watch"
                );
            }
            let got = state.lesson.as_ref().unwrap().results[i].clone().unwrap();
            let (ok, text) = crate::ui::lesson_check::verdict(step, &got, true);
            assert!(ok, "{at}: the page's verdict: {text}");
            if let Some(p) = step.predict {
                // The right choice is read off the answer: it must be one of the choices.
                let right = p
                    .actual(&got)
                    .unwrap_or_else(|| panic!("{at}: the answer is none of the choices"));
                assert!(p.check(right, &got).0, "{at}");
                assert!(!p.check((right + 1) % p.choices.len(), &got).0, "{at}");
            }
            let now = state.sim.borrow().engine.store().revision();
            for (phrase, n) in [step.title, step.expect, step.notice]
                .into_iter()
                .flat_map(revision_mentions)
            {
                assert!(
                    (start..=now).contains(&n),
                    "{at}: \"{phrase} {n}\" is not a revision of this run ({start}..={now})"
                );
            }
            if let Some((_, n)) = revision_mentions(step.expect)
                .into_iter()
                .find(|(p, _)| STATES_THE_ANSWER.contains(p))
            {
                let body: serde_json::Value = serde_json::from_str(&x.body).unwrap_or_default();
                if let Some(rv) = body["metadata"]["resourceVersion"].as_str() {
                    assert_eq!(rv, n.to_string(), "{at}: the expectation's resourceVersion");
                }
            }
            if i + 1 < lesson.steps.len() {
                state = state.reduce(Action::LessonGoto(i + 1));
            }
        }
        assert!(state.lesson.as_ref().unwrap().finished(), "{}", lesson.id);
    }
}

/// Every revision a lesson text names (`revision 7`, `resourceVersion is 4`, `rv 4`,
/// `version 4`), with the phrase before the number: the lessons start from a real cluster's
/// revision, and these numbers must be ones the run really reaches.
fn revision_mentions(text: &str) -> Vec<(&'static str, u64)> {
    const PHRASES: &[&str] = &[
        "at resourceVersion",
        "at revision",
        "resourceVersion is",
        "metadata.resourceVersion",
        "resourceVersion",
        "revision",
        "version",
        "rv",
        "at",
    ];
    let mut out = Vec::new();
    let mut i = 0;
    while i < text.len() {
        let rest = &text[i..];
        let found = PHRASES.iter().find_map(|p| {
            let after = rest.strip_prefix(p)?.strip_prefix(' ')?;
            let digits: String = after.chars().take_while(char::is_ascii_digit).collect();
            let boundary = i == 0 || !text[..i].ends_with(|c: char| c.is_ascii_alphanumeric());
            (boundary && !digits.is_empty()).then_some((*p, digits))
        });
        match found {
            Some((p, digits)) => {
                out.push((p, digits.parse().unwrap()));
                i += p.len() + 1 + digits.len();
            }
            None => i += rest.chars().next().map_or(1, char::len_utf8),
        }
    }
    out
}

#[test]
fn a_lesson_link_replays_the_steps_before_it() {
    let state = Rc::new(AppState::new(false)).reduce(Action::Open(Shared::Lesson {
        lesson: "paging".into(),
        step: 5,
    }));
    let run = state.lesson.clone().unwrap();
    assert_eq!(run.step, 5);
    assert!(run.results[..5].iter().all(Option::is_some));
    assert!(
        state.draft.path.contains("continue=ey"),
        "{}",
        state.draft.path
    );
    let state = state.reduce(Action::Send);
    let Outcome::Answered(x, _) = &state.outcome else {
        panic!()
    };
    let names: Vec<String> = x.json().unwrap()["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["metadata"]["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        names,
        ["c"],
        "the second page is read at the first page's revision"
    );
}

#[test]
fn the_reducer_runs_cells_and_advances_time() {
    let state = Rc::new(AppState::new(false));
    let cell = Cell {
        table: TableId::List,
        row: 2,
        col: 0,
    };
    let state = state.reduce(Action::RunCell(cell));
    let r = state.cells.get(&cell).cloned().unwrap();
    assert_eq!((r.code, r.semantic.as_deref()), (200, Some("Continuation")));
    assert_eq!(state.applied.as_deref(), Some("Continuation"));
    let before = state.sim.borrow().engine.clock().now_ms();
    let state = state.reduce(Action::Advance(300_000));
    assert_eq!(state.sim.borrow().engine.clock().now_ms(), before + 300_000);
    let state = state.reduce(Action::SetLag(2_000));
    assert_eq!(state.sim.borrow().engine.cache().config().lag_ms, 2_000);
    let v = state.version;
    let state = state.reduce(Action::Poll).reduce(Action::Poll);
    assert!(state.version <= v + 1, "an idle poll does not re-render");
}

/// A page whose cluster was changed by hand: one object written, one watch open.
fn changed_page() -> Rc<AppState> {
    let body = r#"{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"mine"},"data":{},"revision":1}"#;
    Rc::new(AppState::new(false))
        .reduce(Action::LoadAndSend(super::draft(
            "POST",
            super::CR,
            "",
            body,
        )))
        .reduce(Action::LoadAndSend(super::draft(
            "GET",
            &format!("{}?watch=1", super::CR),
            "",
            "",
        )))
}

fn has_mine(state: &AppState) -> bool {
    let key = "/registry/controllerrevisions/default/mine";
    state.sim.borrow().engine.store().get(key).is_some()
}

/// A lesson does not wipe a cluster changed by hand without asking; a fresh start sets it
/// aside (marking its watch panels) and Undo brings it back; the learner may keep it instead,
/// or cancel. An unchanged cluster starts at once.
#[test]
fn a_lesson_asks_before_setting_a_changed_cluster_aside() {
    let started = Rc::new(AppState::new(false)).reduce(Action::StartLesson("conflict"));
    assert!(started.lesson.is_some() && started.confirm_lesson.is_none());

    let asked = changed_page().reduce(Action::StartLesson("conflict"));
    assert_eq!(
        (asked.lesson.is_some(), asked.confirm_lesson),
        (false, Some("conflict"))
    );
    let cancelled = asked.reduce(Action::ConfirmLesson(LessonStart::Cancel));
    assert!(
        cancelled.lesson.is_none() && cancelled.confirm_lesson.is_none() && has_mine(&cancelled)
    );

    let fresh = changed_page()
        .reduce(Action::StartLesson("conflict"))
        .reduce(Action::ConfirmLesson(LessonStart::Fresh));
    assert!(fresh.lesson.is_some() && fresh.set_aside.is_some() && !has_mine(&fresh));
    assert!(fresh.sim.borrow().watches[0].previous_cluster);
    // What the lesson wrote is not the learner's: the next lesson starts without asking,
    // and the learner's cluster stays aside.
    let second = fresh
        .reduce(Action::Send)
        .reduce(Action::ExitLesson)
        .reduce(Action::StartLesson("get-rv"));
    assert_eq!(second.confirm_lesson, None);
    assert_eq!(second.lesson.as_ref().map(|r| r.lesson.id), Some("get-rv"));
    let back = second.reduce(Action::UndoLessonReset);
    assert!(back.lesson.is_none() && back.set_aside.is_none() && has_mine(&back));

    let kept = changed_page()
        .reduce(Action::StartLesson("conflict"))
        .reduce(Action::ConfirmLesson(LessonStart::Keep));
    assert!(kept.lesson.is_some() && kept.set_aside.is_none() && has_mine(&kept));
    assert!(kept.lesson.as_ref().unwrap().own_cluster);
    assert!(!kept.sim.borrow().watches[0].previous_cluster);
    // A lesson on the learner's own cluster does not let the next one wipe it unasked.
    let next = kept.reduce(Action::StartLesson("get-rv"));
    assert_eq!(next.confirm_lesson, Some("get-rv"));
}

/// A step that asks for a prediction checks it against the answer: a wrong one says what the
/// server answered and why, a right one says so; a prediction cannot change once the step
/// has run.
#[test]
fn a_prediction_is_checked_against_the_answer() {
    let lesson = crate::ui::lesson_data::find("stale-cache").unwrap();
    let unseen = lesson.steps.iter().position(|s| s.status == 404).unwrap();
    let any_list = lesson
        .steps
        .iter()
        .position(|s| s.title == "List with resourceVersion=0")
        .unwrap();
    let mut state = Rc::new(AppState::new(false)).reduce(Action::StartLesson(lesson.id));
    for i in 0..unseen {
        state = state.reduce(Action::Send).reduce(Action::LessonGoto(i + 1));
    }
    let predict = lesson.steps[unseen].predict.unwrap();
    // Wrongly: 200 OK.
    state = state.reduce(Action::Predict(0)).reduce(Action::Send);
    state = state.reduce(Action::Predict(1));
    let run = state.lesson.clone().unwrap();
    assert_eq!(run.predictions[unseen], Some(0), "kept once the step ran");
    let (ok, text) = predict.check(0, run.results[unseen].as_ref().unwrap());
    assert!(!ok);
    assert!(
        text.starts_with("✗ You predicted “200 OK”; the server answered “404 Not Found”. Get table, resourceVersion=\"0\" (Any)"),
        "{text}"
    );
    for i in unseen + 1..any_list {
        state = state.reduce(Action::LessonGoto(i)).reduce(Action::Send);
    }
    // Rightly: the list from the lagging cache may be stale.
    state = state
        .reduce(Action::LessonGoto(any_list))
        .reduce(Action::Predict(1))
        .reduce(Action::Send);
    let run = state.lesson.clone().unwrap();
    let got = run.results[any_list].as_ref().unwrap();
    assert_eq!(got.stale, Some(true));
    let (ok, text) = lesson.steps[any_list].predict.unwrap().check(1, got);
    assert!(ok);
    assert!(
        text.starts_with(
            "✓ You predicted “may be stale: the watch cache's”, and so it was. List table"
        ),
        "{text}"
    );
}
