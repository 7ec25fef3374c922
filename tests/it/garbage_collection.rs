//! The garbage collector (reference appendix C.3): Background, Foreground and Orphan
//! cascades, dangling references, several owners and the namespace rules for owners, on
//! simulated time (the collector acts a simulated second after a change).

use serde_json::{json, Value};

use crate::common::{create_ns, delete, engine, get, manager_names, post, send};
use kubesim::Engine;

fn cms(ns: &str) -> String {
    format!("/api/v1/namespaces/{ns}/configmaps")
}

/// A ConfigMap reference to `owner` (a created object), blocking or not.
fn owned_by(owner: &Value, block: bool) -> Value {
    json!({"apiVersion": owner["apiVersion"], "kind": owner["kind"],
           "name": owner["metadata"]["name"], "uid": owner["metadata"]["uid"],
           "blockOwnerDeletion": block})
}

/// Creates ConfigMap `name` in `ns` with `refs` as its ownerReferences (and `finalizers`).
fn cm(e: &mut Engine, ns: &str, name: &str, refs: &[Value], finalizers: &[&str]) -> Value {
    let mut meta = json!({"name": name});
    if !refs.is_empty() {
        meta["ownerReferences"] = json!(refs);
    }
    if !finalizers.is_empty() {
        meta["finalizers"] = json!(finalizers);
    }
    let r = post(e, &cms(ns), &json!({"metadata": meta}));
    assert_eq!(r.code, 201, "{}", r.text);
    r.json
}

fn delete_with(e: &mut Engine, uri: &str, policy: &str) -> u16 {
    let body = json!({"kind": "DeleteOptions", "apiVersion": "v1", "propagationPolicy": policy});
    send(
        e,
        "DELETE",
        uri,
        Some(&body.to_string()),
        &[("content-type", "application/json")],
    )
    .code
}

/// The names of the ConfigMaps in `ns`, each marked `*` when terminating.
fn names(e: &mut Engine, ns: &str) -> Vec<String> {
    let r = get(e, &cms(ns));
    assert_eq!(r.code, 200, "{}", r.text);
    r.json["items"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|o| {
            let mark = if o["metadata"]["deletionTimestamp"].is_string() {
                "*"
            } else {
                ""
            };
            format!("{}{mark}", o["metadata"]["name"].as_str().unwrap_or(""))
        })
        .collect()
}

/// One simulated second: the collector's next pass.
fn second(e: &mut Engine) {
    e.advance(1000);
}

#[test]
fn background_deletes_dependents_level_by_level() {
    let mut e = engine();
    let o = cm(&mut e, "default", "o", &[], &[]);
    let d = cm(&mut e, "default", "d", &[owned_by(&o, false)], &[]);
    cm(&mut e, "default", "d2", &[owned_by(&o, false)], &[]);
    cm(&mut e, "default", "dd", &[owned_by(&d, false)], &[]);
    assert_eq!(
        delete_with(&mut e, &format!("{}/o", cms("default")), "Background"),
        200
    );
    // The API server removes the owner at once; the collector has not acted yet.
    assert_eq!(names(&mut e, "default"), ["d", "d2", "dd"]);
    e.advance(999);
    assert_eq!(names(&mut e, "default"), ["d", "d2", "dd"]);
    e.advance(1);
    assert_eq!(names(&mut e, "default"), ["dd"]);
    second(&mut e);
    assert!(names(&mut e, "default").is_empty());
}

