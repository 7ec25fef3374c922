//! core/v1 Events: the shape the server stores and returns, `legacyValidateEvent`'s rules,
//! MicroTime, the field selectors, the printer, the strategy (create on PUT, no
//! garbage-collection policy), and the garbage collector's `OwnerRefInvalidNamespace` Event.

use serde_json::{json, Value};

use crate::common::{create_ns, engine, get, post, put, send};

const EVENTS: &str = "/api/v1/namespaces/default/events";

/// An Event as client-go's recorder builds it for ConfigMap `cm` in `default`.
fn recorded(name: &str, reason: &str) -> Value {
    json!({
        "apiVersion": "v1", "kind": "Event",
        "metadata": {"name": name},
        "involvedObject": {"kind": "ConfigMap", "namespace": "default", "name": "cm", "uid": "u-1", "apiVersion": "v1"},
        "reason": reason, "message": "  something happened \n",
        "source": {"component": "demo-controller", "host": "node-1"},
        "firstTimestamp": "2026-11-24T10:00:00Z", "lastTimestamp": "2026-11-24T10:00:00Z",
        "count": 1, "type": "Normal",
        "reportingComponent": "demo-controller", "reportingInstance": "node-1"
    })
}

/// The keys of an object, in order.
fn keys(v: &Value) -> Vec<&str> {
    v.as_object().unwrap().keys().map(String::as_str).collect()
}

#[test]
fn an_event_is_stored_as_sent_with_go_s_json_shape() {
    let mut e = engine();
    let body = json!({"metadata": {"name": "bare"}, "involvedObject": {}});
    let r = post(&mut e, EVENTS, &body);
    assert_eq!(r.code, 201, "{}", r.text);
    // Structs, times and the two reporting fields are always written; nothing is filled in.
    assert_eq!(
        keys(&r.json),
        [
            "kind",
            "apiVersion",
            "metadata",
            "involvedObject",
            "source",
            "firstTimestamp",
            "lastTimestamp",
            "eventTime",
            "reportingComponent",
            "reportingInstance"
        ]
    );
    assert_eq!(r.json["source"], json!({}));
    assert_eq!(r.json["eventTime"], Value::Null);
    assert_eq!(r.json["reportingInstance"], "");

    let r = post(&mut e, EVENTS, &recorded("cm.1", "Synced"));
    assert_eq!(r.code, 201, "{}", r.text);
    assert_eq!(r.json["count"], 1);
    assert_eq!(r.json["firstTimestamp"], "2026-11-24T10:00:00Z");
}

#[test]
fn event_time_is_a_micro_time() {
    let mut e = engine();
    let mut ev = recorded("micro", "Synced");
    ev["eventTime"] = json!("2026-11-24T11:00:00.123456+01:00");
    ev["action"] = json!("Sync");
    let r = post(&mut e, EVENTS, &ev);
    assert_eq!(r.code, 201, "{}", r.text);
    assert_eq!(r.json["eventTime"], "2026-11-24T10:00:00.123456Z");

    // Protobuf keeps the microseconds: read it as Protobuf, write that back.
    let read = http::Request::get(format!("{EVENTS}/micro"))
        .header("accept", "application/vnd.kubernetes.protobuf")
        .body(bytes::Bytes::new())
        .unwrap();
    let pb = e.handle(read).body().bytes().to_vec();
    assert!(pb.starts_with(b"k8s\0"));
    let req = http::Request::put(format!("{EVENTS}/micro"))
        .header("content-type", "application/vnd.kubernetes.protobuf")
        .body(bytes::Bytes::from(pb))
        .unwrap();
    let r = crate::common::Resp::from_response(&e.handle(req));
    assert_eq!(r.code, 200, "{}", r.text);
    assert_eq!(r.json["eventTime"], "2026-11-24T10:00:00.123456Z");

    for (time, rest, elem) in [
        ("2026-11-24T10:00:00Z", "Z", ".000000"),
        ("2026-11-24T10:00:00.123456789Z", "789Z", "Z07:00"),
    ] {
        ev["metadata"]["name"] = json!("bad");
        ev["eventTime"] = json!(time);
        let r = post(&mut e, EVENTS, &ev);
        assert_eq!(r.code, 400, "{}", r.text);
        let want = format!(
            "parsing time \"{time}\" as \"2006-01-02T15:04:05.000000Z07:00\": cannot parse \"{rest}\" as \"{elem}\""
        );
        assert!(r.message().contains(&want), "{}", r.message());
    }
}

