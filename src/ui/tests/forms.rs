//! Text in, text out: the query editor, links, copy-as renderings, the read badge, hex dumps,
//! watch rows, lesson placeholders, the history list, templates, binary bodies, and the
//! form's text as an HTTP request.

// In the browser suite these are wasm-bindgen tests.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use http::Method;
use serde_json::json;

use super::{draft, CR};
use crate::ui::badge::ReadBadge;
use crate::ui::exchange::{self, Draft};
use crate::ui::share::{self, Shared};
use crate::ui::{curl, hexdump, history, query, script, templates, watchlog};

#[test]
fn query_parameters_are_edited_in_the_path() {
    let p = query::set(CR, "limit", Some("2"));
    assert_eq!(p, format!("{CR}?limit=2"));
    let p = query::set(&p, "labelSelector", Some("app=web,tier!=db"));
    assert_eq!(p, format!("{CR}?limit=2&labelSelector=app=web,tier!=db"));
    let p = query::set(&p, "limit", Some("5"));
    assert_eq!(query::get(&p, "limit").as_deref(), Some("5"));
    assert!(
        p.find("limit").unwrap() < p.find("labelSelector").unwrap(),
        "keeps its place"
    );
    let p = query::set(&p, "fieldSelector", Some("metadata.name=a b&c"));
    assert_eq!(
        query::get(&p, "fieldSelector").as_deref(),
        Some("metadata.name=a b&c")
    );
    assert!(
        http::Uri::try_from(p.as_str()).is_ok(),
        "{p} is a valid URI"
    );
    let p = query::set(&p, "limit", None);
    let p = query::set(&p, "labelSelector", None);
    let p = query::set(&p, "fieldSelector", None);
    assert_eq!(p, CR);
    assert_eq!(query::decode("a+b%2Cc"), "a b,c");
    assert_eq!(query::get("/x?watch", "watch").as_deref(), Some(""));
    assert!(query::is_watch("/api/v1/namespaces?watch=1"));
    assert!(query::is_watch("/api/v1/namespaces?watch=true"));
    assert!(query::is_watch("/api/v1/watch/namespaces"));
    assert!(!query::is_watch("/api/v1/namespaces?watch=false"));
}

#[test]
fn header_lines_are_set_and_removed() {
    let h = query::set_header("", "Accept", Some("application/yaml"));
    assert_eq!(h, "Accept: application/yaml");
    let h = query::set_header(&format!("{h}\nX-A: 1"), "accept", Some("application/json"));
    assert_eq!(h, "accept: application/json\nX-A: 1");
    assert_eq!(
        query::header(&h, "ACCEPT").as_deref(),
        Some("application/json")
    );
    assert_eq!(query::set_header(&h, "Accept", None), "X-A: 1");
}

#[test]
fn every_parameter_of_the_spec_has_a_form_field() {
    let names: Vec<&str> = query::PARAMS.iter().map(|p| p.name).collect();
    for n in [
        "pretty",
        "watch",
        "allowWatchBookmarks",
        "continue",
        "limit",
        "fieldSelector",
        "labelSelector",
        "resourceVersion",
        "resourceVersionMatch",
        "sendInitialEvents",
        "shardSelector",
        "timeoutSeconds",
        "dryRun",
        "fieldManager",
        "fieldValidation",
        "force",
        "gracePeriodSeconds",
        "orphanDependents",
        "propagationPolicy",
        "ignoreStoreReadErrorWithClusterBreakingPotential",
    ] {
        assert!(names.contains(&n), "{n} missing");
    }
    assert!(query::PARAMS.iter().all(|p| !p.help.is_empty()));
    let get: Vec<&str> = query::PARAMS
        .iter()
        .filter(|p| query::applies(p, "GET"))
        .map(|p| p.name)
        .collect();
    assert!(get.contains(&"resourceVersionMatch") && !get.contains(&"dryRun"));
    let patch: Vec<&str> = query::PARAMS
        .iter()
        .filter(|p| query::applies(p, "PATCH"))
        .map(|p| p.name)
        .collect();
    assert!(patch.contains(&"force") && patch.contains(&"fieldManager"));
    assert!(!query::PARAMS
        .iter()
        .any(|p| p.name == "force" && query::applies(p, "PUT")));
}

