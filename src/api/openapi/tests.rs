//! The OpenAPI documents as a whole: index, hashes, per-group-version documents.

use super::*;

// The documents of the built-in kinds under the default feature gates.
/// `GET /openapi/v3` with the default feature gates (see [`index_with`]).
pub fn index() -> Value {
    index_with(&Kinds::builtin(), &FeatureGates::default())
}

/// The hash of `path_key`'s document with `gates` (see [`document_with`]).
fn document_hash_with(kinds: &Kinds, path_key: &str, gates: &FeatureGates) -> Option<String> {
    document_with(kinds, path_key, gates).map(|(_, hash)| hash)
}

/// `path_key`'s document with `gates` (see [`document_with`]).
fn group_version_document_with(
    kinds: &Kinds,
    path_key: &str,
    gates: &FeatureGates,
) -> Option<Value> {
    document_with(kinds, path_key, gates).map(|(doc, _)| doc.decode())
}

/// The hash of `path_key`'s document under the default feature gates.
pub fn document_hash(path_key: &str) -> Option<String> {
    document_hash_with(&Kinds::builtin(), path_key, &FeatureGates::default())
}

/// `GET /openapi/v3/<path_key>` under the default feature gates.
pub fn group_version_document(path_key: &str) -> Option<Value> {
    group_version_document_with(&Kinds::builtin(), path_key, &FeatureGates::default())
}

use crate::resources;

/// An object's member names, in order.
pub fn member_names(v: &Value) -> Vec<&str> {
    v.as_object()
        .map(|m| m.keys().map(String::as_str).collect())
        .unwrap_or_default()
}

#[test]
fn index_lists_every_document_with_its_hash() {
    let idx = index();
    let paths = idx["paths"].as_object().unwrap();
    let keys: Vec<&str> = paths.keys().map(String::as_str).collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted);
    for must in [
        "api",
        "api/v1",
        "apis",
        "apis/apps",
        "apis/apps/v1",
        "version",
    ] {
        assert!(keys.contains(&must), "{must}");
    }
    for (key, entry) in paths {
        let url = entry["serverRelativeURL"].as_str().unwrap();
        let doc = group_version_document(key).unwrap();
        let want = format!("/openapi/v3/{key}?hash={}", hash_of(&doc));
        assert_eq!(url, want);
        let hash = url.rsplit('=').next().unwrap();
        assert_eq!(hash.len(), 128);
        assert!(hash
            .chars()
            .all(|c| c.is_ascii_digit() || c.is_ascii_uppercase()));
        // Deterministic: the same bytes every time.
        assert_eq!(document_hash(key).unwrap(), hash);
    }
}

#[test]
fn documents_served_and_not_served() {
    let cases: &[(&str, bool)] = &[
        ("api", true),
        ("api/v1", true),
        ("apis", true),
        ("apis/apps", true),
        ("apis/apps/v1", true),
        ("version", true),
        ("apis/apps/v2", false),
        ("apis/batch/v1", false),
        ("apis/batch", false),
        ("api/v2", false),
        ("", false),
        ("apis/apps/v1/extra", false),
        ("logs", false),
    ];
    for (key, served) in cases {
        assert_eq!(group_version_document(key).is_some(), *served, "{key}");
    }
}

