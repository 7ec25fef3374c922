//! kubectl's RBAC rule helpers (`pkg/util/rbac` and `describe.CombineResourceGroup`), shared
//! by the Role describers and `auth can-i --list`: rules broken down to one verb, resource
//! and name each, compacted back per resource, sorted by their Go strings, printed as
//! `Resources  Non-Resource URLs  Resource Names  Verbs` rows.

use serde_json::Value;

/// One rule as the describer works with it (`rbacv1.PolicyRule`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Rule {
    pub verbs: Vec<String>,
    pub groups: Vec<String>,
    resources: Vec<String>,
    names: Vec<String>,
    urls: Vec<String>,
}

impl Rule {
    /// A `PolicyRule` (or a rules review's resource or non-resource rule) from its JSON.
    pub fn of(v: &Value) -> Rule {
        let list = |k: &str| -> Vec<String> {
            v[k].as_array()
                .into_iter()
                .flatten()
                .filter_map(|s| s.as_str().map(str::to_string))
                .collect()
        };
        Rule {
            verbs: list("verbs"),
            groups: list("apiGroups"),
            resources: list("resources"),
            names: list("resourceNames"),
            urls: list("nonResourceURLs"),
        }
    }

    /// `PolicyRule.String()`, which the rules are sorted by.
    fn go_string(&self) -> String {
        format!(
            "&PolicyRule{{Verbs:{},APIGroups:{},Resources:{},ResourceNames:{},NonResourceURLs:{},}}",
            go_list(&self.verbs),
            go_list(&self.groups),
            go_list(&self.resources),
            go_list(&self.names),
            go_list(&self.urls)
        )
    }
}

/// `%v` of a `[]string`: `[a b]`.
fn go_list(items: &[String]) -> String {
    format!("[{}]", items.join(" "))
}

/// `rbac.BreakdownRule`: one rule per group, resource, verb and name; one per URL and verb.
fn breakdown(rule: &Rule) -> Vec<Rule> {
    let mut out = Vec::new();
    let one = |s: &String| vec![s.clone()];
    for g in &rule.groups {
        for r in &rule.resources {
            for v in &rule.verbs {
                let names: Vec<Vec<String>> = if rule.names.is_empty() {
                    vec![Vec::new()]
                } else {
                    rule.names.iter().map(one).collect()
                };
                for names in names {
                    out.push(Rule {
                        verbs: one(v),
                        groups: one(g),
                        resources: one(r),
                        names,
                        urls: Vec::new(),
                    });
                }
            }
        }
    }
    for u in &rule.urls {
        for v in &rule.verbs {
            out.push(Rule {
                verbs: one(v),
                urls: one(u),
                ..Rule::default()
            });
        }
    }
    out
}

/// `rbac.CompactRules`: the rules of one group, resource and name merged (their verbs in
/// order, once each), after the others; then sorted by their Go strings, stably.
fn compact(rules: Vec<Rule>) -> Vec<Rule> {
    let mut compacted = Vec::new();
    let mut simple: Vec<Rule> = Vec::new();
    for rule in rules {
        let is_simple = rule.names.len() <= 1
            && rule.urls.is_empty()
            && rule.groups.len() == 1
            && rule.resources.len() == 1;
        if !is_simple {
            compacted.push(rule);
            continue;
        }
        let same = simple.iter_mut().find(|s| {
            s.groups == rule.groups && s.resources == rule.resources && s.names == rule.names
        });
        match same {
            Some(s) => {
                for v in rule.verbs {
                    if !s.verbs.contains(&v) {
                        s.verbs.push(v);
                    }
                }
            }
            None => simple.push(rule),
        }
    }
    compacted.extend(simple);
    crate::sort::sort_by_key(&mut compacted, Rule::go_string);
    compacted
}

/// `CombineResourceGroup`: `configmaps`, `deployments.apps/scale`.
fn resource_group(rule: &Rule) -> String {
    let Some(first) = rule.resources.first() else {
        return String::new();
    };
    let (resource, sub) = match first.split_once('/') {
        Some((r, s)) => (r, Some(s)),
        None => (first.as_str(), None),
    };
    let mut text = resource.to_string();
    if let Some(g) = rule.groups.first().filter(|g| !g.is_empty()) {
        text.push('.');
        text.push_str(g);
    }
    if let Some(s) = sub {
        text.push('/');
        text.push_str(s);
    }
    text
}

/// Broken down, compacted and sorted: the rows both commands print.
pub fn compacted(rules: &[Rule]) -> Vec<Rule> {
    compact(rules.iter().flat_map(breakdown).collect())
}

impl Rule {
    /// `CombineResourceGroup\t[urls]\t[names]\t[verbs]`.
    pub fn row(&self) -> String {
        format!(
            "{}\t{}\t{}\t{}",
            resource_group(self),
            go_list(&self.urls),
            go_list(&self.names),
            go_list(&self.verbs)
        )
    }
}
