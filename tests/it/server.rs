//! The native host: `kubesim serve` flags, the kubeconfig it writes, and graceful Ctrl-C.

use crate::common::server::{exchange_with_head, Server};
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

/// One HTTP/1.1 exchange on its own connection: status code, `x-kubesim-read`, body.
fn exchange(addr: &str, method: &str, path: &str, body: &str) -> (u16, String, String) {
    let headers = [("Content-Type", "application/json")];
    let (code, head, body) = exchange_with_head(addr, method, path, &headers, body);
    let read = head
        .lines()
        .find_map(|l| l.strip_prefix("x-kubesim-read: "))
        .unwrap_or("")
        .to_string();
    (code, read, body)
}

/// On a wall clock a read that waits for the watch cache holds only its own connection:
/// the write it waits for is served meanwhile, and it is answered once the cache has it.
#[test]
fn a_read_waits_for_the_cache_in_real_time() {
    let s = Server::start(&["--tls", "false"]);
    let addr = s.url.strip_prefix("http://").unwrap().to_string();
    let (code, _, _) = exchange(&addr, "PUT", "/kubesim/v1/cache/lag?ms=1000", "");
    assert_eq!(code, 200);
    let (_, _, state) = exchange(&addr, "GET", "/kubesim/v1/state", "");
    let state: serde_json::Value = serde_json::from_str(&state).unwrap();
    let next = state["revision"].as_u64().unwrap() + 1;
    let path = "/apis/apps/v1/namespaces/default/controllerrevisions";
    let waiter = {
        let addr = addr.clone();
        std::thread::spawn(move || {
            exchange(&addr, "GET", &format!("{path}?resourceVersion={next}"), "")
        })
    };
    std::thread::sleep(std::time::Duration::from_millis(100));
    let body = r#"{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"awaited"},"data":{},"revision":1}"#;
    let (code, _, text) = exchange(&addr, "POST", path, body);
    assert_eq!(code, 201, "{text}");
    let (code, read, text) = waiter.join().unwrap();
    assert_eq!(code, 200, "{text}");
    assert!(text.contains("\"awaited\""), "{text}");
    assert!(read.contains("source=watch-cache"), "{read}");
    assert!(read.contains("waited-ms="), "{read}");
}
