//! Field management: `metadata.managedFields` on every write, and server-side apply, as
//! kube-apiserver's field manager (k8s.io/apimachinery `pkg/util/managedfields`) and
//! structured-merge-diff do it.
//!
//! The Go field manager is a chain of decorators; this module runs the same steps in the
//! same order for the two operations:
//!
//! - **update** (create, PUT, JSON/merge/strategic PATCH): pick the base owners (the live
//!   object's unless the request resets them with `[]`), stop tracking when an existing object
//!   has none, give the writer what it changed (stripped of server-owned metadata) and take it
//!   from everyone else, stamp the writer's entry if it changed anything, cap Update entries.
//! - **apply**: check the configuration's type, attribute untracked fields to
//!   `before-first-apply`, merge, prune what the applier dropped, refuse changes to fields
//!   others own unless forced (with kubectl's client-side-apply upgrade), stamp and keep
//!   `kubectl.kubernetes.io/last-applied-configuration` current for `kubectl`.
//!
//! The set, path, walk and merge code is written to give structured-merge-diff's results
//! byte for byte (FieldsV1 keys and order, conflict paths), so it is hand-written.

mod conflict;
mod convert;
pub mod managed;
mod merge;
pub mod path;
pub mod set;
mod typed;
mod updater;
mod walk;

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::resources::meta::meta_mut;
use crate::resources::status::ApiError;
use crate::resources::ResourceInfo;
use managed::{Managed, Manager, APPLY, UPDATE};
use path::PathElement;
use set::Set;
use typed::Tr;
use updater::{Owners, Updater};

/// The last-applied annotation client-side `kubectl apply` keeps.
pub const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// The manager name of the entry that owns what existed before the first apply.
pub const BEFORE_FIRST_APPLY: &str = "before-first-apply";

/// The field manager of one endpoint: a kind at its apiVersion, through the main resource or
/// a subresource.
pub struct FieldManager {
    info: &'static ResourceInfo,
    subresource: String,
    /// The kind's schema at the endpoint's apiVersion, and the top-level fields the endpoint
    /// resets (`GetResetFields`), which nobody comes to own through it.
    updater: Updater,
}

impl FieldManager {
    /// The field manager of `info` through `subresource` ("" for the main resource).
    pub fn new(info: &'static ResourceInfo, subresource: &str) -> Self {
        let mut ignored = Set::new();
        for f in info.strategy.reset_fields(subresource) {
            ignored.insert(&[PathElement::field(f)]);
        }
        FieldManager {
            info,
            subresource: subresource.to_string(),
            updater: Updater {
                root: Tr::Struct(info.schema),
                version: info.api_version(),
                ignored,
            },
        }
    }

    /// The endpoint's apiVersion (`apps/v1`).
    fn api_version(&self) -> &str {
        &self.updater.version
    }

    /// The kind's zero object, which a create is compared against (`Creater.New`).
    fn empty(&self) -> Value {
        Value::Object(crate::codec::decode::canonicalize(
            &Map::new(),
            self.info.schema,
        ))
    }

    fn id(&self, manager: &str, operation: &str) -> String {
        Manager {
            manager: if manager.is_empty() {
                "unknown"
            } else {
                manager
            }
            .to_string(),
            operation: operation.to_string(),
            api_version: self.api_version().to_string(),
            subresource: self.subresource.clone(),
        }
        .identifier()
    }

    /// The object `new` with the managedFields a non-apply write by `manager` leaves, `live`
    /// being the current object (`None` on create). Never fails: unreadable managedFields are
    /// replaced by the live object's (`UpdateNoErrors`).
    pub fn update(
        &self,
        live: Option<&Value>,
        new: Map<String, Value>,
        manager: &str,
        now: &str,
    ) -> Map<String, Value> {
        let (new, tracking) = self.prepare_update(live, new, manager);
        tracking.finish(new, now)
    }

