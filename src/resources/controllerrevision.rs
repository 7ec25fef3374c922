//! apps/v1 ControllerRevision: validation and update rules (reference §10).
//!
//! One deliberate difference from kube-apiserver, required by the spec: a missing `revision`
//! is rejected (`revision: Required value`) where the real server defaults it to 0.

use serde_json::{Map, Value};

use super::field::FieldError;
use super::meta::meta_map;
use super::schema::{always, req, Struct, Type, API_VERSION_FIELD, KIND_FIELD, METADATA_FIELD};
use super::validation::object_meta::validate_object_meta;
use super::validation::validate_controller_revision_name;
use super::{Column, ListDocs, Printer, ResourceInfo, Strategy, CRUD_VERBS};

/// apps/v1 controllerrevisions.
pub static CONTROLLER_REVISIONS: ResourceInfo = ResourceInfo {
    group: "apps",
    version: "v1",
    kind: "ControllerRevision",
    plural: "controllerrevisions",
    singular: "controllerrevision",
    short_names: &[],
    categories: &[],
    storage_version: None,
    namespaced: true,
    verbs: CRUD_VERBS,
    subresources: &[],
    schema: &CONTROLLER_REVISION,
    strategy: &ControllerRevisionStrategy,
    extra_field_labels: &[],
    protobuf: true,
    list_docs: ListDocs {
        description: "ControllerRevisionList is a resource containing a list of ControllerRevision objects.",
        items: "Items is the list of ControllerRevisions",
        metadata: "More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
    },
    custom: None,
};

/// apps/v1 `ControllerRevision`.
pub static CONTROLLER_REVISION: Struct = Struct {
    openapi_name: "io.k8s.api.apps.v1.ControllerRevision",
    atomic: false,
    description: "ControllerRevision implements an immutable snapshot of state data. Clients are responsible for serializing and deserializing the objects that contain their internal state. Once a ControllerRevision has been successfully created, it can not be updated. The API Server will fail validation of all requests that attempt to mutate the Data field. ControllerRevisions may, however, be deleted. Note that, due to its use by both the DaemonSet and StatefulSet controllers for update and rollback, this object is beta. However, it may be subject to name and representation changes in future releases, and clients should not depend on its stability. It is primarily for internal use by controllers.",
    fields: &[
        KIND_FIELD,
        API_VERSION_FIELD,
        METADATA_FIELD,
        always("data", Type::Any, "Data is the serialized representation of the state.").pb(2),
        req("revision", Type::Int64, "Revision indicates the revision of the state represented by Data.").pb(3),
    ],
};

/// The ControllerRevision strategy: no defaulting, `data` immutable byte for byte (the
/// registry compares the stored bytes, see [`Strategy::raw_field`]).
#[derive(Debug)]
pub struct ControllerRevisionStrategy;

/// `validateControllerRevision`: metadata and a non-negative `revision` (create and update;
/// `data` is checked by create alone, and on update only as immutable).
fn validate(obj: &Map<String, Value>) -> Vec<FieldError> {
    let mut errs = validate_object_meta(&meta_map(obj), true, &validate_controller_revision_name);
    let revision = obj.get("revision").and_then(Value::as_i64).unwrap_or(0);
    if revision < 0 {
        errs.push(FieldError::invalid(
            "revision",
            Value::from(revision),
            "must be greater than or equal to 0",
        ));
    }
    errs
}

/// The ControllerRevision printer: `CONTROLLER`, `REVISION`, `AGE`.
#[derive(Debug)]
pub struct ControllerRevisionPrinter;

static COLUMNS: &[Column] = &[
    Column {
        name: "Controller",
        ty: "string",
        format: "",
        description: "Controller of the object",
        priority: 0,
    },
    Column {
        name: "Revision",
        ty: "string",
        format: "",
        description: "Revision indicates the revision of the state represented by Data.",
        priority: 0,
    },
];

impl Printer for ControllerRevisionPrinter {
    fn columns(&self) -> &'static [Column] {
        COLUMNS
    }
    fn cells(&self, obj: &Value, _now_ms: i64) -> Vec<Value> {
        vec![
            Value::String(controller(obj)),
            Value::from(obj.get("revision").and_then(Value::as_i64).unwrap_or(0)),
        ]
    }
}

/// `metav1.GetControllerOf` + `formatResourceName(kind, name, true)`: `<none>`, or
/// `daemonset.apps/fluentd` built from the owner's apiVersion.
fn controller(obj: &Value) -> String {
    let owners = super::meta::meta(obj)
        .get("ownerReferences")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let Some(owner) = owners
        .iter()
        .find(|o| o.get("controller").and_then(Value::as_bool) == Some(true))
    else {
        return "<none>".into();
    };
    let s = |k: &str| owner.get(k).and_then(Value::as_str).unwrap_or("");
    let api_version = s("apiVersion");
    let (group, _) = super::meta::parse_group_version(api_version);
    let (kind, name) = (s("kind"), s("name"));
    if kind.is_empty() && group.is_empty() {
        return name.to_string();
    }
    let gk = if group.is_empty() {
        kind.to_string()
    } else {
        format!("{kind}.{group}")
    };
    format!("{}/{name}", gk.to_lowercase())
}

impl Strategy for ControllerRevisionStrategy {
    fn printer(&self) -> Option<&'static dyn Printer> {
        Some(&ControllerRevisionPrinter)
    }

    fn validate_create(
        &self,
        obj: &Map<String, Value>,
        sent: &crate::resources::Sent,
    ) -> Vec<FieldError> {
        // `ValidateControllerRevisionCreate`: then `data`, present and (since 1.31) a JSON
        // object.
        let mut errs = validate(obj);
        match obj.get("data") {
            None | Some(Value::Null) => {
                errs.push(FieldError::required("data", "data is mandatory"));
            }
            Some(d) if !d.is_object() => {
                errs.push(FieldError::required(
                    "data",
                    "data must be a valid JSON object",
                ));
            }
            Some(_) => {}
        }
        // The spec's rule (stricter than the real server): `revision` is required.
        if !sent.has("revision") {
            errs.push(FieldError::required("revision", ""));
        }
        errs
    }

    fn validate_update(
        &self,
        new: &Map<String, Value>,
        old: &Map<String, Value>,
    ) -> Vec<FieldError> {
        // `ValidateControllerRevisionUpdate` repeats the ObjectMeta update checks the generic
        // store already ran; the real server's `details.causes` carry both, and so do ours.
        let mut errs = super::validation::object_meta::validate_object_meta_update(
            &meta_map(new),
            &meta_map(old),
        );
        errs.extend(validate(new));
        errs
    }

    fn raw_field(&self) -> Option<&'static str> {
        Some("data")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn controller_names() {
        let with = |refs: Value| json!({"metadata": {"ownerReferences": refs}});
        assert_eq!(controller(&json!({"metadata": {}})), "<none>");
        assert_eq!(
            controller(&with(
                json!([{"apiVersion": "apps/v1", "kind": "DaemonSet", "name": "fluentd", "controller": true}])
            )),
            "daemonset.apps/fluentd"
        );
        assert_eq!(
            controller(&with(
                json!([{"apiVersion": "v1", "kind": "Pod", "name": "p", "controller": false},
                                     {"apiVersion": "v1", "kind": "ReplicationController", "name": "rc", "controller": true}])
            )),
            "replicationcontroller/rc"
        );
    }
}
