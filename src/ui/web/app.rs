//! The page: a top bar (clock, revisions, theme), the builder and response on the left, the
//! watches and the tabs (lessons, semantics tables, store, chaos, history) on the right; one
//! column on a narrow window.
//!
//! The state lives in one reducer ([`crate::ui::state`]) shared through a context; a 100 ms
//! interval drives the engine's `tick` and drains the watches, and the URL fragment is read
//! on load and on `hashchange`, so a shared link opens the request or lesson step it names.

use gloo::events::EventListener;
use gloo::timers::callback::Interval;
use wasm_bindgen::JsCast;
use web_sys::KeyboardEvent;
use yew::prelude::*;

use super::builder::Builder;
use super::clock::{now_text, AdvanceButtons, ClockPanel};
use super::inspector::Inspector;
use super::lessons::Lessons;
use super::recent::Recent;
use super::response::ResponseView;
use super::semantics_table::SemanticsTable;
use super::storage;
use super::watches::Watches;
use crate::ui::share;
use crate::ui::state::{Action, AppState, Tab};

/// What every component reads and dispatches to.
pub type Ctx = UseReducerHandle<AppState>;

const THEME_KEY: &str = "kubesim.playground.theme";

fn location_hash() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// Applies a theme (`auto`, `light`, `dark`) to `<html data-theme>`.
fn apply_theme(theme: &str) {
    if let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = root.set_attribute("data-theme", theme);
    }
}

/// Light, dark, or following the system; remembered across visits.
#[function_component(ThemeToggle)]
fn theme_toggle() -> Html {
    let theme = use_state(|| {
        storage()
            .and_then(|s| s.get_item(THEME_KEY).ok().flatten())
            .filter(|t| matches!(t.as_str(), "light" | "dark"))
            .unwrap_or_else(|| "auto".into())
    });
    {
        let t = (*theme).clone();
        use_effect_with(t, |t| apply_theme(t));
    }
    let onclick = {
        let theme = theme.clone();
        Callback::from(move |_: MouseEvent| {
            let next = match theme.as_str() {
                "auto" => "light",
                "light" => "dark",
                _ => "auto",
            };
            if let Some(s) = storage() {
                let _ = s.set_item(THEME_KEY, next);
            }
            theme.set(next.into());
        })
    };
    html! {
        <button type="button" class="small" id="theme" {onclick}
            title="Switch between light, dark and the system's theme">
            { format!("Theme: {}", *theme) }
        </button>
    }
}

/// The top bar: title, clock, revisions and the quick time buttons.
#[function_component(TopBar)]
fn top_bar() -> Html {
    let ctx = use_context::<Ctx>().expect("Ctx");
    let (now, simulated) = now_text(&ctx);
    let (rev, cache_rv, watches) = {
        let sim = ctx.sim.borrow();
        (
            sim.engine.store().revision(),
            sim.engine.cache().revision(),
            sim.open_watches(),
        )
    };
    html! {
        <header class="topbar">
            <div class="brand">
                <h1>{ "kubesim playground" }</h1>
                <p class="lede">{ "A simulated Kubernetes API server running in this tab. Nothing leaves your browser." }</p>
            </div>
            <div class="status-strip" role="group" aria-label="Cluster status">
                <span id="clock-now" title={if simulated { "Simulated time" } else { "Wall-clock time" }}>
                    { now.replace('T', " ").replace('Z', "") }
                    <span class="hint">{ if simulated { " sim" } else { " wall" } }</span>
                </span>
                <span id="store-rev" title="The store's revision (and the watch cache's)">
                    { format!("rev {rev}") }
                    if cache_rv != rev { <span class="lagging">{ format!(" (cache {cache_rv})") }</span> }
                </span>
                if watches > 0 { <span class="hint">{ format!("{watches} watching") }</span> }
                <AdvanceButtons prefix="" />
                <ThemeToggle />
            </div>
            <super::identity::IdentitySwitch />
        </header>
    }
}

