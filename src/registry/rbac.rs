//! The authorizer: `system:masters` first, then RBAC over the stored bindings and roles
//! (`plugin/pkg/auth/authorizer/rbac`, `pkg/registry/rbac/validation/rule.go`).
//!
//! It lives in the registry, as the rule resolver does in kube-apiserver, because the RBAC
//! kinds' own storage needs it too: creating a Role or a binding is checked against what the
//! writer holds (escalation prevention). Roles and bindings are read from the store at its
//! latest revision, so a grant works from the next request on.

use serde_json::Value;

use super::Registry;
use crate::codec::{go_quote, Object};
use crate::resources::meta::str_at;
use crate::resources::rbac::rule::rule_allows;
use crate::resources::rbac::user::SYSTEM_PRIVILEGED_GROUP;
use crate::resources::rbac::{
    Attributes, UserInfo, CLUSTER_ROLES, CLUSTER_ROLE_BINDINGS, ROLES, ROLE_BINDINGS,
};
use crate::resources::ResourceInfo;

/// `--authorization-mode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AuthorizationMode {
    /// `system:masters`, then RBAC (kube-apiserver's usual set-up).
    #[default]
    Rbac,
    /// Everything is allowed (no authorization).
    AlwaysAllow,
}

/// An authorizer's answer.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Decision {
    pub allowed: bool,
    /// Why: `RBAC: allowed by ...` when allowed; empty, or `RBAC: <errors>` when role
    /// lookups failed, when not.
    pub reason: String,
}

/// One visited rule with its source, or a role lookup's error.
type Visited<'a, 'b> = Result<(&'a Source<'b>, &'a Value), String>;

/// Where a rule came from, for the reason of an allowed request.
struct Source<'a> {
    binding: &'a Value,
    subject: &'a Value,
}

impl Source<'_> {
    /// `clusterRoleBindingDescriber` / `roleBindingDescriber`.
    fn describe(&self) -> String {
        let meta = &self.binding["metadata"];
        let (ns, name) = (str_at(meta, "namespace"), str_at(meta, "name"));
        let role_ref = &self.binding["roleRef"];
        let kind = str_at(self.subject, "kind");
        let subject_name = str_at(self.subject, "name");
        let subject = if kind == "ServiceAccount" {
            let sa_ns = match str_at(self.subject, "namespace") {
                "" => ns,
                n => n,
            };
            format!("{kind} {}", go_quote(&format!("{subject_name}/{sa_ns}")))
        } else {
            format!("{kind} {}", go_quote(subject_name))
        };
        let binding = if ns.is_empty() {
            format!("ClusterRoleBinding {}", go_quote(name))
        } else {
            format!("RoleBinding {}", go_quote(&format!("{name}/{ns}")))
        };
        format!(
            "{binding} of {} {} to {subject}",
            str_at(role_ref, "kind"),
            go_quote(str_at(role_ref, "name"))
        )
    }
}

/// `appliesToUser`: which subject of a binding (in `namespace`) names the user.
fn applies_to<'a>(user: &UserInfo, subjects: &'a Value, namespace: &str) -> Option<&'a Value> {
    subjects.as_array()?.iter().find(|s| {
        let name = str_at(s, "name");
        match str_at(s, "kind") {
            "User" => user.name == name,
            "Group" => user.in_group(name),
            "ServiceAccount" => {
                let ns = match str_at(s, "namespace") {
                    "" => namespace,
                    n => n,
                };
                !ns.is_empty() && user.name == format!("system:serviceaccount:{ns}:{name}")
            }
            _ => false,
        }
    })
}

/// `utilerrors.NewAggregate(errs).Error()`: one error as itself, several deduplicated in
/// brackets.
fn aggregate(errors: &[String]) -> String {
    if errors.len() == 1 {
        return errors[0].clone();
    }
    let mut seen: Vec<&str> = Vec::new();
    for e in errors {
        if !seen.contains(&e.as_str()) {
            seen.push(e);
        }
    }
    if seen.len() == 1 {
        return seen[0].to_string();
    }
    format!("[{}]", seen.join(", "))
}

