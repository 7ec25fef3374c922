//! A custom resource's OpenAPI v3 schema, as apiextensions' CRD OpenAPI builder publishes
//! it: not rendered from a `Struct`, but the version's `openAPIV3Schema` as written.

use serde_json::{json, Value};

use super::schemas::{gvk_entry, property, REF_PREFIX};
use crate::resources::{Kinds, ResourceInfo};

/// A custom resource's schema as the CRD OpenAPI builder publishes it: the version's schema
/// unfolded, `apiVersion` and `kind` as TypeMeta's, `metadata` ObjectMeta's, and the
/// group-version-kind.
pub(super) fn custom_schema(kinds: &Kinds, r: &ResourceInfo) -> Value {
    let Some(custom) = r.custom else {
        return json!({});
    };
    let mut schema = custom.openapi.clone();
    if let Some(m) = schema.as_object_mut() {
        let props = m.entry("properties").or_insert_with(|| json!({}));
        if let Some(props) = props.as_object_mut() {
            props.insert(
                "apiVersion".into(),
                property(&crate::resources::schema::API_VERSION_FIELD),
            );
            props.insert(
                "kind".into(),
                property(&crate::resources::schema::KIND_FIELD),
            );
            props.insert(
                "metadata".into(),
                json!({
                    "description": crate::resources::schema::METADATA_FIELD.description,
                    "$ref": format!("{REF_PREFIX}{}", crate::resources::schema::OBJECT_META.openapi_name)
                }),
            );
            props.sort_keys();
        }
        let gvk: Vec<Value> = kinds
            .iter()
            .filter(|x| x.schema.openapi_name == r.schema.openapi_name)
            .map(|x| gvk_entry(x.group, x.version, x.kind))
            .collect();
        m.insert("x-kubernetes-group-version-kind".into(), Value::Array(gvk));
    }
    schema
}
