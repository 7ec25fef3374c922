//! Load and soak: `kubesim serve` under concurrent writers and readers with many watchers
//! (selectors, resumes after forced disconnects, initial-events streams), every watcher's
//! events checked against the history a never-disconnected watcher saw, and that history
//! against every acknowledged write. `make test` runs it briefly with small numbers;
//! `make soak` runs `soak_full` (64 clients, 1,000 watchers, SOAK_SECONDS, default 60) and
//! prints the report.

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::server::Server;

const NAMESPACES: &[&str] = &["soak-0", "soak-1", "soak-2", "soak-3"];
const GROUPS: &[&str] = &["a", "b"];

/// One keep-alive HTTP/1.1 connection.
struct Conn {
    r: BufReader<TcpStream>,
    addr: String,
}

impl Conn {
    fn open(addr: &str) -> Conn {
        let s = TcpStream::connect(addr).expect("connect");
        s.set_nodelay(true).unwrap();
        Conn {
            r: BufReader::new(s),
            addr: addr.to_string(),
        }
    }

    fn send_head(&mut self, method: &str, path: &str, ct: &str, body: &str) {
        let req = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {}\r\n\
             Content-Type: {ct}\r\nContent-Length: {}\r\n\r\n{body}",
            self.addr,
            kubesim::auth::ADMIN_TOKEN,
            body.len()
        );
        self.r.get_mut().write_all(req.as_bytes()).expect("send");
    }

    /// Status code and whether the body is chunked (headers consumed).
    fn read_head(&mut self) -> (u16, Option<usize>) {
        let mut line = String::new();
        self.r.read_line(&mut line).expect("status line");
        let code = line
            .split(' ')
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or(0);
        let mut len = None;
        loop {
            line.clear();
            self.r.read_line(&mut line).expect("header");
            let l = line.trim_end();
            if l.is_empty() {
                return (code, len);
            }
            if let Some(v) = l.to_ascii_lowercase().strip_prefix("content-length: ") {
                len = v.parse().ok();
            }
        }
    }

    fn request(&mut self, method: &str, path: &str, ct: &str, body: &str) -> (u16, Value) {
        self.send_head(method, path, ct, body);
        let (code, len) = self.read_head();
        let mut buf = vec![0; len.expect("a sized body")];
        self.r.read_exact(&mut buf).expect("body");
        (code, serde_json::from_slice(&buf).unwrap_or(Value::Null))
    }

    /// The next watch frame; `None` when the stream ends.
    fn next_frame(&mut self) -> Option<Value> {
        let mut line = String::new();
        loop {
            line.clear();
            if self.r.read_line(&mut line).ok()? == 0 {
                return None;
            }
            let size = usize::from_str_radix(line.trim(), 16).ok()?;
            if size == 0 {
                return None;
            }
            let mut chunk = vec![0; size + 2];
            self.r.read_exact(&mut chunk).ok()?;
            let text = String::from_utf8_lossy(&chunk[..size]).into_owned();
            if let Some(frame) = text.lines().find(|l| !l.is_empty()) {
                return serde_json::from_str(frame).ok();
            }
        }
    }
}

/// One event as the checks compare them: type, namespace/name, resourceVersion, and the
/// object's `group` label (set at creation, never changed, so a selector on it sees every
/// event of an object or none).
type Event = (String, String, u64, String);

fn event_of(frame: &Value) -> Event {
    let m = &frame["object"]["metadata"];
    let rv = m["resourceVersion"]
        .as_str()
        .and_then(|r| r.parse().ok())
        .unwrap_or(0);
    let key = format!(
        "{}/{}",
        m["namespace"].as_str().unwrap_or(""),
        m["name"].as_str().unwrap_or("")
    );
    let group = m["labels"]["group"].as_str().unwrap_or("").to_string();
    (
        frame["type"].as_str().unwrap_or("").to_string(),
        key,
        rv,
        group,
    )
}

/// The sizes of one run.
pub struct Plan {
    pub seconds: f64,
    pub clients: usize,
    pub watchers: usize,
}

