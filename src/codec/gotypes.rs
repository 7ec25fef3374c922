//! Go facts about schema fields, read from the schema itself.
//!
//! The wire form of a Kubernetes object follows its Go struct, and a few properties of the Go
//! field change what the JSON looks like or what an error says:
//!
//! * pointer fields (`*bool`, `*int64`, `*Time`, `*Preconditions`) keep an explicit zero
//!   (`"gracePeriodSeconds":0`, `"controller":false`), and `null` resets them to unset;
//! * `omitzero` (only `creationTimestamp`) drops a zero time that `omitempty` alone would write
//!   as `null`;
//! * named Go types appear in type errors (`types.UID`, `v1.NamespacePhase`);
//! * fields promoted from the embedded `TypeMeta` get `TypeMeta.` in type-error paths.
//!
//! Each schema field declares them (`Field::pointer`, `omit_zero`, `go_type`, read from the
//! `k8s.io/api` and `k8s.io/apimachinery` types), so a kind's one description carries them;
//! only the TypeMeta promotion is recognized here.

use crate::codec::schema::{Field, Struct, Type, API_VERSION_FIELD, KIND_FIELD};

/// What the Go field behind a schema field is like.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct GoField {
    /// The Go field is a pointer: an explicit zero is kept, `null` unsets it.
    pub pointer: bool,
    /// The tag has `omitzero`: a zero `metav1.Time` is dropped instead of written as `null`.
    pub omit_zero: bool,
    /// The Go name of the scalar (or element) type when it is a named type.
    pub elem_name: Option<&'static str>,
    /// The embedded struct the field is promoted from (`TypeMeta`).
    pub embedded_in: Option<&'static str>,
}

/// The Go struct's name without package (`reflect.Type.Name()`): `ObjectMeta`.
pub(crate) fn struct_name(s: &Struct) -> &'static str {
    s.openapi_name.rsplit('.').next().unwrap_or(s.openapi_name)
}

/// The Go struct's type as `reflect.Type.String()` prints it: `v1.ObjectMeta`.
pub(crate) fn qualified_struct_name(s: &Struct) -> String {
    let mut parts = s.openapi_name.rsplit('.');
    let name = parts.next().unwrap_or("");
    match parts.next() {
        Some(pkg) => format!("{pkg}.{name}"),
        None => name.to_string(),
    }
}

/// The Go facts for field `f`.
pub(crate) fn go_field(f: &Field) -> GoField {
    let mut g = GoField {
        pointer: f.pointer,
        omit_zero: f.omit_zero,
        elem_name: f.go_type,
        embedded_in: None,
    };
    // `kind` and `apiVersion` of a top-level kind come from the inline `metav1.TypeMeta`
    // (recognized by their shared documentation; OwnerReference's own fields differ).
    let from_type_meta = (f.name == KIND_FIELD.name && f.description == KIND_FIELD.description)
        || (f.name == API_VERSION_FIELD.name && f.description == API_VERSION_FIELD.description);
    if from_type_meta {
        g.embedded_in = Some("TypeMeta");
    }
    g
}

/// The Go type of a value of schema type `ty` as type errors print it (`string`, `int64`,
/// `map[string]string`, `[]v1.OwnerReference`, `v1.ObjectMeta`); `elem` names the scalar or
/// element type when it is a named Go type.
pub(crate) fn go_type_name(ty: &Type, elem: Option<&'static str>) -> String {
    match ty {
        Type::String => elem.unwrap_or("string").to_string(),
        Type::Int64 => elem.unwrap_or("int64").to_string(),
        Type::Int32 => elem.unwrap_or("int32").to_string(),
        Type::Boolean => elem.unwrap_or("bool").to_string(),
        Type::Bytes => "[]uint8".to_string(),
        Type::DateTime => "v1.Time".to_string(),
        Type::MicroTime => "v1.MicroTime".to_string(),
        Type::Object(s) => qualified_struct_name(s),
        Type::Map(inner) => format!("map[string]{}", go_type_name(inner, elem)),
        Type::Array(inner, _) => format!("[]{}", go_type_name(inner, elem)),
        Type::Any => "runtime.RawExtension".to_string(),
        Type::Float64 => "float64".to_string(),
        Type::Or(o) => o.go_name.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resources::schema::{
        CONTROLLER_REVISION, DELETE_OPTIONS, NAMESPACE_SPEC, OBJECT_META, OWNER_REFERENCE,
    };

    #[test]
    fn names_table() {
        assert_eq!(struct_name(&OBJECT_META), "ObjectMeta");
        assert_eq!(qualified_struct_name(&OBJECT_META), "v1.ObjectMeta");
        assert_eq!(
            qualified_struct_name(&CONTROLLER_REVISION),
            "v1.ControllerRevision"
        );
        let field_type = |s: &'static Struct, name: &str| {
            let f = s.field(name).unwrap();
            go_type_name(&f.ty, go_field(f).elem_name)
        };
        let cases = [
            (field_type(&OBJECT_META, "labels"), "map[string]string"),
            (field_type(&OBJECT_META, "finalizers"), "[]string"),
            (
                field_type(&OBJECT_META, "ownerReferences"),
                "[]v1.OwnerReference",
            ),
            (field_type(&OBJECT_META, "generation"), "int64"),
            (field_type(&OBJECT_META, "uid"), "types.UID"),
            (
                field_type(&NAMESPACE_SPEC, "finalizers"),
                "[]v1.FinalizerName",
            ),
            (
                field_type(&DELETE_OPTIONS, "preconditions"),
                "v1.Preconditions",
            ),
            (field_type(&OWNER_REFERENCE, "controller"), "bool"),
        ];
        for (got, want) in cases {
            assert_eq!(got, want);
        }
    }

    #[test]
    fn facts_table() {
        let g = |s: &'static Struct, name: &str| go_field(s.field(name).unwrap());
        assert!(g(&DELETE_OPTIONS, "gracePeriodSeconds").pointer);
        assert!(!g(&OBJECT_META, "generation").pointer);
        assert!(g(&OBJECT_META, "creationTimestamp").omit_zero);
        assert_eq!(
            g(&CONTROLLER_REVISION, "kind").embedded_in,
            Some("TypeMeta")
        );
        assert_eq!(
            g(&DELETE_OPTIONS, "apiVersion").embedded_in,
            Some("TypeMeta")
        );
        assert_eq!(g(&OWNER_REFERENCE, "kind").embedded_in, None);
        assert_eq!(g(&CONTROLLER_REVISION, "revision"), GoField::default());
    }
}
