//! Kind schemas: the one description of each served type's fields.
//!
//! The same tables drive canonical field order (Go struct order on the wire), unknown-field
//! detection for `fieldValidation`, type checks on decode, and the OpenAPI v3 documents that
//! kubectl reads — so what the engine validates and what it advertises cannot drift apart.

pub use crate::codec::schema::*;

// The served kinds' own schemas live with the kinds; re-exported here beside the shared ones.
pub use super::configmap::CONFIG_MAP;
pub use super::controllerrevision::CONTROLLER_REVISION;
pub use super::namespace::{NAMESPACE, NAMESPACE_CONDITION, NAMESPACE_SPEC, NAMESPACE_STATUS};

const STRING: Type = Type::String;
const STRINGS_ATOMIC: Type = Type::Array(&STRING, ListType::Atomic);
const STRING_MAP: Type = Type::Map(&STRING);

/// `metadata.name`'s documentation (also the Table `Name` column description).
pub const NAME_DOC: &str = "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names";

/// `metadata.creationTimestamp`'s documentation (also the Table `Age` column description).
pub const CREATION_TIMESTAMP_DOC: &str = "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

/// `metav1.OwnerReference`.
pub static OWNER_REFERENCE: Struct = Struct {
    openapi_name: "io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference",
    atomic: true,
    description: "OwnerReference contains enough information to let you identify an owning object. An owning object must be in the same namespace as the dependent, or be cluster-scoped, so there is no namespace field.",
    fields: &[
        req("apiVersion", Type::String, "API version of the referent."),
        req("kind", Type::String, "Kind of the referent. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"),
        req("name", Type::String, "Name of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names"),
        req("uid", Type::String, "UID of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#uids").go("types.UID"),
        f("controller", Type::Boolean, "If true, this reference points to the managing controller.").pointer(),
        f("blockOwnerDeletion", Type::Boolean, "If true, AND if the owner has the \"foregroundDeletion\" finalizer, then the owner cannot be deleted from the key-value store until this reference is removed. See https://kubernetes.io/docs/concepts/architecture/garbage-collection/#foreground-deletion for how the garbage collector interacts with this field and enforces the foreground deletion. Defaults to false. To set this field, a user needs \"delete\" permission of the owner, otherwise 422 (Unprocessable Entity) will be returned.").pointer(),
    ],
};

/// `metav1.ManagedFieldsEntry`.
pub static MANAGED_FIELDS_ENTRY: Struct = Struct {
    openapi_name: "io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry",
    atomic: false,
    description: "ManagedFieldsEntry is a workflow-id, a FieldSet and the group version of the resource that the fieldset applies to.",
    fields: &[
        f("manager", Type::String, "Manager is an identifier of the workflow managing these fields."),
        f("operation", Type::String, "Operation is the type of operation which lead to this ManagedFieldsEntry being created. The only valid values for this field are 'Apply' and 'Update'.").go("v1.ManagedFieldsOperationType"),
        f("apiVersion", Type::String, "APIVersion defines the version of this resource that this field set applies to. The format is \"group/version\" just like the top-level APIVersion field. It is necessary to track the version of a field set because it cannot be automatically converted."),
        f("time", Type::DateTime, "Time is the timestamp of when the ManagedFields entry was added. The timestamp will also be updated if a field is added, the manager changes any of the owned fields value or removes a field. The timestamp does not update when a field is removed from the entry because another manager took it over.").pointer(),
        f("fieldsType", Type::String, "FieldsType is the discriminator for the different fields format and version. There is currently only one possible value: \"FieldsV1\""),
        f("fieldsV1", Type::Any, "FieldsV1 holds the first JSON version format as described in the \"FieldsV1\" type.").pointer(),
        f("subresource", Type::String, "Subresource is the name of the subresource used to update that object, or empty string if the object was updated through the main resource. The value of this field is used to distinguish between managers, even if they share the same name. For example, a status update will be distinct from a regular update using the same manager name. Note that the APIVersion field is not related to the Subresource field and it always corresponds to the version of the main resource."),
    ],
};

/// `metav1.LabelSelectorRequirement`.
pub static LABEL_SELECTOR_REQUIREMENT: Struct = Struct {
    openapi_name: "io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement",
    atomic: false,
    description: "A label selector requirement is a selector that contains values, a key, and an operator that relates the key and values.",
    fields: &[
        req("key", Type::String, "key is the label key that the selector applies to.").pb(1),
        req("operator", Type::String, "operator represents a key's relationship to a set of values. Valid operators are In, NotIn, Exists and DoesNotExist.").pb(2),
        f("values", STRINGS_ATOMIC, "values is an array of string values. If the operator is In or NotIn, the values array must be non-empty. If the operator is Exists or DoesNotExist, the values array must be empty. This array is replaced during a strategic merge patch.").pb(3),
    ],
};

