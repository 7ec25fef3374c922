//! The terminal pane through the reducer: a command's output and requests, `-v=6` request
//! lines opened in the builder, a `get -w` printing a row when the builder writes and ending
//! with Ctrl+C, the history under the arrow keys, and Tab completion.

// In the browser suite these are wasm-bindgen tests.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use std::rc::Rc;

use super::{draft, Reduce};
use crate::ui::state::{Action, AppState};

fn last_text(state: &AppState) -> String {
    state
        .terminal
        .borrow()
        .entries
        .last()
        .map(|e| e.text())
        .unwrap_or_default()
}

#[test]
fn a_command_prints_what_kubectl_prints_and_its_requests_open_in_the_builder() {
    let state = Rc::new(AppState::new(false));
    let state = state.reduce(Action::TermRun("kubectl get ns -v=6".into()));
    let text = last_text(&state);
    assert!(
        text.contains("NAME          STATUS   AGE\ndefault       Active   0s\n"),
        "{text}"
    );
    assert!(
        text.contains(
            "round_trippers.go:560] GET https://kubesim.local/api/v1/namespaces?limit=500 200 OK"
        ),
        "{text}"
    );
    let (id, sent) = {
        let t = state.terminal.borrow();
        let e = t.entries.last().unwrap();
        (e.id, e.sent.len())
    };
    // Discovery (/api, /apis) and the list.
    assert_eq!(sent, 3);
    let state = state.reduce(Action::TermOpen(id, 2));
    assert_eq!(state.draft.method, "GET");
    assert_eq!(state.draft.path, "/api/v1/namespaces?limit=500");
    assert!(state
        .draft
        .headers
        .contains("Accept: application/json;as=Table;v=v1;g=meta.k8s.io"));
    let state = state.reduce(Action::TermRun("kubectl get nosuch".into()));
    assert_eq!(
        last_text(&state),
        "error: the server doesn't have a resource type \"nosuch\"\n"
    );
}

#[test]
fn get_w_prints_a_row_for_a_write_and_ctrl_c_ends_it() {
    let state = Rc::new(AppState::new(false));
    let state = state.reduce(Action::TermRun("kubectl get cm -w".into()));
    assert!(state.terminal.borrow().watching());
    let body =
        r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"live"},"data":{"a":"1"}}"#;
    let state = state
        .reduce(Action::LoadAndSend(draft(
            "POST",
            "/api/v1/namespaces/default/configmaps",
            "",
            body,
        )))
        .reduce(Action::Poll)
        .reduce(Action::Poll);
    let text = last_text(&state);
    assert!(
        text.contains("NAME   DATA   AGE\nlive   1      0s\n"),
        "{text}"
    );
    let state = state.reduce(Action::TermInterrupt);
    assert!(!state.terminal.borrow().watching());
    assert!(last_text(&state).ends_with("^C\n"));
}

#[test]
fn history_and_completion() {
    let state = Rc::new(AppState::new(false));
    let state = state
        .reduce(Action::TermRun("kubectl get ns".into()))
        .reduce(Action::TermRun("kubectl api-versions".into()));
    {
        let mut t = state.terminal.borrow_mut();
        assert_eq!(t.history_up("kub").as_deref(), Some("kubectl api-versions"));
        assert_eq!(t.history_up("").as_deref(), Some("kubectl get ns"));
        assert_eq!(t.history_up("").as_deref(), Some("kubectl get ns"));
        assert_eq!(t.history_down().as_deref(), Some("kubectl api-versions"));
        assert_eq!(t.history_down().as_deref(), Some("kub"));
    }
    let resources = state.sim.borrow().resources.clone();
    let sim = state.sim.clone();
    let t = state.terminal.borrow();
    let names = |r: &crate::ui::discovery::ApiResource| {
        crate::ui::terminal::object_names(&mut sim.borrow_mut().engine, r, "default")
    };
    assert_eq!(
        t.complete("kubectl ge", &resources, names).line,
        "kubectl get "
    );
    assert_eq!(
        t.complete("kubectl get configm", &resources, names).line,
        "kubectl get configmaps "
    );
    let namespaces = resources.iter().find(|r| r.name == "namespaces").unwrap();
    let kube: Vec<String> =
        crate::ui::terminal::object_names(&mut sim.borrow_mut().engine, namespaces, "")
            .into_iter()
            .filter(|n| n.starts_with("kube-"))
            .collect();
    assert!(kube.len() >= 2, "{kube:?}");
    let done = t.complete("kubectl get namespaces kube-", &resources, names);
    assert_eq!(done.line, "kubectl get namespaces kube-");
    assert_eq!(done.choices, kube);
    assert_eq!(
        t.complete("kubectl get cm --show-l", &resources, names)
            .line,
        "kubectl get cm --show-labels "
    );
    assert!(crate::ui::terminal::complete_line("kubectl get ns"));
    assert!(!crate::ui::terminal::complete_line(
        "kubectl apply -f - <<EOF\nkind: X"
    ));
    assert!(crate::ui::terminal::complete_line(
        "kubectl apply -f - <<EOF\nkind: X\nEOF"
    ));
}

