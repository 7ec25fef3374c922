//! Named types by OpenAPI name, found by walking the kinds' schemas (and the meta types):
//! the structs a document renders and the custom-marshalled struct-or-alternative types,
//! which it describes by their doc alone. Walks stop at types already seen (JSONSchemaProps
//! refers to itself).

use super::meta;
use crate::resources::schema::{OrType, Struct, Type};
use crate::resources::Kinds;

/// Finds a struct by OpenAPI name among the registry kinds (recursively) and the meta types.
pub(super) fn find_struct(kinds: &Kinds, name: &str) -> Option<&'static Struct> {
    // `seen` stops the walk at recursive types (JSONSchemaProps).
    fn walk(
        s: &'static Struct,
        name: &str,
        seen: &mut Vec<&'static str>,
    ) -> Option<&'static Struct> {
        if s.openapi_name == name {
            return Some(s);
        }
        if seen.contains(&s.openapi_name) {
            return None;
        }
        seen.push(s.openapi_name);
        s.fields.iter().find_map(|f| walk_type(&f.ty, name, seen))
    }
    fn walk_type(t: &Type, name: &str, seen: &mut Vec<&'static str>) -> Option<&'static Struct> {
        match *t {
            Type::Object(s) => walk(s, name, seen),
            Type::Or(o) => walk(o.object, name, seen),
            Type::Map(t) | Type::Array(t, _) => walk_type(t, name, seen),
            _ => None,
        }
    }
    let registry = kinds.iter().map(|r| r.schema);
    let extra = [&crate::resources::schema::DELETE_OPTIONS];
    let mut seen = Vec::new();
    meta::STRUCTS
        .iter()
        .copied()
        .chain(extra)
        .chain(registry)
        .find_map(|s| walk(s, name, &mut seen))
}

/// Finds a struct-or-alternative type by OpenAPI name among the registry kinds.
pub(super) fn find_or(kinds: &Kinds, name: &str) -> Option<&'static OrType> {
    fn walk(
        s: &'static Struct,
        name: &str,
        seen: &mut Vec<&'static str>,
    ) -> Option<&'static OrType> {
        if seen.contains(&s.openapi_name) {
            return None;
        }
        seen.push(s.openapi_name);
        s.fields.iter().find_map(|f| walk_type(&f.ty, name, seen))
    }
    fn walk_type(t: &Type, name: &str, seen: &mut Vec<&'static str>) -> Option<&'static OrType> {
        match *t {
            Type::Or(o) if o.openapi_name == name => Some(o),
            Type::Or(o) => walk(o.object, name, seen),
            Type::Object(s) => walk(s, name, seen),
            Type::Map(t) | Type::Array(t, _) => walk_type(t, name, seen),
            _ => None,
        }
    }
    let mut seen = Vec::new();
    kinds.iter().find_map(|r| walk(r.schema, name, &mut seen))
}
