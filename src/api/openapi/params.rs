//! The query and path parameters of the API operations, with the descriptions the server
//! publishes, grouped per operation kind. They are inline in every operation (as kube-openapi
//! emits them); kubectl's `fieldValidation` probe depends on that.

use serde_json::{json, Map, Value};

/// A query or path parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Param {
    /// The query key or path placeholder.
    pub(super) name: &'static str,
    /// `query` or `path`.
    pub(super) location: &'static str,
    /// The published description (empty for `name`, whose text names the kind).
    pub(super) description: &'static str,
    /// The JSON type of the value: `string`, `integer` or `boolean`.
    pub(super) ty: &'static str,
}

impl Param {
    /// `name`, `in`, `description`, `required` (path parameters), `schema` — ParameterProps
    /// order. The `uniqueItems: true` is what go-restful emits for every simple parameter.
    pub(super) fn to_json(self, description: &str) -> Value {
        let mut m = Map::new();
        m.insert("name".into(), json!(self.name));
        m.insert("in".into(), json!(self.location));
        m.insert("description".into(), json!(description));
        if self.location == "path" {
            m.insert("required".into(), json!(true));
        }
        m.insert(
            "schema".into(),
            json!({"type": self.ty, "uniqueItems": true}),
        );
        Value::Object(m)
    }
}

const fn query(name: &'static str, ty: &'static str, description: &'static str) -> Param {
    Param {
        name,
        location: "query",
        description,
        ty,
    }
}

/// `pretty`, accepted by every operation (and so always hoisted to the path item).
pub(super) const PRETTY: Param = query("pretty", "string", "If 'true', then the output is pretty printed. Defaults to 'false' unless the user-agent indicates a browser or command-line HTTP tool (curl and wget).");
/// The `{namespace}` path segment of namespaced kinds.
pub(super) const NAMESPACE: Param = Param {
    name: "namespace",
    location: "path",
    description: "object name and auth scope, such as for teams and projects",
    ty: "string",
};
/// `name`'s description depends on the kind (`name of the ControllerRevision`).
pub(super) const NAME: Param = Param {
    name: "name",
    location: "path",
    description: "",
    ty: "string",
};

const ALLOW_WATCH_BOOKMARKS: Param = query("allowWatchBookmarks", "boolean", "allowWatchBookmarks requests watch events with type \"BOOKMARK\". Servers that do not implement bookmarks may ignore this flag and bookmarks are sent at the server's discretion. Clients should not assume bookmarks are returned at any specific interval, nor may they assume the server will send any BOOKMARK event during a session. If this is not a watch, this field is ignored.");
const CONTINUE: Param = query("continue", "string", "The continue option should be set when retrieving more results from the server. Since this value is server defined, clients may only use the continue value from a previous query result with identical query parameters (except for the value of continue) and the server may reject a continue value it does not recognize. If the specified continue value is no longer valid whether due to expiration (generally five to fifteen minutes) or a configuration change on the server, the server will respond with a 410 ResourceExpired error together with a continue token. If the client needs a consistent list, it must restart their list without the continue field. Otherwise, the client may send another list request with the token received with the 410 error, the server will respond with a list starting from the next key, but from the latest snapshot, which is inconsistent from the previous list results - objects that are created, modified, or deleted after the first list request will be included in the response, as long as their keys are after the \"next key\".\n\nThis field is not supported when watch is true. Clients may start a watch from the last resourceVersion value returned by the server and not miss any modifications.");
const FIELD_SELECTOR: Param = query(
    "fieldSelector",
    "string",
    "A selector to restrict the list of returned objects by their fields. Defaults to everything.",
);
const LABEL_SELECTOR: Param = query(
    "labelSelector",
    "string",
    "A selector to restrict the list of returned objects by their labels. Defaults to everything.",
);
const LIMIT: Param = query("limit", "integer", "limit is a maximum number of responses to return for a list call. If more items exist, the server will set the `continue` field on the list metadata to a value that can be used with the same initial query to retrieve the next set of results. Setting a limit may return fewer than the requested amount of items (up to zero items) in the event all requested objects are filtered out and clients should only use the presence of the continue field to determine whether more results are available. Servers may choose not to support the limit argument and will return all of the available results. If limit is specified and the continue field is empty, clients may assume that no more results are available. This field is not supported if watch is true.\n\nThe server guarantees that the objects returned when using continue will be identical to issuing a single list call without a limit - that is, no objects created, modified, or deleted after the first request is issued will be included in any subsequent continued requests. This is sometimes referred to as a consistent snapshot, and ensures that a client that is using limit to receive smaller chunks of a very large result can ensure they see all possible objects. If objects are updated during a chunked list the version of the object that was present at the time the first list result was calculated is returned.");
const RESOURCE_VERSION: Param = query("resourceVersion", "string", "resourceVersion sets a constraint on what resource versions a request may be served from. See https://kubernetes.io/docs/reference/using-api/api-concepts/#resource-versions for details.\n\nDefaults to unset");
const RESOURCE_VERSION_MATCH: Param = query("resourceVersionMatch", "string", "resourceVersionMatch determines how resourceVersion is applied to list calls. It is highly recommended that resourceVersionMatch be set for list calls where resourceVersion is set See https://kubernetes.io/docs/reference/using-api/api-concepts/#resource-versions for details.\n\nDefaults to unset");
const SEND_INITIAL_EVENTS: Param = query("sendInitialEvents", "boolean", "`sendInitialEvents=true` may be set together with `watch=true`. In that case, the watch stream will begin with synthetic events to produce the current state of objects in the collection. Once all such events have been sent, a synthetic \"Bookmark\" event  will be sent. The bookmark will report the ResourceVersion (RV) corresponding to the set of objects, and be marked with `\"k8s.io/initial-events-end\": \"true\"` annotation. Afterwards, the watch stream will proceed as usual, sending watch events corresponding to changes (subsequent to the RV) to objects watched.\n\nWhen `sendInitialEvents` option is set, we require `resourceVersionMatch` option to also be set. The semantic of the watch request is as following: - `resourceVersionMatch` = NotOlderThan\n  is interpreted as \"data at least as new as the provided `resourceVersion`\"\n  and the bookmark event is send when the state is synced\n  to a `resourceVersion` at least as fresh as the one provided by the ListOptions.\n  If `resourceVersion` is unset, this is interpreted as \"consistent read\" and the\n  bookmark event is send when the state is synced at least to the moment\n  when request started being processed.\n- `resourceVersionMatch` set to any other value or unset\n  Invalid error is returned.\n\nDefaults to true if `resourceVersion=\"\"` or `resourceVersion=\"0\"` (for backward compatibility reasons) and to false otherwise.");
const TIMEOUT_SECONDS: Param = query("timeoutSeconds", "integer", "Timeout for the list/watch call. This limits the duration of the call, regardless of any activity or inactivity.");
const WATCH: Param = query("watch", "boolean", "Watch for changes to the described resources and return them as a stream of add, update, and remove notifications. Specify resourceVersion.");

