//! core/v1 Namespace: defaults and update rules (`pkg/registry/core/namespace/strategy.go`).
//!
//! A new namespace is `Active` with the `kubernetes` finalizer and the
//! `kubernetes.io/metadata.name` label; spec and status cannot be changed through the main
//! resource (they are owned by the `finalize` and `status` subresources).

use serde_json::{json, Map, Value};

use crate::codec::protobuf::meta_v1::{LIST_META, OBJECT_META};
use crate::codec::protobuf::schema::{field, Msg, Rule, Ty};
use Rule::{Always, OmitEmpty};

use super::field::{FieldError, FieldPath};
use super::meta::meta_str;
use super::validation::names::is_qualified_name;
use super::validation::object_meta::validate_object_meta;
use super::validation::validate_namespace_name;
use super::{Column, Printer, Strategy};

/// The finalizer the namespace controller owns.
pub const KUBERNETES_FINALIZER: &str = "kubernetes";
/// The label every namespace carries with its own name.
pub const METADATA_NAME_LABEL: &str = "kubernetes.io/metadata.name";

/// Finalizer names that need no domain prefix.
const STANDARD_FINALIZERS: &[&str] = &["kubernetes", "orphan", "foregroundDeletion"];

/// The Namespace strategy.
#[derive(Debug)]
pub struct NamespaceStrategy;

/// Sets `kubernetes.io/metadata.name` to the namespace's name (defaulting and Canonicalize).
pub fn ensure_name_label(obj: &mut Map<String, Value>) {
    let Some(meta) = obj.get_mut("metadata").and_then(Value::as_object_mut) else {
        return;
    };
    let Some(name) = meta.get("name").and_then(Value::as_str).map(str::to_string) else {
        return;
    };
    if name.is_empty() {
        return;
    }
    let labels = meta
        .entry("labels")
        .or_insert_with(|| Value::Object(Map::new()));
    if !labels.is_object() {
        *labels = Value::Object(Map::new());
    }
    if let Some(l) = labels.as_object_mut() {
        l.insert(METADATA_NAME_LABEL.to_string(), Value::String(name));
    }
}

fn spec_finalizers(obj: &Map<String, Value>) -> Vec<String> {
    obj.get("spec")
        .and_then(|s| s.get("finalizers"))
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// The Namespace printer: `STATUS`, `AGE`.
#[derive(Debug)]
pub struct NamespacePrinter;

static COLUMNS: &[Column] = &[Column {
    name: "Status",
    ty: "string",
    format: "",
    description: "The status of the namespace",
}];

impl Printer for NamespacePrinter {
    fn columns(&self) -> &'static [Column] {
        COLUMNS
    }
    fn cells(&self, obj: &Value) -> Vec<Value> {
        vec![Value::String(phase(obj))]
    }
}

fn phase(obj: &Value) -> String {
    obj.get("status")
        .and_then(|s| s.get("phase"))
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string()
}

fn has_spec_finalizers(obj: &Value) -> bool {
    obj.get("spec")
        .and_then(|s| s.get("finalizers"))
        .and_then(Value::as_array)
        .is_some_and(|a| !a.is_empty())
}