#[test]
fn links_round_trip_requests_and_lesson_steps() {
    let d = draft(
        "PATCH",
        &format!("{CR}/r1?fieldManager=me&dryRun=All"),
        "Content-Type: application/merge-patch+json\nAccept: application/json;as=Table;g=meta.k8s.io;v=v1",
        "{\"metadata\": {\"labels\": {\"a+b\": \"c&d=e #x ü\"}}}\n",
    );
    let hash = share::encode_hash(&Shared::Request(d.clone()));
    assert!(
        hash.starts_with("method=PATCH&path=/apis/apps/v1/"),
        "{hash}"
    );
    assert!(!hash.contains(' ') && !hash.contains('#'), "{hash}");
    assert_eq!(
        share::decode_hash(&format!("#{hash}")),
        Some(Shared::Request(d))
    );
    let l = Shared::Lesson {
        lesson: "paging".into(),
        step: 5,
    };
    assert_eq!(share::encode_hash(&l), "lesson=paging&step=6");
    assert_eq!(share::decode_hash("#lesson=paging&step=6"), Some(l));
    assert_eq!(
        share::decode_hash("#path=/api"),
        Some(Shared::Request(draft("GET", "/api", "", "")))
    );
    assert_eq!(share::decode_hash(""), None);
    assert_eq!(share::decode_hash("#builder-title"), None);
}

#[test]
fn copy_as_curl_kubectl_and_fetch() {
    let post = draft(
        "POST",
        &format!("{CR}?dryRun=All"),
        "",
        "{\"kind\": \"ControllerRevision\", \"x\": \"it's\"}",
    );
    let c = curl::to_curl(&post, curl::DEFAULT_BASE);
    assert_eq!(
        c,
        "curl -sS -X POST \\\n  'http://127.0.0.1:8080/apis/apps/v1/namespaces/default/controllerrevisions?dryRun=All' \\\n  \
         -H 'Content-Type: application/json' \\\n  --data-binary '{\"kind\": \"ControllerRevision\", \"x\": \"it'\\''s\"}'"
    );
    let watch = draft(
        "GET",
        "/api/v1/namespaces?watch=1",
        "Accept: application/json",
        "",
    );
    assert!(curl::to_curl(&watch, "http://h")
        .starts_with("curl -sS -N \\\n  'http://h/api/v1/namespaces?watch=1'"));
    assert_eq!(
        curl::to_kubectl(&watch),
        "# kubectl --raw does not send these headers: Accept: application/json\nkubectl get --raw '/api/v1/namespaces?watch=1'"
    );
    assert!(curl::to_kubectl(&post).starts_with(&format!(
        "kubectl create --raw '{CR}?dryRun=All' -f - <<'EOF'\n{{\"kind\""
    )));
    let patch = draft(
        "PATCH",
        &format!("{CR}/r1"),
        "Content-Type: application/json-patch+json",
        "[{\"op\":\"remove\",\"path\":\"/metadata/labels\"}]",
    );
    assert_eq!(
        curl::to_kubectl(&patch),
        "kubectl patch controllerrevisions.apps r1 -n default --type=json -p '[{\"op\":\"remove\",\"path\":\"/metadata/labels\"}]'"
    );
    let apply = draft(
        "PATCH",
        &format!("{CR}/r1?fieldManager=me"),
        "Content-Type: application/apply-patch+yaml",
        "kind: X\n",
    );
    assert_eq!(
        curl::to_kubectl(&apply),
        "kubectl apply --server-side --field-manager='me' -n default -f - <<'EOF'\nkind: X\nEOF"
    );
    let ns = draft(
        "DELETE",
        "/api/v1/namespaces/demo",
        "",
        "{\"gracePeriodSeconds\": 0}",
    );
    assert!(curl::to_kubectl(&ns).ends_with("kubectl delete --raw '/api/v1/namespaces/demo'"));
    let f = curl::to_fetch(&post, "http://h");
    assert!(
        f.starts_with("const res = await fetch(\"http://h/apis/apps/v1/"),
        "{f}"
    );
    assert!(
        f.contains("  method: \"POST\",") && f.contains("\"Content-Type\": \"application/json\""),
        "{f}"
    );
    assert!(
        f.contains("body: JSON.stringify({\n    \"kind\": \"ControllerRevision\""),
        "{f}"
    );
    assert!(curl::to_fetch(&watch, "http://h").contains("getReader()"));
    assert_eq!(curl::shell_quote("a'b"), "'a'\\''b'");
}

