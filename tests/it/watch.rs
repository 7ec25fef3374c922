//! Watches: the three start semantics on every watch path, event types and selector
//! transitions, resuming without gaps or duplicates, 410 after compaction, bookmarks,
//! timeouts, streaming lists, and the parameter errors.

use crate::common::*;
use serde_json::json;

fn ws(ns: &str, q: &str) -> String {
    format!("{}?watch=1&{q}", crs(ns))
}

#[test]
fn start_semantics_table() {
    let mut e = engine();
    create_cr(&mut e, "default", &cr_body("a", 1));
    let n = rv_of(&create_cr(&mut e, "default", &cr_body("b", 1)));
    create_cr(&mut e, "default", &cr_body("c", 1));
    let rows: [(&str, &[&str]); 3] = [
        // Get State and Start at Most Recent: synthetic ADDED for everything.
        ("", &["ADDED a", "ADDED b", "ADDED c"]),
        // Get State and Start at Any.
        ("resourceVersion=0", &["ADDED a", "ADDED b", "ADDED c"]),
        // Start at Exact: only what happened after N.
        (&format!("resourceVersion={n}"), &["ADDED c"]),
    ];
    for path in [
        "/apis/apps/v1/namespaces/default/controllerrevisions?watch=true&",
        "/apis/apps/v1/watch/namespaces/default/controllerrevisions?",
    ] {
        for (q, want) in &rows {
            let mut w = watch(&mut e, &format!("{path}{q}"));
            assert_eq!(w.code, 200, "{path}{q}: {}", w.body);
            assert_eq!(w.headers["content-type"], "application/json");
            assert_eq!(w.summary(), *want, "{path}{q}");
        }
    }
    // Later changes follow on every open stream.
    let mut w = watch(&mut e, &ws("default", &format!("resourceVersion={n}")));
    w.summary();
    let mut upd = get(&mut e, &cr("default", "a")).json;
    upd["metadata"]["labels"] = json!({"x": "y"});
    put(&mut e, &cr("default", "a"), &upd);
    delete(&mut e, &cr("default", "b"));
    let (events, ended) = w.events();
    assert!(!ended);
    let kinds: Vec<_> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["MODIFIED", "DELETED"]);
    // Objects in events carry kind and apiVersion; DELETED carries the deletion's revision.
    assert_eq!(events[1]["object"]["kind"], "ControllerRevision");
    assert_eq!(rv_of(&events[1]["object"]), e.store().revision());
}

#[test]
fn watch_across_namespaces_and_of_one_object() {
    let mut e = engine();
    create_ns(&mut e, "other");
    let rv = e.store().revision();
    let mut all = watch(
        &mut e,
        &format!("/apis/apps/v1/controllerrevisions?watch=1&resourceVersion={rv}"),
    );
    let mut one = watch(
        &mut e,
        &format!(
            "/apis/apps/v1/watch/namespaces/default/controllerrevisions/x?resourceVersion={rv}"
        ),
    );
    let mut by_field = watch(
        &mut e,
        &ws(
            "default",
            &format!("resourceVersion={rv}&fieldSelector=metadata.name%3Dx"),
        ),
    );
    create_cr(&mut e, "default", &cr_body("x", 1));
    create_cr(&mut e, "default", &cr_body("y", 1));
    create_cr(&mut e, "other", &cr_body("x", 1));
    assert_eq!(all.summary(), ["ADDED x", "ADDED y", "ADDED x"]);
    assert_eq!(one.summary(), ["ADDED x"]);
    assert_eq!(by_field.summary(), ["ADDED x"]);
    let bad = watch(&mut e, "/apis/apps/v1/watch/namespaces/default/controllerrevisions/x?fieldSelector=metadata.name%3Dz");
    assert_eq!(bad.code, 400);
    assert!(
        bad.body
            .contains("fieldSelector metadata.name doesn't match requested name"),
        "{}",
        bad.body
    );
}

#[test]
fn selector_transitions_become_added_and_deleted() {
    let mut e = engine();
    let rv = e.store().revision();
    let mut w = watch(
        &mut e,
        &ws(
            "default",
            &format!("resourceVersion={rv}&labelSelector=app%3Dweb"),
        ),
    );
    let c = create_cr(&mut e, "default", &cr_labeled("s", json!({"app": "other"})));
    let mut moved = c.clone();
    moved["metadata"]["labels"] = json!({"app": "web"});
    let moved = put(&mut e, &cr("default", "s"), &moved).json;
    let mut left = moved.clone();
    left["metadata"]["labels"] = json!({"app": "gone"});
    let left = put(&mut e, &cr("default", "s"), &left).json;
    let (events, _) = w.events();
    let kinds: Vec<_> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["ADDED", "DELETED"]);
    // Leaving the selector: the previous state, at the event's revision.
    assert_eq!(events[1]["object"]["metadata"]["labels"]["app"], "web");
    assert_eq!(rv_of(&events[1]["object"]), rv_of(&left));
}

