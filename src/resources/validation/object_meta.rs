//! Generic ObjectMeta validation on create and update, error for error as kube-apiserver
//! produces it (paths, values, messages and order; the order matters because the 422 message
//! aggregates the errors in order).
//!
//! Two layers exist in the real server and both are reproduced here:
//! * apimachinery's `ValidateObjectMetaAccessor` / `ValidateObjectMetaAccessorUpdate`
//!   ([`validate_object_meta_accessor`], [`validate_object_meta_accessor_update`]), which the
//!   generic store runs with the path-segment name rule;
//! * kubernetes' core `ValidateObjectMeta` / `ValidateObjectMetaUpdate`
//!   ([`validate_object_meta`], [`validate_object_meta_update`]), which built-in strategies
//!   (ControllerRevision, Namespace) call: the apimachinery checks plus the standard-finalizer
//!   rule at `metadata.finalizers[i]`.
//!
//! The input is the `metadata` object of the decoded request body.

use crate::resources::meta::map_str;
use serde_json::{Map, Value};

use super::meta_fields::{
    validate_annotations, validate_finalizers, validate_kube_finalizer_names, validate_labels,
    validate_managed_fields, validate_no_new_finalizers, validate_owner_references,
};
use super::names::validate_namespace_name;
use super::timestamp::{instant, render, Instant};
use crate::resources::field::{FieldError, FieldPath};

pub use super::names::validate_path_segment;

/// apimachinery's `ValidateNameFunc`: `(name, prefix)` → messages; `prefix` is true when the
/// value is a generateName. A closure where the rule depends on the object (a
/// CustomResourceDefinition's name must be `<plural>.<group>`).
pub type NameValidator<'a> = &'a dyn Fn(&str, bool) -> Vec<String>;

/// `FieldImmutableErrorMsg`.
pub const FIELD_IMMUTABLE: &str = "field is immutable";

fn int_of(m: &Map<String, Value>, key: &str) -> i64 {
    m.get(key).and_then(Value::as_i64).unwrap_or(0)
}

/// A `*int64` field: `None` for absent or `null`.
fn opt_int_of(m: &Map<String, Value>, key: &str) -> Option<i64> {
    m.get(key).and_then(Value::as_i64)
}

fn invalid(path: &FieldPath, value: Value, detail: &str) -> FieldError {
    FieldError::invalid(path.as_str(), value, detail)
}

/// apimachinery's `ValidateObjectMetaAccessor` with field path `metadata`, in Go's order:
/// generateName (validated with `prefix = true`), name (required, then `name_fn`), namespace
/// (required and a DNS label when `requires_namespace`, else forbidden), generation ≥ 0, labels,
/// annotations, ownerReferences, finalizers, managedFields.
///
/// The caller must have generated the name from generateName already. (A generateName of
/// `-` is checked unmasked, as 1.36's `maskTrailingDash` leaves a one-byte name alone: both it
/// and the generated name are invalid.)
pub fn validate_object_meta_accessor(
    meta: &Map<String, Value>,
    requires_namespace: bool,
    name_fn: NameValidator<'_>,
) -> Vec<FieldError> {
    let path = FieldPath::new("metadata");
    let mut errs = Vec::new();
    let generate_name = map_str(meta, "generateName");
    if !generate_name.is_empty() {
        for msg in name_fn(generate_name, true) {
            errs.push(invalid(
                &path.child("generateName"),
                Value::String(generate_name.to_string()),
                &msg,
            ));
        }
    }
    let name = map_str(meta, "name");
    if name.is_empty() {
        errs.push(FieldError::required(
            path.child("name").as_str(),
            "name or generateName is required",
        ));
    } else {
        for msg in name_fn(name, false) {
            errs.push(invalid(
                &path.child("name"),
                Value::String(name.to_string()),
                &msg,
            ));
        }
    }
    let namespace = map_str(meta, "namespace");
    let ns_path = path.child("namespace");
    if requires_namespace {
        if namespace.is_empty() {
            errs.push(FieldError::required(ns_path.as_str(), ""));
        } else {
            for msg in validate_namespace_name(namespace, false) {
                errs.push(invalid(
                    &ns_path,
                    Value::String(namespace.to_string()),
                    &msg,
                ));
            }
        }
    } else if !namespace.is_empty() {
        errs.push(FieldError::forbidden(
            ns_path.as_str(),
            "not allowed on this type",
        ));
    }
    let generation = int_of(meta, "generation");
    if generation < 0 {
        errs.push(invalid(
            &path.child("generation"),
            Value::from(generation),
            "must be greater than or equal to 0",
        ));
    }
    errs.extend(validate_labels(meta.get("labels"), &path.child("labels")));
    errs.extend(validate_annotations(
        meta.get("annotations"),
        &path.child("annotations"),
    ));
    errs.extend(validate_owner_references(
        meta.get("ownerReferences"),
        &path.child("ownerReferences"),
    ));
    errs.extend(validate_finalizers(
        meta.get("finalizers"),
        &path.child("finalizers"),
    ));
    errs.extend(validate_managed_fields(
        meta.get("managedFields"),
        &path.child("managedFields"),
    ));
    errs
}

