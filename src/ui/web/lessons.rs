//! The Lessons tab: the catalogue, and a running lesson shown as a stepper. Each step loads
//! its request into the builder, says what to expect and what to notice, and records what the
//! request actually answered, so a surprise is visible rather than silently skipped.

use yew::prelude::*;

use super::app::Ctx;
use crate::ui::lesson_data::LESSONS;
use crate::ui::predict::Predict;
use crate::ui::state::{Action, LessonRun, LessonStart};
use crate::ui::{lesson_check, lesson_data};

/// The Lessons tab.
#[function_component(Lessons)]
pub fn lessons() -> Html {
    let ctx = use_context::<Ctx>().expect("Ctx");
    // A lesson started from its card (Enter or a click) replaces the card: focus moves to
    // the step's Run button, inside the lesson, rather than falling back to the page.
    use_effect_with(ctx.lesson.as_ref().map(|r| r.lesson.id), |started| {
        if started.is_some() {
            super::response::focus_in_place("step-run");
        }
    });
    match (&ctx.lesson, &ctx.challenge) {
        (Some(run), _) => stepper(run, &ctx),
        (None, Some(run)) => super::challenges::challenge_view(run, &ctx),
        (None, None) => catalogue(&ctx),
    }
}

/// The question a lesson's start asks on a cluster changed by hand.
fn confirm(ctx: &Ctx) -> Html {
    let Some(lesson) = ctx.confirm_lesson.and_then(lesson_data::find) else {
        return html! {};
    };
    let answer = |how: LessonStart| {
        let d = ctx.dispatcher();
        Callback::from(move |_: MouseEvent| d.dispatch(Action::ConfirmLesson(how)))
    };
    html! {
        <div class="confirm" id="lesson-confirm" role="alertdialog" aria-labelledby="lesson-confirm-title">
            <p id="lesson-confirm-title">
                <strong>{ format!("Start \u{201c}{}\u{201d}?", lesson.title) }</strong>
                { " Your cluster has changes. The lesson's text expects a fresh cluster (its resourceVersions are as written); yours can be brought back afterwards." }
            </p>
            <div class="line">
                <button type="button" class="primary" id="lesson-fresh" onclick={answer(LessonStart::Fresh)}>{ "Start on a fresh cluster" }</button>
                <button type="button" id="lesson-keep" onclick={answer(LessonStart::Keep)}>{ "Start on my cluster" }</button>
                <button type="button" id="lesson-cancel" onclick={answer(LessonStart::Cancel)}>{ "Cancel" }</button>
            </div>
        </div>
    }
}

/// The way back to the cluster a lesson's fresh start set aside.
fn undo(ctx: &Ctx) -> Html {
    if ctx.set_aside.is_none() {
        return html! {};
    }
    let d = ctx.dispatcher();
    let onclick = Callback::from(move |_: MouseEvent| d.dispatch(Action::UndoLessonReset));
    html! {
        <p class="hint set-aside">
            { "The cluster you had before the lesson was set aside. " }
            <button type="button" class="small" id="lesson-undo" {onclick}>{ "Bring it back" }</button>
        </p>
    }
}

fn catalogue(ctx: &Ctx) -> Html {
    html! {
        <div class="lessons">
            { confirm(ctx) }
            { undo(ctx) }
            <p class="hint">{ "Each lesson starts from a fresh simulated cluster and walks through one part of the spec, one request at a time." }</p>
            <ol class="lesson-list">
                { for LESSONS.iter().map(|l| {
                    let d = ctx.dispatcher();
                    let id = l.id;
                    let onclick = Callback::from(move |_: MouseEvent| d.dispatch(Action::StartLesson(id)));
                    html! {
                        <li>
                            <button type="button" class="lesson-start" id={format!("lesson-{}", l.id)} {onclick}>
                                <strong>{ l.title }</strong>
                                <span class="hint">{ format!("{} ({} steps)", l.summary, l.steps.len()) }</span>
                            </button>
                        </li>
                    }
                }) }
            </ol>
            { super::challenges::catalogue(ctx) }
        </div>
    }
}

/// What the terminal printed for the last run of `command` (a terminal step's output).
fn terminal_text(ctx: &Ctx, command: &str) -> String {
    let term = ctx.terminal.borrow();
    term.entries
        .iter()
        .rev()
        .find(|e| e.command == command.trim_end())
        .map(|e| e.text())
        .unwrap_or_default()
}

