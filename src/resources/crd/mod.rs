//! apiextensions.k8s.io/v1 CustomResourceDefinition: the resource itself, as
//! `pkg/registry/customresourcedefinition` serves it: v1 defaulting, a status reset and
//! `generation: 1` on create, `generation` bumped only by spec changes, the `status`
//! subresource owning `status`, and the validation of `pkg/apis/apiextensions/validation`
//! ([`validation`]). Its conditions are filled by the naming and establishing controllers
//! (`crate::controllers::crd_names`).
//!
//! Stored, as on kube-apiserver, as v1beta1: discovery's storage version hash is that
//! version's.

pub mod conditions;
mod default_checks;
mod internal_json;
mod list_checks;
mod rule_costs;
pub mod schema;
mod schema_checks;
mod structural_checks;
pub mod validation;

use serde_json::{json, Map, Value};

use super::field::FieldError;
use super::{ListDocs, ResourceInfo, Strategy, Subresource, CRUD_VERBS, LIST_META_MORE};

/// The finalizer a delete adds, removed once every custom resource is gone.
pub const CLEANUP_FINALIZER: &str = "customresourcecleanup.apiextensions.k8s.io";

/// apiextensions.k8s.io/v1 customresourcedefinitions.
pub static CUSTOM_RESOURCE_DEFINITIONS: ResourceInfo = ResourceInfo {
    group: "apiextensions.k8s.io",
    version: "v1",
    kind: "CustomResourceDefinition",
    plural: "customresourcedefinitions",
    singular: "customresourcedefinition",
    short_names: &["crd", "crds"],
    categories: &["api-extensions"],
    storage_version: Some("v1beta1"),
    namespaced: false,
    verbs: CRUD_VERBS,
    subresources: &[Subresource {
        name: "status",
        verbs: &["get", "patch", "update"],
    }],
    schema: &schema::CRD,
    strategy: &CrdStrategy,
    extra_field_labels: &[],
    // The JSON forms of JSONSchemaProps' custom-marshalled fields have no protobuf table here.
    protobuf: false,
    list_docs: ListDocs {
        description: "CustomResourceDefinitionList is a list of CustomResourceDefinition objects.",
        items: "items list individual CustomResourceDefinition objects",
        metadata: LIST_META_MORE,
    },
    custom: None,
};

/// The CustomResourceDefinition strategy.
#[derive(Debug)]
pub struct CrdStrategy;

/// The first version marked `storage: true`.
pub fn storage_version(obj: &Map<String, Value>) -> Option<String> {
    versions(obj)
        .iter()
        .find(|v| v.get("storage").and_then(Value::as_bool) == Some(true))
        .and_then(|v| v.get("name").and_then(Value::as_str))
        .map(str::to_string)
}

