//! Custom resources: the kinds CustomResourceDefinitions define, served as
//! apiextensions-apiserver's `crdHandler` serves them.
//!
//! A definition that is `Established` serves one kind per served version ([`served_versions`]):
//! a [`CustomKind`] (its structural schema, subresources, printer columns and selectable
//! fields), which is the kind's strategy and printer, and a [`ResourceInfo`] built from it,
//! which routing, discovery and the generic registry read as they read a built-in kind's.
//!
//! Objects are unstructured, as on kube-apiserver: what a client sends is kept as JSON values,
//! pruned to the schema, with `metadata` coerced through `ObjectMeta`, and every object
//! written with its keys sorted (Go's `map[string]interface{}`), metadata included
//! ([`canonical`]).
//!
//! A built kind lives as long as the process (`&'static`, as the built-in kinds): the
//! registry's [`Kinds`](super::Kinds) builds one per definition version and reuses it while
//! the definition does not change.

pub mod canonical;
pub mod cel;
pub mod conversion;
pub mod field_path;
pub(crate) mod formats;
pub mod go_regexp;
mod listtype;
pub mod neturl;
mod printer;
pub mod reading;
mod rules;
pub mod scale;
mod schema_errors;
mod serving;
mod strategy;
pub mod structural;
mod typed;
pub mod validate;
pub mod versions;

use serde_json::{Map, Value};

use super::{ListDocs, ResourceInfo, Subresource};
use crate::resources::crd::validation::condition_true;
use crate::resources::meta::{str_at, strings};
use structural::Schema;

/// A custom resource's verbs, in the order discovery lists them (`verbs` in
/// `customresource_discovery_controller.go`).
pub const VERBS: &[&str] = &[
    "delete",
    "deletecollection",
    "get",
    "list",
    "patch",
    "create",
    "update",
    "watch",
];

/// The verbs discovery lists while the definition is terminating (creates are refused).
pub const TERMINATING_VERBS: &[&str] = &["delete", "deletecollection", "get", "list", "watch"];

/// The verbs of the `status` and `scale` subresources.
pub const SUBRESOURCE_VERBS: &[&str] = &["get", "patch", "update"];

/// A printer column (`additionalPrinterColumns`).
#[derive(Debug, Clone, PartialEq)]
pub struct PrinterColumn {
    pub name: String,
    pub ty: String,
    pub format: String,
    pub description: String,
    pub priority: i64,
    pub json_path: String,
}

/// The `scale` subresource's paths.
#[derive(Debug, Clone, PartialEq)]
pub struct Scale {
    pub spec_replicas: String,
    pub status_replicas: String,
    pub label_selector: String,
}

/// One served version of a definition: everything its objects' handling needs.
#[derive(Debug)]
pub struct CustomKind {
    /// The definition's name (`widgets.example.com`).
    pub definition: String,
    pub group: String,
    pub version: String,
    pub kind: String,
    pub list_kind: String,
    pub plural: String,
    pub namespaced: bool,
    /// The version objects are stored in.
    pub storage_version: String,
    /// Whether the storage version is served: discovery gives a storage version hash only
    /// then.
    pub storage_served: bool,
    /// Whether the definition is being deleted: discovery lists [`TERMINATING_VERBS`].
    pub terminating: bool,
    /// The definition this kind was built from, apart from its being deleted: the watches of
    /// a kind end when no served kind has the same.
    pub storage_of: String,
    /// The warning every request to a deprecated version gets.
    pub deprecation: Option<String>,
    /// The version's structural schema (the root object's).
    pub schema: Schema,
    /// The version's `openAPIV3Schema` as written (`{"type":"object"}` without one), which
    /// OpenAPI publishes.
    pub openapi: Value,
    /// Whether the `status` subresource is enabled.
    pub status: bool,
    pub scale: Option<Scale>,
    /// `selectableFields`, as field labels (`spec.color`).
    pub selectable: Vec<String>,
    /// The Table's columns and cells.
    printer: &'static printer::CustomPrinter,
    /// The definition's other versions' schemas, when any differs from this one's: a stored
    /// object reads through the schema of the version it was stored in ([`reading`]).
    others: Vec<(String, Schema)>,
    /// The store's revision when this kind began to be served: what was written after it
    /// was written through this schema, and reads as stored ([`reading`]).
    pub settled: std::sync::atomic::AtomicU64,
}

/// `path.key`, or `key` at the root: how the schema walks name a member.
fn child(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// The members of a simple JSONPath (`.spec.replicas`, or `spec.replicas` as a field label).
fn members(path: &str) -> Vec<&str> {
    path.split('.').filter(|p| !p.is_empty()).collect()
}

/// The value at a simple JSONPath, if every member on the way is there.
fn at<'a>(obj: &'a Value, path: &str) -> Option<&'a Value> {
    members(path).into_iter().try_fold(obj, |v, k| v.get(k))
}

