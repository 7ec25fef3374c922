//! Unit tests of `paths`.

use super::*;
use crate::api::openapi::tests::member_names;
use crate::resources::{CONTROLLER_REVISIONS, NAMESPACES};

#[test]
fn ids_and_tags() {
    let cases: &[(&str, &str, &str, &str)] = &[
        ("", "v1", "CoreV1", "core_v1"),
        ("apps", "v1", "AppsV1", "apps_v1"),
        (
            "rbac.authorization.k8s.io",
            "v1",
            "RbacAuthorizationV1",
            "rbacAuthorization_v1",
        ),
        (
            "authorization.k8s.io",
            "v1",
            "AuthorizationV1",
            "authorization_v1",
        ),
        (
            "apiextensions.k8s.io",
            "v1beta1",
            "ApiextensionsV1beta1",
            "apiextensions_v1beta1",
        ),
    ];
    for (g, v, id, t) in cases {
        assert_eq!(gv_id(g, v), *id);
        assert_eq!(tag(g, v), *t);
    }
}

/// (path, method, operationId, action, own parameters, path-level parameters); parameter
/// lists are comma-separated, `LIST` stands for the ten ListOptions parameters.
type Row = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
);

const LIST: &str = "allowWatchBookmarks,continue,fieldSelector,labelSelector,limit,resourceVersion,resourceVersionMatch,sendInitialEvents,timeoutSeconds,watch";

fn expand(spec: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for part in spec.split(',').filter(|s| !s.is_empty()) {
        if part == "LIST" {
            out.extend(LIST.split(',').map(String::from));
        } else {
            out.push(part.to_string());
        }
    }
    out.sort();
    out
}

fn check(r: &ResourceInfo, rows: &[Row], npaths: usize) {
    let paths = resource_paths(r);
    assert_eq!(
        paths.len(),
        npaths,
        "{:?}",
        paths.keys().collect::<Vec<_>>()
    );
    let names = |v: &Value| -> Vec<String> {
        v.as_array()
            .map(|a| {
                a.iter()
                    .map(|p| p["name"].as_str().unwrap().to_string())
                    .collect()
            })
            .unwrap_or_default()
    };
    for (path, method, id, action, own, shared) in rows {
        let item = paths.get(*path).unwrap_or_else(|| panic!("{path} missing"));
        let op = &item[*method];
        assert_eq!(op["operationId"], *id, "{path} {method}");
        assert_eq!(op["x-kubernetes-action"], *action, "{path} {method}");
        assert_eq!(names(&op["parameters"]), expand(own), "{path} {method}");
        assert_eq!(names(&item["parameters"]), expand(shared), "{path}");
        assert_eq!(op["x-kubernetes-group-version-kind"]["kind"], r.kind);
    }
}

const DELETE_OPTS: &str =
    "dryRun,gracePeriodSeconds,ignoreStoreReadErrorWithClusterBreakingPotential,orphanDependents,propagationPolicy";
const WRITE: &str = "dryRun,fieldManager,fieldValidation";
const PATCH: &str = "dryRun,fieldManager,fieldValidation,force";

#[test]
fn controller_revision_operations() {
    let ns = "/apis/apps/v1/namespaces/{namespace}/controllerrevisions";
    let item = "/apis/apps/v1/namespaces/{namespace}/controllerrevisions/{name}";
    let delete_collection = "continue,dryRun,fieldSelector,gracePeriodSeconds,ignoreStoreReadErrorWithClusterBreakingPotential,labelSelector,limit,orphanDependents,propagationPolicy,resourceVersion,resourceVersionMatch,sendInitialEvents,timeoutSeconds";
    let rows: &[Row] = &[
        (
            ns,
            "delete",
            "deleteAppsV1CollectionNamespacedControllerRevision",
            "deletecollection",
            delete_collection,
            "namespace,pretty",
        ),
        (
            ns,
            "get",
            "listAppsV1NamespacedControllerRevision",
            "list",
            "LIST",
            "namespace,pretty",
        ),
        (
            ns,
            "post",
            "createAppsV1NamespacedControllerRevision",
            "post",
            WRITE,
            "namespace,pretty",
        ),
        (
            item,
            "delete",
            "deleteAppsV1NamespacedControllerRevision",
            "delete",
            DELETE_OPTS,
            "name,namespace,pretty",
        ),
        (
            item,
            "get",
            "readAppsV1NamespacedControllerRevision",
            "get",
            "",
            "name,namespace,pretty",
        ),
        (
            item,
            "patch",
            "patchAppsV1NamespacedControllerRevision",
            "patch",
            PATCH,
            "name,namespace,pretty",
        ),
        (
            item,
            "put",
            "replaceAppsV1NamespacedControllerRevision",
            "put",
            WRITE,
            "name,namespace,pretty",
        ),
        (
            "/apis/apps/v1/controllerrevisions",
            "get",
            "listAppsV1ControllerRevisionForAllNamespaces",
            "list",
            "",
            "LIST,pretty",
        ),
        (
            "/apis/apps/v1/watch/controllerrevisions",
            "get",
            "watchAppsV1ControllerRevisionListForAllNamespaces",
            "watchlist",
            "",
            "LIST,pretty",
        ),
        (
            "/apis/apps/v1/watch/namespaces/{namespace}/controllerrevisions",
            "get",
            "watchAppsV1NamespacedControllerRevisionList",
            "watchlist",
            "",
            "LIST,namespace,pretty",
        ),
        (
            "/apis/apps/v1/watch/namespaces/{namespace}/controllerrevisions/{name}",
            "get",
            "watchAppsV1NamespacedControllerRevision",
            "watch",
            "",
            "LIST,name,namespace,pretty",
        ),
    ];
    check(&CONTROLLER_REVISIONS, rows, 6);
}