#[derive(Default)]
struct Tally {
    latencies_us: Vec<u64>,
    /// Acknowledged writes: (type, key, rv); deletes carry rv 0 (their revision is the
    /// event's).
    writes: Vec<Event>,
    server_errors: Vec<String>,
}

/// What a watcher asked for and what it saw.
struct Seen {
    namespace: Option<&'static str>,
    group: Option<&'static str>,
    start_rv: u64,
    /// A streaming list's initial ADDED events (the state at `start_rv`).
    initial: Option<Vec<Event>>,
    events: Vec<Event>,
    resumes: usize,
}

fn watch_path(namespace: Option<&str>, group: Option<&str>, query: &str) -> String {
    let base = match namespace {
        Some(ns) => format!("/api/v1/namespaces/{ns}/configmaps"),
        None => "/api/v1/configmaps".to_string(),
    };
    let selector = group
        .map(|g| format!("&labelSelector=group%3D{g}"))
        .unwrap_or_default();
    format!("{base}?watch=1&allowWatchBookmarks=true{selector}&{query}")
}

/// Watches from `start_rv` until it has seen an event at or past `until` (read at the
/// end), resuming from its last resourceVersion whenever its connection is dropped, and on
/// purpose every `drop_every` events.
fn watcher(
    addr: String,
    namespace: Option<&'static str>,
    group: Option<&'static str>,
    start_rv: u64,
    drop_every: usize,
    until: Arc<AtomicUsize>,
) -> Seen {
    let mut seen = Seen {
        namespace,
        group,
        start_rv,
        initial: None,
        events: Vec::new(),
        resumes: 0,
    };
    let mut rv = start_rv;
    // `start_rv` 0: a streaming list first (sendInitialEvents), its state then its changes.
    let mut initial = (start_rv == 0).then(Vec::new);
    loop {
        let mut c = Conn::open(&addr);
        let query = match initial {
            Some(_) => "sendInitialEvents=true&resourceVersionMatch=NotOlderThan".to_string(),
            None => format!("resourceVersion={rv}"),
        };
        let path = watch_path(namespace, group, &format!("{query}&timeoutSeconds=600"));
        c.send_head("GET", &path, "application/json", "");
        let (code, _) = c.read_head();
        assert_eq!(code, 200, "watch {path}");
        let mut in_this = 0;
        while let Some(frame) = c.next_frame() {
            let ev = event_of(&frame);
            let end_of_initial =
                frame["object"]["metadata"]["annotations"]["k8s.io/initial-events-end"] == "true";
            if let Some(state) = initial.as_mut() {
                if ev.0 == "BOOKMARK" && end_of_initial {
                    seen.start_rv = ev.2;
                    rv = ev.2;
                    seen.initial = initial.take();
                } else {
                    assert_eq!(ev.0, "ADDED", "{frame}");
                    state.push(ev);
                }
                continue;
            }
            if ev.0 == "BOOKMARK" {
                assert!(!end_of_initial, "a second initial-events-end: {frame}");
                rv = ev.2;
            } else {
                assert_ne!(ev.0, "ERROR", "{frame}");
                rv = ev.2;
                seen.events.push(ev);
                in_this += 1;
            }
            let goal = until.load(Ordering::Acquire) as u64;
            if goal > 0 && rv >= goal {
                return seen;
            }
            if drop_every > 0 && in_this >= drop_every {
                break;
            }
        }
        seen.resumes += 1;
    }
}

fn percentile(sorted: &[u64], p: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    sorted[((sorted.len() - 1) as f64 * p) as usize]
}

fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines().find_map(|l| {
                l.strip_prefix("VmRSS:")
                    .map(|v| v.trim().trim_end_matches(" kB").trim().to_string())
            })
        })
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// Runs the plan against a fresh server; panics on any finding, returns the report.
pub fn run(plan: &Plan) -> String {
    let server = Server::start(&["--tls", "false"]);
    let addr = server.url.strip_prefix("http://").unwrap().to_string();
    let mut admin = Conn::open(&addr);
    for ns in NAMESPACES {
        let body = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}});
        assert_eq!(
            admin
                .request(
                    "POST",
                    "/api/v1/namespaces",
                    "application/json",
                    &body.to_string()
                )
                .0,
            201
        );
    }
    let (_, list) = admin.request("GET", "/api/v1/configmaps", "application/json", "");
    let rv0: u64 = list["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    let rss_start = rss_kib(server.pid());
    let until = Arc::new(AtomicUsize::new(0));

    // The oracle: one watcher over everything, never dropped.
    let oracle = {
        let (addr, until) = (addr.clone(), until.clone());
        std::thread::spawn(move || watcher(addr, None, None, rv0, 0, until))
    };
    let mut watchers = Vec::new();
    for i in 0..plan.watchers {
        let namespace = (i % 3 != 0).then_some(NAMESPACES[i % NAMESPACES.len()]);
        let group = (i % 2 == 0).then_some(GROUPS[(i / 2) % GROUPS.len()]);
        let drop_every = [0, 0, 0, 0, 0, 0, 0, 0, 50, 200][i % 10];
        let (addr, until) = (addr.clone(), until.clone());
        let spawned = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(move || watcher(addr, namespace, group, rv0, drop_every, until))
            .expect("spawn watcher");
        watchers.push(spawned);
    }

    let tally = Arc::new(Mutex::new(Tally::default()));
    let stop = Arc::new(AtomicBool::new(false));
    let start = Instant::now();
    let mut peak = rss_start;
    let clients: Vec<_> = (0..plan.clients)
        .map(|c| {
            let (addr, tally, stop) = (addr.clone(), tally.clone(), stop.clone());
            std::thread::spawn(move || client(&addr, c, &tally, &stop))
        })
        .collect();
    // A tenth more watchers start halfway, as streaming lists (their initial state is the
    // history's state at the revision their initial-events-end bookmark names).
    let mut streaming_started = false;
    while start.elapsed().as_secs_f64() < plan.seconds {
        std::thread::sleep(Duration::from_millis(100));
        peak = peak.max(rss_kib(server.pid()));
        if !streaming_started && start.elapsed().as_secs_f64() >= plan.seconds / 2.0 {
            streaming_started = true;
            for i in 0..plan.watchers.div_ceil(10) {
                let namespace = (i % 2 == 0).then_some(NAMESPACES[i % NAMESPACES.len()]);
                let group = (i % 3 == 0).then_some(GROUPS[i % GROUPS.len()]);
                let (addr, until) = (addr.clone(), until.clone());
                let spawned = std::thread::Builder::new()
                    .stack_size(256 * 1024)
                    .spawn(move || watcher(addr, namespace, group, 0, 0, until))
                    .expect("spawn watcher");
                watchers.push(spawned);
            }
        }
    }
    stop.store(true, Ordering::Release);
    for c in clients {
        c.join().expect("client");
    }
    let elapsed = start.elapsed().as_secs_f64();
    // The server closes a connection idle for its header timeout (32 s): a new one.
    let mut admin = Conn::open(&addr);
    // A sentinel in every namespace and group ends every watcher's stream.
    let mut last = 0;
    for ns in NAMESPACES {
        for g in GROUPS {
            let body = json!({"apiVersion": "v1", "kind": "ConfigMap",
                "metadata": {"name": format!("sentinel-{g}"), "labels": {"group": g}}});
            let (code, obj) = admin.request(
                "POST",
                &format!("/api/v1/namespaces/{ns}/configmaps"),
                "application/json",
                &body.to_string(),
            );
            assert_eq!(code, 201);
            last = obj["metadata"]["resourceVersion"]
                .as_str()
                .unwrap()
                .parse()
                .unwrap();
        }
    }
    until.store(last as usize, Ordering::Release);
    // Wake watchers blocked on streams that saw their last sentinel before `until` was set.
    for ns in NAMESPACES {
        let body = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "final", "labels": {"group": "a"}}});
        admin.request(
            "POST",
            &format!("/api/v1/namespaces/{ns}/configmaps"),
            "application/json",
            &body.to_string(),
        );
        let body = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "final-b", "labels": {"group": "b"}}});
        admin.request(
            "POST",
            &format!("/api/v1/namespaces/{ns}/configmaps"),
            "application/json",
            &body.to_string(),
        );
    }
    let history = oracle.join().expect("oracle");
    let seen: Vec<Seen> = watchers
        .into_iter()
        .map(|w| w.join().expect("watcher"))
        .collect();
    let rss_end = rss_kib(server.pid());
    let tally = tally.lock().unwrap();
    assert!(
        tally.server_errors.is_empty(),
        "5xx: {:?}",
        &tally.server_errors[..tally.server_errors.len().min(5)]
    );
    check_history(&history.events, &tally.writes, last);
    let resumes: usize = seen.iter().map(|s| s.resumes).sum();
    let streams: Vec<usize> = seen
        .iter()
        .filter_map(|s| s.initial.as_ref().map(Vec::len))
        .collect();
    assert!(!streams.is_empty(), "no streaming list ran");
    for s in &seen {
        check_watcher(s, &history.events, last);
    }
    let mut lat = tally.latencies_us.clone();
    lat.sort_unstable();
    format!(
        "soak: {:.0} s, {} clients, {} watchers ({} resumes after forced disconnects), \
         {} streaming lists ({} initial events)\n\
         requests: {} ({:.0}/s), latency p50 {} us, p99 {} us, max {} us; writes {}; history {} events\n\
         server RSS: start {} KiB, peak {} KiB, end {} KiB\n",
        elapsed, plan.clients, plan.watchers, resumes, streams.len(),
        streams.iter().sum::<usize>(), lat.len(), lat.len() as f64 / elapsed,
        percentile(&lat, 0.5), percentile(&lat, 0.99), lat.last().copied().unwrap_or(0),
        tally.writes.len(), history.events.len(), rss_start, peak, rss_end
    )
}

