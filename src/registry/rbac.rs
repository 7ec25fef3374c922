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
use crate::resources::field::aggregate;
use crate::resources::meta::str_at;
use crate::resources::rbac::policy::PolicyRule;
use crate::resources::rbac::rule::rule_allows;
use crate::resources::rbac::user::SYSTEM_PRIVILEGED_GROUP;
use crate::resources::rbac::{
    Attributes, Authorizer, Decision, Rules, UserInfo, CLUSTER_ROLES, CLUSTER_ROLE_BINDINGS, ROLES,
    ROLE_BINDINGS,
};
use crate::resources::status::{ApiError, ApiResult, GroupResource};
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

/// How roles are read: see [`Registry::role_ref`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lookup {
    Lister,
    /// Through the registry, for a request on this resource: the store qualifies its
    /// NotFound by the request's resource (`qualifiedResourceFromContext`), not the role's.
    Registry(GroupResource<'static>),
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
                // `serviceaccount.MatchesUsername`, without building the name.
                !ns.is_empty()
                    && user
                        .name
                        .strip_prefix("system:serviceaccount:")
                        .and_then(|rest| rest.strip_prefix(ns))
                        .and_then(|rest| rest.strip_prefix(':'))
                        == Some(name)
            }
            _ => false,
        }
    })
}

impl Registry {
    /// The role a binding's `roleRef` names (`GetRoleReferenceRules` reads its `rules`), or
    /// the error of the getter `via`: the authorizer reads through listers, whose NotFound
    /// names the singular (`role.rbac...`); the RBAC kinds' storage reads through the registry
    /// with the request's context, so its 404 names the resource of the request
    /// (`rolebindings.rbac... "missing-role" not found`), as since 1.32.
    fn role_ref(&self, role_ref: &Value, namespace: &str, via: Lookup) -> ApiResult<Value> {
        let name = str_at(role_ref, "name");
        let (info, ns) = match str_at(role_ref, "kind") {
            "Role" => (&ROLES, namespace),
            "ClusterRole" => (&CLUSTER_ROLES, ""),
            other => {
                return Err(ApiError::untyped(
                    500,
                    format!("unsupported role reference kind: {}", go_quote(other)),
                ))
            }
        };
        self.store()
            .get(&info.key(ns, name))
            .map(Object::decode)
            .ok_or_else(|| match via {
                Lookup::Registry(request) => ApiError::not_found(request, name),
                Lookup::Lister => {
                    let mut e = ApiError::not_found(info.group_resource(), name);
                    e.message = format!(
                        "{}.{} {} not found",
                        info.singular,
                        info.group,
                        go_quote(name)
                    );
                    e
                }
            })
    }

    /// `VisitRulesFor`: every rule granted to `user` in `namespace` (cluster-wide bindings
    /// first, then the namespace's RoleBindings), with its source; `visit` returns false to
    /// stop. Lookup errors are visited as `Err`.
    fn visit_rules_for(
        &self,
        user: &UserInfo,
        namespace: &str,
        via: Lookup,
        visit: &mut dyn FnMut(Visited<'_, '_>) -> bool,
    ) {
        // Only the bindings naming the user are collected (this runs for every request).
        let bindings = |info: &ResourceInfo, ns: &str| -> Vec<Value> {
            let prefix = super::read::prefix(info, (!ns.is_empty()).then_some(ns));
            let rev = self.store().revision();
            let all = self.store().range(&prefix, None, rev, None, |_| true);
            all.map(|p| p.items)
                .unwrap_or_default()
                .iter()
                .map(Object::decode)
                .filter(|b| applies_to(user, &b["subjects"], ns).is_some())
                .collect()
        };
        let mut sources = vec![(bindings(&CLUSTER_ROLE_BINDINGS, ""), "")];
        if !namespace.is_empty() {
            sources.push((bindings(&ROLE_BINDINGS, namespace), namespace));
        }
        for (bindings, ns) in &sources {
            for binding in bindings {
                let Some(subject) = applies_to(user, &binding["subjects"], ns) else {
                    continue;
                };
                match self.role_ref(&binding["roleRef"], ns, via) {
                    Err(e) => {
                        if !visit(Err(e.message)) {
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
        self.visit_rules_for(user, &attrs.namespace, Lookup::Lister, &mut |r| match r {
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

    /// Every rule granted to `user` in `namespace`, and every lookup error.
    fn collect_rules(&self, user: &UserInfo, namespace: &str, via: Lookup) -> Rules {
        let mut out = Rules::default();
        self.visit_rules_for(user, namespace, via, &mut |r| {
            match r {
                Ok((_, rule)) => out.rules.push(PolicyRule::from_value(rule)),
                Err(e) => out.errors.push(e),
            }
            true
        });
        out
    }

    /// Sets the authorization mode.
    pub fn set_authorization_mode(&mut self, mode: AuthorizationMode) {
        self.authorization = mode;
    }
}

impl Authorizer for Registry {
    fn authorize(&self, user: &UserInfo, attrs: &Attributes) -> Decision {
        Registry::authorize(self, user, attrs)
    }

    /// `DefaultRuleResolver.RulesFor` over the registry (as the RBAC storages and the
    /// rules review use it): every rule, in visiting order, and every lookup error.
    fn rules_for(
        &self,
        user: &UserInfo,
        namespace: &str,
        request: GroupResource<'static>,
    ) -> Rules {
        self.collect_rules(user, namespace, Lookup::Registry(request))
    }

    fn rules_review(&self, user: &UserInfo, namespace: &str) -> Rules {
        if self.authorization == AuthorizationMode::AlwaysAllow {
            return Rules {
                rules: PolicyRule::full_authority(),
                errors: Vec::new(),
            };
        }
        self.collect_rules(user, namespace, Lookup::Lister)
    }

    fn selector_parses(&self, raw: &str, label: bool) -> bool {
        if label {
            crate::selectors::label::LabelSelector::parse(raw).is_ok()
        } else {
            crate::selectors::field::FieldSelector::parse(raw).is_ok()
        }
    }

    fn role_ref_rules(
        &self,
        role_ref: &Value,
        namespace: &str,
        request: GroupResource<'static>,
    ) -> ApiResult<Vec<PolicyRule>> {
        let role = self.role_ref(role_ref, namespace, Lookup::Registry(request))?;
        Ok(PolicyRule::all_of(role.get("rules")))
    }
}