#[test]
fn document_top_level_shape() {
    let doc = group_version_document("apis/apps/v1").unwrap();
    let keys = member_names(&doc);
    assert_eq!(keys, ["openapi", "info", "paths", "components"]);
    assert_eq!(doc["openapi"], "3.0.0");
    assert_eq!(doc["info"]["title"], "Kubernetes");
    let paths = member_names(&doc["paths"]);
    assert_eq!(
        paths,
        [
            "/apis/apps/v1/",
            "/apis/apps/v1/controllerrevisions",
            "/apis/apps/v1/namespaces/{namespace}/controllerrevisions",
            "/apis/apps/v1/namespaces/{namespace}/controllerrevisions/{name}",
            "/apis/apps/v1/watch/controllerrevisions",
            "/apis/apps/v1/watch/namespaces/{namespace}/controllerrevisions",
            "/apis/apps/v1/watch/namespaces/{namespace}/controllerrevisions/{name}",
        ]
    );
    let schemas = member_names(&doc["components"]["schemas"]);
    for must in [
        "io.k8s.api.apps.v1.ControllerRevision",
        "io.k8s.api.apps.v1.ControllerRevisionList",
        "io.k8s.apimachinery.pkg.apis.meta.v1.APIResource",
        "io.k8s.apimachinery.pkg.apis.meta.v1.APIResourceList",
        "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions",
        "io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1",
        "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta",
        "io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry",
        "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
        "io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference",
        "io.k8s.apimachinery.pkg.apis.meta.v1.Patch",
        "io.k8s.apimachinery.pkg.apis.meta.v1.Preconditions",
        "io.k8s.apimachinery.pkg.apis.meta.v1.Status",
        "io.k8s.apimachinery.pkg.apis.meta.v1.StatusCause",
        "io.k8s.apimachinery.pkg.apis.meta.v1.StatusDetails",
        "io.k8s.apimachinery.pkg.apis.meta.v1.Time",
        "io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent",
        "io.k8s.apimachinery.pkg.runtime.RawExtension",
    ] {
        assert!(schemas.contains(&must), "{must}");
    }
    // Nothing from other group-versions leaks in.
    assert!(!schemas.iter().any(|s| s.starts_with("io.k8s.api.core.")));
}

#[test]
fn every_ref_resolves() {
    for key in document_keys(&Kinds::builtin()) {
        let doc = group_version_document(&key).unwrap();
        let mut refs = Vec::new();
        schemas::collect_refs(&doc, &mut refs);
        assert!(!refs.is_empty(), "{key}");
        for r in refs {
            assert!(
                doc["components"]["schemas"].get(&r).is_some(),
                "{key}: dangling $ref {r}"
            );
        }
    }
}

/// kubectl's `supportsQueryParamV3`: some path's PATCH operation tagged with the GVK must
/// list `fieldValidation` (in: query) among the operation's own parameters; path-level
/// parameters are not consulted.
#[test]
fn kubectl_field_validation_probe_succeeds_for_every_patchable_kind() {
    for r in resources::ALL.iter().filter(|r| r.supports("patch")) {
        let key = &paths::prefix(r.group, r.version)[1..];
        let doc = group_version_document(key).unwrap();
        let mut found = 0;
        for (_, item) in doc["paths"].as_object().unwrap() {
            let Some(op) = item.get("patch") else {
                continue;
            };
            let gvk = &op["x-kubernetes-group-version-kind"];
            if gvk["group"] != r.group || gvk["version"] != r.version || gvk["kind"] != r.kind {
                continue;
            }
            let ok = op["parameters"].as_array().is_some_and(|ps| {
                ps.iter()
                    .any(|p| p["name"] == "fieldValidation" && p["in"] == "query")
            });
            assert!(ok, "{} PATCH lacks fieldValidation", r.kind);
            assert!(op["requestBody"]["content"]
                .get("application/strategic-merge-patch+json")
                .is_some());
            found += 1;
        }
        assert!(found >= 1, "no PATCH for {}", r.kind);
    }
}

/// kubectl explain: the kind's schema carries its GVK and every property resolves.
#[test]
fn explain_can_find_kinds_by_gvk() {
    for r in resources::ALL {
        let key = &paths::prefix(r.group, r.version)[1..];
        let doc = group_version_document(key).unwrap();
        let hits: Vec<&String> = doc["components"]["schemas"]
            .as_object()
            .unwrap()
            .iter()
            .filter(|(_, s)| {
                s["x-kubernetes-group-version-kind"]
                    .as_array()
                    .is_some_and(|a| {
                        a.iter().any(|g| {
                            g["group"] == r.group
                                && g["version"] == r.version
                                && g["kind"] == r.kind
                        })
                    })
            })
            .map(|(k, _)| k)
            .collect();
        assert_eq!(hits, [r.schema.openapi_name], "{}", r.kind);
    }
}

