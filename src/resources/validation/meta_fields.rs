//! Validators for the collection fields of ObjectMeta: labels, annotations, ownerReferences,
//! finalizers and managedFields, with apimachinery's exact paths, values and messages.
//!
//! Sources: `pkg/api/validation/objectmeta.go` (annotations, owner references, finalizers),
//! `pkg/apis/meta/v1/validation/validation.go` (labels, managed fields, field manager) and
//! kubernetes `pkg/apis/core/validation` (`validateKubeFinalizerName`).
//!
//! Inputs are the decoded JSON values of the fields (`None` or `null` when absent). Go iterates
//! label and annotation maps in random order; here the object's key order is used, which keeps
//! the simulator deterministic.

use crate::resources::meta::map_str;
use serde_json::{Map, Value};

use super::names::is_qualified_name;
use crate::resources::field::{FieldError, FieldPath};

/// `TotalAnnotationSizeLimitB`: keys plus values of all annotations, in bytes.
pub const TOTAL_ANNOTATION_SIZE_LIMIT_BYTES: usize = 256 * 1024;
/// `FieldManagerMaxLength`.
pub const FIELD_MANAGER_MAX_LENGTH: usize = 128;
/// `MaxSubresourceNameLength` for managedFields entries.
pub const MAX_SUBRESOURCE_NAME_LENGTH: usize = 256;
/// `metav1.FinalizerOrphanDependents`.
pub const FINALIZER_ORPHAN: &str = "orphan";
/// `metav1.FinalizerDeleteDependents`.
pub const FINALIZER_FOREGROUND: &str = "foregroundDeletion";
/// Finalizer names that need no domain (`helper.IsStandardFinalizerName`).
pub const STANDARD_FINALIZERS: [&str; 3] = ["kubernetes", FINALIZER_ORPHAN, FINALIZER_FOREGROUND];

/// The string entries of a JSON object (a Go `map[string]string`): `null` values decode as "".
fn string_map(v: Option<&Value>) -> Vec<(&str, &str)> {
    match v {
        Some(Value::Object(m)) => m
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str().unwrap_or("")))
            .collect(),
        _ => Vec::new(),
    }
}

/// The items of a JSON array of strings (a Go `[]string`); shared so every finalizer check
/// reads the list the same way.
pub(crate) fn string_list(v: Option<&Value>) -> Vec<&str> {
    match v {
        Some(Value::Array(a)) => a.iter().map(|v| v.as_str().unwrap_or("")).collect(),
        _ => Vec::new(),
    }
}

fn objects(v: Option<&Value>) -> Vec<&Map<String, Value>> {
    match v {
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_object).collect(),
        _ => Vec::new(),
    }
}

fn invalid_str(path: &FieldPath, value: &str, detail: &str) -> FieldError {
    FieldError::invalid(path.as_str(), Value::String(value.to_string()), detail)
}

/// `ValidateLabels`: per entry, the key's `IsQualifiedName` messages then the value's
/// `IsValidLabelValue` messages, all at the bare `metadata.labels` path.
pub fn validate_labels(labels: Option<&Value>, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    for (k, v) in string_map(labels) {
        for msg in is_qualified_name(k) {
            errs.push(invalid_str(path, k, &msg));
        }
        for msg in super::names::is_valid_label_value(v) {
            errs.push(invalid_str(path, v, &msg));
        }
    }
    errs
}

/// Go's `strings.ToLower`: simple (one-rune) lower-case mapping per character.
fn go_to_lower(s: &str) -> String {
    s.chars()
        .map(|c| c.to_lowercase().next().unwrap_or(c))
        .collect()
}

