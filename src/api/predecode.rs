//! A write's body, decoded before the engine is entered.
//!
//! kube-apiserver decodes each request's body on the request's own goroutine; only the
//! storage transaction is serialized. kubesim's engine is one deterministic state machine
//! behind one lock, so a host that serves requests concurrently decodes create and update
//! bodies first, outside that lock ([`predecode`]): a 3 MiB body's parse, typed decode and
//! strict field checks then hold up no other request, nor does a create's field tracking
//! (`registry::pretrack`: the change set and its FieldsV1, all but the time it is stamped
//! with), nor an update's (against the version stored when the host looked, and used only
//! if it is still the live one). A patch is applied ahead too, to the version stored when
//! the host looked, with its update's tracking (an apply also at the engine's time then):
//! the engine writes that result only while the version (and time) still hold, as the
//! apiserver's `GuaranteedUpdate` retries a transformation made on a stale object. The
//! result rides on the request (an
//! `http` extension) and the handler takes it where it would have decoded: the same function
//! on the same inputs, so the answer is the same either way, errors and their order
//! included. A result made for other kinds or encodings than the engine serves by the time
//! the request reaches it is not used.

use std::sync::{Arc, Mutex};

use bytes::Bytes;
use http::Method;

use super::handlers::{self, DecodedBody, FieldValidation};
use super::negotiation::{Encoding, Negotiated};
use super::query::Query;
use super::route::{self, Route, Verb};
use super::Request;
use crate::registry::{Pretracked, Registry};
use crate::resources::status::ApiResult;
use crate::resources::{Kinds, ResourceInfo};

/// A body decoded ahead, for the resource, field validation level, kinds and encodings it was
/// decoded with; taken once.
#[derive(Clone)]
pub struct Predecoded(Arc<Ahead>);

struct Ahead {
    kinds: Arc<Kinds>,
    served: Vec<Encoding>,
    kind: (&'static str, &'static str, &'static str),
    level: FieldValidation,
    result: Mutex<Option<Made>>,
}

/// What was made ahead for a request.
pub(crate) enum Made {
    /// A create's or update's body, decoded.
    Body(ApiResult<DecodedBody>),
    /// A patch applied to a stored version.
    Patch(Prepared<handlers::patch::Patched>),
    /// An apply merged into a stored version, or into nothing.
    Apply(Prepared<handlers::apply::Applied>),
}

/// A write's outcome made before the engine's lock from one stored version of its object
/// (`None`: there was none) and, for an apply, at one time of the engine's clock: valid only
/// while both still hold.
pub(crate) struct Prepared<T> {
    against: Option<crate::codec::Object>,
    now: Option<String>,
    pub(crate) outcome: ApiResult<T>,
    /// The update's field tracking against that version, which carries it decoded.
    pub(crate) tracking: Option<Pretracked>,
}

impl<T> Prepared<T> {
    pub(crate) fn new(
        against: Option<crate::codec::Object>,
        now: Option<String>,
        outcome: ApiResult<T>,
        tracking: Option<Pretracked>,
    ) -> Self {
        Prepared {
            against,
            now,
            outcome,
            tracking,
        }
    }

    /// Whether what this was made from still holds at `key`: the same stored version (the
    /// same shared value, not an equal one) or still none, readable, and the same time.
    pub(crate) fn holds(&self, reg: &Registry, key: &str) -> bool {
        let same = match (&self.against, reg.store().get(key)) {
            (Some(seen), Some(stored)) => seen.same_version(stored),
            (None, None) => true,
            _ => false,
        };
        same && !reg.is_corrupt(key) && self.now.as_ref().is_none_or(|t| *t == reg.now_text())
    }
}

impl std::fmt::Debug for Predecoded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Predecoded")
            .field("kind", &self.0.kind)
            .field("level", &self.0.level)
            .finish_non_exhaustive()
    }
}

/// Identifies the kind a body is decoded as.
fn kind_of(info: &ResourceInfo) -> (&'static str, &'static str, &'static str) {
    (info.group, info.version, info.kind)
}

impl Predecoded {
    /// Whether what was made ahead is still here: not taken by the engine (a request refused
    /// before its handler, or a patch or apply made against a version no longer live). The
    /// host frees it after the engine's lock with its own handle.
    pub fn is_untaken(&self) -> bool {
        self.0
            .result
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .is_some()
    }

    /// The decoded body for `req`'s decode as `info` at `level`, if it was decoded ahead with
    /// exactly these (and not taken already).
    pub(super) fn take(
        &self,
        req: &Request<'_>,
        info: &ResourceInfo,
        level: FieldValidation,
    ) -> Option<ApiResult<DecodedBody>> {
        match self.take_made(req, info, level, |m| matches!(m, Made::Body(_)))? {
            Made::Body(body) => Some(body),
            _ => None,
        }
    }

    /// The patch prepared for `req`'s patch of `info` at `level`, as [`Predecoded::take`], if
    /// it still [`Prepared::holds`] for `key`. One that does not stays here, to be freed by the
    /// host after the engine's lock.
    pub(crate) fn take_patch(
        &self,
        req: &Request<'_>,
        info: &ResourceInfo,
        level: FieldValidation,
        reg: &Registry,
        key: &str,
    ) -> Option<Prepared<handlers::patch::Patched>> {
        let holds = |m: &Made| matches!(m, Made::Patch(p) if p.holds(reg, key));
        match self.take_made(req, info, level, holds)? {
            Made::Patch(p) => Some(p),
            _ => None,
        }
    }