#[test]
fn foreground_waits_for_blocking_dependents() {
    let mut e = engine();
    let o = cm(&mut e, "default", "o", &[], &[]);
    cm(
        &mut e,
        "default",
        "held",
        &[owned_by(&o, true)],
        &["example.com/hold"],
    );
    cm(&mut e, "default", "free", &[owned_by(&o, false)], &[]);
    let parent = cm(&mut e, "default", "parent", &[owned_by(&o, true)], &[]);
    cm(&mut e, "default", "child", &[owned_by(&parent, true)], &[]);
    assert_eq!(
        delete_with(&mut e, &format!("{}/o", cms("default")), "Foreground"),
        200
    );
    let r = get(&mut e, &format!("{}/o", cms("default")));
    assert_eq!(
        r.json["metadata"]["finalizers"],
        json!(["foregroundDeletion"])
    );
    assert_eq!(
        names(&mut e, "default"),
        ["child", "free", "held", "o*", "parent"]
    );
    // Every dependent is deleted; one with dependents of its own in the foreground.
    second(&mut e);
    assert_eq!(
        names(&mut e, "default"),
        ["child", "held*", "o*", "parent*"]
    );
    let r = get(&mut e, &format!("{}/parent", cms("default")));
    assert_eq!(
        r.json["metadata"]["finalizers"],
        json!(["foregroundDeletion"])
    );
    // The child goes; its owner, no longer blocked, right after it.
    second(&mut e);
    assert_eq!(names(&mut e, "default"), ["held*", "o*"]);
    // The owner waits for the dependent a user finalizer holds, as long as it takes.
    e.advance(60_000);
    assert_eq!(names(&mut e, "default"), ["held*", "o*"]);
    let mut released = get(&mut e, &format!("{}/held", cms("default"))).json;
    released["metadata"]["finalizers"] = json!([]);
    let r = send(
        &mut e,
        "PUT",
        &format!("{}/held", cms("default")),
        Some(&released.to_string()),
        &[],
    );
    assert_eq!(r.code, 200, "{}", r.text);
    assert_eq!(names(&mut e, "default"), ["o*"]);
    second(&mut e);
    assert!(names(&mut e, "default").is_empty());
}

#[test]
fn orphan_keeps_dependents_and_drops_their_references() {
    let mut e = engine();
    let o = cm(&mut e, "default", "o", &[], &[]);
    let other = cm(&mut e, "default", "other", &[], &[]);
    cm(
        &mut e,
        "default",
        "d",
        &[owned_by(&o, true), owned_by(&other, false)],
        &[],
    );
    assert_eq!(
        delete_with(&mut e, &format!("{}/o", cms("default")), "Orphan"),
        200
    );
    assert_eq!(
        get(&mut e, &format!("{}/o", cms("default"))).json["metadata"]["finalizers"],
        json!(["orphan"])
    );
    second(&mut e);
    assert_eq!(names(&mut e, "default"), ["d", "other"]);
    let d = get(&mut e, &format!("{}/d", cms("default"))).json;
    assert_eq!(
        d["metadata"]["ownerReferences"],
        json!([owned_by(&other, false)])
    );
    // The last owner deleted in the background (the default): its dependent goes.
    let r = delete(&mut e, &format!("{}/other", cms("default")));
    assert_eq!(r.code, 200);
    second(&mut e);
    assert!(
        names(&mut e, "default").is_empty(),
        "d's last owner is gone"
    );
}

#[test]
fn dangling_references_and_several_owners() {
    let mut e = engine();
    let a = cm(&mut e, "default", "a", &[], &[]);
    let b = cm(&mut e, "default", "b", &[], &[]);
    cm(
        &mut e,
        "default",
        "both",
        &[owned_by(&a, false), owned_by(&b, false)],
        &[],
    );
    let ghost = json!({"apiVersion": "v1", "kind": "ConfigMap", "name": "ghost", "uid": "00000000-0000-0000-0000-000000000000"});
    cm(&mut e, "default", "orphaned", &[ghost], &[]);
    let mut stale = owned_by(&a, false);
    stale["uid"] = json!("11111111-1111-1111-1111-111111111111");
    cm(&mut e, "default", "stale", &[stale], &[]);
    second(&mut e);
    // An absent owner or a name holding another uid is gone: the dependent goes.
    assert_eq!(names(&mut e, "default"), ["a", "b", "both"]);
    assert_eq!(delete(&mut e, &format!("{}/a", cms("default"))).code, 200);
    second(&mut e);
    // A dependent with a live owner stays; the reference to the vanished one is removed.
    assert_eq!(names(&mut e, "default"), ["b", "both"]);
    let both = get(&mut e, &format!("{}/both", cms("default"))).json;
    assert_eq!(
        both["metadata"]["ownerReferences"],
        json!([owned_by(&b, false)])
    );
    // The collector's removal leaves no entry of its own: the creator keeps what remains.
    assert_eq!(manager_names(&both), ["unknown"]);
    let owned = both["metadata"]["managedFields"][0]["fieldsV1"].to_string();
    let uid = |o: &Value| o["metadata"]["uid"].as_str().unwrap_or("").to_string();
    assert!(
        owned.contains(&uid(&b)) && !owned.contains(&uid(&a)),
        "{owned}"
    );
    assert_eq!(delete(&mut e, &format!("{}/b", cms("default"))).code, 200);
    second(&mut e);
    assert!(names(&mut e, "default").is_empty());
}

