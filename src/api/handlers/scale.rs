//! A custom resource's `scale` subresource (`ScaleREST`): GET answers the object as an
//! autoscaling/v1 Scale; PUT and the JSON and merge patches of that Scale write its
//! `spec.replicas` to the object's spec replicas path (a `resourceVersion` in the Scale is a
//! precondition), through the object's own strategy and validation. Server-side apply of a
//! Scale, which the real server serves, is refused here with the CRD handler's 415.

use serde_json::Value;

use super::patch_body::PatchKind;
use super::{write_options, FieldValidation};
use crate::api::route::{ResourceRequest, Verb};
use crate::api::{Reply, Request};
use crate::codec::{decode, go_quote};
use crate::patch::{json_patch, merge_patch};
use crate::registry::Registry;
use crate::resources::custom::scale::{scale_of, set_replicas, SCALE};
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
    match scale_of(paths(rr), obj).map_err(ApiError::internal)? {
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

/// GET, PUT or PATCH of `.../NAME/scale`.
pub fn serve(reg: &mut Registry, req: &Request<'_>, rr: &ResourceRequest) -> ApiResult<Reply> {
    match rr.verb {
        Verb::Get => Ok(Reply::new(200, scale(rr, &current(reg, rr)?)?)),
        Verb::Update => {
            super::body_within_limit(req)?;
            let opts = write_options(req, "UpdateOptions")?;
            let sent = decode_scale(req.body, opts.field_validation)?;
            write(reg, req, rr, sent, &opts)
        }
        Verb::Patch => {
            super::body_within_limit(req)?;
            let kind = match super::patch::media(req, rr.resource)? {
                super::patch::PatchMedia::Patch(kind) => kind,
                // Server-side apply of a Scale is not served here (the real server serves it).
                super::patch::PatchMedia::Apply { cbor } => {
                    return Err(super::patch::custom_media_unsupported(cbor))
                }
            };
            let opts = super::patch::options(req)?;
            let (mut patched, found) =
                scale_of(paths(rr), &current(reg, rr)?).map_err(ApiError::internal)?;
            if !found {
                patched["spec"]["replicas"] = INVALID_SPEC_REPLICAS.into();
            }
            let patch = super::patch_body::decode(kind, req.body, opts.field_validation)?;
            let failed = super::patch::map_err;
            match kind {
                PatchKind::Json => {
                    let ops = json_patch::operations(&patch.value).map_err(failed)?;
                    json_patch::apply(&mut patched, ops).map_err(failed)?;
                }
                _ => merge_patch::apply(&mut patched, &patch.value),
            }
            let sent = decode_scale(&crate::codec::json::to_vec(&patched), opts.field_validation)?;
            write(reg, req, rr, sent, &opts)
        }
        _ => Err(ApiError::method_not_allowed_route()),
    }
}

/// A Scale body, decoded as the typed autoscaling/v1 Scale.
fn decode_scale(body: &[u8], level: FieldValidation) -> ApiResult<Value> {
    let bad = |e: &str| {
        ApiError::bad_request(format!(
            "Scale in version \"v1\" cannot be handled as a Scale: {e}"
        ))
    };
    let d = decode::decode_bytes(body, &SCALE).map_err(|e| bad(&e.to_string()))?;
    if level == FieldValidation::Strict && !d.strict.is_empty() {
        let findings: Vec<String> = d.strict.iter().map(|s| s.message()).collect();
        return Err(bad(&decode::strict_decoding_message(&findings)));
    }
    Ok(Value::Object(d.object))
}

/// `scaleUpdatedObjectInfo`: the object with the Scale's replicas, written as an update of
/// the object through `scale`; the answer is the written object's Scale.
fn write(
    reg: &mut Registry,
    req: &Request<'_>,
    rr: &ResourceRequest,
    sent: Value,
    opts: &super::WriteOptions,
) -> ApiResult<Reply> {
    let (key, name) = key_and_name(rr);
    let Value::Object(mut sent) = sent else {
        return Err(ApiError::internal("the Scale is not an object"));
    };
    super::reconcile_namespace(&mut sent, rr.resource, rr.namespace.as_deref())?;
    super::check_name(&sent, name)?;
    let mut obj = current(reg, rr)?;
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
