//! Table-driven tests for [`super`]: canonical output, strict findings and Go's error texts.

use super::*;
use crate::codec::json::to_compact_string;
use crate::resources::schema::{
    Field, ListType, CONTROLLER_REVISION, DELETE_OPTIONS, NAMESPACE, OBJECT_META,
};
use serde_json::json;

const CR: &Struct = &CONTROLLER_REVISION;

fn compact(m: &Map<String, Value>) -> String {
    to_compact_string(&Value::Object(m.clone()))
}

fn ok(schema: &'static Struct, input: &str) -> StrictDecoded {
    decode_bytes(input.as_bytes(), schema).unwrap_or_else(|e| panic!("{input}: {e}"))
}

/// A test-only struct with an int32 and an always-written map and list.
static TEST_T: Struct = Struct {
    openapi_name: "io.k8s.api.test.v1.T",
    atomic: false,
    description: "",
    fields: &[
        Field {
            name: "n",
            ty: Type::Int32,
            required: false,
            omit_empty: true,
            description: "",
            pointer: false,
            proto: 0,
            go_type: None,
            omit_zero: false,
        },
        Field {
            name: "m",
            ty: Type::Map(&Type::String),
            required: false,
            omit_empty: false,
            description: "",
            pointer: false,
            proto: 0,
            go_type: None,
            omit_zero: false,
        },
        Field {
            name: "l",
            ty: Type::Array(&Type::Int64, ListType::Atomic),
            required: false,
            omit_empty: false,
            description: "",
            pointer: false,
            proto: 0,
            go_type: None,
            omit_zero: false,
        },
    ],
};

