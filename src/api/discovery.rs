//! The discovery documents: `/version`, `/api`, `/apis`, `/apis/<group>`, the per group-version
//! `APIResourceList`s and the aggregated (`apidiscovery.k8s.io/v2`) lists.
//!
//! Every document is generated from the served kinds ([`Kinds`]), so a kind
//! added to the registry is discoverable without touching this file. Field order and `omitempty`
//! follow the Go structs of `k8s.io/apimachinery/pkg/apis/meta/v1` and `k8s.io/api/apidiscovery/v2`
//! exactly, because clients compare and cache these bytes (kubectl's discovery cache, ETags).

use serde_json::{json, Map, Value};

use crate::resources::{Kinds, ResourceInfo};

/// The Content-Type (and the `Accept` clause) of aggregated discovery, without the profile
/// parameter; clients decide between aggregated and legacy discovery purely on this media type.
pub const AGGREGATED_CONTENT_TYPE: &str =
    "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";

/// `GET /version`: what kube-apiserver v1.35.0 reports (`k8s.io/apimachinery/pkg/version.Info`).
///
/// kubesim follows the 1.35 server semantics, so it announces itself as that release; the
/// values are those of the official v1.35.0 build so `kubectl version` prints a real release.
/// kubectl 1.32 only reads `gitVersion`/`major`/`minor` and ignores the newer emulation fields.
pub fn version_info() -> Value {
    json!({
        "major": "1",
        "minor": "35",
        "emulationMajor": "1",
        "emulationMinor": "35",
        "minCompatibilityMajor": "1",
        "minCompatibilityMinor": "34",
        "gitVersion": "v1.35.0",
        "gitCommit": "66452049f3d692768c39c797b21b793dce80314e",
        "gitTreeState": "clean",
        "buildDate": "2025-12-17T12:32:07Z",
        "goVersion": "go1.25.5",
        "compiler": "gc",
        "platform": "linux/amd64"
    })
}

/// `GET /api`: the legacy `APIVersions` document.
///
/// Unlike every other discovery kind it carries no `apiVersion` (the server builds it without
/// setting one), and `serverAddressByClientCIDRs` is always present: the server answers the
/// catch-all CIDR with the address the client used, passed in as `server_address`
/// (`host:port`).
pub fn api_versions(server_address: &str) -> Value {
    json!({
        "kind": "APIVersions",
        "versions": ["v1"],
        "serverAddressByClientCIDRs": [
            {"clientCIDR": "0.0.0.0/0", "serverAddress": server_address}
        ]
    })
}

/// `GET /apis`: the `APIGroupList` of every named group (the core group is not listed), in
/// the registry's group order. Groups inside the list carry no `kind`/`apiVersion`.
pub fn api_group_list(kinds: &Kinds) -> Value {
    let groups: Vec<Value> = legacy_group_names(kinds)
        .into_iter()
        .map(|g| Value::Object(group_body(kinds, g)))
        .collect();
    json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": groups})
}

/// `GET /apis/<group>`: one `APIGroup`, or `None` for a group kubesim does not serve (the real
/// server then answers a plain-text 404).
pub fn api_group(kinds: &Kinds, group: &str) -> Option<Value> {
    if group.is_empty() || !kinds.serves_group(group) {
        return None;
    }
    let mut out = Map::new();
    out.insert("kind".into(), json!("APIGroup"));
    out.insert("apiVersion".into(), json!("v1"));
    out.extend(group_body(kinds, group));
    Some(Value::Object(out))
}

