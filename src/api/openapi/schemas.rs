//! `components.schemas`: OpenAPI v3 schemas rendered from the kind tables of
//! [`crate::resources::schema`] (and the meta types of [`super::meta`]).
//!
//! A document only carries the schemas its paths reference, closed transitively, as the real
//! server's per group-version documents do. Keys follow kube-openapi's marshalling: struct
//! fields in `SchemaProps` order (`description`, `type`, `format`, `default`, `required`,
//! `items`, `allOf`, `properties`, `additionalProperties`), then the `x-kubernetes-*`
//! extensions sorted, then `$ref`; maps (`properties`, the schema set) sorted by key.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use super::lookup::{find_or, find_struct};
use super::meta;
use crate::resources::schema::{Field, ListType, Struct, Type};
use crate::resources::{Kinds, ResourceInfo};

/// The `$ref` prefix of component schemas.
pub const REF_PREFIX: &str = "#/components/schemas/";

/// `{"$ref": "#/components/schemas/<name>"}`.
pub fn reference(name: &str) -> Value {
    json!({ "$ref": format!("{REF_PREFIX}{name}") })
}

/// Renders the schemas named by `roots` and everything they reference, sorted by name, for
/// the document of the group-version `gv`.
pub fn closure(
    kinds: &Kinds,
    gv: (&str, &str),
    roots: impl IntoIterator<Item = String>,
) -> Map<String, Value> {
    let mut done: BTreeMap<String, Value> = BTreeMap::new();
    let mut todo: Vec<String> = roots.into_iter().collect();
    while let Some(name) = todo.pop() {
        if done.contains_key(&name) {
            continue;
        }
        let Some(schema) = render_in(kinds, gv, &name) else {
            continue;
        };
        collect_refs(&schema, &mut todo);
        done.insert(name, schema);
    }
    done.into_iter().collect()
}

/// Every `$ref` target inside `v`, appended to `out`.
pub fn collect_refs(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                match (k.as_str(), x) {
                    ("$ref", Value::String(s)) => {
                        if let Some(name) = s.strip_prefix(REF_PREFIX) {
                            out.push(name.to_string());
                        }
                    }
                    _ => collect_refs(x, out),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| collect_refs(x, out)),
        _ => {}
    }
}

/// The schema named `name` as the core v1 document shows it, if kubesim knows it.
#[cfg(test)]
pub fn render(kinds: &Kinds, name: &str) -> Option<Value> {
    render_in(kinds, ("", "v1"), name)
}

/// The schema named `name` as the document of `gv` shows it, if kubesim knows it.
fn render_in(kinds: &Kinds, gv: (&str, &str), name: &str) -> Option<Value> {
    if let Some(v) = meta::opaque(name) {
        return Some(v);
    }
    if let Some(r) = kinds
        .iter()
        .find(|r| r.custom.is_some() && r.schema.openapi_name == name)
    {
        return Some(super::custom::custom_schema(kinds, r));
    }
    if let Some(s) = find_struct(kinds, name) {
        return Some(struct_schema(s, gvk_extension(kinds, gv, name)));
    }
    if let Some(o) = find_or(kinds, name) {
        // kube-openapi describes these custom-marshalled types by their doc alone.
        return Some(json!({"description": o.description}));
    }
    kinds
        .iter()
        .find(|r| list_schema_name(r) == name)
        .map(|r| list_schema(kinds, r))
}

/// The schema name of a resource's list kind (`io.k8s.api.apps.v1.ControllerRevisionList`).
pub fn list_schema_name(r: &ResourceInfo) -> String {
    format!("{}List", r.schema.openapi_name)
}

/// `{"group","kind","version"}` — the key order of the map the server builds for schemas.
pub(super) fn gvk_entry(group: &str, version: &str, kind: &str) -> Value {
    json!({"group": group, "kind": kind, "version": version})
}

