//! What a request asks for, in authorization's terms: apiserver's `RequestInfoFactory`
//! (`pkg/endpoints/request/requestinfo.go`).
//!
//! This is decided from the path, method and query alone, before routing: a request for a
//! resource the server does not serve is still authorized as a resource request (and an
//! anonymous caller gets 403, not 404), exactly as kube-apiserver's filter chain does.

use crate::resources::rbac::Attributes;
use crate::resources::validation::names::is_valid_path_segment_name;
use crate::selectors::field::FieldSelector;

/// Verbs that can appear as a path segment before the resource (`/api/v1/watch/pods`).
const SPECIAL_VERBS: &[&str] = &["proxy", "watch"];
/// Subresources of a namespace that are not namespaced collections.
const NAMESPACE_SUBRESOURCES: &[&str] = &["status", "finalize"];

/// The lower-case verb of a non-resource request, or a resource request's verb before the
/// collection rules (`get` on a collection becomes `list` or `watch`).
fn method_verb(method: &str) -> &'static str {
    match method {
        "POST" => "create",
        "GET" | "HEAD" => "get",
        "PUT" => "update",
        "PATCH" => "patch",
        "DELETE" => "delete",
        _ => "",
    }
}

/// The query parameters request info reads, as sent: `watch` (decoded as the router reads
/// it, so a request is authorized for the verb it is served as) and the list options, which
/// only a list or watch decodes.
#[derive(Debug, Clone, Copy, Default)]
pub struct InfoQuery<'a> {
    pub watch: bool,
    pub field_selector: Option<&'a str>,
    pub label_selector: Option<&'a str>,
    pub limit: Option<&'a str>,
    pub timeout_seconds: Option<&'a str>,
}

impl<'a> InfoQuery<'a> {
    /// `watch` is the decoded `watch`; `get` gives a parameter's first value.
    pub fn new(watch: bool, get: impl Fn(&str) -> Option<&'a str>) -> Self {
        InfoQuery {
            watch,
            field_selector: get("fieldSelector"),
            label_selector: get("labelSelector"),
            limit: get("limit"),
            timeout_seconds: get("timeoutSeconds"),
        }
    }

    /// The name a list's field selector pins (`metadata.name=x`, a valid path segment),
    /// when the list options decode as a whole. When any does not (a bad selector, a
    /// `limit` or `timeoutSeconds` that is not an integer), request info resets them all, so
    /// the plain list is authorized.
    fn list_name(&self) -> Option<String> {
        let int_ok = |v: Option<&str>| v.is_none_or(|v| v.parse::<i64>().is_ok());
        let labels_ok = self
            .label_selector
            .is_none_or(|s| crate::selectors::LabelSelector::parse(s).is_ok());
        let fields = match self.field_selector.map(FieldSelector::parse) {
            Some(Ok(sel)) => Some(sel),
            Some(Err(_)) => return None,
            None => None,
        };
        if !(labels_ok && int_ok(self.limit) && int_ok(self.timeout_seconds)) {
            return None;
        }
        fields?
            .requires_exact_match("metadata.name")
            .filter(|name| is_valid_path_segment_name(name).is_empty())
    }
}

