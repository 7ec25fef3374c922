//! OpenAPI v3: the `/openapi/v3` index and one document per path key (`api/v1`,
//! `apis/apps/v1`, plus the small discovery documents `api`, `apis`, `apis/<group>` and
//! `version`), generated from the resource registry and the kind schemas.
//!
//! kubectl needs these for `create`/`apply`/`replace` with the default `--validate=strict`
//! (it looks for a `fieldValidation` query parameter on the kind's PATCH operation before
//! trusting the server to validate), for client-side apply's strategic merge patch (it reads
//! `x-kubernetes-patch-*` from the schemas) and for `explain`. Generating them from the same
//! tables the engine validates with keeps what kubesim advertises equal to what it enforces.
//!
//! The index follows kube-openapi's `handler3`: each key maps to
//! `/openapi/v3/<key>?hash=<uppercase hex SHA-512 of the document's JSON>`, and the document
//! handler redirects (301) to the current hash when a stale one is asked for.

mod meta;
mod params;
mod paths;
mod schemas;

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::{json, Map, Value};

use crate::features::FeatureGates;
use crate::resources::Kinds;

/// The `info.version` of every document: the server's release, as a released kube-apiserver
/// reports it (the checked-in upstream specs say `unversioned` only because they come from an
/// unversioned build).
fn info_version() -> Value {
    crate::api::discovery::version_info()["gitVersion"].clone()
}

/// The keys `/openapi/v3` lists, sorted: `api`, `api/v1`, `apis`, `apis/<group>`,
/// `apis/<group>/<version>` for every served group-version, and `version`.
pub fn document_keys(kinds: &Kinds) -> Vec<String> {
    let mut keys = vec!["api".to_string(), "apis".to_string(), "version".to_string()];
    for r in kinds.iter() {
        let gv = if r.group.is_empty() {
            format!("api/{}", r.version)
        } else {
            keys.push(format!("apis/{}", r.group));
            format!("apis/{}/{}", r.group, r.version)
        };
        keys.push(gv);
    }
    keys.sort();
    keys.dedup();
    keys
}

/// `GET /openapi/v3`: `{"paths": {<key>: {"serverRelativeURL": "/openapi/v3/<key>?hash=<H>"}}}`
/// with keys sorted (Go marshals the map sorted) and `H` = [`document_hash_with`] of that key.
pub fn index_with(kinds: &Kinds, gates: &FeatureGates) -> Value {
    let paths: Map<String, Value> = documents(kinds, gates)
        .iter()
        .map(|(key, (_, hash))| {
            let url = format!("/openapi/v3/{key}?hash={hash}");
            (key.clone(), json!({ "serverRelativeURL": url }))
        })
        .collect();
    json!({ "paths": paths })
}

/// The uppercase hex SHA-512 of `serde_json::to_vec` of the key's document — the `hash` query
/// parameter of its index URL and the document's `ETag` (quoted). The document handler compares
/// a request's `hash` with it and redirects (301) to the current URL on a mismatch, as
/// kube-openapi does. `None` for unknown keys.
pub fn document_hash_with(kinds: &Kinds, path_key: &str, gates: &FeatureGates) -> Option<String> {
    documents(kinds, gates)
        .get(path_key)
        .map(|(_, h)| h.clone())
}

/// The hash of an already built document (see [`document_hash_with`]).
pub fn hash_of(doc: &Value) -> String {
    crate::api::discovery::sha512_upper_hex(&serde_json::to_vec(doc).unwrap_or_default())
}

/// `GET /openapi/v3/<path_key>`: the OpenAPI 3.0.0 document, or `None` when the key is not
/// served. `path_key` has no leading slash (`api/v1`, `apis/apps/v1`). The CBOR media types
/// (`application/cbor`, `application/cbor-seq`, `application/apply-patch+cbor`) are listed only
/// when `CBORServingAndStorage` is on, as the server derives them from its serializers.
pub fn group_version_document_with(
    kinds: &Kinds,
    path_key: &str,
    gates: &FeatureGates,
) -> Option<Value> {
    documents(kinds, gates)
        .get(path_key)
        .map(|(doc, _)| doc.clone())
}

