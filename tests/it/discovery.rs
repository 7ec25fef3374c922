//! Discovery and OpenAPI: what kubectl reads before it acts, listing exactly what kubesim
//! serves, with the real verbs, names and storage version hashes.

use crate::common::*;
use serde_json::{json, Value};

#[test]
fn version_and_group_lists() {
    let mut e = engine();
    let v = get(&mut e, "/version");
    assert_eq!(v.code, 200);
    assert_eq!(v.json["major"], "1");
    assert!(v.json["gitVersion"].as_str().unwrap().starts_with("v1."));

    let api = get(&mut e, "/api");
    assert_eq!(api.json["kind"], "APIVersions");
    assert_eq!(api.json["versions"], json!(["v1"]));

    let apis = get(&mut e, "/apis");
    assert_eq!(apis.json["kind"], "APIGroupList");
    let groups: Vec<&str> = apis.json["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        groups,
        [
            "apps",
            "authentication.k8s.io",
            "authorization.k8s.io",
            "rbac.authorization.k8s.io",
            "apiextensions.k8s.io"
        ]
    );
    assert_eq!(
        apis.json["groups"][0]["preferredVersion"],
        json!({"groupVersion": "apps/v1", "version": "v1"})
    );

    let apps = get(&mut e, "/apis/apps");
    assert_eq!(apps.json["kind"], "APIGroup");
    assert_eq!(apps.json["name"], "apps");
}

/// The reference's §14.1 table, one row per served resource.
#[test]
fn api_resource_lists_match_the_reference() {
    let mut e = engine();
    let rows = [
        (
            "/api/v1",
            "namespaces",
            "namespace",
            false,
            "Namespace",
            json!(["create", "delete", "get", "list", "patch", "update", "watch"]),
            json!(["ns"]),
            "Q3oi5N2YM8M=",
        ),
        (
            "/apis/apps/v1",
            "controllerrevisions",
            "controllerrevision",
            true,
            "ControllerRevision",
            json!([
                "create",
                "delete",
                "deletecollection",
                "get",
                "list",
                "patch",
                "update",
                "watch"
            ]),
            json!(null),
            "85nkx63pcBU=",
        ),
        (
            "/api/v1",
            "configmaps",
            "configmap",
            true,
            "ConfigMap",
            json!([
                "create",
                "delete",
                "deletecollection",
                "get",
                "list",
                "patch",
                "update",
                "watch"
            ]),
            json!(["cm"]),
            "qFsyl6wFWjQ=",
        ),
        (
            "/api/v1",
            "events",
            "event",
            true,
            "Event",
            json!([
                "create",
                "delete",
                "deletecollection",
                "get",
                "list",
                "patch",
                "update",
                "watch"
            ]),
            json!(["ev"]),
            "r2yiGXH7wu8=",
        ),
    ];
    for (path, name, singular, namespaced, kind, verbs, short, hash) in rows {
        let r = get(&mut e, path);
        assert_eq!(r.code, 200, "{path}");
        assert_eq!(r.json["kind"], "APIResourceList");
        let res = r.json["resources"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["name"] == name)
            .unwrap_or_else(|| panic!("{name} in {path}"))
            .clone();
        assert_eq!(res["singularName"], singular, "{name}");
        assert_eq!(res["namespaced"], namespaced, "{name}");
        assert_eq!(res["kind"], kind, "{name}");
        assert_eq!(res["verbs"], verbs, "{name}");
        assert_eq!(
            res.get("shortNames").cloned().unwrap_or(json!(null)),
            short,
            "{name}"
        );
        assert_eq!(res["storageVersionHash"], hash, "{name}");
    }
    let core = get(&mut e, "/api/v1");
    let names: Vec<&str> = core.json["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "configmaps",
            "events",
            "namespaces",
            "namespaces/finalize",
            "namespaces/status"
        ]
    );
}