    /// [`FieldManager::update`] up to the time it stamps: `new` without its managedFields,
    /// and the [`Tracking`] that [`Tracking::finish`] completes. Everything that walks the
    /// object (the change set, the FieldsV1 encoding) happens here, so a host may run it before
    /// the engine's lock, with only the stamp and the entries' order left for the write.
    pub fn prepare_update(
        &self,
        live: Option<&Value>,
        mut new: Map<String, Value>,
        manager: &str,
    ) -> (Map<String, Value>, Tracking) {
        let empty;
        let live = match live {
            Some(l) => l,
            None => {
                empty = self.empty();
                &empty
            }
        };
        let live_managed = || managed::decode(managed_entries(live)).unwrap_or_default();
        let requested = meta_mut(&mut new).shift_remove("managedFields");
        let base = if !self.subresource.is_empty() {
            live_managed()
        } else if managed::is_reset(requested.as_ref()) {
            Managed::default()
        } else {
            match requested
                .as_ref()
                .and_then(Value::as_array)
                .map(|e| managed::decode(e))
            {
                Some(Ok(m)) if !m.owners.is_empty() => m,
                _ => live_managed(),
            }
        };
        if base.owners.is_empty() && !crate::resources::meta::meta_str(live, "uid").is_empty() {
            // `skipNonApplied`: an object nobody tracks is not tracked by updates.
            return (new, Tracking::default());
        }
        let new = Value::Object(new);
        let (managed, stamp) = self.changes(live, &new, base, manager);
        let Value::Object(new) = new else {
            unreachable!("built as an object above")
        };
        let fields_v1 = crate::sort::btree_map(
            managed
                .owners
                .iter()
                .map(|(id, owned)| (id.clone(), owned.set.to_fields_v1())),
        );
        let tracking = Tracking {
            managed: Some(managed),
            stamp,
            fields_v1,
        };
        (new, tracking)
    }

    /// The update steps below `skipNonApplied`: the change set of the write, merged into the
    /// writer's entry, stamped at `now`, then the cap.
    fn track_update(
        &self,
        live: &Value,
        new: &Value,
        managed: Managed,
        manager: &str,
        now: &str,
    ) -> Managed {
        let (mut managed, stamp) = self.changes(live, new, managed, manager);
        stamp_and_cap(&mut managed, stamp, now);
        managed
    }

    /// The owners after a write by `manager` that changes `live` into `new`, and the writer's
    /// identifier when it changed something it now owns (the entry to stamp).
    fn changes(
        &self,
        live: &Value,
        new: &Value,
        mut managed: Managed,
        manager: &str,
    ) -> (Managed, Option<String>) {
        const SELF: &str = "current-operation";
        let id = self.id(manager, UPDATE);
        let mut owners = self.updater.update(live, new, managed.owners, SELF);
        let mut stamp = None;
        if let Some(mut current) = owners.remove(SELF) {
            current.set.subtract(managed::strip_set());
            if !current.set.is_empty() {
                if let Some(previous) = owners.get(&id) {
                    current.set.union_with(&previous.set);
                }
                owners.insert(id.clone(), current);
                stamp = Some(id);
            }
        }
        managed.owners = owners;
        (managed, stamp)
    }
}

/// Stamps the writer's entry with `now`, forgets the times of owners that are gone, and caps
/// the Update entries; whether the cap merged any.
fn stamp_and_cap(managed: &mut Managed, stamp: Option<String>, now: &str) -> bool {
    if let Some(id) = stamp {
        managed.times.insert(id, Some(now.to_string()));
    }
    managed.times.retain(|k, _| managed.owners.contains_key(k));
    managed::cap_update_managers(managed)
}

/// A non-apply write's field tracking, prepared ([`FieldManager::prepare_update`]) but not
/// yet stamped with the write's time.
#[derive(Debug, Default)]
pub struct Tracking {
    /// The owners after the write; `None` when the object is not tracked (`skipNonApplied`).
    managed: Option<Managed>,
    /// The writer's entry, when the write changed something it now owns.
    stamp: Option<String>,
    /// Each owner's fields, encoded.
    fields_v1: BTreeMap<String, Value>,
}

impl Tracking {
    /// `new` (the object prepared, or one that differs from it only in server-owned metadata)
    /// with the managedFields the write leaves at `now`.
    pub fn finish(self, mut new: Map<String, Value>, now: &str) -> Map<String, Value> {
        meta_mut(&mut new).shift_remove("managedFields");
        let Some(mut managed) = self.managed else {
            return new;
        };
        let capped = stamp_and_cap(&mut managed, self.stamp, now);
        // The cap merges the oldest entries' fields into others: encode those anew.
        let mut fields_v1 = self.fields_v1;
        if capped {
            fields_v1.clear();
        }
        set_managed_fields_with(&mut new, &managed, fields_v1);
        new
    }
}

/// An apply request.
pub struct ApplyRequest<'a> {
    pub manager: &'a str,
    pub force: bool,
    pub now: &'a str,
}

