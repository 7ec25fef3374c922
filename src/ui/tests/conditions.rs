//! The spec's tables rerun under each condition, on copies of the cluster: which cells each
//! condition changes, and how.

// In the browser suite these are wasm-bindgen tests.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use crate::ui::conditions::{self, CellOutcome, Condition, ConditionRun};
use crate::ui::semantics::{all_cells, Cell, TableId};
use crate::ui::sim::Sim;

fn run(condition: Condition) -> ConditionRun {
    let sim = Sim::new(false, Default::default());
    let state = sim.engine.export_state();
    conditions::run(&state, sim.engine.feature_gates(), condition).unwrap()
}

fn cell(table: TableId, row: usize, col: usize) -> Cell {
    Cell { table, row, col }
}

/// (baseline, under) texts of a cell.
fn both(r: &ConditionRun, c: Cell) -> (String, String) {
    let text = |o: Option<&CellOutcome>| o.map(CellOutcome::text).unwrap_or_default();
    (text(r.baseline.get(&c)), text(r.under.get(&c)))
}

/// Each condition changes the cells the spec says it does, and says how: a lagging cache
/// makes Any (and Not older than) answer from an older revision; compaction makes Exact
/// lists and continuations 410 and a watch from there fail in its stream; a revision from
/// the future 504s after the wait; an expired token fails only the continuations; without
/// `ListFromCacheSnapshot` the Exact and paged lists come from the store.
#[test]
fn each_condition_changes_its_cells() {
    use TableId::{Get, List, Watch};
    let behind = run(Condition::CacheBehind(10));
    let then = behind.rv;
    let newest = (then + 1).to_string();
    let (before, after) = both(&behind, cell(List, 0, 1));
    assert_eq!(before, format!("200 · rv {newest} · watch cache"));
    assert_eq!(
        after,
        format!("200 · rv {then} · watch cache"),
        "Any answers from the past"
    );
    assert!(behind.changed(&cell(Get, 0, 1)) && behind.changed(&cell(Get, 0, 2)));
    assert!(
        !behind.changed(&cell(Get, 0, 0)),
        "Most Recent reads the store"
    );
    assert!(
        !behind.changed(&cell(List, 3, 2)),
        "Exact at {then} is in the cache"
    );

    let compacted = run(Condition::Compacted);
    for c in [
        cell(List, 1, 2),
        cell(List, 2, 0),
        cell(List, 3, 2),
        cell(List, 4, 2),
    ] {
        assert_eq!(both(&compacted, c).1, "410 Expired", "{c:?}");
    }
    assert!(both(&compacted, cell(Watch, 0, 2))
        .1
        .ends_with("then ERROR 410 Expired"));
    assert!(
        !compacted.changed(&cell(Get, 0, 2)),
        "not older than a compacted revision is fine"
    );

    let future = run(Condition::FutureRv);
    assert_eq!(future.rv, then + 1 + 100);
    for c in [
        cell(Get, 0, 2),
        cell(List, 0, 2),
        cell(List, 3, 2),
        cell(List, 6, 2),
    ] {
        assert_eq!(both(&future, c).1, "504 Timeout", "{c:?}");
    }

    let expired = run(Condition::TokenExpired);
    let changed: Vec<Cell> = all_cells()
        .into_iter()
        .filter(|c| expired.changed(c))
        .collect();
    assert_eq!(
        changed,
        [cell(List, 2, 0), cell(List, 2, 1)],
        "only the continuations"
    );
    assert_eq!(both(&expired, cell(List, 2, 0)).1, "410 Expired");

    let off = run(Condition::NoCacheSnapshot);
    let (before, after) = both(&off, cell(List, 3, 2));
    assert_eq!(
        (before.as_str(), after.as_str()),
        (
            format!("200 · rv {then} · cache snapshot").as_str(),
            format!("200 · rv {then} · store").as_str()
        )
    );
    assert_eq!(
        off.changed_count(),
        5,
        "the Exact and the paged lists at {then}"
    );
    // The invalid cells answer the same under every condition.
    for r in [&behind, &compacted, &future, &expired, &off] {
        assert_eq!(both(r, cell(List, 3, 0)).1, "422 Invalid");
        assert_eq!(both(r, cell(List, 2, 2)).1, "400 BadRequest");
    }
}

/// The page's learner cluster is untouched by a rerun, and the state keeps the run.
#[test]
fn a_rerun_leaves_the_cluster_as_it_was() {
    use crate::ui::state::{Action, AppState};
    use std::rc::Rc;
    let state = Rc::new(AppState::new(false));
    let before = state.sim.borrow().engine.export_state();
    let state = super::Reduce::reduce(state, Action::RunConditions(Condition::Compacted));
    assert_eq!(state.sim.borrow().engine.export_state(), before);
    let run = state.conditions.as_deref().unwrap().as_ref().unwrap();
    assert!(run.changed_count() > 0);
}
