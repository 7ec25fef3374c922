//! The collector's one Event: `OwnerRefInvalidNamespace`, which the graph builder records when
//! a dependent names, by uid, an object it has observed in another namespace
//! (`reportInvalidNamespaceOwnerRef`). The Event is written as client-go's recorder writes it
//! (`makeEvent`): named `<dependent>.<UnixNano in hex>`, in the dependent's namespace (or
//! `default` for a cluster-scoped one), source `garbage-collector-controller`. A write the
//! server refuses is dropped, as the recorder drops it.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Map, Value};

use super::{Graph, Node};
use crate::codec::go_quote;
use crate::controllers::MANAGER;
use crate::registry::{Registry, Write};
use crate::resources::meta::str_at;
use crate::resources::validation::names::name_is_dns_subdomain;
use crate::resources::EVENTS;

/// `EventSource.Component` of the collector's recorder.
const COMPONENT: &str = "garbage-collector-controller";

/// Records the Event for each dependent whose first suspicious owner reference names an
/// observed, namespaced object in another namespace, once per (dependent, owner) pair;
/// pairs whose dependent is gone are forgotten.
pub(super) fn report_invalid_namespaces(
    reg: &mut Registry,
    graph: &Graph,
    reported: &mut BTreeSet<(String, String)>,
) {
    let by_uid: BTreeMap<&str, &Node> = graph.nodes.iter().map(|n| (n.uid(), n)).collect();
    reported.retain(|(dependent, _)| by_uid.contains_key(dependent.as_str()));
    for node in &graph.nodes {
        // `addDependentToOwners` looks no further than the first reference that may be
        // invalid: another namespace, or coordinates that differ from the observed owner's.
        let suspicious = node.owner_refs().iter().find_map(|r| {
            let owner = by_uid.get(str_at(r, "uid"))?;
            let other_namespace =
                !owner.namespace().is_empty() && owner.namespace() != node.namespace();
            let other_coordinates = str_at(r, "name") != owner.name()
                || str_at(r, "kind") != owner.info.kind
                || str_at(r, "apiVersion") != owner.info.api_version();
            (other_namespace || other_coordinates).then_some((r, other_namespace))
        });
        let Some((r, true)) = suspicious else {
            continue;
        };
        let pair = (node.uid().to_string(), str_at(r, "uid").to_string());
        if reported.insert(pair) {
            record(reg, node, r);
        }
    }
}

/// Writes the Warning Event about `dependent`'s reference `r`.
fn record(reg: &mut Registry, dependent: &Node, r: &Value) {
    let ns = dependent.namespace();
    let message = format!(
        "ownerRef [{}/{}, namespace: {ns}, name: {}, uid: {}] does not exist in namespace {}",
        str_at(r, "apiVersion"),
        str_at(r, "kind"),
        str_at(r, "name"),
        str_at(r, "uid"),
        go_quote(ns)
    );
    let now_ms = reg.clock().now_ms();
    let mut name = format!("{}.{:x}", dependent.name(), now_ms * 1_000_000);
    if !name_is_dns_subdomain(&name, false).is_empty() {
        name = reg.rng().uuid();
    }
    let now = crate::codec::rfc3339::format(now_ms.div_euclid(1000));
    let event_ns = if ns.is_empty() { "default" } else { ns };
    let mut involved = Map::new();
    involved.insert("kind".into(), json!(dependent.info.kind));
    if !ns.is_empty() {
        involved.insert("namespace".into(), json!(ns));
    }
    involved.insert("name".into(), json!(dependent.name()));
    involved.insert("uid".into(), json!(dependent.uid()));
    involved.insert("apiVersion".into(), json!(dependent.info.api_version()));
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
    let _ = reg.create(&EVENTS, obj, &Map::new(), &Write::by(MANAGER, false));
}
