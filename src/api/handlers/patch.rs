//! PATCH: JSON Patch, JSON Merge Patch and strategic merge patch, applied to the current
//! object and then written through the same update path as PUT (validation, optimistic
//! concurrency when the patch sets `metadata.resourceVersion`, no-op detection).
//! Server-side apply has its own handler ([`super::apply`]). A host may patch before the
//! engine's lock, against the version then stored ([`prepare`]); the engine writes that
//! result only while the version is still live, and patches again otherwise.

use serde_json::{json, Map, Value};

use super::patch_body::{self, PatchKind};
use super::{FieldValidation, WriteOptions};
use crate::api::predecode::{LiveLookup, Made, Prepared};
use crate::api::route::ResourceRequest;
use crate::api::{Reply, Request};
use crate::codec::{decode, json as gojson};
use crate::patch::{json_patch, merge_patch, strategic, PatchError};
use crate::registry::Registry;
use crate::resources::field::FieldError;
use crate::resources::status::{ApiError, ApiResult, Details};
use crate::resources::ResourceInfo;

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

pub(super) fn map_err(e: PatchError) -> ApiError {
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

/// What a PATCH's content type asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum PatchMedia {
    Patch(PatchKind),
    Apply { cbor: bool },
}

/// The PATCH route's media-type check (415), which comes before the body is read (413).
pub(super) fn media(req: &Request<'_>, info: &ResourceInfo) -> ApiResult<PatchMedia> {
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
    if info.custom.is_some() {
        return custom_media(&media, cbor);
    }
    Ok(match media.as_str() {
        "application/json-patch+json" => PatchMedia::Patch(PatchKind::Json),
        "application/merge-patch+json" => PatchMedia::Patch(PatchKind::Merge),
        "application/strategic-merge-patch+json" => PatchMedia::Patch(PatchKind::Strategic),
        "application/apply-patch+yaml" => PatchMedia::Apply { cbor: false },
        APPLY_CBOR if cbor => PatchMedia::Apply { cbor: true },
        // The PATCH route consumes only the patch types: go-restful answers the rest.
        _ => return Err(ApiError::unsupported_media_type_route()),
    })
}

/// The CRD handler's patch types (`supportedTypes`): no strategic merge patch, and no route
/// check before the handler's own, whose 415 names what it accepts.
fn custom_media(media: &str, cbor: bool) -> ApiResult<PatchMedia> {
    Ok(match media {
        "application/json-patch+json" => PatchMedia::Patch(PatchKind::Json),
        "application/merge-patch+json" => PatchMedia::Patch(PatchKind::Merge),
        "application/apply-patch+yaml" => PatchMedia::Apply { cbor: false },
        APPLY_CBOR if cbor => PatchMedia::Apply { cbor: true },
        _ => return Err(custom_media_unsupported(cbor)),
    })
}

/// The CRD handler's 415 (`NewUnsupportedMediaTypeError(supportedTypes)`).
pub(super) fn custom_media_unsupported(cbor: bool) -> ApiError {
    let mut accepted = vec![
        "application/json-patch+json",
        "application/merge-patch+json",
        "application/apply-patch+yaml",
    ];
    if cbor {
        accepted.push(APPLY_CBOR);
    }
    ApiError::unsupported_media_type(format!(
        "the body of the request was in an unknown format - accepted media types include: {}",
        accepted.join(", ")
    ))
}

/// A non-apply patch's options: `ValidatePatchOptions` (`force`, even `false`, is only for
/// apply patches), then the shared write options.
pub(super) fn options(req: &Request<'_>) -> ApiResult<WriteOptions> {
    let mut first = Vec::new();
    if req.query.has("force") {
        first.push(FieldError::forbidden(
            "force",
            "may not be specified for non-apply patch",
        ));
    }
    super::write_options_after(req, "PatchOptions", first)
}

/// A patch applied to one stored version, ready for the update: the object, the strict
/// decoding warnings, and the managedFields the patched object carried (a `[]` reset).
pub(crate) struct Patched {
    pub(super) obj: Map<String, Value>,
    pub(super) warnings: Vec<String>,
    /// How the update writes (its manager; a `managedFields: []` in the result resets them).
    write: crate::registry::Write,
}

