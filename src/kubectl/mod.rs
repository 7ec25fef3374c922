//! kubectl, for a terminal in the tab: command lines parsed as kubectl 1.32 parses them, the
//! same requests sent to the engine (or any [`Transport`]), and what kubectl prints, to the
//! byte where the tests compare it with the real kubectl against the native server
//! (`tests/it/kubectl_parity.rs`). Each request a command sends is kept ([`Sent`]) so the
//! terminal can open it in the request builder, and `-v=6|7|8` logs it as client-go does.
//!
//! DOM-free and deterministic: the playground's terminal pane (`ui`) and native tests drive
//! the same code. Layout: [`words`] (shell words, here-documents), [`flags`] (pflag),
//! [`client`] (requests and their logs), [`mapper`] (discovery and resource names),
//! [`openapi`] (the OpenAPI v3 documents), [`tabwriter`], [`printers`] (with
//! `resources::jsonpath`, [`gotemplate`]), [`sorter`] (`--sort-by`), [`rules`] (RBAC rule
//! rows), and one
//! module per group of commands: [`get`] ([`watch`]: `-w`), [`mod@write`] (create),
//! [`delete`], [`label`] (label, annotate), [`apply`] (apply, patch, replace), [`edit`],
//! [`describe`], [`explain`], [`auth`] (whoami, can-i), [`info`] (api-resources,
//! api-versions, version), [`config`].

pub mod apply;
pub mod auth;
pub mod client;
pub mod config;
mod ctx;
pub mod delete;
pub mod describe;
pub mod edit;
pub mod explain;
pub mod flags;
pub mod get;
pub mod gotemplate;
pub mod info;
pub mod label;
pub mod mapper;
pub mod openapi;
pub mod printers;
pub mod rbac;
pub mod rules;
pub mod sorter;
pub mod tabwriter;
#[cfg(test)]
mod tests;
pub mod watch;
pub mod words;
pub mod write;

pub use client::{Sent, Transport};
pub use ctx::Ctx;

use client::Client;
use mapper::Discovery;

/// Which stream a piece of output went to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    Out,
    Err,
}

/// What one command printed and sent.
#[derive(Debug, Default)]
pub struct Output {
    /// Output in the order it was written, each piece on its stream.
    pub pieces: Vec<(Stream, String)>,
    /// kubectl's exit status.
    pub exit: i32,
    /// The requests sent, in order.
    pub sent: Vec<Sent>,
    /// A `get -w` still watching: poll it with [`Kubectl::poll`].
    pub watching: Option<watch::Watching>,
    /// An `edit` waiting for its editor: hand the saved text to [`Kubectl::finish_edit`].
    pub editing: Option<edit::Editing>,
}

impl Output {
    pub fn out(&mut self, text: &str) {
        self.push(Stream::Out, text);
    }
    pub fn err(&mut self, text: &str) {
        self.push(Stream::Err, text);
    }
    fn push(&mut self, stream: Stream, text: &str) {
        if text.is_empty() {
            return;
        }
        match self.pieces.last_mut() {
            Some((s, t)) if *s == stream => t.push_str(text),
            _ => self.pieces.push((stream, text.to_string())),
        }
    }
    /// Everything written to standard output.
    pub fn stdout(&self) -> String {
        self.on(Stream::Out)
    }
    /// Everything written to standard error.
    pub fn stderr(&self) -> String {
        self.on(Stream::Err)
    }
    fn on(&self, stream: Stream) -> String {
        self.pieces
            .iter()
            .filter(|(s, _)| *s == stream)
            .map(|(_, t)| t.as_str())
            .collect()
    }
    /// Both streams as a terminal shows them.
    pub fn text(&self) -> String {
        self.pieces.iter().map(|(_, t)| t.as_str()).collect()
    }
    /// kubectl's way of failing: `error: ...` (or cobra's `Error: ...`) and exit status 1.
    pub fn fail(&mut self, text: &str) {
        self.err(text);
        if !text.ends_with('\n') {
            self.err("\n");
        }
        self.exit = 1;
    }
}

