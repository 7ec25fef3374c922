//! A lesson step's verdict: whether what the request got is what the step is about — its
//! status, and, where the step's point lies there, the events a watch showed (a 410 ERROR
//! inside a 200 stream is no success) and the resourceVersion its text says the answer has —
//! and, either way, what it saw.

use super::lesson_data::Step;

/// What a step's request got.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepOutcome {
    pub code: u16,
    /// A watch's events shown at once (their types), when the request opened one.
    pub events: Option<Vec<String>>,
    /// The answer's `metadata.resourceVersion`, when it has one.
    pub rv: Option<String>,
    /// Whether the read badge said the answer may be stale (`None` without a badge).
    pub stale: Option<bool>,
}

/// The phrases of an expectation whose number is the answer's own resourceVersion.
pub const STATES_THE_ANSWER: &[&str] = &[
    "at resourceVersion",
    "at revision",
    "resourceVersion is",
    "metadata.resourceVersion",
];

/// The resourceVersion a step's expectation says its answer has (the first number after
/// one of [`STATES_THE_ANSWER`]).
pub fn expected_rv(expect: &str) -> Option<u64> {
    STATES_THE_ANSWER
        .iter()
        .filter_map(|phrase| {
            let at = expect.find(phrase)?;
            let rest = expect[at + phrase.len()..].trim_start();
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            Some((at, digits.parse::<u64>().ok()?))
        })
        .min_by_key(|(at, _)| *at)
        .map(|(_, n)| n)
}

/// The verdict: whether the step got what it is about, and a sentence saying what it saw.
/// `exact`: the lesson runs on its own fresh cluster, so its resourceVersions and events are
/// as written (on the learner's cluster only the status is checked).
pub fn verdict(step: &Step, got: &StepOutcome, exact: bool) -> (bool, String) {
    let mut saw = vec![if step.kubectl.is_empty() {
        got.code.to_string()
    } else {
        format!("exit status {}", got.code)
    }];
    let mut wanted = Vec::new();
    let mut ok = got.code == step.status;
    if !ok {
        wanted.push(if step.kubectl.is_empty() {
            step.status.to_string()
        } else {
            format!("exit status {}", step.status)
        });
    }
    if let Some(events) = got
        .events
        .as_ref()
        .filter(|_| exact && !step.events.is_empty())
    {
        let shown = match events.is_empty() {
            true => "no events".to_string(),
            false => format!("events {}", events.join(", ")),
        };
        saw.push(shown);
        if events
            .iter()
            .map(String::as_str)
            .ne(step.events.iter().copied())
        {
            ok = false;
            wanted.push(format!("events {}", step.events.join(", ")));
        }
    }
    let answer_rv = got.rv.as_deref().and_then(|rv| rv.parse::<u64>().ok());
    if let (Some(want), Some(rv), true) = (expected_rv(step.expect), answer_rv, exact) {
        saw.push(format!("resourceVersion {rv}"));
        if want != rv {
            ok = false;
            wanted.push(format!("resourceVersion {want}"));
        }
    }
    let saw = saw.join(", ");
    let text = match ok {
        true => format!("✓ Got {saw}, as expected."),
        false => format!(
            "Got {saw}; this step expects {}. Check the response, or reload the step.",
            wanted.join(", ")
        ),
    };
    (ok, text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::lesson_data::LESSONS;

    fn step_with(events: &'static [&'static str], expect: &'static str) -> Step {
        let mut step = LESSONS[0].steps[0];
        step.status = 200;
        step.events = events;
        step.expect = expect;
        step
    }

    fn got(code: u16, events: Option<&[&str]>, rv: Option<&str>) -> StepOutcome {
        StepOutcome {
            code,
            events: events.map(|e| e.iter().map(|s| s.to_string()).collect()),
            rv: rv.map(str::to_string),
            stale: None,
        }
    }

    #[test]
    fn a_step_is_checked_on_what_it_is_about() {
        let watch = step_with(&["ERROR"], "A panel with one ERROR event: 410 Expired.");
        let (ok, text) = verdict(&watch, &got(200, Some(&["ERROR"]), None), true);
        assert_eq!(
            (ok, text.as_str()),
            (true, "✓ Got 200, events ERROR, as expected.")
        );
        let (ok, text) = verdict(&watch, &got(200, Some(&["ADDED"]), None), true);
        assert!(!ok);
        assert_eq!(
            text,
            "Got 200, events ADDED; this step expects events ERROR. Check the response, or reload the step."
        );
        let create = step_with(&[], "201 Created at revision 143.");
        assert_eq!(expected_rv(create.expect), Some(143));
        let (ok, text) = verdict(&create, &got(200, None, Some("150")), true);
        assert!(!ok, "{text}");
        // On the learner's own cluster, resourceVersions differ from the text.
        assert!(verdict(&create, &got(200, None, Some("150")), false).0);
        assert!(text.contains("expects resourceVersion 143"), "{text}");
        let (ok, _) = verdict(&create, &got(200, None, Some("143")), true);
        assert!(ok);
        let (ok, text) = verdict(&create, &got(409, None, None), true);
        assert_eq!(
            (ok, text.starts_with("Got 409; this step expects 200")),
            (false, true)
        );
    }
}