/// The `x-kubernetes-group-version-kind` of a named schema: the kinds (and list kinds) served
/// under it; for the option kinds `DeleteOptions`/`WatchEvent`, core v1 and the document's
/// own group-version `gv` (as 1.36's per-group-version documents show); core v1 for the
/// unversioned meta kinds; nothing for plain structs.
fn gvk_extension(kinds: &Kinds, gv: (&str, &str), name: &str) -> Option<Value> {
    let short = name.rsplit('.').next().unwrap_or(name);
    let entries: Vec<Value> = match short {
        "DeleteOptions" | "WatchEvent" => {
            let mut out = vec![gvk_entry("", "v1", short)];
            if !gv.0.is_empty() {
                out.push(gvk_entry(gv.0, gv.1, short));
            }
            out
        }
        "Status" | "APIResourceList" | "APIVersions" | "APIGroup" | "APIGroupList"
            if name.starts_with("io.k8s.apimachinery.pkg.apis.meta.v1.") =>
        {
            vec![gvk_entry("", "v1", short)]
        }
        _ => kinds
            .iter()
            .filter(|r| r.schema.openapi_name == name)
            .map(|r| gvk_entry(r.group, r.version, r.kind))
            .collect(),
    };
    (!entries.is_empty()).then(|| Value::Array(entries))
}

/// A struct's schema: `description`, `type: object`, `required` (Go field order), the
/// properties (sorted), then the group-version-kind and map-type extensions.
fn struct_schema(s: &Struct, gvk: Option<Value>) -> Value {
    let mut m = Map::new();
    if !s.description.is_empty() {
        m.insert("description".into(), json!(s.description));
    }
    m.insert("type".into(), json!("object"));
    let required: Vec<&str> = s
        .fields
        .iter()
        .filter(|f| f.required)
        .map(|f| f.name)
        .collect();
    if !required.is_empty() {
        m.insert("required".into(), json!(required));
    }
    let mut props: Vec<&Field> = s.fields.iter().collect();
    crate::sort::sort_by_key(&mut props, |f| f.name);
    let props: Map<String, Value> = props
        .into_iter()
        .map(|f| (f.name.to_string(), property(f)))
        .collect();
    if !props.is_empty() {
        m.insert("properties".into(), Value::Object(props));
    }
    if let Some(gvk) = gvk {
        m.insert("x-kubernetes-group-version-kind".into(), gvk);
    }
    if s.atomic {
        m.insert("x-kubernetes-map-type".into(), json!("atomic"));
    }
    Value::Object(m)
}

/// The synthesised `<Kind>List` schema: `apiVersion`, `items` (required), `kind`, `metadata`
/// (ListMeta), with its own group-version-kind.
fn list_schema(kinds: &Kinds, r: &ResourceInfo) -> Value {
    let (description, items_doc, meta_doc) = list_docs(r);
    let api_version = &crate::resources::schema::API_VERSION_FIELD;
    let kind = &crate::resources::schema::KIND_FIELD;
    let mut items = Map::new();
    items.insert("description".into(), json!(items_doc));
    items.insert("type".into(), json!("array"));
    items.insert("items".into(), item_schema(&Type::Object(r.schema)));
    let mut metadata = Map::new();
    metadata.insert("description".into(), json!(meta_doc));
    metadata.insert("default".into(), json!({}));
    metadata.insert(
        "allOf".into(),
        json!([reference(meta::LIST_META.openapi_name)]),
    );
    let gvk: Vec<Value> = kinds
        .iter()
        .filter(|x| x.schema.openapi_name == r.schema.openapi_name)
        .map(|x| gvk_entry(x.group, x.version, &x.list_kind()))
        .collect();
    json!({
        "description": description,
        "type": "object",
        "required": ["items"],
        "properties": {
            "apiVersion": property(api_version),
            "items": items,
            "kind": property(kind),
            "metadata": metadata
        },
        "x-kubernetes-group-version-kind": gvk
    })
}

/// The documentation of a list kind and of its `items`/`metadata` fields, as the kind
/// words them.
fn list_docs(r: &ResourceInfo) -> (String, String, String) {
    let d = r.list_docs;
    (d.description.into(), d.items.into(), d.metadata.into())
}

/// The component a `Type::Any` field points at: managedFields' `fieldsV1` is a `FieldsV1`,
/// every other arbitrary-JSON field (ControllerRevision `data`, WatchEvent `object`) is a
/// `RawExtension`.
fn any_ref(field_name: &str) -> &'static str {
    if field_name == "fieldsV1" {
        meta::FIELDS_V1
    } else {
        meta::RAW_EXTENSION
    }
}

