//! GET of one object.
//!
//! `resourceVersion` unset is a consistent (Most Recent) read from etcd; `0` is Any; any other
//! value is Not-older-than, which waits up to 3 s for the watch cache to reach it, then
//! answers 504 "Too large resource version". The read planner picks the source.

use crate::api::route::ResourceRequest;
use crate::api::{Reply, Request};
use crate::cache::planner::{Read, Semantic};
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
    if let Some(wait) = reg.cache_wait(semantic, Read::Get) {
        return Ok(Reply::waiting(wait));
    }
    let (obj, explain) = reg.get(
        rr.resource,
        rr.namespace.as_deref().unwrap_or(""),
        rr.name.as_deref().unwrap_or(""),
        semantic,
    )?;
    let mut reply = Reply::stored(200, obj);
    reply
        .headers
        .push((crate::api::response::READ_HEADER, explain));
    Ok(reply)
}
