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
pub mod managed;
mod merge;
pub mod path;
pub mod set;
mod typed;
mod updater;
mod walk;

use serde_json::{Map, Value};

use crate::codec::schema::Struct;
use crate::resources::status::ApiError;
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
    schema: &'static Struct,
    group: String,
    version: String,
    kind: String,
    subresource: String,
    /// Top-level fields this endpoint resets (`GetResetFields`): never owned through it.
    ignored: Set,
}

/// Where a field manager acts.
pub struct Endpoint<'a> {
    pub schema: &'static Struct,
    pub group: &'a str,
    pub version: &'a str,
    pub kind: &'a str,
    pub subresource: &'a str,
    pub reset_fields: &'a [&'a str],
}

impl FieldManager {
    /// The field manager for an endpoint.
    pub fn new(e: Endpoint<'_>) -> Self {
        let mut ignored = Set::new();
        for f in e.reset_fields {
            ignored.insert(&[PathElement::field(f)]);
        }
        FieldManager {
            schema: e.schema,
            group: e.group.to_string(),
            version: e.version.to_string(),
            kind: e.kind.to_string(),
            subresource: e.subresource.to_string(),
            ignored,
        }
    }

    fn api_version(&self) -> String {
        if self.group.is_empty() {
            self.version.clone()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }

    fn updater(&self) -> Updater {
        Updater {
            root: Tr::Struct(self.schema),
            version: self.api_version(),
            ignored: self.ignored.clone(),
        }
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
            api_version: self.api_version(),
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
        mut new: Map<String, Value>,
        manager: &str,
        now: &str,
    ) -> Map<String, Value> {
        let empty = Value::Object(crate::codec::decode::canonicalize(&Map::new(), self.schema));
        let live = live.unwrap_or(&empty);
        let live_managed = || managed::decode(managed_entries(live)).unwrap_or_default();
        let requested = meta(&new).and_then(|m| m.get("managedFields")).cloned();
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
        if let Some(m) = meta_mut(&mut new) {
            m.shift_remove("managedFields");
        }
        let has_uid = live
            .pointer("/metadata/uid")
            .and_then(Value::as_str)
            .is_some_and(|u| !u.is_empty());
        if base.owners.is_empty() && has_uid {
            // `skipNonApplied`: an object nobody tracks is not tracked by updates.
            return new;
        }
        let managed = self.track_update(live, &Value::Object(new.clone()), base, manager, now);
        set_managed_fields(&mut new, &managed);
        new
    }

    /// The update steps below `skipNonApplied`: the change set of the write, merged into the
    /// writer's entry, then the cap.
    fn track_update(
        &self,
        live: &Value,
        new: &Value,
        mut managed: Managed,
        manager: &str,
        now: &str,
    ) -> Managed {
        const SELF: &str = "current-operation";
        let id = self.id(manager, UPDATE);
        let mut owners = self.updater().update(live, new, managed.owners, SELF);
        if let Some(mut current) = owners.remove(SELF) {
            current.set = current.set.difference(&managed::strip_set());
            if !current.set.is_empty() {
                if let Some(previous) = owners.get(&id) {
                    current.set = current.set.union(&previous.set);
                }
                owners.insert(id.clone(), current);
                managed.times.insert(id, Some(now.to_string()));
            }
        }
        managed.times.retain(|k, _| owners.contains_key(k));
        managed.owners = owners;
        managed::cap_update_managers(&mut managed);
        managed
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
        let empty = Value::Object(crate::codec::decode::canonicalize(&Map::new(), self.schema));
        let live = live.unwrap_or(&empty);
        let mut managed = managed::decode(managed_entries(live))
            .map_err(|e| ApiError::untyped(500, format!("failed to decode managed fields: {e}")))?;
        self.check_type(config)?;
        let mut live_stripped = live.clone();
        if let Some(m) = live_stripped.as_object_mut().and_then(meta_mut) {
            m.shift_remove("managedFields");
        }
        if managed.owners.is_empty() {
            managed =
                self.track_update(&empty, &live_stripped, managed, BEFORE_FIRST_APPLY, req.now);
        }
        let result =
            match self.apply_tracked(&live_stripped, config, managed.clone(), req, req.force) {
                Err(conflicts) if req.manager == "kubectl" => {
                    match conflict::allowed_by_last_applied(self, &live_stripped, &conflicts) {
                        Some(remaining) if remaining.0.is_empty() => {
                            self.apply_tracked(&live_stripped, config, managed, req, true)
                        }
                        Some(remaining) => Err(remaining),
                        None => Err(conflicts),
                    }
                }
                other => other,
            };
        let (object, managed) = result.map_err(conflict::to_error)?;
        let mut out = object.as_object().cloned().unwrap_or_default();
        set_managed_fields(&mut out, &managed);
        if req.manager == "kubectl" {
            update_last_applied(&mut out, config);
        }
        Ok(Value::Object(out))
    }

    /// `versionCheck`, then the structured-merge checks of the configuration.
    fn check_type(&self, config: &Value) -> Result<(), ApiError> {
        let s = |k: &str| config.get(k).and_then(Value::as_str).unwrap_or("");
        let (group, version) = match s("apiVersion").split_once('/') {
            Some((g, v)) => (g.to_string(), v.to_string()),
            None => (String::new(), s("apiVersion").to_string()),
        };
        if group != self.group || version != self.version || s("kind") != self.kind {
            return Err(ApiError::bad_request(format!(
                "invalid object type: {group}/{version}, Kind={}",
                s("kind")
            )));
        }
        if meta(config).is_some_and(|m| {
            m.get("managedFields")
                .is_some_and(|v| !v.is_null() && v.is_array())
        }) {
            return Err(ApiError::bad_request("metadata.managedFields must be nil"));
        }
        let errs = typed::validate(Tr::Struct(self.schema), config, false);
        if !errs.is_empty() {
            let m = meta(config);
            let ms = |k: &str| {
                m.and_then(|m| m.get(k))
                    .and_then(Value::as_str)
                    .unwrap_or("")
            };
            return Err(ApiError::untyped(
                500,
                format!(
                    "failed to create typed patch object ({}/{}; {}/{}, Kind={}): {}",
                    ms("namespace"),
                    ms("name"),
                    group,
                    version,
                    s("kind"),
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
            self.updater()
                .apply(live, config, managed.owners, &id, force)?;
        if let Some(mine) = owners.get_mut(&id) {
            mine.set = mine.set.difference(&managed::strip_set());
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

/// `IgnoreManagedFieldsTimestampsTransformer`: when an update leaves the object as it was
/// except for managedFields times (a field changed and then reset by the kind, or an apply
/// whose merge only differed in an empty map), the old times are kept so nothing is written.
pub fn keep_times_of_unchanged(new: &mut Map<String, Value>, old: &Value) {
    let Some(old_obj) = old.as_object() else {
        return;
    };
    let strip_times = |v: Option<&Value>| -> Option<Vec<Value>> {
        let entries = v?.as_array()?;
        Some(
            entries
                .iter()
                .map(|e| {
                    let mut e = e.clone();
                    if let Some(m) = e.as_object_mut() {
                        m.shift_remove("time");
                    }
                    e
                })
                .collect(),
        )
    };
    let new_mf = meta(new).and_then(|m| m.get("managedFields")).cloned();
    let old_mf = meta(old_obj).and_then(|m| m.get("managedFields")).cloned();
    if new_mf == old_mf || strip_times(new_mf.as_ref()) != strip_times(old_mf.as_ref()) {
        return;
    }
    let mut candidate = new.clone();
    if let Some(m) = meta_mut(&mut candidate) {
        match &old_mf {
            Some(v) => m.insert("managedFields".into(), v.clone()),
            None => m.shift_remove("managedFields"),
        };
    }
    if candidate == *old_obj {
        *new = candidate;
    }
}

fn meta(obj: &impl MetaAccess) -> Option<&Map<String, Value>> {
    obj.metadata()
}

fn meta_mut(obj: &mut Map<String, Value>) -> Option<&mut Map<String, Value>> {
    obj.get_mut("metadata").and_then(Value::as_object_mut)
}

/// Read access to `metadata` of an object or its map.
trait MetaAccess {
    fn metadata(&self) -> Option<&Map<String, Value>>;
}

impl MetaAccess for Value {
    fn metadata(&self) -> Option<&Map<String, Value>> {
        self.get("metadata").and_then(Value::as_object)
    }
}

impl MetaAccess for Map<String, Value> {
    fn metadata(&self) -> Option<&Map<String, Value>> {
        self.get("metadata").and_then(Value::as_object)
    }
}

fn managed_entries(obj: &Value) -> &[Value] {
    obj.pointer("/metadata/managedFields")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[])
}

fn set_managed_fields(obj: &mut Map<String, Value>, managed: &Managed) {
    let entries = managed::encode(managed);
    let m = obj
        .entry("metadata")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Some(m) = m.as_object_mut() {
        if entries.is_empty() {
            m.shift_remove("managedFields");
        } else {
            m.insert("managedFields".into(), Value::Array(entries));
        }
    }
}

/// `lastAppliedUpdater`: server-side apply by `kubectl` keeps an existing last-applied
/// annotation equal to what it applied (never creates one).
fn update_last_applied(obj: &mut Map<String, Value>, config: &Value) {
    let Some(annotations) = meta_mut(obj)
        .and_then(|m| m.get_mut("annotations"))
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
    let text = String::from_utf8(crate::codec::json::to_vec(&sorted(&applied))).unwrap_or_default();
    annotations.insert(LAST_APPLIED.into(), Value::String(text));
}

/// A value with every map's keys sorted, as Go marshals `map[string]interface{}`.
fn sorted(v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            Value::Object(
                keys.into_iter()
                    .map(|k| (k.clone(), sorted(&m[k])))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod prop_tests;
#[cfg(test)]
mod tests;