/// `metav1.FieldSelectorRequirement` (access reviews' field selectors).
pub static FIELD_SELECTOR_REQUIREMENT: Struct = Struct {
    openapi_name: "io.k8s.apimachinery.pkg.apis.meta.v1.FieldSelectorRequirement",
    atomic: false,
    description: "FieldSelectorRequirement is a selector that contains values, a key, and an operator that relates the key and values.",
    fields: &[
        req("key", Type::String, "key is the field selector key that the requirement applies to.").pb(1),
        req("operator", Type::String, "operator represents a key's relationship to a set of values. Valid operators are In, NotIn, Exists, DoesNotExist. The list of operators may grow in the future.").pb(2),
        f("values", STRINGS_ATOMIC, "values is an array of string values. If the operator is In or NotIn, the values array must be non-empty. If the operator is Exists or DoesNotExist, the values array must be empty.").pb(3),
    ],
};

const LABEL_SELECTOR_REQUIREMENT_T: Type = Type::Object(&LABEL_SELECTOR_REQUIREMENT);

/// `metav1.LabelSelector`.
pub static LABEL_SELECTOR: Struct = Struct {
    openapi_name: "io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector",
    atomic: true,
    description: "A label selector is a label query over a set of resources. The result of matchLabels and matchExpressions are ANDed. An empty label selector matches all objects. A null label selector matches no objects.",
    fields: &[
        f("matchLabels", Type::Map(&STRING), "matchLabels is a map of {key,value} pairs. A single {key,value} in the matchLabels map is equivalent to an element of matchExpressions, whose key field is \"key\", the operator is \"In\", and the values array contains only \"value\". The requirements are ANDed.").pb(1),
        f("matchExpressions", Type::Array(&LABEL_SELECTOR_REQUIREMENT_T, ListType::Atomic), "matchExpressions is a list of label selector requirements. The requirements are ANDed.").pb(2),
    ],
};

const OWNER_REFERENCE_T: Type = Type::Object(&OWNER_REFERENCE);
const MANAGED_FIELDS_ENTRY_T: Type = Type::Object(&MANAGED_FIELDS_ENTRY);

/// `metav1.ObjectMeta`, fields in Go struct order.
pub static OBJECT_META: Struct = Struct {
    openapi_name: "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
    atomic: false,
    description: "ObjectMeta is metadata that all persisted resources must have, which includes all objects users must create.",
    fields: &[
        f("name", Type::String, NAME_DOC),
        f("generateName", Type::String, "GenerateName is an optional prefix, used by the server, to generate a unique name ONLY IF the Name field has not been provided. If this field is used, the name returned to the client will be different than the name passed. This value will also be combined with a unique suffix. The provided value has the same validation rules as the Name field, and may be truncated by the length of the suffix required to make the value unique on the server.\n\nIf this field is specified and the generated name exists, the server will return a 409.\n\nApplied only if Name is not specified. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#idempotency"),
        f("namespace", Type::String, "Namespace defines the space within which each name must be unique. An empty namespace is equivalent to the \"default\" namespace, but \"default\" is the canonical representation. Not all objects are required to be scoped to a namespace - the value of this field for those objects will be empty.\n\nMust be a DNS_LABEL. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/namespaces"),
        f("selfLink", Type::String, "Deprecated: selfLink is a legacy read-only field that is no longer populated by the system."),
        f("uid", Type::String, "UID is the unique in time and space value for this object. It is typically generated by the server on successful creation of a resource and is not allowed to change on PUT operations.\n\nPopulated by the system. Read-only. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#uids").go("types.UID"),
        f("resourceVersion", Type::String, "An opaque value that represents the internal version of this object that can be used by clients to determine when objects have changed. May be used for optimistic concurrency, change detection, and the watch operation on a resource or set of resources. Clients must treat these values as opaque and passed unmodified back to the server. They may only be valid for a particular resource or set of resources.\n\nPopulated by the system. Read-only. Value must be treated as opaque by clients and . More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#concurrency-control-and-consistency"),
        f("generation", Type::Int64, "A sequence number representing a specific generation of the desired state. Populated by the system. Read-only."),
        f("creationTimestamp", Type::DateTime, CREATION_TIMESTAMP_DOC).omit_zero(),
        f("deletionTimestamp", Type::DateTime, "DeletionTimestamp is RFC 3339 date and time at which this resource will be deleted. This field is set by the server when a graceful deletion is requested by the user, and is not directly settable by a client. The resource is expected to be deleted (no longer visible from resource lists, and not reachable by name) after the time in this field, once the finalizers list is empty. As long as the finalizers list contains items, deletion is blocked. Once the deletionTimestamp is set, this value may not be unset or be set further into the future, although it may be shortened or the resource may be deleted prior to this time. For example, a user may request that a pod is deleted in 30 seconds. The Kubelet will react by sending a graceful termination signal to the containers in the pod. After that 30 seconds, the Kubelet will send a hard termination signal (SIGKILL) to the container and after cleanup, remove the pod from the API. In the presence of network partitions, this object may still exist after this timestamp, until an administrator or automated process can determine the resource is fully terminated. If not set, graceful deletion of the object has not been requested.\n\nPopulated by the system when a graceful deletion is requested. Read-only. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata").pointer(),
        f("deletionGracePeriodSeconds", Type::Int64, "Number of seconds allowed for this object to gracefully terminate before it will be removed from the system. Only set when deletionTimestamp is also set. May only be shortened. Read-only.").pointer(),
        f("labels", STRING_MAP, "Map of string keys and values that can be used to organize and categorize (scope and select) objects. May match selectors of replication controllers and services. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels"),
        f("annotations", STRING_MAP, "Annotations is an unstructured key value map stored with a resource that may be set by external tools to store and retrieve arbitrary metadata. They are not queryable and should be preserved when modifying objects. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/annotations"),
        f("ownerReferences", Type::Array(&OWNER_REFERENCE_T, ListType::Map(&[MapKey::new("uid")])), "List of objects depended by this object. If ALL objects in the list have been deleted, this object will be garbage collected. If this object is managed by a controller, then an entry in this list will point to this controller, with the controller field set to true. There cannot be more than one managing controller."),
        f("finalizers", Type::Array(&STRING, ListType::Set), "Must be empty before the object is deleted from the registry. Each entry is an identifier for the responsible component that will remove the entry from the list. If the deletionTimestamp of the object is non-nil, entries in this list can only be removed. Finalizers may be processed and removed in any order.  Order is NOT enforced because it introduces significant risk of stuck finalizers. finalizers is a shared field, any actor with permission can reorder it. If the finalizer list is processed in order, then this can lead to a situation in which the component responsible for the first finalizer in the list is waiting for a signal (field value, external system, or other) produced by a component responsible for a finalizer later in the list, resulting in a deadlock. Without enforced ordering finalizers are free to order amongst themselves and are not vulnerable to ordering changes in the list."),
        f("managedFields", Type::Array(&MANAGED_FIELDS_ENTRY_T, ListType::Atomic), "ManagedFields maps workflow-id and version to the set of fields that are managed by that workflow. This is mostly for internal housekeeping, and users typically shouldn't need to set or understand this field. A workflow can be the user's name, a controller's name, or the name of a specific apply path like \"ci-cd\". The set of fields is always in the version that the workflow used when modifying the object."),
    ],
};

