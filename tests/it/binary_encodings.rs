//! Protobuf and CBOR through the negotiation path: responses (object, list, metadata-only,
//! errors), request bodies and watch streams, decoded by kubesim's codecs and, for protobuf,
//! by the prost-generated `k8s-pb` messages a real client uses. CBOR only with its gate.

use crate::common::*;
use k8s_pb::api::apps::v1 as apps;
use k8s_pb::apimachinery::pkg::runtime;
use kubesim::codec::{cbor, protobuf};
use kubesim::{Config, Engine};
use prost::Message;
use serde_json::{json, Value};

const PROTOBUF: &str = "application/vnd.kubernetes.protobuf";
const CBOR: &str = "application/cbor";

fn raw(
    e: &mut Engine,
    method: &str,
    uri: &str,
    body: Vec<u8>,
    headers: &[(&str, &str)],
) -> (u16, String, Vec<u8>) {
    let mut b = http::Request::builder().method(method).uri(uri);
    for (k, v) in headers {
        b = b.header(*k, *v);
    }
    let resp = e.handle(b.body(bytes::Bytes::from(body)).unwrap());
    let code = resp.status().as_u16();
    let ct = resp.headers()["content-type"].to_str().unwrap().to_string();
    (code, ct, resp.body().bytes().to_vec())
}

fn stored(e: &mut Engine, uri: &str) -> Value {
    get(e, uri).json
}

#[test]
fn protobuf_responses_requests_and_watch() {
    let mut e = engine();
    // A protobuf request body.
    let body = protobuf::encode(&cr_body("p1", 3), &kubesim::resources::SCHEME).unwrap();
    let (code, _, created) = raw(
        &mut e,
        "POST",
        &crs("default"),
        body,
        &[("content-type", PROTOBUF)],
    );
    assert_eq!(code, 201, "{}", String::from_utf8_lossy(&created));
    // The object, decoded by k8s-pb as client-go would.
    let (code, ct, bytes) = raw(
        &mut e,
        "GET",
        &cr("default", "p1"),
        vec![],
        &[("accept", PROTOBUF)],
    );
    assert_eq!((code, ct.as_str()), (200, PROTOBUF));
    assert_eq!(bytes[..4], protobuf::MAGIC);
    let unknown = runtime::Unknown::decode(&bytes[4..]).unwrap();
    assert_eq!(
        unknown.type_meta.as_ref().unwrap().kind.as_deref(),
        Some("ControllerRevision")
    );
    let cr_pb = apps::ControllerRevision::decode(unknown.raw.as_deref().unwrap()).unwrap();
    assert_eq!(cr_pb.revision, Some(3));
    assert_eq!(cr_pb.metadata.unwrap().name.as_deref(), Some("p1"));
    assert_eq!(
        protobuf::decode(&bytes, &kubesim::resources::SCHEME).unwrap(),
        stored(&mut e, &cr("default", "p1"))
    );
    // The list.
    let (_, _, bytes) = raw(
        &mut e,
        "GET",
        &crs("default"),
        vec![],
        &[("accept", PROTOBUF)],
    );
    let mut json_list = stored(&mut e, &crs("default"));
    let pb_list = protobuf::decode(&bytes, &kubesim::resources::SCHEME).unwrap();
    assert_eq!(pb_list["items"], json_list["items"]);
    json_list.as_object_mut().unwrap().remove("items");
    assert_eq!(pb_list["metadata"], json_list["metadata"]);
    // Metadata only.
    let (_, _, bytes) = raw(
        &mut e,
        "GET",
        &cr("default", "p1"),
        vec![],
        &[(
            "accept",
            "application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1",
        )],
    );
    let partial = protobuf::decode(&bytes, &kubesim::resources::SCHEME).unwrap();
    assert_eq!(partial["kind"], "PartialObjectMetadata");
    assert_eq!(partial["metadata"]["name"], "p1");
    // Errors are Status messages.
    let (code, ct, bytes) = raw(
        &mut e,
        "GET",
        &cr("default", "nope"),
        vec![],
        &[("accept", PROTOBUF)],
    );
    assert_eq!((code, ct.as_str()), (404, PROTOBUF));
    assert_eq!(
        protobuf::decode(&bytes, &kubesim::resources::SCHEME).unwrap()["reason"],
        "NotFound"
    );
    // A body without the envelope is refused as the serializer refuses it.
    let (code, _, bytes) = raw(
        &mut e,
        "POST",
        &crs("default"),
        b"{}".to_vec(),
        &[("content-type", PROTOBUF)],
    );
    assert_eq!(code, 400);
    let status: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(
        status["message"],
        "the object provided is unrecognized (must be of type ControllerRevision): provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] ({})"
    );
}

