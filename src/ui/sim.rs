//! The simulated cluster behind the page: the engine, the open watches, and the operations
//! the chaos panel performs on both.
//!
//! The playground calls the engine in-process. The JS shim (`crate::shim`) is a wasm-bindgen
//! wrapper over this same `Engine` for JavaScript callers; a Rust page gains nothing from the
//! detour through `fetch` types, and calling the engine directly lets the inspector read the
//! store and cache (revisions, compaction, lag) that no HTTP response exposes in full.
//!
//! Time, gates and the clock mode live in the engine's `Config`, which is fixed at
//! construction; changing them rebuilds the engine from an exported state, so the cluster
//! survives a gate toggle or a switch to the wall clock (open watches end, as they would when
//! an apiserver restarts).

use bytes::Bytes;
use serde_json::Value;

use super::discovery::{self, ApiResource};
use super::exchange::{self, Draft, Exchange};
use super::reflect::{self, Reflected};
use super::watchlog::{self, WatchRow};
use crate::engine::{Body, Config, Engine, WatchStream};
use crate::features::FeatureGates;

/// At most this many events are kept per watch panel (older ones are dropped from view).
pub const MAX_ROWS: usize = 500;

/// Whether a watch is still streaming.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WatchState {
    Open,
    /// Stopped from the page (the stream was dropped, which ends the watch in the engine).
    Stopped,
    /// Ended by the server (timeout, an ERROR, or the cluster was rebuilt).
    Ended,
}

/// One watch panel.
#[derive(Debug)]
pub struct WatchPanel {
    pub id: u32,
    /// The request path, query included.
    pub path: String,
    /// The `x-kubesim-read` value of the watch response.
    pub read: Option<String>,
    stream: Option<WatchStream>,
    pub rows: Vec<WatchRow>,
    /// Rows dropped from the front to keep at most [`MAX_ROWS`].
    pub dropped: usize,
    pub state: WatchState,
    /// Whether the cluster it watched has since been replaced by a fresh one (a lesson's
    /// start, Reset): its events are of a cluster that is gone.
    pub previous_cluster: bool,
}

impl WatchPanel {
    /// Why the watch failed, when it did: the Status an ERROR event carried (`410 Expired:
    /// ...`). A watch answers 200 before its first event, so its failure is in the stream,
    /// not in the status line.
    pub fn failure(&self) -> Option<&str> {
        // An ERROR ends the stream: it is the last row.
        self.rows
            .iter()
            .rev()
            .find(|r| r.kind == "ERROR")
            .map(|r| r.note.as_str())
    }

    fn pull(&mut self) -> bool {
        let Some(stream) = self.stream.as_mut() else {
            return false;
        };
        let (frames, ended) = stream.drain();
        let changed = !frames.is_empty() || ended;
        for f in frames {
            self.rows.extend(watchlog::parse_frames(&f));
        }
        if self.rows.len() > MAX_ROWS {
            let extra = self.rows.len() - MAX_ROWS;
            self.rows.drain(..extra);
            self.dropped += extra;
        }
        if ended {
            self.stream = None;
            self.state = WatchState::Ended;
        }
        changed
    }
}

/// What a new engine holds, for the page's bookkeeping.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Cluster {
    /// The same cluster (another clock mode or other gates).
    Same,
    /// A fresh one.
    Fresh,
    /// One imported.
    Imported,
}

/// The engine plus what the page keeps about it.
pub struct Sim {
    pub engine: Engine,
    pub watches: Vec<WatchPanel>,
    next_watch: u32,
    /// Resources found by discovery, asked again whenever the served kinds change (a
    /// CustomResourceDefinition established or deleted).
    pub resources: Vec<ApiResource>,
    /// The kinds `resources` was discovered from.
    discovered: std::sync::Arc<crate::resources::Kinds>,
    /// The clock second and revisions last shown (to re-render only on change).
    last_seen: (i64, u64, u64, u64),
    /// The store's revision when the cluster was fresh; `None` for an imported one.
    fresh: Option<u64>,
    /// The revision each response of this cluster reflects (the Store tab's timeline).
    pub responses: Vec<Reflected>,
}

/// Builds an engine: simulated time unless `wall`.
pub fn new_engine(wall: bool, gates: FeatureGates) -> Engine {
    Engine::new(Config {
        time_source: wall.then(super::wall_time),
        feature_gates: gates,
        ..Default::default()
    })
}

fn get_json(engine: &mut Engine, path: &str) -> Value {
    let req = http::Request::get(path)
        .body(Bytes::new())
        .expect("static path");
    serde_json::from_slice(engine.handle(req).body().bytes()).unwrap_or(Value::Null)
}

