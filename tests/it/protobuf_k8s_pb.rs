//! Cross-check of `kubesim::codec::protobuf` against an independent implementation: the
//! prost-generated `k8s-pb` messages (built from the upstream `generated.proto` files).
//!
//! Each test goes both ways: bytes from kubesim are decoded by prost and compared field by
//! field with a hand-built `k8s-pb` struct (and prost's re-encoding of them must reproduce the
//! bytes exactly, since proto2 `optional` keeps presence), and bytes from prost are decoded by
//! kubesim and compared with the canonical JSON. Empty map values are avoided in byte-equality
//! checks: prost leaves out an entry's default key/value, gogo always writes both.

use std::collections::BTreeMap;

use k8s_pb::api::apps::v1 as apps;
use k8s_pb::api::core::v1 as core;
use k8s_pb::apimachinery::pkg::apis::meta::v1 as meta;
use k8s_pb::apimachinery::pkg::runtime;
use kubesim::codec::protobuf::{self, MAGIC};

// The serializer under test, built with the built-in kinds.
fn encode(obj: &Value) -> Result<Vec<u8>, String> {
    protobuf::encode(obj, &kubesim::resources::SCHEME)
}
fn decode(bytes: &[u8]) -> Result<Value, String> {
    protobuf::decode(bytes, &kubesim::resources::SCHEME)
}
fn watch_frame(event_type: &str, obj: &Value) -> Result<Vec<u8>, String> {
    protobuf::watch_frame(event_type, obj, &kubesim::resources::SCHEME)
}
fn decode_watch_frames(bytes: &[u8]) -> Result<Vec<(String, Value)>, String> {
    protobuf::decode_watch_frames(bytes, &kubesim::resources::SCHEME)
}
use prost::Message;
use serde_json::{json, Value};

fn s(v: &str) -> Option<String> {
    Some(v.to_string())
}

fn t(seconds: i64) -> Option<meta::Time> {
    Some(meta::Time {
        seconds: Some(seconds),
        nanos: Some(0),
    })
}

/// A zero `metav1.Time` as gogo writes it: present, empty.
fn zero_time() -> Option<meta::Time> {
    Some(meta::Time::default())
}

/// Checks kubesim's envelope with prost and returns (apiVersion, kind, raw).
fn strip(bytes: &[u8]) -> (String, String, Vec<u8>) {
    assert_eq!(bytes[..4], MAGIC);
    let unk = runtime::Unknown::decode(&bytes[4..]).expect("prost decodes the envelope");
    assert_eq!(unk.content_encoding.as_deref(), Some(""));
    assert_eq!(unk.content_type.as_deref(), Some(""));
    let tm = unk.type_meta.expect("typeMeta");
    // The envelope prost would write for the same content is byte-identical.
    assert_eq!(
        wrap(
            tm.api_version.as_deref().unwrap(),
            tm.kind.as_deref().unwrap(),
            unk.raw.as_deref().unwrap()
        ),
        bytes
    );
    (
        tm.api_version.unwrap(),
        tm.kind.unwrap(),
        unk.raw.expect("raw"),
    )
}

/// `k8s\0` + prost-encoded Unknown, as gogo writes it (empty strings present).
fn wrap(api_version: &str, kind: &str, raw: &[u8]) -> Vec<u8> {
    let unk = runtime::Unknown {
        type_meta: Some(runtime::TypeMeta {
            api_version: s(api_version),
            kind: s(kind),
        }),
        raw: Some(raw.to_vec()),
        content_encoding: s(""),
        content_type: s(""),
    };
    let mut out = MAGIC.to_vec();
    out.extend(unk.encode_to_vec());
    out
}

