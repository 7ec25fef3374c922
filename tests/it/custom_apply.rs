//! Server-side apply of custom resources through their schema's list types: a `map` list
//! keyed by several fields (`x-kubernetes-list-map-keys`), items keyed by a defaulted key
//! field, and the key errors structured-merge-diff reports.

use kubesim::Engine;
use serde_json::{json, Value};

use crate::common::{engine, post, send, Resp};

const CRDS: &str = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const GATEWAYS: &str = "/apis/example.com/v1/namespaces/default/gateways";

/// Gateways whose `spec.listeners` is a map list keyed by `port` (required) and `protocol`
/// (defaulted to TCP), and whose `spec.routes` is keyed by two fields without defaults.
fn gateway_crd() -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "gateways.example.com"},
        "spec": {
            "group": "example.com", "scope": "Namespaced",
            "names": {"plural": "gateways", "kind": "Gateway"},
            "versions": [{
                "name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": {
                    "type": "object",
                    "properties": {"spec": {"type": "object", "properties": {
                        "listeners": {
                            "type": "array",
                            "x-kubernetes-list-type": "map",
                            "x-kubernetes-list-map-keys": ["port", "protocol"],
                            "items": {"type": "object", "required": ["port"], "properties": {
                                "port": {"type": "integer"},
                                "protocol": {"type": "string", "default": "TCP"},
                                "name": {"type": "string"}
                            }}
                        },
                        "routes": {
                            "type": "array",
                            "x-kubernetes-list-type": "map",
                            "x-kubernetes-list-map-keys": ["host", "path"],
                            "items": {"type": "object", "required": ["host", "path"], "properties": {
                                "host": {"type": "string"},
                                "path": {"type": "string"},
                                "backend": {"type": "string"}
                            }}
                        }
                    }}}
                }}
            }]
        }
    })
}

fn with_gateways() -> Engine {
    let mut e = engine();
    let r = post(&mut e, CRDS, &gateway_crd());
    assert_eq!(r.code, 201, "{}", r.text);
    e
}

/// Applies Gateway `g` with `spec` (YAML lines) as `manager`.
fn apply(e: &mut Engine, manager: &str, spec: &str) -> Resp {
    apply_with(e, &format!("fieldManager={manager}"), spec)
}

/// [`apply`] with the query `query`.
fn apply_with(e: &mut Engine, query: &str, spec: &str) -> Resp {
    let body =
        format!("apiVersion: example.com/v1\nkind: Gateway\nmetadata:\n  name: g\nspec:\n{spec}");
    send(
        e,
        "PATCH",
        &format!("{GATEWAYS}/g?{query}"),
        Some(&body),
        &[("content-type", "application/apply-patch+yaml")],
    )
}

/// The fieldsV1 of `manager`'s entry.
fn fields_of(obj: &Value, manager: &str) -> String {
    let entries = obj["metadata"]["managedFields"].as_array().cloned();
    entries
        .into_iter()
        .flatten()
        .find(|m| m["manager"] == manager)
        .map(|m| m["fieldsV1"].to_string())
        .unwrap_or_default()
}

#[test]
fn items_of_a_multi_key_map_list_are_owned_by_all_their_keys() {
    let mut e = with_gateways();
    // `protocol` omitted: the item is keyed by its default.
    let r = apply(&mut e, "a", "  listeners:\n  - port: 80\n    name: web\n");
    assert_eq!(r.code, 201, "{}", r.text);
    assert_eq!(
        r.json["spec"]["listeners"],
        json!([{"name": "web", "port": 80, "protocol": "TCP"}])
    );
    assert_eq!(
        fields_of(&r.json, "a"),
        r#"{"f:spec":{"f:listeners":{"k:{\"port\":80,\"protocol\":\"TCP\"}":{".":{},"f:name":{},"f:port":{}}}}}"#
    );
    // The same port with another protocol is another item, owned by another manager.
    let r = apply(
        &mut e,
        "b",
        "  listeners:\n  - port: 80\n    protocol: UDP\n    name: dns\n",
    );
    assert_eq!(r.code, 200, "{}", r.text);
    assert_eq!(
        r.json["spec"]["listeners"],
        json!([
            {"name": "web", "port": 80, "protocol": "TCP"},
            {"name": "dns", "port": 80, "protocol": "UDP"}
        ])
    );
    assert_eq!(
        fields_of(&r.json, "b"),
        r#"{"f:spec":{"f:listeners":{"k:{\"port\":80,\"protocol\":\"UDP\"}":{".":{},"f:name":{},"f:port":{},"f:protocol":{}}}}}"#
    );
    // Changing the name of a's item conflicts on that item alone, named by both keys.
    let r = apply(&mut e, "b", "  listeners:\n  - port: 80\n    name: other\n");
    assert_eq!(r.code, 409, "{}", r.text);
    assert_eq!(
        r.json["message"],
        "Apply failed with 1 conflict: conflict with \"a\": .spec.listeners[port=80,protocol=\"TCP\"].name"
    );
    // Forced, b takes the name over and gives up its UDP item, which goes.
    let r = apply_with(
        &mut e,
        "fieldManager=b&force=true",
        "  listeners:\n  - port: 80\n    name: other\n",
    );
    assert_eq!(r.code, 200, "{}", r.text);
    assert_eq!(
        r.json["spec"]["listeners"],
        json!([{"name": "other", "port": 80, "protocol": "TCP"}])
    );
    assert_eq!(
        fields_of(&r.json, "a"),
        r#"{"f:spec":{"f:listeners":{"k:{\"port\":80,\"protocol\":\"TCP\"}":{".":{},"f:port":{}}}}}"#
    );
}

#[test]
fn an_item_without_any_key_field_is_refused_naming_every_key() {
    let mut e = with_gateways();
    let r = apply(&mut e, "a", "  routes:\n  - backend: x\n");
    assert_eq!(r.code, 500, "{}", r.text);
    assert_eq!(
        r.json["message"],
        "failed to create typed patch object (/g; example.com/v1, Kind=Gateway): .spec.routes: element 0: associative list with keys has an element that omits all key fields [\"host\" \"path\"] (and doesn't have default values for any key fields)"
    );
    // Items that share one key but not the other are two items.
    let r = apply(
        &mut e,
        "a",
        "  routes:\n  - host: h\n    path: /a\n  - host: h\n    path: /b\n",
    );
    assert_eq!(r.code, 201, "{}", r.text);
    assert_eq!(
        fields_of(&r.json, "a"),
        r#"{"f:spec":{"f:routes":{"k:{\"host\":\"h\",\"path\":\"/a\"}":{".":{},"f:host":{},"f:path":{}},"k:{\"host\":\"h\",\"path\":\"/b\"}":{".":{},"f:host":{},"f:path":{}}}}}"#
    );
    let r = apply(
        &mut e,
        "a",
        "  routes:\n  - host: h\n    path: /a\n  - host: h\n    path: /a\n",
    );
    assert_eq!(r.code, 500, "{}", r.text);
    assert_eq!(
        r.json["message"],
        "failed to create typed patch object (/g; example.com/v1, Kind=Gateway): .spec.routes: duplicate entries for key [host=\"h\",path=\"/a\"]"
    );
}
