//! RBAC validation (`pkg/apis/rbac/validation/validation.go`) and defaulting
//! (`pkg/apis/rbac/v1/defaults.go`), over the objects' JSON.
//!
//! Values of composite fields in messages are JSON with the internal types' Go field names
//! (`{"APIGroup":...}`), as `field.Invalid` marshals the untagged internal structs.

use serde_json::{json, Map, Value};

use crate::resources::field::{FieldError, FieldPath};
use crate::resources::meta::{meta_map, str_at, str_items};
use crate::resources::validation::names::{
    is_valid_path_segment_name, name_is_dns_subdomain, validate_path_segment,
};
use crate::resources::validation::object_meta::{
    validate_object_meta, validate_object_meta_update,
};

pub const GROUP: &str = "rbac.authorization.k8s.io";

fn strs(v: &Value) -> Vec<&str> {
    str_items(v).collect()
}

/// `ValidatePolicyRule`.
fn validate_rule(rule: &Value, namespaced: bool, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if strs(&rule["verbs"]).is_empty() {
        errs.push(FieldError::required(
            path.child("verbs").as_str(),
            "verbs must contain at least one value",
        ));
    }
    let urls = strs(&rule["nonResourceURLs"]);
    if !urls.is_empty() {
        let p = path.child("nonResourceURLs");
        if namespaced {
            errs.push(FieldError::invalid(
                p.as_str(),
                json!(urls),
                "namespaced rules cannot apply to non-resource URLs",
            ));
        }
        let resourceful = ["apiGroups", "resources", "resourceNames"]
            .iter()
            .any(|f| !strs(&rule[*f]).is_empty());
        if resourceful {
            errs.push(FieldError::invalid(
                p.as_str(),
                json!(urls),
                "rules cannot apply to both regular resources and non-resource URLs",
            ));
        }
        return errs;
    }
    if strs(&rule["apiGroups"]).is_empty() {
        errs.push(FieldError::required(
            path.child("apiGroups").as_str(),
            "resource rules must supply at least one api group",
        ));
    }
    if strs(&rule["resources"]).is_empty() {
        errs.push(FieldError::required(
            path.child("resources").as_str(),
            "resource rules must supply at least one resource",
        ));
    }
    errs
}

fn validate_rules(obj: &Map<String, Value>, namespaced: bool) -> Vec<FieldError> {
    let rules = obj.get("rules").and_then(Value::as_array);
    rules
        .into_iter()
        .flatten()
        .enumerate()
        .flat_map(|(i, r)| validate_rule(r, namespaced, &FieldPath::new("rules").index(i)))
        .collect()
}

/// `ValidateRBACName`: a path segment name, `generateName` included (the prefix flag is
/// ignored, so `.` is refused there too).
fn validate_rbac_name(name: &str, _prefix: bool) -> Vec<String> {
    is_valid_path_segment_name(name)
}

/// `ValidateRole` / `ValidateClusterRole` (aggregation rule included); an update keeps
/// selector values that were already invalid (`allow_invalid_values`).
pub fn validate_role(
    obj: &Map<String, Value>,
    namespaced: bool,
    allow_invalid_values: bool,
) -> Vec<FieldError> {
    let mut errs = validate_object_meta(&meta_map(obj), namespaced, &validate_rbac_name);
    errs.extend(validate_rules(obj, namespaced));
    if let Some(agg) = obj.get("aggregationRule").filter(|v| !v.is_null()) {
        let selectors = agg["clusterRoleSelectors"].as_array();
        if selectors.is_none_or(Vec::is_empty) {
            errs.push(FieldError::required(
                "aggregationRule.clusterRoleSelectors",
                "at least one clusterRoleSelector required if aggregationRule is non-nil",
            ));
        }
        for (i, sel) in selectors.into_iter().flatten().enumerate() {
            let path = FieldPath::new("aggregationRule.clusterRoleSelectors").index(i);
            use crate::resources::validation::label_selector::validate;
            // `LabelSelectorAsSelector` rejects what the full shape check rejects (invalid
            // values included), and adds this.
            let strict = validate(sel, &path, false);
            let unconvertible = !strict.is_empty();
            match allow_invalid_values {
                false => errs.extend(strict),
                true => errs.extend(validate(sel, &path, true)),
            }
            if unconvertible {
                errs.push(FieldError::invalid(
                    path.as_str(),
                    Value::Null,
                    "invalid label selector.",
                ));
            }
        }
    }
    errs
}

/// `hasInvalidLabelValueInLabelSelector`: the stored ClusterRole's selectors fail the shape
/// check, so an update may keep them.
fn has_invalid_selector(old: &Map<String, Value>) -> bool {
    let selectors = old
        .get("aggregationRule")
        .and_then(|a| a["clusterRoleSelectors"].as_array());
    selectors.into_iter().flatten().any(|s| {
        !crate::resources::validation::label_selector::validate(s, &FieldPath::new(""), false)
            .is_empty()
    })
}

/// `ValidateRoleUpdate` / `ValidateClusterRoleUpdate`.
pub fn validate_role_update(
    new: &Map<String, Value>,
    old: &Map<String, Value>,
    namespaced: bool,
) -> Vec<FieldError> {
    let mut errs = validate_role(new, namespaced, has_invalid_selector(old));
    errs.extend(validate_object_meta_update(&meta_map(new), &meta_map(old)));
    errs
}