/// `ValidateAnnotations`: keys are qualified names compared case-insensitively (the message is
/// about the lower-cased key, the value shown is the original key); then one
/// `Too long: may not be more than 262144 bytes` if keys plus values exceed 256 KiB.
pub fn validate_annotations(annotations: Option<&Value>, path: &FieldPath) -> Vec<FieldError> {
    let entries = string_map(annotations);
    let mut errs = Vec::new();
    for (k, _) in &entries {
        for msg in is_qualified_name(&go_to_lower(k)) {
            errs.push(invalid_str(path, k, &msg));
        }
    }
    let total: usize = entries.iter().map(|(k, v)| k.len() + v.len()).sum();
    if total > TOTAL_ANNOTATION_SIZE_LIMIT_BYTES {
        errs.push(FieldError::too_long(
            path.as_str(),
            TOTAL_ANNOTATION_SIZE_LIMIT_BYTES,
        ));
    }
    errs
}

/// An owner reference as Go's `json.Marshal(metav1.OwnerReference)` prints it: the four string
/// fields always, `controller` and `blockOwnerDeletion` only when set, unknown keys dropped.
fn owner_ref_go_json(r: &Map<String, Value>) -> Value {
    let mut out = Map::new();
    for key in ["apiVersion", "kind", "name", "uid"] {
        out.insert(key.to_string(), Value::String(map_str(r, key).to_string()));
    }
    for key in ["controller", "blockOwnerDeletion"] {
        if let Some(b) = r.get(key).and_then(Value::as_bool) {
            out.insert(key.to_string(), Value::Bool(b));
        }
    }
    Value::Object(out)
}

/// `validateOwnerReference`: subfield errors sit directly under `metadata.ownerReferences`
/// (no index), then core `/v1, Kind=Event` is refused as an owner.
fn validate_owner_reference(r: &Map<String, Value>, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let api_version = map_str(r, "apiVersion");
    let kind = map_str(r, "kind");
    let (group, version) = crate::resources::meta::parse_group_version(api_version);
    if version.is_empty() {
        errs.push(invalid_str(
            &path.child("apiVersion"),
            api_version,
            "version must not be empty",
        ));
    }
    if kind.is_empty() {
        errs.push(invalid_str(&path.child("kind"), kind, "must not be empty"));
    }
    let name = map_str(r, "name");
    if name.is_empty() {
        errs.push(invalid_str(&path.child("name"), name, "must not be empty"));
    }
    let uid = map_str(r, "uid");
    if uid.is_empty() {
        errs.push(invalid_str(&path.child("uid"), uid, "must not be empty"));
    }
    if group.is_empty() && version == "v1" && kind == "Event" {
        errs.push(FieldError::invalid(
            path.as_str(),
            owner_ref_go_json(r),
            &format!("{group}/{version}, Kind={kind} is disallowed from being an owner"),
        ));
    }
    errs
}

/// `ValidateOwnerReferences`: each reference's errors, plus one error (value: the whole list)
/// per extra reference with `controller: true`.
pub fn validate_owner_references(refs: Option<&Value>, path: &FieldPath) -> Vec<FieldError> {
    let list = objects(refs);
    let mut errs = Vec::new();
    let mut first_controller: Option<String> = None;
    for r in &list {
        errs.extend(validate_owner_reference(r, path));
        if r.get("controller").and_then(Value::as_bool) == Some(true) {
            let current = format!("{}/{}", map_str(r, "kind"), map_str(r, "name"));
            match &first_controller {
                Some(first) => errs.push(FieldError::invalid(
                    path.as_str(),
                    Value::Array(list.iter().map(|r| owner_ref_go_json(r)).collect()),
                    &format!("Only one reference can have Controller set to true. Found \"true\" in references for {first} and {current}"),
                )),
                None => first_controller = Some(current),
            }
        }
    }
    errs
}

/// `ValidateFinalizers`: each name must be a qualified name (errors at the bare
/// `metadata.finalizers` path), and `orphan` with `foregroundDeletion` is refused.
pub fn validate_finalizers(finalizers: Option<&Value>, path: &FieldPath) -> Vec<FieldError> {
    let list = string_list(finalizers);
    let mut errs = Vec::new();
    for f in &list {
        for msg in is_qualified_name(f) {
            errs.push(invalid_str(path, f, &msg));
        }
    }
    if list.contains(&FINALIZER_ORPHAN) && list.contains(&FINALIZER_FOREGROUND) {
        let all = list.iter().map(|f| Value::String(f.to_string())).collect();
        errs.push(FieldError::invalid(
            path.as_str(),
            Value::Array(all),
            "finalizer orphan and foregroundDeletion cannot be both set",
        ));
    }
    errs
}