#[test]
fn protobuf_watch_frames() {
    let mut e = engine();
    create_cr(&mut e, "default", &cr_body("w1", 1));
    let req = http::Request::builder()
        .uri(format!("{}?watch=true", crs("default")))
        .header("accept", PROTOBUF)
        .body(bytes::Bytes::new())
        .unwrap();
    let resp = e.handle(req);
    assert_eq!(
        resp.headers()["content-type"],
        "application/vnd.kubernetes.protobuf;stream=watch"
    );
    let kubesim::Body::Watch(mut s) = resp.into_body() else {
        panic!("not a watch");
    };
    create_cr(&mut e, "default", &cr_body("w2", 2));
    let bytes: Vec<u8> = s.drain().0.concat();
    let events = protobuf::decode_watch_frames(&bytes, &kubesim::resources::SCHEME).unwrap();
    let summary: Vec<String> = events
        .iter()
        .map(|(t, o)| format!("{t} {}", o["metadata"]["name"].as_str().unwrap()))
        .collect();
    assert_eq!(summary, ["ADDED w1", "ADDED w2"]);
}

fn cbor_engine() -> Engine {
    Engine::new(Config {
        feature_gates: kubesim::features::FeatureGates::parse("CBORServingAndStorage=true")
            .unwrap(),
        ..Config::default()
    })
}

#[test]
fn cbor_behind_its_gate() {
    let mut off = engine();
    let (code, _, _) = raw(
        &mut off,
        "GET",
        &crs("default"),
        vec![],
        &[("accept", CBOR)],
    );
    assert_eq!(code, 406);
    let (code, _, _) = raw(
        &mut off,
        "POST",
        &crs("default"),
        cbor::encode(&cr_body("c", 1)),
        &[("content-type", CBOR)],
    );
    assert_eq!(code, 415);

    let mut e = cbor_engine();
    let (code, _, _) = raw(
        &mut e,
        "POST",
        &crs("default"),
        cbor::encode(&cr_body("c1", 1)),
        &[("content-type", CBOR)],
    );
    assert_eq!(code, 201);
    let (code, ct, bytes) = raw(
        &mut e,
        "GET",
        &cr("default", "c1"),
        vec![],
        &[("accept", CBOR)],
    );
    assert_eq!((code, ct.as_str()), (200, CBOR));
    assert!(cbor::is_cbor(&bytes));
    assert_eq!(
        cbor::decode(&bytes).unwrap(),
        stored(&mut e, &cr("default", "c1"))
    );
    // The 406 lists now include CBOR and its stream type.
    let (_, _, bytes) = raw(
        &mut e,
        "GET",
        &crs("default"),
        vec![],
        &[("accept", "application/json;q=0")],
    );
    let status: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(
        status["message"],
        "only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf, application/cbor"
    );
    // Table is never CBOR.
    let (code, _, _) = raw(
        &mut e,
        "GET",
        &crs("default"),
        vec![],
        &[("accept", "application/cbor;as=Table;g=meta.k8s.io;v=v1")],
    );
    assert_eq!(code, 406);
    // A watch asked as application/cbor answers application/cbor-seq.
    let items = cbor_watch(&mut e, &crs("default"));
    assert_eq!(items[0]["type"], "ADDED");
    assert_eq!(items[0]["object"]["metadata"]["name"], json!("c1"));
}

/// The events a watch of `collection` asked as CBOR has delivered so far (its answer is
/// `application/cbor-seq`).
fn cbor_watch(e: &mut Engine, collection: &str) -> Vec<Value> {
    let req = http::Request::builder()
        .uri(format!("{collection}?watch=true"))
        .header("accept", CBOR)
        .body(bytes::Bytes::new())
        .unwrap();
    let resp = e.handle(req);
    assert_eq!(resp.headers()["content-type"], "application/cbor-seq");
    let kubesim::Body::Watch(mut s) = resp.into_body() else {
        panic!("not a watch");
    };
    cbor::decode_seq(&s.drain().0.concat()).unwrap()
}

/// The message of a JSON Status answer.
fn message_of(bytes: &[u8]) -> String {
    let status: Value = serde_json::from_slice(bytes).unwrap();
    status["message"].as_str().unwrap_or("").to_string()
}

