//! go-yaml v2 output cases (kubectl / kube-apiserver YAML as users see it).

use serde_json::json;

use super::emit::{to_vec, write_document, Node};

fn y(v: serde_json::Value) -> String {
    String::from_utf8(to_vec(&v)).unwrap()
}

#[test]
fn namespace_document() {
    let ns = json!({
        "kind": "Namespace", "apiVersion": "v1",
        "metadata": {"name": "default", "uid": "u-1", "resourceVersion": "1",
                     "creationTimestamp": "2026-01-01T00:00:00Z",
                     "labels": {"kubernetes.io/metadata.name": "default"}},
        "spec": {"finalizers": ["kubernetes"]},
        "status": {"phase": "Active"}
    });
    assert_eq!(
        y(ns),
        "apiVersion: v1\nkind: Namespace\nmetadata:\n  creationTimestamp: \"2026-01-01T00:00:00Z\"\n  labels:\n    kubernetes.io/metadata.name: default\n  name: default\n  resourceVersion: \"1\"\n  uid: u-1\nspec:\n  finalizers:\n  - kubernetes\nstatus:\n  phase: Active\n"
    );
}

#[test]
fn scalars_and_quoting() {
    let cases = [
        (json!({"a": "true"}), "a: \"true\"\n"),
        (json!({"a": "yes"}), "a: \"yes\"\n"),
        (json!({"a": "123"}), "a: \"123\"\n"),
        (json!({"a": ""}), "a: \"\"\n"),
        (json!({"a": "- x"}), "a: '- x'\n"),
        (json!({"a": "it's: ok"}), "a: 'it''s: ok'\n"),
        (json!({"a": " lead"}), "a: ' lead'\n"),
        (json!({"a": "tab\there"}), "a: \"tab\\there\"\n"),
        (json!({"a": "émoji 😀"}), "a: \"émoji \\U0001F600\"\n"),
        (json!({"a": "x#y"}), "a: x#y\n"),
        (json!({"a": "x #y"}), "a: 'x #y'\n"),
        (
            json!({"a": 1.5, "b": 1234567.5, "c": 7, "d": null, "e": false}),
            "a: 1.5\nb: 1.2345675e+06\nc: 7\nd: null\ne: false\n",
        ),
        (
            json!({"a": {}, "b": [], "c": [[]], "d": [{}]}),
            "a: {}\nb: []\nc:\n- []\nd:\n- {}\n",
        ),
        (json!({"": 1}), "\"\": 1\n"),
        (json!({"a b": 1, "x: y": 2}), "a b: 1\n'x: y': 2\n"),
        (json!({}), "{}\n"),
        (
            json!([1, [2, 3], {"k": "v", "l": [4]}]),
            "- 1\n- - 2\n  - 3\n- k: v\n  l:\n  - 4\n",
        ),
    ];
    for (v, want) in cases {
        assert_eq!(y(v.clone()), want, "{v}");
    }
}

#[test]
fn literal_blocks() {
    assert_eq!(y(json!({"s": "a\nb\n"})), "s: |\n  a\n  b\n");
    assert_eq!(y(json!({"s": "a\nb"})), "s: |-\n  a\n  b\n");
    assert_eq!(y(json!({"s": "a\n\n"})), "s: |+\n  a\n\n");
    assert_eq!(y(json!({"s": " a\nb"})), "s: |2-\n   a\n  b\n");
    assert_eq!(y(json!({"s": "a \nb"})), "s: \"a \\nb\"\n");
    assert_eq!(y(json!([{"s": "x\ny"}])), "- s: |-\n    x\n    y\n");
    // A multi-line key cannot be simple.
    assert_eq!(y(json!({"a\nb": 1})), "? |-\n  a\n  b\n: 1\n");
}

#[test]
fn long_strings_fold_at_80_columns() {
    let text = "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value";
    assert_eq!(
        y(json!({"description": text})),
        "description: APIVersion defines the versioned schema of this representation of an\n  object. Servers should convert recognized schemas to the latest internal value\n"
    );
    let quoted = format!("{text}: yes");
    assert_eq!(
        y(json!({"d": quoted})),
        "d: 'APIVersion defines the versioned schema of this representation of an object. Servers\n  should convert recognized schemas to the latest internal value: yes'\n"
    );
    // Keys never fold.
    let key = "k ".repeat(50);
    let out = y(json!({key.trim(): 1}));
    assert_eq!(out.lines().count(), 1, "{out}");
}

#[test]
fn typed_list_items_are_written_without_type_meta() {
    let items = vec![
        json!({"kind": "X", "apiVersion": "v1", "metadata": {"name": "a"}, "revision": 1}),
        json!({"kind": "X", "apiVersion": "v1", "metadata": {"name": "b"}, "revision": 2}),
    ];
    let kind = json!("XList");
    let api = json!("v1");
    let meta = json!({"resourceVersion": "7"});
    let entries = [
        ("kind", Node::Value(&kind)),
        ("apiVersion", Node::Value(&api)),
        ("metadata", Node::Value(&meta)),
        ("items", Node::Items(&items)),
    ];
    let out = String::from_utf8(write_document(Node::Map(&entries))).unwrap();
    assert_eq!(
        out,
        "apiVersion: v1\nitems:\n- metadata:\n    name: a\n  revision: 1\n- metadata:\n    name: b\n  revision: 2\nkind: XList\nmetadata:\n  resourceVersion: \"7\"\n"
    );
}
