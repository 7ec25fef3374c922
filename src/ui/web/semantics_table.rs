//! The spec's read-semantics tables, interactive: a click on a cell runs that request (the
//! builder and response show it) and the cell then says which semantic the engine applied,
//! from `x-kubesim-read`; the Meanings table highlights it. The cell the builder's current
//! request falls into is outlined, so the tables also explain what is about to be sent.

use yew::prelude::*;

use super::app::Ctx;
use crate::ui::badge::{semantic_title, MEANINGS};
use crate::ui::conditions::{CellOutcome, Condition};
use crate::ui::semantics::{self, Cell, TableId, COLUMNS, LIST_ROWS};
use crate::ui::state::{Action, CellResult};

fn cell_button(cell: Cell, ctx: &Ctx, predicted: Option<Cell>) -> Html {
    let result: Option<&CellResult> = ctx.cells.get(&cell);
    let d = ctx.dispatcher();
    let onclick = Callback::from(move |_: MouseEvent| d.dispatch(Action::RunCell(cell)));
    let id = format!(
        "cell-{}-{}-{}",
        match cell.table {
            TableId::Get => "get",
            TableId::List => "list",
            TableId::Watch => "watch",
        },
        cell.row,
        cell.col
    );
    let outcome = result.map(|r| {
        let matched = match (cell.semantic(), r.semantic.as_deref()) {
            (Some(want), Some(got)) => want == got,
            (None, None) => r.code >= 400,
            _ => false,
        };
        let text = match &r.semantic {
            Some(s) => format!("{} · {}", r.code, semantic_title(s)),
            None => r.code.to_string(),
        };
        html! {
            <span class={classes!("cell-result", if matched { "match" } else { "mismatch" })}
                title={r.read.clone().unwrap_or_default()}>{ text }</span>
        }
    });
    // Under a condition: the outcome as the cluster is and under it, marked when it changed.
    let run = ctx.conditions.as_deref().and_then(|r| r.as_ref().ok());
    let changed = run.is_some_and(|r| r.changed(&cell));
    let under = run.map(|r| {
        let text = |o: Option<&CellOutcome>| o.map(CellOutcome::text).unwrap_or_default();
        let (before, after) = (text(r.baseline.get(&cell)), text(r.under.get(&cell)));
        html! {
            <span class="cond-result" title={format!("as the cluster is: {before}; under \u{201c}{}\u{201d}: {after}", r.condition.label())}>
                if changed {
                    <del>{ before }</del>{ " → " }<ins>{ after }</ins>
                } else {
                    { after }
                }
            </span>
        }
    });
    html! {
        <td class={classes!(result.is_some().then_some("ran"), (predicted == Some(cell)).then_some("predicted"), changed.then_some("changed"))}>
            <button type="button" class="cell" id={id} {onclick}
                title="Run this request (it is loaded into the builder)">
                <span class="cell-spec">{ cell.spec() }</span>
                { outcome }
                { under }
            </button>
        </td>
    }
}

fn head() -> Html {
    html! { <>{ for COLUMNS.iter().map(|c| html! { <th scope="col">{ *c }</th> }) }</> }
}

/// The Read semantics tab.
#[function_component(SemanticsTable)]
pub fn semantics_table() -> Html {
    let ctx = use_context::<Ctx>().expect("Ctx");
    let predicted = semantics::classify(&ctx.draft);
    let simple = |table: TableId| {
        html! {
            <tr>{ for (0..3).map(|col| cell_button(Cell { table, row: 0, col }, &ctx, predicted)) }</tr>
        }
    };
    let list_rows = LIST_ROWS.iter().enumerate().map(|(row, r)| {
        let paging = match (r.limit, r.continue_) {
            (false, _) => "limit unset",
            (true, false) => "limit=n, continue unset",
            (true, true) => "limit=n, continue=token",
        };
        html! {
            <tr>
                <th scope="row">{ r.rvm.unwrap_or("unset") }</th>
                <th scope="row" class="paging">{ paging }</th>
                { for (0..3).map(|col| cell_button(Cell { table: TableId::List, row, col }, &ctx, predicted)) }
            </tr>
        }
    });
    let applied = ctx.applied.clone().unwrap_or_default();
    html! {
        <div class="semantics">
            <p class="hint">{ "Click a cell to run it against /api/v1/namespaces (\"other value\" is the current revision). The cell then shows the status and the semantic the server applied; the outlined cell is where the builder's request falls." }</p>
            { conditions(&ctx) }
            <h3 id="get-table">{ "Get" }</h3>
            <div class="table-wrap"><table class="sem" aria-labelledby="get-table">
                <thead><tr>{ head() }</tr></thead>
                <tbody>{ simple(TableId::Get) }</tbody>
            </table></div>
            <h3 id="list-table">{ "List, by resourceVersionMatch and paging" }</h3>
            <div class="table-wrap"><table class="sem" aria-labelledby="list-table">
                <colgroup><col class="c-rvm" /><col class="c-paging" /><col /><col /><col /></colgroup>
                <thead><tr>
                    <th scope="col"><abbr title="resourceVersionMatch">{ "rv match" }</abbr></th>
                    <th scope="col">{ "paging" }</th>{ head() }
                </tr></thead>
                <tbody>{ for list_rows }</tbody>
            </table></div>
            <h3 id="watch-table">{ "Watch" }</h3>
            <div class="table-wrap"><table class="sem" aria-labelledby="watch-table">
                <thead><tr>{ head() }</tr></thead>
                <tbody>{ simple(TableId::Watch) }</tbody>
            </table></div>
            <h3 id="meanings">{ "Meanings" }</h3>
            <table class="meanings" aria-labelledby="meanings">
                <tbody>
                    { for MEANINGS.iter().map(|(s, m)| html! {
                        <tr class={classes!((applied == *s).then_some("applied"))}
                            aria-current={(applied == *s).then_some("true")}>
                            <th scope="row">{ semantic_title(s) }</th>
                            <td>{ *m }</td>
                        </tr>
                    }) }
                </tbody>
            </table>
        </div>
    }
}

/// The conditions: one button each reruns every cell on copies of the cluster, as it is and
/// under the condition; then a line says what changed.
fn conditions(ctx: &Ctx) -> Html {
    let buttons = Condition::ALL.iter().map(|c| {
        let d = ctx.dispatcher();
        let c = *c;
        let onclick = Callback::from(move |_: MouseEvent| d.dispatch(Action::RunConditions(c)));
        let current = ctx
            .conditions
            .as_deref()
            .and_then(|r| r.as_ref().ok())
            .is_some_and(|r| r.condition == c);
        html! {
            <button type="button" class={classes!("small", current.then_some("primary"))}
                id={format!("cond-{}", c.id())} aria-pressed={current.to_string()} {onclick}>
                { c.label() }
            </button>
        }
    });
    let summary = ctx.conditions.as_deref().map(|r| match r {
        Ok(run) => html! {
            <p id="cond-summary" role="status">{ format!(
                "Under \u{201c}{}\u{201d} (\"other value\" = {}), {} of {} cells answer differently; they are marked. Each cell shows its outcome; a changed one, before → after.",
                run.condition.label(), run.rv, run.changed_count(), run.under.len()) }</p>
        },
        Err(e) => html! { <p id="cond-summary" class="verdict error" role="status">{ format!("Could not rerun the tables: {e}") }</p> },
    });
    html! {
        <fieldset class="conditions">
            <legend>{ "Rerun every cell under a condition (on copies of your cluster)" }</legend>
            <div class="line">{ for buttons }</div>
            { summary }
        </fieldset>
    }
}
