//! kubectl's read paths against `kubesim serve`: `get -w` sees changes as they happen, and
//! `--chunk-size` pages through a collection with continue tokens.

use crate::common::server::Server;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

fn cr_yaml(name: &str) -> String {
    format!("apiVersion: apps/v1\nkind: ControllerRevision\nmetadata:\n  name: {name}\ndata: {{}}\nrevision: 1\n")
}

#[test]
fn kubectl_get_watch_streams_changes() {
    let s = Server::start(&[]);
    let f = s.write("a.yaml", &cr_yaml("first"));
    s.kubectl_ok(&["create", "-f", &f]);
    let mut child = Command::new("kubectl")
        .arg("--kubeconfig")
        .arg(&s.kubeconfig)
        .arg("--cache-dir")
        .arg(s.dir.path().join("cache"))
        .args(["get", "controllerrevisions", "-w", "--output-watch-events"])
        .env("HOME", s.dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("kubectl -w");
    let (tx, rx) = mpsc::channel();
    let out = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut seen = Vec::new();
    let wait_for = |needle: &str, seen: &mut Vec<String>| {
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        while std::time::Instant::now() < deadline {
            if let Ok(line) = rx.recv_timeout(Duration::from_millis(200)) {
                seen.push(line.clone());
                if line.contains(needle) {
                    return;
                }
            }
        }
        panic!("kubectl -w never printed {needle:?}; saw {seen:?}");
    };
    wait_for("first", &mut seen);
    let f = s.write("b.yaml", &cr_yaml("second"));
    s.kubectl_ok(&["create", "-f", &f]);
    wait_for("second", &mut seen);
    s.kubectl_ok(&["delete", "controllerrevision", "first", "--wait=false"]);
    wait_for("DELETED", &mut seen);
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        seen.iter()
            .any(|l| l.starts_with("ADDED") && l.contains("second")),
        "{seen:?}"
    );
}

#[test]
fn kubectl_chunk_size_pages_with_continue_tokens() {
    let s = Server::start(&[]);
    for n in ["c1", "c2", "c3", "c4", "c5"] {
        let f = s.write(&format!("{n}.yaml"), &cr_yaml(n));
        s.kubectl_ok(&["create", "-f", &f]);
    }
    let (ok, out, err) = s.kubectl(&["get", "controllerrevisions", "--chunk-size=2", "-v=6"]);
    assert!(ok, "{err}");
    for n in ["c1", "c2", "c3", "c4", "c5"] {
        assert!(out.contains(n), "{out}");
    }
    assert!(err.contains("limit=2"), "{err}");
    assert_eq!(err.matches("continue=").count(), 2, "three pages: {err}");
}
