//! The ownership table under the response body: managedFields read back as "which manager
//! owns which field", checked step by step through the apply lesson and on list-typed
//! fields.

// In the browser suite these are wasm-bindgen tests.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use std::rc::Rc;

use super::Reduce;
use crate::ui::lesson_data;
use crate::ui::ownership::Ownership;
use crate::ui::state::{Action, AppState, Outcome};

/// After each step of the apply lesson (that answers an object): the fields each manager
/// owns, as the table shows them. `None`: the step answers a Status, which has no table.
#[allow(clippy::type_complexity)]
const AFTER_STEP: &[Option<&[(&str, &[&str])]>] = &[
    Some(&[(
        "alice",
        &[
            ".data.replicas",
            ".metadata.labels.app",
            ".metadata.labels.env",
            ".metadata.labels.team",
            ".revision",
        ],
    )]),
    None,
    Some(&[
        (
            "alice",
            &[
                ".data.replicas",
                ".metadata.labels.app",
                ".metadata.labels.env",
                ".revision",
            ],
        ),
        ("bob", &[".metadata.labels.team"]),
    ]),
    None,
    Some(&[
        (
            "alice",
            &[".data.replicas", ".metadata.labels.app", ".revision"],
        ),
        ("bob", &[".metadata.labels.team"]),
    ]),
    Some(&[
        ("alice", &[".data.replicas", ".metadata.labels.app"]),
        ("bob", &[".metadata.labels.team"]),
        ("carol", &[".revision"]),
    ]),
    None,
    Some(&[
        ("alice", &[".data.replicas", ".metadata.labels.app"]),
        ("bob", &[".metadata.labels.team"]),
        ("carol", &[".revision"]),
    ]),
];

#[test]
fn the_apply_lesson_moves_ownership_as_it_says() {
    let lesson = lesson_data::find("apply").expect("the apply lesson");
    assert_eq!(lesson.steps.len(), AFTER_STEP.len());
    let mut state = Rc::new(AppState::new(false)).reduce(Action::StartLesson(lesson.id));
    for (i, want) in AFTER_STEP.iter().enumerate() {
        state = state.reduce(Action::Send);
        let Outcome::Answered(x, _) = &state.outcome else {
            panic!("step {}: not sent", i + 1)
        };
        let body = x.json().unwrap();
        let table = Ownership::of(&body);
        match want {
            None => {
                assert!(table.is_none(), "step {}: {}", i + 1, x.body);
                // The step's text quotes the real message.
                let msg = body["message"].as_str().unwrap();
                let expect = lesson.steps[i].expect;
                assert!(
                    expect.ends_with(msg),
                    "step {}: {msg:?} in {expect:?}",
                    i + 1
                );
            }
            Some(want) => {
                let table = table.unwrap_or_else(|| panic!("step {}: no table", i + 1));
                let managers: Vec<&str> = table.owners.iter().map(|o| o.manager.as_str()).collect();
                let want_managers: Vec<&str> = want.iter().map(|(m, _)| *m).collect();
                assert_eq!(managers, want_managers, "step {}", i + 1);
                for (m, fields) in *want {
                    assert_eq!(table.fields_of(m), *fields, "step {}: {m}", i + 1);
                }
            }
        }
        if i + 1 < AFTER_STEP.len() {
            state = state.reduce(Action::LessonGoto(i + 1));
        }
    }
    // What the last step's text says: the labels and revision as left by the three managers.
    let Outcome::Answered(x, _) = &state.outcome else {
        panic!()
    };
    let obj = x.json().unwrap();
    assert_eq!(
        obj["metadata"]["labels"],
        serde_json::json!({"app": "web", "team": "beta"})
    );
    assert_eq!(obj["revision"], 2);
    let t = Ownership::of(&obj).unwrap();
    assert_eq!(t.owners[2].label(), "carol (Update)");
    assert!(
        t.to_text().contains(".metadata.labels.team  bob (Apply)"),
        "{}",
        t.to_text()
    );
}

#[test]
fn shared_fields_list_every_owner_and_list_items_read_as_paths() {
    let obj = serde_json::json!({
        "metadata": {"managedFields": [
            {"manager": "a", "operation": "Apply", "apiVersion": "v1", "fieldsType": "FieldsV1",
             "fieldsV1": {"f:metadata": {"f:finalizers": {"v:\"x/y\"": {}},
                                         "f:labels": {"f:k": {}}}}},
            {"manager": "b", "operation": "Update", "apiVersion": "v1", "subresource": "status",
             "fieldsType": "FieldsV1",
             "fieldsV1": {"f:metadata": {"f:labels": {"f:k": {}},
                                         "f:ownerReferences": {"k:{\"uid\":\"u1\"}": {".": {}}}}}},
            {"manager": "c", "operation": "Update", "apiVersion": "v1",
             "fieldsType": "FieldsV1", "fieldsV1": {"f:bad": "not a map"}}
        ]}
    });
    let t = Ownership::of(&obj).unwrap();
    let rows: Vec<(&str, &[usize])> = t
        .rows
        .iter()
        .map(|r| (r.field.as_str(), r.owners.as_slice()))
        .collect();
    assert_eq!(
        rows,
        [
            (".metadata.finalizers[=\"x/y\"]", &[0][..]),
            (".metadata.labels.k", &[0, 1][..]),
            (".metadata.ownerReferences[uid=\"u1\"]", &[1][..]),
        ]
    );
    assert_eq!(t.owners[1].label(), "b (Update, status)");
    assert_eq!(t.owners.len(), 3, "an unreadable entry is still listed");
    assert!(Ownership::of(&serde_json::json!({"metadata": {"managedFields": []}})).is_none());
    assert!(Ownership::of(&serde_json::json!({"kind": "Status"})).is_none());
}