#[test]
fn the_kubectl_lesson_shows_what_its_steps_say() {
    let lesson = crate::ui::lesson_data::find("kubectl").expect("the lesson");
    let mut state = Rc::new(AppState::new(false)).reduce(Action::StartLesson("kubectl"));
    let mut printed = Vec::new();
    for i in 0..lesson.steps.len() {
        state = state.reduce(Action::Send).reduce(Action::Poll);
        printed.push(last_text(&state));
        if i + 1 < lesson.steps.len() {
            state = state.reduce(Action::LessonGoto(i + 1));
        }
    }
    assert_eq!(
        printed[0],
        "configmap/app-1 created\nconfigmap/app-2 created\nconfigmap/app-3 created\n"
    );
    let chunked = &printed[1];
    assert_eq!(
        chunked.matches("configmaps?limit=1 200 OK").count(),
        1,
        "{chunked}"
    );
    assert_eq!(
        chunked.matches("configmaps?continue=").count(),
        2,
        "{chunked}"
    );
    assert_eq!(chunked.matches("NAME").count(), 1, "{chunked}");
    assert!(!chunked.contains("watch=true"));
    // The watch of step 4 printed app-4's row when step 5 created it (step 5 is a builder
    // step, so the terminal's last entry is still the watch).
    let watched = &printed[4];
    assert!(watched.contains("&watch=true 200 OK"), "{watched}");
    assert!(watched.contains("\napp-4 "), "{watched}");
    assert!(
        printed[5].contains("kubectl-client-side-apply"),
        "{}",
        printed[5]
    );
    assert!(printed[6].contains("PATCH https://kubesim.local/api/v1/namespaces/default/configmaps/app-6?fieldManager=kubectl&fieldValidation=Strict&force=false 201 Created"), "{}", printed[6]);
}

#[test]
fn delete_waits_for_a_terminating_namespace_to_be_gone() {
    let state = Rc::new(AppState::new(false))
        .reduce(Action::TermRun("kubectl create namespace gone".into()))
        .reduce(Action::TermRun("kubectl delete namespace gone".into()));
    assert_eq!(last_text(&state), "namespace \"gone\" deleted\n");
    // kubectl blocks until the namespace controller has finalized it.
    assert!(state.terminal.borrow().watching());
    let mut state = state;
    for _ in 0..4 {
        state = state.reduce(Action::Advance(10_000)).reduce(Action::Poll);
    }
    assert!(!state.terminal.borrow().watching(), "{}", last_text(&state));
    let entry = state.terminal.borrow().entries.last().cloned().unwrap();
    assert!(!entry.running);
    assert_eq!(entry.exit, 0);
}

#[test]
fn edit_waits_for_the_editor_and_patches_what_was_saved() {
    let state = Rc::new(AppState::new(false))
        .reduce(Action::TermRun(
            "kubectl create configmap conf --from-literal=k=v".into(),
        ))
        .reduce(Action::TermRun("kubectl edit cm conf".into()));
    let (file, text) = {
        let t = state.terminal.borrow();
        let (file, text) = t.editing().expect("the editor is open");
        (file.to_string(), text.to_string())
    };
    assert_eq!(file, "/tmp/kubectl-edit-1.yaml");
    assert!(
        text.starts_with("# Please edit the object below."),
        "{text}"
    );
    assert!(text.contains("data:\n  k: v\n"), "{text}");
    assert!(state.terminal.borrow().entries.last().unwrap().running);
    // Quitting without saving changes nothing.
    let state = state.reduce(Action::TermEditClose(false));
    assert_eq!(last_text(&state), "Edit cancelled, no changes made.\n");
    assert!(state.terminal.borrow().editing().is_none());
    // An Invalid reopens the editor with the causes; a fixed save goes through.
    let state = state.reduce(Action::TermRun("kubectl edit cm conf".into()));
    let text = state.terminal.borrow().editing().unwrap().1.to_string();
    state
        .terminal
        .borrow_mut()
        .set_edit_text(text.replace("  k: v", "  bad key: v"));
    let state = state.reduce(Action::TermEditClose(true));
    let reopened = state.terminal.borrow().editing().unwrap().1.to_string();
    assert!(
        reopened.contains(
            "# configmaps \"conf\" was not valid:\n# * data[bad key]: Invalid value: \"bad key\""
        ),
        "{reopened}"
    );
    assert!(last_text(&state).contains("error: configmaps \"conf\" is invalid\n"));
    state
        .terminal
        .borrow_mut()
        .set_edit_text(reopened.replace("  bad key: v", "  k: fixed"));
    let state = state.reduce(Action::TermEditClose(true));
    assert!(
        last_text(&state).ends_with("configmap/conf edited\n"),
        "{}",
        last_text(&state)
    );
    let state = state.reduce(Action::TermRun(
        "kubectl get cm conf -o jsonpath={.data.k}".into(),
    ));
    assert_eq!(last_text(&state), "fixed");
    // Ctrl+C leaves an open editor as it leaves a watch.
    let state = state
        .reduce(Action::TermRun("kubectl edit cm conf".into()))
        .reduce(Action::TermInterrupt);
    assert!(state.terminal.borrow().editing().is_none());
    assert!(last_text(&state).ends_with("^C\n"));
}