/// The tab strip and the selected tab (WAI-ARIA tabs: arrow keys move between tabs).
#[function_component(SideTabs)]
fn side_tabs() -> Html {
    let ctx = use_context::<Ctx>().expect("Ctx");
    let current = ctx.tab;
    let onkeydown = {
        let d = ctx.dispatcher();
        Callback::from(move |e: KeyboardEvent| {
            // Arrows move from the focused tab (which may not be the selected one).
            let focused = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .map(|el| el.id())
                .unwrap_or_default();
            let i = Tab::ALL
                .iter()
                .position(|t| format!("tab-{}", t.id()) == focused)
                .or_else(|| Tab::ALL.iter().position(|t| *t == current))
                .unwrap_or(0);
            let n = Tab::ALL.len();
            let next = match e.key().as_str() {
                "ArrowRight" => (i + 1) % n,
                "ArrowLeft" => (i + n - 1) % n,
                "Home" => 0,
                "End" => n - 1,
                _ => return,
            };
            e.prevent_default();
            d.dispatch(Action::Tab(Tab::ALL[next]));
            super::response::focus(&format!("tab-{}", Tab::ALL[next].id()));
        })
    };
    let tabs = Tab::ALL.iter().map(|t| {
        let selected = *t == current;
        let d = ctx.dispatcher();
        let tab = *t;
        let onclick = Callback::from(move |_: MouseEvent| d.dispatch(Action::Tab(tab)));
        let label = match (tab, &ctx.lesson) {
            (Tab::Lessons, Some(run)) => {
                format!("Lessons ({}/{})", run.step + 1, run.lesson.steps.len())
            }
            (Tab::History, _) if !ctx.history.is_empty() => {
                format!("History ({})", ctx.history.len())
            }
            _ => t.label().to_string(),
        };
        html! {
            <button type="button" role="tab" id={format!("tab-{}", t.id())}
                aria-selected={selected.to_string()} aria-controls={format!("panel-{}", t.id())}
                tabindex={if selected { "0" } else { "-1" }} {onclick}>
                { label }
            </button>
        }
    });
    let body = match current {
        Tab::Lessons => html! { <Lessons /> },
        Tab::Terminal => html! { <super::terminal::TerminalPane /> },
        Tab::Semantics => html! { <SemanticsTable /> },
        Tab::Store => html! { <Inspector /> },
        Tab::Chaos => html! { <ClockPanel /> },
        Tab::History => html! { <Recent /> },
    };
    html! {
        <section class="panel tabs">
            <div class="tablist" role="tablist" aria-label="Tools" {onkeydown}>{ for tabs }</div>
            <div class="tabpanel" role="tabpanel" id={format!("panel-{}", current.id())}
                aria-labelledby={format!("tab-{}", current.id())} tabindex="0">
                { body }
            </div>
        </section>
    }
}

/// A one-line message (copied, imported, watch opened…), announced politely.
#[function_component(NoticeBar)]
fn notice_bar() -> Html {
    let ctx = use_context::<Ctx>().expect("Ctx");
    {
        // Each notice goes away by itself after a few seconds.
        let d = ctx.dispatcher();
        use_effect_with(ctx.notice.clone(), move |n| {
            let timer = n.is_some().then(|| {
                gloo::timers::callback::Timeout::new(5_000, move || {
                    d.dispatch(Action::Notice(None))
                })
            });
            move || drop(timer)
        });
    }
    let dismiss = {
        let d = ctx.dispatcher();
        Callback::from(move |_: MouseEvent| d.dispatch(Action::Notice(None)))
    };
    html! {
        <div class="notice" role="status" aria-live="polite" id="notice">
            if let Some(n) = &ctx.notice {
                <span>{ n.clone() }</span>
                <button type="button" class="small" onclick={dismiss} aria-label="Dismiss">{ "×" }</button>
            }
        </div>
    }
}

/// The playground page.
#[function_component(App)]
pub fn app() -> Html {
    let state = use_reducer(super::initial_state);
    {
        // The heartbeat: tick the engine (bookmarks, timeouts, cache lag, wall time) and
        // drain the watches.
        let d = state.dispatcher();
        use_effect_with((), move |_| {
            let interval = Interval::new(100, move || d.dispatch(Action::Poll));
            move || drop(interval)
        });
    }
    {
        // A link opens what it names; without one, list the namespaces so a first-time
        // visitor sees a real answer at once.
        let d = state.dispatcher();
        use_effect_with((), move |_| {
            match share::decode_hash(&location_hash()) {
                Some(shared) => d.dispatch(Action::Open(shared)),
                None => d.dispatch(Action::Send),
            }
            let window = web_sys::window();
            let hash = window.as_ref().map(|w| {
                let d = d.clone();
                EventListener::new(w, "hashchange", move |_| {
                    if let Some(shared) = share::decode_hash(&location_hash()) {
                        d.dispatch(Action::Open(shared));
                    }
                })
            });
            move || drop(hash)
        });
    }
    let skip = Callback::from(|e: MouseEvent| {
        // Focus the builder without touching the URL fragment (it holds the shared request).
        e.prevent_default();
        super::response::focus("method");
    });
    // Ctrl+Enter (Cmd+Enter) sends from anywhere in the page, e.g. right after "Next step"
    // in a lesson, not only from inside the builder.
    let onkeydown = {
        let d = state.dispatcher();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Enter" && (e.ctrl_key() || e.meta_key()) {
                e.prevent_default();
                d.dispatch(Action::Send);
            }
        })
    };
    let in_lesson = state.lesson.is_some() || state.challenge.is_some();
    html! {
        <ContextProvider<Ctx> context={state}>
          <div class={classes!("app", in_lesson.then_some("in-lesson"))} {onkeydown}>
            <a class="skip" href="#method" onclick={skip}>{ "Skip to the request builder" }</a>
            <TopBar />
            <main class="layout">
                <div class="col-main">
                    <Builder />
                    <ResponseView />
                </div>
                <div class="col-side">
                    <Watches />
                    <SideTabs />
                </div>
            </main>
            <NoticeBar />
          </div>
        </ContextProvider<Ctx>>
    }
}
