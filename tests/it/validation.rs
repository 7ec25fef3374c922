//! ControllerRevision validation (reference §10): one row per rule, each answered with the
//! real server's 422 message, aggregated as `[a, b]` when several fail, with one
//! `details.causes` entry per field error.

use crate::common::*;
use serde_json::{json, Value};

const DNS_SUBDOMAIN: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

fn body_with(f: impl FnOnce(&mut Value)) -> Value {
    let mut b = cr_body("x", 1);
    f(&mut b);
    b
}

/// Expected `details.causes`: (reason, message or "" to skip, field).
type Causes = Vec<(&'static str, &'static str, &'static str)>;

#[test]
fn create_validation_table() {
    let rows: Vec<(&str, Value, String, Causes)> = vec![
        (
            "missing data",
            body_with(|b| {
                b.as_object_mut().unwrap().remove("data");
            }),
            "ControllerRevision.apps \"x\" is invalid: data: Required value: data is mandatory".into(),
            vec![("FieldValueRequired", "Required value: data is mandatory", "data")],
        ),
        (
            "null data",
            body_with(|b| b["data"] = Value::Null),
            "ControllerRevision.apps \"x\" is invalid: data: Required value: data is mandatory".into(),
            vec![("FieldValueRequired", "Required value: data is mandatory", "data")],
        ),
        (
            "data not an object",
            body_with(|b| b["data"] = json!([1, 2])),
            "ControllerRevision.apps \"x\" is invalid: data: Required value: data must be a valid JSON object".into(),
            vec![("FieldValueRequired", "Required value: data must be a valid JSON object", "data")],
        ),
        (
            "negative revision",
            body_with(|b| b["revision"] = json!(-1)),
            "ControllerRevision.apps \"x\" is invalid: revision: Invalid value: -1: must be greater than or equal to 0".into(),
            vec![("FieldValueInvalid", "Invalid value: -1: must be greater than or equal to 0", "revision")],
        ),
        (
            "missing revision (spec rule)",
            body_with(|b| {
                b.as_object_mut().unwrap().remove("revision");
            }),
            "ControllerRevision.apps \"x\" is invalid: revision: Required value".into(),
            vec![("FieldValueRequired", "Required value", "revision")],
        ),
        (
            "bad name",
            body_with(|b| b["metadata"]["name"] = json!("Bad_Name")),
            format!("ControllerRevision.apps \"Bad_Name\" is invalid: metadata.name: Invalid value: \"Bad_Name\": {DNS_SUBDOMAIN}"),
            vec![("FieldValueInvalid", "", "metadata.name")],
        ),
        (
            "no name",
            body_with(|b| b["metadata"] = json!({})),
            "ControllerRevision.apps \"\" is invalid: metadata.name: Required value: name or generateName is required".into(),
            vec![("FieldValueRequired", "Required value: name or generateName is required", "metadata.name")],
        ),
        (
            "name too long",
            body_with(|b| b["metadata"]["name"] = json!("a".repeat(254))),
            format!("ControllerRevision.apps \"{}\" is invalid: metadata.name: Invalid value: \"{}\": must be no more than 253 characters", "a".repeat(254), "a".repeat(254)),
            vec![("FieldValueInvalid", "", "metadata.name")],
        ),
        (
            "several errors",
            body_with(|b| {
                b["revision"] = json!(-2);
                b.as_object_mut().unwrap().remove("data");
            }),
            // `ValidateControllerRevisionCreate`: the shared checks (revision), then data.
            "ControllerRevision.apps \"x\" is invalid: [revision: Invalid value: -2: must be greater than or equal to 0, data: Required value: data is mandatory]".into(),
            vec![
                ("FieldValueInvalid", "Invalid value: -2: must be greater than or equal to 0", "revision"),
                ("FieldValueRequired", "Required value: data is mandatory", "data"),
            ],
        ),
        (
            "bad label value",
            body_with(|b| b["metadata"]["labels"] = json!({"app": "not ok"})),
            "ControllerRevision.apps \"x\" is invalid: metadata.labels: Invalid value: \"not ok\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')".into(),
            vec![("FieldValueInvalid", "", "metadata.labels")],
        ),
        (
            "orphan and foreground finalizers together",
            body_with(|b| b["metadata"]["finalizers"] = json!(["orphan", "foregroundDeletion"])),
            "ControllerRevision.apps \"x\" is invalid: metadata.finalizers: Invalid value: [\"orphan\",\"foregroundDeletion\"]: finalizer orphan and foregroundDeletion cannot be both set".into(),
            vec![("FieldValueInvalid", "", "metadata.finalizers")],
        ),
    ];
    for (what, body, message, causes) in rows {
        let mut e = engine();
        let r = post(&mut e, &crs("default"), &body);
        assert_eq!(r.code, 422, "{what}: {}", r.text);
        assert_eq!(r.reason(), "Invalid", "{what}");
        assert_eq!(r.message(), message, "{what}");
        assert_eq!(r.json["details"]["kind"], "ControllerRevision", "{what}");
        assert_eq!(r.json["details"]["group"], "apps", "{what}");
        let got = r.json["details"]["causes"].as_array().unwrap();
        assert_eq!(got.len(), causes.len(), "{what}: {got:?}");
        for (c, (reason, msg, field)) in got.iter().zip(causes) {
            assert_eq!(c["reason"], reason, "{what}");
            assert_eq!(c["field"], field, "{what}");
            if !msg.is_empty() {
                assert_eq!(c["message"], msg, "{what}");
            }
        }
    }
}

#[test]
fn data_is_immutable_revision_is_not() {
    let mut e = engine();
    let c = create_cr(&mut e, "default", &cr_body("x", 1));
    let mut changed = c.clone();
    changed["data"] = json!({"a": "b"});
    let r = put(&mut e, &cr("default", "x"), &changed);
    assert_eq!(r.code, 422);
    assert_eq!(
        r.message(),
        "ControllerRevision.apps \"x\" is invalid: data: Invalid value: {\"a\":\"b\"}: field is immutable"
    );
    let mut rev = c.clone();
    rev["revision"] = json!(9);
    assert_eq!(put(&mut e, &cr("default", "x"), &rev).code, 200);
}

/// `data` is kept as the client's bytes and compared byte for byte (appendix B).
#[test]
fn data_immutability_compares_the_stored_bytes() {
    let mut e = engine();
    let body = |name: &str, data: &str, extra: &str| {
        format!(
            r#"{{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{{"name":"{name}"{extra}}},"data":{data},"revision":1}}"#
        )
    };
    let send_json = |e: &mut kubesim::Engine, method: &str, uri: &str, b: &str| {
        send(
            e,
            method,
            uri,
            Some(b),
            &[("content-type", "application/json")],
        )
    };
    let create = |e: &mut kubesim::Engine, name: &str, data: &str| {
        let r = send_json(e, "POST", &crs("default"), &body(name, data, ""));
        assert_eq!(r.code, 201, "{}", r.text);
    };
    let replace = |e: &mut kubesim::Engine, name: &str, data: &str, extra: &str| {
        send_json(e, "PUT", &cr("default", name), &body(name, data, extra))
    };
    let immutable = |name: &str, shown: &str| {
        format!("ControllerRevision.apps \"{name}\" is invalid: data: Invalid value: {shown}: field is immutable")
    };
    // Stored compact: the same JSON with other whitespace is a change.
    create(&mut e, "c", r#"{"a":1}"#);
    let r = replace(&mut e, "c", r#"{"a" : 1}"#, "");
    assert_eq!(r.code, 422, "{}", r.text);
    assert_eq!(r.message(), immutable("c", r#"{"a":1}"#));
    // A merge patch re-encodes the object compactly: repeating the data passes.
    let r = send(
        &mut e,
        "PATCH",
        &cr("default", "c"),
        Some(r#"{"data":{"a":1}}"#),
        &[("content-type", "application/merge-patch+json")],
    );
    assert_eq!(r.code, 200, "{}", r.text);
    // Stored with spaces: the same bytes pass (a label changes), compact ones do not.
    create(&mut e, "s", r#"{"a" : 1}"#);
    let r = replace(&mut e, "s", r#"{"a" : 1}"#, r#","labels":{"x":"y"}"#);
    assert_eq!(r.code, 200, "{}", r.text);
    assert_eq!(r.json["data"], json!({"a": 1}), "served compact");
    let r = replace(&mut e, "s", r#"{"a":1}"#, "");
    assert_eq!(r.code, 422, "{}", r.text);
    assert_eq!(r.message(), immutable("s", r#"{"a":1}"#));
    // Bytes, not numbers: `1.0` repeated passes, `1` for it does not.
    create(&mut e, "f", r#"{"a":1.0}"#);
    assert_eq!(replace(&mut e, "f", r#"{"a":1.0}"#, "").code, 200);
    let r = replace(&mut e, "f", r#"{"a":1}"#, "");
    assert_eq!(
        (r.code, r.message()),
        (422, immutable("f", r#"{"a":1}"#).as_str())
    );
    // A PUT without data: only the immutable change, not "data is mandatory".
    let r = send_json(
        &mut e,
        "PUT",
        &cr("default", "c"),
        r#"{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"c"},"revision":1}"#,
    );
    assert_eq!(r.code, 422, "{}", r.text);
    assert_eq!(
        r.message(),
        "ControllerRevision.apps \"c\" is invalid: data: Invalid value: null: field is immutable"
    );
}

#[test]
fn metadata_immutability_on_update() {
    let mut e = engine();
    let c = create_cr(&mut e, "default", &cr_body("x", 1));
    let uid = c["metadata"]["uid"].as_str().unwrap().to_string();
    let mut changed = c.clone();
    changed["metadata"]["uid"] = json!("00000000-0000-0000-0000-000000000000");
    // On PUT a uid is a storage precondition: 409 before validation.
    let r = put(&mut e, &cr("default", "x"), &changed);
    assert_eq!(r.code, 409, "{}", r.text);
    assert_eq!(
        r.message(),
        format!("Operation cannot be fulfilled on controllerrevisions.apps \"x\": StorageError: invalid object, Code: 4, Key: /registry/controllerrevisions/default/x, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: 00000000-0000-0000-0000-000000000000, UID in object meta: {uid}")
    );
    assert_eq!(r.json["details"]["kind"], "controllerrevisions");
    // A patch has no precondition: the change is refused by validation.
    let r = send(
        &mut e,
        "PATCH",
        &cr("default", "x"),
        Some(r#"{"metadata":{"uid":"00000000-0000-0000-0000-000000000000"}}"#),
        &[("content-type", "application/merge-patch+json")],
    );
    assert_eq!(r.code, 422, "{}", r.text);
    assert!(
        r.message().contains("metadata.uid: Invalid value: \"00000000-0000-0000-0000-000000000000\": field is immutable"),
        "{}",
        r.message()
    );
}