/// A kubectl session: what persists between commands (the kubeconfig's namespace, the
/// discovery cache).
#[derive(Debug)]
pub struct Kubectl {
    /// The kubeconfig's contexts and the current one's name.
    pub contexts: Vec<config::KubeContext>,
    pub current_context: String,
    /// The base URL the log lines print (the native server's in the parity tests).
    pub server: String,
    /// The kubeconfig file the `-v` lines name.
    pub kubeconfig: String,
    discovery: Option<Discovery>,
    /// Edits opened so far (each one's file is named after the count).
    edits: u32,
}

impl Default for Kubectl {
    fn default() -> Self {
        Kubectl::new()
    }
}

/// A command: its flags and its handler.
struct Command {
    name: &'static str,
    flags: &'static [flags::Spec],
    run: fn(&mut Ctx<'_, '_>, &mut Output),
}

const COMMANDS: &[Command] = &[
    Command {
        name: "get",
        flags: get::FLAGS,
        run: get::run,
    },
    Command {
        name: "describe",
        flags: describe::DESCRIBE_FLAGS,
        run: describe::describe,
    },
    Command {
        name: "explain",
        flags: explain::EXPLAIN_FLAGS,
        run: explain::explain,
    },
    Command {
        name: "edit",
        flags: edit::EDIT_FLAGS,
        run: edit::edit,
    },
    Command {
        name: "create",
        flags: write::CREATE_FLAGS,
        run: write::create,
    },
    Command {
        name: "delete",
        flags: delete::DELETE_FLAGS,
        run: delete::delete,
    },
    Command {
        name: "label",
        flags: label::LABEL_FLAGS,
        run: label::label,
    },
    Command {
        name: "annotate",
        flags: label::LABEL_FLAGS,
        run: label::annotate,
    },
    Command {
        name: "apply",
        flags: apply::APPLY_FLAGS,
        run: apply::apply,
    },
    Command {
        name: "patch",
        flags: apply::PATCH_FLAGS,
        run: apply::patch,
    },
    Command {
        name: "replace",
        flags: apply::REPLACE_FLAGS,
        run: apply::replace,
    },
    Command {
        name: "auth",
        flags: auth::AUTH_FLAGS,
        run: auth::auth,
    },
    Command {
        name: "api-resources",
        flags: info::API_RESOURCES_FLAGS,
        run: info::api_resources,
    },
    Command {
        name: "version",
        flags: info::VERSION_FLAGS,
        run: info::version,
    },
    Command {
        name: "config",
        flags: config::CONFIG_FLAGS,
        run: config::config,
    },
    Command {
        name: "api-versions",
        flags: &[],
        run: info::api_versions,
    },
];

/// The command names, for completion.
pub fn command_names() -> impl Iterator<Item = &'static str> {
    COMMANDS.iter().map(|c| c.name)
}

/// The flags `command` takes besides the global ones (none for an unknown command).
pub fn command_flags(command: &str) -> &'static [flags::Spec] {
    COMMANDS
        .iter()
        .find(|c| c.name == command)
        .map_or(&[], |c| c.flags)
}

impl Kubectl {
    pub fn new() -> Kubectl {
        Kubectl {
            contexts: vec![config::KubeContext::kubesim()],
            current_context: "kubesim".into(),
            server: "https://kubesim.local".into(),
            kubeconfig: "/home/learner/.kube/config".into(),
            discovery: None,
            edits: 0,
        }
    }

    /// The current context's namespace (`default` when it names none).
    pub fn namespace(&self) -> String {
        self.namespace_in(&self.current_context)
    }

