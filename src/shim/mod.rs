//! The fetch-compatible shim: kubesim as a JavaScript class, for browsers, workers and Node.
//!
//! ```js
//! const sim = new Simulator({ clock: 'manual', featureGates: 'WatchList=true' });
//! const r = await sim.fetch('http://kube/api/v1/namespaces');   // a real Response
//! r.headers.get('x-kubesim-read');                                // the read explanation
//! ```
//!
//! JavaScript talks to the engine exactly as it would to a real API server over `fetch`:
//! `sim.fetch(input, init)` takes what fetch takes and resolves to a real `Response` (a watch
//! has a streaming body); `sim.install({ baseUrl })` routes the global `fetch` for one base URL
//! to the simulator; `www/kubesim-sw.js` hosts a simulator in a Service Worker. The engine
//! runs synchronously inside each call: the shim only converts between fetch's types and
//! `http`'s, and drives the engine's clock (a timer in wall mode, `advance` in manual mode).
//! A read that waits for the watch cache settles when a timer reaches its due time (wall
//! mode) or at once with the clock moved on by the wait (manual mode).
//!
//! Module map: [`options`] (constructor options), [`request`] (fetch arguments),
//! [`fetch`] (one exchange, redirects), [`response`] (the `Response`), [`body`] (watch
//! bodies, abort), [`install`] (global fetch routing), [`ticker`] (wall-clock heartbeat).

mod body;
mod fetch;
mod install;
mod options;
mod request;
mod response;
mod ticker;

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use bytes::Bytes;
use js_sys::{Array, Promise, Reflect};
use wasm_bindgen::prelude::*;

use crate::engine::{Answer, Body, Engine, Waiting};
use options::ClockMode;

/// The engine and the host state every part of the shim shares (responses in flight, the
/// ticker, an installed router). Single-threaded: no borrow is held across an `await`.
pub struct Core {
    engine: RefCell<Engine>,
    /// The ticker's interval handle (Node: a `Timeout` to `ref`/`unref`).
    timer: RefCell<JsValue>,
    /// Whether the timer currently keeps a Node process alive.
    keeping_alive: Cell<bool>,
}

impl Core {
    /// Serves one request: catches up with the clock first (wall time may have moved since
    /// the last tick), then lets the engine answer. A read that waits for the watch cache
    /// resolves on a simulated clock at once (simulated time passes); on a wall clock it is
    /// waited for in real time.
    async fn handle(self: &Rc<Self>, req: http::Request<Bytes>) -> http::Response<Body> {
        let answer = {
            let mut engine = self.engine.borrow_mut();
            engine.tick();
            engine.serve_hosted(req)
        };
        let resp = match answer {
            Answer::Now(resp) => resp,
            Answer::Later(waiting) => self.wait_for(waiting).await,
        };
        if matches!(resp.body(), Body::Watch(_)) {
            self.keep_alive(true);
        }
        resp
    }

    /// Waits in real time for a read parked until the watch cache is fresh enough: a timer
    /// ticks the engine at its due time so it is answered then; should a write move that
    /// time, the ticker's next tick answers it.
    async fn wait_for(self: &Rc<Self>, waiting: Waiting) -> http::Response<Body> {
        let delay = waiting.due_ms() - self.engine.borrow().clock().now_ms();
        let core = self.clone();
        wasm_bindgen_futures::spawn_local(async move {
            ticker::sleep(delay).await;
            core.tick();
        });
        waiting.await.unwrap_or_else(crate::engine::abandoned)
    }

    /// One heartbeat (wall mode).
    fn tick(&self) {
        let open = match self.engine.try_borrow_mut() {
            Ok(mut engine) => {
                engine.tick();
                engine.watch_count() > 0
            }
            Err(_) => return,
        };
        self.keep_alive(open);
    }

    /// In Node, keeps the process alive exactly while a watch is open (see `ticker.rs`).
    fn keep_alive(&self, open: bool) {
        if self.keeping_alive.get() != open {
            self.keeping_alive.set(open);
            ticker::set_ref(&self.timer.borrow(), open);
        }
    }

    fn set_timer(&self, id: JsValue) {
        ticker::set_ref(&id, self.keeping_alive.get());
        *self.timer.borrow_mut() = id;
    }

    fn take_timer(&self) -> JsValue {
        self.timer.replace(JsValue::UNDEFINED)
    }
}

#[wasm_bindgen]
extern "C" {
    /// `new Simulator(options)`'s argument (typed for TypeScript; read with Reflect).
    #[wasm_bindgen(typescript_type = "SimulatorOptions")]
    pub type SimulatorOptions;
    /// fetch's first argument.
    #[wasm_bindgen(typescript_type = "RequestInfo | URL")]
    pub type FetchInput;
    /// fetch's second argument.
    #[wasm_bindgen(typescript_type = "RequestInit")]
    pub type FetchInit;
}

/// A simulated Kubernetes API server. See the module documentation.
#[wasm_bindgen]
pub struct Simulator {
    core: Rc<Core>,
    _ticker: Option<ticker::Ticker>,
    installed: RefCell<Option<install::Installed>>,
}

