//! Table-driven tests for [`super`]: expected texts follow apimachinery's messages and order.

use serde_json::{json, Map, Value};

use super::*;
use crate::resources::field::aggregate_messages;
use crate::resources::validation::names::validate_controller_revision_name;
use crate::resources::validation::names::{name_is_dns_label, name_is_dns_subdomain};

const SUB_RE: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_RE: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

fn obj(v: Value) -> Map<String, Value> {
    v.as_object().cloned().expect("object")
}

fn msgs(errs: &[FieldError]) -> Vec<String> {
    errs.iter().map(FieldError::message).collect()
}

#[test]
fn create_cases() {
    type Case = (
        &'static str,
        Value,
        bool,
        fn(&str, bool) -> Vec<String>,
        Vec<String>,
    );
    let cases: Vec<Case> = vec![
        ("valid", json!({"name": "x", "namespace": "default"}), true, name_is_dns_subdomain, vec![]),
        (
            "no name",
            json!({"namespace": "ns"}),
            true,
            name_is_dns_subdomain,
            vec!["metadata.name: Required value: name or generateName is required".into()],
        ),
        (
            "bad name",
            json!({"name": "Bad_Name", "namespace": "ns"}),
            true,
            name_is_dns_subdomain,
            vec![format!("metadata.name: Invalid value: \"Bad_Name\": {SUB_RE}")],
        ),
        (
            "long name",
            json!({"name": "a".repeat(254), "namespace": "ns"}),
            true,
            name_is_dns_subdomain,
            vec![format!(
                "metadata.name: Invalid value: \"{}\": must be no more than 253 characters",
                "a".repeat(254)
            )],
        ),
        (
            "generateName then name",
            json!({"generateName": "Bad-", "name": "Bad-x1z2q", "namespace": "ns"}),
            true,
            name_is_dns_subdomain,
            vec![
                format!("metadata.generateName: Invalid value: \"Bad-\": {SUB_RE}"),
                format!("metadata.name: Invalid value: \"Bad-x1z2q\": {SUB_RE}"),
            ],
        ),
        (
            "trailing dash prefix ok",
            json!({"generateName": "web-", "name": "web-x1z2q", "namespace": "ns"}),
            true,
            name_is_dns_subdomain,
            vec![],
        ),
        (
            "namespace required",
            json!({"name": "x", "namespace": ""}),
            true,
            name_is_dns_subdomain,
            vec!["metadata.namespace: Required value".into()],
        ),
        (
            "namespace dots",
            json!({"name": "x", "namespace": "a.b"}),
            true,
            name_is_dns_subdomain,
            vec!["metadata.namespace: Invalid value: \"a.b\": must not contain dots".into()],
        ),
        (
            "namespace forbidden",
            json!({"name": "x", "namespace": "ns"}),
            false,
            name_is_dns_label,
            vec!["metadata.namespace: Forbidden: not allowed on this type".into()],
        ),
        (
            "namespace name is a label",
            json!({"name": "My.Ns"}),
            false,
            name_is_dns_label,
            vec![format!("metadata.name: Invalid value: \"My.Ns\": {LABEL_RE}")],
        ),
        (
            "negative generation",
            json!({"name": "x", "namespace": "ns", "generation": -1}),
            true,
            name_is_dns_subdomain,
            vec!["metadata.generation: Invalid value: -1: must be greater than or equal to 0".into()],
        ),
        (
            "non-standard finalizer",
            json!({"name": "x", "namespace": "ns", "finalizers": ["kubernetes", "custom", "a.io/b"]}),
            true,
            name_is_dns_subdomain,
            vec!["metadata.finalizers[1]: Invalid value: \"custom\": name is neither a standard finalizer name nor is it fully qualified".into()],
        ),
    ];
    for (label, meta, namespaced, name_fn, want) in cases {
        let got = msgs(&validate_object_meta(&obj(meta), namespaced, &name_fn));
        assert_eq!(got, want, "case {label}");
    }
}

