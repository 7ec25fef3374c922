//! The generic query parameters of the spec, and editing them inside a path.
//!
//! The builder keeps one source of truth for a request's URL: the path text, query included.
//! The parameter form reads its values out of that text and writes them back into it, so a
//! path typed by hand, pasted from a link or loaded by a lesson always agrees with the form.
//! Decoding follows Go's `url.ParseQuery` (`+` is a space), as the engine's does.

use percent_encoding::{percent_decode_str, utf8_percent_encode, AsciiSet, CONTROLS};

/// What a parameter's input looks like.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamType {
    /// Free text.
    Text,
    /// A whole number.
    Integer,
    /// `true` / `false` (unset means the server's default).
    Boolean,
    /// One of a few values.
    Choice(&'static [&'static str]),
}

/// Which requests a parameter belongs to (the spec's three parameter tables).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamGroup {
    /// "Generic query parameters on reads and lists".
    Read,
    /// "Generic query parameters on writes".
    Write,
    /// "Delete parameters".
    Delete,
}

impl ParamGroup {
    /// The heading the form shows.
    pub fn title(self) -> &'static str {
        match self {
            ParamGroup::Read => "Reads, lists and watches",
            ParamGroup::Write => "Writes (POST, PUT, PATCH)",
            ParamGroup::Delete => "Deletes",
        }
    }
}

/// One query parameter, with the spec's one-line explanation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Param {
    pub name: &'static str,
    pub ty: ParamType,
    pub group: ParamGroup,
    pub help: &'static str,
}

const fn p(name: &'static str, ty: ParamType, group: ParamGroup, help: &'static str) -> Param {
    Param {
        name,
        ty,
        group,
        help,
    }
}

use ParamGroup::{Delete, Read, Write};
use ParamType::{Boolean, Choice, Integer, Text};

/// Every generic parameter of the spec, in the order of its tables (`pretty` and `dryRun`,
/// listed again under writes and deletes "as above", appear once each).
pub const PARAMS: &[Param] = &[
    p("pretty", Choice(&["true", "false"]), Read,
        "If true, pretty-printed output. Default false unless the user agent indicates a browser or command-line HTTP tool."),
    p("watch", Boolean, Read,
        "Return a stream of add, update and remove notifications; resourceVersion should be specified."),
    p("allowWatchBookmarks", Boolean, Read,
        "Request events of type BOOKMARK. Servers may ignore it; no interval or delivery is guaranteed. Ignored when not a watch."),
    p("continue", Text, Read,
        "Token from a previous list result; usable only with otherwise identical query parameters. Not supported with watch."),
    p("limit", Integer, Read,
        "Maximum items per response. Fewer (even zero) items may be returned; rely on the presence of continue metadata. Not supported with watch."),
    p("fieldSelector", Text, Read, "Restrict by fields. Default everything."),
    p("labelSelector", Text, Read, "Restrict by labels. Default everything."),
    p("resourceVersion", Text, Read,
        "Constraint on the versions a request may be served from. Default unset."),
    p("resourceVersionMatch", Choice(&["Exact", "NotOlderThan"]), Read,
        "How resourceVersion applies to list calls. Always set it when setting resourceVersion on a list."),
    p("sendInitialEvents", Boolean, Read,
        "With watch=true: begin with synthetic events for the current state, then a BOOKMARK. Requires resourceVersionMatch."),
    p("shardSelector", Text, Read,
        "Hash-range filter, e.g. shardRange(object.metadata.uid, '0x0', '0x8000000000000000'). Alpha; gate ShardedListAndWatch."),
    p("timeoutSeconds", Integer, Read,
        "Limits the duration of a list or watch call regardless of activity."),
    p("dryRun", Choice(&["All"]), Write,
        "Changes are not persisted. Accepted value: All (every stage runs, storage has no side effects)."),
    p("fieldManager", Text, Write,
        "Name of the actor making changes; at most 128 printable characters. Required for apply patches."),
    p("fieldValidation", Choice(&["Ignore", "Warn", "Strict"]), Write,
        "Unknown and duplicate fields: Ignore drops them, Warn (default) adds Warning headers, Strict fails with 400."),
    p("force", Boolean, Write,
        "PATCH only. Forces apply requests, re-acquiring conflicting fields owned by others."),
    p("gracePeriodSeconds", Integer, Delete,
        "Seconds before deletion; non-negative; 0 means delete immediately; unset means the per-type default."),
    p("orphanDependents", Boolean, Delete,
        "Deprecated in favor of propagationPolicy: adds or removes the orphan finalizer."),
    p("propagationPolicy", Choice(&["Orphan", "Background", "Foreground"]), Delete,
        "Orphan dependents, delete them in the Background, or cascade in the Foreground."),
    p("ignoreStoreReadErrorWithClusterBreakingPotential", Boolean, Delete,
        "Default false. Force-delete a corrupt object (gate AllowUnsafeMalformedObjectDeletion)."),
];