#[test]
fn undecodable_bodies_carry_each_decoders_text() {
    let mut e = cbor_engine();
    let post = |e: &mut Engine, query: &str, body: Vec<u8>, ct: &str| {
        let (code, _, bytes) = raw(
            e,
            "POST",
            &format!("{}{query}", crs("default")),
            body,
            &[("content-type", ct), ("accept", "application/json")],
        );
        (code, message_of(&bytes))
    };
    let unrecognized = "the object provided is unrecognized (must be of type ControllerRevision): ";
    // A Protobuf envelope holding a field of wire type 7.
    assert_eq!(
        post(&mut e, "", b"k8s\x00\x0f\x01".to_vec(), PROTOBUF),
        (
            400,
            format!("{unrecognized}proto: illegal wireType 7 (6b3873000f01)")
        )
    );
    // CBOR: TypeMeta is read first, so malformed documents and duplicate keys fail there.
    assert_eq!(
        post(&mut e, "", vec![0xa1, 0x61], CBOR),
        (
            400,
            format!("{unrecognized}unable to determine group/version/kind: unexpected EOF (a161)")
        )
    );
    assert_eq!(
        post(&mut e, "", b"\xd9\xd9\xf7\xa2\x61a\x01\x61a\x02".to_vec(), CBOR),
        (
            400,
            format!("{unrecognized}unable to determine group/version/kind: cbor: found duplicate map key \"a\" at map element index 1 (d9d9f7a2616101616102)")
        )
    );
    // An unknown field under Strict: the first one, by its index in its map. The encoder
    // sorts keys (data, kind, bogus, ...), so `bogus` is element 2.
    let mut body = cr_body("cbx", 1);
    body["bogus"] = json!(1);
    assert_eq!(
        post(&mut e, "?fieldValidation=Strict", cbor::encode(&body), CBOR),
        (
            400,
            "ControllerRevision in version \"v1\" cannot be handled as a ControllerRevision: strict decoding error: cbor: found unknown field at map element index 2".to_string()
        )
    );
    let (code, _, _) = raw(
        &mut e,
        "POST",
        &format!("{}?fieldValidation=Warn", crs("default")),
        cbor::encode(&body),
        &[("content-type", CBOR)],
    );
    assert_eq!(code, 201);
}

/// A `[]byte` field (ConfigMap `binaryData`) is written as the real encoder writes it: tag
/// 22 around the raw bytes, in objects, lists and watch events; it reads back as base64.
#[test]
fn cbor_writes_byte_slices_as_tagged_bytes() {
    let mut e = cbor_engine();
    let cm = "/api/v1/namespaces/default/configmaps";
    let body =
        json!({"metadata": {"name": "b"}, "binaryData": {"k": "aGk="}, "data": {"s": "aGk="}});
    assert_eq!(post(&mut e, cm, &body).code, 201);
    // binaryData.k: key "k", then tag 22 (0xd6) and the byte string "hi"; data.s stays the
    // base64 text.
    let tagged = [0x41, b'k', 0xd6, 0x42, b'h', b'i'];
    let text = [0x41, b's', 0x44, b'a', b'G', b'k', b'='];
    let has = |hay: &[u8], needle: &[u8]| hay.windows(needle.len()).any(|w| w == needle);
    for uri in [format!("{cm}/b"), cm.to_string()] {
        let (code, _, bytes) = raw(&mut e, "GET", &uri, vec![], &[("accept", CBOR)]);
        assert_eq!(code, 200);
        assert!(has(&bytes, &tagged), "{uri}: {bytes:x?}");
        assert!(has(&bytes, &text), "{uri}: {bytes:x?}");
    }
    let (_, _, bytes) = raw(
        &mut e,
        "GET",
        &format!("{cm}/b"),
        vec![],
        &[("accept", CBOR)],
    );
    let back = cbor::decode(&bytes).unwrap();
    assert_eq!(back["binaryData"], json!({"k": "aGk="}));
    // What the server wrote, sent back, is the same object.
    let (code, _, _) = raw(
        &mut e,
        "PUT",
        &format!("{cm}/b"),
        bytes.clone(),
        &[("content-type", CBOR)],
    );
    assert_eq!(code, 200);
    assert_eq!(stored(&mut e, &format!("{cm}/b")), back);
    let req = http::Request::builder()
        .uri(format!("{cm}?watch=true"))
        .header("accept", CBOR)
        .body(bytes::Bytes::new())
        .unwrap();
    let kubesim::Body::Watch(mut s) = e.handle(req).into_body() else {
        panic!("not a watch");
    };
    assert!(has(&s.drain().0.concat(), &tagged));

    // A request's untagged byte string in a []byte field is its raw bytes, as in the typed
    // struct the real server decodes into (here bytes that are not UTF-8). The struct is the
    // URL's kind's, so a body without TypeMeta is read the same way.
    let typed = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "u"}});
    let bare = json!({"metadata": {"name": "w"}});
    for mut body in [typed, bare] {
        body["binaryData"] = json!({"k": "XXX"});
        let mut doc = cbor::encode(&body);
        let at = doc
            .windows(4)
            .position(|w| w == [0x43, b'X', b'X', b'X'])
            .unwrap();
        doc[at + 1..at + 4].copy_from_slice(&[0xff, 0x00, 0x41]);
        let (code, _, answer) = raw(&mut e, "POST", cm, doc, &[("content-type", CBOR)]);
        assert_eq!(code, 201, "{}", String::from_utf8_lossy(&answer));
        let name = body["metadata"]["name"].as_str().unwrap();
        assert_eq!(
            stored(&mut e, &format!("{cm}/{name}"))["binaryData"],
            json!({"k": "/wBB"})
        );
    }
}