/// The Go zero value the generator records as `default` for a field that is always written
/// (non-pointer, no `omitempty`); pointers, RawExtensions, times, lists and maps have none.
fn zero_default(ty: &Type) -> Option<Value> {
    match ty {
        Type::String => Some(json!("")),
        Type::Int64 | Type::Int32 => Some(json!(0)),
        Type::Boolean => Some(json!(false)),
        Type::Object(_) => Some(json!({})),
        _ => None,
    }
}

/// One property of a struct schema.
pub(super) fn property(f: &Field) -> Value {
    let default = if f.omit_empty {
        None
    } else {
        zero_default(&f.ty)
    };
    let mut m = Map::new();
    if !f.description.is_empty() {
        m.insert("description".into(), json!(f.description));
    }
    match &f.ty {
        Type::DateTime => {
            m.insert("allOf".into(), json!([reference(meta::TIME)]));
        }
        Type::MicroTime => {
            m.insert("allOf".into(), json!([reference(meta::MICRO_TIME)]));
        }
        Type::Any => {
            m.insert("allOf".into(), json!([reference(any_ref(f.name))]));
        }
        Type::Or(o) => {
            m.insert("allOf".into(), json!([reference(o.openapi_name)]));
        }
        Type::Object(s) => {
            if let Some(d) = default {
                m.insert("default".into(), d);
            }
            m.insert("allOf".into(), json!([reference(s.openapi_name)]));
        }
        other => m.extend(with_default(scalar_or_container(other), default)),
    }
    Value::Object(m)
}

/// `type`/`format` of a scalar, or `type` + `items`/`additionalProperties` + list extensions of
/// a container, in schema key order.
fn scalar_or_container(ty: &Type) -> Map<String, Value> {
    let mut m = Map::new();
    match ty {
        Type::String => {
            m.insert("type".into(), json!("string"));
        }
        Type::Int64 | Type::Int32 => {
            m.insert("type".into(), json!("integer"));
            let format = if matches!(ty, Type::Int64) {
                "int64"
            } else {
                "int32"
            };
            m.insert("format".into(), json!(format));
        }
        Type::Boolean => {
            m.insert("type".into(), json!("boolean"));
        }
        Type::Float64 => {
            m.insert("type".into(), json!("number"));
            m.insert("format".into(), json!("double"));
        }
        Type::Bytes => {
            m.insert("type".into(), json!("string"));
            m.insert("format".into(), json!("byte"));
        }
        Type::Map(t) => {
            m.insert("type".into(), json!("object"));
            m.insert("additionalProperties".into(), item_schema(t));
        }
        Type::Array(t, list_type) => {
            m.insert("type".into(), json!("array"));
            m.insert("items".into(), item_schema(t));
            // Extensions, sorted by name. Keyed lists and sets are also merge-patched by
            // strategic merge patch, which kubectl's client-side apply reads from here.
            match list_type {
                ListType::Map(keys) => {
                    let names: Vec<&str> = keys.iter().map(|k| k.name).collect();
                    m.insert("x-kubernetes-list-map-keys".into(), json!(names));
                    m.insert("x-kubernetes-list-type".into(), json!("map"));
                    // Strategic merge patch merges by one key: the built-in lists have one.
                    m.insert("x-kubernetes-patch-merge-key".into(), json!(names[0]));
                    m.insert("x-kubernetes-patch-strategy".into(), json!("merge"));
                }
                ListType::Set => {
                    m.insert("x-kubernetes-list-type".into(), json!("set"));
                    m.insert("x-kubernetes-patch-strategy".into(), json!("merge"));
                }
                ListType::Unmarked => {}
                ListType::Atomic => {
                    m.insert("x-kubernetes-list-type".into(), json!("atomic"));
                }
            }
        }
        Type::DateTime | Type::MicroTime | Type::Object(_) | Type::Any | Type::Or(_) => {}
    }
    m
}

/// The schema of a list element or map value: a bare reference for a struct, the type alone
/// for a scalar, with no `default` (as kube-apiserver 1.36's published v3 documents show,
/// e.g. `ConfigMapList.items`, `ObjectMeta.finalizers` and `labels`).
fn item_schema(ty: &Type) -> Value {
    match ty {
        Type::Object(s) => reference(s.openapi_name),
        Type::DateTime => reference(meta::TIME),
        Type::MicroTime => reference(meta::MICRO_TIME),
        Type::Any => reference(meta::RAW_EXTENSION),
        Type::Or(o) => reference(o.openapi_name),
        other => Value::Object(scalar_or_container(other)),
    }
}

