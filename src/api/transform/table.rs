//! `meta.k8s.io` `Table`s, shaped as the real convertors shape them.
//!
//! Kinds with a printer (`pkg/printers/internalversion`, [`resources::Printer`]) get its
//! column definitions, one row per object, `rows: []` for an empty list. Other kinds get the
//! generic store's default convertor (`pkg/registry/rest/table.go`): `Name` and `Created At`,
//! `rows: null` for an empty list. `includeObject` decides each row's `object`; in a watch,
//! only the first event's table carries `columnDefinitions` (`null` afterwards).

use serde_json::{json, Map, Value};

use super::IncludeObject;
use crate::api::negotiation::MetaVersion;
use crate::codec::rfc3339;
use crate::resources::duration::since;
use crate::resources::meta::meta_str;
use crate::resources::schema::{CREATION_TIMESTAMP_DOC, NAME_DOC};
use crate::resources::{self, ResourceInfo};

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

/// Which convertor serves a kind: its printer, or the generic store's default.
#[derive(Clone, Copy)]
enum Printer {
    Kind(&'static dyn resources::Printer),
    Default,
}

fn printer_for(info: &ResourceInfo) -> Printer {
    match info.strategy.printer() {
        Some(p) => Printer::Kind(p),
        None => Printer::Default,
    }
}

fn column(name: &str, ty: &str, format: &str, description: &str, priority: u8) -> Value {
    json!({"name": name, "type": ty, "format": format, "description": description, "priority": priority})
}

/// The column definitions a convertor declares.
fn columns(printer: Printer) -> Vec<Value> {
    let name = column("Name", "string", "name", NAME_DOC, 0);
    match printer {
        Printer::Kind(p) => {
            let mut cols = if p.name_first() { vec![name] } else { vec![] };
            cols.extend(
                p.columns()
                    .iter()
                    .map(|c| column(c.name, c.ty, c.format, c.description, c.priority)),
            );
            if p.has_age() {
                let age = column("Age", "string", "", CREATION_TIMESTAMP_DOC, 0);
                cols.insert(usize::from(p.name_first()) + p.age_after(), age);
            }
            cols
        }
        Printer::Default => vec![
            name,
            column("Created At", "date", "", CREATION_TIMESTAMP_DOC, 0),
        ],
    }
}

/// `translateTimestampSince`: `<unknown>` for an unset creation time.
fn age(obj: &Value, now_ms: i64) -> String {
    since(&obj["metadata"]["creationTimestamp"], now_ms).unwrap_or_else(|| "<unknown>".into())
}

fn cells(printer: Printer, obj: &Value, now_ms: i64) -> Vec<Value> {
    let name = Value::String(meta_str(obj, "name").to_string());
    match printer {
        Printer::Kind(p) => {
            let mut cells = if p.name_first() { vec![name] } else { vec![] };
            cells.extend(p.cells(obj, now_ms));
            if p.has_age() {
                let at = usize::from(p.name_first()) + p.age_after();
                cells.insert(at, Value::String(age(obj, now_ms)));
            }
            cells
        }
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
    let rows = if rows.is_empty() && matches!(printer, Printer::Default) {
        Value::Null
    } else {
        Value::Array(rows)
    };
    table(printer, m, rows, spec)
}