/// `ValidateRoleBindingSubject`.
fn validate_subject(s: &Value, namespaced: bool, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let name = str_at(s, "name");
    if name.is_empty() {
        errs.push(FieldError::required(path.child("name").as_str(), ""));
    }
    let api_group = str_at(s, "apiGroup");
    match str_at(s, "kind") {
        "ServiceAccount" => {
            if !name.is_empty() {
                for msg in name_is_dns_subdomain(name, false) {
                    errs.push(FieldError::invalid(
                        path.child("name").as_str(),
                        json!(name),
                        &msg,
                    ));
                }
            }
            if !api_group.is_empty() {
                errs.push(FieldError::not_supported(
                    path.child("apiGroup").as_str(),
                    json!(api_group),
                    &[""],
                ));
            }
            if !namespaced && str_at(s, "namespace").is_empty() {
                errs.push(FieldError::required(path.child("namespace").as_str(), ""));
            }
        }
        "User" | "Group" => {
            if api_group != GROUP {
                errs.push(FieldError::not_supported(
                    path.child("apiGroup").as_str(),
                    json!(api_group),
                    &[GROUP],
                ));
            }
        }
        kind => errs.push(FieldError::not_supported(
            path.child("kind").as_str(),
            json!(kind),
            &["ServiceAccount", "User", "Group"],
        )),
    }
    errs
}

/// `ValidateRoleBinding` / `ValidateClusterRoleBinding`.
pub fn validate_binding(obj: &Map<String, Value>, namespaced: bool) -> Vec<FieldError> {
    let mut errs = validate_object_meta(&meta_map(obj), namespaced, &validate_rbac_name);
    let role_ref = obj.get("roleRef").cloned().unwrap_or(Value::Null);
    let api_group = str_at(&role_ref, "apiGroup");
    if api_group != GROUP {
        errs.push(FieldError::not_supported(
            "roleRef.apiGroup",
            json!(api_group),
            &[GROUP],
        ));
    }
    let kind = str_at(&role_ref, "kind");
    let kinds: &[&str] = if namespaced {
        &["Role", "ClusterRole"]
    } else {
        &["ClusterRole"]
    };
    if !kinds.contains(&kind) {
        errs.push(FieldError::not_supported(
            "roleRef.kind",
            json!(kind),
            kinds,
        ));
    }
    let name = str_at(&role_ref, "name");
    if name.is_empty() {
        errs.push(FieldError::required("roleRef.name", ""));
    } else {
        for msg in validate_path_segment(name, false) {
            errs.push(FieldError::invalid("roleRef.name", json!(name), &msg));
        }
    }
    let subjects = obj.get("subjects").and_then(Value::as_array);
    for (i, s) in subjects.into_iter().flatten().enumerate() {
        errs.extend(validate_subject(
            s,
            namespaced,
            &FieldPath::new("subjects").index(i),
        ));
    }
    errs
}

/// `ValidateRoleBindingUpdate` / `ValidateClusterRoleBindingUpdate`: `roleRef` is immutable.
pub fn validate_binding_update(
    new: &Map<String, Value>,
    old: &Map<String, Value>,
    namespaced: bool,
) -> Vec<FieldError> {
    let mut errs = validate_binding(new, namespaced);
    errs.extend(validate_object_meta_update(&meta_map(new), &meta_map(old)));
    if new.get("roleRef") != old.get("roleRef") {
        let r = new.get("roleRef").cloned().unwrap_or(Value::Null);
        let internal = json!({
            "APIGroup": str_at(&r, "apiGroup"),
            "Kind": str_at(&r, "kind"),
            "Name": str_at(&r, "name"),
        });
        errs.push(FieldError::invalid(
            "roleRef",
            internal,
            "cannot change roleRef",
        ));
    }
    errs
}

/// `SetDefaults_RoleBinding` / `_ClusterRoleBinding` / `_Subject`: the RBAC group for
/// `roleRef` and for User and Group subjects.
pub fn default_binding(obj: &mut Map<String, Value>) {
    if let Some(r) = obj.get_mut("roleRef").and_then(Value::as_object_mut) {
        if r.get("apiGroup")
            .and_then(Value::as_str)
            .unwrap_or("")
            .is_empty()
        {
            r.insert("apiGroup".into(), json!(GROUP));
        }
    }
    if let Some(subjects) = obj.get_mut("subjects").and_then(Value::as_array_mut) {
        for s in subjects.iter_mut().filter_map(Value::as_object_mut) {
            let kind = s.get("kind").and_then(Value::as_str).unwrap_or("");
            let empty = s
                .get("apiGroup")
                .and_then(Value::as_str)
                .unwrap_or("")
                .is_empty();
            if empty && matches!(kind, "User" | "Group") {
                s.insert("apiGroup".into(), json!(GROUP));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A ClusterRole stored with an invalid selector value may keep it on update: only the
    /// conversion error remains, as `hasInvalidLabelValueInLabelSelector` allows.
    #[test]
    fn an_update_keeps_selector_values_that_were_already_invalid() {
        let role = json!({"metadata": {"name": "agg", "resourceVersion": "1"},
            "aggregationRule": {"clusterRoleSelectors": [
                {"matchExpressions": [{"key": "a", "operator": "In", "values": ["a b"]}]}]}});
        let role = role.as_object().unwrap();
        let fields = |errs: Vec<FieldError>| -> Vec<String> {
            errs.iter().map(|e| e.field.clone()).collect()
        };
        let value = "aggregationRule.clusterRoleSelectors[0].matchExpressions[0].values[0]";
        let selector = "aggregationRule.clusterRoleSelectors[0]";
        assert_eq!(fields(validate_role(role, false, false)), [value, selector]);
        assert_eq!(fields(validate_role_update(role, role, false)), [selector]);
    }
}