/// Every document with its hash. Documents are a pure function of the served kinds and the
/// CBOR gate, so they are built once per (kind set, CBOR setting) and shared: a kind
/// registered at runtime gives a new kind set, hence new documents and hashes.
fn documents(kinds: &Kinds, gates: &FeatureGates) -> Arc<BTreeMap<String, (Value, String)>> {
    type Docs = Arc<BTreeMap<String, (Value, String)>>;
    static CACHE: OnceLock<Mutex<HashMap<(String, bool), Docs>>> = OnceLock::new();
    let cbor = gates.enabled("CBORServingAndStorage");
    let identity: String = kinds
        .iter()
        .map(|r| format!("{}/{}/{};", r.group, r.version, r.plural))
        .collect();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    cache
        .entry((identity, cbor))
        .or_insert_with(|| {
            Arc::new(
                document_keys(kinds)
                    .into_iter()
                    .filter_map(|key| {
                        let mut doc = build(kinds, &key)?;
                        if !cbor {
                            strip_cbor(&mut doc);
                        }
                        let hash = hash_of(&doc);
                        Some((key, (doc, hash)))
                    })
                    .collect(),
            )
        })
        .clone()
}

/// Removes the CBOR media types from every `content` map (responses and request bodies).
fn strip_cbor(v: &mut Value) {
    match v {
        Value::Object(m) => {
            if let Some(Value::Object(content)) = m.get_mut("content") {
                content.retain(|media, _| !media.contains("cbor"));
            }
            m.values_mut().for_each(strip_cbor);
        }
        Value::Array(a) => a.iter_mut().for_each(strip_cbor),
        _ => {}
    }
}

/// Builds the document of one key (all media types included).
fn build(kinds: &Kinds, path_key: &str) -> Option<Value> {
    let parts: Vec<&str> = path_key.split('/').collect();
    match parts.as_slice() {
        ["api"] => Some(discovery_document(
            kinds,
            "/api/",
            paths::discovery_path(
                "core",
                "get available API versions",
                "getCoreAPIVersions",
                meta::API_VERSIONS.openapi_name,
                DISCOVERY_TYPES,
                false,
            ),
        )),
        ["apis"] => Some(discovery_document(
            kinds,
            "/apis/",
            paths::discovery_path(
                "apis",
                "get available API versions",
                "getAPIVersions",
                meta::API_GROUP_LIST.openapi_name,
                DISCOVERY_TYPES,
                true,
            ),
        )),
        ["version"] => Some(discovery_document(
            kinds,
            "/version/",
            paths::discovery_path(
                "version",
                "get the version information for this server",
                "getCodeVersion",
                meta::VERSION_INFO.openapi_name,
                &["application/json"],
                true,
            ),
        )),
        ["apis", group] if kinds.serves_group(group) => {
            let id = format!("get{}APIGroup", paths::group_camel(group));
            Some(discovery_document(
                kinds,
                &format!("/apis/{group}/"),
                paths::discovery_path(
                    &paths::group_tag(group),
                    "get information of a group",
                    &id,
                    meta::API_GROUP.openapi_name,
                    DISCOVERY_TYPES,
                    true,
                ),
            ))
        }
        ["api", version] => resource_document(kinds, "", version),
        ["apis", group, version] => resource_document(kinds, group, version),
        _ => None,
    }
}

/// Media types of the discovery endpoints' responses.
const DISCOVERY_TYPES: &[&str] = &[
    "application/json",
    "application/vnd.kubernetes.protobuf",
    "application/yaml",
];