/// Kubernetes' core `ValidateObjectMeta`, what built-in kinds' create validation calls (e.g.
/// `ValidateControllerRevision` with `requires_namespace = true` and
/// [`validate_controller_revision_name`]; `ValidateNamespace` with `false` and
/// [`validate_namespace_name`]):
/// [`validate_object_meta_accessor`], then for each finalizer without `/` that is not
/// `kubernetes`, `orphan` or `foregroundDeletion`:
/// `metadata.finalizers[i]: Invalid value: "x": name is neither a standard finalizer name nor is it fully qualified`.
pub fn validate_object_meta(
    meta: &Map<String, Value>,
    requires_namespace: bool,
    name_fn: NameValidator<'_>,
) -> Vec<FieldError> {
    let mut errs = validate_object_meta_accessor(meta, requires_namespace, name_fn);
    errs.extend(validate_kube_finalizer_names(
        meta.get("finalizers"),
        &FieldPath::new("metadata").child("finalizers"),
    ));
    errs
}

/// `ValidateImmutableField` for a value already rendered as Go prints it.
fn immutable(errs: &mut Vec<FieldError>, path: &FieldPath, equal: bool, new_value: Value) {
    if !equal {
        errs.push(invalid(path, new_value, FIELD_IMMUTABLE));
    }
}

/// Whether a pointer field is non-nil once decoded (present and not `null`).
fn is_set(m: &Map<String, Value>, key: &str) -> bool {
    m.get(key).is_some_and(|v| !v.is_null())
}

/// apimachinery's `ValidateObjectMetaAccessorUpdate`, in Go's order:
/// 1. if the old object has a deletionTimestamp, no finalizer may be added
///    (`Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"x"}`);
/// 2. `metadata.resourceVersion: Invalid value: "": must be specified for an update` when the
///    new object has none (the store fills it in first for unconditional updates);
/// 3. `metadata.generation: Invalid value: N: must not be decremented`;
/// 4. immutability (`Invalid value: <new>: field is immutable`) of name, namespace, uid,
///    creationTimestamp, deletionTimestamp (timestamps compared as instants and shown as UTC
///    seconds, `null` when unset) and deletionGracePeriodSeconds (a number or `null`);
/// 5. labels, annotations, ownerReferences and managedFields of the new object. Finalizer
///    names are not re-checked here (the strategy's own create-style validation does that).
pub fn validate_object_meta_accessor_update(
    new: &Map<String, Value>,
    old: &Map<String, Value>,
) -> Vec<FieldError> {
    let path = FieldPath::new("metadata");
    let mut errs = Vec::new();
    // Go tests the pointer (`!= nil`), so even an explicit zero time counts as "being deleted".
    if is_set(old, "deletionTimestamp") {
        errs.extend(validate_no_new_finalizers(
            new.get("finalizers"),
            old.get("finalizers"),
            &path.child("finalizers"),
        ));
    }
    if map_str(new, "resourceVersion").is_empty() {
        errs.push(invalid(
            &path.child("resourceVersion"),
            Value::String(String::new()),
            "must be specified for an update",
        ));
    }
    let (new_gen, old_gen) = (int_of(new, "generation"), int_of(old, "generation"));
    if new_gen < old_gen {
        errs.push(invalid(
            &path.child("generation"),
            Value::from(new_gen),
            "must not be decremented",
        ));
    }
    for key in ["name", "namespace", "uid"] {
        let (n, o) = (map_str(new, key), map_str(old, key));
        immutable(
            &mut errs,
            &path.child(key),
            n == o,
            Value::String(n.to_string()),
        );
    }
    for key in ["creationTimestamp", "deletionTimestamp"] {
        let (n, o) = (instant(new.get(key)), instant(old.get(key)));
        // deletionTimestamp is a pointer: unset differs from an explicit zero time.
        let same_presence = key == "creationTimestamp" || is_set(new, key) == is_set(old, key);
        immutable(
            &mut errs,
            &path.child(key),
            same_presence && n == o,
            render(&n),
        );
    }
    let key = "deletionGracePeriodSeconds";
    let (n, o) = (opt_int_of(new, key), opt_int_of(old, key));
    immutable(
        &mut errs,
        &path.child(key),
        n == o,
        n.map_or(Value::Null, Value::from),
    );
    errs.extend(validate_labels(new.get("labels"), &path.child("labels")));
    errs.extend(validate_annotations(
        new.get("annotations"),
        &path.child("annotations"),
    ));
    errs.extend(validate_owner_references(
        new.get("ownerReferences"),
        &path.child("ownerReferences"),
    ));
    errs.extend(validate_managed_fields(
        new.get("managedFields"),
        &path.child("managedFields"),
    ));
    errs
}

