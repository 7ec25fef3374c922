//! Ownership bookkeeping (structured-merge-diff's `merge.Updater`): who owns which fields
//! after an update, and the object and owners after an apply — merge, prune of what the
//! applier dropped, conflicts with other owners.
//!
//! kubesim serves one version per kind, so the conversions of the Go updater are identities,
//! and an owner recorded at another apiVersion is dropped, as Go drops owners whose version
//! no longer exists.

use std::collections::BTreeMap;

use serde_json::Value;

use super::merge::{merge, remove_items};
use super::set::Set;
use super::typed::Tr;
use super::walk::{compare, to_field_set, Comparison};

/// One owner's fields: what it owns, at which apiVersion, and whether by apply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Owned {
    pub set: Set,
    pub api_version: String,
    pub applied: bool,
}

/// The owners of an object, by manager identifier.
pub type Owners = BTreeMap<String, Owned>;

/// Fields another manager owns that a forceless apply would change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflicts(pub Owners);

/// The typed context of one update or apply.
pub struct Updater {
    /// The object's root type.
    pub root: Tr,
    /// The endpoint's apiVersion.
    pub version: String,
    /// Fields nobody may own through this endpoint (a main resource's `status`).
    pub ignored: Set,
}

impl Updater {
    fn current(&self, mut owners: Owners) -> Owners {
        owners.retain(|_, o| o.api_version == self.version);
        owners
    }

    /// `update`: the comparison of `old` and `new` (reset fields excluded), and the owners
    /// after every manager but `workflow` loses what changed and what was removed. The
    /// changed fields others owned come back too: they conflict for an unforced apply.
    fn settle(
        &self,
        old: &Value,
        new: &Value,
        mut owners: Owners,
        workflow: &str,
    ) -> (Owners, Comparison, Owners) {
        let mut cmp = compare(self.root, old, new);
        cmp.added.subtract_recursive(&self.ignored);
        cmp.modified.subtract_recursive(&self.ignored);
        cmp.removed.subtract_recursive(&self.ignored);
        // Built only when another manager may lose fields (never on a create).
        let mut changed: Option<Set> = None;
        let mut conflicts = Owners::new();
        for (manager, owned) in owners.iter_mut() {
            if manager == workflow {
                continue;
            }
            let changed = changed.get_or_insert_with(|| cmp.modified.union(&cmp.added));
            let conflict = owned.set.intersection(changed);
            owned.set.subtract(&conflict);
            owned.set.subtract(&cmp.removed);
            if !conflict.is_empty() {
                conflicts.insert(
                    manager.clone(),
                    Owned {
                        set: conflict,
                        api_version: owned.api_version.clone(),
                        applied: false,
                    },
                );
            }
        }
        owners.retain(|_, o| !o.set.is_empty());
        (owners, cmp, conflicts)
    }

    /// After a non-apply write from `old` to `new`: `manager` owns what it changed.
    pub fn update(&self, old: &Value, new: &Value, owners: Owners, manager: &str) -> Owners {
        let (mut owners, cmp, _) = self.settle(old, new, self.current(owners), manager);
        let mut set = owners.remove(manager).map(|o| o.set).unwrap_or_default();
        set.subtract(&cmp.removed);
        if set.is_empty() {
            set = cmp.added;
        } else {
            set.union_with(&cmp.added);
        }
        set.union_with(&cmp.modified);
        set.subtract_recursive(&self.ignored);
        if !set.is_empty() {
            owners.insert(
                manager.to_string(),
                Owned {
                    set,
                    api_version: self.version.clone(),
                    applied: false,
                },
            );
        }
        owners
    }

    /// Applies `config` to `live`: the merged and pruned object (`None` when it equals
    /// `live`) and the new owners.
    pub fn apply(
        &self,
        live: &Value,
        config: &Value,
        owners: Owners,
        manager: &str,
        force: bool,
    ) -> Result<(Option<Value>, Owners), Conflicts> {
        let mut owners = self.current(owners);
        let merged = merge(self.root, Some(live), Some(config)).unwrap_or(Value::Null);
        let mut set = to_field_set(self.root, config);
        set.subtract_recursive(&self.ignored);
        let last = owners.insert(
            manager.to_string(),
            Owned {
                set,
                api_version: self.version.clone(),
                applied: true,
            },
        );
        let new = match last {
            Some(last) if !last.set.is_empty() => self.prune(&merged, &owners, &last.set),
            _ => merged,
        };
        let (owners, _, conflicts) = self.settle(live, &new, owners, manager);
        if !force && !conflicts.is_empty() {
            return Err(Conflicts(conflicts));
        }
        if new == *live {
            return Ok((None, owners));
        }
        Ok((Some(new), owners))
    }

    fn remove(&self, v: &Value, set: &Set) -> Value {
        remove_items(self.root, v, set).unwrap_or(Value::Null)
    }

    fn named(&self, s: &Set) -> Set {
        s.with_named_parents(self.root)
    }

    /// Removes what the applier applied last time and not now, unless someone else owns it
    /// (`prune`, `addBackOwnedItems`, `addBackDanglingItems`).
    fn prune(&self, merged: &Value, owners: &Owners, last: &Set) -> Value {
        let last = self.named(last);
        let pruned = self.remove(merged, &last);
        let mut managed = Set::new();
        for o in owners.values() {
            managed.union_with(&o.set);
        }
        let merged_set = self.named(&to_field_set(self.root, merged));
        let pruned_set = self.named(&to_field_set(self.root, &pruned));
        let unowned = merged_set.difference(&pruned_set.union(&self.named(&managed)));
        let pruned = self.remove(merged, &unowned);
        let pruned_set = self.named(&to_field_set(self.root, &pruned));
        let dangling = merged_set.difference(&pruned_set).intersection(&last);
        self.remove(merged, &dangling)
    }
}
