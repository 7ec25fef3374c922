//! core/v1 ConfigMap: everything the server knows about the kind, in one place — its
//! resource entry, schema (with the protobuf field numbers: metadata = 1, data = 2,
//! binaryData = 3, immutable = 4), validation (`ValidateConfigMap`,
//! `ValidateConfigMapUpdate`), strategy (`pkg/registry/core/configmap`) and printer.
//!
//! Keys are validated in sorted order (Go visits its maps in random order, so the real
//! server's order of several key errors is not fixed).

use serde_json::{Map, Value};

use super::field::{FieldError, FieldPath};
use super::meta::meta_map;
use super::schema::{ptr, Struct, Type, API_VERSION_FIELD, KIND_FIELD, METADATA_FIELD};
use super::validation::names::name_is_dns_subdomain;
use super::validation::object_meta::{validate_object_meta, validate_object_meta_update};
use super::{Column, ListDocs, Printer, ResourceInfo, Strategy, CRUD_VERBS};

/// core/v1 configmaps.
pub static CONFIG_MAPS: ResourceInfo = ResourceInfo {
    group: "",
    version: "v1",
    kind: "ConfigMap",
    plural: "configmaps",
    singular: "configmap",
    short_names: &["cm"],
    categories: &[],
    storage_version: None,
    namespaced: true,
    verbs: CRUD_VERBS,
    subresources: &[],
    schema: &CONFIG_MAP,
    strategy: &ConfigMapStrategy,
    extra_field_labels: &[],
    protobuf: true,
    list_docs: ListDocs {
        description: "ConfigMapList is a resource containing a list of ConfigMap objects.",
        items: "Items is the list of ConfigMaps.",
        metadata: "More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
    },
    custom: None,
};

const DATA_DOC: &str = "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field. The keys stored in Data must not overlap with the keys in the BinaryData field, this is enforced during validation process.";

/// `core/v1.ConfigMap` (Go struct order: TypeMeta, ObjectMeta, Immutable, Data, BinaryData).
pub static CONFIG_MAP: Struct = Struct {
    openapi_name: "io.k8s.api.core.v1.ConfigMap",
    atomic: false,
    description: "ConfigMap holds configuration data for pods to consume.",
    fields: &[
        KIND_FIELD,
        API_VERSION_FIELD,
        METADATA_FIELD,
        ptr("immutable", Type::Boolean, "Immutable, if set to true, ensures that data stored in the ConfigMap cannot be updated (only object metadata can be modified). If not set to true, the field can be modified at any time. Defaulted to nil.").pb(4),
        super::schema::f("data", Type::Map(&Type::String), DATA_DOC).pb(2),
        super::schema::f("binaryData", Type::Map(&Type::Bytes), "BinaryData contains the binary data. Each key must consist of alphanumeric characters, '-', '_' or '.'. BinaryData can contain byte sequences that are not in the UTF-8 range. The keys stored in BinaryData must not overlap with the ones in the Data field, this is enforced during validation process. Using this field will require 1.10+ apiserver and kubelet.").pb(3),
    ],
};

/// `core.MaxSecretSize`: the values of `data` and `binaryData` together (keys not counted).
pub const MAX_SIZE: usize = 1024 * 1024;

/// `DNS1123SubdomainMaxLength`: the longest config key.
const MAX_KEY_LENGTH: usize = 253;

/// `IsConfigMapKey`: length, the key alphabet, and no `.`/`..` prefix.
pub fn is_config_map_key(key: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if key.len() > MAX_KEY_LENGTH {
        errs.push(format!("must be no more than {MAX_KEY_LENGTH} characters"));
    }
    let alphabet = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_');
    if key.is_empty() || !key.chars().all(alphabet) {
        // RegexError's shape: each example ends in "', ", so "or" follows two spaces.
        errs.push("a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')".to_string());
    }
    if key == "." {
        errs.push("must not be '.'".into());
    } else if key == ".." {
        errs.push("must not be '..'".into());
    } else if key.starts_with("..") {
        errs.push("must not start with '..'".into());
    }
    errs
}

/// A map field of the object (empty when absent).
fn map_of<'a>(obj: &'a Map<String, Value>, name: &str) -> Vec<(&'a String, &'a Value)> {
    let mut entries: Vec<_> = obj
        .get(name)
        .and_then(Value::as_object)
        .map(|m| m.iter().collect())
        .unwrap_or_default();
    crate::sort::sort_by(&mut entries, |a, b| a.0.cmp(b.0));
    entries
}

/// The byte length of a `binaryData` value from its canonical (padded, standard) base64
/// text, without decoding it.
fn decoded_len(v: &Value) -> usize {
    let text = v.as_str().unwrap_or("");
    let padding = text.bytes().rev().take_while(|b| *b == b'=').count();
    (text.len() / 4 * 3).saturating_sub(padding)
}

