//! The `meta.k8s.io` / discovery / version types the OpenAPI documents reference but the kind
//! registry does not describe (they are never stored): `ListMeta`, `Status`, `WatchEvent`,
//! `APIResourceList`, the discovery kinds and `version.Info`, plus the opaque schemas
//! (`Time`, `RawExtension`, `FieldsV1`, `Patch`).
//!
//! They are written as [`Struct`] tables so the same generator renders them as the kinds, with
//! the same `default`/`required` rules. Descriptions restate the upstream Go doc comments.

use serde_json::{json, Value};

use crate::resources::schema::{ListType, Struct, Type, API_VERSION_FIELD, KIND_FIELD};

/// `#/components/schemas/...` name of `metav1.Time`.
pub const TIME: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.Time";
/// `#/components/schemas/...` name of `metav1.MicroTime`.
pub const MICRO_TIME: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime";
/// `#/components/schemas/...` name of `runtime.RawExtension`.
pub const RAW_EXTENSION: &str = "io.k8s.apimachinery.pkg.runtime.RawExtension";
/// `#/components/schemas/...` name of `metav1.FieldsV1`.
pub const FIELDS_V1: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1";
/// `#/components/schemas/...` name of `metav1.Patch`, the body of every PATCH operation.
pub const PATCH: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.Patch";

use crate::codec::schema::{always, f as opt, req};

const STRING: Type = Type::String;
const STRINGS: Type = Type::Array(&STRING, ListType::Atomic);

/// `metav1.ListMeta`.
pub static LIST_META: Struct = Struct {
    openapi_name: "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta",
    atomic: false,
    description: "ListMeta describes metadata that synthetic resources must have, including lists and various status objects. A resource may have only one of {ObjectMeta, ListMeta}.",
    fields: &[
        opt("selfLink", STRING, "Deprecated: selfLink is a legacy read-only field that is no longer populated by the system."),
        opt("resourceVersion", STRING, "String that identifies the server's internal version of this object that can be used by clients to determine when objects have changed. Value must be treated as opaque by clients and passed unmodified back to the server. Populated by the system. Read-only. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#concurrency-control-and-consistency"),
        opt("continue", STRING, "continue may be set if the user set a limit on the number of items returned, and indicates that the server has more data available. The value is opaque and may be used to issue another request to the endpoint that served this list to retrieve the next set of available objects. Continuing a consistent list may not be possible if the server configuration has changed or more than a few minutes have passed. The resourceVersion field returned when using this continue value will be identical to the value in the first response, unless you have received this token from an error message."),
        opt("remainingItemCount", Type::Int64, "remainingItemCount is the number of subsequent items in the list which are not included in this list response. If the list request contained label or field selectors, then the number of remaining items is unknown and the field will be left unset and omitted during serialization. If the list is complete (either because it is not chunking or because this is the last chunk), then there are no more remaining items and this field will be left unset and omitted during serialization. Servers older than v1.15 do not set this field. The intended use of the remainingItemCount is *estimating* the size of a collection. Clients should not rely on the remainingItemCount to be set or to be exact."),
        opt("shardInfo", Type::Object(&SHARD_INFO), "shardInfo is set when the list is a filtered subset of the full collection, as selected by a shard selector on the request. It echoes back the selector so clients can verify which shard they received and merge sharded responses. Clients should not cache sharded list responses as a full representation of the collection.\n\nThis is an alpha field and requires enabling the ShardedListAndWatch feature gate.").pointer(),
    ],
};

/// `metav1.ShardInfo` (ShardedListAndWatch).
pub static SHARD_INFO: Struct = Struct {
    openapi_name: "io.k8s.apimachinery.pkg.apis.meta.v1.ShardInfo",
    atomic: false,
    description: "ShardInfo describes the shard selector that was applied to produce a list response. Its presence on a list response indicates the list is a filtered subset.",
    fields: &[req("selector", STRING, "selector is the shard selector string from the request, echoed back so clients can verify which shard they received and merge responses from multiple shards.")],
};

