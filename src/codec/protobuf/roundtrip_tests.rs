//! Value → bytes → Value for every kind, and the decoder's tolerance and error texts.
//! Comparisons use the compact JSON text, so key order (Go struct order) is checked too.

use serde_json::{json, Value};

use super::wire::Writer;
use super::*;
use crate::codec::json;

use super::test_scheme::{decode, decode_watch_frames, encode, supports, watch_frame};

fn text(v: &Value) -> String {
    json::to_compact_string(v)
}

fn meta_full() -> Value {
    json!({
        "name": "web-7d4b9c",
        "generateName": "web-",
        "namespace": "default",
        "selfLink": "/x",
        "uid": "3f1c2d4e-0000-4000-8000-000000000001",
        "resourceVersion": "42",
        "generation": 3,
        "creationTimestamp": "2024-01-02T03:04:05Z",
        "deletionTimestamp": "2024-05-06T07:08:09Z",
        "deletionGracePeriodSeconds": 30,
        "labels": {"B": "upper", "a": "", "app": "web", "kubernetes.io/x": "<&>"},
        "annotations": {"deprecated.daemonset.template.generation": "1", "z": "ü"},
        "ownerReferences": [
            {"apiVersion": "apps/v1", "kind": "StatefulSet", "name": "web", "uid": "o1", "controller": true, "blockOwnerDeletion": true},
            {"apiVersion": "v1", "kind": "ConfigMap", "name": "", "uid": "o2"}
        ],
        "finalizers": ["example.com/a", "orphan"],
        "managedFields": [
            {"manager": "kubectl-client-side-apply", "operation": "Update", "apiVersion": "apps/v1", "time": "2024-01-02T03:04:05Z", "fieldsType": "FieldsV1", "fieldsV1": {"f:metadata": {"f:labels": {".": {}, "f:app": {}}}, "f:revision": {}}},
            {"manager": "ctl", "operation": "Apply", "apiVersion": "apps/v1", "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {}}, "subresource": "status"}
        ]
    })
}

fn cases() -> Vec<Value> {
    vec![
        // ControllerRevision: full metadata, nested data, negative revision.
        json!({"kind": "ControllerRevision", "apiVersion": "apps/v1", "metadata": meta_full(),
               "data": {"spec": {"template": {"metadata": {"labels": {"a": "b"}}}}, "f": 1.5, "s": "<x>", "n": null, "l": [1, "2", false]},
               "revision": 9_007_199_254_740_993_i64}),
        json!({"kind": "ControllerRevision", "apiVersion": "apps/v1", "metadata": {}, "data": null, "revision": 0}),
        json!({"kind": "ControllerRevision", "apiVersion": "apps/v1", "metadata": {"name": "a"}, "data": "str", "revision": -1}),
        json!({"kind": "ControllerRevision", "apiVersion": "apps/v1", "metadata": {"name": "a"}, "data": [], "revision": 1}),
        json!({"kind": "ControllerRevisionList", "apiVersion": "apps/v1",
        "metadata": {"resourceVersion": "100", "continue": "tok", "remainingItemCount": 0},
        "items": [
            {"metadata": {"name": "a", "namespace": "ns"}, "data": {"x": 1}, "revision": 1},
            {"metadata": {"name": "b", "namespace": "ns", "labels": {"k": "v"}}, "data": null, "revision": 2}
        ]}),
        json!({"kind": "ControllerRevisionList", "apiVersion": "apps/v1", "metadata": {}, "items": []}),
        json!({"kind": "ControllerRevisionList", "apiVersion": "apps/v1",
               "metadata": {"resourceVersion": "7", "shardInfo": {"selector": "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')"}},
               "items": []}),
        json!({"kind": "ControllerRevisionList", "apiVersion": "apps/v1", "metadata": {"shardInfo": {"selector": ""}}, "items": []}),
        // Namespace.
        json!({"kind": "Namespace", "apiVersion": "v1",
               "metadata": {"name": "team-a", "uid": "u", "resourceVersion": "3", "creationTimestamp": "2024-01-02T03:04:05Z", "labels": {"kubernetes.io/metadata.name": "team-a"}},
               "spec": {"finalizers": ["kubernetes"]}, "status": {"phase": "Active"}}),
        json!({"kind": "Namespace", "apiVersion": "v1", "metadata": {}, "spec": {}, "status": {}}),
        json!({"kind": "Namespace", "apiVersion": "v1",
        "metadata": {"name": "gone", "deletionTimestamp": "2024-05-06T07:08:09Z", "deletionGracePeriodSeconds": 0, "finalizers": ["x/y"]},
        "spec": {"finalizers": ["kubernetes"]},
        "status": {"phase": "Terminating", "conditions": [
            {"type": "NamespaceDeletionDiscoveryFailure", "status": "False", "lastTransitionTime": "2024-05-06T07:08:09Z", "reason": "ResourcesDiscovered", "message": "All resources successfully discovered"},
            {"type": "NamespaceContentRemaining", "status": "True", "lastTransitionTime": null}
        ]}}),
        json!({"kind": "NamespaceList", "apiVersion": "v1", "metadata": {"resourceVersion": "9"},
        "items": [
            {"metadata": {"name": "default"}, "spec": {"finalizers": ["kubernetes"]}, "status": {"phase": "Active"}},
            {"metadata": {"name": "kube-system"}, "spec": {}, "status": {}}
        ]}),
        json!({"kind": "NamespaceList", "apiVersion": "v1", "metadata": {}, "items": []}),
        // Status.
        json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success",
               "details": {"name": "a", "group": "apps", "kind": "controllerrevisions", "uid": "u"}}),
        json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
               "message": "ControllerRevision.apps \"x\" is invalid: [metadata.name: Required value: name or generateName is required, revision: Invalid value: -1: must be greater than or equal to 0]",
               "reason": "Invalid",
               "details": {"name": "x", "group": "apps", "kind": "ControllerRevision", "causes": [
                   {"reason": "FieldValueRequired", "message": "Required value: name or generateName is required", "field": "metadata.name"},
                   {"reason": "FieldValueInvalid", "message": "Invalid value: -1", "field": "revision"},
                   {}
               ], "retryAfterSeconds": 1},
               "code": 422}),
        json!({"kind": "Status", "apiVersion": "v1", "metadata": {"continue": "c"}, "status": "Failure", "message": "expired", "reason": "Expired", "details": {}, "code": 410}),
        json!({"kind": "Status", "apiVersion": "v1", "metadata": {}}),
        // DeleteOptions.
        json!({"kind": "DeleteOptions", "apiVersion": "meta.k8s.io/v1", "gracePeriodSeconds": 0,
               "preconditions": {"uid": "u", "resourceVersion": "5"}, "orphanDependents": false,
               "propagationPolicy": "Foreground", "dryRun": ["All"],
               "ignoreStoreReadErrorWithClusterBreakingPotential": true}),
        json!({"kind": "DeleteOptions", "apiVersion": "v1"}),
        json!({"kind": "DeleteOptions", "apiVersion": "v1", "preconditions": {}, "propagationPolicy": ""}),
        json!({"kind": "DeleteOptions", "apiVersion": "v1", "preconditions": {"resourceVersion": ""}}),
        // PartialObjectMetadata.
        json!({"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1", "metadata": meta_full()}),
        json!({"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1", "metadata": {}}),
        json!({"kind": "PartialObjectMetadataList", "apiVersion": "meta.k8s.io/v1",
        "metadata": {"resourceVersion": "5", "remainingItemCount": 12},
        "items": [
            {"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1", "metadata": {"name": "a"}},
            {"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1", "metadata": {}}
        ]}),
        json!({"kind": "PartialObjectMetadataList", "apiVersion": "meta.k8s.io/v1beta1", "metadata": {},
               "items": [{"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1beta1", "metadata": {"name": "a"}}]}),
        json!({"kind": "PartialObjectMetadataList", "apiVersion": "meta.k8s.io/v1", "metadata": {}, "items": []}),
        // WatchEvent in an envelope of its own (its object in an envelope inside).
        json!({"kind": "WatchEvent", "apiVersion": "meta.k8s.io/v1", "type": "ADDED",
               "object": {"kind": "Namespace", "apiVersion": "v1", "metadata": {"name": "a"}, "spec": {}, "status": {}}}),
        json!({"kind": "WatchEvent", "apiVersion": "meta.k8s.io/v1", "type": "", "object": null}),
    ]
}

