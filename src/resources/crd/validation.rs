//! `pkg/apis/apiextensions/validation`: what a CustomResourceDefinition must be, checked in the
//! real order with its texts.
//!
//! The real validation runs on the internal type, after v1 is converted: schemas (and
//! subresources, printer columns) equal in every version move to `spec.validation` (and
//! `spec.subresources`, ...), so with one version, or identical ones, schema errors are
//! reported under `spec.validation.openAPIV3Schema`, and a bad value that is the versions list
//! is rendered with the internal struct's Go field names. Both are reproduced here.
//!
//! Each schema is checked by `schema_checks`: the root with the status subresource,
//! `ValidateStructural`, the defaults, the OpenAPI walk (forbidden keywords and defaults,
//! list and map types, the rules' fields), the rules' compilation and estimated costs.

use serde_json::{json, Map, Value};

use super::schema_checks::{validate_schema, SchemaContext};
use crate::resources::field::{FieldError, FieldPath};
use crate::resources::meta::{meta_map, strings};
use crate::resources::validation::names::{is_dns1035_label, name_is_dns_subdomain};
use crate::resources::validation::object_meta::{
    validate_object_meta_accessor, validate_object_meta_accessor_update,
};

/// The CRD's `name` rule beyond DNS: `<plural>.<group>`.
const NAME_RULE: &str = "must be spec.names.plural+\".\"+spec.group";

fn str_at<'a>(v: Option<&'a Value>, key: &str) -> &'a str {
    v.and_then(|v| v.get(key))
        .and_then(Value::as_str)
        .unwrap_or("")
}

fn spec(obj: &Map<String, Value>) -> Option<&Value> {
    obj.get("spec")
}

/// `ValidateCustomResourceDefinition`.
pub fn validate_create(obj: &Map<String, Value>) -> Vec<FieldError> {
    let mut errs = validate_meta(obj);
    errs.extend(validate_spec(obj, None));
    errs.extend(validate_accepted_names(obj));
    errs.extend(validate_stored_versions(obj));
    errs.extend(validate_approval(obj));
    errs.extend(validate_preserve_unknown_fields(obj));
    errs
}

/// `ValidateCustomResourceDefinitionUpdate`.
pub fn validate_update(new: &Map<String, Value>, old: &Map<String, Value>) -> Vec<FieldError> {
    let mut errs = validate_object_meta_accessor_update(&meta_map(new), &meta_map(old));
    errs.extend(validate_spec(new, Some(old)));
    let (ns, os) = (spec(new), spec(old));
    let established = is_established(old);
    let immutable = |errs: &mut Vec<FieldError>, path: &str, new: Value, old: Value| {
        if new != old {
            errs.push(FieldError::invalid(path, new, "field is immutable"));
        }
    };
    if established {
        immutable(
            &mut errs,
            "spec.scope",
            json!(str_at(ns, "scope")),
            json!(str_at(os, "scope")),
        );
        let kind = |s: Option<&Value>| json!(str_at(s.and_then(|s| s.get("names")), "kind"));
        immutable(&mut errs, "spec.names.kind", kind(ns), kind(os));
    }
    immutable(
        &mut errs,
        "spec.group",
        json!(str_at(ns, "group")),
        json!(str_at(os, "group")),
    );
    let plural = |s: Option<&Value>| json!(str_at(s.and_then(|s| s.get("names")), "plural"));
    immutable(&mut errs, "spec.names.plural", plural(ns), plural(os));
    errs.extend(validate_accepted_names(new));
    errs.extend(validate_stored_versions(new));
    // Both are checked again only when the update changes what they look at.
    if approval(new) != approval(old) {
        errs.extend(validate_approval(new));
    }
    if !preserves_unknown_fields(old) {
        errs.extend(validate_preserve_unknown_fields(new));
    }
    errs
}

/// Whether the definition's `Established` condition is `True`.
pub fn is_established(obj: &Map<String, Value>) -> bool {
    condition_true(obj, "Established")
}

