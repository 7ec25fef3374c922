//! Path completion from discovery: the builder asks the engine what it serves (`/api`,
//! `/apis`, then each group-version's `APIResourceList`) as a client would, and offers every
//! path shape of the spec's table for those resources, the namespaces and objects that exist.

use serde_json::Value;

/// One resource from an `APIResourceList`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiResource {
    /// `/api/v1` or `/apis/GROUP/VERSION`.
    pub prefix: String,
    /// Plural name, e.g. `controllerrevisions` (subresources are `name/sub`).
    pub name: String,
    pub namespaced: bool,
    pub kind: String,
}

/// The group-version prefixes an `/api` (`APIVersions`) and `/apis` (`APIGroupList`)
/// document name.
pub fn group_versions(api: &Value, apis: &Value) -> Vec<String> {
    let mut out: Vec<String> = api["versions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(|v| format!("/api/{v}"))
        .collect();
    for g in apis["groups"].as_array().into_iter().flatten() {
        for v in g["versions"].as_array().into_iter().flatten() {
            if let Some(gv) = v["groupVersion"].as_str() {
                out.push(format!("/apis/{gv}"));
            }
        }
    }
    out
}

/// The resources of one `APIResourceList` served at `prefix`.
pub fn resources(prefix: &str, list: &Value) -> Vec<ApiResource> {
    list["resources"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| {
            Some(ApiResource {
                prefix: prefix.to_string(),
                name: r["name"].as_str()?.to_string(),
                namespaced: r["namespaced"].as_bool().unwrap_or(false),
                kind: r["kind"].as_str().unwrap_or("").to_string(),
            })
        })
        .collect()
}

/// An object that exists: `(group-version prefix, plural, namespace or "", name)`.
pub type ObjectRef = (String, String, String, String);

/// Fixed endpoints worth completing: discovery, OpenAPI, and kubesim's controls.
pub const FIXED: &[&str] = &[
    "/version",
    "/api",
    "/apis",
    "/openapi/v3",
    "/kubesim/v1/state",
    "/kubesim/v1/clock",
    "/kubesim/v1/clock/advance?seconds=10",
    "/kubesim/v1/cache/lag",
    "/kubesim/v1/compact",
];

/// Every path a learner may want, from the discovered resources, the namespace names and the
/// objects `(prefix, plural, namespace, name)` that exist; at most `max` entries.
pub fn suggestions(
    resources: &[ApiResource],
    namespaces: &[String],
    objects: &[ObjectRef],
    max: usize,
) -> Vec<String> {
    let mut out: Vec<String> = FIXED.iter().map(|s| s.to_string()).collect();
    let mut prefixes: Vec<&str> = resources.iter().map(|r| r.prefix.as_str()).collect();
    prefixes.dedup();
    out.extend(prefixes.iter().map(|p| p.to_string()));
    for r in resources.iter().filter(|r| !r.name.contains('/')) {
        let (p, n) = (&r.prefix, &r.name);
        out.push(format!("{p}/{n}"));
        out.push(format!("{p}/{n}?watch=1"));
        out.push(format!("{p}/{n}?limit=1"));
        if r.namespaced {
            for ns in namespaces {
                out.push(format!("{p}/namespaces/{ns}/{n}"));
                out.push(format!("{p}/watch/namespaces/{ns}/{n}"));
            }
        }
    }
    for (prefix, plural, ns, name) in objects {
        if ns.is_empty() {
            out.push(format!("{prefix}/{plural}/{name}"));
        } else {
            out.push(format!("{prefix}/namespaces/{ns}/{plural}/{name}"));
        }
    }
    for r in resources.iter().filter(|r| r.name.contains('/')) {
        // Subresources, e.g. namespaces/finalize: one example per existing parent.
        let (parent, sub) = r.name.split_once('/').unwrap_or_default();
        for (prefix, plural, ns, name) in objects {
            if plural == parent && prefix == &r.prefix && ns.is_empty() {
                out.push(format!("{prefix}/{plural}/{name}/{sub}"));
            }
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    out.retain(|p| seen.insert(p.clone()));
    out.truncate(max);
    out
}

/// What a 404 for `path` means when discovery does not list its resource: which kinds the
/// simulator serves instead (a real cluster serves far more; this one serves what its
/// discovery says). `None` when the path names a served resource, or no resource at all
/// (discovery, OpenAPI, kubesim's controls).
pub fn unserved(resources: &[ApiResource], path: &str) -> Option<String> {
    let (prefix, name) = resource_of(resources, path)?;
    let name = name.as_str();
    if resources
        .iter()
        .any(|r| r.prefix == prefix && r.name == name)
    {
        return None;
    }
    let served: Vec<String> = resources
        .iter()
        .filter(|r| !r.name.contains('/'))
        .map(|r| format!("{} ({}/{})", r.kind, r.prefix, r.name))
        .collect();
    let here = match resources.iter().any(|r| r.prefix == prefix) {
        true => format!("{prefix} does not serve {name:?}"),
        false => format!("nothing is served at {prefix}"),
    };
    Some(format!(
        "kubesim's discovery lists no such resource: {here}. It serves {}.",
        served.join(", ")
    ))
}

/// The group-version prefix and the resource a resource path names, as discovery names
/// it: `plural`, or `plural/sub` for a subresource (`namespaces/finalize`).
fn resource_of(resources: &[ApiResource], path: &str) -> Option<(String, String)> {
    let (path, _) = super::query::split(path);
    let segs: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let (prefix, rest) = match segs.as_slice() {
        ["api", v, rest @ ..] => (format!("/api/{v}"), rest),
        ["apis", g, v, rest @ ..] => (format!("/apis/{g}/{v}"), rest),
        _ => return None,
    };
    let rest = rest.strip_prefix(&["watch"]).unwrap_or(rest);
    let served = |name: &str| {
        resources
            .iter()
            .any(|r| r.prefix == prefix && r.name == name)
    };
    let name = match rest {
        [] => return None,
        // A namespace's own subresource, or a resource in the namespace.
        ["namespaces", _, sub] if served(&format!("namespaces/{sub}")) => {
            format!("namespaces/{sub}")
        }
        ["namespaces", _, plural, _, sub, ..] => format!("{plural}/{sub}"),
        ["namespaces", _, plural, ..] => plural.to_string(),
        [plural, _, sub, ..] => format!("{plural}/{sub}"),
        [plural, ..] => plural.to_string(),
    };
    Some((prefix, name))
}

/// The body placeholder for a path: the skeleton of the kind it serves (the Namespace one
/// for a path that names no served resource).
pub fn placeholder(resources: &[ApiResource], path: &str) -> String {
    let found = resource_of(resources, path).and_then(|(prefix, name)| {
        resources
            .iter()
            .find(|r| r.prefix == prefix && r.name == name)
    });
    let (api_version, kind) = match found {
        Some(r) => {
            let gv = r
                .prefix
                .trim_start_matches("/apis/")
                .trim_start_matches("/api/");
            (gv.to_string(), r.kind.clone())
        }
        None => ("v1".to_string(), "Namespace".to_string()),
    };
    format!(
        r#"{{"apiVersion": "{api_version}", "kind": "{kind}", "metadata": {{"name": "example"}}}}"#
    )
}
