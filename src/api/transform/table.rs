//! `meta.k8s.io` `Table`s, shaped as the real convertors shape them.
//!
//! ControllerRevision and Namespace have printers (`pkg/printers/internalversion`): fixed
//! column definitions, one row per object, `rows: []` for an empty list. Other kinds get the
//! generic store's default convertor (`pkg/registry/rest/table.go`): `Name` and `Created At`,
//! `rows: null` for an empty list. `includeObject` decides each row's `object`; in a watch,
//! only the first event's table carries `columnDefinitions` (`null` afterwards).

use serde_json::{json, Map, Value};

use super::duration::human_duration;
use super::IncludeObject;
use crate::api::handlers::{meta, meta_str};
use crate::api::negotiation::MetaVersion;
use crate::codec::rfc3339;
use crate::resources::schema::{CREATION_TIMESTAMP_DOC, NAME_DOC};
use crate::resources::ResourceInfo;

/// How one table is to be built.
#[derive(Debug, Clone, Copy)]
pub struct TableSpec {
    pub version: MetaVersion,
    pub include: IncludeObject,
    /// `false` for every watch event after the first (`TableOptions.NoHeaders`).
    pub headers: bool,
    /// The engine clock, for `AGE`.
    pub now_ms: i64,
}

/// Which convertor serves a kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Printer {
    ControllerRevision,
    Namespace,
    Default,
}

fn printer_for(info: &ResourceInfo) -> Printer {
    match (info.group, info.kind) {
        ("apps", "ControllerRevision") => Printer::ControllerRevision,
        ("", "Namespace") => Printer::Namespace,
        _ => Printer::Default,
    }
}

fn column(name: &str, ty: &str, format: &str, description: &str) -> Value {
    json!({"name": name, "type": ty, "format": format, "description": description, "priority": 0})
}

/// The column definitions a convertor declares.
fn columns(printer: Printer) -> Vec<Value> {
    let name = column("Name", "string", "name", NAME_DOC);
    let age = column("Age", "string", "", CREATION_TIMESTAMP_DOC);
    match printer {
        Printer::ControllerRevision => vec![
            name,
            column("Controller", "string", "", "Controller of the object"),
            column(
                "Revision",
                "string",
                "",
                "Revision indicates the revision of the state represented by Data.",
            ),
            age,
        ],
        Printer::Namespace => vec![
            name,
            column("Status", "string", "", "The status of the namespace"),
            age,
        ],
        Printer::Default => vec![
            name,
            column("Created At", "date", "", CREATION_TIMESTAMP_DOC),
        ],
    }
}

/// `translateTimestampSince`: `<unknown>` for an unset creation time.
fn age(obj: &Value, now_ms: i64) -> String {
    match rfc3339::parse(meta_str(obj, "creationTimestamp")) {
        Ok(secs) if secs != rfc3339::ZERO_TIME_UNIX => human_duration(now_ms - secs * 1000),
        _ => "<unknown>".into(),
    }
}

/// `metav1.GetControllerOf` + `formatResourceName(kind, name, true)`: `<none>`, or
/// `daemonset.apps/fluentd` built from the owner's apiVersion.
fn controller(obj: &Value) -> String {
    let owners = meta(obj)
        .get("ownerReferences")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let Some(owner) = owners
        .iter()
        .find(|o| o.get("controller").and_then(Value::as_bool) == Some(true))
    else {
        return "<none>".into();
    };
    let s = |k: &str| owner.get(k).and_then(Value::as_str).unwrap_or("");
    let api_version = s("apiVersion");
    // `schema.ParseGroupVersion`: `group/version`, a bare version, or empty.
    let group = match api_version.split_once('/') {
        Some((g, _)) if api_version != "/" => g,
        _ => "",
    };
    let (kind, name) = (s("kind"), s("name"));
    if kind.is_empty() && group.is_empty() {
        return name.to_string();
    }
    let gk = if group.is_empty() {
        kind.to_string()
    } else {
        format!("{kind}.{group}")
    };
    format!("{}/{name}", gk.to_lowercase())
}

fn cells(printer: Printer, obj: &Value, now_ms: i64) -> Vec<Value> {
    let name = Value::String(meta_str(obj, "name").to_string());
    match printer {
        Printer::ControllerRevision => vec![
            name,
            Value::String(controller(obj)),
            json!(obj.get("revision").and_then(Value::as_i64).unwrap_or(0)),
            Value::String(age(obj, now_ms)),
        ],
        Printer::Namespace => vec![
            name,
            Value::String(
                obj.get("status")
                    .and_then(|s| s.get("phase"))
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
            ),
            Value::String(age(obj, now_ms)),
        ],
        Printer::Default => {
            let created = rfc3339::parse(meta_str(obj, "creationTimestamp"))
                .unwrap_or(rfc3339::ZERO_TIME_UNIX);
            vec![name, Value::String(rfc3339::format(created))]
        }
    }
}

