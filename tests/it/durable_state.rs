//! `kubesim serve --state FILE`: the cluster survives a restart, a SIGKILL at any moment
//! leaves the last complete save, and a file that is not a kubesim state stops the server
//! from starting instead of being replaced.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::common::server::{exchange, Server};
use serde_json::Value;

const COLL: &str = "/apis/apps/v1/namespaces/default/controllerrevisions";

fn start(state: &Path, interval_ms: &str) -> (Server, String) {
    let s = Server::start(&[
        "--tls",
        "false",
        "--state",
        state.to_str().unwrap(),
        "--state-interval-ms",
        interval_ms,
    ]);
    let addr = s.url.strip_prefix("http://").unwrap().to_string();
    (s, addr)
}

/// Creates a ControllerRevision with a generated name; its name and uid.
fn create(addr: &str) -> (String, String) {
    let body = r#"{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"generateName":"rev-"},"data":{},"revision":1}"#;
    let json = [("Content-Type", "application/json")];
    let (code, text) = exchange(addr, "POST", COLL, &json, body);
    assert_eq!(code, 201, "{text}");
    let v: Value = serde_json::from_str(&text).unwrap();
    (
        v["metadata"]["name"].as_str().unwrap().to_string(),
        v["metadata"]["uid"].as_str().unwrap().to_string(),
    )
}

fn names(addr: &str) -> Vec<String> {
    let (code, text) = exchange(addr, "GET", COLL, &[], "");
    assert_eq!(code, 200, "{text}");
    let v: Value = serde_json::from_str(&text).unwrap();
    v["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["metadata"]["name"].as_str().unwrap().to_string())
        .collect()
}

/// Waits until the state file holds `name` (a periodic save happened).
fn wait_saved(state: &Path, name: &str) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline {
        if std::fs::read_to_string(state).is_ok_and(|t| t.contains(name)) {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("{name} was never saved");
}

#[test]
fn a_killed_server_restarts_from_its_last_save_and_never_repeats_a_name() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("cluster.json");
    let (server, addr) = start(&state, "100");
    let first = create(&addr);
    let second = create(&addr);
    wait_saved(&state, &second.0);
    drop(server); // SIGKILL
                  // A save cut short leaves only its temporary file behind.
    std::fs::write(dir.path().join("cluster.json.tmp"), "{\"kind\":\"Kubes").unwrap();
    let (server, addr) = start(&state, "100");
    let mut have = names(&addr);
    have.sort();
    let mut want = vec![first.0.clone(), second.0.clone()];
    want.sort();
    assert_eq!(have, want);
    // The random generator goes on where it was: no name or uid comes again.
    let third = create(&addr);
    assert!(![&first.0, &second.0].contains(&&third.0), "{third:?}");
    assert!(![&first.1, &second.1].contains(&&third.1), "{third:?}");
    drop(server);
}

#[test]
fn a_graceful_stop_saves_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("cluster.json");
    let (mut server, addr) = start(&state, "3600000");
    let (name, _) = create(&addr);
    let status = server.interrupt(10).expect("exits after SIGINT");
    assert!(status.success(), "{status:?}");
    assert!(std::fs::read_to_string(&state).unwrap().contains(&name));
    let (_server, addr) = start(&state, "3600000");
    assert_eq!(names(&addr), [name]);
}

#[test]
fn a_file_that_is_not_a_kubesim_state_stops_the_start() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("cluster.json");
    let rows = [
        (
            "{\"kind\":\"KubesimState\",\"version\":1,\"sto",
            "is not a kubesim state: EOF",
        ),
        (
            "apiVersion: v1\nkind: Pod\n",
            "is not a kubesim state: expected value",
        ),
        (
            r#"{"kind":"Pod","apiVersion":"v1"}"#,
            "cannot be loaded: not a kubesim state",
        ),
    ];
    for (text, says) in rows {
        std::fs::write(&state, text).unwrap();
        let err = crate::common::server::start_refused(&["--state".as_ref(), state.as_os_str()]);
        assert!(err.contains(says), "{err}");
        assert_eq!(
            std::fs::read_to_string(&state).unwrap(),
            text,
            "left as it was"
        );
    }
}

/// A cluster holding an object nested as deep as Go allows saves and loads back whole: the
/// state file nests deeper than serde_json's default limit of 128 levels (this used to save
/// a file the next start refused as "not a kubesim state").
#[test]
fn a_state_with_the_deepest_objects_loads_back() {
    use kubesim::server::state_file;
    let mut e = crate::common::engine();
    let data = format!("{}1{}", r#"{"a":"#.repeat(9_999), "}".repeat(9_999));
    let body = format!(
        r#"{{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{{"name":"deep"}},"revision":1,"data":{data}}}"#
    );
    let json = [("content-type", "application/json")];
    let coll = crate::common::crs("default");
    assert_eq!(
        crate::common::send(&mut e, "POST", &coll, Some(&body), &json).code,
        201
    );
    let dir = std::env::temp_dir().join(format!("kubesim-deep-state-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("state.json");
    state_file::save(&path, &e.export_state_json()).unwrap();
    let mut again = crate::common::engine();
    assert_eq!(state_file::load(&path, &mut again), Ok(true));
    let one = crate::common::cr("default", "deep");
    let before = crate::common::get(&mut e, &one).text;
    assert_eq!(crate::common::get(&mut again, &one).text, before);
    assert!(before.contains(r#"{"a":{"a":"#));
    std::fs::remove_dir_all(&dir).unwrap();
}
