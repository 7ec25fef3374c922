//! The terminal pane: kubectl against the cluster in this tab. Each command's output is
//! shown as kubectl prints it; with `-v=6|7|8` each request line is a button that opens that
//! request in the builder, with the read badge of its response beside it. Keys: Enter runs
//! (inside an open here-document it adds a line), Shift+Enter adds a line, ArrowUp/ArrowDown
//! walk the history, Tab completes, Ctrl+C ends a running `get -w` (and copies when text is
//! selected). The manifest editor below is standard input for `-f -` without a
//! here-document.

use web_sys::{HtmlTextAreaElement, KeyboardEvent};
use yew::prelude::*;

use super::app::Ctx;
use crate::kubectl::Stream;
use crate::ui::badge::ReadBadge;
use crate::ui::state::Action;
use crate::ui::terminal::{self, TermEntry};

fn request_line(line: &str) -> bool {
    ["round_trippers.go:470] ", "round_trippers.go:560] "]
        .iter()
        .any(|m| line.contains(m))
}

fn entry_view(ctx: &Ctx, e: &TermEntry) -> Html {
    let mut k = 0usize;
    let mut lines = Vec::new();
    for (stream, text) in &e.pieces {
        for line in text.split_inclusive('\n') {
            let class = if *stream == Stream::Err {
                "term-err"
            } else {
                "term-line"
            };
            if *stream == Stream::Err && request_line(line) && k < e.sent.len() {
                let (id, index) = (e.id, k);
                let d = ctx.dispatcher();
                let onclick = Callback::from(move |_: MouseEvent| {
                    d.dispatch(Action::TermOpen(id, index));
                    super::response::focus("method");
                });
                let badge = e.sent[k].read.as_deref().map(ReadBadge::parse);
                k += 1;
                lines.push(html! {
                    <span class={class}>
                        <button type="button" class="link term-req" {onclick}
                            title="Open this request in the builder">{ line.trim_end() }</button>
                        if let Some(b) = badge {
                            <span class="badge term-badge" title={b.meaning()}>{ b.label() }</span>
                        }
                        { "\n" }
                    </span>
                });
            } else {
                lines.push(html! { <span class={class}>{ line }</span> });
            }
        }
    }
    html! {
        <div class="term-entry" data-exit={e.exit.to_string()}>
            <div class="term-cmd">{ format!("$ {}", e.command) }</div>
            <pre class="term-out">{ for lines }</pre>
            if e.running {
                <div class="hint term-running">{ running_hint(&e.command) }</div>
            }
        </div>
    }
}

fn running_hint(command: &str) -> &'static str {
    if command.split_whitespace().nth(1) == Some("edit") {
        "waiting for the editor below… save, or quit without saving"
    } else {
        "watching… Ctrl+C to stop"
    }
}

/// `kubectl edit`'s editor: the file kubectl wrote, saved or quit as an editor is.
fn editor_view(ctx: &Ctx, file: &str, text: &str) -> Html {
    let oninput = {
        let terminal = ctx.terminal.clone();
        Callback::from(move |e: InputEvent| {
            let value = e.target_unchecked_into::<HtmlTextAreaElement>().value();
            terminal.borrow_mut().set_edit_text(value);
        })
    };
    let close = |save: bool| {
        let d = ctx.dispatcher();
        Callback::from(move |_: MouseEvent| d.dispatch(Action::TermEditClose(save)))
    };
    let onkeydown = {
        let d = ctx.dispatcher();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "s" && (e.ctrl_key() || e.meta_key()) {
                e.prevent_default();
                d.dispatch(Action::TermEditClose(true));
            }
        })
    };
    let rows = text.lines().count().clamp(6, 24).to_string();
    html! {
        <section id="term-editor" class="term-editor" aria-label="Editor for kubectl edit">
            <label for="term-edit-text" class="hint">
                { format!("kubectl edit is waiting for its editor: {file}. Ctrl+S saves.") }
            </label>
            <textarea id="term-edit-text" rows={rows} spellcheck="false" wrap="off"
                value={text.to_string()} {oninput} {onkeydown} />
            <div class="row">
                <button type="button" id="term-edit-save" onclick={close(true)}>{ "Save and close" }</button>
                <button type="button" id="term-edit-quit" class="small" onclick={close(false)}>{ "Quit without saving" }</button>
            </div>
        </section>
    }
}

