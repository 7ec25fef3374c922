//! "Copy as curl / kubectl / fetch": the builder's request rendered for a real cluster (or
//! `kubesim serve`), shown so it can be read and selected, and copied with one click where
//! the browser allows clipboard access.

use yew::prelude::*;

use super::app::Ctx;
use crate::ui::curl;
use crate::ui::state::Action;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    Curl,
    Kubectl,
    Fetch,
}

impl Form {
    fn label(self) -> &'static str {
        match self {
            Form::Curl => "curl",
            Form::Kubectl => "kubectl",
            Form::Fetch => "fetch",
        }
    }
}

/// Writes `text` to the clipboard; the notice says whether it worked.
pub fn copy_to_clipboard(text: String, d: yew::UseReducerDispatcher<crate::ui::state::AppState>) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let promise = window.navigator().clipboard().write_text(&text);
    wasm_bindgen_futures::spawn_local(async move {
        let msg = match wasm_bindgen_futures::JsFuture::from(promise).await {
            Ok(_) => "Copied to the clipboard.",
            Err(_) => "The browser refused clipboard access: select the text and copy it.",
        };
        d.dispatch(Action::Notice(Some(msg.into())));
    });
}

/// The "copy as" bar and the rendering it opens.
#[function_component(CopyAs)]
pub fn copy_as() -> Html {
    let ctx = use_context::<Ctx>().expect("Ctx");
    let open = use_state(|| None::<Form>);
    let text = open.map(|f| match f {
        Form::Curl => curl::to_curl(&ctx.draft, curl::DEFAULT_BASE),
        Form::Kubectl => curl::to_kubectl(&ctx.draft),
        Form::Fetch => curl::to_fetch(&ctx.draft, curl::DEFAULT_BASE),
    });
    let buttons = [Form::Curl, Form::Kubectl, Form::Fetch].map(|f| {
        let open2 = open.clone();
        let onclick = Callback::from(move |_: MouseEvent| {
            open2.set(if *open2 == Some(f) { None } else { Some(f) })
        });
        html! {
            <button type="button" class="chip" id={format!("copy-{}", f.label())}
                aria-expanded={(*open == Some(f)).to_string()} aria-controls="copy-text" {onclick}>
                { f.label() }
            </button>
        }
    });
    let copy = text.clone().map(|t| {
        let d = ctx.dispatcher();
        let onclick = Callback::from(move |_: MouseEvent| copy_to_clipboard(t.clone(), d.clone()));
        html! { <button type="button" class="small" id="copy-button" {onclick}>{ "Copy" }</button> }
    });
    html! {
        <div class="copy-as">
            <div class="line" role="group" aria-label="Copy the request as">
                <span class="hint">{ "Copy as:" }</span>
                { for buttons }
                { copy }
            </div>
            if let Some(t) = text {
                <pre id="copy-text" tabindex="0" aria-label="The request as a command">{ t }</pre>
            }
        </div>
    }
}
