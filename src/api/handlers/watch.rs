//! WATCH: `?watch=1`, the `/watch/` prefix, single objects by name, streaming lists.
//!
//! Start semantics (spec "Watch semantics"): resourceVersion unset starts at Most Recent with
//! synthetic ADDED events for a consistent state; `0` starts at Any from the (possibly stale)
//! cache; `N` starts at Exact and replays the cache's window after N, or fails with an ERROR
//! 410 event when N is older than the window. With `sendInitialEvents=true` the initial state
//! ends with a BOOKMARK annotated `k8s.io/initial-events-end`.

use http::{header, HeaderValue, Response};
use serde_json::Value;

use super::list::parse_selectors;
use super::parse_rv;
use crate::api::negotiation;
use crate::api::route::ResourceRequest;
use crate::api::selectors::field::FieldSelector;
use crate::api::status::{ApiError, ApiResult};
use crate::api::transform::{self, IncludeObject, WatchTransform};
use crate::api::Request;
use crate::cache::watchers::{EventType, Filter, WatchOutput, Watcher};
use crate::engine::{Body, Engine, WatchStream};
use crate::resources::field::FieldError;
use crate::store::index::OrdIndex;
use crate::store::Object;

/// kube-apiserver's `--min-request-timeout` default: watches without `timeoutSeconds` last
/// between this and twice this.
const MIN_REQUEST_TIMEOUT_MS: i64 = 1_800_000;

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

/// GET with watch semantics: a 200 whose body streams events.
pub fn watch(
    engine: &mut Engine,
    req: &Request<'_>,
    rr: &ResourceRequest,
) -> ApiResult<Response<Body>> {
    let info = rr.resource;
    let q = &req.query;
    let (label, mut field, shard) = parse_selectors(engine, req, info)?;
    if let Some(name) = &rr.name {
        // The path form watches one object: it behaves as `fieldSelector=metadata.name=NAME`.
        if field.is_empty() {
            field = FieldSelector::one_term_equal("metadata.name", name);
        } else if field.requires_exact_match("metadata.name").as_deref() != Some(name.as_str()) {
            return Err(ApiError::bad_request(
                "fieldSelector metadata.name doesn't match requested name",
            ));
        }
    }
    let timeout_ms = match q.string("timeoutSeconds") {
        None => None,
        Some(t) => Some(
            t.parse::<i64>().map_err(|_| {
                ApiError::bad_request(format!("strconv.ParseInt: parsing {t:?}: invalid syntax"))
            })? * 1000,
        ),
    };
    let bookmarks = q.flag("allowWatchBookmarks").unwrap_or(false);
    let rv = q.string("resourceVersion").unwrap_or("").to_string();
    let mut rvm = q.string("resourceVersionMatch").unwrap_or("").to_string();
    let mut send_initial_events = q.flag("sendInitialEvents");
    let watch_list = engine.feature_gates().enabled("WatchList");
    // `SetListOptionsDefaults`: plain watches from "" or "0" become streaming lists.
    if watch_list && send_initial_events.is_none() && rvm.is_empty() && (rv.is_empty() || rv == "0")
    {
        send_initial_events = Some(true);
        rvm = "NotOlderThan".into();
    }
    validate(&rvm, send_initial_events, watch_list, q.has("continue"))?;
    let parsed_rv = if rv.is_empty() || rv == "0" {
        0
    } else {
        parse_rv(&rv).ok_or_else(|| {
            ApiError::bad_request(format!(
                "invalid resource version: {}",
                super::invalid_rv_text(&rv)
            ))
        })?
    };
    let now = engine.clock().now_ms();
    let deadline = match timeout_ms {
        Some(ms) if ms > 0 => now + ms,
        _ => {
            let extra = engine.rng().below(MIN_REQUEST_TIMEOUT_MS as u64) as i64;
            now + MIN_REQUEST_TIMEOUT_MS + extra
        }
    };
    let prefix = match &rr.namespace {
        Some(ns) => format!("{}{}/", info.key_prefix(), ns),
        None => info.key_prefix(),
    };
    let filter = Filter {
        resource: info,
        prefix,
        label,
        field,
        shard,
    };
    // `serveWatchHandler`: the Table options (400), then a stream-capable encoding (406).
    let include = match req.output.target {
        Some(negotiation::Target::Table(_)) => transform::table_options(req)?,
        _ => IncludeObject::Metadata,
    };
    let encoding = req.output.encoding;
    if encoding.stream_name().is_none() {
        return Err(negotiation::not_acceptable_stream(&req.served));
    }
    let output = WatchOutput {
        encoding,
        transform: WatchTransform::from_target(req.output.target, include),
    };
    let id = engine.next_watch_id();
    let cache_rv = engine.cache().revision();
    let store_rv = engine.store().revision();
    let (w, receiver) = Watcher::new(id, filter, 0, deadline, bookmarks, now);
    let mut w = w.with_output(output);
    let content_type = encoding.watch_content_type();
    let explain;
    if send_initial_events == Some(true) {
        // Streaming list: initial state at least as new as the requested revision.
        let target = match rv.as_str() {
            "" => store_rv,
            "0" => cache_rv,
            _ => parsed_rv,
        };
        if target > store_rv {
            let err = engine.too_large_resource_version(target);
            w.send_event(EventType::Error, &err.to_status(), now);
            return Ok(stream_response(
                receiver,
                "watch-list; source=watch-cache; rv=none",
                content_type,
            ));
        }
        explain = format!(
            "semantic={}; source=watch-cache; rv={}",
            if rv.is_empty() {
                "MostRecent"
            } else if rv == "0" {
                "Any"
            } else {
                "NotOlderThan"
            },
            target.max(cache_rv)
        );
        if cache_rv >= target {
            let state = engine.cache().state().clone();
            send_initial(&mut w, &state, cache_rv, now, true);
        } else {
            w.pending_initial = Some(target);
        }
    } else if rv.is_empty() || rv == "0" {
        // WatchList off: synthetic ADDED events, then changes.
        let target = if rv.is_empty() { store_rv } else { cache_rv };
        explain = format!(
            "semantic={}; source=watch-cache; rv={target}",
            if rv.is_empty() { "MostRecent" } else { "Any" }
        );
        if cache_rv >= target {
            let state = engine.cache().state().clone();
            send_initial(&mut w, &state, cache_rv, now, false);
        } else {
            w.pending_initial = Some(target);
        }
    } else {
        explain = format!("semantic=Exact; source=watch-cache; rv={parsed_rv}");
        let oldest = engine.cache().oldest_revision();
        let Some(events) = engine.cache().events_after(parsed_rv) else {
            let err =
                ApiError::expired(format!("too old resource version: {parsed_rv} ({oldest})"));
            w.send_event(EventType::Error, &err.to_status(), now);
            return Ok(stream_response(receiver, &explain, content_type));
        };
        w.last_rv = parsed_rv;
        let replay: Vec<_> = events.cloned().collect();
        for ev in &replay {
            if !ev.key.starts_with(&w.filter.prefix) {
                continue;
            }
            w.last_rv = ev.rev;
            if let Some((kind, obj)) = w.convert(ev.value.as_ref(), ev.prev.as_ref()) {
                let mut o: Value = (**obj).clone();
                if kind == EventType::Deleted {
                    o["metadata"]["resourceVersion"] = Value::String(ev.rev.to_string());
                }
                w.send_event(kind, &o, now);
            }
        }
        w.last_rv = w.last_rv.max(parsed_rv);
    }
    engine.add_watcher(w);
    Ok(stream_response(receiver, &explain, content_type))
}