    /// The namespace of context `name` (`default` when it names none).
    fn namespace_in(&self, name: &str) -> String {
        self.contexts
            .iter()
            .find(|c| c.name == name)
            .map(|c| c.namespace.clone())
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| "default".into())
    }

    /// The resources discovery found (for completion), if asked yet.
    pub fn discovered(&self) -> Option<&Discovery> {
        self.discovery.as_ref()
    }

    /// Forgets discovery (a new cluster).
    pub fn forget_discovery(&mut self) {
        self.discovery = None;
    }

    /// Runs one command line (`kubectl get cm -n demo`, a here-document after it).
    pub fn run(&mut self, line: &str, transport: &mut dyn Transport) -> Output {
        let mut out = Output::default();
        let parsed = match words::split(line) {
            Ok(p) => p,
            Err(e) => {
                out.err(&format!("bash: {e}\n"));
                out.exit = 2;
                return out;
            }
        };
        let mut words = parsed.words.into_iter();
        match words.next().as_deref() {
            Some("kubectl" | "k") => {}
            Some(other) => {
                out.err(&format!("bash: {other}: command not found\n"));
                out.exit = 127;
                return out;
            }
            None => return out,
        }
        let rest: Vec<String> = words.collect();
        let Some(at) = rest.iter().position(|w| !w.starts_with('-')) else {
            out.out(&usage());
            return out;
        };
        let name = rest[at].as_str();
        let Some(command) = COMMANDS.iter().find(|c| c.name == name) else {
            out.fail(&unknown_command(name));
            return out;
        };
        let mut args: Vec<String> = rest[..at].to_vec();
        args.extend(rest[at + 1..].iter().cloned());
        let flags = match flags::parse(&args, command.flags) {
            Ok(f) => f,
            Err(e) => {
                out.fail(&format!(
                    "Error: {e}\nSee 'kubectl {} --help' for usage.",
                    command.name
                ));
                return out;
            }
        };
        // The kubeconfig's checks, before any command runs.
        if let Some(name) = flags.get("context") {
            if !self.contexts.iter().any(|c| c.name == name) {
                out.fail(&format!(
                    "Error in configuration: context was not found for specified context: {name}"
                ));
                return out;
            }
        }
        if flags
            .get("request-timeout")
            .is_some_and(|t| request_timeout(t).is_none() && t != "0")
        {
            out.fail("error: Invalid timeout value. Timeout must be a single integer in seconds, or an integer followed by a corresponding time unit (e.g. 1s | 2m | 3h)");
            return out;
        }
        if flags.get("as").is_none() && (flags.has("as-uid") || flags.has("as-group")) {
            out.fail("error: requesting uid, groups or user-extra for kubesim without impersonating a user");
            return out;
        }
        let mut ctx = self.context(flags, parsed.stdin, transport);
        if ctx.client.verbosity >= 6 {
            let line = format!("Config loaded from file:  {}", ctx.session.kubeconfig);
            ctx.client.log(&mut out, "loader.go:402", &line);
        }
        (command.run)(&mut ctx, &mut out);
        // --warnings-as-errors: the command fails when the server warned.
        let warned = ctx.client.warnings.len();
        if warned > 0 && ctx.flags.on("warnings-as-errors") {
            let plural = if warned == 1 { "warning" } else { "warnings" };
            let line = format!("\"command failed\" err=\"{warned} {plural} received\"");
            let stamp = ctx.client.log_header("run.go:72");
            out.err(&format!("E{}{line}\n", &stamp[1..]));
            out.exit = 1;
        }
        out
    }

    /// A command's context: its flags, a client sending as they say (`-v`, `--as`), the
    /// namespace.
    fn context<'a, 't>(
        &'a mut self,
        flags: flags::Parsed,
        stdin: Option<String>,
        transport: &'t mut dyn Transport,
    ) -> Ctx<'a, 't> {
        let verbosity = flags.get("v").and_then(|v| v.parse().ok()).unwrap_or(0);
        let client = Client {
            transport,
            server: self.server.clone(),
            verbosity,
            impersonate: flags.get("as").map(str::to_string),
            impersonate_groups: flags
                .all("as-group")
                .iter()
                .map(|s| s.to_string())
                .collect(),
            impersonate_uid: flags.get("as-uid").map(str::to_string),
            timeout: flags.get("request-timeout").and_then(request_timeout),
            warnings: Vec::new(),
            raw: false,
        };
        let context_namespace = match flags.get("context") {
            Some(name) => self.namespace_in(name),
            None => self.namespace(),
        };
        let namespace = flags
            .get("namespace")
            .map(str::to_string)
            .unwrap_or(context_namespace);
        Ctx {
            flags,
            client,
            session: self,
            stdin,
            namespace,
            openapi: None,
        }
    }

    /// The editor of an `edit` closed with `saved` in its file (the text it was given, for
    /// quitting without saving): the rest of the command.
    pub fn finish_edit(
        &mut self,
        editing: edit::Editing,
        saved: &str,
        transport: &mut dyn Transport,
    ) -> Output {
        let mut out = Output::default();
        let mut ctx = self.context(editing.flags.clone(), None, transport);
        ctx.namespace = editing.namespace.clone();
        edit::finish(&mut ctx, &mut out, editing, saved);
        out
    }

    /// What a running `get -w` printed since it was last polled; `None` once it ended.
    pub fn poll(&mut self, watching: &mut watch::Watching) -> Output {
        let mut out = Output::default();
        watching.pull(&mut out);
        out
    }
}

