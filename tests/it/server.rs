//! The native host: `kubesim serve` flags, the kubeconfig it writes, and graceful Ctrl-C.

use crate::common::server::Server;
use std::process::Command;

#[test]
fn kubeconfig_points_kubectl_at_the_server() {
    let s = Server::start(&["--clock", "manual", "--seed", "7"]);
    let text = std::fs::read_to_string(&s.kubeconfig).unwrap();
    assert!(text.contains(&format!("server: {}", s.url)), "{text}");
    let out = s.kubectl_ok(&["get", "--raw", "/version"]);
    assert!(out.contains("\"major\""), "{out}");
    // Manual clock: creation timestamps stay at the simulated start.
    let ns = s.kubectl_ok(&[
        "get",
        "ns",
        "default",
        "-o",
        "jsonpath={.metadata.creationTimestamp}",
    ]);
    assert_eq!(ns, "2026-01-01T00:00:00Z");
}

#[test]
fn feature_gates_use_the_apiserver_flag_format() {
    let s = Server::start(&[
        "--feature-gates",
        "CBORServingAndStorage=true,APIResponseCompression=false",
    ]);
    drop(s);
    let out = Command::new(env!("CARGO_BIN_EXE_kubesim"))
        .args(["serve", "--port", "0", "--feature-gates", "NoSuchGate=true"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("unrecognized feature gate: NoSuchGate"),
        "{err}"
    );
}

#[test]
fn ctrl_c_stops_the_server_gracefully() {
    let mut s = Server::start(&[]);
    s.kubectl_ok(&["get", "ns"]);
    let status = s.interrupt(10).expect("server exits after SIGINT");
    assert!(status.success(), "{status:?}");
}
