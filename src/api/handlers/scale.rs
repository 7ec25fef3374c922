//! A custom resource's `scale` subresource (`ScaleREST`): GET answers the object as an
//! autoscaling/v1 Scale; PUT (a Scale in JSON, YAML or CBOR, decoded as any update's body,
//! with its strict findings) and the JSON and merge patches of that Scale (decoded as any
//! patched object, its failures the patch's 422) write its `spec.replicas` to the object's
//! spec replicas path (a `resourceVersion` in the Scale is a precondition), through the
//! object's own strategy and validation. Server-side apply of a Scale is refused here with
//! the CRD handler's 415: on a real server it is routed, but reported to fail for want of a
//! Scale type in the custom resource's type converter (kubernetes#116311).

use serde_json::Value;

use super::write_options;
use crate::api::route::{ResourceRequest, Verb};
use crate::api::{Reply, Request};
use crate::codec::go_quote;
use crate::registry::Registry;
use crate::resources::custom::scale::{scale_of, set_replicas, SCALE_CLUSTER, SCALE_NAMESPACED};
use crate::resources::custom::Scale;
use crate::resources::status::{ApiError, ApiResult};

/// Whether `rr` is a custom resource's scale subresource.
pub fn serves(rr: &ResourceRequest) -> bool {
    rr.subresource.as_deref() == Some("scale") && rr.resource.custom.is_some()
}

fn paths(rr: &ResourceRequest) -> &'static Scale {
    rr.resource
        .custom
        .and_then(|c| c.scale.as_ref())
        .expect("routed only for a kind with a scale subresource")
}

fn key_and_name(rr: &ResourceRequest) -> (String, &str) {
    let name = rr.name.as_deref().unwrap_or("");
    (
        rr.resource.key(rr.namespace.as_deref().unwrap_or(""), name),
        name,
    )
}

/// The current object, or the resource's NotFound.
fn current(reg: &Registry, rr: &ResourceRequest) -> ApiResult<Value> {
    let (key, name) = key_and_name(rr);
    reg.read_current(rr.resource, &key)?
        .ok_or_else(|| ApiError::not_found(rr.resource.group_resource(), name))
}

/// The object's Scale; without its spec replicas field, the 500 `ScaleREST.Get` answers.
fn scale(rr: &ResourceRequest, obj: &Value) -> ApiResult<Value> {
    match scale_of(paths(rr), obj).map_err(accessor_error)? {
        (scale, true) => Ok(scale),
        (_, false) => Err(ApiError::internal(format!(
            "the spec replicas field {} does not exist",
            go_quote(&paths(rr).spec_replicas)
        ))),
    }
}

/// `invalidSpecReplicas`: what a patch's base Scale holds when the object has no spec
/// replicas field, so that a patch that does not set them is refused.
const INVALID_SPEC_REPLICAS: i64 = i32::MIN as i64;

/// The kind a body of this subresource decodes into.
fn scale_kind(rr: &ResourceRequest) -> &'static crate::resources::ResourceInfo {
    match rr.resource.namespaced {
        true => &SCALE_NAMESPACED,
        false => &SCALE_CLUSTER,
    }
}

/// GET, PUT or PATCH of `.../NAME/scale`.
pub fn serve(reg: &mut Registry, req: &Request<'_>, rr: &ResourceRequest) -> ApiResult<Reply> {
    match rr.verb {
        Verb::Get => Ok(Reply::new(200, scale(rr, &current(reg, rr)?)?)),
        // A Scale body in any encoding the subresource takes, as any update's.
        Verb::Update => {
            super::body_within_limit(req)?;
            let opts = write_options(req, "UpdateOptions")?;
            let body = super::decode_body(req, scale_kind(rr), opts.field_validation)?;
            let mut reply = write(reg, req, rr, body.object, None, &opts)?;
            reply.warnings = body.warnings;
            Ok(reply)
        }
        Verb::Patch => {
            // The media type (415) before the body (413), as for any patch.
            let kind = match super::patch::media(req, rr.resource)? {
                super::patch::PatchMedia::Patch(kind) => kind,
                // Server-side apply of a Scale is not served here (the real server serves it).
                super::patch::PatchMedia::Apply { cbor } => {
                    return Err(super::patch::custom_media_unsupported(cbor))
                }
            };
            super::body_within_limit(req)?;
            let opts = super::patch::options(req)?;
            let obj = current(reg, rr)?;
            let (mut base, found) = scale_of(paths(rr), &obj).map_err(accessor_error)?;
            if !found {
                base["spec"]["replicas"] = INVALID_SPEC_REPLICAS.into();
            }
            // Patched and decoded as any patched object is, as a Scale.
            let patched = super::patch::patched_as(req, rr, scale_kind(rr), kind, &opts, &base)?;
            let mut reply = write(reg, req, rr, patched.obj, Some(obj), &opts)?;
            reply.warnings = patched.warnings;
            Ok(reply)
        }
        _ => Err(ApiError::method_not_allowed_route()),
    }
}

/// An accessor's error on a replicas or selector path: a plain error, so the handler's 500
/// with no reason.
fn accessor_error(e: String) -> ApiError {
    ApiError::untyped(500, e)
}

/// `scaleUpdatedObjectInfo`: the object (`read`, when the caller has it) with the Scale's
/// replicas, written as an update of the object through `scale`; the answer is the written
/// object's Scale.
fn write(
    reg: &mut Registry,
    req: &Request<'_>,
    rr: &ResourceRequest,
    mut sent: serde_json::Map<String, Value>,
    read: Option<Value>,
    opts: &super::WriteOptions,
) -> ApiResult<Reply> {
    let (key, name) = key_and_name(rr);
    super::reconcile_namespace(&mut sent, rr.resource, rr.namespace.as_deref())?;
    super::check_name(&sent, name)?;
    // A patch read the object already; an update reads it after its own checks.
    let mut obj = match read {
        Some(obj) => obj,
        None => current(reg, rr)?,
    };
    crate::resources::custom::conversion::value_to_served(rr.resource, &mut obj);
    let rv = sent["metadata"]["resourceVersion"].as_str().unwrap_or("");
    if !rv.is_empty() {
        obj["metadata"]["resourceVersion"] = Value::String(rv.to_string());
    }
    let replicas = sent["spec"]["replicas"].as_i64().unwrap_or(0);
    if replicas == INVALID_SPEC_REPLICAS {
        return Err(ApiError::bad_request(format!(
            "the spec replicas field {} cannot be empty",
            go_quote(&paths(rr).spec_replicas)
        )));
    }
    set_replicas(paths(rr), &mut obj, replicas);
    let Value::Object(obj) = obj else {
        return Err(ApiError::internal("the object is not an object"));
    };
    let w = opts.write(req, "scale", None);
    let out = reg.update(rr.resource, &key, obj, &w)?;
    Ok(Reply::new(200, scale(rr, &out)?))
}
