//! The playground's logic in a real browser (headless Chromium through
//! wasm-bindgen-test-runner): query editing, links, copy-as renderings, the read badge,
//! watch rows, the semantics tables, and every lesson replayed through the page's reducer.
//!
//! Run with `cargo test --target wasm32-unknown-unknown --test playground_web`; `make
//! test-web` does this.
#![cfg(target_arch = "wasm32")]

use std::rc::Rc;

use kubesim::ui::badge::ReadBadge;
use kubesim::ui::exchange::{self, Draft};
use kubesim::ui::lesson_data::LESSONS;
use kubesim::ui::semantics::{self, Cell, TableId};
use kubesim::ui::share::{self, Shared};
use kubesim::ui::sim::{Sim, WatchState};
use kubesim::ui::state::{Action, AppState, Outcome};
use kubesim::ui::{curl, discovery, hexdump, history, query, script, templates, watchlog};
use serde_json::json;
use wasm_bindgen_test::*;
use yew::Reducible;

wasm_bindgen_test_configure!(run_in_browser);

const CR: &str = "/apis/apps/v1/namespaces/default/controllerrevisions";

fn draft(method: &str, path: &str, headers: &str, body: &str) -> Draft {
    Draft {
        method: method.into(),
        path: path.into(),
        headers: headers.into(),
        body: body.into(),
    }
}

#[wasm_bindgen_test]
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

#[wasm_bindgen_test]
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

#[wasm_bindgen_test]
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

#[wasm_bindgen_test]
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

#[wasm_bindgen_test]
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

#[wasm_bindgen_test]
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

#[wasm_bindgen_test]
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

#[wasm_bindgen_test]
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

#[wasm_bindgen_test]
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

#[wasm_bindgen_test]
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

#[wasm_bindgen_test]
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

#[wasm_bindgen_test]
fn every_semantics_cell_classifies_back_and_gets_its_semantic() {
    let mut sim = Sim::new(false, Default::default());
    for cell in semantics::all_cells() {
        let rv = sim.engine.store().revision();
        let token = {
            let (x, _) = sim
                .send(&draft("GET", "/api/v1/namespaces?limit=1", "", ""))
                .unwrap();
            x.json().unwrap()["metadata"]["continue"]
                .as_str()
                .unwrap()
                .to_string()
        };
        let d = cell.draft(rv, &token);
        assert_eq!(semantics::classify(&d), Some(cell), "{}", d.path);
        let (x, _) = sim.send(&d).unwrap();
        let got = x
            .header("x-kubesim-read")
            .map(|r| ReadBadge::parse(r).semantic);
        match cell.semantic() {
            Some(want) => {
                assert_eq!(x.code, 200, "{} {}", d.path, x.body);
                assert_eq!(got.as_deref(), Some(want), "{} ({})", d.path, cell.spec());
            }
            None => assert!(x.code >= 400, "{} is invalid but got {}", d.path, x.code),
        }
    }
    assert_eq!(semantics::classify(&draft("POST", CR, "", "")), None);
    assert_eq!(
        semantics::classify(&draft("GET", &format!("{CR}/r1?resourceVersion=0"), "", "")),
        Some(Cell {
            table: TableId::Get,
            row: 0,
            col: 1
        })
    );
    assert_eq!(semantics::names_object("/version"), None);
}

