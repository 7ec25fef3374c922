//! Helpers for tests/shim.rs: simulators, fetch calls, JSON and body readers, and a reader
//! that takes a watch body apart chunk by chunk as JavaScript code would.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Array, Function, Promise, Reflect, Uint8Array};
use kubesim::shim::Simulator;
use serde_json::Value;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::Response;

/// The ControllerRevisions of namespace default.
pub const CRS: &str = "/apis/apps/v1/namespaces/default/controllerrevisions";

/// A ControllerRevision named `name`.
pub fn cr_body(name: &str) -> String {
    format!(
        r#"{{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{{"name":"{name}"}},"data":{{"a":1}},"revision":1}}"#
    )
}

/// A JS value from JSON text.
pub fn obj(json: &str) -> JsValue {
    js_sys::JSON::parse(json).expect("test JSON")
}

/// A simulator from JSON options.
pub fn simulator(options: &str) -> Simulator {
    Simulator::new(Some(obj(options).into())).expect("simulator")
}

/// A simulator on a manual clock (deterministic).
pub fn manual() -> Simulator {
    simulator(r#"{"clock":"manual"}"#)
}

/// `init` for a JSON POST of `body`.
pub fn post_json(body: &str) -> JsValue {
    obj(&format!(
        r#"{{"method":"POST","headers":{{"content-type":"application/json"}},"body":{}}}"#,
        serde_json::to_string(body).unwrap()
    ))
}

/// `new Request(url, init)`.
pub fn request(url: &str, init: &JsValue) -> JsValue {
    let ctor: Function = Reflect::get(&js_sys::global(), &"Request".into())
        .unwrap()
        .unchecked_into();
    Reflect::construct(&ctor, &Array::of2(&url.into(), init)).unwrap()
}

async fn call(sim: &Simulator, input: &JsValue, init: &JsValue) -> Result<JsValue, JsValue> {
    let init = (!init.is_undefined()).then(|| init.clone().into());
    JsFuture::from(sim.fetch(input.clone().into(), init)).await
}

/// `await sim.fetch(input, init)` for any input.
pub async fn fetch_js(sim: &Simulator, input: &JsValue, init: &JsValue) -> Response {
    call(sim, input, init)
        .await
        .expect("fetch resolves")
        .unchecked_into()
}

/// `await sim.fetch(url, init)`.
pub async fn fetch(sim: &Simulator, url: &str, init: &JsValue) -> Response {
    fetch_js(sim, &url.into(), init).await
}

/// The rejection of `sim.fetch(url, init)`.
pub async fn fetch_err(sim: &Simulator, url: &str, init: &JsValue) -> JsValue {
    call(sim, &url.into(), init)
        .await
        .expect_err("fetch rejects")
}

/// `await fetch(url)` through the global fetch.
pub async fn global_fetch(url: &str) -> Response {
    let f: Function = Reflect::get(&js_sys::global(), &"fetch".into())
        .unwrap()
        .unchecked_into();
    let p: Promise = f
        .call1(&JsValue::UNDEFINED, &url.into())
        .unwrap()
        .unchecked_into();
    JsFuture::from(p)
        .await
        .expect("fetch resolves")
        .unchecked_into()
}

/// `await r.text()`.
pub async fn text(r: &Response) -> String {
    JsFuture::from(r.text().unwrap())
        .await
        .unwrap()
        .as_string()
        .unwrap()
}

/// `await r.json()`, as serde.
pub async fn json(r: &Response) -> Value {
    serde_json::from_str(&text(r).await).expect("JSON body")
}

/// `await r.arrayBuffer()`.
pub async fn array_buffer(r: &Response) -> Vec<u8> {
    let buf = JsFuture::from(r.array_buffer().unwrap()).await.unwrap();
    Uint8Array::new(&buf).to_vec()
}

/// A fetch that records the URLs it gets and answers 299.
pub fn recording_fetch() -> (JsValue, Rc<RefCell<Vec<String>>>) {
    let calls = Rc::new(RefCell::new(Vec::new()));
    let seen = calls.clone();
    let f = Closure::<dyn FnMut(JsValue) -> JsValue>::new(move |input: JsValue| {
        seen.borrow_mut()
            .push(input.as_string().unwrap_or_default());
        let init = web_sys::ResponseInit::new();
        init.set_status(299);
        let r = Response::new_with_opt_str_and_init(None, &init).unwrap();
        Promise::resolve(&r).into()
    });
    (f.into_js_value(), calls)
}

/// `response.body.getReader()`, used as JavaScript uses it.
pub struct Reader(JsValue);

impl Reader {
    pub fn new(r: &Response) -> Reader {
        let body = r.body().expect("a body");
        let get: Function = Reflect::get(&body, &"getReader".into())
            .unwrap()
            .unchecked_into();
        Reader(get.call0(&body).unwrap())
    }

    fn method(&self, name: &str) -> Function {
        Reflect::get(&self.0, &name.into())
            .unwrap()
            .unchecked_into()
    }

    /// One `read()`: `Ok(Some(chunk))`, `Ok(None)` when done, `Err` when the stream errored.
    pub async fn read(&self) -> Result<Option<Vec<u8>>, JsValue> {
        let p: Promise = self.method("read").call0(&self.0)?.unchecked_into();
        let res = JsFuture::from(p).await?;
        if Reflect::get(&res, &"done".into())?.as_bool() == Some(true) {
            return Ok(None);
        }
        Ok(Some(
            Uint8Array::new(&Reflect::get(&res, &"value".into())?).to_vec(),
        ))
    }

    /// One chunk as a watch event; `None` at the end. Each chunk is exactly one event.
    pub async fn event(&self) -> Option<Value> {
        let chunk = self.read().await.expect("read")?;
        let text = String::from_utf8(chunk).unwrap();
        assert_eq!(
            text.trim_end().lines().count(),
            1,
            "one event per chunk: {text}"
        );
        Some(serde_json::from_str(&text).expect("event JSON"))
    }

    /// `await reader.cancel()`.
    pub async fn cancel(&self) {
        let p: Promise = self
            .method("cancel")
            .call0(&self.0)
            .unwrap()
            .unchecked_into();
        JsFuture::from(p).await.unwrap();
    }
}