#[test]
fn every_kind_round_trips() {
    for obj in cases() {
        let bytes = encode(&obj).unwrap_or_else(|e| panic!("{e}: {}", text(&obj)));
        assert!(bytes.starts_with(&MAGIC));
        let back = decode(&bytes).unwrap_or_else(|e| panic!("{e}: {}", text(&obj)));
        assert_eq!(text(&back), text(&obj));
        // Deterministic: encoding the decoded value gives the same bytes.
        assert_eq!(encode(&back).unwrap(), bytes, "{}", text(&obj));
    }
    for kind in [
        "ControllerRevision",
        "ControllerRevisionList",
        "Namespace",
        "NamespaceList",
        "Status",
        "DeleteOptions",
        "PartialObjectMetadata",
        "PartialObjectMetadataList",
        "WatchEvent",
    ] {
        assert!(supports(kind), "{kind}");
        assert!(
            cases().iter().any(|c| c["kind"] == kind),
            "no case for {kind}"
        );
    }
}

/// Map entries go out sorted byte-wise whatever the Value's order.
#[test]
fn map_entries_sorted() {
    let with = |labels: Value| {
        encode(&json!({"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1", "metadata": {"labels": labels}}))
            .unwrap()
    };
    let a = with(json!({"b": "1", "a": "2", "B": "3", "a.b/c": "4", "": "5"}));
    let b = with(json!({"": "5", "B": "3", "a": "2", "a.b/c": "4", "b": "1"}));
    assert_eq!(a, b);
    let back = decode(&a).unwrap();
    let keys: Vec<&str> = back["metadata"]["labels"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, ["", "B", "a", "a.b/c", "b"]);
}

