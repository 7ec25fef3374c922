//! PATCH: JSON Patch, JSON Merge Patch and strategic merge patch, applied to the current
//! object and then written through the same update path as PUT (validation, optimistic
//! concurrency when the patch sets `metadata.resourceVersion`, no-op detection).
//! Server-side apply has its own handler ([`super::apply`]).

use serde_json::{json, Value};

use super::patch_body::{self, PatchKind};
use super::FieldValidation;
use crate::api::route::ResourceRequest;
use crate::api::{Reply, Request};
use crate::codec::{decode, json as gojson};
use crate::patch::{json_patch, merge_patch, strategic, PatchError};
use crate::registry::Registry;
use crate::resources::field::FieldError;
use crate::resources::status::{ApiError, ApiResult, Details};

/// The apply media type for CBOR bodies.
pub const APPLY_CBOR: &str = "application/apply-patch+cbor";

/// `NewGenericServerResponse(422, ...)`: the generic message, the patch library's text
/// nowhere but in the server's log, `details: {}`.
fn unprocessable() -> ApiError {
    let mut e = ApiError::untyped(
        422,
        "the server rejected our request due to an error in our request",
    );
    e.reason = "Invalid";
    e.details = Some(Box::new(Details::default()));
    e
}

fn map_err(e: PatchError) -> ApiError {
    match e {
        PatchError::BadRequest(m) => ApiError::bad_request(m),
        PatchError::Unprocessable(_) => unprocessable(),
        PatchError::TooLarge(m) => ApiError::request_entity_too_large(&m),
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
    // The route's media-type check (415) comes before the body is read (413).
    let kind = match media.as_str() {
        "application/json-patch+json" => Some(PatchKind::Json),
        "application/merge-patch+json" => Some(PatchKind::Merge),
        "application/strategic-merge-patch+json" => Some(PatchKind::Strategic),
        "application/apply-patch+yaml" => None,
        APPLY_CBOR if cbor => None,
        // The PATCH route consumes only the patch types: go-restful answers the rest.
        _ => return Err(ApiError::unsupported_media_type_route()),
    };
    super::body_within_limit(req)?;
    let Some(kind) = kind else {
        return super::apply::apply(reg, req, rr, media == APPLY_CBOR);
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
    let patch = patch_body::decode(kind, req.body, opts.field_validation)?;
    let mut patched = current.clone();
    match kind {
        PatchKind::Json => {
            let ops = json_patch::operations(&patch.value).map_err(map_err)?;
            json_patch::apply(&mut patched, ops).map_err(map_err)?;
        }
        PatchKind::Merge => merge_patch::apply(&mut patched, &patch.value),
        PatchKind::Strategic => {
            patched = strategic::apply(&patched, &patch.value).map_err(map_err)?;
        }
    }
    let invalid = |detail: &str| {
        patch_invalid(
            patch_body::quoted_value(kind, &patched, &patch.value),
            detail,
        )
    };
    let bytes = gojson::to_vec(&patched);
    // JSON and merge patches decode the patched JSON, kind and version included; a strategic
    // merge fills the typed object from the map, whose kind it ignores.
    if kind != PatchKind::Strategic {
        // The serializer's `Interpret` reads the bytes first: a patch that made the object
        // deeper than the decoder's 10,000 levels fails there.
        if let Err(e) = crate::codec::scanner::check_valid(&bytes) {
            return Err(invalid(&format!(
                "couldn't get version/kind; json parse error: {}",
                e.message
            )));
        }
        let type_meta = super::type_meta_of(&patched, crate::api::negotiation::Encoding::Json)
            .map_err(|e| invalid(&e))?;
        let mismatch = super::group_version_kind_mismatch(&req.kinds, &type_meta, info);
        if let Some(super::GvkMismatch::Decode { cause, .. }) = mismatch {
            return Err(invalid(&cause));
        }
    }
    // Decode the patched object as the typed object it must be (unknown fields per level).
    let decoded = decode::decode_bytes(&bytes, info.schema).map_err(|e| invalid(&e.to_string()))?;
    let mut findings = patch.strict;
    findings.extend(decoded.strict.iter().map(|s| s.message()));
    let mut warnings = Vec::new();
    if !findings.is_empty() {
        match opts.field_validation {
            FieldValidation::Strict => {
                return Err(invalid(&decode::strict_decoding_message(&findings)))
            }
            FieldValidation::Warn => warnings = findings,
            FieldValidation::Ignore => {}
        }
    }
    let mut obj = decoded.object;
    obj.insert("kind".into(), json!(info.kind));
    obj.insert("apiVersion".into(), json!(info.api_version()));
    // `applyPatch`: the namespace first, then `checkName`.
    super::reconcile_namespace(&mut obj, info, rr.namespace.as_deref())?;
    super::check_name(&obj, name)?;
    let sent = patched.pointer("/metadata/managedFields");
    let write = opts.write(req, rr.subresource.as_deref().unwrap_or(""), sent);
    let out = reg.update(info, &key, obj, &write)?;
    let mut reply = Reply::new(200, out);
    reply.warnings = warnings;
    Ok(reply)
}
