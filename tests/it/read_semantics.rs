//! The spec's read-semantics tables, one row per cell: which semantic a get or list gets for
//! each combination of resourceVersion, resourceVersionMatch and paging, where it is served
//! from, and the errors for the invalid cells.

use crate::common::*;

/// A cluster with three revisions worth of ControllerRevisions; returns (engine, an old RV).
fn seeded() -> (kubesim::Engine, u64) {
    let mut e = engine();
    create_cr(&mut e, "default", &cr_body("a", 1));
    let old = rv_of(&create_cr(&mut e, "default", &cr_body("b", 1)));
    create_cr(&mut e, "default", &cr_body("c", 1));
    (e, old)
}

#[test]
fn get_table() {
    let (mut e, old) = seeded();
    let rows = [
        ("", "semantic=MostRecent; source=store"),
        ("0", "semantic=Any; source=watch-cache"),
        (
            &*old.to_string(),
            "semantic=NotOlderThan; source=watch-cache",
        ),
    ];
    for (rv, want) in rows {
        let q = if rv.is_empty() {
            String::new()
        } else {
            format!("?resourceVersion={rv}")
        };
        let r = get(&mut e, &format!("{}{q}", cr("default", "a")));
        assert_eq!(r.code, 200, "rv={rv}: {}", r.text);
        assert!(
            explained(&r).starts_with(want),
            "rv={rv}: {}",
            explained(&r)
        );
    }
    // resourceVersionMatch is ignored on GET.
    let r = get(
        &mut e,
        &format!("{}?resourceVersionMatch=Exact", cr("default", "a")),
    );
    assert_eq!(r.code, 200);
}

#[test]
fn get_errors() {
    let (mut e, _) = seeded();
    let future = e.store().revision() + 100;
    let r = get(
        &mut e,
        &format!("{}?resourceVersion={future}", cr("default", "a")),
    );
    assert_eq!(r.code, 504);
    assert_eq!(r.reason(), "Timeout");
    assert_eq!(
        r.message(),
        format!(
            "Timeout: Too large resource version: {future}, current: {}",
            e.store().revision()
        )
    );
    assert_eq!(r.header("retry-after"), "1");
    assert_eq!(
        r.json["details"]["causes"][0]["reason"],
        "ResourceVersionTooLarge"
    );
    let r = get(
        &mut e,
        &format!("{}?resourceVersion=abc", cr("default", "a")),
    );
    assert_eq!(r.code, 500, "{}", r.text);
    assert_eq!(r.reason(), "");
}

