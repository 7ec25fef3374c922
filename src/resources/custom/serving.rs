//! Which custom kinds the served set ([`Kinds`]) holds: those the stored definitions define
//! now, each built once per definition version and kept for as long as it does not change.

use serde_json::{Map, Value};

use super::{fingerprint, served_versions, versions, CustomKind};
use crate::resources::meta::str_at;
use crate::resources::{Kinds, ResourceInfo};

impl Kinds {
    /// Serves the custom kinds `definitions` (CustomResourceDefinitions) define now, in place
    /// of those served before; whether that changed what is served. A version whose group,
    /// version and plural another kind serves already is not served (and not built). `rev`
    /// is the store's revision now: a kind that starts being served reads what was written
    /// up to it through its schema ([`super::reading`]).
    pub fn serve_definitions<'a>(
        &mut self,
        definitions: impl IntoIterator<Item = &'a Map<String, Value>>,
        rev: u64,
    ) -> bool {
        let mut custom: Vec<&'static ResourceInfo> = Vec::new();
        for crd in definitions {
            let accepted = crd
                .get("status")
                .and_then(|s| s.get("acceptedNames"))
                .cloned()
                .unwrap_or(Value::Null);
            let group = str_at(crd.get("spec").unwrap_or(&Value::Null), "group");
            let plural = str_at(&accepted, "plural");
            for version in served_versions(crd) {
                let name = str_at(version, "name");
                let taken = |r: &&'static ResourceInfo| {
                    r.group == group && r.version == name && r.plural == plural
                };
                let builtin = self.all.iter().filter(|r| r.custom.is_none()).any(taken);
                if builtin || custom.iter().any(taken) {
                    continue;
                }
                let info = *self
                    .built
                    .entry(fingerprint(crd, version))
                    .or_insert_with(|| CustomKind::of(crd, version).into_info(&accepted));
                custom.push(info);
            }
        }
        // Custom groups after every built-in one (their priority is the lowest), by name
        // (aggregated discovery's order); a group's versions preferred first.
        crate::sort::sort_by(&mut custom, |a, b| {
            a.group
                .cmp(b.group)
                .then_with(|| versions::discovery_order(a.version, b.version))
                .then(a.plural.cmp(b.plural))
        });
        let before: Vec<*const ResourceInfo> = self.all.iter().map(|r| *r as *const _).collect();
        self.all.retain(|r| r.custom.is_none());
        self.all.extend(custom);
        let after: Vec<*const ResourceInfo> = self.all.iter().map(|r| *r as *const _).collect();
        for info in &self.all {
            if let (Some(c), false) = (info.custom, before.contains(&(*info as *const _))) {
                c.settled.store(rev, std::sync::atomic::Ordering::Relaxed);
            }
        }
        before != after
    }

    /// Whether `group` is served by custom resources alone (the CRD handler's).
    pub fn custom_group(&self, group: &str) -> bool {
        self.serves_group(group)
            && self
                .iter()
                .filter(|r| r.group == group)
                .all(|r| r.custom.is_some())
    }
}
