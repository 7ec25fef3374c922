//! The spec's tables under live conditions: every cell of the get, list and watch tables
//! rerun on a copy of the learner's cluster, once as it is and once under a condition (a
//! lagging cache, compacted history, a resourceVersion from the future, an expired continue
//! token, `ListFromCacheSnapshot` off), each outcome said in full (the status, the semantic,
//! the revision the data is at and where it came from, or the Status reason), and the cells
//! whose outcome the condition changed marked.
//!
//! Both runs set the scene the same way on their own copy: a write (a namespace), the
//! revision `then` and a continue token taken, then another write, so "other value" names a
//! revision the store has moved past; only the condition differs. The learner's cluster is
//! never touched.

use std::collections::BTreeMap;

use serde_json::Value;

use super::badge::ReadBadge;
use super::exchange::Draft;
use super::semantics::{all_cells, Cell};
use super::sim::Sim;
use crate::features::FeatureGates;

/// A condition the tables can be rerun under.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Condition {
    /// The watch cache this many seconds behind the store (it has not seen the write).
    CacheBehind(u32),
    /// The history compacted past the revision "other value" names.
    Compacted,
    /// "Other value" is a revision the server has not reached.
    FutureRv,
    /// The continue token's snapshot compacted away.
    TokenExpired,
    /// The `ListFromCacheSnapshot` gate off: Exact and paged lists from the store.
    NoCacheSnapshot,
}

impl Condition {
    /// Every condition, as the page offers them.
    pub const ALL: [Condition; 5] = [
        Condition::CacheBehind(10),
        Condition::Compacted,
        Condition::FutureRv,
        Condition::TokenExpired,
        Condition::NoCacheSnapshot,
    ];

    /// The page's label.
    pub fn label(self) -> String {
        match self {
            Condition::CacheBehind(s) => format!("cache {s} s behind"),
            Condition::Compacted => "history compacted past rv".into(),
            Condition::FutureRv => "rv in the future".into(),
            Condition::TokenExpired => "continue token expired".into(),
            Condition::NoCacheSnapshot => "ListFromCacheSnapshot off".into(),
        }
    }

    /// A stable id (element ids, links).
    pub fn id(self) -> &'static str {
        match self {
            Condition::CacheBehind(_) => "cache-behind",
            Condition::Compacted => "compacted",
            Condition::FutureRv => "future-rv",
            Condition::TokenExpired => "token-expired",
            Condition::NoCacheSnapshot => "no-cache-snapshot",
        }
    }

    /// The condition with this id.
    pub fn by_id(id: &str) -> Option<Condition> {
        Condition::ALL.into_iter().find(|c| c.id() == id)
    }
}

/// What one cell's request got.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CellOutcome {
    pub code: u16,
    /// The semantic the engine applied, from the read header.
    pub semantic: Option<String>,
    /// The revision the data is at (the read header's, else the list's), if any.
    pub rv: Option<String>,
    /// `store`, `watch-cache` or `cache-snapshot`.
    pub source: Option<String>,
    /// An error's Status reason (`Expired`, `Timeout`, `BadRequest`), or a watch's first
    /// ERROR event's.
    pub reason: Option<String>,
}

impl CellOutcome {
    /// The outcome in a few words: `200 · rv 142 · watch cache`, `410 Expired`, or for a
    /// watch whose stream failed `200, then ERROR 410 Expired`.
    pub fn text(&self) -> String {
        if self.code >= 400 {
            return match &self.reason {
                Some(r) => format!("{} {r}", self.code),
                None => self.code.to_string(),
            };
        }
        let mut parts = vec![self.code.to_string()];
        if let Some(rv) = &self.rv {
            parts.push(format!("rv {rv}"));
        }
        if let Some(s) = &self.source {
            parts.push(s.replace('-', " "));
        }
        let text = parts.join(" · ");
        match &self.reason {
            Some(r) => format!("{text}, then ERROR {r}"),
            None => text,
        }
    }
}

/// Both runs of every cell: as the cluster is, and under the condition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConditionRun {
    pub condition: Condition,
    /// The revision "other value" named.
    pub rv: u64,
    pub baseline: BTreeMap<Cell, CellOutcome>,
    pub under: BTreeMap<Cell, CellOutcome>,
}

impl ConditionRun {
    /// Whether the condition changed `cell`'s outcome.
    pub fn changed(&self, cell: &Cell) -> bool {
        self.baseline.get(cell) != self.under.get(cell)
    }

    /// How many cells it changed.
    pub fn changed_count(&self) -> usize {
        all_cells().iter().filter(|c| self.changed(c)).count()
    }
}

