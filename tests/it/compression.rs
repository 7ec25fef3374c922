//! gzip behind `APIResponseCompression` (beta, on by default): `Accept-Encoding: gzip` on a
//! response larger than 128 KiB gets `Content-Encoding: gzip`; smaller bodies, other tokens,
//! the gate turned off and watches are sent as they are.

use std::io::Read as _;

use crate::common::*;
use kubesim::{Config, Engine};
use serde_json::json;

/// An engine with enough ControllerRevisions for a list above the threshold.
fn big(gates: &str) -> Engine {
    let mut e = Engine::new(Config {
        feature_gates: kubesim::features::FeatureGates::parse(gates).unwrap(),
        ..Config::default()
    });
    let mut body = cr_body("x", 1);
    body["data"] = json!({"payload": "p".repeat(400)});
    for i in 0..400 {
        body["metadata"]["name"] = json!(format!("cr-{i:03}"));
        create_cr(&mut e, "default", &body);
    }
    e
}

fn gunzip(bytes: &[u8]) -> String {
    let mut out = String::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_string(&mut out)
        .expect("valid gzip");
    out
}

fn raw(e: &mut Engine, uri: &str, headers: &[(&str, &str)]) -> (http::HeaderMap, Vec<u8>) {
    let mut b = http::Request::builder().uri(uri);
    for (k, v) in headers {
        b = b.header(*k, *v);
    }
    let resp = e.handle(b.body(bytes::Bytes::new()).unwrap());
    let headers = resp.headers().clone();
    (headers, resp.body().bytes().to_vec())
}

#[test]
fn large_lists_are_gzipped_and_decode_to_the_same_bytes() {
    let mut e = big("");
    for extra in ["", "?pretty=true", "?limit=300"] {
        let uri = format!("{}{extra}", crs("default"));
        let (plain_headers, plain) = raw(&mut e, &uri, &[]);
        assert!(plain.len() > 128 * 1024, "{}", plain.len());
        assert_eq!(plain_headers.get("content-encoding"), None);
        let (headers, zipped) = raw(&mut e, &uri, &[("accept-encoding", "deflate, gzip")]);
        assert_eq!(headers["content-encoding"], "gzip", "{uri}");
        assert_eq!(headers["vary"], "Accept-Encoding");
        assert_eq!(headers["content-type"], "application/json");
        assert!(zipped.len() < plain.len() / 4);
        assert_eq!(gunzip(&zipped), String::from_utf8(plain).unwrap(), "{uri}");
    }
    // YAML and Table responses are compressed the same way.
    for accept in [
        "application/yaml",
        "application/json;as=Table;g=meta.k8s.io;v=v1;includeObject=Object",
    ] {
        let (plain_headers, plain) = raw(
            &mut e,
            &format!("{}?includeObject=Object", crs("default")),
            &[("accept", accept)],
        );
        let (headers, zipped) = raw(
            &mut e,
            &format!("{}?includeObject=Object", crs("default")),
            &[("accept", accept), ("accept-encoding", "gzip")],
        );
        assert_eq!(headers["content-type"], plain_headers["content-type"]);
        assert_eq!(headers["content-encoding"], "gzip", "{accept}");
        assert_eq!(gunzip(&zipped).into_bytes(), plain);
    }
}

#[test]
fn small_bodies_other_tokens_and_the_gate() {
    let mut e = big("");
    // One object is far below 128 KiB.
    let (headers, body) = raw(
        &mut e,
        &cr("default", "cr-001"),
        &[("accept-encoding", "gzip")],
    );
    assert_eq!(headers.get("content-encoding"), None);
    assert!(body.starts_with(b"{\"kind\":\"ControllerRevision\""));
    // Only an exact `gzip` token counts.
    for token in ["gzip;q=1", "x-gzip", "br"] {
        let (headers, _) = raw(&mut e, &crs("default"), &[("accept-encoding", token)]);
        assert_eq!(headers.get("content-encoding"), None, "{token}");
    }
    // Gate off: never.
    let mut off = big("APIResponseCompression=false");
    let (headers, _) = raw(&mut off, &crs("default"), &[("accept-encoding", "gzip")]);
    assert_eq!(headers.get("content-encoding"), None);
}

#[test]
fn watches_are_never_compressed() {
    let mut e = big("");
    let req = http::Request::builder()
        .uri(format!("{}?watch=true", crs("default")))
        .header("accept-encoding", "gzip")
        .body(bytes::Bytes::new())
        .unwrap();
    let resp = e.handle(req);
    assert_eq!(resp.headers().get("content-encoding"), None);
    let kubesim::Body::Watch(mut s) = resp.into_body() else {
        panic!("not a watch");
    };
    let (frames, _) = s.drain();
    assert_eq!(frames.len(), 400);
    assert!(frames[0].starts_with(b"{\"type\":\"ADDED\""));
}