#[test]
fn namespace_operations() {
    let item = "/api/v1/namespaces/{name}";
    let status = "/api/v1/namespaces/{name}/status";
    let rows: &[Row] = &[
        (
            "/api/v1/namespaces",
            "get",
            "listCoreV1Namespace",
            "list",
            "LIST",
            "pretty",
        ),
        (
            "/api/v1/namespaces",
            "post",
            "createCoreV1Namespace",
            "post",
            WRITE,
            "pretty",
        ),
        (
            item,
            "delete",
            "deleteCoreV1Namespace",
            "delete",
            DELETE_OPTS,
            "name,pretty",
        ),
        (
            item,
            "patch",
            "patchCoreV1Namespace",
            "patch",
            PATCH,
            "name,pretty",
        ),
        (
            status,
            "get",
            "readCoreV1NamespaceStatus",
            "get",
            "",
            "name,pretty",
        ),
        (
            status,
            "patch",
            "patchCoreV1NamespaceStatus",
            "patch",
            PATCH,
            "name,pretty",
        ),
        (
            status,
            "put",
            "replaceCoreV1NamespaceStatus",
            "put",
            WRITE,
            "name,pretty",
        ),
        // A path with a single operation has all its parameters hoisted.
        (
            "/api/v1/namespaces/{name}/finalize",
            "put",
            "replaceCoreV1NamespaceFinalize",
            "put",
            "",
            "dryRun,fieldManager,fieldValidation,name,pretty",
        ),
        (
            "/api/v1/watch/namespaces",
            "get",
            "watchCoreV1NamespaceList",
            "watchlist",
            "",
            "LIST,pretty",
        ),
        (
            "/api/v1/watch/namespaces/{name}",
            "get",
            "watchCoreV1Namespace",
            "watch",
            "",
            "LIST,name,pretty",
        ),
    ];
    check(&NAMESPACES, rows, 6);
    // No deletecollection verb, so no DELETE on the collection.
    let paths = resource_paths(&NAMESPACES);
    assert!(paths["/api/v1/namespaces"].get("delete").is_none());
    assert_eq!(
        paths[status]["get"]["description"],
        "read status of the specified Namespace"
    );
}

#[test]
fn operation_key_order_and_patch_body() {
    let paths = resource_paths(&CONTROLLER_REVISIONS);
    let item = &paths["/apis/apps/v1/namespaces/{namespace}/controllerrevisions/{name}"];
    let methods = member_names(item);
    assert_eq!(methods, ["get", "put", "delete", "patch", "parameters"]);
    let patch = &item["patch"];
    let keys = member_names(patch);
    assert_eq!(
        keys,
        [
            "tags",
            "description",
            "operationId",
            "parameters",
            "requestBody",
            "responses",
            "x-kubernetes-action",
            "x-kubernetes-group-version-kind"
        ]
    );
    let types = member_names(&patch["requestBody"]["content"]);
    assert_eq!(types, PATCH_TYPES);
    assert_eq!(patch["requestBody"]["required"], true);
    assert_eq!(
        serde_json::to_string(&patch["x-kubernetes-group-version-kind"]).unwrap(),
        r#"{"group":"apps","version":"v1","kind":"ControllerRevision"}"#
    );
    let fv = patch["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "fieldValidation")
        .unwrap();
    assert_eq!(
        serde_json::to_string(&fv["schema"]).unwrap(),
        r#"{"type":"string","uniqueItems":true}"#
    );
    assert_eq!(fv["in"], "query");
    let codes = member_names(&patch["responses"]);
    assert_eq!(codes, ["200", "201", "401"]);
    let name = item["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "name")
        .unwrap();
    assert_eq!(
        serde_json::to_string(name).unwrap(),
        r#"{"name":"name","in":"path","description":"name of the ControllerRevision","required":true,"schema":{"type":"string","uniqueItems":true}}"#
    );
}
