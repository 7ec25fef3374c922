//! Content negotiation (spec "Content negotiation and encodings", rules 1-8): each `Accept`
//! header and the media type it gets or its 406, request `Content-Type`s and their 415, and
//! how errors themselves are rendered.

use crate::common::*;
use serde_json::Value;

/// The serializers a stock kube-apiserver lists (CBOR only joins with its gate).
const ACCEPTED: &str = "application/json, application/yaml, application/vnd.kubernetes.protobuf";
const PROTOBUF: &str = "application/vnd.kubernetes.protobuf";

/// What a request should get: a media type (and, for transforms, the body's kind), or a 406
/// with its exact message.
enum Want {
    Media(&'static str, &'static str),
    NotAcceptable(&'static str),
}

fn setup() -> kubesim::Engine {
    let mut e = engine();
    create_cr(&mut e, "default", &cr_body("r1", 1));
    e
}

/// The body's `kind`, whatever the encoding.
fn body_kind(content_type: &str, body: &[u8]) -> String {
    let v: Value = match content_type {
        "application/yaml" => {
            let c = kubesim::codec::yaml::to_json(body).unwrap();
            serde_json::from_slice(&c.json).unwrap()
        }
        PROTOBUF => kubesim::codec::protobuf::decode(body, &kubesim::resources::SCHEME).unwrap(),
        _ => serde_json::from_slice(body).unwrap_or(Value::Null),
    };
    v["kind"].as_str().unwrap_or("").to_string()
}

fn check(e: &mut kubesim::Engine, uri: &str, accept: &str, want: &Want) {
    let req = http::Request::builder()
        .uri(uri)
        .header("accept", accept)
        .body(bytes::Bytes::new())
        .unwrap();
    let resp = e.handle(req);
    let code = resp.status().as_u16();
    let ct = resp.headers()["content-type"].to_str().unwrap().to_string();
    let body = resp.body().bytes().to_vec();
    match want {
        Want::Media(media, kind) => {
            assert_eq!(code, 200, "{accept}: {}", String::from_utf8_lossy(&body));
            assert_eq!(ct, *media, "{accept}");
            assert_eq!(body_kind(&ct, &body), *kind, "{accept}");
        }
        Want::NotAcceptable(msg) => {
            let status: Value = serde_json::from_slice(&body).unwrap();
            assert_eq!(code, 406, "{accept}: {status}");
            assert_eq!(status["reason"], "NotAcceptable", "{accept}");
            assert_eq!(status["message"], *msg, "{accept}");
        }
    }
}

const LIST_ROUTER_406: &str = "406: Not Acceptable\n\nAvailable representations: application/json, application/yaml, application/vnd.kubernetes.protobuf, application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch";
const GET_ROUTER_406: &str = "406: Not Acceptable\n\nAvailable representations: application/json, application/yaml, application/vnd.kubernetes.protobuf";
const HANDLER_406: &str = "only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf";

#[test]
fn accept_headers_on_a_list() {
    use Want::*;
    let json = "application/json";
    let yaml = "application/yaml";
    let cases: &[(&str, Want)] = &[
        // Rule 1/2: no Accept or */* is JSON; nothing servable is 406.
        ("", Media(json, "ControllerRevisionList")),
        ("*/*", Media(json, "ControllerRevisionList")),
        ("application/json", Media(json, "ControllerRevisionList")),
        ("application/yaml", Media(yaml, "ControllerRevisionList")),
        ("application/json;q=0.5, application/yaml", Media(yaml, "ControllerRevisionList")),
        ("application/yaml;q=0.9, application/json", Media(json, "ControllerRevisionList")),
        ("application/json;q=0, */*", Media(yaml, "ControllerRevisionList")),
        ("application/json;q=0", NotAcceptable(HANDLER_406)),
        ("application/*", NotAcceptable(LIST_ROUTER_406)),
        ("text/plain", NotAcceptable(LIST_ROUTER_406)),
        ("application/json;stream=watch", Media(json, "ControllerRevisionList")),
        ("application/yaml;stream=watch", NotAcceptable(HANDLER_406)),
        // Rule 3: several types; the neutral protobuf name is Kubernetes's protobuf.
        (
            "application/vnd.platform.protobuf, application/json",
            Media(PROTOBUF, "ControllerRevisionList"),
        ),
        ("application/vnd.kubernetes.protobuf", Media(PROTOBUF, "ControllerRevisionList")),
        ("application/json;q=0.5, application/vnd.platform.protobuf", Media(PROTOBUF, "ControllerRevisionList")),
        // Rule 6: Table, with and without fallback; only JSON and YAML bases.
        ("application/json;as=Table;g=meta.k8s.io;v=v1", Media(json, "Table")),
        ("application/json;as=Table;g=meta.k8s.io;v=v1beta1", Media(json, "Table")),
        ("application/yaml;as=Table;g=meta.k8s.io;v=v1", Media(yaml, "Table")),
        (
            "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json",
            Media(json, "Table"),
        ),
        ("application/json;as=Table;g=meta.k8s.io;v=v2", NotAcceptable(HANDLER_406)),
        ("application/json;as=Table;g=other.io;v=v1", NotAcceptable(HANDLER_406)),
        ("application/json;as=Table", NotAcceptable(HANDLER_406)),
        (
            "application/json;as=Table;g=meta.k8s.io;v=v2, application/json",
            Media(json, "ControllerRevisionList"),
        ),
        ("application/cbor;as=Table;g=meta.k8s.io;v=v1", NotAcceptable(LIST_ROUTER_406)),
        ("application/vnd.kubernetes.protobuf;as=Table;g=meta.k8s.io;v=v1", NotAcceptable(HANDLER_406)),
        (
            "application/vnd.kubernetes.protobuf;as=Table;g=meta.k8s.io;v=v1, application/json",
            Media(json, "ControllerRevisionList"),
        ),
        // Rule 7: metadata only, with the q=0.9 fallback.
        (
            "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1",
            Media(json, "PartialObjectMetadataList"),
        ),
        (
            "application/yaml;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1",
            Media(yaml, "PartialObjectMetadataList"),
        ),
        (
            "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1, application/json;q=0.9",
            Media(json, "PartialObjectMetadataList"),
        ),
        (
            "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1",
            Media(PROTOBUF, "PartialObjectMetadataList"),
        ),
        (
            "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1",
            NotAcceptable(
                "you requested PartialObjectMetadata, but the requested object is a list (*apps.ControllerRevisionList)",
            ),
        ),
        ("application/json;as=Status;g=meta.k8s.io;v=v1", NotAcceptable(HANDLER_406)),
    ];
    let mut e = setup();
    for (accept, want) in cases {
        check(&mut e, &crs("default"), accept, want);
    }
}

#[test]
fn accept_headers_on_one_object() {
    use Want::*;
    let json = "application/json";
    let cases: &[(&str, Want)] = &[
        ("", Media(json, "ControllerRevision")),
        ("application/*", NotAcceptable(GET_ROUTER_406)),
        ("application/json;as=Table;g=meta.k8s.io;v=v1", Media(json, "Table")),
        (
            "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1",
            Media(json, "PartialObjectMetadata"),
        ),
        (
            "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1",
            NotAcceptable(
                "you requested PartialObjectMetadataList, but the requested object is not a list (*apps.ControllerRevision)",
            ),
        ),
    ];
    let mut e = setup();
    for (accept, want) in cases {
        check(&mut e, &cr("default", "r1"), accept, want);
    }
    check(
        &mut e,
        "/api/v1/namespaces/default",
        "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1",
        &NotAcceptable(
            "you requested PartialObjectMetadataList, but the requested object is not a list (*core.Namespace)",
        ),
    );
}

#[test]
fn request_body_content_types() {
    let yaml_body = "apiVersion: apps/v1\nkind: ControllerRevision\nmetadata:\n  name: yml\ndata: {}\nrevision: 1\n";
    let unknown = format!(
        "the body of the request was in an unknown format - accepted media types include: {ACCEPTED}"
    );
    let cases: &[(&str, String, u16)] = &[
        ("", cr_body("a", 1).to_string(), 201),
        ("application/json", cr_body("b", 1).to_string(), 201),
        (
            "Application/JSON; charset=utf-8",
            cr_body("c", 1).to_string(),
            201,
        ),
        ("application/yaml", yaml_body.to_string(), 201),
        ("text/plain", "x".into(), 415),
        ("application/cbor", "x".into(), 415),
        ("application/json; foo", cr_body("d", 1).to_string(), 415),
    ];
    let mut e = engine();
    for (ct, body, code) in cases {
        let mut headers = vec![];
        if !ct.is_empty() {
            headers.push(("content-type", *ct));
        }
        let r = send(&mut e, "POST", &crs("default"), Some(body), &headers);
        assert_eq!(r.code, *code, "{ct}: {}", r.text);
        if *code == 415 {
            assert_eq!(r.reason(), "UnsupportedMediaType");
            assert_eq!(r.message(), unknown);
            assert_eq!(r.json.get("details"), None);
        }
    }
    // 415 comes before option validation (the real handler negotiates the body first).
    let r = send(
        &mut e,
        "POST",
        &format!("{}?fieldValidation=Bogus", crs("default")),
        Some("x"),
        &[("content-type", "text/plain")],
    );
    assert_eq!(r.code, 415);
}

#[test]
fn errors_are_rendered_in_the_negotiated_encoding() {
    let mut e = engine();
    // YAML clients get YAML errors.
    let r = send(
        &mut e,
        "GET",
        &cr("default", "nope"),
        None,
        &[("accept", "application/yaml")],
    );
    assert_eq!(r.code, 404);
    assert_eq!(r.header("content-type"), "application/yaml");
    assert!(
        r.text.starts_with("apiVersion: v1\ncode: 404\ndetails:\n"),
        "{}",
        r.text
    );
    assert!(r.text.contains("\nkind: Status\n"), "{}", r.text);
    // An Accept that only names a transform cannot carry a Status: indented raw JSON.
    let r = send(
        &mut e,
        "GET",
        &cr("default", "nope"),
        None,
        &[("accept", "application/json;as=Table;g=meta.k8s.io;v=v1")],
    );
    assert_eq!(r.code, 404);
    assert_eq!(r.header("content-type"), "application/json");
    assert!(
        r.text.starts_with("{\n  \"kind\": \"Status\""),
        "{}",
        r.text
    );
    // The router's 406 for an unservable type is indented too, with empty details.
    let r = send(
        &mut e,
        "GET",
        &crs("default"),
        None,
        &[("accept", "text/plain")],
    );
    assert_eq!(r.code, 406);
    assert!(r.text.starts_with("{\n"), "{}", r.text);
    assert_eq!(r.json["details"], serde_json::json!({}));
    // ...while `application/*` can carry it as compact JSON.
    let r = send(
        &mut e,
        "GET",
        &crs("default"),
        None,
        &[("accept", "application/*")],
    );
    assert_eq!(r.code, 406);
    assert!(
        r.text.ends_with("}\n") && !r.text.starts_with("{\n"),
        "{}",
        r.text
    );
    // pretty applies to errors as well.
    let r = get(&mut e, &format!("{}?pretty=true", cr("default", "nope")));
    assert!(
        r.text.starts_with("{\n  \"kind\": \"Status\""),
        "{}",
        r.text
    );
}

fn watch_with(e: &mut kubesim::Engine, uri: &str, accept: &str) -> (u16, http::HeaderMap, String) {
    let req = http::Request::builder()
        .uri(uri)
        .header("accept", accept)
        .body(bytes::Bytes::new())
        .unwrap();
    let resp = e.handle(req);
    let code = resp.status().as_u16();
    let headers = resp.headers().clone();
    let text = String::from_utf8_lossy(resp.body().bytes()).into_owned();
    (code, headers, text)
}

#[test]
fn watch_negotiates_a_stream_encoding() {
    let mut e = setup();
    let uri = format!("{}?watch=true&timeoutSeconds=1", crs("default"));
    let (code, headers, text) = watch_with(&mut e, &uri, "application/yaml");
    assert_eq!(code, 406);
    // The error itself is negotiated (YAML here).
    assert_eq!(headers["content-type"], "application/yaml");
    assert!(
        text.contains("\nmessage: 'only the following media types are accepted: application/json;stream=watch,\n  application/vnd.kubernetes.protobuf;stream=watch'\n"),
        "{text}"
    );
    // The first matching serializer decides, even if a later one could stream.
    let (code, _, _) = watch_with(&mut e, &uri, "application/yaml, application/json");
    assert_eq!(code, 406);
    for accept in [
        "",
        "application/json",
        "application/json;stream=watch",
        "application/json;as=Table;g=meta.k8s.io;v=v1",
    ] {
        let (code, headers, _) = watch_with(&mut e, &uri, accept);
        assert_eq!(code, 200, "{accept}");
        assert_eq!(headers["content-type"], "application/json", "{accept}");
    }
}
