//! DELETE of one object and of a collection (reference §11).
//!
//! Two-phase deletion: an object with finalizers (its own, or `orphan`/`foregroundDeletion`
//! added by the propagation policy) gets a `deletionTimestamp` and stays until a write
//! removes the last finalizer; one without is removed at once and answered with a Status.
//! A Namespace first turns `Terminating`; the namespace controller empties and finalizes it.

use serde_json::{json, Map, Value};

use super::update::has_finalizers;
use super::{meta_mut, meta_str, validate_dry_run};
use crate::api::route::ResourceRequest;
use crate::api::status::{ApiError, ApiResult, GroupKind};
use crate::api::{Reply, Request};
use crate::codec::decode;
use crate::codec::rfc3339;
use crate::engine::Engine;
use crate::features::parse_go_bool;
use crate::resources::field::FieldError;
use crate::resources::{schema, ResourceInfo, NAMESPACES};

/// Decoded and validated `DeleteOptions`.
#[derive(Debug, Clone, Default)]
pub struct DeleteOptions {
    /// `dryRun=All`: nothing is persisted.
    pub dry_run: bool,
    pub propagation: Option<String>,
    pub orphan_dependents: Option<bool>,
    pub precondition_uid: Option<String>,
    pub precondition_rv: Option<String>,
}

const ORPHAN: &str = "orphan";
const FOREGROUND: &str = "foregroundDeletion";