#[test]
fn owners_are_looked_up_by_scope() {
    let mut e = engine();
    create_ns(&mut e, "a");
    create_ns(&mut e, "b");
    // An owner in another namespace is absent for a namespaced dependent.
    let elsewhere = cm(&mut e, "b", "owner", &[], &[]);
    cm(&mut e, "a", "cross", &[owned_by(&elsewhere, false)], &[]);
    // A cluster-scoped owner is fine for a namespaced dependent.
    let ns_b = get(&mut e, "/api/v1/namespaces/b").json;
    cm(&mut e, "a", "of-ns-b", &[owned_by(&ns_b, false)], &[]);
    // A cluster-scoped dependent naming a namespaced owner is never collected.
    let role = json!({"metadata": {"name": "odd", "ownerReferences": [owned_by(&elsewhere, false)]}, "rules": []});
    let r = post(
        &mut e,
        "/apis/rbac.authorization.k8s.io/v1/clusterroles",
        &role,
    );
    assert_eq!(r.code, 201, "{}", r.text);
    // An owner of a kind the server does not serve cannot be resolved: kept.
    let unknown = json!({"apiVersion": "example.com/v1", "kind": "Widget", "name": "w", "uid": "22222222-2222-2222-2222-222222222222"});
    cm(&mut e, "a", "widgets", &[unknown], &[]);
    second(&mut e);
    assert_eq!(names(&mut e, "a"), ["of-ns-b", "widgets"]);
    // Deleting namespace b removes its contents, then b; then its dependent in a goes.
    assert_eq!(delete(&mut e, &format!("{}/owner", cms("b"))).code, 200);
    assert_eq!(delete(&mut e, "/api/v1/namespaces/b").code, 200);
    for _ in 0..7 {
        second(&mut e);
    }
    assert_eq!(get(&mut e, "/api/v1/namespaces/b").code, 404);
    assert_eq!(names(&mut e, "a"), ["widgets"]);
    assert_eq!(
        get(
            &mut e,
            "/apis/rbac.authorization.k8s.io/v1/clusterroles/odd"
        )
        .code,
        200
    );
}

mod random_graphs {
    //! Random owner graphs and deletes with random policies: the collector always settles,
    //! never deletes an object that still has a live owner, and leaves nothing terminating
    //! (no user finalizers hold anything here).

    use super::*;
    use proptest::prelude::*;

    /// Object i's owners among the earlier objects (index, blockOwnerDeletion).
    type Owners = Vec<(usize, bool)>;

    fn graph() -> impl Strategy<Value = (Vec<Owners>, Vec<(usize, u8)>)> {
        (2usize..8).prop_flat_map(|n| {
            let owners = (0..n)
                .map(|i| {
                    proptest::collection::vec((0..i.max(1), any::<bool>()), 0..=i.min(3))
                        .prop_map(move |v| if i == 0 { Vec::new() } else { v })
                })
                .collect::<Vec<_>>();
            let deletes = proptest::collection::vec((0..n, 0u8..3), 1..4);
            (owners, deletes)
        })
    }

