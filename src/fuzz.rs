//! Entry points for fuzzing (`fuzz/`, cargo-fuzz) and for replaying its corpora as
//! regression tests (`tests/it/fuzz_corpus.rs`, no fuzzer needed). Each takes arbitrary
//! bytes and checks what must hold for any input: no panic, and for the engine, a
//! well-formed answer and no state change on a rejected request.
//!
//! Not a stable interface: it exists for the project's own fuzzing.

use bytes::Bytes;
use serde_json::Value;

use crate::engine::{Body, Config, Engine};

/// A target: arbitrary bytes in, a panic on a finding.
pub type Target = fn(&[u8]);

/// Every target, by the name of its fuzz target and corpus folder.
pub const TARGETS: &[(&str, Target)] = &[
    ("request_path", request_path),
    ("json", json),
    ("yaml", yaml),
    ("protobuf", protobuf),
    ("cbor", cbor),
    ("label_selector", label_selector),
    ("field_selector", field_selector),
    ("shard_selector", shard_selector),
    ("continue_token", continue_token),
    ("json_patch", json_patch),
    ("merge_patch", merge_patch),
    ("strategic_merge_patch", strategic_merge_patch),
    ("apply_patch", apply_patch),
    ("delete_options", delete_options),
    ("engine", engine),
];

fn text(data: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(data)
}

/// The request line's target: percent-decoding, the query parser and the router.
pub fn request_path(data: &[u8]) {
    let target = text(data);
    let (path, query) = target.split_once('?').unwrap_or((&target, ""));
    let q = crate::api::query::Query::parse(query);
    let _ = q.flag("watch");
    if let Some(path) = crate::api::path::unescape(path) {
        let kinds = crate::resources::Kinds::builtin();
        for method in ["GET", "POST", "PATCH", "DELETE"] {
            let _ = crate::api::route::route(&kinds, method, &path, false);
        }
        let _ = crate::auth::request_info::attributes(
            "GET",
            &path,
            &target,
            crate::auth::request_info::InfoQuery::new(false, |k| q.get(k)),
        );
    }
}

/// JSON as the decoder reads it (duplicate keys, Go's syntax errors), then decoded as each
/// kind; what parses re-encodes.
pub fn json(data: &[u8]) {
    if let Ok(parsed) = crate::codec::json::parse(data) {
        let _ = crate::codec::json::to_compact_string(&parsed.value);
    }
    for info in crate::resources::Kinds::builtin().iter() {
        let _ = crate::codec::decode::decode_bytes(data, info.schema);
    }
}

/// YAML bodies (go-yaml v2 typing, aliases, merges).
pub fn yaml(data: &[u8]) {
    if let Ok(converted) = crate::codec::yaml::to_json(data) {
        assert!(
            crate::codec::json::parse(&converted.json).is_ok()
                || crate::codec::scanner::check_valid(&converted.json).is_err(),
            "YAML converted to invalid JSON"
        );
    }
}

/// Protobuf envelopes and messages of every served kind, and watch frames.
pub fn protobuf(data: &[u8]) {
    let kinds = crate::resources::Kinds::builtin();
    let _ = crate::codec::protobuf::decode(data, &kinds);
    let _ = crate::codec::protobuf::decode_watch_frames(data, &kinds);
}

/// CBOR documents and sequences.
pub fn cbor(data: &[u8]) {
    let _ = crate::codec::cbor::decode(data);
    let _ = crate::codec::cbor::decode_object(data);
    let _ = crate::codec::cbor::decode_seq(data);
}

pub fn label_selector(data: &[u8]) {
    let _ = crate::selectors::label::LabelSelector::parse(&text(data));
}

pub fn field_selector(data: &[u8]) {
    let _ = crate::selectors::field::FieldSelector::parse(&text(data));
}

pub fn shard_selector(data: &[u8]) {
    let s = text(data);
    let _ = crate::selectors::shard::ShardSelector::parse(&s);
    let _ = crate::selectors::shard::ShardSelector::parse_expression(&s);
}

pub fn continue_token(data: &[u8]) {
    let _ = crate::registry::continue_token::decode_continue(&text(data));
}

/// A document and a patch, split at the first NUL byte (the document defaults to a small
/// object).
fn document_and_patch(data: &[u8]) -> Option<(Value, Value)> {
    let (doc, patch) = match data.iter().position(|b| *b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (&b"{\"a\":{\"b\":[1,2,{\"c\":null}]},\"d\":\"e\"}"[..], data),
    };
    let doc = crate::codec::json::parse(doc).ok()?.value;
    let patch = crate::codec::json::parse(patch).ok()?.value;
    Some((doc, patch))
}

