//! The store inspector: every live object by namespace with its resourceVersion, finalizers,
//! owner and dependent links, and a terminating badge that says what it waits for, plus the
//! revision timeline. It reads the engine directly (not
//! through requests), so looking never changes what is looked at.

use std::collections::BTreeMap;

use serde_json::Value;
use yew::prelude::*;

use super::app::Ctx;
use super::timeline::Timeline;
use crate::resources::meta::strings;
use crate::ui::exchange::Draft;
use crate::ui::state::Action;

/// The label kube-apiserver's RBAC bootstrap puts on the roles and bindings it creates.
const BOOTSTRAP_LABEL: &str = "kubernetes.io/bootstrapping";
const BOOTSTRAP_VALUE: &str = "rbac-defaults";

/// Whether `o` is part of the bootstrap policy: shown folded, so a learner's own objects
/// are not below a hundred ClusterRoles.
fn bootstrap(o: &Value) -> bool {
    o["metadata"]["labels"][BOOTSTRAP_LABEL] == BOOTSTRAP_VALUE
}

/// The Store tab.
#[function_component(Inspector)]
pub fn inspector() -> Html {
    let ctx = use_context::<Ctx>().expect("Ctx");
    let sim = ctx.sim.borrow();
    let e = &sim.engine;
    let objects = e.objects();
    let links = crate::ui::links::links(&objects);
    let mut groups: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for o in objects {
        let ns = o["metadata"]["namespace"]
            .as_str()
            .unwrap_or("")
            .to_string();
        groups.entry(ns).or_default().push(o);
    }
    let total: usize = groups.values().map(Vec::len).sum();
    let sections = groups.iter().map(|(ns, objs)| {
        let title = if ns.is_empty() {
            "Cluster-scoped".to_string()
        } else {
            format!("Namespace {ns}")
        };
        let row = |o: &Value| {
            let meta = &o["metadata"];
            let kind = o["kind"].as_str().unwrap_or("").to_string();
            let name = meta["name"].as_str().unwrap_or("").to_string();
            let rv = meta["resourceVersion"].as_str().unwrap_or("").to_string();
            let mut fins = strings(meta.get("finalizers"));
            fins.extend(
                strings(o["spec"].get("finalizers"))
                    .into_iter()
                    .map(|f| format!("{f} (spec)")),
            );
            let terminating = !meta["deletionTimestamp"].is_null();
            let link = links
                .get(meta["uid"].as_str().unwrap_or(""))
                .cloned()
                .unwrap_or_default();
            let api_version = o["apiVersion"].as_str().unwrap_or("");
            let path = crate::resources::ALL
                .iter()
                .find(|r| r.kind == kind && r.api_version() == api_version)
                .map(|r| r.path(ns, &name))
                .unwrap_or_default();
            let onclick = {
                let d = ctx.dispatcher();
                Callback::from(move |_: MouseEvent| {
                    d.dispatch(Action::LoadAndSend(Draft {
                        method: "GET".into(),
                        path: path.clone(),
                        ..Draft::default()
                    }))
                })
            };
            html! {
                <tr class={classes!(terminating.then_some("terminating"))}>
                    <td>{ kind }</td>
                    <td><button type="button" class="link" {onclick}
                        title="GET it in the builder">{ name }</button></td>
                    <td class="num">{ rv }</td>
                    <td>{ for fins.iter().map(|f| html! { <code class="fin">{ f.clone() }</code> }) }</td>
                    <td class="links">
                        { for link.owners.iter().map(|(n, alive)| html! {
                            <div class={classes!("owner", (!alive).then_some("dangling"))}
                                title={if *alive { "owner" } else { "owner gone: the garbage collector acts on it" }}>
                                { format!("↑ {n}") }</div>
                        }) }
                        { for link.dependents.iter().map(|(n, block)| html! {
                            <div class="dependent" title={if *block { "dependent, blockOwnerDeletion" } else { "dependent" }}>
                                { format!("↓ {n}{}", if *block { " (blocks)" } else { "" }) }</div>
                        }) }
                    </td>
                    <td>
                        if terminating {
                            <span class="chip terminating" title={format!(
                                "deletionTimestamp {}",
                                meta["deletionTimestamp"].as_str().unwrap_or(""))}>{ "terminating" }</span>
                            { for link.waiting_for.iter().map(|w| html! { <div class="why">{ w.clone() }</div> }) }
                        }
                    </td>
                </tr>
            }
        };
        let (policy, own): (Vec<&Value>, Vec<&Value>) = objs.iter().partition(|o| bootstrap(o));
        let table = |objs: &[&Value]| html! {
            <div class="table-wrap">
                <table class="objects">
                    <thead><tr>
                        <th scope="col">{ "Kind" }</th><th scope="col">{ "Name" }</th>
                        <th scope="col">{ "resourceVersion" }</th><th scope="col">{ "Finalizers" }</th>
                        <th scope="col">{ "Owners / dependents" }</th><th scope="col">{ "State" }</th>
                    </tr></thead>
                    <tbody>{ for objs.iter().map(|o| row(o)) }</tbody>
                </table>
            </div>
        };
        html! {
            <section class="ns-group" aria-label={title.clone()}>
                <h4>{ title } <span class="hint">{ format!(" ({})", objs.len()) }</span></h4>
                if !own.is_empty() { { table(&own) } }
                if !policy.is_empty() {
                    <details class="bootstrap-policy">
                        <summary>{ format!(
                            "RBAC bootstrap policy: {} objects every cluster starts with ({BOOTSTRAP_LABEL}={BOOTSTRAP_VALUE})",
                            policy.len()) }</summary>
                        { table(&policy) }
                    </details>
                }
            </section>
        }
    });
    html! {
        <div class="inspector">
            <h3>{ "Timeline of revisions" }</h3>
            <Timeline />
            <super::informer_view::InformerView />
            <h3>{ format!("Objects ({total})") }</h3>
            { for sections }
        </div>
    }
}
