//! Server-side apply (`application/apply-patch+yaml`, and `application/apply-patch+cbor`
//! with CBOR served): options (`fieldManager` required), the configuration decoded as
//! `yaml.Unmarshal` decodes it, the field manager's merge and conflicts, then — after the
//! merge, as in kube-apiserver — strict decoding, the namespace and name checks, and the
//! create (201, when the object is absent) or update (200) of the result. A host may apply
//! before the engine's lock ([`prepare`]), against the version then stored (or its absence)
//! and at the engine's time then: the engine writes that result only while both still hold.

use serde_json::{Map, Value};

use super::{reconcile_namespace, write_options_after, FieldValidation, WriteOptions};
use crate::api::predecode::{LiveLookup, Made, Prepared};
use crate::api::route::ResourceRequest;
use crate::api::{Reply, Request};
use crate::codec::{json as gojson, yaml};
use crate::fieldmanager::ApplyRequest;
use crate::registry::{Registry, Write};
use crate::resources::field::FieldError;
use crate::resources::meta::map_meta_str;
use crate::resources::status::{ApiError, ApiResult};
use crate::resources::Sent;

/// The configuration as a map, and the strict-decoding error of its YAML, if any.
struct Config {
    value: Value,
    strict: Option<String>,
}

/// `applyPatcher`'s decoding into a map: `yaml.Unmarshal` (sigs.k8s.io/yaml: the YAML
/// converted to JSON, then decoded), or `cbor.Unmarshal` for CBOR. Either failure is
/// `error decoding YAML: <err>`.
fn decode_config(req: &Request<'_>, cbor: bool) -> ApiResult<Config> {
    let body: &[u8] = req.body.as_ref();
    let fail = |e: String| ApiError::bad_request(format!("error decoding YAML: {e}"));
    if cbor {
        let map = crate::codec::cbor::decode_object(body).map_err(fail)?;
        return Ok(Config {
            value: Value::Object(map),
            strict: None,
        });
    }
    let converted =
        yaml::to_json(body).map_err(|e| fail(format!("{}{e}", yaml::UNMARSHAL_PREFIX)))?;
    let unmarshal = |message: &str| {
        fail(format!(
            "error unmarshaling JSON: while decoding JSON: {message}"
        ))
    };
    let parsed = gojson::parse(&converted.json).map_err(|e| unmarshal(&e.message))?;
    let value = match parsed.value {
        Value::Null => Value::Object(Map::new()),
        Value::Object(m) => Value::Object(m),
        other => {
            return Err(unmarshal(&format!(
                "json: cannot unmarshal {} into Go value of type map[string]interface {{}}",
                crate::codec::decode::kind_desc(&other)
            )));
        }
    };
    Ok(Config {
        value,
        strict: converted.strict,
    })
}

/// An apply's options: `fieldManager` is required, then the shared write options.
fn options(req: &Request<'_>) -> ApiResult<WriteOptions> {
    let mut first = Vec::new();
    if req.query.get("fieldManager").unwrap_or("").is_empty() {
        first.push(FieldError::required(
            "fieldManager",
            "is required for apply patch",
        ));
    }
    write_options_after(req, "PatchOptions", first)
}

/// An apply merged into one stored version (or none), ready for the create or update.
pub(crate) struct Applied {
    obj: Map<String, Value>,
    warnings: Vec<String>,
    existed: bool,
    /// What the client sent (the configuration), for a create's validation.
    sent: Sent,
}

/// PATCH with an apply content type.
pub fn apply(
    reg: &mut Registry,
    req: &Request<'_>,
    rr: &ResourceRequest,
    cbor: bool,
) -> ApiResult<Reply> {
    let info = rr.resource;
    let opts = options(req)?;
    let namespace = rr.namespace.as_deref().unwrap_or("");
    let name = rr.name.as_deref().unwrap_or("");
    let key = info.key(namespace, name);
    let prepared = req
        .predecoded
        .as_ref()
        .and_then(|p| p.take_apply(req, info, opts.field_validation, reg, &key));
    // Without a preparation that holds, the apply is merged here into the object read now,
    // which its update takes rather than reading it again.
    let (applied, current, ahead) = match prepared {
        Some(p) => (p.outcome, None, p.tracking),
        None => {
            let read = reg.read_current(info, &key);
            let applied = applied(
                req,
                rr,
                cbor,
                &opts,
                read.as_ref().map(Option::as_ref),
                &reg.now_text(),
            );
            (applied, read.ok().flatten(), None)
        }
    };
    let Applied {
        obj,
        warnings,
        existed,
        sent,
    } = applied?;
    let write = Write {
        dry_run: opts.dry_run,
        subresource: rr.subresource.clone().unwrap_or_default(),
        user: req.user.clone(),
        request_name: Some(name.to_string()),
        ..Write::default()
    };
    let written = match (existed, current) {
        (true, Some(current)) => reg.update_current(info, &key, current, obj, &write, None)?,
        (true, None) => reg.update_ahead(info, &key, obj, &write, ahead)?,
        (false, _) => {
            reg.admit_namespace_write(info, namespace, name)?;
            let mut reply = Reply::written(201, reg.create(info, obj, &sent, &write)?);
            reply.warnings = warnings;
            return Ok(reply);
        }
    };
    let mut reply = Reply::written(200, written);
    reply.warnings = warnings;
    Ok(reply)
}

