//! Predict, then check: a lesson step may ask the learner to choose its outcome before it
//! runs (the status, whether the answer is fresh or may be stale, which events a watch
//! shows), then compares the choice with what the server did, and says why in one sentence
//! tied to the spec's table cell.
//!
//! The right choice is never written into the lesson: it is read off the answer itself, so
//! a prediction is checked against the engine, as a learner's would be against a cluster.

use super::lesson_check::StepOutcome;

/// What a step's choices are about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum About {
    /// The HTTP status: each choice starts with its code (`410 Gone`).
    Status,
    /// Whether the answer is the store's latest (the first choice) or may be stale (the
    /// second), as the read badge says.
    Freshness,
    /// The event types a watch shows at once, comma-separated (`no events` for none).
    Events,
}

/// A prediction a step asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Predict {
    pub question: &'static str,
    pub about: About,
    pub choices: &'static [&'static str],
    /// Why the server answers as it does: one sentence naming the spec's table cell.
    pub why: &'static str,
}

/// The choice for a watch that showed no events.
pub const NO_EVENTS: &str = "no events";

impl Predict {
    /// The index of the choice `got` turned out to be, if one is.
    pub fn actual(&self, got: &StepOutcome) -> Option<usize> {
        match self.about {
            About::Status => self.choices.iter().position(|c| {
                c.split_whitespace()
                    .next()
                    .and_then(|n| n.parse::<u16>().ok())
                    == Some(got.code)
            }),
            About::Freshness => got.stale.map(usize::from),
            About::Events => {
                let events = got.events.as_ref()?;
                let shown = match events.is_empty() {
                    true => NO_EVENTS.to_string(),
                    false => events.join(", "),
                };
                self.choices.iter().position(|c| *c == shown)
            }
        }
    }

    /// Whether `chosen` was right, and the sentence that says so and why.
    pub fn check(&self, chosen: usize, got: &StepOutcome) -> (bool, String) {
        let said = self.choices.get(chosen).copied().unwrap_or("?");
        match self.actual(got) {
            Some(i) if i == chosen => (
                true,
                format!("✓ You predicted \u{201c}{said}\u{201d}, and so it was. {}", self.why),
            ),
            Some(i) => (
                false,
                format!(
                    "✗ You predicted \u{201c}{said}\u{201d}; the server answered \u{201c}{}\u{201d}. {}",
                    self.choices[i], self.why
                ),
            ),
            None => (
                false,
                format!(
                    "✗ You predicted \u{201c}{said}\u{201d}; the server answered {}, none of the choices (is this the lesson's own cluster?). {}",
                    got.code, self.why
                ),
            ),
        }
    }
}