#[test]
fn openapi_v3_advertises_field_validation_on_patch() {
    let mut e = engine();
    let idx = get(&mut e, "/openapi/v3");
    assert_eq!(idx.code, 200);
    let url = idx.json["paths"]["apis/apps/v1"]["serverRelativeURL"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(url.starts_with("/openapi/v3/apis/apps/v1?hash="), "{url}");
    let doc = get(&mut e, &url);
    assert_eq!(doc.code, 200);
    let item =
        &doc.json["paths"]["/apis/apps/v1/namespaces/{namespace}/controllerrevisions/{name}"];
    let patch = &item["patch"];
    assert_eq!(
        patch["x-kubernetes-group-version-kind"],
        json!({"group": "apps", "kind": "ControllerRevision", "version": "v1"})
    );
    let text = patch["parameters"].to_string();
    assert!(text.contains("fieldValidation"), "{text}");
    assert!(doc.json["components"]["schemas"]["io.k8s.api.apps.v1.ControllerRevision"].is_object());
    assert_eq!(get(&mut e, "/openapi/v3/apis/nope/v1").code, 404);
}

#[test]
fn aggregated_discovery_with_etag() {
    let mut e = engine();
    let accept =
        "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json";
    for (path, group) in [("/api", ""), ("/apis", "apps")] {
        let r = send(&mut e, "GET", path, None, &[("accept", accept)]);
        assert_eq!(r.code, 200, "{path}");
        assert_eq!(
            r.header("content-type"),
            "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"
        );
        assert_eq!(r.json["kind"], "APIGroupDiscoveryList");
        assert_eq!(
            r.json["items"][0]["metadata"]
                .get("name")
                .and_then(|n| n.as_str())
                .unwrap_or(""),
            group
        );
        let etag = r.header("etag").to_string();
        assert!(etag.starts_with('"') && etag.len() == 130, "{etag}");
        let again = send(
            &mut e,
            "GET",
            path,
            None,
            &[("accept", accept), ("if-none-match", &etag)],
        );
        assert_eq!(again.code, 304);
        assert!(again.text.is_empty());
    }
    // Without the aggregated Accept, the legacy documents answer.
    assert_eq!(get(&mut e, "/apis").json["kind"], "APIGroupList");
}

#[test]
fn openapi_stale_hash_redirects() {
    let mut e = engine();
    let r = get(&mut e, "/openapi/v3/apis/apps/v1?hash=STALE");
    assert_eq!(r.code, 301);
    assert!(r
        .header("location")
        .starts_with("/openapi/v3/apis/apps/v1?hash="));
}

/// kube-openapi's document handler: `Vary: Accept` and the quoted hash as `ETag` always;
/// asked for by its current hash, a document may be cached for a year (`Cache-Control:
/// public, immutable`, `Expires` a year from now); a matching `If-None-Match` is a 304
/// without a body or Content-Type (`http.ServeContent`).
#[test]
fn openapi_documents_are_cacheable() {
    let mut e = engine();
    let url = get(&mut e, "/openapi/v3").json["paths"]["apis/apps/v1"]["serverRelativeURL"]
        .as_str()
        .unwrap()
        .to_string();
    let plain = get(&mut e, "/openapi/v3/apis/apps/v1");
    let hashed = get(&mut e, &url);
    let hash = url.split("hash=").nth(1).unwrap();
    for r in [&plain, &hashed] {
        assert_eq!(r.code, 200);
        assert_eq!(r.header("vary"), "Accept");
        assert_eq!(r.header("etag"), format!("\"{hash}\""));
    }
    assert_eq!(plain.text, hashed.text);
    assert_eq!(plain.header("cache-control"), "no-cache, private");
    assert_eq!(hashed.header("cache-control"), "public, immutable");
    // The engine's clock stands at 2026-01-01T00:00:00Z.
    assert_eq!(hashed.header("expires"), "Fri, 01 Jan 2027 00:00:00 UTC");
    let etag = format!("\"{hash}\"");
    let again = send(&mut e, "GET", &url, None, &[("if-none-match", &etag)]);
    assert_eq!(again.code, 304);
    assert!(again.text.is_empty());
    assert_eq!(again.header("content-type"), "");
    assert_eq!(again.header("etag"), etag);
}

/// Legacy discovery is negotiated: an Accept the route does not produce is the router's 406,
/// a transform it does not serve the handler's.
#[test]
fn legacy_discovery_refuses_what_it_cannot_write() {
    let mut e = engine();
    let r = send(
        &mut e,
        "GET",
        "/apis/apps/v1",
        None,
        &[("accept", "text/plain")],
    );
    assert_eq!(r.code, 406, "{}", r.text);
    assert!(r.message().starts_with("406: Not Acceptable"), "{}", r.text);
    let r = send(
        &mut e,
        "GET",
        "/apis/apps",
        None,
        &[("accept", "application/json;as=Table;g=meta.k8s.io;v=v1")],
    );
    assert_eq!(r.code, 406, "{}", r.text);
    assert_eq!(
        r.message(),
        "only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf"
    );
    let r = send(
        &mut e,
        "GET",
        "/api",
        None,
        &[("accept", "application/yaml")],
    );
    assert_eq!(
        (r.code, r.header("content-type")),
        (200, "application/yaml")
    );
    assert!(r.text.starts_with("kind: APIVersions\n"), "{}", r.text);
}

/// Every schema of the OpenAPI v3 documents kubesim serves for core v1, apps/v1 and
/// rbac.authorization.k8s.io/v1 equals the one kube-apiserver 1.36 publishes (its
/// `api/openapi-spec/v3` documents, fetched from a running server by `update-openapi-spec.sh`;
/// the fixture holds those of kubesim's schemas).
#[test]
fn openapi_v3_schemas_are_the_real_server_s() {
    let want: Value =
        serde_json::from_str(include_str!("fixtures/openapi_v3_schemas.json")).unwrap();
    let mut e = engine();
    for (gv, schemas) in want.as_object().unwrap() {
        let doc = get(&mut e, &format!("/openapi/v3/{gv}"));
        assert_eq!(doc.code, 200, "{gv}");
        let got = doc.json["components"]["schemas"].as_object().unwrap();
        let names: Vec<&String> = got.keys().collect();
        let want_names: Vec<&String> = schemas.as_object().unwrap().keys().collect();
        assert_eq!(names, want_names, "{gv}: the schema names");
        for (name, schema) in schemas.as_object().unwrap() {
            assert_eq!(&got[name], schema, "{gv}: {name}");
        }
    }
}
