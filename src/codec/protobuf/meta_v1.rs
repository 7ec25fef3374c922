//! meta/v1 messages (`k8s.io.apimachinery.pkg.apis.meta.v1`): object and list metadata, Status,
//! DeleteOptions, PartialObjectMetadata, WatchEvent and the legacy discovery documents.
//!
//! Rows follow the Go structs in `pkg/apis/meta/v1/types.go` (JSON order); numbers are from
//! `generated.proto` (reference §5.2). Pointer fields (`*int64`, `*Time`, `*bool`,
//! `*Preconditions`, ...) are [`Rule::Pointer`]: gogo writes them only when set.

use super::schema::{field, Msg, Rule, Ty};

use Rule::{Always, OmitEmpty, OmitZero, Pointer};
use Ty::{
    Bool, Int32, Int64, Message, Messages, RawJson, RawObject, Str, StrMap, Strings, Time, Verbs,
};

/// `metav1.OwnerReference`: JSON order differs from the numbers (apiVersion is 5).
pub(crate) static OWNER_REFERENCE: Msg = Msg {
    name: "OwnerReference",
    fields: &[
        field("apiVersion", "APIVersion", 5, Str, Always),
        field("kind", "Kind", 1, Str, Always),
        field("name", "Name", 3, Str, Always),
        field("uid", "UID", 4, Str, Always),
        field("controller", "Controller", 6, Bool, Pointer),
        field("blockOwnerDeletion", "BlockOwnerDeletion", 7, Bool, Pointer),
    ],
};

/// `metav1.ManagedFieldsEntry`; `fieldsV1` is `FieldsV1{Raw}` holding the JSON field set.
pub(crate) static MANAGED_FIELDS_ENTRY: Msg = Msg {
    name: "ManagedFieldsEntry",
    fields: &[
        field("manager", "Manager", 1, Str, OmitEmpty),
        field("operation", "Operation", 2, Str, OmitEmpty),
        field("apiVersion", "APIVersion", 3, Str, OmitEmpty),
        field("time", "Time", 4, Time, Pointer),
        field("fieldsType", "FieldsType", 6, Str, OmitEmpty),
        field("fieldsV1", "FieldsV1", 7, RawJson, Pointer),
        field("subresource", "Subresource", 8, Str, OmitEmpty),
    ],
};

/// `metav1.ObjectMeta`. `creationTimestamp` is `omitempty,omitzero`; field 15 (clusterName) is
/// reserved; managedFields is 17.
pub static OBJECT_META: Msg = Msg {
    name: "ObjectMeta",
    fields: &[
        field("name", "Name", 1, Str, OmitEmpty),
        field("generateName", "GenerateName", 2, Str, OmitEmpty),
        field("namespace", "Namespace", 3, Str, OmitEmpty),
        field("selfLink", "SelfLink", 4, Str, OmitEmpty),
        field("uid", "UID", 5, Str, OmitEmpty),
        field("resourceVersion", "ResourceVersion", 6, Str, OmitEmpty),
        field("generation", "Generation", 7, Int64, OmitEmpty),
        field("creationTimestamp", "CreationTimestamp", 8, Time, OmitZero),
        field("deletionTimestamp", "DeletionTimestamp", 9, Time, Pointer),
        field(
            "deletionGracePeriodSeconds",
            "DeletionGracePeriodSeconds",
            10,
            Int64,
            Pointer,
        ),
        field("labels", "Labels", 11, StrMap, OmitEmpty),
        field("annotations", "Annotations", 12, StrMap, OmitEmpty),
        field(
            "ownerReferences",
            "OwnerReferences",
            13,
            Messages(&OWNER_REFERENCE, None),
            OmitEmpty,
        ),
        field("finalizers", "Finalizers", 14, Strings, OmitEmpty),
        field(
            "managedFields",
            "ManagedFields",
            17,
            Messages(&MANAGED_FIELDS_ENTRY, None),
            OmitEmpty,
        ),
    ],
};

/// `metav1.ShardInfo` (1.36, KEP-5866): the canonical shard selector a sharded list answered.
pub(crate) static SHARD_INFO: Msg = Msg {
    name: "ShardInfo",
    fields: &[field("selector", "Selector", 1, Str, Always)],
};