#[test]
fn legacy_validation_rules() {
    let mut e = engine();
    create_ns(&mut e, "b");
    // An old-style event's namespace must be its object's.
    let mut ev = recorded("x", "Synced");
    ev["involvedObject"]["namespace"] = json!("a");
    let r = post(&mut e, EVENTS, &ev);
    assert_eq!(r.code, 422);
    assert_eq!(
        r.message(),
        "Event \"x\" is invalid: involvedObject.namespace: Invalid value: \"a\": does not match event.namespace"
    );
    // A cluster-scoped object's events go to "default" (or have no namespace of their own).
    ev["involvedObject"] = json!({"kind": "Namespace", "name": "b", "apiVersion": "v1"});
    assert_eq!(post(&mut e, EVENTS, &ev).code, 201);
    let r = post(&mut e, "/api/v1/namespaces/b/events", &ev);
    assert_eq!(r.code, 422);
    assert_eq!(
        r.message(),
        "Event \"x\" is invalid: involvedObject.namespace: Invalid value: \"\": does not match event.namespace"
    );

    // A new-style event (eventTime set) needs the reporting fields, an action and a reason.
    let ev = json!({"metadata": {"name": "new"}, "eventTime": "2026-11-24T10:00:00.000000Z",
                    "involvedObject": {"kind": "ConfigMap", "namespace": "default", "name": "cm"},
                    "message": "m".repeat(1025)});
    let r = post(&mut e, EVENTS, &ev);
    assert_eq!(r.code, 422);
    assert_eq!(
        r.cause_fields(),
        [
            "reportingComponent",
            "reportingComponent",
            "reportingComponent",
            "reportingInstance",
            "action",
            "reason",
            "message"
        ]
    );
    assert!(r.message().starts_with("Event \"new\" is invalid: [reportingComponent: Required value, reportingComponent: Invalid value: \"\": name part must be non-empty, "), "{}", r.message());
    assert!(r.message().ends_with(", reportingInstance: Required value, action: Required value, reason: Required value, message: Invalid value: \"\": can have at most 1024 characters]"), "{}", r.message());

    // Names are only path segments; an update may change anything.
    let mut ev = recorded("Upper_Case", "Synced");
    assert_eq!(post(&mut e, EVENTS, &ev).code, 201);
    ev["involvedObject"]["name"] = json!("other");
    ev["reason"] = json!("Changed");
    let r = put(&mut e, &format!("{EVENTS}/Upper_Case"), &ev);
    assert_eq!(r.code, 200, "{}", r.text);
    assert_eq!(r.json["reason"], "Changed");
}

#[test]
fn put_creates_and_deletes_ignore_propagation() {
    let mut e = engine();
    let r = put(
        &mut e,
        &format!("{EVENTS}/made"),
        &recorded("made", "Synced"),
    );
    assert_eq!(r.code, 201, "{}", r.text);
    let body =
        json!({"kind": "DeleteOptions", "apiVersion": "v1", "propagationPolicy": "Foreground"});
    let r = send(
        &mut e,
        "DELETE",
        &format!("{EVENTS}/made"),
        Some(&body.to_string()),
        &[("content-type", "application/json")],
    );
    assert_eq!(r.code, 200, "{}", r.text);
    assert_eq!(get(&mut e, &format!("{EVENTS}/made")).code, 404);
}

