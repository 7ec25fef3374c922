//! Delete (reference §11): preconditions, the propagation policy's GC finalizers, then
//! either two-phase deletion — an object with finalizers (or one its kind keeps while it
//! terminates, a Namespace) gets a `deletionTimestamp` and stays until a write removes the
//! last finalizer — or removal at once.

use serde_json::{json, Map, Value};

use super::{ListOptions, Registry};
use crate::codec::rfc3339;
use crate::resources::meta::{map_has_finalizers, meta_mut, meta_str, set_finalizers, strings};
use crate::resources::status::{ApiError, ApiResult, GroupKind};
use crate::resources::{GcPolicy, ResourceInfo};

/// Decoded and validated `DeleteOptions`.
#[derive(Debug, Clone, Default)]
pub struct DeleteOptions {
    /// `dryRun=All`: nothing is persisted.
    pub dry_run: bool,
    pub propagation: Option<String>,
    pub orphan_dependents: Option<bool>,
    pub precondition_uid: Option<String>,
    pub precondition_rv: Option<String>,
    /// `gracePeriodSeconds`, when given.
    pub grace_period: Option<i64>,
}

use crate::resources::validation::meta_fields::{
    FINALIZER_FOREGROUND as FOREGROUND, FINALIZER_ORPHAN as ORPHAN,
};

/// What a delete did.
#[derive(Debug, Clone, PartialEq)]
pub enum Deleted {
    /// The object is gone; this was its last state.
    Gone(Value),
    /// The object stays, terminating, until its finalizers are removed: its new state.
    Terminating(Value),
}

impl Registry {
    /// `DeleteCollection`: lists the collection with `list` (selectors, semantic), then
    /// deletes each object as [`Registry::delete`] does, skipping ones already gone. Returns
    /// each deleted object's final state and the list's resourceVersion.
    pub fn delete_collection(
        &mut self,
        info: &'static ResourceInfo,
        namespace: Option<&str>,
        list: &ListOptions,
        opts: &DeleteOptions,
    ) -> ApiResult<(Vec<Value>, u64)> {
        let listed = self.list(info, namespace, list)?;
        let mut deleted = Vec::new();
        for item in &listed.items {
            let item = item.decode();
            let name = meta_str(&item, "name").to_string();
            let key = info.key(meta_str(&item, "namespace"), &name);
            match self.delete(info, &key, &name, opts) {
                Ok(Deleted::Gone(_)) => deleted.push(item),
                Ok(Deleted::Terminating(obj)) => deleted.push(obj),
                Err(e) if e.code == 404 => {}
                Err(e) => return Err(e),
            }
        }
        Ok((deleted, listed.rv))
    }