impl FieldManager {
    /// Applies `config` to `live` (`None`: the object does not exist yet). The result carries
    /// its managedFields; it equals `live` when the apply changed nothing.
    pub fn apply(
        &self,
        live: Option<&Value>,
        config: &Value,
        req: &ApplyRequest<'_>,
    ) -> Result<Value, ApiError> {
        let empty = self.empty();
        let live = live.unwrap_or(&empty);
        let mut managed = managed::decode(managed_entries(live))
            .map_err(|e| ApiError::untyped(500, format!("failed to decode managed fields: {e}")))?;
        self.check_type(config)?;
        let mut live_stripped = live.clone();
        if let Some(m) = live_stripped.as_object_mut() {
            meta_mut(m).shift_remove("managedFields");
        }
        if managed.owners.is_empty() {
            managed =
                self.track_update(&empty, &live_stripped, managed, BEFORE_FIRST_APPLY, req.now);
        }
        // Only kubectl's retry (below) needs the tracking a second time.
        let retry = (req.manager == "kubectl").then(|| managed.clone());
        let first = self.apply_tracked(&live_stripped, config, managed, req, req.force);
        let result = match (first, retry) {
            (Err(conflicts), Some(managed)) => {
                match conflict::allowed_by_last_applied(self, &live_stripped, &conflicts) {
                    Some(remaining) if remaining.0.is_empty() => {
                        self.apply_tracked(&live_stripped, config, managed, req, true)
                    }
                    Some(remaining) => Err(remaining),
                    None => Err(conflicts),
                }
            }
            (other, _) => other,
        };
        let (mut object, managed) = result.map_err(conflict::to_error)?;
        convert::to_versioned(self.updater.root, &mut object).map_err(|e| {
            let gvk = gvk_text(config);
            ApiError::untyped(
                500,
                format!(
                    "failed to convert new object ({}; {gvk}) to proper version: unable to \
                     convert unstructured object to {gvk}: {e}",
                    nn_text(config)
                ),
            )
        })?;
        let Value::Object(mut out) = object else {
            unreachable!("an object merged into an object is an object")
        };
        set_managed_fields(&mut out, &managed);
        if req.manager == "kubectl" {
            update_last_applied(&mut out, config);
        }
        Ok(Value::Object(out))
    }

    /// `versionCheck`, then the structured-merge checks of the configuration.
    fn check_type(&self, config: &Value) -> Result<(), ApiError> {
        let s = |k: &str| config.get(k).and_then(Value::as_str).unwrap_or("");
        if s("apiVersion") != self.api_version() || s("kind") != self.info.kind {
            return Err(ApiError::bad_request(format!(
                "invalid object type: {}",
                gvk_text(config)
            )));
        }
        // `GetManagedFields` reads anything but a list as nil.
        if crate::resources::meta::meta(config)
            .get("managedFields")
            .is_some_and(Value::is_array)
        {
            return Err(ApiError::bad_request("metadata.managedFields must be nil"));
        }
        let errs = typed::validate(self.updater.root, config, false);
        if !errs.is_empty() {
            return Err(ApiError::untyped(
                500,
                format!(
                    "failed to create typed patch object ({}; {}): {}",
                    nn_text(config),
                    gvk_text(config),
                    typed::errors_text(&errs)
                ),
            ));
        }
        Ok(())
    }

    /// The apply steps below `skipNonApplied`.
    fn apply_tracked(
        &self,
        live: &Value,
        config: &Value,
        mut managed: Managed,
        req: &ApplyRequest<'_>,
        force: bool,
    ) -> Result<(Value, Managed), updater::Conflicts> {
        let id = self.id(req.manager, APPLY);
        let (object, mut owners): (Option<Value>, Owners) =
            self.updater
                .apply(live, config, managed.owners, &id, force)?;
        if let Some(mine) = owners.get_mut(&id) {
            mine.set.subtract(managed::strip_set());
            if mine.set.is_empty() {
                owners.remove(&id);
            }
        }
        managed.times.retain(|k, _| owners.contains_key(k));
        managed.owners = owners;
        let object = match object {
            Some(o) => {
                managed.times.insert(id, Some(req.now.to_string()));
                o
            }
            None => live.clone(),
        };
        Ok((object, managed))
    }
}

/// An applied configuration's `schema.GroupVersionKind` as Go prints it.
fn gvk_text(config: &Value) -> String {
    let s = |k: &str| config.get(k).and_then(Value::as_str).unwrap_or("");
    crate::resources::meta::gvk_string(s("apiVersion"), s("kind"))
}

