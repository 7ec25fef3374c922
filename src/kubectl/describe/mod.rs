//! `kubectl describe`: the objects found as the builder finds them (one by name, every one of
//! a type, or by `-l`; a name that is not found tried as a prefix of the type's names), each
//! read again by its kind's describer (`pkg/describe`) and printed with its events
//! (`involvedObject` field selector), laid out with describe's tabwriter (no minimum width,
//! padding 2) behind a prefix writer (two spaces per level).
//!
//! Describers written: ConfigMap, Namespace, Role, ClusterRole, RoleBinding and
//! ClusterRoleBinding (`kinds.rs`, reading with the typed client's Protobuf); every other
//! kind, custom resources included, by the generic describer (`generic.rs`, JSON). The
//! events' field selector is sent in one order where Go's map gives any.

mod generic;
mod kinds;

use serde_json::Value;

use super::client::{encode_query, Call};
use super::flags::{boolean, value, Spec};
use super::mapper::Resource;
use super::printers::format_labels;
use super::tabwriter::TabWriter;
use super::{Ctx, Output};

pub const DESCRIBE_FLAGS: &[Spec] = &[
    value("selector", Some('l')),
    boolean("all-namespaces", Some('A')),
    value("show-events", None),
    value("chunk-size", None),
    value("filename", Some('f')),
];

const SKIPPED_ANNOTATION: &str = "kubectl.kubernetes.io/last-applied-configuration";
const MAX_ANNOTATION: usize = 140;

/// One object to describe: its resource, namespace (empty when cluster-scoped) and name.
struct Target {
    resource: Resource,
    namespace: String,
    name: String,
}

pub fn describe(ctx: &mut Ctx<'_, '_>, out: &mut Output) {
    let args = ctx.flags.args.clone();
    if args.is_empty() {
        return out.fail("error: You must specify the type of resource to describe. Use \"kubectl api-resources\" for a complete list of supported resources.\n");
    }
    let mut errors = Vec::new();
    let targets = if args.iter().any(|a| a.contains('/')) || args.len() > 1 {
        let Some(named) = super::write::named(ctx, out, "describe") else {
            return;
        };
        let mut found = Vec::new();
        for (resource, name) in named {
            let reply = ctx.get_named(out, &resource, &name, "application/json");
            if reply.ok() {
                found.push(target_of(resource, &reply.json()));
            } else {
                errors.push(reply.json());
            }
        }
        // A single name not found is tried as a prefix (`DescribeMatchingResources`).
        if let ([status], [ty, prefix]) = (errors.as_slice(), args.as_slice()) {
            if status["reason"] == "NotFound" && !ty.contains('/') {
                let status = status.clone();
                return matching(ctx, out, ty, prefix, &status);
            }
        }
        found
    } else {
        let Some(resource) = ctx.resolve(&args[0], out) else {
            return out.fail(&format!(
                "error: the server doesn't have a resource type \"{}\"",
                args[0]
            ));
        };
        match list(ctx, out, &resource) {
            Ok(found) => found,
            Err(status) => {
                let text = ctx.report(out, &status);
                return out.fail(&text);
            }
        }
    };
    let mut first = true;
    for t in &targets {
        let Some(text) = describe_one(ctx, out, t, &mut errors) else {
            continue;
        };
        if !first {
            out.out("\n\n");
        }
        first = false;
        out.out(&text);
    }
    if targets.is_empty() && errors.is_empty() {
        if ctx.flags.on("all-namespaces") {
            out.err("No resources found\n");
        } else {
            out.err(&format!(
                "No resources found in {} namespace.\n",
                ctx.namespace
            ));
        }
    }
    for status in errors {
        let text = ctx.report(out, &status);
        out.fail(&text);
    }
}

fn target_of(resource: Resource, obj: &Value) -> Target {
    let meta = &obj["metadata"];
    Target {
        resource,
        namespace: meta["namespace"].as_str().unwrap_or("").to_string(),
        name: meta["name"].as_str().unwrap_or("").to_string(),
    }
}

/// The builder's list of a type (`-l`, `-A`), as targets.
fn list(ctx: &mut Ctx<'_, '_>, out: &mut Output, r: &Resource) -> Result<Vec<Target>, Value> {
    let items = ctx.list_all(out, r, true)?;
    Ok(items.iter().map(|o| target_of(r.clone(), o)).collect())
}

