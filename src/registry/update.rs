//! Update (`BeforeUpdate` and the storage write): optimistic concurrency, server-owned
//! metadata carried over, the kind's update preparation and validation; a write that changes
//! nothing keeps its resourceVersion, and one that leaves a terminating object without
//! finalizers deletes it (`ShouldDeleteDuringUpdate`).

use serde_json::{Map, Value};

use super::Registry;
use crate::resources::field::FieldError;
use crate::resources::meta::{
    has_finalizers, meta, meta_map, meta_mut, meta_str, parse_rv, parse_uint_error,
};
use crate::resources::status::{ApiError, ApiResult, OPTIMISTIC_LOCK_MSG};
use crate::resources::validation::reset_update_system_fields;
use crate::resources::ResourceInfo;

impl Registry {
    /// The generic store's update of `key` to `obj` (already decoded and canonical).
    pub fn update(
        &mut self,
        info: &'static ResourceInfo,
        key: &str,
        obj: Map<String, Value>,
        w: &super::Write,
    ) -> ApiResult<Value> {
        self.update_ahead(info, key, obj, w, None)
            .map(|written| written.value)
    }

    /// [`Registry::update`] with what was prepared before the engine's lock against a stored
    /// version ([`super::pretrack`]: its field tracking, its validation and the live
    /// object decoded), used only if that version is still the one at `key`; the stored
    /// version comes back too.
    pub fn update_ahead(
        &mut self,
        info: &'static ResourceInfo,
        key: &str,
        obj: Map<String, Value>,
        w: &super::Write,
        mut ahead: Option<super::Pretracked>,
    ) -> ApiResult<super::Written> {
        let Some(current) = self.current_for(info, key, &mut ahead)? else {
            let name = crate::resources::meta::map_meta_str(&obj, "name");
            return Err(ApiError::not_found(info.group_resource(), name));
        };
        self.update_current(info, key, current, obj, w, ahead)
    }

    /// The object at `key`, decoded: the one `ahead` decoded if it was prepared against the
    /// version still stored there, else read now.
    fn current_for(
        &self,
        info: &ResourceInfo,
        key: &str,
        ahead: &mut Option<super::Pretracked>,
    ) -> ApiResult<Option<Value>> {
        let prepared_live = match ahead {
            Some(p) if self.store().corruption(key).is_none() => p.take_live(self.store().get(key)),
            _ => None,
        };
        match prepared_live {
            live @ Some(_) => Ok(live),
            None => self.read_current(info, key),
        }
    }

    /// A PUT (`Store.Update` with the request's object info): the storage precondition a uid
    /// in the body makes (`defaultUpdatedObjectInfo`), checked against the stored object (an
    /// absent one has no uid); then create on update for the kinds that allow it (`sent`: what
    /// the body set, for create validation), else [`Registry::update`]. `true` when it created.
    /// `ahead`: the field tracking prepared before the engine's lock against the object then
    /// stored ([`super::pretrack`]), used with the live object it decoded only if that version
    /// is still the one at `key`.
    pub fn put(
        &mut self,
        info: &'static ResourceInfo,
        key: &str,
        mut obj: Map<String, Value>,
        sent: &crate::resources::Sent,
        w: &super::Write,
        mut ahead: Option<super::Pretracked>,
    ) -> ApiResult<(super::Written, bool)> {
        let current = self.current_for(info, key, &mut ahead)?;
        let name = crate::resources::meta::map_meta_str(&obj, "name").to_string();
        let uid = crate::resources::meta::map_meta_str(&obj, "uid");
        let live_uid = current.as_ref().map_or("", |c| meta_str(c, "uid"));
        if !uid.is_empty() && uid != live_uid {
            return Err(ApiError::conflict(
                info.group_resource(),
                &name,
                &format!("StorageError: invalid object, Code: 4, Key: {key}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: {uid}, UID in object meta: {live_uid}"),
            ));
        }
        match current {
            Some(current) => Ok((
                self.update_current(info, key, current, obj, w, ahead)?,
                false,
            )),
            None if info.strategy.allow_create_on_update() => {
                // The storage reads the body's resourceVersion first (a bad one is the bare
                // ParseUint 500), then creates as a POST would, ignoring it.
                let rv = meta_mut(&mut obj)
                    .shift_remove("resourceVersion")
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default();
                if !rv.is_empty() && parse_rv(&rv).is_none() {
                    return Err(ApiError::untyped(500, parse_uint_error(&rv)));
                }
                let ns = crate::resources::meta::map_meta_str(&obj, "namespace").to_string();
                self.admit_namespace_write(info, &ns, &name)?;
                Ok((self.create(info, obj, sent, w)?, true))
            }
            None => Err(ApiError::not_found(info.group_resource(), &name)),
        }
    }

