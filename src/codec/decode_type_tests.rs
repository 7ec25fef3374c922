//! Type errors, canonicalization and TypeMeta interpretation of the schema-aware decoder.

use super::*;

#[test]
fn type_errors_table() {
    let f = |field: &str, value: &str, ty: &str| {
        format!("json: cannot unmarshal {value} into Go struct field {field} of type {ty}")
    };
    let cases: Vec<(&'static Struct, &str, String)> = vec![
        (
            CR,
            r#"{"revision":"1"}"#,
            f("ControllerRevision.revision", "string", "int64"),
        ),
        (
            CR,
            r#"{"revision":1.5}"#,
            f("ControllerRevision.revision", "number 1.5", "int64"),
        ),
        (
            CR,
            r#"{"revision":1.0}"#,
            f("ControllerRevision.revision", "number 1.0", "int64"),
        ),
        (
            CR,
            r#"{"revision":1e3}"#,
            f("ControllerRevision.revision", "number 1e3", "int64"),
        ),
        (
            CR,
            r#"{"revision":9223372036854775808}"#,
            f(
                "ControllerRevision.revision",
                "number 9223372036854775808",
                "int64",
            ),
        ),
        (
            CR,
            r#"{"revision":true}"#,
            f("ControllerRevision.revision", "bool", "int64"),
        ),
        (
            CR,
            r#"{"revision":{}}"#,
            f("ControllerRevision.revision", "object", "int64"),
        ),
        (
            CR,
            r#"{"revision":[]}"#,
            f("ControllerRevision.revision", "array", "int64"),
        ),
        (
            CR,
            r#"{"kind":1}"#,
            f("ControllerRevision.TypeMeta.kind", "number", "string"),
        ),
        (
            CR,
            r#"{"apiVersion":[]}"#,
            f("ControllerRevision.TypeMeta.apiVersion", "array", "string"),
        ),
        (
            CR,
            r#"{"metadata":"x"}"#,
            f("ControllerRevision.metadata", "string", "v1.ObjectMeta"),
        ),
        (
            CR,
            r#"{"metadata":[]}"#,
            f("ControllerRevision.metadata", "array", "v1.ObjectMeta"),
        ),
        (
            CR,
            r#"{"metadata":{"name":5}}"#,
            f("ObjectMeta.metadata.name", "number", "string"),
        ),
        (
            CR,
            r#"{"metadata":{"uid":5}}"#,
            f("ObjectMeta.metadata.uid", "number", "types.UID"),
        ),
        (
            CR,
            r#"{"metadata":{"generation":"1"}}"#,
            f("ObjectMeta.metadata.generation", "string", "int64"),
        ),
        (
            CR,
            r#"{"metadata":{"labels":[]}}"#,
            f("ObjectMeta.metadata.labels", "array", "map[string]string"),
        ),
        (
            CR,
            r#"{"metadata":{"labels":"a"}}"#,
            f("ObjectMeta.metadata.labels", "string", "map[string]string"),
        ),
        (
            CR,
            r#"{"metadata":{"labels":{"a":1}}}"#,
            f("ObjectMeta.metadata.labels", "number", "string"),
        ),
        (
            CR,
            r#"{"metadata":{"finalizers":"x"}}"#,
            f("ObjectMeta.metadata.finalizers", "string", "[]string"),
        ),
        (
            CR,
            r#"{"metadata":{"finalizers":[true]}}"#,
            f("ObjectMeta.metadata.finalizers", "bool", "string"),
        ),
        (
            CR,
            r#"{"metadata":{"ownerReferences":{}}}"#,
            f(
                "ObjectMeta.metadata.ownerReferences",
                "object",
                "[]v1.OwnerReference",
            ),
        ),
        (
            CR,
            r#"{"metadata":{"ownerReferences":["x"]}}"#,
            f(
                "ObjectMeta.metadata.ownerReferences",
                "string",
                "v1.OwnerReference",
            ),
        ),
        (
            CR,
            r#"{"metadata":{"ownerReferences":[{"uid":"u"},{"name":1}]}}"#,
            f(
                "OwnerReference.metadata.ownerReferences.name",
                "number",
                "string",
            ),
        ),
        (
            CR,
            r#"{"metadata":{"ownerReferences":[{"controller":"yes"}]}}"#,
            f(
                "OwnerReference.metadata.ownerReferences.controller",
                "string",
                "bool",
            ),
        ),
        (
            CR,
            r#"{"metadata":{"creationTimestamp":5}}"#,
            f("ObjectMeta.metadata.creationTimestamp", "number", "string"),
        ),
        (
            CR,
            r#"{"metadata":{"managedFields":[{"time":{}}]}}"#,
            f(
                "ManagedFieldsEntry.metadata.managedFields.time",
                "object",
                "string",
            ),
        ),
        (
            CR,
            r#"{"metadata":{"creationTimestamp":"x"}}"#,
            r#"parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006""#.into(),
        ),
        (
            CR,
            r#"{"metadata":{"deletionTimestamp":""}}"#,
            r#"parsing time "" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "2006""#.into(),
        ),
        (
            CR,
            "[]",
            "json: cannot unmarshal array into Go value of type v1.ControllerRevision".into(),
        ),
        (
            CR,
            "\"x\"",
            "json: cannot unmarshal string into Go value of type v1.ControllerRevision".into(),
        ),
        (
            CR,
            "1",
            "json: cannot unmarshal number into Go value of type v1.ControllerRevision".into(),
        ),
        // The first saved error wins over later ones ...
        (
            CR,
            r#"{"revision":"x","metadata":{"name":1}}"#,
            f("ControllerRevision.revision", "string", "int64"),
        ),
        // ... an earlier duplicate member is still type-checked ...
        (
            CR,
            r#"{"revision":"x","revision":1}"#,
            f("ControllerRevision.revision", "string", "int64"),
        ),
        // ... and a timestamp failure, returned at once, beats a saved error.
        (
            CR,
            r#"{"revision":"x","metadata":{"creationTimestamp":"2024-13-01T00:00:00Z"}}"#,
            r#"parsing time "2024-13-01T00:00:00Z": month out of range"#.into(),
        ),
        // Type errors win over strict findings.
        (
            CR,
            r#"{"foo":1,"revision":"x"}"#,
            f("ControllerRevision.revision", "string", "int64"),
        ),
        (
            &DELETE_OPTIONS,
            r#"{"gracePeriodSeconds":"5"}"#,
            f("DeleteOptions.gracePeriodSeconds", "string", "int64"),
        ),
        (
            &DELETE_OPTIONS,
            r#"{"preconditions":{"uid":1}}"#,
            f("Preconditions.preconditions.uid", "number", "types.UID"),
        ),
        (
            &DELETE_OPTIONS,
            r#"{"propagationPolicy":false}"#,
            f(
                "DeleteOptions.propagationPolicy",
                "bool",
                "v1.DeletionPropagation",
            ),
        ),
        (
            &NAMESPACE,
            r#"{"spec":{"finalizers":[1]}}"#,
            f(
                "NamespaceSpec.spec.finalizers",
                "number",
                "v1.FinalizerName",
            ),
        ),
        (
            &TEST_T,
            r#"{"n":2147483648}"#,
            f("T.n", "number 2147483648", "int32"),
        ),
        (&TEST_T, r#"{"l":[1,2.5]}"#, f("T.l", "number 2.5", "int64")),
    ];
    for (schema, input, want) in cases {
        match decode_bytes(input.as_bytes(), schema) {
            Err(DecodeError::Type(e)) => assert_eq!(e.message, want, "input {input}"),
            other => panic!("{input}: expected a type error, got {other:?}"),
        }
    }
}

#[test]
fn value_path_type_errors() {
    let cases: &[(Value, &str)] = &[
        (
            json!({"revision": 1.0}),
            "json: cannot unmarshal number 1.0 into Go struct field ControllerRevision.revision of type int64",
        ),
        (
            json!({"revision": u64::MAX}),
            "json: cannot unmarshal number 18446744073709551615 into Go struct field ControllerRevision.revision of type int64",
        ),
        (
            json!({"metadata": {"labels": {"a": false}}}),
            "json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.labels of type string",
        ),
    ];
    for (v, want) in cases {
        assert_eq!(decode_struct(v, CR).unwrap_err().message, *want);
    }
    assert_eq!(
        decode_struct(&json!({"revision": i64::MIN}), CR)
            .unwrap()
            .object["revision"],
        json!(i64::MIN)
    );
}

#[test]
fn syntax_errors_pass_through() {
    let cases: &[(&str, &str)] = &[
        ("{", "unexpected end of JSON input"),
        (
            r#"{"a":1,}"#,
            "invalid character '}' looking for beginning of object key string",
        ),
    ];
    for (input, want) in cases {
        match decode_bytes(input.as_bytes(), CR) {
            Err(DecodeError::Syntax(e)) => assert_eq!(e.message, *want),
            other => panic!("{input}: {other:?}"),
        }
    }
}

#[test]
fn canonicalize_table() {
    let cases: &[(&'static Struct, Value, &str)] = &[
        (
            CR,
            json!({"revision": 2, "metadata": {"labels": {"z": "1", "a": "2"}, "name": "x"}, "kind": "ControllerRevision", "extra": 1}),
            r#"{"kind":"ControllerRevision","metadata":{"name":"x","labels":{"a":"2","z":"1"}},"data":null,"revision":2}"#,
        ),
        // Mistyped values are kept as they are instead of failing.
        (
            CR,
            json!({"revision": "x", "metadata": {"creationTimestamp": "yesterday"}}),
            r#"{"metadata":{"creationTimestamp":"yesterday"},"data":null,"revision":"x"}"#,
        ),
        (
            &OBJECT_META,
            json!({"creationTimestamp": "2024-01-02T03:04:05+00:00", "generation": 0, "annotations": {}}),
            r#"{"creationTimestamp":"2024-01-02T03:04:05Z"}"#,
        ),
    ];
    for (schema, v, want) in cases {
        let m = v.as_object().unwrap();
        let c = canonicalize(m, schema);
        assert_eq!(compact(&c), *want);
        assert_eq!(canonicalize(&c, schema), c, "idempotent");
    }
}

#[test]
fn is_empty_value_table() {
    let cases: &[(Value, bool)] = &[
        (json!(null), true),
        (json!(false), true),
        (json!(true), false),
        (json!(0), true),
        (json!(0.0), true),
        (json!(-0.0), true),
        (json!(1), false),
        (json!(""), true),
        (json!("a"), false),
        (json!([]), true),
        (json!([null]), false),
        (json!({}), true),
        (json!({"a": null}), false),
    ];
    for (v, want) in cases {
        assert_eq!(is_empty_value(v), *want, "{v}");
    }
}

#[test]
fn interpret_type_meta_table() {
    let prefix = "couldn't get version/kind; json parse error: ";
    /// (body, Ok((apiVersion, kind)) or the error text)
    type Case<'a> = (Value, Result<(&'a str, &'a str), String>);
    let cases: &[Case<'_>] = &[
        (json!({"apiVersion": "apps/v1", "kind": "ControllerRevision"}), Ok(("apps/v1", "ControllerRevision"))),
        (json!({}), Ok(("", ""))),
        (json!(null), Ok(("", ""))),
        (json!({"KIND": "x", "kind": null}), Ok(("", "x"))),
        (
            json!({"kind": 5}),
            Err(format!("{prefix}json: cannot unmarshal number into Go struct field .kind of type string")),
        ),
        (
            json!([]),
            Err(format!("{prefix}json: cannot unmarshal array into Go value of type struct {{ APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; Kind string \"json:\\\"kind,omitempty\\\"\" }}")),
        ),
    ];
    for (v, want) in cases {
        let got = interpret_type_meta(v).map(|t| (t.api_version, t.kind));
        let want = want.clone().map(|(a, k)| (a.to_string(), k.to_string()));
        assert_eq!(got, want, "{v}");
    }
}
