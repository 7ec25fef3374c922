//! Validation of custom resources (`customResourceValidator`): the type meta, `metadata`
//! (the name a DNS subdomain), then the structural schema's value validations as
//! kube-openapi's `SchemaValidator` runs them (`schema_errors`), then embedded
//! resources' type meta. An update is ratcheted: what did not change is not checked again
//! (`CRDValidationRatcheting`, locked on).

use serde_json::{Map, Value};

use super::child;
use super::structural::Schema;
use super::{CustomKind, Scale};
use crate::resources::field::FieldError;
use crate::resources::validation::names;
use crate::resources::validation::object_meta::validate_object_meta_accessor;

/// `ValidateTypeMeta`: errors that stop validation.
fn type_meta(kind: &CustomKind, obj: &Map<String, Value>) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let got = |k: &str| obj.get(k).cloned().unwrap_or(Value::String(String::new()));
    if obj.get("kind").and_then(Value::as_str) != Some(kind.kind.as_str()) {
        errs.push(FieldError::invalid(
            "kind",
            got("kind"),
            &format!("must be {}", kind.kind),
        ));
    }
    let api_version = format!("{}/{}", kind.group, kind.version);
    if obj.get("apiVersion").and_then(Value::as_str) != Some(api_version.as_str()) {
        errs.push(FieldError::invalid(
            "apiVersion",
            got("apiVersion"),
            &format!("must be {api_version}"),
        ));
    }
    errs
}

/// A create: type meta, metadata, the schema, embedded resources.
pub fn validate_create(kind: &CustomKind, obj: &Map<String, Value>) -> Vec<FieldError> {
    let errs = type_meta(kind, obj);
    if !errs.is_empty() {
        return errs;
    }
    let meta = crate::resources::meta::meta_map(obj);
    let mut errs =
        validate_object_meta_accessor(&meta, kind.namespaced, &names::name_is_dns_subdomain);
    errs.extend(object_checks(kind, &Value::Object(obj.clone()), None));
    errs
}

/// What a create and an update of the main resource check after the type meta: the schema
/// (ratcheted against `old`), the scale paths, embedded resources, list types.
fn object_checks(kind: &CustomKind, value: &Value, old: Option<&Value>) -> Vec<FieldError> {
    let mut errs = super::schema_errors::validate(&kind.schema, value, old);
    if let Some(scale) = &kind.scale {
        errs.extend(super::scale::validate(scale, value));
    }
    embedded(&kind.schema, value, "", true, &mut errs);
    errs.extend(super::listtype::validate(&kind.schema, value, old));
    rules(&kind.schema, value, old, &mut errs);
    errs
}

/// The CEL rules, unless the errors so far keep them from running (then one error says so).
fn rules(schema: &Schema, value: &Value, old: Option<&Value>, errs: &mut Vec<FieldError>) {
    if !schema.has_rules() {
        return;
    }
    if super::rules::blocking(errs) {
        errs.push(super::rules::not_checked());
        return;
    }
    errs.extend(super::rules::validate(schema, value, old));
}

/// A definition's `default` (at `path`, `....default`) against its node's schema: the value
/// validations (`ValidateCustomResource`), then, when they pass, the node's rules as on a
/// create. Paths are the definition's; texts name the value's own members.
pub fn default_errors(schema: &Schema, value: &Value, path: &str) -> Vec<FieldError> {
    let mut errs = super::schema_errors::validate(schema, value, None);
    if errs.is_empty() && schema.has_rules() {
        errs = super::rules::validate(schema, value, None);
    }
    for e in &mut errs {
        e.field = match e.field.as_str() {
            "<nil>" => path.to_string(),
            f => format!("{path}.{f}"),
        };
    }
    errs
}

/// An update (metadata's update rules are the registry's): type meta, then the schema,
/// ratcheted against `old`, and embedded resources.
pub fn validate_update(
    kind: &CustomKind,
    new: &Map<String, Value>,
    old: &Map<String, Value>,
) -> Vec<FieldError> {
    let errs = type_meta(kind, new);
    if !errs.is_empty() {
        return errs;
    }
    let old = Value::Object(old.clone());
    object_checks(kind, &Value::Object(new.clone()), Some(&old))
}