#[function_component(TerminalPane)]
pub fn terminal_pane() -> Html {
    let ctx = use_context::<Ctx>().expect("Ctx");
    let input = use_state(String::new);
    let manifest = use_state(String::new);
    let choices = use_state(Vec::<String>::new);
    {
        // New output scrolls into view, as a terminal keeps its last line in sight.
        use_effect_with(ctx.version, |_| {
            if let Some(el) = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.get_element_by_id("term-output"))
            {
                el.set_scroll_top(el.scroll_height());
            }
        });
    }
    let oninput = {
        let input = input.clone();
        Callback::from(move |e: InputEvent| {
            input.set(e.target_unchecked_into::<HtmlTextAreaElement>().value())
        })
    };
    let on_manifest = {
        let manifest = manifest.clone();
        Callback::from(move |e: InputEvent| {
            manifest.set(e.target_unchecked_into::<HtmlTextAreaElement>().value())
        })
    };
    let run = {
        let (ctx, input, manifest, choices) = (
            ctx.clone(),
            input.clone(),
            manifest.clone(),
            choices.clone(),
        );
        move || {
            let mut line = (*input).clone();
            if line.contains("-f -") && !line.contains("<<") && !line.contains('\n') {
                line = format!("{line}\n{}", *manifest);
            }
            ctx.dispatch(Action::TermRun(line));
            input.set(String::new());
            choices.set(Vec::new());
        }
    };
    let onkeydown = {
        let (ctx, input, choices) = (ctx.clone(), input.clone(), choices.clone());
        let run = run.clone();
        Callback::from(move |e: KeyboardEvent| {
            let text = (*input).clone();
            match e.key().as_str() {
                "Enter"
                    if !e.shift_key()
                        && !e.ctrl_key()
                        && !e.meta_key()
                        && terminal::complete_line(&text) =>
                {
                    e.prevent_default();
                    run();
                }
                "ArrowUp" if !text.contains('\n') => {
                    if let Some(l) = ctx.terminal.borrow_mut().history_up(&text) {
                        e.prevent_default();
                        input.set(l);
                    }
                }
                "ArrowDown" if !text.contains('\n') => {
                    if let Some(l) = ctx.terminal.borrow_mut().history_down() {
                        e.prevent_default();
                        input.set(l);
                    }
                }
                "Tab" if !e.shift_key() => {
                    e.prevent_default();
                    let resources = ctx.sim.borrow().resources.clone();
                    let namespace =
                        terminal::namespace_of(&text, &ctx.terminal.borrow().kubectl.namespace());
                    let sim = ctx.sim.clone();
                    let done = ctx.terminal.borrow().complete(&text, &resources, |r| {
                        terminal::object_names(&mut sim.borrow_mut().engine, r, &namespace)
                    });
                    input.set(done.line);
                    choices.set(done.choices);
                }
                "c" if e.ctrl_key() => {
                    let selected = web_sys::window()
                        .and_then(|w| w.get_selection().ok().flatten())
                        .map(|s| !s.is_collapsed())
                        .unwrap_or(false);
                    if !selected && ctx.terminal.borrow().watching() {
                        e.prevent_default();
                        ctx.dispatch(Action::TermInterrupt);
                    }
                }
                _ => {}
            }
        })
    };
    let onclick = {
        let run = run.clone();
        Callback::from(move |_: MouseEvent| run())
    };
    let stop = {
        let d = ctx.dispatcher();
        Callback::from(move |_: MouseEvent| d.dispatch(Action::TermInterrupt))
    };
    let term = ctx.terminal.borrow();
    let entries = term.entries.iter().map(|e| entry_view(&ctx, e));
    let watching = term.watching();
    let editor = term
        .editing()
        .map(|(file, text)| editor_view(&ctx, file, text));
    let rows = input.lines().count().clamp(1, 12).to_string();
    html! {
        <section id="terminal" class="terminal" aria-label="kubectl terminal">
            <p class="hint">
                { "kubectl v1.32 against this tab's cluster. Try " }
                <code>{ "kubectl get ns" }</code>{ ", " }<code>{ "kubectl get cm -A -v=6" }</code>
                { " or " }<code>{ "kubectl get ns -w" }</code>
                { ". Request lines (-v=6 and up) open in the builder." }
            </p>
            <div id="term-output" class="term-output" role="log" aria-live="polite" aria-label="Terminal output">
                { for entries }
            </div>
            <div class="term-prompt">
                <label for="term-input" class="term-ps1">{ "$" }</label>
                <textarea id="term-input" class="term-input" rows={rows} spellcheck="false"
                    autocomplete="off" aria-label="kubectl command"
                    aria-describedby="term-keys"
                    value={(*input).clone()} {oninput} {onkeydown} />
                <button type="button" id="term-run" {onclick}>{ "Run" }</button>
                if watching {
                    <button type="button" id="term-stop" class="small" onclick={stop}>{ "Stop (Ctrl+C)" }</button>
                }
            </div>
            { for editor }
            if !choices.is_empty() {
                <div id="term-choices" class="term-choices" role="status">{ choices.join("  ") }</div>
            }
            <p id="term-keys" class="hint">{ "Enter runs, Shift+Enter adds a line, ↑/↓ history, Tab completes, Ctrl+C stops a watch." }</p>
            <details class="term-manifest">
                <summary>{ "Manifest editor (standard input for -f -)" }</summary>
                <textarea id="term-manifest" rows="8" spellcheck="false" aria-label="Manifest for -f -"
                    value={(*manifest).clone()} oninput={on_manifest} />
            </details>
        </section>
    }
}
