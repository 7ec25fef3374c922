//! The generic describer (`genericDescriber`), for every kind without its own: name,
//! namespace, labels and annotations, then the whole object but those as
//! `printUnstructuredContent` walks it (keys sorted, each labelled by `smartLabelFor`: `API
//! Version`, `Creation Timestamp`, `UID`), then the events.

use serde_json::{Map, Value};

use super::super::printers::go_value;
use super::{Events, Page};

/// Paths left out of the walk: printed above it, or not at all.
const SKIPPED: &[&str] = &[
    ".metadata.managedFields",
    ".metadata.name",
    ".metadata.namespace",
    ".metadata.labels",
    ".metadata.annotations",
];

pub fn describe(obj: &Value, events: Option<&Events>) -> String {
    let mut page = Page::new();
    let meta = &obj["metadata"];
    page.write(
        0,
        &format!("Name:\t{}\n", meta["name"].as_str().unwrap_or("")),
    );
    page.write(
        0,
        &format!("Namespace:\t{}\n", meta["namespace"].as_str().unwrap_or("")),
    );
    page.labels(obj);
    page.annotations(obj);
    if let Some(content) = obj.as_object() {
        content_of(&mut page, 0, content, "");
    }
    if let Some(events) = events {
        page.events(events);
    }
    page.finish()
}

/// `printUnstructuredContent`: maps as a label and their fields one level in; lists as a
/// label and each item one level in (maps walked, the rest as `%v`); the rest `label:\tvalue`.
fn content_of(page: &mut Page, level: usize, content: &Map<String, Value>, prefix: &str) {
    let mut fields: Vec<&String> = content.keys().collect();
    crate::sort::sort(&mut fields);
    for field in fields {
        let path = format!("{prefix}.{field}");
        if SKIPPED.contains(&path.as_str()) {
            continue;
        }
        let label = smart_label(field);
        match &content[field] {
            Value::Object(map) => {
                page.write(level, &format!("{label}:\n"));
                content_of(page, level + 1, map, &path);
            }
            Value::Array(items) => {
                page.write(level, &format!("{label}:\n"));
                for item in items {
                    match item {
                        Value::Object(map) => content_of(page, level + 1, map, &path),
                        other => page.write(level + 1, &format!("{}\n", go_value(other))),
                    }
                }
            }
            other => page.write(level, &format!("{label}:\t{}\n", go_value(other))),
        }
    }
}

/// `smartLabelFor`: a field of letters and dashes split at its case changes
/// (`fatih/camelcase`), each part title-cased or, if a common acronym, upper-cased; any other
/// field as it is.
pub fn smart_label(field: &str) -> String {
    if field.chars().any(|c| !c.is_alphabetic() && c != '-') {
        return field.to_string();
    }
    const ACRONYMS: &[&str] = &["API", "URL", "UID", "OSB", "GUID"];
    let parts: Vec<String> = camel_split(field)
        .into_iter()
        .filter(|p| p != "_")
        .map(|p| {
            let upper = p.to_uppercase();
            if ACRONYMS.contains(&upper.as_str()) {
                upper
            } else {
                title(&p)
            }
        })
        .collect();
    parts.join(" ")
}

/// `strings.Title` of a run of one class: its first letter upper-cased.
fn title(part: &str) -> String {
    let mut chars = part.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// `camelcase.Split`: runs of lower-case, upper-case, digits and the rest, with the last
/// capital of an upper-case run moved to the lower-case run after it (`APIVersion` →
/// `API`, `Version`).
fn camel_split(s: &str) -> Vec<String> {
    let class = |c: char| {
        if c.is_lowercase() {
            1
        } else if c.is_uppercase() {
            2
        } else if c.is_numeric() {
            3
        } else {
            4
        }
    };
    let mut runs: Vec<Vec<char>> = Vec::new();
    let mut last = 0;
    for c in s.chars() {
        let k = class(c);
        match runs.last_mut() {
            Some(run) if k == last => run.push(c),
            _ => runs.push(vec![c]),
        }
        last = k;
    }
    for i in 0..runs.len().saturating_sub(1) {
        let upper_then_lower = runs[i].first().is_some_and(|c| c.is_uppercase())
            && runs[i + 1].first().is_some_and(|c| c.is_lowercase());
        if upper_then_lower {
            if let Some(moved) = runs[i].pop() {
                runs[i + 1].insert(0, moved);
            }
        }
    }
    runs.into_iter()
        .filter(|r| !r.is_empty())
        .map(|r| r.into_iter().collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn labels_are_smart_as_kubectls() {
        for (field, want) in [
            ("apiVersion", "API Version"),
            ("creationTimestamp", "Creation Timestamp"),
            ("uid", "UID"),
            ("resourceVersion", "Resource Version"),
            ("APIVersion", "API Version"),
            ("openAPIV3Schema", "openAPIV3Schema"),
            ("x-kubernetes-preserve", "X - Kubernetes - Preserve"),
            ("selfLink", "Self Link"),
            ("PDFLoader", "PDF Loader"),
            ("data", "Data"),
            ("a.b", "a.b"),
        ] {
            assert_eq!(smart_label(field), want, "{field}");
        }
    }

    #[test]
    fn the_object_is_walked_with_its_keys_sorted() {
        let obj = json!({"apiVersion": "apps/v1", "kind": "ControllerRevision",
            "metadata": {"name": "rev", "namespace": "demo", "uid": "u-1",
                "resourceVersion": "7", "creationTimestamp": "2026-12-03T10:00:00Z",
                "managedFields": [{"manager": "kubectl"}], "labels": {"a": "b"}},
            "revision": 1, "data": {"list": [1, "two", {"k": 1.5}], "n": null, "big": 1.5e7}});
        let text = describe(&obj, None);
        assert_eq!(
            text,
            "Name:         rev\nNamespace:    demo\nLabels:       a=b\nAnnotations:  <none>\n\
             API Version:  apps/v1\nData:\n  Big:  1.5e+07\n  List:\n    1\n    two\n    K:  1.5\n  \
             N:    <nil>\nKind:   ControllerRevision\nMetadata:\n  Creation Timestamp:  \
             2026-12-03T10:00:00Z\n  Resource Version:    7\n  UID:                 u-1\n\
             Revision:              1\n"
        );
    }
}
