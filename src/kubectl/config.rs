//! `kubectl config`: the session's kubeconfig (one cluster and one user, `kubesim`; the
//! contexts the session makes) viewed and changed as kubectl changes the file: `view`,
//! `current-context`, `get-contexts`, `set-context` (`--current`, `--namespace`,
//! `--cluster`, `--user`), `use-context` and `delete-context`, with kubectl's messages.

use super::flags::{boolean, value, Spec};
use super::tabwriter::TabWriter;
use super::{Ctx, Output};

pub const CONFIG_FLAGS: &[Spec] = &[
    boolean("current", None),
    value("cluster", None),
    value("user", None),
    value("output", Some('o')),
    boolean("minify", None),
    boolean("raw", None),
    boolean("no-headers", None),
];

/// One kubeconfig context.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KubeContext {
    pub name: String,
    pub cluster: String,
    pub user: String,
    pub namespace: String,
}

impl KubeContext {
    /// The context a kubesim kubeconfig starts with.
    pub fn kubesim() -> KubeContext {
        KubeContext {
            name: "kubesim".into(),
            cluster: "kubesim".into(),
            user: "kubesim".into(),
            namespace: "default".into(),
        }
    }
}

pub fn config(ctx: &mut Ctx<'_, '_>, out: &mut Output) {
    let args = ctx.flags.args.clone();
    let rest = args.get(1..).unwrap_or(&[]);
    match args.first().map(String::as_str) {
        Some("view") => view(ctx, out),
        Some("current-context") => match ctx.session.current_context.as_str() {
            "" => out.fail("error: current-context is not set"),
            name => out.out(&format!("{name}\n")),
        },
        Some("get-contexts") => get_contexts(ctx, out, rest),
        Some("set-context") => set_context(ctx, out, rest),
        Some("use-context") => use_context(ctx, out, rest),
        Some("delete-context") => delete_context(ctx, out, rest),
        Some(other) => out.fail(&format!(
            "error: unknown command \"{other}\"\nSee 'kubectl config -h' for help and examples"
        )),
        None => out.fail("error: kubesim's kubectl knows config view, current-context, get-contexts, set-context, use-context and delete-context"),
    }
}

/// `config view`: the file as kubectl prints it (contexts sorted by name, secrets
/// redacted).
fn view(ctx: &mut Ctx<'_, '_>, out: &mut Output) {
    let mut contexts = ctx.session.contexts.clone();
    // --minify: only what the current context uses.
    if ctx.flags.on("minify") {
        let current = ctx.session.current_context.clone();
        if current.is_empty() {
            return out.fail("error: current-context must exist in order to minify");
        }
        contexts.retain(|c| c.name == current);
    }
    crate::sort::sort_by(&mut contexts, |a, b| a.name.cmp(&b.name));
    let contexts = if contexts.is_empty() {
        " null\n".to_string()
    } else {
        let mut text = "\n".to_string();
        for c in &contexts {
            text.push_str("- context:\n");
            if !c.cluster.is_empty() {
                text.push_str(&format!("    cluster: {}\n", c.cluster));
            }
            if !c.namespace.is_empty() {
                text.push_str(&format!("    namespace: {}\n", c.namespace));
            }
            if !c.user.is_empty() {
                text.push_str(&format!("    user: {}\n", c.user));
            }
            text.push_str(&format!("  name: {}\n", c.name));
        }
        text
    };
    let current = match ctx.session.current_context.as_str() {
        "" => "\"\"".to_string(),
        c => c.to_string(),
    };
    out.out(&format!(
        "apiVersion: v1\nclusters:\n- cluster:\n    certificate-authority-data: DATA+OMITTED\n    server: {}\n  name: kubesim\ncontexts:{contexts}current-context: {current}\nkind: Config\npreferences: {{}}\nusers:\n- name: kubesim\n  user:\n    token: REDACTED\n",
        ctx.session.server
    ));
}

