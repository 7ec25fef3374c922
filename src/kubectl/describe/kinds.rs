//! The typed describers kubesim's kinds have in `pkg/describe` (`describerMap`): ConfigMap,
//! Namespace, Role, ClusterRole, RoleBinding and ClusterRoleBinding. Everything else goes to
//! the generic describer.

use serde_json::Value;

use super::super::client::{with_query, Call};
use super::super::mapper::Resource;
use super::super::rules::{self, Rule};
use super::super::{Ctx, Output};
use super::{generic, Events, Page};

/// Which describer a resource gets (`DescriberFor`, else `GenericDescriberFor`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    ConfigMap,
    Namespace,
    Role,
    RoleBinding,
    Generic,
}

impl Kind {
    pub fn of(r: &Resource) -> Kind {
        match (r.group.as_str(), r.kind.as_str()) {
            ("", "ConfigMap") => Kind::ConfigMap,
            ("", "Namespace") => Kind::Namespace,
            ("rbac.authorization.k8s.io", "Role" | "ClusterRole") => Kind::Role,
            ("rbac.authorization.k8s.io", "RoleBinding" | "ClusterRoleBinding") => {
                Kind::RoleBinding
            }
            _ => Kind::Generic,
        }
    }

    /// Whether the describer searches the object's events.
    pub fn shows_events(self) -> bool {
        matches!(self, Kind::ConfigMap | Kind::Generic)
    }

    pub fn describe(
        self,
        ctx: &mut Ctx<'_, '_>,
        out: &mut Output,
        obj: &Value,
        events: Option<&Events>,
    ) -> String {
        match self {
            Kind::ConfigMap => config_map(obj, events),
            Kind::Namespace => {
                let name = obj["metadata"]["name"].as_str().unwrap_or("");
                // Quotas and limit ranges, asked for and left out when the server has none.
                for resource in ["resourcequotas", "limitranges"] {
                    let path = with_query(
                        format!("/api/v1/namespaces/{name}/{resource}"),
                        vec![("limit", "500".to_string())],
                    );
                    ctx.client.send(out, Call::typed_get(path, "type.go:204"));
                }
                namespace(obj)
            }
            Kind::Role => role(obj),
            Kind::RoleBinding => binding(obj),
            Kind::Generic => generic::describe(obj, events),
        }
    }
}

fn name_namespace_labels(page: &mut Page, obj: &Value, with_namespace: bool) {
    let meta = &obj["metadata"];
    page.write(
        0,
        &format!("Name:\t{}\n", meta["name"].as_str().unwrap_or("")),
    );
    if with_namespace {
        page.write(
            0,
            &format!("Namespace:\t{}\n", meta["namespace"].as_str().unwrap_or("")),
        );
    }
    page.labels(obj);
    page.annotations(obj);
}

/// The ConfigMap describer's text: each data key under a `----` rule (in the object's
/// order, where Go iterates the map at random), BinaryData sizes, the events.
pub fn config_map(obj: &Value, events: Option<&Events>) -> String {
    let mut page = Page::new();
    name_namespace_labels(&mut page, obj, true);
    page.write(0, "\nData\n====\n");
    for (k, v) in obj["data"].as_object().into_iter().flatten() {
        page.write(0, &format!("{k}:\n----\n{}\n\n", v.as_str().unwrap_or("")));
    }
    page.write(0, "\nBinaryData\n====\n");
    for (k, v) in obj["binaryData"].as_object().into_iter().flatten() {
        let bytes = v
            .as_str()
            .map_or(0, |b| b.len() / 4 * 3 - b.matches('=').count());
        page.write(0, &format!("{k}: {bytes} bytes\n"));
    }
    page.write(0, "\n");
    if let Some(events) = events {
        page.events(events);
    }
    page.finish()
}

