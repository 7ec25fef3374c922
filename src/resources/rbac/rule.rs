//! Whether one RBAC `PolicyRule` allows a request (`pkg/apis/rbac/v1/evaluation_helpers.go`),
//! and the request attributes it is matched against (`authorizer.Attributes`).
//!
//! Rules are read straight from stored Role and ClusterRole JSON: an absent list matches
//! nothing, `*` matches everything in its list.

use serde_json::Value;

use crate::resources::meta::str_items;

/// The attributes authorization decides on: a resource request (`resource` non-empty or
/// `resource_request` set) or a non-resource one (`path`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Attributes {
    pub verb: String,
    pub resource_request: bool,
    pub api_group: String,
    pub namespace: String,
    pub resource: String,
    pub subresource: String,
    pub name: String,
    /// Non-resource requests: the URL path.
    pub path: String,
}

impl Attributes {
    /// A resource request's attributes.
    pub fn resource(verb: &str, group: &str, resource: &str, namespace: &str, name: &str) -> Self {
        Attributes {
            verb: verb.into(),
            resource_request: true,
            api_group: group.into(),
            namespace: namespace.into(),
            resource: resource.into(),
            name: name.into(),
            ..Attributes::default()
        }
    }

    /// A non-resource request's attributes.
    pub fn non_resource(verb: &str, path: &str) -> Self {
        Attributes {
            verb: verb.into(),
            path: path.into(),
            ..Attributes::default()
        }
    }

    /// The same request through `subresource`.
    pub fn with_subresource(mut self, subresource: &str) -> Self {
        self.subresource = subresource.into();
        self
    }
}

fn strings<'a>(rule: &'a Value, field: &str) -> impl Iterator<Item = &'a str> {
    rule.get(field).into_iter().flat_map(str_items)
}

/// `VerbMatches`.
pub fn verb_matches(rule: &Value, verb: &str) -> bool {
    strings(rule, "verbs").any(|v| v == "*" || v == verb)
}

/// `APIGroupMatches`.
pub fn api_group_matches(rule: &Value, group: &str) -> bool {
    strings(rule, "apiGroups").any(|g| g == "*" || g == group)
}

/// `ResourceMatches`: `*`, the resource, `resource/subresource`, or `*/subresource`.
pub fn resource_matches(rule: &Value, resource: &str, subresource: &str) -> bool {
    strings(rule, "resources").any(|r| {
        if subresource.is_empty() {
            return r == "*" || r == resource;
        }
        r == "*"
            || r.split_once('/')
                .is_some_and(|(res, sub)| sub == subresource && (res == resource || res == "*"))
    })
}

/// `ResourceNameMatches`: no names matches every request; names match only a named one.
pub fn resource_name_matches(rule: &Value, name: &str) -> bool {
    let mut names = strings(rule, "resourceNames").peekable();
    if names.peek().is_none() {
        return true;
    }
    names.any(|n| n == name)
}

/// `NonResourceURLMatches`: `*`, the path, or a prefix ending in `*`s.
pub fn non_resource_url_matches(rule: &Value, path: &str) -> bool {
    strings(rule, "nonResourceURLs").any(|u| super::policy::url_covers(u, path))
}

/// `RuleAllows`.
pub fn rule_allows(attrs: &Attributes, rule: &Value) -> bool {
    if attrs.resource_request {
        verb_matches(rule, &attrs.verb)
            && api_group_matches(rule, &attrs.api_group)
            && resource_matches(rule, &attrs.resource, &attrs.subresource)
            && resource_name_matches(rule, &attrs.name)
    } else {
        verb_matches(rule, &attrs.verb) && non_resource_url_matches(rule, &attrs.path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn rules_match_as_rbac_evaluates_them() {
        let get_pods = json!({"verbs": ["get"], "apiGroups": [""], "resources": ["pods"]});
        let star = json!({"verbs": ["*"], "apiGroups": ["*"], "resources": ["*"]});
        let status = json!({"verbs": ["update"], "apiGroups": ["apps"], "resources": ["*/status"]});
        let named = json!({"verbs": ["get", "list"], "apiGroups": [""], "resources": ["configmaps"], "resourceNames": ["a"]});
        let urls = json!({"verbs": ["get"], "nonResourceURLs": ["/apis/*", "/version"]});
        // Go trims every trailing `*` (`strings.TrimRight`).
        let stars = json!({"verbs": ["get"], "nonResourceURLs": ["/apis/**"]});
        let r = Attributes::resource;
        let cases: &[(&Value, Attributes, bool)] = &[
            (&get_pods, r("get", "", "pods", "ns", "p"), true),
            (&get_pods, r("list", "", "pods", "ns", ""), false),
            (&get_pods, r("get", "apps", "pods", "ns", "p"), false),
            (
                &get_pods,
                r("get", "", "pods", "ns", "p").with_subresource("log"),
                false,
            ),
            (
                &star,
                r("delete", "x.io", "widgets", "", "w").with_subresource("s"),
                true,
            ),
            (
                &status,
                r("update", "apps", "deployments", "n", "d").with_subresource("status"),
                true,
            ),
            (&status, r("update", "apps", "deployments", "n", "d"), false),
            (
                &status,
                r("update", "apps", "deployments", "n", "d").with_subresource("scale"),
                false,
            ),
            (&named, r("get", "", "configmaps", "n", "a"), true),
            (&named, r("get", "", "configmaps", "n", "b"), false),
            (&named, r("list", "", "configmaps", "n", ""), false),
            (&named, r("list", "", "configmaps", "n", "a"), true),
            (&urls, Attributes::non_resource("get", "/apis/apps"), true),
            (&urls, Attributes::non_resource("get", "/version"), true),
            (&urls, Attributes::non_resource("get", "/version/"), false),
            (&stars, Attributes::non_resource("get", "/apis/x"), true),
            (&urls, Attributes::non_resource("post", "/version"), false),
            (&get_pods, Attributes::non_resource("get", "/api"), false),
        ];
        for (i, (rule, attrs, want)) in cases.iter().enumerate() {
            assert_eq!(rule_allows(attrs, rule), *want, "case {i}: {attrs:?}");
        }
    }
}