impl Strategy for NamespaceStrategy {
    fn printer(&self) -> Option<&'static dyn Printer> {
        Some(&NamespacePrinter)
    }

    fn field_value(&self, obj: &Value, label: &str) -> Option<String> {
        (label == "status.phase").then(|| phase(obj))
    }

    /// A namespace is only removed once its `spec.finalizers` are gone too.
    fn has_kind_finalizers(&self, obj: &Value) -> bool {
        has_spec_finalizers(obj)
    }

    /// The namespace registry's Delete: a live namespace turns `Terminating`; a terminating
    /// one stays while its `spec.finalizers` remain.
    fn delete_marks_terminating(&self, obj: &Value) -> bool {
        meta_str(obj, "deletionTimestamp").is_empty() || has_spec_finalizers(obj)
    }

    fn prepare_for_terminating(&self, obj: &mut Map<String, Value>) {
        obj.insert("status".into(), json!({"phase": "Terminating"}));
    }

    fn serves_own_subresource(&self, subresource: &str) -> bool {
        subresource == "finalize"
    }

    /// `namespaces/NAME/finalize` replaces `spec.finalizers` (what the namespace controller
    /// calls once the namespace is empty); everything else is kept.
    fn update_subresource(
        &self,
        subresource: &str,
        current: &Map<String, Value>,
        request: &Map<String, Value>,
    ) -> Option<Map<String, Value>> {
        if subresource != "finalize" {
            return None;
        }
        let mut next = current.clone();
        next.insert(
            "spec".into(),
            request.get("spec").cloned().unwrap_or(Value::Null),
        );
        Some(next)
    }

    fn prepare_for_create(&self, obj: &mut Map<String, Value>) {
        obj.insert("status".into(), json!({"phase": "Active"}));
        let mut fins = spec_finalizers(obj);
        if !fins.iter().any(|f| f == KUBERNETES_FINALIZER) {
            fins.push(KUBERNETES_FINALIZER.to_string());
        }
        obj.insert("spec".into(), json!({ "finalizers": fins }));
        ensure_name_label(obj);
    }

    fn prepare_for_update(&self, new: &mut Map<String, Value>, old: &Map<String, Value>) {
        for k in ["spec", "status"] {
            new.insert(k.into(), old.get(k).cloned().unwrap_or_else(|| json!({})));
        }
        ensure_name_label(new);
    }

    fn validate_create(
        &self,
        obj: &Map<String, Value>,
        _raw: &Map<String, Value>,
    ) -> Vec<FieldError> {
        let meta = obj
            .get("metadata")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        let mut errs = validate_object_meta(&meta, false, validate_namespace_name);
        // `validateFinalizerName` on each spec finalizer, reported at `spec.finalizers`.
        let path = FieldPath::new("spec").child("finalizers");
        for f in spec_finalizers(obj) {
            for msg in is_qualified_name(&f) {
                errs.push(FieldError::invalid(
                    path.as_str(),
                    Value::String(f.clone()),
                    &msg,
                ));
            }
            if !f.contains('/') && !STANDARD_FINALIZERS.contains(&f.as_str()) {
                errs.push(FieldError::invalid(
                    path.as_str(),
                    Value::String(f.clone()),
                    "name is neither a standard finalizer name nor is it fully qualified",
                ));
            }
        }
        errs
    }

    fn validate_update(
        &self,
        new: &Map<String, Value>,
        old: &Map<String, Value>,
    ) -> Vec<FieldError> {
        // `ValidateNamespaceUpdate`: the metadata update rules plus the full create check
        // (spec and status were copied from the old object, so only metadata can fail).
        let meta = |o: &Map<String, Value>| {
            o.get("metadata")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default()
        };
        let mut errs =
            super::validation::object_meta::validate_object_meta_update(&meta(new), &meta(old));
        errs.extend(self.validate_create(new, &Map::new()));
        errs
    }
}

// Protobuf: core/v1 messages (`k8s.io.api.core.v1`): Namespace, its spec, status, conditions and list.
//
// `spec` and `status` are non-pointer structs (always in JSON, always in proto even when
// empty). NamespaceCondition numbers skip 3 (`lastTransitionTime` is 4); its
// `lastTransitionTime` is a non-pointer `metav1.Time` without `omitzero`, so a zero time is
// written as JSON `null`.
/// `core/v1.NamespaceSpec`.
pub static NAMESPACE_SPEC: Msg = Msg {
    name: "NamespaceSpec",
    fields: &[field("finalizers", "Finalizers", 1, Ty::Strings, OmitEmpty)],
};

/// `core/v1.NamespaceCondition`.
pub static NAMESPACE_CONDITION: Msg = Msg {
    name: "NamespaceCondition",
    fields: &[
        field("type", "Type", 1, Ty::Str, Always),
        field("status", "Status", 2, Ty::Str, Always),
        field(
            "lastTransitionTime",
            "LastTransitionTime",
            4,
            Ty::Time,
            OmitEmpty,
        ),
        field("reason", "Reason", 5, Ty::Str, OmitEmpty),
        field("message", "Message", 6, Ty::Str, OmitEmpty),
    ],
};

/// `core/v1.NamespaceStatus`.
pub static NAMESPACE_STATUS: Msg = Msg {
    name: "NamespaceStatus",
    fields: &[
        field("phase", "Phase", 1, Ty::Str, OmitEmpty),
        field(
            "conditions",
            "Conditions",
            2,
            Ty::Messages(&NAMESPACE_CONDITION, None),
            OmitEmpty,
        ),
    ],
};

/// `core/v1.Namespace`: metadata = 1, spec = 2, status = 3.
pub static NAMESPACE: Msg = Msg {
    name: "Namespace",
    fields: &[
        field(
            "metadata",
            "ObjectMeta",
            1,
            Ty::Message(&OBJECT_META),
            Always,
        ),
        field("spec", "Spec", 2, Ty::Message(&NAMESPACE_SPEC), Always),
        field(
            "status",
            "Status",
            3,
            Ty::Message(&NAMESPACE_STATUS),
            Always,
        ),
    ],
};

/// `core/v1.NamespaceList`.
pub static NAMESPACE_LIST: Msg = Msg {
    name: "NamespaceList",
    fields: &[
        field("metadata", "ListMeta", 1, Ty::Message(&LIST_META), Always),
        field("items", "Items", 2, Ty::Messages(&NAMESPACE, None), Always),
    ],
};