/// Puts `value` beyond the reach of drops: the kinds are `&'static`, as the built-in ones are.
fn leak<T>(value: T) -> &'static T {
    Box::leak(Box::new(value))
}

fn leak_str(s: &str) -> &'static str {
    Box::leak(s.to_string().into_boxed_str())
}

fn leak_strs(v: Vec<String>) -> &'static [&'static str] {
    Box::leak(
        v.iter()
            .map(|s| leak_str(s))
            .collect::<Vec<_>>()
            .into_boxed_slice(),
    )
}

/// `getDeprecationWarning`: a deprecated version's own warning, or one naming the greatest
/// served version, newer than it, that is not deprecated.
fn deprecation(crd: &Map<String, Value>, version: &Value) -> Option<String> {
    if version.get("deprecated").and_then(Value::as_bool) != Some(true) {
        return None;
    }
    if let Some(w) = version.get("deprecationWarning").and_then(Value::as_str) {
        return Some(w.to_string());
    }
    let spec = crd.get("spec").unwrap_or(&Value::Null);
    let (group, kind) = (str_at(spec, "group"), str_at(&spec["names"], "kind"));
    let this = str_at(version, "name");
    let mut msg = format!("{group}/{this} {kind} is deprecated");
    let newest = super::crd::versions(crd)
        .iter()
        .filter(|v| v.get("served").and_then(Value::as_bool) == Some(true))
        .filter(|v| v.get("deprecated").and_then(Value::as_bool) != Some(true))
        .map(|v| str_at(v, "name"))
        .filter(|v| versions::discovery_order(v, this) == std::cmp::Ordering::Less)
        .min_by(|a, b| versions::discovery_order(a, b));
    if let Some(v) = newest {
        msg.push_str(&format!("; use {group}/{v} {kind}"));
    }
    Some(msg)
}

/// Whether a definition is being deleted (`deletionTimestamp`, or `Terminating=True`).
fn terminating(crd: &Map<String, Value>) -> bool {
    !crate::resources::meta::map_meta_str(crd, "deletionTimestamp").is_empty()
        || condition_true(crd, "Terminating")
}

/// The versions a definition serves now: none until it is `Established`, then every version
/// marked `served`.
pub fn served_versions(crd: &Map<String, Value>) -> Vec<&Value> {
    if !condition_true(crd, "Established") {
        return Vec::new();
    }
    super::crd::versions(crd)
        .iter()
        .filter(|v| v.get("served").and_then(Value::as_bool) == Some(true))
        .collect()
}

impl CustomKind {
    /// The kind `crd` defines in `version` (one of its `spec.versions`).
    pub fn of(crd: &Map<String, Value>, version: &Value) -> CustomKind {
        let spec = crd.get("spec").unwrap_or(&Value::Null);
        let accepted = crd
            .get("status")
            .and_then(|s| s.get("acceptedNames"))
            .unwrap_or(&Value::Null);
        let subresources = version.get("subresources").unwrap_or(&Value::Null);
        let scale = subresources
            .get("scale")
            .filter(|s| s.is_object())
            .map(|s| Scale {
                spec_replicas: str_at(s, "specReplicasPath").to_string(),
                status_replicas: str_at(s, "statusReplicasPath").to_string(),
                label_selector: str_at(s, "labelSelectorPath").to_string(),
            });
        let columns: Vec<PrinterColumn> = version
            .get("additionalPrinterColumns")
            .and_then(Value::as_array)
            .map(|cs| {
                cs.iter()
                    .map(|c| PrinterColumn {
                        name: str_at(c, "name").to_string(),
                        ty: str_at(c, "type").to_string(),
                        format: str_at(c, "format").to_string(),
                        description: str_at(c, "description").to_string(),
                        priority: c.get("priority").and_then(Value::as_i64).unwrap_or(0),
                        json_path: str_at(c, "jsonPath").to_string(),
                    })
                    .collect()
            })
            .unwrap_or_default();
        let selectable = version
            .get("selectableFields")
            .and_then(Value::as_array)
            .map(|fs| {
                fs.iter()
                    .map(|f| str_at(f, "jsonPath").trim_start_matches('.').to_string())
                    .collect()
            })
            .unwrap_or_default();
        let openapi = version
            .get("schema")
            .and_then(|s| s.get("openAPIV3Schema"))
            .filter(|s| s.is_object())
            .cloned()
            .unwrap_or_else(|| serde_json::json!({"type": "object"}));
        let schema = Schema::parse(&openapi);
        let printer = printer::printer(&columns);
        fn schema_of(v: &Value) -> Option<&Value> {
            v.get("schema").and_then(|s| s.get("openAPIV3Schema"))
        }
        let all = super::crd::versions(crd);
        let others = match all.iter().all(|v| schema_of(v) == schema_of(version)) {
            true => Vec::new(),
            false => all
                .iter()
                .filter(|v| str_at(v, "name") != str_at(version, "name"))
                .map(|v| {
                    let s = schema_of(v).filter(|s| s.is_object());
                    let s = s
                        .cloned()
                        .unwrap_or_else(|| serde_json::json!({"type": "object"}));
                    (str_at(v, "name").to_string(), Schema::parse(&s))
                })
                .collect(),
        };
        CustomKind {
            definition: crate::resources::meta::map_meta_str(crd, "name").to_string(),
            group: str_at(spec, "group").to_string(),
            version: str_at(version, "name").to_string(),
            kind: str_at(accepted, "kind").to_string(),
            list_kind: str_at(accepted, "listKind").to_string(),
            plural: str_at(accepted, "plural").to_string(),
            namespaced: str_at(spec, "scope") == "Namespaced",
            storage_version: super::crd::storage_version(crd).unwrap_or_default(),
            terminating: terminating(crd),
            storage_of: served_definition(crd, version),
            deprecation: deprecation(crd, version),
            storage_served: super::crd::versions(crd).iter().any(|v| {
                v.get("storage").and_then(Value::as_bool) == Some(true)
                    && v.get("served").and_then(Value::as_bool) == Some(true)
            }),
            schema,
            openapi,
            status: subresources.get("status").is_some_and(Value::is_object),
            scale,
            selectable,
            printer,
            others,
            settled: std::sync::atomic::AtomicU64::new(u64::MAX),
        }
    }

