//! Comparing RBAC rule sets: whether what a user holds covers what they try to grant
//! (`k8s.io/component-helpers/auth/rbac/validation/policy_comparator.go`), and the compact
//! rule texts escalation errors print (`pkg/registry/rbac/validation/policy_compact.go`,
//! `CompactString`).
//!
//! The texts must match Go's `%q` of string slices byte for byte, so they are written here
//! by hand.

use serde_json::Value;

use crate::codec::go_quote;
use crate::resources::meta::strings;

/// One `PolicyRule`, its lists as given.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PolicyRule {
    pub verbs: Vec<String>,
    pub api_groups: Vec<String>,
    pub resources: Vec<String>,
    pub resource_names: Vec<String>,
    pub non_resource_urls: Vec<String>,
}

fn one(s: &str) -> Vec<String> {
    vec![s.to_string()]
}

impl PolicyRule {
    /// A rule as stored in a Role's `rules`.
    pub fn from_value(v: &Value) -> Self {
        PolicyRule {
            verbs: strings(v.get("verbs")),
            api_groups: strings(v.get("apiGroups")),
            resources: strings(v.get("resources")),
            resource_names: strings(v.get("resourceNames")),
            non_resource_urls: strings(v.get("nonResourceURLs")),
        }
    }

    /// Every rule of a role's `rules`.
    pub fn all_of(rules: Option<&Value>) -> Vec<PolicyRule> {
        rules
            .and_then(Value::as_array)
            .map(|rules| rules.iter().map(PolicyRule::from_value).collect())
            .unwrap_or_default()
    }

    /// `fullAuthority`: what cluster-admin holds (every resource, every URL).
    pub fn full_authority() -> Vec<PolicyRule> {
        let star = || one("*");
        vec![
            PolicyRule {
                verbs: star(),
                api_groups: star(),
                resources: star(),
                ..PolicyRule::default()
            },
            PolicyRule {
                verbs: star(),
                non_resource_urls: star(),
                ..PolicyRule::default()
            },
        ]
    }

    /// `CompactString`: `{APIGroups:["apps"], Resources:["deployments"], Verbs:["get"]}`,
    /// each non-empty list as Go's `%q` prints a `[]string`.
    pub fn compact_string(&self) -> String {
        let parts: Vec<String> = [
            ("APIGroups", &self.api_groups),
            ("Resources", &self.resources),
            ("NonResourceURLs", &self.non_resource_urls),
            ("ResourceNames", &self.resource_names),
            ("Verbs", &self.verbs),
        ]
        .iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(name, v)| format!("{name}:{}", quoted_list(v)))
        .collect();
        format!("{{{}}}", parts.join(", "))
    }
}

/// Go's `%q` of a `[]string`: `["a" "b"]`.
pub fn quoted_list(items: &[String]) -> String {
    let quoted: Vec<String> = items.iter().map(|s| go_quote(s)).collect();
    format!("[{}]", quoted.join(" "))
}

/// `BreakdownRule`: one rule per group × resource × verb (× resource name), then per URL ×
/// verb. A rule without groups or resources yields no resource rules.
pub fn breakdown(rule: &PolicyRule) -> Vec<PolicyRule> {
    let mut out = Vec::new();
    for group in &rule.api_groups {
        for resource in &rule.resources {
            for verb in &rule.verbs {
                let base = PolicyRule {
                    api_groups: one(group),
                    resources: one(resource),
                    verbs: one(verb),
                    ..PolicyRule::default()
                };
                if rule.resource_names.is_empty() {
                    out.push(base);
                } else {
                    for name in &rule.resource_names {
                        out.push(PolicyRule {
                            resource_names: one(name),
                            ..base.clone()
                        });
                    }
                }
            }
        }
    }
    for url in &rule.non_resource_urls {
        for verb in &rule.verbs {
            out.push(PolicyRule {
                non_resource_urls: one(url),
                verbs: one(verb),
                ..PolicyRule::default()
            });
        }
    }
    out
}

fn has(set: &[String], item: &str) -> bool {
    set.iter().any(|s| s == item)
}

fn has_all(set: &[String], items: &[String]) -> bool {
    items.iter().all(|i| has(set, i))
}

/// `resourceCoversAll`: `*`, every resource, or `*/sub` for a subresource.
fn resource_covers_all(owned: &[String], wanted: &[String]) -> bool {
    if has(owned, "*") || has_all(owned, wanted) {
        return true;
    }
    wanted.iter().all(|path| {
        has(owned, path)
            || path
                .split_once('/')
                .is_some_and(|(_, sub)| has(owned, &format!("*/{sub}")))
    })
}

/// `nonResourceURLCovers` and `NonResourceURLMatches`: equal, or a prefix ending in `*`s (a
/// bare `*` is the empty prefix).
pub fn url_covers(owner: &str, sub: &str) -> bool {
    owner == sub || (owner.ends_with('*') && sub.starts_with(owner.trim_end_matches('*')))
}

/// `ruleCovers`.
fn rule_covers(owner: &PolicyRule, sub: &PolicyRule) -> bool {
    let verbs = has(&owner.verbs, "*") || has_all(&owner.verbs, &sub.verbs);
    let groups = has(&owner.api_groups, "*") || has_all(&owner.api_groups, &sub.api_groups);
    let resources = resource_covers_all(&owner.resources, &sub.resources);
    let urls = sub
        .non_resource_urls
        .iter()
        .all(|u| owner.non_resource_urls.iter().any(|o| url_covers(o, u)));
    let names = if sub.resource_names.is_empty() {
        owner.resource_names.is_empty()
    } else {
        owner.resource_names.is_empty() || has_all(&owner.resource_names, &sub.resource_names)
    };
    verbs && groups && resources && urls && names
}

