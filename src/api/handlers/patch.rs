//! PATCH: JSON Patch, JSON Merge Patch and strategic merge patch, applied to the current
//! object and then written through the same update path as PUT (validation, optimistic
//! concurrency when the patch sets `metadata.resourceVersion`, no-op detection).
//! Server-side apply has its own handler ([`super::apply`]).

use serde_json::{json, Value};

use super::FieldValidation;
use crate::api::route::ResourceRequest;
use crate::api::{Reply, Request};
use crate::codec::{decode, json as gojson};
use crate::patch::{json_patch, merge_patch, strategic, PatchError};
use crate::registry::Registry;
use crate::resources::field::FieldError;
use crate::resources::meta::meta_mut;
use crate::resources::status::{ApiError, ApiResult, Cause, Details};

/// The patch media types kubesim accepts, in the order the 415 lists them
/// (`application/apply-patch+cbor` follows when CBOR is served).
pub const PATCH_TYPES: &[&str] = &[
    "application/json-patch+json",
    "application/merge-patch+json",
    "application/strategic-merge-patch+json",
    "application/apply-patch+yaml",
];

/// The apply media type for CBOR bodies.
pub const APPLY_CBOR: &str = "application/apply-patch+cbor";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Json,
    Merge,
    Strategic,
}

fn unprocessable(msg: String) -> ApiError {
    let mut e = ApiError::untyped(
        422,
        "the server rejected our request due to an error in our request",
    );
    e.reason = "Invalid";
    e.details = Some(Box::new(Details {
        causes: vec![Cause {
            reason: "UnexpectedServerResponse".into(),
            message: msg,
            field: None,
        }],
        ..Details::default()
    }));
    e
}

fn map_err(e: PatchError) -> ApiError {
    match e {
        PatchError::BadRequest(m) => ApiError::bad_request(m),
        PatchError::Unprocessable(m) => unprocessable(m),
        PatchError::TooLarge(m) => {
            let mut e = ApiError::untyped(413, format!("Request entity too large: {m}"));
            e.reason = "RequestEntityTooLarge";
            e
        }
        PatchError::Internal(m) => ApiError::untyped(500, m),
    }
}

/// The 422 with an empty group/kind and name that patch decoding failures produce.
fn patch_invalid(value: String, detail: &str) -> ApiError {
    ApiError::invalid(
        crate::resources::status::GroupKind {
            group: "",
            kind: "",
        },
        "",
        &[FieldError::invalid("patch", Value::String(value), detail)],
    )
}

/// PATCH of one object.
pub fn patch(reg: &mut Registry, req: &Request<'_>, rr: &ResourceRequest) -> ApiResult<Reply> {
    let info = rr.resource;
    let ct = req.header("content-type");
    let media = ct
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    let cbor = req
        .served
        .contains(&crate::api::negotiation::Encoding::Cbor);
    let kind = match media.as_str() {
        "application/json-patch+json" => Kind::Json,
        "application/merge-patch+json" => Kind::Merge,
        "application/strategic-merge-patch+json" => Kind::Strategic,
        "application/apply-patch+yaml" => return super::apply::apply(reg, req, rr, false),
        APPLY_CBOR if cbor => return super::apply::apply(reg, req, rr, true),
        _ => {
            let mut types = PATCH_TYPES.to_vec();
            if cbor {
                types.push(APPLY_CBOR);
            }
            return Err(ApiError::unsupported_media_type(format!(
                "the body of the request was in an unknown format - accepted media types include: {}",
                types.join(", ")
            )));
        }
    };
    // `ValidatePatchOptions`: `force` (even `false`) is only for apply patches.
    let mut first = Vec::new();
    if req.query.has("force") {
        first.push(FieldError::forbidden(
            "force",
            "may not be specified for non-apply patch",
        ));
    }
    let opts = super::write_options_after(req, "PatchOptions", first)?;
    let name = rr.name.as_deref().unwrap_or("");
    let key = info.key(rr.namespace.as_deref().unwrap_or(""), name);
    let Some(current) = reg.read_current(&key)? else {
        return Err(ApiError::not_found(info.group_resource(), name));
    };
    let parsed = gojson::parse(req.body).map_err(|e| match kind {
        Kind::Merge => ApiError::bad_request("Invalid JSON Patch"),
        _ => ApiError::bad_request(e.message),
    })?;
    let mut patched = (*current).clone();
    match kind {
        Kind::Json => {
            let ops = json_patch::parse(&parsed.value).map_err(map_err)?;
            json_patch::apply(&mut patched, &ops).map_err(map_err)?;
        }
        Kind::Merge => merge_patch::apply(&mut patched, &parsed.value),
        Kind::Strategic => {
            patched = strategic::apply(&patched, &parsed.value).map_err(map_err)?;
        }
    }
    // Decode the patched object as the typed object it must be (unknown fields per level).
    let bytes = gojson::to_vec(&patched);
    let decoded = decode::decode_bytes(&bytes, info.schema)
        .map_err(|e| patch_invalid(gojson::to_compact_string(&patched), &e.to_string()))?;
    let mut warnings = Vec::new();
    if !decoded.strict.is_empty() {
        match opts.field_validation {
            FieldValidation::Strict => {
                return Err(patch_invalid(
                    gojson::to_compact_string(&patched),
                    &decode::strict_decoding_message(&decoded.strict),
                ))
            }
            FieldValidation::Warn => {
                warnings = decoded.strict.iter().map(|s| s.message()).collect();
            }
            FieldValidation::Ignore => {}
        }
    }
    let mut obj = decoded.object;
    obj.insert("kind".into(), json!(info.kind));
    obj.insert("apiVersion".into(), json!(info.api_version()));
    let body_name = meta_mut(&mut obj)
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    if body_name != name {
        return Err(ApiError::bad_request(format!(
            "the name of the object ({body_name}) does not match the name on the URL ({name})"
        )));
    }
    super::reconcile_namespace(&mut obj, info, rr.namespace.as_deref())?;
    let sent = patched.pointer("/metadata/managedFields");
    let write = opts.write(req, rr.subresource.as_deref().unwrap_or(""), sent);
    let out = reg.update(info, &key, obj, &write)?;
    let mut reply = Reply::new(200, out);
    reply.warnings = warnings;
    Ok(reply)
}