    /// The schema of `version`, one of the definition's.
    pub fn schema_of(&self, version: &str) -> Option<&Schema> {
        if version == self.version {
            return Some(&self.schema);
        }
        match self.others.is_empty() {
            true => Some(&self.schema),
            false => self
                .others
                .iter()
                .find(|(v, _)| v == version)
                .map(|(_, s)| s),
        }
    }

    /// The kind as the server serves it, for as long as the process lives.
    pub fn into_info(self, accepted: &Value) -> &'static ResourceInfo {
        let kind: &'static CustomKind = leak(self);
        let mut subresources = Vec::new();
        if kind.status {
            subresources.push(Subresource {
                name: "status",
                verbs: SUBRESOURCE_VERBS,
            });
        }
        if kind.scale.is_some() {
            subresources.push(Subresource {
                name: "scale",
                verbs: SUBRESOURCE_VERBS,
            });
        }
        let info = ResourceInfo {
            group: leak_str(&kind.group),
            version: leak_str(&kind.version),
            kind: leak_str(&kind.kind),
            plural: leak_str(&kind.plural),
            singular: leak_str(str_at(accepted, "singular")),
            short_names: leak_strs(strings(accepted.get("shortNames"))),
            categories: leak_strs(strings(accepted.get("categories"))),
            storage_version: Some(leak_str(&kind.storage_version)),
            namespaced: kind.namespaced,
            verbs: VERBS,
            subresources: Box::leak(subresources.into_boxed_slice()),
            schema: typed::root_struct(kind),
            strategy: kind,
            extra_field_labels: leak_strs(kind.selectable.clone()),
            protobuf: false,
            list_docs: ListDocs {
                description: leak_str(&format!("{} is a list of {}", kind.list_kind, kind.kind)),
                items: leak_str(&format!(
                    "List of {}. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md",
                    kind.plural
                )),
                metadata: super::LIST_META_MORE,
            },
            custom: Some(kind),
        };
        leak(info)
    }
}

/// A definition's fingerprint for one version: what its built kind depends on. A kind is
/// built again only when this changes.
pub fn fingerprint(crd: &Map<String, Value>, version: &Value) -> String {
    let mut out = served_definition(crd, version);
    if terminating(crd) {
        out.push_str("terminating");
    }
    out
}

/// What the CRD handler's storage of one version is built from (spec, accepted names, the
/// version): a change of it replaces the storage, and ends its watches.
fn served_definition(crd: &Map<String, Value>, version: &Value) -> String {
    let mut out = Vec::new();
    for part in [
        crd.get("spec").unwrap_or(&Value::Null),
        crd.get("status")
            .and_then(|s| s.get("acceptedNames"))
            .unwrap_or(&Value::Null),
        version,
    ] {
        crate::codec::json::write_compact(part, &mut out);
        out.push(b'\n');
    }
    String::from_utf8_lossy(&out).into_owned()
}