/// `metav1.ListMeta`.
pub static LIST_META: Msg = Msg {
    name: "ListMeta",
    fields: &[
        field("selfLink", "SelfLink", 1, Str, OmitEmpty),
        field("resourceVersion", "ResourceVersion", 2, Str, OmitEmpty),
        field("continue", "Continue", 3, Str, OmitEmpty),
        field(
            "remainingItemCount",
            "RemainingItemCount",
            4,
            Int64,
            Pointer,
        ),
        field("shardInfo", "ShardInfo", 5, Message(&SHARD_INFO), Pointer),
    ],
};

/// `metav1.StatusCause`: JSON `reason` is the Go field `Type`.
pub(crate) static STATUS_CAUSE: Msg = Msg {
    name: "StatusCause",
    fields: &[
        field("reason", "Type", 1, Str, OmitEmpty),
        field("message", "Message", 2, Str, OmitEmpty),
        field("field", "Field", 3, Str, OmitEmpty),
    ],
};

/// `metav1.StatusDetails`: `uid` is the last number (6) but fourth in JSON.
pub(crate) static STATUS_DETAILS: Msg = Msg {
    name: "StatusDetails",
    fields: &[
        field("name", "Name", 1, Str, OmitEmpty),
        field("group", "Group", 2, Str, OmitEmpty),
        field("kind", "Kind", 3, Str, OmitEmpty),
        field("uid", "UID", 6, Str, OmitEmpty),
        field(
            "causes",
            "Causes",
            4,
            Messages(&STATUS_CAUSE, None),
            OmitEmpty,
        ),
        field(
            "retryAfterSeconds",
            "RetryAfterSeconds",
            5,
            Int32,
            OmitEmpty,
        ),
    ],
};

/// `metav1.Status` (errors and DELETE answers; `kind: Status`, `apiVersion: v1`).
pub(crate) static STATUS: Msg = Msg {
    name: "Status",
    fields: &[
        field("metadata", "ListMeta", 1, Message(&LIST_META), Always),
        field("status", "Status", 2, Str, OmitEmpty),
        field("message", "Message", 3, Str, OmitEmpty),
        field("reason", "Reason", 4, Str, OmitEmpty),
        field("details", "Details", 5, Message(&STATUS_DETAILS), Pointer),
        field("code", "Code", 6, Int32, OmitEmpty),
    ],
};

/// `metav1.Preconditions`: both fields are pointers.
pub(crate) static PRECONDITIONS: Msg = Msg {
    name: "Preconditions",
    fields: &[
        field("uid", "UID", 1, Str, Pointer),
        field("resourceVersion", "ResourceVersion", 2, Str, Pointer),
    ],
};

/// `metav1.DeleteOptions` (a DELETE body).
pub(crate) static DELETE_OPTIONS: Msg = Msg {
    name: "DeleteOptions",
    fields: &[
        field(
            "gracePeriodSeconds",
            "GracePeriodSeconds",
            1,
            Int64,
            Pointer,
        ),
        field(
            "preconditions",
            "Preconditions",
            2,
            Message(&PRECONDITIONS),
            Pointer,
        ),
        field("orphanDependents", "OrphanDependents", 3, Bool, Pointer),
        field("propagationPolicy", "PropagationPolicy", 4, Str, Pointer),
        field("dryRun", "DryRun", 5, Strings, OmitEmpty),
        field(
            "ignoreStoreReadErrorWithClusterBreakingPotential",
            "IgnoreStoreReadErrorWithClusterBreakingPotential",
            6,
            Bool,
            Pointer,
        ),
    ],
};

/// `metav1.PartialObjectMetadata` (`as=PartialObjectMetadata`): only metadata.
pub(crate) static PARTIAL_OBJECT_METADATA: Msg = Msg {
    name: "PartialObjectMetadata",
    fields: &[field(
        "metadata",
        "ObjectMeta",
        1,
        Message(&OBJECT_META),
        Always,
    )],
};

/// `metav1.PartialObjectMetadataList`: items carry `kind`/`apiVersion` in JSON (set by the
/// server) but not in protobuf; the decoder restores them from the list's apiVersion.
pub(crate) static PARTIAL_OBJECT_METADATA_LIST: Msg = Msg {
    name: "PartialObjectMetadataList",
    fields: &[
        field("metadata", "ListMeta", 1, Message(&LIST_META), Always),
        field(
            "items",
            "Items",
            2,
            Messages(&PARTIAL_OBJECT_METADATA, Some("PartialObjectMetadata")),
            Always,
        ),
    ],
};