/// `spec.versions`.
pub fn versions(obj: &Map<String, Value>) -> &[Value] {
    obj.get("spec")
        .and_then(|s| s.get("versions"))
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// `status.storedVersions`.
fn stored_versions(obj: &Map<String, Value>) -> Vec<String> {
    super::meta::strings(obj.get("status").and_then(|s| s.get("storedVersions")))
}

/// Appends the storage version to `status.storedVersions` when it is missing (the strategy's
/// create and update, and v1 defaulting of an empty list).
fn record_storage_version(obj: &mut Map<String, Value>) {
    let Some(v) = storage_version(obj) else {
        return;
    };
    let mut stored = stored_versions(obj);
    if stored.contains(&v) {
        return;
    }
    stored.push(v);
    let status = obj.entry("status").or_insert_with(|| json!({}));
    if let Some(s) = status.as_object_mut() {
        s.insert("storedVersions".into(), json!(stored));
    }
}

impl Strategy for CrdStrategy {
    /// `SetObjectDefaults_CustomResourceDefinition`.
    fn default(&self, obj: &mut Map<String, Value>) {
        if let Some(spec) = obj.get_mut("spec").and_then(Value::as_object_mut) {
            if let Some(names) = spec.get_mut("names").and_then(Value::as_object_mut) {
                let kind = names
                    .get("kind")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string();
                let empty = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or("").is_empty();
                if empty(names.get("singular")) {
                    names.insert("singular".into(), json!(kind.to_lowercase()));
                }
                if empty(names.get("listKind")) && !kind.is_empty() {
                    names.insert("listKind".into(), json!(format!("{kind}List")));
                }
            }
            if spec.get("conversion").is_none_or(Value::is_null) {
                spec.insert("conversion".into(), json!({"strategy": "None"}));
            }
            let service = spec
                .get_mut("conversion")
                .and_then(|c| c.get_mut("webhook"))
                .and_then(|w| w.get_mut("clientConfig"))
                .and_then(|c| c.get_mut("service"))
                .and_then(Value::as_object_mut);
            if let Some(service) = service {
                if service.get("port").is_none_or(Value::is_null) {
                    service.insert("port".into(), json!(443));
                }
            }
        }
        if stored_versions(obj).is_empty() {
            record_storage_version(obj);
        }
    }

    /// A new definition's status is the strategy's own: reset, then the storage version
    /// recorded; `generation` starts at 1.
    fn prepare_for_create(&self, obj: &mut Map<String, Value>) {
        obj.insert("status".into(), json!({}));
        if let Some(meta) = obj.get_mut("metadata").and_then(Value::as_object_mut) {
            meta.insert("generation".into(), json!(1));
        }
        record_storage_version(obj);
    }

    /// The main resource keeps the stored status (and records a new storage version) and
    /// bumps `generation` when the spec changed; `status` keeps the stored spec.
    fn prepare_for_update(
        &self,
        new: &mut Map<String, Value>,
        old: &Map<String, Value>,
        subresource: &str,
    ) {
        if subresource == "status" {
            new.insert(
                "spec".into(),
                old.get("spec").cloned().unwrap_or(Value::Null),
            );
            return;
        }
        new.insert(
            "status".into(),
            old.get("status").cloned().unwrap_or_else(|| json!({})),
        );
        if new.get("spec") != old.get("spec") {
            let generation = old
                .get("metadata")
                .and_then(|m| m.get("generation"))
                .and_then(Value::as_i64)
                .unwrap_or(0);
            if let Some(meta) = new.get_mut("metadata").and_then(Value::as_object_mut) {
                meta.insert("generation".into(), json!(generation + 1));
            }
        }
        record_storage_version(new);
    }

    fn reset_fields(&self, subresource: &str) -> &'static [&'static str] {
        match subresource {
            "status" => &["spec"],
            _ => &["status"],
        }
    }

    /// The definition's own Delete: the first request marks it (`deletionTimestamp`, the
    /// cleanup finalizer, `Terminating`) and answers it; the finalizer controller
    /// (`crate::controllers::crd_finalizer`) deletes the custom resources, then the finalizer.
    fn delete_marks_terminating(&self, obj: &Value) -> bool {
        super::meta::meta_str(obj, "deletionTimestamp").is_empty()
    }

    fn prepare_for_terminating(&self, obj: &mut Map<String, Value>) {
        if let Some(meta) = obj.get_mut("metadata").and_then(Value::as_object_mut) {
            // A direct update of the stored object: no grace period is set.
            meta.shift_remove("deletionGracePeriodSeconds");
            let mut finalizers = super::meta::strings(meta.get("finalizers"));
            if !finalizers.iter().any(|f| f == CLEANUP_FINALIZER) {
                finalizers.push(CLEANUP_FINALIZER.to_string());
            }
            super::meta::set_finalizers(meta, finalizers);
        }
        let now = super::meta::map_meta_str(obj, "deletionTimestamp").to_string();
        conditions::set_on(
            obj,
            "Terminating",
            "True",
            "InstanceDeletionPending",
            "CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon",
            &now,
        );
    }

    fn validate_create(&self, obj: &Map<String, Value>, _sent: &super::Sent) -> Vec<FieldError> {
        validation::validate_create(obj)
    }

    fn validate_update(
        &self,
        new: &Map<String, Value>,
        old: &Map<String, Value>,
    ) -> Vec<FieldError> {
        validation::validate_update(new, old)
    }
}

#[cfg(test)]
mod tests;
