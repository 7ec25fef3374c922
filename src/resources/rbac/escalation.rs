//! Escalation prevention (`pkg/registry/rbac/{role,clusterrole,rolebinding,
//! clusterrolebinding}/policybased`, `pkg/registry/rbac/escalation_check.go`,
//! `ConfirmNoEscalation`): a user may write a role only with rules they already hold, and a
//! binding only to a role whose rules they hold, unless they are in `system:masters` or may
//! `escalate` (roles) or `bind` (bindings). Checked before validation, so a forbidden write
//! is a 403 even when it is also invalid.

use serde_json::{Map, Value};

use super::authority::{Requester, Rules};
use super::policy::{compact, quoted_list, uncovered, PolicyRule};
use super::user::SYSTEM_PRIVILEGED_GROUP;
use super::validation::GROUP;
use super::{Attributes, UserInfo};
use crate::codec::go_quote;
use crate::resources::field::aggregate;
use crate::resources::meta::{map_meta_str, str_at};
use crate::resources::status::{ApiError, ApiResult};
use crate::resources::ResourceInfo;

/// `EscalationAllowed`: members of `system:masters` may grant anything.
fn escalation_allowed(user: &UserInfo) -> bool {
    user.in_group(SYSTEM_PRIVILEGED_GROUP)
}

/// `RoleEscalationAuthorized`: `escalate` on the request's roles or clusterroles.
fn escalate_authorized(by: &Requester<'_>, user: &UserInfo, resource: &str) -> bool {
    let attrs = Attributes::resource("escalate", GROUP, resource, by.namespace, by.name);
    by.authorizer.authorize(user, &attrs).allowed
}

/// `BindingAuthorized`: `bind` on the referenced role, in the binding's namespace.
fn bind_authorized(by: &Requester<'_>, user: &UserInfo, role_ref: &Value, namespace: &str) -> bool {
    let resource = match str_at(role_ref, "kind") {
        "ClusterRole" => "clusterroles",
        "Role" => "roles",
        _ => return false,
    };
    let attrs = Attributes::resource(
        "bind",
        str_at(role_ref, "apiGroup"),
        resource,
        namespace,
        str_at(role_ref, "name"),
    );
    by.authorizer.authorize(user, &attrs).allowed
}

/// `IsOnlyMutatingGCFields`: the write changes nothing but ownerReferences, finalizers,
/// selfLink and managedFields (the garbage collector's own writes pass unchecked; the field
/// manager has already recorded the write, so its entries differ too).
fn only_gc_fields(new: &Map<String, Value>, old: &Map<String, Value>) -> bool {
    let mut copy = new.clone();
    let old_meta = old.get("metadata").and_then(Value::as_object);
    if let Some(m) = copy.get_mut("metadata").and_then(Value::as_object_mut) {
        for f in ["ownerReferences", "finalizers", "selfLink", "managedFields"] {
            match old_meta.and_then(|o| o.get(f)) {
                Some(v) => m.insert(f.into(), v.clone()),
                None => m.shift_remove(f),
            };
        }
    }
    copy == *old
}

/// `ConfirmNoEscalation`: the message when `user`, holding `owned` in the request's
/// namespace, does not hold every rule of `rules`.
fn confirm_no_escalation(
    user: &UserInfo,
    owned: &Rules,
    rules: &[PolicyRule],
) -> Result<(), String> {
    let missing = uncovered(&owned.rules, rules);
    if missing.is_empty() {
        return Ok(());
    }
    let mut lines: Vec<String> = compact(&missing)
        .iter()
        .map(PolicyRule::compact_string)
        .collect();
    crate::sort::sort(&mut lines);
    lines.dedup();
    let mut msg = format!(
        "user {} (groups={}) is attempting to grant RBAC permissions not currently held:\n{}",
        go_quote(&user.name),
        quoted_list(&user.groups),
        lines.join("\n")
    );
    if !owned.errors.is_empty() {
        msg.push_str(&format!(
            "; resolution errors: [{}]",
            aggregate(&owned.errors)
        ));
    }
    Err(msg)
}

fn has_aggregation_rule(role: &Map<String, Value>) -> bool {
    role.get("aggregationRule")
        .and_then(|a| a.get("clusterRoleSelectors"))
        .and_then(Value::as_array)
        .is_some_and(|s| !s.is_empty())
}

/// The user a write is checked for: nobody for the server's own writes, for
/// `system:masters`, or for an update that changes only what the garbage collector changes.
fn checked_user<'a>(
    by: &Requester<'a>,
    new: &Map<String, Value>,
    old: Option<&Map<String, Value>>,
) -> Option<&'a UserInfo> {
    let user = by.user?;
    let exempt = escalation_allowed(user) || old.is_some_and(|old| only_gc_fields(new, old));
    (!exempt).then_some(user)
}

/// A Role or ClusterRole (`info`) write by `by`: `new`, over `old` for an update.
pub fn check_role_write(
    info: &ResourceInfo,
    by: &Requester<'_>,
    new: &Map<String, Value>,
    old: Option<&Map<String, Value>>,
) -> ApiResult<()> {
    let Some(user) = checked_user(by, new, old) else {
        return Ok(());
    };
    if escalate_authorized(by, user, info.plural) {
        return Ok(());
    }
    let (gr, name) = (info.group_resource(), map_meta_str(new, "name"));
    let owned = by.authorizer.rules_for(user, by.namespace, gr);
    let rules = PolicyRule::all_of(new.get("rules"));
    confirm_no_escalation(user, &owned, &rules).map_err(|m| ApiError::forbidden(gr, name, &m))?;
    let aggregates = has_aggregation_rule(new) || old.is_some_and(has_aggregation_rule);
    if !info.namespaced && aggregates {
        confirm_no_escalation(user, &owned, &PolicyRule::full_authority()).map_err(|_| {
            ApiError::forbidden(
                gr,
                name,
                "must have cluster-admin privileges to use the aggregationRule",
            )
        })?;
    }
    Ok(())
}

/// A RoleBinding or ClusterRoleBinding (`info`) write by `by`: `new`, over `old` for an
/// update.
pub fn check_binding_write(
    info: &ResourceInfo,
    by: &Requester<'_>,
    new: &Map<String, Value>,
    old: Option<&Map<String, Value>>,
) -> ApiResult<()> {
    let Some(user) = checked_user(by, new, old) else {
        return Ok(());
    };
    let namespace = if info.namespaced { by.namespace } else { "" };
    let role_ref = new.get("roleRef").unwrap_or(&Value::Null);
    if bind_authorized(by, user, role_ref, namespace) {
        return Ok(());
    }
    let gr = info.group_resource();
    let rules = by.authorizer.role_ref_rules(role_ref, namespace, gr)?;
    let owned = by.authorizer.rules_for(user, by.namespace, gr);
    confirm_no_escalation(user, &owned, &rules)
        .map_err(|m| ApiError::forbidden(gr, map_meta_str(new, "name"), &m))
}
