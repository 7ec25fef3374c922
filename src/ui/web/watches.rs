//! Watch panels: one per open watch, events streaming in as the 100 ms heartbeat drains them,
//! each with its type and resourceVersion; bookmarks and errors look different from object
//! events, and each panel has a stop button.

use yew::prelude::*;

use super::app::Ctx;
use crate::ui::badge::ReadBadge;
use crate::ui::sim::{WatchPanel, WatchState};
use crate::ui::state::Action;
use crate::ui::watchlog::WatchRow;

/// All watch panels (nothing when there are none).
#[function_component(Watches)]
pub fn watches() -> Html {
    let ctx = use_context::<Ctx>().expect("Ctx");
    let sim = ctx.sim.borrow();
    if sim.watches.is_empty() {
        return html! {
            <section class="panel watches empty" aria-labelledby="watches-title">
                <h2 id="watches-title">{ "Watches" }</h2>
                <p class="hint">{ "Send a GET with watch=1 (or a /watch/ path) to open a watch here. Several can run at once." }</p>
            </section>
        };
    }
    let open = sim.open_watches();
    let done: Vec<u32> = sim
        .watches
        .iter()
        .filter(|w| w.state != WatchState::Open)
        .map(|w| w.id)
        .collect();
    let clear = (!done.is_empty()).then(|| {
        let d = ctx.dispatcher();
        let onclick = Callback::from(move |_: MouseEvent| {
            for id in &done {
                d.dispatch(Action::CloseWatch(*id));
            }
        });
        html! { <button type="button" class="small" id="watches-clear" {onclick}>{ "Close finished" }</button> }
    });
    html! {
        <section class="panel watches" aria-labelledby="watches-title">
            <div class="line">
                <h2 id="watches-title">{ format!("Watches ({open} open)") }</h2>
                <span class="spacer" />
                { clear }
            </div>
            <div class="watch-list">
                { for sim.watches.iter().rev().map(|w| panel(w, &ctx)) }
            </div>
        </section>
    }
}

fn panel(w: &WatchPanel, ctx: &Ctx) -> Html {
    let id = w.id;
    let stop = {
        let d = ctx.dispatcher();
        Callback::from(move |_: MouseEvent| d.dispatch(Action::StopWatch(id)))
    };
    let close = {
        let d = ctx.dispatcher();
        Callback::from(move |_: MouseEvent| d.dispatch(Action::CloseWatch(id)))
    };
    let state = match w.state {
        WatchState::Open => "open",
        WatchState::Stopped => "stopped",
        WatchState::Ended => "ended",
    };
    // A failed watch (an ERROR event) says so, and its read badge does not show.
    let failure = w.failure();
    let failed = failure.is_some();
    let badge = w
        .read
        .as_deref()
        .filter(|_| !failed)
        .map(ReadBadge::parse)
        .map(|b| {
            html! { <span class="badge small" title={b.meaning()}>{ b.label() }</span> }
        });
    html! {
        <article class={classes!("watch", state, w.previous_cluster.then_some("previous"))} id={format!("watch-{id}")} tabindex="-1"
            aria-label={format!("Watch {id}: {}", w.path)}>
            <header>
                <strong>{ format!("#{id}") }</strong>
                <code class="watch-path" title={w.path.clone()}>{ w.path.clone() }</code>
                <span class={classes!("chip", "state", state)}>{ state }</span>
                if w.previous_cluster {
                    <span class="chip state" title="The cluster this watch ran on was replaced by a fresh one (a lesson's start, or Reset)">{ "previous cluster" }</span>
                }
                if failed {
                    <span class="chip state failed" title={failure.unwrap_or_default().to_string()}>{ "failed" }</span>
                }
                { badge }
                <span class="spacer" />
                if w.state == WatchState::Open {
                    <button type="button" class="small stop" onclick={stop}
                        aria-label={format!("Stop watch {id}")}>{ "Stop" }</button>
                } else {
                    <button type="button" class="small" onclick={close}
                        aria-label={format!("Close watch {id}")}>{ "Close" }</button>
                }
            </header>
            <ol class="events" role="log" aria-label={format!("Events of watch {id}")}>
                if w.dropped > 0 {
                    <li class="hint">{ format!("… {} older events not shown", w.dropped) }</li>
                }
                if w.rows.is_empty() {
                    <li class="hint">{ "No events yet." }</li>
                }
                { for w.rows.iter().map(row) }
            </ol>
        </article>
    }
}

fn row(r: &WatchRow) -> Html {
    let class = format!("ev ev-{}", r.kind.to_ascii_lowercase());
    let pretty = serde_json::from_slice::<serde_json::Value>(r.raw.as_bytes())
        .ok()
        .and_then(|v| serde_json::to_string_pretty(&v).ok())
        .unwrap_or_else(|| r.raw.clone());
    html! {
        <li class={classes!(class, r.is_initial_end().then_some("initial-end"))} data-type={r.kind.clone()}>
            <details>
                <summary>
                    <span class="ev-type">{ r.kind.clone() }</span>
                    if !r.rv.is_empty() {
                        <span class="ev-rv">{ format!("rv {}", r.rv) }</span>
                    }
                    <span class="ev-name">{ r.name.clone() }</span>
                    if !r.note.is_empty() {
                        <span class="ev-note">{ r.note.clone() }</span>
                    }
                </summary>
                <pre>{ pretty }</pre>
            </details>
        </li>
    }
}