/// Kubernetes' extra finalizer rule for built-in kinds (`validateKubeFinalizerName`, appended by
/// core `ValidateObjectMeta`/`ValidateObjectMetaUpdate`): a name without `/` must be standard.
/// Errors are indexed: `metadata.finalizers[i]`.
pub fn validate_kube_finalizer_names(
    finalizers: Option<&Value>,
    path: &FieldPath,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    for (i, f) in string_list(finalizers).into_iter().enumerate() {
        if !f.contains('/') && !STANDARD_FINALIZERS.contains(&f) {
            errs.push(invalid_str(
                &path.index(i),
                f,
                "name is neither a standard finalizer name nor is it fully qualified",
            ));
        }
    }
    errs
}

/// `ValidateNoNewFinalizers`: while the object is being deleted, finalizers may only be
/// removed; the added ones are listed sorted, as Go's `%#v` of a `[]string`.
pub fn validate_no_new_finalizers(
    new: Option<&Value>,
    old: Option<&Value>,
    path: &FieldPath,
) -> Vec<FieldError> {
    let old = string_list(old);
    let mut extra: Vec<&str> = string_list(new)
        .into_iter()
        .filter(|f| !old.contains(f))
        .collect();
    crate::sort::sort(&mut extra);
    extra.dedup();
    if extra.is_empty() {
        return Vec::new();
    }
    let quoted: Vec<String> = extra.iter().map(|f| crate::codec::go_quote(f)).collect();
    vec![FieldError::forbidden(
        path.as_str(),
        &format!(
            "no new finalizers can be added if the object is being deleted, found new finalizers []string{{{}}}",
            quoted.join(", ")
        ),
    )]
}

/// Go's `unicode.IsPrint`, approximately: space, or not a control, separator, format,
/// private-use or noncharacter code point. Unassigned code points count as printable here (Go
/// would not), since std has no category tables.
pub fn go_is_print(c: char) -> bool {
    if c == ' ' {
        return true;
    }
    if c.is_control() || c.is_whitespace() {
        return false;
    }
    let n = c as u32;
    let format = matches!(n,
        0xAD | 0x600..=0x605 | 0x61C | 0x6DD | 0x70F | 0x890..=0x891 | 0x8E2 | 0x180E
        | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x2064 | 0x2066..=0x206F | 0xFEFF
        | 0xFFF9..=0xFFFB | 0x110BD | 0x110CD | 0x13430..=0x1343F | 0x1BCA0..=0x1BCA3
        | 0x1D173..=0x1D17A | 0xE0001 | 0xE0020..=0xE007F);
    let private = matches!(n, 0xE000..=0xF8FF | 0xF0000..=0xFFFFD | 0x100000..=0x10FFFD);
    let nonchar = matches!(n, 0xFDD0..=0xFDEF) || (n & 0xFFFE) == 0xFFFE;
    !(format || private || nonchar)
}

/// `ValidateFieldManager`: at most 128 bytes, and one error per non-printable character
/// (`invalid character U+0007 (at position 3)`, the position in bytes).
pub fn validate_field_manager(manager: &str, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if manager.len() > FIELD_MANAGER_MAX_LENGTH {
        errs.push(FieldError::too_long(
            path.as_str(),
            FIELD_MANAGER_MAX_LENGTH,
        ));
    }
    for (i, c) in manager.char_indices() {
        if !go_is_print(c) {
            errs.push(invalid_str(
                path,
                manager,
                &format!("invalid character U+{:04X} (at position {i})", c as u32),
            ));
        }
    }
    errs
}

