//! The browser playground: a request form in front of an engine that runs in the tab.
//!
//! There is no server behind the page: `kubesim` compiled to WebAssembly handles every
//! request synchronously inside the page, so the playground works offline and each tab is
//! its own cluster. The page is deliberately small (method, path, headers, body, response);
//! element ids (`#method`, `#path`, `#headers`, `#body`, `#send`, `#status`,
//! `#resp-headers`, `#resp-body`) are stable because the end-to-end tests drive them.

pub mod exchange;

use std::cell::RefCell;
use std::rc::Rc;

use web_sys::{HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

use crate::clock::TimeSource;
use crate::engine::{Config, Engine};
use exchange::{Draft, Exchange, METHODS};

/// Wall time from the browser (`Date.now()`), so timestamps in the playground are real.
#[derive(Debug, Default, Clone, Copy)]
pub struct JsDateTimeSource;

impl TimeSource for JsDateTimeSource {
    fn now_ms(&self) -> i64 {
        js_sys::Date::now() as i64
    }
}

/// The path the page lists on load, so a first-time visitor sees a real answer at once.
pub const DEFAULT_PATH: &str = "/api/v1/namespaces";

/// A canned request the example buttons put into the form.
struct Example {
    label: &'static str,
    method: &'static str,
    path: &'static str,
    body: &'static str,
}

/// A short tour: list, create, read back, and a miss (a NotFound Status).
const EXAMPLES: &[Example] = &[
    Example {
        label: "List namespaces",
        method: "GET",
        path: DEFAULT_PATH,
        body: "",
    },
    Example {
        label: "Create a ControllerRevision",
        method: "POST",
        path: "/apis/apps/v1/namespaces/default/controllerrevisions",
        body: "{\n  \"apiVersion\": \"apps/v1\",\n  \"kind\": \"ControllerRevision\",\n  \"metadata\": {\"name\": \"r1\"},\n  \"data\": {\"a\": 1},\n  \"revision\": 1\n}",
    },
    Example {
        label: "Get it",
        method: "GET",
        path: "/apis/apps/v1/namespaces/default/controllerrevisions/r1",
        body: "",
    },
    Example {
        label: "Delete it",
        method: "DELETE",
        path: "/apis/apps/v1/namespaces/default/controllerrevisions/r1",
        body: "",
    },
];

/// What the response panel shows.
#[derive(Debug, Clone, PartialEq)]
enum Outcome {
    /// Nothing sent yet.
    Idle,
    /// The engine answered.
    Answered(Exchange),
    /// The form did not make a valid request (nothing was sent).
    Invalid(String),
}

/// The playground page.
#[function_component(App)]
pub fn app() -> Html {
    let engine: Rc<RefCell<Engine>> = use_mut_ref(|| {
        Engine::new(Config {
            time_source: Some(Box::new(JsDateTimeSource)),
            ..Default::default()
        })
    });
    let method = use_state(|| "GET".to_string());
    let path = use_state(|| DEFAULT_PATH.to_string());
    let headers = use_state(String::new);
    let body = use_state(String::new);
    let outcome = use_state(|| (0u32, Outcome::Idle));

    let send = {
        let (engine, outcome) = (engine.clone(), outcome.clone());
        let (method, path, headers, body) =
            (method.clone(), path.clone(), headers.clone(), body.clone());
        Callback::from(move |()| {
            let draft = Draft {
                method: (*method).clone(),
                path: (*path).clone(),
                headers: (*headers).clone(),
                body: (*body).clone(),
            };
            let result = exchange::send(&mut engine.borrow_mut(), &draft);
            let seq = outcome.0 + 1;
            outcome.set((
                seq,
                match result {
                    Ok(x) => Outcome::Answered(x),
                    Err(e) => Outcome::Invalid(e),
                },
            ));
        })
    };

    // List namespaces once on load.
    {
        let send = send.clone();
        use_effect_with((), move |_| send.emit(()));
    }

    let onsubmit = {
        let send = send.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            send.emit(());
        })
    };
    let onkeydown = {
        let send = send.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Enter" && (e.ctrl_key() || e.meta_key()) {
                e.prevent_default();
                send.emit(());
            }
        })
    };
    let on_method = {
        let method = method.clone();
        Callback::from(move |e: Event| {
            method.set(e.target_unchecked_into::<HtmlSelectElement>().value())
        })
    };
    let on_path = {
        let path = path.clone();
        Callback::from(move |e: InputEvent| {
            path.set(e.target_unchecked_into::<HtmlInputElement>().value())
        })
    };
    let on_headers = {
        let headers = headers.clone();
        Callback::from(move |e: InputEvent| {
            headers.set(e.target_unchecked_into::<HtmlTextAreaElement>().value())
        })
    };
    let on_body = {
        let body = body.clone();
        Callback::from(move |e: InputEvent| {
            body.set(e.target_unchecked_into::<HtmlTextAreaElement>().value())
        })
    };

    let examples = EXAMPLES.iter().map(|ex| {
        let (method, path, body) = (method.clone(), path.clone(), body.clone());
        let onclick = Callback::from(move |_: MouseEvent| {
            method.set(ex.method.to_string());
            path.set(ex.path.to_string());
            body.set(ex.body.to_string());
        });
        html! { <li><button type="button" class="example" {onclick}>{ ex.label }</button></li> }
    });

    html! {
        <main>
            <header>
                <h1>{ "kubesim playground" }</h1>
                <p class="lede">
                    { "A simulated Kubernetes API server, running in this tab as WebAssembly. \
                       Send it requests; nothing leaves your browser." }
                </p>
            </header>
            <form class="request" {onsubmit} {onkeydown} aria-label="Request">
                <div class="line">
                    <label for="method">{ "Method" }</label>
                    <select id="method" onchange={on_method}>
                        { for METHODS.iter().map(|m| html! {
                            <option value={*m} selected={*method == *m}>{ *m }</option>
                        }) }
                    </select>
                    <label for="path">{ "Path" }</label>
                    <input id="path" type="text" spellcheck="false" autocomplete="off"
                        value={(*path).clone()} oninput={on_path} />
                    <button id="send" type="submit" title="Send (Ctrl+Enter)">{ "Send" }</button>
                </div>
                <label for="headers">{ "Headers " }<span class="hint">{ "(optional, one Name: value per line)" }</span></label>
                <textarea id="headers" rows="2" spellcheck="false"
                    placeholder="Accept: application/json"
                    value={(*headers).clone()} oninput={on_headers} />
                <label for="body">{ "Body " }<span class="hint">{ "(JSON; Ctrl+Enter sends)" }</span></label>
                <textarea id="body" rows="8" spellcheck="false"
                    placeholder="{\"apiVersion\": \"v1\", \"kind\": \"Namespace\", \"metadata\": {\"name\": \"demo\"}}"
                    value={(*body).clone()} oninput={on_body} />
                <nav aria-label="Examples">
                    <span class="hint">{ "Examples:" }</span>
                    <ul class="examples">{ for examples }</ul>
                </nav>
            </form>
            { view_outcome(outcome.0, &outcome.1) }
        </main>
    }
}