const DRY_RUN: Param = query("dryRun", "string", "When present, indicates that modifications should not be persisted. An invalid or unrecognized dryRun directive will result in an error response and no further processing of the request. Valid values are: - All: all dry run stages will be processed");
const FIELD_MANAGER: Param = query("fieldManager", "string", "fieldManager is a name associated with the actor or entity that is making these changes. The value must be less than or 128 characters long, and only contain printable characters, as defined by https://golang.org/pkg/unicode/#IsPrint.");
const FIELD_MANAGER_PATCH: Param = query("fieldManager", "string", "fieldManager is a name associated with the actor or entity that is making these changes. The value must be less than or 128 characters long, and only contain printable characters, as defined by https://golang.org/pkg/unicode/#IsPrint. This field is required for apply requests (application/apply-patch) but optional for non-apply patch types (JsonPatch, MergePatch, StrategicMergePatch).");
/// The parameter kubectl's `--validate=strict` probe looks for on PATCH operations.
const FIELD_VALIDATION: Param = query("fieldValidation", "string", "fieldValidation instructs the server on how to handle objects in the request (POST/PUT/PATCH) containing unknown or duplicate fields. Valid values are: - Ignore: This will ignore any unknown fields that are silently dropped from the object, and will ignore all but the last duplicate field that the decoder encounters. This is the default behavior prior to v1.23. - Warn: This will send a warning via the standard warning response header for each unknown field that is dropped from the object, and for each duplicate field that is encountered. The request will still succeed if there are no other errors, and will only persist the last of any duplicate fields. This is the default in v1.23+ - Strict: This will fail the request with a BadRequest error if any unknown fields would be dropped from the object, or if any duplicate fields are present. The error returned from the server will contain all unknown and duplicate fields encountered.");
const FORCE: Param = query("force", "boolean", "Force is going to \"force\" Apply requests. It means user will re-acquire conflicting fields owned by other people. Force flag must be unset for non-apply patch requests.");
const GRACE_PERIOD_SECONDS: Param = query("gracePeriodSeconds", "integer", "The duration in seconds before the object should be deleted. Value must be non-negative integer. The value zero indicates delete immediately. If this value is nil, the default grace period for the specified type will be used. Defaults to a per object value if not specified. zero means delete immediately.");
const IGNORE_STORE_READ_ERROR: Param = query("ignoreStoreReadErrorWithClusterBreakingPotential", "boolean", "if set to true, it will trigger an unsafe deletion of the resource in case the normal deletion flow fails with a corrupt object error. A resource is considered corrupt if it can not be retrieved from the underlying storage successfully because of a) its data can not be transformed e.g. decryption failure, or b) it fails to decode into an object. NOTE: unsafe deletion ignores finalizer constraints, skips precondition checks, and removes the object from the storage. WARNING: This may potentially break the cluster if the workload associated with the resource being unsafe-deleted relies on normal deletion flow. Use only if you REALLY know what you are doing. The default value is false, and the user must opt in to enable it");
const ORPHAN_DEPENDENTS: Param = query("orphanDependents", "boolean", "Deprecated: please use the PropagationPolicy, this field will be deprecated in 1.7. Should the dependent objects be orphaned. If true/false, the \"orphan\" finalizer will be added to/removed from the object's finalizers list. Either this field or PropagationPolicy may be set, but not both.");
const PROPAGATION_POLICY: Param = query("propagationPolicy", "string", "Whether and how garbage collection will be performed. Either this field or OrphanDependents may be set, but not both. The default policy is decided by the existing finalizer set in the metadata.finalizers and the resource-specific default policy. Acceptable values are: 'Orphan' - orphan the dependents; 'Background' - allow the garbage collector to delete the dependents in the background; 'Foreground' - a cascading policy that deletes all dependents in the foreground.");

