//! Corrupt objects (reference §11, KEP-3926): a value the store cannot read fails reads from
//! storage as kube-apiserver's do, the watch cache keeps its last good copy, a normal delete
//! fails, and only the unsafe delete removes it, ending the resource's watches.

use serde_json::json;

use crate::common::{get, post, send, watch};
use kubesim::features::FeatureGates;
use kubesim::{Config, Engine};

const CM: &str = "/api/v1/namespaces/default/configmaps";
const OPT: &str = "ignoreStoreReadErrorWithClusterBreakingPotential";

fn engine(gates: &str) -> Engine {
    Engine::new(Config {
        feature_gates: FeatureGates::parse(gates).unwrap(),
        ..Config::default()
    })
}

fn corrupt(e: &mut Engine, name: &str, how: &str) {
    let uri = format!("/kubesim/v1/corrupt?path={CM}/{name}&as={how}");
    let r = send(e, "POST", &uri, None, &[]);
    assert_eq!(r.code, 200, "{}", r.text);
}

#[test]
fn reads_from_storage_fail_and_the_cache_serves_the_last_good_copy() {
    let mut e = engine("AllowUnsafeMalformedObjectDeletion=true,ListFromCacheSnapshot=false");
    for name in ["a", "x"] {
        post(&mut e, CM, &json!({"metadata": {"name": name}}));
    }
    corrupt(&mut e, "x", "undecryptable");
    let r = get(&mut e, &format!("{CM}/x"));
    assert_eq!((r.code, r.reason()), (500, "InternalError"));
    let err = "StorageError: corrupt object, Code: 7, Key: /configmaps/default/x, ResourceVersion: 0, AdditionalErrorMsg: data from the storage is not transformable revision=0: no matching prefix found";
    assert_eq!(r.message(), format!("Internal error occurred: {err}"));
    assert_eq!(r.json["details"], json!({"causes": [{"message": err}]}));
    // The watch cache still holds the object as it was.
    assert_eq!(get(&mut e, &format!("{CM}/x?resourceVersion=0")).code, 200);
    assert_eq!(get(&mut e, CM).names(), ["a", "x"]);
    // A list from storage reports every unreadable object.
    let rv = e.store().revision();
    let r = get(
        &mut e,
        &format!("{CM}?resourceVersion={rv}&resourceVersionMatch=Exact"),
    );
    assert_eq!(
        r.json,
        json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
            "message": "failed to read one or more configmaps from the storage",
            "reason": "StorageReadError",
            "details": {"name": "list", "kind": "configmaps", "causes": [{"reason": "UnexpectedServerResponse",
                "message": "StorageError: corrupt object, Code: 7, Key: /registry/configmaps/default/x, ResourceVersion: 0, AdditionalErrorMsg: data from the storage is not transformable revision=0: no matching prefix found",
                "field": "/registry/configmaps/default/x"}]},
            "code": 500})
    );
    // A limited list that stops before the unreadable key never meets it.
    let r = get(
        &mut e,
        &format!("{CM}?limit=1&resourceVersion={rv}&resourceVersionMatch=Exact"),
    );
    assert_eq!(
        (r.code, r.names()),
        (200, vec!["a".to_string()]),
        "{}",
        r.text
    );
    // Writes read first, and fail the same way.
    let r = send(
        &mut e,
        "PATCH",
        &format!("{CM}/x"),
        Some(r#"{"data":{"k":"v"}}"#),
        &[("content-type", "application/merge-patch+json")],
    );
    assert_eq!(r.message(), format!("Internal error occurred: {err}"));
    let r = send(&mut e, "DELETE", &format!("{CM}/x"), None, &[]);
    assert_eq!(
        (r.code, r.message()),
        (500, format!("Internal error occurred: {err}").as_str())
    );
}

