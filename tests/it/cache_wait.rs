//! Reads that wait for the watch cache (`waitUntilFreshAndBlock`, 3 s): which reads wait, how
//! long, what they answer when the cache arrives in time, and what when it does not (504, or
//! a consistent list's fallback to etcd). Through `Engine::handle` the wait is simulated
//! time passing; through `Engine::serve` it is a parked request other requests overtake.

use bytes::Bytes;
use kubesim::engine::Answer;

use crate::common::*;

fn clock(e: &kubesim::Engine) -> i64 {
    e.clock().now_ms()
}

fn request(uri: &str) -> http::Request<Bytes> {
    http::Request::get(uri).body(Bytes::new()).unwrap()
}

/// A watch cache lagging `lag_ms` behind one fresh write in `default`: the engine, and the
/// write's revision.
fn lagging(lag_ms: i64) -> (kubesim::Engine, u64) {
    let mut e = engine();
    e.set_cache_lag(lag_ms);
    let rv = rv_of(&create_cr(&mut e, "default", &cr_body("fresh", 1)));
    assert!(lag_ms == 0 || e.cache().revision() < rv);
    (e, rv)
}

/// Each read against a cache 1 s behind one write: whether it waits (and so how far the
/// simulated clock moves while the client waits), what serves it and what it sees.
#[test]
fn which_reads_wait_for_the_cache() {
    let list = crs("default");
    let one = cr("default", "fresh");
    // (path, query with {rv} for the write's revision, waited ms, source, sees the write)
    let rows = [
        // Any: whatever the cache has, at once.
        (&list, "resourceVersion=0", 0, "watch-cache", false),
        (&one, "resourceVersion=0", 0, "watch-cache", false),
        // A Most Recent get reads etcd.
        (&one, "", 0, "store", true),
        // A Most Recent list is a consistent read from the cache: it waits for it.
        (&list, "", 1000, "watch-cache", true),
        // Not older than: waits for the cache to reach the revision.
        (&list, "resourceVersion={rv}", 1000, "watch-cache", true),
        (&one, "resourceVersion={rv}", 1000, "watch-cache", true),
        (
            &list,
            "resourceVersion={rv}&resourceVersionMatch=NotOlderThan",
            1000,
            "watch-cache",
            true,
        ),
        // Exact (snapshots on): waits, then reads the cache's snapshot.
        (
            &list,
            "resourceVersion={rv}&resourceVersionMatch=Exact",
            1000,
            "cache-snapshot",
            true,
        ),
        // An older revision the cache already has: no wait.
        (
            &list,
            "resourceVersion=1&resourceVersionMatch=NotOlderThan",
            0,
            "watch-cache",
            false,
        ),
    ];
    for (path, query, waited, source, sees) in rows {
        let (mut e, rv) = lagging(1000);
        let uri = format!("{path}?{}", query.replace("{rv}", &rv.to_string()));
        let before = clock(&e);
        let r = get(&mut e, &uri);
        assert_eq!(clock(&e) - before, waited, "{uri}: the client waited");
        if !sees && path == &one {
            assert_eq!(r.code, 404, "{uri}: {}", r.text);
            continue;
        }
        assert_eq!(r.code, 200, "{uri}: {}", r.text);
        let read = explained(&r);
        assert!(read.contains(&format!("source={source}")), "{uri}: {read}");
        match waited {
            0 => assert!(!read.contains("waited-ms"), "{uri}: {read}"),
            ms => assert!(read.contains(&format!("waited-ms={ms}")), "{uri}: {read}"),
        }
        if path == &list {
            assert_eq!(r.names().contains(&"fresh".to_string()), sees, "{uri}");
        }
    }
}

/// Past its 3 s wait a read gives up: Not older than and Exact with the 504 naming the
/// cache's revision; a consistent list falls back to etcd.
#[test]
fn a_cache_later_than_three_seconds() {
    let list = crs("default");
    for (query, code, source) in [
        ("resourceVersion={rv}", 504, ""),
        ("resourceVersion={rv}&resourceVersionMatch=Exact", 504, ""),
        ("", 200, "store"),
    ] {
        let (mut e, rv) = lagging(5000);
        let cache = e.cache().revision();
        let uri = format!("{list}?{}", query.replace("{rv}", &rv.to_string()));
        let before = clock(&e);
        let r = get(&mut e, &uri);
        assert_eq!(clock(&e) - before, 3000, "{uri}: the whole wait");
        assert_eq!(r.code, code, "{uri}: {}", r.text);
        if code == 504 {
            assert_eq!(
                r.message(),
                format!("Timeout: Too large resource version: {rv}, current: {cache}")
            );
            assert_eq!(r.json["details"]["retryAfterSeconds"], 1);
            assert_eq!(r.header("retry-after"), "1");
        } else {
            let read = explained(&r);
            assert!(read.contains(&format!("source={source}")), "{read}");
            assert!(read.contains("waited-ms=3000"), "{read}");
            assert_eq!(r.names(), ["fresh"]);
        }
    }
    // A revision the store has not reached waits the whole 3 s too.
    let (mut e, rv) = lagging(0);
    let before = clock(&e);
    let r = get(&mut e, &format!("{list}?resourceVersion={}", rv + 1));
    assert_eq!((r.code, clock(&e) - before), (504, 3000), "{}", r.text);
}

