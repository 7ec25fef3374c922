//! GET of one object.
//!
//! `resourceVersion` unset is a consistent (Most Recent) read; `0` is Any; any other value is
//! Not-older-than, answered with 504 "Too large resource version" when the store has not
//! reached it. The read planner picks the source.

use crate::api::route::ResourceRequest;
use crate::api::{Reply, Request};
use crate::cache::planner::Semantic;
use crate::registry::Registry;
use crate::resources::meta::{invalid_rv_text, parse_rv};
use crate::resources::status::{ApiError, ApiResult};

/// GET `.../RESOURCE/NAME`.
pub fn get(reg: &mut Registry, req: &Request<'_>, rr: &ResourceRequest) -> ApiResult<Reply> {
    let semantic = match req.query.string("resourceVersion") {
        None => Semantic::MostRecent,
        Some("0") => Semantic::Any,
        Some(rv) => match parse_rv(rv) {
            None => return Err(ApiError::untyped(500, invalid_rv_text(rv))),
            Some(n) => Semantic::NotOlderThan(n),
        },
    };
    let (obj, explain) = reg.get(
        rr.resource,
        rr.namespace.as_deref().unwrap_or(""),
        rr.name.as_deref().unwrap_or(""),
        semantic,
    )?;
    let mut reply = Reply::new(200, (*obj).clone());
    reply
        .headers
        .push((crate::api::response::READ_HEADER, explain));
    Ok(reply)
}
