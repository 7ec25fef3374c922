//! The 403 every denial answers with (`responsewriters.Forbidden` + `forbiddenMessage`,
//! wrapped by `apierrors.NewForbidden`).

use crate::codec::go_quote as q;
use crate::resources::rbac::{Attributes, UserInfo};
use crate::resources::status::{ApiError, GroupResource};

/// `forbiddenMessage`: who cannot do what, where.
pub fn message(attrs: &Attributes, user: &UserInfo) -> String {
    let (who, verb) = (q(&user.name), &attrs.verb);
    if !attrs.resource_request {
        return format!("User {who} cannot {verb} path {}", q(&attrs.path));
    }
    let mut resource = attrs.resource.clone();
    if !attrs.subresource.is_empty() {
        resource = format!("{resource}/{}", attrs.subresource);
    }
    let (resource, group) = (q(&resource), q(&attrs.api_group));
    if attrs.namespace.is_empty() {
        format!("User {who} cannot {verb} resource {resource} in API group {group} at the cluster scope")
    } else {
        format!(
            "User {who} cannot {verb} resource {resource} in API group {group} in the namespace {}",
            q(&attrs.namespace)
        )
    }
}

/// The sanitizer `Forbidden` and `InternalError` run their text through (`&`, `<`, `>` as
/// HTML entities).
pub fn sanitize(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The 403 for a denied request; `reason` (the authorizer's) follows the text after `: `.
pub fn forbidden(attrs: &Attributes, user: &UserInfo, reason: &str) -> ApiError {
    let mut inner = sanitize(&message(attrs, user));
    if !reason.is_empty() {
        inner = format!("{inner}: {reason}");
    }
    let gr = GroupResource {
        group: &attrs.api_group,
        resource: &attrs.resource,
    };
    ApiError::forbidden(gr, &attrs.name, &inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn denials_read_as_the_real_server_writes_them() {
        let alice = UserInfo::new("alice", &[]);
        let e = forbidden(
            &Attributes::resource("get", "apps", "controllerrevisions", "default", "x"),
            &alice,
            "",
        );
        assert_eq!(e.message, "controllerrevisions.apps \"x\" is forbidden: User \"alice\" cannot get resource \"controllerrevisions\" in API group \"apps\" in the namespace \"default\"");
        let e = forbidden(
            &Attributes::resource("list", "", "namespaces", "", ""),
            &alice,
            "",
        );
        assert_eq!(e.message, "namespaces is forbidden: User \"alice\" cannot list resource \"namespaces\" in API group \"\" at the cluster scope");
        let e = forbidden(
            &Attributes::resource("update", "", "namespaces", "n", "n")
                .with_subresource("finalize"),
            &alice,
            "RBAC: clusterrole.rbac.authorization.k8s.io \"x\" not found",
        );
        assert_eq!(e.message, "namespaces \"n\" is forbidden: User \"alice\" cannot update resource \"namespaces/finalize\" in API group \"\" in the namespace \"n\": RBAC: clusterrole.rbac.authorization.k8s.io \"x\" not found");
        let e = forbidden(
            &Attributes::non_resource("get", "/openapi/v3?a<b"),
            &alice,
            "",
        );
        assert_eq!(
            e.message,
            "forbidden: User \"alice\" cannot get path \"/openapi/v3?a&lt;b\""
        );
        assert_eq!(e.to_status()["details"], serde_json::json!({}));
        assert_eq!(e.code, 403);
    }
}