fn error(msg: &str) -> JsValue {
    js_sys::Error::new(&format!("kubesim: {msg}")).into()
}

#[wasm_bindgen]
impl Simulator {
    /// `new Simulator({ featureGates, clock, seed, cacheLagMs, initialState, startMs,
    /// serverAddress, user, tokens, anonymousAuth, authorizationMode })`; every key is
    /// optional. `featureGates` is kube-apiserver's flag
    /// format (`"A=true,B=false"`) or an object; `clock` is `"wall"` (default: follows
    /// `Date.now()`) or `"manual"` (moves only with `advance`); `initialState` is an
    /// `exportState()` result (object or JSON string) whose gates and cache lag win.
    #[wasm_bindgen(constructor)]
    pub fn new(options: Option<SimulatorOptions>) -> Result<Simulator, JsValue> {
        let options = options.map_or(JsValue::UNDEFINED, JsValue::from);
        let mut opts = options::parse(&options)?;
        if opts.clock == ClockMode::Wall {
            opts.config.time_source = Some(Box::new(ticker::DateNow));
        }
        let mut engine = Engine::new(opts.config);
        if let Some(state) = &opts.initial_state {
            engine.import_state(state).map_err(|e| error(&e))?;
        }
        let core = Rc::new(Core {
            engine: RefCell::new(engine),
            timer: RefCell::new(JsValue::UNDEFINED),
            keeping_alive: Cell::new(false),
        });
        let ticker = match opts.clock {
            ClockMode::Wall => Some(ticker::Ticker::start(core.clone())?),
            ClockMode::Manual => None,
        };
        Ok(Simulator {
            core,
            _ticker: ticker,
            installed: RefCell::new(None),
        })
    }

    /// `fetch(input, init)` against the simulator: `input` is a string, `URL` or `Request`
    /// (any origin; only the path and query matter), `init` what fetch accepts (method,
    /// headers, body, signal, redirect). Resolves to a real `Response`.
    #[wasm_bindgen(unchecked_return_type = "Promise<Response>")]
    pub fn fetch(&self, input: FetchInput, init: Option<FetchInit>) -> Promise {
        let fut = fetch::fetch(
            self.core.clone(),
            input.into(),
            init.map_or(JsValue::UNDEFINED, JsValue::from),
            String::new(),
        );
        wasm_bindgen_futures::future_to_promise(fut)
    }

    /// Routes the global `fetch` for URLs under `options.baseUrl` to this simulator; every
    /// other URL goes to the `fetch` it replaces. Installing again replaces the route.
    pub fn install(
        &self,
        #[wasm_bindgen(unchecked_param_type = "{ baseUrl: string }")] options: JsValue,
    ) -> Result<(), JsValue> {
        let base = Reflect::get(&options, &"baseUrl".into())
            .ok()
            .and_then(|b| b.as_string())
            .ok_or_else(|| error("install({ baseUrl }) needs a baseUrl string"))?;
        let base = install::Base::parse(&base)?;
        self.uninstall();
        let installed = install::install(self.core.clone(), base)?;
        *self.installed.borrow_mut() = Some(installed);
        Ok(())
    }

    /// Restores the global `fetch` that `install` replaced; false when nothing was installed.
    pub fn uninstall(&self) -> bool {
        self.installed.borrow_mut().take().is_some()
    }

    /// Moves the clock forward by `ms` and lets time-driven work happen (bookmarks, watch
    /// timeouts, cache lag, expiry). Returns the new time (ms since the epoch).
    pub fn advance(&self, ms: f64) -> Result<f64, JsValue> {
        if !(ms.is_finite() && ms >= 0.0) {
            return Err(error("advance(ms) needs a non-negative number"));
        }
        let mut engine = self.core.engine.borrow_mut();
        engine.advance(ms as i64);
        Ok(engine.clock().now_ms() as f64)
    }

    /// The engine's time, in ms since the epoch.
    pub fn now(&self) -> f64 {
        self.core.engine.borrow().clock().now_ms() as f64
    }

    /// Compacts the store to its current revision (older resourceVersions then answer 410
    /// Gone). Returns the compacted revision.
    pub fn compact(&self) -> f64 {
        self.core.engine.borrow_mut().compact() as f64
    }

    /// Sets how far the watch cache lags behind the store (ms).
    #[wasm_bindgen(js_name = setCacheLag)]
    pub fn set_cache_lag(&self, ms: f64) -> Result<(), JsValue> {
        let ms = options::integer(&JsValue::from(ms), "cache lag")?;
        self.core.engine.borrow_mut().set_cache_lag(ms.max(0));
        Ok(())
    }

    /// The whole cluster (clock, store history, RNG, gates, cache lag) as a JSON object;
    /// `importState` or `new Simulator({ initialState })` restores it losslessly.
    #[wasm_bindgen(js_name = exportState, unchecked_return_type = "KubesimState")]
    pub fn export_state(&self) -> Result<JsValue, JsValue> {
        options::to_js(&self.core.engine.borrow().export_state())
    }