#[test]
fn create_order_across_fields() {
    let meta = obj(json!({
        "finalizers": ["orphan", "foregroundDeletion", "Bad Name"],
        "managedFields": [{"operation": "Nope", "manager": "m"}],
        "ownerReferences": [
            {"apiVersion": "v1", "kind": "A", "name": "a", "uid": "1", "controller": true},
            {"apiVersion": "v1", "kind": "B", "name": "b", "uid": "2", "controller": true}
        ],
        "annotations": {"a/b/c": "x"},
        "labels": {"k": "-v"},
        "generation": -2,
        "namespace": "",
        "name": "ok",
        "generateName": "-x-",
    }));
    let got = msgs(&validate_object_meta(&meta, true, &name_is_dns_subdomain));
    let fields: Vec<&str> = got.iter().map(|m| m.split(':').next().unwrap()).collect();
    assert_eq!(
        fields,
        vec![
            "metadata.generateName",
            "metadata.namespace",
            "metadata.generation",
            "metadata.labels",
            "metadata.annotations",
            "metadata.ownerReferences",
            "metadata.finalizers",
            "metadata.finalizers",
            "metadata.managedFields[0].operation",
            "metadata.finalizers[2]",
        ]
    );
    assert!(got[6]
        .starts_with("metadata.finalizers: Invalid value: \"Bad Name\": name part must consist"));
    assert_eq!(
        got[7],
        "metadata.finalizers: Invalid value: [\"orphan\",\"foregroundDeletion\",\"Bad Name\"]: finalizer orphan and foregroundDeletion cannot be both set"
    );
}

#[test]
fn spec_examples_aggregate() {
    let meta =
        obj(json!({"name": "x", "namespace": "ns", "annotations": {"k": "v".repeat(262_144)}}));
    let errs = validate_object_meta(&meta, true, &validate_controller_revision_name);
    assert_eq!(
        aggregate_messages(&errs),
        "metadata.annotations: Too long: may not be more than 262144 bytes"
    );
}

fn base() -> Value {
    json!({
        "name": "x", "namespace": "ns", "uid": "u1", "resourceVersion": "5",
        "creationTimestamp": "2024-01-01T00:00:00Z", "generation": 2,
    })
}

fn with(mut v: Value, patch: Value) -> Map<String, Value> {
    for (k, p) in patch.as_object().unwrap() {
        if p.is_null() {
            v.as_object_mut().unwrap().remove(k);
        } else {
            v[k] = p.clone();
        }
    }
    obj(v)
}

#[test]
fn update_cases() {
    let deleting =
        json!({"deletionTimestamp": "2024-02-01T00:00:00Z", "deletionGracePeriodSeconds": 0});
    let cases: Vec<(&str, Value, Value, Vec<&str>)> = vec![
        ("unchanged", json!({}), json!({}), vec![]),
        (
            "no resourceVersion",
            json!({"resourceVersion": null}),
            json!({}),
            vec!["metadata.resourceVersion: Invalid value: \"\": must be specified for an update"],
        ),
        (
            "generation decremented",
            json!({"generation": 1}),
            json!({}),
            vec!["metadata.generation: Invalid value: 1: must not be decremented"],
        ),
        (
            "name namespace uid",
            json!({"name": "b", "namespace": "other", "uid": "u2"}),
            json!({}),
            vec![
                "metadata.name: Invalid value: \"b\": field is immutable",
                "metadata.namespace: Invalid value: \"other\": field is immutable",
                "metadata.uid: Invalid value: \"u2\": field is immutable",
            ],
        ),
        ("same instant", json!({"creationTimestamp": "2024-01-01T01:00:00+01:00"}), json!({}), vec![]),
        (
            "creation changed",
            json!({"creationTimestamp": "2023-12-31T23:00:00-02:00"}),
            json!({}),
            vec!["metadata.creationTimestamp: Invalid value: \"2024-01-01T01:00:00Z\": field is immutable"],
        ),
        (
            "fraction differs",
            json!({"creationTimestamp": "2024-01-01T00:00:00.5Z"}),
            json!({}),
            vec!["metadata.creationTimestamp: Invalid value: \"2024-01-01T00:00:00Z\": field is immutable"],
        ),
        (
            "creation removed",
            json!({"creationTimestamp": null}),
            json!({}),
            vec!["metadata.creationTimestamp: Invalid value: null: field is immutable"],
        ),
        (
            "deletion set on live object",
            json!({"deletionTimestamp": "2024-03-01T00:00:00Z", "deletionGracePeriodSeconds": 30}),
            json!({}),
            vec![
                "metadata.deletionTimestamp: Invalid value: \"2024-03-01T00:00:00Z\": field is immutable",
                "metadata.deletionGracePeriodSeconds: Invalid value: 30: field is immutable",
            ],
        ),
        (
            "grace period dropped",
            deleting.clone(),
            json!({"deletionTimestamp": "2024-02-01T00:00:00Z", "deletionGracePeriodSeconds": 30}),
            vec!["metadata.deletionGracePeriodSeconds: Invalid value: 0: field is immutable"],
        ),
        (
            "no new finalizers while deleting",
            with(deleting.clone(), json!({"finalizers": ["a.io/x", "z.io/y", "custom"]})).into(),
            with(deleting.clone(), json!({"finalizers": ["a.io/x"]})).into(),
            vec![
                "metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{\"custom\", \"z.io/y\"}",
                "metadata.finalizers[2]: Invalid value: \"custom\": name is neither a standard finalizer name nor is it fully qualified",
            ],
        ),
        (
            "explicit zero deletionTimestamp is set",
            json!({"deletionTimestamp": "0001-01-01T00:00:00Z"}),
            json!({}),
            vec!["metadata.deletionTimestamp: Invalid value: null: field is immutable"],
        ),
        ("removing finalizers while deleting", deleting.clone(), with(deleting.clone(), json!({"finalizers": ["a.io/x"]})).into(), vec![]),
        (
            "labels checked, finalizer pair not",
            json!({"labels": {"k": "-v"}, "finalizers": ["orphan", "foregroundDeletion"]}),
            json!({}),
            vec!["metadata.labels: Invalid value: \"-v\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"],
        ),
    ];
    for (label, new_patch, old_patch, want) in cases {
        let new = with(base(), new_patch);
        let old = with(base(), old_patch);
        assert_eq!(
            msgs(&validate_object_meta_update(&new, &old)),
            want,
            "case {label}"
        );
    }
}

