//! PUT: options, body, name and namespace checks, then the registry's update.
//!
//! Optimistic concurrency as in kube-apiserver: a body without `resourceVersion` updates
//! unconditionally (ControllerRevision and Namespace allow it), a stale one is a 409. A write
//! that changes nothing does not bump the resourceVersion, and an update that leaves a
//! terminating object without finalizers deletes it.

use serde_json::Value;

use super::{decode_body, reconcile_namespace, write_options};
use crate::api::route::ResourceRequest;
use crate::api::{Reply, Request};
use crate::registry::Registry;
use crate::resources::meta::meta_mut;
use crate::resources::status::{ApiError, ApiResult};

/// PUT to an object.
pub fn update(reg: &mut Registry, req: &Request<'_>, rr: &ResourceRequest) -> ApiResult<Reply> {
    let info = rr.resource;
    let opts = write_options(req, "UpdateOptions")?;
    let body = decode_body(req, info, opts.field_validation)?;
    let mut obj = body.object;
    reconcile_namespace(&mut obj, info, rr.namespace.as_deref())?;
    let url_name = rr.name.as_deref().unwrap_or("");
    check_name(&mut obj, url_name)?;
    let key = info.key(rr.namespace.as_deref().unwrap_or(""), url_name);
    let subresource = rr.subresource.as_deref().unwrap_or("");
    let mut write = opts.write(req, subresource, super::sent_managed_fields(&body.raw));
    write.raw_text = body.raw_text;
    // A create on update is authorized by the URL's name (the RBAC kinds' escalate check).
    write.request_name = Some(url_name.to_string());
    let (out, created) = reg.put(info, &key, obj, &body.raw, &write)?;
    let mut reply = Reply::new(if created { 201 } else { 200 }, out);
    reply.warnings = body.warnings;
    Ok(reply)
}

/// `checkName`: the body must name the object the URL names.
fn check_name(obj: &mut serde_json::Map<String, Value>, url_name: &str) -> ApiResult<()> {
    let body_name = meta_mut(obj)
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("");
    if body_name.is_empty() {
        return Err(ApiError::bad_request(format!(
            "the name of the object ({url_name} based on URL) was undeterminable: name must be provided"
        )));
    }
    if body_name != url_name {
        return Err(ApiError::bad_request(format!(
            "the name of the object ({body_name}) does not match the name on the URL ({url_name})"
        )));
    }
    Ok(())
}

/// PUT to a subresource the kind stores itself (a Namespace's `finalize`): the kind's
/// strategy builds the object to write from the current one and the request's; other
/// subresources are written as the main resource is.
pub fn update_subresource(
    reg: &mut Registry,
    req: &Request<'_>,
    rr: &ResourceRequest,
    subresource: &str,
) -> ApiResult<Reply> {
    let info = rr.resource;
    let opts = write_options(req, "UpdateOptions")?;
    let body = decode_body(req, info, opts.field_validation)?;
    let name = rr.name.as_deref().unwrap_or("");
    let key = info.key(rr.namespace.as_deref().unwrap_or(""), name);
    let write = opts.write(req, subresource, super::sent_managed_fields(&body.raw));
    match reg.update_own_subresource(info, &key, name, subresource, body.object, &write)? {
        Some(out) => Ok(Reply::new(200, out)),
        None => update(reg, req, rr),
    }
}
