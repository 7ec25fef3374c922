//! Which custom kinds the served set ([`Kinds`]) holds: those the stored definitions define
//! now, each built once per definition version and kept for as long as it does not change.

use std::sync::atomic::Ordering;

use serde_json::{Map, Value};

use super::{fingerprint, served_versions, versions, CustomKind};
use crate::resources::meta::str_at;
use crate::resources::{Kinds, ResourceInfo};

/// Since when `kind`, starting to be served now (at `rev`), has had its objects written
/// through its schemas: the kind it replaces, of the same definition and version, if that
/// read them through the very same schemas (a change of printer columns, names or served
/// versions changes no object), else now.
fn settled(kind: &CustomKind, before: &[&'static ResourceInfo], rev: u64) -> u64 {
    let kept = before.iter().filter_map(|b| b.custom).find(|p| {
        p.definition == kind.definition
            && p.version == kind.version
            && p.storage_version == kind.storage_version
            && p.schema == kind.schema
            && p.others == kind.others
    });
    kept.map_or(rev, |p| p.settled.load(Ordering::Relaxed))
}

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
        let before: Vec<&'static ResourceInfo> = self.all.clone();
        self.all.retain(|r| r.custom.is_none());
        self.all.extend(custom);
        for info in &self.all {
            let Some(c) = info.custom else { continue };
            if before.iter().any(|b| std::ptr::eq(*b, *info)) {
                continue;
            }
            c.settled.store(settled(c, &before, rev), Ordering::Relaxed);
        }
        let ptr = |r: &&'static ResourceInfo| *r as *const ResourceInfo;
        !before.iter().map(ptr).eq(self.all.iter().map(ptr))
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn definition(columns: Value, size_default: i64) -> Map<String, Value> {
        let crd = json!({
            "metadata": {"name": "widgets.example.com"},
            "spec": {"group": "example.com", "scope": "Namespaced",
                "names": {"plural": "widgets", "kind": "Widget"},
                "versions": [{"name": "v1", "served": true, "storage": true,
                    "additionalPrinterColumns": columns,
                    "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                        "spec": {"type": "object", "properties": {
                            "size": {"type": "integer", "default": size_default}}}}}}}]},
            "status": {"acceptedNames": {"plural": "widgets", "kind": "Widget", "listKind": "WidgetList"},
                "conditions": [{"type": "Established", "status": "True"}]}
        });
        crd.as_object().unwrap().clone()
    }

    fn settled(kinds: &Kinds) -> u64 {
        let info = kinds.iter().find(|r| r.custom.is_some()).unwrap();
        info.custom.unwrap().settled.load(Ordering::Relaxed)
    }

    /// A kind rebuilt for a change that leaves its schemas alone keeps reading what was
    /// written before as stored; a schema change makes everything earlier read anew.
    #[test]
    fn a_kind_rebuilt_with_the_same_schemas_keeps_its_settled_revision() {
        let mut kinds = Kinds::builtin();
        assert!(kinds.serve_definitions([&definition(json!([]), 3)], 5));
        assert_eq!(settled(&kinds), 5);
        let columns = json!([{"name": "Size", "type": "integer", "jsonPath": ".spec.size"}]);
        assert!(kinds.serve_definitions([&definition(columns.clone(), 3)], 9));
        assert_eq!(settled(&kinds), 5);
        assert!(!kinds.serve_definitions([&definition(columns.clone(), 3)], 10));
        assert!(kinds.serve_definitions([&definition(columns, 4)], 12));
        assert_eq!(settled(&kinds), 12);
    }
}