    /// Replaces the cluster with an `exportState()` result (object or JSON string). Open
    /// watches end.
    #[wasm_bindgen(js_name = importState)]
    pub fn import_state(
        &self,
        #[wasm_bindgen(unchecked_param_type = "KubesimState | string")] state: JsValue,
    ) -> Result<(), JsValue> {
        let state = options::json_value(&state)?;
        self.core
            .engine
            .borrow_mut()
            .import_state(&state)
            .map_err(|e| error(&e))
    }

    /// Every live object (a snapshot, for inspection).
    #[wasm_bindgen(unchecked_return_type = "KubernetesObject[]")]
    pub fn objects(&self) -> Result<Array, JsValue> {
        let objects = self.core.engine.borrow().objects();
        objects.iter().map(options::to_js).collect()
    }

    /// Sets who requests without an `Authorization` header act as: `null` (anonymous) or
    /// `{ name, uid?, groups? }`. Per-request `Authorization` and `Impersonate-*` headers
    /// still apply.
    #[wasm_bindgen(js_name = setUser)]
    pub fn set_user(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SimulatorUser | null")] user: JsValue,
    ) -> Result<(), JsValue> {
        let user = options::user(&user)?;
        self.core.engine.borrow_mut().set_default_user(user);
        Ok(())
    }

    /// Makes the object at `path` unreadable in storage (`how`: `"undecryptable"` or
    /// `"undecodable"`), as `POST /kubesim/v1/corrupt` does; returns its storage key.
    pub fn corrupt(
        &self,
        path: &str,
        #[wasm_bindgen(unchecked_param_type = "Corruption")] how: Option<String>,
    ) -> Result<String, JsValue> {
        let how = how.unwrap_or_else(|| "undecryptable".into());
        self.core
            .engine
            .borrow_mut()
            .corrupt(path, &how)
            .map_err(|e| error(&e))
    }

    /// How many watches are open inside the engine.
    #[wasm_bindgen(js_name = watchCount)]
    pub fn watch_count(&self) -> u32 {
        self.core.engine.borrow().watch_count() as u32
    }

    /// Ends every open watch (their bodies close), as a server shutting down would.
    #[wasm_bindgen(js_name = closeWatches)]
    pub fn close_watches(&self) {
        self.core.engine.borrow_mut().close_watches();
        self.core.keep_alive(false);
    }
}

impl Drop for Simulator {
    fn drop(&mut self) {
        // Restore the global fetch before the router's closure goes away.
        self.installed.get_mut().take();
    }
}

#[wasm_bindgen(typescript_custom_section)]
const TS_OPTIONS: &'static str = r#"
/** Options for `new Simulator(options)`; every key is optional. */
export interface SimulatorOptions {
  /** kube-apiserver's `--feature-gates` format, or `{ Name: true }`. */
  featureGates?: string | Record<string, boolean>;
  /** "wall" (default) follows Date.now(); "manual" moves only with advance(ms). */
  clock?: "wall" | "manual";
  /** Seed for UIDs and generated names. */
  seed?: number | bigint | string;
  /** How far the watch cache lags behind the store, in ms. */
  cacheLagMs?: number;
  /** An exportState() result to start from (or its JSON text). */
  initialState?: KubesimState | string;
  /** Start of simulated time (ms since the epoch; manual clock). */
  startMs?: number;
  /** host:port that /api discovery advertises. */
  serverAddress?: string;
  /** Who requests without credentials act as (default: kubesim-admin in system:masters);
   *  null for anonymous. system:authenticated is added. */
  user?: SimulatorUser | null;
  /** kube-apiserver's --token-auth-file text (token,user,uid,"group1,group2" lines);
   *  the admin token "kubesim" is always accepted. */
  tokens?: string;
  /** --anonymous-auth (default true). */
  anonymousAuth?: boolean;
  /** --authorization-mode: "RBAC" (default) or "AlwaysAllow". */
  authorizationMode?: "RBAC" | "AlwaysAllow";
  /** How long after a change the garbage collector acts (ms, default 1000). */
  gcDelayMs?: number;
  /** How long after a namespace's deletion its controller empties it (ms, default 5000). */
  namespaceDelayMs?: number;
}

/** A user requests act as: `setUser`, or the `user` option. */
export interface SimulatorUser {
  name: string;
  uid?: string;
  groups?: string[];
}

/** The whole cluster as `exportState()` gives it, for `importState` or `initialState`. */
export interface KubesimState {
  kind: "KubesimState";
  version: 1;
  /** The engine's time (ms since the epoch). */
  clockMs: number;
  simulatedClock: boolean;
  rngState: string;
  historyMs: number;
  cacheLagMs: number;
  featureGates: Record<string, boolean>;
  /** The store's history; read it with `objects()` instead. */
  store: unknown;
  [field: string]: unknown;
}

/** A stored object as `objects()` gives it: any kind, with its type and object metadata. */
export interface KubernetesObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    uid: string;
    resourceVersion: string;
    creationTimestamp: string;
    generateName?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    [field: string]: unknown;
  };
  [field: string]: unknown;
}

/** How `corrupt` breaks a stored object. */
export type Corruption = "undecryptable" | "undecodable";
"#;
