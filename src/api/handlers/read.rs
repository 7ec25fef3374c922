//! GET of one object.
//!
//! `resourceVersion` unset is a consistent (Most Recent) read; `0` is Any; any other value is
//! Not-older-than, answered with 504 "Too large resource version" when the store has not
//! reached it. (Order 2 serves `0` and N from the watch cache.)

use super::list::{not_older_than, Chosen};
use super::view::{Source, View};
use super::{invalid_rv_text, parse_rv};
use crate::api::route::ResourceRequest;
use crate::api::status::{ApiError, ApiResult};
use crate::api::{Reply, Request};
use crate::engine::Engine;

/// GET `.../RESOURCE/NAME`.
pub fn get(engine: &mut Engine, req: &Request<'_>, rr: &ResourceRequest) -> ApiResult<Reply> {
    let info = rr.resource;
    let name = rr.name.as_deref().unwrap_or("");
    let key = info.key(rr.namespace.as_deref().unwrap_or(""), name);
    let (chosen, semantic) = match req.query.string("resourceVersion") {
        None => (
            Chosen {
                view: View::Store(engine.store(), engine.store().revision()),
                rv: engine.store().revision(),
                source: Source::Store,
                waited_ms: 0,
            },
            "MostRecent",
        ),
        Some("0") => (
            Chosen {
                view: View::Index(engine.cache().state().clone()),
                rv: engine.cache().revision(),
                source: Source::WatchCache,
                waited_ms: 0,
            },
            "Any",
        ),
        Some(rv) => match parse_rv(rv) {
            None => return Err(ApiError::untyped(500, invalid_rv_text(rv))),
            Some(n) => (not_older_than(engine, n)?, "NotOlderThan"),
        },
    };
    let found = chosen
        .view
        .get(&key)
        .map_err(|_| ApiError::expired("The resourceVersion for the provided get is too old."))?;
    match found {
        Some(obj) => {
            let mut reply = Reply::new(200, (*obj).clone());
            reply
                .headers
                .push((crate::api::response::READ_HEADER, chosen.explain(semantic)));
            Ok(reply)
        }
        None => Err(ApiError::not_found(info.group_resource(), name)),
    }
}