/// Values that are not canonical still encode as Go would have read them: absent and `null`
/// are zero, unknown members are dropped; the decode shows the canonical form.
#[test]
fn non_canonical_inputs_normalize() {
    let cases = [
        (
            json!({"kind": "ControllerRevision", "apiVersion": "apps/v1", "extra": 1}),
            r#"{"kind":"ControllerRevision","apiVersion":"apps/v1","metadata":{},"data":null,"revision":0}"#,
        ),
        (
            json!({"kind": "ControllerRevision", "apiVersion": "apps/v1", "metadata": {"name": "", "generation": 0, "labels": {}, "finalizers": [], "creationTimestamp": "0001-01-01T00:00:00Z", "deletionTimestamp": null}, "revision": null}),
            r#"{"kind":"ControllerRevision","apiVersion":"apps/v1","metadata":{},"data":null,"revision":0}"#,
        ),
        (
            json!({"kind": "Namespace", "apiVersion": "v1", "metadata": {"labels": {"a": null}}, "status": {"conditions": [null, {"type": "T"}]}}),
            r#"{"kind":"Namespace","apiVersion":"v1","metadata":{"labels":{"a":""}},"spec":{},"status":{"conditions":[{"type":"","status":"","lastTransitionTime":null},{"type":"T","status":"","lastTransitionTime":null}]}}"#,
        ),
        (
            json!({"kind": "Status", "apiVersion": "v1", "code": 0, "details": null}),
            r#"{"kind":"Status","apiVersion":"v1","metadata":{}}"#,
        ),
        (
            // An explicit zero time in a pointer field reads back as null (Go: *Time zero → null).
            json!({"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1", "metadata": {"deletionTimestamp": "0001-01-01T00:00:00Z"}}),
            r#"{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"deletionTimestamp":null}}"#,
        ),
        (
            json!({"kind": "ControllerRevision", "apiVersion": "apps/v1", "metadata": {"creationTimestamp": "1970-01-01T00:00:00Z"}, "data": {"b": 1, "a": 2}}),
            r#"{"kind":"ControllerRevision","apiVersion":"apps/v1","metadata":{"creationTimestamp":"1970-01-01T00:00:00Z"},"data":{"b":1,"a":2},"revision":0}"#,
        ),
    ];
    for (input, want) in cases {
        let back = decode(&encode(&input).unwrap()).unwrap();
        assert_eq!(text(&back), want, "{}", text(&input));
    }
}

