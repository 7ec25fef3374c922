//! Watchers: per-watch filters, event conversion, encode-once fan-out, bookmarks, timeouts.
//!
//! Each applied event is encoded at most once per distinct frame (event type × object ×
//! encoding and transform), no matter how many watchers receive it: the frame bytes are
//! shared (`Bytes` is a refcounted view). A Table watch sends column definitions only in its
//! first frame, so "with headers" is part of the frame's identity. A watcher whose client went away (its receiver dropped) is removed on the next
//! dispatch or tick, so nothing leaks.

use std::collections::HashMap;
use std::sync::Arc;

use super::frames::{frame_queue, FrameReceiver, FrameSender};
use bytes::Bytes;
use serde_json::{json, Map, Value};

use super::CachedEvent;
use crate::codec::json;
use crate::codec::Object;
use crate::resources::custom::reading::current;
use crate::resources::ResourceInfo;
use crate::selectors::field::FieldSelector;
use crate::selectors::label::LabelSelector;
use crate::selectors::shard::ShardSelector;
use crate::store::index::OrdIndex;

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
    /// Whether every object under the prefix passes (no selector to look at it with).
    pub fn selects_all(&self) -> bool {
        self.label.is_empty() && self.field.is_empty() && self.shard.is_none()
    }

    /// Whether `obj` passes the selectors (decoded only when one looks at it; a custom
    /// resource as it reads, its defaults included).
    pub fn matches(&self, obj: &Object) -> bool {
        self.selects_all() || self.matches_value(&current(self.resource, obj))
    }

    /// Whether an event's object passes the selectors, decoded once for every watcher.
    pub fn matches_subject(&self, s: &Subject<'_>) -> bool {
        self.selects_all() || self.matches_value(s.value(self.resource))
    }

    /// Whether the decoded `obj` passes the selectors.
    pub fn matches_value(&self, obj: &Value) -> bool {
        let meta = &obj["metadata"];
        if !self
            .label
            .matches(meta.get("labels").and_then(Value::as_object))
        {
            return false;
        }
        if !self.field.matches(&|l| self.resource.field_value(obj, l)) {
            return false;
        }
        match &self.shard {
            None => true,
            Some(s) => s.matches_value(&shard_value(s, obj)),
        }
    }
}

/// An event's object as the watchers' selectors see it: decoded on the first selector that
/// looks at it, then shared by the rest (a thousand filtered watchers, one decode).
pub struct Subject<'a> {
    object: &'a Object,
    value: std::cell::OnceCell<Value>,
}

impl<'a> Subject<'a> {
    /// The subject for `object`, not yet decoded.
    pub fn new(object: &'a Object) -> Self {
        Subject {
            object,
            value: std::cell::OnceCell::new(),
        }
    }

    /// The stored object.
    pub fn object(&self) -> &'a Object {
        self.object
    }

    /// The decoded value, as an object of `resource` reads (the same for every watcher of
    /// the event: they all watch its resource).
    pub fn value(&self, resource: &ResourceInfo) -> &Value {
        self.value.get_or_init(|| current(resource, self.object))
    }
}