/// `PartialObjectMetadata` of `obj` in `version` (`meta.AsPartialObjectMetadata`).
pub fn partial(obj: &Value, version: MetaVersion) -> Value {
    json!({
        "kind": "PartialObjectMetadata",
        "apiVersion": version.api_version(),
        "metadata": obj.get("metadata").cloned().unwrap_or_else(|| json!({})),
    })
}

fn row(printer: Printer, obj: &Value, spec: &TableSpec) -> Value {
    let object = match spec.include {
        IncludeObject::Object => obj.clone(),
        IncludeObject::Metadata => partial(obj, spec.version),
        IncludeObject::None => Value::Null,
    };
    json!({"cells": cells(printer, obj, spec.now_ms), "object": object})
}

fn table(printer: Printer, meta: Map<String, Value>, rows: Value, spec: &TableSpec) -> Value {
    let mut t = Map::new();
    t.insert("kind".into(), json!("Table"));
    t.insert("apiVersion".into(), json!(spec.version.api_version()));
    t.insert("metadata".into(), Value::Object(meta));
    t.insert(
        "columnDefinitions".into(),
        if spec.headers {
            Value::Array(columns(printer))
        } else {
            Value::Null
        },
    );
    t.insert("rows".into(), rows);
    Value::Object(t)
}

/// The table of one object (metadata: the object's resourceVersion).
pub fn object_table(info: &ResourceInfo, obj: &Value, spec: &TableSpec) -> Value {
    one_row(printer_for(info), obj, spec)
}

/// The table of a list (metadata: resourceVersion, continue, remainingItemCount).
pub fn list_table<'a>(
    info: &ResourceInfo,
    list_meta: &Value,
    items: impl Iterator<Item = &'a Value>,
    spec: &TableSpec,
) -> Value {
    rows_table(printer_for(info), list_meta, items, spec)
}

/// The default convertor's table of one object, as a kind without printer gets it.
pub fn default_object_table(obj: &Value, spec: &TableSpec) -> Value {
    one_row(Printer::Default, obj, spec)
}

/// The default convertor's table of a list (`rows: null` when empty).
pub fn default_list_table<'a>(
    list_meta: &Value,
    items: impl Iterator<Item = &'a Value>,
    spec: &TableSpec,
) -> Value {
    rows_table(Printer::Default, list_meta, items, spec)
}

fn one_row(printer: Printer, obj: &Value, spec: &TableSpec) -> Value {
    let mut m = Map::new();
    let rv = meta_str(obj, "resourceVersion");
    if !rv.is_empty() {
        m.insert("resourceVersion".into(), json!(rv));
    }
    table(
        printer,
        m,
        Value::Array(vec![row(printer, obj, spec)]),
        spec,
    )
}

fn rows_table<'a>(
    printer: Printer,
    list_meta: &Value,
    items: impl Iterator<Item = &'a Value>,
    spec: &TableSpec,
) -> Value {
    let mut m = Map::new();
    for k in ["resourceVersion", "continue", "remainingItemCount"] {
        match list_meta.get(k) {
            None | Some(Value::Null) => {}
            Some(Value::String(s)) if s.is_empty() => {}
            Some(v) => {
                m.insert(k.into(), v.clone());
            }
        }
    }
    let rows: Vec<Value> = items.map(|o| row(printer, o, spec)).collect();
    // Printers start from an empty slice; the default convertor appends to a nil one.
    let rows = if rows.is_empty() && printer == Printer::Default {
        Value::Null
    } else {
        Value::Array(rows)
    };
    table(printer, m, rows, spec)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controller_names() {
        let with = |refs: Value| json!({"metadata": {"ownerReferences": refs}});
        assert_eq!(controller(&json!({"metadata": {}})), "<none>");
        assert_eq!(
            controller(&with(
                json!([{"apiVersion": "apps/v1", "kind": "DaemonSet", "name": "fluentd", "controller": true}])
            )),
            "daemonset.apps/fluentd"
        );
        assert_eq!(
            controller(&with(
                json!([{"apiVersion": "v1", "kind": "Pod", "name": "p", "controller": false},
                                     {"apiVersion": "v1", "kind": "ReplicationController", "name": "rc", "controller": true}])
            )),
            "replicationcontroller/rc"
        );
    }
}