/// The response panel. `#status` is a live region so screen readers announce each answer;
/// its `data-seq` counts sends, so tests can wait for *this* answer rather than the last.
fn view_outcome(seq: u32, outcome: &Outcome) -> Html {
    let (class, status, headers, body) = match outcome {
        Outcome::Idle => ("idle", String::from("…"), String::new(), String::new()),
        Outcome::Invalid(msg) => (
            "invalid",
            format!("Not sent: {msg}"),
            String::new(),
            String::new(),
        ),
        Outcome::Answered(x) => {
            let class = if x.code < 400 { "ok" } else { "error" };
            let headers = x
                .headers
                .iter()
                .map(|(k, v)| format!("{k}: {v}"))
                .collect::<Vec<_>>()
                .join("\n");
            (class, x.status_line.clone(), headers, x.body.clone())
        }
    };
    html! {
        <section class="response" aria-label="Response">
            <h2>{ "Response" }</h2>
            <p id="status" class={classes!("status", class)} data-seq={seq.to_string()}
                role="status" aria-live="polite">{ status }</p>
            <details open=true>
                <summary>{ "Headers" }</summary>
                <pre id="resp-headers" tabindex="0">{ headers }</pre>
            </details>
            <pre id="resp-body" tabindex="0" aria-label="Response body">{ body }</pre>
        </section>
    }
}

/// Mounts the playground on `<body>`; called by the `kubesim` binary's `main` on wasm32.
pub fn start() {
    yew::Renderer::<App>::new().render();
}
