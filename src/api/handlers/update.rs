//! PUT: the update handler and the generic store's update path (`BeforeUpdate`).
//!
//! Optimistic concurrency as in kube-apiserver: a body without `resourceVersion` updates
//! unconditionally (ControllerRevision and Namespace allow it), a stale one is a 409. A write
//! that changes nothing does not bump the resourceVersion, and an update that leaves a
//! terminating object without finalizers deletes it.

use serde_json::{Map, Value};

use super::{decode_body, meta_mut, meta_str, parse_rv, reconcile_namespace, write_options};
use crate::api::route::ResourceRequest;
use crate::api::status::{ApiError, ApiResult, OPTIMISTIC_LOCK_MSG};
use crate::api::{Reply, Request};
use crate::codec::decode;
use crate::engine::Engine;
use crate::resources::validation::reset_update_system_fields;
use crate::resources::ResourceInfo;

/// PUT to an object.
pub fn update(engine: &mut Engine, req: &Request<'_>, rr: &ResourceRequest) -> ApiResult<Reply> {
    let info = rr.resource;
    let opts = write_options(req, "UpdateOptions")?;
    let body = decode_body(req, info, opts.field_validation)?;
    let mut obj = body.object;
    let url_name = rr.name.as_deref().unwrap_or("");
    let body_name = meta_mut(&mut obj)
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    if body_name != url_name {
        return Err(ApiError::bad_request(format!(
            "the name of the object ({body_name}) does not match the name on the URL ({url_name})"
        )));
    }
    reconcile_namespace(&mut obj, info, rr.namespace.as_deref())?;
    let key = info.key(rr.namespace.as_deref().unwrap_or(""), url_name);
    let updated = engine.update_object(info, &key, obj, opts.dry_run)?;
    let mut reply = Reply::new(200, updated);
    reply.warnings = body.warnings;
    Ok(reply)
}

/// PUT `namespaces/NAME/finalize`: replaces `spec.finalizers` (what the namespace
/// controller calls once the namespace is empty).
pub fn finalize_namespace(
    engine: &mut Engine,
    req: &Request<'_>,
    rr: &ResourceRequest,
) -> ApiResult<Reply> {
    let info = rr.resource;
    let opts = write_options(req, "UpdateOptions")?;
    let body = decode_body(req, info, opts.field_validation)?;
    let name = rr.name.as_deref().unwrap_or("");
    let key = info.key("", name);
    let Some(current) = engine.store().get(&key).cloned() else {
        return Err(ApiError::not_found(info.group_resource(), name));
    };
    let mut next = current.as_object().cloned().unwrap_or_default();
    let spec = body.object.get("spec").cloned().unwrap_or(Value::Null);
    next.insert("spec".into(), spec);
    let out = engine.write_update(info, &key, &current, next, opts.dry_run)?;
    Ok(Reply::new(200, out))
}

impl Engine {
    /// The generic store's update of `key` to `obj` (already decoded and canonical).
    pub(crate) fn update_object(
        &mut self,
        info: &'static ResourceInfo,
        key: &str,
        mut obj: Map<String, Value>,
        dry_run: bool,
    ) -> ApiResult<Value> {
        let name = meta_mut(&mut obj)
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let Some(current) = self.store().get(key).cloned() else {
            return Err(ApiError::not_found(info.group_resource(), &name));
        };
        let rv = meta_mut(&mut obj)
            .get("resourceVersion")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        if !rv.is_empty() {
            let Some(n) = parse_rv(&rv) else {
                return Err(ApiError::untyped(500, super::invalid_rv_text(&rv)));
            };
            if n.to_string() != meta_str(&current, "resourceVersion") {
                return Err(ApiError::conflict(
                    info.group_resource(),
                    &name,
                    OPTIMISTIC_LOCK_MSG,
                ));
            }
        }
        let old = current.as_object().cloned().unwrap_or_default();
        // BeforeUpdate: server-owned metadata comes from the stored object; an unconditional
        // update is validated as if it carried the current resourceVersion.
        {
            let empty = Map::new();
            let old_meta = old
                .get("metadata")
                .and_then(Value::as_object)
                .unwrap_or(&empty);
            let m = meta_mut(&mut obj);
            reset_update_system_fields(m, old_meta);
            if rv.is_empty() {
                if let Some(r) = old_meta.get("resourceVersion") {
                    m.insert("resourceVersion".into(), r.clone());
                }
            }
        }
        info.strategy.prepare_for_update(&mut obj, &old);
        let errs = super::validate_update(info, &obj, &old);
        if !errs.is_empty() {
            return Err(ApiError::invalid(info.group_kind(), &name, &errs));
        }
        self.write_update(info, key, &current, obj, dry_run)
    }

    /// Writes an already validated update: no-op detection, deletion of a terminating object
    /// left without finalizers, otherwise a new revision.
    pub(crate) fn write_update(
        &mut self,
        info: &'static ResourceInfo,
        key: &str,
        current: &Value,
        obj: Map<String, Value>,
        dry_run: bool,
    ) -> ApiResult<Value> {
        let mut obj = decode::canonicalize(&obj, info.schema);
        let current_rv = meta_str(current, "resourceVersion").to_string();
        meta_mut(&mut obj).insert("resourceVersion".into(), Value::String(current_rv));
        let obj = Value::Object(obj);
        if obj == *current {
            return Ok(obj);
        }
        let terminating = !meta_str(&obj, "deletionTimestamp").is_empty();
        let grace = super::meta(&obj)
            .get("deletionGracePeriodSeconds")
            .and_then(Value::as_i64)
            .unwrap_or(0);
        if terminating && grace == 0 && !has_finalizers(&obj) && !has_spec_finalizers(info, &obj) {
            // `ShouldDeleteDuringUpdate`: the last finalizer is gone, so the object is.
            if !dry_run {
                self.commit_delete(key);
            }
            return Ok(obj);
        }
        if dry_run {
            return Ok(obj);
        }
        let rev = self.store().next_revision();
        let mut obj = obj;
        if let Some(m) = obj.as_object_mut() {
            meta_mut(m).insert("resourceVersion".into(), Value::String(rev.to_string()));
        }
        self.commit_put(key, obj.clone());
        Ok(obj)
    }
}

/// Whether `metadata.finalizers` is non-empty.
pub fn has_finalizers(obj: &Value) -> bool {
    super::meta(obj)
        .get("finalizers")
        .and_then(Value::as_array)
        .is_some_and(|a| !a.is_empty())
}

/// A namespace is only removed once its `spec.finalizers` are gone too.
fn has_spec_finalizers(info: &ResourceInfo, obj: &Value) -> bool {
    std::ptr::eq(info, &crate::resources::NAMESPACES)
        && obj
            .get("spec")
            .and_then(|s| s.get("finalizers"))
            .and_then(Value::as_array)
            .is_some_and(|a| !a.is_empty())
}
