//! Other representations of a response: `Table` and `PartialObjectMetadata(List)`
//! (apiserver's `transformResponseObject` / `doTransformObject`).
//!
//! The handler's reply is transformed after it succeeded, so a 404 wins over a bad
//! `includeObject` (400), which wins over a target the object cannot have (406:
//! `PartialObjectMetadata` of a list, `PartialObjectMetadataList` of one object). `Status`
//! bodies are never transformed. Watches transform every event object the same way
//! ([`watch_object`]), with Table headers only on the first event.

pub mod table;

pub use crate::resources::duration::human_duration;

use serde_json::{json, Map, Value};

use super::negotiation::{MetaVersion, Target};
use super::{Reply, Request};
use crate::codec::{go_quote, Object};
use crate::resources::status::{ApiError, ApiResult};
use crate::resources::ResourceInfo;
use table::TableSpec;

/// `TableOptions.IncludeObject`: what each row's `object` holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IncludeObject {
    None,
    /// The default: `PartialObjectMetadata`.
    Metadata,
    Object,
}

/// `optionsForTransform` for a Table: `includeObject` from the query (400 otherwise).
pub fn table_options(req: &Request<'_>) -> ApiResult<IncludeObject> {
    match req.query.get("includeObject").unwrap_or("") {
        "" | "Metadata" => Ok(IncludeObject::Metadata),
        "None" => Ok(IncludeObject::None),
        "Object" => Ok(IncludeObject::Object),
        other => Err(ApiError::bad_request(format!(
            "Unable to convert to Table as requested: includeObject: Invalid value: {}: must be 'Metadata', 'Object', 'None', or empty",
            go_quote(other)
        ))),
    }
}

/// What `%T` prints for the internal object the transform sees (`*apps.ControllerRevision`,
/// `*core.NamespaceList`).
fn go_type(info: &ResourceInfo, list: bool) -> String {
    let package = if info.group.is_empty() {
        "core"
    } else {
        info.group.split('.').next().unwrap_or(info.group)
    };
    let suffix = if list { "List" } else { "" };
    format!("*{package}.{}{suffix}", info.kind)
}

/// Whether a reply holds a list (streamed items, or a list body such as deletecollection's).
fn is_list(reply: &Reply) -> bool {
    reply.items.is_some() || reply.body.get("items").is_some()
}

/// The items of a list reply, whichever form it has (stored items decoded).
fn list_items(reply: &Reply) -> Vec<Value> {
    match &reply.items {
        Some(items) => items.iter().map(Object::decode).collect(),
        None => reply.body["items"].as_array().cloned().unwrap_or_default(),
    }
}

/// Transforms a successful reply for `target` (the clock is for the `AGE` column).
pub fn apply(
    info: &ResourceInfo,
    req: &Request<'_>,
    target: Option<Target>,
    now_ms: i64,
    mut reply: Reply,
) -> ApiResult<Reply> {
    let Some(target) = target else {
        return Ok(reply);
    };
    let include = match target {
        Target::Table(_) => Some(table_options(req)?),
        _ => None,
    };
    if reply.body.get("kind").and_then(Value::as_str) == Some("Status") {
        return Ok(reply);
    }
    // A GET's stored object is read where it is, not copied into the reply first; a write's
    // reply has the value already.
    let stored = match reply.stored.take() {
        Some(o) if !reply.body.is_object() => Some(o.decode()),
        _ => None,
    };
    let object = stored.as_ref().unwrap_or(&reply.body);
    let list = is_list(&reply);
    let body = match target {
        Target::Table(version) => {
            let spec = TableSpec {
                version,
                include: include.unwrap_or(IncludeObject::Metadata),
                headers: true,
                now_ms,
            };
            if list {
                let items = list_items(&reply);
                table::list_table(info, &reply.body["metadata"], items.iter(), &spec)
            } else {
                table::object_table(info, object, &spec)
            }
        }
        Target::PartialObjectMetadata(version) => {
            if list {
                return Err(ApiError::not_acceptable(format!(
                    "you requested PartialObjectMetadata, but the requested object is a list ({})",
                    go_type(info, true)
                )));
            }
            table::partial(object, version)
        }
        Target::PartialObjectMetadataList(version) => {
            if !list {
                return Err(ApiError::not_acceptable(format!(
                    "you requested PartialObjectMetadataList, but the requested object is not a list ({})",
                    go_type(info, false)
                )));
            }
            let items: Vec<Value> = list_items(&reply)
                .iter()
                .map(|o| table::partial(o, version))
                .collect();
            partial_list(&reply.body["metadata"], items, version)
        }
    };
    reply.body = body;
    reply.items = None;
    Ok(reply)
}

/// A `PartialObjectMetadataList`: list metadata copied, `items: null` when empty (the Go
/// list starts from a nil slice).
fn partial_list(list_meta: &Value, items: Vec<Value>, version: MetaVersion) -> Value {
    let mut meta = Map::new();
    for k in ["resourceVersion", "continue", "remainingItemCount"] {
        match list_meta.get(k) {
            None | Some(Value::Null) => {}
            Some(Value::String(s)) if s.is_empty() => {}
            Some(v) => {
                meta.insert(k.into(), v.clone());
            }
        }
    }
    json!({
        "kind": "PartialObjectMetadataList",
        "apiVersion": version.api_version(),
        "metadata": meta,
        "items": if items.is_empty() { Value::Null } else { Value::Array(items) },
    })
}

/// How a watch transforms its event objects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WatchTransform {
    None,
    PartialObjectMetadata(MetaVersion),
    Table(MetaVersion, IncludeObject),
}

impl WatchTransform {
    /// The watch form of a negotiated target. A `PartialObjectMetadataList` cannot be made of
    /// one event object; the real encoder logs that and sends the object unchanged.
    pub fn from_target(target: Option<Target>, include: IncludeObject) -> Self {
        match target {
            Some(Target::Table(v)) => WatchTransform::Table(v, include),
            Some(Target::PartialObjectMetadata(v)) => WatchTransform::PartialObjectMetadata(v),
            Some(Target::PartialObjectMetadataList(_)) | None => WatchTransform::None,
        }
    }
}

/// One watch event's object as the watcher receives it (`watchEmbeddedEncoder`): `Status`
/// passes through; a Table has one row and, unless `headers`, `columnDefinitions: null`.
pub fn watch_object(
    info: &ResourceInfo,
    t: WatchTransform,
    obj: &Value,
    headers: bool,
    now_ms: i64,
) -> Option<Value> {
    if obj.get("kind").and_then(Value::as_str) == Some("Status") {
        return None;
    }
    match t {
        WatchTransform::None => None,
        WatchTransform::PartialObjectMetadata(v) => Some(table::partial(obj, v)),
        WatchTransform::Table(version, include) => Some(table::object_table(
            info,
            obj,
            &TableSpec {
                version,
                include,
                headers,
                now_ms,
            },
        )),
    }
}