/// `GET /api/v1` (group `""`) or `GET /apis/<group>/<version>`: the `APIResourceList`, or `None`
/// when the group-version is not served.
///
/// Entries are sorted by name as the server sorts them, so a subresource (`namespaces/status`)
/// follows its resource. Subresources have an empty `singularName` and no
/// `storageVersionHash`; resources that are never stored (the `create`-only review kinds) have
/// no `storageVersionHash` either.
pub fn api_resource_list(kinds: &Kinds, group: &str, version: &str) -> Option<Value> {
    let served = resources_in(kinds, group, version);
    if served.is_empty() {
        return None;
    }
    let mut entries: Vec<(String, Value)> = Vec::new();
    for r in served {
        entries.push((r.plural.to_string(), api_resource(r)));
        for sub in r.subresources {
            let name = format!("{}/{}", r.plural, sub.name);
            let mut m = Map::new();
            m.insert("name".into(), json!(name));
            m.insert("singularName".into(), json!(""));
            m.insert("namespaced".into(), json!(r.namespaced));
            let kind = match sub.name {
                "scale" => {
                    m.insert("group".into(), json!("autoscaling"));
                    m.insert("version".into(), json!("v1"));
                    "Scale"
                }
                _ => r.kind,
            };
            m.insert("kind".into(), json!(kind));
            m.insert("verbs".into(), json!(sub.verbs));
            entries.push((name, Value::Object(m)));
        }
    }
    // The CRD handler lists each definition's resource, then `status`, then `scale`, unsorted.
    if !kinds.custom_group(group) {
        crate::sort::sort_by(&mut entries, |a, b| a.0.cmp(&b.0));
    }
    let group_version = if group.is_empty() {
        version.to_string()
    } else {
        format!("{group}/{version}")
    };
    Some(json!({
        "kind": "APIResourceList",
        "apiVersion": "v1",
        "groupVersion": group_version,
        "resources": entries.into_iter().map(|(_, v)| v).collect::<Vec<_>>()
    }))
}

/// Aggregated discovery (`apidiscovery.k8s.io/v2` `APIGroupDiscoveryList`): for `/api` when
/// `core` is true (one item, the unnamed core group), for `/apis` otherwise (one item per named
/// group, in `/apis` order).
///
/// Served when the `Accept` header asks for [`AGGREGATED_CONTENT_TYPE`]; one round trip then
/// replaces the per group-version fetches. No `storageVersionHash` in this format; subresources
/// are nested under their resource.
pub fn aggregated_discovery(kinds: &Kinds, core: bool) -> Value {
    let groups: Vec<&str> = if core { vec![""] } else { group_names(kinds) };
    let items: Vec<Value> = groups
        .into_iter()
        .map(|g| {
            let mut metadata = Map::new();
            if !g.is_empty() {
                metadata.insert("name".into(), json!(g));
            }
            let versions: Vec<Value> = versions_of(kinds, g)
                .into_iter()
                .map(|v| {
                    let mut rs = resources_in(kinds, g, v);
                    crate::sort::sort_by_key(&mut rs, |r| r.plural);
                    let resources: Vec<Value> = rs.into_iter().map(resource_discovery).collect();
                    json!({"version": v, "resources": resources, "freshness": "Current"})
                })
                .collect();
            json!({"metadata": metadata, "versions": versions})
        })
        .collect();
    json!({
        "kind": "APIGroupDiscoveryList",
        "apiVersion": "apidiscovery.k8s.io/v2",
        "metadata": {},
        "items": items
    })
}

/// The `ETag` header value of an aggregated discovery document: the uppercase hex SHA-512 of its
/// compact JSON, in double quotes (`pkg/endpoints/discovery/aggregated/etag.go`). The handler
/// answers 304 when `If-None-Match` equals it, which is how client-go revalidates its cache.
pub fn aggregated_discovery_etag(doc: &Value) -> String {
    format!(
        "\"{}\"",
        sha512_upper_hex(&serde_json::to_vec(doc).unwrap_or_default())
    )
}

/// Uppercase hex SHA-512, the digest format the API server uses for discovery ETags and the
/// OpenAPI v3 `hash` parameter.
pub fn sha512_upper_hex(bytes: &[u8]) -> String {
    use sha2::Digest as _;
    let digest = sha2::Sha512::digest(bytes);
    digest.iter().map(|b| format!("{b:02X}")).collect()
}

/// The named groups in the legacy `/apis` order: the aggregator sorts APIServices by
/// priority, then by name (`<version>.<group>`), and lists groups as they first appear; custom
/// groups, whose priority is the lowest, by their least APIService name.
fn legacy_group_names(kinds: &Kinds) -> Vec<&'static str> {
    let names = group_names(kinds);
    let (builtin, custom): (Vec<&str>, Vec<&str>) =
        names.into_iter().partition(|g| !kinds.custom_group(g));
    let mut custom: Vec<(String, &'static str)> = custom
        .into_iter()
        .map(|g| {
            let least = versions_of(kinds, g)
                .into_iter()
                .map(|v| format!("{v}.{g}"))
                .min()
                .unwrap_or_default();
            (least, g)
        })
        .collect();
    crate::sort::sort_by(&mut custom, |a, b| a.0.cmp(&b.0));
    builtin
        .into_iter()
        .chain(custom.into_iter().map(|(_, g)| g))
        .collect()
}