/// `Covers`: the broken-down `wanted` rules no single `owned` rule covers (empty when
/// `owned` covers them all), in breakdown order.
pub fn uncovered(owned: &[PolicyRule], wanted: &[PolicyRule]) -> Vec<PolicyRule> {
    wanted
        .iter()
        .flat_map(breakdown)
        .filter(|sub| !owned.iter().any(|o| rule_covers(o, sub)))
        .collect()
}

/// `CompactRules`: "simple" rules (one group, one resource, at most one name, nothing else)
/// on the same group, resource and name merge their verbs; the rest pass unchanged, first.
pub fn compact(rules: &[PolicyRule]) -> Vec<PolicyRule> {
    let mut out = Vec::new();
    let mut simple: Vec<PolicyRule> = Vec::new();
    for rule in rules {
        let is_simple = rule.api_groups.len() == 1
            && rule.resources.len() == 1
            && rule.resource_names.len() <= 1
            && rule.non_resource_urls.is_empty();
        if !is_simple {
            out.push(rule.clone());
            continue;
        }
        let same = simple.iter_mut().find(|s| {
            s.api_groups == rule.api_groups
                && s.resources == rule.resources
                && s.resource_names == rule.resource_names
        });
        match same {
            Some(s) => s.verbs.extend(rule.verbs.iter().cloned()),
            None => simple.push(rule.clone()),
        }
    }
    out.extend(simple);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rule(v: Value) -> PolicyRule {
        PolicyRule::from_value(&v)
    }

    #[test]
    fn compact_strings_print_as_go_does() {
        let cases = [
            (
                json!({"verbs": ["get", "list"], "apiGroups": [""], "resources": ["pods"]}),
                r#"{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}"#,
            ),
            (
                json!({"verbs": ["update"], "apiGroups": ["apps"], "resources": ["deployments"], "resourceNames": ["web"]}),
                r#"{APIGroups:["apps"], Resources:["deployments"], ResourceNames:["web"], Verbs:["update"]}"#,
            ),
            (
                json!({"verbs": ["get"], "nonResourceURLs": ["/healthz"]}),
                r#"{NonResourceURLs:["/healthz"], Verbs:["get"]}"#,
            ),
        ];
        for (r, want) in cases {
            assert_eq!(rule(r).compact_string(), want);
        }
    }

    #[test]
    fn coverage_follows_the_policy_comparator() {
        let owned = vec![
            rule(
                json!({"verbs": ["get", "list"], "apiGroups": [""], "resources": ["pods", "*/status"]}),
            ),
            rule(
                json!({"verbs": ["*"], "apiGroups": ["apps"], "resources": ["deployments"], "resourceNames": ["web"]}),
            ),
            rule(json!({"verbs": ["get"], "nonResourceURLs": ["/apis/*"]})),
        ];
        let cases = [
            (
                json!({"verbs": ["get"], "apiGroups": [""], "resources": ["pods"]}),
                0,
            ),
            (
                json!({"verbs": ["get", "watch"], "apiGroups": [""], "resources": ["pods"]}),
                1,
            ),
            (
                json!({"verbs": ["get"], "apiGroups": [""], "resources": ["services/status"]}),
                0,
            ),
            (
                json!({"verbs": ["get"], "apiGroups": [""], "resources": ["services/scale"]}),
                1,
            ),
            (
                json!({"verbs": ["get"], "apiGroups": ["apps"], "resources": ["deployments"]}),
                1,
            ),
            (
                json!({"verbs": ["get"], "apiGroups": ["apps"], "resources": ["deployments"], "resourceNames": ["web"]}),
                0,
            ),
            (
                json!({"verbs": ["get"], "nonResourceURLs": ["/apis/apps", "/api"]}),
                1,
            ),
            (json!({"verbs": ["get"], "apiGroups": [""]}), 0),
            (
                json!({"verbs": ["get", "list"], "apiGroups": ["", "x"], "resources": ["pods"], "resourceNames": ["a", "b"]}),
                4,
            ),
        ];
        for (i, (wanted, missing)) in cases.into_iter().enumerate() {
            let got = uncovered(&owned, &[rule(wanted)]);
            assert_eq!(got.len(), missing, "case {i}: {got:?}");
        }
    }

    #[test]
    fn compaction_merges_verbs_of_simple_rules() {
        let rules = vec![
            rule(json!({"verbs": ["get"], "nonResourceURLs": ["/x"]})),
            rule(json!({"verbs": ["get"], "apiGroups": [""], "resources": ["pods"]})),
            rule(json!({"verbs": ["list"], "apiGroups": [""], "resources": ["pods"]})),
            rule(
                json!({"verbs": ["get"], "apiGroups": [""], "resources": ["pods"], "resourceNames": ["a"]}),
            ),
        ];
        let got: Vec<String> = compact(&rules)
            .iter()
            .map(PolicyRule::compact_string)
            .collect();
        assert_eq!(
            got,
            [
                r#"{NonResourceURLs:["/x"], Verbs:["get"]}"#,
                r#"{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}"#,
                r#"{APIGroups:[""], Resources:["pods"], ResourceNames:["a"], Verbs:["get"]}"#,
            ]
        );
    }
}