/// The attributes of a request (`NewRequestInfo` + `GetAuthorizerAttributes`); `uri` is the
/// request URI as Go prints `req.URL` in the one error: a special verb with nothing after it
/// (`/api/v1/watch`).
pub fn attributes(
    method: &str,
    path: &str,
    uri: &str,
    query: InfoQuery<'_>,
) -> Result<Attributes, String> {
    let non_resource = || Ok(Attributes::non_resource(&method.to_ascii_lowercase(), path));
    let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
    let parts: Vec<&str> = if parts == [""] { Vec::new() } else { parts };
    if parts.len() < 3 || !matches!(parts[0], "api" | "apis") {
        return non_resource();
    }
    let mut rest = &parts[1..];
    let mut group = "";
    if parts[0] == "apis" {
        if rest.len() < 3 {
            return non_resource();
        }
        group = rest[0];
        rest = &rest[1..];
    }
    // The version (rest[0]) plays no part in authorization.
    rest = &rest[1..];
    let mut verb = method_verb(method).to_string();
    if SPECIAL_VERBS.contains(&rest[0]) {
        if rest.len() < 2 {
            return Err(format!(
                "unable to determine kind and namespace from url, {uri}"
            ));
        }
        verb = rest[0].to_string();
        rest = &rest[1..];
    }
    let mut namespace = "";
    if rest[0] == "namespaces" && rest.len() > 1 {
        namespace = rest[1];
        if rest.len() > 2 && !NAMESPACE_SUBRESOURCES.contains(&rest[2]) {
            rest = &rest[2..];
        }
    }
    let mut attrs = Attributes::resource(&verb, group, rest[0], namespace, "");
    if rest.len() >= 3 && verb != "proxy" {
        attrs.subresource = rest[2].to_string();
    }
    if rest.len() >= 2 {
        attrs.name = rest[1].to_string();
    }
    if attrs.name.is_empty() && attrs.verb == "get" {
        attrs.verb = if query.watch { "watch" } else { "list" }.into();
        if let Some(name) = query.list_name() {
            attrs.name = name;
        }
    }
    if attrs.name.is_empty() && attrs.verb == "delete" {
        attrs.verb = "deletecollection".into();
    }
    Ok(attrs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_become_attributes_as_request_info_reads_them() {
        // (method, path, query) → (resource?, verb, group, ns, resource, subresource, name | path)
        type Want = (
            bool,
            &'static str,
            &'static str,
            &'static str,
            &'static str,
            &'static str,
            &'static str,
        );
        let cases: &[(&str, &str, &str, Want)] = &[
            (
                "GET",
                "/api/v1/namespaces/default/configmaps",
                "",
                (true, "list", "", "default", "configmaps", "", ""),
            ),
            (
                "GET",
                "/api/v1/namespaces/default/configmaps",
                "watch=1",
                (true, "watch", "", "default", "configmaps", "", ""),
            ),
            (
                "GET",
                "/api/v1/namespaces/default/configmaps",
                "watch=false",
                (true, "list", "", "default", "configmaps", "", ""),
            ),
            // As `Convert_Slice_string_To_bool` reads it (and as the request is served).
            (
                "GET",
                "/api/v1/namespaces/default/configmaps",
                "watch=",
                (true, "watch", "", "default", "configmaps", "", ""),
            ),
            (
                "GET",
                "/api/v1/namespaces/default/configmaps",
                "watch=FALSE",
                (true, "list", "", "default", "configmaps", "", ""),
            ),
            // Only `0` and `false` are false: `f` is a watch.
            (
                "GET",
                "/api/v1/namespaces/default/configmaps",
                "watch=f",
                (true, "watch", "", "default", "configmaps", "", ""),
            ),
            (
                "GET",
                "/api/v1/watch/namespaces/default/configmaps",
                "",
                (true, "watch", "", "default", "configmaps", "", ""),
            ),
            (
                "GET",
                "/api/v1/namespaces/default/configmaps",
                "fieldSelector=metadata.name%3Dx",
                (true, "list", "", "default", "configmaps", "", "x"),
            ),
            (
                "GET",
                "/api/v1/namespaces/default/configmaps",
                "fieldSelector=metadata.name%21%3Dx",
                (true, "list", "", "default", "configmaps", "", ""),
            ),
            // Another list option that does not decode drops the name too.
            (
                "GET",
                "/api/v1/namespaces/default/configmaps",
                "fieldSelector=metadata.name%3Dx&limit=ten",
                (true, "list", "", "default", "configmaps", "", ""),
            ),
            (
                "GET",
                "/api/v1/namespaces/default/configmaps",
                "fieldSelector=metadata.name%3Dx&labelSelector=a%20in",
                (true, "list", "", "default", "configmaps", "", ""),
            ),
            (
                "GET",
                "/api/v1/namespaces/default/configmaps",
                "fieldSelector=metadata.name%3Dx&timeoutSeconds=1.5&watch=yes",
                (true, "watch", "", "default", "configmaps", "", ""),
            ),
            (
                "GET",
                "/api/v1/namespaces/default/configmaps",
                "fieldSelector=metadata.name%3Dx&limit=5&timeoutSeconds=-3",
                (true, "list", "", "default", "configmaps", "", "x"),
            ),
            (
                "GET",
                "/api/v1/namespaces/default/configmaps/c",
                "",
                (true, "get", "", "default", "configmaps", "", "c"),
            ),
            (
                "HEAD",
                "/api/v1/namespaces/default/configmaps/c",
                "",
                (true, "get", "", "default", "configmaps", "", "c"),
            ),
            (
                "DELETE",
                "/api/v1/namespaces/default/configmaps",
                "",
                (
                    true,
                    "deletecollection",
                    "",
                    "default",
                    "configmaps",
                    "",
                    "",
                ),
            ),
            (
                "DELETE",
                "/api/v1/namespaces/default/configmaps/c",
                "",
                (true, "delete", "", "default", "configmaps", "", "c"),
            ),
            (
                "POST",
                "/apis/apps/v1/namespaces/d/controllerrevisions",
                "",
                (true, "create", "apps", "d", "controllerrevisions", "", ""),
            ),
            (
                "PATCH",
                "/apis/apps/v1/namespaces/d/controllerrevisions/r",
                "",
                (true, "patch", "apps", "d", "controllerrevisions", "", "r"),
            ),
            (
                "PUT",
                "/api/v1/namespaces/foo",
                "",
                (true, "update", "", "foo", "namespaces", "", "foo"),
            ),
            (
                "PUT",
                "/api/v1/namespaces/foo/finalize",
                "",
                (true, "update", "", "foo", "namespaces", "finalize", "foo"),
            ),
            (
                "GET",
                "/api/v1/namespaces",
                "",
                (true, "list", "", "", "namespaces", "", ""),
            ),
            (
                "GET",
                "/apis/x.io/v1/widgets",
                "",
                (true, "list", "x.io", "", "widgets", "", ""),
            ),
            (
                "GET",
                "/api/v1",
                "",
                (false, "get", "", "", "", "", "/api/v1"),
            ),
            (
                "GET",
                "/apis/apps/v1",
                "",
                (false, "get", "", "", "", "", "/apis/apps/v1"),
            ),
            (
                "GET",
                "/version",
                "",
                (false, "get", "", "", "", "", "/version"),
            ),
            (
                "POST",
                "/openapi/v3",
                "",
                (false, "post", "", "", "", "", "/openapi/v3"),
            ),
        ];
        for (method, path, query, want) in cases {
            let q = crate::api::query::Query::parse(query);
            let info = InfoQuery::new(q.flag("watch").unwrap_or(false), |k| q.get(k));
            let a = attributes(method, path, path, info).unwrap();
            let got = (
                a.resource_request,
                a.verb.as_str(),
                a.api_group.as_str(),
                a.namespace.as_str(),
                a.resource.as_str(),
                a.subresource.as_str(),
                if a.resource_request {
                    a.name.as_str()
                } else {
                    a.path.as_str()
                },
            );
            assert_eq!(got, *want, "{method} {path}?{query}");
        }
        let err = attributes(
            "GET",
            "/api/v1/watch",
            "/api/v1/watch?x=1",
            InfoQuery::default(),
        );
        assert_eq!(
            err.unwrap_err(),
            "unable to determine kind and namespace from url, /api/v1/watch?x=1"
        );
    }
}
