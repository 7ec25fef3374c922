//! Kinds registered while the server runs (the path custom resources will take): from the
//! next request on they are routed, discovered (with a new aggregated-discovery ETag), listed
//! in OpenAPI, and served by every verb.

use crate::common::*;
use kubesim::resources::configmap::{ConfigMapStrategy, CONFIG_MAP};
use kubesim::resources::field::FieldError;
use kubesim::resources::{ListDocs, ResourceInfo};
use serde_json::json;

type Obj = serde_json::Map<String, serde_json::Value>;

/// A namespaced kind in its own group, reusing ConfigMap's schema and strategy.
static WIDGETS: ResourceInfo = ResourceInfo {
    group: "example.com",
    version: "v1",
    kind: "ConfigMap",
    plural: "widgets",
    singular: "widget",
    short_names: &["wd"],
    categories: &[],
    storage_version: None,
    namespaced: true,
    verbs: &[
        "create", "delete", "get", "list", "patch", "update", "watch",
    ],
    subresources: &[],
    schema: &CONFIG_MAP,
    strategy: &ConfigMapStrategy,
    extra_field_labels: &[],
    protobuf: false,
    list_docs: ListDocs {
        description: "A list of widgets.",
        items: "The widgets.",
        metadata: "Standard list metadata.",
    },
    custom: None,
};

/// A test kind in `group`/v1 reusing ConfigMap's schema, served by `strategy`.
const fn test_kind(
    group: &'static str,
    plural: &'static str,
    singular: &'static str,
    namespaced: bool,
    verbs: &'static [&'static str],
    strategy: &'static dyn kubesim::resources::Strategy,
) -> ResourceInfo {
    ResourceInfo {
        group,
        version: "v1",
        kind: "ConfigMap",
        plural,
        singular,
        short_names: &[],
        categories: &[],
        storage_version: None,
        namespaced,
        verbs,
        subresources: &[],
        schema: &CONFIG_MAP,
        strategy,
        extra_field_labels: &[],
        protobuf: false,
        list_docs: ListDocs {
            description: "",
            items: "",
            metadata: "",
        },
        custom: None,
    }
}

/// Strategies that accept everything (the tests are about other hooks).
const NO_ERRORS: fn() -> Vec<kubesim::resources::field::FieldError> = Vec::new;

const AGGREGATED: &str = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";

#[test]
fn a_kind_registered_at_runtime_is_served_from_the_next_request() {
    let mut e = engine();
    let path = "/apis/example.com/v1/namespaces/default/widgets";
    assert_eq!(get(&mut e, path).code, 404);
    let before = send(&mut e, "GET", "/apis", None, &[("accept", AGGREGATED)]);
    e.register_kind(&WIDGETS).unwrap();
    assert!(e.register_kind(&WIDGETS).is_err(), "registered twice");

    let groups = get(&mut e, "/apis");
    let names: Vec<&str> = groups.json["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "apps",
            "authentication.k8s.io",
            "authorization.k8s.io",
            "rbac.authorization.k8s.io",
            "apiextensions.k8s.io",
            "example.com"
        ]
    );
    let list = get(&mut e, "/apis/example.com/v1");
    assert_eq!(list.json["resources"][0]["name"], "widgets");
    assert_eq!(list.json["resources"][0]["shortNames"], json!(["wd"]));
    let after = send(&mut e, "GET", "/apis", None, &[("accept", AGGREGATED)]);
    assert_ne!(before.header("etag"), after.header("etag"));
    let index = get(&mut e, "/openapi/v3");
    assert!(
        index.json["paths"]["apis/example.com/v1"].is_object(),
        "{}",
        index.text
    );

    let body = json!({
        "apiVersion": "example.com/v1", "kind": "ConfigMap",
        "metadata": {"name": "w1"}, "data": {"a": "1"}
    });
    let created = post(&mut e, path, &body);
    assert_eq!(created.code, 201, "{}", created.text);
    assert_eq!(created.json["apiVersion"], "example.com/v1");
    let listed = get(&mut e, path);
    assert_eq!(listed.json["kind"], "ConfigMapList");
    assert_eq!(listed.json["items"][0]["metadata"]["name"], "w1");
    let one = get(&mut e, &format!("{path}/w1?resourceVersion=0"));
    assert_eq!(one.code, 200);
    assert!(one.header("x-kubesim-read").starts_with("semantic=Any"));
    // No protobuf form for it (as for custom resources).
    let pb = send(
        &mut e,
        "GET",
        path,
        None,
        &[("accept", "application/vnd.kubernetes.protobuf")],
    );
    assert_eq!(pb.code, 406, "{}", pb.text);
    // Namespace deletion reaches the new kind too.
    assert_eq!(delete(&mut e, &format!("{path}/w1")).code, 200);
}

/// A virtual kind, as SubjectAccessReview is: a create is answered, nothing is stored.
#[derive(Debug)]
struct EchoReview;

impl kubesim::resources::Strategy for EchoReview {
    fn stored(&self) -> bool {
        false
    }
    fn prepare_for_create(&self, obj: &mut serde_json::Map<String, serde_json::Value>) {
        obj.insert("data".into(), json!({"answered": "yes"}));
    }
    fn validate_create(
        &self,
        obj: &serde_json::Map<String, serde_json::Value>,
        _sent: &kubesim::resources::Sent,
    ) -> Vec<kubesim::resources::field::FieldError> {
        match obj.get("data").and_then(|d| d.get("question")) {
            Some(_) => Vec::new(),
            None => vec![kubesim::resources::field::FieldError::required(
                "data.question",
                "",
            )],
        }
    }
    fn validate_update(&self, _new: &Obj, _old: &Obj) -> Vec<FieldError> {
        NO_ERRORS()
    }
}

