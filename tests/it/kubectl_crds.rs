//! kubectl with a CustomResourceDefinition, as a user runs it against one server: apply the
//! definition, wait for it, then apply, get (printer columns), explain, patch and delete the
//! new kind, and delete the definition with its objects.

use crate::common::server::Server;

const CRD: &str = "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, kind: Widget, shortNames: [wd]}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    additionalPrinterColumns:
    - {name: Color, type: string, jsonPath: .spec.color}
    - {name: Size, type: integer, jsonPath: .spec.size}
    schema:
      openAPIV3Schema:
        type: object
        description: A widget.
        properties:
          spec:
            type: object
            description: What the widget should be.
            properties:
              color: {type: string, enum: [red, blue], description: Its color.}
              size: {type: integer, default: 3}
";

const WIDGET: &str = "apiVersion: example.com/v1
kind: Widget
metadata: {name: w1}
spec: {color: red}
";

#[test]
fn kubectl_defines_a_kind_and_uses_it() {
    let s = Server::start(&[]);
    let crd = s.write("crd.yaml", CRD);
    assert_eq!(
        s.kubectl_ok(&["apply", "-f", &crd]).trim(),
        "customresourcedefinition.apiextensions.k8s.io/widgets.example.com created"
    );
    let waited = s.kubectl_ok(&[
        "wait",
        "--for=condition=Established",
        "crd/widgets.example.com",
        "--timeout=30s",
    ]);
    assert_eq!(
        waited.trim(),
        "customresourcedefinition.apiextensions.k8s.io/widgets.example.com condition met"
    );
    let w = s.write("w.yaml", WIDGET);
    assert_eq!(
        s.kubectl_ok(&["apply", "-f", &w]).trim(),
        "widget.example.com/w1 created"
    );
    assert_eq!(
        s.kubectl_ok(&["apply", "-f", &w]).trim(),
        "widget.example.com/w1 unchanged"
    );
    let table = s.kubectl_ok(&["get", "wd"]);
    let lines: Vec<Vec<&str>> = table
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(lines[0], ["NAME", "COLOR", "SIZE"]);
    assert_eq!(lines[1], ["w1", "red", "3"]);
    let explain = s.kubectl_ok(&["explain", "widgets.spec.color"]);
    assert!(explain.contains("Its color."), "{explain}");
    assert_eq!(
        s.kubectl_ok(&[
            "patch",
            "wd",
            "w1",
            "--type=merge",
            "-p",
            r#"{"spec":{"color":"blue"}}"#
        ])
        .trim(),
        "widget.example.com/w1 patched"
    );
    let (ok, _, err) = s.kubectl(&["patch", "wd", "w1", "-p", r#"{"spec":{"color":"red"}}"#]);
    assert!(!ok);
    assert!(
        err.contains("application/strategic-merge-patch+json is not supported by example.com/v1, Kind=Widget: the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml"),
        "{err}"
    );
    let (ok, _, err) = s.kubectl(&[
        "patch",
        "wd",
        "w1",
        "--type=merge",
        "-p",
        r#"{"spec":{"color":"green"}}"#,
    ]);
    assert!(!ok);
    assert!(
        err.contains(r#"spec.color: Unsupported value: "green": supported values: "red", "blue""#),
        "{err}"
    );
    assert_eq!(
        s.kubectl_ok(&["get", "wd", "w1", "-o", "jsonpath={.spec.color}"]),
        "blue"
    );
    assert!(s
        .kubectl_ok(&["api-resources", "--api-group=example.com"])
        .contains("widgets"));
    // Deleting the definition deletes the widgets first, then the kind is gone.
    let out = s.kubectl_ok(&["delete", "-f", &crd]);
    assert_eq!(
        out.trim(),
        "customresourcedefinition.apiextensions.k8s.io \"widgets.example.com\" deleted"
    );
    let mut gone = false;
    for _ in 0..50 {
        let (ok, _, _) = s.kubectl(&["get", "crd", "widgets.example.com"]);
        if !ok {
            gone = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    assert!(gone, "the definition is still there");
}
