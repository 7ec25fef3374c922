//! The History tab: recent requests (kept in local storage), newest first; a click loads one
//! back into the builder.

use yew::prelude::*;

use super::app::Ctx;
use crate::ui::state::Action;

/// The History tab.
#[function_component(Recent)]
pub fn recent() -> Html {
    let ctx = use_context::<Ctx>().expect("Ctx");
    if ctx.history.is_empty() {
        return html! { <p class="hint">{ "Requests you send appear here, and stay after a reload." }</p> };
    }
    let d = ctx.dispatcher();
    let clear = {
        let d = d.clone();
        Callback::from(move |_: MouseEvent| d.dispatch(Action::ClearHistory))
    };
    html! {
        <div class="recent">
            <ol class="history" id="history-list">
                { for ctx.history.iter().map(|e| {
                    let d = d.clone();
                    let draft = e.draft();
                    let onclick = Callback::from(move |_: MouseEvent| d.dispatch(Action::Load(draft.clone())));
                    let class = if e.code < 400 { "ok" } else { "error" };
                    html! {
                        <li>
                            <button type="button" class="history-item" {onclick} title="Load into the builder">
                                <span class={classes!("code", class)}>{ e.code }</span>
                                <span class="method">{ e.method.clone() }</span>
                                <code>{ e.path.clone() }</code>
                            </button>
                        </li>
                    }
                }) }
            </ol>
            <button type="button" class="small" id="history-clear" onclick={clear}>{ "Clear history" }</button>
        </div>
    }
}
