//! Model-based test of read semantics: over random sequences of creates, updates, deletes,
//! compactions, clock advances and cache-lag changes, a list at R followed by a watch from R
//! reproduces exactly the store's state at every later revision, and no watcher sees a gap,
//! a duplicate or an out-of-order event — with and without a label selector.

use std::collections::BTreeMap;

use crate::common::*;
use proptest::prelude::*;
use serde_json::{json, Value};

#[derive(Debug, Clone)]
enum Op {
    Create(u8),
    Relabel(u8, bool),
    Delete(u8),
    Compact,
    Advance(u32),
    Lag(u16),
    OpenWatch(bool),
    CloseWatch(u8),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0u8..6).prop_map(Op::Create),
        4 => (0u8..6, any::<bool>()).prop_map(|(n, b)| Op::Relabel(n, b)),
        2 => (0u8..6).prop_map(Op::Delete),
        1 => Just(Op::Compact),
        2 => (0u32..120_000).prop_map(Op::Advance),
        1 => (0u16..6_000).prop_map(Op::Lag),
        2 => any::<bool>().prop_map(Op::OpenWatch),
        1 => (0u8..4).prop_map(Op::CloseWatch),
    ]
}

/// name -> (resourceVersion, app label) of the ControllerRevisions in `default`.
type State = BTreeMap<String, (u64, String)>;

fn matches(selector: bool, app: &str) -> bool {
    !selector || app == "a"
}

fn filtered(s: &State, selector: bool) -> State {
    s.iter()
        .filter(|(_, (_, app))| matches(selector, app))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

fn entry(obj: &Value) -> (String, (u64, String)) {
    (
        obj["metadata"]["name"].as_str().unwrap().to_string(),
        (
            rv_of(obj),
            obj["metadata"]["labels"]["app"]
                .as_str()
                .unwrap_or("")
                .to_string(),
        ),
    )
}

/// A client that listed at R and then watches from R.
struct Client {
    watch: Watch,
    selector: bool,
    state: State,
    last_rv: u64,
}

impl Client {
    /// Applies newly delivered events, checking each against the model's history.
    fn sync(&mut self, history: &BTreeMap<u64, State>) -> Result<(), TestCaseError> {
        let (events, _) = self.watch.events();
        for ev in events {
            let kind = ev["type"].as_str().unwrap();
            let obj = &ev["object"];
            let rv = rv_of(obj);
            prop_assert!(
                rv > self.last_rv,
                "out of order or duplicate: {} after {}",
                rv,
                self.last_rv
            );
            // No gap: every revision between the last seen one and this one left the
            // watcher's view unchanged.
            for (r, s) in history.range(self.last_rv + 1..rv) {
                prop_assert_eq!(
                    &filtered(s, self.selector),
                    &self.state,
                    "gap before rv {}",
                    r
                );
            }
            let (name, val) = entry(obj);
            match kind {
                "ADDED" | "MODIFIED" => {
                    self.state.insert(name, val);
                }
                "DELETED" => {
                    self.state.remove(&name);
                }
                other => prop_assert!(false, "unexpected event {}", other),
            }
            self.last_rv = rv;
            let want = filtered(&history[&rv], self.selector);
            prop_assert_eq!(&self.state, &want, "state differs at rv {}", rv);
        }
        Ok(())
    }
}

fn run(ops: Vec<Op>) -> Result<(), TestCaseError> {
    let mut e = engine();
    let mut model: State = BTreeMap::new();
    // The model's state after every revision that touched the collection.
    let mut history: BTreeMap<u64, State> = BTreeMap::new();
    history.insert(e.store().revision(), model.clone());
    let mut clients: Vec<Client> = Vec::new();
    for op in ops {
        match op {
            Op::Create(n) => {
                let r = post(
                    &mut e,
                    &crs("default"),
                    &cr_labeled(&format!("o{n}"), json!({"app": "a"})),
                );
                if r.code == 201 {
                    let (k, v) = entry(&r.json);
                    model.insert(k, v);
                    history.insert(rv_of(&r.json), model.clone());
                } else {
                    prop_assert_eq!(r.code, 409);
                }
            }
            Op::Relabel(n, to_a) => {
                let g = get(&mut e, &cr("default", &format!("o{n}")));
                if g.code == 200 {
                    let mut obj = g.json.clone();
                    let app = if to_a { "a" } else { "b" };
                    obj["metadata"]["labels"]["app"] = json!(app);
                    let r = put(&mut e, &cr("default", &format!("o{n}")), &obj);
                    prop_assert_eq!(r.code, 200);
                    if rv_of(&r.json) != rv_of(&g.json) {
                        let (k, v) = entry(&r.json);
                        model.insert(k, v);
                        history.insert(rv_of(&r.json), model.clone());
                    }
                }
            }
            Op::Delete(n) => {
                let r = delete(&mut e, &cr("default", &format!("o{n}")));
                if r.code == 200 {
                    model.remove(&format!("o{n}"));
                    history.insert(e.store().revision(), model.clone());
                }
            }
            Op::Compact => {
                e.compact();
            }
            Op::Advance(ms) => e.advance(ms as i64),
            Op::Lag(ms) => e.set_cache_lag(ms as i64),
            Op::OpenWatch(selector) => {
                let sel = if selector {
                    "&labelSelector=app%3Da"
                } else {
                    ""
                };
                let list = get(&mut e, &format!("{}?x=1{sel}", crs("default")));
                prop_assert_eq!(list.code, 200);
                let r = rv_of(&list.json);
                let mut state = State::new();
                for item in list.json["items"].as_array().unwrap() {
                    let (k, v) = entry(item);
                    state.insert(k, v);
                }
                // The list is exactly the state at R.
                let at_r = history
                    .range(..=r)
                    .next_back()
                    .map(|(_, s)| s.clone())
                    .unwrap_or_default();
                prop_assert_eq!(&state, &filtered(&at_r, selector));
                let w = watch(
                    &mut e,
                    &format!(
                        "{}?watch=1&resourceVersion={r}&timeoutSeconds=1000000{sel}",
                        crs("default")
                    ),
                );
                prop_assert_eq!(w.code, 200);
                clients.push(Client {
                    watch: w,
                    selector,
                    state,
                    last_rv: r,
                });
            }
            Op::CloseWatch(i) => {
                if !clients.is_empty() {
                    let idx = i as usize % clients.len();
                    clients.remove(idx);
                }
            }
        }
        for c in clients.iter_mut() {
            c.sync(&history)?;
        }
    }
    // Let the cache deliver everything, then every client must hold the final state.
    e.set_cache_lag(0);
    e.advance(1);
    for c in clients.iter_mut() {
        c.sync(&history)?;
        prop_assert_eq!(&c.state, &filtered(&model, c.selector));
    }
    prop_assert_eq!(e.watch_count(), clients.len());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]
    #[test]
    fn list_then_watch_reproduces_the_store(ops in proptest::collection::vec(op(), 1..70)) {
        run(ops)?;
    }
}
