//! The Store tab's client's-eye view: the simulated informer's controls, what it believes
//! beside the store (the objects, the revision it is synced to), where the two differ, and
//! the requests and events it went through ([`crate::ui::informer`]).

use yew::prelude::*;

use super::app::Ctx;
use crate::ui::informer::{WatchFrom, PATH};
use crate::ui::state::{Action, InformerOp};

/// The informer panel.
#[function_component(InformerView)]
pub fn informer_view() -> Html {
    let ctx = use_context::<Ctx>().expect("Ctx");
    let button = |id: &'static str, label: &'static str, op: InformerOp, title: &'static str| {
        let d = ctx.dispatcher();
        let onclick = Callback::from(move |_: MouseEvent| d.dispatch(Action::Informer(op)));
        html! { <button type="button" class="small" {id} {title} {onclick}>{ label }</button> }
    };
    let controls = html! {
        <div class="line">
            { button("inf-list", "List", InformerOp::List, "A fresh informer lists the collection") }
            if ctx.informer.as_ref().is_some_and(|i| i.watch.is_none() && !i.disconnected) {
                { button("inf-watch", "Watch from the list's rv", InformerOp::Watch(WatchFrom::LastSeen),
                    "Watch from the resourceVersion the list returned: nothing is missed") }
                { button("inf-watch-wrong", "Watch from the current revision (wrong)", InformerOp::Watch(WatchFrom::Current),
                    "Watch from the store's revision now: writes since the list are missed") }
            }
            if ctx.informer.as_ref().is_some_and(|i| i.watch.is_some()) {
                { button("inf-disconnect", "Disconnect", InformerOp::Disconnect,
                    "The watch's connection drops and stays down") }
            }
            if ctx.informer.as_ref().is_some_and(|i| i.disconnected) {
                { button("inf-reconnect", "Reconnect", InformerOp::Reconnect,
                    "Watch again from the last resourceVersion seen (410 if it is too old: then relist)") }
            }
            if ctx.informer.is_some() {
                { button("inf-close", "Close", InformerOp::Close, "Stop the informer") }
            }
        </div>
    };
    let error = ctx
        .informer_error
        .as_ref()
        .map(|e| html! { <p class="verdict error">{ e.clone() }</p> });
    let Some(informer) = ctx.informer.as_ref() else {
        return html! {
            <section class="informer" aria-labelledby="informer-title">
                <h3 id="informer-title">{ "Informer: what a client believes" }</h3>
                <p class="hint">{ format!("A simulated client-go informer on {PATH}: it lists, then watches from the list's resourceVersion, resumes a dropped watch from the last one it saw, and lists again on 410.") }</p>
                { controls }
                { error }
            </section>
        };
    };
    let sim = ctx.sim.borrow();
    let diverged = informer.divergence(&sim);
    let store_rv = sim.engine.store().revision();
    let state = if diverged.is_empty() {
        format!(
            "In sync with the store: {} object(s), at rv {} (store at {store_rv}).",
            informer.believed.len(),
            informer.rv.unwrap_or(0)
        )
    } else {
        format!(
            "Diverged from the store in {} object(s); synced to rv {} (store at {store_rv}).",
            diverged.len(),
            informer.rv.unwrap_or(0)
        )
    };
    html! {
        <section class="informer" aria-labelledby="informer-title">
            <h3 id="informer-title">{ "Informer: what a client believes" }</h3>
            { controls }
            { error }
            <p id="inf-state" class={classes!(if diverged.is_empty() { "in-sync" } else { "diverged" })} role="status">{ state }</p>
            if !diverged.is_empty() {
                <ul id="inf-diverged">{ for diverged.iter().map(|d| html! { <li>{ d.text() }</li> }) }</ul>
            }
            <table class="objects" id="inf-believed">
                <thead><tr><th scope="col">{ "Name" }</th><th scope="col">{ "believed rv" }</th></tr></thead>
                <tbody>{ for informer.believed.iter().map(|(n, rv)| html! {
                    <tr><td>{ n.clone() }</td><td class="num">{ rv.clone() }</td></tr>
                }) }</tbody>
            </table>
            <details>
                <summary>{ format!("What it did ({}; {} relist(s) after 410)", informer.log.len(), informer.relists) }</summary>
                <ol id="inf-log">{ for informer.log.iter().map(|l| html! { <li>{ l.clone() }</li> }) }</ol>
            </details>
        </section>
    }
}
