//! Many kubectl commands in a row against one server with one `--cache-dir`, as a user types
//! them: discovery is cached after the first command and revalidated (`If-None-Match`, 304)
//! by `api-resources` and after invalidation, so every later command depends on the 304
//! being read correctly.

use crate::common::server::Server;

const CR_YAML: &str = "apiVersion: apps/v1
kind: ControllerRevision
metadata:
  name: web-1
data: {}
revision: 1
";

/// Resource lines of `kubectl api-resources` (header excluded).
fn resource_names(out: &str) -> Vec<String> {
    out.lines()
        .skip(1)
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

#[test]
fn kubectl_commands_in_a_row_share_one_discovery_cache() {
    let s = Server::start(&[]);
    let ns = s.kubectl_ok(&["get", "ns"]);
    assert!(ns.contains("default"), "{ns}");
    // api-resources always revalidates the cached discovery: the second and later runs get
    // 304s and must still list every resource.
    for round in 0..3 {
        let out = s.kubectl_ok(&["api-resources"]);
        let names = resource_names(&out);
        assert!(
            names.contains(&"namespaces".to_string())
                && names.contains(&"controllerrevisions".to_string()),
            "round {round}: {out}"
        );
        let crs = s.kubectl(&["get", "controllerrevisions"]);
        assert!(crs.0, "round {round}: {crs:?}");
        assert!(
            !crs.2.contains("doesn't have a resource type"),
            "round {round}: {crs:?}"
        );
    }
    let f = s.write("cr.yaml", CR_YAML);
    let out = s.kubectl_ok(&["create", "-f", &f]);
    assert_eq!(out.trim(), "controllerrevision.apps/web-1 created");
    let got = s.kubectl_ok(&["get", "controllerrevision", "web-1", "-o", "name"]);
    assert_eq!(got.trim(), "controllerrevision.apps/web-1");
    let versions = s.kubectl_ok(&["api-versions"]);
    assert!(versions.lines().any(|l| l == "apps/v1"), "{versions}");
    let out = s.kubectl_ok(&["api-resources", "--api-group=apps", "-o", "name"]);
    assert_eq!(out.trim(), "controllerrevisions.apps");
    let explained = s.kubectl_ok(&["explain", "controllerrevisions.revision"]);
    assert!(explained.contains("revision"), "{explained}");
    let deleted = s.kubectl_ok(&["delete", "controllerrevision", "web-1"]);
    assert_eq!(deleted.trim(), "controllerrevision.apps \"web-1\" deleted");
    let none = s.kubectl(&["get", "controllerrevisions"]);
    assert!(none.0 && none.2.contains("No resources found"), "{none:?}");
    // ConfigMaps: served from the same discovery cache, printed with their DATA column.
    let out = s.kubectl_ok(&[
        "create",
        "configmap",
        "settings",
        "--from-literal=a=1",
        "--from-literal=b=2",
    ]);
    assert_eq!(out.trim(), "configmap/settings created");
    let table = s.kubectl_ok(&["get", "cm"]);
    let lines: Vec<Vec<&str>> = table
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(lines[0], ["NAME", "DATA", "AGE"], "{table}");
    assert_eq!(lines[1][..2], ["settings", "2"], "{table}");
    let value = s.kubectl_ok(&["get", "configmap", "settings", "-o", "jsonpath={.data.b}"]);
    assert_eq!(value, "2");
}

#[test]
fn not_modified_discovery_carries_no_content_type() {
    use crate::common::*;
    let mut e = engine();
    let accept =
        "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json";
    for path in ["/api", "/apis"] {
        let first = send(&mut e, "GET", path, None, &[("accept", accept)]);
        assert_eq!(first.code, 200);
        assert_eq!(
            first.header("content-type"),
            "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"
        );
        let etag = first.header("etag").to_string();
        let again = send(
            &mut e,
            "GET",
            path,
            None,
            &[("accept", accept), ("if-none-match", &etag)],
        );
        assert_eq!(again.code, 304);
        assert_eq!(again.header("content-type"), "", "{path}");
        assert_eq!(again.header("etag"), etag);
        assert_eq!(again.header("vary"), "Accept");
        assert_eq!(again.header("cache-control"), "public");
        assert!(again.text.is_empty());
    }
}
