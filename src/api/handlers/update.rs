//! PUT: options, body, name and namespace checks, then the registry's update.
//!
//! Optimistic concurrency as in kube-apiserver: a body without `resourceVersion` updates
//! unconditionally (ControllerRevision and Namespace allow it), a stale one is a 409. A write
//! that changes nothing does not bump the resourceVersion, and an update that leaves a
//! terminating object without finalizers deletes it.

use super::{decode_body, reconcile_namespace, write_options};
use crate::api::route::ResourceRequest;
use crate::api::{Reply, Request};
use crate::registry::Registry;
use crate::resources::status::ApiResult;

/// PUT to an object.
pub fn update(reg: &mut Registry, req: &Request<'_>, rr: &ResourceRequest) -> ApiResult<Reply> {
    let info = rr.resource;
    super::body_within_limit(req)?;
    let opts = write_options(req, "UpdateOptions")?;
    let body = decode_body(req, info, opts.field_validation)?;
    let mut obj = body.object;
    reconcile_namespace(&mut obj, info, rr.namespace.as_deref())?;
    let url_name = rr.name.as_deref().unwrap_or("");
    super::check_name(&obj, url_name)?;
    let key = info.key(rr.namespace.as_deref().unwrap_or(""), url_name);
    let subresource = rr.subresource.as_deref().unwrap_or("");
    let mut write = opts.write(req, subresource, body.managed_fields.as_ref());
    write.raw_text = body.raw_text;
    // A create on update is authorized by the URL's name (the RBAC kinds' escalate check).
    write.request_name = Some(url_name.to_string());
    let (written, created) = reg.put(info, &key, obj, &body.sent, &write, body.pretracked)?;
    let mut reply = Reply::written(if created { 201 } else { 200 }, written);
    reply.warnings = body.warnings;
    Ok(reply)
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
    super::body_within_limit(req)?;
    let opts = write_options(req, "UpdateOptions")?;
    let body = decode_body(req, info, opts.field_validation)?;
    let name = rr.name.as_deref().unwrap_or("");
    let key = info.key(rr.namespace.as_deref().unwrap_or(""), name);
    let write = opts.write(req, subresource, body.managed_fields.as_ref());
    match reg.update_own_subresource(info, &key, name, subresource, body.object, &write)? {
        Some(out) => Ok(Reply::new(200, out)),
        None => update(reg, req, rr),
    }
}