/// The named groups in `/apis` order.
fn group_names(kinds: &Kinds) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for (g, _) in kinds.groups() {
        if !out.contains(&g) {
            out.push(g);
        }
    }
    out
}

/// The versions served for a group (the core group included), preferred first.
fn versions_of(kinds: &Kinds, group: &str) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for r in kinds.iter() {
        if r.group == group && !out.contains(&r.version) {
            out.push(r.version);
        }
    }
    out
}

/// The registry entries served under one group-version.
fn resources_in(kinds: &Kinds, group: &str, version: &str) -> Vec<&'static ResourceInfo> {
    kinds
        .iter()
        .filter(|r| r.group == group && r.version == version)
        .collect()
}

/// `name`, `versions`, `preferredVersion` of a group (the body shared by `APIGroup` and the
/// entries of `APIGroupList`).
fn group_body(kinds: &Kinds, group: &str) -> Map<String, Value> {
    let versions: Vec<Value> = versions_of(kinds, group)
        .into_iter()
        .map(|v| json!({"groupVersion": format!("{group}/{v}"), "version": v}))
        .collect();
    let preferred = versions.first().cloned().unwrap_or_else(|| json!({}));
    let mut m = Map::new();
    m.insert("name".into(), json!(group));
    m.insert("versions".into(), Value::Array(versions));
    m.insert("preferredVersion".into(), preferred);
    m
}

/// Whether the resource is persisted (and so has a storage version hash): not for virtual
/// kinds such as the reviews.
fn is_stored(r: &ResourceInfo) -> bool {
    r.strategy.stored()
}

/// The verbs discovery lists: a terminating definition's resource no longer lists the
/// writes that create.
fn discovered_verbs(r: &ResourceInfo) -> &'static [&'static str] {
    match r.custom {
        Some(c) if c.terminating => crate::resources::custom::TERMINATING_VERBS,
        _ => r.verbs,
    }
}

/// One top-level `metav1.APIResource`, fields in Go struct order with `omitempty` honoured.
fn api_resource(r: &ResourceInfo) -> Value {
    let mut m = Map::new();
    m.insert("name".into(), json!(r.plural));
    m.insert("singularName".into(), json!(r.singular));
    m.insert("namespaced".into(), json!(r.namespaced));
    m.insert("kind".into(), json!(r.kind));
    m.insert("verbs".into(), json!(discovered_verbs(r)));
    if !r.short_names.is_empty() {
        m.insert("shortNames".into(), json!(r.short_names));
    }
    if !r.categories.is_empty() {
        m.insert("categories".into(), json!(r.categories));
    }
    if is_stored(r) && r.custom.is_none_or(|c| c.storage_served) {
        m.insert("storageVersionHash".into(), json!(r.storage_version_hash()));
    }
    Value::Object(m)
}

