//! Server-side apply (`application/apply-patch+yaml`, and `application/apply-patch+cbor`
//! with CBOR served): options (`fieldManager` required), the configuration decoded as
//! `yaml.Unmarshal` decodes it, the field manager's merge and conflicts, then — after the
//! merge, as in kube-apiserver — strict decoding, the namespace and name checks, and the
//! create (201, when the object is absent) or update (200) of the result.

use serde_json::{Map, Value};

use super::{reconcile_namespace, write_options_after, FieldValidation};
use crate::api::route::ResourceRequest;
use crate::api::{Reply, Request};
use crate::codec::{decode, json as gojson, yaml};
use crate::registry::{Registry, Write};
use crate::resources::field::FieldError;
use crate::resources::meta::map_meta_str;
use crate::resources::status::{ApiError, ApiResult};

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

/// PATCH with an apply content type.
pub fn apply(
    reg: &mut Registry,
    req: &Request<'_>,
    rr: &ResourceRequest,
    cbor: bool,
) -> ApiResult<Reply> {
    let info = rr.resource;
    let manager = req.query.get("fieldManager").unwrap_or("").to_string();
    let mut first = Vec::new();
    if manager.is_empty() {
        first.push(FieldError::required(
            "fieldManager",
            "is required for apply patch",
        ));
    }
    let opts = write_options_after(req, "PatchOptions", first)?;
    let force = req.query.flag("force").unwrap_or(false);
    let config = decode_config(req, cbor)?;
    let namespace = rr.namespace.as_deref().unwrap_or("");
    let name = rr.name.as_deref().unwrap_or("");
    let key = info.key(namespace, name);
    let existed = reg.store().get(&key).is_some();
    let subresource = rr.subresource.as_deref().unwrap_or("");
    // A subresource's storage never creates (`forceAllowCreate` is false): a missing object
    // is a 404 before anything is applied.
    if !existed && !subresource.is_empty() {
        return Err(ApiError::not_found(info.group_resource(), name));
    }
    let applied = reg.apply(info, subresource, &key, &config.value, &manager, force)?;
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
    let mut obj = match &applied {
        Value::Object(m) => decode::canonicalize(m, info.schema),
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
    let write = Write {
        dry_run: opts.dry_run,
        subresource: subresource.to_string(),
        user: req.user.clone(),
        request_name: Some(name.to_string()),
        ..Write::default()
    };
    let mut reply = if existed {
        Reply::new(200, reg.update(info, &key, obj, &write)?)
    } else {
        reg.admit_namespace_write(info, namespace, name)?;
        // What the client sent is the applied configuration.
        let sent = config
            .value
            .as_object()
            .map(crate::resources::Sent::of)
            .unwrap_or_default();
        Reply::written(201, reg.create(info, obj, &sent, &write)?)
    };
    reply.warnings = warnings;
    Ok(reply)
}
