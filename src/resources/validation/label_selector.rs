//! `metav1validation.ValidateLabelSelector`: the shape of a `metav1.LabelSelector` (operators,
//! values, label keys and values), as RBAC's aggregation rules are validated.

use serde_json::{json, Value};

use super::meta_fields::validate_labels;
use super::names::{is_qualified_name, is_valid_label_value};
use crate::resources::field::{FieldError, FieldPath};

/// The values rule shared by label and field selector requirements: `In`/`NotIn` need
/// values, `Exists`/`DoesNotExist` forbid them; `None` as well for any other operator.
pub fn operator_values_error(req: &Value, path: &FieldPath) -> Option<FieldError> {
    let values = req["values"].as_array().map_or(0, Vec::len);
    match req["operator"].as_str().unwrap_or("") {
        "In" | "NotIn" if values == 0 => Some(FieldError::required(
            path.child("values").as_str(),
            "must be specified when `operator` is 'In' or 'NotIn'",
        )),
        "Exists" | "DoesNotExist" if values > 0 => Some(FieldError::forbidden(
            path.child("values").as_str(),
            "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
        )),
        _ => None,
    }
}

/// `ValidateLabelSelectorRequirement`; access reviews allow operators this server does not
/// know (`AllowUnknownOperatorInRequirement`), for newer clients; a ClusterRole update keeps
/// values that were already invalid (`AllowInvalidLabelValueInSelector`).
pub fn validate_requirement(
    req: &Value,
    path: &FieldPath,
    allow_unknown_operator: bool,
    allow_invalid_values: bool,
) -> Vec<FieldError> {
    let mut errs: Vec<FieldError> = operator_values_error(req, path).into_iter().collect();
    let op = req["operator"].as_str().unwrap_or("");
    let known = matches!(op, "In" | "NotIn" | "Exists" | "DoesNotExist");
    if !known && !allow_unknown_operator {
        errs.push(FieldError::invalid(
            path.child("operator").as_str(),
            json!(op),
            "not a valid selector operator",
        ));
    }
    let key = req["key"].as_str().unwrap_or("");
    for msg in is_qualified_name(key) {
        errs.push(FieldError::invalid(
            path.child("key").as_str(),
            json!(key),
            &msg,
        ));
    }
    if !allow_invalid_values {
        let values = req["values"].as_array().into_iter().flatten();
        for (i, v) in values.enumerate() {
            let v = v.as_str().unwrap_or("");
            for msg in is_valid_label_value(v) {
                errs.push(FieldError::invalid(
                    path.child("values").index(i).as_str(),
                    json!(v),
                    &msg,
                ));
            }
        }
    }
    errs
}

/// `ValidateLabelSelector`: `matchLabels`, then each requirement (its values checked as label
/// values unless `allow_invalid_values`).
pub fn validate(selector: &Value, path: &FieldPath, allow_invalid_values: bool) -> Vec<FieldError> {
    let mut errs = validate_labels(selector.get("matchLabels"), &path.child("matchLabels"));
    let exprs = selector["matchExpressions"].as_array();
    for (i, req) in exprs.into_iter().flatten().enumerate() {
        let p = path.child("matchExpressions").index(i);
        errs.extend(validate_requirement(req, &p, false, allow_invalid_values));
    }
    errs
}
