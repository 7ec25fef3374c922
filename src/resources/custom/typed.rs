//! A custom kind's structural schema as the server's schema model ([`Struct`]), for what
//! reads types from it: server-side apply's field sets (list types and map keys, as
//! structured-merge-diff reads them from the CRD's schema) and OpenAPI.
//!
//! Only the shape matters here: objects are decoded, pruned and validated by the unstructured
//! path ([`super::canonical`], [`super::validate`]), never by the typed decoder.

use crate::codec::schema::{f, ListType, MapKey, Struct, Type, API_VERSION_FIELD, KIND_FIELD};
use crate::resources::schema::METADATA_FIELD;

use super::structural::Schema;
use super::{leak, leak_str, CustomKind};

/// The root object's struct: `apiVersion`, `kind`, `metadata`, then the schema's own
/// properties in name order.
pub fn root_struct(kind: &CustomKind) -> &'static Struct {
    let mut fields = vec![API_VERSION_FIELD, KIND_FIELD, METADATA_FIELD];
    for (name, prop) in &kind.schema.properties {
        if matches!(name.as_str(), "apiVersion" | "kind" | "metadata") {
            continue;
        }
        fields.push(f(
            leak_str(name),
            type_of(prop),
            leak_str(&prop.description),
        ));
    }
    leak(Struct {
        openapi_name: leak_str(&openapi_name(&kind.group, &kind.version, &kind.kind)),
        atomic: false,
        description: leak_str(&kind.schema.description),
        fields: Box::leak(fields.into_boxed_slice()),
    })
}

/// The OpenAPI name of a custom kind: its group reversed, then version and kind
/// (`com.example.v1.Widget`).
pub fn openapi_name(group: &str, version: &str, kind: &str) -> String {
    let mut parts: Vec<&str> = group.split('.').collect();
    parts.reverse();
    format!("{}.{version}.{kind}", parts.join("."))
}

/// A map list's key fields, each with its item property's default.
fn map_keys(list: &Schema) -> &'static [MapKey] {
    let item = list.items.as_deref();
    let keys: Vec<MapKey> = list
        .list_map_keys
        .iter()
        .map(|name| MapKey {
            name: leak_str(name),
            default: item
                .and_then(|i| i.properties.get(name))
                .and_then(|p| p.default.clone())
                .map(leak),
        })
        .collect();
    Box::leak(keys.into_boxed_slice())
}

/// The schema model's type for one node.
fn type_of(s: &Schema) -> Type {
    if s.int_or_string || s.embedded {
        return Type::Any;
    }
    match s.ty.as_str() {
        "string" => Type::String,
        "integer" => Type::Int64,
        "number" => Type::Float64,
        "boolean" => Type::Boolean,
        "array" => {
            let item: &'static Type = leak(s.items.as_deref().map_or(Type::Any, type_of));
            let list = match s.list_type.as_str() {
                "set" => ListType::Set,
                "map" if !s.list_map_keys.is_empty() => ListType::Map(map_keys(s)),
                _ => ListType::Atomic,
            };
            Type::Array(item, list)
        }
        "object" if !s.properties.is_empty() => {
            let fields: Vec<_> = s
                .properties
                .iter()
                .map(|(name, prop)| f(leak_str(name), type_of(prop), leak_str(&prop.description)))
                .collect();
            Type::Object(leak(Struct {
                openapi_name: "",
                atomic: s.map_type == "atomic",
                description: leak_str(&s.description),
                fields: Box::leak(fields.into_boxed_slice()),
            }))
        }
        "object" if s.additional.is_some() => {
            Type::Map(leak(s.additional.as_deref().map_or(Type::Any, type_of)))
        }
        _ => Type::Any,
    }
}