/// The parameter groups that apply to a method, most relevant first.
pub fn groups_for(method: &str) -> &'static [ParamGroup] {
    match method {
        "POST" | "PUT" | "PATCH" => &[Write],
        // DELETE on a collection also takes the list parameters.
        "DELETE" => &[Delete, Write, Read],
        _ => &[Read],
    }
}

/// Whether `param` is offered for `method` (dryRun and pretty go everywhere they apply).
pub fn applies(param: &Param, method: &str) -> bool {
    match (param.name, method) {
        ("pretty", _) => true,
        ("dryRun", "DELETE") => true,
        ("force", m) => m == "PATCH",
        ("watch" | "allowWatchBookmarks", "DELETE") => false,
        _ => groups_for(method).contains(&param.group),
    }
}

/// Characters encoded in a query value: everything but unreserved characters and a few that
/// keep selectors readable (`=`, `,`, `!`, `:`, `/`).
const VALUE: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'&')
    .add(b'+')
    .add(b'?')
    .add(b'\'')
    .add(b'(')
    .add(b')')
    .add(b'<')
    .add(b'>')
    .add(b'`')
    .add(b'{')
    .add(b'}')
    .add(b'[')
    .add(b']')
    .add(b'|')
    .add(b'^')
    .add(b'\\')
    .add(b';');

/// Percent-encodes a query name or value.
pub fn encode(s: &str) -> String {
    utf8_percent_encode(s, VALUE).to_string()
}

/// Decodes a query name or value (`+` is a space, as in Go).
pub fn decode(s: &str) -> String {
    percent_decode_str(&s.replace('+', " "))
        .decode_utf8_lossy()
        .into_owned()
}

/// The path without its query, and the query without its `?`.
pub fn split(path: &str) -> (&str, &str) {
    path.split_once('?').unwrap_or((path, ""))
}

/// The decoded `(name, value)` pairs of the path's query, in order.
pub fn pairs(path: &str) -> Vec<(String, String)> {
    let (_, q) = split(path);
    q.split('&')
        .filter(|s| !s.is_empty())
        .map(|kv| match kv.split_once('=') {
            Some((k, v)) => (decode(k), decode(v)),
            None => (decode(kv), String::new()),
        })
        .collect()
}

/// The first value of `name` in the path's query (`Some("")` for a bare `?name`).
pub fn get(path: &str, name: &str) -> Option<String> {
    pairs(path)
        .into_iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v)
}

/// The path with `name` set to `value` (in place of its first occurrence, or appended), or
/// removed when `value` is `None`. Other parameters keep their order and their spelling.
pub fn set(path: &str, name: &str, value: Option<&str>) -> String {
    let (base, q) = split(path);
    let mut out: Vec<String> = Vec::new();
    let mut placed = false;
    for raw in q.split('&').filter(|s| !s.is_empty()) {
        let key = decode(raw.split_once('=').map_or(raw, |(k, _)| k));
        if key != name {
            out.push(raw.to_string());
        } else if !placed {
            placed = true;
            if let Some(v) = value {
                out.push(format!("{}={}", encode(name), encode(v)));
            }
        }
    }
    if !placed {
        if let Some(v) = value {
            out.push(format!("{}={}", encode(name), encode(v)));
        }
    }
    if out.is_empty() {
        base.to_string()
    } else {
        format!("{base}?{}", out.join("&"))
    }
}

/// Whether the request is a watch: `watch=1|true` (Go's lenient booleans) or a `/watch/`
/// path.
pub fn is_watch(path: &str) -> bool {
    let (base, _) = split(path);
    if base.contains("/watch/") {
        return true;
    }
    matches!(
        get(path, "watch").as_deref(),
        Some("1" | "t" | "T" | "true" | "TRUE" | "True")
    )
}

/// The value of header `name` in `Name: value` lines (case-insensitive name).
pub fn header(text: &str, name: &str) -> Option<String> {
    text.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.trim()
            .eq_ignore_ascii_case(name)
            .then(|| v.trim().to_string())
    })
}

/// The header lines with `name` set to `value` (replacing every line of that name, at the
/// first one's place) or removed when `value` is `None`.
pub fn set_header(text: &str, name: &str, value: Option<&str>) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut placed = false;
    for line in text.lines() {
        let is_it = line
            .split_once(':')
            .is_some_and(|(k, _)| k.trim().eq_ignore_ascii_case(name));
        if !is_it {
            if !line.trim().is_empty() {
                out.push(line.to_string());
            }
        } else if !placed {
            placed = true;
            if let Some(v) = value {
                out.push(format!("{name}: {v}"));
            }
        }
    }
    if !placed {
        if let Some(v) = value {
            out.push(format!("{name}: {v}"));
        }
    }
    out.join("\n")
}
