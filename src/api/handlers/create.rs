//! POST: options, body, namespace checks, then the registry's create.
//!
//! Order of checks, as in kube-apiserver: options (422) → body decode (400/415) → namespace
//! match (400) → namespace lifecycle admission (404/403) → defaults, generated name and
//! system fields → validation (422) → storage (409 AlreadyExists) → 201.

use serde_json::Value;

use super::{decode_body, reconcile_namespace, write_options};
use crate::api::route::ResourceRequest;
use crate::api::{Reply, Request};
use crate::registry::Registry;
use crate::resources::meta::meta_mut;
use crate::resources::status::ApiResult;

/// POST to a collection.
pub fn create(reg: &mut Registry, req: &Request<'_>, rr: &ResourceRequest) -> ApiResult<Reply> {
    let info = rr.resource;
    super::body_within_limit(req)?;
    let opts = write_options(req, "CreateOptions")?;
    let body = decode_body(req, info, opts.field_validation)?;
    let mut obj = body.object;
    reconcile_namespace(&mut obj, info, rr.namespace.as_deref())?;
    let name = meta_mut(&mut obj)
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    reg.admit_namespace_write(info, rr.namespace.as_deref().unwrap_or(""), &name)?;
    let mut write = opts.write(req, "", body.managed_fields.as_ref());
    write.raw_text = body.raw_text;
    let written = reg.create_pretracked(info, obj, &body.sent, &write, body.pretracked)?;
    let mut reply = Reply::written(201, written);
    reply.warnings = body.warnings;
    Ok(reply)
}