/// Expected outcome of one cell.
enum Want {
    Semantic(&'static str),
    Invalid(&'static str),
    BadRequest(&'static str),
}

#[test]
fn list_table() {
    use Want::*;
    const UNSET: &str = "unset";
    let (mut e, old) = seeded();
    // A continue token from a first page.
    let first = get(&mut e, &format!("{}?limit=1", crs("default")));
    let token = first.json["metadata"]["continue"]
        .as_str()
        .unwrap()
        .to_string();
    let n = old.to_string();
    // (resourceVersionMatch, limit, continue, [rv unset, rv=0, rv=N])
    let rows: Vec<(&str, bool, bool, [Want; 3])> = vec![
        (UNSET, false, false, [Semantic("MostRecent"), Semantic("Any"), Semantic("NotOlderThan")]),
        (UNSET, true, false, [Semantic("MostRecent"), Semantic("Any"), Semantic("Exact")]),
        (UNSET, true, true, [Semantic("Continuation"), Semantic("Continuation"),
            BadRequest("specifying resource version is not allowed when using continue")]),
        ("Exact", false, false, [
            Invalid("resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided"),
            Invalid("resourceVersionMatch: Forbidden: resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\""),
            Semantic("Exact")]),
        ("Exact", true, false, [
            Invalid("resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided"),
            Invalid("resourceVersionMatch: Forbidden: resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\""),
            Semantic("Exact")]),
        ("NotOlderThan", false, false, [
            Invalid("resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided"),
            Semantic("Any"), Semantic("NotOlderThan")]),
        ("NotOlderThan", true, false, [
            Invalid("resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided"),
            Semantic("Any"), Semantic("NotOlderThan")]),
    ];
    for (rvm, limit, cont, cells) in rows {
        for (rv, want) in [UNSET, "0", n.as_str()].into_iter().zip(cells) {
            let mut q = vec![];
            if rvm != UNSET {
                q.push(format!("resourceVersionMatch={rvm}"));
            }
            if limit {
                q.push("limit=2".to_string());
            }
            if cont {
                q.push(format!("continue={token}"));
            }
            if rv != UNSET {
                q.push(format!("resourceVersion={rv}"));
            }
            let uri = format!("{}?{}", crs("default"), q.join("&"));
            let r = get(&mut e, &uri);
            let cell = format!("rvm={rvm} limit={limit} continue={cont} rv={rv}");
            match want {
                Semantic(s) => {
                    assert_eq!(r.code, 200, "{cell}: {}", r.text);
                    assert!(
                        explained(&r).starts_with(&format!("semantic={s};")),
                        "{cell}: {}",
                        explained(&r)
                    );
                    if s == "Exact" {
                        assert_eq!(r.json["metadata"]["resourceVersion"], n.as_str(), "{cell}");
                        assert_eq!(r.names(), ["a", "b"], "{cell}: state at the old revision");
                    }
                    if s == "Any" {
                        assert!(
                            r.json["metadata"].get("continue").is_none(),
                            "{cell}: limit ignored"
                        );
                        assert_eq!(r.names().len(), 3, "{cell}");
                    }
                }
                Invalid(msg) => {
                    assert_eq!(r.code, 422, "{cell}: {}", r.text);
                    assert_eq!(r.reason(), "Invalid");
                    assert_eq!(
                        r.message(),
                        format!("ListOptions.meta.k8s.io \"\" is invalid: {msg}"),
                        "{cell}"
                    );
                    assert_eq!(r.json["details"]["kind"], "ListOptions");
                    assert_eq!(r.json["details"]["group"], "meta.k8s.io");
                }
                BadRequest(msg) => {
                    assert_eq!(r.code, 400, "{cell}: {}", r.text);
                    assert_eq!(r.message(), msg, "{cell}");
                }
            }
        }
    }
}

#[test]
fn list_option_errors() {
    let (mut e, _) = seeded();
    let rows = [
        ("resourceVersion=1&resourceVersionMatch=Foo", 422,
         "ListOptions.meta.k8s.io \"\" is invalid: resourceVersionMatch: Unsupported value: \"Foo\": supported values: \"Exact\", \"NotOlderThan\", \"\""),
        ("sendInitialEvents=true", 422,
         "ListOptions.meta.k8s.io \"\" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list"),
        ("resourceVersion=abc", 400,
         "invalid resource version: resourceVersion: Invalid value: \"abc\": strconv.ParseUint: parsing \"abc\": invalid syntax"),
        ("limit=x", 400, "strconv.ParseInt: parsing \"x\": invalid syntax"),
    ];
    for (q, code, msg) in rows {
        let r = get(&mut e, &format!("{}?{q}", crs("default")));
        assert_eq!(r.code, code, "{q}: {}", r.text);
        assert_eq!(r.message(), msg, "{q}");
    }
}

#[test]
fn exact_and_continuation_come_from_snapshots_or_the_store() {
    let (mut e, old) = seeded();
    let r = get(
        &mut e,
        &format!(
            "{}?resourceVersion={old}&resourceVersionMatch=Exact",
            crs("default")
        ),
    );
    assert!(
        explained(&r).contains("source=cache-snapshot"),
        "{}",
        explained(&r)
    );
    // Beyond the cache window (75 s), the snapshot is gone and the store answers.
    e.advance(80_000);
    create_cr(&mut e, "default", &cr_body("d", 1));
    e.advance(80_000);
    let r = get(
        &mut e,
        &format!(
            "{}?resourceVersion={old}&resourceVersionMatch=Exact",
            crs("default")
        ),
    );
    assert_eq!(r.code, 200, "{}", r.text);
    assert!(explained(&r).contains("source=store"), "{}", explained(&r));
    assert_eq!(r.names(), ["a", "b"]);
    // With the ListFromCacheSnapshot gate off, Exact always comes from the store.
    let mut gates = kubesim::features::FeatureGates::default();
    gates.set("ListFromCacheSnapshot", false).unwrap();
    let mut e2 = kubesim::Engine::new(kubesim::Config {
        feature_gates: gates,
        ..Default::default()
    });
    let rv = rv_of(&create_cr(&mut e2, "default", &cr_body("a", 1)));
    let r = get(
        &mut e2,
        &format!(
            "{}?resourceVersion={rv}&resourceVersionMatch=Exact",
            crs("default")
        ),
    );
    assert!(explained(&r).contains("source=store"), "{}", explained(&r));
}

#[test]
fn exact_at_a_compacted_revision_is_gone() {
    let (mut e, old) = seeded();
    create_cr(&mut e, "default", &cr_body("d", 1));
    e.advance(80_000); // out of the cache window
    let r = send(&mut e, "POST", "/kubesim/v1/compact", None, &[]);
    assert_eq!(r.code, 200);
    let r = get(
        &mut e,
        &format!(
            "{}?resourceVersion={old}&resourceVersionMatch=Exact",
            crs("default")
        ),
    );
    assert_eq!(r.code, 410, "{}", r.text);
    assert_eq!(r.reason(), "Expired");
    assert_eq!(
        r.message(),
        "The resourceVersion for the provided list is too old."
    );
    let future = e.store().revision() + 5;
    let r = get(
        &mut e,
        &format!(
            "{}?resourceVersion={future}&resourceVersionMatch=Exact",
            crs("default")
        ),
    );
    // The watch cache answers an Exact list too (ListFromCacheSnapshot): its 504 says when
    // to retry, and its own revision.
    assert_eq!(r.code, 504);
    assert_eq!(r.header("retry-after"), "1");
    assert_eq!(r.json["details"]["retryAfterSeconds"], 1);
    assert_eq!(
        r.message(),
        format!(
            "Timeout: Too large resource version: {future}, current: {}",
            e.cache().revision()
        )
    );
}

/// The 504's `current:` is the watch cache's revision, not the store's.
#[test]
fn too_large_names_the_caches_revision() {
    let mut e = engine();
    create_ns(&mut e, "lag");
    e.set_cache_lag(10_000);
    create_cr(&mut e, "lag", &cr_body("a", 1));
    let (store, cache) = (e.store().revision(), e.cache().revision());
    assert!(cache < store);
    let r = get(
        &mut e,
        &format!("{}?resourceVersion={}", crs("lag"), store + 1),
    );
    assert_eq!(r.code, 504);
    assert_eq!(
        r.message(),
        format!(
            "Timeout: Too large resource version: {}, current: {cache}",
            store + 1
        )
    );
    assert_eq!(r.header("retry-after"), "1");
}

#[test]
fn stale_reads_from_a_lagging_cache() {
    let mut e = engine();
    e.set_cache_lag(5_000);
    let created = create_cr(&mut e, "default", &cr_body("late", 1));
    let n = rv_of(&created);
    // Any: the cache has not seen the write yet.
    let any = get(&mut e, &format!("{}?resourceVersion=0", crs("default")));
    assert!(any.names().is_empty(), "stale: {}", any.text);
    assert!(explained(&any).contains("source=watch-cache"));
    assert!(rv_of(&any.json) < n);
    assert_eq!(
        get(
            &mut e,
            &format!("{}?resourceVersion=0", cr("default", "late"))
        )
        .code,
        404
    );
    // Most Recent get reads etcd, at once.
    let before = e.clock().now_ms();
    let recent = get(&mut e, &cr("default", "late"));
    assert_eq!(recent.code, 200);
    assert!(explained(&recent).contains("source=store"));
    assert_eq!(e.clock().now_ms(), before);
    // A Most Recent list is consistent: the cache would need 5 s, so after waiting 3 s it
    // falls back to etcd.
    let recent = get(&mut e, &crs("default"));
    assert_eq!(recent.names(), ["late"]);
    assert_eq!(
        explained(&recent),
        format!("semantic=MostRecent; source=store; rv={n}; waited-ms=3000")
    );
    // Not older than N: 2 s more, and the cache has it.
    let r = get(&mut e, &format!("{}?resourceVersion={n}", crs("default")));
    assert_eq!(r.code, 200, "{}", r.text);
    assert_eq!(
        explained(&r),
        format!("semantic=NotOlderThan; source=watch-cache; rv={n}; waited-ms=2000")
    );
    assert_eq!(r.names(), ["late"]);
    assert_eq!(e.clock().now_ms(), before + 5_000);
    // The cache has it now.
    let any = get(&mut e, &format!("{}?resourceVersion=0", crs("default")));
    assert_eq!(any.names(), ["late"]);
}

/// Without `ListFromCacheSnapshot` an Exact list goes to etcd: its 504 names the store's
/// revision and asks for no retry.
#[test]
fn too_large_exact_without_snapshots_is_etcds() {
    let mut e = kubesim::Engine::new(kubesim::Config {
        feature_gates: kubesim::features::FeatureGates::parse("ListFromCacheSnapshot=false")
            .unwrap(),
        ..kubesim::Config::default()
    });
    create_ns(&mut e, "lag");
    e.set_cache_lag(10_000);
    create_cr(&mut e, "lag", &cr_body("a", 1));
    let store = e.store().revision();
    assert!(e.cache().revision() < store);
    let r = get(
        &mut e,
        &format!(
            "{}?resourceVersion={}&resourceVersionMatch=Exact",
            crs("lag"),
            store + 1
        ),
    );
    assert_eq!(r.code, 504, "{}", r.text);
    assert_eq!(
        r.message(),
        format!(
            "Timeout: Too large resource version: {}, current: {store}",
            store + 1
        )
    );
    assert_eq!(r.header("retry-after"), "");
    assert!(r.json["details"].get("retryAfterSeconds").is_none());
}
