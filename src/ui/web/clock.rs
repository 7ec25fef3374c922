//! Time and chaos: the clock (simulated by default, so five minutes pass in one click), the
//! wall-clock toggle, compaction, the watch cache's lag, feature gates, reset, and export and
//! import of the whole cluster.

use wasm_bindgen::JsCast;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::app::Ctx;
use crate::codec::rfc3339;
use crate::features::KNOWN_GATES;
use crate::ui::state::Action;

/// The +10 s / +1 min / +5 min buttons (also in the top bar).
#[derive(Properties, PartialEq)]
pub struct AdvanceProps {
    /// Id prefix, so both copies have unique ids.
    pub prefix: AttrValue,
}

/// Buttons that move simulated time forward.
#[function_component(AdvanceButtons)]
pub fn advance_buttons(props: &AdvanceProps) -> Html {
    let ctx = use_context::<Ctx>().expect("Ctx");
    let steps: [(&str, &str, i64); 3] = [
        ("10s", "+10 s", 10_000),
        ("1m", "+1 min", 60_000),
        ("5m", "+5 min", 300_000),
    ];
    html! {
        <div class="advance" role="group" aria-label="Advance the clock">
            { for steps.iter().map(|(id, label, ms)| {
                let d = ctx.dispatcher();
                let ms = *ms;
                let onclick = Callback::from(move |_: MouseEvent| d.dispatch(Action::Advance(ms)));
                html! {
                    <button type="button" class="small" id={format!("{}advance-{id}", props.prefix)} {onclick}
                        title={format!("Move the clock forward {label}")}>{ *label }</button>
                }
            }) }
        </div>
    }
}

/// The clock as text, e.g. `2026-01-01T00:05:00Z`.
pub fn now_text(ctx: &Ctx) -> (String, bool) {
    let sim = ctx.sim.borrow();
    let c = sim.engine.clock();
    (rfc3339::format(c.now_secs()), c.is_simulated())
}

/// Starts a browser download of `text` as `name`.
fn download(name: &str, text: &str) -> Result<(), wasm_bindgen::JsValue> {
    let parts = js_sys::Array::of1(&text.into());
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type("application/json");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)?;
    let doc = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let a: web_sys::HtmlAnchorElement = doc.create_element("a")?.dyn_into()?;
    a.set_href(&url);
    a.set_download(name);
    a.click();
    web_sys::Url::revoke_object_url(&url)
}

