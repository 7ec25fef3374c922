//! The 403 every denial answers with (`responsewriters.Forbidden` + `forbiddenMessage`,
//! wrapped by `apierrors.NewForbidden`).

use crate::resources::rbac::{Attributes, UserInfo};
use crate::resources::status::{ApiError, Details, GroupResource};

/// `forbiddenMessage`: who cannot do what, where.
pub fn message(attrs: &Attributes, user: &UserInfo) -> String {
    let who = &user.name;
    if !attrs.resource_request {
        return format!("User {who:?} cannot {} path {:?}", attrs.verb, attrs.path);
    }
    let mut resource = attrs.resource.clone();
    if !attrs.subresource.is_empty() {
        resource = format!("{resource}/{}", attrs.subresource);
    }
    if attrs.namespace.is_empty() {
        format!(
            "User {who:?} cannot {} resource {resource:?} in API group {:?} at the cluster scope",
            attrs.verb, attrs.api_group
        )
    } else {
        format!(
            "User {who:?} cannot {} resource {resource:?} in API group {:?} in the namespace {:?}",
            attrs.verb, attrs.api_group, attrs.namespace
        )
    }
}

/// The sanitizer `Forbidden` runs the text through (`&`, `<`, `>` as HTML entities).
fn sanitize(s: &str) -> String {
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
    if attrs.resource.is_empty() {
        let mut e = ApiError::untyped(403, format!("forbidden: {inner}"));
        e.reason = "Forbidden";
        e.details = Some(Box::new(Details::default()));
        return e;
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