/// `DescribeMatchingResources`: every object of the type whose name starts with `prefix`,
/// each followed by a newline; the original NotFound when none does.
fn matching(ctx: &mut Ctx<'_, '_>, out: &mut Output, ty: &str, prefix: &str, status: &Value) {
    let Some(resource) = ctx.resolve(ty, out) else {
        return;
    };
    let mut errors = Vec::new();
    let found = match list(ctx, out, &resource) {
        Ok(found) => found,
        Err(e) => {
            let text = ctx.report(out, &e);
            return out.fail(&text);
        }
    };
    let mut any = false;
    for t in found.iter().filter(|t| t.name.starts_with(prefix)) {
        any = true;
        match describe_one(ctx, out, t, &mut errors) {
            Some(text) => out.out(&format!("{text}\n")),
            None => break,
        }
    }
    if !any {
        errors.push(status.clone());
    }
    if let Some(status) = errors.first() {
        let text = ctx.report(out, status);
        out.fail(&text);
    }
}

/// The describer's own read of the object, its events, and its text; a failed read is kept
/// in `errors` (each message once).
fn describe_one(
    ctx: &mut Ctx<'_, '_>,
    out: &mut Output,
    t: &Target,
    errors: &mut Vec<Value>,
) -> Option<String> {
    let ns = (!t.namespace.is_empty()).then_some(t.namespace.as_str());
    let kind = kinds::Kind::of(&t.resource);
    let path = format!("{}/{}", t.resource.collection(ns), t.name);
    // A typed describer reads with its clientset (Protobuf), the generic one with the
    // dynamic client (JSON).
    let get = match kind {
        kinds::Kind::Generic => Call {
            caller: "simple.go:180",
            ..Call::get(path, "application/json")
        },
        _ => Call::typed_get(path, "type.go:168"),
    };
    let reply = ctx.client.send(out, get);
    let obj = reply.json();
    if !reply.ok() {
        if !errors.iter().any(|e| e["message"] == obj["message"]) {
            errors.push(obj);
        }
        return None;
    }
    let now = ctx.client.transport.now_ms();
    let show_events = ctx.flags.get("show-events") != Some("false");
    let events = (show_events && kind.shows_events())
        .then(|| events_of(ctx, out, &obj))
        .map(|list| Events { list, now });
    Some(kind.describe(ctx, out, &obj, events.as_ref()))
}

/// An object's events and the time their ages are counted to.
pub struct Events {
    pub list: Vec<Value>,
    pub now: i64,
}

