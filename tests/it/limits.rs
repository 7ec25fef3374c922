//! Input an attacker would send: each gets the real server's answer, with nothing lost or
//! changed and the server still serving. (Order 12's probe of `kubesim serve`.)

use crate::common::server::{exchange, Server};
use crate::common::*;
use serde_json::{json, Value};

/// A request's extra headers.
type Headers<'a> = &'a [(&'a str, &'a str)];

/// kube-apiserver's default `MaxRequestBodyBytes`.
const LIMIT: usize = 3 * 1024 * 1024;

/// A ControllerRevision body of exactly `len` bytes (padded in a label-free annotation).
fn body_of_len(name: &str, len: usize) -> String {
    let head = format!(
        r#"{{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{{"name":"{name}","annotations":{{"pad":""#
    );
    let tail = r#""}},"data":{},"revision":1}"#;
    let pad = len - head.len() - tail.len();
    format!("{head}{}{tail}", "x".repeat(pad))
}

fn assert_too_large(r: &Resp) {
    assert_eq!(r.code, 413, "{}", r.text);
    assert_eq!(r.reason(), "RequestEntityTooLarge");
    assert_eq!(r.message(), "Request entity too large: limit is 3145728");
    assert_eq!(r.json["kind"], "Status");
}

/// Every verb that reads a body reads at most 3 MiB of it (`limitedReadBody`); a body of
/// exactly the limit is read, and a read verb never looks at its body.
#[test]
fn bodies_over_three_mebibytes_are_413_for_every_verb_that_reads_one() {
    let mut e = engine();
    create_cr(&mut e, "default", &cr_body("r1", 1));
    let big = body_of_len("big", LIMIT + 1);
    let json = [("content-type", "application/json")];
    let rows: &[(&str, String, Headers)] = &[
        ("POST", crs("default"), &json),
        ("PUT", cr("default", "r1"), &json),
        (
            "PATCH",
            cr("default", "r1"),
            &[("content-type", "application/merge-patch+json")],
        ),
        (
            "PATCH",
            cr("default", "r1"),
            &[("content-type", "application/json-patch+json")],
        ),
        (
            "PATCH",
            cr("default", "r1"),
            &[("content-type", "application/strategic-merge-patch+json")],
        ),
        (
            "PATCH",
            format!("{}?fieldManager=m", cr("default", "r1")),
            &[("content-type", "application/apply-patch+yaml")],
        ),
        ("DELETE", cr("default", "r1"), &json),
        ("DELETE", crs("default"), &json),
    ];
    for (method, uri, headers) in rows {
        let r = send(&mut e, method, uri, Some(&big), headers);
        assert_too_large(&r);
    }
    // Nothing was written or deleted.
    let list = get(&mut e, &crs("default"));
    assert_eq!(list.names(), ["r1"]);
    assert_eq!(
        get(&mut e, &cr("default", "r1")).json["metadata"]["annotations"],
        Value::Null
    );
    // A GET's body is not read.
    assert_eq!(
        send(&mut e, "GET", &cr("default", "r1"), Some(&big), &[]).code,
        200
    );
    // At the limit the body is read (and decoded: a 3 MiB annotation is then invalid).
    let at = send(
        &mut e,
        "POST",
        &crs("default"),
        Some(&body_of_len("at", LIMIT)),
        &json,
    );
    assert_ne!(at.code, 413, "{}", at.message());
}

/// The limit comes before the write's options, as the handler reads its body first.
#[test]
fn the_body_limit_is_checked_before_the_options() {
    let mut e = engine();
    let big = body_of_len("big", LIMIT + 1);
    let r = send(
        &mut e,
        "POST",
        &format!("{}?fieldValidation=Bogus&dryRun=Maybe", crs("default")),
        Some(&big),
        &[("content-type", "application/json")],
    );
    assert_too_large(&r);
}