    /// [`Registry::update`] of the object read as `current` (a patch or apply that read it
    /// under the same lock hands it on rather than have it read twice).
    pub(crate) fn update_current(
        &mut self,
        info: &'static ResourceInfo,
        key: &str,
        current: Value,
        obj: Map<String, Value>,
        w: &super::Write,
        mut ahead: Option<super::Pretracked>,
    ) -> ApiResult<super::Written> {
        let dry_run = w.dry_run;
        let name = crate::resources::meta::map_meta_str(&obj, "name").to_string();
        let prevalidated = ahead
            .as_mut()
            .and_then(|p| p.take_validation(Some(&current), w));
        // Field management runs first, on the request's object against the live one.
        let mut obj = self.track_ahead(info, Some(&current), obj, w, ahead);
        if let Some(old) = current.as_object() {
            let now = self.now_text();
            let by = w.requester(self, &obj, true, &now);
            info.strategy.check_write(info, &by, &obj, Some(old))?;
        }
        let rv = meta_mut(&mut obj)
            .get("resourceVersion")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        if !rv.is_empty() {
            // The versioner's `ObjectResourceVersion`: Go's bare `ParseUint` error, a 500.
            let Some(n) = parse_rv(&rv) else {
                return Err(ApiError::untyped(500, parse_uint_error(&rv)));
            };
            if n.to_string() != meta_str(&current, "resourceVersion") {
                return Err(ApiError::conflict(
                    info.group_resource(),
                    &name,
                    OPTIMISTIC_LOCK_MSG,
                ));
            }
        }
        let no_object = Map::new();
        let old = current.as_object().unwrap_or(&no_object);
        before_update(info, &mut obj, old, &w.subresource);
        // The validation may have been made with the update's preparation.
        let mut errs = match prevalidated {
            Some(errs) if super::managed::managed_fields_valid(&obj) => errs,
            _ => validate_update(info, &obj, old, &w.subresource),
        };
        errs.extend(self.raw_field_change(info, key, &obj, old, w));
        if !errs.is_empty() {
            return Err(ApiError::invalid(info.group_kind(), &name, &errs));
        }
        let mut out = self.write_update(info, key, &current, obj, dry_run)?;
        if !dry_run {
            self.keep_raw_text(info, key, &out, w);
        }
        out.replaced = Some(current);
        Ok(out)
    }