    /// The generic store's delete, shared by DELETE, deletecollection and the controllers.
    /// A kind that finalizes itself (a Namespace) is marked terminating first, as its
    /// strategy says.
    pub fn delete(
        &mut self,
        info: &'static ResourceInfo,
        key: &str,
        name: &str,
        opts: &DeleteOptions,
    ) -> ApiResult<Deleted> {
        let Some(current) = self.read_current(info, key)? else {
            return Err(ApiError::not_found(info.group_resource(), name));
        };
        check_preconditions(info, name, &current, opts)?;
        // Admission runs as the storage's delete validation, after the read and the
        // preconditions, for every deleter (the garbage collector's deletes are admitted as a
        // client's are).
        self.admit_delete(info, name)?;
        let mut obj = current.as_object().cloned().unwrap_or_default();
        let now = self.now_text();
        if info.strategy.delete_marks_terminating(&current) {
            let m = meta_mut(&mut obj);
            m.entry("deletionTimestamp")
                .or_insert_with(|| Value::String(now.clone()));
            m.entry("deletionGracePeriodSeconds").or_insert(json!(0));
            apply_gc_finalizers(m, opts, info.strategy.default_gc_policy());
            info.strategy.prepare_for_terminating(&mut obj);
            let out = self
                .write_update(info, key, &current, obj, opts.dry_run)?
                .value;
            return Ok(Deleted::Terminating(out));
        }
        apply_gc_finalizers(meta_mut(&mut obj), opts, info.strategy.default_gc_policy());
        // `BeforeDelete` for a kind with graceful deletion: the object stays until its grace
        // period is over (whoever owns it then deletes it with grace 0). A later delete may
        // only shorten the period; one that does not leaves the object as it is.
        if let Some(grace) = info
            .strategy
            .graceful_delete_seconds(&current, opts.grace_period)
        {
            let m = meta_mut(&mut obj);
            if meta_str(&current, "deletionTimestamp").is_empty() {
                if grace > 0 {
                    let until = self.clock().now_secs() + grace;
                    m.insert("deletionTimestamp".into(), json!(rfc3339::format(until)));
                    m.insert("deletionGracePeriodSeconds".into(), json!(grace));
                    let generation = m.get("generation").and_then(Value::as_i64).unwrap_or(0);
                    if generation > 0 {
                        m.insert("generation".into(), json!(generation + 1));
                    }
                    let out = self
                        .write_update(info, key, &current, obj, opts.dry_run)?
                        .value;
                    return Ok(Deleted::Terminating(out));
                }
            } else {
                let period = m.get("deletionGracePeriodSeconds").and_then(Value::as_i64);
                let Some(period) = period.filter(|p| grace < *p) else {
                    return Ok(Deleted::Terminating(current));
                };
                let since = rfc3339::parse(meta_str(&current, "deletionTimestamp"))
                    .unwrap_or_else(|_| self.clock().now_secs() + period);
                let until = since - period + grace;
                m.insert("deletionTimestamp".into(), json!(rfc3339::format(until)));
                m.insert("deletionGracePeriodSeconds".into(), json!(grace));
                if grace > 0 {
                    let out = self
                        .write_update(info, key, &current, obj, opts.dry_run)?
                        .value;
                    return Ok(Deleted::Terminating(out));
                }
            }
        }
        if map_has_finalizers(&obj) {
            let m = meta_mut(&mut obj);
            let keep_earlier = m
                .get("deletionTimestamp")
                .and_then(Value::as_str)
                .is_some_and(|t| !t.is_empty());
            if !keep_earlier {
                m.insert("deletionTimestamp".into(), Value::String(now));
            }
            m.insert("deletionGracePeriodSeconds".into(), json!(0));
            // `markAsDeleting`: only the delete that marks it bumps the generation.
            let generation = m.get("generation").and_then(Value::as_i64).unwrap_or(0);
            if generation > 0 && !keep_earlier {
                m.insert("generation".into(), json!(generation + 1));
            }
            let out = self
                .write_update(info, key, &current, obj, opts.dry_run)?
                .value;
            return Ok(Deleted::Terminating(out));
        }
        if !opts.dry_run {
            self.commit_delete(key);
        }
        Ok(Deleted::Gone(current))
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

/// Adds or removes `orphan` / `foregroundDeletion` as `deletionFinalizersForGarbageCollection`
/// does: an explicit policy decides; without one, existing GC finalizers stay, else the
/// kind's default applies (`OrphanDependents` adds `orphan`); a kind outside garbage
/// collection keeps neither.
fn apply_gc_finalizers(m: &mut Map<String, Value>, opts: &DeleteOptions, default: GcPolicy) {
    let mut fins = strings(m.get("finalizers"));
    if default == GcPolicy::Unsupported {
        let before = fins.len();
        fins.retain(|f| f != ORPHAN && f != FOREGROUND);
        if fins.len() != before {
            set_finalizers(m, fins);
        }
        return;
    }
    let policy = match (&opts.propagation, opts.orphan_dependents) {
        (Some(p), _) => Some(p.as_str()),
        (None, Some(true)) => Some("Orphan"),
        (None, Some(false)) => Some("Background"),
        (None, None) => {
            let has_gc = fins.iter().any(|f| f == ORPHAN || f == FOREGROUND);
            (default == GcPolicy::OrphanDependents && !has_gc).then_some("Orphan")
        }
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
    set_finalizers(m, fins);
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
            apply_gc_finalizers(&mut m, &opts, GcPolicy::DeleteDependents);
            assert_eq!(m["finalizers"], json!(want), "{p:?} {o:?}");
        }
    }

    #[test]
    fn the_kinds_default_applies_only_without_a_policy_or_gc_finalizer() {
        let run = |fins: Value, policy: Option<&str>, default: GcPolicy| {
            let mut m = Map::new();
            m.insert("finalizers".into(), fins);
            let opts = DeleteOptions {
                propagation: policy.map(str::to_string),
                ..DeleteOptions::default()
            };
            apply_gc_finalizers(&mut m, &opts, default);
            m.get("finalizers").cloned().unwrap_or(Value::Null)
        };
        use GcPolicy::*;
        assert_eq!(
            run(json!(["a"]), None, OrphanDependents),
            json!(["a", ORPHAN])
        );
        assert_eq!(
            run(json!([FOREGROUND]), None, OrphanDependents),
            json!([FOREGROUND])
        );
        assert_eq!(
            run(json!(["a"]), Some("Background"), OrphanDependents),
            json!(["a"])
        );
        assert_eq!(run(json!(["a"]), None, DeleteDependents), json!(["a"]));
        assert_eq!(
            run(json!(["a", ORPHAN]), Some("Orphan"), Unsupported),
            json!(["a"])
        );
        assert_eq!(run(json!([ORPHAN]), None, Unsupported), Value::Null);
    }
}
