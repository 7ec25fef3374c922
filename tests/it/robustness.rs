//! Bad input never panics the engine: random methods, paths, query parameters, headers and
//! (mutated) bodies always get a well-formed answer — a Kubernetes `Status` for every error
//! except the plain-text 404 outside served paths — and the store stays consistent.

use crate::common::*;
use bytes::Bytes;
use proptest::prelude::*;
use serde_json::Value;

const METHODS: &[&str] = &["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];
const PATHS: &[&str] = &[
    "/api/v1/namespaces",
    "/api/v1/namespaces/default",
    "/api/v1/namespaces/default/finalize",
    "/api/v1/watch/namespaces",
    "/apis/apps/v1/namespaces/default/controllerrevisions",
    "/apis/apps/v1/namespaces/default/controllerrevisions/r1",
    "/apis/apps/v1/namespaces/nope/controllerrevisions/r1",
    "/apis/apps/v1/controllerrevisions",
    "/apis/apps/v1/watch/namespaces/default/controllerrevisions/r1",
    "/apis/apps/v1",
    "/apis",
    "/api",
    "/openapi/v3",
    "/openapi/v3/apis/apps/v1",
    "/version",
    "/kubesim/v1/clock/advance",
    "/kubesim/v1/compact",
    "/apis/apps/v1/namespaces/default/controllerrevisions/r1/%2e%2e",
    "/apis/x/y/z",
];
use kubesim::fuzz::QUERY_PARAMETERS as PARAMS;
const VALUES: &[&str] = &[
    "",
    "0",
    "1",
    "-1",
    "5",
    "true",
    "false",
    "All",
    "Exact",
    "NotOlderThan",
    "Strict",
    "Bogus",
    "app=x",
    "app in (a,b)",
    "!!",
    "metadata.name=r1",
    "a=b,c",
    "%zz",
    "99999999999999999999",
    "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MywiInN0YXJ0IjoicjEifQ",
    "\u{0}",
    "Background",
];
const CONTENT_TYPES: &[&str] = &[
    "application/json",
    "application/yaml",
    "application/merge-patch+json",
    "application/json-patch+json",
    "application/strategic-merge-patch+json",
    "application/vnd.kubernetes.protobuf",
    "text/plain",
    "",
];
const BODIES: &[&str] = &[
    r#"{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"r1"},"data":{"a":1},"revision":1}"#,
    r#"{"metadata":{"name":"r1","labels":{"a":"b"},"finalizers":["x/y"]},"data":{},"revision":2}"#,
    r#"{"metadata":{"name":"ns1"}}"#,
    r#"[{"op":"add","path":"/metadata/labels","value":{"x":"y"}}]"#,
    r#"{"propagationPolicy":"Orphan"}"#,
    r#"{"ms": 60000}"#,
    "{",
    "null",
    "[]",
    "\u{ff}\u{fe}",
    "",
];

fn request() -> impl Strategy<Value = (String, String, String, String, Vec<u8>)> {
    (
        prop::sample::select(METHODS),
        prop::sample::select(PATHS),
        prop::collection::vec(
            (prop::sample::select(PARAMS), prop::sample::select(VALUES)),
            0..4,
        ),
        prop::sample::select(CONTENT_TYPES),
        prop::sample::select(BODIES),
        prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..3),
    )
        .prop_map(|(m, p, q, ct, body, flips)| {
            let query: Vec<String> = q
                .iter()
                .map(|(k, v)| format!("{k}={}", v.replace(' ', "%20").replace('\u{0}', "%00")))
                .collect();
            let mut bytes = body.as_bytes().to_vec();
            for (i, b) in flips {
                if !bytes.is_empty() {
                    let at = i.index(bytes.len());
                    bytes[at] = b;
                }
            }
            (
                m.to_string(),
                p.to_string(),
                query.join("&"),
                ct.to_string(),
                bytes,
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]
    #[test]
    fn every_request_gets_a_well_formed_answer(reqs in prop::collection::vec(request(), 1..12)) {
        let mut e = engine();
        for (method, path, query, ct, body) in reqs {
            let uri = if query.is_empty() { path.clone() } else { format!("{path}?{query}") };
            let mut b = http::Request::builder().method(method.as_str()).uri(uri.as_str());
            if !ct.is_empty() {
                b = b.header("content-type", ct.as_str());
            }
            let Ok(req) = b.body(Bytes::from(body)) else { continue };
            let resp = e.handle(req);
            let code = resp.status().as_u16();
            let text = String::from_utf8_lossy(resp.body().bytes()).into_owned();
            if code >= 400 {
                if text == "404 page not found\n" {
                    continue;
                }
                let v: Value = serde_json::from_str(&text)
                    .map_err(|err| TestCaseError::fail(format!("{method} {uri} -> {code} not JSON ({err}): {text}")))?;
                prop_assert_eq!(&v["kind"], "Status", "{} {}", method, uri);
                prop_assert_eq!(v["code"].as_u64(), Some(code as u64), "{} {}", method, uri);
                prop_assert_eq!(&v["status"], "Failure");
            }
        }
        // The store is still readable and every object still validates as stored.
        let list = get(&mut e, "/apis/apps/v1/controllerrevisions");
        prop_assert_eq!(list.code, 200);
        for item in list.json["items"].as_array().unwrap() {
            prop_assert!(item["metadata"]["resourceVersion"].is_string());
            prop_assert!(item.get("revision").is_some());
        }
    }
}
