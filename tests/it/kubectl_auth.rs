//! kubectl's auth commands against `kubesim serve` with RBAC on: `auth whoami`, `auth can-i`
//! (with `--as` and `--list`), `create role/rolebinding/clusterrole`, `--token`, and the
//! Forbidden errors a user without grants sees.

use crate::common::server::Server;

fn server() -> (Server, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("tempdir");
    let tokens = dir.path().join("tokens.csv");
    std::fs::write(&tokens, "t-alice,alice,u1\n").expect("token file");
    let s = Server::start(&["--token-auth-file", tokens.to_str().expect("path")]);
    (s, dir)
}

#[test]
fn kubectl_auth_commands() {
    let (s, _dir) = server();
    assert_eq!(
        s.kubectl_ok(&["auth", "whoami"]),
        "ATTRIBUTE   VALUE\nUsername    kubesim-admin\nGroups      [system:masters system:authenticated]\n"
    );
    assert_eq!(
        s.kubectl_ok(&["--token", "t-alice", "auth", "whoami"]),
        "ATTRIBUTE   VALUE\nUsername    alice\nUID         u1\nGroups      [system:authenticated]\n"
    );
    let out = s.kubectl_ok(&[
        "auth",
        "whoami",
        "--as",
        "dave",
        "--as-group",
        "qa",
        "-o",
        "jsonpath={.status.userInfo}",
    ]);
    assert_eq!(
        out,
        r#"{"groups":["qa","system:authenticated"],"username":"dave"}"#
    );

    s.kubectl_ok(&["create", "namespace", "dev"]);
    let (ok, out, _) = s.kubectl(&[
        "auth",
        "can-i",
        "list",
        "configmaps",
        "-n",
        "dev",
        "--as",
        "alice",
    ]);
    assert_eq!((ok, out.as_str()), (false, "no\n"));
    assert_eq!(
        s.kubectl_ok(&[
            "create",
            "role",
            "cm-reader",
            "--verb=get,list",
            "--resource=configmaps",
            "-n",
            "dev"
        ]),
        "role.rbac.authorization.k8s.io/cm-reader created\n"
    );
    assert_eq!(
        s.kubectl_ok(&[
            "create",
            "rolebinding",
            "alice-reads",
            "--role=cm-reader",
            "--user=alice",
            "-n",
            "dev"
        ]),
        "rolebinding.rbac.authorization.k8s.io/alice-reads created\n"
    );
    assert_eq!(
        s.kubectl_ok(&[
            "create",
            "clusterrole",
            "cm-lister",
            "--verb=list",
            "--resource=configmaps"
        ]),
        "clusterrole.rbac.authorization.k8s.io/cm-lister created\n"
    );
    assert_eq!(
        s.kubectl_ok(&[
            "auth",
            "can-i",
            "list",
            "configmaps",
            "-n",
            "dev",
            "--as",
            "alice"
        ]),
        "yes\n"
    );
    let (ok, out, _) = s.kubectl(&[
        "auth",
        "can-i",
        "list",
        "configmaps",
        "-n",
        "default",
        "--as",
        "alice",
    ]);
    assert_eq!((ok, out.as_str()), (false, "no\n"));
    assert_eq!(
        s.kubectl_ok(&["auth", "can-i", "get", "/version", "--as", "alice"]),
        "yes\n"
    );

    // alice herself: allowed in dev, forbidden elsewhere with the real message.
    let (ok, _, err) = s.kubectl(&["--token", "t-alice", "get", "configmaps", "-n", "dev"]);
    assert!(ok, "{err}");
    assert_eq!(err, "No resources found in dev namespace.\n");
    let (ok, _, err) = s.kubectl(&["--token", "t-alice", "get", "configmaps"]);
    assert!(!ok);
    assert_eq!(
        err,
        "Error from server (Forbidden): configmaps is forbidden: User \"alice\" cannot list resource \"configmaps\" in API group \"\" in the namespace \"default\"\n"
    );
    // She may not create roles at all (plain RBAC).
    let (ok, _, err) = s.kubectl(&[
        "--token",
        "t-alice",
        "create",
        "role",
        "x",
        "--verb=get",
        "--resource=configmaps",
        "-n",
        "dev",
    ]);
    assert!(!ok);
    assert!(
        err.contains("User \"alice\" cannot create resource \"roles\""),
        "{err}"
    );

    let list = s.kubectl_ok(&["auth", "can-i", "--list", "-n", "dev", "--as", "alice"]);
    let mut lines = list.lines();
    assert_eq!(
        lines.next(),
        Some("Resources                                       Non-Resource URLs   Resource Names   Verbs")
    );
    assert_eq!(
        lines.next(),
        Some("selfsubjectreviews.authentication.k8s.io        []                  []               [create]")
    );
    assert!(
        list.lines()
            .any(|l| l.split_whitespace().collect::<Vec<_>>()
                == ["configmaps", "[]", "[]", "[get", "list]"]),
        "{list}"
    );
    assert!(list
        .lines()
        .any(|l| l.split_whitespace().collect::<Vec<_>>() == ["[/version]", "[]", "[get]"]));

    // Once she may create roles, she still may not grant what she does not hold.
    s.kubectl_ok(&[
        "create",
        "role",
        "role-maker",
        "--verb=create",
        "--resource=roles",
        "-n",
        "dev",
    ]);
    s.kubectl_ok(&[
        "create",
        "rolebinding",
        "alice-makes",
        "--role=role-maker",
        "--user=alice",
        "-n",
        "dev",
    ]);
    let (ok, _, err) = s.kubectl(&[
        "--token",
        "t-alice",
        "create",
        "role",
        "deleter",
        "--verb=delete",
        "--resource=configmaps",
        "-n",
        "dev",
    ]);
    assert!(!ok);
    assert_eq!(
        err,
        "Error from server (Forbidden): roles.rbac.authorization.k8s.io \"deleter\" is forbidden: user \"alice\" (groups=[\"system:authenticated\"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[\"\"], Resources:[\"configmaps\"], Verbs:[\"delete\"]}\n"
    );
    let out = s.kubectl_ok(&[
        "--token",
        "t-alice",
        "create",
        "role",
        "reader",
        "--verb=get",
        "--resource=configmaps",
        "-n",
        "dev",
    ]);
    assert_eq!(out, "role.rbac.authorization.k8s.io/reader created\n");
}