/// Whether the condition `ty` is `True`.
pub fn condition_true(obj: &Map<String, Value>, ty: &str) -> bool {
    obj.get("status")
        .and_then(|s| s.get("conditions"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .any(|c| c["type"] == ty && c["status"] == "True")
}

/// apimachinery's `ValidateObjectMeta` (not core's: no standard-finalizer rule) with the
/// CRD's name function: a DNS subdomain that is `<plural>.<group>`.
fn validate_meta(obj: &Map<String, Value>) -> Vec<FieldError> {
    let s = spec(obj);
    let want = format!(
        "{}.{}",
        str_at(s.and_then(|s| s.get("names")), "plural"),
        str_at(s, "group")
    );
    let name_fn = |name: &str, prefix: bool| {
        let mut msgs = name_is_dns_subdomain(name, prefix);
        if name != want {
            msgs.push(NAME_RULE.to_string());
        }
        msgs
    };
    validate_object_meta_accessor(&meta_map(obj), false, &name_fn)
}

/// `validateCustomResourceDefinitionSpec`.
fn validate_spec(obj: &Map<String, Value>, old: Option<&Map<String, Value>>) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let s = spec(obj);
    let group = str_at(s, "group");
    if group.is_empty() {
        errs.push(FieldError::required("spec.group", ""));
    } else {
        let msgs = crate::resources::validation::names::is_dns1123_subdomain(group);
        if !msgs.is_empty() {
            errs.push(FieldError::invalid(
                "spec.group",
                json!(group),
                &msgs.join(","),
            ));
        } else if group.split('.').count() < 2 {
            errs.push(FieldError::invalid(
                "spec.group",
                json!(group),
                "should be a domain with at least one dot",
            ));
        }
    }
    let scope = str_at(s, "scope");
    if scope.is_empty() {
        errs.push(FieldError::required("spec.scope", ""));
    } else if scope != "Cluster" && scope != "Namespaced" {
        errs.push(FieldError::not_supported(
            "spec.scope",
            json!(scope),
            &["Cluster", "Namespaced"],
        ));
    }
    let versions = super::versions(obj);
    let schemas: Vec<Option<&Value>> = versions
        .iter()
        .map(|v| {
            v.get("schema")
                .and_then(|s| s.get("openAPIV3Schema"))
                .filter(|s| !s.is_null())
        })
        .collect();
    // Subresources the same in every version are lifted to `spec.subresources` by the v1
    // conversion; then no version has its own, and a version's schema is checked as
    // without the status subresource.
    let has_status = |v: &Value| {
        v.get("subresources")
            .and_then(|s| s.get("status"))
            .is_some_and(|s| !s.is_null())
    };
    let first_subresources = versions.first().and_then(|v| v.get("subresources"));
    let subresources_lifted = versions
        .iter()
        .all(|v| v.get("subresources") == first_subresources);
    // Whether an update leaves the schema of the version named so as it was.
    let schema_of = |versions: &[Value], name: &str| {
        versions
            .iter()
            .find(|v| str_at(Some(v), "name") == name)
            .and_then(|v| v.get("schema"))
            .and_then(|s| s.get("openAPIV3Schema"))
            .cloned()
    };
    let old_versions = old.map(super::versions).unwrap_or_default();
    let unchanged = |name: &str| {
        old.is_some()
            && schema_of(old_versions, name).is_some()
            && schema_of(old_versions, name) == schema_of(versions, name)
    };
    // Identical schemas are lifted to `spec.validation` by the v1 conversion.
    let lifted =
        !schemas.is_empty() && schemas.iter().all(|x| *x == schemas[0]) && schemas[0].is_some();
    if !lifted {
        for (i, schema) in schemas.iter().enumerate() {
            if schema.is_none() {
                let path = FieldPath::new("spec.versions")
                    .index(i)
                    .child("schema.openAPIV3Schema");
                errs.push(FieldError::required(path.as_str(), ""));
            }
        }
    }
    let mut storage = 0;
    let mut names: Vec<&str> = Vec::new();
    let mut duplicate = false;
    for (i, v) in versions.iter().enumerate() {
        if v.get("storage").and_then(Value::as_bool) == Some(true) {
            storage += 1;
        }
        let name = v.get("name").and_then(Value::as_str).unwrap_or("");
        duplicate |= names.contains(&name);
        names.push(name);
        let msgs = is_dns1035_label(name);
        if !msgs.is_empty() {
            let path = FieldPath::new("spec.versions").index(i).child("name");
            errs.push(FieldError::invalid(
                path.as_str(),
                json!(name),
                &msgs.join(","),
            ));
        }
        if !lifted {
            if let Some(schema) = schemas[i] {
                let path = FieldPath::new("spec.versions")
                    .index(i)
                    .child("schema")
                    .child("openAPIV3Schema");
                let cx = SchemaContext {
                    status: !subresources_lifted && has_status(v),
                    unchanged: unchanged(name),
                };
                errs.extend(validate_schema(schema, &path, cx));
            }
        }
    }
    if duplicate {
        errs.push(FieldError::invalid(
            "spec.versions",
            internal_versions(versions),
            "must contain unique version names",
        ));
    }
    if storage != 1 {
        errs.push(FieldError::invalid(
            "spec.versions",
            internal_versions(versions),
            "must have exactly one version marked as storage version",
        ));
    }
    let names_v = s.and_then(|s| s.get("names"));
    for key in ["plural", "singular", "kind", "listKind"] {
        if str_at(names_v, key).is_empty() {
            errs.push(FieldError::required(&format!("spec.names.{key}"), ""));
        }
    }
    errs.extend(validate_names(names_v, &FieldPath::new("spec.names")));
    if lifted {
        if let Some(schema) = schemas[0] {
            let cx = SchemaContext {
                status: versions.iter().any(has_status),
                unchanged: unchanged(str_at(versions.first(), "name")),
            };
            errs.extend(validate_schema(
                schema,
                &FieldPath::new("spec.validation.openAPIV3Schema"),
                cx,
            ));
        }
    }
    errs.extend(validate_conversion(s));
    errs
}

/// The versions list as the internal type renders in a bad value: Go field names, the
/// per-version schema, subresources and columns shown as null (as when the conversion lifted
/// them; distinct per-version schemas would render there in full).
fn internal_versions(versions: &[Value]) -> Value {
    if versions.is_empty() {
        return Value::Null;
    }
    let out: Vec<Value> = versions
        .iter()
        .map(|v| {
            let mut m = Map::new();
            m.insert(
                "Name".into(),
                json!(v.get("name").and_then(Value::as_str).unwrap_or("")),
            );
            m.insert(
                "Served".into(),
                json!(v.get("served").and_then(Value::as_bool).unwrap_or(false)),
            );
            m.insert(
                "Storage".into(),
                json!(v.get("storage").and_then(Value::as_bool).unwrap_or(false)),
            );
            m.insert(
                "Deprecated".into(),
                json!(v
                    .get("deprecated")
                    .and_then(Value::as_bool)
                    .unwrap_or(false)),
            );
            m.insert(
                "DeprecationWarning".into(),
                v.get("deprecationWarning").cloned().unwrap_or(Value::Null),
            );
            for k in [
                "Schema",
                "Subresources",
                "AdditionalPrinterColumns",
                "SelectableFields",
            ] {
                m.insert(k.into(), Value::Null);
            }
            Value::Object(m)
        })
        .collect();
    Value::Array(out)
}

/// `ValidateCustomResourceDefinitionNames` at `path` (`spec.names`, `status.acceptedNames`).
fn validate_names(names: Option<&Value>, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let dns = |errs: &mut Vec<FieldError>, key: &str, value: &str, mixed: bool| {
        if value.is_empty() {
            return;
        }
        let msgs = if mixed {
            is_dns1035_label(&value.to_lowercase())
        } else {
            is_dns1035_label(value)
        };
        if !msgs.is_empty() {
            let detail = if mixed {
                format!(
                    "may have mixed case, but should otherwise match: {}",
                    msgs.join(",")
                )
            } else {
                msgs.join(",")
            };
            errs.push(FieldError::invalid(
                path.child(key).as_str(),
                json!(value),
                &detail,
            ));
        }
    };
    dns(&mut errs, "plural", str_at(names, "plural"), false);
    dns(&mut errs, "singular", str_at(names, "singular"), false);
    dns(&mut errs, "kind", str_at(names, "kind"), true);
    dns(&mut errs, "listKind", str_at(names, "listKind"), true);
    for (i, short) in strings(names.and_then(|n| n.get("shortNames")))
        .iter()
        .enumerate()
    {
        let msgs = is_dns1035_label(short);
        if !msgs.is_empty() {
            errs.push(FieldError::invalid(
                path.child("shortNames").index(i).as_str(),
                json!(short),
                &msgs.join(","),
            ));
        }
    }
    let (kind, list_kind) = (str_at(names, "kind"), str_at(names, "listKind"));
    if !kind.is_empty() && kind == list_kind {
        errs.push(FieldError::invalid(
            path.child("listKind").as_str(),
            json!(list_kind),
            "kind and listKind may not be the same",
        ));
    }
    for (i, c) in strings(names.and_then(|n| n.get("categories")))
        .iter()
        .enumerate()
    {
        let msgs = is_dns1035_label(c);
        if !msgs.is_empty() {
            errs.push(FieldError::invalid(
                path.child("categories").index(i).as_str(),
                json!(c),
                &msgs.join(","),
            ));
        }
    }
    errs
}

fn validate_accepted_names(obj: &Map<String, Value>) -> Vec<FieldError> {
    let accepted = obj.get("status").and_then(|s| s.get("acceptedNames"));
    validate_names(accepted, &FieldPath::new("status.acceptedNames"))
}

/// `ValidateCustomResourceDefinitionStoredVersions`.
fn validate_stored_versions(obj: &Map<String, Value>) -> Vec<FieldError> {
    let raw = obj.get("status").and_then(|s| s.get("storedVersions"));
    let stored = strings(raw);
    if stored.is_empty() {
        let value = raw.filter(|v| v.is_array()).cloned().unwrap_or(Value::Null);
        return vec![FieldError::invalid(
            "status.storedVersions",
            value,
            "must have at least one stored version",
        )];
    }
    let mut errs = Vec::new();
    let versions = super::versions(obj);
    for v in versions {
        let name = v.get("name").and_then(Value::as_str).unwrap_or("");
        if v.get("storage").and_then(Value::as_bool) == Some(true)
            && !stored.iter().any(|s| s == name)
        {
            errs.push(FieldError::invalid(
                "status.storedVersions",
                json!(stored),
                &format!("must have the storage version {name}"),
            ));
        }
    }
    for (i, s) in stored.iter().enumerate() {
        if !versions
            .iter()
            .any(|v| v.get("name").and_then(Value::as_str) == Some(s))
        {
            errs.push(FieldError::invalid(
                FieldPath::new("status.storedVersions").index(i).as_str(),
                json!(s),
                &format!("missing from spec.versions; {s} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in {s} and removes {s} from status.storedVersions"),
            ));
        }
    }
    errs
}

/// Where a definition stands with API approval (`getAPIApprovalState`).
#[derive(PartialEq, Eq)]
enum Approval {
    /// Not a group under k8s.io or kubernetes.io.
    NotRequired,
    Missing,
    Invalid(String),
    Approved,
}

fn approval(obj: &Map<String, Value>) -> Approval {
    let group = str_at(spec(obj), "group");
    let protected = ["k8s.io", "kubernetes.io"]
        .iter()
        .any(|d| group == *d || group.ends_with(&format!(".{d}")));
    if !protected {
        return Approval::NotRequired;
    }
    let value = meta_map(obj)
        .get("annotations")
        .and_then(|a| a.get(APPROVAL))
        .and_then(Value::as_str)
        .map(str::to_string);
    match value {
        None => Approval::Missing,
        Some(v) if v.starts_with("unapproved") || is_url(&v) => Approval::Approved,
        Some(v) => Approval::Invalid(v),
    }
}

const APPROVAL: &str = "api-approved.kubernetes.io";

/// `validateAPIApproval`: groups under k8s.io and kubernetes.io need the approval annotation.
fn validate_approval(obj: &Map<String, Value>) -> Vec<FieldError> {
    let path = "metadata.annotations[api-approved.kubernetes.io]";
    match approval(obj) {
        Approval::NotRequired | Approval::Approved => Vec::new(),
        Approval::Missing => vec![FieldError::required(path, &format!("protected groups must have approval annotation {APPROVAL:?}, see https://github.com/kubernetes/enhancements/pull/1111"))],
        Approval::Invalid(v) => vec![FieldError::invalid(path, json!(v), &format!("protected groups must have approval annotation {APPROVAL:?} with either a URL or a reason starting with \"unapproved\", see https://github.com/kubernetes/enhancements/pull/1111"))],
    }
}

/// A URL with a scheme and a host (`url.Parse`'s view, roughly).
fn is_url(v: &str) -> bool {
    v.split_once("://").is_some_and(|(scheme, rest)| {
        !scheme.is_empty() && !rest.is_empty() && !rest.starts_with('/')
    })
}

fn preserves_unknown_fields(obj: &Map<String, Value>) -> bool {
    spec(obj)
        .and_then(|s| s.get("preserveUnknownFields"))
        .and_then(Value::as_bool)
        == Some(true)
}

/// `validatePreserveUnknownFields` (an update keeps an old definition's `true`).
fn validate_preserve_unknown_fields(obj: &Map<String, Value>) -> Vec<FieldError> {
    if preserves_unknown_fields(obj) {
        return vec![FieldError::invalid("spec.preserveUnknownFields", json!(true), "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead")];
    }
    Vec::new()
}

/// `validateCustomResourceConversion` (the webhook's client config as the internal type names
/// it, `spec.conversion.webhookClientConfig`).
fn validate_conversion(s: Option<&Value>) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let Some(conv) = s
        .and_then(|s| s.get("conversion"))
        .filter(|c| c.is_object())
    else {
        return errs;
    };
    let strategy = str_at(Some(conv), "strategy");
    let webhook = conv.get("webhook");
    let client_config = webhook
        .and_then(|w| w.get("clientConfig"))
        .filter(|c| !c.is_null());
    let review_versions = strings(webhook.and_then(|w| w.get("conversionReviewVersions")));
    match strategy {
        "" => errs.push(FieldError::required("spec.conversion.strategy", "")),
        "None" | "Webhook" => {}
        other => errs.push(FieldError::not_supported(
            "spec.conversion.strategy",
            json!(other),
            &["None", "Webhook"],
        )),
    }
    if strategy == "Webhook" {
        match client_config {
            None => errs.push(FieldError::required(
                "spec.conversion.webhookClientConfig",
                "required when strategy is set to Webhook",
            )),
            Some(c) => {
                let url = c.get("url").is_some_and(|u| !u.is_null());
                let service = c.get("service").is_some_and(|u| !u.is_null());
                if url == service {
                    errs.push(FieldError::required(
                        "spec.conversion.webhookClientConfig",
                        "exactly one of url or service is required",
                    ));
                }
            }
        }
        if review_versions.is_empty() {
            errs.push(FieldError::required(
                "spec.conversion.conversionReviewVersions",
                "",
            ));
        } else if !review_versions.iter().any(|v| v == "v1" || v == "v1beta1") {
            errs.push(FieldError::invalid(
                "spec.conversion.conversionReviewVersions",
                json!(review_versions),
                "must include at least one of v1, v1beta1",
            ));
        }
    } else {
        if client_config.is_some() {
            errs.push(FieldError::forbidden(
                "spec.conversion.webhookClientConfig",
                "should not be set when strategy is not set to Webhook",
            ));
        }
        if !review_versions.is_empty() {
            errs.push(FieldError::forbidden(
                "spec.conversion.conversionReviewVersions",
                "should not be set when strategy is not set to Webhook",
            ));
        }
    }
    errs
}