/// `metav1.StatusCause`.
pub static STATUS_CAUSE: Struct = Struct {
    openapi_name: "io.k8s.apimachinery.pkg.apis.meta.v1.StatusCause",
    atomic: false,
    description: "StatusCause provides more information about an api.Status failure, including cases when multiple errors are encountered.",
    fields: &[
        opt("reason", STRING, "A machine-readable description of the cause of the error. If this value is empty there is no information available."),
        opt("message", STRING, "A human-readable description of the cause of the error.  This field may be presented as-is to a reader."),
        opt("field", STRING, "The field of the resource that has caused this error, as named by its JSON serialization. May include dot and postfix notation for nested attributes. Arrays are zero-indexed.  Fields may appear more than once in an array of causes due to fields having multiple errors. Optional.\n\nExamples:\n  \"name\" - the field \"name\" on the current resource\n  \"items[0].name\" - the field \"name\" on the first array entry in \"items\""),
    ],
};

const STATUS_CAUSE_T: Type = Type::Object(&STATUS_CAUSE);

/// `metav1.StatusDetails`.
pub static STATUS_DETAILS: Struct = Struct {
    openapi_name: "io.k8s.apimachinery.pkg.apis.meta.v1.StatusDetails",
    atomic: false,
    description: "StatusDetails is a set of additional properties that MAY be set by the server to provide additional information about a response. The Reason field of a Status object defines what attributes will be set. Clients must ignore fields that do not match the defined type of each attribute, and should assume that any attribute may be empty, invalid, or under defined.",
    fields: &[
        opt("name", STRING, "The name attribute of the resource associated with the status StatusReason (when there is a single name which can be described)."),
        opt("group", STRING, "The group attribute of the resource associated with the status StatusReason."),
        opt("kind", STRING, "The kind attribute of the resource associated with the status StatusReason. On some operations may differ from the requested resource Kind. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"),
        opt("uid", STRING, "UID of the resource. (when there is a single resource which can be described). More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#uids"),
        opt("causes", Type::Array(&STATUS_CAUSE_T, ListType::Atomic), "The Causes array includes more details associated with the StatusReason failure. Not all StatusReasons may provide detailed causes."),
        opt("retryAfterSeconds", Type::Int32, "If specified, the time in seconds before the operation should be retried. Some errors may indicate the client must take an alternate action - for those errors this field may indicate how long to wait before taking the alternate action."),
    ],
};

/// `metav1.Status`, the body of delete responses and of every error.
pub static STATUS: Struct = Struct {
    openapi_name: "io.k8s.apimachinery.pkg.apis.meta.v1.Status",
    atomic: false,
    description: "Status is a return value for calls that don't return other objects.",
    fields: &[
        KIND_FIELD,
        API_VERSION_FIELD,
        always("metadata", Type::Object(&LIST_META), "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"),
        opt("status", STRING, "Status of the operation. One of: \"Success\" or \"Failure\". More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status"),
        opt("message", STRING, "A human-readable description of the status of this operation."),
        opt("reason", STRING, "A machine-readable description of why this operation is in the \"Failure\" status. If this value is empty there is no information available. A Reason clarifies an HTTP status code but does not override it."),
        opt("details", Type::Object(&STATUS_DETAILS), "Extended data associated with the reason.  Each reason may define its own extended details. This field is optional and the data returned is not guaranteed to conform to any schema except that defined by the reason type."),
        opt("code", Type::Int32, "Suggested HTTP return code for this status, 0 if not set."),
    ],
};

/// `metav1.WatchEvent`, the frame of every watch stream.
pub static WATCH_EVENT: Struct = Struct {
    openapi_name: "io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent",
    atomic: false,
    description: "Event represents a single event to a watched resource.",
    fields: &[
        req("type", STRING, ""),
        req("object", Type::Any, "Object is:\n * If Type is Added or Modified: the new state of the object.\n * If Type is Deleted: the state of the object immediately before deletion.\n * If Type is Error: *Status is recommended; other types may make sense\n   depending on context."),
    ],
};

