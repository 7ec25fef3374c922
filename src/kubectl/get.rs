//! `kubectl get`: the builder's requests (a list in chunks of `--chunk-size` following
//! `continue`, or one GET per name; the Table Accept header for human output, plain JSON for
//! `-o json|yaml|name|jsonpath|custom-columns`), `get.go`'s printing (one table per type,
//! separated by a blank line; "No resources found in X namespace." on standard error), its
//! generic path (several objects gathered into a `kind: List`), and `-w` (the list, then a
//! watch from its resourceVersion whose events print as rows, widths remembered).

use serde_json::{json, Value};

use super::client::{Call, TABLE_ACCEPT};
use super::flags::{boolean, value, Spec};
use super::mapper::Resource;
use super::printers::{self, TableOptions, TablePrinter};
use super::tabwriter::TabWriter;
use super::{server_error, Ctx, Output};
use crate::engine::WatchStream;
use crate::resources::jsonpath::Template;

pub const FLAGS: &[Spec] = &[
    value("output", Some('o')),
    boolean("all-namespaces", Some('A')),
    value("selector", Some('l')),
    value("field-selector", None),
    value("chunk-size", None),
    boolean("watch", Some('w')),
    boolean("watch-only", None),
    boolean("output-watch-events", None),
    boolean("show-labels", None),
    boolean("show-kind", None),
    boolean("no-headers", None),
    boolean("show-managed-fields", None),
    boolean("ignore-not-found", None),
];

const FORMATS: &str = "custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,wide,yaml";