/// While a read waits, others are served: a write made during a consistent list's wait is in
/// its answer when the cache has it by then, or when the list falls back to etcd.
#[test]
fn a_waiting_list_sees_what_the_cache_got_meanwhile() {
    for (lag, source) in [(1000, "watch-cache"), (5000, "store")] {
        let (mut e, _) = lagging(lag);
        let Answer::Later(mut waiting) = e.serve(request(&crs("default"))) else {
            panic!("a consistent list waits for a lagging cache");
        };
        assert!(waiting.try_take().is_none());
        create_cr(&mut e, "default", &cr_body("meanwhile", 1));
        let written = e.store().revision();
        e.advance(waiting.due_ms() - clock(&e));
        let r = Resp::from_response(&waiting.try_take().expect("answered at its due time"));
        assert_eq!(r.code, 200, "{}", r.text);
        assert_eq!(r.names(), ["fresh", "meanwhile"], "lag {lag}");
        assert_eq!(rv_of(&r.json), written);
        assert!(
            explained(&r).contains(&format!("source={source}")),
            "{}",
            explained(&r)
        );
    }
}

/// A streaming list waits for the cache before its response starts; one that the cache does
/// not reach within 3 s gets a single ERROR event with the 504.
#[test]
fn a_streaming_list_waits_then_streams_or_fails() {
    let q =
        "watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true";
    let (mut e, rv) = lagging(2000);
    let before = clock(&e);
    let mut w = watch(&mut e, &format!("{}?{q}", crs("default")));
    assert_eq!(clock(&e) - before, 2000);
    assert!(w.headers["x-kubesim-read"]
        .to_str()
        .unwrap()
        .contains("waited-ms=2000"));
    let (events, _) = w.events();
    let types: Vec<&str> = events
        .iter()
        .map(|ev| ev["type"].as_str().unwrap())
        .collect();
    assert_eq!(types, ["ADDED", "BOOKMARK"]);
    assert_eq!(
        events[1]["object"]["metadata"]["resourceVersion"],
        rv.to_string()
    );

    let (mut e, rv) = lagging(5000);
    let cache = e.cache().revision();
    let mut w = watch(&mut e, &format!("{}?{q}", crs("default")));
    assert_eq!(w.code, 200);
    let (events, ended) = w.events();
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0]["type"], "ERROR");
    assert_eq!(events[0]["object"]["code"], 504);
    assert_eq!(
        events[0]["object"]["message"],
        format!("Timeout: Too large resource version: {rv}, current: {cache}")
    );
    assert!(ended);
}

/// A watch without initial events never waits: a legacy one (no `WatchList`) starts from
/// the cache's state as it is; one from a revision replays what the cache gets later.
#[test]
fn watches_without_initial_events_do_not_wait() {
    let mut e = kubesim::Engine::new(kubesim::Config {
        feature_gates: kubesim::features::FeatureGates::parse("WatchList=false").unwrap(),
        ..kubesim::Config::default()
    });
    e.set_cache_lag(2000);
    create_cr(&mut e, "default", &cr_body("fresh", 1));
    let before = clock(&e);
    let mut legacy = watch(&mut e, &format!("{}?watch=1", crs("default")));
    assert_eq!(clock(&e), before, "no wait");
    assert!(
        legacy.summary().is_empty(),
        "the cache's state: without the write"
    );
    e.advance(2000);
    assert_eq!(
        legacy.summary(),
        ["ADDED fresh"],
        "then the write as an event"
    );

    let (mut e, rv) = lagging(2000);
    let before = clock(&e);
    let mut from = watch(
        &mut e,
        &format!("{}?watch=1&resourceVersion={}", crs("default"), rv - 1),
    );
    assert_eq!(clock(&e), before, "no wait");
    assert!(from.summary().is_empty());
    e.advance(2000);
    assert_eq!(from.summary(), ["ADDED fresh"]);
}

