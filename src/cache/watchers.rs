//! Watchers: per-watch filters, event conversion, encode-once fan-out, bookmarks, timeouts.
//!
//! Each applied event is encoded at most once per distinct frame (event type × object ×
//! encoding and transform), no matter how many watchers receive it: the frame bytes are
//! shared (`Bytes` is a refcounted view). A Table watch sends column definitions only in its
//! first frame, so "with headers" is part of the frame's identity. A watcher whose client went away (its receiver dropped) is removed on the next
//! dispatch or tick, so nothing leaks.

use std::collections::HashMap;

use bytes::Bytes;
use futures_channel::mpsc::{UnboundedReceiver, UnboundedSender};
use serde_json::{json, Map, Value};

use super::CachedEvent;
use crate::api::negotiation::Encoding;
use crate::api::selectors::field::FieldSelector;
use crate::api::selectors::label::LabelSelector;
use crate::api::selectors::shard::ShardSelector;
use crate::api::transform::{watch_object, WatchTransform};
use crate::codec::json;
use crate::resources::ResourceInfo;
use crate::store::Object;

/// What a watcher wants to see.
#[derive(Debug, Clone)]
pub struct Filter {
    pub resource: &'static ResourceInfo,
    /// Storage-key prefix (the resource, optionally one namespace).
    pub prefix: String,
    pub label: LabelSelector,
    pub field: FieldSelector,
    pub shard: Option<ShardSelector>,
}

impl Filter {
    /// Whether `obj` passes the selectors.
    pub fn matches(&self, obj: &Value) -> bool {
        let meta = &obj["metadata"];
        if !self
            .label
            .matches(meta.get("labels").and_then(Value::as_object))
        {
            return false;
        }
        if !self
            .field
            .matches(&|l| crate::api::handlers::field_value(obj, l))
        {
            return false;
        }
        match &self.shard {
            None => true,
            Some(s) => s.matches_value(&shard_value(s, obj)),
        }
    }
}

/// The value a shard selector hashes for `obj`.
pub fn shard_value(s: &ShardSelector, obj: &Value) -> String {
    let field = match s.field() {
        crate::api::selectors::shard::ShardField::Uid => "uid",
        crate::api::selectors::shard::ShardField::Namespace => "namespace",
    };
    obj["metadata"][field].as_str().unwrap_or("").to_string()
}

/// A watch event type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EventType {
    Added,
    Modified,
    Deleted,
    Bookmark,
    Error,
}

impl EventType {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            EventType::Added => "ADDED",
            EventType::Modified => "MODIFIED",
            EventType::Deleted => "DELETED",
            EventType::Bookmark => "BOOKMARK",
            EventType::Error => "ERROR",
        }
    }
}

/// One JSON watch frame: `{"type":...,"object":...}` and a newline.
pub fn frame(kind: EventType, object: &Value) -> Bytes {
    let mut m = Map::new();
    m.insert("type".into(), Value::String(kind.as_str().into()));
    m.insert("object".into(), object.clone());
    Bytes::from(json::to_vec(&Value::Object(m)))
}

/// The object a BOOKMARK carries: an empty instance of the watched kind with only
/// `metadata.resourceVersion` (plus annotations for the initial-events-end bookmark).
pub fn bookmark_object(info: &ResourceInfo, rv: u64, initial_events_end: bool) -> Value {
    let mut meta = Map::new();
    meta.insert("resourceVersion".into(), json!(rv.to_string()));
    if initial_events_end {
        meta.insert(
            "annotations".into(),
            json!({"k8s.io/initial-events-end": "true"}),
        );
    }
    let mut obj = Map::new();
    obj.insert("kind".into(), json!(info.kind));
    obj.insert("apiVersion".into(), json!(info.api_version()));
    obj.insert("metadata".into(), Value::Object(meta));
    Value::Object(crate::codec::decode::canonicalize(&obj, info.schema))
}

/// How a watcher's frames are written: the negotiated encoding and the transform applied to
/// every event object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct WatchOutput {
    pub encoding: Encoding,
    pub transform: WatchTransform,
}

impl Default for WatchOutput {
    fn default() -> Self {
        WatchOutput {
            encoding: Encoding::Json,
            transform: WatchTransform::None,
        }
    }
}

/// One frame for a watcher with `output` (`table_headers`: its next Table carries column
/// definitions). `now_ms` dates the Table `AGE` column.
pub fn encode_frame(
    info: &ResourceInfo,
    output: WatchOutput,
    table_headers: bool,
    kind: EventType,
    obj: &Value,
    now_ms: i64,
) -> Bytes {
    match watch_object(info, output.transform, obj, table_headers, now_ms) {
        Some(t) => crate::api::encode::watch_frame(kind, &t, output.encoding),
        None => crate::api::encode::watch_frame(kind, obj, output.encoding),
    }
}

/// A registered watch.
#[derive(Debug)]
pub struct Watcher {
    pub id: u64,
    pub filter: Filter,
    /// Encoding and transform of this watch's frames.
    pub output: WatchOutput,
    /// Whether the next Table frame carries `columnDefinitions` (only the first does).
    pub table_headers: bool,
    sender: UnboundedSender<Bytes>,
    /// Events at or below this revision were already delivered (or are covered by the
    /// initial state).
    pub last_rv: u64,
    /// When the server ends the watch (engine clock, ms).
    pub deadline_ms: i64,
    pub bookmarks: bool,
    /// When the last bookmark was sent (or the watch started).
    pub last_bookmark_ms: i64,
    /// Whether the ~2 s-before-deadline bookmark went out.
    pub final_bookmark_sent: bool,
    /// A streaming-list watch still waiting for the cache to reach this revision before it
    /// sends its initial events.
    pub pending_initial: Option<u64>,
}