/// Go's `url.QueryEscape`.
pub fn query_escape(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// `url.Values.Encode`: keys sorted.
pub fn encode_query(mut params: Vec<(&str, String)>) -> String {
    crate::sort::sort_by(&mut params, |a, b| a.0.cmp(b.0));
    params
        .iter()
        .map(|(k, v)| format!("{k}={}", query_escape(v)))
        .collect::<Vec<_>>()
        .join("&")
}

fn with_query(path: String, params: Vec<(&str, String)>) -> String {
    if params.is_empty() {
        path
    } else {
        format!("{path}?{}", encode_query(params))
    }
}

/// How the objects are to be printed.
#[derive(Debug, Clone)]
enum Format {
    Table { wide: bool },
    Json,
    Yaml,
    Name,
    JsonPath(Template),
    Columns(Vec<(String, Template)>),
}

fn format(flag: Option<&str>) -> Result<Format, String> {
    let Some(f) = flag else {
        return Ok(Format::Table { wide: false });
    };
    let (name, arg) = match f.split_once('=') {
        Some((n, a)) => (n, Some(a)),
        None => (f, None),
    };
    Ok(match (name, arg) {
        ("wide", None) => Format::Table { wide: true },
        ("json", None) => Format::Json,
        ("yaml", None) => Format::Yaml,
        ("name", None) => Format::Name,
        ("jsonpath", Some(t)) => Format::JsonPath(Template::parse(t).map_err(|e| {
            format!("error parsing jsonpath {t}, {e}")
        })?),
        ("custom-columns", Some(spec)) => {
            let mut columns = Vec::new();
            for part in spec.split(',') {
                let Some((header, path)) = part.split_once(':') else {
                    return Err(format!("unexpected custom-columns spec: {part}, expected <header>:<json-path-expr>"));
                };
                let path = path.trim_start_matches('{').trim_end_matches('}');
                let path = if path.starts_with('.') { path.to_string() } else { format!(".{path}") };
                columns.push((header.to_string(), Template::parse(&path)?));
            }
            Format::Columns(columns)
        }
        _ => {
            return Err(format!(
                "unable to match a printer suitable for the output format \"{f}\", allowed formats are: {FORMATS}"
            ))
        }
    })
}

/// The requests of one resource type: a list, or its names.
struct Request {
    resource: Resource,
    names: Vec<String>,
}

/// Splits `TYPE NAME...`, `TYPE/NAME...` and `TYPE1,TYPE2` into per-type requests.
fn requests(ctx: &mut Ctx<'_, '_>, out: &mut Output) -> Option<(Vec<Request>, bool)> {
    let args = ctx.flags.args.clone();
    let mut reqs: Vec<Request> = Vec::new();
    let slashed = args.iter().any(|a| a.contains('/'));
    let single = if slashed {
        args.len() == 1
    } else {
        args.len() == 2 && !args[0].contains(',')
    };
    let resolve = |ctx: &mut Ctx<'_, '_>, ty: &str, out: &mut Output| match ctx.resolve(ty, out) {
        Some(r) => Some(r),
        None => {
            out.fail(&format!(
                "error: the server doesn't have a resource type \"{ty}\""
            ));
            None
        }
    };
    if slashed {
        for a in &args {
            let Some((ty, name)) = a.split_once('/') else {
                out.fail("error: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'");
                return None;
            };
            let r = resolve(ctx, ty, out)?;
            match reqs.iter_mut().find(|q| q.resource == r) {
                Some(q) => q.names.push(name.to_string()),
                None => reqs.push(Request {
                    resource: r,
                    names: vec![name.to_string()],
                }),
            }
        }
    } else {
        for ty in args[0].split(',') {
            let r = resolve(ctx, ty, out)?;
            reqs.push(Request {
                resource: r,
                names: args[1..].to_vec(),
            });
        }
    }
    Some((reqs, single))
}

pub fn run(ctx: &mut Ctx<'_, '_>, out: &mut Output) {
    if ctx.flags.args.is_empty() {
        out.fail("You must specify the type of resource to get. Use \"kubectl api-resources\" for a complete list of supported resources.\n\nerror: Required resource not specified.\nUse \"kubectl explain <resource>\" for a detailed description of that resource (e.g. kubectl explain pods).\nSee 'kubectl get -h' for help and examples");
        return;
    }
    let fmt = match format(ctx.flags.get("output")) {
        Ok(f) => f,
        Err(e) => return out.fail(&format!("error: {e}")),
    };
    let Some((reqs, single)) = requests(ctx, out) else {
        return;
    };
    if ctx.flags.on("watch") || ctx.flags.on("watch-only") {
        return watch(ctx, out, reqs, fmt);
    }
    let human = matches!(fmt, Format::Table { .. });
    let accept = if human {
        TABLE_ACCEPT
    } else {
        "application/json"
    };
    let all = ctx.flags.on("all-namespaces");
    let chunk: i64 = ctx
        .flags
        .get("chunk-size")
        .and_then(|c| c.parse().ok())
        .unwrap_or(500);
    let mut objects: Vec<(Resource, Value)> = Vec::new();
    let mut errors = false;
    for q in &reqs {
        let ns = (!all).then_some(ctx.namespace.as_str());
        let coll = q.resource.collection(ns);
        if q.names.is_empty() {
            let mut cont: Option<String> = None;
            loop {
                let mut params = Vec::new();
                if let Some(l) = ctx.flags.get("selector") {
                    params.push(("labelSelector", l.to_string()));
                }
                if let Some(f) = ctx.flags.get("field-selector") {
                    params.push(("fieldSelector", f.to_string()));
                }
                if chunk > 0 {
                    params.push(("limit", chunk.to_string()));
                }
                if let Some(c) = &cont {
                    params.push(("continue", c.clone()));
                }
                let reply = ctx
                    .client
                    .send(out, Call::get(with_query(coll.clone(), params), accept));
                let body = reply.json();
                if !reply.ok() {
                    {
                        let text = ctx.report(out, &body);
                        out.err(&format!("{text}\n"));
                    }
                    errors = true;
                    break;
                }
                cont = body["metadata"]["continue"]
                    .as_str()
                    .filter(|c| !c.is_empty())
                    .map(str::to_string);
                objects.push((q.resource.clone(), body));
                if cont.is_none() {
                    break;
                }
            }
        } else {
            for name in &q.names {
                let reply = ctx.get_named(out, &q.resource, name, accept);
                let body = reply.json();
                if reply.status == 404 && ctx.flags.on("ignore-not-found") {
                    continue;
                }
                if !reply.ok() {
                    {
                        let text = ctx.report(out, &body);
                        out.err(&format!("{text}\n"));
                    }
                    errors = true;
                    continue;
                }
                objects.push((q.resource.clone(), body));
            }
        }
    }
    if human {
        let wide = matches!(fmt, Format::Table { wide: true });
        print_tables(ctx, out, &objects, wide, errors);
    } else {
        print_generic(ctx, out, objects, single, &fmt);
    }
    if errors {
        out.exit = 1;
    }
}

fn print_tables(
    ctx: &Ctx<'_, '_>,
    out: &mut Output,
    objects: &[(Resource, Value)],
    wide: bool,
    errors: bool,
) {
    let all = ctx.flags.on("all-namespaces");
    let kinds: std::collections::BTreeSet<String> =
        objects.iter().map(|(r, _)| r.kind_name()).collect();
    let with_kind = kinds.len() > 1 || ctx.flags.on("show-kind");
    let mut w = TabWriter::new();
    let mut printer = TablePrinter::default();
    let mut last: Option<&Resource> = None;
    let mut text = String::new();
    let mut all_namespaced = !all;
    for (r, table) in objects {
        all_namespaced &= r.namespaced;
        if last != Some(r) {
            text.push_str(&w.flush());
            w.forget_widths();
            if last.is_some() && !ctx.flags.on("no-headers") && !text.is_empty() {
                // get.go's separatorWriter: a blank line before the next type's output.
                text.push('\n');
            }
            printer = TablePrinter::default();
            last = Some(r);
        }
        let options = TableOptions {
            wide,
            with_namespace: all && r.namespaced,
            show_labels: ctx.flags.on("show-labels"),
            no_headers: ctx.flags.on("no-headers"),
            kind: with_kind.then(|| r.kind_name()),
            event: None,
        };
        printer.print(table, &options, &mut w);
    }
    text.push_str(&w.flush());
    // A separator written before nothing is not written.
    let text = text.trim_end_matches('\n').to_string();
    if text.is_empty() {
        if !errors && !ctx.flags.on("ignore-not-found") {
            if all_namespaced {
                out.err(&format!(
                    "No resources found in {} namespace.\n",
                    ctx.namespace
                ));
            } else {
                out.err("No resources found\n");
            }
        }
    } else {
        out.out(&text);
        out.out("\n");
    }
}

/// A list response's items as objects, each with the list's apiVersion and kind (as
/// client-go's unstructured list decoding sets them).
fn items(resource: &Resource, list: &Value) -> Vec<Value> {
    let Some(items) = list["items"].as_array() else {
        return vec![list.clone()];
    };
    items
        .iter()
        .map(|item| {
            let mut item = item.clone();
            if let Some(m) = item.as_object_mut() {
                m.entry("apiVersion")
                    .or_insert_with(|| json!(resource.group_version()));
                m.entry("kind").or_insert_with(|| json!(resource.kind));
            }
            item
        })
        .collect()
}

fn print_generic(
    ctx: &Ctx<'_, '_>,
    out: &mut Output,
    objects: Vec<(Resource, Value)>,
    single: bool,
    fmt: &Format,
) {
    let mut all: Vec<Value> = Vec::new();
    for (r, v) in &objects {
        all.extend(items(r, v));
    }
    let show_managed = ctx.flags.on("show-managed-fields");
    let mut obj = if single
        && all.len() == 1
        && objects.iter().all(|(_, v)| v.get("items").is_none())
    {
        all.pop().expect("one")
    } else {
        json!({"apiVersion": "v1", "items": all, "kind": "List", "metadata": {"resourceVersion": ""}})
    };
    if !show_managed {
        printers::omit_managed_fields(&mut obj);
    }
    match fmt {
        Format::Json => out.out(&printers::json(&obj)),
        Format::Yaml => out.out(&printers::yaml(&obj)),
        Format::Name => {
            let objs = match obj.get("items").and_then(Value::as_array) {
                Some(items) => items.clone(),
                None => vec![obj.clone()],
            };
            for o in &objs {
                out.out(&format!("{}\n", name_of(o)));
            }
        }
        Format::JsonPath(t) => out.out(&t.execute(&obj)),
        Format::Columns(columns) => {
            let objs = match obj.get("items").and_then(Value::as_array) {
                Some(items) => items.clone(),
                None => vec![obj.clone()],
            };
            let mut w = TabWriter::new();
            if !ctx.flags.on("no-headers") {
                let h: Vec<&str> = columns.iter().map(|(h, _)| h.as_str()).collect();
                w.write(&h.join("\t"));
                w.write("\n");
            }
            for o in &objs {
                let cells: Vec<String> = columns
                    .iter()
                    .map(|(_, t)| {
                        let v = t.values(o);
                        if v.is_empty() {
                            "<none>".to_string()
                        } else {
                            v.join(",")
                        }
                    })
                    .collect();
                w.write(&cells.join("\t"));
                w.write("\n");
            }
            out.out(&w.flush());
        }
        Format::Table { .. } => {}
    }
}

/// `configmap/app`, `controllerrevision.apps/rev`: the name printer.
pub fn name_of(o: &Value) -> String {
    let kind = o["kind"].as_str().unwrap_or("").to_lowercase();
    let api = o["apiVersion"].as_str().unwrap_or("");
    let name = o["metadata"]["name"].as_str().unwrap_or("");
    match api.split_once('/') {
        Some((group, _)) => format!("{kind}.{group}/{name}"),
        None => format!("{kind}/{name}"),
    }
}

/// The EVENT cell: cli-runtime pads the known types to eight characters.
fn event_column(kind: &str) -> String {
    match kind {
        "ADDED" | "DELETED" | "ERROR" => format!("{kind:<8}"),
        other => other.to_string(),
    }
}

/// A `get -w` still running: its stream, and how it prints rows.
pub struct Watching {
    stream: Option<WatchStream>,
    printer: TablePrinter,
    writer: TabWriter,
    options: TableOptions,
    /// Events to skip: a watch of one object starts with a synthetic ADDED of what was just
    /// printed.
    skip: usize,
    partial: String,
    /// `delete`'s wait: nothing printed, and the watch ends at the object's DELETED.
    until_deleted: bool,
}

impl std::fmt::Debug for Watching {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watching").finish_non_exhaustive()
    }
}

