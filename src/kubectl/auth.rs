//! `kubectl auth whoami` (a SelfSubjectReview, printed as its ATTRIBUTE/VALUE table) and
//! `kubectl auth can-i VERB RESOURCE[/NAME]` (a SelfSubjectAccessReview: `yes`, or `no` and
//! exit status 1; a resource discovery does not know is asked about as written, with
//! kubectl's warning, whose printer ends the message's own newline with another).

use serde_json::{json, Value};

use super::client::Call;
use super::flags::{boolean, value, Spec};
use super::mapper::Resource;
use super::rules::Rule;
use super::tabwriter::TabWriter;
use super::{Ctx, Output};

pub const AUTH_FLAGS: &[Spec] = &[
    value("output", Some('o')),
    boolean("all-namespaces", Some('A')),
    value("subresource", None),
    boolean("quiet", Some('q')),
    boolean("list", None),
    boolean("no-headers", None),
];

/// The verbs `can-i` knows for a non-resource URL.
const NON_RESOURCE_VERBS: &[&str] = &["get", "put", "post", "head", "options", "delete", "patch"];

const KNOWN_VERBS: &[&str] = &[
    "get",
    "list",
    "watch",
    "create",
    "update",
    "patch",
    "delete",
    "deletecollection",
    "use",
    "bind",
    "impersonate",
    "*",
    "approve",
    "sign",
    "escalate",
    "attest",
];

pub fn auth(ctx: &mut Ctx<'_, '_>, out: &mut Output) {
    let args = ctx.flags.args.clone();
    match args.first().map(String::as_str) {
        Some("whoami") => whoami(ctx, out),
        Some("can-i") => can_i(ctx, out, &args[1..]),
        Some(other) => out.fail(&format!(
            "error: unknown command \"{other}\"\nSee 'kubectl auth -h' for help and examples"
        )),
        None => out.out("Inspect authorization\n\nAvailable Commands:\n  can-i         Check whether an action is allowed\n  reconcile     Reconciles rules for RBAC role, role binding, cluster role, and cluster role binding objects\n  whoami        Experimental: Check self subject attributes\n\nUsage:\n  kubectl auth [flags] [options]\n\nUse \"kubectl auth <command> --help\" for more information about a given command.\nUse \"kubectl options\" for a list of global command-line options (applies to all commands).\n"),
    }
}

/// POSTs a review (`GROUP/VERSION/RESOURCE`); the answered review, or kubectl's error.
fn create_review(
    ctx: &mut Ctx<'_, '_>,
    out: &mut Output,
    path: &str,
    body: &Value,
) -> Option<Value> {
    // The typed client: the review in Protobuf.
    let call = Call::typed_write("POST", format!("/apis/{path}"), body, "type.go:252");
    let reply = ctx.client.send(out, call);
    let review = reply.json();
    if !reply.ok() {
        let text = ctx.report(out, &review);
        out.fail(&text);
        return None;
    }
    Some(review)
}

fn whoami(ctx: &mut Ctx<'_, '_>, out: &mut Output) {
    let body = json!({"kind": "SelfSubjectReview", "apiVersion": "authentication.k8s.io/v1",
        "metadata": {"creationTimestamp": null}, "status": {"userInfo": {}}});
    let Some(review) = create_review(
        ctx,
        out,
        "authentication.k8s.io/v1/selfsubjectreviews",
        &body,
    ) else {
        return;
    };
    match ctx.flags.get("output") {
        Some("json") => return out.out(&super::printers::json(&review)),
        Some("yaml") => return out.out(&super::printers::yaml(&review)),
        _ => {}
    }
    let ui = &review["status"]["userInfo"];
    let mut w = TabWriter::new();
    w.write("ATTRIBUTE\tVALUE\n");
    if let Some(u) = ui["username"].as_str().filter(|u| !u.is_empty()) {
        w.write(&format!("Username\t{u}\n"));
    }
    if let Some(u) = ui["uid"].as_str().filter(|u| !u.is_empty()) {
        w.write(&format!("UID\t{u}\n"));
    }
    let strings = |v: &Value| -> Vec<String> {
        v.as_array()
            .into_iter()
            .flatten()
            .filter_map(|s| s.as_str().map(str::to_string))
            .collect()
    };
    let groups = strings(&ui["groups"]);
    if !groups.is_empty() {
        w.write(&format!("Groups\t[{}]\n", groups.join(" ")));
    }
    if let Some(extra) = ui["extra"].as_object() {
        let mut keys: Vec<&String> = extra.keys().collect();
        crate::sort::sort(&mut keys);
        for k in keys {
            w.write(&format!("Extra: {k}\t[{}]\n", strings(&extra[k]).join(" ")));
        }
    }
    out.out(&w.flush());
}