#[test]
fn generic_store_passes() {
    let meta = obj(json!({"name": ".", "namespace": "ns"}));
    assert_eq!(
        msgs(&validate_generic_create(&meta, true)),
        vec!["metadata.name: Invalid value: \".\": may not be '.'"]
    );
    let meta = obj(json!({"generateName": "a%/", "name": "a%/x", "namespace": "ns"}));
    assert_eq!(
        msgs(&validate_generic_create(&meta, true)),
        vec![
            "metadata.generateName: Invalid value: \"a%/\": may not contain '/'",
            "metadata.generateName: Invalid value: \"a%/\": may not contain '%'",
            "metadata.name: Invalid value: \"a%/x\": may not contain '/'",
            "metadata.name: Invalid value: \"a%/x\": may not contain '%'",
        ]
    );
    assert!(validate_generic_create(&obj(json!({"name": "Any_Case.ok"})), false).is_empty());
    // Update: the create-style pass on the new object, then the update rules.
    let old = with(base(), json!({}));
    let new = with(base(), json!({"name": "a%b", "generation": -1}));
    assert_eq!(
        msgs(&validate_common_fields_for_update(&new, &old, true)),
        vec![
            "metadata.name: Invalid value: \"a%b\": may not contain '%'",
            "metadata.generation: Invalid value: -1: must be greater than or equal to 0",
            "metadata.generation: Invalid value: -1: must not be decremented",
            "metadata.name: Invalid value: \"a%b\": field is immutable",
        ]
    );
}

#[test]
fn reset_system_fields() {
    let old = with(
        base(),
        json!({"deletionTimestamp": "2024-02-01T00:00:00Z", "deletionGracePeriodSeconds": 30}),
    );
    let mut new = obj(json!({
        "name": "x", "resourceVersion": "5", "generation": 9,
        "creationTimestamp": "2020-01-01T00:00:00Z",
    }));
    reset_update_system_fields(&mut new, &old);
    assert_eq!(
        Value::Object(new.clone()),
        json!({
            "name": "x", "resourceVersion": "5", "generation": 2,
            "creationTimestamp": "2024-01-01T00:00:00Z", "uid": "u1",
            "deletionTimestamp": "2024-02-01T00:00:00Z", "deletionGracePeriodSeconds": 30,
        })
    );
    let mut new =
        obj(json!({"name": "x", "uid": "u9", "deletionGracePeriodSeconds": 5, "generation": 3}));
    let live = obj(json!({"name": "x", "uid": "u1"}));
    reset_update_system_fields(&mut new, &live);
    assert_eq!(
        Value::Object(new),
        json!({"name": "x", "uid": "u9", "deletionGracePeriodSeconds": 5})
    );
}