/// PATCH of one object.
pub fn patch(reg: &mut Registry, req: &Request<'_>, rr: &ResourceRequest) -> ApiResult<Reply> {
    let media = media(req, rr.resource)?;
    super::body_within_limit(req)?;
    let kind = match media {
        PatchMedia::Apply { cbor } => return super::apply::apply(reg, req, rr, cbor),
        PatchMedia::Patch(kind) => kind,
    };
    let opts = options(req)?;
    let info = rr.resource;
    let name = rr.name.as_deref().unwrap_or("");
    let key = info.key(rr.namespace.as_deref().unwrap_or(""), name);
    let prepared = req
        .predecoded
        .as_ref()
        .and_then(|p| p.take_patch(req, info, opts.field_validation, reg, &key));
    // Without a preparation that holds, the patch is applied here to the object read now,
    // which its update takes rather than reading it again.
    let (patched, current, ahead) = match prepared {
        Some(p) => (p.outcome, None, p.tracking),
        None => {
            let Some(current) = reg.read_current(info, &key)? else {
                return Err(ApiError::not_found(info.group_resource(), name));
            };
            (patched(req, rr, kind, &opts, &current), Some(current), None)
        }
    };
    let Patched {
        obj,
        warnings,
        write,
    } = patched?;
    let written = match current {
        Some(current) => reg.update_current(info, &key, current, obj, &write, None)?,
        None => reg.update_ahead(info, &key, obj, &write, ahead)?,
    };
    let mut reply = Reply::written(200, written);
    reply.warnings = warnings;
    Ok(reply)
}

/// What a host prepares for a PATCH of a main resource before the engine's lock: the patch
/// applied to the version `live` reads at its key, and the update's field tracking against
/// it; for an apply, [`super::apply::prepare`]. `None` when there is nothing to prepare: the
/// engine then answers as it would have (a 415, a 404, bad options).
pub(crate) fn prepare(
    req: &Request<'_>,
    rr: &ResourceRequest,
    live: LiveLookup<'_>,
    now: &str,
) -> Option<(FieldValidation, Made)> {
    if rr.subresource.is_some() {
        return None;
    }
    let kind = match media(req, rr.resource).ok()? {
        PatchMedia::Apply { cbor } => return super::apply::prepare(req, rr, cbor, live, now),
        PatchMedia::Patch(kind) => kind,
    };
    let opts = options(req).ok()?;
    let info = rr.resource;
    let name = rr.name.as_deref().unwrap_or("");
    let stored = live(&info.key(rr.namespace.as_deref().unwrap_or(""), name))?;
    let current = crate::resources::custom::reading::current(info, &stored);
    let outcome = patched(req, rr, kind, &opts, &current);
    let tracking = outcome.as_ref().ok().map(|p| {
        let live = Some((stored.clone(), current));
        crate::registry::pretrack_decoded(info, live, p.obj.clone(), &p.write)
    });
    let prepared = Prepared::new(Some(stored), None, outcome, tracking);
    Some((opts.field_validation, Made::Patch(prepared)))
}

/// The patch in `req` applied to `current`, decoded as the typed object it must be: a
/// function of its inputs alone, run before the engine's lock or under it.
fn patched(
    req: &Request<'_>,
    rr: &ResourceRequest,
    kind: PatchKind,
    opts: &WriteOptions,
    current: &Value,
) -> ApiResult<Patched> {
    patched_as(req, rr, rr.resource, kind, opts, current)
}

/// [`patched`] for an object of kind `info` at `rr`'s path: a subresource's own kind (a
/// custom resource's Scale).
pub(super) fn patched_as(
    req: &Request<'_>,
    rr: &ResourceRequest,
    info: &ResourceInfo,
    kind: PatchKind,
    opts: &WriteOptions,
    current: &Value,
) -> ApiResult<Patched> {
    let name = rr.name.as_deref().unwrap_or("");
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
    let decoded = match info.custom {
        None => decode::decode_bytes(&bytes, info.schema).map_err(|e| e.to_string()),
        // The parsed document is dropped without recursion (a deep object would overflow).
        Some(_) => gojson::parse_raw(&bytes)
            .map_err(|e| e.message)
            .and_then(|raw| {
                let decoded = super::decode_object(&raw, info);
                gojson::drop_raw(raw);
                decoded
            }),
    }
    .map_err(|e| invalid(&e))?;
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
    let subresource = rr.subresource.as_deref().unwrap_or("");
    let write = opts.write(req, subresource, patched.pointer("/metadata/managedFields"));
    Ok(Patched {
        obj,
        warnings,
        write,
    })
}
