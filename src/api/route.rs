//! Routing: from a URL path and method to what is being asked.
//!
//! Follows apiserver's `RequestInfoFactory` for resource paths (core `/api/v1/...`, grouped
//! `/apis/GROUP/VERSION/...`, namespaced and cluster scope, the deprecated `/watch/` prefix,
//! the namespace subresources) and answers unknown paths the way kube-apiserver does: a plain
//! text `404 page not found` outside any served group version, a `NotFound` Status inside one,
//! and `MethodNotAllowed` when the path exists but not for this method.

use crate::resources::{Kinds, ResourceInfo};

/// A non-resource endpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NonResource {
    Version,
    /// `/api`
    CoreVersions,
    /// `/apis`
    Groups,
    /// `/apis/GROUP`
    Group(String),
    /// `/api/v1` or `/apis/GROUP/VERSION`
    ResourceList {
        group: String,
        version: String,
    },
    /// `/openapi/v3`
    OpenApiIndex,
    /// `/openapi/v3/<key>` (e.g. `apis/apps/v1`)
    OpenApiDocument(String),
    /// `/healthz`, `/livez`, `/readyz`
    Health,
}

impl NonResource {
    /// `/api`, `/apis`, `/apis/<group>` and a group version's resource list: the documents
    /// served in any of the server's encodings.
    pub fn is_legacy_discovery(&self) -> bool {
        matches!(
            self,
            NonResource::CoreVersions
                | NonResource::Groups
                | NonResource::Group(_)
                | NonResource::ResourceList { .. }
        )
    }
}

/// The verb a resource request maps to (authorization's vocabulary).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verb {
    Get,
    List,
    Watch,
    Create,
    Update,
    Patch,
    Delete,
    DeleteCollection,
}

impl Verb {
    /// The lower-case name RBAC and discovery use.
    pub fn as_str(self) -> &'static str {
        match self {
            Verb::Get => "get",
            Verb::List => "list",
            Verb::Watch => "watch",
            Verb::Create => "create",
            Verb::Update => "update",
            Verb::Patch => "patch",
            Verb::Delete => "delete",
            Verb::DeleteCollection => "deletecollection",
        }
    }
}

/// A request against a served resource.
#[derive(Debug, Clone)]
pub struct ResourceRequest {
    pub resource: &'static ResourceInfo,
    pub verb: Verb,
    /// The namespace from the path (`None` for cluster scope or all namespaces).
    pub namespace: Option<String>,
    pub name: Option<String>,
    pub subresource: Option<String>,
}