/// `ValidateConfigMap`.
fn validate(obj: &Map<String, Value>) -> Vec<FieldError> {
    let meta = obj
        .get("metadata")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let mut errs = validate_object_meta(&meta, true, &name_is_dns_subdomain);
    let binary = map_of(obj, "binaryData");
    let binary_keys = obj.get("binaryData").and_then(Value::as_object);
    let mut total = 0;
    for (key, value) in map_of(obj, "data") {
        let path = FieldPath::new("data").key(key);
        for msg in is_config_map_key(key) {
            errs.push(FieldError::invalid(
                path.as_str(),
                Value::String(key.clone()),
                &msg,
            ));
        }
        if binary_keys.is_some_and(|m| m.contains_key(key)) {
            errs.push(FieldError::invalid(
                path.as_str(),
                Value::String(key.clone()),
                "duplicate of key present in binaryData",
            ));
        }
        total += value.as_str().map_or(0, str::len);
    }
    for (key, value) in &binary {
        let path = FieldPath::new("binaryData").key(key);
        for msg in is_config_map_key(key) {
            errs.push(FieldError::invalid(
                path.as_str(),
                Value::String((*key).clone()),
                &msg,
            ));
        }
        total += decoded_len(value);
    }
    if total > MAX_SIZE {
        // `field.NewPath("")` prints as `[]`.
        errs.push(FieldError::too_long("[]", MAX_SIZE));
    }
    errs
}

fn is_immutable(obj: &Map<String, Value>) -> bool {
    obj.get("immutable").and_then(Value::as_bool) == Some(true)
}

/// The ConfigMap strategy: no defaulting; data frozen once `immutable` is set.
#[derive(Debug)]
pub struct ConfigMapStrategy;

impl Strategy for ConfigMapStrategy {
    fn validate_create(
        &self,
        obj: &Map<String, Value>,
        _sent: &crate::resources::Sent,
    ) -> Vec<FieldError> {
        validate(obj)
    }

    /// `ValidateConfigMapUpdate`: metadata, the immutability rules, then the full create
    /// validation.
    fn validate_update(
        &self,
        new: &Map<String, Value>,
        old: &Map<String, Value>,
    ) -> Vec<FieldError> {
        let mut errs = validate_object_meta_update(&meta_map(new), &meta_map(old));
        if is_immutable(old) {
            const FROZEN: &str = "field is immutable when `immutable` is set";
            if !is_immutable(new) {
                errs.push(FieldError::forbidden("immutable", FROZEN));
            }
            for f in ["data", "binaryData"] {
                if new.get(f) != old.get(f) {
                    errs.push(FieldError::forbidden(f, FROZEN));
                }
            }
        }
        errs.extend(validate(new));
        errs
    }

    fn printer(&self) -> Option<&'static dyn Printer> {
        Some(&ConfigMapPrinter)
    }
}

/// The ConfigMap printer: `DATA` (how many keys), `AGE`.
#[derive(Debug)]
pub struct ConfigMapPrinter;

static COLUMNS: &[Column] = &[Column {
    name: "Data",
    ty: "string",
    format: "",
    description: DATA_DOC,
    priority: 0,
}];

impl Printer for ConfigMapPrinter {
    fn columns(&self) -> &'static [Column] {
        COLUMNS
    }
    fn cells(&self, obj: &Value, _now_ms: i64) -> Vec<Value> {
        let count = |f: &str| obj.get(f).and_then(Value::as_object).map_or(0, Map::len);
        vec![Value::from((count("data") + count("binaryData")) as i64)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_map_keys() {
        let cases: &[(&str, &[&str])] = &[
            ("key.name", &[]),
            ("KEY_NAME-1", &[]),
            (".", &["must not be '.'"]),
            ("..", &["must not be '..'"]),
            ("..a", &["must not start with '..'"]),
            ("", &["a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')"]),
        ];
        for (key, want) in cases {
            assert_eq!(is_config_map_key(key), *want, "{key:?}");
        }
    }

    #[test]
    fn paths_come_from_the_kind() {
        assert_eq!(
            CONFIG_MAPS.path("ns", "x"),
            "/api/v1/namespaces/ns/configmaps/x"
        );
        assert_eq!(CONFIG_MAPS.path("", ""), "/api/v1/configmaps");
        assert_eq!(
            crate::resources::CONTROLLER_REVISIONS.path("d", "r"),
            "/apis/apps/v1/namespaces/d/controllerrevisions/r"
        );
        assert_eq!(
            crate::resources::NAMESPACES.path("", "n"),
            "/api/v1/namespaces/n"
        );
    }

    #[test]
    fn binary_lengths_come_from_the_base64_text() {
        use base64::Engine as _;
        for n in 0..10 {
            let text = base64::engine::general_purpose::STANDARD.encode(vec![7u8; n]);
            assert_eq!(decoded_len(&Value::String(text)), n);
        }
    }
}