#[test]
fn read_badge_explains_the_header() {
    let b = ReadBadge::parse("semantic=Any; source=watch-cache; rv=41");
    assert_eq!(b.label(), "Any · watch cache · rv 41 · may be stale");
    assert!(b.may_be_stale() && b.meaning().starts_with("Data at any version"));
    let b = ReadBadge::parse("semantic=NotOlderThan; source=watch-cache; rv=7; waited-ms=1200");
    assert_eq!(
        b.label(),
        "Not older than · watch cache · rv 7 · waited 1200 ms · may be stale"
    );
    let b = ReadBadge::parse("semantic=MostRecent; source=store; rv=3");
    assert_eq!(b.label(), "Most Recent · store · rv 3 · consistent");
    assert!(!b.may_be_stale());
    assert_eq!(
        ReadBadge::parse("semantic=Exact; source=cache-snapshot; rv=5").label(),
        "Exact · cache snapshot · rv 5"
    );
}

#[test]
fn binary_bodies_are_dumped_in_hex() {
    let pb = [0x6b, 0x38, 0x73, 0x00, 0x0a, 0x0c, 0x0a, 0x02, b'v', b'1'];
    assert!(!hexdump::is_text(&pb));
    assert!(hexdump::is_text(b"{\"a\":\n\t1}"));
    assert_eq!(hexdump::sniff(&pb), Some("Protobuf (k8s\\0 envelope)"));
    assert_eq!(
        hexdump::sniff(&[0xd9, 0xd9, 0xf7, 0xa1]),
        Some("CBOR (self-described, tag 55799)")
    );
    let dump = hexdump::hexdump(&pb, 64);
    assert_eq!(
        dump,
        "00000000  6b 38 73 00 0a 0c 0a 02  |k8s.....|\n00000008  76 31                    |v1|\n0000000a\n"
    );
    let long = hexdump::hexdump(&[0u8; 40], 16);
    assert!(long.contains("… 24 more bytes"), "{long}");
}

#[test]
fn watch_frames_become_rows() {
    let frames = concat!(
        r#"{"type":"ADDED","object":{"metadata":{"name":"a","namespace":"default","resourceVersion":"4"}}}"#,
        "\n",
        r#"{"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"5","annotations":{"k8s.io/initial-events-end":"true"}}}}"#,
        "\n",
        r#"{"type":"ERROR","object":{"kind":"Status","code":410,"reason":"Expired","message":"too old resource version: 4 (7)"}}"#,
        "\n",
    );
    let rows = watchlog::parse_frames(frames.as_bytes());
    let kinds: Vec<&str> = rows.iter().map(|r| r.kind.as_str()).collect();
    assert_eq!(kinds, ["ADDED", "BOOKMARK", "ERROR"]);
    assert_eq!(
        (rows[0].rv.as_str(), rows[0].name.as_str()),
        ("4", "default/a")
    );
    assert!(rows[1].is_initial_end());
    assert_eq!(rows[2].note, "410 Expired: too old resource version: 4 (7)");
}

#[test]
fn lesson_placeholders_are_filled_and_saved() {
    let mut vars = script::Vars::new();
    assert_eq!(
        script::placeholders("a {{x}} {\"b\": {{y_2}}} {{}} {{ z }}"),
        ["x", "y_2"]
    );
    assert!(script::fill("?continue={{token}}", &vars)
        .unwrap_err()
        .contains("{{token}}"));
    script::capture(
        &json!({"metadata": {"continue": "abc", "resourceVersion": "6"}}),
        &[
            ("token", "/metadata/continue"),
            ("rv", "/metadata/resourceVersion"),
            ("none", "/nope"),
        ],
        &mut vars,
    );
    assert_eq!(
        script::fill("?continue={{token}}&rv={{rv}}", &vars).unwrap(),
        "?continue=abc&rv=6"
    );
    script::capture(
        &json!({"metadata": {"continue": ""}}),
        &[("token", "/metadata/continue")],
        &mut vars,
    );
    assert_eq!(vars["token"], "abc", "an empty continue does not overwrite");
}

#[test]
fn history_keeps_recent_requests_once() {
    let a = history::Entry::new(&draft("GET", "/api", "", ""), 200);
    let b = history::Entry::new(&draft("POST", CR, "", "{}"), 201);
    let list = history::push(
        &history::push(&history::push(&[], a.clone()), b.clone()),
        a.clone(),
    );
    assert_eq!(list, vec![a.clone(), b.clone()]);
    assert_eq!(history::parse(&history::serialize(&list)), list);
    assert!(history::parse("not json").is_empty());
    let many = (0..50).fold(Vec::new(), |l, i| {
        history::push(
            &l,
            history::Entry::new(&draft("GET", &format!("/api?i={i}"), "", ""), 200),
        )
    });
    assert_eq!(many.len(), history::MAX);
    assert_eq!(many[0].path, "/api?i=49");
}