/// Asks the engine what it serves, as a client's discovery would.
fn discover(engine: &mut Engine) -> Vec<ApiResource> {
    let api = get_json(engine, "/api");
    let apis = get_json(engine, "/apis");
    let mut out = Vec::new();
    for gv in discovery::group_versions(&api, &apis) {
        let list = get_json(engine, &gv);
        out.extend(discovery::resources(&gv, &list));
    }
    out
}

impl Sim {
    /// A fresh cluster.
    pub fn new(wall: bool, gates: FeatureGates) -> Sim {
        let mut sim = Sim::with_engine(new_engine(wall, gates));
        sim.mark_fresh();
        sim
    }

    fn with_engine(mut engine: Engine) -> Sim {
        let resources = discover(&mut engine);
        let discovered = engine.kinds().clone();
        Sim {
            engine,
            watches: Vec::new(),
            next_watch: 1,
            resources,
            discovered,
            last_seen: (0, 0, 0, 0),
            fresh: None,
            responses: Vec::new(),
        }
    }

    /// Counts the cluster as it is now as fresh: what [`Sim::changed`] compares with.
    pub fn mark_fresh(&mut self) {
        self.fresh = Some(self.engine.store().revision());
    }

    /// Whether anything was written since the cluster was fresh (an imported cluster
    /// counts as changed): what a lesson's fresh start would set aside.
    pub fn changed(&self) -> bool {
        self.fresh
            .is_none_or(|rev| self.engine.store().revision() > rev)
    }

    /// Sends a draft. A watch response opens a panel; its id is returned with the exchange.
    pub fn send(&mut self, draft: &Draft) -> Result<(Exchange, Option<u32>), String> {
        let req = exchange::build_request(draft)?;
        let mut resp = self.engine.handle(req);
        let x = exchange::describe(&resp);
        self.rediscover();
        let request = format!("{} {}", draft.method.trim(), draft.path.trim());
        if let Some(r) = Reflected::of(&x, request, self.engine.store().revision()) {
            reflect::record(&mut self.responses, r);
        }
        if let Body::Watch(_) = resp.body() {
            let Body::Watch(stream) = std::mem::replace(resp.body_mut(), Body::Full(Bytes::new()))
            else {
                unreachable!("checked above")
            };
            let id = self.next_watch;
            self.next_watch += 1;
            let mut panel = WatchPanel {
                id,
                path: draft.path.trim().to_string(),
                read: x
                    .header(crate::api::response::READ_HEADER)
                    .map(str::to_owned),
                stream: Some(stream),
                rows: Vec::new(),
                dropped: 0,
                state: WatchState::Open,
                previous_cluster: false,
            };
            panel.pull();
            self.watches.push(panel);
            return Ok((x, Some(id)));
        }
        Ok((x, None))
    }

    /// Lets the engine's time-driven work run and collects watch events. True when anything
    /// the page shows changed (events, revisions, or the clock's second).
    pub fn poll(&mut self) -> bool {
        self.engine.tick();
        let mut changed = self.rediscover();
        for w in &mut self.watches {
            changed |= w.pull();
        }
        let seen = (
            self.engine.clock().now_secs(),
            self.engine.store().revision(),
            self.engine.cache().revision(),
            self.engine.store().compacted_revision(),
        );
        if seen != self.last_seen {
            self.last_seen = seen;
            changed = true;
        }
        changed
    }

    /// Asks discovery again when the served kinds changed; whether they did.
    fn rediscover(&mut self) -> bool {
        if std::sync::Arc::ptr_eq(&self.discovered, self.engine.kinds()) {
            return false;
        }
        self.discovered = self.engine.kinds().clone();
        self.resources = discover(&mut self.engine);
        true
    }

    /// Stops a watch (dropping its stream ends it in the engine).
    pub fn stop_watch(&mut self, id: u32) {
        if let Some(w) = self.watches.iter_mut().find(|w| w.id == id) {
            w.pull();
            if w.stream.take().is_some() {
                w.state = WatchState::Stopped;
            }
        }
    }

    /// The panel of watch `id`.
    pub fn watch(&self, id: u32) -> Option<&WatchPanel> {
        self.watches.iter().find(|w| w.id == id)
    }

    /// Removes a watch panel (stopping it first).
    pub fn close_watch(&mut self, id: u32) {
        self.watches.retain(|w| w.id != id);
    }

    /// Number of open watch panels.
    pub fn open_watches(&self) -> usize {
        self.watches
            .iter()
            .filter(|w| w.state == WatchState::Open)
            .count()
    }