pub fn json_patch(data: &[u8]) {
    if let Some((mut doc, patch)) = document_and_patch(data) {
        if let Ok(ops) = crate::patch::json_patch::operations(&patch) {
            let _ = crate::patch::json_patch::apply(&mut doc, ops);
        }
    }
}

pub fn merge_patch(data: &[u8]) {
    if let Some((mut doc, patch)) = document_and_patch(data) {
        crate::patch::merge_patch::apply(&mut doc, &patch);
    }
}

pub fn strategic_merge_patch(data: &[u8]) {
    if let Some((doc, patch)) = document_and_patch(data) {
        let _ = crate::patch::strategic::apply(&doc, &patch);
    }
}

/// A small cluster to send requests to, with one object of each kind the targets write.
fn cluster() -> Engine {
    let mut e = Engine::new(Config {
        rbac_bootstrap: false,
        ..Config::default()
    });
    let seed = r#"{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"r1","labels":{"a":"b"}},"data":{"x":1},"revision":1}"#;
    send(
        &mut e,
        "POST",
        CRS,
        &[("content-type", "application/json")],
        seed,
    );
    let cm = r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c1"},"data":{"k":"v"}}"#;
    let cms = "/api/v1/namespaces/default/configmaps";
    send(
        &mut e,
        "POST",
        cms,
        &[("content-type", "application/json")],
        cm,
    );
    e
}

const CRS: &str = "/apis/apps/v1/namespaces/default/controllerrevisions";

fn send(
    e: &mut Engine,
    method: &str,
    uri: &str,
    headers: &[(&str, &str)],
    body: impl Into<Bytes>,
) -> http::Response<Body> {
    match request(method, uri, headers, body) {
        Some(req) => e.handle(req),
        None => http::Response::new(Body::Full(Bytes::new())),
    }
}

/// The request, unless `http` refuses its method, URI or headers.
fn request(
    method: &str,
    uri: &str,
    headers: &[(&str, &str)],
    body: impl Into<Bytes>,
) -> Option<http::Request<Bytes>> {
    let mut b = http::Request::builder().method(method).uri(uri);
    for (k, v) in headers {
        b = b.header(*k, *v);
    }
    b.body(body.into()).ok()
}

/// What any answer must be: an error is a Kubernetes `Status` (or one of the plain-text
/// answers Go's server writes itself), and a rejected request changed nothing. The one
/// exception is the real server's too: a 406 from the response transform comes after the
/// write (a DELETE of a collection asking for `as=PartialObjectMetadata`, which a list
/// cannot be, has deleted it).
fn check_answer(e: &Engine, before: u64, resp: &http::Response<Body>) {
    let code = resp.status().as_u16();
    if code < 400 {
        return;
    }
    let transform_after_write = code == 406;
    assert!(
        transform_after_write || e.store().revision() == before,
        "a rejected request ({code}) changed the store"
    );
    let json = resp
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ct| ct.starts_with("application/json"));
    if json {
        let status: Value =
            serde_json::from_slice(resp.body().bytes()).expect("error body is JSON");
        assert_eq!(status["kind"], "Status", "{status}");
        assert_eq!(status["code"], code, "{status}");
    }
}

/// Sends `body` with `content_type` as `method` to `uri` on a fresh cluster and checks the
/// answer.
fn body_request(method: &str, uri: &str, content_type: &str, body: &[u8]) {
    let mut e = cluster();
    let before = e.store().revision();
    let resp = send(
        &mut e,
        method,
        uri,
        &[("content-type", content_type)],
        Bytes::copy_from_slice(body),
    );
    check_answer(&e, before, &resp);
}

/// Server-side apply configurations (YAML or JSON), over an existing object.
pub fn apply_patch(data: &[u8]) {
    let uri = format!("{CRS}/r1?fieldManager=fuzz");
    body_request("PATCH", &uri, "application/apply-patch+yaml", data);
}

/// DeleteOptions bodies.
pub fn delete_options(data: &[u8]) {
    body_request("DELETE", &format!("{CRS}/r1"), "application/json", data);
}

/// Reads choices from the input, one byte at a time.
struct Choices<'a>(&'a [u8]);

impl Choices<'_> {
    fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((b, rest)) => {
                self.0 = rest;
                *b
            }
            None => 0,
        }
    }

    fn pick<'b>(&mut self, from: &[&'b str]) -> &'b str {
        from[self.byte() as usize % from.len()]
    }

    /// Up to `max` bytes of the input, as text.
    fn text(&mut self, max: usize) -> String {
        let n = (self.byte() as usize).min(max).min(self.0.len());
        let (t, rest) = self.0.split_at(n);
        self.0 = rest;
        String::from_utf8_lossy(t).into_owned()
    }
}

