//! The request builder: method, path (completed from discovery), query parameters, headers
//! with presets, a body with templates, Send (or Ctrl+Enter, handled page-wide in `app`), and
//! "copy as".
//!
//! Ids `#method`, `#path`, `#headers`, `#body` and `#send` are stable: the end-to-end and
//! browser tests drive them.

use web_sys::{HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

use super::app::Ctx;
use super::copy_as::CopyAs;
use super::params::Params;
use crate::ui::discovery;
use crate::ui::exchange::METHODS;
use crate::ui::query;
use crate::ui::semantics::{self, TableId};
use crate::ui::state::Action;
use crate::ui::templates::{self, HeaderPreset, ACCEPT, BODIES, CONTENT_TYPE};

/// The request form.
#[function_component(Builder)]
pub fn builder() -> Html {
    let ctx = use_context::<Ctx>().expect("Ctx is provided by App");
    let d = ctx.dispatcher();
    let draft = &ctx.draft;

    // The selects show what the draft says after every render: an option's `selected`
    // attribute no longer moves a select the learner has changed by hand (its options are
    // "dirty"), so a lesson step's method or Content-Type would otherwise show the learner's
    // last choice instead of what is sent.
    let method_ref = use_node_ref();
    let accept_ref = use_node_ref();
    let ct_ref = use_node_ref();
    let accept_choice = preset_choice(&draft.headers, "Accept", ACCEPT);
    let ct_choice = preset_choice(&draft.headers, "Content-Type", CONTENT_TYPE);
    {
        let shown = [
            (method_ref.clone(), draft.method.clone()),
            (accept_ref.clone(), accept_choice.clone()),
            (ct_ref.clone(), ct_choice.clone()),
        ];
        use_effect(move || {
            for (node, value) in &shown {
                if let Some(select) = node.cast::<HtmlSelectElement>() {
                    if select.value() != *value {
                        select.set_value(value);
                    }
                }
            }
        });
    }

    let onsubmit = {
        let d = d.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            d.dispatch(Action::Send);
        })
    };
    let on_method = {
        let d = d.clone();
        Callback::from(move |e: Event| {
            d.dispatch(Action::SetMethod(
                e.target_unchecked_into::<HtmlSelectElement>().value(),
            ))
        })
    };
    let on_path = {
        let d = d.clone();
        Callback::from(move |e: InputEvent| {
            d.dispatch(Action::SetPath(
                e.target_unchecked_into::<HtmlInputElement>().value(),
            ))
        })
    };
    let on_headers = {
        let d = d.clone();
        Callback::from(move |e: InputEvent| {
            d.dispatch(Action::SetHeaders(
                e.target_unchecked_into::<HtmlTextAreaElement>().value(),
            ))
        })
    };
    let on_body = {
        let d = d.clone();
        Callback::from(move |e: InputEvent| {
            d.dispatch(Action::SetBody(
                e.target_unchecked_into::<HtmlTextAreaElement>().value(),
            ))
        })
    };
    let on_template = {
        let (d, draft) = (d.clone(), draft.clone());
        Callback::from(move |e: Event| {
            let select = e.target_unchecked_into::<HtmlSelectElement>();
            let Some(t) = BODIES.iter().find(|t| t.label == select.value()) else {
                return;
            };
            let mut path = format!("{}{}", templates::CR_COLLECTION, t.path);
            for (k, v) in t.query.split('&').filter_map(|kv| kv.split_once('=')) {
                path = query::set(&path, k, Some(v));
            }
            let mut next = draft.clone();
            next.method = t.method.to_string();
            next.path = path;
            next.headers = query::set_header(&next.headers, "Content-Type", Some(t.content_type));
            next.body = t.body.to_string();
            d.dispatch(Action::Load(next));
            select.set_value("");
        })
    };

    // A preset menu per header: choosing one sets (or, with "none", removes) that header.
    let preset_menu = |id: &'static str,
                       label: &'static str,
                       name: &'static str,
                       presets: &'static [HeaderPreset],
                       node: NodeRef,
                       choice: String| {
        let onchange = {
            let (d, headers) = (d.clone(), draft.headers.clone());
            Callback::from(move |e: Event| {
                let v = e.target_unchecked_into::<HtmlSelectElement>().value();
                let value = presets.iter().find(|p| p.label == v).map(|p| p.value);
                if value.is_some() || v.is_empty() {
                    d.dispatch(Action::SetHeaders(query::set_header(&headers, name, value)));
                }
            })
        };
        html! {
            <span class="preset">
                <label for={id}>{ label }</label>
                <select {id} {onchange} ref={node}>
                    <option value="" selected={choice.is_empty()}>{ "(none)" }</option>
                    { for presets.iter().map(|p| html! {
                        <option value={p.label} selected={choice == p.label} title={p.help}>{ p.label }</option>
                    }) }
                    if choice == CUSTOM {
                        <option value={CUSTOM} selected=true>{ "(custom)" }</option>
                    }
                </select>
            </span>
        }
    };
    let gzip = query::header(&draft.headers, "Accept-Encoding").as_deref() == Some("gzip");
    let on_gzip = {
        let (d, headers) = (d.clone(), draft.headers.clone());
        Callback::from(move |e: Event| {
            let on = e.target_unchecked_into::<HtmlInputElement>().checked();
            d.dispatch(Action::SetHeaders(query::set_header(
                &headers,
                "Accept-Encoding",
                on.then_some("gzip"),
            )));
        })
    };

    let suggestions = {
        let sim = ctx.sim.borrow();
        let (namespaces, objects) = sim.object_paths();
        discovery::suggestions(&sim.resources, &namespaces, &objects, 400)
    };
    let hint = semantics::classify(draft).map(|cell| {
        let table = match cell.table {
            TableId::Get => "get",
            TableId::List => "list",
            TableId::Watch => "watch",
        };
        html! {
            <span class="predict" id="predict">
                { format!("Spec table ({table}, {}): ", semantics::COLUMNS[cell.col]) }
                <strong>{ cell.spec() }</strong>
            </span>
        }
    });
    let body_rows = draft.body.lines().count().clamp(3, 14).to_string();
    let placeholder = discovery::placeholder(&ctx.sim.borrow().resources, &draft.path);

    html! {
        <section class="panel builder" aria-labelledby="builder-title">
            <h2 id="builder-title">{ "Request" }</h2>
            <form class="request" {onsubmit} aria-labelledby="builder-title">
                <div class="line">
                    <label for="method" class="sr-only">{ "Method" }</label>
                    <select id="method" onchange={on_method} ref={method_ref}>
                        { for METHODS.iter().map(|m| html! {
                            <option value={*m} selected={draft.method == *m}>{ *m }</option>
                        }) }
                    </select>
                    <label for="path" class="sr-only">{ "Path" }</label>
                    <input id="path" type="text" spellcheck="false" autocomplete="off"
                        list="path-suggestions" aria-describedby="path-help"
                        value={draft.path.clone()} oninput={on_path} />
                    <datalist id="path-suggestions">
                        { for suggestions.iter().map(|s| html! { <option value={s.clone()} /> }) }
                    </datalist>
                    <button id="send" type="submit" title="Send (Ctrl+Enter)">{ "Send" }</button>
                </div>
                <p id="path-help" class="hint">
                    { "Path and query, completed from discovery. Ctrl+Enter sends. " }
                    { hint }
                </p>
                <Params />
                <div class="field">
                    <label for="headers">{ "Headers " }<span class="hint">{ "(one Name: value per line)" }</span></label>
                    <div class="presets" role="group" aria-label="Header presets">
                        { preset_menu("accept-preset", "Accept", "Accept", ACCEPT, accept_ref, accept_choice) }
                        { preset_menu("ct-preset", "Content-Type", "Content-Type", CONTENT_TYPE, ct_ref, ct_choice) }
                        <label class="check inline" title="Accept-Encoding: gzip (gate APIResponseCompression)">
                            <input type="checkbox" id="gzip" checked={gzip} onchange={on_gzip} />{ " gzip" }
                        </label>
                    </div>
                    <textarea id="headers" rows={draft.headers.lines().count().clamp(1, 6).to_string()} spellcheck="false"
                        placeholder="Accept: application/json"
                        value={draft.headers.clone()} oninput={on_headers} />
                </div>
                <div class="field">
                    <div class="line">
                        <label for="body">{ "Body " }<span class="hint">{ "(JSON or YAML)" }</span></label>
                        <label for="body-template" class="sr-only">{ "Body template" }</label>
                        <select id="body-template" class="template" onchange={on_template}>
                            <option value="" selected=true>{ "Templates…" }</option>
                            { for BODIES.iter().map(|t| html! {
                                <option value={t.label}>{ format!("{} ({})", t.label, t.method) }</option>
                            }) }
                        </select>
                    </div>
                    <textarea id="body" rows={body_rows} spellcheck="false"
                        placeholder={placeholder}
                        value={draft.body.clone()} oninput={on_body} />
                </div>
            </form>
            <CopyAs />
        </section>
    }
}

/// The option of a header whose value no preset has.
const CUSTOM: &str = "custom";

/// The option a header's preset menu shows: the preset whose value the header has, none
/// (`""`) without the header, [`CUSTOM`] for another value.
fn preset_choice(headers: &str, name: &str, presets: &[HeaderPreset]) -> String {
    let current = query::header(headers, name).unwrap_or_default();
    if current.is_empty() {
        return String::new();
    }
    presets
        .iter()
        .find(|p| p.value == current)
        .map_or(CUSTOM, |p| p.label)
        .to_string()
}