/// `ValidateStatusUpdate`: type meta, then `status` alone against the status schema (paths
/// in the texts relative to it, fields under `status`), ratcheted, then the scale status.
pub fn validate_status_update(
    kind: &CustomKind,
    new: &Map<String, Value>,
    old: &Map<String, Value>,
) -> Vec<FieldError> {
    let errs = type_meta(kind, new);
    if !errs.is_empty() {
        return errs;
    }
    let mut errs = Vec::new();
    if let (Some(status), Some(schema)) = (new.get("status"), kind.schema.properties.get("status"))
    {
        for mut e in super::schema_errors::validate(schema, status, old.get("status")) {
            e.field = match e.field.as_str() {
                "<nil>" => "status".into(),
                f => format!("status.{f}"),
            };
            errs.push(e);
        }
    }
    let (new, old) = (Value::Object(new.clone()), Value::Object(old.clone()));
    if let Some(scale) = &kind.scale {
        let status_only = Scale {
            spec_replicas: String::new(),
            ..scale.clone()
        };
        errs.extend(super::scale::validate(&status_only, &new));
    }
    errs.extend(super::listtype::validate(&kind.schema, &new, Some(&old)));
    rules(&kind.schema, &new, Some(&old), &mut errs);
    errs
}

/// `schemaobjectmeta.Validate` of `value` at `schema`, an embedded resource's node: its own
/// type meta and metadata, then every embedded resource inside it.
pub fn embedded_resource_errors(schema: &Schema, value: &Value) -> Vec<FieldError> {
    let mut errs = Vec::new();
    embedded(schema, value, "", false, &mut errs);
    errs
}

/// `schemaobjectmeta.Validate`: every `x-kubernetes-embedded-resource` object needs a string
/// `apiVersion` that parses and a `kind` that is a DNS-1035 label but for case, and its
/// `metadata` the path-segment name rules.
fn embedded(schema: &Schema, value: &Value, path: &str, root: bool, errs: &mut Vec<FieldError>) {
    match value {
        Value::Object(m) => {
            if schema.embedded && !root {
                embedded_type_meta(m, path, errs);
            }
            for (k, v) in m {
                if let Some(s) = schema.properties.get(k) {
                    embedded(s, v, &child(path, k), false, errs);
                } else if let Some(s) = schema.additional.as_deref() {
                    embedded(s, v, &format!("{path}[{k}]"), false, errs);
                }
            }
        }
        Value::Array(items) => {
            if let Some(s) = schema.items.as_deref() {
                for (i, v) in items.iter().enumerate() {
                    embedded(s, v, &format!("{path}[{i}]"), false, errs);
                }
            }
        }
        _ => {}
    }
}

fn embedded_type_meta(m: &Map<String, Value>, path: &str, errs: &mut Vec<FieldError>) {
    match m.get("apiVersion") {
        None => errs.push(FieldError::required(&child(path, "apiVersion"), "")),
        Some(Value::String(s)) if s.is_empty() => errs.push(FieldError::invalid(
            &child(path, "apiVersion"),
            Value::String(s.clone()),
            "must not be empty",
        )),
        Some(Value::String(s)) if s.matches('/').count() > 1 => errs.push(FieldError::invalid(
            &child(path, "apiVersion"),
            Value::String(s.clone()),
            &format!("unexpected GroupVersion string: {s}"),
        )),
        Some(Value::String(_)) => {}
        Some(v) => errs.push(FieldError::invalid(
            &child(path, "apiVersion"),
            v.clone(),
            "must be a string",
        )),
    }
    match m.get("kind") {
        None => errs.push(FieldError::required(&child(path, "kind"), "")),
        Some(Value::String(s)) if s.is_empty() => errs.push(FieldError::invalid(
            &child(path, "kind"),
            Value::String(s.clone()),
            "must not be empty",
        )),
        Some(Value::String(s)) => {
            for msg in names::is_dns1035_label(&s.to_lowercase()) {
                errs.push(FieldError::invalid(
                    &child(path, "kind"),
                    Value::String(s.clone()),
                    &format!("may have mixed case, but should otherwise match: {msg}"),
                ));
            }
        }
        Some(v) => errs.push(FieldError::invalid(
            &child(path, "kind"),
            v.clone(),
            "must be a string",
        )),
    }
    if let Some(Value::Object(meta)) = m.get("metadata") {
        let mut meta = meta.clone();
        if crate::resources::meta::map_str(&meta, "name").is_empty() {
            meta.insert("name".into(), Value::String("fakename".into()));
        }
        let namespaced = !crate::resources::meta::map_str(&meta, "namespace").is_empty();
        let at = child(path, "metadata");
        for mut e in validate_object_meta_accessor(&meta, namespaced, &names::validate_path_segment)
        {
            e.field = e.field.replacen("metadata", &at, 1);
            errs.push(e);
        }
    }
}