/// The value a shard selector hashes for `obj`.
pub fn shard_value(s: &ShardSelector, obj: &Value) -> String {
    let field = match s.field() {
        crate::selectors::shard::ShardField::Uid => "uid",
        crate::selectors::shard::ShardField::Namespace => "namespace",
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

/// [`frame`] of a stored object, built by copying the object's JSON, which is encoded once
/// for every watcher and list that carries this version.
pub fn stored_frame(kind: EventType, object: &Object) -> Bytes {
    let j = object.json();
    let mut out = Vec::with_capacity(j.len() + 32);
    out.extend_from_slice(b"{\"type\":\"");
    out.extend_from_slice(kind.as_str().as_bytes());
    out.extend_from_slice(b"\",\"object\":");
    out.extend_from_slice(j);
    out.extend_from_slice(b"}\n");
    Bytes::from(out)
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
    // A custom resource's bookmark is unstructured: sorted, never pruned or defaulted.
    match info.custom {
        Some(_) => {
            let mut v = Value::Object(obj);
            crate::resources::custom::canonical::sort_keys(&mut v);
            v
        }
        None => Value::Object(info.canonicalize(&obj)),
    }
}

/// How a watcher's frames are written. The layer that negotiated the response (the API)
/// supplies it, so the cache fans events out without knowing encodings or transforms.
pub trait FrameEncoder: std::fmt::Debug + Send + Sync {
    /// The identity of this output: watchers whose encoders have equal keys receive the same
    /// bytes for the same event, so each distinct frame is encoded once.
    fn key(&self) -> u64;
    /// Whether the first frame differs from the later ones (a Table's column definitions).
    fn first_frame_differs(&self) -> bool;
    /// The frame for one event (`first`: this watcher's first frame). `now_ms` dates a
    /// Table's `AGE` column.
    fn encode(&self, kind: EventType, obj: &Object, first: bool, now_ms: i64) -> Bytes;
    /// What a stored object reads as for this output, when not its bytes as stored (a
    /// custom resource read through its schema). `encode` applies it to ADDED and MODIFIED
    /// objects itself; a DELETED one is read before its event's revision is stamped on it.
    fn read(&self, _obj: &Object) -> Option<Object> {
        None
    }
}

/// The object of a DELETED event for `output`: the deleted version as it reads, with the
/// deletion's revision.
pub fn deleted_for(output: &dyn FrameEncoder, obj: &Object, rev: u64) -> Object {
    let read = output.read(obj);
    deleted_at(read.as_ref().unwrap_or(obj), rev)
}

/// JSON frames with no transform: the output of watches the engine makes for itself.
#[derive(Debug)]
pub struct JsonFrames;

impl FrameEncoder for JsonFrames {
    fn key(&self) -> u64 {
        0
    }
    fn first_frame_differs(&self) -> bool {
        false
    }
    fn encode(&self, kind: EventType, obj: &Object, _first: bool, _now_ms: i64) -> Bytes {
        stored_frame(kind, obj)
    }
}

/// A registered watch.
#[derive(Debug)]
pub struct Watcher {
    pub id: u64,
    pub filter: Filter,
    /// Encoding and transform of this watch's frames.
    pub output: Arc<dyn FrameEncoder>,
    /// Whether the next Table frame carries `columnDefinitions` (only the first does).
    pub table_headers: bool,
    sender: FrameSender,
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
        buffer_bytes: usize,
    ) -> (Watcher, FrameReceiver) {
        let (sender, receiver) = frame_queue(buffer_bytes);
        (
            Watcher {
                id,
                filter,
                output: Arc::new(JsonFrames),
                table_headers: true,
                sender,
                last_rv,
                deadline_ms,
                bookmarks,
                last_bookmark_ms: now_ms,
                final_bookmark_sent: false,
            },
            receiver,
        )
    }

    /// This watcher, writing its frames as `output` says.
    pub fn with_output(mut self, output: Arc<dyn FrameEncoder>) -> Self {
        self.output = output;
        self
    }

    /// Queues a frame (initial events, replays, bookmarks, errors; live events are bounded
    /// in [`dispatch`], see [`super::frames`]); false when the client has gone.
    pub fn send(&self, bytes: Bytes) -> bool {
        self.sender.send(bytes)
    }

    /// Encodes one event for this watcher and queues it.
    pub fn send_event(&mut self, kind: EventType, obj: &Object, now_ms: i64) -> bool {
        let bytes = self.output.encode(kind, obj, self.table_headers, now_ms);
        self.frame_sent();
        self.send(bytes)
    }

    /// After the first frame a Table watch stops sending column definitions
    /// (`watchEmbeddedEncoder` sets `NoHeaders`).
    fn frame_sent(&mut self) {
        if self.output.first_frame_differs() {
            self.table_headers = false;
        }
    }

    /// Whether the client is still there.
    pub fn is_open(&self) -> bool {
        self.sender.is_open()
    }

    /// The type this watcher sees for a change from `prev` to `cur`, and which object.
    pub fn convert<'a>(
        &self,
        cur: Option<&Subject<'a>>,
        prev: Option<&Subject<'a>>,
    ) -> Option<(EventType, &'a Object)> {
        let cur_m = cur
            .filter(|o| self.filter.matches_subject(o))
            .map(Subject::object);
        let prev_m = prev
            .filter(|o| self.filter.matches_subject(o))
            .map(Subject::object);
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
        self.send_event(EventType::Bookmark, &Object::new(obj), now_ms)
    }
}

/// The object a DELETED event carries: the last state, at the deletion's revision (as the
/// cacher's watch events do).
pub fn deleted_at(obj: &Object, rev: u64) -> Object {
    let mut o = obj.decode();
    o["metadata"]["resourceVersion"] = Value::String(rev.to_string());
    Object::new(o)
}

/// The identity of an encoded frame: event type, object (by pointer), output, and whether a
/// Table frame has column definitions.
type FrameKey = (EventType, usize, u64, bool);

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
        let ptr = obj.addr();
        let first = w.table_headers && w.output.first_frame_differs();
        self.frames
            .entry((kind, ptr, w.output.key(), first))
            .or_insert_with(|| {
                if kind == EventType::Deleted {
                    let deleted = deleted_for(&*w.output, obj, event_rev);
                    w.output.encode(kind, &deleted, first, now_ms)
                } else {
                    w.output.encode(kind, obj, first, now_ms)
                }
            })
            .clone()
    }

    /// How many frames were encoded (for tests and benchmarks).
    pub fn encoded(&self) -> usize {
        self.frames.len()
    }
}

/// Sends the initial ADDED events for `w` from `state` (at `rv`) and, for streaming lists
/// with bookmarks, the initial-events-end bookmark.
pub fn send_initial(
    w: &mut Watcher,
    state: &OrdIndex<Object>,
    rv: u64,
    now_ms: i64,
    streaming: bool,
) {
    for (key, obj) in state.iter_from(Some(&w.filter.prefix)) {
        if !key.starts_with(&w.filter.prefix) {
            break;
        }
        if w.filter.matches(obj) {
            w.send_event(EventType::Added, obj, now_ms);
        }
    }
    w.last_rv = rv;
    if streaming && w.bookmarks {
        w.bookmark(rv, now_ms, true);
    }
}

/// Delivers one applied event to every interested watcher; returns how many frames were
/// encoded.
pub fn dispatch(watchers: &mut Vec<Watcher>, ev: &CachedEvent) -> usize {
    let mut memo = FrameMemo::default();
    let cur = ev.value.as_ref().map(Subject::new);
    let prev = ev.prev.as_ref().map(Subject::new);
    watchers.retain_mut(|w| {
        if ev.rev <= w.last_rv || !ev.key.starts_with(&w.filter.prefix) {
            return w.is_open();
        }
        w.last_rv = ev.rev;
        match w.convert(cur.as_ref(), prev.as_ref()) {
            Some((kind, obj)) => {
                let bytes = memo.get(kind, obj, ev.rev, w, ev.applied_ms);
                w.frame_sent();
                w.sender.send_live(bytes)
            }
            None => w.is_open(),
        }
    });
    memo.encoded()
}
