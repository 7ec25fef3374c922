//! Watch frames as rows of a watch panel: event type, resourceVersion, object, and what is
//! special about it (the initial-events-end bookmark, an ERROR's Status code).

use serde_json::Value;

/// The annotation that marks the bookmark ending a streaming list's initial events.
pub const INITIAL_EVENTS_END: &str = "k8s.io/initial-events-end";

/// One event of a watch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WatchRow {
    /// `ADDED`, `MODIFIED`, `DELETED`, `BOOKMARK`, `ERROR` (or `?` for an unreadable frame).
    pub kind: String,
    /// The object's `metadata.resourceVersion`.
    pub rv: String,
    /// `namespace/name` of the object (empty for bookmarks and errors).
    pub name: String,
    /// What else to say: "initial-events-end", or the Status code and message of an error.
    pub note: String,
    /// The frame as received (for the details view).
    pub raw: String,
}

impl WatchRow {
    /// Whether this row is the streaming list's end-of-initial-events bookmark.
    pub fn is_initial_end(&self) -> bool {
        self.kind == "BOOKMARK" && self.note == "initial-events-end"
    }
}

/// Parses the frames of one chunk: JSON documents one per line, or a binary stream (CBOR
/// Sequence items, or length-prefixed Protobuf `WatchEvent`s), decoded with the engine's own
/// codecs; undecodable bytes become one `?` row with their hex dump.
pub fn parse_frames(chunk: &[u8]) -> Vec<WatchRow> {
    if !super::hexdump::is_text(chunk) {
        let decoded: Option<Vec<Value>> = if crate::codec::cbor::is_cbor(chunk) {
            crate::codec::cbor::decode_seq(chunk).ok()
        } else {
            crate::codec::protobuf::decode_watch_frames(chunk, &crate::resources::SCHEME)
                .ok()
                .map(|frames| {
                    frames
                        .into_iter()
                        .map(|(t, o)| serde_json::json!({ "type": t, "object": o }))
                        .collect()
                })
        };
        let hex = super::hexdump::hexdump(chunk, 256);
        return match decoded {
            Some(events) => events
                .iter()
                .map(|v| {
                    let mut row = row(v, serde_json::to_string(v).unwrap_or_default());
                    row.note = format!("{} ({} bytes)", row.note, chunk.len())
                        .trim_start()
                        .to_string();
                    row
                })
                .collect(),
            None => vec![WatchRow {
                kind: "?".into(),
                rv: String::new(),
                name: String::new(),
                note: format!("{} binary bytes", chunk.len()),
                raw: hex,
            }],
        };
    }
    String::from_utf8_lossy(chunk)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let v: Value = serde_json::from_slice(line.as_bytes()).unwrap_or(Value::Null);
            row(&v, line.to_string())
        })
        .collect()
}

fn row(v: &Value, raw: String) -> WatchRow {
    let kind = v["type"].as_str().unwrap_or("?").to_string();
    let obj = &v["object"];
    let meta = &obj["metadata"];
    let rv = meta["resourceVersion"].as_str().unwrap_or("").to_string();
    let name = match (meta["namespace"].as_str(), meta["name"].as_str()) {
        (Some(ns), Some(n)) => format!("{ns}/{n}"),
        (None, Some(n)) => n.to_string(),
        _ => String::new(),
    };
    let note = match kind.as_str() {
        "BOOKMARK" if meta["annotations"][INITIAL_EVENTS_END] == "true" => {
            "initial-events-end".to_string()
        }
        "ERROR" => format!(
            "{} {}: {}",
            obj["code"],
            obj["reason"].as_str().unwrap_or(""),
            obj["message"].as_str().unwrap_or("")
        ),
        "DELETED" => "removed".to_string(),
        _ if !meta["deletionTimestamp"].is_null() && kind != "?" => "terminating".to_string(),
        _ => String::new(),
    };
    WatchRow {
        kind,
        rv,
        name,
        note,
        raw,
    }
}
