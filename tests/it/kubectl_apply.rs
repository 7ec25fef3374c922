//! kubectl's apply paths against one server, as a user runs them: client-side apply with its
//! last-applied annotation, server-side apply (create, configure, conflict, force), the
//! upgrade from client-side to server-side, and `--show-managed-fields`.

use crate::common::server::Server;

fn cm(data: &str) -> String {
    format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n{data}")
}

#[test]
fn kubectl_apply_client_side_then_server_side() {
    let s = Server::start(&[]);
    let f = s.write("cm.yaml", &cm("  a: \"1\"\n"));
    // Client-side apply: create, then configure, with the last-applied annotation.
    assert_eq!(
        s.kubectl_ok(&["apply", "-f", &f]).trim(),
        "configmap/settings created"
    );
    let f = s.write("cm.yaml", &cm("  a: \"1\"\n  b: \"2\"\n"));
    assert_eq!(
        s.kubectl_ok(&["apply", "-f", &f]).trim(),
        "configmap/settings configured"
    );
    let last = s.kubectl_ok(&[
        "get",
        "cm",
        "settings",
        "-o",
        "jsonpath={.metadata.annotations.kubectl\\.kubernetes\\.io/last-applied-configuration}",
    ]);
    assert!(last.contains("\"b\":\"2\""), "{last}");
    let managers = s.kubectl_ok(&[
        "get",
        "cm",
        "settings",
        "--show-managed-fields",
        "-o",
        "jsonpath={.metadata.managedFields[*].manager}",
    ]);
    assert_eq!(managers, "kubectl-client-side-apply");
    // Server-side apply by kubectl takes over what client-side apply last set, and keeps the
    // annotation current.
    let f = s.write("cm.yaml", &cm("  a: \"10\"\n  b: \"2\"\n"));
    let out = s.kubectl_ok(&["apply", "--server-side", "-f", &f]);
    assert_eq!(out.trim(), "configmap/settings serverside-applied");
    let yaml = s.kubectl_ok(&[
        "get",
        "cm",
        "settings",
        "-o",
        "yaml",
        "--show-managed-fields",
    ]);
    assert!(
        yaml.contains("manager: kubectl\n    operation: Apply"),
        "{yaml}"
    );
    assert!(yaml.contains("a: \"10\""), "{yaml}");
    // Without --show-managed-fields kubectl hides them.
    let plain = s.kubectl_ok(&["get", "cm", "settings", "-o", "yaml"]);
    assert!(!plain.contains("managedFields"), "{plain}");
}

#[test]
fn kubectl_server_side_conflicts_and_force() {
    let s = Server::start(&[]);
    let f = s.write("cm.yaml", &cm("  a: \"1\"\n"));
    let out = s.kubectl_ok(&["apply", "--server-side", "--field-manager=alice", "-f", &f]);
    assert_eq!(out.trim(), "configmap/settings serverside-applied");
    let again = s.kubectl_ok(&["apply", "--server-side", "--field-manager=alice", "-f", &f]);
    assert_eq!(again.trim(), "configmap/settings serverside-applied");
    let f2 = s.write("cm2.yaml", &cm("  a: \"2\"\n"));
    let (ok, out, err) = s.kubectl(&["apply", "--server-side", "--field-manager=bob", "-f", &f2]);
    assert!(!ok, "{out}");
    assert!(
        err.contains("Apply failed with 1 conflict: conflict with \"alice\": .data.a"),
        "{err}"
    );
    let out = s.kubectl_ok(&[
        "apply",
        "--server-side",
        "--field-manager=bob",
        "--force-conflicts",
        "-f",
        &f2,
    ]);
    assert_eq!(out.trim(), "configmap/settings serverside-applied");
    let owners = s.kubectl_ok(&[
        "get",
        "cm",
        "settings",
        "--show-managed-fields",
        "-o",
        "jsonpath={range .metadata.managedFields[*]}{.manager}={.fieldsV1}{\"\\n\"}{end}",
    ]);
    assert!(owners.contains("bob={\"f:data\":{\"f:a\":{}}}"), "{owners}");
    assert!(!owners.contains("alice"), "{owners}");
    // Dropping a field from the configuration removes it.
    let f3 = s.write(
        "cm3.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n",
    );
    s.kubectl_ok(&["apply", "--server-side", "--field-manager=bob", "-f", &f3]);
    let data = s.kubectl_ok(&["get", "cm", "settings", "-o", "jsonpath={.data}"]);
    assert_eq!(data, "", "{data}");
    // Server-side dry run changes nothing.
    let out = s.kubectl_ok(&[
        "apply",
        "--server-side",
        "--field-manager=bob",
        "--dry-run=server",
        "-f",
        &f2,
    ]);
    assert!(out.contains("(server dry run)"), "{out}");
    let data = s.kubectl_ok(&["get", "cm", "settings", "-o", "jsonpath={.data}"]);
    assert_eq!(data, "", "{data}");
}
