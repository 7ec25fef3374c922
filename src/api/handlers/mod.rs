//! The verb handlers and what they share: decoding request bodies into canonical objects,
//! the write options (`dryRun`, `fieldValidation`, `fieldManager`), and metadata accessors.

pub(crate) mod apply;
mod create;
pub(crate) mod delete;
pub(crate) mod list;
pub(crate) mod patch;
mod patch_body;
mod read;
mod scale;
mod update;
pub(crate) mod watch;

pub use crate::registry::continue_token::{decode_continue, encode_continue, ContinueToken};

use serde_json::{Map, Value};

use super::negotiation::Encoding;
use super::route::{ResourceRequest, Verb};
use super::{Reply, Request};
use crate::codec::{decode, json};
use crate::registry::{Registry, Write};
use crate::resources::field::FieldError;
use crate::resources::meta::{group_version_string, gvk_with_defaults, meta_mut};
use crate::resources::status::{ApiError, ApiResult};
use crate::resources::{Kinds, ResourceInfo};

/// Routes a resource request to its verb handler.
pub fn dispatch(reg: &mut Registry, req: &Request<'_>, rr: &ResourceRequest) -> ApiResult<Reply> {
    if scale::serves(rr) {
        return scale::serve(reg, req, rr);
    }
    match rr.verb {
        Verb::Get => read::get(reg, req, rr),
        Verb::List => list::list(reg, req, rr),
        Verb::Create => create::create(reg, req, rr),
        Verb::Update => match rr.subresource.as_deref() {
            Some(sub) if rr.resource.strategy.serves_own_subresource(sub) => {
                update::update_subresource(reg, req, rr, sub)
            }
            _ => update::update(reg, req, rr),
        },
        Verb::Watch => unreachable!("watches are served by watch::watch"),
        Verb::Delete => delete::delete(reg, req, rr),
        Verb::DeleteCollection => delete::delete_collection(reg, req, rr),
        Verb::Patch => patch::patch(reg, req, rr),
    }
}

/// The `fieldValidation` level of a write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldValidation {
    Ignore,
    Warn,
    Strict,
}

/// Options shared by create, update and patch.
#[derive(Debug, Clone)]
pub struct WriteOptions {
    pub dry_run: bool,
    pub field_validation: FieldValidation,
    /// `fieldManager` as given (empty when unset).
    pub field_manager: String,
}

impl WriteOptions {
    /// The registry's view of a non-apply write through `subresource`: attributed to
    /// `fieldManager`, or to the User-Agent's product (`managerOrUserAgent`); `sent` is the
    /// `metadata.managedFields` the client sent (for a `[]` reset, which the decoded object
    /// cannot show).
    pub fn write(&self, req: &Request<'_>, subresource: &str, sent: Option<&Value>) -> Write {
        let manager = if self.field_manager.is_empty() {
            prefix_from_user_agent(req.header("user-agent"))
        } else {
            self.field_manager.clone()
        };
        Write {
            dry_run: self.dry_run,
            manager: Some(manager),
            subresource: subresource.to_string(),
            reset_managed_fields: crate::fieldmanager::managed::is_reset(sent),
            user: req.user.clone(),
            request_name: None,
            raw_text: None,
        }
    }
}

/// `prefixFromUserAgent`: the User-Agent up to its first `/`, without non-printable
/// characters, at most 128 bytes.
pub fn prefix_from_user_agent(ua: &str) -> String {
    let head = ua.split('/').next().unwrap_or("");
    let mut out = String::new();
    let printable = crate::resources::validation::meta_fields::go_is_print;
    for c in head.chars().filter(|c| printable(*c)) {
        if out.len() + c.len_utf8() > 128 {
            break;
        }
        out.push(c);
    }
    out
}

/// Parses and validates the write options, failing as `<Kind>Options.meta.k8s.io "" is
/// invalid` (422) the way `ValidateCreateOptions` and friends do.
pub fn write_options(req: &Request<'_>, options_kind: &str) -> ApiResult<WriteOptions> {
    write_options_after(req, options_kind, Vec::new())
}

/// [`write_options`] with errors that the options validation reports before its own (a
/// patch's `force` check comes first).
pub fn write_options_after(
    req: &Request<'_>,
    options_kind: &str,
    mut errs: Vec<FieldError>,
) -> ApiResult<WriteOptions> {
    if let Some(m) = req.query.get("fieldManager") {
        errs.extend(
            crate::resources::validation::meta_fields::validate_field_manager(
                m,
                &crate::resources::field::FieldPath::new("fieldManager"),
            ),
        );
    }
    let dry_run = dry_run(req, &mut errs);
    let level = match req.query.get("fieldValidation").unwrap_or("") {
        "" | "Warn" => FieldValidation::Warn,
        "Ignore" => FieldValidation::Ignore,
        "Strict" => FieldValidation::Strict,
        other => {
            errs.push(FieldError::not_supported(
                "fieldValidation",
                Value::String(other.to_string()),
                &["", "Ignore", "Strict", "Warn"],
            ));
            FieldValidation::Warn
        }
    };
    if !errs.is_empty() {
        return Err(ApiError::invalid_options(options_kind, &errs));
    }
    Ok(WriteOptions {
        dry_run,
        field_validation: level,
        field_manager: req.query.get("fieldManager").unwrap_or("").to_string(),
    })
}