static ECHO_REVIEWS: ResourceInfo = test_kind(
    "review.example.com",
    "echoreviews",
    "echoreview",
    false,
    &["create"],
    &EchoReview,
);

#[test]
fn a_virtual_kind_answers_a_create_and_stores_nothing() {
    let mut e = engine();
    e.register_kind(&ECHO_REVIEWS).unwrap();
    let path = "/apis/review.example.com/v1/echoreviews";
    let rev = e.store().revision();
    let body = json!({
        "apiVersion": "review.example.com/v1", "kind": "ConfigMap",
        "data": {"question": "may I?"}
    });
    let r = post(&mut e, path, &body);
    assert_eq!(r.code, 201, "{}", r.text);
    assert_eq!(r.json["data"], json!({"answered": "yes"}));
    assert!(r.json["metadata"].get("uid").is_none(), "{}", r.text);
    assert!(r.json["metadata"].get("resourceVersion").is_none());
    assert_eq!(e.store().revision(), rev, "nothing was written");
    let invalid = post(&mut e, path, &json!({"data": {}}));
    assert_eq!(invalid.code, 422, "{}", invalid.text);
    let list = get(&mut e, "/apis/review.example.com/v1");
    let entry = &list.json["resources"][0];
    assert_eq!(entry["verbs"], json!(["create"]));
    assert!(entry.get("storageVersionHash").is_none(), "{entry}");
}

/// A kind deleted gracefully, as Pods are: 30 s unless the delete asks otherwise.
#[derive(Debug)]
struct Graceful;

impl kubesim::resources::Strategy for Graceful {
    fn graceful_delete_seconds(
        &self,
        _obj: &serde_json::Value,
        requested: Option<i64>,
    ) -> Option<i64> {
        Some(requested.unwrap_or(30))
    }
    fn validate_create(&self, _obj: &Obj, _sent: &kubesim::resources::Sent) -> Vec<FieldError> {
        NO_ERRORS()
    }
    fn validate_update(&self, _new: &Obj, _old: &Obj) -> Vec<FieldError> {
        NO_ERRORS()
    }
}

static LINGERERS: ResourceInfo = test_kind(
    "graceful.example.com",
    "lingerers",
    "lingerer",
    true,
    &[
        "create", "delete", "get", "list", "patch", "update", "watch",
    ],
    &Graceful,
);

#[test]
fn a_graceful_kind_stays_until_deleted_with_grace_zero() {
    let mut e = engine();
    e.register_kind(&LINGERERS).unwrap();
    let path = "/apis/graceful.example.com/v1/namespaces/default/lingerers";
    let body = json!({"apiVersion": "graceful.example.com/v1", "kind": "ConfigMap", "metadata": {"name": "l1"}});
    assert_eq!(post(&mut e, path, &body).code, 201);
    let first = delete(&mut e, &format!("{path}/l1"));
    assert_eq!(first.code, 200, "{}", first.text);
    assert_eq!(first.json["metadata"]["deletionGracePeriodSeconds"], 30);
    assert_eq!(
        first.json["metadata"]["deletionTimestamp"],
        "2026-01-01T00:00:30Z"
    );
    assert_eq!(get(&mut e, &format!("{path}/l1")).code, 200, "still there");
    // A later delete may only shorten the grace period.
    let longer = delete(&mut e, &format!("{path}/l1?gracePeriodSeconds=60"));
    assert_eq!(longer.code, 200, "{}", longer.text);
    assert_eq!(
        longer.json["metadata"]["deletionTimestamp"],
        "2026-01-01T00:00:30Z"
    );
    let shorter = delete(&mut e, &format!("{path}/l1?gracePeriodSeconds=10"));
    assert_eq!(
        shorter.json["metadata"]["deletionTimestamp"],
        "2026-01-01T00:00:10Z"
    );
    assert_eq!(shorter.json["metadata"]["deletionGracePeriodSeconds"], 10);
    let now = delete(&mut e, &format!("{path}/l1?gracePeriodSeconds=0"));
    assert_eq!(now.code, 200, "{}", now.text);
    assert_eq!(now.json["kind"], "Status");
    assert_eq!(get(&mut e, &format!("{path}/l1")).code, 404);
    // Asking for no grace at once deletes at once.
    assert_eq!(post(&mut e, path, &body).code, 201);
    let at_once = delete(&mut e, &format!("{path}/l1?gracePeriodSeconds=0"));
    assert_eq!(at_once.json["kind"], "Status", "{}", at_once.text);
}

/// A kind registered at runtime that has a protobuf form (as a built-in group added later
/// would): bodies are encoded and decoded with the served kinds, not only the built-in ones.
static PB_WIDGETS: ResourceInfo = ResourceInfo {
    protobuf: true,
    ..test_kind(
        "pb.example.com",
        "widgets",
        "widget",
        true,
        &["create", "get", "list"],
        &ConfigMapStrategy,
    )
};

#[test]
fn protobuf_uses_the_served_kinds() {
    let mut e = engine();
    e.register_kind(&PB_WIDGETS).unwrap();
    let path = "/apis/pb.example.com/v1/namespaces/default/widgets";
    let body =
        json!({"apiVersion": "pb.example.com/v1", "kind": "ConfigMap", "metadata": {"name": "w"}});
    assert_eq!(post(&mut e, path, &body).code, 201);
    let pb = send(
        &mut e,
        "GET",
        &format!("{path}/w"),
        None,
        &[("accept", "application/vnd.kubernetes.protobuf")],
    );
    assert_eq!(pb.code, 200, "{}", pb.text);
    assert_eq!(
        pb.header("content-type"),
        "application/vnd.kubernetes.protobuf"
    );
}
