//! The response view: status line and reason, the read explanation as a badge, headers, and
//! the body pretty-printed (binary bodies as a hex dump beside their decoded form), and an
//! object's managedFields as a table of who owns which field.
//!
//! `#status` is a live region so screen readers announce each answer; its `data-seq` counts
//! sends, so tests can wait for *this* answer rather than the last one. `#status` holds only
//! the status line (tests compare it exactly); the badge is a sibling.

use yew::prelude::*;

use super::app::Ctx;
use super::ownership::OwnershipView;
use crate::ui::badge::ReadBadge;
use crate::ui::exchange::Draft;
use crate::ui::hexdump;
use crate::ui::ownership::Ownership;
use crate::ui::state::{Action, Outcome, Tab};

/// The response panel.
#[function_component(ResponseView)]
pub fn response_view() -> Html {
    let ctx = use_context::<Ctx>().expect("Ctx");
    let seq = ctx.seq.to_string();
    // The body as JSON, parsed once for the ownership table and the edit button.
    let parsed = match &ctx.outcome {
        Outcome::Answered(x, _) => x.json(),
        _ => None,
    };
    let header_count = match &ctx.outcome {
        Outcome::Answered(x, _) => x.headers.len(),
        _ => 0,
    };
    let (class, status, badge, headers, body) = match &ctx.outcome {
        Outcome::Idle => (
            "idle",
            "Nothing sent yet".to_string(),
            None,
            String::new(),
            html! {},
        ),
        Outcome::Invalid(msg) => (
            "invalid",
            format!("Not sent: {msg}"),
            None,
            String::new(),
            html! {},
        ),
        Outcome::Answered(x, watch) => {
            // A watch that failed in its stream (an ERROR event) is no success, whatever its
            // 200 says.
            let failure = watch.and_then(|id| {
                let sim = ctx.sim.borrow();
                sim.watch(id).and_then(|w| w.failure()).map(str::to_owned)
            });
            let class = if x.code < 400 && failure.is_none() {
                "ok"
            } else {
                "error"
            };
            let headers = x
                .headers
                .iter()
                .map(|(k, v)| format!("{k}: {v}"))
                .collect::<Vec<_>>()
                .join("\n");
            let badge = x
                .header(crate::api::response::READ_HEADER)
                .filter(|_| failure.is_none())
                .map(ReadBadge::parse);
            let body = match (watch, &x.binary) {
                (Some(id), _) => {
                    let id = *id;
                    let d = ctx.dispatcher();
                    let onclick = Callback::from(move |_: MouseEvent| {
                        focus(&format!("watch-{id}"));
                        d.dispatch(Action::Notice(None));
                    });
                    html! {
                        <p id="resp-body" class="watch-note">
                            if let Some(f) = &failure {
                                <strong id="watch-failed">{ format!("The watch failed: ERROR {f}. ") }</strong>
                                { format!("The 200 came first; the failure is an event in watch #{id}. ") }
                            } else {
                                { format!("Streaming into watch #{id}. ") }
                            }
                            <button type="button" class="link" {onclick}>{ "Go to the panel" }</button>
                        </p>
                    }
                }
                (None, Some(bytes)) => {
                    let kind = hexdump::sniff(bytes).unwrap_or("binary");
                    let decoded = x.decoded.clone().unwrap_or_else(|| {
                        format!(
                            "{kind}, {} bytes: the playground shows it as hex only.",
                            bytes.len()
                        )
                    });
                    html! {
                        <div class="binary">
                            <div>
                                <h3 class="sub">{ format!("Hex ({kind}, {} bytes)", bytes.len()) }</h3>
                                <pre id="resp-body" tabindex="0" aria-label="Response body, hex dump">{ x.body.clone() }</pre>
                            </div>
                            <div>
                                <h3 class="sub">{ "Decoded" }</h3>
                                <pre id="resp-decoded" tabindex="0" aria-label="Response body, decoded">{ decoded }</pre>
                            </div>
                        </div>
                    }
                }
                (None, None) => {
                    let ownership = parsed.as_ref().and_then(Ownership::of).map(|table| {
                        html! { <OwnershipView {table} /> }
                    });
                    html! {
                        <>
                            <pre id="resp-body" tabindex="0" aria-label="Response body">{ x.body.clone() }</pre>
                            { ownership }
                        </>
                    }
                }
            };
            (class, x.status_line.clone(), badge, headers, body)
        }
    };
    let badge = badge.map(|b| {
        let stale = b.may_be_stale();
        let onclick = {
            let d = ctx.dispatcher();
            Callback::from(move |_: MouseEvent| d.dispatch(Action::Tab(Tab::Semantics)))
        };
        html! {
            <button type="button" id="read-badge" class={classes!("badge", stale.then_some("stale"))}
                title={format!("{} (click: the spec's tables)", b.meaning())} {onclick}>
                { b.label() }
            </button>
        }
    });
    let edit = match &ctx.outcome {
        Outcome::Answered(x, None) if x.code < 300 => parsed.as_ref().and_then(|j| {
            let self_path = object_path(j)?;
            let d = ctx.dispatcher();
            let body = x.body.clone();
            let onclick = Callback::from(move |_: MouseEvent| {
                d.dispatch(Action::Load(Draft {
                    method: "PUT".into(),
                    path: self_path.clone(),
                    headers: String::new(),
                    body: body.clone(),
                }))
            });
            Some(html! {
                <button type="button" class="small" id="edit-as-put" {onclick}
                    title="Load this object into the builder as a PUT (its resourceVersion makes the update conditional)">
                    { "Edit as PUT" }
                </button>
            })
        }),
        _ => None,
    };
    // An object being deleted that is still there: what holds it, so a delete that did not
    // remove anything is never a silent dead end.
    let still_there = parsed.as_ref().and_then(|obj| {
        let lines = crate::ui::links::still_there(obj, || ctx.sim.borrow().engine.objects())?;
        let d = ctx.dispatcher();
        let onclick = Callback::from(move |_: MouseEvent| d.dispatch(Action::Tab(Tab::Store)));
        Some(html! {
            <div id="still-there" class="hint">
                <p>{ format!(
                    "Terminating since {}: a delete only marks an object while finalizers remain; it is removed when the last one goes.",
                    obj["metadata"]["deletionTimestamp"].as_str().unwrap_or("")) }</p>
                <ul>{ for lines.iter().map(|l| html! { <li class="why">{ l.clone() }</li> }) }</ul>
                <button type="button" class="link" {onclick}>{ "See it in the Store tab" }</button>
            </div>
        })
    });
    // A 404 for a resource discovery does not list: what is served instead.
    let answered_404 = matches!(&ctx.outcome, Outcome::Answered(x, None) if x.code == 404);
    let unserved = ctx.unserved.as_ref().filter(|_| answered_404).map(|text| {
        html! { <p id="unserved" class="hint">{ text.clone() }</p> }
    });
    html! {
        <section class="panel response" aria-labelledby="response-title">
            <h2 id="response-title">{ "Response" }</h2>
            <div class="status-line">
                <p id="status" class={classes!("status", class)} data-seq={seq}
                    role="status" aria-live="polite">{ status }</p>
                { badge }
                { edit }
            </div>
            { unserved }
            { still_there }
            <details>
                <summary>{ format!("Headers ({})", header_count) }</summary>
                <pre id="resp-headers" tabindex="0" aria-label="Response headers">{ headers }</pre>
            </details>
            { body }
        </section>
    }
}

