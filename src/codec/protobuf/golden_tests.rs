//! Golden bytes written out by hand, field by field, from the gogo rules in reference §5.
//! Each byte string below was composed from the field tables, not copied from the encoder.

use serde_json::json;

use crate::codec::json;

use super::test_scheme::{decode, decode_watch_frames, encode, watch_frame};

/// `2024-01-02T03:04:05Z` = 1704164645 as a varint.
const T_2024_01_02: [u8; 5] = [0xa5, 0xfa, 0xcd, 0xac, 0x06];

fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

/// Reference §5.3: `k8s\0` + Unknown{ 0x0a{0x0a "apps/v1", 0x12 "ControllerRevision"},
/// 0x12 <len> [0x0a <ObjectMeta> 0x12 <RawExtension{0x0a <json>}> 0x18 <revision>],
/// 0x1a 0x00, 0x22 0x00 }.
#[test]
fn controller_revision_envelope() {
    let obj = json!({
        "kind": "ControllerRevision",
        "apiVersion": "apps/v1",
        "metadata": {
            "name": "web-1",
            "namespace": "default",
            "uid": "u1",
            "resourceVersion": "5",
            "creationTimestamp": "2024-01-02T03:04:05Z",
            // Deliberately unsorted: gogo sorts map keys.
            "labels": {"b": "2", "a": "1"}
        },
        "data": {"x": 1},
        "revision": 1
    });
    let object_meta = cat(&[
        &[0x0a, 0x05],
        b"web-1",      // 1 name
        &[0x12, 0x00], // 2 generateName "" (non-pointer: always written)
        &[0x1a, 0x07],
        b"default",    // 3 namespace
        &[0x22, 0x00], // 4 selfLink ""
        &[0x2a, 0x02],
        b"u1", // 5 uid
        &[0x32, 0x01],
        b"5",                // 6 resourceVersion
        &[0x38, 0x00],       // 7 generation 0
        &[0x42, 0x08, 0x08], // 8 creationTimestamp: Timestamp{1 seconds
        &T_2024_01_02,
        &[0x10, 0x00], //                                 2 nanos 0}
        // 9 deletionTimestamp, 10 deletionGracePeriodSeconds: nil pointers, absent.
        &[0x5a, 0x06, 0x0a, 0x01, b'a', 0x12, 0x01, b'1'], // 11 labels {a: 1}
        &[0x5a, 0x06, 0x0a, 0x01, b'b', 0x12, 0x01, b'2'], // 11 labels {b: 2}
    ]);
    assert_eq!(object_meta.len(), 0x37);
    let controller_revision = cat(&[
        &[0x0a, 0x37], // 1 metadata (55 bytes)
        &object_meta,
        &[0x12, 0x09, 0x0a, 0x07], // 2 data: RawExtension{1 raw (7 bytes)}
        br#"{"x":1}"#,
        &[0x18, 0x01], // 3 revision 1
    ]);
    assert_eq!(controller_revision.len(), 0x46);
    let want = cat(&[
        b"k8s\0",
        &[0x0a, 0x1d], // 1 typeMeta (29 bytes)
        &[0x0a, 0x07],
        b"apps/v1", //   1 apiVersion
        &[0x12, 0x12],
        b"ControllerRevision", // 2 kind
        &[0x12, 0x46],         // 2 raw (70 bytes)
        &controller_revision,
        &[0x1a, 0x00], // 3 contentEncoding ""
        &[0x22, 0x00], // 4 contentType ""
    ]);
    assert_eq!(encode(&obj).unwrap(), want);
    // And back: canonical JSON (labels sorted, zero fields omitted as Go's JSON does).
    let back = decode(&want).unwrap();
    assert_eq!(
        json::to_compact_string(&back),
        r#"{"kind":"ControllerRevision","apiVersion":"apps/v1","metadata":{"name":"web-1","namespace":"default","uid":"u1","resourceVersion":"5","creationTimestamp":"2024-01-02T03:04:05Z","labels":{"a":"1","b":"2"}},"data":{"x":1},"revision":1}"#
    );
}

#[test]
fn status_envelope() {
    let obj = json!({
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Failure",
        "message": "controllerrevisions.apps \"x\" not found",
        "reason": "NotFound",
        "details": {"name": "x", "group": "apps", "kind": "controllerrevisions"},
        "code": 404
    });
    let details = cat(&[
        &[0x0a, 0x01],
        b"x", // 1 name
        &[0x12, 0x04],
        b"apps", // 2 group
        &[0x1a, 0x13],
        b"controllerrevisions", // 3 kind (19 bytes)
        // 4 causes: none
        &[0x28, 0x00], // 5 retryAfterSeconds 0
        &[0x32, 0x00], // 6 uid ""
    ]);
    assert_eq!(details.len(), 0x22);
    let status = cat(&[
        // 1 metadata: ListMeta{1 selfLink "", 2 resourceVersion "", 3 continue ""}
        &[0x0a, 0x06, 0x0a, 0x00, 0x12, 0x00, 0x1a, 0x00],
        &[0x12, 0x07],
        b"Failure", // 2 status
        &[0x1a, 0x26],
        b"controllerrevisions.apps \"x\" not found", // 3 message (38 bytes)
        &[0x22, 0x08],
        b"NotFound",   // 4 reason
        &[0x2a, 0x22], // 5 details (34 bytes)
        &details,
        &[0x30, 0x94, 0x03], // 6 code 404
    ]);
    assert_eq!(status.len(), 0x6a);
    let want = cat(&[
        b"k8s\0",
        &[0x0a, 0x0c, 0x0a, 0x02], // 1 typeMeta (12 bytes)
        b"v1",
        &[0x12, 0x06],
        b"Status",
        &[0x12, 0x6a],
        &status,
        &[0x1a, 0x00, 0x22, 0x00],
    ]);
    assert_eq!(encode(&obj).unwrap(), want);
    assert_eq!(decode(&want).unwrap(), obj);
    assert_eq!(
        json::to_compact_string(&decode(&want).unwrap()),
        json::to_compact_string(&obj)
    );
}