/// An applied configuration's `namespace/name`, as `objectGVKNN` prints it.
fn nn_text(config: &Value) -> String {
    let ms = |k: &str| crate::resources::meta::meta_str(config, k);
    format!("{}/{}", ms("namespace"), ms("name"))
}

/// `IgnoreManagedFieldsTimestampsTransformer`: when an update leaves the object as it was
/// except for managedFields times (a field changed and then reset by the kind, or an apply
/// whose merge only differed in an empty map), the old times are kept so nothing is written.
pub fn keep_times_of_unchanged(new: &mut Map<String, Value>, old: &Value) {
    let Some(old_obj) = old.as_object() else {
        return;
    };
    let entries = |m: &Map<String, Value>| -> Option<Vec<Value>> {
        m.get("metadata")?.get("managedFields")?.as_array().cloned()
    };
    let same_but_times = |a: &[Value], b: &[Value]| {
        a.len() == b.len()
            && a.iter().zip(b).all(|(x, y)| {
                let (Some(x), Some(y)) = (x.as_object(), y.as_object()) else {
                    return x == y;
                };
                x.len() == y.len() && x.iter().all(|(k, v)| k == "time" || y.get(k) == Some(v))
            })
    };
    let new_entries = new.get("metadata").and_then(|m| m.get("managedFields"));
    let old_entries = old.get("metadata").and_then(|m| m.get("managedFields"));
    let (Some(Value::Array(n)), Some(Value::Array(o))) = (new_entries, old_entries) else {
        return;
    };
    // The rest of the object first: an update that changes something stops there, before
    // the entries (whose FieldsV1 cover the whole object) are compared.
    if !equal_but_managed_fields(new, old_obj) || n == o || !same_but_times(n, o) {
        return;
    }
    // Equal apart from the times.
    let restored = entries(old_obj);
    meta_mut(new).insert(
        "managedFields".into(),
        Value::Array(restored.unwrap_or_default()),
    );
}

/// Whether two objects are equal when their `metadata.managedFields` are left out (members
/// in any order, as `Value`'s equality).
fn equal_but_managed_fields(a: &Map<String, Value>, b: &Map<String, Value>) -> bool {
    let without = |m: &Map<String, Value>| m.len() - usize::from(m.contains_key("managedFields"));
    let same_meta = |x: &Value, y: &Value| match (x, y) {
        (Value::Object(x), Value::Object(y)) => {
            without(x) == without(y)
                && x.iter()
                    .all(|(k, v)| k == "managedFields" || y.get(k) == Some(v))
        }
        _ => x == y,
    };
    a.len() == b.len()
        && a.iter().all(|(k, v)| match b.get(k) {
            Some(w) if k == "metadata" => same_meta(v, w),
            Some(w) => v == w,
            None => false,
        })
}

fn managed_entries(obj: &Value) -> &[Value] {
    obj.pointer("/metadata/managedFields")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[])
}

fn set_managed_fields(obj: &mut Map<String, Value>, managed: &Managed) {
    set_managed_fields_with(obj, managed, BTreeMap::new());
}

/// [`set_managed_fields`] with owners' fields already encoded (by manager identifier).
fn set_managed_fields_with(
    obj: &mut Map<String, Value>,
    managed: &Managed,
    fields_v1: BTreeMap<String, Value>,
) {
    let entries = managed::encode_with(managed, fields_v1);
    let m = meta_mut(obj);
    if entries.is_empty() {
        m.shift_remove("managedFields");
    } else {
        m.insert("managedFields".into(), Value::Array(entries));
    }
}

/// `lastAppliedUpdater`: server-side apply by `kubectl` keeps an existing last-applied
/// annotation equal to what it applied (never creates one).
fn update_last_applied(obj: &mut Map<String, Value>, config: &Value) {
    let Some(annotations) = meta_mut(obj)
        .get_mut("annotations")
        .and_then(Value::as_object_mut)
    else {
        return;
    };
    if annotations
        .get(LAST_APPLIED)
        .and_then(Value::as_str)
        .is_none_or(str::is_empty)
    {
        return;
    }
    let mut applied = config.clone();
    if let Some(a) = applied
        .pointer_mut("/metadata/annotations")
        .and_then(Value::as_object_mut)
    {
        a.shift_remove(LAST_APPLIED);
    }
    let text = String::from_utf8(crate::codec::json::to_vec(
        &crate::codec::json::sorted_keys(&applied),
    ))
    .unwrap_or_default();
    annotations.insert(LAST_APPLIED.into(), Value::String(text));
}

#[cfg(test)]
mod prop_tests;
#[cfg(test)]
mod tests;