fn stepper(run: &LessonRun, ctx: &Ctx) -> Html {
    let lesson = run.lesson;
    let step = &lesson.steps[run.step];
    let n = lesson.steps.len();
    let result = run.results[run.step].as_ref();
    let d = ctx.dispatcher();
    let goto = |i: usize| {
        let d = d.clone();
        Callback::from(move |_: MouseEvent| d.dispatch(Action::LessonGoto(i)))
    };
    let send = {
        let d = d.clone();
        Callback::from(move |_: MouseEvent| d.dispatch(Action::Send))
    };
    let exit = {
        let d = d.clone();
        Callback::from(move |_: MouseEvent| d.dispatch(Action::ExitLesson))
    };
    let next_lesson = LESSONS
        .iter()
        .position(|l| l.id == lesson.id)
        .and_then(|i| LESSONS.get(i + 1));
    let verdict = result.map(|got| {
        let (ok, text) = lesson_check::verdict(step, got, !run.own_cluster);
        html! {
            <p id="step-result" class={classes!("verdict", if ok { "ok" } else { "error" })} role="status">
                { text }
            </p>
        }
    });
    let done = run.finished();
    let prediction = step.predict.map(|p| predict_view(p, run, result, &d));
    // A step that asks for a prediction runs once one is chosen (or skipped).
    let awaiting =
        step.predict.is_some() && result.is_none() && run.predictions[run.step].is_none();
    html! {
        <div class="lesson" aria-labelledby="lesson-title">
            <div class="line">
                <h3 id="lesson-title">{ lesson.title }</h3>
                <span class="spacer" />
                <button type="button" class="small" id="lesson-exit" onclick={exit}>{ "All lessons" }</button>
            </div>
            { undo(ctx) }
            <ol class="steps" aria-label="Steps">
                { for lesson.steps.iter().enumerate().map(|(i, s)| {
                    let state = match &run.results[i] {
                        Some(got) if lesson_check::verdict(s, got, !run.own_cluster).0 => "done",
                        Some(_) => "off",
                        None => "todo",
                    };
                    html! {
                        <li class={classes!(state, (i == run.step).then_some("current"))}>
                            <button type="button" class="step-dot" onclick={goto(i)}
                                aria-current={(i == run.step).then_some("step")}
                                aria-label={format!("Step {}: {} ({state})", i + 1, s.title)} title={s.title}>
                                { i + 1 }
                            </button>
                        </li>
                    }
                }) }
            </ol>
            <article class="step" id="lesson-step" aria-live="polite">
                <h4>{ format!("Step {} of {n}: {}", run.step + 1, step.title) }</h4>
                if step.kubectl.is_empty() {
                    <p class="req"><code>{ format!("{} {}", step.method, step.path) }</code></p>
                } else {
                    <pre class="req" id="step-command">{ format!("$ {}", step.kubectl) }</pre>
                    if result.is_some() {
                        <pre id="step-terminal" class="term-out" aria-label="What the command printed">{ terminal_text(ctx, step.kubectl) }</pre>
                    }
                }
                if let Some(e) = &run.error {
                    <p class="verdict error">{ e.clone() }</p>
                }
                <dl>
                    <dt>{ "Expect" }</dt><dd id="step-expect">{ step.expect }</dd>
                    if !step.notice.is_empty() {
                        <dt>{ "Notice" }</dt><dd>{ step.notice }</dd>
                    }
                </dl>
                { prediction }
                { verdict }
                <div class="line">
                    <button type="button" class="small" disabled={run.step == 0}
                        onclick={goto(run.step.saturating_sub(1))}>{ "← Back" }</button>
                    <button type="button" id="step-run" class="primary" onclick={send.clone()} disabled={awaiting}
                        title={if awaiting { "Choose a prediction first" } else { "Send the request loaded in the builder (Ctrl+Enter)" }}>
                        { if result.is_some() { "Run again" } else { "Run this step" } }
                    </button>
                    if awaiting {
                        <button type="button" class="small" id="step-skip-predict" onclick={send}>{ "Run without predicting" }</button>
                    }
                    if run.step + 1 < n {
                        <button type="button" id="step-next" class={classes!(result.is_some().then_some("primary"))}
                            onclick={goto(run.step + 1)}>{ "Next step →" }</button>
                    }
                </div>
            </article>
            if done {
                <div class="lesson-done" id="lesson-done" role="status">
                    <p><strong>{ "Lesson complete." }</strong>{ " Every step ran. Try changing a step's request in the builder and running it again." }</p>
                    if let Some(next) = next_lesson {
                        <button type="button" class="small" onclick={
                            let d = d.clone();
                            let id = next.id;
                            Callback::from(move |_: MouseEvent| d.dispatch(Action::StartLesson(id)))
                        }>{ format!("Next lesson: {}", next.title) }</button>
                    }
                </div>
            }
        </div>
    }
}

/// A step's prediction: its choices before the step runs, and after, how the choice compares
/// with the answer and why.
fn predict_view(
    p: &'static Predict,
    run: &LessonRun,
    result: Option<&lesson_check::StepOutcome>,
    d: &yew::functional::UseReducerDispatcher<crate::ui::state::AppState>,
) -> Html {
    let chosen = run.predictions[run.step];
    match (result, chosen) {
        (None, _) => html! {
            <fieldset class="step-predict" id="step-predict">
                <legend>{ format!("Predict first: {}", p.question) }</legend>
                { for p.choices.iter().enumerate().map(|(i, c)| {
                    let d = d.clone();
                    let onchange = Callback::from(move |_: Event| d.dispatch(Action::Predict(i)));
                    html! {
                        <label class="choice">
                            <input type="radio" name="step-predict" id={format!("step-predict-{i}")}
                                checked={chosen == Some(i)} {onchange} />
                            { *c }
                        </label>
                    }
                }) }
            </fieldset>
        },
        (Some(got), Some(c)) => {
            let (ok, text) = p.check(c, got);
            html! {
                <p id="step-predict-result" class={classes!("verdict", if ok { "ok" } else { "error" })} role="status">{ text }</p>
            }
        }
        (Some(_), None) => html! { <p class="hint" id="step-predict-why">{ p.why }</p> },
    }
}