#[test]
fn cbor_media_types_follow_the_feature_gate() {
    let on = FeatureGates::parse("CBORServingAndStorage=true").unwrap();
    let off = FeatureGates::default();
    let item = "/apis/apps/v1/namespaces/{namespace}/controllerrevisions/{name}";
    let list = "/apis/apps/v1/namespaces/{namespace}/controllerrevisions";
    // (gates, PATCH body types, list response types)
    let cases: &[(&FeatureGates, &[&str], &[&str])] = &[
        (
            &off,
            &[
                "application/apply-patch+yaml",
                "application/json-patch+json",
                "application/merge-patch+json",
                "application/strategic-merge-patch+json",
            ],
            &[
                "application/json",
                "application/json;stream=watch",
                "application/vnd.kubernetes.protobuf",
                "application/vnd.kubernetes.protobuf;stream=watch",
                "application/yaml",
            ],
        ),
        (
            &on,
            &[
                "application/apply-patch+cbor",
                "application/apply-patch+yaml",
                "application/json-patch+json",
                "application/merge-patch+json",
                "application/strategic-merge-patch+json",
            ],
            &[
                "application/cbor",
                "application/cbor-seq",
                "application/json",
                "application/json;stream=watch",
                "application/vnd.kubernetes.protobuf",
                "application/vnd.kubernetes.protobuf;stream=watch",
                "application/yaml",
            ],
        ),
    ];
    for (gates, patch, listed) in cases {
        let doc = group_version_document_with(&Kinds::builtin(), "apis/apps/v1", gates).unwrap();
        assert_eq!(
            member_names(&doc["paths"][item]["patch"]["requestBody"]["content"]),
            *patch
        );
        assert_eq!(
            member_names(&doc["paths"][list]["get"]["responses"]["200"]["content"]),
            *listed
        );
        assert_eq!(
            document_hash_with(&Kinds::builtin(), "apis/apps/v1", gates).unwrap(),
            hash_of(&doc)
        );
    }
    assert_ne!(
        document_hash_with(&Kinds::builtin(), "apis/apps/v1", &on),
        document_hash_with(&Kinds::builtin(), "apis/apps/v1", &off)
    );
    assert_eq!(index(), index_with(&Kinds::builtin(), &off));
}

#[test]
fn discovery_documents() {
    let cases: &[(&str, &str, &str, &str)] = &[
        (
            "api",
            "/api/",
            "getCoreAPIVersions",
            "io.k8s.apimachinery.pkg.apis.meta.v1.APIVersions",
        ),
        (
            "apis",
            "/apis/",
            "getAPIVersions",
            "io.k8s.apimachinery.pkg.apis.meta.v1.APIGroupList",
        ),
        (
            "apis/apps",
            "/apis/apps/",
            "getAppsAPIGroup",
            "io.k8s.apimachinery.pkg.apis.meta.v1.APIGroup",
        ),
        (
            "version",
            "/version/",
            "getCodeVersion",
            "io.k8s.apimachinery.pkg.version.Info",
        ),
    ];
    for (key, path, id, schema) in cases {
        let doc = group_version_document(key).unwrap();
        let op = &doc["paths"][*path]["get"];
        assert_eq!(op["operationId"], *id, "{key}");
        assert_eq!(
            op["responses"]["200"]["content"]["application/json"]["schema"]["$ref"],
            format!("#/components/schemas/{schema}"),
            "{key}"
        );
        assert!(doc["components"]["schemas"].get(*schema).is_some(), "{key}");
    }
    let apps = group_version_document("apis/apps").unwrap();
    assert_eq!(apps["paths"]["/apis/apps/"]["get"]["tags"], json!(["apps"]));
}