/// ListOptions as list and watch operations expose them.
pub(super) const LIST_PARAMS: &[Param] = &[
    ALLOW_WATCH_BOOKMARKS,
    CONTINUE,
    FIELD_SELECTOR,
    LABEL_SELECTOR,
    LIMIT,
    RESOURCE_VERSION,
    RESOURCE_VERSION_MATCH,
    SEND_INITIAL_EVENTS,
    TIMEOUT_SECONDS,
    WATCH,
];
/// ListOptions minus the watch-only ones, plus DeleteOptions, for deletecollection.
pub(super) const DELETE_COLLECTION_PARAMS: &[Param] = &[
    CONTINUE,
    DRY_RUN,
    FIELD_SELECTOR,
    GRACE_PERIOD_SECONDS,
    IGNORE_STORE_READ_ERROR,
    LABEL_SELECTOR,
    LIMIT,
    ORPHAN_DEPENDENTS,
    PROPAGATION_POLICY,
    RESOURCE_VERSION,
    RESOURCE_VERSION_MATCH,
    SEND_INITIAL_EVENTS,
    TIMEOUT_SECONDS,
];
/// CreateOptions (POST).
pub(super) const CREATE_PARAMS: &[Param] = &[DRY_RUN, FIELD_MANAGER, FIELD_VALIDATION];
/// UpdateOptions (PUT).
pub(super) const UPDATE_PARAMS: &[Param] = &[DRY_RUN, FIELD_MANAGER, FIELD_VALIDATION];
/// PatchOptions: what kubectl's `fieldValidation` probe inspects.
pub(super) const PATCH_PARAMS: &[Param] = &[DRY_RUN, FIELD_MANAGER_PATCH, FIELD_VALIDATION, FORCE];
/// DeleteOptions as query parameters (DELETE on one object).
pub(super) const DELETE_PARAMS: &[Param] = &[
    DRY_RUN,
    GRACE_PERIOD_SECONDS,
    IGNORE_STORE_READ_ERROR,
    ORPHAN_DEPENDENTS,
    PROPAGATION_POLICY,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operation_parameter_sets() {
        let names = |ps: &[Param]| ps.iter().map(|p| p.name).collect::<Vec<_>>().join(",");
        let cases: &[(&[Param], &str)] = &[
            (LIST_PARAMS, "allowWatchBookmarks,continue,fieldSelector,labelSelector,limit,resourceVersion,resourceVersionMatch,sendInitialEvents,timeoutSeconds,watch"),
            (CREATE_PARAMS, "dryRun,fieldManager,fieldValidation"),
            (UPDATE_PARAMS, "dryRun,fieldManager,fieldValidation"),
            (PATCH_PARAMS, "dryRun,fieldManager,fieldValidation,force"),
            (DELETE_PARAMS, "dryRun,gracePeriodSeconds,ignoreStoreReadErrorWithClusterBreakingPotential,orphanDependents,propagationPolicy"),
        ];
        for (set, want) in cases {
            assert_eq!(names(set), *want);
            assert!(set.iter().all(|p| p.location == "query"));
        }
        // deletecollection takes ListOptions except the watch-only ones.
        for p in DELETE_COLLECTION_PARAMS {
            assert!(p.name != "watch" && p.name != "allowWatchBookmarks");
        }
    }

    #[test]
    fn parameter_json_shape() {
        let cases: &[(Param, &str, &str)] = &[
            (
                FORCE,
                "x",
                r#"{"name":"force","in":"query","description":"x","schema":{"type":"boolean","uniqueItems":true}}"#,
            ),
            (
                NAMESPACE,
                "ns",
                r#"{"name":"namespace","in":"path","description":"ns","required":true,"schema":{"type":"string","uniqueItems":true}}"#,
            ),
            (
                LIMIT,
                "l",
                r#"{"name":"limit","in":"query","description":"l","schema":{"type":"integer","uniqueItems":true}}"#,
            ),
        ];
        for (p, d, want) in cases {
            assert_eq!(serde_json::to_string(&p.to_json(d)).unwrap(), *want);
        }
    }
}
