//! The collector's one Event: `OwnerRefInvalidNamespace`, which the graph builder records when
//! a dependent names, by uid, an object it has observed in another namespace
//! (`reportInvalidNamespaceOwnerRef`). The Event is written as client-go's recorder writes it
//! (`makeEvent`): named `<dependent>.<UnixNano in hex>`, in the dependent's namespace (or
//! `default` for a cluster-scoped one), source `garbage-collector-controller`. A write the
//! server refuses is dropped, as the recorder drops it. Two differences, both from what is
//! not simulated: the engine clock has millisecond resolution, so the name's nanoseconds end
//! in zeros; and client-go's correlator (which would bump `count` on a repeat) is absent.

use serde_json::{json, Map, Value};

use super::graph::Identity;
use crate::codec::go_quote;
use crate::controllers::MANAGER;
use crate::registry::{Registry, Write};
use crate::resources::meta::str_at;
use crate::resources::validation::names::name_is_dns_subdomain;
use crate::resources::EVENTS;

/// `EventSource.Component` of the collector's recorder.
const COMPONENT: &str = "garbage-collector-controller";

/// Writes the Warning Event about `dependent`'s reference `r`.
pub(super) fn record(reg: &mut Registry, dependent: &Identity, r: &Value) {
    let ns = dependent.namespace.as_str();
    let message = format!(
        "ownerRef [{}/{}, namespace: {ns}, name: {}, uid: {}] does not exist in namespace {}",
        str_at(r, "apiVersion"),
        str_at(r, "kind"),
        str_at(r, "name"),
        str_at(r, "uid"),
        go_quote(ns)
    );
    let now_ms = reg.clock().now_ms();
    let mut name = format!("{}.{:x}", dependent.name, now_ms * 1_000_000);
    if !name_is_dns_subdomain(&name, false).is_empty() {
        name = reg.rng().uuid();
    }
    let now = crate::codec::rfc3339::format(now_ms.div_euclid(1000));
    let event_ns = if ns.is_empty() { "default" } else { ns };
    let mut involved = Map::new();
    involved.insert("kind".into(), json!(dependent.kind));
    if !ns.is_empty() {
        involved.insert("namespace".into(), json!(ns));
    }
    involved.insert("name".into(), json!(dependent.name));
    involved.insert("uid".into(), json!(dependent.uid));
    involved.insert("apiVersion".into(), json!(dependent.api_version));
    let event = json!({
        "metadata": {"name": name, "namespace": event_ns},
        "involvedObject": involved,
        "reason": "OwnerRefInvalidNamespace",
        "message": message,
        "source": {"component": COMPONENT},
        "firstTimestamp": now,
        "lastTimestamp": now,
        "count": 1,
        "type": "Warning",
        "reportingComponent": COMPONENT,
        "reportingInstance": "",
    });
    let Value::Object(obj) = event else {
        return;
    };
    let _ = reg.create(
        &EVENTS,
        obj,
        &crate::resources::Sent::none(),
        &Write::by(MANAGER, false),
    );
}