fn can_i(ctx: &mut Ctx<'_, '_>, out: &mut Output, args: &[String]) {
    if ctx.flags.on("list") {
        if !args.is_empty() {
            return out.fail("error: list option must be specified with no arguments");
        }
        return list(ctx, out);
    }
    let (verb, what) = match args {
        [verb, what] => (verb.clone(), what.clone()),
        _ => {
            return out.fail("error: you must specify two arguments: verb resource or verb resource/resourceName.\nSee 'kubectl auth can-i -h' for help and examples.")
        }
    };
    let spec = if what.starts_with('/') {
        if !NON_RESOURCE_VERBS.contains(&verb.as_str()) {
            out.err(&format!("Warning: verb '{verb}' is not a known verb\n\n"));
        }
        json!({"nonResourceAttributes": {"path": what, "verb": verb}})
    } else {
        json!({"resourceAttributes": resource_attributes(ctx, out, &verb, &what)})
    };
    if ctx.flags.on("no-headers") {
        return out.fail("error: --no-headers cannot be set without --list specified");
    }
    let body = json!({"kind": "SelfSubjectAccessReview", "apiVersion": "authorization.k8s.io/v1",
        "metadata": {"creationTimestamp": null},
        "spec": spec, "status": {"allowed": false}});
    let Some(review) = create_review(
        ctx,
        out,
        "authorization.k8s.io/v1/selfsubjectaccessreviews",
        &body,
    ) else {
        return;
    };
    let status = &review["status"];
    let quiet = ctx.flags.on("quiet");
    if status["allowed"] == true {
        if !quiet {
            out.out("yes\n");
        }
        return;
    }
    if !quiet {
        let mut line = "no".to_string();
        if let Some(r) = status["reason"].as_str().filter(|r| !r.is_empty()) {
            line.push_str(&format!(" - {r}"));
        }
        if let Some(e) = status["evaluationError"].as_str().filter(|e| !e.is_empty()) {
            line.push_str(&format!(" - {e}"));
        }
        out.out(&format!("{line}\n"));
    }
    out.exit = 1;
}

