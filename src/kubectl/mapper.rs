//! What kubectl knows of the server's resources: aggregated discovery (`/api`, `/apis`),
//! kept between commands as kubectl's discovery cache keeps it, and thrown away and asked
//! again when a command names a resource it does not know ("Invalidating discovery
//! information"); and kubectl's RESTMapper, which turns `cm`, `configmap`, `ConfigMap`,
//! `configmaps.v1.` or `controllerrevisions.apps` into one resource.

use serde_json::Value;

use super::client::{Call, Client, DISCOVERY_ACCEPT};
use super::Output;

/// One served resource of one group version.
#[derive(Debug, Clone, PartialEq)]
pub struct Resource {
    pub group: String,
    pub version: String,
    pub resource: String,
    pub singular: String,
    pub kind: String,
    pub namespaced: bool,
    pub verbs: Vec<String>,
    pub short_names: Vec<String>,
    pub categories: Vec<String>,
    /// Whether `version` is its group's preferred (first listed) version.
    pub preferred: bool,
}

impl Resource {
    /// `apps/v1`, or `v1` for the core group.
    pub fn group_version(&self) -> String {
        if self.group.is_empty() {
            self.version.clone()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }

    /// The collection's path in `namespace` (ignored for a cluster-scoped resource).
    pub fn collection(&self, namespace: Option<&str>) -> String {
        let base = if self.group.is_empty() {
            format!("/api/{}", self.version)
        } else {
            format!("/apis/{}/{}", self.group, self.version)
        };
        match namespace {
            Some(ns) if self.namespaced => format!("{base}/namespaces/{ns}/{}", self.resource),
            _ => format!("{base}/{}", self.resource),
        }
    }

    /// `configmaps`, `controllerrevisions.apps`: Go's `GroupResource.String()`.
    pub fn group_resource(&self) -> String {
        if self.group.is_empty() {
            self.resource.clone()
        } else {
            format!("{}.{}", self.resource, self.group)
        }
    }

    /// A list response's items as objects, each with the list's apiVersion and kind, as
    /// client-go's unstructured list decoding sets them; anything else as itself.
    pub fn items_of(&self, mut list: Value) -> Vec<Value> {
        let Some(Value::Array(items)) = list.get_mut("items").map(Value::take) else {
            return vec![list];
        };
        items
            .into_iter()
            .map(|mut item| {
                if let Some(m) = item.as_object_mut() {
                    m.entry("apiVersion")
                        .or_insert_with(|| Value::from(self.group_version()));
                    m.entry("kind")
                        .or_insert_with(|| Value::from(self.kind.clone()));
                }
                item
            })
            .collect()
    }

    /// Whether `name` (lower-case) names it: its resource, singular, kind or a short name.
    pub fn is_named(&self, name: &str) -> bool {
        self.resource == name
            || self.singular == name
            || self.kind.to_lowercase() == name
            || self.short_names.iter().any(|s| s == name)
    }

    /// `configmap`, `controllerrevision.apps`: how `-o name` and multi-type tables name it.
    pub fn kind_name(&self) -> String {
        let kind = self.kind.to_lowercase();
        if self.group.is_empty() {
            kind
        } else {
            format!("{kind}.{}", self.group)
        }
    }
}

/// Discovery as kubectl caches it.
#[derive(Debug, Clone, Default)]
pub struct Discovery {
    pub resources: Vec<Resource>,
    /// Every group version, in discovery's order.
    pub group_versions: Vec<String>,
}

fn parse(doc: &Value, out: &mut Discovery) {
    for group in doc["items"].as_array().into_iter().flatten() {
        let name = group["metadata"]["name"].as_str().unwrap_or("");
        for (i, version) in group["versions"]
            .as_array()
            .into_iter()
            .flatten()
            .enumerate()
        {
            let v = version["version"].as_str().unwrap_or("");
            out.group_versions.push(if name.is_empty() {
                v.to_string()
            } else {
                format!("{name}/{v}")
            });
            for r in version["resources"].as_array().into_iter().flatten() {
                let strings = |key: &str| -> Vec<String> {
                    r[key]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(|s| s.as_str().map(str::to_string))
                        .collect()
                };
                out.resources.push(Resource {
                    group: name.to_string(),
                    version: v.to_string(),
                    resource: r["resource"].as_str().unwrap_or("").to_string(),
                    singular: r["singularResource"].as_str().unwrap_or("").to_string(),
                    kind: r["responseKind"]["kind"].as_str().unwrap_or("").to_string(),
                    namespaced: r["scope"] == "Namespaced",
                    verbs: strings("verbs"),
                    short_names: strings("shortNames"),
                    categories: strings("categories"),
                    preferred: i == 0,
                });
            }
        }
    }
}

impl Discovery {
    /// Asks the server, as kubectl's discovery client does.
    pub fn fetch(client: &mut Client<'_>, out: &mut Output) -> Discovery {
        let mut d = Discovery::default();
        for (path, caller) in [
            ("/api?timeout=32s", "discovery_client.go:253"),
            ("/apis?timeout=32s", "discovery_client.go:319"),
        ] {
            let mut call = Call::get(path.to_string(), DISCOVERY_ACCEPT);
            call.caller = caller;
            let reply = client.send(out, call);
            parse(&reply.json(), &mut d);
        }
        d
    }

    /// The resource `arg` names (`cm`, `configmaps`, `configmap.v1.`, `deploy.apps`), the
    /// preferred version unless the argument names one.
    pub fn resolve(&self, arg: &str) -> Option<&Resource> {
        let arg = arg.to_lowercase();
        let (name, qualifier) = match arg.split_once('.') {
            Some((n, q)) => (n.to_string(), Some(q.to_string())),
            None => (arg.clone(), None),
        };
        let named = |r: &&Resource| r.is_named(&name);
        match qualifier {
            None => self.resources.iter().filter(|r| r.preferred).find(named),
            Some(q) => {
                // `resource.version.group` first, then `resource.group`.
                let by_version = q.split_once('.').and_then(|(v, g)| {
                    self.resources
                        .iter()
                        .filter(|r| r.version == v && r.group == g)
                        .find(named)
                });
                by_version.or_else(|| {
                    self.resources
                        .iter()
                        .filter(|r| r.preferred && r.group == q)
                        .find(named)
                })
            }
        }
    }
}