/// Interval between periodic bookmarks (apiserver: about a minute).
pub const BOOKMARK_INTERVAL_MS: i64 = 60_000;
/// How long before the deadline the last bookmark goes out.
pub const FINAL_BOOKMARK_LEAD_MS: i64 = 2_000;

impl Watcher {
    /// A watcher and the receiving end of its stream.
    pub fn new(
        id: u64,
        filter: Filter,
        last_rv: u64,
        deadline_ms: i64,
        bookmarks: bool,
        now_ms: i64,
    ) -> (Watcher, UnboundedReceiver<Bytes>) {
        let (sender, receiver) = futures_channel::mpsc::unbounded();
        (
            Watcher {
                id,
                filter,
                output: WatchOutput::default(),
                table_headers: true,
                sender,
                last_rv,
                deadline_ms,
                bookmarks,
                last_bookmark_ms: now_ms,
                final_bookmark_sent: false,
                pending_initial: None,
            },
            receiver,
        )
    }

    /// This watcher, writing its frames as `output` says.
    pub fn with_output(mut self, output: WatchOutput) -> Self {
        self.output = output;
        self
    }

    /// Queues a frame; false when the client has gone.
    pub fn send(&self, bytes: Bytes) -> bool {
        self.sender.unbounded_send(bytes).is_ok()
    }

    /// Encodes one event for this watcher and queues it.
    pub fn send_event(&mut self, kind: EventType, obj: &Value, now_ms: i64) -> bool {
        let bytes = encode_frame(
            self.filter.resource,
            self.output,
            self.table_headers,
            kind,
            obj,
            now_ms,
        );
        self.frame_sent();
        self.send(bytes)
    }

    /// After the first frame a Table watch stops sending column definitions
    /// (`watchEmbeddedEncoder` sets `NoHeaders`).
    fn frame_sent(&mut self) {
        if matches!(self.output.transform, WatchTransform::Table(..)) {
            self.table_headers = false;
        }
    }

    /// Whether the client is still there.
    pub fn is_open(&self) -> bool {
        !self.sender.is_closed()
    }

    /// The type this watcher sees for a change from `prev` to `cur`, and which object.
    pub fn convert<'a>(
        &self,
        cur: Option<&'a Object>,
        prev: Option<&'a Object>,
    ) -> Option<(EventType, &'a Object)> {
        let cur_m = cur.filter(|o| self.filter.matches(o));
        let prev_m = prev.filter(|o| self.filter.matches(o));
        match (cur_m, prev_m) {
            (Some(c), Some(_)) => Some((EventType::Modified, c)),
            (Some(c), None) => Some((EventType::Added, c)),
            (None, Some(p)) => Some((EventType::Deleted, p)),
            (None, None) => None,
        }
    }

    /// A bookmark at `rv`.
    pub fn bookmark(&mut self, rv: u64, now_ms: i64, initial_events_end: bool) -> bool {
        self.last_bookmark_ms = now_ms;
        let obj = bookmark_object(self.filter.resource, rv, initial_events_end);
        self.send_event(EventType::Bookmark, &obj, now_ms)
    }
}

/// The identity of an encoded frame: event type, object (by pointer), output, and whether a
/// Table frame has column definitions.
type FrameKey = (EventType, usize, WatchOutput, bool);

/// Encodes each distinct frame of one event once, however many watchers get it.
#[derive(Default)]
pub struct FrameMemo {
    frames: HashMap<FrameKey, Bytes>,
}

impl FrameMemo {
    /// The frame for `kind` of `obj` as watcher `w` writes it (a DELETED frame carries the
    /// event's revision). `now_ms` dates a Table's `AGE` column.
    pub fn get(
        &mut self,
        kind: EventType,
        obj: &Object,
        event_rev: u64,
        w: &Watcher,
        now_ms: i64,
    ) -> Bytes {
        let ptr = std::sync::Arc::as_ptr(obj) as usize;
        let headers = w.table_headers && matches!(w.output.transform, WatchTransform::Table(..));
        let info = w.filter.resource;
        self.frames
            .entry((kind, ptr, w.output, headers))
            .or_insert_with(|| {
                if kind == EventType::Deleted {
                    let mut o = (**obj).clone();
                    o["metadata"]["resourceVersion"] = json!(event_rev.to_string());
                    encode_frame(info, w.output, headers, kind, &o, now_ms)
                } else {
                    encode_frame(info, w.output, headers, kind, obj, now_ms)
                }
            })
            .clone()
    }

    /// How many frames were encoded (for tests and benchmarks).
    pub fn encoded(&self) -> usize {
        self.frames.len()
    }
}

/// Delivers one applied event to every interested watcher; returns how many frames were
/// encoded.
pub fn dispatch(watchers: &mut Vec<Watcher>, ev: &CachedEvent) -> usize {
    let mut memo = FrameMemo::default();
    watchers.retain_mut(|w| {
        if w.pending_initial.is_some()
            || ev.rev <= w.last_rv
            || !ev.key.starts_with(&w.filter.prefix)
        {
            return w.is_open();
        }
        w.last_rv = ev.rev;
        match w.convert(ev.value.as_ref(), ev.prev.as_ref()) {
            Some((kind, obj)) => {
                let bytes = memo.get(kind, obj, ev.rev, w, ev.applied_ms);
                w.frame_sent();
                w.send(bytes)
            }
            None => w.is_open(),
        }
    });
    memo.encoded()
}