#[wasm_bindgen_test]
fn discovery_completes_paths() {
    let mut sim = Sim::new(false, Default::default());
    sim.send(&draft("POST", CR, "", r#"{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"r1"},"data":{},"revision":1}"#)).unwrap();
    let (ns, objs) = sim.object_paths();
    let s = discovery::suggestions(&sim.resources, &ns, &objs, 1000);
    for p in [
        "/api/v1/namespaces",
        "/apis/apps/v1/controllerrevisions",
        CR,
        "/apis/apps/v1/watch/namespaces/kube-system/controllerrevisions",
        &format!("{CR}/r1"),
        "/api/v1/namespaces/default/finalize",
        "/kubesim/v1/state",
    ] {
        assert!(s.iter().any(|x| x == p), "{p} not suggested");
    }
}

#[wasm_bindgen_test]
fn sim_keeps_the_cluster_across_gate_and_clock_changes() {
    let mut sim = Sim::new(false, Default::default());
    sim.send(&draft("POST", CR, "", r#"{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"keep"},"data":{},"revision":1}"#)).unwrap();
    let (_, id) = sim
        .send(&draft("GET", &format!("{CR}?watch=1"), "", ""))
        .unwrap();
    assert_eq!(id, Some(1));
    assert_eq!(sim.watches[0].rows.len(), 1, "initial ADDED");
    let mut gates = sim.engine.feature_gates().clone();
    gates.set("CBORServingAndStorage", true).unwrap();
    sim.rebuild(false, gates).unwrap();
    assert!(sim.engine.feature_gates().enabled("CBORServingAndStorage"));
    assert_eq!(
        sim.watches[0].state,
        WatchState::Ended,
        "watches end on a rebuild"
    );
    assert_eq!(sim.engine.objects().len(), 4);
    let before = sim.engine.clock().now_ms();
    sim.rebuild(true, sim.engine.feature_gates().clone())
        .unwrap();
    assert!(!sim.engine.clock().is_simulated() && sim.engine.clock().now_ms() >= before);
    assert_eq!(sim.engine.objects().len(), 4);
    let exported = sim.engine.export_state().to_string();
    sim.reset();
    assert_eq!(sim.engine.objects().len(), 3);
    sim.import(&exported).unwrap();
    assert_eq!(sim.engine.objects().len(), 4);
    assert!(sim.import("{}").is_err());
}

/// Runs every lesson through the page's reducer exactly as the Run/Next buttons do, and
/// checks each step's status code and, for watches, the events its panel shows at once.
#[wasm_bindgen_test]
fn every_lesson_runs_as_written() {
    let mut ids = std::collections::BTreeSet::new();
    assert!(LESSONS.len() >= 8);
    for lesson in LESSONS {
        assert!(ids.insert(lesson.id), "duplicate lesson id {}", lesson.id);
        let mut saved: Vec<&str> = Vec::new();
        let mut state = Rc::new(AppState::new(false)).reduce(Action::StartLesson(lesson.id));
        for (i, step) in lesson.steps.iter().enumerate() {
            let at = format!("{} step {}", lesson.id, i + 1);
            assert!(
                !step.title.is_empty() && !step.expect.is_empty(),
                "{at}: title and expectation"
            );
            for p in script::placeholders(step.path)
                .into_iter()
                .chain(script::placeholders(step.body))
            {
                assert!(
                    saved.contains(&p.as_str()),
                    "{at}: {{{{{p}}}}} is not saved by an earlier step"
                );
            }
            saved.extend(step.save.iter().map(|(n, _)| *n));
            let run = state.lesson.clone().unwrap();
            assert_eq!((run.step, run.error), (i, None), "{at}");
            assert!(
                exchange::build_request(&state.draft).is_ok(),
                "{at}: well-formed"
            );
            let watches_before = state.sim.borrow().watches.len();
            state = state.reduce(Action::Send);
            let Outcome::Answered(x, watch) = &state.outcome else {
                panic!("{at}: not sent: {:?}", state.outcome);
            };
            assert_eq!(x.code, step.status, "{at} ({}): {}", step.title, x.body);
            if query::is_watch(&state.draft.path) && step.status == 200 {
                assert!(watch.is_some(), "{at}: a watch opens a panel");
                let sim = state.sim.borrow();
                assert_eq!(sim.watches.len(), watches_before + 1);
                let kinds: Vec<&str> = sim
                    .watches
                    .last()
                    .unwrap()
                    .rows
                    .iter()
                    .map(|r| r.kind.as_str())
                    .collect();
                assert_eq!(kinds, step.events, "{at}: events shown at once");
            } else {
                assert!(
                    step.events.is_empty(),
                    "{at}: events listed for a non-watch"
                );
            }
            assert_eq!(state.lesson.as_ref().unwrap().results[i], Some(step.status));
            if i + 1 < lesson.steps.len() {
                state = state.reduce(Action::LessonGoto(i + 1));
            }
        }
        assert!(state.lesson.as_ref().unwrap().finished(), "{}", lesson.id);
    }
}

#[wasm_bindgen_test]
fn a_lesson_link_replays_the_steps_before_it() {
    let state = Rc::new(AppState::new(false)).reduce(Action::Open(Shared::Lesson {
        lesson: "paging".into(),
        step: 5,
    }));
    let run = state.lesson.clone().unwrap();
    assert_eq!(run.step, 5);
    assert!(run.results[..5].iter().all(Option::is_some));
    assert!(
        state.draft.path.contains("continue=ey"),
        "{}",
        state.draft.path
    );
    let state = state.reduce(Action::Send);
    let Outcome::Answered(x, _) = &state.outcome else {
        panic!()
    };
    let names: Vec<String> = x.json().unwrap()["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["metadata"]["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        names,
        ["c"],
        "the second page is read at the first page's revision"
    );
}

#[wasm_bindgen_test]
fn the_reducer_runs_cells_and_advances_time() {
    let state = Rc::new(AppState::new(false));
    let cell = Cell {
        table: TableId::List,
        row: 2,
        col: 0,
    };
    let state = state.reduce(Action::RunCell(cell));
    let r = state.cells.get(&cell).cloned().unwrap();
    assert_eq!((r.code, r.semantic.as_deref()), (200, Some("Continuation")));
    assert_eq!(state.applied.as_deref(), Some("Continuation"));
    let before = state.sim.borrow().engine.clock().now_ms();
    let state = state.reduce(Action::Advance(300_000));
    assert_eq!(state.sim.borrow().engine.clock().now_ms(), before + 300_000);
    let state = state.reduce(Action::SetLag(2_000));
    assert_eq!(state.sim.borrow().engine.cache().config().lag_ms, 2_000);
    let v = state.version;
    let state = state.reduce(Action::Poll).reduce(Action::Poll);
    assert!(state.version <= v + 1, "an idle poll does not re-render");
}

#[wasm_bindgen_test]
fn protobuf_and_cbor_bodies_and_watch_frames_are_decoded() {
    use kubesim::codec::{cbor, protobuf};
    let obj = json!({
        "kind": "ControllerRevision", "apiVersion": "apps/v1",
        "metadata": {"name": "r1", "namespace": "default", "resourceVersion": "4"},
        "data": {"a": 1}, "revision": 1
    });
    let pb = protobuf::encode(&obj, &kubesim::resources::SCHEME).unwrap();
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

    let mut stream = protobuf::watch_frame("ADDED", &obj, &kubesim::resources::SCHEME).unwrap();
    stream.extend(protobuf::watch_frame("MODIFIED", &obj, &kubesim::resources::SCHEME).unwrap());
    let rows = watchlog::parse_frames(&stream);
    let kinds: Vec<&str> = rows.iter().map(|r| r.kind.as_str()).collect();
    assert_eq!(kinds, ["ADDED", "MODIFIED"]);
    assert_eq!(
        (rows[0].rv.as_str(), rows[0].name.as_str()),
        ("4", "default/r1")
    );
    let rows = watchlog::parse_frames(&cbor::watch_event("DELETED", &obj));
    assert_eq!(
        (rows[0].kind.as_str(), rows[0].name.as_str()),
        ("DELETED", "default/r1")
    );
    assert_eq!(watchlog::parse_frames(&[0xff, 0x00, 0x01])[0].kind, "?");
}

/// The Accept presets against the engine: every encoding answers, binary ones are decoded.
#[wasm_bindgen_test]
fn accept_presets_get_their_representation() {
    let mut gates = kubesim::features::FeatureGates::default();
    gates.set("CBORServingAndStorage", true).unwrap();
    let mut sim = Sim::new(false, gates);
    for p in templates::ACCEPT {
        let path = if p.value.contains("as=PartialObjectMetadata;") {
            "/api/v1/namespaces/default"
        } else {
            "/api/v1/namespaces"
        };
        let (x, _) = sim
            .send(&draft("GET", path, &format!("{}: {}", p.name, p.value), ""))
            .unwrap();
        match p.label {
            // Served once the engine wires its Protobuf and CBOR codecs into negotiation;
            // until then Protobuf falls back to JSON and CBOR alone is 406.
            "Protobuf" | "CBOR" if x.binary.is_none() => {
                assert!(x.code == 200 || x.code == 406, "{}: {}", p.label, x.code)
            }
            _ if x.code != 200 => panic!("{}: {} {}", p.label, x.code, x.body),
            "Protobuf" | "CBOR" => {
                let decoded = x.decoded.clone().unwrap_or_default();
                assert!(decoded.contains("kube-system"), "{}: {decoded}", p.label);
            }
            "YAML" => assert!(x.body.contains("kind: NamespaceList"), "{}", x.body),
            "Table" => assert!(x.body.contains("\"kind\": \"Table\""), "{}", x.body),
            "Metadata" => assert!(x.body.contains("PartialObjectMetadata"), "{}", x.body),
            "Metadata list" => assert!(x.body.contains("PartialObjectMetadataList"), "{}", x.body),
            _ => assert!(x.body.contains("NamespaceList"), "{}", x.body),
        }
    }
    let (x, _) = sim
        .send(&draft(
            "GET",
            "/api/v1/namespaces",
            "Accept-Encoding: gzip",
            "",
        ))
        .unwrap();
    if x.header("content-encoding") == Some("gzip") {
        let decoded = x.decoded.clone().unwrap();
        assert!(
            decoded.starts_with("gzip: ") && decoded.contains("kube-system"),
            "{decoded}"
        );
    }
}