/// `ValidateListOptions` for watches (422 `ListOptions.meta.k8s.io "" is invalid`).
fn validate(
    rvm: &str,
    send_initial: Option<bool>,
    watch_list: bool,
    has_continue: bool,
) -> ApiResult<()> {
    let mut errs = Vec::new();
    if let Some(_sie) = send_initial {
        if rvm != "NotOlderThan" {
            errs.push(FieldError::forbidden(
                "resourceVersionMatch",
                "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan",
            ));
        }
        if !watch_list {
            errs.push(FieldError::forbidden(
                "sendInitialEvents",
                "sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled",
            ));
        }
    }
    if !rvm.is_empty() {
        if send_initial.is_none() {
            errs.push(FieldError::forbidden(
                "resourceVersionMatch",
                "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided",
            ));
        }
        if rvm != "NotOlderThan" {
            errs.push(FieldError::not_supported(
                "resourceVersionMatch",
                Value::String(rvm.to_string()),
                &["NotOlderThan"],
            ));
        }
        if has_continue {
            errs.push(FieldError::forbidden(
                "resourceVersionMatch",
                "resourceVersionMatch is forbidden when continue is provided",
            ));
        }
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(ApiError::invalid_options("ListOptions", &errs))
    }
}

fn stream_response(
    receiver: futures_channel::mpsc::UnboundedReceiver<bytes::Bytes>,
    explain: &str,
    content_type: &'static str,
) -> Response<Body> {
    let mut resp = Response::new(Body::Watch(WatchStream::new(receiver)));
    let h = resp.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    h.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("no-cache, private"),
    );
    if let Ok(v) = HeaderValue::from_str(explain) {
        h.insert(crate::api::response::READ_HEADER, v);
    }
    resp
}