#[test]
fn watch_frames_round_trip() {
    let cr = |rv: &str| json!({"kind": "ControllerRevision", "apiVersion": "apps/v1", "metadata": {"name": "a", "namespace": "ns", "resourceVersion": rv}, "data": {"x": 1}, "revision": 1});
    let events = vec![
        ("ADDED".to_string(), cr("1")),
        ("MODIFIED".to_string(), cr("2")),
        ("DELETED".to_string(), cr("3")),
        (
            "BOOKMARK".to_string(),
            json!({"kind": "ControllerRevision", "apiVersion": "apps/v1", "metadata": {"resourceVersion": "4", "annotations": {"k8s.io/initial-events-end": "true"}}, "data": null, "revision": 0}),
        ),
        (
            "ERROR".to_string(),
            json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure", "message": "too old resource version: 1 (4)", "reason": "Expired", "code": 410}),
        ),
    ];
    let mut stream = Vec::new();
    for (t, obj) in &events {
        let frame = watch_frame(t, obj).unwrap();
        let len = u32::from_be_bytes([frame[0], frame[1], frame[2], frame[3]]) as usize;
        assert_eq!(len, frame.len() - 4);
        // The frame body is a bare WatchEvent: no magic prefix before it.
        assert_eq!(frame[4], 0x0a);
        stream.extend(frame);
    }
    let back = decode_watch_frames(&stream).unwrap();
    assert_eq!(back.len(), events.len());
    for ((t1, o1), (t2, o2)) in events.iter().zip(&back) {
        assert_eq!(t1, t2);
        assert_eq!(text(o1), text(o2));
    }
    assert_eq!(decode_watch_frames(&[]).unwrap(), vec![]);
    assert_eq!(
        decode_watch_frames(&stream[..stream.len() - 1]).unwrap_err(),
        "unexpected EOF"
    );
    assert!(watch_frame(
        "ADDED",
        &json!({"kind": "Table", "apiVersion": "meta.k8s.io/v1"})
    )
    .is_err());
}

fn envelope(api_version: &str, kind: &str, raw: &[u8]) -> Vec<u8> {
    envelope::wrap(api_version, kind, raw)
}