impl Registry {
    /// The live objects of a kind (in `namespace`, or all), in key order.
    pub(crate) fn live(&self, info: &ResourceInfo, namespace: Option<&str>) -> Vec<Object> {
        let prefix = super::read::prefix(info, namespace);
        self.store()
            .range(&prefix, None, self.store().revision(), None, |_| true)
            .map(|p| p.items)
            .unwrap_or_default()
    }

    /// The role a binding's `roleRef` names (`GetRoleReferenceRules` reads its `rules`), or
    /// the lister's error.
    fn role_ref(&self, role_ref: &Value, namespace: &str) -> Result<&Object, String> {
        let name = str_at(role_ref, "name");
        let (info, ns, singular) = match str_at(role_ref, "kind") {
            "Role" => (&ROLES, namespace, "role"),
            "ClusterRole" => (&CLUSTER_ROLES, "", "clusterrole"),
            other => {
                return Err(format!(
                    "unsupported role reference kind: {}",
                    go_quote(other)
                ))
            }
        };
        self.store().get(&info.key(ns, name)).ok_or_else(|| {
            format!(
                "{singular}.rbac.authorization.k8s.io {} not found",
                go_quote(name)
            )
        })
    }

    /// `VisitRulesFor`: every rule granted to `user` in `namespace` (cluster-wide bindings
    /// first, then the namespace's RoleBindings), with its source; `visit` returns false to
    /// stop. Lookup errors are visited as `Err`.
    fn visit_rules_for(
        &self,
        user: &UserInfo,
        namespace: &str,
        visit: &mut dyn FnMut(Visited<'_, '_>) -> bool,
    ) {
        let mut sources = vec![(self.live(&CLUSTER_ROLE_BINDINGS, None), "")];
        if !namespace.is_empty() {
            sources.push((self.live(&ROLE_BINDINGS, Some(namespace)), namespace));
        }
        for (bindings, ns) in &sources {
            for binding in bindings {
                let Some(subject) = applies_to(user, &binding["subjects"], ns) else {
                    continue;
                };
                match self.role_ref(&binding["roleRef"], ns) {
                    Err(e) => {
                        if !visit(Err(e)) {
                            return;
                        }
                    }
                    Ok(role) => {
                        let source = Source { binding, subject };
                        for rule in role["rules"].as_array().into_iter().flatten() {
                            if !visit(Ok((&source, rule))) {
                                return;
                            }
                        }
                    }
                }
            }
        }
    }

    /// The authorizer chain kube-apiserver runs: members of `system:masters` are allowed
    /// everything, then the mode decides (RBAC: the first rule that allows wins).
    pub fn authorize(&self, user: &UserInfo, attrs: &Attributes) -> Decision {
        if user.in_group(SYSTEM_PRIVILEGED_GROUP)
            || self.authorization == AuthorizationMode::AlwaysAllow
        {
            return Decision {
                allowed: true,
                reason: String::new(),
            };
        }
        let mut allowed_by = None;
        let mut errors = Vec::new();
        self.visit_rules_for(user, &attrs.namespace, &mut |r| match r {
            Ok((source, rule)) => {
                if rule_allows(attrs, rule) {
                    allowed_by = Some(source.describe());
                    return false;
                }
                true
            }
            Err(e) => {
                errors.push(e);
                true
            }
        });
        match allowed_by {
            Some(source) => Decision {
                allowed: true,
                reason: format!("RBAC: allowed by {source}"),
            },
            None => Decision {
                allowed: false,
                reason: if errors.is_empty() {
                    String::new()
                } else {
                    format!("RBAC: {}", aggregate(&errors))
                },
            },
        }
    }

    /// Sets the authorization mode.
    pub fn set_authorization_mode(&mut self, mode: AuthorizationMode) {
        self.authorization = mode;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_aggregate_as_go_prints_them() {
        let one = vec!["a".to_string()];
        assert_eq!(aggregate(&one), "a");
        let two = vec!["a".to_string(), "b".to_string(), "a".to_string()];
        assert_eq!(aggregate(&two), "[a, b]");
        let same = vec!["a".to_string(), "a".to_string()];
        assert_eq!(aggregate(&same), "a");
    }
}
