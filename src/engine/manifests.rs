//! A cluster's starting objects from manifests, as `kubectl apply --server-side -f DIR`
//! would make them: test fixtures for `kubesim serve --load DIR` and for tests that build an
//! engine in-process.
//!
//! Each manifest is a YAML stream (documents separated by `---` lines, as kubectl's YAML
//! reader splits them) or JSON; a `List` stands for its items. Every object is applied
//! through the API as the admin (`fieldManager=kubesim-load`, forced), so defaulting,
//! validation and field management are the real ones, and loading the same manifests again
//! changes nothing. Namespaces are applied first, then the rest in the order given.

use bytes::Bytes;
use serde_json::Value;

use super::Engine;

/// The field manager the loaded objects are attributed to.
pub const LOAD_MANAGER: &str = "kubesim-load";

/// One manifest: where it came from (for errors) and its text.
#[derive(Debug, Clone)]
pub struct Manifest {
    pub source: String,
    pub text: String,
}

impl Manifest {
    pub fn new(source: impl Into<String>, text: impl Into<String>) -> Self {
        Manifest {
            source: source.into(),
            text: text.into(),
        }
    }
}

/// Why a manifest could not be loaded: its source, the document (from 1) and the reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    pub source: String,
    pub document: usize,
    pub message: String,
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} (document {}): {}",
            self.source, self.document, self.message
        )
    }
}

impl std::error::Error for LoadError {}

/// The documents of a YAML stream, split as apimachinery's `YAMLReader` splits them: at each
/// line that starts with `---`, which may be followed by spaces or a comment and nothing else
/// (anything else is its error); an empty document is no document.
pub fn documents(text: &str) -> Result<Vec<&str>, String> {
    let mut docs = Vec::new();
    let mut start = 0;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if let Some(rest) = line.strip_prefix("---") {
            let rest = rest.trim();
            if !rest.is_empty() && !rest.starts_with('#') {
                return Err(format!("invalid Yaml document separator: {rest}"));
            }
            if at > start {
                docs.push(&text[start..at]);
            }
            start = at + line.len();
        }
        at += line.len();
    }
    if text.len() > start {
        docs.push(&text[start..]);
    }
    Ok(docs)
}

/// Whether a document holds nothing but spaces and comments (kubectl skips those).
fn is_blank(doc: &str) -> bool {
    doc.lines()
        .map(str::trim)
        .all(|l| l.is_empty() || l.starts_with('#'))
}

/// An object to apply and where it came from.
struct Found {
    source: usize,
    document: usize,
    object: Value,
}

impl Engine {
    /// Applies every object of `manifests`, Namespaces first; how many were applied. Stops at
    /// the first that cannot be read or that the API refuses, with the API's message.
    pub fn load_manifests(&mut self, manifests: &[Manifest]) -> Result<usize, LoadError> {
        let mut found = Vec::new();
        for (source, m) in manifests.iter().enumerate() {
            let docs = documents(&m.text).map_err(|message| LoadError {
                source: m.source.clone(),
                document: 1,
                message,
            })?;
            for (i, doc) in docs.into_iter().enumerate() {
                let fail = |message: String| LoadError {
                    source: m.source.clone(),
                    document: i + 1,
                    message,
                };
                if is_blank(doc) {
                    continue;
                }
                let value = read_document(doc).map_err(fail)?;
                for object in items(value).map_err(fail)? {
                    found.push(Found {
                        source,
                        document: i + 1,
                        object,
                    });
                }
            }
        }
        let is_namespace = |f: &Found| {
            f.object.get("kind").and_then(Value::as_str) == Some("Namespace")
                && f.object.get("apiVersion").and_then(Value::as_str) == Some("v1")
        };
        let (first, rest): (Vec<Found>, Vec<Found>) = found.into_iter().partition(is_namespace);
        let mut applied = 0;
        for f in first.into_iter().chain(rest) {
            self.apply_object(&f.object).map_err(|message| LoadError {
                source: manifests[f.source].source.clone(),
                document: f.document,
                message,
            })?;
            applied += 1;
        }
        Ok(applied)
    }

