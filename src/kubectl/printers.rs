//! kubectl's printers: the server's `Table` as cli-runtime's `HumanReadablePrinter` prints it
//! (upper-cased headers, priority columns only with `-o wide`, a `NAMESPACE` column with
//! `-A`, `LABELS` with `--show-labels`, `kind/name` when several types are printed, headers
//! once per run of the same columns, cells cut at a line break with `...`); `-o json` (Go's
//! `json.MarshalIndent` with four spaces over an unstructured object, so keys sorted);
//! `-o yaml` (sigs.k8s.io/yaml); `-o name`; and managedFields left out unless asked for.

use serde_json::{Map, Value};

use super::tabwriter::TabWriter;
use crate::codec::goquote::go_sprint;

/// How `get` prints tables.
#[derive(Debug, Clone, Default)]
pub struct TableOptions {
    pub wide: bool,
    pub with_namespace: bool,
    pub show_labels: bool,
    /// `-L`: label keys shown as columns (headed by their last `/` part, upper-cased).
    pub label_columns: Vec<String>,
    pub no_headers: bool,
    /// `configmap` or `controllerrevision.apps`, when rows are named `kind/name`.
    pub kind: Option<String>,
    /// `Event` column of `--output-watch-events`.
    pub event: Option<String>,
}

/// The state `HumanReadablePrinter` keeps between the tables it prints: the last columns and
/// whether their headers were printed.
#[derive(Debug, Default)]
pub struct TablePrinter {
    last_columns: Option<Value>,
    printed_headers: bool,
}

fn cell_text(cell: &Value) -> String {
    match cell {
        Value::Null => String::new(),
        Value::String(s) => match s.find(['\x0c', '\n', '\r']) {
            Some(at) => format!("{}...", &s[..at]),
            None => s.clone(),
        },
        other => go_sprint(other),
    }
}

/// `k=v,k2=v2` sorted by key, or `<none>`, as labels.FormatLabels prints them.
pub fn format_labels(labels: Option<&Map<String, Value>>) -> String {
    let Some(labels) = labels.filter(|l| !l.is_empty()) else {
        return "<none>".into();
    };
    let mut pairs: Vec<(&String, &Value)> = labels.iter().collect();
    crate::sort::sort_by(&mut pairs, |a, b| a.0.cmp(b.0));
    pairs
        .iter()
        .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or("")))
        .collect::<Vec<_>>()
        .join(",")
}

impl TablePrinter {
    /// Writes one server `Table` (a response, or a watch event's object) into `w`.
    pub fn print(&mut self, table: &Value, options: &TableOptions, w: &mut TabWriter) {
        let mut no_headers = options.no_headers;
        let columns_given = table["columnDefinitions"]
            .as_array()
            .is_some_and(|c| !c.is_empty());
        if self.printed_headers
            && (!columns_given || Some(&table["columnDefinitions"]) == self.last_columns.as_ref())
        {
            no_headers = true;
        }
        if columns_given && Some(&table["columnDefinitions"]) != self.last_columns.as_ref() {
            self.last_columns = Some(table["columnDefinitions"].clone());
            self.printed_headers = false;
        }
        let empty = Vec::new();
        let rows = table["rows"].as_array().unwrap_or(&empty);
        if !rows.is_empty() {
            self.printed_headers = true;
        }
        // A table without column definitions (a watch event after the first) is laid out
        // with the last ones printed.
        let columns = self
            .last_columns
            .as_ref()
            .and_then(Value::as_array)
            .unwrap_or(&empty);
        let name_column = options.kind.as_ref().and_then(|_| {
            columns
                .iter()
                .position(|c| c["format"] == "name" && c["type"] == "string")
        });
        let shown: Vec<bool> = columns
            .iter()
            .map(|c| options.wide || c["priority"].as_i64().unwrap_or(0) == 0)
            .collect();
        let mut header: Vec<String> = Vec::new();
        if options.event.is_some() {
            header.push("EVENT".into());
        }
        if options.with_namespace {
            header.push("NAMESPACE".into());
        }
        for (c, shown) in columns.iter().zip(&shown) {
            if *shown {
                header.push(c["name"].as_str().unwrap_or("").to_uppercase());
            }
        }
        for key in &options.label_columns {
            header.push(key.rsplit('/').next().unwrap_or("").to_uppercase());
        }
        if options.show_labels {
            header.push("LABELS".into());
        }
        if !no_headers && !rows.is_empty() {
            w.write(&header.join("\t"));
            w.write("\n");
        }
        for row in rows {
            let meta = &row["object"]["metadata"];
            let mut cells: Vec<String> = Vec::new();
            if let Some(e) = &options.event {
                cells.push(e.clone());
            }
            if options.with_namespace {
                cells.push(meta["namespace"].as_str().unwrap_or("").to_string());
            }
            let given = row["cells"].as_array().cloned().unwrap_or_default();
            for (i, shown) in shown.iter().enumerate() {
                if !*shown {
                    continue;
                }
                let mut text = given.get(i).map(cell_text).unwrap_or_default();
                if Some(i) == name_column {
                    text = format!("{}/{text}", options.kind.as_deref().unwrap_or(""));
                }
                cells.push(text);
            }
            for key in &options.label_columns {
                cells.push(meta["labels"][key].as_str().unwrap_or("").to_string());
            }
            if options.show_labels {
                cells.push(format_labels(meta["labels"].as_object()));
            }
            w.write(&cells.join("\t"));
            w.write("\n");
        }
    }
}