/// `config get-contexts [NAME]`: the table (`*` on the current one), or names with `-o name`.
fn get_contexts(ctx: &mut Ctx<'_, '_>, out: &mut Output, names: &[String]) {
    let mut contexts = ctx.session.contexts.clone();
    crate::sort::sort_by(&mut contexts, |a, b| a.name.cmp(&b.name));
    let names_only = match ctx.flags.get("output") {
        None => false,
        Some("name") => true,
        Some(other) => {
            return out.fail(&format!(
                "error: output must be one of '' or 'name': {other}"
            ))
        }
    };
    let wanted: Vec<&KubeContext> = contexts
        .iter()
        .filter(|c| names.is_empty() || names.contains(&c.name))
        .collect();
    let mut w = TabWriter::new();
    if !names_only && !ctx.flags.on("no-headers") {
        w.write("CURRENT\tNAME\tCLUSTER\tAUTHINFO\tNAMESPACE\n");
    }
    for c in &wanted {
        if names_only {
            w.write(&format!("{}\n", c.name));
            continue;
        }
        let star = if c.name == ctx.session.current_context {
            "*"
        } else {
            ""
        };
        w.write(&format!(
            "{star}\t{}\t{}\t{}\t{}\n",
            c.name, c.cluster, c.user, c.namespace
        ));
    }
    out.out(&w.flush());
    let missing: Vec<&String> = names
        .iter()
        .filter(|n| !contexts.iter().any(|c| &c.name == *n))
        .collect();
    if let Some(first) = missing.first() {
        out.fail(&format!("error: context {first} not found"));
    }
}

/// `config set-context [NAME | --current]`: the context's cluster, user and namespace set
/// from the flags; created when it does not exist.
fn set_context(ctx: &mut Ctx<'_, '_>, out: &mut Output, args: &[String]) {
    let current = ctx.flags.on("current");
    let name = match (args, current) {
        ([], true) => {
            if ctx.session.current_context.is_empty() {
                return out.fail("error: no current context is set");
            }
            ctx.session.current_context.clone()
        }
        ([name], false) => name.clone(),
        ([_], true) => {
            return out.fail("error: you cannot specify both a context name and --current")
        }
        _ => return out.fail("error: you must specify a non-empty context name or --current\nSee 'kubectl config set-context -h' for help and examples"),
    };
    let namespace = ctx.flags.get("namespace").map(str::to_string);
    let cluster = ctx.flags.get("cluster").map(str::to_string);
    let user = ctx.flags.get("user").map(str::to_string);
    let session = &mut *ctx.session;
    let existing = session.contexts.iter_mut().find(|c| c.name == name);
    let created = existing.is_none();
    let context = match existing {
        Some(c) => c,
        None => {
            session.contexts.push(KubeContext {
                name: name.clone(),
                cluster: String::new(),
                user: String::new(),
                namespace: String::new(),
            });
            session.contexts.last_mut().expect("just pushed")
        }
    };
    if let Some(n) = namespace {
        context.namespace = n;
    }
    if let Some(c) = cluster {
        context.cluster = c;
    }
    if let Some(u) = user {
        context.user = u;
    }
    let what = if created { "created" } else { "modified" };
    out.out(&format!("Context \"{name}\" {what}.\n"));
}

fn use_context(ctx: &mut Ctx<'_, '_>, out: &mut Output, args: &[String]) {
    let [name] = args else {
        return out.fail(
            "error: Unexpected args: []\nSee 'kubectl config use-context -h' for help and examples",
        );
    };
    if !ctx.session.contexts.iter().any(|c| &c.name == name) {
        return out.fail(&format!(
            "error: no context exists with the name: \"{name}\""
        ));
    }
    ctx.session.current_context = name.clone();
    out.out(&format!("Switched to context \"{name}\".\n"));
}

fn delete_context(ctx: &mut Ctx<'_, '_>, out: &mut Output, args: &[String]) {
    let [name] = args else {
        return out.fail("error: Unexpected args: []\nSee 'kubectl config delete-context -h' for help and examples");
    };
    let file = ctx.session.kubeconfig.clone();
    let Some(at) = ctx.session.contexts.iter().position(|c| &c.name == name) else {
        return out.fail(&format!(
            "error: cannot delete context {name}, not in {file}"
        ));
    };
    ctx.session.contexts.remove(at);
    if ctx.session.current_context == *name {
        out.err("warning: this removed your active context, use \"kubectl config use-context\" to select a different one\n");
    }
    out.out(&format!("deleted context {name} from {file}\n"));
}