#[test]
fn resuming_from_the_last_seen_revision_misses_and_repeats_nothing() {
    let mut e = engine();
    let rv0 = e.store().revision();
    let mut w = watch(&mut e, &ws("default", &format!("resourceVersion={rv0}")));
    for n in ["a", "b", "c"] {
        create_cr(&mut e, "default", &cr_body(n, 1));
    }
    let (events, _) = w.events();
    let last = rv_of(&events[1]["object"]); // the client saw a and b, then disconnected
    drop(w);
    create_cr(&mut e, "default", &cr_body("d", 1));
    let mut resumed = watch(&mut e, &ws("default", &format!("resourceVersion={last}")));
    assert_eq!(resumed.summary(), ["ADDED c", "ADDED d"]);
    assert_eq!(e.watch_count(), 1, "the dropped watch was removed");
}

#[test]
fn too_old_resource_version_is_an_error_event() {
    let mut e = engine();
    let old = e.store().revision();
    create_cr(&mut e, "default", &cr_body("a", 1));
    e.advance(80_000); // the cache window (75 s) moves past `old`
    create_cr(&mut e, "default", &cr_body("b", 1));
    e.advance(80_000);
    let mut w = watch(&mut e, &ws("default", &format!("resourceVersion={old}")));
    assert_eq!(
        w.code, 200,
        "errors after the stream started are ERROR events"
    );
    let (events, ended) = w.events();
    assert!(ended, "the stream ends after the error");
    assert_eq!(events.len(), 1);
    assert_eq!(events[0]["type"], "ERROR");
    let status = &events[0]["object"];
    assert_eq!(status["kind"], "Status");
    assert_eq!(status["code"], 410);
    assert_eq!(status["reason"], "Expired");
    assert!(status["message"]
        .as_str()
        .unwrap()
        .starts_with(&format!("too old resource version: {old} (")));
}

#[test]
fn dry_run_writes_produce_no_events() {
    let mut e = engine();
    let rv = e.store().revision();
    let mut w = watch(&mut e, &ws("default", &format!("resourceVersion={rv}")));
    post(
        &mut e,
        &format!("{}?dryRun=All", crs("default")),
        &cr_body("dry", 1),
    );
    assert!(w.summary().is_empty());
}

#[test]
fn timeout_seconds_ends_the_stream_and_bookmarks_come_each_minute() {
    let mut e = engine();
    let rv = e.store().revision();
    let mut w = watch(
        &mut e,
        &ws(
            "default",
            &format!("resourceVersion={rv}&timeoutSeconds=150&allowWatchBookmarks=true"),
        ),
    );
    e.advance(60_000);
    let (events, ended) = w.events();
    assert!(!ended);
    assert_eq!(events.len(), 1);
    assert_eq!(events[0]["type"], "BOOKMARK");
    let obj = &events[0]["object"];
    assert_eq!(obj["kind"], "ControllerRevision");
    assert_eq!(obj["metadata"], json!({"resourceVersion": rv.to_string()}));
    assert_eq!(obj["data"], json!(null));
    assert_eq!(obj["revision"], 0);
    // One more periodic bookmark, one ~2 s before the deadline, then the end.
    e.advance(60_000);
    e.advance(28_500);
    let (events, ended) = w.events();
    assert_eq!(events.len(), 2, "{events:?}");
    assert!(!ended);
    e.advance(2_000);
    let (events, ended) = w.events();
    assert!(events.is_empty());
    assert!(ended, "no ERROR, the stream simply finishes");
    // Without allowWatchBookmarks there are no bookmarks.
    let now_rv = e.store().revision();
    let mut quiet = watch(
        &mut e,
        &ws(
            "default",
            &format!("resourceVersion={now_rv}&timeoutSeconds=90"),
        ),
    );
    e.advance(61_000);
    assert!(quiet.events().0.is_empty());
}

#[test]
fn streaming_list_ends_initial_events_with_a_bookmark() {
    let mut e = engine();
    create_cr(&mut e, "default", &cr_body("b", 1));
    create_cr(&mut e, "default", &cr_body("a", 1));
    let q = "sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true";
    let mut w = watch(&mut e, &ws("default", q));
    let (events, _) = w.events();
    let types: Vec<_> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(types, ["ADDED", "ADDED", "BOOKMARK"]);
    assert_eq!(
        events[0]["object"]["metadata"]["name"], "a",
        "initial events in key order"
    );
    let bm = &events[2]["object"]["metadata"];
    assert_eq!(
        bm["annotations"],
        json!({"k8s.io/initial-events-end": "true"})
    );
    assert_eq!(bm["resourceVersion"], e.store().revision().to_string());
    // Then a normal watch.
    create_cr(&mut e, "default", &cr_body("c", 1));
    assert_eq!(w.summary(), ["ADDED c"]);
    // Without allowWatchBookmarks: initial events but no bookmark.
    let mut w = watch(
        &mut e,
        &ws(
            "default",
            "sendInitialEvents=true&resourceVersionMatch=NotOlderThan",
        ),
    );
    assert_eq!(w.summary(), ["ADDED a", "ADDED b", "ADDED c"]);
}