    /// The apply prepared for `req`'s apply to `info` at `level`, as
    /// [`Predecoded::take_patch`]: only while it still holds.
    pub(crate) fn take_apply(
        &self,
        req: &Request<'_>,
        info: &ResourceInfo,
        level: FieldValidation,
        reg: &Registry,
        key: &str,
    ) -> Option<Prepared<handlers::apply::Applied>> {
        let holds = |m: &Made| matches!(m, Made::Apply(p) if p.holds(reg, key));
        match self.take_made(req, info, level, holds)? {
            Made::Apply(p) => Some(p),
            _ => None,
        }
    }

    /// What was made for exactly these kinds, encodings, kind and level, if it is `wanted`.
    fn take_made(
        &self,
        req: &Request<'_>,
        info: &ResourceInfo,
        level: FieldValidation,
        wanted: impl FnOnce(&Made) -> bool,
    ) -> Option<Made> {
        let ahead = &self.0;
        let same = Arc::ptr_eq(&ahead.kinds, &req.kinds)
            && ahead.served == req.served
            && ahead.kind == kind_of(info)
            && ahead.level == level;
        if !same {
            return None;
        }
        let mut slot = ahead.result.lock().unwrap_or_else(|p| p.into_inner());
        if !slot.as_ref().is_some_and(wanted) {
            return None;
        }
        slot.take()
    }
}

/// Reads the version stored at a storage key: what an update's tracking and validation, or
/// a patch or apply, is prepared against.
pub type LiveLookup<'a> = &'a dyn Fn(&str) -> Option<crate::codec::Object>;

/// Whether [`predecode`] may decode `req`'s body: a POST, PUT or PATCH with one.
pub fn applies(req: &http::Request<Bytes>) -> bool {
    matches!(*req.method(), Method::POST | Method::PUT | Method::PATCH) && !req.body().is_empty()
}

/// Decodes the body of a create (POST to a collection) or update (PUT) as its handler will,
/// given the kinds and encodings the engine serves, with its field tracking and the kind's
/// validation (a named create's); `None` for any other request, or one whose options or
/// size its handler refuses before decoding.
///
/// `live` reads the object stored at a key (briefly taking the engine's lock): given it, an
/// update of a main resource also has its tracking and validation prepared against that
/// version, which the engine uses only if it is still the live one when the update reaches
/// it, and a patch of a main resource (PATCH) is applied to that version, an apply at `now`,
/// the engine's time as the host read it. Without it, a PATCH is left to the engine.
pub fn predecode(
    kinds: &Arc<Kinds>,
    served: &[Encoding],
    now: &str,
    req: &http::Request<Bytes>,
    live: Option<LiveLookup<'_>>,
) -> Option<Predecoded> {
    if !applies(req) {
        return None;
    }
    let path = super::path::unescape(req.uri().path())?;
    let Route::Resource(rr) = route::route(kinds, req.method().as_str(), &path, false) else {
        return None;
    };
    if !matches!(rr.verb, Verb::Create | Verb::Update | Verb::Patch) {
        return None;
    }
    // A patch is made against the stored version: nothing to prepare without a look at it.
    let live = match (rr.verb, live) {
        (Verb::Patch, None) => return None,
        (_, live) => live,
    };
    let request = Request {
        method: req.method(),
        path: &path,
        query: Query::parse(req.uri().query().unwrap_or("")),
        headers: req.headers(),
        body: req.body(),
        served: served.to_vec(),
        output: Negotiated::JSON,
        kinds: kinds.clone(),
        user: None,
        predecoded: None,
    };
    handlers::body_within_limit(&request).ok()?;
    let (level, made) = match (rr.verb, live) {
        (Verb::Patch, Some(live)) => handlers::patch::prepare(&request, &rr, live, now)?,
        _ => body_made(&request, &rr, live)?,
    };
    Some(Predecoded(Arc::new(Ahead {
        kinds: kinds.clone(),
        served: request.served,
        kind: kind_of(rr.resource),
        level,
        result: Mutex::new(Some(made)),
    })))
}

/// A create's or update's body decoded as its handler will, with the field tracking (and
/// validation) of the object its handler will track (namespace reconciled), all but the
/// write's time: a create's, or an update's of the main resource against the version `live`
/// reads now. `None` when the options are refused (the handler answers them).
fn body_made(
    request: &Request<'_>,
    rr: &super::ResourceRequest,
    live: Option<LiveLookup<'_>>,
) -> Option<(FieldValidation, Made)> {
    let options_kind = match rr.verb {
        Verb::Create => "CreateOptions",
        _ => "UpdateOptions",
    };
    let options = handlers::write_options(request, options_kind).ok()?;
    let level = options.field_validation;
    let mut result = handlers::decode_body(request, rr.resource, level);
    let namespace = rr.namespace.as_deref();
    // What to track against: nothing for a create, the stored version for an update of the
    // main resource; `None` when there is nothing to prepare.
    let against = match (rr.verb, live, &rr.subresource) {
        (Verb::Create, _, _) => Some(None),
        (Verb::Update, Some(live), None) => {
            let name = rr.name.as_deref().unwrap_or("");
            live(&rr.resource.key(namespace.unwrap_or(""), name)).map(Some)
        }
        _ => None,
    };
    if let (Ok(body), Some(against)) = (&mut result, against) {
        let mut obj = body.object.clone();
        if handlers::reconcile_namespace(&mut obj, rr.resource, namespace).is_ok() {
            let write = options.write(request, "", body.managed_fields.as_ref());
            body.pretracked = Some(match against {
                Some(live) => crate::registry::pretrack(rr.resource, Some(live), obj, &write),
                None => crate::registry::pretrack_create(rr.resource, obj, &write, &body.sent),
            });
        }
    }
    Some((level, Made::Body(result)))
}