/// `metav1.APIResource`.
pub static API_RESOURCE: Struct = Struct {
    openapi_name: "io.k8s.apimachinery.pkg.apis.meta.v1.APIResource",
    atomic: false,
    description: "APIResource specifies the name of a resource and whether it is namespaced.",
    fields: &[
        req("name", STRING, "name is the plural name of the resource."),
        req("singularName", STRING, "singularName is the singular name of the resource.  This allows clients to handle plural and singular opaquely. The singularName is more correct for reporting status on a single item and both singular and plural are allowed from the kubectl CLI interface."),
        req("namespaced", Type::Boolean, "namespaced indicates if a resource is namespaced or not."),
        opt("group", STRING, "group is the preferred group of the resource.  Empty implies the group of the containing resource list. For subresources, this may have a different value, for example: Scale\"."),
        opt("version", STRING, "version is the preferred version of the resource.  Empty implies the version of the containing resource list For subresources, this may have a different value, for example: v1 (while inside a v1beta1 version of the core resource's group)\"."),
        req("kind", STRING, "kind is the kind for the resource (e.g. 'Foo' is the kind for a resource 'foo')"),
        req("verbs", Type::Array(&STRING, ListType::Unmarked), "verbs is a list of supported kube verbs (this includes get, list, watch, create, update, patch, delete, deletecollection, and proxy)"),
        opt("shortNames", STRINGS, "shortNames is a list of suggested short names of the resource."),
        opt("categories", STRINGS, "categories is a list of the grouped resources this resource belongs to (e.g. 'all')"),
        opt("storageVersionHash", STRING, "The hash value of the storage version, the version this resource is converted to when written to the data store. Value must be treated as opaque by clients. Only equality comparison on the value is valid. This is an alpha feature and may change or be removed in the future. The field is populated by the apiserver only if the StorageVersionHash feature gate is enabled. This field will remain optional even if it graduates."),
    ],
};

const API_RESOURCE_T: Type = Type::Object(&API_RESOURCE);

/// `metav1.APIResourceList`, the answer of `GET /api/v1` and `GET /apis/<group>/<version>`.
pub static API_RESOURCE_LIST: Struct = Struct {
    openapi_name: "io.k8s.apimachinery.pkg.apis.meta.v1.APIResourceList",
    atomic: false,
    description: "APIResourceList is a list of APIResource, it is used to expose the name of the resources supported in a specific group and version, and if the resource is namespaced.",
    fields: &[
        KIND_FIELD,
        API_VERSION_FIELD,
        req("groupVersion", STRING, "groupVersion is the group and version this APIResourceList is for."),
        req("resources", Type::Array(&API_RESOURCE_T, ListType::Atomic), "resources contains the name of the resources and if they are namespaced."),
    ],
};

/// `metav1.ServerAddressByClientCIDR`.
pub static SERVER_ADDRESS_BY_CLIENT_CIDR: Struct = Struct {
    openapi_name: "io.k8s.apimachinery.pkg.apis.meta.v1.ServerAddressByClientCIDR",
    atomic: false,
    description: "ServerAddressByClientCIDR helps the client to determine the server address that they should use, depending on the clientCIDR that they match.",
    fields: &[
        req("clientCIDR", STRING, "The CIDR with which clients can match their IP to figure out the server address that they should use."),
        req("serverAddress", STRING, "Address of this server, suitable for a client that matches the above CIDR. This can be a hostname, hostname:port, IP or IP:port."),
    ],
};

const CIDR_T: Type = Type::Object(&SERVER_ADDRESS_BY_CLIENT_CIDR);
const CIDR_DOC: &str = "a map of client CIDR to server address that is serving this group. This is to help clients reach servers in the most network-efficient way possible. Clients can use the appropriate server address as per the CIDR that they match. In case of multiple matches, clients should use the longest matching CIDR. The server returns only those CIDRs that it thinks that the client can match. For example: the master will return an internal IP CIDR only, if the client reaches the server using an internal IP. Server looks at X-Forwarded-For header or X-Real-Ip header or request.RemoteAddr (in that order) to get the client IP.";