/// A BOOKMARK for ControllerRevision, as a protobuf watch frame (reference §2.1, §5.4).
#[test]
fn watch_event_frame() {
    let obj = json!({
        "kind": "ControllerRevision",
        "apiVersion": "apps/v1",
        "metadata": {"resourceVersion": "12"},
        "data": null,
        "revision": 0
    });
    let object_meta = cat(&[
        &[0x0a, 0x00, 0x12, 0x00, 0x1a, 0x00, 0x22, 0x00, 0x2a, 0x00], // 1-5 ""
        &[0x32, 0x02],
        b"12",         // 6 resourceVersion
        &[0x38, 0x00], // 7 generation 0
        &[0x42, 0x00], // 8 creationTimestamp: zero Time is an empty message
    ]);
    let controller_revision = cat(&[
        &[0x0a, 0x12],
        &object_meta,
        &[0x12, 0x00], // 2 data: RawExtension with nil raw
        &[0x18, 0x00], // 3 revision 0
    ]);
    let envelope = cat(&[
        b"k8s\0",
        &[0x0a, 0x1d, 0x0a, 0x07],
        b"apps/v1",
        &[0x12, 0x12],
        b"ControllerRevision",
        &[0x12, 0x18],
        &controller_revision,
        &[0x1a, 0x00, 0x22, 0x00],
    ]);
    assert_eq!(envelope.len(), 0x41);
    let event = cat(&[
        &[0x0a, 0x08],
        b"BOOKMARK",               // 1 type
        &[0x12, 0x43, 0x0a, 0x41], // 2 object: RawExtension{1 raw = envelope (65 bytes)}
        &envelope,
    ]);
    assert_eq!(event.len(), 0x4f);
    let want = cat(&[&[0x00, 0x00, 0x00, 0x4f], &event]);
    assert_eq!(watch_frame("BOOKMARK", &obj).unwrap(), want);
    assert_eq!(
        decode_watch_frames(&want).unwrap(),
        vec![("BOOKMARK".to_string(), obj)]
    );
}

/// Pointer fields: written only when set, and then even when zero.
#[test]
fn pointer_fields_and_owner_reference_order() {
    let obj = json!({
        "kind": "PartialObjectMetadata",
        "apiVersion": "meta.k8s.io/v1",
        "metadata": {
            "deletionTimestamp": "2024-01-02T03:04:05Z",
            "deletionGracePeriodSeconds": 0,
            "ownerReferences": [
                {"apiVersion": "apps/v1", "kind": "StatefulSet", "name": "s", "uid": "o", "controller": false}
            ],
            "finalizers": ["a/b"]
        }
    });
    let owner = cat(&[
        &[0x0a, 0x0b],
        b"StatefulSet",      // 1 kind
        &[0x1a, 0x01, b's'], // 3 name
        &[0x22, 0x01, b'o'], // 4 uid
        &[0x2a, 0x07],
        b"apps/v1",    // 5 apiVersion
        &[0x30, 0x00], // 6 controller false (set); 7 blockOwnerDeletion unset
    ]);
    let object_meta = cat(&[
        &[
            0x0a, 0x00, 0x12, 0x00, 0x1a, 0x00, 0x22, 0x00, 0x2a, 0x00, 0x32, 0x00,
        ],
        &[0x38, 0x00],
        &[0x42, 0x00],       // 8 zero creationTimestamp
        &[0x4a, 0x08, 0x08], // 9 deletionTimestamp
        &T_2024_01_02,
        &[0x10, 0x00],
        &[0x50, 0x00], // 10 deletionGracePeriodSeconds 0 (set)
        &[0x6a, 0x1e], // 13 ownerReferences[0] (30 bytes)
        &owner,
        &[0x72, 0x03],
        b"a/b", // 14 finalizers
    ]);
    let want_raw = cat(&[&[0x0a, object_meta.len() as u8], &object_meta]);
    let bytes = encode(&obj).unwrap();
    assert!(bytes.ends_with(&cat(&[&want_raw, &[0x1a, 0x00, 0x22, 0x00]])));
    assert_eq!(decode(&bytes).unwrap(), obj);
}

/// managedFields is field 17: a two-byte key `0x8a 0x01`.
#[test]
fn managed_fields_key_and_fields_v1() {
    let obj = json!({
        "kind": "PartialObjectMetadata",
        "apiVersion": "meta.k8s.io/v1",
        "metadata": {"managedFields": [{"manager": "m", "fieldsV1": {"f:a": {}}}]}
    });
    let entry = cat(&[
        &[0x0a, 0x01, b'm'],       // 1 manager
        &[0x12, 0x00],             // 2 operation ""
        &[0x1a, 0x00],             // 3 apiVersion ""
        &[0x32, 0x00],             // 6 fieldsType "" (4 time unset)
        &[0x3a, 0x0c, 0x0a, 0x0a], // 7 fieldsV1{1 raw (10 bytes)}
        br#"{"f:a":{}}"#,
        &[0x42, 0x00], // 8 subresource ""
    ]);
    let bytes = encode(&obj).unwrap();
    let tail = cat(&[
        &[0x8a, 0x01, entry.len() as u8],
        &entry,
        &[0x1a, 0x00, 0x22, 0x00],
    ]);
    assert!(bytes.ends_with(&tail), "{bytes:02x?}");
    assert_eq!(decode(&bytes).unwrap(), obj);
}
