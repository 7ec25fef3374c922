//! A custom resource's `scale` subresource (`pkg/registry/customresource` `ScaleREST`): the
//! object seen as an autoscaling/v1 Scale through the version's `specReplicasPath`,
//! `statusReplicasPath` and `labelSelectorPath`, and a Scale's replicas written back.

use serde_json::{json, Map, Value};

use super::{at, members, Scale};
use crate::codec::schema::{always, f, Struct, Type, API_VERSION_FIELD, KIND_FIELD};
use crate::resources::field::FieldError;
use crate::resources::schema::METADATA_FIELD;

static SCALE_SPEC: Struct = Struct {
    openapi_name: "io.k8s.api.autoscaling.v1.ScaleSpec",
    atomic: false,
    description: "ScaleSpec describes the attributes of a scale subresource.",
    fields: &[f(
        "replicas",
        Type::Int32,
        "replicas is the desired number of instances for the scaled object.",
    )],
};

static SCALE_STATUS: Struct = Struct {
    openapi_name: "io.k8s.api.autoscaling.v1.ScaleStatus",
    atomic: false,
    description: "ScaleStatus represents the current status of a scale subresource.",
    fields: &[
        always("replicas", Type::Int32, "replicas is the actual number of observed instances of the scaled object."),
        f("selector", Type::String, "selector is the label query over pods that should match the replicas count. This is same as the label selector but in the string format to avoid introspection by clients. The string will be in the same format as the query-param syntax. More info about label selectors: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/"),
    ],
};

/// autoscaling/v1 `Scale`, fields in Go order.
pub static SCALE: Struct = Struct {
    openapi_name: "io.k8s.api.autoscaling.v1.Scale",
    atomic: false,
    description: "Scale represents a scaling request for a resource.",
    fields: &[
        KIND_FIELD,
        API_VERSION_FIELD,
        METADATA_FIELD,
        f("spec", Type::Object(&SCALE_SPEC), "spec defines the behavior of the scale. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status."),
        f("status", Type::Object(&SCALE_STATUS), "status is the current status of the scale. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status. Read-only."),
    ],
};

/// A Scale is decoded, never stored: its strategy checks nothing.
struct ScaleStrategy;

impl crate::resources::Strategy for ScaleStrategy {
    fn validate_create(
        &self,
        _: &Map<String, Value>,
        _: &crate::resources::Sent,
    ) -> Vec<FieldError> {
        Vec::new()
    }

    fn validate_update(&self, _: &Map<String, Value>, _: &Map<String, Value>) -> Vec<FieldError> {
        Vec::new()
    }
}

const fn scale_info(namespaced: bool) -> crate::resources::ResourceInfo {
    crate::resources::ResourceInfo {
        group: "autoscaling",
        version: "v1",
        kind: "Scale",
        plural: "scale",
        singular: "scale",
        short_names: &[],
        categories: &[],
        storage_version: None,
        namespaced,
        verbs: &[],
        subresources: &[],
        schema: &SCALE,
        strategy: &ScaleStrategy,
        extra_field_labels: &[],
        protobuf: false,
        list_docs: crate::resources::ListDocs {
            description: "",
            items: "",
            metadata: "",
        },
        custom: None,
    }
}

/// autoscaling/v1 Scale as a kind a body decodes into, in a namespaced and a cluster-scoped
/// custom resource's scale subresource: what PUT and PATCH of `.../scale` read.
pub static SCALE_NAMESPACED: crate::resources::ResourceInfo = scale_info(true);
pub static SCALE_CLUSTER: crate::resources::ResourceInfo = scale_info(false);