/// Hand-built messages the way another encoder might send them: any order, repeats, unknown
/// fields, missing always-written fields.
#[test]
fn decoder_tolerance() {
    let mut meta = Writer::new();
    meta.string(6, "1"); // resourceVersion first
    meta.string(1, "old");
    meta.string(1, "new"); // last string wins
    meta.bytes(8, &[0x08, 0x01, 0x10, 0x7b]); // creationTimestamp 1970-01-01T00:00:01Z, nanos dropped
    meta.bytes(11, &[0x0a, 0x01, b'k']); // label without value → ""
    meta.bytes(11, &[0x12, 0x01, b'v']); // label without key → key ""
    meta.bytes(11, &[0x0a, 0x01, b'k', 0x12, 0x01, b'w']); // later entry for "k" wins
    meta.int64(99, 5); // unknown field: skipped
    meta.bytes(15, b"tombstoned clusterName"); // reserved field: skipped
    let mut cr = Writer::new();
    cr.int64(3, 4);
    cr.bytes(1, &meta.buf);
    cr.bytes(1, &[0x1a, 0x02, b'n', b's']); // second metadata occurrence merges (namespace)
    cr.bytes(2, &[0x0a, 0x03, b'[', b'1', b']']);
    cr.bytes(2, &[]); // a later empty RawExtension merges: raw kept
    let got = decode(&envelope("apps/v1", "ControllerRevision", &cr.buf)).unwrap();
    assert_eq!(
        text(&got),
        r#"{"kind":"ControllerRevision","apiVersion":"apps/v1","metadata":{"name":"new","namespace":"ns","resourceVersion":"1","creationTimestamp":"1970-01-01T00:00:01Z","labels":{"":"v","k":"w"}},"data":[1],"revision":4}"#
    );

    // No raw at all: the zero object.
    let mut unk = Writer::new();
    unk.bytes(1, b"\x0a\x02v1\x12\x09Namespace");
    let mut bytes = MAGIC.to_vec();
    bytes.extend(unk.buf);
    assert_eq!(
        text(&decode(&bytes).unwrap()),
        r#"{"kind":"Namespace","apiVersion":"v1","metadata":{},"spec":{},"status":{}}"#
    );

    // int32 keeps only the low 32 bits; bool is any non-zero varint.
    let mut status = Writer::new();
    status.int64(6, (1i64 << 32) + 404);
    let mut details = Writer::new();
    details.int64(5, -3);
    status.bytes(5, &details.buf);
    let mut pre = Writer::new();
    pre.string(2, "");
    let mut del = Writer::new();
    del.key(3, wire::VARINT);
    del.varint(7);
    del.bytes(2, &pre.buf);
    assert_eq!(
        text(&decode(&envelope("v1", "Status", &status.buf)).unwrap()),
        r#"{"kind":"Status","apiVersion":"v1","metadata":{},"details":{"retryAfterSeconds":-3},"code":404}"#
    );
    assert_eq!(
        text(&decode(&envelope("v1", "DeleteOptions", &del.buf)).unwrap()),
        r#"{"kind":"DeleteOptions","apiVersion":"v1","preconditions":{"resourceVersion":""},"orphanDependents":true}"#
    );
}

