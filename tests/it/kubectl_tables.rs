//! kubectl against `kubesim serve`: `get` prints the server-side Table (the real columns, not
//! kubectl's NAME/AGE fallback), and `-o yaml` / `-o json` get full objects.

use crate::common::server::Server;

const OWNED: &str = "apiVersion: apps/v1\nkind: ControllerRevision\nmetadata:\n  name: owned\n  ownerReferences:\n  - apiVersion: apps/v1\n    kind: DaemonSet\n    name: fluentd\n    uid: 7d0f1c9e-0000-4000-8000-000000000001\n    controller: true\ndata: {}\nrevision: 4\n";
const PLAIN: &str = "apiVersion: apps/v1\nkind: ControllerRevision\nmetadata:\n  name: plain\ndata:\n  spec: {}\nrevision: 1\n";

fn header(out: &str) -> Vec<&str> {
    out.lines()
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect()
}

fn row<'a>(out: &'a str, name: &str) -> Vec<&'a str> {
    out.lines()
        .find(|l| l.starts_with(name))
        .unwrap_or_else(|| panic!("no row {name} in {out}"))
        .split_whitespace()
        .collect()
}

#[test]
fn kubectl_get_prints_the_server_side_table() {
    let s = Server::start(&[]);
    for (file, text) in [("owned.yaml", OWNED), ("plain.yaml", PLAIN)] {
        let f = s.write(file, text);
        s.kubectl_ok(&["create", "-f", &f]);
    }
    let out = s.kubectl_ok(&["get", "controllerrevisions"]);
    assert_eq!(
        header(&out),
        ["NAME", "CONTROLLER", "REVISION", "AGE"],
        "{out}"
    );
    let owned = row(&out, "owned");
    assert_eq!(
        owned[..3],
        ["owned", "daemonset.apps/fluentd", "4"],
        "{out}"
    );
    assert!(owned[3].ends_with('s') || owned[3].ends_with('m'), "{out}");
    assert_eq!(row(&out, "plain")[..3], ["plain", "<none>", "1"], "{out}");
    // One object, and -o wide (no priority columns for ControllerRevision).
    let out = s.kubectl_ok(&["get", "controllerrevision", "plain"]);
    assert_eq!(
        header(&out),
        ["NAME", "CONTROLLER", "REVISION", "AGE"],
        "{out}"
    );
    assert_eq!(out.lines().count(), 2, "{out}");
    let out = s.kubectl_ok(&["get", "controllerrevisions", "-o", "wide"]);
    assert_eq!(
        header(&out),
        ["NAME", "CONTROLLER", "REVISION", "AGE"],
        "{out}"
    );
    // Namespaces have their own printer.
    let out = s.kubectl_ok(&["get", "namespaces"]);
    assert_eq!(header(&out), ["NAME", "STATUS", "AGE"], "{out}");
    assert_eq!(row(&out, "default")[..2], ["default", "Active"], "{out}");
}

#[test]
fn kubectl_get_yaml_and_json() {
    let s = Server::start(&[]);
    let f = s.write("owned.yaml", OWNED);
    s.kubectl_ok(&["create", "-f", &f]);
    let out = s.kubectl_ok(&["get", "controllerrevisions", "-o", "json"]);
    let list: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(list["kind"], "List");
    assert_eq!(list["items"][0]["kind"], "ControllerRevision");
    assert_eq!(list["items"][0]["metadata"]["name"], "owned");
    assert_eq!(list["items"][0]["revision"], 4);
    let out = s.kubectl_ok(&["get", "controllerrevision", "owned", "-o", "yaml"]);
    assert!(
        out.starts_with("apiVersion: apps/v1\ndata: {}\nkind: ControllerRevision\nmetadata:\n"),
        "{out}"
    );
    assert!(out.contains("\n    kind: DaemonSet\n"), "{out}");
    assert!(out.ends_with("revision: 4\n"), "{out}");
    let out = s.kubectl_ok(&["get", "namespace", "default", "-o", "yaml"]);
    assert!(
        out.contains("\nkind: Namespace\n") && out.contains("\n  phase: Active\n"),
        "{out}"
    );
}