/// `dryRun` values: only `All` is accepted.
pub fn dry_run(req: &Request<'_>, errs: &mut Vec<FieldError>) -> bool {
    let values = req.query.all("dryRun");
    validate_dry_run(&values, errs)
}

/// `ValidateDryRun`: every value must be `All`.
pub fn validate_dry_run(values: &[&str], errs: &mut Vec<FieldError>) -> bool {
    if values.is_empty() {
        return false;
    }
    if values.iter().any(|v| *v != "All") {
        errs.push(FieldError::not_supported(
            "dryRun",
            Value::from(values.to_vec()),
            &["All"],
        ));
    }
    true
}

/// kube-apiserver's default `MaxRequestBodyBytes` (3 MiB): a write handler reads at most this
/// much of a body (`limitedReadBody`).
pub const MAX_REQUEST_BODY_BYTES: usize = 3 * 1024 * 1024;

/// `limitedReadBody`'s check, where each write handler reads its body: 413 above
/// [`MAX_REQUEST_BODY_BYTES`]. (The native server stops reading a body one byte past it.)
pub fn body_within_limit(req: &Request<'_>) -> ApiResult<()> {
    if req.body.len() > MAX_REQUEST_BODY_BYTES {
        return Err(ApiError::request_entity_too_large(&format!(
            "limit is {MAX_REQUEST_BODY_BYTES}"
        )));
    }
    Ok(())
}

/// A request body decoded into the kind's canonical form.
#[derive(Debug)]
pub struct DecodedBody {
    pub object: Map<String, Value>,
    /// What the body set at its top level (for rules about omitted fields).
    pub sent: crate::resources::Sent,
    /// `metadata.managedFields` as the client sent them (a `[]` reset, which the decoded
    /// object cannot show: Go's omitempty drops the empty list).
    pub managed_fields: Option<Value>,
    pub warnings: Vec<String>,
    /// The bytes of the kind's raw field as a JSON body wrote them.
    pub raw_text: Option<String>,
    /// A create's or update's field tracking, prepared with the body before the engine's
    /// lock (`api::predecode`); `None` when the engine decoded the body itself.
    pub pretracked: Option<crate::registry::Pretracked>,
}

/// A body's apiVersion and kind as its serializer's `Interpret` reads them: the JSON (and
/// YAML) one also parses the group version strictly, the CBOR one does not.
pub(super) fn type_meta_of(value: &Value, encoding: Encoding) -> Result<decode::TypeMeta, String> {
    let tm = decode::interpret_type_meta(value)?;
    if encoding != Encoding::Cbor {
        decode::check_group_version(&tm)?;
    }
    Ok(tm)
}