/// `NestedInt64` at a replicas path: whether it is there (absent reads as 0); anything but an
/// integer is the accessor's error.
fn replicas(obj: &Value, path: &str) -> Result<(i64, bool), String> {
    if path.is_empty() {
        return Ok((0, false));
    }
    match at(obj, path) {
        None => Ok((0, false)),
        Some(v) => v
            .as_i64()
            .map(|n| (n, true))
            .filter(|_| !v.as_number().is_some_and(|n| n.is_f64()))
            .ok_or_else(|| {
                format!(
                    "{path} accessor error: {} is of the type {}, expected int64",
                    crate::resources::field::render_value(v).trim_matches('"'),
                    crate::codec::go_type_of(v)
                )
            }),
    }
}

/// `scaleFromCustomResource`: the Scale, and whether the object has its spec replicas field
/// (a GET of a Scale without it is a 500, an update a 400).
pub fn scale_of(paths: &Scale, obj: &Value) -> Result<(Value, bool), String> {
    let (spec, found) = replicas(obj, &paths.spec_replicas)?;
    let (status, _) = replicas(obj, &paths.status_replicas)?;
    let meta = crate::resources::meta::meta(obj);
    let mut m = Map::new();
    for k in [
        "name",
        "namespace",
        "uid",
        "resourceVersion",
        "creationTimestamp",
    ] {
        if let Some(v) = meta
            .get(k)
            .filter(|v| v.as_str().is_some_and(|s| !s.is_empty()))
        {
            m.insert(k.into(), v.clone());
        }
    }
    let mut status_obj = json!({"replicas": status});
    if !paths.label_selector.is_empty() {
        if let Some(Value::String(s)) =
            at(obj, &paths.label_selector).filter(|s| s.as_str().is_some_and(|s| !s.is_empty()))
        {
            status_obj["selector"] = json!(s);
        }
    }
    let spec_obj = if spec == 0 {
        json!({})
    } else {
        json!({"replicas": spec})
    };
    let scale = json!({
        "kind": "Scale", "apiVersion": "autoscaling/v1", "metadata": m,
        "spec": spec_obj, "status": status_obj
    });
    Ok((scale, found))
}

/// The object with its spec replicas set (`SetNestedField`, making the path's objects).
pub fn set_replicas(paths: &Scale, obj: &mut Value, replicas: i64) {
    let keys = members(&paths.spec_replicas);
    let Some((last, parents)) = keys.split_last() else {
        return;
    };
    let mut at = obj;
    for k in parents {
        if !at.get(*k).is_some_and(Value::is_object) {
            at[*k] = json!({});
        }
        at = &mut at[*k];
    }
    at[*last] = json!(replicas);
}

/// `ValidateScaleSpec` and `ValidateScaleStatus` of a custom resource.
pub fn validate(paths: &Scale, obj: &Value) -> Vec<FieldError> {
    let mut errs = Vec::new();
    for path in [&paths.spec_replicas, &paths.status_replicas] {
        let Some(v) = (!path.is_empty()).then(|| at(obj, path)).flatten() else {
            continue;
        };
        // `field.NewPath` of the path as written, leading dot and all; a value that is no
        // integer is reported as the accessor's zero.
        let field = path.as_str();
        match replicas(obj, path) {
            Err(e) => errs.push(FieldError::invalid(field, json!(0), &e)),
            Ok((n, _)) if n < 0 => errs.push(FieldError::invalid(
                field,
                v.clone(),
                "should be a non-negative integer",
            )),
            Ok((n, _)) if n > i64::from(i32::MAX) => errs.push(FieldError::invalid(
                field,
                v.clone(),
                &format!("should be less than or equal to {}", i32::MAX),
            )),
            Ok(_) => {}
        }
    }
    if !paths.label_selector.is_empty() {
        if let Some(v) = at(obj, &paths.label_selector).filter(|v| !v.is_string()) {
            let e = format!(
                "{} accessor error: {} is of the type {}, expected string",
                paths.label_selector,
                crate::resources::field::render_value(v).trim_matches('"'),
                crate::codec::go_type_of(v)
            );
            errs.push(FieldError::invalid(&paths.label_selector, json!(""), &e));
        }
    }
    errs
}
