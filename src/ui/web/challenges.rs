//! The challenges in the Lessons tab: the list to pick from, and the one in progress with its
//! goal, the fault the simulator will inject, a hint, and the grader's verdict
//! ([`crate::ui::challenge`]).

use yew::prelude::*;

use super::app::Ctx;
use crate::ui::challenge::{ChallengeRun, CHALLENGES};
use crate::ui::state::Action;

/// The challenges to pick from.
pub fn catalogue(ctx: &Ctx) -> Html {
    html! {
        <>
            <h3 id="challenges-title">{ "Challenges" }</h3>
            <p class="hint">{ "Graded: you build the requests in the builder, the simulator injects a fault, and Check says whether you missed a write or kept stale state." }</p>
            <ol class="lesson-list" aria-labelledby="challenges-title">
                { for CHALLENGES.iter().map(|c| {
                    let d = ctx.dispatcher();
                    let id = c.id;
                    let onclick = Callback::from(move |_: MouseEvent| d.dispatch(Action::StartChallenge(id)));
                    html! {
                        <li>
                            <button type="button" class="lesson-start" id={format!("challenge-{}", c.id)} {onclick}>
                                <strong>{ c.title }</strong>
                                <span class="hint">{ c.fault }</span>
                            </button>
                        </li>
                    }
                }) }
            </ol>
        </>
    }
}

/// The challenge in progress.
pub fn challenge_view(run: &ChallengeRun, ctx: &Ctx) -> Html {
    let c = run.challenge;
    let d = ctx.dispatcher();
    let check = {
        let d = d.clone();
        Callback::from(move |_: MouseEvent| d.dispatch(Action::CheckChallenge))
    };
    let exit = Callback::from(move |_: MouseEvent| d.dispatch(Action::ExitChallenge));
    let verdict = run.verdict.as_ref().map(|(ok, lines)| {
        html! {
            <div id="challenge-verdict" class={classes!("verdict", if *ok { "ok" } else { "error" })} role="status">
                <ul>{ for lines.iter().map(|l| html! { <li>{ l.clone() }</li> }) }</ul>
            </div>
        }
    });
    html! {
        <div class="lesson challenge" aria-labelledby="challenge-title">
            <div class="line">
                <h3 id="challenge-title">{ c.title }</h3>
                <span class="spacer" />
                <button type="button" class="small" id="challenge-exit" onclick={exit}>{ "All lessons" }</button>
            </div>
            <dl>
                <dt>{ "Goal" }</dt><dd id="challenge-goal">{ c.goal }</dd>
                <dt>{ "The fault" }</dt><dd>{ c.fault }</dd>
            </dl>
            <details><summary>{ "Hint" }</summary><p>{ c.hint }</p></details>
            <p class="hint">{ format!("{} request(s) on the collection so far{}.", run.seen.len(),
                if run.injected { "; the fault has been injected" } else { "" }) }</p>
            <div class="line">
                <button type="button" class="primary" id="challenge-check" onclick={check}>{ "Check" }</button>
            </div>
            { verdict }
        </div>
    }
}