/// One `apidiscovery.k8s.io/v2` `APIResourceDiscovery`. `responseKind` leaves group and version
/// empty when they are the resource's own, as the server does.
fn resource_discovery(r: &ResourceInfo) -> Value {
    // The CRD handler's entries name their group and version.
    let kind = match r.custom {
        Some(_) => json!({"group": r.group, "version": r.version, "kind": r.kind}),
        None => json!({"group": "", "version": "", "kind": r.kind}),
    };
    let mut m = Map::new();
    m.insert("resource".into(), json!(r.plural));
    m.insert("responseKind".into(), kind.clone());
    m.insert(
        "scope".into(),
        json!(if r.namespaced {
            "Namespaced"
        } else {
            "Cluster"
        }),
    );
    m.insert("singularResource".into(), json!(r.singular));
    m.insert("verbs".into(), json!(discovered_verbs(r)));
    if !r.short_names.is_empty() {
        m.insert("shortNames".into(), json!(r.short_names));
    }
    if !r.categories.is_empty() {
        m.insert("categories".into(), json!(r.categories));
    }
    if !r.subresources.is_empty() {
        let mut subs: Vec<_> = r.subresources.iter().collect();
        // The CRD handler's come as it appends them: `status`, then `scale`.
        if r.custom.is_none() {
            crate::sort::sort_by_key(&mut subs, |s| s.name);
        }
        let subs: Vec<Value> = subs
            .into_iter()
            .map(|s| {
                let kind = match s.name {
                    "scale" => json!({"group": "autoscaling", "version": "v1", "kind": "Scale"}),
                    _ => kind.clone(),
                };
                json!({"subresource": s.name, "responseKind": kind, "verbs": s.verbs})
            })
            .collect();
        m.insert("subresources".into(), Value::Array(subs));
    }
    Value::Object(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resources;

    fn kinds() -> Kinds {
        Kinds::builtin()
    }

    fn compact(v: &Value) -> String {
        serde_json::to_string(v).unwrap()
    }

    #[test]
    fn fixed_documents_match_the_real_server_bytes() {
        let cases: &[(&str, Value, &str)] = &[
            (
                "/api",
                api_versions("127.0.0.1:6443"),
                r#"{"kind":"APIVersions","versions":["v1"],"serverAddressByClientCIDRs":[{"clientCIDR":"0.0.0.0/0","serverAddress":"127.0.0.1:6443"}]}"#,
            ),
            (
                "/apis/apps",
                api_group(&kinds(), "apps").unwrap(),
                r#"{"kind":"APIGroup","apiVersion":"v1","name":"apps","versions":[{"groupVersion":"apps/v1","version":"v1"}],"preferredVersion":{"groupVersion":"apps/v1","version":"v1"}}"#,
            ),
            (
                "/apis/apps/v1",
                api_resource_list(&kinds(), "apps", "v1").unwrap(),
                r#"{"kind":"APIResourceList","apiVersion":"v1","groupVersion":"apps/v1","resources":[{"name":"controllerrevisions","singularName":"controllerrevision","namespaced":true,"kind":"ControllerRevision","verbs":["create","delete","deletecollection","get","list","patch","update","watch"],"storageVersionHash":"85nkx63pcBU="}]}"#,
            ),
            (
                "/api/v1",
                api_resource_list(&kinds(), "", "v1").unwrap(),
                r#"{"kind":"APIResourceList","apiVersion":"v1","groupVersion":"v1","resources":[{"name":"configmaps","singularName":"configmap","namespaced":true,"kind":"ConfigMap","verbs":["create","delete","deletecollection","get","list","patch","update","watch"],"shortNames":["cm"],"storageVersionHash":"qFsyl6wFWjQ="},{"name":"events","singularName":"event","namespaced":true,"kind":"Event","verbs":["create","delete","deletecollection","get","list","patch","update","watch"],"shortNames":["ev"],"storageVersionHash":"r2yiGXH7wu8="},{"name":"namespaces","singularName":"namespace","namespaced":false,"kind":"Namespace","verbs":["create","delete","get","list","patch","update","watch"],"shortNames":["ns"],"storageVersionHash":"Q3oi5N2YM8M="},{"name":"namespaces/finalize","singularName":"","namespaced":false,"kind":"Namespace","verbs":["update"]},{"name":"namespaces/status","singularName":"","namespaced":false,"kind":"Namespace","verbs":["get","patch","update"]}]}"#,
            ),
        ];
        for (path, got, want) in cases {
            assert_eq!(compact(got), *want, "{path}");
        }
    }

    #[test]
    fn unserved_paths_are_none() {
        let cases: &[(&str, &str)] = &[
            ("apps", "v2"),
            ("nope.example.com", "v1"),
            ("", "v2"),
            ("extensions", "v1beta1"),
        ];
        for (g, v) in cases {
            assert!(api_resource_list(&kinds(), g, v).is_none(), "{g}/{v}");
        }
        for g in ["", "nope", "extensions"] {
            assert!(api_group(&kinds(), g).is_none(), "{g:?}");
        }
    }

    #[test]
    fn group_list_covers_every_registry_group_and_no_core() {
        let list = api_group_list(&kinds());
        assert_eq!(list["kind"], "APIGroupList");
        assert_eq!(list["apiVersion"], "v1");
        let names: Vec<&str> = list["groups"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, group_names(&kinds()));
        assert!(names.contains(&"apps"));
        assert!(!names.contains(&""));
        for g in list["groups"].as_array().unwrap() {
            // Inside the list a group has no TypeMeta.
            let keys: Vec<&String> = g.as_object().unwrap().keys().collect();
            assert_eq!(keys, ["name", "versions", "preferredVersion"]);
        }
    }

    #[test]
    fn every_registry_resource_is_listed_with_its_hash() {
        for r in resources::ALL {
            let list = api_resource_list(&kinds(), r.group, r.version).unwrap();
            let entry = list["resources"]
                .as_array()
                .unwrap()
                .iter()
                .find(|e| e["name"] == r.plural)
                .unwrap_or_else(|| panic!("{} missing", r.plural));
            assert_eq!(entry["kind"], r.kind);
            assert_eq!(entry["singularName"], r.singular);
            assert_eq!(entry["namespaced"], r.namespaced);
            if r.strategy.stored() {
                assert_eq!(entry["storageVersionHash"], json!(r.storage_version_hash()));
            } else {
                assert!(entry.get("storageVersionHash").is_none());
            }
            for sub in r.subresources {
                let name = format!("{}/{}", r.plural, sub.name);
                assert!(
                    list["resources"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .any(
                            |e| e["name"] == name.as_str() && e.get("storageVersionHash").is_none()
                        ),
                    "{name}"
                );
            }
        }
    }

    #[test]
    fn version_info_has_the_go_field_order() {
        let v = version_info();
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "major",
                "minor",
                "emulationMajor",
                "emulationMinor",
                "minCompatibilityMajor",
                "minCompatibilityMinor",
                "gitVersion",
                "gitCommit",
                "gitTreeState",
                "buildDate",
                "goVersion",
                "compiler",
                "platform"
            ]
        );
        assert_eq!(v["gitVersion"], "v1.35.0");
    }

    #[test]
    fn aggregated_discovery_shapes() {
        let core = aggregated_discovery(&kinds(), true);
        assert_eq!(
            compact(&core),
            r#"{"kind":"APIGroupDiscoveryList","apiVersion":"apidiscovery.k8s.io/v2","metadata":{},"items":[{"metadata":{},"versions":[{"version":"v1","resources":[{"resource":"configmaps","responseKind":{"group":"","version":"","kind":"ConfigMap"},"scope":"Namespaced","singularResource":"configmap","verbs":["create","delete","deletecollection","get","list","patch","update","watch"],"shortNames":["cm"]},{"resource":"events","responseKind":{"group":"","version":"","kind":"Event"},"scope":"Namespaced","singularResource":"event","verbs":["create","delete","deletecollection","get","list","patch","update","watch"],"shortNames":["ev"]},{"resource":"namespaces","responseKind":{"group":"","version":"","kind":"Namespace"},"scope":"Cluster","singularResource":"namespace","verbs":["create","delete","get","list","patch","update","watch"],"shortNames":["ns"],"subresources":[{"subresource":"finalize","responseKind":{"group":"","version":"","kind":"Namespace"},"verbs":["update"]},{"subresource":"status","responseKind":{"group":"","version":"","kind":"Namespace"},"verbs":["get","patch","update"]}]}],"freshness":"Current"}]}]}"#
        );
        let apis = aggregated_discovery(&kinds(), false);
        let items = apis["items"].as_array().unwrap();
        let names: Vec<&str> = items
            .iter()
            .map(|i| i["metadata"]["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, group_names(&kinds()));
        let apps = items
            .iter()
            .find(|i| i["metadata"]["name"] == "apps")
            .unwrap();
        assert_eq!(
            compact(&apps["versions"][0]["resources"][0]),
            r#"{"resource":"controllerrevisions","responseKind":{"group":"","version":"","kind":"ControllerRevision"},"scope":"Namespaced","singularResource":"controllerrevision","verbs":["create","delete","deletecollection","get","list","patch","update","watch"]}"#
        );
    }

    #[test]
    fn etag_is_quoted_uppercase_sha512_of_compact_json() {
        for doc in [
            json!({}),
            aggregated_discovery(&kinds(), true),
            aggregated_discovery(&kinds(), false),
        ] {
            let etag = aggregated_discovery_etag(&doc);
            assert!(etag.starts_with('"') && etag.ends_with('"'));
            let hex = &etag[1..etag.len() - 1];
            assert_eq!(hex.len(), 128);
            assert!(hex
                .chars()
                .all(|c| c.is_ascii_digit() || ('A'..='F').contains(&c)));
            assert_eq!(hex, sha512_upper_hex(&serde_json::to_vec(&doc).unwrap()));
        }
        assert_eq!(
            &sha512_upper_hex(b"abc")[..16],
            "DDAF35A193617ABA",
            "known SHA-512 test vector"
        );
        let a = aggregated_discovery(&kinds(), false);
        assert_eq!(aggregated_discovery_etag(&a), aggregated_discovery_etag(&a));
        assert_ne!(
            aggregated_discovery_etag(&a),
            aggregated_discovery_etag(&aggregated_discovery(&kinds(), true))
        );
    }
}