fn events_of(ctx: &mut Ctx<'_, '_>, out: &mut Output, obj: &Value) -> Vec<Value> {
    let meta = &obj["metadata"];
    let ns = meta["namespace"].as_str().unwrap_or("");
    let selector = format!(
        "involvedObject.namespace={ns},involvedObject.kind={},involvedObject.uid={},involvedObject.name={}",
        obj["kind"].as_str().unwrap_or(""),
        meta["uid"].as_str().unwrap_or(""),
        meta["name"].as_str().unwrap_or("")
    );
    let base = if ns.is_empty() {
        "/api/v1/events".to_string()
    } else {
        format!("/api/v1/namespaces/{ns}/events")
    };
    let path = format!(
        "{base}?{}",
        encode_query(vec![("fieldSelector", selector), ("limit", "500".into())])
    );
    ctx.client
        .send(out, Call::typed_get(path, "type.go:204"))
        .json()["items"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

/// describe's `PrefixWriter` over its tabwriter: each line indented two spaces per level;
/// [`Page::flush`] ends a block of aligned columns early, as `w.Flush()` does.
pub struct Page {
    done: String,
    w: TabWriter,
}

impl Page {
    pub fn new() -> Page {
        Page {
            done: String::new(),
            w: TabWriter::with(0, 2),
        }
    }
    pub fn write(&mut self, level: usize, text: &str) {
        self.w.write(&"  ".repeat(level));
        self.w.write(text);
    }
    pub fn flush(&mut self) {
        self.done.push_str(&self.w.flush());
    }
    pub fn finish(mut self) -> String {
        self.flush();
        self.done
    }

    /// `printLabelsMultiline`: sorted `key=value`, one per line.
    pub fn labels(&mut self, obj: &Value) {
        let text = format_labels(obj["metadata"]["labels"].as_object());
        let mut lines = text.split(',');
        self.write(
            0,
            &format!("Labels:\t{}\n", lines.next().unwrap_or("<none>")),
        );
        for l in lines {
            self.write(0, &format!("\t{l}\n"));
        }
    }

    /// `printAnnotationsMultiline`: sorted `key: value` without the last-applied one; a long
    /// or multi-line value below its key, each line cut at 140 characters.
    pub fn annotations(&mut self, obj: &Value) {
        self.write(0, "Annotations:\t");
        let annotations = &obj["metadata"]["annotations"];
        let mut keys: Vec<&String> = annotations
            .as_object()
            .map(|m| m.keys().filter(|k| *k != SKIPPED_ANNOTATION).collect())
            .unwrap_or_default();
        if keys.is_empty() {
            self.write(0, "<none>\n");
            return;
        }
        crate::sort::sort(&mut keys);
        for (i, key) in keys.iter().enumerate() {
            if i != 0 {
                self.write(0, "\t");
            }
            let value = annotations[key.as_str()].as_str().unwrap_or("");
            let value = value.trim_end_matches('\n');
            if value.len() + key.len() + 2 > MAX_ANNOTATION || value.contains('\n') {
                self.write(0, &format!("{key}:\n"));
                for line in value.split('\n') {
                    let shown = if line.len() > MAX_ANNOTATION - 2 {
                        let cut = (0..=MAX_ANNOTATION - 2)
                            .rev()
                            .find(|&i| line.is_char_boundary(i))
                            .unwrap_or(0);
                        format!("{}...", &line[..cut])
                    } else {
                        line.to_string()
                    };
                    self.write(0, &format!("\t  {shown}\n"));
                }
            } else {
                self.write(0, &format!("{key}: {value}\n"));
            }
        }
    }

    /// `DescribeEvents`: `<none>`, or a table of its own (the columns flushed first), sorted
    /// by last timestamp, each age counted from the first.
    pub fn events(&mut self, events: &Events) {
        if events.list.is_empty() {
            self.write(0, "Events:\t<none>\n");
            return;
        }
        self.flush();
        let mut list: Vec<&Value> = events.list.iter().collect();
        let last = |e: &Value| {
            crate::codec::rfc3339::parse_full(e["lastTimestamp"].as_str().unwrap_or(""))
                .map(|t| (t.unix, t.nanos))
                .unwrap_or((i64::MIN, 0))
        };
        crate::sort::sort_by(&mut list, |a, b| last(a).cmp(&last(b)));
        self.write(0, "Events:\n  Type\tReason\tAge\tFrom\tMessage\n");
        self.write(1, "----\t------\t----\t----\t-------\n");
        for e in list {
            let age = |v: &Value| {
                crate::resources::duration::since(v, events.now)
                    .unwrap_or_else(|| "<unknown>".into())
            };
            let first = if e["eventTime"].is_string() {
                age(&e["eventTime"])
            } else {
                age(&e["firstTimestamp"])
            };
            let count = e["count"].as_i64().unwrap_or(0);
            let interval = if e["series"].is_object() {
                format!(
                    "{} (x{} over {first})",
                    age(&e["series"]["lastObservedTime"]),
                    e["series"]["count"].as_i64().unwrap_or(0)
                )
            } else if count > 1 {
                format!("{} (x{count} over {first})", age(&e["lastTimestamp"]))
            } else {
                first
            };
            let source = match e["source"]["component"].as_str() {
                Some(s) if !s.is_empty() => s,
                _ => e["reportingComponent"].as_str().unwrap_or(""),
            };
            self.write(
                1,
                &format!(
                    "{}\t{}\t{interval}\t{source}\t{}\n",
                    e["type"].as_str().unwrap_or(""),
                    e["reason"].as_str().unwrap_or(""),
                    e["message"].as_str().unwrap_or("").trim()
                ),
            );
        }
    }
}

impl Default for Page {
    fn default() -> Self {
        Page::new()
    }
}