#[test]
fn field_selectors_of_events() {
    let mut e = engine();
    for (name, reason) in [("cm.1", "Synced"), ("cm.2", "Failed")] {
        assert_eq!(post(&mut e, EVENTS, &recorded(name, reason)).code, 201);
    }
    let mut other = recorded("other.1", "Synced");
    other["involvedObject"]["name"] = json!("other");
    other["source"] = json!({});
    other["reportingComponent"] = json!("fallback");
    assert_eq!(post(&mut e, EVENTS, &other).code, 201);
    let cases: &[(&str, &[&str])] = &[
        ("involvedObject.name=cm", &["cm.1", "cm.2"]),
        ("involvedObject.name=cm,reason=Failed", &["cm.2"]),
        (
            "involvedObject.kind=ConfigMap,involvedObject.uid=u-1",
            &["cm.1", "cm.2", "other.1"],
        ),
        ("source=demo-controller", &["cm.1", "cm.2"]),
        ("source=fallback", &["other.1"]),
        ("reportingComponent=fallback,type=Normal", &["other.1"]),
        ("metadata.name=cm.1", &["cm.1"]),
    ];
    for (selector, want) in cases {
        let r = get(&mut e, &format!("{EVENTS}?fieldSelector={selector}"));
        assert_eq!(r.code, 200, "{selector}: {}", r.text);
        assert_eq!(r.names(), *want, "{selector}");
    }
    let r = get(
        &mut e,
        &format!("{EVENTS}?fieldSelector=source.host=node-1"),
    );
    assert_eq!(r.code, 400);
    assert_eq!(r.message(), "field label not supported: source.host");
}

