//! The logic that needs an engine: the semantics tables against it, path completion from
//! discovery, rebuilding the cluster, the Accept presets, and one exchange's display text.

// In the browser suite these are wasm-bindgen tests.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use super::{draft, CR};
use crate::ui::badge::ReadBadge;
use crate::ui::exchange::{self, Draft};
use crate::ui::semantics::{self, Cell, TableId};
use crate::ui::sim::{Sim, WatchState};
use crate::ui::{discovery, templates};
use crate::{Config, Engine};

const CR_BODY: &str = r#"{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"r1"},"data":{"a":1},"revision":1}"#;

#[test]
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

#[test]
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

/// A path discovery does not list is explained with what is served instead.
#[test]
fn unserved_resources_are_explained_from_discovery() {
    let sim = Sim::new(false, Default::default());
    let pods = discovery::unserved(&sim.resources, "/api/v1/namespaces/default/pods?limit=1")
        .expect("pods are not served");
    assert!(pods.contains(r#"/api/v1 does not serve "pods""#), "{pods}");
    assert!(
        pods.contains("ControllerRevision (/apis/apps/v1/controllerrevisions)"),
        "{pods}"
    );
    let jobs = discovery::unserved(&sim.resources, "/apis/batch/v1/watch/jobs").unwrap();
    assert!(
        jobs.contains("nothing is served at /apis/batch/v1"),
        "{jobs}"
    );
    for served in [
        CR,
        "/api/v1/namespaces",
        "/api/v1/namespaces/default",
        "/api/v1/namespaces/default/finalize",
        "/api/v1/namespaces/default/status",
        "/api/v1",
        "/version",
    ] {
        assert_eq!(
            discovery::unserved(&sim.resources, served),
            None,
            "{served}"
        );
    }
    // The body's placeholder is the chosen path's kind.
    assert_eq!(
        discovery::placeholder(&sim.resources, &format!("{CR}/r1")),
        r#"{"apiVersion": "apps/v1", "kind": "ControllerRevision", "metadata": {"name": "example"}}"#
    );
    assert!(discovery::placeholder(&sim.resources, "/api/v1/namespaces")
        .contains(r#""kind": "Namespace""#));
}

#[test]
fn sim_keeps_the_cluster_across_gate_and_clock_changes() {
    let mut sim = Sim::new(false, Default::default());
    // Three namespaces and the RBAC bootstrap policy.
    let fresh = sim.engine.objects().len();
    assert!(fresh > 100, "{fresh}");
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
    assert_eq!(sim.engine.objects().len(), fresh + 1);
    let before = sim.engine.clock().now_ms();
    sim.rebuild(true, sim.engine.feature_gates().clone())
        .unwrap();
    assert!(!sim.engine.clock().is_simulated() && sim.engine.clock().now_ms() >= before);
    assert_eq!(sim.engine.objects().len(), fresh + 1);
    let exported = sim.engine.export_state().to_string();
    sim.reset();
    assert_eq!(sim.engine.objects().len(), fresh);
    sim.import(&exported).unwrap();
    assert_eq!(sim.engine.objects().len(), fresh + 1);
    assert!(sim.import("{}").is_err());
}

/// The Accept presets against the engine: every encoding answers, binary ones are decoded.
#[test]
fn accept_presets_get_their_representation() {
    let mut gates = crate::features::FeatureGates::default();
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

#[test]
fn exchange_pretty_prints_json_and_names_the_status() {
    let mut engine = Engine::new(Config::default());
    let draft = Draft {
        method: "POST".into(),
        path: CR.into(),
        headers: String::new(),
        body: CR_BODY.into(),
    };
    let x = exchange::send(&mut engine, &draft).unwrap();
    assert_eq!(x.code, 201);
    assert_eq!(x.status_line, "201 Created");
    assert!(
        x.body.contains("\n  \"kind\": \"ControllerRevision\""),
        "{}",
        x.body
    );
    assert!(x.body.contains("\"revision\": 1"), "{}", x.body);
    assert!(x
        .headers
        .iter()
        .any(|(k, v)| k == "content-type" && v.starts_with("application/json")));
    assert_eq!(exchange::pretty_body(b"not json"), "not json");
}

/// A watch from a resourceVersion the cache no longer holds answers 200, then fails in its
/// stream: the panel knows it failed and why, a watch that did not fail does not.
#[test]
fn a_watch_that_fails_in_its_stream_says_so() {
    let mut sim = Sim::new(false, Default::default());
    let (x, _) = sim.send(&draft("POST", CR, "", CR_BODY)).unwrap();
    let rv = x.json().unwrap()["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .to_string();
    // Five minutes and another write later, the cache has let that revision go.
    sim.engine.advance(300_000);
    let second = CR_BODY.replace("\"r1\"", "\"r2\"");
    sim.send(&draft("POST", CR, "", &second)).unwrap();
    sim.engine.compact();
    sim.poll();
    let (x, id) = sim
        .send(&draft(
            "GET",
            &format!("{CR}?watch=1&resourceVersion={rv}"),
            "",
            "",
        ))
        .unwrap();
    assert_eq!(x.code, 200);
    sim.poll();
    let failure = sim
        .watch(id.unwrap())
        .and_then(|w| w.failure())
        .expect("an ERROR event");
    assert!(
        failure.starts_with("410 Expired: too old resource version"),
        "{failure}"
    );
    let (_, ok) = sim
        .send(&draft("GET", &format!("{CR}?watch=1"), "", ""))
        .unwrap();
    assert_eq!(sim.watch(ok.unwrap()).and_then(|w| w.failure()), None);
}

/// A read that waits for a lagging watch cache moves the simulated clock by the time it
/// waited: 2 s of lag, a consistent list; 5 s of lag, the 3 s wait before the 504.
#[test]
fn a_simulated_wait_moves_the_clock() {
    let mut sim = Sim::new(false, Default::default());
    sim.engine.set_cache_lag(2000);
    sim.send(&draft("POST", CR, "", CR_BODY)).unwrap();
    let before = sim.engine.clock().now_ms();
    let (x, _) = sim
        .send(&draft("GET", &format!("{CR}?resourceVersion=0"), "", ""))
        .unwrap();
    assert_eq!(
        (x.code, sim.engine.clock().now_ms()),
        (200, before),
        "rv=0 does not wait"
    );
    let (x, _) = sim.send(&draft("GET", CR, "", "")).unwrap();
    let waited = sim.engine.clock().now_ms() - before;
    assert_eq!(x.code, 200);
    assert!((2000..3000).contains(&waited), "waited {waited} ms");
    sim.engine.set_cache_lag(5000);
    let (x, _) = sim
        .send(&draft("POST", CR, "", &CR_BODY.replace("\"r1\"", "\"r2\"")))
        .unwrap();
    let rv = x.json().unwrap()["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .to_string();
    let before = sim.engine.clock().now_ms();
    let (x, _) = sim
        .send(&draft(
            "GET",
            &format!("{CR}?resourceVersion={rv}&resourceVersionMatch=NotOlderThan"),
            "",
            "",
        ))
        .unwrap();
    assert_eq!((x.code, sim.engine.clock().now_ms() - before), (504, 3000));
}

/// Each response and watch event is marked at the revision it reflects: a write at its new
/// resourceVersion, a fresh read at the store's revision, a read from a lagging cache
/// (`resourceVersion=0`) behind it, and a watch's events at theirs; a fresh cluster starts
/// with none.
#[test]
fn answers_are_marked_at_the_revision_they_reflect() {
    use crate::ui::reflect;
    let mut sim = Sim::new(false, Default::default());
    let (x, _) = sim
        .send(&draft("GET", &format!("{CR}?watch=1"), "", ""))
        .unwrap();
    assert_eq!(x.code, 200);
    let (x, _) = sim.send(&draft("POST", CR, "", CR_BODY)).unwrap();
    let written: u64 = x.json().unwrap()["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    sim.poll();
    sim.engine.set_cache_lag(10_000);
    let second = CR_BODY.replace("\"r1\"", "\"r2\"");
    sim.send(&draft("POST", CR, "", &second)).unwrap();
    let (x, _) = sim
        .send(&draft("GET", &format!("{CR}?resourceVersion=0"), "", ""))
        .unwrap();
    assert_eq!(x.code, 200);
    let last = sim.responses.last().unwrap().clone();
    assert_eq!(
        (last.rv, last.store_rv, last.source.as_str()),
        (written, written + 1, "watch-cache"),
        "the lagging cache's answer is one revision behind"
    );
    let write = sim
        .responses
        .iter()
        .find(|r| r.request.starts_with("POST"))
        .unwrap();
    assert_eq!(
        (write.rv, write.behind(), write.source.as_str()),
        (written, 0, "write")
    );
    let marks = reflect::marks(&sim.responses, &sim.watches, 1);
    assert!(marks.iter().any(|m| m.class == "tl-read-stale"
        && m.rev == written
        && m.title.contains("1 revision(s) behind")));
    assert!(marks.iter().any(|m| m.class == "tl-event"
        && m.rev == written
        && m.title.starts_with("watch #1: ADDED default/r1")));
    let lines = reflect::summary(&sim.responses, 1);
    assert!(
        lines[0].ends_with(&format!(
            "the store was at {}, so it is 1 behind.",
            written + 1
        )),
        "{lines:?}"
    );
    sim.reset();
    assert!(sim.responses.is_empty());
    assert!(
        reflect::marks(&sim.responses, &sim.watches, 1)
            .iter()
            .all(|m| m.class != "tl-event"),
        "the old cluster's events are not this one's"
    );
}