/// Decodes a write body for `info`, as the real handler's decoder does: content type (JSON;
/// YAML, Protobuf or CBOR converted to JSON first, CBOR into `info`'s typed struct), JSON
/// syntax, group/version/kind, field types, then
/// unknown and duplicate fields (YAML duplicate keys first) per `fieldValidation`.
pub fn decode_body(
    req: &Request<'_>,
    info: &ResourceInfo,
    level: FieldValidation,
) -> ApiResult<DecodedBody> {
    if let Some(ahead) = req
        .predecoded
        .as_ref()
        .and_then(|p| p.take(req, info, level))
    {
        return ahead;
    }
    let original = req.body.as_ref();
    let encoding = super::negotiation::input_encoding(req.header("content-type"), &req.served)?;
    let converted = super::encode::body_to_json(
        original,
        encoding,
        &*req.kinds,
        Some((&info.api_version(), info.kind)),
    )
    .map_err(|e| unrecognized(info, &e, original))?;
    let body: &[u8] = &converted.json;
    // The serializer first reads apiVersion/kind (syntax errors surface here), then decodes
    // into the typed object.
    // One parse serves all: the type meta, what the body set and the typed decode read the
    // same tree; the document is never built as a value of its own.
    let syntax = |e: json::SyntaxError| {
        unrecognized(
            info,
            &format!("{}{}", decode::TYPE_META_ERROR, e.message),
            original,
        )
    };
    let doc = json::parse_raw(body).map_err(syntax)?;
    let read = json::check_numbers(&doc)
        .map_err(syntax)
        .and_then(|()| {
            type_meta_of(&json::type_meta_members(&doc), encoding)
                .map_err(|m| unrecognized(info, &m, original))
        })
        .and_then(|type_meta| check_group_version_kind(&req.kinds, &type_meta, info))
        .and_then(|()| {
            decode_object(&doc, info).map_err(|e| {
                ApiError::bad_request(format!(
                    "{} in version \"{}\" cannot be handled as a {}: {}",
                    info.kind, info.version, info.kind, e
                ))
            })
        })
        .map(|decoded| {
            let sent = crate::resources::Sent::of_raw(&doc);
            (decoded, sent, json::sent_managed_fields(&doc))
        });
    json::drop_raw(doc);
    let (decoded, sent, managed_fields) = read?;
    // Strict findings in the serializer's order: the YAML pass's error, then the JSON ones.
    let mut errors: Vec<String> = converted.yaml_strict.iter().cloned().collect();
    match encoding {
        // fxamacker/cbor names only the first unknown field, by its index in its map (a
        // duplicate key never gets here: the CBOR decoder rejects it).
        Encoding::Cbor => errors.extend(
            decoded
                .strict
                .first()
                .map(|p| crate::codec::cbor::unknown_field_message(p.index)),
        ),
        _ => errors.extend(decoded.strict.iter().map(|p| p.message())),
    }
    let mut warnings = Vec::new();
    match level {
        FieldValidation::Strict if !errors.is_empty() => {
            return Err(ApiError::bad_request(format!(
                "{} in version \"{}\" cannot be handled as a {}: {}",
                info.kind,
                info.version,
                info.kind,
                decode::strict_decoding_message(&errors)
            )));
        }
        // `addStrictDecodingWarnings`: a YAML error becomes one warning per line.
        FieldValidation::Warn => {
            warnings = errors
                .iter()
                .flat_map(|e| crate::codec::yaml::strict_warnings(e))
                .collect();
        }
        _ => {}
    }
    let mut object = decoded.object;
    // `RawExtension` keeps a JSON body's bytes; other decoders hand over compact JSON. Bytes
    // that are the decoded value's compact JSON (the usual case) are not kept: the write then
    // need not encode a large field again under the engine's lock to find that out.
    let raw_text = match (encoding, info.strategy.raw_field()) {
        (Encoding::Json, Some(f)) => json::top_level_member(body, f)
            .filter(|t| *t != b"null")
            .map(|t| String::from_utf8_lossy(t).into_owned())
            .filter(|t| object.get(f).map(json::to_compact_string).as_deref() != Some(t)),
        _ => None,
    };
    // The typed decode's output is canonical, and stays so with the URL's type meta set.
    match info.custom {
        None => decode::set_type_meta(&mut object, info.kind, &info.api_version()),
        // Unstructured: the members keep their sorted places.
        Some(_) => {
            object.insert("apiVersion".into(), Value::String(info.api_version()));
            object.insert("kind".into(), Value::String(info.kind.to_string()));
            object.sort_keys();
        }
    }
    debug_assert!(info.custom.is_some() || object == info.canonicalize(&object));
    Ok(DecodedBody {
        object,
        sent,
        managed_fields,
        warnings,
        raw_text,
        pretracked: None,
    })
}

/// The body's object for `info`: typed for a built-in kind; for a custom resource its JSON
/// value, pruned by the structural schema, with duplicate members found as the unstructured
/// decoder's strict pass finds them, then the unknown fields pruning dropped.
pub(super) fn decode_object(
    doc: &json::Raw,
    info: &ResourceInfo,
) -> Result<decode::StrictDecoded, String> {
    let Some(custom) = info.custom else {
        return decode::decode_parsed(doc, info.schema).map_err(|e| e.to_string());
    };
    let mut duplicates = Vec::new();
    let value = json::raw_to_value(doc, Some(&mut duplicates)).map_err(|e| e.message)?;
    let Value::Object(obj) = value else {
        return Err("Object 'Kind' is missing in the body".into());
    };
    let decoded = crate::resources::custom::canonical::decode(&custom.schema, obj)?;
    let strict = duplicates
        .into_iter()
        .map(|path| (decode::StrictKind::Duplicate, path))
        .chain(
            decoded
                .unknown
                .into_iter()
                .map(|path| (decode::StrictKind::Unknown, path)),
        )
        .map(|(kind, path)| decode::StrictError {
            kind,
            path,
            index: 0,
        })
        .collect();
    Ok(decode::StrictDecoded {
        object: decoded.object,
        strict,
    })
}

/// `transformDecodeError` when the group/version/kind could not be read from the body.
fn unrecognized(info: &ResourceInfo, err: &str, body: &[u8]) -> ApiError {
    ApiError::bad_request(format!(
        "the object provided is unrecognized (must be of type {}): {} ({})",
        info.kind,
        err,
        summarize(body, 30)
    ))
}

