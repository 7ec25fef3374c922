//! `kubectl get`: the builder's requests (a list in chunks of `--chunk-size` following
//! `continue`, or one GET per name; the Table Accept header for human output, plain JSON for
//! `-o json|yaml|name|jsonpath|custom-columns`), `get.go`'s printing (one table per type,
//! separated by a blank line; "No resources found in X namespace." on standard error), its
//! generic path (several objects gathered into a `kind: List`); `-w` is [`super::watch`].

use serde_json::{json, Value};

use super::client::{with_query, Call, TABLE_ACCEPT};
use super::flags::{boolean, value, Spec};
use super::mapper::Resource;
use super::printers::{self, name_of, TableOptions, TablePrinter};
use super::tabwriter::TabWriter;
use super::{Ctx, Output};
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
    value("label-columns", Some('L')),
    value("sort-by", None),
    value("raw", None),
    boolean("show-kind", None),
    boolean("no-headers", None),
    boolean("show-managed-fields", None),
    boolean("ignore-not-found", None),
];

const FORMATS: &str = "custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,wide,yaml";

/// How the objects are to be printed.
#[derive(Debug, Clone)]
pub(super) enum Format {
    Table {
        wide: bool,
    },
    Json,
    Yaml,
    Name,
    /// `-o jsonpath=` (text), or `-o jsonpath-as-json=` (each part's results as a JSON list).
    JsonPath(Template, bool),
    /// `-o go-template=` (or `template=`).
    GoTemplate(super::gotemplate::GoTemplate),
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
        ("jsonpath" | "jsonpath-as-json", Some(t)) => Format::JsonPath(
            Template::parse(t).map_err(|e| format!("error parsing jsonpath {t}, {e}"))?,
            name == "jsonpath-as-json",
        ),
        ("go-template" | "template", Some(t)) => Format::GoTemplate(
            super::gotemplate::GoTemplate::parse(t)
                .map_err(|e| format!("error parsing template {t}, {e}"))?,
        ),
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

/// `get --raw PATH`: one GET of the path, its body printed as it came.
fn raw(ctx: &mut Ctx<'_, '_>, out: &mut Output, path: &str) {
    if !ctx.flags.args.is_empty() {
        return out.fail("error: arguments may not be passed when --raw is specified");
    }
    if !path.starts_with('/') {
        return out.fail(&format!(
            "error: --raw must be a valid URL path: parse {}: invalid URI for request",
            crate::codec::goquote::go_quote(path)
        ));
    }
    let call = Call {
        caller: "raw.go:84",
        ..Call::get(path.to_string(), "application/json, */*")
    };
    let reply = ctx.client.send_raw(out, call);
    if !reply.ok() {
        let text = ctx.report(out, &reply.json());
        return out.fail(&text);
    }
    out.out(&String::from_utf8_lossy(&reply.body));
}

/// `-L a,b -L c`: every label key asked for as a column, in order.
pub(super) fn label_columns(flags: &super::flags::Parsed) -> Vec<String> {
    flags
        .all("label-columns")
        .iter()
        .flat_map(|v| v.split(','))
        .filter(|k| !k.is_empty())
        .map(str::to_string)
        .collect()
}

/// The requests of one resource type: a list, or its names.
pub(super) struct Request {
    pub(super) resource: Resource,
    pub(super) names: Vec<String>,
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
    if let Some(path) = ctx.flags.get("raw").map(str::to_string) {
        return raw(ctx, out, &path);
    }
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
        return super::watch::watch(ctx, out, reqs, fmt);
    }
    let human = matches!(fmt, Format::Table { .. });
    let accept = if human {
        TABLE_ACCEPT
    } else {
        "application/json"
    };
    let all = ctx.flags.on("all-namespaces");
    let sort_by = ctx.flags.get("sort-by").map(str::to_string);
    // Sorting needs every object at once (no chunks) and, in a table, each row's object.
    let chunk: i64 = match sort_by {
        Some(_) => 0,
        None => ctx
            .flags
            .get("chunk-size")
            .and_then(|c| c.parse().ok())
            .unwrap_or(500),
    };
    let include_object = human && sort_by.is_some();
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
                if include_object {
                    params.push(("includeObject", "Object".to_string()));
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
        if let Some(field) = &sort_by {
            // get.go's RuntimeSorter sees the responses themselves (unstructured Tables)
            // and, when there are several, sorts them by the field; the SortingPrinter then
            // sorts each table's rows, and a failure there prints nothing, silently.
            if objects.len() > 1 {
                if let Err(e) = super::sorter::sort_by(&mut objects, field, |(_, t)| t) {
                    return out.fail(&format!("error: {e}"));
                }
            }
            for (_, table) in objects.iter_mut() {
                let Some(rows) = table.get_mut("rows").and_then(Value::as_array_mut) else {
                    continue;
                };
                if rows.len() > 1
                    && super::sorter::sort_by(rows, field, |row| &row["object"]).is_err()
                {
                    rows.clear();
                }
            }
        }
        let wide = matches!(fmt, Format::Table { wide: true });
        print_tables(ctx, out, &objects, wide, errors);
    } else {
        print_generic(ctx, out, objects, single, &fmt, sort_by.as_deref());
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
            label_columns: label_columns(&ctx.flags),
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

fn print_generic(
    ctx: &Ctx<'_, '_>,
    out: &mut Output,
    objects: Vec<(Resource, Value)>,
    single: bool,
    fmt: &Format,
    sort_by: Option<&str>,
) {
    // A single name asked for prints as the object; anything else as a `List`.
    let listed = objects.iter().any(|(_, v)| v.get("items").is_some());
    let mut all: Vec<Value> = Vec::new();
    for (r, v) in objects {
        all.extend(r.items_of(v));
    }
    // The SortingPrinter sorts what prints as a List, an empty one aside.
    let as_list = !(single && all.len() == 1 && !listed);
    if let (Some(field), true) = (sort_by, as_list && !all.is_empty()) {
        if let Err(e) = super::sorter::sort_by(&mut all, field, |o| o) {
            return out.fail(&format!("error: {e}"));
        }
    }
    let show_managed = ctx.flags.on("show-managed-fields");
    let mut obj = if single && all.len() == 1 && !listed {
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
        Format::JsonPath(t, as_json) => out.out(&printers::jsonpath(t, *as_json, &obj)),
        Format::GoTemplate(t) => match t.execute(&obj) {
            Ok(text) => out.out(&text),
            Err(e) => out.fail(&format!("error: error executing template: {e}")),
        },
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
