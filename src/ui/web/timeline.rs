//! The revision timeline: the store's revisions left to right, with the compacted range, each
//! write's kind, below them the watch cache's replay window and how far it lags, and at the
//! bottom the revision each response and each watch event reflected ([`crate::ui::reflect`]):
//! a stale read is a mark left of where the store then was.
//!
//! These are the three quantities behind every 410 and every stale read in the lessons, and
//! none of them is visible in a response: drawing them makes "why did that expire?"
//! answerable by looking.

use yew::prelude::*;

use super::app::Ctx;

/// At most this many revisions are drawn (the newest).
const SLOTS: u64 = 48;
const W: f64 = 480.0;
const LEFT: f64 = 74.0;
const RIGHT: f64 = 10.0;

/// What one write did.
fn op(prev: bool, value: bool, terminating: bool) -> &'static str {
    match (prev, value) {
        (false, true) => "create",
        (true, false) => "delete",
        _ if terminating => "terminate",
        _ => "update",
    }
}

/// The timeline, as an SVG with a text summary.
#[function_component(Timeline)]
pub fn timeline() -> Html {
    let ctx = use_context::<Ctx>().expect("Ctx");
    let sim = ctx.sim.borrow();
    let e = &sim.engine;
    let (rev, compacted) = (e.store().revision(), e.store().compacted_revision());
    let (cache_rv, oldest) = (e.cache().revision(), e.cache().oldest_revision());
    let lag_ms = e.cache().config().lag_ms;
    let lo = rev.saturating_sub(SLOTS - 1).max(1);
    let n = (rev + 1 - lo).max(1) as f64;
    let slot = (W - LEFT - RIGHT) / n;
    let x = |r: u64| LEFT + (r.saturating_sub(lo)) as f64 * slot;
    let now = e.clock().now_ms();

    let events: Vec<(u64, &'static str, String, i64)> =
        e.store()
            .events_after(compacted)
            .map(|evs| {
                evs.iter()
                    .filter(|ev| ev.rev >= lo)
                    .map(|ev| {
                        let terminating = ev.value.as_ref().is_some_and(|v| {
                            !v.decode()["metadata"]["deletionTimestamp"].is_null()
                        });
                        let kind = op(ev.prev.is_some(), ev.value.is_some(), terminating);
                        let key = ev.key.trim_start_matches("/registry/").to_string();
                        (ev.rev, kind, key, ev.time_ms)
                    })
                    .collect()
            })
            .unwrap_or_default();

    let slot_rect = |r: u64, y: f64, h: f64, class: &'static str, title: String| {
        html! {
            <rect class={class} x={format!("{:.1}", x(r))} y={y.to_string()}
                width={format!("{:.1}", (slot - 1.0).max(1.0))} height={h.to_string()}>
                <title>{ title }</title>
            </rect>
        }
    };
    // Store band: compacted revisions, then readable ones.
    let store_band = (lo..=rev).map(|r| {
        if r <= compacted && r < rev {
            slot_rect(
                r,
                22.0,
                18.0,
                "tl-compacted",
                format!("revision {r}: compacted (410 Gone)"),
            )
        } else {
            slot_rect(
                r,
                22.0,
                18.0,
                "tl-readable",
                format!("revision {r}: readable"),
            )
        }
    });
    let marks = events.iter().map(|(r, kind, key, t)| {
        let age = (now - t) / 1000;
        html! {
            <circle class={format!("tl-{kind}")} cx={format!("{:.1}", x(*r) + (slot - 1.0) / 2.0)}
                cy="31" r={format!("{:.1}", (slot / 3.0).clamp(2.0, 6.0))}>
                <title>{ format!("revision {r}: {kind} {key} ({age} s ago)") }</title>
            </circle>
        }
    });
    // Cache band: the replayable window, then the revisions it has not seen yet (lag).
    let cache_band = (lo..=rev).filter_map(|r| {
        if r > cache_rv {
            Some(slot_rect(
                r,
                56.0,
                18.0,
                "tl-lag",
                format!("revision {r}: not in the watch cache yet (lag {lag_ms} ms)"),
            ))
        } else if r >= oldest {
            Some(slot_rect(
                r,
                56.0,
                18.0,
                "tl-window",
                format!(
                    "revision {r}: in the watch cache's window (watches can resume from {oldest})"
                ),
            ))
        } else {
            None
        }
    });
    // Answers band: what each response and each watch event reflected.
    let answers = crate::ui::reflect::marks(&sim.responses, &sim.watches, lo);
    let answer_marks = answers.iter().map(|m| {
        let cx = x(m.rev) + (slot - 1.0) / 2.0;
        let r = (slot / 3.0).clamp(2.0, 5.0);
        if m.class == "tl-event" {
            html! {
                <circle class={m.class} cx={format!("{cx:.1}")} cy="98" r={format!("{r:.1}")}>
                    <title>{ m.title.clone() }</title>
                </circle>
            }
        } else {
            // A response: a triangle pointing at the revision it reflects.
            let points = format!(
                "{:.1},84 {:.1},84 {cx:.1},{:.1}",
                cx - r,
                cx + r,
                84.0 + 1.6 * r
            );
            html! {
                <polygon class={m.class} {points}><title>{ m.title.clone() }</title></polygon>
            }
        }
    });
    let reads = crate::ui::reflect::summary(&sim.responses, 3);
    let step = ((n / 12.0).ceil() as u64).max(1);
    let ticks = (lo..=rev).filter(|r| (r - lo) % step == 0 || *r == rev).map(|r| {
        html! {
            <text class="tl-tick" x={format!("{:.1}", x(r) + slot / 2.0)} y="118" text-anchor="middle">{ r }</text>
        }
    });
    let marker = |r: u64, label: String, class: &'static str, y: f64| {
        (r >= lo).then(|| {
            let mx = x(r) + slot - 1.0;
            html! {
                <g class={class}>
                    <line x1={format!("{mx:.1}")} x2={format!("{mx:.1}")} y1="16" y2="104" />
                    <text x={format!("{:.1}", (mx - 2.0).max(LEFT))} y={y.to_string()} text-anchor="end">{ label }</text>
                </g>
            }
        })
    };
    let compaction = if compacted == 0 {
        "nothing compacted yet".to_string()
    } else {
        format!("history compacted up to {compacted}, so reads and watches from before it answer 410 Gone")
    };
    let summary = format!(
        "Store at revision {rev}; {compaction}. Watch cache at revision {cache_rv} ({} behind, lag {lag_ms} ms); \
         watches can resume from revision {oldest}.",
        rev - cache_rv.min(rev)
    );
    html! {
        <figure class="timeline">
            <svg viewBox={format!("0 0 {W} 124")} role="img" aria-labelledby="tl-title tl-desc" id="timeline-svg">
                <title id="tl-title">{ "Timeline of revisions" }</title>
                <desc id="tl-desc">{ summary.clone() }</desc>
                <text class="tl-label" x="4" y="35">{ "store" }</text>
                <text class="tl-label" x="4" y="69">{ "watch cache" }</text>
                <text class="tl-label" x="4" y="95">{ "answers" }</text>
                { for store_band }
                { for marks }
                { for cache_band }
                { for answer_marks }
                { for ticks }
                if compacted > 0 { { marker(compacted, format!("compacted ≤ {compacted}"), "tl-mark-compacted", 14.0) } }
                if cache_rv < rev { { marker(cache_rv, format!("cache rv {cache_rv}"), "tl-mark-cache", 52.0) } }
            </svg>
            <figcaption>
                <p id="timeline-summary">{ summary }</p>
                if !reads.is_empty() {
                    <ul id="timeline-reads" aria-label="What the latest responses reflect">
                        { for reads.iter().map(|r| html! { <li>{ r.clone() }</li> }) }
                    </ul>
                }
                <ul class="legend" aria-label="Legend">
                    <li><span class="sw tl-create" />{ "create" }</li>
                    <li><span class="sw tl-update" />{ "update" }</li>
                    <li><span class="sw tl-terminate" />{ "delete started" }</li>
                    <li><span class="sw tl-delete" />{ "removed" }</li>
                    <li><span class="sw tl-compacted" />{ "compacted" }</li>
                    <li><span class="sw tl-window" />{ "cache window" }</li>
                    <li><span class="sw tl-lag" />{ "cache lag" }</li>
                    <li><span class="sw tl-read" />{ "response, current" }</li>
                    <li><span class="sw tl-read-stale" />{ "response, behind the store" }</li>
                    <li><span class="sw tl-event" />{ "watch event" }</li>
                </ul>
            </figcaption>
        </figure>
    }
}
