//! The fetch-compatible shim in a real browser (headless Chromium through
//! wasm-bindgen-test-runner): `Simulator` driven the way JavaScript drives it — fetch
//! arguments in every form, real `Response`s, streaming watch bodies read chunk by chunk,
//! abort and cancel, 410 after compaction, isolation, global-fetch routing, the controls.
//!
//! Run with `cargo test --target wasm32-unknown-unknown --test shim` (`make test-web`).
#![cfg(target_arch = "wasm32")]

mod shim_support;
// Further cases, by concept.
#[path = "shim_cases/cache_wait.rs"]
mod cache_wait;

use js_sys::{Array, Reflect, Uint8Array};
use serde_json::Value;
use shim_support::*;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;
use web_sys::Response;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn crud_through_fetch() {
    let sim = manual();
    let r = fetch(
        &sim,
        &format!("http://kube{CRS}"),
        &post_json(&cr_body("r1")),
    )
    .await;
    assert_eq!((r.status(), r.status_text().as_str()), (201, "Created"));
    assert_eq!(
        r.headers().get("content-type").unwrap().unwrap(),
        "application/json"
    );
    assert_eq!(r.url(), format!("http://kube{CRS}"));
    let created = json(&r).await;
    assert_eq!(created["metadata"]["namespace"], "default");

    let r = fetch(&sim, &format!("{CRS}/r1"), &JsValue::UNDEFINED).await;
    assert_eq!((r.status(), r.status_text().as_str()), (200, "OK"));
    assert!(r.ok());
    let read = r.headers().get("x-kubesim-read").unwrap();
    assert!(read.is_some(), "every read explains itself");
    let got = json(&r).await;
    assert_eq!(got, created);

    let r = fetch(&sim, CRS, &JsValue::UNDEFINED).await;
    assert!(r.headers().get("x-kubesim-read").unwrap().is_some());
    assert_eq!(json(&r).await["items"].as_array().unwrap().len(), 1);

    let mut updated = got.clone();
    updated["metadata"]["labels"] = serde_json::json!({"x": "y"});
    let init = obj(&format!(
        r#"{{"method":"PUT","headers":{{"content-type":"application/json"}},"body":{}}}"#,
        serde_json::to_string(&updated.to_string()).unwrap()
    ));
    let r = fetch(&sim, &format!("{CRS}/r1"), &init).await;
    assert_eq!(r.status(), 200);
    assert_eq!(json(&r).await["metadata"]["labels"]["x"], "y");

    let r = fetch(&sim, &format!("{CRS}/r1"), &obj(r#"{"method":"delete"}"#)).await;
    assert_eq!(
        r.status(),
        200,
        "`delete` is normalised to DELETE, as fetch does"
    );
    let r = fetch(&sim, &format!("{CRS}/r1"), &JsValue::UNDEFINED).await;
    assert_eq!((r.status(), r.status_text().as_str()), (404, "Not Found"));
    assert_eq!(json(&r).await["reason"], "NotFound");
}

#[wasm_bindgen_test]
async fn every_input_and_header_form() {
    let sim = manual();
    // A URL object, a Request, a Request plus an overriding init.
    let url = web_sys::Url::new("https://any.origin.example/api/v1/namespaces?limit=1").unwrap();
    let r = fetch_js(&sim, &url.into(), &JsValue::UNDEFINED).await;
    assert_eq!(json(&r).await["items"].as_array().unwrap().len(), 1);

    let req = request(&format!("http://kube{CRS}"), &post_json(&cr_body("a")));
    assert_eq!(
        fetch_js(&sim, &req, &JsValue::UNDEFINED).await.status(),
        201
    );
    let req = request(&format!("http://kube{CRS}"), &JsValue::UNDEFINED);
    let r = fetch_js(&sim, &req, &post_json(&cr_body("b"))).await;
    assert_eq!(r.status(), 201);

    // Headers as a Headers instance, an array of pairs and a plain object.
    let accept_none = "image/png"; // a media type no API server serves
    let headers = web_sys::Headers::new().unwrap();
    headers.set("accept", accept_none).unwrap();
    let init = js_sys::Object::new();
    Reflect::set(&init, &"headers".into(), &headers).unwrap();
    assert_eq!(fetch(&sim, CRS, &init).await.status(), 406);
    let pairs = obj(&format!(r#"{{"headers":[["Accept","{accept_none}"]]}}"#));
    assert_eq!(fetch(&sim, CRS, &pairs).await.status(), 406);
    let plain = obj(&format!(r#"{{"headers":{{"Accept":"{accept_none}"}}}}"#));
    let r = fetch(&sim, CRS, &plain).await;
    assert_eq!(
        (r.status(), r.status_text().as_str()),
        (406, "Not Acceptable")
    );

    // A string body without Content-Type gets fetch's text/plain default, which the API
    // server does not decode: the same 415 a real cluster answers.
    let init = obj(&format!(
        r#"{{"method":"POST","body":{}}}"#,
        serde_json::to_string(&cr_body("c")).unwrap()
    ));
    let r = fetch(&sim, CRS, &init).await;
    assert_eq!(
        (r.status(), r.status_text().as_str()),
        (415, "Unsupported Media Type")
    );

    // fetch's own argument errors are TypeErrors.
    let err = fetch_err(&sim, CRS, &obj(r#"{"method":"GET","body":"x"}"#)).await;
    assert!(err.is_instance_of::<js_sys::TypeError>(), "{err:?}");
}

#[wasm_bindgen_test]
async fn binary_request_bodies() {
    let sim = manual();
    let bytes = cr_body("bin").into_bytes();
    let u8s = Uint8Array::from(&bytes[..]);
    let forms: [(&str, JsValue); 4] = [
        ("bin", u8s.buffer().into()),
        (
            "bin-u8",
            Uint8Array::from(cr_body("bin-u8").as_bytes()).into(),
        ),
        (
            "bin-view",
            js_sys::DataView::new(
                &Uint8Array::from(cr_body("bin-view").as_bytes()).buffer(),
                0,
                cr_body("bin-view").len(),
            )
            .into(),
        ),
        ("bin-blob", {
            let parts = Array::of1(&Uint8Array::from(cr_body("bin-blob").as_bytes()));
            web_sys::Blob::new_with_u8_array_sequence(&parts)
                .unwrap()
                .into()
        }),
    ];
    for (name, body) in forms {
        let init = obj(r#"{"method":"POST","headers":{"content-type":"application/json"}}"#);
        Reflect::set(&init, &"body".into(), &body).unwrap();
        let r = fetch(&sim, CRS, &init).await;
        assert_eq!(r.status(), 201, "{name}");
        let raw = array_buffer(&r).await;
        let v: Value = serde_json::from_slice(&raw).unwrap();
        assert_eq!(v["metadata"]["name"], name);
        assert_eq!(
            r.headers().get("content-length").unwrap().unwrap(),
            raw.len().to_string()
        );
    }
    // Protobuf both ways: a `k8s\0`-enveloped ControllerRevision as a Uint8Array body, and the
    // protobuf answer read back with arrayBuffer() and decoded.
    let cr: Value = serde_json::from_str(&cr_body("bin-pb")).unwrap();
    let mut typed = cr.clone();
    typed["kind"] = "ControllerRevision".into();
    typed["apiVersion"] = "apps/v1".into();
    let pb = kubesim::codec::protobuf::encode(&typed, &kubesim::resources::SCHEME).unwrap();
    let init = obj(
        r#"{"method":"POST","headers":{"content-type":"application/vnd.kubernetes.protobuf","accept":"application/vnd.kubernetes.protobuf"}}"#,
    );
    Reflect::set(&init, &"body".into(), &Uint8Array::from(&pb[..]).into()).unwrap();
    let r = fetch(&sim, CRS, &init).await;
    assert_eq!(r.status(), 201);
    assert_eq!(
        r.headers().get("content-type").unwrap().unwrap(),
        "application/vnd.kubernetes.protobuf"
    );
    let raw = array_buffer(&r).await;
    assert_eq!(&raw[..4], b"k8s\0");
    let back = kubesim::codec::protobuf::decode(&raw, &kubesim::resources::SCHEME).unwrap();
    assert_eq!(back["metadata"]["name"], "bin-pb");
    assert_eq!(back["data"], cr["data"]);
}

#[wasm_bindgen_test]
async fn watch_stream_chunk_by_chunk_while_writes_happen() {
    let sim = manual();
    let r = fetch(
        &sim,
        &format!("{CRS}?watch=1&allowWatchBookmarks=true&timeoutSeconds=120"),
        &JsValue::UNDEFINED,
    )
    .await;
    assert_eq!((r.status(), r.status_text().as_str()), (200, "OK"));
    assert!(r.headers().get("content-length").unwrap().is_none());
    let reader = Reader::new(&r);
    assert_eq!(sim.watch_count(), 1);
    // A plain watch: its (empty) initial state, and no initial-events-end bookmark (that is
    // only for a client's own sendInitialEvents=true).

    let created = fetch(&sim, CRS, &post_json(&cr_body("w1"))).await;
    assert_eq!(created.status(), 201);
    let ev = reader.event().await.expect("ADDED");
    assert_eq!(
        (
            ev["type"].as_str(),
            ev["object"]["metadata"]["name"].as_str()
        ),
        (Some("ADDED"), Some("w1"))
    );

    let mut obj_v = json(&created).await;
    obj_v["metadata"]["labels"] = serde_json::json!({"v": "2"});
    let init = obj(&format!(
        r#"{{"method":"PUT","headers":{{"content-type":"application/json"}},"body":{}}}"#,
        serde_json::to_string(&obj_v.to_string()).unwrap()
    ));
    assert_eq!(fetch(&sim, &format!("{CRS}/w1"), &init).await.status(), 200);
    assert_eq!(reader.event().await.unwrap()["type"], "MODIFIED");
    fetch(&sim, &format!("{CRS}/w1"), &obj(r#"{"method":"DELETE"}"#)).await;
    assert_eq!(reader.event().await.unwrap()["type"], "DELETED");

    // A bookmark after a minute of simulated time, then the timeout ends the stream.
    sim.advance(60_000.0).unwrap();
    let ev = reader.event().await.unwrap();
    assert_eq!(ev["type"], "BOOKMARK");
    sim.advance(60_000.0).unwrap();
    let mut rest = Vec::new();
    while let Some(ev) = reader.event().await {
        rest.push(ev["type"].as_str().unwrap().to_string());
    }
    assert!(rest.iter().all(|t| t == "BOOKMARK"), "{rest:?}");
    assert_eq!(sim.watch_count(), 0);
}

#[wasm_bindgen_test]
async fn wall_clock_watch_times_out_by_itself() {
    let sim = simulator(r#"{"clock":"wall"}"#);
    let r = fetch(
        &sim,
        &format!("{CRS}?watch=1&timeoutSeconds=1"),
        &JsValue::UNDEFINED,
    )
    .await;
    let reader = Reader::new(&r);
    let start = js_sys::Date::now();
    assert!(reader.event().await.is_none(), "no event, then the end");
    let took = js_sys::Date::now() - start;
    assert!((900.0..5_000.0).contains(&took), "closed after {took} ms");
    assert_eq!(sim.watch_count(), 0);
}

#[wasm_bindgen_test]
async fn cancelling_the_reader_ends_the_watch() {
    let sim = manual();
    let r = fetch(&sim, &format!("{CRS}?watch=1"), &JsValue::UNDEFINED).await;
    let reader = Reader::new(&r);
    fetch(&sim, CRS, &post_json(&cr_body("c1"))).await;
    assert_eq!(reader.event().await.unwrap()["type"], "ADDED");
    assert_eq!(sim.watch_count(), 1);
    reader.cancel().await;
    assert_eq!(sim.watch_count(), 0, "no leaked watcher");
    // Writes after the cancel reach nobody and break nothing.
    assert_eq!(
        fetch(&sim, CRS, &post_json(&cr_body("c2"))).await.status(),
        201
    );
}

#[wasm_bindgen_test]
async fn aborting_the_signal_ends_the_watch() {
    let sim = manual();
    let ctrl = web_sys::AbortController::new().unwrap();
    let init = js_sys::Object::new();
    Reflect::set(&init, &"signal".into(), &ctrl.signal()).unwrap();
    let r = fetch(&sim, &format!("{CRS}?watch=1"), &init).await;
    let reader = Reader::new(&r);
    fetch(&sim, CRS, &post_json(&cr_body("a1"))).await;
    assert_eq!(reader.event().await.unwrap()["type"], "ADDED");
    ctrl.abort();
    assert_eq!(
        sim.watch_count(),
        0,
        "abort ends the watch inside the engine"
    );
    let err = reader
        .read()
        .await
        .expect_err("the body errors after an abort");
    assert_eq!(Reflect::get(&err, &"name".into()).unwrap(), "AbortError");

    // A body nobody reads is ended too.
    let ctrl = web_sys::AbortController::new().unwrap();
    Reflect::set(&init, &"signal".into(), &ctrl.signal()).unwrap();
    let _unread = fetch(&sim, &format!("{CRS}?watch=1"), &init).await;
    assert_eq!(sim.watch_count(), 1);
    ctrl.abort();
    assert_eq!(sim.watch_count(), 0);

    // An already aborted signal rejects the fetch with its reason.
    let err = fetch_err(&sim, CRS, &init).await;
    assert_eq!(Reflect::get(&err, &"name".into()).unwrap(), "AbortError");
}

#[wasm_bindgen_test]
async fn gone_after_compaction() {
    let sim = manual();
    let first = json(&fetch(&sim, CRS, &post_json(&cr_body("g1"))).await).await;
    let old_rv = first["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .to_string();
    fetch(&sim, CRS, &post_json(&cr_body("g2"))).await;
    let before = fetch(
        &sim,
        &format!("{CRS}?resourceVersion={old_rv}&resourceVersionMatch=Exact"),
        &JsValue::UNDEFINED,
    )
    .await;
    assert_eq!(before.status(), 200);
    sim.compact();
    let r = fetch(
        &sim,
        &format!("{CRS}?resourceVersion={old_rv}&resourceVersionMatch=Exact"),
        &JsValue::UNDEFINED,
    )
    .await;
    assert_eq!((r.status(), r.status_text().as_str()), (410, "Gone"));
    assert_eq!(json(&r).await["reason"], "Expired");

    // A watch from before the compaction: 200, then an ERROR event carrying the 410.
    let r = fetch(
        &sim,
        &format!("{CRS}?watch=1&resourceVersion={old_rv}"),
        &JsValue::UNDEFINED,
    )
    .await;
    let reader = Reader::new(&r);
    let ev = reader.event().await.unwrap();
    assert_eq!(ev["type"], "ERROR");
    assert_eq!(ev["object"]["code"], 410);
}

#[wasm_bindgen_test]
async fn two_simulators_are_isolated() {
    let (a, b) = (manual(), manual());
    assert_eq!(
        fetch(&a, CRS, &post_json(&cr_body("only-a")))
            .await
            .status(),
        201
    );
    let in_b = json(&fetch(&b, CRS, &JsValue::UNDEFINED).await).await;
    assert_eq!(in_b["items"].as_array().unwrap().len(), 0);
    a.advance(5_000.0).unwrap();
    assert_eq!(b.now() + 5_000.0, a.now());
    let w = fetch(&b, &format!("{CRS}?watch=1"), &JsValue::UNDEFINED).await;
    assert_eq!((a.watch_count(), b.watch_count()), (0, 1));
    drop(w);
}

#[wasm_bindgen_test]
async fn redirects_follow_like_fetch() {
    let sim = manual();
    let stale = "http://kube/openapi/v3/apis/apps/v1?hash=STALE";
    let r = fetch(&sim, stale, &JsValue::UNDEFINED).await;
    assert_eq!(r.status(), 200);
    assert!(r.redirected());
    assert!(
        r.url()
            .starts_with("http://kube/openapi/v3/apis/apps/v1?hash="),
        "{}",
        r.url()
    );
    let r = fetch(&sim, stale, &obj(r#"{"redirect":"manual"}"#)).await;
    assert_eq!(
        (r.status(), r.status_text().as_str()),
        (301, "Moved Permanently")
    );
    assert!(r.body().is_some());
    let err = fetch_err(&sim, stale, &obj(r#"{"redirect":"error"}"#)).await;
    assert!(err.is_instance_of::<js_sys::TypeError>());
}

#[wasm_bindgen_test]
async fn null_body_statuses_and_head() {
    let sim = manual();
    let accept = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";
    let init = obj(&format!(r#"{{"headers":{{"accept":"{accept}"}}}}"#));
    let r = fetch(&sim, "/apis", &init).await;
    assert_eq!(r.status(), 200);
    let etag = r.headers().get("etag").unwrap().unwrap();
    let init = obj(&format!(
        r#"{{"headers":{{"accept":"{accept}","if-none-match":{}}}}}"#,
        serde_json::to_string(&etag).unwrap()
    ));
    let r = fetch(&sim, "/apis", &init).await;
    assert_eq!(
        (r.status(), r.status_text().as_str()),
        (304, "Not Modified")
    );
    assert!(r.body().is_none());
    let r = fetch(&sim, "/api/v1/namespaces", &obj(r#"{"method":"HEAD"}"#)).await;
    assert!(r.body().is_none());
}

#[wasm_bindgen_test]
async fn install_routes_only_its_base_url() {
    let original = Reflect::get(&js_sys::global(), &"fetch".into()).unwrap();
    let (stub, calls) = recording_fetch();
    Reflect::set(&js_sys::global(), &"fetch".into(), &stub).unwrap();

    let sim = manual();
    sim.install(obj(r#"{"baseUrl":"http://kube.test/prefix"}"#))
        .unwrap();
    let r = global_fetch("http://kube.test/prefix/api/v1/namespaces").await;
    assert_eq!(r.status(), 200);
    assert_eq!(json(&r).await["kind"], "NamespaceList");
    let r =
        global_fetch("http://kube.test/prefix/apis/apps/v1/namespaces/default/controllerrevisions")
            .await;
    assert!(r.headers().get("x-kubesim-read").unwrap().is_some());
    for other in [
        "http://kube.test/api/v1/namespaces",
        "http://kube.test/prefixed/api",
        "https://kube.test/prefix/api",
        "http://elsewhere.test/prefix/api",
    ] {
        assert_eq!(
            global_fetch(other).await.status(),
            299,
            "{other} passes through"
        );
    }
    assert_eq!(calls.borrow().len(), 4);

    assert!(sim.uninstall());
    assert!(!sim.uninstall());
    let now = Reflect::get(&js_sys::global(), &"fetch".into()).unwrap();
    assert!(now == stub, "uninstall restores the previous fetch");
    assert_eq!(
        global_fetch("http://kube.test/prefix/api").await.status(),
        299
    );

    // With the real fetch underneath, other URLs still really load.
    Reflect::set(&js_sys::global(), &"fetch".into(), &original).unwrap();
    sim.install(obj(r#"{"baseUrl":"http://kube.test/"}"#))
        .unwrap();
    let r = global_fetch("data:text/plain,untouched").await;
    assert_eq!(text(&r).await, "untouched");
    drop(sim); // dropping (sim.free()) uninstalls too
    let now = Reflect::get(&js_sys::global(), &"fetch".into()).unwrap();
    assert!(now == original);
}

#[wasm_bindgen_test]
async fn controls_and_lossless_state() {
    let sim = simulator(r#"{"clock":"manual","seed":7,"startMs":1000000000000}"#);
    assert_eq!(sim.now(), 1_000_000_000_000.0);
    assert_eq!(sim.advance(1_500.0).unwrap(), 1_000_000_001_500.0);
    for n in ["s1", "s2"] {
        fetch(&sim, CRS, &post_json(&cr_body(n))).await;
    }
    let names: Vec<String> = sim
        .objects()
        .unwrap()
        .iter()
        .filter_map(|o| js_sys::JSON::stringify(&o).ok()?.as_string())
        // The RBAC bootstrap policy is there too; count what this test made.
        .filter(|s| !s.contains("rbac.authorization.k8s.io/v1"))
        .collect();
    assert_eq!(names.len(), 5, "3 namespaces and 2 revisions: {names:?}");

    sim.set_cache_lag(2_000.0).unwrap();
    let lag = json(&fetch(&sim, "/kubesim/v1/cache/lag", &JsValue::UNDEFINED).await).await;
    assert_eq!(lag["lagMs"], 2000);
    sim.set_cache_lag(0.0).unwrap();

    let state = sim.export_state().unwrap();
    let copy = simulator(r#"{"clock":"manual"}"#);
    copy.import_state(state.clone()).unwrap();
    let from_json = js_sys::Object::new();
    Reflect::set(&from_json, &"clock".into(), &"manual".into()).unwrap();
    Reflect::set(
        &from_json,
        &"initialState".into(),
        &js_sys::JSON::stringify(&state).unwrap(),
    )
    .unwrap();
    let reloaded = kubesim::shim::Simulator::new(Some(JsValue::from(from_json).into())).unwrap();
    // Identical answers after a reload, including what the RNG and the clock decide next.
    for s in [&copy, &reloaded] {
        assert_eq!(s.now(), sim.now());
        for path in [
            CRS.to_string(),
            format!("{CRS}/s1"),
            "/api/v1/namespaces".into(),
        ] {
            let want = text(&fetch(&sim, &path, &JsValue::UNDEFINED).await).await;
            assert_eq!(
                text(&fetch(s, &path, &JsValue::UNDEFINED).await).await,
                want,
                "{path}"
            );
        }
    }
    let gen = r#"{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"generateName":"g-"},"data":{},"revision":1}"#;
    let want = text(&fetch(&sim, CRS, &post_json(gen)).await).await;
    for s in [&copy, &reloaded] {
        assert_eq!(text(&fetch(s, CRS, &post_json(gen)).await).await, want);
    }
    assert!(sim.import_state(JsValue::from_str("{}")).is_err());
}

#[wasm_bindgen_test]
fn options_are_checked() {
    let gates = simulator(r#"{"clock":"manual","featureGates":{"WatchList":false}}"#);
    drop(gates);
    let gates = simulator(
        r#"{"clock":"manual","featureGates":"WatchList=false,ListFromCacheSnapshot=true"}"#,
    );
    drop(gates);
    for bad in [
        r#"{"featureGates":"NoSuchGate=true"}"#,
        r#"{"clock":"sundial"}"#,
        r#"{"cacheLag":5}"#,
        r#"{"seed":-1}"#,
        r#"{"user":{"uid":"x"}}"#,
        r#"{"tokens":"only-a-token"}"#,
        r#"{"authorizationMode":"ABAC"}"#,
        r#"{"gcDelayMs":"soon"}"#,
    ] {
        assert!(
            kubesim::shim::Simulator::new(Some(obj(bad).into())).is_err(),
            "{bad}"
        );
    }
    assert!(kubesim::shim::Simulator::new(None).is_ok());
}

/// The controllers' delays are the options': with `namespaceDelayMs: 250` a deleted
/// namespace goes 250 simulated ms later.
#[wasm_bindgen_test]
async fn controller_delays_come_from_the_options() {
    let sim = simulator(r#"{"clock":"manual","gcDelayMs":0,"namespaceDelayMs":250}"#);
    let ns = "/api/v1/namespaces/quick";
    let r = fetch(
        &sim,
        "/api/v1/namespaces",
        &post_json(r#"{"metadata":{"name":"quick"}}"#),
    )
    .await;
    assert_eq!(r.status(), 201);
    assert_eq!(
        fetch(&sim, ns, &obj(r#"{"method":"DELETE"}"#))
            .await
            .status(),
        200
    );
    sim.advance(249.0).unwrap();
    assert_eq!(fetch(&sim, ns, &JsValue::UNDEFINED).await.status(), 200);
    sim.advance(1.0).unwrap();
    assert_eq!(fetch(&sim, ns, &JsValue::UNDEFINED).await.status(), 404);
}

/// A default identity (option or `setUser`), tokens, and per-request credentials.
#[wasm_bindgen_test]
async fn identities_and_credentials() {
    let sim = simulator(
        r#"{"clock":"manual","user":{"name":"alice","groups":["dev"]},"tokens":"t-bob,bob,u2"}"#,
    );
    let forbidden = |who: &str| {
        format!("namespaces is forbidden: User \"{who}\" cannot list resource \"namespaces\" in API group \"\" at the cluster scope")
    };
    let r = fetch(&sim, "/api/v1/namespaces", &JsValue::UNDEFINED).await;
    assert_eq!(
        (r.status(), json(&r).await["message"].clone()),
        (403, forbidden("alice").into())
    );
    let who = |token: &str| {
        obj(&format!(
            r#"{{"headers":{{"authorization":"Bearer {token}"}}}}"#
        ))
    };
    let r = fetch(&sim, "/api/v1/namespaces", &who("t-bob")).await;
    assert_eq!(json(&r).await["message"], forbidden("bob"));
    let r = fetch(&sim, "/api/v1/namespaces", &who("kubesim")).await;
    assert_eq!(r.status(), 200);
    let r = fetch(&sim, "/api/v1/namespaces", &who("nope")).await;
    assert_eq!(r.status(), 401);
    sim.set_user(JsValue::NULL).unwrap();
    let r = fetch(&sim, "/api/v1/namespaces", &JsValue::UNDEFINED).await;
    assert_eq!(json(&r).await["message"], forbidden("system:anonymous"));
    sim.set_user(obj(r#"{"name":"root","groups":["system:masters"]}"#))
        .unwrap();
    let init = obj(r#"{"headers":{"impersonate-user":"carol"}}"#);
    let r = fetch(&sim, "/api/v1/namespaces", &init).await;
    assert_eq!(json(&r).await["message"], forbidden("carol"));
    assert!(sim.set_user(obj("{}")).is_err());
}

/// `corrupt(path, how)`: reads from storage fail as kube-apiserver's do.
#[wasm_bindgen_test]
async fn corrupting_an_object() {
    let sim = manual();
    fetch(&sim, CRS, &post_json(&cr_body("c1"))).await;
    let key = sim.corrupt(&format!("{CRS}/c1"), None).unwrap();
    assert_eq!(key, "/registry/controllerrevisions/default/c1");
    let r = fetch(&sim, &format!("{CRS}/c1"), &JsValue::UNDEFINED).await;
    assert_eq!(r.status(), 500);
    assert_eq!(
        json(&r).await["message"],
        "Internal error occurred: no matching prefix found"
    );
    assert!(sim
        .corrupt("/api/v1/namespaces/default/configmaps/none", None)
        .is_err());
}

/// `Response` bodies of ordinary reads are complete bytes; a clone reads the same.
#[wasm_bindgen_test]
async fn responses_are_real_responses() {
    let sim = manual();
    let r = fetch(&sim, "/version", &JsValue::UNDEFINED).await;
    assert!(r.is_instance_of::<Response>());
    let c = r.clone().unwrap();
    assert_eq!(text(&r).await, text(&c).await);
}
