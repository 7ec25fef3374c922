//! Access review validation (`pkg/apis/authorization/validation/validation.go`, 1.34–1.36
//! form): exactly one of resource and non-resource attributes, a subject for the reviews that
//! name one, empty metadata, and well-formed selectors.
//!
//! The offending values print as apimachinery 1.34+ does: JSON, of the *internal* types where
//! the real code passes one (whose fields have no JSON tags: `{"Path":"/x","Verb":"get"}`).

use serde_json::{json, Map, Value};

use crate::resources::field::{FieldError, FieldPath};
use crate::resources::meta::str_at;
use crate::resources::validation::label_selector::{operator_values_error, validate_requirement};

/// Which review is validated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Review {
    /// SubjectAccessReview: a subject is required.
    Subject,
    /// LocalSubjectAccessReview: a subject, the URL's namespace, no non-resource attributes.
    Local,
    /// SelfSubjectAccessReview: the requester is the subject.
    SelfSubject,
}

/// The internal `NonResourceAttributes` as the error values print it.
fn internal_non_resource(v: &Value) -> Value {
    json!({"Path": str_at(v, "path"), "Verb": str_at(v, "verb")})
}

fn present<'a>(spec: &'a Value, field: &str) -> Option<&'a Value> {
    spec.get(field).filter(|v| !v.is_null())
}

/// `validateFieldSelectorAttributes` / `validateLabelSelectorAttributes`.
fn validate_selector(selector: Option<&Value>, path: &FieldPath, label: bool) -> Vec<FieldError> {
    let Some(sel) = selector.filter(|v| !v.is_null()) else {
        return Vec::new();
    };
    let mut errs = Vec::new();
    let raw = str_at(sel, "rawSelector");
    let reqs = sel["requirements"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    if !raw.is_empty() && !reqs.is_empty() {
        errs.push(FieldError::invalid(
            path.child("rawSelector").as_str(),
            json!(raw),
            "may not specified at the same time as requirements",
        ));
    }
    if raw.is_empty() && reqs.is_empty() {
        errs.push(FieldError::required(
            path.child("requirements").as_str(),
            &format!(
                "when {} is specified, requirements or rawSelector is required",
                path.as_str()
            ),
        ));
    }
    for (i, req) in reqs.iter().enumerate() {
        let p = path.child("requirements").index(i);
        if label {
            errs.extend(validate_requirement(req, &p, true, false));
        } else {
            // `ValidateFieldSelectorRequirement`, unknown operators allowed: a key, then the
            // values rule.
            if req["key"].as_str().unwrap_or("").is_empty() {
                errs.push(FieldError::required(
                    p.child("key").as_str(),
                    "must be specified",
                ));
            }
            errs.extend(operator_values_error(req, &p));
        }
    }
    errs
}

/// `ValidateSubjectAccessReviewSpec` / `ValidateSelfSubjectAccessReviewSpec`.
fn validate_spec(spec: &Value, review: Review) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let resource = present(spec, "resourceAttributes");
    let non_resource = present(spec, "nonResourceAttributes");
    match (resource, non_resource) {
        (Some(_), Some(n)) => errs.push(FieldError::invalid(
            "spec.nonResourceAttributes",
            internal_non_resource(n),
            "cannot be specified in combination with resourceAttributes",
        )),
        (None, None) => errs.push(FieldError::invalid(
            "spec.resourceAttributes",
            Value::Null,
            "exactly one of nonResourceAttributes or resourceAttributes must be specified",
        )),
        _ => {}
    }
    let no_groups = spec["groups"].as_array().is_none_or(Vec::is_empty);
    if review != Review::SelfSubject && str_at(spec, "user").is_empty() && no_groups {
        errs.push(FieldError::invalid(
            "spec.user",
            json!(str_at(spec, "user")),
            "at least one of user or group must be specified",
        ));
    }
    if let Some(r) = resource {
        let p = FieldPath::new("spec.resourceAttributes");
        errs.extend(validate_selector(
            r.get("fieldSelector"),
            &p.child("fieldSelector"),
            false,
        ));
        errs.extend(validate_selector(
            r.get("labelSelector"),
            &p.child("labelSelector"),
            true,
        ));
    }
    errs
}

/// The whole review's validation: its spec, then its metadata (which must be empty, but for
/// managedFields and a LocalSubjectAccessReview's namespace).
pub fn validate(obj: &Map<String, Value>, review: Review) -> Vec<FieldError> {
    let spec = obj.get("spec").unwrap_or(&Value::Null);
    let mut errs = validate_spec(spec, review);
    let meta = obj.get("metadata").cloned().unwrap_or_else(|| json!({}));
    let mut rest = meta.as_object().cloned().unwrap_or_default();
    rest.shift_remove("managedFields");
    let local = review == Review::Local;
    if local {
        rest.shift_remove("namespace");
    }
    if !rest.is_empty() {
        let detail = if local {
            "must be empty except for namespace"
        } else {
            "must be empty"
        };
        errs.push(FieldError::invalid("metadata", meta.clone(), detail));
    }
    if local {
        let namespace = str_at(&meta, "namespace");
        if let Some(r) = present(spec, "resourceAttributes") {
            if str_at(r, "namespace") != namespace {
                errs.push(FieldError::invalid(
                    "spec.resourceAttributes.namespace",
                    json!(str_at(r, "namespace")),
                    "must match metadata.namespace",
                ));
            }
        }
        if let Some(n) = present(spec, "nonResourceAttributes") {
            errs.push(FieldError::invalid(
                "spec.nonResourceAttributes",
                internal_non_resource(n),
                "disallowed on this kind of request",
            ));
        }
    }
    errs
}