/// `metav1.WatchEvent`: one watch event; `object.raw` is the object's full `k8s\0` envelope.
pub(crate) static WATCH_EVENT: Msg = Msg {
    name: "WatchEvent",
    fields: &[
        field("type", "Type", 1, Str, Always),
        field("object", "Object", 2, RawObject, Always),
    ],
};

/// `metav1.ServerAddressByClientCIDR`.
pub(crate) static SERVER_ADDRESS_BY_CLIENT_CIDR: Msg = Msg {
    name: "ServerAddressByClientCIDR",
    fields: &[
        field("clientCIDR", "ClientCIDR", 1, Str, Always),
        field("serverAddress", "ServerAddress", 2, Str, Always),
    ],
};

/// `metav1.APIVersions` (`GET /api`).
pub(crate) static API_VERSIONS: Msg = Msg {
    name: "APIVersions",
    fields: &[
        field("versions", "Versions", 1, Strings, Always),
        field(
            "serverAddressByClientCIDRs",
            "ServerAddressByClientCIDRs",
            2,
            Messages(&SERVER_ADDRESS_BY_CLIENT_CIDR, None),
            Always,
        ),
    ],
};

/// `metav1.GroupVersionForDiscovery`.
pub(crate) static GROUP_VERSION_FOR_DISCOVERY: Msg = Msg {
    name: "GroupVersionForDiscovery",
    fields: &[
        field("groupVersion", "GroupVersion", 1, Str, Always),
        field("version", "Version", 2, Str, Always),
    ],
};

/// `metav1.APIGroup` (`GET /apis/<group>`, and each item of an `APIGroupList`).
pub(crate) static API_GROUP: Msg = Msg {
    name: "APIGroup",
    fields: &[
        field("name", "Name", 1, Str, Always),
        field(
            "versions",
            "Versions",
            2,
            Messages(&GROUP_VERSION_FOR_DISCOVERY, None),
            Always,
        ),
        field(
            "preferredVersion",
            "PreferredVersion",
            3,
            Message(&GROUP_VERSION_FOR_DISCOVERY),
            OmitEmpty,
        ),
        field(
            "serverAddressByClientCIDRs",
            "ServerAddressByClientCIDRs",
            4,
            Messages(&SERVER_ADDRESS_BY_CLIENT_CIDR, None),
            OmitEmpty,
        ),
    ],
};

/// `metav1.APIGroupList` (`GET /apis`).
pub(crate) static API_GROUP_LIST: Msg = Msg {
    name: "APIGroupList",
    fields: &[field(
        "groups",
        "Groups",
        1,
        Messages(&API_GROUP, None),
        Always,
    )],
};

/// `metav1.APIResource`: JSON order differs from the numbers.
pub(crate) static API_RESOURCE: Msg = Msg {
    name: "APIResource",
    fields: &[
        field("name", "Name", 1, Str, Always),
        field("singularName", "SingularName", 6, Str, Always),
        field("namespaced", "Namespaced", 2, Bool, Always),
        field("group", "Group", 8, Str, OmitEmpty),
        field("version", "Version", 9, Str, OmitEmpty),
        field("kind", "Kind", 3, Str, Always),
        field("verbs", "Verbs", 4, Verbs, Pointer),
        field("shortNames", "ShortNames", 5, Strings, OmitEmpty),
        field("categories", "Categories", 7, Strings, OmitEmpty),
        field(
            "storageVersionHash",
            "StorageVersionHash",
            10,
            Str,
            OmitEmpty,
        ),
    ],
};

/// `metav1.APIResourceList` (`GET /api/v1`, `/apis/<group>/<version>`).
pub(crate) static API_RESOURCE_LIST: Msg = Msg {
    name: "APIResourceList",
    fields: &[
        field("groupVersion", "GroupVersion", 1, Str, Always),
        field(
            "resources",
            "APIResources",
            2,
            Messages(&API_RESOURCE, None),
            Always,
        ),
    ],
};
