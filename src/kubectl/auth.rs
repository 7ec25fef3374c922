//! `kubectl auth whoami` (a SelfSubjectReview, printed as its ATTRIBUTE/VALUE table) and
//! `kubectl auth can-i VERB RESOURCE[/NAME]` (a SelfSubjectAccessReview: `yes`, or `no` and
//! exit status 1; a resource discovery does not know is asked about as written, with
//! kubectl's warning, whose printer ends the message's own newline with another).

use serde_json::{json, Value};

use super::client::Call;
use super::flags::{boolean, value, Spec};
use super::tabwriter::TabWriter;
use super::{Ctx, Output};

pub const AUTH_FLAGS: &[Spec] = &[
    value("output", Some('o')),
    boolean("all-namespaces", Some('A')),
    value("subresource", None),
    boolean("quiet", Some('q')),
    boolean("list", None),
];

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
            "error: unknown command \"{other}\" for \"kubectl auth\"\nSee 'kubectl auth -h' for help and examples"
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
    let call = Call::with_body(
        "POST",
        format!("/apis/{path}"),
        "application/json",
        crate::codec::json::to_vec(body),
        "type.go:252",
    );
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
    let (verb, what) = match args {
        [verb, what, ..] => (verb.clone(), what.clone()),
        _ => {
            return out.fail("error: you must specify two arguments: verb resource or verb resource/resourceName.\nSee 'kubectl auth can-i -h' for help and examples")
        }
    };
    if !KNOWN_VERBS.contains(&verb.as_str()) {
        out.err(&format!("Warning: verb '{verb}' is not a known verb\n\n"));
    }
    let (resource_arg, name) = match what.split_once('/') {
        Some((r, n)) => (r.to_string(), n.to_string()),
        None => (what.clone(), String::new()),
    };
    let (group, resource) = if resource_arg == "*" {
        (String::new(), "*".to_string())
    } else {
        match ctx.discovery(out).resolve(&resource_arg).cloned() {
            Some(r) => (r.group, r.resource),
            None => {
                let (res, group) = match resource_arg.split_once('.') {
                    Some((r, g)) => (r.to_string(), g.to_string()),
                    None => (resource_arg.to_lowercase(), String::new()),
                };
                if group.is_empty() {
                    out.err(&format!(
                        "Warning: the server doesn't have a resource type '{res}'\n\n"
                    ));
                } else {
                    out.err(&format!(
                        "Warning: the server doesn't have a resource type '{res}' in group '{group}'\n\n"
                    ));
                }
                (group, resource_arg.clone())
            }
        }
    };
    let mut attrs = serde_json::Map::new();
    if !ctx.flags.on("all-namespaces") {
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
    let body = json!({"kind": "SelfSubjectAccessReview", "apiVersion": "authorization.k8s.io/v1",
        "metadata": {"creationTimestamp": null},
        "spec": {"resourceAttributes": Value::Object(attrs)}, "status": {"allowed": false}});
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