impl Watching {
    /// `kubectl delete` waiting for an object that is still there (finalizers, a
    /// foreground or orphan cascade, a terminating namespace) to be gone.
    pub fn until_deleted(stream: Option<WatchStream>) -> Watching {
        Watching {
            stream,
            printer: TablePrinter::default(),
            writer: TabWriter::new(),
            options: TableOptions::default(),
            skip: 0,
            partial: String::new(),
            until_deleted: true,
        }
    }

    /// Whether the watch still streams.
    pub fn open(&self) -> bool {
        self.stream.is_some()
    }

    /// Ends it (Ctrl+C).
    pub fn stop(&mut self) {
        self.stream = None;
    }

    pub(super) fn pull(&mut self, out: &mut Output) {
        let Some(stream) = self.stream.as_mut() else {
            return;
        };
        let (frames, ended) = stream.drain();
        for f in frames {
            self.partial.push_str(&String::from_utf8_lossy(&f));
        }
        while let Some(at) = self.partial.find('\n') {
            let line: String = self.partial.drain(..=at).collect();
            let Ok(event) = serde_json::from_str::<Value>(line.trim()) else {
                continue;
            };
            if event["type"] == "ERROR" {
                out.err(&format!("{}\n", server_error(&event["object"])));
                continue;
            }
            if event["type"] == "BOOKMARK" {
                continue;
            }
            if self.until_deleted {
                if event["type"] == "DELETED" {
                    self.stream = None;
                    return;
                }
                continue;
            }
            if self.skip > 0 {
                self.skip -= 1;
                continue;
            }
            let mut options = self.options.clone();
            if options.event.is_some() {
                options.event = event["type"].as_str().map(event_column);
            }
            self.printer
                .print(&event["object"], &options, &mut self.writer);
            out.out(&self.writer.flush());
        }
        if ended {
            self.stream = None;
        }
    }
}