/// Runs every cell twice on copies of the cluster `state` (an engine export) with `gates`.
pub fn run(
    state: &Value,
    gates: &FeatureGates,
    condition: Condition,
) -> Result<ConditionRun, String> {
    let (_, baseline) = run_under(state, gates, condition, false)?;
    let (rv, under) = run_under(state, gates, condition, true)?;
    Ok(ConditionRun {
        condition,
        rv,
        baseline,
        under,
    })
}

/// How far ahead the future revision is.
const FUTURE: u64 = 100;

/// One of the scene's writes: a namespace with a generated name (namespaces are what the
/// tables' requests read).
fn write_namespace(sim: &mut Sim) -> Result<(), String> {
    let write = Draft {
        method: "POST".into(),
        path: "/api/v1/namespaces".into(),
        headers: "Content-Type: application/json".into(),
        body: r#"{"apiVersion":"v1","kind":"Namespace","metadata":{"generateName":"scene-"}}"#
            .into(),
    };
    let (made, _) = sim.send(&write)?;
    match made.code {
        201 => Ok(()),
        _ => Err(format!("the scene's write answered {}", made.status_line)),
    }
}

/// One run: the scene set on a copy, the condition applied (when `applied`), every cell
/// sent. Returns the revision "other value" named: the one before the scene's write, the
/// newest for the continue token's condition (so that only the token is old), one the
/// server has not reached for the future's.
fn run_under(
    state: &Value,
    gates: &FeatureGates,
    condition: Condition,
    applied: bool,
) -> Result<(u64, BTreeMap<Cell, CellOutcome>), String> {
    let mut gates = gates.clone();
    let text = if applied && condition == Condition::NoCacheSnapshot {
        gates.set("ListFromCacheSnapshot", false)?;
        // The export carries the gates it was made with; the import would restore them.
        let mut state = state.clone();
        if let Some(m) = state.get_mut("featureGates").and_then(Value::as_object_mut) {
            m.insert("ListFromCacheSnapshot".into(), Value::Bool(false));
        }
        state.to_string()
    } else {
        state.to_string()
    };
    let mut sim = Sim::new(false, gates);
    sim.import(&text)?;
    sim.engine.set_cache_lag(0);
    // A write before `then` too, so that `then` is an event in the cache's window (the
    // revision its snapshot for an Exact list is taken at).
    write_namespace(&mut sim)?;
    sim.poll();
    let then = sim.engine.store().revision();
    let (first, _) = sim.send(&Draft::get("/api/v1/namespaces?limit=1"))?;
    let token = first
        .json()
        .and_then(|j| j["metadata"]["continue"].as_str().map(str::to_owned))
        .unwrap_or_default();
    if let (true, Condition::CacheBehind(s)) = (applied, condition) {
        sim.engine.set_cache_lag(i64::from(s) * 1000);
    }
    write_namespace(&mut sim)?;
    let newest = sim.engine.store().revision();
    match (applied, condition) {
        (true, Condition::Compacted) => {
            // Past the watch cache's window, and the store compacted at its newest revision.
            sim.engine.advance(360_000);
            sim.engine.compact();
            sim.poll();
        }
        (true, Condition::TokenExpired) => {
            sim.engine.compact();
            sim.poll();
        }
        _ => {}
    }
    let rv = match (applied, condition) {
        (true, Condition::FutureRv) => newest + FUTURE,
        (_, Condition::TokenExpired) => newest,
        _ => then,
    };
    let mut out = BTreeMap::new();
    for cell in all_cells() {
        let (x, watch) = sim.send(&cell.draft(rv, &token))?;
        let badge = x
            .header(crate::api::response::READ_HEADER)
            .map(ReadBadge::parse);
        let body = x.json();
        let list_rv = || {
            body.as_ref()
                .and_then(|b| b["metadata"]["resourceVersion"].as_str().map(str::to_owned))
        };
        let mut outcome = CellOutcome {
            code: x.code,
            semantic: badge
                .as_ref()
                .map(|b| b.semantic.clone())
                .filter(|s| !s.is_empty()),
            rv: badge.as_ref().and_then(|b| b.rv.clone()).or_else(list_rv),
            source: badge
                .as_ref()
                .map(|b| b.source.clone())
                .filter(|s| !s.is_empty()),
            reason: (x.code >= 400)
                .then(|| {
                    body.as_ref()
                        .and_then(|b| b["reason"].as_str().map(str::to_owned))
                })
                .flatten(),
        };
        if let Some(id) = watch {
            sim.poll();
            let failure = sim.watch(id).and_then(|w| w.failure()).map(str::to_owned);
            // `410 Expired: too old resource version...`: the code and reason.
            outcome.reason = failure.map(|f| f.split(':').next().unwrap_or("").to_string());
            sim.stop_watch(id);
            sim.close_watch(id);
        }
        out.insert(cell, outcome);
    }
    Ok((rv, out))
}