/// One client: creates, patches, deletes and reads ConfigMaps until told to stop.
fn client(addr: &str, id: usize, tally: &Mutex<Tally>, stop: &AtomicBool) {
    let mut c = Conn::open(addr);
    let mut live: Vec<(String, String)> = Vec::new();
    let mut n = 0usize;
    let mut local = Tally::default();
    while !stop.load(Ordering::Acquire) {
        n += 1;
        let ns = NAMESPACES[(id + n) % NAMESPACES.len()];
        let t = Instant::now();
        let (method, path, ct, body, kind) = match n % 5 {
            0 | 1 => {
                let name = format!("c{id}-{n}");
                let group = GROUPS[(id + n) % 2];
                let body = json!({"apiVersion": "v1", "kind": "ConfigMap",
                    "metadata": {"name": name, "labels": {"group": group}}, "data": {"n": "0"}});
                live.push((ns.to_string(), name));
                (
                    "POST",
                    format!("/api/v1/namespaces/{ns}/configmaps"),
                    "application/json",
                    body.to_string(),
                    "ADDED",
                )
            }
            2 if !live.is_empty() => {
                let (ns, name) = &live[n % live.len()];
                let body = json!({"data": {"n": n.to_string()}});
                (
                    "PATCH",
                    format!("/api/v1/namespaces/{ns}/configmaps/{name}"),
                    "application/merge-patch+json",
                    body.to_string(),
                    "MODIFIED",
                )
            }
            3 if !live.is_empty() => {
                let (ns, name) = live.swap_remove(n % live.len());
                // A ConfigMap's DELETE answers a Status, not the object: note what went.
                let gone = ("DELETED".into(), format!("{ns}/{name}"), 0, String::new());
                local.writes.push(gone);
                (
                    "DELETE",
                    format!("/api/v1/namespaces/{ns}/configmaps/{name}"),
                    "application/json",
                    String::new(),
                    "",
                )
            }
            _ => (
                "GET",
                format!("/api/v1/namespaces/{ns}/configmaps?limit=50"),
                "application/json",
                String::new(),
                "",
            ),
        };
        let (code, obj) = c.request(method, &path, ct, &body);
        local.latencies_us.push(t.elapsed().as_micros() as u64);
        if code >= 500 {
            local
                .server_errors
                .push(format!("{code} {method} {path}: {obj}"));
        }
        assert!(code < 300, "{code} {method} {path}: {obj}");
        if !kind.is_empty() {
            local
                .writes
                .push(event_of(&json!({"type": kind, "object": obj})));
        }
    }
    let mut t = tally.lock().unwrap();
    t.latencies_us.extend(local.latencies_us);
    t.writes.extend(local.writes);
    t.server_errors.extend(local.server_errors);
}

