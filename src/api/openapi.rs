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

mod custom;
mod lookup;
mod meta;
mod params;
mod paths;
mod schemas;

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::{json, Map, Value};

use crate::codec::Object;
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
        if !r.group.is_empty() {
            keys.push(format!("apis/{}", r.group));
        }
        keys.push(paths::prefix(r.group, r.version)[1..].to_string());
    }
    crate::sort::sort(&mut keys);
    keys.dedup();
    keys
}

/// `GET /openapi/v3`: `{"paths": {<key>: {"serverRelativeURL": "/openapi/v3/<key>?hash=<H>"}}}`
/// with keys sorted (Go marshals the map sorted) and `H` = the key's hash ([`document_with`]).
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

/// The hash of an already built document (see [`document_with`]).
pub fn hash_of(doc: &Value) -> String {
    crate::api::discovery::sha512_upper_hex(&serde_json::to_vec(doc).unwrap_or_default())
}

/// `GET /openapi/v3/<path_key>`: the OpenAPI 3.0.0 document, built once (its JSON written
/// once and copied into every response), and its hash; `None` when the key is not served.
/// `path_key` has no leading slash (`api/v1`, `apis/apps/v1`). The CBOR media types
/// (`application/cbor`, `application/cbor-seq`, `application/apply-patch+cbor`) are listed only
/// when `CBORServingAndStorage` is on, as the server derives them from its serializers. The
/// hash is the uppercase hex SHA-512 of `serde_json::to_vec` of the document: the `hash` query
/// parameter of its index URL and its `ETag` (quoted).
pub fn document_with(
    kinds: &Kinds,
    path_key: &str,
    gates: &FeatureGates,
) -> Option<(Object, String)> {
    documents(kinds, gates).get(path_key).cloned()
}

/// Every document with its hash. Documents are a pure function of the served kinds and the
/// CBOR gate, so they are built once per (kind set, CBOR setting) and shared: a kind
/// registered at runtime gives a new kind set, hence new documents and hashes.
fn documents(kinds: &Kinds, gates: &FeatureGates) -> Arc<BTreeMap<String, (Object, String)>> {
    type Docs = Arc<BTreeMap<String, (Object, String)>>;
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
            Arc::new(crate::sort::btree_map(
                document_keys(kinds).into_iter().filter_map(|key| {
                    let mut doc = build(kinds, &key)?;
                    if !cbor {
                        strip_cbor(&mut doc);
                    }
                    let hash = hash_of(&doc);
                    Some((key, (Object::new(doc), hash)))
                }),
            ))
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
    Some(document(kinds, (group, version), all.into_iter().collect()))
}

/// A discovery endpoint's one-path document.
fn discovery_document(kinds: &Kinds, path: &str, item: Value) -> Value {
    let mut paths = Map::new();
    paths.insert(path.to_string(), item);
    document(kinds, ("", "v1"), paths)
}

/// `{"openapi", "info", "paths", "components"}` in kube-openapi's `OpenAPI` struct order, with
/// `components.schemas` the closure of every schema the paths reference, as seen from the
/// document of `gv`.
fn document(kinds: &Kinds, gv: (&str, &str), paths: Map<String, Value>) -> Value {
    let mut roots = Vec::new();
    schemas::collect_refs(&Value::Object(paths.clone()), &mut roots);
    let schemas = schemas::closure(kinds, gv, roots);
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
mod tests;
