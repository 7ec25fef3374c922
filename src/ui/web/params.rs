//! The query-parameter form: one labelled input per generic parameter of the spec, with the
//! spec's one-line explanation under it. It edits the path's query in place (see
//! [`crate::ui::query`]), so the path box and the form never disagree.

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::app::Ctx;
use crate::ui::query::{self, Param, ParamType, PARAMS};
use crate::ui::state::Action;

/// The parameters form (a disclosure showing how many parameters are set).
#[function_component(Params)]
pub fn params() -> Html {
    let ctx = use_context::<Ctx>().expect("Ctx");
    let show_all = use_state(|| false);
    let path = ctx.draft.path.clone();
    // Closed unless the first request already has parameters: the form is long, and the
    // response should stay in sight on a laptop screen. After that it is the user's.
    let initially_open = use_state(|| !query::pairs(&path).is_empty());
    let method = ctx.draft.method.trim().to_ascii_uppercase();
    let set_count = query::pairs(&path).len();

    let shown: Vec<&'static Param> = PARAMS
        .iter()
        .filter(|p| *show_all || query::applies(p, &method))
        .collect();
    let rows = shown.iter().map(|p| {
        let value = query::get(&path, p.name);
        let id = format!("param-{}", p.name);
        let help_id = format!("{id}-help");
        let set = {
            let (d, path) = (ctx.dispatcher(), path.clone());
            let name = p.name;
            move |v: String| {
                let v = (!v.is_empty()).then_some(v);
                d.dispatch(Action::SetPath(query::set(&path, name, v.as_deref())));
            }
        };
        let input = match p.ty {
            ParamType::Boolean | ParamType::Choice(_) => {
                let choices: &[&str] = match p.ty {
                    ParamType::Choice(c) => c,
                    _ => &["true", "false"],
                };
                let current = value.clone().unwrap_or_default();
                let known = current.is_empty() || choices.contains(&current.as_str());
                let onchange = Callback::from(move |e: Event| {
                    set(e.target_unchecked_into::<HtmlSelectElement>().value())
                });
                html! {
                    <select id={id.clone()} aria-describedby={help_id.clone()} {onchange}>
                        <option value="" selected={current.is_empty()}>{ "(unset)" }</option>
                        { for choices.iter().map(|c| html! {
                            <option value={*c} selected={current == *c}>{ *c }</option>
                        }) }
                        if !known {
                            <option value={current.clone()} selected=true>{ current.clone() }</option>
                        }
                    </select>
                }
            }
            ParamType::Integer | ParamType::Text => {
                let oninput = Callback::from(move |e: InputEvent| {
                    set(e.target_unchecked_into::<HtmlInputElement>().value())
                });
                // A text box either way, numeric keyboard for integers: the path may hold
                // anything (`limit=abc`, which the server refuses), and a number input
                // would show it blank and warn in the console instead.
                let mode = if p.ty == ParamType::Integer { "numeric" } else { "text" };
                html! {
                    <input id={id.clone()} type="text" inputmode={mode} spellcheck="false" autocomplete="off"
                        aria-describedby={help_id.clone()}
                        value={value.clone().unwrap_or_default()} {oninput} />
                }
            }
        };
        html! {
            <div class={classes!("param", value.is_some().then_some("set"))}>
                <label for={id.clone()}><code>{ p.name }</code></label>
                { input }
                <p id={help_id} class="help">{ p.help }</p>
            </div>
        }
    });
    let toggle = {
        let show_all = show_all.clone();
        Callback::from(move |e: Event| {
            show_all.set(e.target_unchecked_into::<HtmlInputElement>().checked())
        })
    };
    html! {
        <details class="params" open={*initially_open}>
            <summary>
                { "Query parameters" }
                if set_count > 0 {
                    <span class="count">{ format!(" ({set_count} set)") }</span>
                }
            </summary>
            <div class="param-grid">{ for rows }</div>
            <label class="check">
                <input type="checkbox" id="params-all" checked={*show_all} onchange={toggle} />
                { format!(" Show every parameter (not only those for {method})") }
            </label>
        </details>
    }
}