/// kubesim → prost: decodes to `want`, and prost re-encodes to the same bytes.
fn check_ours<M: Message + Default + PartialEq + std::fmt::Debug>(
    obj: &Value,
    want_kind: &str,
    want: &M,
) {
    let bytes = encode(obj).unwrap();
    let (api_version, kind, raw) = strip(&bytes);
    assert_eq!(kind, want_kind);
    assert_eq!(api_version, obj["apiVersion"].as_str().unwrap());
    let got = M::decode(raw.as_slice()).expect("prost decodes the object");
    assert_eq!(&got, want);
    assert_eq!(want.encode_to_vec(), raw, "byte-identical to prost");
    // prost → kubesim: the canonical JSON again.
    let back = decode(&wrap(&api_version, &kind, &want.encode_to_vec())).unwrap();
    assert_eq!(back.to_string(), obj.to_string());
}

fn object_meta_json() -> Value {
    json!({
        "name": "web-1",
        "generateName": "web-",
        "namespace": "default",
        "uid": "u-1",
        "resourceVersion": "42",
        "generation": 3,
        "creationTimestamp": "2024-01-02T03:04:05Z",
        "deletionTimestamp": "2024-05-06T07:08:09Z",
        "deletionGracePeriodSeconds": 30,
        "labels": {"b": "2", "a": "1"},
        "annotations": {"note": "x"},
        "ownerReferences": [
            {"apiVersion": "apps/v1", "kind": "StatefulSet", "name": "web", "uid": "o-1", "controller": true, "blockOwnerDeletion": false},
            {"apiVersion": "v1", "kind": "Pod", "name": "p", "uid": "o-2"}
        ],
        "finalizers": ["example.com/f"],
        "managedFields": [{
            "manager": "kubectl", "operation": "Update", "apiVersion": "apps/v1",
            "time": "2024-01-02T03:04:05Z", "fieldsType": "FieldsV1",
            "fieldsV1": {"f:metadata": {"f:labels": {".": {}, "f:a": {}}}}
        }]
    })
}