    fn run(owners: Vec<Owners>, deletes: Vec<(usize, u8)>) -> Result<(), TestCaseError> {
        let mut e = engine();
        let mut created: Vec<Value> = Vec::new();
        for (i, own) in owners.iter().enumerate() {
            let mut refs: Vec<Value> = Vec::new();
            for (o, block) in own {
                let r = owned_by(&created[*o], *block);
                if !refs.iter().any(|x| x["uid"] == r["uid"]) {
                    refs.push(r);
                }
            }
            created.push(cm(&mut e, "default", &format!("o{i}"), &refs, &[]));
        }
        let mut deleted = std::collections::BTreeSet::new();
        for (i, p) in &deletes {
            let policy = ["Background", "Foreground", "Orphan"][*p as usize];
            delete_with(&mut e, &format!("{}/o{i}", cms("default")), policy);
            deleted.insert(*i);
        }
        // It settles: after enough steps, another step writes nothing.
        for _ in 0..(3 * owners.len() + 4) {
            second(&mut e);
        }
        let settled = e.store().revision();
        second(&mut e);
        second(&mut e);
        prop_assert_eq!(e.store().revision(), settled, "the collector keeps writing");
        let left = names(&mut e, "default");
        prop_assert!(
            left.iter().all(|n| !n.ends_with('*')),
            "terminating forever: {:?}",
            left
        );
        // An object whose owner is still there was not collected.
        for (i, own) in owners.iter().enumerate() {
            let alive = |j: usize| left.contains(&format!("o{j}"));
            if !deleted.contains(&i) && own.iter().any(|(o, _)| alive(*o)) {
                prop_assert!(
                    alive(i),
                    "o{} was collected though an owner lives: {:?}",
                    i,
                    left
                );
            }
            if deleted.contains(&i) {
                prop_assert!(!alive(i), "o{} was deleted by the user", i);
            }
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
        #[test]
        fn the_collector_settles_and_spares_owned_objects((owners, deletes) in graph()) {
            run(owners, deletes)?;
        }
    }
}

/// The delay is configurable: with none, the collector acts on the next tick.
#[test]
fn the_delay_is_configurable() {
    let mut e = Engine::new(kubesim::Config {
        gc_delay_ms: 0,
        ..kubesim::Config::default()
    });
    let o = cm(&mut e, "default", "o", &[], &[]);
    cm(&mut e, "default", "d", &[owned_by(&o, false)], &[]);
    assert_eq!(delete(&mut e, &format!("{}/o", cms("default"))).code, 200);
    e.advance(0);
    assert!(names(&mut e, "default").is_empty());
}

/// The collector's deletes pass admission like a client's: a namespace that may not be
/// deleted stays, even with a dangling owner reference.
#[test]
fn the_collectors_deletes_are_admitted() {
    let mut e = engine();
    create_ns(&mut e, "plain");
    let dangling = json!([{"apiVersion": "rbac.authorization.k8s.io/v1",
        "kind": "ClusterRole", "name": "gone", "uid": "33333333-3333-3333-3333-333333333333"}]);
    for name in ["kube-public", "plain"] {
        let uri = format!("/api/v1/namespaces/{name}");
        let mut ns = get(&mut e, &uri).json;
        ns["metadata"]["ownerReferences"] = dangling.clone();
        let r = send(&mut e, "PUT", &uri, Some(&ns.to_string()), &[]);
        assert_eq!(r.code, 200, "{}", r.text);
    }
    second(&mut e);
    second(&mut e);
    // The same dangling reference: an ordinary namespace is deleted (and terminates), the
    // immortal one is refused by admission and stays Active.
    assert_eq!(
        get(&mut e, "/api/v1/namespaces/plain").json["status"]["phase"],
        "Terminating"
    );
    assert_eq!(
        get(&mut e, "/api/v1/namespaces/kube-public").json["status"]["phase"],
        "Active"
    );
    // A refused delete is not retried as a loop of writes.
    let rev = e.store().revision();
    second(&mut e);
    second(&mut e);
    let writes: Vec<String> = e
        .store()
        .events_after(rev)
        .unwrap()
        .iter()
        .map(|ev| ev.key.clone())
        .filter(|k| k.contains("kube-public"))
        .collect();
    assert!(writes.is_empty(), "{writes:?}");
}

/// Time advanced in one jump still unfolds a cascade a level per pass: each level's delete
/// is written when its pass was due.
#[test]
fn a_jump_in_time_keeps_the_cascades_steps() {
    let mut e = engine();
    let owner = cm(&mut e, "default", "owner", &[], &[]);
    let dep = cm(&mut e, "default", "dep", &[owned_by(&owner, false)], &[]);
    cm(&mut e, "default", "dep2", &[owned_by(&dep, false)], &[]);
    let start = e.clock().now_ms();
    let rev = e.store().revision();
    assert_eq!(
        delete(&mut e, &format!("{}/owner", cms("default"))).code,
        200
    );
    e.advance(10_000);
    let deletes: Vec<(String, i64)> = e
        .store()
        .events_after(rev)
        .unwrap()
        .iter()
        .filter(|ev| ev.value.is_none())
        .map(|ev| {
            (
                ev.key.rsplit('/').next().unwrap().to_string(),
                ev.time_ms - start,
            )
        })
        .collect();
    assert_eq!(
        deletes,
        [
            ("owner".into(), 0),
            ("dep".into(), 1000),
            ("dep2".into(), 2000)
        ]
    );
}

/// A collector that starts from a list (a restart, an imported state) still sees the
/// deletions already under way: an owner deleted in the foreground, its dependent listed
/// before it, and an owner deleted with Orphan.
#[test]
fn a_restarted_collector_finishes_what_was_under_way() {
    let mut a = engine();
    let fg = cm(&mut a, "default", "z-fg", &[], &[]);
    cm(&mut a, "default", "a-dep", &[owned_by(&fg, true)], &[]);
    let or = cm(&mut a, "default", "z-or", &[], &[]);
    cm(&mut a, "default", "b-kept", &[owned_by(&or, false)], &[]);
    assert_eq!(
        delete_with(&mut a, &format!("{}/z-fg", cms("default")), "Foreground"),
        200
    );
    assert_eq!(
        delete_with(&mut a, &format!("{}/z-or", cms("default")), "Orphan"),
        200
    );
    let state = a.export_state();
    let mut b = engine();
    b.import_state(&state).unwrap();
    assert_eq!(
        names(&mut b, "default"),
        ["a-dep", "b-kept", "z-fg*", "z-or*"]
    );
    // The dependent goes and the orphan lets go; the owner follows its dependent's deletion.
    second(&mut b);
    assert_eq!(names(&mut b, "default"), ["b-kept", "z-fg*"]);
    second(&mut b);
    assert_eq!(names(&mut b, "default"), ["b-kept"]);
    let kept = get(&mut b, &format!("{}/b-kept", cms("default"))).json;
    assert!(kept["metadata"]["ownerReferences"].is_null(), "{kept}");
}

/// Objects the collector leaves alone: a cluster-scoped dependent naming a namespaced owner
/// (absent or not), and Events, which the graph builder does not watch.
#[test]
fn what_the_collector_leaves_alone() {
    let mut e = engine();
    let ghost = json!({"apiVersion": "v1", "kind": "ConfigMap", "name": "ghost", "uid": "00000000-0000-0000-0000-000000000000"});
    let ns = post(
        &mut e,
        "/api/v1/namespaces",
        &json!({"metadata": {"name": "owned", "ownerReferences": [ghost]}}),
    );
    assert_eq!(ns.code, 201, "{}", ns.text);
    let ev = post(
        &mut e,
        "/api/v1/namespaces/default/events",
        &json!({"metadata": {"name": "ev", "ownerReferences": [ghost]}, "involvedObject": {}}),
    );
    assert_eq!(ev.code, 201, "{}", ev.text);
    e.advance(10_000);
    assert_eq!(get(&mut e, "/api/v1/namespaces/owned").code, 200);
    assert_eq!(
        get(&mut e, "/api/v1/namespaces/default/events/ev").code,
        200
    );
}