/// `ValidateManagedFields`: per entry `[i]`: operation `Apply`/`Update`, fieldsType empty or
/// `FieldsV1`, the manager name, and a subresource of at most 256 bytes.
pub fn validate_managed_fields(entries: Option<&Value>, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    for (i, e) in objects(entries).into_iter().enumerate() {
        let p = path.index(i);
        let op = map_str(e, "operation");
        if op != "Apply" && op != "Update" {
            errs.push(invalid_str(
                &p.child("operation"),
                op,
                "must be `Apply` or `Update`",
            ));
        }
        let fields_type = map_str(e, "fieldsType");
        if !fields_type.is_empty() && fields_type != "FieldsV1" {
            errs.push(invalid_str(
                &p.child("fieldsType"),
                fields_type,
                "must be `FieldsV1`",
            ));
        }
        errs.extend(validate_field_manager(
            map_str(e, "manager"),
            &p.child("manager"),
        ));
        if map_str(e, "subresource").len() > MAX_SUBRESOURCE_NAME_LENGTH {
            errs.push(FieldError::too_long(
                p.child("subresource").as_str(),
                MAX_SUBRESOURCE_NAME_LENGTH,
            ));
        }
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn msgs(errs: Vec<FieldError>) -> Vec<String> {
        errs.iter().map(FieldError::message).collect()
    }

    fn p(s: &str) -> FieldPath {
        FieldPath::new("metadata").child(s)
    }

    #[test]
    fn labels_and_annotations() {
        let cases: Vec<(Value, Vec<String>)> = vec![
            (json!({"app": "web", "example.com/x": ""}), vec![]),
            (
                json!({"a/b/c": "ok", "k": "-bad"}),
                vec![
                    "metadata.labels: Invalid value: \"a/b/c\": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')".into(),
                    "metadata.labels: Invalid value: \"-bad\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')".into(),
                ],
            ),
            (
                json!({"k": "a".repeat(64)}),
                vec![format!("metadata.labels: Invalid value: \"{}\": must be no more than 63 bytes", "a".repeat(64))],
            ),
        ];
        for (input, want) in cases {
            assert_eq!(
                msgs(validate_labels(Some(&input), &p("labels"))),
                want,
                "{input}"
            );
        }
        // Annotation keys are checked lower-cased; the error shows the original key.
        let ann = json!({"Example.COM/Key": "v", "a/b/c": "x"});
        let got = msgs(validate_annotations(Some(&ann), &p("annotations")));
        assert_eq!(got.len(), 1);
        assert!(
            got[0].starts_with("metadata.annotations: Invalid value: \"a/b/c\": a valid label key")
        );
        let big = json!({"k": "x".repeat(TOTAL_ANNOTATION_SIZE_LIMIT_BYTES - 1)});
        assert!(validate_annotations(Some(&big), &p("annotations")).is_empty());
        let big = json!({"k": "x".repeat(TOTAL_ANNOTATION_SIZE_LIMIT_BYTES)});
        assert_eq!(
            msgs(validate_annotations(Some(&big), &p("annotations"))),
            vec!["metadata.annotations: Too long: may not be more than 262144 bytes"]
        );
        assert!(validate_labels(None, &p("labels")).is_empty());
    }

    #[test]
    fn owner_references() {
        let path = p("ownerReferences");
        let cases: Vec<(Value, Vec<&str>)> = vec![
            (json!([{"apiVersion": "apps/v1", "kind": "A", "name": "a", "uid": "1"}]), vec![]),
            (
                json!([{}]),
                vec![
                    "metadata.ownerReferences.apiVersion: Invalid value: \"\": version must not be empty",
                    "metadata.ownerReferences.kind: Invalid value: \"\": must not be empty",
                    "metadata.ownerReferences.name: Invalid value: \"\": must not be empty",
                    "metadata.ownerReferences.uid: Invalid value: \"\": must not be empty",
                ],
            ),
            (
                json!([{"apiVersion": "a/b/c", "kind": "A", "name": "a", "uid": "1"}]),
                vec!["metadata.ownerReferences.apiVersion: Invalid value: \"a/b/c\": version must not be empty"],
            ),
            (
                json!([{"apiVersion": "apps/", "kind": "A", "name": "a", "uid": "1"}]),
                vec!["metadata.ownerReferences.apiVersion: Invalid value: \"apps/\": version must not be empty"],
            ),
            (
                json!([{"uid": "1", "name": "e", "kind": "Event", "apiVersion": "v1", "x": 1}]),
                vec!["metadata.ownerReferences: Invalid value: {\"apiVersion\":\"v1\",\"kind\":\"Event\",\"name\":\"e\",\"uid\":\"1\"}: /v1, Kind=Event is disallowed from being an owner"],
            ),
            (
                json!([
                    {"apiVersion": "v1", "kind": "A", "name": "a", "uid": "1", "controller": true},
                    {"apiVersion": "v1", "kind": "B", "name": "b", "uid": "2", "controller": true, "blockOwnerDeletion": false},
                ]),
                vec!["metadata.ownerReferences: Invalid value: [{\"apiVersion\":\"v1\",\"kind\":\"A\",\"name\":\"a\",\"uid\":\"1\",\"controller\":true},{\"apiVersion\":\"v1\",\"kind\":\"B\",\"name\":\"b\",\"uid\":\"2\",\"controller\":true,\"blockOwnerDeletion\":false}]: Only one reference can have Controller set to true. Found \"true\" in references for A/a and B/b"],
            ),
        ];
        for (input, want) in cases {
            assert_eq!(
                msgs(validate_owner_references(Some(&input), &path)),
                want,
                "{input}"
            );
        }
    }

    #[test]
    fn finalizers() {
        let path = p("finalizers");
        let both = json!(["orphan", "foregroundDeletion"]);
        assert_eq!(
            msgs(validate_finalizers(Some(&both), &path)),
            vec!["metadata.finalizers: Invalid value: [\"orphan\",\"foregroundDeletion\"]: finalizer orphan and foregroundDeletion cannot be both set"]
        );
        let bad = json!(["a/b/c", "ok/x", "custom", "kubernetes"]);
        let got = msgs(validate_finalizers(Some(&bad), &path));
        assert_eq!(got.len(), 1);
        assert!(
            got[0].starts_with("metadata.finalizers: Invalid value: \"a/b/c\": a valid label key")
        );
        assert_eq!(
            msgs(validate_kube_finalizer_names(Some(&bad), &path)),
            vec!["metadata.finalizers[2]: Invalid value: \"custom\": name is neither a standard finalizer name nor is it fully qualified"]
        );
        let old = json!(["a/x"]);
        let new = json!(["z/y", "a/x", "b/y", "b/y"]);
        assert_eq!(
            msgs(validate_no_new_finalizers(Some(&new), Some(&old), &path)),
            vec!["metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{\"b/y\", \"z/y\"}"]
        );
        assert!(validate_no_new_finalizers(Some(&old), Some(&new), &path).is_empty());
    }

    #[test]
    fn managed_fields() {
        let path = p("managedFields");
        let entries = json!([
            {"manager": "kubectl", "operation": "Apply", "fieldsType": "FieldsV1"},
            {"manager": "a\u{7}b", "operation": "Patch", "fieldsType": "FieldsV2", "subresource": "s".repeat(257)},
            {"manager": "m".repeat(129), "operation": "Update"},
        ]);
        assert_eq!(
            msgs(validate_managed_fields(Some(&entries), &path)),
            vec![
                "metadata.managedFields[1].operation: Invalid value: \"Patch\": must be `Apply` or `Update`".to_string(),
                "metadata.managedFields[1].fieldsType: Invalid value: \"FieldsV2\": must be `FieldsV1`".to_string(),
                "metadata.managedFields[1].manager: Invalid value: \"a\\ab\": invalid character U+0007 (at position 1)".to_string(),
                "metadata.managedFields[1].subresource: Too long: may not be more than 256 bytes".to_string(),
                "metadata.managedFields[2].manager: Too long: may not be more than 128 bytes".to_string(),
            ]
        );
        assert!(go_is_print('é') && go_is_print('~') && !go_is_print('\u{a0}'));
        assert!(!go_is_print('\u{200b}') && !go_is_print('\u{e000}') && !go_is_print('\u{ffff}'));
    }
}