/// A plain watch from "now" (no resourceVersion) with bookmarks gets its synthetic ADDED
/// events and later periodic bookmarks, never the initial-events-end annotation, even when it
/// had to wait for the cache (`WatchList` defaults it to initial events at the current
/// revision).
#[test]
fn a_plain_watch_never_gets_the_initial_events_end_bookmark() {
    let mut e = engine();
    e.set_cache_lag(2_000);
    create_cr(&mut e, "default", &cr_body("a", 1));
    let mut w = watch(&mut e, &ws("default", "allowWatchBookmarks=true"));
    assert_eq!(w.summary(), ["ADDED a"]);
    e.advance(61_000);
    let (events, _) = w.events();
    assert!(!events.is_empty(), "a periodic bookmark");
    for ev in events {
        assert_eq!(ev["type"], "BOOKMARK");
        assert!(
            ev["object"]["metadata"].get("annotations").is_none(),
            "{ev}"
        );
    }
}

#[test]
fn watch_option_errors() {
    let mut e = engine();
    let rows = [
        ("sendInitialEvents=true", "resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"),
        ("resourceVersion=1&resourceVersionMatch=NotOlderThan", "resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided"),
        ("sendInitialEvents=true&resourceVersionMatch=Exact", "[resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan, resourceVersionMatch: Unsupported value: \"Exact\": supported values: \"NotOlderThan\"]"),
    ];
    for (q, msg) in rows {
        let w = watch(&mut e, &ws("default", q));
        assert_eq!(w.code, 422, "{q}: {}", w.body);
        let status: serde_json::Value = serde_json::from_str(&w.body).unwrap();
        assert_eq!(
            status["message"],
            format!("ListOptions.meta.k8s.io \"\" is invalid: {msg}"),
            "{q}"
        );
    }
    let w = watch(&mut e, &ws("default", "labelSelector=a%20b"));
    assert_eq!(w.code, 400);
}

#[test]
fn future_resource_version_waits_silently_and_streaming_list_errors() {
    let mut e = engine();
    let future = e.store().revision() + 2;
    let mut w = watch(
        &mut e,
        &ws(
            "default",
            &format!("resourceVersion={future}&timeoutSeconds=1"),
        ),
    );
    assert!(w.summary().is_empty());
    create_cr(&mut e, "default", &cr_body("a", 1));
    create_cr(&mut e, "default", &cr_body("b", 1));
    create_cr(&mut e, "default", &cr_body("c", 1));
    assert_eq!(
        w.summary(),
        ["ADDED c"],
        "events after the future revision arrive once it exists"
    );
    let far = e.store().revision() + 50;
    let mut s = watch(
        &mut e,
        &ws(
            "default",
            &format!(
                "resourceVersion={far}&sendInitialEvents=true&resourceVersionMatch=NotOlderThan"
            ),
        ),
    );
    let (events, _) = s.events();
    assert_eq!(events[0]["type"], "ERROR");
    assert_eq!(events[0]["object"]["code"], 504);
}

#[test]
fn one_encoding_per_event_for_all_watchers() {
    let mut e = engine();
    let rv = e.store().revision();
    let mut watchers: Vec<_> = (0..50)
        .map(|_| watch(&mut e, &ws("default", &format!("resourceVersion={rv}"))))
        .collect();
    create_cr(&mut e, "default", &cr_body("shared", 1));
    let frames: Vec<_> = watchers
        .iter_mut()
        .map(|w| w.stream.as_mut().unwrap().drain().0.remove(0))
        .collect();
    // Every watcher got the very same bytes (one allocation shared by all).
    let first = frames[0].as_ptr();
    assert!(frames.iter().all(|f| f.as_ptr() == first));
}

/// `sendInitialEvents=false` with no resourceVersion starts at the current revision, without
/// synthetic ADDED events.
#[test]
fn send_initial_events_false_starts_now() {
    let mut e = engine();
    create_cr(&mut e, "default", &cr_body("before", 1));
    let uri = format!(
        "{}?watch=1&sendInitialEvents=false&resourceVersionMatch=NotOlderThan",
        crs("default")
    );
    let mut w = watch(&mut e, &uri);
    assert_eq!(w.code, 200, "{}", w.body);
    assert!(w.summary().is_empty());
    create_cr(&mut e, "default", &cr_body("after", 1));
    assert_eq!(w.summary(), ["ADDED after"]);
}