/// What a host prepares for an apply to a main resource before the engine's lock: the
/// configuration merged into the version `live` reads at its key (or into nothing), at the
/// engine's time `now`, which the merge stamps.
pub(super) fn prepare(
    req: &Request<'_>,
    rr: &ResourceRequest,
    cbor: bool,
    live: LiveLookup<'_>,
    now: &str,
) -> Option<(FieldValidation, Made)> {
    let opts = options(req).ok()?;
    let info = rr.resource;
    let stored = live(&info.key(
        rr.namespace.as_deref().unwrap_or(""),
        rr.name.as_deref().unwrap_or(""),
    ));
    let current = stored
        .as_ref()
        .map(|s| crate::resources::custom::reading::current(info, s));
    let outcome = applied(req, rr, cbor, &opts, Ok(current.as_ref()), now);
    // An update carries the live object it decoded and the kind's validation; it has no
    // tracking of its own (the merge made the managedFields).
    let tracking = match (&outcome, stored.clone().zip(current)) {
        (Ok(a), Some(live)) => {
            let write = Write::default();
            Some(crate::registry::pretrack_decoded(
                info,
                Some(live),
                a.obj.clone(),
                &write,
            ))
        }
        _ => None,
    };
    let prepared = Prepared::new(stored, Some(now.to_string()), outcome, tracking);
    Some((opts.field_validation, Made::Apply(prepared)))
}

/// The configuration in `req` merged into `live` at `now`, then checked as the object it
/// must be: a function of its inputs alone, run before the engine's lock or under it.
fn applied(
    req: &Request<'_>,
    rr: &ResourceRequest,
    cbor: bool,
    opts: &WriteOptions,
    live: Result<Option<&Value>, &ApiError>,
    now: &str,
) -> ApiResult<Applied> {
    let info = rr.resource;
    let manager = req.query.get("fieldManager").unwrap_or("");
    let force = req.query.flag("force").unwrap_or(false);
    let config = decode_config(req, cbor)?;
    let name = rr.name.as_deref().unwrap_or("");
    let subresource = rr.subresource.as_deref().unwrap_or("");
    // A subresource's storage never creates (`forceAllowCreate` is false): a missing object
    // is a 404 before anything is applied.
    // An unreadable value fails the apply with the read's error.
    let live = match live.map_err(Clone::clone)? {
        None if !subresource.is_empty() => {
            return Err(ApiError::not_found(info.group_resource(), name))
        }
        live => live,
    };
    let existed = live.is_some();
    let request = ApplyRequest {
        manager,
        force,
        now,
    };
    let applied = crate::registry::apply_to(info, subresource, live, &config.value, &request)?;
    let mut warnings = Vec::new();
    if let Some(err) = &config.strict {
        match opts.field_validation {
            FieldValidation::Strict => {
                // `yaml.UnmarshalStrict` prefixes the converter's error.
                return Err(ApiError::bad_request(format!(
                    "error strict decoding YAML: {}{err}",
                    yaml::UNMARSHAL_PREFIX
                )));
            }
            FieldValidation::Warn => warnings = yaml::strict_warnings(err),
            FieldValidation::Ignore => {}
        }
    }
    let mut obj = match applied {
        Value::Object(m) => info.canonicalize_owned(m),
        _ => Map::new(),
    };
    obj.insert("kind".into(), Value::String(info.kind.to_string()));
    obj.insert("apiVersion".into(), Value::String(info.api_version()));
    reconcile_namespace(&mut obj, info, rr.namespace.as_deref())?;
    let body_name = map_meta_str(&obj, "name").to_string();
    if body_name != name {
        return Err(ApiError::bad_request(format!(
            "the name of the object ({body_name}) does not match the name on the URL ({name})"
        )));
    }
    // What the client sent is the applied configuration.
    let sent = config.value.as_object().map(Sent::of).unwrap_or_default();
    Ok(Applied {
        obj,
        warnings,
        existed,
        sent,
    })
}
