//! Which revision each answer reflects, for the Store tab's timeline: every response of this
//! cluster (a read's `x-kubesim-read` revision, a write's new resourceVersion) and every watch
//! event, beside the store's revision when it was answered.
//!
//! A read from the watch cache may be older than what the store holds ("may be stale"); a
//! mark drawn at the revision it reflects, left of where the store was, makes the gap seen.

use super::exchange::Exchange;
use super::sim::WatchPanel;

/// At most this many responses are kept per cluster (the oldest go first).
pub const MAX_RESPONSES: usize = 200;

/// One response and the revision it reflects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reflected {
    /// Its number in this cluster's responses, from 1.
    pub seq: usize,
    /// `GET /api/v1/...`.
    pub request: String,
    /// The revision the answer reflects.
    pub rv: u64,
    /// The store's revision when it was answered.
    pub store_rv: u64,
    /// Where it came from (`store`, `watch-cache`, `cache-snapshot`, or `write`).
    pub source: String,
}

impl Reflected {
    /// What answered `request` reflects, if it says: a read's revision from the read header,
    /// else (a write, or a read of one object) the returned object's resourceVersion, else
    /// a list's. `None` for an error or an answer without a revision.
    pub fn of(x: &Exchange, request: String, store_rv: u64) -> Option<Reflected> {
        if x.code >= 400 {
            return None;
        }
        let badge = x
            .header(crate::api::response::READ_HEADER)
            .map(super::badge::ReadBadge::parse);
        let from_header = badge
            .as_ref()
            .and_then(|b| b.rv.as_deref()?.parse::<u64>().ok());
        let from_body = || {
            let body = x.json()?;
            let rv = body["metadata"]["resourceVersion"].as_str()?;
            rv.parse::<u64>().ok()
        };
        let rv = from_header.or_else(from_body)?;
        let source = badge
            .map(|b| b.source)
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| "write".to_string());
        Some(Reflected {
            seq: 0,
            request,
            rv,
            store_rv,
            source,
        })
    }

    /// Revisions the store had that this answer does not reflect.
    pub fn behind(&self) -> u64 {
        self.store_rv.saturating_sub(self.rv)
    }
}

/// Appends `r` to `list` as its next response, keeping at most [`MAX_RESPONSES`].
pub fn record(list: &mut Vec<Reflected>, mut r: Reflected) {
    r.seq = list.last().map_or(1, |l| l.seq + 1);
    list.push(r);
    if list.len() > MAX_RESPONSES {
        list.remove(0);
    }
}

/// One mark on the timeline's answers band.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mark {
    pub rev: u64,
    /// `tl-read` (current when answered), `tl-read-stale` (behind the store), `tl-event`.
    pub class: &'static str,
    pub title: String,
}

/// The marks for `responses` and the events of this cluster's `watches`, at revisions of at
/// least `lo`.
pub fn marks(responses: &[Reflected], watches: &[WatchPanel], lo: u64) -> Vec<Mark> {
    let mut out: Vec<Mark> = responses
        .iter()
        .filter(|r| r.rv >= lo)
        .map(|r| {
            let behind = r.behind();
            let (class, how) = if behind > 0 {
                (
                    "tl-read-stale",
                    format!(
                        "the store was at {}: {behind} revision(s) behind",
                        r.store_rv
                    ),
                )
            } else {
                ("tl-read", "the store's latest then".to_string())
            };
            Mark {
                rev: r.rv,
                class,
                title: format!(
                    "response {}: {} reflects revision {} ({}; {how})",
                    r.seq, r.request, r.rv, r.source
                ),
            }
        })
        .collect();
    for w in watches.iter().filter(|w| !w.previous_cluster) {
        for row in &w.rows {
            let Ok(rev) = row.rv.parse::<u64>() else {
                continue;
            };
            if rev < lo {
                continue;
            }
            let what = if row.name.is_empty() {
                row.kind.clone()
            } else {
                format!("{} {}", row.kind, row.name)
            };
            out.push(Mark {
                rev,
                class: "tl-event",
                title: format!("watch #{}: {what} at revision {rev}", w.id),
            });
        }
    }
    out
}

/// The latest few responses, newest first, as sentences for the timeline's caption.
pub fn summary(responses: &[Reflected], n: usize) -> Vec<String> {
    responses
        .iter()
        .rev()
        .take(n)
        .map(|r| {
            let behind = r.behind();
            let gap = if behind > 0 {
                format!("the store was at {}, so it is {behind} behind", r.store_rv)
            } else {
                "the store's latest".to_string()
            };
            format!(
                "Response {}: {} reflects revision {} ({}): {gap}.",
                r.seq, r.request, r.rv, r.source
            )
        })
        .collect()
}