fn object_meta_pb() -> meta::ObjectMeta {
    meta::ObjectMeta {
        name: s("web-1"),
        generate_name: s("web-"),
        namespace: s("default"),
        self_link: s(""),
        uid: s("u-1"),
        resource_version: s("42"),
        generation: Some(3),
        creation_timestamp: t(1_704_164_645),
        deletion_timestamp: t(1_714_979_289),
        deletion_grace_period_seconds: Some(30),
        labels: BTreeMap::from([("a".into(), "1".into()), ("b".into(), "2".into())]),
        annotations: BTreeMap::from([("note".into(), "x".into())]),
        owner_references: vec![
            meta::OwnerReference {
                api_version: s("apps/v1"),
                kind: s("StatefulSet"),
                name: s("web"),
                uid: s("o-1"),
                controller: Some(true),
                block_owner_deletion: Some(false),
            },
            meta::OwnerReference {
                api_version: s("v1"),
                kind: s("Pod"),
                name: s("p"),
                uid: s("o-2"),
                controller: None,
                block_owner_deletion: None,
            },
        ],
        finalizers: vec!["example.com/f".into()],
        managed_fields: vec![meta::ManagedFieldsEntry {
            manager: s("kubectl"),
            operation: s("Update"),
            api_version: s("apps/v1"),
            time: t(1_704_164_645),
            fields_type: s("FieldsV1"),
            fields_v1: Some(meta::FieldsV1 {
                raw: Some(br#"{"f:metadata":{"f:labels":{".":{},"f:a":{}}}}"#.to_vec()),
            }),
            subresource: s(""),
        }],
    }
}

/// gogo's ObjectMeta for `metadata: {}`: every string present and empty, zero Time present.
fn empty_object_meta_pb() -> meta::ObjectMeta {
    meta::ObjectMeta {
        name: s(""),
        generate_name: s(""),
        namespace: s(""),
        self_link: s(""),
        uid: s(""),
        resource_version: s(""),
        generation: Some(0),
        creation_timestamp: zero_time(),
        ..Default::default()
    }
}

fn list_meta_pb(rv: &str, cont: &str, remaining: Option<i64>) -> meta::ListMeta {
    meta::ListMeta {
        self_link: s(""),
        resource_version: s(rv),
        r#continue: s(cont),
        remaining_item_count: remaining,
    }
}

#[test]
fn controller_revision() {
    let obj = json!({
        "kind": "ControllerRevision", "apiVersion": "apps/v1",
        "metadata": object_meta_json(),
        "data": {"spec": {"replicas": 3, "f": 1.5, "s": "<&>"}},
        "revision": 7
    });
    // Canonical form has labels sorted; the input above is not, so compare via the sorted one.
    let mut canonical = obj.clone();
    canonical["metadata"]["labels"] = json!({"a": "1", "b": "2"});
    let want = apps::ControllerRevision {
        metadata: Some(object_meta_pb()),
        data: Some(runtime::RawExtension {
            raw: Some(br#"{"spec":{"replicas":3,"f":1.5,"s":"\u003c\u0026\u003e"}}"#.to_vec()),
        }),
        revision: Some(7),
    };
    check_ours(&canonical, "ControllerRevision", &want);
    assert_eq!(encode(&obj).unwrap(), encode(&canonical).unwrap());

    let bookmark = json!({"kind": "ControllerRevision", "apiVersion": "apps/v1",
        "metadata": {"resourceVersion": "12"}, "data": null, "revision": 0});
    let want = apps::ControllerRevision {
        metadata: Some(meta::ObjectMeta {
            resource_version: s("12"),
            ..empty_object_meta_pb()
        }),
        data: Some(runtime::RawExtension { raw: None }),
        revision: Some(0),
    };
    check_ours(&bookmark, "ControllerRevision", &want);
}

#[test]
fn controller_revision_list() {
    let obj = json!({
        "kind": "ControllerRevisionList", "apiVersion": "apps/v1",
        "metadata": {"resourceVersion": "100", "continue": "c", "remainingItemCount": 2},
        "items": [
            {"metadata": {"name": "a"}, "data": {"x": 1}, "revision": 1},
            {"metadata": {"name": "b"}, "data": null, "revision": 2}
        ]
    });
    let item = |name: &str, raw: Option<&[u8]>, revision| apps::ControllerRevision {
        metadata: Some(meta::ObjectMeta {
            name: s(name),
            ..empty_object_meta_pb()
        }),
        data: Some(runtime::RawExtension {
            raw: raw.map(<[u8]>::to_vec),
        }),
        revision: Some(revision),
    };
    let want = apps::ControllerRevisionList {
        metadata: Some(list_meta_pb("100", "c", Some(2))),
        items: vec![item("a", Some(br#"{"x":1}"#), 1), item("b", None, 2)],
    };
    check_ours(&obj, "ControllerRevisionList", &want);

    let empty = json!({"kind": "ControllerRevisionList", "apiVersion": "apps/v1", "metadata": {}, "items": []});
    let want = apps::ControllerRevisionList {
        metadata: Some(list_meta_pb("", "", None)),
        items: vec![],
    };
    check_ours(&empty, "ControllerRevisionList", &want);
}

/// `shardInfo` (field 5, 1.36) is newer than k8s-pb: prost skips it as an unknown field.
#[test]
fn list_meta_shard_info_is_skippable() {
    let obj = json!({"kind": "ControllerRevisionList", "apiVersion": "apps/v1",
        "metadata": {"resourceVersion": "5", "shardInfo": {"selector": "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')"}},
        "items": []});
    let (_, _, raw) = strip(&encode(&obj).unwrap());
    let got = apps::ControllerRevisionList::decode(raw.as_slice()).unwrap();
    assert_eq!(got.metadata, Some(list_meta_pb("5", "", None)));
    assert_eq!(decode(&encode(&obj).unwrap()).unwrap(), obj);
}

#[test]
fn namespace_and_list() {
    let obj = json!({
        "kind": "Namespace", "apiVersion": "v1",
        "metadata": {"name": "team-a", "deletionTimestamp": "2024-05-06T07:08:09Z", "labels": {"kubernetes.io/metadata.name": "team-a"}},
        "spec": {"finalizers": ["kubernetes"]},
        "status": {"phase": "Terminating", "conditions": [
            {"type": "NamespaceContentRemaining", "status": "True", "lastTransitionTime": "2024-05-06T07:08:09Z", "reason": "SomeResourcesRemain", "message": "m"},
            {"type": "NamespaceFinalizersRemaining", "status": "False", "lastTransitionTime": null}
        ]}
    });
    let namespace = core::Namespace {
        metadata: Some(meta::ObjectMeta {
            name: s("team-a"),
            deletion_timestamp: t(1_714_979_289),
            labels: BTreeMap::from([("kubernetes.io/metadata.name".into(), "team-a".into())]),
            ..empty_object_meta_pb()
        }),
        spec: Some(core::NamespaceSpec {
            finalizers: vec!["kubernetes".into()],
        }),
        status: Some(core::NamespaceStatus {
            phase: s("Terminating"),
            conditions: vec![
                core::NamespaceCondition {
                    r#type: s("NamespaceContentRemaining"),
                    status: s("True"),
                    last_transition_time: t(1_714_979_289),
                    reason: s("SomeResourcesRemain"),
                    message: s("m"),
                },
                core::NamespaceCondition {
                    r#type: s("NamespaceFinalizersRemaining"),
                    status: s("False"),
                    last_transition_time: zero_time(),
                    reason: s(""),
                    message: s(""),
                },
            ],
        }),
    };
    check_ours(&obj, "Namespace", &namespace);

    let mut item = obj.clone();
    let item = item.as_object_mut().unwrap();
    item.shift_remove("kind");
    item.shift_remove("apiVersion");
    let list = json!({"kind": "NamespaceList", "apiVersion": "v1", "metadata": {"resourceVersion": "9"},
        "items": [item, {"metadata": {}, "spec": {}, "status": {}}]});
    let want = core::NamespaceList {
        metadata: Some(list_meta_pb("9", "", None)),
        items: vec![
            namespace,
            core::Namespace {
                metadata: Some(empty_object_meta_pb()),
                spec: Some(core::NamespaceSpec::default()),
                status: Some(core::NamespaceStatus {
                    phase: s(""),
                    conditions: vec![],
                }),
            },
        ],
    };
    check_ours(&list, "NamespaceList", &want);
}

#[test]
fn status() {
    let obj = json!({
        "kind": "Status", "apiVersion": "v1", "metadata": {},
        "status": "Failure",
        "message": "ControllerRevision.apps \"x\" is invalid: revision: Invalid value: -1: must be greater than or equal to 0",
        "reason": "Invalid",
        "details": {"name": "x", "group": "apps", "kind": "ControllerRevision",
            "causes": [{"reason": "FieldValueInvalid", "message": "Invalid value: -1: must be greater than or equal to 0", "field": "revision"}]},
        "code": 422
    });
    let want = meta::Status {
        metadata: Some(list_meta_pb("", "", None)),
        status: s("Failure"),
        message: s("ControllerRevision.apps \"x\" is invalid: revision: Invalid value: -1: must be greater than or equal to 0"),
        reason: s("Invalid"),
        details: Some(meta::StatusDetails {
            name: s("x"),
            group: s("apps"),
            kind: s("ControllerRevision"),
            uid: s(""),
            causes: vec![meta::StatusCause {
                reason: s("FieldValueInvalid"),
                message: s("Invalid value: -1: must be greater than or equal to 0"),
                field: s("revision"),
            }],
            retry_after_seconds: Some(0),
        }),
        code: Some(422),
    };
    check_ours(&obj, "Status", &want);

    let success = json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success",
        "details": {"name": "a", "group": "apps", "kind": "controllerrevisions", "uid": "u"}});
    let want = meta::Status {
        metadata: Some(list_meta_pb("", "", None)),
        status: s("Success"),
        message: s(""),
        reason: s(""),
        details: Some(meta::StatusDetails {
            name: s("a"),
            group: s("apps"),
            kind: s("controllerrevisions"),
            uid: s("u"),
            causes: vec![],
            retry_after_seconds: Some(0),
        }),
        code: Some(0),
    };
    check_ours(&success, "Status", &want);
}

#[test]
fn delete_options() {
    let obj = json!({"kind": "DeleteOptions", "apiVersion": "v1", "gracePeriodSeconds": 0,
        "preconditions": {"uid": "u", "resourceVersion": "5"}, "orphanDependents": false,
        "propagationPolicy": "Background", "dryRun": ["All"]});
    let want = meta::DeleteOptions {
        grace_period_seconds: Some(0),
        preconditions: Some(meta::Preconditions {
            uid: s("u"),
            resource_version: s("5"),
        }),
        orphan_dependents: Some(false),
        propagation_policy: s("Background"),
        dry_run: vec!["All".into()],
        ignore_store_read_error_with_cluster_breaking_potential: None,
    };
    check_ours(&obj, "DeleteOptions", &want);
    // A client that sets nothing: only pointers, so nothing on the wire.
    check_ours(
        &json!({"kind": "DeleteOptions", "apiVersion": "v1"}),
        "DeleteOptions",
        &meta::DeleteOptions::default(),
    );
}

#[test]
fn partial_object_metadata() {
    let mut metadata = object_meta_json();
    metadata["labels"] = json!({"a": "1", "b": "2"}); // canonical: sorted
    let obj = json!({"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1", "metadata": metadata});
    let want = meta::PartialObjectMetadata {
        metadata: Some(object_meta_pb()),
    };
    check_ours(&obj, "PartialObjectMetadata", &want);

    let list = json!({"kind": "PartialObjectMetadataList", "apiVersion": "meta.k8s.io/v1",
        "metadata": {"resourceVersion": "5"},
        "items": [{"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1", "metadata": {"name": "a"}}]});
    let want = meta::PartialObjectMetadataList {
        metadata: Some(list_meta_pb("5", "", None)),
        items: vec![meta::PartialObjectMetadata {
            metadata: Some(meta::ObjectMeta {
                name: s("a"),
                ..empty_object_meta_pb()
            }),
        }],
    };
    check_ours(&list, "PartialObjectMetadataList", &want);
}

#[test]
fn watch_frames() {
    let added = json!({"kind": "Namespace", "apiVersion": "v1", "metadata": {"name": "a"}, "spec": {}, "status": {"phase": "Active"}});
    let error = json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
        "message": "too old resource version: 1 (2)", "reason": "Expired", "code": 410});
    let mut stream = watch_frame("ADDED", &added).unwrap();
    stream.extend(watch_frame("ERROR", &error).unwrap());

    // Parse with prost: length prefix, bare WatchEvent, object.raw = full envelope.
    let mut rest = stream.as_slice();
    let mut seen = Vec::new();
    while !rest.is_empty() {
        let len = u32::from_be_bytes(rest[..4].try_into().unwrap()) as usize;
        let event = meta::WatchEvent::decode(&rest[4..4 + len]).unwrap();
        let raw = event.object.unwrap().raw.unwrap();
        let (api_version, kind, _) = strip(&raw);
        seen.push((event.r#type.unwrap(), api_version, kind));
        rest = &rest[4 + len..];
    }
    assert_eq!(
        seen,
        [
            ("ADDED".into(), "v1".into(), "Namespace".into()),
            ("ERROR".into(), "v1".into(), "Status".into())
        ]
    );

    // Frames written with prost read back with kubesim.
    let ns = core::Namespace {
        metadata: Some(meta::ObjectMeta {
            name: s("a"),
            ..empty_object_meta_pb()
        }),
        spec: Some(core::NamespaceSpec::default()),
        status: Some(core::NamespaceStatus {
            phase: s("Active"),
            conditions: vec![],
        }),
    };
    let event = meta::WatchEvent {
        r#type: s("ADDED"),
        object: Some(runtime::RawExtension {
            raw: Some(wrap("v1", "Namespace", &ns.encode_to_vec())),
        }),
    }
    .encode_to_vec();
    let mut frame = (event.len() as u32).to_be_bytes().to_vec();
    frame.extend(&event);
    assert_eq!(frame, watch_frame("ADDED", &added).unwrap());
    assert_eq!(
        decode_watch_frames(&frame).unwrap(),
        vec![("ADDED".to_string(), added)]
    );
}

/// A sparse encoder (fields left out instead of written empty) still decodes to the canonical
/// JSON, with Go's zero values.
#[test]
fn sparse_prost_messages_decode_canonically() {
    let cr = apps::ControllerRevision {
        metadata: Some(meta::ObjectMeta {
            name: s("x"),
            ..Default::default()
        }),
        data: None,
        revision: None,
    };
    assert_eq!(
        decode(&wrap("apps/v1", "ControllerRevision", &cr.encode_to_vec())).unwrap(),
        json!({"kind": "ControllerRevision", "apiVersion": "apps/v1", "metadata": {"name": "x"}, "data": null, "revision": 0})
    );
    let st = meta::Status {
        code: Some(500),
        ..Default::default()
    };
    assert_eq!(
        decode(&wrap("v1", "Status", &st.encode_to_vec())).unwrap(),
        json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "code": 500})
    );
}

/// Discovery documents are served as Protobuf when asked, and decode as the upstream
/// messages (`APIVersions`, `APIGroupList`, `APIGroup`, `APIResourceList`).
#[test]
fn discovery_documents_as_protobuf() {
    use crate::common::engine;
    let mut e = engine();
    let mut fetch = |path: &str| {
        let req = http::Request::builder()
            .uri(path)
            .header("accept", "application/vnd.kubernetes.protobuf")
            .body(bytes::Bytes::new())
            .unwrap();
        let resp = e.handle(req);
        assert_eq!(resp.status().as_u16(), 200, "{path}");
        assert_eq!(
            resp.headers()["content-type"],
            "application/vnd.kubernetes.protobuf",
            "{path}"
        );
        let json = {
            let req = http::Request::builder()
                .uri(path)
                .body(bytes::Bytes::new())
                .unwrap();
            serde_json::from_slice::<Value>(e.handle(req).body().bytes()).unwrap()
        };
        (strip(resp.body().bytes()), json)
    };
    let ((_, kind, raw), json) = fetch("/api");
    assert_eq!(kind, "APIVersions");
    let versions = meta::APIVersions::decode(&raw[..]).unwrap();
    assert_eq!(versions.versions, ["v1"]);
    assert_eq!(
        versions.server_address_by_client_cid_rs[0]
            .client_cidr
            .as_deref(),
        Some("0.0.0.0/0")
    );
    // Like its JSON, the document carries no apiVersion.
    assert_eq!(json.get("apiVersion"), None);

    let ((api_version, kind, raw), json) = fetch("/apis");
    assert_eq!(
        (api_version.as_str(), kind.as_str()),
        ("v1", "APIGroupList")
    );
    let groups = meta::APIGroupList::decode(&raw[..]).unwrap();
    let names: Vec<&str> = groups
        .groups
        .iter()
        .filter_map(|g| g.name.as_deref())
        .collect();
    let want: Vec<&str> = json["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, want);

    let ((_, kind, raw), json) = fetch("/apis/apps");
    assert_eq!(kind, "APIGroup");
    let group = meta::APIGroup::decode(&raw[..]).unwrap();
    assert_eq!(
        group.preferred_version.unwrap().group_version.as_deref(),
        json["preferredVersion"]["groupVersion"].as_str()
    );

    let ((_, kind, raw), json) = fetch("/apis/apps/v1");
    assert_eq!(kind, "APIResourceList");
    let list = meta::APIResourceList::decode(&raw[..]).unwrap();
    assert_eq!(list.group_version.as_deref(), Some("apps/v1"));
    let first = &list.resources[0];
    assert_eq!(first.name.as_deref(), json["resources"][0]["name"].as_str());
    assert_eq!(
        first.verbs.as_ref().unwrap().items,
        json["resources"][0]["verbs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    );
    // kubesim reads its own bytes back to the JSON document.
    assert_eq!(decode(&encode(&json).unwrap()).unwrap(), json);
}