/// `metav1.APIVersions`, the answer of `GET /api`.
pub static API_VERSIONS: Struct = Struct {
    openapi_name: "io.k8s.apimachinery.pkg.apis.meta.v1.APIVersions",
    atomic: false,
    description: "APIVersions lists the versions that are available, to allow clients to discover the API at /api, which is the root path of the legacy v1 API.",
    fields: &[
        KIND_FIELD,
        API_VERSION_FIELD,
        req("versions", STRINGS, "versions are the api versions that are available."),
        req("serverAddressByClientCIDRs", Type::Array(&CIDR_T, ListType::Atomic), CIDR_DOC),
    ],
};

/// `metav1.GroupVersionForDiscovery`.
pub static GROUP_VERSION_FOR_DISCOVERY: Struct = Struct {
    openapi_name: "io.k8s.apimachinery.pkg.apis.meta.v1.GroupVersionForDiscovery",
    atomic: false,
    description: "GroupVersion contains the \"group/version\" and \"version\" string of a version. It is made a struct to keep extensibility.",
    fields: &[
        req("groupVersion", STRING, "groupVersion specifies the API group and version in the form \"group/version\""),
        req("version", STRING, "version specifies the version in the form of \"version\". This is to save the clients the trouble of splitting the GroupVersion."),
    ],
};

const GVFD_T: Type = Type::Object(&GROUP_VERSION_FOR_DISCOVERY);

/// `metav1.APIGroup`, the answer of `GET /apis/<group>`.
pub static API_GROUP: Struct = Struct {
    openapi_name: "io.k8s.apimachinery.pkg.apis.meta.v1.APIGroup",
    atomic: false,
    description: "APIGroup contains the name, the supported versions, and the preferred version of a group.",
    fields: &[
        KIND_FIELD,
        API_VERSION_FIELD,
        req("name", STRING, "name is the name of the group."),
        req("versions", Type::Array(&GVFD_T, ListType::Atomic), "versions are the versions supported in this group."),
        opt("preferredVersion", GVFD_T, "preferredVersion is the version preferred by the API server, which probably is the storage version."),
        opt("serverAddressByClientCIDRs", Type::Array(&CIDR_T, ListType::Atomic), CIDR_DOC),
    ],
};

const API_GROUP_T: Type = Type::Object(&API_GROUP);

/// `metav1.APIGroupList`, the answer of `GET /apis`.
pub static API_GROUP_LIST: Struct = Struct {
    openapi_name: "io.k8s.apimachinery.pkg.apis.meta.v1.APIGroupList",
    atomic: false,
    description:
        "APIGroupList is a list of APIGroup, to allow clients to discover the API at /apis.",
    fields: &[
        KIND_FIELD,
        API_VERSION_FIELD,
        req(
            "groups",
            Type::Array(&API_GROUP_T, ListType::Atomic),
            "groups is a list of APIGroup.",
        ),
    ],
};

/// `version.Info`, the answer of `GET /version`.
pub static VERSION_INFO: Struct = Struct {
    openapi_name: "io.k8s.apimachinery.pkg.version.Info",
    atomic: false,
    description:
        "Info contains versioning information. how we'll want to distribute that information.",
    fields: &[
        req(
            "major",
            STRING,
            "Major is the major version of the binary version",
        ),
        req(
            "minor",
            STRING,
            "Minor is the minor version of the binary version",
        ),
        opt(
            "emulationMajor",
            STRING,
            "EmulationMajor is the major version of the emulation version",
        ),
        opt(
            "emulationMinor",
            STRING,
            "EmulationMinor is the minor version of the emulation version",
        ),
        opt(
            "minCompatibilityMajor",
            STRING,
            "MinCompatibilityMajor is the major version of the minimum compatibility version",
        ),
        opt(
            "minCompatibilityMinor",
            STRING,
            "MinCompatibilityMinor is the minor version of the minimum compatibility version",
        ),
        req("gitVersion", STRING, ""),
        req("gitCommit", STRING, ""),
        req("gitTreeState", STRING, ""),
        req("buildDate", STRING, ""),
        req("goVersion", STRING, ""),
        req("compiler", STRING, ""),
        req("platform", STRING, ""),
    ],
};

