//! Kind schemas: the one description of each served type's fields.
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
    /// RFC 3339 timestamp string (`metav1.Time`).
    DateTime,
    /// A struct with named fields (Go struct order).
    Object(&'static Struct),
    /// `map[string]T`.
    Map(&'static Type),
    /// `[]T`, with its list semantics.
    Array(&'static Type, ListType),
    /// Arbitrary JSON (`runtime.RawExtension`, `FieldsV1`): never has unknown fields.
    Any,
}

/// List semantics (`x-kubernetes-list-type`), used by apply and strategic merge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListType {
    Atomic,
    Set,
    /// `map` keyed by the given field.
    Map(&'static str),
}

/// A named struct type, referenced from OpenAPI as `#/components/schemas/<openapi_name>`.
#[derive(Debug)]
pub struct Struct {
    /// The OpenAPI definition name (`io.k8s.api.apps.v1.ControllerRevision`).
    pub openapi_name: &'static str,
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
}

impl Struct {
    /// The field with this JSON name.
    pub fn field(&self, name: &str) -> Option<&'static Field> {
        self.fields.iter().find(|f| f.name == name)
    }
}

const fn f(name: &'static str, ty: Type, description: &'static str) -> Field {
    Field {
        name,
        ty,
        required: false,
        omit_empty: true,
        description,
    }
}

/// A field written even when empty (no `omitempty` in the Go type).
const fn always(name: &'static str, ty: Type, description: &'static str) -> Field {
    Field {
        name,
        ty,
        required: false,
        omit_empty: false,
        description,
    }
}

/// A required field, always written.
const fn req(name: &'static str, ty: Type, description: &'static str) -> Field {
    Field {
        name,
        ty,
        required: true,
        omit_empty: false,
        description,
    }
}

const STRING: Type = Type::String;
const STRINGS_ATOMIC: Type = Type::Array(&STRING, ListType::Atomic);
const STRING_MAP: Type = Type::Map(&STRING);

/// `metadata.name`'s documentation (also the Table `Name` column description).
pub const NAME_DOC: &str = "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names";

/// `metadata.creationTimestamp`'s documentation (also the Table `Age` column description).
pub const CREATION_TIMESTAMP_DOC: &str = "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

const API_VERSION_DOC: &str = "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources";
const KIND_DOC: &str = "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";

/// `metav1.OwnerReference`.
pub static OWNER_REFERENCE: Struct = Struct {
    openapi_name: "io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference",
    description: "OwnerReference contains enough information to let you identify an owning object. An owning object must be in the same namespace as the dependent, or be cluster-scoped, so there is no namespace field.",
    fields: &[
        req("apiVersion", Type::String, "API version of the referent."),
        req("kind", Type::String, "Kind of the referent."),
        req("name", Type::String, "Name of the referent."),
        req("uid", Type::String, "UID of the referent."),
        f("controller", Type::Boolean, "If true, this reference points to the managing controller."),
        f("blockOwnerDeletion", Type::Boolean, "If true, AND if the owner has the \"foregroundDeletion\" finalizer, then the owner cannot be deleted from the key-value store until this reference is removed."),
    ],
};

/// `metav1.ManagedFieldsEntry`.
pub static MANAGED_FIELDS_ENTRY: Struct = Struct {
    openapi_name: "io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry",
    description: "ManagedFieldsEntry is a workflow-id, a FieldSet and the group version of the resource that the fieldset applies to.",
    fields: &[
        f("manager", Type::String, "Manager is an identifier of the workflow managing these fields."),
        f("operation", Type::String, "Operation is the type of operation which lead to this ManagedFieldsEntry being created. The only valid values for this field are 'Apply' and 'Update'."),
        f("apiVersion", Type::String, "APIVersion defines the version of this resource that this field set applies to."),
        f("time", Type::DateTime, "Time is the timestamp of when the ManagedFields entry was added."),
        f("fieldsType", Type::String, "FieldsType is the discriminator for the different fields format and version. There is currently only one possible value: \"FieldsV1\""),
        f("fieldsV1", Type::Any, "FieldsV1 holds the first JSON version format as described in the \"FieldsV1\" type."),
        f("subresource", Type::String, "Subresource is the name of the subresource used to update that object, or empty string if the object was updated through the main resource."),
    ],
};

const OWNER_REFERENCE_T: Type = Type::Object(&OWNER_REFERENCE);
const MANAGED_FIELDS_ENTRY_T: Type = Type::Object(&MANAGED_FIELDS_ENTRY);

/// `metav1.ObjectMeta`, fields in Go struct order.
pub static OBJECT_META: Struct = Struct {
    openapi_name: "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
    description: "ObjectMeta is metadata that all persisted resources must have, which includes all objects users must create.",
    fields: &[
        f("name", Type::String, NAME_DOC),
        f("generateName", Type::String, "GenerateName is an optional prefix, used by the server, to generate a unique name ONLY IF the Name field has not been provided."),
        f("namespace", Type::String, "Namespace defines the space within which each name must be unique. An empty namespace is equivalent to the \"default\" namespace, but \"default\" is the canonical representation."),
        f("selfLink", Type::String, "Deprecated: selfLink is a legacy read-only field that is no longer populated by the system."),
        f("uid", Type::String, "UID is the unique in time and space value for this object. It is typically generated by the server on successful creation of a resource and is not allowed to change on PUT operations."),
        f("resourceVersion", Type::String, "An opaque value that represents the internal version of this object that can be used by clients to determine when objects have changed."),
        f("generation", Type::Int64, "A sequence number representing a specific generation of the desired state. Populated by the system. Read-only."),
        f("creationTimestamp", Type::DateTime, CREATION_TIMESTAMP_DOC),
        f("deletionTimestamp", Type::DateTime, "DeletionTimestamp is RFC 3339 date and time at which this resource will be deleted. This field is set by the server when a graceful deletion is requested by the user, and is not directly settable by a client."),
        f("deletionGracePeriodSeconds", Type::Int64, "Number of seconds allowed for this object to gracefully terminate before it will be removed from the system. Only set when deletionTimestamp is also set. May only be shortened. Read-only."),
        f("labels", STRING_MAP, "Map of string keys and values that can be used to organize and categorize (scope and select) objects."),
        f("annotations", STRING_MAP, "Annotations is an unstructured key value map stored with a resource that may be set by external tools to store and retrieve arbitrary metadata."),
        f("ownerReferences", Type::Array(&OWNER_REFERENCE_T, ListType::Map("uid")), "List of objects depended by this object. If ALL objects in the list have been deleted, this object will be garbage collected."),
        f("finalizers", Type::Array(&STRING, ListType::Set), "Must be empty before the object is deleted from the registry. Each entry is an identifier for the responsible component that will remove the entry from the list."),
        f("managedFields", Type::Array(&MANAGED_FIELDS_ENTRY_T, ListType::Atomic), "ManagedFields maps workflow-id and version to the set of fields that are managed by that workflow."),
    ],
};

/// The `metadata` field every kind starts with.
pub const METADATA_FIELD: Field = always(
    "metadata",
    Type::Object(&OBJECT_META),
    "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
);
/// The `apiVersion` field of every kind.
pub const API_VERSION_FIELD: Field = f("apiVersion", Type::String, API_VERSION_DOC);
/// The `kind` field of every kind.
pub const KIND_FIELD: Field = f("kind", Type::String, KIND_DOC);

/// apps/v1 `ControllerRevision`.
pub static CONTROLLER_REVISION: Struct = Struct {
    openapi_name: "io.k8s.api.apps.v1.ControllerRevision",
    description: "ControllerRevision implements an immutable snapshot of state data. Clients are responsible for serializing and deserializing the objects that contain their internal state. Once a ControllerRevision has been successfully created, it can not be updated. The API Server will fail validation of all requests that attempt to mutate the Data field. ControllerRevisions may, however, be deleted. Note that, due to its use by both the DaemonSet and StatefulSet controllers for update and rollback, this object is beta. However, it may be subject to name and representation changes in future releases, and clients should not depend on its stability. It is primarily for internal use by controllers.",
    fields: &[
        KIND_FIELD,
        API_VERSION_FIELD,
        METADATA_FIELD,
        always("data", Type::Any, "Data is the serialized representation of the state."),
        req("revision", Type::Int64, "Revision indicates the revision of the state represented by Data."),
    ],
};

/// core/v1 `NamespaceSpec`.
pub static NAMESPACE_SPEC: Struct = Struct {
    openapi_name: "io.k8s.api.core.v1.NamespaceSpec",
    description: "NamespaceSpec describes the attributes on a Namespace.",
    fields: &[f(
        "finalizers",
        STRINGS_ATOMIC,
        "Finalizers is an opaque list of values that must be empty to permanently remove object from storage. More info: https://kubernetes.io/docs/tasks/administer-cluster/namespaces/",
    )],
};

/// core/v1 `NamespaceCondition`.
pub static NAMESPACE_CONDITION: Struct = Struct {
    openapi_name: "io.k8s.api.core.v1.NamespaceCondition",
    description: "NamespaceCondition contains details about state of namespace.",
    fields: &[
        req(
            "type",
            Type::String,
            "Type of namespace controller condition.",
        ),
        req(
            "status",
            Type::String,
            "Status of the condition, one of True, False, Unknown.",
        ),
        f(
            "lastTransitionTime",
            Type::DateTime,
            "Last time the condition transitioned from one status to another.",
        ),
        f(
            "reason",
            Type::String,
            "Unique, one-word, CamelCase reason for the condition's last transition.",
        ),
        f(
            "message",
            Type::String,
            "Human-readable message indicating details about last transition.",
        ),
    ],
};

const NAMESPACE_CONDITION_T: Type = Type::Object(&NAMESPACE_CONDITION);

/// core/v1 `NamespaceStatus`.
pub static NAMESPACE_STATUS: Struct = Struct {
    openapi_name: "io.k8s.api.core.v1.NamespaceStatus",
    description: "NamespaceStatus is information about the current status of a Namespace.",
    fields: &[
        f("phase", Type::String, "Phase is the current lifecycle phase of the namespace. More info: https://kubernetes.io/docs/tasks/administer-cluster/namespaces/"),
        f("conditions", Type::Array(&NAMESPACE_CONDITION_T, ListType::Map("type")), "Represents the latest available observations of a namespace's current state."),
    ],
};

/// core/v1 `Namespace`.
pub static NAMESPACE: Struct = Struct {
    openapi_name: "io.k8s.api.core.v1.Namespace",
    description: "Namespace provides a scope for Names. Use of multiple namespaces is optional.",
    fields: &[
        KIND_FIELD,
        API_VERSION_FIELD,
        METADATA_FIELD,
        always("spec", Type::Object(&NAMESPACE_SPEC), "Spec defines the behavior of the Namespace. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status"),
        always("status", Type::Object(&NAMESPACE_STATUS), "Status describes the current status of a Namespace. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status"),
    ],
};

/// `metav1.Preconditions`.
pub static PRECONDITIONS: Struct = Struct {
    openapi_name: "io.k8s.apimachinery.pkg.apis.meta.v1.Preconditions",
    description:
        "Preconditions must be fulfilled before an operation (update, delete, etc.) is carried out.",
    fields: &[
        f(
            "resourceVersion",
            Type::String,
            "Specifies the target ResourceVersion",
        ),
        f("uid", Type::String, "Specifies the target UID."),
    ],
};

/// `metav1.DeleteOptions`.
pub static DELETE_OPTIONS: Struct = Struct {
    openapi_name: "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions",
    description: "DeleteOptions may be provided when deleting an API object.",
    fields: &[
        KIND_FIELD,
        API_VERSION_FIELD,
        f("gracePeriodSeconds", Type::Int64, "The duration in seconds before the object should be deleted. Value must be non-negative integer. The value zero indicates delete immediately."),
        f("preconditions", Type::Object(&PRECONDITIONS), "Must be fulfilled before a deletion is carried out. If not possible, a 409 Conflict status will be returned."),
        f("orphanDependents", Type::Boolean, "Deprecated: please use the PropagationPolicy, this field will be deprecated in 1.7."),
        f("propagationPolicy", Type::String, "Whether and how garbage collection will be performed. Either this field or OrphanDependents may be set, but not both."),
        f("dryRun", STRINGS_ATOMIC, "When present, indicates that modifications should not be persisted. Valid values are: - All: all dry run stages will be processed"),
        f("ignoreStoreReadErrorWithClusterBreakingPotential", Type::Boolean, "if set to true, it will trigger an unsafe deletion of the resource in case the normal deletion flow fails with a corrupt object error."),
    ],
};