/// The document of one served group-version: its resources' paths, the `APIResourceList`
/// path, and the schemas they reference.
fn resource_document(kinds: &Kinds, group: &str, version: &str) -> Option<Value> {
    if !kinds.serves_group_version(group, version) {
        return None;
    }
    let mut all: BTreeMap<String, Value> = BTreeMap::new();
    let (k, v) = paths::api_resources_path(group, version);
    all.insert(k, v);
    for r in kinds
        .iter()
        .filter(|r| r.group == group && r.version == version)
    {
        all.extend(paths::resource_paths(r));
    }
    let mut doc = document(kinds, all.into_iter().collect());
    // The option kinds name core v1 and this document's own group-version only.
    for kind in ["DeleteOptions", "WatchEvent"] {
        let name = format!("io.k8s.apimachinery.pkg.apis.meta.v1.{kind}");
        if let Some(schema) = doc["components"]["schemas"].get_mut(&name) {
            schema["x-kubernetes-group-version-kind"] =
                schemas::option_kind_gvks(group, version, kind);
        }
    }
    Some(doc)
}

/// A discovery endpoint's one-path document.
fn discovery_document(kinds: &Kinds, path: &str, item: Value) -> Value {
    let mut paths = Map::new();
    paths.insert(path.to_string(), item);
    document(kinds, paths)
}

/// `{"openapi", "info", "paths", "components"}` in kube-openapi's `OpenAPI` struct order, with
/// `components.schemas` the closure of every schema the paths reference.
fn document(kinds: &Kinds, paths: Map<String, Value>) -> Value {
    let mut roots = Vec::new();
    schemas::collect_refs(&Value::Object(paths.clone()), &mut roots);
    let schemas = schemas::closure(kinds, roots);
    json!({
        "openapi": "3.0.0",
        "info": {"title": "Kubernetes", "version": info_version()},
        "paths": paths,
        "components": {
            "schemas": schemas,
            "securitySchemes": {
                "BearerToken": {
                    "type": "apiKey",
                    "description": "Bearer Token authentication",
                    "name": "authorization",
                    "in": "header"
                }
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // The documents of the built-in kinds under the default feature gates.
    /// `GET /openapi/v3` with the default feature gates (see [`index_with`]).
    pub fn index() -> Value {
        index_with(&Kinds::builtin(), &FeatureGates::default())
    }

    /// [`document_hash_with`] under the default feature gates.
    pub fn document_hash(path_key: &str) -> Option<String> {
        document_hash_with(&Kinds::builtin(), path_key, &FeatureGates::default())
    }

    /// `GET /openapi/v3/<path_key>` under the default feature gates (see
    /// [`group_version_document_with`]).
    pub fn group_version_document(path_key: &str) -> Option<Value> {
        group_version_document_with(&Kinds::builtin(), path_key, &FeatureGates::default())
    }

    use crate::resources;

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
            let want = format!(
                "/openapi/v3/{key}?hash={}",
                crate::api::discovery::sha512_upper_hex(&serde_json::to_vec(&doc).unwrap())
            );
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
        let keys: Vec<&str> = doc
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(keys, ["openapi", "info", "paths", "components"]);
        assert_eq!(doc["openapi"], "3.0.0");
        assert_eq!(doc["info"]["title"], "Kubernetes");
        let paths: Vec<&str> = doc["paths"]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
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
        let schemas: Vec<&str> = doc["components"]["schemas"]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
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
            let key = if r.group.is_empty() {
                format!("api/{}", r.version)
            } else {
                format!("apis/{}/{}", r.group, r.version)
            };
            let doc = group_version_document(&key).unwrap();
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
            let key = if r.group.is_empty() {
                format!("api/{}", r.version)
            } else {
                format!("apis/{}/{}", r.group, r.version)
            };
            let doc = group_version_document(&key).unwrap();
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
        let keys = |v: &Value| -> Vec<String> { v.as_object().unwrap().keys().cloned().collect() };
        for (gates, patch, listed) in cases {
            let doc =
                group_version_document_with(&Kinds::builtin(), "apis/apps/v1", gates).unwrap();
            assert_eq!(
                keys(&doc["paths"][item]["patch"]["requestBody"]["content"]),
                *patch
            );
            assert_eq!(
                keys(&doc["paths"][list]["get"]["responses"]["200"]["content"]),
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
}