const METHODS: &[&str] = &["GET", "POST", "PUT", "PATCH", "DELETE"];
const PATHS: &[&str] = &[
    CRS,
    "/apis/apps/v1/namespaces/default/controllerrevisions/r1",
    "/apis/apps/v1/namespaces/other/controllerrevisions",
    "/apis/apps/v1/controllerrevisions",
    "/api/v1/namespaces",
    "/api/v1/namespaces/default",
    "/api/v1/namespaces/default/finalize",
    "/api/v1/namespaces/default/configmaps/c1",
    "/api/v1/namespaces/default/events",
    "/apis/rbac.authorization.k8s.io/v1/clusterroles",
    "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
    "/kubesim/v1/clock/advance",
    "/api",
    "/apis",
    "/openapi/v3",
];
/// The query parameters the request generators (this engine target and the proptest over
/// requests in `tests/it/robustness.rs`) choose among: every one a handler reads.
pub const QUERY_PARAMETERS: &[&str] = &[
    "watch",
    "resourceVersion",
    "resourceVersionMatch",
    "limit",
    "continue",
    "labelSelector",
    "fieldSelector",
    "timeoutSeconds",
    "allowWatchBookmarks",
    "sendInitialEvents",
    "dryRun",
    "fieldValidation",
    "fieldManager",
    "pretty",
    "propagationPolicy",
    "gracePeriodSeconds",
    "shardSelector",
    "ms",
    "includeObject",
    "force",
];
const CONTENT_TYPES: &[&str] = &[
    "application/json",
    "application/yaml",
    "application/vnd.kubernetes.protobuf",
    "application/cbor",
    "application/json-patch+json",
    "application/merge-patch+json",
    "application/strategic-merge-patch+json",
    "application/apply-patch+yaml",
];
const ACCEPTS: &[&str] = &[
    "",
    "application/json",
    "application/yaml",
    "application/vnd.kubernetes.protobuf",
    "application/json;as=Table;v=v1;g=meta.k8s.io",
    "application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io",
    "application/vnd.kubernetes.protobuf;stream=watch",
];

/// One generated request: method, URI, content type, accept, body.
pub type Generated = (&'static str, String, &'static str, &'static str, String);

/// The requests [`engine`] sends for an input.
pub fn requests(data: &[u8]) -> Vec<Generated> {
    let mut c = Choices(data);
    let mut out = Vec::new();
    for _ in 0..1 + c.byte() % 3 {
        let method = c.pick(METHODS);
        let mut uri = c.pick(PATHS).to_string();
        for i in 0..c.byte() % 4 {
            uri.push(if i == 0 { '?' } else { '&' });
            uri.push_str(c.pick(QUERY_PARAMETERS));
            uri.push('=');
            let value = c.text(16);
            uri.extend(percent_encoding::utf8_percent_encode(
                &value,
                percent_encoding::NON_ALPHANUMERIC,
            ));
        }
        let content_type = c.pick(CONTENT_TYPES);
        let accept = c.pick(ACCEPTS);
        let body = c.text(255);
        out.push((method, uri, content_type, accept, body));
    }
    out
}

/// A few requests built from the input (method, path, query, headers, body) against one
/// cluster: every answer well formed, no rejected request changing anything. A second
/// cluster gets the same requests as the native server sends them, with bodies decoded,
/// writes prepared and patches applied ahead (`Engine::predecoder`): its answers must be
/// the same, byte for byte.
pub fn engine(data: &[u8]) {
    let mut e = cluster();
    let mut ahead = cluster();
    for (method, uri, content_type, accept, body) in requests(data) {
        let before = e.store().revision();
        let headers = [("content-type", content_type), ("accept", accept)];
        let resp = send(&mut e, method, &uri, &headers, body.clone());
        check_answer(&e, before, &resp);
        // A request `http` refuses reaches neither engine: nothing to compare.
        if let Some(req) = request(method, &uri, &headers, body) {
            let prepared = handle_prepared(&mut ahead, req);
            assert_eq!(
                (
                    prepared.status(),
                    prepared.headers(),
                    prepared.body().bytes()
                ),
                (resp.status(), resp.headers(), resp.body().bytes()),
                "{method} {uri}: prepared ahead, the answer differs"
            );
        }
        e.tick();
        ahead.tick();
    }
}

/// How the native server hands `req` to the engine: predecoded against the stored objects.
fn handle_prepared(e: &mut Engine, mut req: http::Request<Bytes>) -> http::Response<Body> {
    if crate::engine::Predecoder::wants(&req) {
        let predecoder = e.predecoder();
        predecoder.predecode_against(&mut req, |key| e.stored_at(key));
    }
    e.handle(req)
}
