//! A custom kind's Table (`pkg/registry/customresource/tableconvertor`): `Name`, then the
//! version's `additionalPrinterColumns`, or `Age` alone when it has none
//! (`serveDefaultColumnsIfEmpty`). Each cell is the first result of the column's JSONPath,
//! cast to the column's type (`cellForJSONValue`); `date` cells print as ages.

use serde_json::Value;

use super::{leak, leak_str, PrinterColumn};
use crate::resources::jsonpath;
use crate::resources::schema::CREATION_TIMESTAMP_DOC;
use crate::resources::{Column, Printer};

/// A custom kind's columns and how to fill them.
#[derive(Debug)]
pub struct CustomPrinter {
    columns: Vec<PrinterColumn>,
    paths: Vec<Option<jsonpath::Template>>,
    defs: &'static [Column],
}

/// The columns served when a version defines none.
fn default_columns() -> Vec<PrinterColumn> {
    vec![PrinterColumn {
        name: "Age".into(),
        ty: "date".into(),
        format: String::new(),
        description: CREATION_TIMESTAMP_DOC.into(),
        priority: 0,
        json_path: ".metadata.creationTimestamp".into(),
    }]
}

/// The printer of a version with `columns` (its `additionalPrinterColumns`).
pub fn printer(columns: &[PrinterColumn]) -> &'static CustomPrinter {
    let columns = if columns.is_empty() {
        default_columns()
    } else {
        columns.to_vec()
    };
    let defs: Vec<Column> = columns
        .iter()
        .map(|c| Column {
            name: leak_str(&c.name),
            ty: leak_str(&c.ty),
            format: leak_str(&c.format),
            description: if c.description.is_empty() {
                leak_str(&format!(
                    "Custom resource definition column (in JSONPath format): {}",
                    c.json_path
                ))
            } else {
                leak_str(&c.description)
            },
            priority: u8::try_from(c.priority).unwrap_or(u8::MAX),
        })
        .collect();
    let paths = columns
        .iter()
        .map(|c| jsonpath::Template::parse(&c.json_path).ok())
        .collect();
    leak(CustomPrinter {
        columns,
        paths,
        defs: Box::leak(defs.into_boxed_slice()),
    })
}

impl Printer for CustomPrinter {
    fn columns(&self) -> &'static [Column] {
        self.defs
    }

    /// `Age` is one of the columns (a `date` column) when the version prints it.
    fn has_age(&self) -> bool {
        false
    }

    fn cells(&self, obj: &Value, now_ms: i64) -> Vec<Value> {
        self.columns
            .iter()
            .zip(&self.paths)
            .map(|(column, path)| {
                let Some(found) = path.as_ref().and_then(|p| p.first(obj)) else {
                    return Value::Null;
                };
                cell(&column.ty, found, now_ms)
            })
            .collect()
    }
}

/// `cellForJSONValue`, with `string` columns printed as JSONPath prints a result.
fn cell(ty: &str, value: &Value, now_ms: i64) -> Value {
    match (ty, value) {
        (_, Value::Null) => Value::Null,
        ("string", Value::String(s)) => Value::String(s.clone()),
        ("string", other) => Value::String(jsonpath::text(other)),
        ("integer", Value::Number(n)) => match n.as_i64() {
            Some(i) => Value::from(i),
            None => n.as_f64().map_or(Value::Null, |f| Value::from(f as i64)),
        },
        ("number", Value::Number(n)) => n.as_f64().map_or(Value::Null, Value::from),
        ("boolean", Value::Bool(b)) => Value::Bool(*b),
        // `ConvertToHumanReadableDateType`.
        ("date", Value::String(s)) => match crate::codec::rfc3339::parse_full(s) {
            Ok(t) if t.is_go_zero() => Value::String("<unknown>".into()),
            Ok(_) => {
                Value::String(crate::resources::duration::since(value, now_ms).unwrap_or_default())
            }
            Err(_) => Value::String("<invalid>".into()),
        },
        _ => Value::Null,
    }
}
