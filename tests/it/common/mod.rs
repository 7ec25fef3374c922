//! Shared helpers for the integration tests: an in-process engine and terse request calls.
#![allow(dead_code)]

pub mod auth;
pub mod kube;
pub mod server;

use bytes::Bytes;
use kubesim::{Config, Engine};
use serde_json::{json, Value};

/// One response, decoded for assertions.
#[derive(Debug)]
pub struct Resp {
    pub code: u16,
    pub headers: http::HeaderMap,
    pub text: String,
    pub json: Value,
}

impl Resp {
    /// A header's value ("" when absent).
    pub fn header(&self, name: &str) -> &str {
        self.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
    }

    /// Every value of a repeated header.
    pub fn header_all(&self, name: &str) -> Vec<String> {
        self.headers
            .get_all(name)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .map(str::to_string)
            .collect()
    }

    /// `message` of a Status body.
    pub fn message(&self) -> &str {
        self.json["message"].as_str().unwrap_or("")
    }

    /// `reason` of a Status body.
    pub fn reason(&self) -> &str {
        self.json["reason"].as_str().unwrap_or("")
    }

    /// The `field` of each cause of a Status body, in order.
    pub fn cause_fields(&self) -> Vec<&str> {
        self.json["details"]["causes"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|c| c["field"].as_str().unwrap_or(""))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Names of the items of a list body.
    pub fn names(&self) -> Vec<String> {
        self.json["items"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|i| i["metadata"]["name"].as_str().unwrap_or("").to_string())
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// An engine on a simulated clock with seed 0.
pub fn engine() -> Engine {
    Engine::new(Config::default())
}

/// Sends a request with optional JSON body and extra headers.
pub fn send(
    e: &mut Engine,
    method: &str,
    uri: &str,
    body: Option<&str>,
    headers: &[(&str, &str)],
) -> Resp {
    let mut b = http::Request::builder().method(method).uri(uri);
    for (k, v) in headers {
        b = b.header(*k, *v);
    }
    let req = b
        .body(Bytes::from(body.unwrap_or("").to_string()))
        .expect("valid request");
    Resp::from_response(&e.handle(req))
}

impl Resp {
    /// A complete response as the tests read it.
    pub fn from_response(resp: &http::Response<kubesim::engine::Body>) -> Resp {
        let text = String::from_utf8_lossy(resp.body().bytes()).into_owned();
        Resp {
            code: resp.status().as_u16(),
            headers: resp.headers().clone(),
            json: serde_json::from_str(&text).unwrap_or(Value::Null),
            text,
        }
    }
}

/// The managers of an object's managedFields entries, in order.
pub fn manager_names(obj: &Value) -> Vec<String> {
    obj["metadata"]["managedFields"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|e| e["manager"].as_str().map(str::to_string))
        .collect()
}

pub fn get(e: &mut Engine, uri: &str) -> Resp {
    send(e, "GET", uri, None, &[])
}

pub fn post(e: &mut Engine, uri: &str, body: &Value) -> Resp {
    send(
        e,
        "POST",
        uri,
        Some(&body.to_string()),
        &[("content-type", "application/json")],
    )
}

pub fn put(e: &mut Engine, uri: &str, body: &Value) -> Resp {
    send(
        e,
        "PUT",
        uri,
        Some(&body.to_string()),
        &[("content-type", "application/json")],
    )
}

pub fn delete(e: &mut Engine, uri: &str) -> Resp {
    send(e, "DELETE", uri, None, &[])
}

/// The collection path of ControllerRevisions in `ns`.
pub fn crs(ns: &str) -> String {
    format!("/apis/apps/v1/namespaces/{ns}/controllerrevisions")
}

/// The path of one ControllerRevision.
pub fn cr(ns: &str, name: &str) -> String {
    format!("/apis/apps/v1/namespaces/{ns}/controllerrevisions/{name}")
}

/// A valid ControllerRevision body.
pub fn cr_body(name: &str, revision: i64) -> Value {
    json!({
        "apiVersion": "apps/v1",
        "kind": "ControllerRevision",
        "metadata": {"name": name},
        "data": {"spec": {"replicas": 1}},
        "revision": revision
    })
}

/// A ControllerRevision body with labels.
pub fn cr_labeled(name: &str, labels: Value) -> Value {
    let mut b = cr_body(name, 1);
    b["metadata"]["labels"] = labels;
    b
}

/// Creates a namespace, asserting success.
pub fn create_ns(e: &mut Engine, name: &str) {
    let r = post(
        e,
        "/api/v1/namespaces",
        &json!({"metadata": {"name": name}}),
    );
    assert_eq!(r.code, 201, "{}", r.text);
}

/// Creates a ControllerRevision, asserting success, and returns the stored object.
pub fn create_cr(e: &mut Engine, ns: &str, body: &Value) -> Value {
    let r = post(e, &crs(ns), body);
    assert_eq!(r.code, 201, "{}", r.text);
    r.json
}

/// An open watch: its response headers and stream.
pub struct Watch {
    pub code: u16,
    pub headers: http::HeaderMap,
    pub stream: Option<kubesim::WatchStream>,
    pub body: String,
}

impl Watch {
    /// Frames delivered so far, decoded; `ended` tells whether the stream has finished.
    pub fn events(&mut self) -> (Vec<Value>, bool) {
        match self.stream.as_mut() {
            None => (Vec::new(), true),
            Some(s) => {
                let (frames, ended) = s.drain();
                let events = frames
                    .iter()
                    .map(|b| {
                        assert!(b.ends_with(b"\n"), "each frame ends with a newline");
                        serde_json::from_slice(b).expect("frame is JSON")
                    })
                    .collect();
                (events, ended)
            }
        }
    }

    /// `TYPE name rv` for each new event, for compact assertions.
    pub fn summary(&mut self) -> Vec<String> {
        self.events()
            .0
            .iter()
            .map(|e| {
                format!(
                    "{} {}",
                    e["type"].as_str().unwrap_or(""),
                    e["object"]["metadata"]["name"].as_str().unwrap_or("")
                )
                .trim()
                .to_string()
            })
            .collect()
    }
}

/// Opens a watch (`uri` must ask for one).
pub fn watch(e: &mut Engine, uri: &str) -> Watch {
    watch_with(e, uri, &[])
}

/// Opens a watch with request headers (credentials).
pub fn watch_with(e: &mut Engine, uri: &str, headers: &[(&str, &str)]) -> Watch {
    let mut req = http::Request::builder().method("GET").uri(uri);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let req = req.body(Bytes::new()).expect("valid request");
    let resp = e.handle(req);
    let code = resp.status().as_u16();
    let headers = resp.headers().clone();
    match resp.into_body() {
        kubesim::Body::Watch(s) => Watch {
            code,
            headers,
            stream: Some(s),
            body: String::new(),
        },
        kubesim::Body::Full(b) => Watch {
            code,
            headers,
            stream: None,
            body: String::from_utf8_lossy(&b).into_owned(),
        },
    }
}

/// The `X-Kubesim-Read` explanation of a response.
pub fn explained(r: &Resp) -> String {
    r.header("x-kubesim-read").to_string()
}

/// `metadata.resourceVersion` as a number.
pub fn rv_of(v: &Value) -> u64 {
    v["metadata"]["resourceVersion"]
        .as_str()
        .unwrap_or("0")
        .parse()
        .unwrap_or(0)
}