/// Every struct defined here, for name lookup.
pub static STRUCTS: &[&Struct] = &[
    &LIST_META,
    &SHARD_INFO,
    &STATUS_CAUSE,
    &STATUS_DETAILS,
    &STATUS,
    &WATCH_EVENT,
    &API_RESOURCE,
    &API_RESOURCE_LIST,
    &SERVER_ADDRESS_BY_CLIENT_CIDR,
    &API_VERSIONS,
    &GROUP_VERSION_FOR_DISCOVERY,
    &API_GROUP,
    &API_GROUP_LIST,
    &VERSION_INFO,
];

/// The opaque (non-struct) schemas: a description and a JSON type, nothing else.
pub fn opaque(name: &str) -> Option<Value> {
    let (description, ty, format) = match name {
        TIME => ("Time is a wrapper around time.Time which supports correct marshaling to YAML and JSON.  Wrappers are provided for many of the factory methods that the time package offers.", "string", Some("date-time")),
        MICRO_TIME => ("MicroTime is version of Time with microsecond level precision.", "string", Some("date-time")),
        RAW_EXTENSION => ("RawExtension is used to hold extensions in external versions.\n\nTo use this, make a field which has RawExtension as its type in your external, versioned struct, and Object in your internal struct. You also need to register your various plugin types.\n\n// Internal package:\n\n\ttype MyAPIObject struct {\n\t\truntime.TypeMeta `json:\",inline\"`\n\t\tMyPlugin runtime.Object `json:\"myPlugin\"`\n\t}\n\n\ttype PluginA struct {\n\t\tAOption string `json:\"aOption\"`\n\t}\n\n// External package:\n\n\ttype MyAPIObject struct {\n\t\truntime.TypeMeta `json:\",inline\"`\n\t\tMyPlugin runtime.RawExtension `json:\"myPlugin\"`\n\t}\n\n\ttype PluginA struct {\n\t\tAOption string `json:\"aOption\"`\n\t}\n\n// On the wire, the JSON will look something like this:\n\n\t{\n\t\t\"kind\":\"MyAPIObject\",\n\t\t\"apiVersion\":\"v1\",\n\t\t\"myPlugin\": {\n\t\t\t\"kind\":\"PluginA\",\n\t\t\t\"aOption\":\"foo\",\n\t\t},\n\t}\n\nSo what happens? Decode first uses json or yaml to unmarshal the serialized data into your external MyAPIObject. That causes the raw JSON to be stored, but not unpacked. The next step is to copy (using pkg/conversion) into the internal struct. The runtime package's DefaultScheme has conversion functions installed which will unpack the JSON stored in RawExtension, turning it into the correct object type, and storing it in the Object. (TODO: In the case where the object is of an unknown type, a runtime.Unknown object will be created and stored.)", "object", None),
        FIELDS_V1 => ("FieldsV1 stores a set of fields in a data structure like a Trie, in JSON format.\n\nEach key is either a '.' representing the field itself, and will always map to an empty set, or a string representing a sub-field or item. The string will follow one of these four formats: 'f:<name>', where <name> is the name of a field in a struct, or key in a map 'v:<value>', where <value> is the exact json formatted value of a list item 'i:<index>', where <index> is position of a item in a list 'k:<keys>', where <keys> is a map of  a list item's key fields to their unique values If a key maps to an empty Fields value, the field that key represents is part of the set.\n\nThe exact format is defined in sigs.k8s.io/structured-merge-diff", "object", None),
        PATCH => ("Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.", "object", None),
        _ => return None,
    };
    let mut v = json!({"description": description, "type": ty});
    if let Some(format) = format {
        v["format"] = json!(format);
    }
    Some(v)
}