/// The Time & chaos tab.
#[function_component(ClockPanel)]
pub fn clock_panel() -> Html {
    let ctx = use_context::<Ctx>().expect("Ctx");
    let lag_input = use_state(String::new);
    let (now, simulated) = now_text(&ctx);
    let (lag_ms, gates, rev, compacted, cache_rv, oldest) = {
        let sim = ctx.sim.borrow();
        let e = &sim.engine;
        (
            e.cache().config().lag_ms,
            e.feature_gates().clone(),
            e.store().revision(),
            e.store().compacted_revision(),
            e.cache().revision(),
            e.cache().oldest_revision(),
        )
    };
    let d = ctx.dispatcher();
    let on_wall = {
        let d = d.clone();
        Callback::from(move |e: Event| {
            d.dispatch(Action::SetWall(
                e.target_unchecked_into::<HtmlInputElement>().checked(),
            ))
        })
    };
    let compact = {
        let d = d.clone();
        Callback::from(move |_: MouseEvent| d.dispatch(Action::Compact))
    };
    let set_lag = {
        let (d, lag_input) = (d.clone(), lag_input.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            if let Ok(ms) = lag_input.trim().parse::<i64>() {
                d.dispatch(Action::SetLag(ms.max(0)));
            }
        })
    };
    let on_lag = {
        let lag_input = lag_input.clone();
        Callback::from(move |e: InputEvent| {
            lag_input.set(e.target_unchecked_into::<HtmlInputElement>().value())
        })
    };
    let lag_presets = [0i64, 1_000, 2_500, 10_000].map(|ms| {
        let d = d.clone();
        let onclick = Callback::from(move |_: MouseEvent| d.dispatch(Action::SetLag(ms)));
        html! {
            <button type="button" class="chip" aria-pressed={(lag_ms == ms).to_string()} {onclick}>
                { if ms == 0 { "none".to_string() } else { format!("{} s", ms as f64 / 1000.0) } }
            </button>
        }
    });
    let gate_rows = KNOWN_GATES.iter().map(|(name, default)| {
        let on = gates.enabled(name);
        let d = d.clone();
        let name: &'static str = name;
        let onchange = Callback::from(move |e: Event| {
            d.dispatch(Action::SetGate(name, e.target_unchecked_into::<HtmlInputElement>().checked()))
        });
        html! {
            <li>
                <label class="check">
                    <input type="checkbox" id={format!("gate-{name}")} checked={on} {onchange} />
                    { format!(" {name}") }
                    <span class="hint">{ if *default { " (default on)" } else { " (default off)" } }</span>
                </label>
            </li>
        }
    });
    let reset = {
        let d = d.clone();
        Callback::from(move |_: MouseEvent| d.dispatch(Action::Reset))
    };
    let corrupt = {
        let d = d.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let doc = web_sys::window().and_then(|w| w.document());
            let element = |id: &str| doc.as_ref().and_then(|d| d.get_element_by_id(id));
            let path = element("corrupt-path")
                .map(|el| el.unchecked_into::<HtmlInputElement>().value())
                .unwrap_or_default();
            let how = element("corrupt-as")
                .map(|el| el.unchecked_into::<web_sys::HtmlSelectElement>().value())
                .unwrap_or_default();
            d.dispatch(Action::LoadAndSend(crate::ui::exchange::Draft {
                method: "POST".into(),
                path: format!("/kubesim/v1/corrupt?path={}&as={how}", path.trim()),
                ..Default::default()
            }));
        })
    };
    let export = {
        let (sim, d) = (ctx.sim.clone(), d.clone());
        Callback::from(move |_: MouseEvent| {
            let text = serde_json::to_string_pretty(&sim.borrow().engine.export_state())
                .unwrap_or_default();
            let msg = match download("kubesim-state.json", &text) {
                Ok(()) => "State exported to kubesim-state.json.".to_string(),
                Err(_) => "The browser blocked the download.".to_string(),
            };
            d.dispatch(Action::Notice(Some(msg)));
        })
    };
    let import = {
        let d = d.clone();
        Callback::from(move |e: Event| {
            let input = e.target_unchecked_into::<HtmlInputElement>();
            let Some(file) = input.files().and_then(|f| f.get(0)) else {
                return;
            };
            let d = d.clone();
            let promise = file.text();
            input.set_value("");
            wasm_bindgen_futures::spawn_local(async move {
                match wasm_bindgen_futures::JsFuture::from(promise).await {
                    Ok(t) => d.dispatch(Action::Import(t.as_string().unwrap_or_default())),
                    Err(_) => d.dispatch(Action::Notice(Some("Could not read the file.".into()))),
                }
            });
        })
    };
    html! {
        <div class="chaos">
            <section aria-labelledby="clock-title">
                <h3 id="clock-title">{ "Clock" }</h3>
                <p><span class="big" id="chaos-now">{ now }</span>
                   <span class="hint">{ if simulated { " simulated: moves only when advanced" } else { " following the wall clock" } }</span></p>
                <AdvanceButtons prefix="chaos-" />
                <label class="check">
                    <input type="checkbox" id="wall-clock" checked={!simulated} onchange={on_wall} />
                    { " Follow the wall clock (the buttons still jump ahead)" }
                </label>
            </section>
            <section aria-labelledby="compact-title">
                <h3 id="compact-title">{ "Compaction" }</h3>
                <p class="hint">{ format!("Store revision {rev}, compacted up to {compacted}. The store compacts history older than 5 minutes by itself.") }</p>
                <button type="button" id="compact-now" onclick={compact}>{ "Compact now" }</button>
            </section>
            <section aria-labelledby="lag-title">
                <h3 id="lag-title">{ "Watch cache lag" }</h3>
                <p class="hint">{ format!("The cache is at revision {cache_rv} and can replay watches from {oldest}; it sees writes {lag_ms} ms after the store.") }</p>
                <div class="line" role="group" aria-label="Lag presets">{ for lag_presets }</div>
                <form class="line" onsubmit={set_lag}>
                    <label for="lag-ms">{ "Lag (ms)" }</label>
                    <input id="lag-ms" type="number" min="0" step="100" placeholder={lag_ms.to_string()}
                        value={(*lag_input).clone()} oninput={on_lag} />
                    <button type="submit" class="small">{ "Set" }</button>
                </form>
            </section>
            <section aria-labelledby="gates-title">
                <h3 id="gates-title">{ "Feature gates" }</h3>
                <p class="hint">{ "Changing a gate restarts the simulated apiserver with the same data (open watches end)." }</p>
                <ul class="gates">{ for gate_rows }</ul>
            </section>
            <section aria-labelledby="corrupt-title">
                <h3 id="corrupt-title">{ "Corrupt an object" }</h3>
                <p class="hint">{ "Makes an object's stored value unreadable, as when its encryption key is lost: reads from storage fail, the watch cache keeps its last copy, and only a delete with ignoreStoreReadErrorWithClusterBreakingPotential=true (gate AllowUnsafeMalformedObjectDeletion) removes it." }</p>
                <form class="line" onsubmit={corrupt}>
                    <label for="corrupt-path">{ "Object path" }</label>
                    <input id="corrupt-path" size="36" placeholder="/api/v1/namespaces/default/configmaps/NAME" />
                    <select id="corrupt-as" aria-label="How">
                        <option value="undecryptable" selected=true>{ "undecryptable" }</option>
                        <option value="undecodable">{ "undecodable" }</option>
                    </select>
                    <button type="submit" class="small" id="corrupt-now">{ "Corrupt" }</button>
                </form>
            </section>
            <section aria-labelledby="state-title">
                <h3 id="state-title">{ "Cluster state" }</h3>
                <div class="line">
                    <button type="button" id="reset" onclick={reset}>{ "Reset cluster" }</button>
                    <button type="button" id="export" onclick={export}>{ "Export state" }</button>
                    <label for="import" class="button-like">{ "Import state…" }</label>
                    <input id="import" type="file" accept="application/json,.json" class="sr-only" onchange={import} />
                </div>
            </section>
        </div>
    }
}
