//! The field manager's rules, one scenario each, on ConfigMaps (`v1`, a granular `data` map)
//! and ControllerRevisions (`apps/v1`, free-form `data`).

use serde_json::{json, Value};

use super::*;
use crate::codec::json::to_compact_string;
use crate::resources::configmap::CONFIG_MAPS;
use crate::resources::CONTROLLER_REVISIONS;

const T0: &str = "2026-01-01T00:00:00Z";
const T1: &str = "2026-01-01T00:00:01Z";
const T2: &str = "2026-01-01T00:00:02Z";

fn cm_manager() -> FieldManager {
    FieldManager::new(&CONFIG_MAPS, "")
}

fn cm(data: Value) -> Value {
    json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "namespace": "default"}, "data": data})
}

/// A stored ConfigMap: the object as the registry keeps it (uid and all).
fn stored(mut obj: Value) -> Value {
    obj["metadata"]["uid"] = json!("u-1");
    obj["metadata"]["resourceVersion"] = json!("5");
    obj
}

fn as_map(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap()
}

/// `manager/operation: fieldsV1` for each entry, in order.
fn entries(obj: &Value) -> Vec<String> {
    obj["metadata"]["managedFields"]
        .as_array()
        .map(|es| {
            es.iter()
                .map(|e| {
                    format!(
                        "{}/{}: {}",
                        e["manager"].as_str().unwrap(),
                        e["operation"].as_str().unwrap(),
                        to_compact_string(&e["fieldsV1"])
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

fn create(obj: Value, manager: &str) -> Value {
    let out = cm_manager().update(None, as_map(obj), manager, T0);
    stored(Value::Object(out))
}

fn update(live: &Value, new: Value, manager: &str, now: &str) -> Value {
    Value::Object(cm_manager().update(Some(live), as_map(new), manager, now))
}

fn apply(live: Option<&Value>, cfg: Value, manager: &str, force: bool) -> Result<Value, ApiError> {
    cm_manager().apply(
        live,
        &cfg,
        &ApplyRequest {
            manager,
            force,
            now: T1,
        },
    )
}

#[test]
fn a_create_is_owned_by_its_manager_with_dot_for_new_maps() {
    let mut obj = cm(json!({"a": "1"}));
    obj["metadata"]["labels"] = json!({"app": "x"});
    let out = create(obj, "kubectl-create");
    assert_eq!(
        entries(&out),
        [
            r#"kubectl-create/Update: {"f:data":{".":{},"f:a":{}},"f:metadata":{"f:labels":{".":{},"f:app":{}}}}"#
        ]
    );
    let e = &out["metadata"]["managedFields"][0];
    assert_eq!(e["apiVersion"], "v1");
    assert_eq!(e["time"], T0);
    assert_eq!(e["fieldsType"], "FieldsV1");
    assert!(e.get("subresource").is_none());
}

#[test]
fn an_update_takes_what_it_changes_from_other_managers() {
    let live = create(cm(json!({"a": "1", "b": "2"})), "alice");
    let mut new = live.clone();
    new["data"]["a"] = json!("changed");
    new["data"]["c"] = json!("3");
    let out = update(&live, new, "bob", T1);
    assert_eq!(
        entries(&out),
        [
            r#"alice/Update: {"f:data":{".":{},"f:b":{}}}"#,
            r#"bob/Update: {"f:data":{"f:a":{},"f:c":{}}}"#,
        ]
    );
    // Removing a field removes it from its owner; an owner left with nothing disappears.
    let mut gone = out.clone();
    gone["data"].as_object_mut().unwrap().remove("b");
    let out = update(&out, gone, "carol", T2);
    assert_eq!(
        entries(&out),
        [
            // Alice still owns the map itself: a member without children is a leaf.
            r#"alice/Update: {"f:data":{}}"#,
            r#"bob/Update: {"f:data":{"f:a":{},"f:c":{}}}"#,
        ]
    );
}

#[test]
fn an_update_that_changes_nothing_leaves_entries_and_times_alone() {
    let live = create(cm(json!({"a": "1"})), "alice");
    let out = update(&live, live.clone(), "bob", T2);
    assert_eq!(
        out["metadata"]["managedFields"],
        live["metadata"]["managedFields"]
    );
    // The same manager changing again merges into its entry and refreshes its time.
    let mut new = live.clone();
    new["data"]["b"] = json!("2");
    let out = update(&live, new, "alice", T2);
    assert_eq!(
        entries(&out),
        [r#"alice/Update: {"f:data":{".":{},"f:a":{},"f:b":{}}}"#]
    );
    assert_eq!(out["metadata"]["managedFields"][0]["time"], T2);
}

#[test]
fn request_managed_fields_keep_reset_or_replace() {
    let live = create(cm(json!({"a": "1"})), "alice");
    // Omitted (or null): the live entries stay.
    let mut new = live.clone();
    new["metadata"]
        .as_object_mut()
        .unwrap()
        .remove("managedFields");
    assert_eq!(entries(&update(&live, new, "bob", T1)), entries(&live));
    // `[]` and `[{}]`: tracking stops, and updates of an untracked object add nothing.
    for reset in [json!([]), json!([{}])] {
        let mut new = live.clone();
        new["metadata"]["managedFields"] = reset;
        new["data"]["z"] = json!("9");
        let out = update(&live, new, "bob", T1);
        assert!(out["metadata"].get("managedFields").is_none(), "{out}");
    }
    // Any other value replaces them.
    let mut new = live.clone();
    new["metadata"]["managedFields"] = json!([{"manager": "other", "operation": "Update", "apiVersion": "v1", "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {"f:a": {}}}}]);
    assert_eq!(
        entries(&update(&live, new, "bob", T1)),
        [r#"other/Update: {"f:data":{"f:a":{}}}"#]
    );
    // Unreadable ones are ignored in favour of the live entries.
    let mut new = live.clone();
    new["metadata"]["managedFields"] = json!([{"manager": "x", "operation": "Bogus", "apiVersion": "v1", "fieldsType": "FieldsV1"}]);
    assert_eq!(entries(&update(&live, new, "bob", T1)), entries(&live));
}

#[test]
fn an_apply_creates_and_owns_exactly_its_configuration() {
    let out = apply(None, cm(json!({"a": "1"})), "mgr", false).unwrap();
    assert_eq!(entries(&out), [r#"mgr/Apply: {"f:data":{"f:a":{}}}"#]);
    assert_eq!(out["metadata"]["managedFields"][0]["time"], T1);
    assert_eq!(out["data"], json!({"a": "1"}));
}

#[test]
fn a_change_to_another_managers_field_conflicts_unless_forced() {
    let live = create(cm(json!({"a": "1", "b": "2"})), "alice");
    let err = apply(Some(&live), cm(json!({"a": "x"})), "mgr", false).unwrap_err();
    assert_eq!(err.code, 409);
    assert_eq!(err.reason, "Conflict");
    assert_eq!(
        err.message,
        r#"Apply failed with 1 conflict: conflict with "alice" using v1: .data.a"#
    );
    let status = err.to_status();
    assert_eq!(
        status["details"],
        json!({"causes": [{"reason": "FieldManagerConflict", "message": "conflict with \"alice\" using v1", "field": ".data.a"}]})
    );
    // Several fields and managers: one block per manager, paths in order.
    let mut two = update(&live, cm(json!({"a": "1", "b": "2", "c": "3"})), "bob", T1);
    two = stored(two);
    let err = apply(
        Some(&two),
        cm(json!({"a": "x", "b": "y", "c": "z"})),
        "mgr",
        false,
    )
    .unwrap_err();
    assert_eq!(
        err.message,
        "Apply failed with 3 conflicts: conflicts with \"alice\" using v1:\n- .data.a\n- .data.b\nconflicts with \"bob\" using v1:\n- .data.c"
    );
    // Forced: the applier takes the fields over.
    let out = apply(Some(&live), cm(json!({"a": "x"})), "mgr", true).unwrap();
    assert_eq!(
        entries(&out),
        [
            r#"mgr/Apply: {"f:data":{"f:a":{}}}"#,
            r#"alice/Update: {"f:data":{".":{},"f:b":{}}}"#,
        ]
    );
    assert_eq!(out["data"], json!({"a": "x", "b": "2"}));
}

#[test]
fn equal_values_are_shared_not_conflicting() {
    let live = create(cm(json!({"a": "1"})), "alice");
    let out = apply(Some(&live), cm(json!({"a": "1"})), "mgr", false).unwrap();
    assert_eq!(
        entries(&out),
        [
            r#"mgr/Apply: {"f:data":{"f:a":{}}}"#,
            r#"alice/Update: {"f:data":{".":{},"f:a":{}}}"#,
        ]
    );
    // The object did not change, so the new entry has no time.
    assert!(out["metadata"]["managedFields"][0].get("time").is_none());
}

#[test]
fn fields_dropped_from_a_configuration_go_unless_someone_else_owns_them() {
    let first = stored(apply(None, cm(json!({"a": "1", "b": "2"})), "mgr", false).unwrap());
    let out = apply(Some(&first), cm(json!({"a": "1"})), "mgr", false).unwrap();
    assert_eq!(out["data"], json!({"a": "1"}));
    assert_eq!(entries(&out), [r#"mgr/Apply: {"f:data":{"f:a":{}}}"#]);
    // Another applier sharing `b` keeps it alive.
    let shared = stored(apply(Some(&first), cm(json!({"b": "2"})), "other", false).unwrap());
    let out = apply(Some(&shared), cm(json!({"a": "1"})), "mgr", false).unwrap();
    assert_eq!(out["data"], json!({"a": "1", "b": "2"}));
}

#[test]
fn reapplying_the_same_configuration_changes_nothing() {
    let first = stored(apply(None, cm(json!({"a": "1"})), "mgr", false).unwrap());
    let again = apply(Some(&first), cm(json!({"a": "1"})), "mgr", false).unwrap();
    assert_eq!(again, first);
}

#[test]
fn an_untracked_object_gets_a_before_first_apply_entry() {
    let live = stored(cm(json!({"a": "1", "b": "2"})));
    let err = apply(Some(&live), cm(json!({"a": "x"})), "mgr", false).unwrap_err();
    assert_eq!(
        err.message,
        r#"Apply failed with 1 conflict: conflict with "before-first-apply" using v1: .data.a"#
    );
    let out = apply(Some(&live), cm(json!({"c": "3"})), "mgr", false).unwrap();
    assert_eq!(
        entries(&out),
        [
            r#"mgr/Apply: {"f:data":{"f:c":{}}}"#,
            r#"before-first-apply/Update: {"f:data":{".":{},"f:a":{},"f:b":{}}}"#,
        ]
    );
}

#[test]
fn bad_configurations_are_refused_as_the_real_server_does() {
    let cases: &[(Value, u16, &str)] = &[
        (
            json!({"apiVersion": "v2", "kind": "ConfigMap", "metadata": {"name": "c"}}),
            400,
            "invalid object type: /v2, Kind=ConfigMap",
        ),
        (json!({}), 400, "invalid object type: /, Kind="),
        (
            json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "managedFields": []}}),
            400,
            "metadata.managedFields must be nil",
        ),
        (
            json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "namespace": "default"}, "foo": 1}),
            500,
            "failed to create typed patch object (default/c; /v1, Kind=ConfigMap): .foo: field not declared in schema",
        ),
        (
            json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "finalizers": ["a", "a"]}}),
            500,
            "failed to create typed patch object (/c; /v1, Kind=ConfigMap): .metadata.finalizers: duplicate entries for key [=\"a\"]",
        ),
    ];
    for (cfg, code, msg) in cases {
        let err = apply(None, cfg.clone(), "mgr", false).unwrap_err();
        assert_eq!((err.code, err.message.as_str()), (*code, *msg), "{cfg}");
    }
    // `managedFields: null` is allowed.
    let mut cfg = cm(json!({"a": "1"}));
    cfg["metadata"]["managedFields"] = Value::Null;
    assert!(apply(None, cfg, "mgr", false).is_ok());
}

#[test]
fn kubectl_takes_over_what_client_side_apply_last_set() {
    let last = r#"{"apiVersion":"v1","data":{"a":"1"},"kind":"ConfigMap","metadata":{"annotations":{},"name":"c","namespace":"default"}}"#;
    let mut obj = cm(json!({"a": "1"}));
    obj["metadata"]["annotations"] = json!({LAST_APPLIED: last});
    let live = create(obj, "kubectl-client-side-apply");
    let mut cfg = cm(json!({"a": "2"}));
    cfg["metadata"]["annotations"] = json!({});
    // Another manager would conflict...
    assert_eq!(
        apply(Some(&live), cfg.clone(), "other", false)
            .unwrap_err()
            .code,
        409
    );
    // ...kubectl may take over, and keeps the annotation current.
    let out = apply(Some(&live), cfg, "kubectl", false).unwrap();
    assert_eq!(out["data"]["a"], "2");
    assert_eq!(
        out["metadata"]["annotations"][LAST_APPLIED],
        "{\"apiVersion\":\"v1\",\"data\":{\"a\":\"2\"},\"kind\":\"ConfigMap\",\"metadata\":{\"annotations\":{},\"name\":\"c\",\"namespace\":\"default\"}}\n"
    );
}

#[test]
fn past_ten_update_entries_the_oldest_merge_into_ancient_changes() {
    let mut live = create(cm(json!({"k0": "v"})), "m00");
    for i in 1..=11 {
        let mut new = live.clone();
        new["data"][format!("k{i}")] = json!("v");
        let now = format!("2026-01-01T00:00:{i:02}Z");
        live = stored(update(&live, new, &format!("m{i:02}"), &now));
    }
    let names: Vec<String> = entries(&live)
        .iter()
        .map(|e| e.split('/').next().unwrap().to_string())
        .collect();
    assert_eq!(names.len(), 10);
    assert!(names.contains(&"ancient-changes".to_string()), "{names:?}");
    assert!(!names.contains(&"m00".to_string()) && !names.contains(&"m01".to_string()));
}

#[test]
fn controller_revision_data_is_tracked_granularly_from_a_null_start() {
    let fm = FieldManager::new(&CONTROLLER_REVISIONS, "");
    let obj = json!({"apiVersion": "apps/v1", "kind": "ControllerRevision", "metadata": {"name": "r"}, "data": {"spec": {"replicas": 1}, "l": [1]}, "revision": 1});
    let out = Value::Object(fm.update(None, as_map(obj), "m", T0));
    assert_eq!(
        entries(&out),
        [r#"m/Update: {"f:data":{"f:l":{},"f:spec":{".":{},"f:replicas":{}}},"f:revision":{}}"#]
    );
}