/// `describeNamespace`: its phase and conditions (quotas and limit ranges are not served).
fn namespace(obj: &Value) -> String {
    let mut page = Page::new();
    name_namespace_labels(&mut page, obj, false);
    let status = &obj["status"];
    page.write(
        0,
        &format!("Status:\t{}\n", status["phase"].as_str().unwrap_or("")),
    );
    let conditions = status["conditions"].as_array().filter(|c| !c.is_empty());
    if let Some(conditions) = conditions {
        page.write(0, "Conditions:\n");
        page.write(1, "Type\tStatus\tLastTransitionTime\tReason\tMessage\n");
        page.write(1, "----\t------\t------------------\t------\t-------\n");
        for c in conditions {
            let at = crate::codec::rfc3339::parse(c["lastTransitionTime"].as_str().unwrap_or(""))
                .unwrap_or(-62_135_596_800);
            let s = |k: &str| c[k].as_str().unwrap_or("").to_string();
            page.write(
                1,
                &format!(
                    "{}\t{}\t{}\t{}\t{}\n",
                    s("type"),
                    s("status"),
                    crate::codec::rfc3339::format_rfc1123(at, "+0000"),
                    s("reason"),
                    s("message")
                ),
            );
        }
    }
    page.finish()
}

/// The Role and ClusterRole describers: the rules broken down, compacted and sorted.
fn role(obj: &Value) -> String {
    let rules: Vec<Rule> = obj["rules"]
        .as_array()
        .into_iter()
        .flatten()
        .map(Rule::of)
        .collect();
    let mut page = Page::new();
    name_namespace_labels(&mut page, obj, false);
    page.write(0, "PolicyRule:\n");
    page.write(1, "Resources\tNon-Resource URLs\tResource Names\tVerbs\n");
    page.write(1, "---------\t-----------------\t--------------\t-----\n");
    for r in rules::compacted(&rules) {
        page.write(1, &format!("{}\n", r.row()));
    }
    page.finish()
}

/// The RoleBinding and ClusterRoleBinding describers.
fn binding(obj: &Value) -> String {
    let mut page = Page::new();
    name_namespace_labels(&mut page, obj, false);
    let s = |v: &Value| v.as_str().unwrap_or("").to_string();
    page.write(0, "Role:\n");
    page.write(1, &format!("Kind:\t{}\n", s(&obj["roleRef"]["kind"])));
    page.write(1, &format!("Name:\t{}\n", s(&obj["roleRef"]["name"])));
    page.write(0, "Subjects:\n");
    page.write(1, "Kind\tName\tNamespace\n");
    page.write(1, "----\t----\t---------\n");
    for subject in obj["subjects"].as_array().into_iter().flatten() {
        page.write(
            1,
            &format!(
                "{}\t{}\t{}\n",
                s(&subject["kind"]),
                s(&subject["name"]),
                s(&subject["namespace"])
            ),
        );
    }
    page.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn rules_are_broken_down_compacted_and_sorted_as_kubectl_does() {
        let obj = json!({"metadata": {"name": "r"}, "rules": [
            {"apiGroups": ["", "apps"], "resources": ["configmaps", "deployments/scale"], "verbs": ["get", "list"]},
            {"apiGroups": [""], "resources": ["configmaps"], "verbs": ["watch", "get"], "resourceNames": ["a", "b"]},
            {"nonResourceURLs": ["/healthz"], "verbs": ["get", "head"]}
        ]});
        let text = role(&obj);
        assert_eq!(
            text,
            "Name:         r\nLabels:       <none>\nAnnotations:  <none>\nPolicyRule:\n  \
             Resources               Non-Resource URLs  Resource Names  Verbs\n  \
             ---------               -----------------  --------------  -----\n  \
             configmaps              []                 []              [get list]\n  \
             deployments/scale       []                 []              [get list]\n  \
             configmaps.apps         []                 []              [get list]\n  \
             deployments.apps/scale  []                 []              [get list]\n  \
             \x20                       [/healthz]         []              [get]\n  \
             \x20                       [/healthz]         []              [head]\n  \
             configmaps              []                 [a]             [watch get]\n  \
             configmaps              []                 [b]             [watch get]\n"
        );
    }

    #[test]
    fn namespace_conditions_print_rfc1123z_times() {
        let ns = json!({"metadata": {"name": "gone"}, "status": {"phase": "Terminating",
            "conditions": [{"type": "NamespaceDeletionDiscoveryFailure", "status": "False",
                "lastTransitionTime": "2026-12-03T10:00:00Z", "reason": "ResourcesDiscovered",
                "message": "All resources successfully discovered"}]}});
        let text = namespace(&ns);
        assert!(text.contains("Status:       Terminating\n"), "{text}");
        assert!(
            text.contains("NamespaceDeletionDiscoveryFailure  False   Thu, 03 Dec 2026 10:00:00 +0000  ResourcesDiscovered"),
            "{text}"
        );
    }
}
