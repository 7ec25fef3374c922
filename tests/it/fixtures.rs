//! A cluster's starting objects from manifests: `Engine::load_manifests` in-process and
//! `kubesim serve --load PATH`, which print where the kubeconfig is and end their start-up
//! with the ready line.

use std::io::BufReader;
use std::process::{Command, Stdio};

use crate::common::{get, manager_names};
use kubesim::engine::{LoadError, Manifest, LOAD_MANAGER};
use kubesim::{Config, Engine};

const APP: &str = "# the app's objects
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: team-a
data:
  mode: fast
--- # a list
apiVersion: v1
kind: List
items:
- apiVersion: apps/v1
  kind: ControllerRevision
  metadata: {name: rev-1, namespace: team-a}
  data: {a: 1}
  revision: 1
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: in-default}
---
# nothing but a comment
";

const NAMESPACE: &str =
    r#"{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"team-a","labels":{"team":"a"}}}"#;

/// The app's file comes first by name, and its namespaced objects need the Namespace of the
/// second: Namespaces are applied first, lists stand for their items, a namespaced object
/// without a namespace goes to `default`, and a comment-only document is skipped.
#[test]
fn manifests_load_namespaces_first_with_their_objects_applied() {
    let mut engine = Engine::new(Config::default());
    let manifests = [
        Manifest::new("10-app.yaml", APP),
        Manifest::new("20-ns.json", NAMESPACE),
    ];
    assert_eq!(engine.load_manifests(&manifests), Ok(4));
    let ns = get(&mut engine, "/api/v1/namespaces/team-a");
    assert_eq!(ns.code, 200);
    assert_eq!(ns.json["metadata"]["labels"]["team"], "a");
    let cm = get(&mut engine, "/api/v1/namespaces/team-a/configmaps/settings");
    assert_eq!(cm.code, 200);
    let cm = cm.json;
    assert_eq!(cm["data"]["mode"], "fast");
    assert_eq!(manager_names(&cm), [LOAD_MANAGER]);
    assert_eq!(cm["metadata"]["managedFields"][0]["operation"], "Apply");
    let paths = [
        "/apis/apps/v1/namespaces/team-a/controllerrevisions/rev-1",
        "/api/v1/namespaces/default/configmaps/in-default",
    ];
    for path in paths {
        assert_eq!(get(&mut engine, path).code, 200, "{path}");
    }
    // Loading the same manifests again changes nothing.
    let revision = engine.store().revision();
    assert_eq!(engine.load_manifests(&manifests), Ok(4));
    assert_eq!(engine.store().revision(), revision);
}

/// Each refusal names the manifest and the document, with the API's message or the reason the
/// document could not be read.
#[test]
fn a_manifest_that_cannot_be_loaded_says_where_and_why() {
    let cases: &[(&str, usize, &str)] = &[
        (
            "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n",
            1,
            "no matches for kind \"Widget\" in version \"example.com/v1\"",
        ),
        (
            "kind: ConfigMap\nmetadata: {name: c}\n",
            1,
            "apiVersion and kind must be set",
        ),
        (
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {generateName: c-}\n",
            1,
            "ConfigMap: metadata.name must be set",
        ),
        (
            "apiVersion: v1\nkind: Namespace\nmetadata: {name: ok}\n---\n\
             apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: absent}\n",
            2,
            "namespaces \"absent\" not found",
        ),
        (
            "apiVersion: apps/v1\nkind: ControllerRevision\nmetadata: {name: r}\n",
            1,
            "ControllerRevision.apps \"r\" is invalid: [data: Required value: data is mandatory",
        ),
        ("a: [1\n", 1, "yaml: line 1:"),
        ("- 1\n", 1, "a manifest must be an object"),
    ];
    for (text, document, says) in cases {
        let mut engine = Engine::new(Config::default());
        let err: LoadError = engine
            .load_manifests(&[Manifest::new("fixture.yaml", *text)])
            .unwrap_err();
        assert_eq!(
            (err.source.as_str(), err.document),
            ("fixture.yaml", *document),
            "{text}"
        );
        assert!(err.message.contains(says), "{text}: {}", err.message);
        assert!(
            err.to_string()
                .starts_with(&format!("fixture.yaml (document {document}): ")),
            "{err}"
        );
    }
}

/// `kubesim serve --load DIR` without `--kubeconfig`: the start-up lines name the kubeconfig
/// it wrote (readable by its owner alone), the last is the ready line, and kubectl finds the
/// folder's objects. Files other than .yaml, .yml and .json are left alone.
#[test]
fn serve_loads_a_folder_and_prints_its_kubeconfig_then_the_ready_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("10-app.yaml"), APP).unwrap();
    std::fs::write(dir.path().join("20-ns.json"), NAMESPACE).unwrap();
    std::fs::write(dir.path().join("notes.txt"), "not a manifest").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_kubesim"))
        .args(["serve", "--port", "0", "--load"])
        .arg(dir.path())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    std::io::BufRead::read_line(&mut out, &mut first).unwrap();
    let url = crate::common::server::ready_url(&mut out);
    let port = url.rsplit(':').next().unwrap();
    let kubeconfig = std::env::temp_dir().join(format!("kubesim-{port}.kubeconfig"));
    assert_eq!(
        first.trim(),
        format!(
            "kubesim: kubeconfig {0} (export KUBECONFIG={0})",
            kubeconfig.display()
        )
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&kubeconfig).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    let kubectl = Command::new("kubectl")
        .arg("--kubeconfig")
        .arg(&kubeconfig)
        .args(["get", "configmaps,controllerrevisions", "-A", "-o", "name"])
        .env("HOME", dir.path())
        .output()
        .expect("run kubectl");
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_file(&kubeconfig);
    let listed = String::from_utf8_lossy(&kubectl.stdout);
    assert!(kubectl.status.success(), "{listed}");
    for name in [
        "configmap/settings",
        "configmap/in-default",
        "controllerrevision.apps/rev-1",
    ] {
        assert!(listed.lines().any(|l| l == name), "{name}: {listed}");
    }
}

/// A manifest the API refuses stops the start, before the ready line, with the file named.
#[test]
fn serve_stops_at_a_manifest_it_cannot_load() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.yaml");
    std::fs::write(
        &file,
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: absent}\n",
    )
    .unwrap();
    let stderr = crate::common::server::start_refused(&["--load".as_ref(), file.as_os_str()]);
    assert_eq!(
        stderr,
        format!(
            "Error: --load {} (document 1): namespaces \"absent\" not found\n",
            file.display()
        )
    );
}