/// The oracle's history: in revision order without duplicates, and every acknowledged
/// write in it exactly once (a delete as the one DELETED event of its object).
fn check_history(history: &[Event], writes: &[Event], last: u64) {
    for pair in history.windows(2) {
        assert!(pair[0].2 < pair[1].2, "out of order or repeated: {pair:?}");
    }
    assert!(
        history.iter().any(|e| e.2 == last),
        "the history reaches the sentinels"
    );
    let events: HashSet<&Event> = history.iter().collect();
    let deleted: HashSet<&str> = history
        .iter()
        .filter(|e| e.0 == "DELETED")
        .map(|e| e.1.as_str())
        .collect();
    for w in writes {
        match w.0.as_str() {
            "DELETED" => assert!(deleted.contains(w.1.as_str()), "delete of {} not seen", w.1),
            _ => assert!(events.contains(w), "write {w:?} not seen"),
        }
    }
}

/// A watcher saw exactly the history's events for its namespace and group after its start
/// and up to the sentinels, in order, with nothing repeated or missing across its resumes.
fn check_watcher(s: &Seen, history: &[Event], last: u64) {
    let want: Vec<&Event> = history
        .iter()
        .filter(|e| e.2 > s.start_rv && e.2 <= last)
        .filter(|e| {
            s.namespace
                .is_none_or(|ns| e.1.starts_with(&format!("{ns}/")))
        })
        .filter(|e| s.group.is_none_or(|g| e.3 == g))
        .collect();
    if let Some(initial) = &s.initial {
        check_initial(s, initial, history);
    }
    let got: Vec<&Event> = s.events.iter().filter(|e| e.2 <= last).collect();
    let first_difference = got.iter().zip(&want).position(|(a, b)| a != b);
    assert!(
        got.len() == want.len() && first_difference.is_none(),
        "watcher ns={:?} group={:?}: {} events, the history has {}; first difference at {:?}",
        s.namespace,
        s.group,
        got.len(),
        want.len(),
        first_difference.map(|i| (got[i], want[i]))
    );
}

/// A streaming list's initial events are the history's state at the revision it names:
/// each live object once, at its latest version by then.
fn check_initial(s: &Seen, initial: &[Event], history: &[Event]) {
    let mut state: std::collections::BTreeMap<&str, &Event> = Default::default();
    for e in history.iter().take_while(|e| e.2 <= s.start_rv) {
        match e.0.as_str() {
            "DELETED" => state.remove(e.1.as_str()),
            _ => state.insert(e.1.as_str(), e),
        };
    }
    let mut want: Vec<(&str, u64)> = state
        .values()
        .filter(|e| {
            s.namespace
                .is_none_or(|ns| e.1.starts_with(&format!("{ns}/")))
        })
        .filter(|e| s.group.is_none_or(|g| e.3 == g))
        .map(|e| (e.1.as_str(), e.2))
        .collect();
    let mut got: Vec<(&str, u64)> = initial.iter().map(|e| (e.1.as_str(), e.2)).collect();
    want.sort_unstable();
    got.sort_unstable();
    assert_eq!(
        got, want,
        "streaming list ns={:?} group={:?} at {}: initial events differ from the state",
        s.namespace, s.group, s.start_rv
    );
}

#[test]
fn a_short_soak_loses_and_repeats_no_event() {
    let report = run(&Plan {
        seconds: 2.0,
        clients: 8,
        watchers: 24,
    });
    println!("{report}");
}

/// `make soak`: 64 clients and 1,000 watchers for SOAK_SECONDS (default 60).
#[test]
#[ignore = "long: make soak"]
fn soak_full() {
    let seconds = std::env::var("SOAK_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60.0);
    let report = run(&Plan {
        seconds,
        clients: 64,
        watchers: 1000,
    });
    println!("{report}");
}