#[test]
fn without_the_gate_the_errors_are_the_bare_ones() {
    let mut e = engine("ListFromCacheSnapshot=false");
    post(&mut e, CM, &json!({"metadata": {"name": "x"}}));
    post(&mut e, CM, &json!({"metadata": {"name": "y"}}));
    corrupt(&mut e, "x", "undecryptable");
    corrupt(&mut e, "y", "undecodable");
    let r = get(&mut e, &format!("{CM}/x"));
    assert_eq!(
        (r.code, r.message()),
        (500, "Internal error occurred: no matching prefix found")
    );
    let r = get(&mut e, &format!("{CM}/y"));
    assert_eq!(
        (r.code, r.reason(), r.message()),
        (
            500,
            "",
            "couldn't get version/kind; json parse error: unexpected end of JSON input"
        )
    );
    let rv = e.store().revision();
    let r = get(
        &mut e,
        &format!("{CM}?resourceVersion={rv}&resourceVersionMatch=Exact"),
    );
    assert_eq!(r.message(), "Internal error occurred: unable to transform key \"/registry/configmaps/default/x\": no matching prefix found");
    // The option is cleared: a delete with it is a normal delete, which fails.
    let r = send(&mut e, "DELETE", &format!("{CM}/x?{OPT}=true"), None, &[]);
    assert_eq!(
        (r.code, r.message()),
        (500, "Internal error occurred: no matching prefix found")
    );
}

#[test]
fn the_unsafe_delete_removes_it_unread_and_ends_the_watches() {
    let mut e = engine("AllowUnsafeMalformedObjectDeletion=true");
    let held = json!({"metadata": {"name": "x", "finalizers": ["example.com/hold"]}});
    let x_rv = post(&mut e, CM, &held).json["metadata"]["resourceVersion"].clone();
    post(&mut e, CM, &json!({"metadata": {"name": "y"}}));
    let mut w = watch(&mut e, &format!("{CM}?watch=1"));
    assert_eq!(w.summary(), ["ADDED x", "ADDED y"]);
    corrupt(&mut e, "x", "undecodable");
    let r = get(&mut e, &format!("{CM}/x"));
    let rev = r
        .message()
        .split("revision=")
        .nth(1)
        .map(|s| s.split(':').next().unwrap_or("").to_string());
    // The decoder knows the revision that wrote the value.
    assert_eq!(rev.as_deref(), x_rv.as_str(), "{}", r.text);
    let r = send(&mut e, "DELETE", &format!("{CM}/x?{OPT}=true"), None, &[]);
    assert_eq!(
        (r.code, r.json.clone()),
        (
            200,
            json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success", "details": {"name": "x", "kind": "ConfigMap"}, "code": 200})
        )
    );
    // Gone, finalizer and all; the watch ended without an event.
    assert_eq!(get(&mut e, &format!("{CM}/x")).code, 404);
    let (events, ended) = w.events();
    assert!(events.is_empty() && ended, "{events:?}");
    assert_eq!(get(&mut e, CM).names(), ["y"]);
    // The cacher relisted: a watch from before the delete is too old, and never sees it.
    let mut late = watch(
        &mut e,
        &format!("{CM}?watch=1&resourceVersion={}", x_rv.as_str().unwrap()),
    );
    let (events, _) = late.events();
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(
        (
            events[0]["type"].as_str(),
            events[0]["object"]["code"].as_i64()
        ),
        (Some("ERROR"), Some(410))
    );
    // The option is only for corrupt objects.
    let r = send(&mut e, "DELETE", &format!("{CM}/y?{OPT}=true"), None, &[]);
    assert_eq!(r.code, 422);
    assert!(
        r.message().ends_with(
            "is exclusively used to delete corrupt object(s), try again by removing this option"
        ),
        "{}",
        r.text
    );
}

#[test]
fn the_control_names_what_it_corrupts() {
    let mut e = engine("");
    let r = send(
        &mut e,
        "POST",
        &format!("/kubesim/v1/corrupt?path={CM}/nope"),
        None,
        &[],
    );
    assert_eq!(
        (r.code, r.message()),
        (400, format!("there is no object at {CM}/nope").as_str())
    );
    let r = send(
        &mut e,
        "POST",
        "/kubesim/v1/corrupt?path=/api/v1/namespaces/default/configmaps/x&as=melted",
        None,
        &[],
    );
    assert_eq!(
        r.message(),
        "unknown corruption \"melted\": undecryptable or undecodable"
    );
}