/// The `metadata` field every kind starts with.
pub const METADATA_FIELD: Field = always(
    "metadata",
    Type::Object(&OBJECT_META),
    "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
)
.pb(1);

/// `metav1.Preconditions`.
pub static PRECONDITIONS: Struct = Struct {
    openapi_name: "io.k8s.apimachinery.pkg.apis.meta.v1.Preconditions",
    atomic: false,
    description:
        "Preconditions must be fulfilled before an operation (update, delete, etc.) is carried out.",
    fields: &[
        f(
            "resourceVersion",
            Type::String,
            "Specifies the target ResourceVersion",
        )
        .pointer(),
        f("uid", Type::String, "Specifies the target UID.")
            .go("types.UID")
            .pointer(),
    ],
};

/// `metav1.DeleteOptions`.
pub static DELETE_OPTIONS: Struct = Struct {
    openapi_name: "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions",
    atomic: false,
    description: "DeleteOptions may be provided when deleting an API object.",
    fields: &[
        KIND_FIELD,
        API_VERSION_FIELD,
        f("gracePeriodSeconds", Type::Int64, "The duration in seconds before the object should be deleted. Value must be non-negative integer. The value zero indicates delete immediately. If this value is nil, the default grace period for the specified type will be used. Defaults to a per object value if not specified. zero means delete immediately.").pointer(),
        f("preconditions", Type::Object(&PRECONDITIONS), "Must be fulfilled before a deletion is carried out. If not possible, a 409 Conflict status will be returned.").pointer(),
        f("orphanDependents", Type::Boolean, "Deprecated: please use the PropagationPolicy, this field will be deprecated in 1.7. Should the dependent objects be orphaned. If true/false, the \"orphan\" finalizer will be added to/removed from the object's finalizers list. Either this field or PropagationPolicy may be set, but not both.").pointer(),
        f("propagationPolicy", Type::String, "Whether and how garbage collection will be performed. Either this field or OrphanDependents may be set, but not both. The default policy is decided by the existing finalizer set in the metadata.finalizers and the resource-specific default policy. Acceptable values are: 'Orphan' - orphan the dependents; 'Background' - allow the garbage collector to delete the dependents in the background; 'Foreground' - a cascading policy that deletes all dependents in the foreground.").go("v1.DeletionPropagation").pointer(),
        f("dryRun", STRINGS_ATOMIC, "When present, indicates that modifications should not be persisted. An invalid or unrecognized dryRun directive will result in an error response and no further processing of the request. Valid values are: - All: all dry run stages will be processed"),
        f("ignoreStoreReadErrorWithClusterBreakingPotential", Type::Boolean, "if set to true, it will trigger an unsafe deletion of the resource in case the normal deletion flow fails with a corrupt object error. A resource is considered corrupt if it can not be retrieved from the underlying storage successfully because of a) its data can not be transformed e.g. decryption failure, or b) it fails to decode into an object. NOTE: unsafe deletion ignores finalizer constraints, skips precondition checks, and removes the object from the storage. WARNING: This may potentially break the cluster if the workload associated with the resource being unsafe-deleted relies on normal deletion flow. Use only if you REALLY know what you are doing. The default value is false, and the user must opt in to enable it").pointer(),
    ],
};