    /// Applies one object as the admin; the API's message when it is refused.
    fn apply_object(&mut self, object: &Value) -> Result<(), String> {
        let text = |field: &str| object.get(field).and_then(Value::as_str).unwrap_or("");
        let (api_version, kind) = (text("apiVersion"), text("kind"));
        if api_version.is_empty() || kind.is_empty() {
            return Err("apiVersion and kind must be set".into());
        }
        let meta = |field: &str| {
            object
                .get("metadata")
                .and_then(|m| m.get(field))
                .and_then(Value::as_str)
                .unwrap_or("")
        };
        let name = meta("name");
        if name.is_empty() {
            return Err(format!("{kind}: metadata.name must be set"));
        }
        let Some(info) = self.registry.kinds().by_kind(api_version, kind) else {
            return Err(format!(
                "no matches for kind \"{kind}\" in version \"{api_version}\""
            ));
        };
        let namespace = match (info.namespaced, meta("namespace")) {
            (true, "") => "default",
            (true, ns) => ns,
            (false, _) => "",
        };
        let path = format!(
            "{}?fieldManager={LOAD_MANAGER}&force=true",
            info.path(namespace, name)
        );
        let req = http::Request::builder()
            .method(http::Method::PATCH)
            .uri(path)
            .header(
                http::header::AUTHORIZATION,
                format!("Bearer {}", crate::auth::ADMIN_TOKEN),
            )
            .header(http::header::CONTENT_TYPE, "application/apply-patch+yaml")
            .body(Bytes::from(crate::codec::json::to_vec(object)))
            .map_err(|e| e.to_string())?;
        let resp = self.handle(req);
        if resp.status().is_success() {
            return Ok(());
        }
        let body = resp.body().bytes();
        let status: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
        Err(status.get("message").and_then(Value::as_str).map_or_else(
            || String::from_utf8_lossy(body).into_owned(),
            str::to_string,
        ))
    }
}

/// A document's value: JSON as it is (Go's decoder: up to 10,000 levels), anything else
/// through the YAML decoder the API's bodies use.
fn read_document(doc: &str) -> Result<Value, String> {
    if doc.trim_start().starts_with('{') {
        if let Ok(parsed) = crate::codec::json::parse(doc.as_bytes()) {
            return Ok(parsed.value);
        }
    }
    let converted = crate::codec::yaml::to_json(doc.as_bytes())?;
    crate::codec::json::parse(&converted.json)
        .map(|p| p.value)
        .map_err(|e| format!("not a manifest: {}", e.message))
}

/// The objects a document stands for: a list's items (`kind: List`, or any `...List` kind
/// with `items`), else the document itself; nothing for an empty (`null`) document.
fn items(value: Value) -> Result<Vec<Value>, String> {
    match value {
        Value::Null => Ok(Vec::new()),
        Value::Object(mut m) => {
            let is_list = m
                .get("kind")
                .and_then(Value::as_str)
                .is_some_and(|k| k.ends_with("List"))
                && m.get("items").is_some_and(Value::is_array);
            if !is_list {
                return Ok(vec![Value::Object(m)]);
            }
            match m.remove("items") {
                Some(Value::Array(items)) => Ok(items),
                _ => Ok(Vec::new()),
            }
        }
        _ => Err("a manifest must be an object".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_split_as_kubectls_yaml_reader() {
        let cases: &[(&str, &[&str])] = &[
            ("a: 1\n", &["a: 1\n"]),
            ("a: 1\n---\nb: 2\n", &["a: 1\n", "b: 2\n"]),
            ("---\na: 1\n---\n---\n", &["a: 1\n"]),
            ("a: 1\n--- # next\nb: 2", &["a: 1\n", "b: 2"]),
            ("a: 1\n---   \r\nb: 2\n", &["a: 1\n", "b: 2\n"]),
            // Dashes inside a line are no separator.
            ("a: ---\n", &["a: ---\n"]),
        ];
        for (text, want) in cases {
            assert_eq!(&documents(text).unwrap(), want, "{text:?}");
        }
        // A separator followed by anything but a comment is refused, as apimachinery does.
        for (text, rest) in [("a: 1\n---x\n", "x"), ("--- {a: 1}\n", "{a: 1}")] {
            assert_eq!(
                documents(text),
                Err(format!("invalid Yaml document separator: {rest}"))
            );
        }
    }

    #[test]
    fn blank_documents_are_skipped_and_lists_stand_for_their_items() {
        assert!(is_blank("# only a comment\n\n"));
        assert!(!is_blank("a: 1"));
        let list = serde_json::json!({"apiVersion":"v1","kind":"List","items":[{"a":1},{"b":2}]});
        assert_eq!(items(list).unwrap().len(), 2);
        assert_eq!(items(Value::Null).unwrap().len(), 0);
        assert!(items(serde_json::json!([1])).is_err());
    }
}
