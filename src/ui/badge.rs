//! The read explanation: the engine's `x-kubesim-read` header turned into a badge such as
//! "Any · watch cache · rv 41 · may be stale".
//!
//! The point of the playground is to make the read semantics visible; the header says which
//! row of the spec's table applied and which layer answered, and the badge says what that
//! means for the reader (a watch-cache answer to Any or Not-older-than may be stale).

/// The parsed `x-kubesim-read` header, e.g.
/// `semantic=Any; source=watch-cache; rv=41; waited-ms=5`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ReadBadge {
    /// `MostRecent`, `Any`, `NotOlderThan`, `Exact` or `Continuation` (empty if absent).
    pub semantic: String,
    /// `store`, `watch-cache` or `cache-snapshot`.
    pub source: String,
    /// The revision the answer reflects.
    pub rv: Option<String>,
    /// How long kube-apiserver would have waited for its cache.
    pub waited_ms: Option<i64>,
}

impl ReadBadge {
    /// Parses the header value; unknown items are ignored.
    pub fn parse(value: &str) -> ReadBadge {
        let mut b = ReadBadge::default();
        for item in value.split(';') {
            let Some((k, v)) = item.trim().split_once('=') else {
                continue;
            };
            let v = v.trim();
            match k.trim() {
                "semantic" => b.semantic = v.to_string(),
                "source" => b.source = v.to_string(),
                "rv" if v != "none" => b.rv = Some(v.to_string()),
                "waited-ms" => b.waited_ms = v.parse().ok(),
                _ => {}
            }
        }
        b
    }

    /// Whether the answer may be older than what the client saw before: a watch-cache answer
    /// to Any or Not-older-than (spec: "may be older than what the client saw before").
    pub fn may_be_stale(&self) -> bool {
        self.source == "watch-cache" && matches!(self.semantic.as_str(), "Any" | "NotOlderThan")
    }

    /// The badge text.
    pub fn label(&self) -> String {
        let mut parts = vec![semantic_title(&self.semantic).to_string()];
        if !self.source.is_empty() {
            parts.push(self.source.replace('-', " "));
        }
        if let Some(rv) = &self.rv {
            parts.push(format!("rv {rv}"));
        }
        if let Some(ms) = self.waited_ms {
            parts.push(format!("waited {ms} ms"));
        }
        if self.may_be_stale() {
            parts.push("may be stale".into());
        } else if self.semantic == "MostRecent" {
            parts.push("consistent".into());
        }
        parts.join(" · ")
    }

    /// The spec's meaning of the semantic (the badge's tooltip).
    pub fn meaning(&self) -> &'static str {
        meaning(&self.semantic)
    }
}

/// The spec's name for a semantic, as its tables spell it.
pub fn semantic_title(semantic: &str) -> &str {
    match semantic {
        "MostRecent" => "Most Recent",
        "NotOlderThan" => "Not older than",
        "" => "Read",
        s => s,
    }
}

/// The spec's "Meanings" table: what each semantic promises.
pub const MEANINGS: &[(&str, &str)] = &[
    ("Any", "Data at any version; newest preferred; may be older than what the client saw before (partitions, stale caches). Served from the watch cache."),
    ("MostRecent", "Latest version, consistent (quorum read, or, where the persistence layer supports progress notifications, from the watch cache)."),
    ("NotOlderThan", "At least as new as the given version. For lists, the collection's metadata.resourceVersion is not older than requested; no guarantee for items. Served from the watch cache."),
    ("Exact", "Exactly the given version. If unavailable, 410 Gone. With ListFromCacheSnapshot (on by default) cache snapshots may serve it; otherwise the persistence layer."),
    ("Continuation", "Next page, consistent with the version fixed by the first request. The continue token encodes the version and last position. If that version is unavailable, 410 Gone."),
];

/// The meaning of one semantic ("" if unknown).
pub fn meaning(semantic: &str) -> &'static str {
    MEANINGS
        .iter()
        .find(|(s, _)| *s == semantic)
        .map(|(_, m)| *m)
        .unwrap_or("")
}