/// `kubectl auth reconcile` creates missing roles and bindings, then adds missing rules to
/// existing ones.
#[test]
fn kubectl_auth_reconcile() {
    let (s, dir) = server();
    s.kubectl_ok(&["create", "namespace", "rec"]);
    let file = dir.path().join("rbac.yaml");
    let doc = "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: r\n  namespace: rec\nrules:\n- apiGroups: [\"\"]\n  resources: [\"configmaps\"]\n  verbs: [\"get\"]\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: rb\n  namespace: rec\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: Role\n  name: r\nsubjects:\n- kind: User\n  name: alice\n";
    std::fs::write(&file, doc).expect("manifest");
    let out = s.kubectl_ok(&["auth", "reconcile", "-f", file.to_str().expect("path")]);
    assert!(
        out.contains("role.rbac.authorization.k8s.io/r reconciled"),
        "{out}"
    );
    assert!(
        out.contains("rolebinding.rbac.authorization.k8s.io/rb reconciled"),
        "{out}"
    );
    let alice_can = |verb: &str| {
        let (ok, out, _) = s.kubectl(&[
            "auth",
            "can-i",
            verb,
            "configmaps",
            "-n",
            "rec",
            "--as",
            "alice",
        ]);
        (ok, out)
    };
    // kubectl's own answer: exit status and "yes"/"no" (a crash or a refused flag fails).
    assert_eq!(alice_can("get"), (true, "yes\n".to_string()));
    assert_eq!(alice_can("list"), (false, "no\n".to_string()));
    std::fs::write(
        &file,
        doc.replace("verbs: [\"get\"]", "verbs: [\"get\", \"list\"]"),
    )
    .expect("manifest");
    s.kubectl_ok(&["auth", "reconcile", "-f", file.to_str().expect("path")]);
    assert_eq!(alice_can("list"), (true, "yes\n".to_string()));
}
