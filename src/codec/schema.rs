//! Schema types: how a served type's fields are described (the values live with the kinds).
//!
//! The same tables drive canonical field order (Go struct order on the wire), unknown-field
//! detection for `fieldValidation`, type checks on decode, and the OpenAPI v3 documents that
//! kubectl reads — so what the engine validates and what it advertises cannot drift apart.

/// The type of one field.
#[derive(Debug, Clone, Copy)]
pub enum Type {
    String,
    /// int64 (OpenAPI `integer`, format `int64`).
    Int64,
    /// int32 (OpenAPI `integer`, format `int32`).
    Int32,
    Boolean,
    /// `[]byte`: base64 (standard, padded) in JSON, raw bytes in protobuf.
    Bytes,
    /// RFC 3339 timestamp string (`metav1.Time`): second precision.
    DateTime,
    /// `metav1.MicroTime`: RFC 3339 with exactly six fractional digits.
    MicroTime,
    /// A struct with named fields (Go struct order).
    Object(&'static Struct),
    /// `map[string]T`.
    Map(&'static Type),
    /// `[]T`, with its list semantics.
    Array(&'static Type, ListType),
    /// Arbitrary JSON (`runtime.RawExtension`, `FieldsV1`): never has unknown fields.
    Any,
    /// float64 (OpenAPI `number`, format `double`): written as Go writes floats.
    Float64,
    /// A value Go decodes with its own `UnmarshalJSON` into either a struct or an alternative
    /// form (apiextensions' `JSONSchemaPropsOrArray`, `OrBool`, `OrStringArray`).
    Or(&'static OrType),
}

/// A struct-or-alternative type (see [`Type::Or`]).
#[derive(Debug)]
pub struct OrType {
    /// The OpenAPI definition name.
    pub openapi_name: &'static str,
    pub description: &'static str,
    /// The Go type name, as type errors print it (`v1.JSONSchemaPropsOrBool`).
    pub go_name: &'static str,
    /// The struct an object decodes into.
    pub object: &'static Struct,
    /// The type of the array form ([`OrAlt::Array`]: of `object`; [`OrAlt::Strings`]: of
    /// strings), decoded and written as any list is.
    pub array: &'static Type,
    /// What else the value may be.
    pub alt: OrAlt,
}

/// The alternative form of an [`OrType`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrAlt {
    /// An array of the struct (written as the array when it has items, else as the struct,
    /// or `null`); any other JSON is Go's zero value.
    Array,
    /// `true` or `false`; any other JSON is an error.
    Bool,
    /// An array of strings; any other JSON is Go's zero value.
    Strings,
}

/// List semantics (`x-kubernetes-list-type`), used by apply and strategic merge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListType {
    Atomic,
    /// Atomic too (structured-merge-diff's default), but the Go type carries no list-type
    /// marker, so OpenAPI shows none (a named slice type such as `metav1.Verbs`).
    Unmarked,
    Set,
    /// `map` keyed by the given fields (`x-kubernetes-list-map-keys`, in their declared
    /// order).
    Map(&'static [MapKey]),
}

/// One key field of a `map` list, with the default its field's schema gives: server-side
/// apply keys an item that omits the field by that default (`getAssociativeKeyDefault`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MapKey {
    pub name: &'static str,
    pub default: Option<&'static serde_json::Value>,
}

impl MapKey {
    /// A key field without a default.
    pub const fn new(name: &'static str) -> Self {
        MapKey {
            name,
            default: None,
        }
    }
}

/// A named struct type, referenced from OpenAPI as `#/components/schemas/<openapi_name>`.
#[derive(Debug)]
pub struct Struct {
    /// The OpenAPI definition name (`io.k8s.api.apps.v1.ControllerRevision`).
    pub openapi_name: &'static str,
    /// `+structType=atomic` (`x-kubernetes-map-type: atomic`): apply replaces the struct
    /// as a whole and tracks it as one field, as for `OwnerReference`.
    pub atomic: bool,
    pub description: &'static str,
    pub fields: &'static [Field],
}

/// One field of a struct.
#[derive(Debug)]
pub struct Field {
    /// JSON name.
    pub name: &'static str,
    pub ty: Type,
    pub required: bool,
    /// Go's `omitempty`: absent, null, `""`, `0`, `false`, `{}` and `[]` are not emitted.
    /// When false the field is always written (non-pointer structs, `revision`, `data`).
    pub omit_empty: bool,
    pub description: &'static str,
    /// The Go field is a pointer (`*bool`): an explicit zero is kept, `null` unsets it.
    pub pointer: bool,
    /// The protobuf field number (`generated.proto`); 0 for fields outside the message
    /// (`kind` and `apiVersion` travel in the envelope).
    pub proto: u32,
    /// The Go name of the scalar (or element) type when it is a named type (`types.UID`,
    /// `v1.NamespacePhase`), as type errors print it.
    pub go_type: Option<&'static str>,
    /// The tag has `omitzero`: a zero `metav1.Time` is dropped instead of written as `null`.
    pub omit_zero: bool,
}

impl Field {
    /// This field with protobuf field number `n`.
    pub const fn pb(mut self, n: u32) -> Self {
        self.proto = n;
        self
    }

    /// This field, whose Go type is the named type `name`.
    pub const fn go(mut self, name: &'static str) -> Self {
        self.go_type = Some(name);
        self
    }

    /// This field, a pointer in Go.
    pub const fn pointer(mut self) -> Self {
        self.pointer = true;
        self
    }

    /// This field, tagged `omitzero` in Go.
    pub const fn omit_zero(mut self) -> Self {
        self.omit_zero = true;
        self
    }
}

impl Struct {
    /// The field with this JSON name.
    pub fn field(&self, name: &str) -> Option<&'static Field> {
        self.fields.iter().find(|f| f.name == name)
    }
}

pub const fn f(name: &'static str, ty: Type, description: &'static str) -> Field {
    Field {
        name,
        ty,
        required: false,
        omit_empty: true,
        description,
        pointer: false,
        proto: 0,
        go_type: None,
        omit_zero: false,
    }
}

/// A field written even when empty (no `omitempty` in the Go type).
pub const fn always(name: &'static str, ty: Type, description: &'static str) -> Field {
    let mut field = f(name, ty, description);
    field.omit_empty = false;
    field
}

/// An optional pointer field (`*bool`, `*int64`): written exactly when set.
pub const fn ptr(name: &'static str, ty: Type, description: &'static str) -> Field {
    f(name, ty, description).pointer()
}

/// A required field, always written.
pub const fn req(name: &'static str, ty: Type, description: &'static str) -> Field {
    let mut field = f(name, ty, description);
    field.required = true;
    field.omit_empty = false;
    field
}

const API_VERSION_DOC: &str = "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources";
const KIND_DOC: &str = "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";

/// The `apiVersion` field of every kind.
pub const API_VERSION_FIELD: Field = f("apiVersion", Type::String, API_VERSION_DOC);

/// The `kind` field of every kind.
pub const KIND_FIELD: Field = f("kind", Type::String, KIND_DOC);