#[test]
fn templates_are_well_formed_requests() {
    for t in templates::BODIES {
        let mut path = format!("{}{}", templates::CR_COLLECTION, t.path);
        if !t.query.is_empty() {
            path = format!("{path}?{}", t.query);
        }
        let d = draft(
            t.method,
            &path,
            &format!("Content-Type: {}", t.content_type),
            t.body,
        );
        let req = exchange::build_request(&d).unwrap_or_else(|e| panic!("{}: {e}", t.label));
        assert_eq!(req.headers()["content-type"], t.content_type);
        if t.content_type.ends_with("json") {
            serde_json::from_str::<serde_json::Value>(t.body)
                .unwrap_or_else(|e| panic!("{}: {e}", t.label));
        }
    }
    for p in templates::ACCEPT.iter().chain(templates::CONTENT_TYPE) {
        assert!(http::HeaderValue::from_str(p.value).is_ok(), "{}", p.value);
    }
}

#[test]
fn protobuf_and_cbor_bodies_and_watch_frames_are_decoded() {
    use crate::codec::{cbor, protobuf};
    let obj = json!({
        "kind": "ControllerRevision", "apiVersion": "apps/v1",
        "metadata": {"name": "r1", "namespace": "default", "resourceVersion": "4"},
        "data": {"a": 1}, "revision": 1
    });
    let pb = protobuf::encode(&obj, &crate::resources::SCHEME).unwrap();
    let shown = exchange::decode_binary(&pb).unwrap();
    assert!(shown.contains("\"name\": \"r1\""), "{shown}");
    let cb = cbor::encode(&obj);
    assert!(exchange::decode_binary(&cb)
        .unwrap()
        .contains("\"revision\": 1"));
    assert!(exchange::decode_binary(b"k8s\0garbage")
        .unwrap()
        .starts_with("(could not decode"));
    assert!(exchange::decode_binary(&[0x1f, 0x8b, 8, 0])
        .unwrap()
        .starts_with("(could not inflate"));
    assert_eq!(exchange::decode_binary(&[0xff, 0xfe]), None);

    let mut stream = protobuf::watch_frame("ADDED", &obj, &crate::resources::SCHEME).unwrap();
    stream.extend(protobuf::watch_frame("MODIFIED", &obj, &crate::resources::SCHEME).unwrap());
    let rows = watchlog::parse_frames(&stream);
    let kinds: Vec<&str> = rows.iter().map(|r| r.kind.as_str()).collect();
    assert_eq!(kinds, ["ADDED", "MODIFIED"]);
    assert_eq!(
        (rows[0].rv.as_str(), rows[0].name.as_str()),
        ("4", "default/r1")
    );
    let rows = watchlog::parse_frames(&cbor::watch_event(
        "DELETED",
        &obj,
        &crate::resources::SCHEME,
    ));
    assert_eq!(
        (rows[0].kind.as_str(), rows[0].name.as_str()),
        ("DELETED", "default/r1")
    );
    assert_eq!(watchlog::parse_frames(&[0xff, 0x00, 0x01])[0].kind, "?");
}

#[test]
fn form_text_becomes_a_request() {
    let draft = Draft {
        method: "PATCH".into(),
        path: "/api/v1/namespaces/default?dryRun=All".into(),
        headers: "Accept: application/json\n\n  X-Trace : 1  ".into(),
        body: r#"{"metadata":{"labels":{"a":"b"}}}"#.into(),
    };
    let req = exchange::build_request(&draft).unwrap();
    assert_eq!(req.method(), Method::PATCH);
    assert_eq!(req.uri().query(), Some("dryRun=All"));
    assert_eq!(req.headers()["accept"], "application/json");
    assert_eq!(req.headers()["x-trace"], "1");
    assert_eq!(
        req.headers()["content-type"],
        "application/merge-patch+json"
    );

    let bad = Draft {
        headers: "no colon here".into(),
        ..draft.clone()
    };
    assert_eq!(
        exchange::build_request(&bad).unwrap_err(),
        "header line 1: expected `Name: value`"
    );
    let relative = Draft {
        path: "api/v1".into(),
        ..draft
    };
    assert!(exchange::build_request(&relative).is_err());
}