/// Places `default` where kube-openapi writes it: after `type`/`format`, before `items`.
fn with_default(m: Map<String, Value>, default: Option<Value>) -> Map<String, Value> {
    let Some(d) = default else {
        return m;
    };
    let mut out = Map::new();
    let mut pending = Some(d);
    for (k, v) in m {
        if k != "type" && k != "format" {
            if let Some(d) = pending.take() {
                out.insert("default".into(), d);
            }
        }
        out.insert(k, v);
    }
    if let Some(d) = pending {
        out.insert("default".into(), d);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::openapi::tests::member_names;
    use crate::resources::schema::{CONTROLLER_REVISION, NAMESPACE, OBJECT_META};

    fn compact(v: &Value) -> String {
        serde_json::to_string(v).unwrap()
    }

    #[test]
    fn properties_render_like_kube_openapi() {
        let cr = render(&Kinds::builtin(), CONTROLLER_REVISION.openapi_name).unwrap();
        let meta = render(&Kinds::builtin(), OBJECT_META.openapi_name).unwrap();
        let ns = render(&Kinds::builtin(), NAMESPACE.openapi_name).unwrap();
        let cases: &[(&Value, &str, &str)] = &[
            (
                &cr,
                "revision",
                r#"{"description":"Revision indicates the revision of the state represented by Data.","type":"integer","format":"int64","default":0}"#,
            ),
            (
                &cr,
                "data",
                r##"{"description":"Data is the serialized representation of the state.","allOf":[{"$ref":"#/components/schemas/io.k8s.apimachinery.pkg.runtime.RawExtension"}]}"##,
            ),
            (
                &cr,
                "metadata",
                r##"{"description":"Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata","default":{},"allOf":[{"$ref":"#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"}]}"##,
            ),
            (
                &meta,
                "labels",
                r#"{"description":"Map of string keys and values that can be used to organize and categorize (scope and select) objects. May match selectors of replication controllers and services. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels","type":"object","additionalProperties":{"type":"string"}}"#,
            ),
            (
                &meta,
                "finalizers",
                r#"{"description":"Must be empty before the object is deleted from the registry. Each entry is an identifier for the responsible component that will remove the entry from the list. If the deletionTimestamp of the object is non-nil, entries in this list can only be removed. Finalizers may be processed and removed in any order.  Order is NOT enforced because it introduces significant risk of stuck finalizers. finalizers is a shared field, any actor with permission can reorder it. If the finalizer list is processed in order, then this can lead to a situation in which the component responsible for the first finalizer in the list is waiting for a signal (field value, external system, or other) produced by a component responsible for a finalizer later in the list, resulting in a deadlock. Without enforced ordering finalizers are free to order amongst themselves and are not vulnerable to ordering changes in the list.","type":"array","items":{"type":"string"},"x-kubernetes-list-type":"set","x-kubernetes-patch-strategy":"merge"}"#,
            ),
            (
                &meta,
                "ownerReferences",
                r##"{"description":"List of objects depended by this object. If ALL objects in the list have been deleted, this object will be garbage collected. If this object is managed by a controller, then an entry in this list will point to this controller, with the controller field set to true. There cannot be more than one managing controller.","type":"array","items":{"$ref":"#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference"},"x-kubernetes-list-map-keys":["uid"],"x-kubernetes-list-type":"map","x-kubernetes-patch-merge-key":"uid","x-kubernetes-patch-strategy":"merge"}"##,
            ),
            (
                &meta,
                "creationTimestamp",
                r##"{"description":"CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata","allOf":[{"$ref":"#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Time"}]}"##,
            ),
            (
                &meta,
                "generation",
                r#"{"description":"A sequence number representing a specific generation of the desired state. Populated by the system. Read-only.","type":"integer","format":"int64"}"#,
            ),
            (
                &ns,
                "spec",
                r##"{"description":"Spec defines the behavior of the Namespace. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status","default":{},"allOf":[{"$ref":"#/components/schemas/io.k8s.api.core.v1.NamespaceSpec"}]}"##,
            ),
        ];
        for (schema, prop, want) in cases {
            assert_eq!(compact(&schema["properties"][*prop]), *want, "{prop}");
        }
    }

    #[test]
    fn struct_level_keys_and_extensions() {
        /// (schema, top-level keys, `required`, group-version-kind extension)
        type Row<'a> = (&'a str, &'a [&'a str], Option<&'a str>, Option<&'a str>);
        let cases: &[Row] = &[
            (
                CONTROLLER_REVISION.openapi_name,
                &[
                    "description",
                    "type",
                    "required",
                    "properties",
                    "x-kubernetes-group-version-kind",
                ],
                Some(r#"["revision"]"#),
                Some(r#"[{"group":"apps","kind":"ControllerRevision","version":"v1"}]"#),
            ),
            (
                "io.k8s.api.apps.v1.ControllerRevisionList",
                &[
                    "description",
                    "type",
                    "required",
                    "properties",
                    "x-kubernetes-group-version-kind",
                ],
                Some(r#"["items"]"#),
                Some(r#"[{"group":"apps","kind":"ControllerRevisionList","version":"v1"}]"#),
            ),
            (
                NAMESPACE.openapi_name,
                &[
                    "description",
                    "type",
                    "properties",
                    "x-kubernetes-group-version-kind",
                ],
                None,
                Some(r#"[{"group":"","kind":"Namespace","version":"v1"}]"#),
            ),
            (
                "io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference",
                &[
                    "description",
                    "type",
                    "required",
                    "properties",
                    "x-kubernetes-map-type",
                ],
                Some(r#"["apiVersion","kind","name","uid"]"#),
                None,
            ),
            (
                "io.k8s.apimachinery.pkg.apis.meta.v1.Status",
                &[
                    "description",
                    "type",
                    "properties",
                    "x-kubernetes-group-version-kind",
                ],
                None,
                Some(r#"[{"group":"","kind":"Status","version":"v1"}]"#),
            ),
            (
                "io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent",
                &[
                    "description",
                    "type",
                    "required",
                    "properties",
                    "x-kubernetes-group-version-kind",
                ],
                Some(r#"["type","object"]"#),
                None,
            ),
            (meta::TIME, &["description", "type", "format"], None, None),
            (meta::RAW_EXTENSION, &["description", "type"], None, None),
        ];
        for (name, keys, required, gvk) in cases {
            let s = render(&Kinds::builtin(), name).unwrap_or_else(|| panic!("{name} unknown"));
            let got = member_names(&s);
            assert_eq!(&got, keys, "{name}");
            if let Some(r) = required {
                assert_eq!(compact(&s["required"]), *r, "{name}");
            }
            if let Some(g) = gvk {
                assert_eq!(compact(&s["x-kubernetes-group-version-kind"]), *g, "{name}");
            }
        }
        // Properties are sorted like a Go map.
        let cr = render(&Kinds::builtin(), CONTROLLER_REVISION.openapi_name).unwrap();
        let props = member_names(&cr["properties"]);
        assert_eq!(
            props,
            ["apiVersion", "data", "kind", "metadata", "revision"]
        );
    }

    #[test]
    fn closure_is_transitive_and_sorted() {
        let set = closure(
            &Kinds::builtin(),
            ("apps", "v1"),
            [CONTROLLER_REVISION.openapi_name.to_string()],
        );
        let names: Vec<&str> = set.keys().map(String::as_str).collect();
        assert_eq!(
            names,
            [
                "io.k8s.api.apps.v1.ControllerRevision",
                "io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1",
                "io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry",
                "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
                "io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference",
                "io.k8s.apimachinery.pkg.apis.meta.v1.Time",
                "io.k8s.apimachinery.pkg.runtime.RawExtension",
            ]
        );
        assert!(render(&Kinds::builtin(), "io.k8s.api.apps.v1.Deployment").is_none());
    }

    #[test]
    fn list_schema_shape() {
        let l = render(&Kinds::builtin(), "io.k8s.api.core.v1.NamespaceList").unwrap();
        assert_eq!(
            compact(&l["properties"]["items"]),
            r##"{"description":"Items is the list of Namespace objects in the list. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/namespaces/","type":"array","items":{"$ref":"#/components/schemas/io.k8s.api.core.v1.Namespace"}}"##
        );
        assert_eq!(
            l["properties"]["metadata"]["allOf"][0]["$ref"],
            "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta"
        );
    }
}