/// The path of an object the engine returned (`/api/v1/namespaces/x`,
/// `/apis/apps/v1/namespaces/ns/controllerrevisions/x`), for "Edit as PUT".
fn object_path(obj: &serde_json::Value) -> Option<String> {
    let kind = obj["kind"].as_str()?;
    let api_version = obj["apiVersion"].as_str()?;
    let name = obj["metadata"]["name"].as_str()?;
    let plural = match kind {
        "Namespace" => "namespaces",
        "ControllerRevision" => "controllerrevisions",
        _ => return None,
    };
    let prefix = if api_version.contains('/') {
        format!("/apis/{api_version}")
    } else {
        format!("/api/{api_version}")
    };
    Some(match obj["metadata"]["namespace"].as_str() {
        Some(ns) => format!("{prefix}/namespaces/{ns}/{plural}/{name}"),
        None => format!("{prefix}/{plural}/{name}"),
    })
}

/// The page's element with `id`, if it is an HTML element.
fn element(id: &str) -> Option<web_sys::HtmlElement> {
    use wasm_bindgen::JsCast;
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
}

/// Moves keyboard focus to the element with `id` (and scrolls it into view).
pub fn focus(id: &str) {
    if let Some(el) = element(id) {
        let _ = el.focus();
        el.scroll_into_view();
    }
}

/// Moves keyboard focus to the element with `id`, leaving the page where it is.
pub fn focus_in_place(id: &str) {
    if let Some(el) = element(id) {
        let options = web_sys::FocusOptions::new();
        options.set_prevent_scroll(true);
        let _ = el.focus_with_options(&options);
    }
}
