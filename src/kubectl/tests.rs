//! Odd command lines and odd editor saves: each gets kubectl's kind of answer (an error
//! text and a non-zero exit, or output), never a panic.

// In the browser suite these are wasm-bindgen tests.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use super::Kubectl;
use crate::{Config, Engine};

const LINES: &[&str] = &[
    "kubectl",
    "kubectl -n",
    "kubectl get -o",
    "kubectl get cm -o jsonpath={",
    "kubectl get cm -o custom-columns=",
    "kubectl get cm --sort-by={",
    "kubectl get cm --sort-by=.data",
    "kubectl get cm --sort-by=.metadata.name -o yaml",
    "kubectl get 'cm,,ns'",
    "kubectl get cm/",
    "kubectl get /x",
    "kubectl get cm ünïcode",
    "kubectl get cm -L ''",
    "kubectl get cm -w -o custom-columns=A:.a",
    "kubectl explain ''",
    "kubectl explain cm..",
    "kubectl explain .",
    "kubectl explain cm.metadata.labels.x",
    "kubectl explain cm.metadata.managedFields.fieldsV1.x",
    "kubectl explain ns --recursive",
    "kubectl explain cm --api-version=x/y/z",
    "kubectl describe x/",
    "kubectl describe /x",
    "kubectl describe cm -l '!!'",
    "kubectl describe ns -A",
    "kubectl edit",
    "kubectl edit cm nope",
    "kubectl edit cm -o wide",
    "kubectl label",
    "kubectl label cm",
    "kubectl label cm x a=b=c",
    "kubectl annotate cm --all",
    "kubectl label cm --list -l '=='",
    "kubectl delete",
    "kubectl delete -l",
    "kubectl delete cm --grace-period=abc",
    "kubectl delete cm --all -A --dry-run=client",
    "kubectl create",
    "kubectl create cm",
    "kubectl create -f -",
    "kubectl create -f - <<EOF\n: : :\nEOF",
    "kubectl create -f - -o name --dry-run=client <<EOF\nkind: ConfigMap\nEOF",
    "kubectl apply -f - <<EOF\n[1, 2]\nEOF",
    "kubectl patch cm x -p '{'",
    "kubectl auth can-i",
    "kubectl auth can-i get /",
    "kubectl auth can-i --list --as ''",
    "kubectl config set-context",
    "kubectl config use-context",
    "kubectl config delete-context",
    "kubectl config get-contexts -o yaml",
    "kubectl version -o bogus",
    "kubectl api-resources -o bogus",
];

#[test]
fn odd_command_lines_get_answers_not_panics() {
    let mut engine = Engine::new(Config::default());
    let mut k = Kubectl::new();
    assert_eq!(
        k.run("kubectl create configmap x --from-literal=a=b", &mut engine)
            .exit,
        0
    );
    for line in LINES {
        let out = k.run(line, &mut engine);
        assert!(
            out.exit != 0 || !out.text().is_empty() || out.editing.is_some(),
            "{line}: no answer"
        );
    }
}

#[test]
fn odd_saves_in_the_editor_get_answers_not_panics() {
    let mut engine = Engine::new(Config::default());
    let mut k = Kubectl::new();
    assert_eq!(
        k.run("kubectl create configmap x --from-literal=a=b", &mut engine)
            .exit,
        0
    );
    for saved in [
        "",
        "{",
        "kind: List\nitems: [1]\n",
        "- a\n- b\n",
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x, uid: wrong}\n",
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x, namespace: other}\n",
        "apiVersion: v1\nkind: ConfigMap\nmetadata: 7\n",
    ] {
        let mut out = k.run("kubectl edit cm x", &mut engine);
        let mut rounds = 0;
        while let Some(editing) = out.editing.take() {
            rounds += 1;
            assert!(rounds < 4, "{saved:?}: the editor keeps reopening");
            out = k.finish_edit(editing, saved, &mut engine);
        }
        assert!(!out.text().is_empty(), "{saved:?}: no answer");
    }
}

#[test]
fn durations_print_as_go_prints_them() {
    use super::client::go_duration;
    let s = 1_000_000_000;
    for (ns, want) in [
        (0, "0s"),
        (5 * s, "5s"),
        (90 * s, "1m30s"),
        (3600 * s, "1h0m0s"),
        (3 * s / 2, "1.5s"),
        (s / 2, "500ms"),
        (1_500, "1.5µs"),
        (7, "7ns"),
        (-61 * s, "-1m1s"),
    ] {
        assert_eq!(go_duration(ns), want, "{ns}");
    }
}
