//! Watch: registers a watcher with the cacher and primes its stream with where it starts
//! (spec "Watch semantics"): Most Recent and Any begin with synthetic ADDED events for the
//! state at the start revision; Exact replays the cache's window after the revision, or ends
//! at once with an ERROR 410 when the revision is older than the window; a streaming list
//! (`sendInitialEvents=true`) sends its initial state, Not older than the revision asked
//! for, and with bookmarks ends it with the `k8s.io/initial-events-end` BOOKMARK.

use std::sync::Arc;

use crate::cache::frames::FrameReceiver;

use super::read::prefix;
use super::Registry;
use crate::cache::planner::Semantic;
use crate::cache::watchers::{
    deleted_for, send_initial, EventType, Filter, FrameEncoder, Subject, Watcher,
};
use crate::resources::status::ApiError;
use crate::resources::ResourceInfo;
use crate::selectors::field::FieldSelector;
use crate::selectors::label::LabelSelector;
use crate::selectors::shard::ShardSelector;
use crate::store::Object;

/// A watch's validated options.
#[derive(Debug)]
pub struct WatchOptions {
    pub label: LabelSelector,
    pub field: FieldSelector,
    pub shard: Option<ShardSelector>,
    /// Where it starts: Most Recent, Any, Not older than N (streaming lists) or Exact N.
    pub semantic: Semantic,
    /// `sendInitialEvents=true` given by the client: a streaming list (its initial events
    /// end with the initial-events-end bookmark).
    pub streaming: bool,
    /// Whether initial events are sent (`sendInitialEvents=true`, given or defaulted): the
    /// watch then waits for the cache to reach where it starts.
    pub initial_events: bool,
    pub bookmarks: bool,
    /// When the server ends the watch (engine clock, ms).
    pub deadline_ms: i64,
    /// How its frames are written.
    pub output: Arc<dyn FrameEncoder>,
}

impl Registry {
    /// Starts a watch on `info` (optionally one namespace); returns its stream and the read
    /// planner's explanation. A watch that fails at its start (410, 504) gets a stream with
    /// one ERROR event, as on the real server.
    pub fn watch(
        &mut self,
        info: &'static ResourceInfo,
        namespace: Option<&str>,
        opts: WatchOptions,
    ) -> (FrameReceiver, String) {
        let now = self.clock().now_ms();
        let filter = Filter {
            resource: info,
            prefix: prefix(info, namespace),
            label: opts.label,
            field: opts.field,
            shard: opts.shard,
        };
        let id = self.cacher_mut().next_watch_id();
        let buffer = self.cache().config().watcher_buffer_bytes;
        let (w, receiver) =
            Watcher::new(id, filter, 0, opts.deadline_ms, opts.bookmarks, now, buffer);
        let mut w = w.with_output(opts.output);
        let sources = self.sources();
        let cache_rv = self.cache().revision();
        let target = sources.watch_start(opts.semantic, opts.initial_events);
        let explain;
        match opts.semantic {
            Semantic::Exact(n) if !opts.streaming => {
                explain = sources.explain_watch(opts.semantic, n);
                let mut oldest = self.cache().oldest_revision();
                let mut events: Option<Vec<_>> =
                    self.cache().events_after(n).map(|evs| evs.collect());
                // An unsafe delete made the resource's cacher relist: its window starts there,
                // so a watch from before it is too old (it never replays that delete).
                let resource = info.key_prefix();
                let relisted = events.as_ref().and_then(|evs| {
                    evs.iter()
                        .rev()
                        .find(|ev| ev.corrupt_prev && ev.key.starts_with(&resource))
                        .map(|ev| ev.rev)
                });
                if let Some(rev) = relisted {
                    oldest = rev;
                    events = None;
                }
                let Some(events) = events else {
                    let err =
                        ApiError::expired(format!("too old resource version: {n} ({oldest})"));
                    w.send_event(EventType::Error, &Object::new(err.to_status()), now);
                    return (receiver, explain);
                };
                w.last_rv = n;
                for ev in events {
                    if !ev.key.starts_with(&w.filter.prefix) {
                        continue;
                    }
                    w.last_rv = ev.rev;
                    let cur = ev.value.as_ref().map(Subject::new);
                    let prev = ev.prev.as_ref().map(Subject::new);
                    if let Some((kind, obj)) = w.convert(cur.as_ref(), prev.as_ref()) {
                        if kind == EventType::Deleted {
                            let deleted = deleted_for(&*w.output, obj, ev.rev);
                            w.send_event(kind, &deleted, now);
                        } else {
                            w.send_event(kind, obj, now);
                        }
                    }
                }
                w.last_rv = w.last_rv.max(n);
            }
            _ if cache_rv < target => {
                // The cache did not reach the revision within its 3 s wait
                // (`newErrWatcher`): one ERROR event.
                let err = self.too_large_resource_version(target);
                w.send_event(EventType::Error, &Object::new(err.to_status()), now);
                return (receiver, "watch-list; source=watch-cache; rv=none".into());
            }
            _ => {
                let shown = if opts.streaming {
                    target.max(cache_rv)
                } else {
                    target
                };
                explain = sources.explain_watch(opts.semantic, shown);
                send_initial(&mut w, self.cache().state(), cache_rv, now, opts.streaming);
            }
        }
        self.cacher_mut().add_watcher(w);
        (receiver, explain)
    }
}