/// The native server stops reading a body past the limit: a client announcing 50 MB gets its
/// 413 after sending a little over 3 MiB, and the server goes on serving.
#[test]
fn the_server_answers_413_without_reading_the_rest_of_the_body() {
    use std::io::{Read, Write};
    let s = Server::start(&["--tls", "false"]);
    let addr = s.url.strip_prefix("http://").unwrap().to_string();
    let mut conn = std::net::TcpStream::connect(&addr).unwrap();
    let head = format!(
        "POST /apis/apps/v1/namespaces/default/controllerrevisions HTTP/1.1\r\nHost: {addr}\r\n\
         Authorization: Bearer {}\r\nContent-Type: application/json\r\n\
         Content-Length: 50000000\r\n\r\n",
        kubesim::auth::ADMIN_TOKEN
    );
    conn.write_all(head.as_bytes()).unwrap();
    let chunk = vec![b' '; 64 * 1024];
    let mut sent = 0;
    while sent <= LIMIT + chunk.len() {
        conn.write_all(&chunk).unwrap();
        sent += chunk.len();
    }
    conn.set_read_timeout(Some(std::time::Duration::from_secs(20)))
        .unwrap();
    let mut raw = Vec::new();
    let mut buf = [0u8; 4096];
    while !String::from_utf8_lossy(&raw).contains("limit is 3145728") {
        let n = conn.read(&mut buf).expect("an answer before the body ends");
        assert!(n > 0, "closed without an answer");
        raw.extend_from_slice(&buf[..n]);
    }
    let text = String::from_utf8_lossy(&raw);
    assert!(text.starts_with("HTTP/1.1 413 "), "{text}");
    assert!(
        text.contains(r#""reason":"RequestEntityTooLarge""#),
        "{text}"
    );
    drop(conn);
    // Still serving, and nothing was created.
    let mut conn = std::net::TcpStream::connect(&addr).unwrap();
    let get = format!(
        "GET /apis/apps/v1/namespaces/default/controllerrevisions HTTP/1.1\r\nHost: {addr}\r\n\
         Connection: close\r\nAuthorization: Bearer {}\r\n\r\n",
        kubesim::auth::ADMIN_TOKEN
    );
    conn.write_all(get.as_bytes()).unwrap();
    let mut list = String::new();
    conn.read_to_string(&mut list).unwrap();
    assert!(list.starts_with("HTTP/1.1 200 "), "{list}");
    assert!(list.contains(r#""items":[]"#), "{list}");
}

/// Repeated `copy` operations double a document with each one: a patch of a few hundred
/// bytes stops at the 3 MiB the copies may add (`JSONPatchMaxCopyBytes`), with the patch
/// handler's generic 422, and the object is left as it was.
#[test]
fn json_patch_copies_stop_at_three_mebibytes() {
    let mut e = engine();
    let mut body = cr_body("r1", 1);
    body["metadata"]["annotations"] = json!({"a": "x".repeat(1000)});
    create_cr(&mut e, "default", &body);
    let before = get(&mut e, &cr("default", "r1")).json;
    let ops: Vec<Value> = (0..40)
        .map(|i| json!({"op": "copy", "from": "/metadata/annotations", "path": format!("/metadata/annotations/c{i}")}))
        .collect();
    let patch = Value::Array(ops).to_string();
    assert!(patch.len() < 4096);
    let json_patch = |e: &mut kubesim::Engine, patch: &str| {
        let ct = [("content-type", "application/json-patch+json")];
        send(e, "PATCH", &cr("default", "r1"), Some(patch), &ct)
    };
    let r = json_patch(&mut e, &patch);
    assert_eq!(r.code, 422, "{}", r.text);
    assert_eq!(r.reason(), "Invalid");
    assert_eq!(
        r.message(),
        "the server rejected our request due to an error in our request"
    );
    assert_eq!(get(&mut e, &cr("default", "r1")).json, before);
    // Copies within the limit apply.
    let few = json!([{"op": "copy", "from": "/metadata/annotations/a", "path": "/metadata/annotations/b"}]);
    let r = json_patch(&mut e, &few.to_string());
    assert_eq!(r.code, 200, "{}", r.text);
    let annotations = &r.json["metadata"]["annotations"];
    assert_eq!(annotations["b"], annotations["a"]);
}

/// A YAML alias bomb (each level nine aliases of the one before) fails as go-yaml v2 fails it,
/// before it is expanded; a document that uses aliases modestly still converts.
#[test]
fn yaml_alias_bombs_are_refused_as_excessive_aliasing() {
    let mut e = engine();
    let mut bomb = String::from(
        "apiVersion: apps/v1\nkind: ControllerRevision\nmetadata: {name: bomb}\nrevision: 1\n\
         data:\n  a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n",
    );
    for (prev, level) in ('a'..='h').zip('b'..='i') {
        let refs = vec![format!("*{prev}"); 9].join(", ");
        bomb.push_str(&format!("  {level}: &{level} [{refs}]\n"));
    }
    assert!(bomb.len() < 600, "{}", bomb.len());
    let yaml = [("content-type", "application/yaml")];
    let r = send(&mut e, "POST", &crs("default"), Some(&bomb), &yaml);
    assert_eq!(r.code, 400, "{}", r.text);
    assert!(
        r.message().starts_with(
            "the object provided is unrecognized (must be of type ControllerRevision): \
             yaml: document contains excessive aliasing ("
        ),
        "{}",
        r.message()
    );
    let modest = "apiVersion: apps/v1\nkind: ControllerRevision\nmetadata: {name: ok}\n\
                  revision: 1\ndata:\n  a: &a [x, z]\n  b: [*a, *a, *a]\n";
    let r = send(&mut e, "POST", &crs("default"), Some(modest), &yaml);
    assert_eq!(r.code, 201, "{}", r.text);
    assert_eq!(
        r.json["data"]["b"],
        json!([["x", "z"], ["x", "z"], ["x", "z"]])
    );
}

/// Routes read the percent-decoded path, as Go's `URL.Path` is; a malformed escape is
/// net/http's own plain 400.
#[test]
fn percent_encoded_paths_are_decoded_before_routing() {
    let mut e = engine();
    create_cr(&mut e, "default", &cr_body("r1", 1));
    let r = get(&mut e, "/api/v1/namespaces/%64efault");
    assert_eq!(r.code, 200, "{}", r.text);
    assert_eq!(r.json["metadata"]["name"], "default");
    let r = get(
        &mut e,
        "/apis/apps/v1/namespaces/def%61ult/controllerrevisions/%72%31",
    );
    assert_eq!(r.code, 200, "{}", r.text);
    assert_eq!(r.json["metadata"]["name"], "r1");
    let r = get(
        &mut e,
        "/apis/apps/v1/namespaces/default/controllerrevisions/n%6fne",
    );
    assert_eq!(r.code, 404);
    assert_eq!(r.message(), r#"controllerrevisions.apps "none" not found"#);
    for bad in ["/api/v1/namespaces/%zz", "/api/v1/namespaces/default%"] {
        let r = get(&mut e, bad);
        assert_eq!(r.code, 400, "{bad}");
        assert_eq!(r.text, "400 Bad Request");
        assert_eq!(r.header("content-type"), "text/plain; charset=utf-8");
    }
}

/// Go's decoders take 10,000 levels of JSON, and a ControllerRevision's `data` keeps them:
/// the server stores such an object and serves it in every encoding, a body one level deeper
/// is the decoder's 400, and a patch that would make the object deeper is the patch's 422.
/// (A 19 KB body nested 9,500 levels deep used to overflow the stack and abort the server.)
#[test]
fn the_server_takes_json_as_deep_as_go_does_and_survives_deeper() {
    let s = Server::start(&["--tls", "false"]);
    let addr = s.url.strip_prefix("http://").unwrap().to_string();
    let coll = "/apis/apps/v1/namespaces/default/controllerrevisions";
    let json = [("Content-Type", "application/json")];
    let deep = |name: &str, depth: usize| {
        format!(
            r#"{{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{{"name":"{name}"}},"revision":1,"data":{}1{}}}"#,
            r#"{"a":"#.repeat(depth - 1),
            "}".repeat(depth - 1)
        )
    };
    // `deep(name, n)` nests the whole body `n` levels deep.
    let (code, text) = exchange(&addr, "POST", coll, &json, &deep("deep", 9_500));
    assert_eq!(code, 201, "{}", &text[..text.len().min(300)]);
    let one = format!("{coll}/deep");
    let accepts = [
        "application/json",
        "application/yaml",
        "application/vnd.kubernetes.protobuf",
        "application/json;as=Table;v=v1;g=meta.k8s.io",
        "application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io",
    ];
    for accept in accepts {
        let (code, _) = exchange(&addr, "GET", &one, &[("Accept", accept)], "");
        assert_eq!(code, 200, "{accept}");
    }
    let (code, list) = exchange(&addr, "GET", coll, &[], "");
    assert_eq!(code, 200);
    assert!(list.contains(r#""name":"deep""#));
    let (code, events) = exchange(
        &addr,
        "GET",
        &format!("{coll}?watch=1&resourceVersion=0&timeoutSeconds=1"),
        &[],
        "",
    );
    assert_eq!(code, 200);
    assert!(events.contains(r#"{"type":"ADDED","object":{"kind":"ControllerRevision""#));

    // Go's limit itself is taken (its managedFields nest deeper still), one level more is not.
    let (code, _) = exchange(&addr, "POST", coll, &json, &deep("limit", 10_000));
    assert_eq!(code, 201);
    let (code, text) = exchange(&addr, "GET", &format!("{coll}/limit"), &[], "");
    assert_eq!(code, 200);
    assert!(text.contains(r#""name":"limit""#));
    let (code, text) = exchange(&addr, "POST", coll, &json, &deep("deeper", 10_001));
    assert_eq!(code, 400);
    let status: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        status["message"],
        "the object provided is unrecognized (must be of type ControllerRevision): couldn't get \
         version/kind; json parse error: invalid character '{' exceeded max depth \
         ({\"apiVersion\":\"apps/v1\",\"kind\" ...)"
    );

    // A copy under 600 more levels would nest the object 10,100 deep.
    let path = "/a".repeat(600);
    let patch = format!(r#"[{{"op":"copy","from":"/data","path":"/data{path}/z"}}]"#);
    let (code, text) = exchange(
        &addr,
        "PATCH",
        &one,
        &[("Content-Type", "application/json-patch+json")],
        &patch,
    );
    assert_eq!(code, 422);
    let status: Value = serde_json::from_str(&text).unwrap();
    let cause = status["details"]["causes"][0]["message"].as_str().unwrap();
    assert!(
        cause.ends_with(
            "couldn't get version/kind; json parse error: invalid character '{' exceeded max depth"
        ),
        "{}",
        &cause[cause.len() - 200..]
    );
    let (code, _) = exchange(&addr, "GET", "/readyz", &[], "");
    assert_eq!(code, 200);
}

/// An engine in a test's own process takes Go's deepest objects too, though the test thread
/// has 1 MiB of stack (the walks over 10,000 levels need tens of MiB): it serves them on a
/// stack of its own, for writes, reads in every encoding, patches and the controllers.
#[test]
fn an_in_process_engine_takes_the_deepest_objects_on_a_short_thread() {
    let on_short_stack = std::thread::Builder::new().stack_size(1 << 20).spawn(|| {
        let mut e = engine();
        let data = format!("{}1{}", r#"{"a":"#.repeat(9_999), "}".repeat(9_999));
        let body = format!(
            r#"{{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{{"name":"deep"}},"revision":1,"data":{data}}}"#
        );
        let json = [("content-type", "application/json")];
        let mut codes = vec![send(&mut e, "POST", &crs("default"), Some(&body), &json).code];
        let one = cr("default", "deep");
        for accept in [
            "application/json",
            "application/yaml",
            "application/vnd.kubernetes.protobuf",
            "application/json;as=Table;v=v1;g=meta.k8s.io",
            "application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io",
        ] {
            codes.push(send(&mut e, "GET", &one, None, &[("accept", accept)]).code);
        }
        let labels = r#"{"metadata":{"labels":{"x":"y"}}}"#;
        let merge = [("content-type", "application/merge-patch+json")];
        codes.push(send(&mut e, "PATCH", &one, Some(labels), &merge).code);
        codes.push(send(&mut e, "DELETE", &one, None, &[]).code);
        e.advance(60_000);
        codes.push(get(&mut e, &one).code);
        codes
    });
    let codes = on_short_stack.unwrap().join().expect("no stack overflow");
    // The merge patch adds managedFields entries deeper than 10,000 levels: Go's 422.
    assert_eq!(codes, [201, 200, 200, 200, 200, 200, 422, 200, 404]);
}

/// A watcher whose client leaves its frames unread is closed once they pass its buffer, as
/// the real cacher closes a blocked watcher: what was queued is delivered, then the stream
/// ends with no error event, and nothing more is kept for it. A client that reads keeps its
/// watch.
#[test]
fn a_watcher_that_never_reads_is_closed_when_its_buffer_fills() {
    let mut config = kubesim::Config::default();
    config.cache.watcher_buffer_bytes = 16 * 1024;
    let mut e = kubesim::Engine::new(config);
    let uri = format!("{}?watch=1&resourceVersion=0", crs("default"));
    let mut slow = watch(&mut e, &uri);
    let mut reader = watch(&mut e, &uri);
    let mut read = 0;
    for i in 0..100 {
        let mut body = cr_body(&format!("r{i:03}"), 1);
        body["metadata"]["annotations"] = json!({"pad": "x".repeat(500)});
        create_cr(&mut e, "default", &body);
        let (events, ended) = reader.events();
        assert!(!ended);
        read += events.len();
    }
    assert_eq!(read, 100);
    let (events, ended) = slow.events();
    assert!(ended, "the slow watcher is closed");
    assert!(!events.is_empty() && events.len() < 100, "{}", events.len());
    // In order, without gaps, and no ERROR event: a client resumes from the last one.
    for (i, ev) in events.iter().enumerate() {
        assert_eq!(ev["type"], "ADDED");
        assert_eq!(ev["object"]["metadata"]["name"], format!("r{i:03}"));
    }
    let last = rv_of(&events[events.len() - 1]["object"]);
    let mut resumed = watch(
        &mut e,
        &format!("{}?watch=1&resourceVersion={last}", crs("default")),
    );
    let (rest, ended) = resumed.events();
    assert!(!ended);
    assert_eq!(events.len() + rest.len(), 100);
}