/// Kubernetes' core `ValidateObjectMetaUpdate`, what built-in kinds' update validation calls
/// first (ControllerRevision: then its full create validation of the new object, then the data
/// check; Namespace: after `ValidateNamespace(new)`): [`validate_object_meta_accessor_update`]
/// plus the standard-finalizer rule on the new finalizers at `metadata.finalizers[i]`.
pub fn validate_object_meta_update(
    new: &Map<String, Value>,
    old: &Map<String, Value>,
) -> Vec<FieldError> {
    let mut errs = validate_object_meta_accessor_update(new, old);
    errs.extend(validate_kube_finalizer_names(
        new.get("finalizers"),
        &FieldPath::new("metadata").child("finalizers"),
    ));
    errs
}

/// The generic store's second create pass (`rest.BeforeCreate`): run only when the kind's
/// strategy validation returned no errors; any errors become their own 422. It is
/// [`validate_object_meta_accessor`] with [`validate_path_segment`] as the name rule.
pub fn validate_generic_create(meta: &Map<String, Value>, namespaced: bool) -> Vec<FieldError> {
    validate_object_meta_accessor(meta, namespaced, &validate_path_segment)
}

/// `rest.validateCommonFields`, run by `rest.BeforeUpdate` before the strategy's update
/// validation; the 422 lists these errors first, then the strategy's (duplicates are dropped
/// from the message but kept in `details.causes`). Call [`reset_update_system_fields`] first.
pub fn validate_common_fields_for_update(
    new: &Map<String, Value>,
    old: &Map<String, Value>,
    namespaced: bool,
) -> Vec<FieldError> {
    let mut errs = validate_object_meta_accessor(new, namespaced, &validate_path_segment);
    errs.extend(validate_object_meta_accessor_update(new, old));
    errs
}

/// The metadata resets `rest.BeforeUpdate` applies before validating an update, so that only
/// real changes reach the immutability checks: generation is always the old one (Go does this
/// before `PrepareForUpdate`, so a strategy may still bump it); an empty uid takes the old one;
/// a set old creationTimestamp or deletionTimestamp wins; a missing deletionGracePeriodSeconds
/// takes the old one. What remains (setting deletionTimestamp or a grace period on a live
/// object, changing the grace period) is reported as immutable.
pub fn reset_update_system_fields(new: &mut Map<String, Value>, old: &Map<String, Value>) {
    match old
        .get("generation")
        .filter(|g| g.as_i64().unwrap_or(0) != 0)
    {
        Some(g) => {
            new.insert("generation".into(), g.clone());
        }
        None => {
            new.remove("generation");
        }
    }
    if map_str(new, "uid").is_empty() {
        if let Some(uid) = old
            .get("uid")
            .filter(|u| !u.as_str().unwrap_or("").is_empty())
        {
            new.insert("uid".into(), uid.clone());
        }
    }
    for key in ["creationTimestamp", "deletionTimestamp"] {
        if instant(old.get(key)) != Instant::Zero {
            new.insert(key.into(), old[key].clone());
        }
    }
    let key = "deletionGracePeriodSeconds";
    if opt_int_of(new, key).is_none() {
        if let Some(v) = old.get(key).filter(|v| v.is_i64()) {
            new.insert(key.into(), v.clone());
        }
    }
}

#[cfg(test)]
#[path = "object_meta_tests.rs"]
mod tests;