#[test]
fn the_event_table() {
    let mut e = engine();
    let now = post(
        &mut e,
        EVENTS,
        &json!({"metadata": {"name": "clock"}, "involvedObject": {}}),
    )
    .json["metadata"]["creationTimestamp"]
        .as_str()
        .unwrap()
        .to_string();
    let mut ev = recorded("cm.1", "Synced");
    ev["firstTimestamp"] = json!(now);
    ev["lastTimestamp"] = json!(now);
    ev["count"] = json!(0);
    assert_eq!(post(&mut e, EVENTS, &ev).code, 201);
    e.advance(90_000);
    let r = send(
        &mut e,
        "GET",
        &format!("{EVENTS}?fieldSelector=metadata.name=cm.1"),
        None,
        &[("accept", "application/json;as=Table;g=meta.k8s.io;v=v1")],
    );
    assert_eq!(r.code, 200, "{}", r.text);
    let columns: Vec<(&str, i64)> = r.json["columnDefinitions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["name"].as_str().unwrap(), c["priority"].as_i64().unwrap()))
        .collect();
    assert_eq!(
        columns,
        [
            ("Last Seen", 0),
            ("Type", 0),
            ("Reason", 0),
            ("Object", 0),
            ("Subobject", 1),
            ("Source", 1),
            ("Message", 0),
            ("First Seen", 1),
            ("Count", 1),
            ("Name", 1)
        ]
    );
    assert_eq!(
        r.json["rows"][0]["cells"],
        json!([
            "90s",
            "Normal",
            "Synced",
            "configmap/cm",
            "",
            "demo-controller, node-1",
            "something happened",
            "90s",
            1,
            "cm.1"
        ])
    );
    // Without times the ages are unknown.
    let r = send(
        &mut e,
        "GET",
        &format!("{EVENTS}/clock"),
        None,
        &[("accept", "application/json;as=Table;g=meta.k8s.io;v=v1")],
    );
    assert_eq!(
        r.json["rows"][0]["cells"],
        json!(["<unknown>", "", "", "", "", "", "", "<unknown>", 1, "clock"])
    );
}

/// A ConfigMap in `b` naming, by uid, a ConfigMap of `a` as its owner: the collector records
/// a Warning about it in `b`, once, and deletes the dependent (its owner is absent from `b`).
#[test]
fn the_collector_reports_an_owner_in_another_namespace() {
    let mut e = engine();
    create_ns(&mut e, "a");
    create_ns(&mut e, "b");
    let owner = post(
        &mut e,
        "/api/v1/namespaces/a/configmaps",
        &json!({"metadata": {"name": "owner"}}),
    );
    let uid = owner.json["metadata"]["uid"].as_str().unwrap().to_string();
    let refs = json!([{"apiVersion": "v1", "kind": "ConfigMap", "name": "owner", "uid": uid}]);
    let dep = post(
        &mut e,
        "/api/v1/namespaces/b/configmaps",
        &json!({"metadata": {"name": "dep", "ownerReferences": refs}}),
    );
    assert_eq!(dep.code, 201);
    let dep_uid = dep.json["metadata"]["uid"].as_str().unwrap().to_string();
    e.advance(1000);
    let r = get(&mut e, "/api/v1/namespaces/b/events");
    let items = r.json["items"].as_array().unwrap();
    assert_eq!(items.len(), 1, "{}", r.text);
    let ev = &items[0];
    assert!(ev["metadata"]["name"].as_str().unwrap().starts_with("dep."));
    assert_eq!(
        ev["involvedObject"],
        json!({"kind": "ConfigMap", "namespace": "b", "name": "dep", "uid": dep_uid, "apiVersion": "v1"})
    );
    assert_eq!(ev["reason"], "OwnerRefInvalidNamespace");
    assert_eq!(
        ev["message"],
        format!("ownerRef [v1/ConfigMap, namespace: b, name: owner, uid: {uid}] does not exist in namespace \"b\"")
    );
    assert_eq!(ev["type"], "Warning");
    assert_eq!(
        ev["source"],
        json!({"component": "garbage-collector-controller"})
    );
    assert_eq!(ev["reportingComponent"], "garbage-collector-controller");
    assert_eq!(ev["count"], 1);
    assert_eq!(ev["firstTimestamp"], ev["lastTimestamp"]);
    e.advance(5000);
    assert_eq!(get(&mut e, "/api/v1/namespaces/b/configmaps/dep").code, 404);
    assert_eq!(
        get(&mut e, "/api/v1/namespaces/b/events").json["items"]
            .as_array()
            .unwrap()
            .len(),
        1
    );

    // A cluster-scoped dependent of a namespaced owner: left alone, reported in "default".
    let ns = post(
        &mut e,
        "/api/v1/namespaces",
        &json!({"metadata": {"name": "c", "ownerReferences": refs}}),
    );
    assert_eq!(ns.code, 201, "{}", ns.text);
    e.advance(5000);
    assert_eq!(get(&mut e, "/api/v1/namespaces/c").code, 200);
    let r = get(
        &mut e,
        "/api/v1/namespaces/default/events?fieldSelector=involvedObject.name=c",
    );
    assert_eq!(r.json["items"][0]["message"], format!("ownerRef [v1/ConfigMap, namespace: , name: owner, uid: {uid}] does not exist in namespace \"\""));
    assert_eq!(r.json["items"][0]["involvedObject"]["kind"], "Namespace");
}

/// Events live an hour after their last write, as etcd's leases end: a write takes a lease
/// of 3660 s, which writes in the next minute reuse (so they go up to 60 s sooner).
#[test]
fn events_expire_with_their_lease() {
    let mut e = engine();
    let exists =
        |e: &mut kubesim::Engine, name: &str| get(e, &format!("{EVENTS}/{name}")).code == 200;
    assert_eq!(post(&mut e, EVENTS, &recorded("a", "First")).code, 201);
    e.advance(1_800_000);
    // A second write of a moves it to a new lease: 3660 s from now.
    let mut again = recorded("a", "Again");
    again["count"] = json!(2);
    assert_eq!(put(&mut e, &format!("{EVENTS}/a"), &again).code, 200);
    e.advance(30_000);
    // b, 30 s later, reuses that lease: it ends 3630 s after b's write.
    assert_eq!(post(&mut e, EVENTS, &recorded("b", "Later")).code, 201);
    let mut w = crate::common::watch(
        &mut e,
        &format!("{EVENTS}?watch=1&resourceVersion=0&timeoutSeconds=7200"),
    );
    w.events();
    e.advance(3_629_000);
    assert!(exists(&mut e, "a") && exists(&mut e, "b"));
    e.advance(1_000);
    assert!(!exists(&mut e, "a") && !exists(&mut e, "b"));
    assert_eq!(w.summary(), ["DELETED a", "DELETED b"]);
}
