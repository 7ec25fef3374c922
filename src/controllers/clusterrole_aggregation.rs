//! kube-controller-manager's ClusterRole aggregation controller
//! (`pkg/controller/clusterroleaggregation`): a ClusterRole with an `aggregationRule` gets the
//! rules of every ClusterRole its selectors match.
//!
//! Selectors are visited in order; each one's matches in name order, the role itself
//! skipped; a rule already collected (exactly equal) is not added again. The controller
//! writes by server-side apply, forced, as `clusterrole-aggregation-controller`, so the
//! aggregated role's managedFields show it owning `rules`.

use serde_json::{json, Map, Value};

use crate::codec::decode;
use crate::registry::{Registry, Write};
use crate::resources::rbac::CLUSTER_ROLES;
use crate::selectors::label::LabelSelector;

/// The controller's field manager.
pub const MANAGER: &str = "clusterrole-aggregation-controller";

/// The rules `role` aggregates from `all` (ClusterRoles in name order).
fn aggregate(role: &Value, all: &[Value]) -> Vec<Value> {
    let name = role["metadata"]["name"].as_str().unwrap_or("");
    let mut rules: Vec<Value> = Vec::new();
    let selectors = role["aggregationRule"]["clusterRoleSelectors"].as_array();
    for sel in selectors.into_iter().flatten() {
        let Some(sel) = LabelSelector::from_metav1(sel) else {
            continue;
        };
        for other in all {
            if other["metadata"]["name"].as_str() == Some(name) {
                continue;
            }
            if !sel.matches(other["metadata"]["labels"].as_object()) {
                continue;
            }
            for rule in other["rules"].as_array().into_iter().flatten() {
                if !rules.contains(rule) {
                    rules.push(rule.clone());
                }
            }
        }
    }
    rules
}

/// The controller between ticks: it acts when a ClusterRole changed.
#[derive(Debug, Default, Clone, Copy)]
pub struct Aggregation {
    seen: super::Seen,
}

impl Aggregation {
    /// Reconciles when a ClusterRole changed since the last call. Its own writes change
    /// ClusterRoles too: the next run finds nothing left to do, or the next level of a nested
    /// aggregation.
    pub fn run(&mut self, reg: &mut Registry) {
        if self.seen.changed_under(reg, &CLUSTER_ROLES.key_prefix()) {
            reconcile(reg);
        }
    }
}

/// One pass: every aggregated ClusterRole whose rules differ is written; how many were.
/// (A role aggregating another aggregated role settles on a later pass, as the real
/// controller settles on the next event.)
pub fn reconcile(reg: &mut Registry) -> usize {
    let mut written = 0;
    let all = reg.live(&CLUSTER_ROLES, None);
    for role in &all {
        if role["aggregationRule"].is_null() {
            continue;
        }
        let rules = aggregate(role, &all);
        let current = role["rules"].as_array().cloned().unwrap_or_default();
        if current == rules {
            continue;
        }
        let name = role["metadata"]["name"].as_str().unwrap_or("").to_string();
        let config = json!({
            "apiVersion": CLUSTER_ROLES.api_version(),
            "kind": CLUSTER_ROLES.kind,
            "metadata": {"name": name},
            "rules": rules,
        });
        let key = CLUSTER_ROLES.key("", &name);
        let Ok(applied) = reg.apply(&CLUSTER_ROLES, "", &key, &config, MANAGER, true) else {
            continue;
        };
        let mut obj: Map<String, Value> = match &applied {
            Value::Object(m) => decode::canonicalize(m, CLUSTER_ROLES.schema),
            _ => continue,
        };
        obj.insert("kind".into(), json!(CLUSTER_ROLES.kind));
        obj.insert("apiVersion".into(), json!(CLUSTER_ROLES.api_version()));
        if reg
            .update(&CLUSTER_ROLES, &key, obj, &Write::default())
            .is_ok()
        {
            written += 1;
        }
    }
    written
}

#[cfg(test)]
mod tests {
    /// A new engine is settled: `view` ⊂ `edit` ⊂ `admin` hold the 1.36 rule counts, owned
    /// by the controller's apply, and a tick writes nothing more.
    #[test]
    fn bootstrap_aggregation_settles_with_the_real_rule_counts() {
        let mut e = crate::Engine::new(crate::Config::default());
        let rev = e.store().revision();
        e.tick();
        assert_eq!(e.store().revision(), rev);
        let objs = e.objects();
        let role = |n: &str| objs.iter().find(|o| o["metadata"]["name"] == n).unwrap();
        for (name, count) in [("view", 12), ("edit", 27), ("admin", 29)] {
            let r = role(name);
            assert_eq!(r["rules"].as_array().unwrap().len(), count, "{name}");
            let managers: Vec<&str> = r["metadata"]["managedFields"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["manager"].as_str().unwrap())
                .collect();
            assert_eq!(managers, [super::MANAGER, "kube-apiserver"], "{name}");
        }
    }
}