fn watch(ctx: &mut Ctx<'_, '_>, out: &mut Output, reqs: Vec<Request>, fmt: Format) {
    if reqs.len() != 1 {
        return out.fail("error: watch is only supported on individual resources and resource collections - more than 1 resource was found");
    }
    let Format::Table { wide } = fmt else {
        return out.fail("error: kubesim's kubectl prints -w only as tables");
    };
    let q = &reqs[0];
    let all = ctx.flags.on("all-namespaces");
    let coll = q
        .resource
        .collection((!all).then_some(ctx.namespace.as_str()));
    let mut params = Vec::new();
    if let Some(l) = ctx.flags.get("selector") {
        params.push(("labelSelector", l.to_string()));
    }
    let mut field = ctx.flags.get("field-selector").map(str::to_string);
    let (path, single) = match q.names.as_slice() {
        [] => (coll.clone(), false),
        [name] => (format!("{coll}/{name}"), true),
        _ => return out.fail("error: watch is only supported on individual resources and resource collections - more than 1 resource was found"),
    };
    let mut first = params.clone();
    if !single {
        if let Some(f) = &field {
            first.push(("fieldSelector", f.clone()));
        }
        first.push(("limit", "500".to_string()));
    }
    let reply = ctx
        .client
        .send(out, Call::get(with_query(path, first), TABLE_ACCEPT));
    let body = reply.json();
    if !reply.ok() {
        {
            let text = ctx.report(out, &body);
            return out.fail(&text);
        }
    }
    let options = TableOptions {
        wide,
        with_namespace: all && q.resource.namespaced,
        show_labels: ctx.flags.on("show-labels"),
        no_headers: ctx.flags.on("no-headers"),
        kind: None,
        event: ctx
            .flags
            .on("output-watch-events")
            .then(|| event_column("ADDED")),
    };
    let mut printer = TablePrinter::default();
    let mut writer = TabWriter::new();
    if !ctx.flags.on("watch-only") {
        printer.print(&body, &options, &mut writer);
        out.out(&writer.flush());
    }
    let rv = if single {
        field = Some(format!("metadata.name={}", q.names[0]));
        "0".to_string()
    } else {
        body["metadata"]["resourceVersion"]
            .as_str()
            .unwrap_or("0")
            .to_string()
    };
    if let Some(f) = field {
        params.push(("fieldSelector", f));
    }
    params.push(("resourceVersion", rv));
    params.push(("watch", "true".to_string()));
    let reply = ctx
        .client
        .send(out, Call::get(with_query(coll, params), TABLE_ACCEPT));
    if !reply.ok() {
        {
            let text = ctx.report(out, &reply.json());
            return out.fail(&text);
        }
    }
    let mut watching = Watching {
        stream: reply.stream,
        printer,
        writer,
        options,
        skip: usize::from(single),
        partial: String::new(),
        until_deleted: false,
    };
    watching.pull(out);
    out.watching = Some(watching);
}
