//! kubectl v1.32 against `kubesim serve`: the everyday commands succeed with the output a
//! real cluster gives.

use crate::common::server::Server;

const CR_YAML: &str = "apiVersion: apps/v1
kind: ControllerRevision
metadata:
  name: web-1
  labels:
    app: x
data:
  spec:
    replicas: 2
revision: 1
";

const OTHER_YAML: &str = "apiVersion: apps/v1
kind: ControllerRevision
metadata:
  name: db-1
  labels:
    app: db
data: {}
revision: 4
";

#[test]
fn kubectl_everyday_commands() {
    if std::process::Command::new("kubectl")
        .arg("version")
        .arg("--client")
        .output()
        .is_err()
    {
        panic!("kubectl is required for this test (it is preinstalled on every machine here)");
    }
    let s = Server::start(&[]);

    let ns = s.kubectl_ok(&["get", "ns"]);
    for n in ["default", "kube-public", "kube-system"] {
        assert!(ns.contains(n), "{ns}");
    }

    let f = s.write("cr.yaml", CR_YAML);
    let out = s.kubectl_ok(&["create", "-f", &f]);
    assert_eq!(out.trim(), "controllerrevision.apps/web-1 created");
    let f2 = s.write("other.yaml", OTHER_YAML);
    s.kubectl_ok(&["create", "-f", &f2]);

    let yaml = s.kubectl_ok(&["get", "controllerrevisions", "-o", "yaml"]);
    assert!(yaml.contains("name: web-1"), "{yaml}");
    assert!(yaml.contains("replicas: 2"), "{yaml}");
    assert!(yaml.contains("kind: ControllerRevision"), "{yaml}");

    let all = s.kubectl_ok(&["get", "controllerrevisions", "-A"]);
    let lines: Vec<&str> = all.lines().collect();
    assert!(lines[0].starts_with("NAMESPACE"), "{all}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("default") && l.contains("web-1")),
        "{all}"
    );
    assert_eq!(lines.len(), 3, "{all}");

    let sel = s.kubectl_ok(&["get", "controllerrevisions", "-l", "app=x"]);
    assert!(sel.contains("web-1") && !sel.contains("db-1"), "{sel}");
    let none = s.kubectl(&["get", "controllerrevisions", "-l", "app=z"]);
    assert!(none.0);
    assert!(
        none.2.contains("No resources found in default namespace."),
        "{none:?}"
    );

    let replaced = CR_YAML.replace("app: x", "app: x\n    tier: web");
    let f3 = s.write("cr2.yaml", &replaced);
    let out = s.kubectl_ok(&["replace", "-f", &f3]);
    assert_eq!(out.trim(), "controllerrevision.apps/web-1 replaced");
    let got = s.kubectl_ok(&[
        "get",
        "controllerrevision",
        "web-1",
        "-o",
        "jsonpath={.metadata.labels.tier}",
    ]);
    assert_eq!(got, "web");

    // Changing data is refused: ControllerRevisions are immutable snapshots.
    let changed = CR_YAML.replace("replicas: 2", "replicas: 3");
    let f4 = s.write("cr3.yaml", &changed);
    let (ok, _, err) = s.kubectl(&["replace", "-f", &f4]);
    assert!(!ok);
    assert!(err.contains("field is immutable"), "{err}");

    let out = s.kubectl_ok(&["delete", "controllerrevision", "web-1"]);
    assert_eq!(out.trim(), "controllerrevision.apps \"web-1\" deleted");
    let (ok, _, err) = s.kubectl(&["get", "controllerrevision", "web-1"]);
    assert!(!ok);
    assert!(
        err.contains("Error from server (NotFound): controllerrevisions.apps \"web-1\" not found"),
        "{err}"
    );
}