/// The review's resource attributes, with can-i's warnings in its order: a resource the
/// server does not have, one that is not namespaced (its group version's resource list
/// asked for, as `isNamespaced` asks), a verb it does not know.
fn resource_attributes(
    ctx: &mut Ctx<'_, '_>,
    out: &mut Output,
    verb: &str,
    what: &str,
) -> serde_json::Map<String, Value> {
    let (resource_arg, name) = match what.split_once('/') {
        Some((r, n)) => (r.to_string(), n.to_string()),
        None => (what.to_string(), String::new()),
    };
    let found = if resource_arg == "*" {
        None
    } else {
        let found = resource_for(ctx, out, &resource_arg);
        if found.is_none() {
            let lower = resource_arg.to_lowercase();
            match lower.split_once('.') {
                Some((res, group)) => out.err(&format!(
                    "Warning: the server doesn't have a resource type '{res}' in group '{group}'\n\n"
                )),
                None => out.err(&format!(
                    "Warning: the server doesn't have a resource type '{lower}'\n\n"
                )),
            }
        }
        found
    };
    let all_namespaces = ctx.flags.on("all-namespaces");
    if let (Some(r), false) = (&found, all_namespaces) {
        let path = if r.group.is_empty() {
            format!("/api/{}", r.version)
        } else {
            format!("/apis/{}/{}", r.group, r.version)
        };
        let call = Call {
            caller: "discovery_client.go:404",
            ..Call::get(path, "application/json, */*")
        };
        let list = ctx.client.send(out, call).json();
        let entry = list["resources"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|e| e["name"] == r.resource.as_str());
        if entry.is_some_and(|e| e["namespaced"] == false) {
            let scope = match r.group.as_str() {
                "" => String::new(),
                g => format!(" in group '{g}'"),
            };
            out.err(&format!(
                "Warning: resource '{}' is not namespace scoped{scope}\n\n",
                r.resource
            ));
        }
    }
    if !KNOWN_VERBS.contains(&verb) {
        out.err(&format!("Warning: verb '{verb}' is not a known verb\n\n"));
    }
    let (group, resource) = match &found {
        Some(r) => (r.group.clone(), r.resource.clone()),
        None => (String::new(), resource_arg),
    };
    let mut attrs = serde_json::Map::new();
    if !all_namespaces {
        attrs.insert("namespace".into(), json!(ctx.namespace));
    }
    attrs.insert("verb".into(), json!(verb));
    if !group.is_empty() {
        attrs.insert("group".into(), json!(group));
    }
    attrs.insert("resource".into(), json!(resource));
    if let Some(sub) = ctx.flags.get("subresource") {
        attrs.insert("subresource".into(), json!(sub));
    }
    if !name.is_empty() {
        attrs.insert("name".into(), json!(name));
    }
    attrs
}

/// can-i's `resourceFor`: `resource.version.group` looked up exactly first, then as
/// `resource.group`; discovery asked again (once) when the cache does not know it.
fn resource_for(ctx: &mut Ctx<'_, '_>, out: &mut Output, arg: &str) -> Option<Resource> {
    let lower = arg.to_lowercase();
    let mut fresh = false;
    let parts: Vec<&str> = lower.splitn(3, '.').collect();
    if let [name, version, group] = parts[..] {
        let exact = |d: &super::mapper::Discovery| {
            d.resources
                .iter()
                .find(|r| r.version == version && r.group == group && r.is_named(name))
                .cloned()
        };
        let mut found = exact(ctx.discovery(out));
        if found.is_none() {
            ctx.invalidate(out);
            fresh = true;
            found = exact(ctx.discovery(out));
        }
        if found.is_some() {
            return found;
        }
    }
    let found = ctx.discovery(out).resolve(&lower).cloned();
    if found.is_some() || fresh {
        return found;
    }
    ctx.invalidate(out);
    ctx.discovery(out).resolve(&lower).cloned()
}

/// `can-i --list`: a SelfSubjectRulesReview of the namespace, its rules as the Role
/// describer prints them, under kubectl's table printer.
fn list(ctx: &mut Ctx<'_, '_>, out: &mut Output) {
    let body = json!({"kind": "SelfSubjectRulesReview", "apiVersion": "authorization.k8s.io/v1",
        "metadata": {"creationTimestamp": null},
        "spec": {"namespace": ctx.namespace}, "status": {"resourceRules": null,
            "nonResourceRules": null, "incomplete": false}});
    let Some(review) = create_review(
        ctx,
        out,
        "authorization.k8s.io/v1/selfsubjectrulesreviews",
        &body,
    ) else {
        return;
    };
    let status = &review["status"];
    if status["incomplete"] == true {
        out.err(&format!(
            "Warning: the list may be incomplete: {}",
            status["evaluationError"].as_str().unwrap_or("")
        ));
    }
    let rules: Vec<Rule> = ["resourceRules", "nonResourceRules"]
        .iter()
        .flat_map(|k| status[*k].as_array().into_iter().flatten())
        .map(Rule::of)
        .collect();
    let mut w = TabWriter::new();
    if !ctx.flags.on("no-headers") {
        w.write("Resources\tNon-Resource URLs\tResource Names\tVerbs\n");
    }
    for r in super::rules::compacted(&rules) {
        w.write(&format!("{}\n", r.row()));
    }
    out.out(&w.flush());
}
