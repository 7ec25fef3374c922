//! GET of one object.
//!
//! `resourceVersion` unset is a consistent (Most Recent) read; `0` is Any; any other value is
//! Not-older-than, answered with 504 "Too large resource version" when the store has not
//! reached it. (Order 2 serves `0` and N from the watch cache.)

use super::{invalid_rv_text, parse_rv};
use crate::api::route::ResourceRequest;
use crate::api::status::{ApiError, ApiResult};
use crate::api::{Reply, Request};
use crate::engine::Engine;

/// GET `.../RESOURCE/NAME`.
pub fn get(engine: &mut Engine, req: &Request<'_>, rr: &ResourceRequest) -> ApiResult<Reply> {
    let info = rr.resource;
    let name = rr.name.as_deref().unwrap_or("");
    if let Some(rv) = req.query.string("resourceVersion") {
        match parse_rv(rv) {
            None => return Err(ApiError::untyped(500, invalid_rv_text(rv))),
            Some(n) if n > engine.store().revision() => {
                return Err(engine.too_large_resource_version(n));
            }
            Some(_) => {}
        }
    }
    let key = info.key(rr.namespace.as_deref().unwrap_or(""), name);
    match engine.store().get(&key) {
        Some(obj) => Ok(Reply::new(200, (**obj).clone())),
        None => Err(ApiError::not_found(info.group_resource(), name)),
    }
}