/// The host's view: a waiting read is a `Waiting` with its due time; nothing is answered
/// before it; the answer carries the whole wait.
#[test]
fn serve_parks_a_read_until_its_due_time() {
    let (mut e, rv) = lagging(1500);
    let arrived = clock(&e);
    let Answer::Later(mut waiting) =
        e.serve(request(&format!("{}?resourceVersion={rv}", crs("default"))))
    else {
        panic!("a Not older than read waits for a lagging cache");
    };
    assert_eq!(waiting.due_ms(), arrived + 1500);
    e.advance(1499);
    assert!(waiting.try_take().is_none(), "not before the cache has it");
    e.advance(1);
    let r = Resp::from_response(&waiting.try_take().expect("answered"));
    assert_eq!(r.code, 200);
    assert!(
        explained(&r).ends_with("waited-ms=1500"),
        "{}",
        explained(&r)
    );
    assert_eq!(r.names(), ["fresh"]);
}

/// A read is authorized when it arrives, as kube-apiserver's filters run before storage
/// waits: revoking the grant while it waits does not turn it into a 403.
#[test]
fn a_waiting_read_keeps_the_authorization_it_arrived_with() {
    use crate::common::auth::{admin, server_like, RBAC};
    use serde_json::json;
    let mut e = server_like();
    admin(
        &mut e,
        "POST",
        &format!("{RBAC}/clusterroles"),
        &json!({"metadata": {"name": "reader"}, "rules": [{"apiGroups": ["apps"], "resources": ["controllerrevisions"], "verbs": ["list"]}]}),
    );
    admin(
        &mut e,
        "POST",
        &format!("{RBAC}/clusterrolebindings"),
        &json!({"metadata": {"name": "reader"}, "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "reader"}, "subjects": [{"kind": "User", "name": "alice"}]}),
    );
    e.set_cache_lag(1000);
    let rv = e.store().revision();
    let req = http::Request::get(format!("{}?resourceVersion={}", crs("default"), rv + 1))
        .header("authorization", "Bearer t-alice")
        .body(Bytes::new())
        .unwrap();
    let Answer::Later(mut waiting) = e.serve(req) else {
        panic!("a read of a revision not yet written waits");
    };
    admin(
        &mut e,
        "DELETE",
        &format!("{RBAC}/clusterrolebindings/reader"),
        &json!({}),
    );
    e.advance(3000);
    let r = Resp::from_response(&waiting.try_take().expect("answered"));
    assert_eq!(r.code, 200, "{}", r.text);
}

/// Importing a state restarts the server: reads that were waiting end with a 503.
#[test]
fn an_import_ends_the_waiting_reads() {
    let (mut e, rv) = lagging(1000);
    let state = e.export_state();
    let Answer::Later(mut waiting) =
        e.serve(request(&format!("{}?resourceVersion={rv}", crs("default"))))
    else {
        panic!("waits");
    };
    e.import_state(&state).unwrap();
    let r = Resp::from_response(&waiting.try_take().expect("ended"));
    assert_eq!((r.code, r.reason()), (503, "ServiceUnavailable"));
}

/// Without `ListFromCacheSnapshot` every continuation goes to etcd: an inconsistent one
/// (`rv: -1`) reads the store's latest revision, even with a cache that is up to date.
#[test]
fn an_inconsistent_continuation_without_snapshots_reads_etcd() {
    let mut e = kubesim::Engine::new(kubesim::Config {
        feature_gates: kubesim::features::FeatureGates::parse("ListFromCacheSnapshot=false")
            .unwrap(),
        ..kubesim::Config::default()
    });
    create_cr(&mut e, "default", &cr_body("fresh", 1));
    assert_eq!(e.cache().revision(), e.store().revision());
    use base64::Engine as _;
    let token = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .encode(r#"{"v":"meta.k8s.io/v1","rv":-1,"start":"/\u0000"}"#);
    let before = clock(&e);
    let r = get(
        &mut e,
        &format!("{}?limit=5&continue={token}", crs("default")),
    );
    assert_eq!(r.code, 200, "{}", r.text);
    assert_eq!(clock(&e), before, "no wait");
    assert!(explained(&r).contains("source=store"), "{}", explained(&r));
    assert_eq!(r.names(), ["fresh"]);
}

/// DELETECOLLECTION lists through the cacher, as the generic store's `DeleteCollection` does:
/// its Not older than list waits for the cache like a plain list, then deletes what it saw;
/// with a cache later than 3 s it fails with the list's 504 and deletes nothing.
#[test]
fn a_delete_collection_waits_for_its_list() {
    for (lag, code) in [(1000, 200), (5000, 504)] {
        let (mut e, rv) = lagging(lag);
        let before = clock(&e);
        let r = delete(&mut e, &format!("{}?resourceVersion={rv}", crs("default")));
        assert_eq!(r.code, code, "lag {lag}: {}", r.text);
        assert_eq!(
            clock(&e) - before,
            lag.min(3000),
            "lag {lag}: the client waited"
        );
        let left = get(&mut e, &crs("default")).names();
        if code == 200 {
            assert_eq!(r.names(), ["fresh"]);
            assert!(left.is_empty(), "{left:?}");
        } else {
            assert_eq!(left, ["fresh"]);
        }
    }
}