/// Where a request goes.
#[derive(Debug, Clone)]
pub enum Route {
    NonResource(NonResource),
    Resource(ResourceRequest),
    /// Outside every served path: `text/plain` "404 page not found".
    PageNotFound,
    /// Inside a served group version, but no such resource: a NotFound Status.
    ResourceNotFound,
    /// The path exists but not for this method: 405 from the router.
    MethodNotAllowed,
    /// A custom resource's subresource it does not have: the CRD handler's NotFound for the
    /// object (`widgets.example.com "foo" not found`).
    ObjectNotFound(&'static ResourceInfo, String),
}

/// Subresources of `namespaces/NAME` that are not namespaced collections.
const NAMESPACE_SUBRESOURCES: &[&str] = &["status", "finalize"];

/// Routes `method` + `path`; `watch_param` is the parsed `watch` query flag.
pub fn route(kinds: &Kinds, method: &str, path: &str, watch_param: bool) -> Route {
    let segments: Vec<&str> = path
        .trim_start_matches('/')
        .split('/')
        .filter(|s| !s.is_empty())
        .collect();
    match segments.as_slice() {
        ["version"] => non_resource(method, NonResource::Version),
        ["healthz"] | ["livez"] | ["readyz"] => non_resource(method, NonResource::Health),
        ["openapi", "v3"] => non_resource(method, NonResource::OpenApiIndex),
        ["openapi", "v3", rest @ ..] => {
            non_resource(method, NonResource::OpenApiDocument(rest.join("/")))
        }
        ["api"] => non_resource(method, NonResource::CoreVersions),
        ["apis"] => non_resource(method, NonResource::Groups),
        ["api", version] => resource_list(kinds, method, "", version),
        ["apis", group] if kinds.serves_group(group) => {
            non_resource(method, NonResource::Group(group.to_string()))
        }
        ["apis", group, version] => resource_list(kinds, method, group, version),
        ["api", version, rest @ ..] => resource_path(kinds, method, "", version, rest, watch_param),
        ["apis", group, version, rest @ ..] => {
            resource_path(kinds, method, group, version, rest, watch_param)
        }
        _ => Route::PageNotFound,
    }
}

fn non_resource(method: &str, nr: NonResource) -> Route {
    if method == "GET" {
        Route::NonResource(nr)
    } else {
        Route::MethodNotAllowed
    }
}

/// Outside the served group versions: a served group's (or the core API's) webservice still
/// claims the path and go-restful answers a NotFound Status; anything else falls through to
/// the plain-text 404.
fn unserved_version(kinds: &Kinds, group: &str) -> Route {
    // The CRD handler hands what it does not serve to the plain-text 404.
    if group.is_empty() || (kinds.serves_group(group) && !kinds.custom_group(group)) {
        Route::ResourceNotFound
    } else {
        Route::PageNotFound
    }
}

fn resource_list(kinds: &Kinds, method: &str, group: &str, version: &str) -> Route {
    if !kinds.serves_group_version(group, version) {
        return unserved_version(kinds, group);
    }
    non_resource(
        method,
        NonResource::ResourceList {
            group: group.to_string(),
            version: version.to_string(),
        },
    )
}

fn resource_path(
    kinds: &Kinds,
    method: &str,
    group: &str,
    version: &str,
    rest: &[&str],
    watch_param: bool,
) -> Route {
    if !kinds.serves_group_version(group, version) {
        return unserved_version(kinds, group);
    }
    let route = resource_route(kinds, method, group, version, rest, watch_param);
    match route {
        // What the CRD handler does not find it hands to the plain-text 404.
        Route::ResourceNotFound if kinds.custom_group(group) => Route::PageNotFound,
        route => route,
    }
}

fn resource_route(
    kinds: &Kinds,
    method: &str,
    group: &str,
    version: &str,
    rest: &[&str],
    watch_param: bool,
) -> Route {
    let (watch_prefix, rest) = match rest {
        ["watch", tail @ ..] => (true, tail),
        _ => (false, rest),
    };
    // Split off `namespaces/NS/` unless the path is about the namespace object itself.
    let (namespace, parts): (Option<&str>, &[&str]) = match rest {
        ["namespaces", ns, tail @ ..]
            if !tail.is_empty() && !NAMESPACE_SUBRESOURCES.contains(&tail[0]) =>
        {
            (Some(*ns), tail)
        }
        _ => (None, rest),
    };
    let (plural, name, sub) = match parts {
        [plural] => (*plural, None, None),
        [plural, name] => (*plural, Some(*name), None),
        [plural, name, sub] => (*plural, Some(*name), Some(*sub)),
        _ => return Route::ResourceNotFound,
    };
    let Some(info) = kinds.lookup(group, version, plural) else {
        return Route::ResourceNotFound;
    };
    if namespace.is_some() && !info.namespaced {
        return Route::ResourceNotFound;
    }
    // A namespaced resource has only its collection at cluster scope (the all-namespaces
    // list and watch): no route names an object there.
    if namespace.is_none() && info.namespaced && name.is_some() {
        return Route::ResourceNotFound;
    }
    if let Some(s) = sub {
        if !info.subresources.iter().any(|x| x.name == s) {
            return match (info.custom, name) {
                (Some(_), Some(name)) => Route::ObjectNotFound(info, name.to_string()),
                _ => Route::ResourceNotFound,
            };
        }
    }
    let verb = match pick_verb(
        method,
        info,
        namespace.is_some(),
        name.is_some(),
        watch_prefix,
        watch_param,
    ) {
        Some(v) => v,
        None => return Route::MethodNotAllowed,
    };
    // Subresource verbs must be ones the subresource serves.
    if let Some(s) = sub {
        let served = info
            .subresources
            .iter()
            .find(|x| x.name == s)
            .map(|x| x.verbs)
            .unwrap_or(&[]);
        if !served.contains(&verb.as_str()) || watch_prefix {
            return Route::MethodNotAllowed;
        }
    } else if !info.supports(verb.as_str()) {
        return Route::MethodNotAllowed;
    }
    Route::Resource(ResourceRequest {
        resource: info,
        verb,
        namespace: namespace.map(str::to_string),
        name: name.map(str::to_string),
        subresource: sub.map(str::to_string),
    })
}

/// The verb for `method` on this path shape, or `None` when no route exists.
fn pick_verb(
    method: &str,
    info: &ResourceInfo,
    has_namespace: bool,
    has_name: bool,
    watch_prefix: bool,
    watch_param: bool,
) -> Option<Verb> {
    // A namespaced resource's collection without a namespace is the all-namespaces list:
    // only list and watch are routed there.
    let all_namespaces = info.namespaced && !has_namespace;
    if watch_prefix {
        return (method == "GET").then_some(Verb::Watch);
    }
    match (method, has_name) {
        ("GET", true) => Some(Verb::Get),
        ("GET", false) => Some(if watch_param { Verb::Watch } else { Verb::List }),
        ("POST", false) if !all_namespaces => Some(Verb::Create),
        ("PUT", true) => Some(Verb::Update),
        ("PATCH", true) => Some(Verb::Patch),
        ("DELETE", true) => Some(Verb::Delete),
        ("DELETE", false) if !all_namespaces => Some(Verb::DeleteCollection),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verb_of(
        method: &str,
        path: &str,
        watch: bool,
    ) -> Option<(Verb, Option<String>, Option<String>)> {
        match route(&Kinds::builtin(), method, path, watch) {
            Route::Resource(r) => Some((r.verb, r.namespace, r.name)),
            _ => None,
        }
    }

    #[test]
    fn path_shapes_from_the_spec() {
        use Verb::*;
        let ns = Some("default".to_string());
        let x = Some("x".to_string());
        let table = [
            (
                "GET",
                "/apis/apps/v1/controllerrevisions",
                false,
                Some((List, None, None)),
            ),
            (
                "GET",
                "/apis/apps/v1/namespaces/default/controllerrevisions",
                false,
                Some((List, ns.clone(), None)),
            ),
            (
                "GET",
                "/apis/apps/v1/namespaces/default/controllerrevisions/x",
                false,
                Some((Get, ns.clone(), x.clone())),
            ),
            (
                "GET",
                "/apis/apps/v1/namespaces/default/controllerrevisions",
                true,
                Some((Watch, ns.clone(), None)),
            ),
            (
                "GET",
                "/apis/apps/v1/watch/controllerrevisions",
                false,
                Some((Watch, None, None)),
            ),
            (
                "GET",
                "/apis/apps/v1/watch/namespaces/default/controllerrevisions",
                false,
                Some((Watch, ns.clone(), None)),
            ),
            (
                "GET",
                "/apis/apps/v1/watch/namespaces/default/controllerrevisions/x",
                false,
                Some((Watch, ns.clone(), x.clone())),
            ),
            (
                "POST",
                "/apis/apps/v1/namespaces/default/controllerrevisions",
                false,
                Some((Create, ns.clone(), None)),
            ),
            (
                "PUT",
                "/apis/apps/v1/namespaces/default/controllerrevisions/x",
                false,
                Some((Update, ns.clone(), x.clone())),
            ),
            (
                "PATCH",
                "/apis/apps/v1/namespaces/default/controllerrevisions/x",
                false,
                Some((Patch, ns.clone(), x.clone())),
            ),
            (
                "DELETE",
                "/apis/apps/v1/namespaces/default/controllerrevisions/x",
                false,
                Some((Delete, ns.clone(), x.clone())),
            ),
            (
                "DELETE",
                "/apis/apps/v1/namespaces/default/controllerrevisions",
                false,
                Some((DeleteCollection, ns.clone(), None)),
            ),
            ("GET", "/api/v1/namespaces", false, Some((List, None, None))),
            (
                "GET",
                "/api/v1/namespaces/default",
                false,
                Some((Get, None, Some("default".into()))),
            ),
            (
                "GET",
                "/api/v1/watch/namespaces/default",
                false,
                Some((Watch, None, Some("default".into()))),
            ),
            (
                "POST",
                "/api/v1/namespaces",
                false,
                Some((Create, None, None)),
            ),
        ];
        for (m, p, w, want) in table {
            assert_eq!(verb_of(m, p, w), want, "{m} {p}");
        }
    }

    #[test]
    fn unknown_and_unroutable_paths() {
        let cases = [
            ("GET", "/apis/nope.example.com/v1/things", "page"),
            ("GET", "/apis/apps/v2/controllerrevisions", "resource"),
            ("GET", "/apis/example.com/v1/things", "page"),
            ("GET", "/apis/apps/v1/controllerrevisions/x", "resource"),
            ("GET", "/foo", "page"),
            ("GET", "/apis/apps/v1/deployments", "resource"),
            (
                "GET",
                "/apis/apps/v1/namespaces/default/controllerrevisions/x/status",
                "resource",
            ),
            ("GET", "/api/v1/namespaces/default/namespaces", "resource"),
            (
                "POST",
                "/apis/apps/v1/namespaces/default/controllerrevisions/x",
                "method",
            ),
            (
                "PUT",
                "/apis/apps/v1/namespaces/default/controllerrevisions",
                "method",
            ),
            ("POST", "/apis/apps/v1/controllerrevisions", "method"),
            ("DELETE", "/apis/apps/v1/controllerrevisions", "method"),
            ("DELETE", "/api/v1/namespaces", "method"),
            (
                "HEAD",
                "/apis/apps/v1/namespaces/default/controllerrevisions/x",
                "method",
            ),
            (
                "OPTIONS",
                "/apis/apps/v1/namespaces/default/controllerrevisions",
                "method",
            ),
            ("POST", "/version", "method"),
        ];
        for (m, p, want) in cases {
            let got = match route(&Kinds::builtin(), m, p, false) {
                Route::PageNotFound => "page",
                Route::ResourceNotFound => "resource",
                Route::MethodNotAllowed => "method",
                other => panic!("{m} {p}: unexpected {other:?}"),
            };
            assert_eq!(got, want, "{m} {p}");
        }
    }

    #[test]
    fn namespace_subresources() {
        match route(
            &Kinds::builtin(),
            "PUT",
            "/api/v1/namespaces/foo/finalize",
            false,
        ) {
            Route::Resource(r) => {
                assert_eq!(r.verb, Verb::Update);
                assert_eq!(r.name.as_deref(), Some("foo"));
                assert_eq!(r.subresource.as_deref(), Some("finalize"));
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            route(
                &Kinds::builtin(),
                "DELETE",
                "/api/v1/namespaces/foo/status",
                false
            ),
            Route::MethodNotAllowed
        ));
    }
}
