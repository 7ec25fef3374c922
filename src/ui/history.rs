//! Recent requests, kept in the browser's local storage so they survive a reload.
//!
//! This module only edits and (de)serializes the list; the reducer asks for it to be saved
//! (`state::Effect::SaveHistory`) and the browser side (`ui::web`) reads and writes storage.
//!
//! Only what the user sent is kept (method, path, headers, body, the status it got), never
//! responses; the list is short and newest first, and a repeat of the same request moves to
//! the top instead of appearing twice.

use serde::{Deserialize, Serialize};

use super::exchange::Draft;

/// The local-storage key.
pub const KEY: &str = "kubesim.playground.history";

/// How many requests are kept.
pub const MAX: usize = 30;

/// One sent request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub method: String,
    pub path: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub headers: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub body: String,
    /// The status code it got (0 when it was not sent).
    pub code: u16,
}

impl Entry {
    /// The entry for a sent draft.
    pub fn new(d: &Draft, code: u16) -> Entry {
        Entry {
            method: d.method.trim().to_string(),
            path: d.path.trim().to_string(),
            headers: d.headers.clone(),
            body: d.body.clone(),
            code,
        }
    }

    /// The draft to load back into the builder.
    pub fn draft(&self) -> Draft {
        Draft {
            method: self.method.clone(),
            path: self.path.clone(),
            headers: self.headers.clone(),
            body: self.body.clone(),
        }
    }

    fn same_request(&self, other: &Entry) -> bool {
        (&self.method, &self.path, &self.headers, &self.body)
            == (&other.method, &other.path, &other.headers, &other.body)
    }
}

/// `list` with `entry` at the front (a repeat moves up), at most [`MAX`] long.
pub fn push(list: &[Entry], entry: Entry) -> Vec<Entry> {
    let mut out = Vec::with_capacity(MAX);
    out.push(entry.clone());
    out.extend(list.iter().filter(|e| !e.same_request(&entry)).cloned());
    out.truncate(MAX);
    out
}

/// Parses the stored list (anything unreadable is an empty history).
pub fn parse(text: &str) -> Vec<Entry> {
    serde_json::from_slice(text.as_bytes()).unwrap_or_default()
}

/// The stored form.
pub fn serialize(list: &[Entry]) -> String {
    serde_json::to_string(list).unwrap_or_else(|_| "[]".into())
}