/// `-o json`: four-space indentation, keys sorted, a final newline.
pub fn json(v: &Value) -> String {
    json_as_is(&crate::codec::json::sorted_keys(v))
}

/// `-o json` of a typed object: its keys in the order given (the Go struct's).
pub fn json_as_is(v: &Value) -> String {
    let pretty = crate::codec::json::to_pretty_vec(v);
    let text = String::from_utf8_lossy(&pretty);
    let mut out = String::with_capacity(text.len() * 2);
    for line in text.split('\n') {
        let indent = line.len() - line.trim_start_matches(' ').len();
        out.extend(std::iter::repeat_n(' ', indent * 2));
        out.push_str(&line[indent..]);
        out.push('\n');
    }
    out
}

/// `%v` of a value decoded into `interface{}`: strings bare, integers as `int64`, other
/// numbers as `float64` (`%g`), `<nil>`, and nested lists and maps in Go's brackets.
pub fn go_value(v: &Value) -> String {
    match v {
        Value::Null => "<nil>".into(),
        Value::Bool(b) => b.to_string(),
        Value::String(s) => s.clone(),
        Value::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => i.to_string(),
            (None, Some(f)) => crate::codec::yaml::float::format_g(f),
            _ => n.to_string(),
        },
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(go_value).collect();
            format!("[{}]", items.join(" "))
        }
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            crate::sort::sort(&mut keys);
            let pairs: Vec<String> = keys
                .into_iter()
                .map(|k| format!("{k}:{}", go_value(&map[k])))
                .collect();
            format!("map[{}]", pairs.join(" "))
        }
    }
}

/// `-o jsonpath=` (the template's text) or `-o jsonpath-as-json=` (each part's results as
/// an indented JSON list on its own lines).
pub fn jsonpath(t: &crate::resources::jsonpath::Template, as_json: bool, obj: &Value) -> String {
    if !as_json {
        return t.execute(obj);
    }
    t.results(obj)
        .into_iter()
        .map(|found| json(&Value::Array(found)))
        .collect()
}

/// `-o yaml`.
pub fn yaml(v: &Value) -> String {
    String::from_utf8_lossy(&crate::codec::yaml::emit::to_vec(v)).into_owned()
}

/// Drops `metadata.managedFields` (kubectl's default for `-o yaml|json`), in a list's items too.
pub fn omit_managed_fields(v: &mut Value) {
    if let Some(m) = v.get_mut("metadata").and_then(Value::as_object_mut) {
        m.remove("managedFields");
    }
    if let Some(items) = v.get_mut("items").and_then(Value::as_array_mut) {
        for item in items {
            omit_managed_fields(item);
        }
    }
}

/// `configmap/app`, `controllerrevision.apps/rev`: the name printer.
pub fn name_of(o: &Value) -> String {
    let kind = o["kind"].as_str().unwrap_or("").to_lowercase();
    let api = o["apiVersion"].as_str().unwrap_or("");
    let name = o["metadata"]["name"].as_str().unwrap_or("");
    match api.split_once('/') {
        Some((group, _)) => format!("{kind}.{group}/{name}"),
        None => format!("{kind}/{name}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_is_sorted_with_four_spaces() {
        assert_eq!(
            json(&json!({"b": {"y": [1, {}], "x": "<"}, "a": []})),
            "{\n    \"a\": [],\n    \"b\": {\n        \"x\": \"\\u003c\",\n        \"y\": [\n            1,\n            {}\n        ]\n    }\n}\n"
        );
    }

    #[test]
    fn a_table_with_namespace_labels_and_kind() {
        let table = json!({
            "columnDefinitions": [
                {"name": "Name", "type": "string", "format": "name", "priority": 0},
                {"name": "Data", "type": "integer", "format": "", "priority": 0},
                {"name": "Hidden", "type": "string", "format": "", "priority": 1}
            ],
            "rows": [{"cells": ["app", 1, "h"], "object": {"metadata": {"namespace": "demo", "labels": {"b": "2", "a": "1"}}}}]
        });
        let mut w = TabWriter::new();
        let options = TableOptions {
            with_namespace: true,
            show_labels: true,
            label_columns: Vec::new(),
            kind: Some("configmap".into()),
            ..Default::default()
        };
        TablePrinter::default().print(&table, &options, &mut w);
        assert_eq!(
            w.flush(),
            "NAMESPACE   NAME            DATA   LABELS\ndemo        configmap/app   1      a=1,b=2\n"
        );
    }
}