/// Every command kubectl 1.32 has, in the order it registers them (cobra suggests in this
/// order).
const KUBECTL_COMMANDS: &[&str] = &[
    "create",
    "expose",
    "run",
    "set",
    "explain",
    "get",
    "edit",
    "delete",
    "rollout",
    "scale",
    "autoscale",
    "certificate",
    "cluster-info",
    "top",
    "cordon",
    "uncordon",
    "drain",
    "taint",
    "describe",
    "logs",
    "attach",
    "exec",
    "port-forward",
    "proxy",
    "cp",
    "auth",
    "debug",
    "events",
    "diff",
    "apply",
    "patch",
    "replace",
    "wait",
    "kustomize",
    "label",
    "annotate",
    "completion",
    "api-resources",
    "api-versions",
    "config",
    "plugin",
    "version",
    "options",
];

/// cobra's unknown-command error: `Did you mean this?` and each command within two edits
/// of the name (case ignored) or starting with it.
fn unknown_command(name: &str) -> String {
    let lower = name.to_lowercase();
    let suggestions: Vec<&str> = KUBECTL_COMMANDS
        .iter()
        .copied()
        .filter(|c| levenshtein(&lower, c) <= 2 || c.starts_with(&lower))
        .collect();
    let mut text = format!("Error: unknown command \"{name}\" for \"kubectl\"\n");
    if !suggestions.is_empty() {
        text.push_str("\nDid you mean this?\n");
        for s in suggestions {
            text.push_str(&format!("\t{s}\n"));
        }
        text.push('\n');
    }
    text
}

/// The edit distance cobra's `ld` computes (insertions, deletions, substitutions).
fn levenshtein(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = if ca == cb {
                prev
            } else {
                1 + prev.min(row[j]).min(row[j + 1])
            };
            prev = cur;
        }
    }
    row[b.len()]
}

/// `--request-timeout`: whole seconds, or a Go duration; `None` for zero (no timeout) or
/// what does not parse.
fn request_timeout(t: &str) -> Option<String> {
    let ns = if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
        t.parse::<i64>().ok()?.checked_mul(1_000_000_000)?
    } else {
        crate::resources::custom::formats::go_parse_duration(t)?
    };
    (ns > 0).then(|| client::go_duration(ns))
}

fn usage() -> String {
    "kubectl controls the Kubernetes cluster manager.\n\n Find more information at: https://kubernetes.io/docs/reference/kubectl/\n".to_string()
}

/// How kubectl prints a Status it got (`cmdutil.CheckErr`): `Error from server (NotFound):
/// configmaps "x" not found`; an Invalid one from its details, each cause `field: message`
/// (one on the line, several as `* ` lines below it).
pub fn server_error(status: &serde_json::Value) -> String {
    let message = status["message"].as_str().unwrap_or("");
    let reason = status["reason"].as_str().unwrap_or("");
    if reason == "Invalid" {
        let details = &status["details"];
        let kind = details["kind"].as_str().unwrap_or("");
        let name = details["name"].as_str().unwrap_or("");
        let head = if !kind.is_empty() || !name.is_empty() {
            format!(
                "The {kind} {} is invalid",
                crate::codec::goquote::go_quote(name)
            )
        } else {
            "The request is invalid".to_string()
        };
        let causes = causes_of(status);
        return match causes.as_slice() {
            [] => head,
            [one] => format!("{head}: {one}"),
            many => format!("{head}: \n* {}", many.join("\n* ")),
        };
    }
    if reason.is_empty() {
        return format!("Error from server: {message}");
    }
    format!("Error from server ({reason}): {message}")
}

/// An Invalid Status's causes as kubectl prints them: `field: message`.
pub fn causes_of(status: &serde_json::Value) -> Vec<String> {
    status["details"]["causes"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| {
            format!(
                "{}: {}",
                c["field"].as_str().unwrap_or(""),
                c["message"].as_str().unwrap_or("")
            )
        })
        .collect()
}
