//! WATCH: `?watch=1`, the `/watch/` prefix, single objects by name, streaming lists.
//!
//! Start semantics (spec "Watch semantics"): resourceVersion unset starts at Most Recent with
//! synthetic ADDED events for a consistent state; `0` starts at Any from the (possibly stale)
//! cache; `N` starts at Exact and replays the cache's window after N, or fails with an ERROR
//! 410 event when N is older than the window. With `sendInitialEvents=true` the initial state
//! ends with a BOOKMARK annotated `k8s.io/initial-events-end`.

use http::{header, HeaderValue, Response};
use serde_json::Value;

use std::sync::Arc;

use bytes::Bytes;

use super::list::parse_selectors;
use crate::api::body::{Body, WatchStream};
use crate::api::encode;
use crate::api::negotiation::{self, Encoding, MetaVersion};
use crate::api::response;
use crate::api::route::ResourceRequest;
use crate::api::transform::{self, IncludeObject, WatchTransform};
use crate::api::Request;
use crate::cache::planner::{Read, Semantic};
use crate::cache::watchers::{EventType, FrameEncoder};
use crate::codec::Object;
use crate::registry::{Registry, WatchOptions};
use crate::resources::field::FieldError;
use crate::resources::meta::{invalid_rv_text, parse_rv};
use crate::resources::status::{ApiError, ApiResult};
use crate::resources::{Kinds, ResourceInfo};
use crate::selectors::field::FieldSelector;

/// kube-apiserver's `--min-request-timeout` default: watches without `timeoutSeconds` last
/// between this and twice this.
const MIN_REQUEST_TIMEOUT_MS: i64 = 1_800_000;

/// GET with watch semantics: a 200 whose body streams events.
pub fn watch(
    reg: &mut Registry,
    req: &Request<'_>,
    rr: &ResourceRequest,
) -> ApiResult<Response<Body>> {
    let info = rr.resource;
    let q = &req.query;
    let (label, mut field, shard) = parse_selectors(reg, req, info)?;
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
    let timeout_ms = q
        .int64("timeoutSeconds")
        .map_err(ApiError::bad_request)?
        .map(|t| t.saturating_mul(1000));
    let bookmarks = q.flag("allowWatchBookmarks").unwrap_or(false);
    let rv = q.string("resourceVersion").unwrap_or("").to_string();
    let mut rvm = q.string("resourceVersionMatch").unwrap_or("").to_string();
    let mut send_initial_events = q.flag("sendInitialEvents");
    let watch_list = reg.feature_gates().enabled("WatchList");
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
                invalid_rv_text(&rv)
            ))
        })?
    };
    // Only a client's own `sendInitialEvents=true` makes a streaming list with its
    // initial-events-end bookmark: a plain watch defaulted to one above gets its ADDED events
    // and periodic bookmarks only, as a real 1.36 server answers it.
    let streaming = q.flag("sendInitialEvents") == Some(true);
    let semantic = match rv.as_str() {
        // `sendInitialEvents=false` without a resourceVersion: from the store's revision
        // when the watch arrived, with no initial state.
        "" if send_initial_events == Some(false) => {
            Semantic::Exact(reg.sources().arrival.store_rev)
        }
        "" => Semantic::MostRecent,
        "0" => Semantic::Any,
        _ if streaming => Semantic::NotOlderThan(parsed_rv),
        _ => Semantic::Exact(parsed_rv),
    };
    // A watch that sends initial events first waits for the cache to reach where it starts
    // (the engine serves it again when the wait ends).
    let initial_events = send_initial_events == Some(true);
    if let Some(wait) = reg.cache_wait(semantic, Read::Watch { initial_events }) {
        return Ok(response::waiting(wait, req));
    }
    // The timeout runs from the watch's arrival, its wait for the cache included.
    let arrived = reg.sources().arrival.ms;
    let deadline = match timeout_ms {
        Some(ms) if ms > 0 => arrived + ms,
        _ => {
            let extra = reg.rng().below(MIN_REQUEST_TIMEOUT_MS as u64) as i64;
            arrived + MIN_REQUEST_TIMEOUT_MS + extra
        }
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
    let output = Frames {
        info,
        kinds: req.kinds.clone(),
        encoding,
        transform: WatchTransform::from_target(req.output.target, include),
    };
    let opts = WatchOptions {
        label,
        field,
        shard,
        semantic,
        streaming,
        initial_events,
        bookmarks,
        deadline_ms: deadline,
        output: Arc::new(output),
    };
    let (receiver, explain) = reg.watch(info, rr.namespace.as_deref(), opts);
    Ok(stream_response(
        receiver,
        &explain,
        encoding.watch_content_type(),
    ))
}

/// A watch's frames in the negotiated encoding, each event object transformed as asked
/// (Table rows, PartialObjectMetadata).
#[derive(Debug)]
struct Frames {
    info: &'static ResourceInfo,
    /// The served kinds (the protobuf scheme).
    kinds: Arc<Kinds>,
    encoding: Encoding,
    transform: WatchTransform,
}

impl FrameEncoder for Frames {
    /// Encoding and transform identify the bytes: watchers with the same pair share frames.
    /// Every field is a small enum, so the pair packs into distinct numbers exactly.
    fn key(&self) -> u64 {
        let version = |v: MetaVersion| v as u64;
        let transform = match self.transform {
            WatchTransform::None => 0,
            WatchTransform::PartialObjectMetadata(v) => 1 + version(v),
            WatchTransform::Table(v, include) => 3 + version(v) * 3 + include as u64,
        };
        // Watchers of a custom resource's other versions read other bytes (`apiVersion`):
        // the served version's name (FNV-1a, 40 bits) keeps their frames apart.
        let served = match crate::resources::custom::conversion::converts(self.info) {
            true => {
                self.info
                    .version
                    .bytes()
                    .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
                        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
                    })
                    >> 24
            }
            false => 0,
        };
        served << 24 | (self.encoding as u64) << 8 | transform
    }

    fn first_frame_differs(&self) -> bool {
        matches!(self.transform, WatchTransform::Table(..))
    }

    fn encode(&self, kind: EventType, obj: &Object, first: bool, now_ms: i64) -> Bytes {
        // An object event's custom resource as a read through the schema gives it (a
        // DELETED one came read; bookmarks and errors are never read).
        let read = match kind {
            EventType::Added | EventType::Modified => self.read(obj),
            _ => None,
        };
        let obj = read.as_ref().unwrap_or(obj);
        let transformed = match self.transform {
            WatchTransform::None => None,
            t => transform::watch_object(self.info, t, &obj.decode(), first, now_ms),
        };
        match transformed {
            Some(t) => encode::watch_frame(kind, &t, self.encoding, &*self.kinds),
            None => encode::stored_watch_frame(kind, obj, self.encoding, &*self.kinds),
        }
    }

    fn read(&self, obj: &Object) -> Option<Object> {
        self.info
            .custom
            .and_then(|kind| crate::resources::custom::reading::read(kind, obj))
    }
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
    receiver: crate::cache::frames::FrameReceiver,
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