/// apiserver's `summarizeData`: the start of the body, as text for JSON objects, hex otherwise.
fn summarize(body: &[u8], max: usize) -> String {
    let cut = &body[..body.len().min(max)];
    let more = if body.len() > max { " ..." } else { "" };
    match body.first() {
        None => "<empty>".to_string(),
        Some(b'{') => format!("{}{more}", String::from_utf8_lossy(cut)),
        Some(_) => {
            let hex: String = cut.iter().map(|b| format!("{b:02x}")).collect();
            format!("{hex}{more}")
        }
    }
}

/// Why the decoder cannot turn a body of `apiVersion`/`kind` into the kind at hand.
pub(super) enum GvkMismatch {
    /// Decoding fails (`kind` and `version` as the body gives them, and Go's cause).
    Decode {
        kind: String,
        version: String,
        cause: String,
    },
    /// The right kind in another registered version: decodes, then refused by a create or
    /// update handler (`AcceptsGroupVersion`); a patch takes it.
    OtherVersion(String),
}

/// The decoder's group/version/kind rules (the body's, as `Interpret` read it, defaulted from
/// the URL's by `gvkWithDefaults`): a kind the real scheme does not register cannot be
/// created, another registered kind cannot be converted, and the right kind in another
/// registered version decodes.
pub(super) fn group_version_kind_mismatch(
    kinds: &Kinds,
    type_meta: &decode::TypeMeta,
    info: &ResourceInfo,
) -> Option<GvkMismatch> {
    use crate::resources::legacy_scheme;
    let (group, version, kind) = gvk_with_defaults(
        &type_meta.api_version,
        &type_meta.kind,
        (info.group, info.version, info.kind),
    );
    if (group, version, kind) == (info.group, info.version, info.kind) {
        return None;
    }
    let expected = info.api_version();
    let gv = group_version_string(group, version);
    let gv = gv.as_str();
    // Kinds registered at run time are in the scheme too.
    let scheme = &legacy_scheme::LEGACY;
    let registered = scheme.is_registered(gv, kind) || kinds.by_kind(gv, kind).is_some();
    let cause = if !registered {
        scheme.not_registered(kind, gv)
    } else if kind != info.kind || group != info.group {
        format!(
            "converting ({}) to ({}): unknown conversion",
            scheme.versioned_type_name(gv, kind),
            legacy_scheme::internal_type_name(info.group, info.kind)
        )
    } else {
        // The right kind, registered in another version of the group.
        return Some(GvkMismatch::OtherVersion(format!(
            "the API version in the data ({gv}) does not match the expected API version ({expected})"
        )));
    };
    Some(GvkMismatch::Decode {
        kind: kind.to_string(),
        version: version.to_string(),
        cause,
    })
}

/// [`group_version_kind_mismatch`] as the create and update handlers answer it.
fn check_group_version_kind(
    kinds: &Kinds,
    type_meta: &decode::TypeMeta,
    info: &ResourceInfo,
) -> ApiResult<()> {
    match group_version_kind_mismatch(kinds, type_meta, info) {
        None => Ok(()),
        Some(GvkMismatch::OtherVersion(m)) => Err(ApiError::bad_request(m)),
        Some(GvkMismatch::Decode {
            kind,
            version,
            cause,
        }) => Err(ApiError::bad_request(format!(
            "{kind} in version \"{version}\" cannot be handled as a {}: {cause}",
            info.kind
        ))),
    }
}

/// The namespace a request targets, checked against the object's (which it fills in).
/// `EnsureObjectNamespaceMatchesRequestNamespace`.
pub fn reconcile_namespace(
    obj: &mut Map<String, Value>,
    info: &ResourceInfo,
    request_ns: Option<&str>,
) -> ApiResult<()> {
    let m = meta_mut(obj);
    let obj_ns = m
        .get("namespace")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    if info.namespaced {
        let req_ns = request_ns.unwrap_or("");
        if obj_ns.is_empty() {
            m.insert("namespace".into(), Value::String(req_ns.to_string()));
        } else if obj_ns != req_ns {
            return Err(ApiError::bad_request(
                "the namespace of the provided object does not match the namespace sent on the request",
            ));
        }
    } else if !obj_ns.is_empty() {
        // Cluster-scoped objects never carry a namespace; apiserver clears it.
        m.shift_remove("namespace");
    }
    Ok(())
}

/// `checkName`: the body must name the object the URL names (an update, a patch's result).
pub(super) fn check_name(obj: &Map<String, Value>, url_name: &str) -> ApiResult<()> {
    let body_name = crate::resources::meta::map_meta_str(obj, "name");
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