/// Reads DeleteOptions from the body (any apiVersion) or the query, then validates them as
/// `ValidateDeleteOptions` does (422 `DeleteOptions.meta.k8s.io "" is invalid`).
fn delete_options(req: &Request<'_>) -> ApiResult<DeleteOptions> {
    let mut body = Map::new();
    // A body is read by its Content-Type (415 for an unknown one), YAML converted to JSON.
    let encoding = if req.body.is_empty() {
        crate::api::negotiation::Encoding::Json
    } else {
        crate::api::negotiation::input_encoding(req.header("content-type"), &req.served)?
    };
    if !req.body.iter().all(u8::is_ascii_whitespace) {
        let converted =
            crate::api::encode::body_to_json(req.body, encoding).map_err(ApiError::bad_request)?;
        let parsed = crate::codec::json::parse(&converted.json)
            .map_err(|e| ApiError::bad_request(e.message))?;
        let Value::Object(raw) = parsed.value else {
            return Err(ApiError::bad_request(
                "json: cannot unmarshal non-object into Go value of type v1.DeleteOptions",
            ));
        };
        body = decode::decode_struct(&Value::Object(raw), &schema::DELETE_OPTIONS)
            .map_err(|e| ApiError::bad_request(e.message))?
            .object;
    }
    let q = &req.query;
    let mut errs = Vec::new();
    let mut dry_values: Vec<String> = body
        .get("dryRun")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    if dry_values.is_empty() {
        dry_values = q.all("dryRun").iter().map(|s| s.to_string()).collect();
    }
    let refs: Vec<&str> = dry_values.iter().map(String::as_str).collect();
    let dry_run = validate_dry_run(&refs, &mut errs);
    let propagation = body
        .get("propagationPolicy")
        .and_then(Value::as_str)
        .map(str::to_string)
        .or_else(|| q.string("propagationPolicy").map(str::to_string));
    let orphan_dependents = match body.get("orphanDependents").and_then(Value::as_bool) {
        Some(b) => Some(b),
        None => q.string("orphanDependents").and_then(parse_go_bool),
    };
    if let Some(p) = &propagation {
        if orphan_dependents.is_some() {
            errs.push(FieldError::invalid(
                "propagationPolicy",
                Value::String(p.clone()),
                "orphanDependents and deletionPropagation cannot be both set",
            ));
        }
        if !matches!(p.as_str(), "Foreground" | "Background" | "Orphan") {
            errs.push(FieldError::not_supported(
                "propagationPolicy",
                Value::String(p.clone()),
                &["Foreground", "Background", "Orphan", "nil"],
            ));
        }
    }
    if let Some(g) = q.string("gracePeriodSeconds") {
        if g.parse::<i64>().is_err() {
            return Err(ApiError::bad_request(format!(
                "strconv.ParseInt: parsing {g:?}: invalid syntax"
            )));
        }
    }
    if !errs.is_empty() {
        return Err(ApiError::invalid_options("DeleteOptions", &errs));
    }
    let pre = body.get("preconditions").and_then(Value::as_object);
    let pre_str = |k: &str| {
        pre.and_then(|p| p.get(k))
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    Ok(DeleteOptions {
        dry_run,
        propagation,
        orphan_dependents,
        precondition_uid: pre_str("uid"),
        precondition_rv: pre_str("resourceVersion"),
    })
}

/// DELETE of one object.
pub fn delete(engine: &mut Engine, req: &Request<'_>, rr: &ResourceRequest) -> ApiResult<Reply> {
    let info = rr.resource;
    let opts = delete_options(req)?;
    let name = rr.name.as_deref().unwrap_or("");
    let key = info.key(rr.namespace.as_deref().unwrap_or(""), name);
    engine.delete_object(info, &key, name, &opts)
}

/// DELETE on a collection: deletes every matching object, answering with the list of what
/// was deleted (in its final state).
pub fn delete_collection(
    engine: &mut Engine,
    req: &Request<'_>,
    rr: &ResourceRequest,
) -> ApiResult<Reply> {
    let info = rr.resource;
    let opts = delete_options(req)?;
    let listed = super::list::list(engine, req, rr)?;
    let mut deleted = Vec::new();
    for item in listed.items.iter().flatten() {
        let name = meta_str(item, "name").to_string();
        let ns = meta_str(item, "namespace").to_string();
        let key = info.key(&ns, &name);
        match engine.delete_object(info, &key, &name, &opts) {
            Ok(r) => deleted.push(if r.body.get("kind") == Some(&json!("Status")) {
                super::strip_type_meta(item)
            } else {
                super::strip_type_meta(&r.body)
            }),
            Err(e) if e.code == 404 => {}
            Err(e) => return Err(e),
        }
    }
    let list_meta = json!({"resourceVersion": listed.body["metadata"]["resourceVersion"]});
    Ok(Reply::new(
        200,
        super::list::list_body(info, list_meta, deleted),
    ))
}

impl Engine {
    /// The generic store's delete (and the Namespace registry's), shared by DELETE,
    /// deletecollection and the namespace controller.
    pub(crate) fn delete_object(
        &mut self,
        info: &'static ResourceInfo,
        key: &str,
        name: &str,
        opts: &DeleteOptions,
    ) -> ApiResult<Reply> {
        let Some(current) = self.store().get(key).cloned() else {
            return Err(ApiError::not_found(info.group_resource(), name));
        };
        check_preconditions(info, name, &current, opts)?;
        let mut obj = current.as_object().cloned().unwrap_or_default();
        let is_namespace = std::ptr::eq(info, &NAMESPACES);
        let now = rfc3339::format(self.clock().now_secs());
        if is_namespace {
            let spec_fins = obj
                .get("spec")
                .and_then(|s| s.get("finalizers"))
                .and_then(Value::as_array)
                .is_some_and(|a| !a.is_empty());
            let terminating = !meta_str(&current, "deletionTimestamp").is_empty();
            if !terminating || spec_fins {
                let m = meta_mut(&mut obj);
                m.entry("deletionTimestamp")
                    .or_insert_with(|| Value::String(now.clone()));
                m.entry("deletionGracePeriodSeconds").or_insert(json!(0));
                apply_gc_finalizers(m, opts);
                obj.insert("status".into(), json!({"phase": "Terminating"}));
                let out = self.write_update(info, key, &current, obj, opts.dry_run)?;
                return Ok(Reply::new(status_code(opts), out));
            }
        }
        {
            let m = meta_mut(&mut obj);
            apply_gc_finalizers(m, opts);
        }
        let with_finalizers = Value::Object(obj.clone());
        if has_finalizers(&with_finalizers) {
            let m = meta_mut(&mut obj);
            let keep_earlier = m
                .get("deletionTimestamp")
                .and_then(Value::as_str)
                .is_some_and(|t| !t.is_empty());
            if !keep_earlier {
                m.insert("deletionTimestamp".into(), Value::String(now));
            }
            m.insert("deletionGracePeriodSeconds".into(), json!(0));
            let generation = m.get("generation").and_then(Value::as_i64).unwrap_or(0);
            if generation > 0 {
                m.insert("generation".into(), json!(generation + 1));
            }
            let out = self.write_update(info, key, &current, obj, opts.dry_run)?;
            return Ok(Reply::new(status_code(opts), out));
        }
        if !opts.dry_run {
            self.commit_delete(key);
        }
        let mut details = Map::new();
        details.insert("name".into(), json!(name));
        if !info.group.is_empty() {
            details.insert("group".into(), json!(info.group));
        }
        details.insert("kind".into(), json!(info.plural));
        details.insert("uid".into(), json!(meta_str(&current, "uid")));
        Ok(Reply::new(
            200,
            json!({
                "kind": "Status",
                "apiVersion": "v1",
                "metadata": {},
                "status": "Success",
                "details": Value::Object(details),
            }),
        ))
    }
}

/// 200, or 202 only when the deprecated `orphanDependents: false` was sent explicitly.
fn status_code(opts: &DeleteOptions) -> u16 {
    if opts.orphan_dependents == Some(false) {
        202
    } else {
        200
    }
}

fn check_preconditions(
    info: &ResourceInfo,
    name: &str,
    current: &Value,
    opts: &DeleteOptions,
) -> ApiResult<()> {
    let gk = GroupKind {
        group: info.group,
        kind: info.kind,
    };
    if let Some(uid) = &opts.precondition_uid {
        let actual = meta_str(current, "uid");
        if uid != actual {
            return Err(ApiError::conflict_kind(gk, name, &format!(
                "the UID in the precondition ({uid}) does not match the UID in record ({actual}). The object might have been deleted and then recreated"
            )));
        }
    }
    if let Some(rv) = &opts.precondition_rv {
        let actual = meta_str(current, "resourceVersion");
        if rv != actual {
            return Err(ApiError::conflict_kind(gk, name, &format!(
                "the ResourceVersion in the precondition ({rv}) does not match the ResourceVersion in record ({actual}). The object might have been modified"
            )));
        }
    }
    Ok(())
}

/// Adds or removes `orphan` / `foregroundDeletion` as the propagation policy asks; with no
/// policy, existing GC finalizers decide (the default for these kinds is Background).
fn apply_gc_finalizers(m: &mut Map<String, Value>, opts: &DeleteOptions) {
    let mut fins: Vec<String> = m
        .get("finalizers")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    let policy = match (&opts.propagation, opts.orphan_dependents) {
        (Some(p), _) => Some(p.as_str()),
        (None, Some(true)) => Some("Orphan"),
        (None, Some(false)) => Some("Background"),
        (None, None) => None,
    };
    let (orphan, foreground) = match policy {
        Some("Orphan") => (true, false),
        Some("Foreground") => (false, true),
        Some(_) => (false, false),
        None => return,
    };
    fins.retain(|f| f != ORPHAN && f != FOREGROUND);
    if orphan {
        fins.push(ORPHAN.to_string());
    }
    if foreground {
        fins.push(FOREGROUND.to_string());
    }
    if fins.is_empty() {
        m.shift_remove("finalizers");
    } else {
        m.insert("finalizers".into(), json!(fins));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn propagation_policy_sets_gc_finalizers() {
        let cases = [
            (Some("Orphan"), None, vec!["a", ORPHAN]),
            (Some("Foreground"), None, vec!["a", FOREGROUND]),
            (Some("Background"), None, vec!["a"]),
            (None, Some(true), vec!["a", ORPHAN]),
            (None, None, vec!["a", ORPHAN]),
        ];
        for (p, o, want) in cases {
            let mut m = Map::new();
            m.insert("finalizers".into(), json!(["a", ORPHAN]));
            let opts = DeleteOptions {
                propagation: p.map(str::to_string),
                orphan_dependents: o,
                ..DeleteOptions::default()
            };
            apply_gc_finalizers(&mut m, &opts);
            assert_eq!(m["finalizers"], json!(want), "{p:?} {o:?}");
        }
    }
}