    /// Rebuilds the engine with another clock mode or other gates, keeping the cluster.
    pub fn rebuild(&mut self, wall: bool, gates: FeatureGates) -> Result<(), String> {
        let mut state = self.engine.export_state();
        let gate_map: serde_json::Map<String, Value> = gates
            .iter()
            .map(|(k, v)| (k.to_string(), Value::Bool(v)))
            .collect();
        state["featureGates"] = Value::Object(gate_map);
        let mut engine = new_engine(wall, gates);
        if wall {
            // A wall clock must not run behind the simulated time it takes over from, or
            // writes from the "future" would never reach the lagging cache.
            let behind = self.engine.clock().now_ms() - engine.clock().now_ms();
            engine.advance(behind.max(0));
        }
        engine.import_state(&state)?;
        self.replace_engine(engine, Cluster::Same);
        Ok(())
    }

    /// A fresh cluster with the same clock mode and gates.
    pub fn reset(&mut self) {
        self.restart(!self.engine.clock().is_simulated());
    }

    /// A fresh cluster with the same gates, on a wall or simulated clock. Watch panels stay
    /// (ended), so their events can still be read.
    pub fn restart(&mut self, wall: bool) {
        let gates = self.engine.feature_gates().clone();
        self.restart_with(wall, gates);
    }

    /// A fresh cluster with `gates`, on a wall or simulated clock.
    pub fn restart_with(&mut self, wall: bool, gates: FeatureGates) {
        self.replace_engine(new_engine(wall, gates), Cluster::Fresh);
    }

    /// Replaces the cluster with an exported state.
    pub fn import(&mut self, text: &str) -> Result<(), String> {
        let state =
            crate::engine::parse_state(text.as_bytes()).map_err(|e| format!("not JSON: {e}"))?;
        let wall = !self.engine.clock().is_simulated();
        let gates = self.engine.feature_gates().clone();
        let mut engine = new_engine(wall, gates);
        engine.import_state(&state)?;
        self.replace_engine(engine, Cluster::Imported);
        Ok(())
    }

    /// Puts `engine` in place of the current one: watches end (their panels stay, marked
    /// when the cluster they watched is gone), and the page keeps acting as the same user.
    fn replace_engine(&mut self, mut engine: Engine, cluster: Cluster) {
        engine.set_default_user(self.engine.default_user().cloned());
        let next = self.next_watch;
        let fresh = self.fresh;
        let responses = std::mem::take(&mut self.responses);
        let mut watches = std::mem::take(&mut self.watches);
        for w in &mut watches {
            w.pull();
            if w.stream.take().is_some() {
                w.state = WatchState::Ended;
            }
            w.previous_cluster |= cluster != Cluster::Same;
        }
        *self = Sim::with_engine(engine);
        self.watches = watches;
        self.next_watch = next;
        match cluster {
            Cluster::Same => {
                self.fresh = fresh;
                self.responses = responses;
            }
            Cluster::Fresh => self.mark_fresh(),
            Cluster::Imported => {}
        }
    }

    /// `name` → resourceVersion of each stored `kind` (of `api_version`) in `namespace`, read
    /// from that collection alone: what the informer and the challenges compare a client's
    /// view with.
    pub fn versions_in(
        &self,
        api_version: &str,
        kind: &str,
        namespace: &str,
    ) -> std::collections::BTreeMap<String, String> {
        let Some(info) = self.engine.kinds().by_kind(api_version, kind) else {
            return Default::default();
        };
        self.engine
            .stored_under(&format!("{}{namespace}/", info.key_prefix()))
            .iter()
            .map(|o| {
                let v = o.decode();
                let m = &v["metadata"];
                (
                    m["name"].as_str().unwrap_or("").to_string(),
                    m["resourceVersion"].as_str().unwrap_or("").to_string(),
                )
            })
            .collect()
    }

    /// The namespace names and the `(prefix, plural, namespace, name)` of every object, for
    /// path completion.
    pub fn object_paths(&self) -> (Vec<String>, Vec<discovery::ObjectRef>) {
        let mut namespaces = Vec::new();
        let mut objects = Vec::new();
        for o in self.engine.objects() {
            let kind = o["kind"].as_str().unwrap_or("");
            let api_version = o["apiVersion"].as_str().unwrap_or("");
            let prefix = if api_version.contains('/') {
                format!("/apis/{api_version}")
            } else {
                format!("/api/{api_version}")
            };
            let Some(r) = self
                .resources
                .iter()
                .find(|r| r.kind == kind && r.prefix == prefix && !r.name.contains('/'))
            else {
                continue;
            };
            let name = o["metadata"]["name"].as_str().unwrap_or("").to_string();
            let ns = o["metadata"]["namespace"]
                .as_str()
                .unwrap_or("")
                .to_string();
            if kind == "Namespace" {
                namespaces.push(name.clone());
            }
            objects.push((prefix, r.name.clone(), ns, name));
        }
        (namespaces, objects)
    }
}