/// A CBOR apply is `cbor.Unmarshal` into a map: its failures read as apply's YAML ones do.
#[test]
fn cbor_apply_decodes_into_a_map() {
    let mut e = cbor_engine();
    let uri = "/api/v1/namespaces/default/configmaps/a?fieldManager=m";
    let apply = [("content-type", "application/apply-patch+cbor")];
    let config = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}});
    let (code, _, _) = raw(&mut e, "PATCH", uri, cbor::encode(&config), &apply);
    assert_eq!(code, 201);
    let (code, _, body) = raw(
        &mut e,
        "PATCH",
        uri,
        vec![0xd9, 0xd9, 0xf7, 0x81, 0x01],
        &apply,
    );
    let status: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(
        (code, status["message"].as_str().unwrap()),
        (400, "error decoding YAML: cbor: cannot unmarshal array into Go value of type map[string]interface {}")
    );
}

/// A DeleteOptions body in CBOR goes through the same serializer: TypeMeta first.
#[test]
fn a_malformed_cbor_delete_options_body_fails_reading_its_type() {
    let mut e = cbor_engine();
    create_cr(&mut e, "default", &cr_body("d", 1));
    let (code, _, bytes) = raw(
        &mut e,
        "DELETE",
        &cr("default", "d"),
        vec![0xa1, 0x61],
        &[("content-type", CBOR), ("accept", "application/json")],
    );
    assert_eq!(
        (code, message_of(&bytes)),
        (
            400,
            "unable to determine group/version/kind: unexpected EOF".to_string()
        )
    );
}

/// The CBOR serializer reads apiVersion with `FromAPIVersionAndKind`, which takes one with a
/// second slash as empty (then defaulted from the URL), where the JSON one refuses it.
#[test]
fn a_cbor_body_s_unparsable_api_version_is_defaulted() {
    let mut e = cbor_engine();
    let mut body = cr_body("slashes", 1);
    body["apiVersion"] = json!("a/b/c");
    let (code, _, bytes) = raw(
        &mut e,
        "POST",
        &crs("default"),
        cbor::encode(&body),
        &[("content-type", CBOR), ("accept", "application/json")],
    );
    assert_eq!(code, 201, "{}", String::from_utf8_lossy(&bytes));
    let r = get(&mut e, &cr("default", "slashes"));
    assert_eq!(r.json["apiVersion"], "apps/v1");
}

/// With its gate, custom resources speak CBOR as built-in kinds do: a CBOR body is created
/// (pruned and defaulted as JSON would be), and objects, lists and watch events come back in
/// CBOR with the same content as their JSON.
#[test]
fn cbor_serves_custom_resources_behind_its_gate() {
    use crate::custom_resources::{widget, widget_crd, CRDS, WIDGETS};
    let mut e = cbor_engine();
    assert_eq!(post(&mut e, CRDS, &widget_crd()).code, 201);
    let body = widget("w1", json!({"color": "red", "bogus": true}));
    let (code, ct, bytes) = raw(
        &mut e,
        "POST",
        WIDGETS,
        cbor::encode(&body),
        &[("content-type", CBOR), ("accept", CBOR)],
    );
    assert_eq!((code, ct.as_str()), (201, CBOR));
    let created = cbor::decode(&bytes).unwrap();
    assert_eq!(created["spec"], json!({"color": "red", "size": 3}));
    let w1 = format!("{WIDGETS}/w1");
    let (_, _, bytes) = raw(&mut e, "GET", &w1, vec![], &[("accept", CBOR)]);
    assert_eq!(cbor::decode(&bytes).unwrap(), stored(&mut e, &w1));
    let (code, ct, bytes) = raw(&mut e, "GET", WIDGETS, vec![], &[("accept", CBOR)]);
    assert_eq!((code, ct.as_str()), (200, CBOR));
    let list = cbor::decode(&bytes).unwrap();
    assert_eq!(
        (&list["kind"], &list["items"][0]),
        (&json!("WidgetList"), &stored(&mut e, &w1))
    );
    let events = cbor_watch(&mut e, WIDGETS);
    assert_eq!(
        (&events[0]["type"], &events[0]["object"]),
        (&json!("ADDED"), &stored(&mut e, &w1))
    );
}