#[test]
fn canonical_output_table() {
    let cases: &[(&'static Struct, &str, &str)] = &[
        (CR, "{}", r#"{"metadata":{},"data":null,"revision":0}"#),
        (CR, "null", r#"{"metadata":{},"data":null,"revision":0}"#),
        (
            CR,
            r#"{"revision":3,"data":{"z":1,"a":[2]},"apiVersion":"apps/v1","kind":"ControllerRevision",
                "metadata":{"namespace":"default","name":"x","labels":{"b":"2","a":"1"}}}"#,
            r#"{"kind":"ControllerRevision","apiVersion":"apps/v1","metadata":{"name":"x","namespace":"default","labels":{"a":"1","b":"2"}},"data":{"z":1,"a":[2]},"revision":3}"#,
        ),
        (
            CR,
            r#"{"revision":null,"data":null,"metadata":null}"#,
            r#"{"metadata":{},"data":null,"revision":0}"#,
        ),
        (
            CR,
            r#"{"kind":"","apiVersion":""}"#,
            r#"{"metadata":{},"data":null,"revision":0}"#,
        ),
        (
            CR,
            r#"{"metadata":{"generation":0,"finalizers":[],"labels":{},"annotations":null,"deletionGracePeriodSeconds":0}}"#,
            r#"{"metadata":{"deletionGracePeriodSeconds":0},"data":null,"revision":0}"#,
        ),
        (
            CR,
            r#"{"metadata":{"creationTimestamp":"2024-01-02T04:04:05.5+01:00","deletionTimestamp":"2024-01-02T03:04:05Z"}}"#,
            r#"{"metadata":{"creationTimestamp":"2024-01-02T03:04:05Z","deletionTimestamp":"2024-01-02T03:04:05Z"},"data":null,"revision":0}"#,
        ),
        (
            CR,
            r#"{"metadata":{"creationTimestamp":"0001-01-01T00:00:00Z"}}"#,
            r#"{"metadata":{},"data":null,"revision":0}"#,
        ),
        (
            CR,
            r#"{"metadata":{"creationTimestamp":null}}"#,
            r#"{"metadata":{},"data":null,"revision":0}"#,
        ),
        (
            CR,
            r#"{"metadata":{"ownerReferences":[{"uid":"u","controller":false,"name":"n"},null]}}"#,
            r#"{"metadata":{"ownerReferences":[{"apiVersion":"","kind":"","name":"n","uid":"u","controller":false},{"apiVersion":"","kind":"","name":"","uid":""}]},"data":null,"revision":0}"#,
        ),
        (
            CR,
            r#"{"metadata":{"labels":{"a":null}},"data":{"x":"<&>","n":1.50}}"#,
            r#"{"metadata":{"labels":{"a":""}},"data":{"x":"\u003c\u0026\u003e","n":1.5},"revision":0}"#,
        ),
        (
            CR,
            r#"{"metadata":{"managedFields":[{"manager":"m","time":"2024-01-02T03:04:05Z","fieldsV1":{},"fieldsType":"FieldsV1"},{"fieldsV1":null}]}}"#,
            r#"{"metadata":{"managedFields":[{"manager":"m","time":"2024-01-02T03:04:05Z","fieldsType":"FieldsV1","fieldsV1":{}},{}]},"data":null,"revision":0}"#,
        ),
        (
            CR,
            r#"{"data":[1,"a"],"revision":-7}"#,
            r#"{"metadata":{},"data":[1,"a"],"revision":-7}"#,
        ),
        (
            &DELETE_OPTIONS,
            r#"{"gracePeriodSeconds":0,"orphanDependents":false,"propagationPolicy":"","preconditions":{},"dryRun":[]}"#,
            r#"{"gracePeriodSeconds":0,"preconditions":{},"orphanDependents":false,"propagationPolicy":""}"#,
        ),
        (
            &DELETE_OPTIONS,
            r#"{"gracePeriodSeconds":null,"preconditions":{"uid":""},"dryRun":["All"]}"#,
            r#"{"preconditions":{"uid":""},"dryRun":["All"]}"#,
        ),
        (&NAMESPACE, "{}", r#"{"metadata":{},"spec":{},"status":{}}"#),
        (
            &NAMESPACE,
            r#"{"spec":{"finalizers":["kubernetes"]},"status":{"phase":"Active","conditions":[{"status":"True","type":"T"}]}}"#,
            r#"{"metadata":{},"spec":{"finalizers":["kubernetes"]},"status":{"phase":"Active","conditions":[{"type":"T","status":"True","lastTransitionTime":null}]}}"#,
        ),
        (&TEST_T, "{}", r#"{"m":null,"l":null}"#),
        (&TEST_T, r#"{"n":0,"m":{},"l":[]}"#, r#"{"m":{},"l":[]}"#),
        (
            &TEST_T,
            r#"{"n":-2147483648,"m":null,"l":[1]}"#,
            r#"{"n":-2147483648,"m":null,"l":[1]}"#,
        ),
    ];
    for (schema, input, want) in cases {
        let d = ok(schema, input);
        assert_eq!(compact(&d.object), *want, "input {input}");
        assert!(d.strict.is_empty(), "input {input}: {:?}", d.strict);
        // The same through the Value path.
        let v = json::parse(input.as_bytes()).unwrap().value;
        let d2 = decode_struct(&v, schema).unwrap();
        assert_eq!(compact(&d2.object), *want, "decode_struct {input}");
        // Canonical output is a fixed point.
        assert_eq!(
            canonicalize(&d.object, schema),
            d.object,
            "idempotent {input}"
        );
        let again = decode_bytes(compact(&d.object).as_bytes(), schema).unwrap();
        assert_eq!(again.object, d.object, "re-decode {input}");
    }
}

#[test]
fn strict_findings_table() {
    use StrictKind::{Duplicate as D, Unknown as U};
    /// (input, expected findings, expected object)
    type Case<'a> = (&'a str, &'a [(StrictKind, &'a str)], &'a str);
    let cases: &[Case<'_>] = &[
        (
            r#"{"foo":1,"metadata":{"bar":2,"ownerReferences":[{"uid":"u"},{"x":1,"uid":"v"}]},"data":{"anything":{"a":1,"a":2}}}"#,
            &[
                (U, "foo"),
                (U, "metadata.bar"),
                (U, "metadata.ownerReferences[1].x"),
            ],
            r#"{"metadata":{"ownerReferences":[{"apiVersion":"","kind":"","name":"","uid":"u"},{"apiVersion":"","kind":"","name":"","uid":"v"}]},"data":{"anything":{"a":2}},"revision":0}"#,
        ),
        (
            r#"{"metadata":{"name":"a","name":"b","labels":{"x":"1","x":"2"}},"foo":1,"foo":{"y":1,"y":2},"revision":1,"revision":2}"#,
            &[
                (D, "metadata.name"),
                (D, "metadata.labels.x"),
                (U, "foo"),
                (D, "revision"),
            ],
            r#"{"metadata":{"name":"b","labels":{"x":"2"}},"data":null,"revision":2}"#,
        ),
        (
            r#"{"metadata":{"name":"a","labels":{"k":"1"}},"metadata":{"namespace":"n","labels":{"j":"2"}}}"#,
            &[(D, "metadata")],
            r#"{"metadata":{"name":"a","namespace":"n","labels":{"j":"2","k":"1"}},"data":null,"revision":0}"#,
        ),
        (
            r#"{"metadata":{"ownerReferences":[{"uid":"u","name":"a"}],"ownerReferences":[{"kind":"K"}]}}"#,
            &[(D, "metadata.ownerReferences")],
            r#"{"metadata":{"ownerReferences":[{"apiVersion":"","kind":"K","name":"a","uid":"u"}]},"data":null,"revision":0}"#,
        ),
        (
            r#"{"data":{"a":1},"data":null}"#,
            &[(D, "data")],
            r#"{"metadata":{},"data":{"a":1},"revision":0}"#,
        ),
        (
            r#"{"Kind":"x","metadata":{"Name":"y","labels":{"app.kubernetes.io/name":"a","app.kubernetes.io/name":"b"}}}"#,
            &[
                (U, "Kind"),
                (U, "metadata.Name"),
                (D, "metadata.labels.app.kubernetes.io/name"),
            ],
            r#"{"metadata":{"labels":{"app.kubernetes.io/name":"b"}},"data":null,"revision":0}"#,
        ),
    ];
    for (input, want, object) in cases {
        let d = ok(CR, input);
        let got: Vec<(StrictKind, &str)> =
            d.strict.iter().map(|e| (e.kind, e.path.as_str())).collect();
        assert_eq!(got, *want, "input {input}");
        assert_eq!(compact(&d.object), *object, "object for {input}");
    }
    // Value path: unknown fields only, same order.
    let v = json!({"foo": 1, "metadata": {"bar": 2}, "data": {"x": 1}});
    assert_eq!(
        decode_struct(&v, CR).unwrap().unknown,
        vec!["foo", "metadata.bar"]
    );
    // Cap at 100.
    let many = format!(
        "{{{}}}",
        (0..150)
            .map(|i| format!("\"u{i}\":1"))
            .collect::<Vec<_>>()
            .join(",")
    );
    assert_eq!(ok(CR, &many).strict.len(), 100);
}

#[test]
fn strict_messages() {
    let errs = [
        StrictError {
            kind: StrictKind::Unknown,
            path: "foo".into(),
            index: 0,
        },
        StrictError {
            kind: StrictKind::Duplicate,
            path: "metadata.name".into(),
            index: 1,
        },
        StrictError {
            kind: StrictKind::Unknown,
            path: "a\"b\n".into(),
            index: 2,
        },
    ];
    assert_eq!(errs[0].message(), r#"unknown field "foo""#);
    assert_eq!(errs[1].message(), r#"duplicate field "metadata.name""#);
    assert_eq!(errs[2].message(), r#"unknown field "a\"b\n""#);
    assert_eq!(
        strict_decoding_message(
            &errs[..2]
                .iter()
                .map(StrictError::message)
                .collect::<Vec<_>>()
        ),
        r#"strict decoding error: unknown field "foo", duplicate field "metadata.name""#
    );
}

#[path = "decode_type_tests.rs"]
mod type_errors;

/// Each finding carries its member's position in its own object, nested ones and keys with
/// dots included (fxamacker/cbor reports unknown fields by it).
#[test]
fn strict_findings_know_their_member_position() {
    let d = ok(
        CR,
        r#"{"kind":"ControllerRevision","metadata":{"name":"a","a.b":1,"labels":{"x":"1","x":"2"}},"bogus":1}"#,
    );
    let found: Vec<(String, usize)> = d.strict.iter().map(|e| (e.path.clone(), e.index)).collect();
    assert_eq!(
        found,
        [
            ("metadata.a.b".to_string(), 1),
            ("metadata.labels.x".to_string(), 1),
            ("bogus".to_string(), 2)
        ]
    );
}
