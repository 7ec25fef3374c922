//! The engine and the playground in a real browser (headless Chromium through
//! wasm-bindgen-test-runner): the same code the playground page runs, checked where it runs.
//!
//! Run with `cargo test --target wasm32-unknown-unknown --test web` (the runner and
//! chromedriver come from `.cargo/config.toml`); `make test` does this.
#![cfg(target_arch = "wasm32")]

use bytes::Bytes;
use http::{Method, Request, Response};
use kubesim::ui::exchange;
use kubesim::{Body, Config, Engine};
use serde_json::Value;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const CR_PATH: &str = "/apis/apps/v1/namespaces/default/controllerrevisions";
const CR_BODY: &str = r#"{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"r1"},"data":{"a":1},"revision":1}"#;

fn request(method: Method, path: &str, body: &str) -> Request<Bytes> {
    let mut b = Request::builder().method(method).uri(path);
    if !body.is_empty() {
        b = b.header("content-type", "application/json");
    }
    b.body(Bytes::from(body.to_owned())).unwrap()
}

fn call(engine: &mut Engine, method: Method, path: &str, body: &str) -> Response<Body> {
    engine.handle(request(method, path, body))
}

fn json(resp: &Response<Body>) -> Value {
    serde_json::from_slice(resp.body().bytes()).expect("response body is JSON")
}

fn sim_engine(seed: u64) -> Engine {
    Engine::new(Config {
        seed,
        ..Default::default()
    })
}

#[wasm_bindgen_test]
fn lists_the_initial_namespaces() {
    let mut engine = sim_engine(0);
    let resp = call(&mut engine, Method::GET, "/api/v1/namespaces", "");
    assert_eq!(resp.status(), 200);
    let list = json(&resp);
    assert_eq!(list["kind"], "NamespaceList");
    let names: Vec<&str> = list["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter_map(|o| o["metadata"]["name"].as_str())
        .collect();
    for ns in ["default", "kube-system", "kube-public"] {
        assert!(names.contains(&ns), "{ns} missing from {names:?}");
    }
}

#[wasm_bindgen_test]
fn creates_and_reads_back_a_controller_revision() {
    let mut engine = sim_engine(0);
    let created = call(&mut engine, Method::POST, CR_PATH, CR_BODY);
    assert_eq!(
        created.status(),
        201,
        "{}",
        exchange::pretty_body(created.body().bytes())
    );
    let created = json(&created);
    assert_eq!(created["metadata"]["name"], "r1");
    assert_eq!(created["metadata"]["namespace"], "default");
    assert_eq!(created["revision"], 1);

    let got = call(&mut engine, Method::GET, &format!("{CR_PATH}/r1"), "");
    assert_eq!(got.status(), 200);
    let got = json(&got);
    assert_eq!(got["kind"], "ControllerRevision");
    assert_eq!(got["data"]["a"], 1);
    assert_eq!(got["revision"], 1);
    assert_eq!(got["metadata"]["uid"], created["metadata"]["uid"]);
    assert_eq!(
        got["metadata"]["resourceVersion"],
        created["metadata"]["resourceVersion"]
    );
}

/// Status code, headers and body bytes of one response.
type Answer = (u16, Vec<(String, String)>, Bytes);

#[wasm_bindgen_test]
fn same_seed_gives_byte_identical_responses() {
    fn script(engine: &mut Engine) -> Vec<Answer> {
        let steps = [
            (Method::POST, CR_PATH.to_string(), CR_BODY),
            (Method::GET, format!("{CR_PATH}/r1"), ""),
            (Method::GET, "/api/v1/namespaces".to_string(), ""),
            (Method::DELETE, format!("{CR_PATH}/r1"), ""),
            (Method::GET, format!("{CR_PATH}/r1"), ""),
        ];
        steps
            .into_iter()
            .map(|(m, p, b)| {
                let r = call(engine, m, &p, b);
                let headers = r
                    .headers()
                    .iter()
                    .map(|(k, v)| (k.to_string(), String::from_utf8_lossy(v.as_bytes()).into()))
                    .collect();
                (r.status().as_u16(), headers, r.body().bytes().clone())
            })
            .collect()
    }
    let a = script(&mut sim_engine(42));
    let b = script(&mut sim_engine(42));
    assert_eq!(a, b);
    assert_eq!(a[0].0, 201);
}

#[wasm_bindgen_test]
fn missing_object_is_a_not_found_status() {
    let mut engine = sim_engine(0);
    let resp = call(&mut engine, Method::GET, &format!("{CR_PATH}/nope"), "");
    assert_eq!(resp.status(), 404);
    let text = String::from_utf8_lossy(resp.body().bytes()).into_owned();
    assert!(text.contains(r#"reason":"NotFound"#), "{text}");
    let status = json(&resp);
    assert_eq!(status["kind"], "Status");
    assert_eq!(status["status"], "Failure");
    assert_eq!(status["code"], 404);
    assert_eq!(status["details"]["name"], "nope");
}

// The form ⇄ HTTP cases (`form_text_becomes_a_request`,
// `exchange_pretty_prints_json_and_names_the_status`) live in `src/ui/tests/`, which runs
// natively and in the browser (`tests/playground_web.rs`).

#[wasm_bindgen_test]
fn js_time_source_follows_date_now() {
    use kubesim::clock::TimeSource;
    let before = js_sys::Date::now() as i64;
    let now = kubesim::ui::JsDateTimeSource.now_ms();
    let after = js_sys::Date::now() as i64;
    assert!(before <= now && now <= after);
}

/// Resolves after `ms` milliseconds, letting Yew's scheduler (microtasks) run.
async fn sleep(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms)
            .unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
}

#[wasm_bindgen_test]
async fn playground_lists_namespaces_on_load() {
    let document = web_sys::window().unwrap().document().unwrap();
    let root = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    yew::Renderer::<kubesim::ui::App>::with_root(root.clone()).render();
    let text = |id: &str| {
        document
            .get_element_by_id(id)
            .and_then(|e| e.text_content())
            .unwrap_or_default()
    };
    for _ in 0..50 {
        if text("status") == "200 OK" {
            break;
        }
        sleep(20).await;
    }
    assert_eq!(text("status"), "200 OK");
    assert!(text("resp-body").contains("kube-system"));
    let path: web_sys::HtmlInputElement = document
        .get_element_by_id("path")
        .unwrap()
        .dyn_into()
        .unwrap();
    assert_eq!(path.value(), kubesim::ui::DEFAULT_PATH);
}