#[test]
fn decode_errors() {
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (b"{\"kind\":\"Status\"}".to_vec(), "provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]"),
        (vec![], "empty data"),
        (MAGIC.to_vec(), "empty body"),
        (envelope("v1", "", &[]), r#"Object 'Kind' is missing in 'runtime.TypeMeta{APIVersion:"v1", Kind:""}'"#),
        (envelope("", "Status", &[]), r#"Object 'apiVersion' is missing in 'runtime.TypeMeta{APIVersion:"", Kind:"Status"}'"#),
        (envelope("meta.k8s.io/v1", "Table", &[]), r#"no kind "Table" is registered for version "meta.k8s.io/v1""#),
        (envelope("apps/v1", "ControllerRevision", &[0x08, 0x01]), "proto: wrong wireType = 0 for field ObjectMeta"),
        (envelope("apps/v1", "ControllerRevision", &[0x1a, 0x00]), "proto: wrong wireType = 2 for field Revision"),
        (envelope("apps/v1", "ControllerRevision", &[0x0a, 0x02, 0x38, 0x80]), "unexpected EOF"),
        (envelope("apps/v1", "ControllerRevision", &[0x0a, 0x01, 0x00]), "proto: ObjectMeta: illegal tag 0 (wire type 0)"),
        (envelope("apps/v1", "ControllerRevision", &[0x12, 0x03, 0x0a, 0x01, b'{']), "data: unexpected end of JSON input"),
        (envelope("apps/v1", "ControllerRevision", &[0x0a, 0x02, 0x42, 0x00, 0x0a, 0x02, 0x42, 0x01]), "unexpected EOF"),
        (envelope("v1", "Namespace", &[0x0a, 0x04, 0x42, 0x02, 0x0a, 0x00]), "proto: wrong wireType = 2 for field Seconds"),
    ];
    for (bytes, want) in cases {
        assert_eq!(decode(&bytes).unwrap_err(), want, "{bytes:02x?}");
    }
}

#[test]
fn encode_errors() {
    let cases = [
        (
            json!({"kind": "Table", "apiVersion": "meta.k8s.io/v1", "rows": []}),
            "object *v1.Table does not implement the protobuf marshalling interface and cannot be encoded to a protobuf message",
        ),
        (
            json!({"apiVersion": "v1"}),
            "object *v1. does not implement the protobuf marshalling interface and cannot be encoded to a protobuf message",
        ),
        (json!([1]), "expected an object, got [1]"),
        (
            json!({"kind": "ControllerRevision", "apiVersion": "apps/v1", "metadata": {"generation": "1"}}),
            r#"metadata.generation: expected integer, got "1""#,
        ),
        (
            json!({"kind": "ControllerRevision", "apiVersion": "apps/v1", "metadata": {"labels": {"a": 1}}}),
            "metadata.labels.a: expected string, got 1",
        ),
        (
            json!({"kind": "ControllerRevision", "apiVersion": "apps/v1", "revision": 1.5}),
            "revision: 1.5 is not an int64",
        ),
        (
            json!({"kind": "Status", "apiVersion": "v1", "code": 4_294_967_296_i64}),
            "code: 4294967296 does not fit int32",
        ),
        (
            json!({"kind": "Namespace", "apiVersion": "v1", "metadata": {"creationTimestamp": "yesterday"}}),
            r#"metadata.creationTimestamp: parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006""#,
        ),
        (
            json!({"kind": "Namespace", "apiVersion": "v1", "status": {"conditions": [1]}}),
            "status.conditions[0]: expected object, got 1",
        ),
    ];
    for (obj, want) in cases {
        assert_eq!(encode(&obj).unwrap_err(), want);
    }
    assert!(!supports("Table"));
    assert!(!supports("TableOptions"));
    assert!(!supports(""));
}

/// WatchEvent envelopes nested inside each other are bounded (stack safety).
#[test]
fn nesting_is_bounded() {
    let nest = |levels: usize| {
        let mut v = json!({"kind": "Status", "apiVersion": "v1", "metadata": {}});
        for _ in 0..levels {
            v = json!({"kind": "WatchEvent", "apiVersion": "meta.k8s.io/v1", "type": "ADDED", "object": v});
        }
        v
    };
    let ok = nest(16);
    assert_eq!(decode(&encode(&ok).unwrap()).unwrap(), ok);
    let err = "protobuf envelopes nested deeper than 16";
    assert!(encode(&nest(17)).unwrap_err().ends_with(err));
    // Build 17 levels by hand (the encoder refuses) and check the decoder refuses too.
    let mut bytes = encode(&json!({"kind": "Status", "apiVersion": "v1"})).unwrap();
    for _ in 0..17 {
        let mut ext = Writer::new();
        ext.bytes(1, &bytes);
        let mut ev = Writer::new();
        ev.string(1, "ADDED");
        ev.bytes(2, &ext.buf);
        bytes = envelope("meta.k8s.io/v1", "WatchEvent", &ev.buf);
    }
    assert_eq!(decode(&bytes).unwrap_err(), err);
}

/// Truncated and bit-flipped bodies never panic; they decode or fail with an error.
#[test]
fn mutated_bodies_never_panic() {
    let mut decoded = 0usize;
    for obj in cases() {
        let bytes = encode(&obj).unwrap();
        for i in 0..bytes.len() {
            let _ = decode(&bytes[..i]);
            for mask in [0x01u8, 0x80, 0xff] {
                let mut m = bytes.clone();
                m[i] ^= mask;
                if decode(&m).is_ok() {
                    decoded += 1;
                }
            }
        }
        let frame = watch_frame("ADDED", &obj).unwrap();
        for i in 0..frame.len() {
            let _ = decode_watch_frames(&frame[..i]);
        }
    }
    assert!(decoded > 0);
}