    /// The immutability of the kind's raw field, byte for byte: the stored bytes (the
    /// client's, or the compact JSON the server wrote) against the update's.
    fn raw_field_change(
        &self,
        info: &ResourceInfo,
        key: &str,
        new: &Map<String, Value>,
        old: &Map<String, Value>,
        w: &super::Write,
    ) -> Option<FieldError> {
        let field = info.strategy.raw_field()?;
        fn value_of<'a>(m: &'a Map<String, Value>, field: &str) -> Option<&'a Value> {
            m.get(field).filter(|v| !v.is_null())
        }
        if w.raw_text.is_none()
            && self.store().raw_text(key).is_none()
            && value_of(old, field) == value_of(new, field)
        {
            // Equal values write equal compact JSON: neither is encoded (a 3 MiB field would
            // be, twice, under the engine's lock).
            return None;
        }
        let compact = |m: &Map<String, Value>| match m.get(field) {
            None | Some(Value::Null) => String::new(),
            Some(v) => crate::codec::json::to_compact_string(v),
        };
        let stored = self
            .store()
            .raw_text(key)
            .map_or_else(|| compact(old), str::to_string);
        let sent = w.raw_text.clone().unwrap_or_else(|| compact(new));
        (stored != sent).then(|| {
            let value = new.get(field).cloned().unwrap_or(Value::Null);
            FieldError::invalid(field, value, "field is immutable")
        })
    }

    /// Records the client's bytes of the kind's raw field for the value a client just wrote
    /// at `key` when they are not its compact JSON, and forgets older bytes otherwise.
    pub(super) fn keep_raw_text(
        &mut self,
        info: &ResourceInfo,
        key: &str,
        written: &super::Written,
        w: &super::Write,
    ) {
        let Some(field) = info.strategy.raw_field() else {
            return;
        };
        // The field's compact JSON is written only to compare it with bytes the client sent
        // (the body's decoder already left out bytes that were its value's compact JSON).
        let text = w.raw_text.as_deref().filter(|t| {
            written
                .value
                .get(field)
                .map(crate::codec::json::to_compact_string)
                .as_deref()
                != Some(*t)
        });
        self.store.set_raw_text(key, text);
    }

    /// A write through a subresource the kind stores itself (a Namespace's `finalize`): the
    /// kind builds the object to write from the current one and `request`, whose fields the
    /// write is attributed by. `None` when the kind does not serve `subresource` itself (it
    /// is then written as the main resource is).
    pub fn update_own_subresource(
        &mut self,
        info: &'static ResourceInfo,
        key: &str,
        name: &str,
        subresource: &str,
        request: Map<String, Value>,
        w: &super::Write,
    ) -> ApiResult<Option<Value>> {
        let Some(current) = self.read_current(info, key)? else {
            return Err(ApiError::not_found(info.group_resource(), name));
        };
        let current_map = current.as_object().cloned().unwrap_or_default();
        let Some(next) = info
            .strategy
            .update_subresource(subresource, &current_map, &request)
        else {
            return Ok(None);
        };
        let next = self.track_into(info, &current, request, next, w);
        self.write_update(info, key, &current, next, w.dry_run)
            .map(|written| Some(written.value))
    }

    /// Writes an already validated update: no-op detection, deletion of a terminating object
    /// left without finalizers, otherwise a new revision, whose stored version comes back too
    /// (its JSON, encoded once when stored, is what a PUT's reply sends).
    pub(super) fn write_update(
        &mut self,
        info: &'static ResourceInfo,
        key: &str,
        current: &Value,
        obj: Map<String, Value>,
        dry_run: bool,
    ) -> ApiResult<super::Written> {
        use super::Written;
        let mut obj = obj;
        let current_rv = meta_str(current, "resourceVersion").to_string();
        meta_mut(&mut obj).insert("resourceVersion".into(), Value::String(current_rv));
        let mut obj = info.canonicalize_owned(obj);
        crate::fieldmanager::keep_times_of_unchanged(&mut obj, current);
        let obj = Value::Object(obj);
        // A write that changes nothing is not made. etcd compares bytes: a custom resource
        // is compared with what is stored, not with its read form (a default added since
        // is written).
        // (Different from its read form, it differs from the stored bytes too: the stored
        // ones are decoded only for what reads unchanged.)
        let unchanged = obj == *current
            && (info.custom.is_none() || self.store().get(key).is_some_and(|s| s.decode() == obj));
        if unchanged {
            return Ok(Written::answer(obj));
        }
        let terminating = !meta_str(&obj, "deletionTimestamp").is_empty();
        let grace = meta(&obj)
            .get("deletionGracePeriodSeconds")
            .and_then(Value::as_i64)
            .unwrap_or(0);
        if terminating
            && grace == 0
            && !has_finalizers(&obj)
            && !info.strategy.has_kind_finalizers(&obj)
        {
            // `ShouldDeleteDuringUpdate`: the last finalizer is gone, so the object is.
            if !dry_run {
                self.commit_delete(key);
            }
            return Ok(Written::answer(obj));
        }
        if dry_run {
            return Ok(Written::answer(obj));
        }
        let rev = self.store().next_revision();
        let mut obj = obj;
        if let Some(m) = obj.as_object_mut() {
            meta_mut(m).insert("resourceVersion".into(), Value::String(rev.to_string()));
        }
        let stored = self.commit_put(key, &obj);
        Ok(Written {
            value: obj,
            stored: Some(stored),
            replaced: None,
        })
    }
}

/// `BeforeUpdate`'s shaping of `obj` against the stored `old` before validation:
/// server-owned metadata comes from the stored object, an unconditional update is validated
/// as if it carried the current resourceVersion, then the kind's preparation for an update
/// through `subresource`.
pub(super) fn before_update(
    info: &ResourceInfo,
    obj: &mut Map<String, Value>,
    old: &Map<String, Value>,
    subresource: &str,
) {
    let old_meta = meta_map(old);
    let m = meta_mut(obj);
    let unconditional = m
        .get("resourceVersion")
        .and_then(Value::as_str)
        .unwrap_or("")
        .is_empty();
    reset_update_system_fields(m, &old_meta);
    if unconditional {
        if let Some(r) = old_meta.get("resourceVersion") {
            m.insert("resourceVersion".into(), r.clone());
        }
    }
    info.strategy.prepare_for_update(obj, old, subresource);
}

/// `BeforeUpdate`'s validation: the generic ObjectMeta update rules, then the kind's
/// (`Strategy::validate_update`).
pub(super) fn validate_update(
    info: &ResourceInfo,
    new: &Map<String, Value>,
    old: &Map<String, Value>,
    subresource: &str,
) -> Vec<FieldError> {
    use crate::resources::validation::validate_common_fields_for_update;
    let (new_meta, old_meta) = (meta_map(new), meta_map(old));
    let mut errs = validate_common_fields_for_update(&new_meta, &old_meta, info.namespaced);
    errs.extend(
        info.strategy
            .validate_subresource_update(new, old, subresource),
    );
    errs
}
