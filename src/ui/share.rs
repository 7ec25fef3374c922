//! Links that reproduce what is on screen: the URL fragment encodes the builder's request or
//! the lesson step being shown.
//!
//! The fragment is readable (`#method=GET&path=%2Fapi%2Fv1%2Fnamespaces`) rather than an
//! opaque blob, so a link in a bug report says what it does. Nothing is sent to a server:
//! the fragment never leaves the browser. Lesson links replay the earlier steps on a fresh,
//! simulated cluster, which is deterministic, so the step answers as it did for the sender.

use super::exchange::Draft;
use super::query::{decode, encode};

/// What a link points at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shared {
    /// A request, loaded into the builder.
    Request(Draft),
    /// Step `step` (0-based) of lesson `lesson`.
    Lesson { lesson: String, step: usize },
}

/// The fragment (without `#`) for `shared`. Empty headers and body are left out; lesson
/// steps are 1-based in links, as on screen.
pub fn encode_hash(shared: &Shared) -> String {
    match shared {
        Shared::Request(d) => {
            let mut parts = vec![
                format!("method={}", encode(d.method.trim())),
                format!("path={}", encode_all(&d.path)),
            ];
            if !d.headers.trim().is_empty() {
                parts.push(format!("headers={}", encode_all(&d.headers)));
            }
            if !d.body.is_empty() {
                parts.push(format!("body={}", encode_all(&d.body)));
            }
            parts.join("&")
        }
        Shared::Lesson { lesson, step } => format!("lesson={}&step={}", encode(lesson), step + 1),
    }
}

/// Encodes every byte that could be read as a separator (`/`, `=`, `,` included), so the
/// fragment splits unambiguously on `&` and `=`.
fn encode_all(s: &str) -> String {
    percent_encoding::utf8_percent_encode(s, percent_encoding::NON_ALPHANUMERIC)
        .to_string()
        .replace("%2F", "/")
        .replace("%2D", "-")
        .replace("%2E", ".")
        .replace("%5F", "_")
}

/// Reads a fragment (with or without `#`); `None` when it names no request or lesson.
pub fn decode_hash(hash: &str) -> Option<Shared> {
    let hash = hash.strip_prefix('#').unwrap_or(hash);
    let mut method = None;
    let mut draft = Draft::default();
    let mut lesson = None;
    let mut step = 0usize;
    for kv in hash.split('&').filter(|s| !s.is_empty()) {
        let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
        // `+` is literal in fragments we write (spaces are %20), so decode without the
        // query convention.
        let v = percent_encoding::percent_decode_str(v)
            .decode_utf8_lossy()
            .into_owned();
        match decode(k).as_str() {
            "method" => method = Some(v),
            "path" => draft.path = v,
            "headers" => draft.headers = v,
            "body" => draft.body = v,
            "lesson" => lesson = Some(v),
            "step" => step = v.parse::<usize>().unwrap_or(1).max(1) - 1,
            _ => {}
        }
    }
    if let Some(lesson) = lesson {
        return Some(Shared::Lesson { lesson, step });
    }
    if draft.path.starts_with('/') {
        draft.method = method.unwrap_or_else(|| "GET".into()).to_ascii_uppercase();
        return Some(Shared::Request(draft));
    }
    None
}
