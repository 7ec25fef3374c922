//! `kubectl create role|clusterrole|rolebinding|clusterrolebinding`: the objects kubectl's
//! generators build (a role's rules one per API group, groups sorted, each resource checked
//! against discovery; a binding's subjects users, then groups, then service accounts),
//! POSTed as `create` POSTs.

use serde_json::{json, Value};

use super::{Ctx, Output};

fn list(ctx: &Ctx<'_, '_>, flag: &str) -> Vec<String> {
    ctx.flags
        .all(flag)
        .iter()
        .flat_map(|v| v.split(','))
        .filter(|v| !v.is_empty())
        .map(str::to_string)
        .collect()
}

/// The body of `create role` / `create clusterrole`, or kubectl's error.
pub fn role(ctx: &mut Ctx<'_, '_>, out: &mut Output, kind: &str, name: &str) -> Option<Value> {
    let verbs = list(ctx, "verb");
    if verbs.is_empty() {
        out.fail("error: at least one verb must be specified");
        return None;
    }
    let names = list(ctx, "resource-name");
    let mut by_group: Vec<(String, Vec<String>)> = Vec::new();
    for arg in list(ctx, "resource") {
        let Some(r) = ctx.resolve(&arg, out) else {
            out.fail(&format!(
                "the server doesn't have a resource type \"{arg}\""
            ));
            return None;
        };
        match by_group.iter_mut().find(|(g, _)| *g == r.group) {
            Some((_, rs)) => rs.push(r.resource.clone()),
            None => by_group.push((r.group.clone(), vec![r.resource.clone()])),
        }
    }
    crate::sort::sort_by(&mut by_group, |a, b| a.0.cmp(&b.0));
    let rules: Vec<Value> = by_group
        .into_iter()
        .map(|(group, resources)| {
            let mut rule = json!({"verbs": verbs, "apiGroups": [group], "resources": resources});
            if !names.is_empty() {
                rule["resourceNames"] = json!(names);
            }
            rule
        })
        .collect();
    let metadata = super::write::generated_metadata(ctx, name, kind == "Role");
    Some(
        json!({"kind": kind, "apiVersion": "rbac.authorization.k8s.io/v1", "metadata": metadata, "rules": rules}),
    )
}

/// The body of `create rolebinding` / `create clusterrolebinding`, or kubectl's error.
pub fn binding(ctx: &mut Ctx<'_, '_>, out: &mut Output, kind: &str, name: &str) -> Option<Value> {
    let role = ctx.flags.get("role").map(str::to_string);
    let cluster_role = ctx.flags.get("clusterrole").map(str::to_string);
    let role_ref = match (kind, role, cluster_role) {
        ("RoleBinding", Some(r), None) => {
            json!({"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": r})
        }
        (_, None, Some(c)) => {
            json!({"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": c})
        }
        ("RoleBinding", _, _) => {
            out.fail("error: exactly one of clusterrole or role must be specified");
            return None;
        }
        _ => {
            out.fail("error: clusterrole must be specified");
            return None;
        }
    };
    let mut subjects = Vec::new();
    for u in list(ctx, "user") {
        subjects.push(json!({"kind": "User", "apiGroup": "rbac.authorization.k8s.io", "name": u}));
    }
    for g in list(ctx, "group") {
        subjects.push(json!({"kind": "Group", "apiGroup": "rbac.authorization.k8s.io", "name": g}));
    }
    for sa in list(ctx, "serviceaccount") {
        let Some((ns, n)) = sa.split_once(':') else {
            out.fail("error: serviceaccount must be <namespace>:<name>");
            return None;
        };
        subjects.push(json!({"kind": "ServiceAccount", "name": n, "namespace": ns}));
    }
    let metadata = super::write::generated_metadata(ctx, name, kind == "RoleBinding");
    let mut obj =
        json!({"kind": kind, "apiVersion": "rbac.authorization.k8s.io/v1", "metadata": metadata});
    if !subjects.is_empty() {
        obj["subjects"] = json!(subjects);
    }
    obj["roleRef"] = role_ref;
    Some(obj)
}
