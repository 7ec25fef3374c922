//! `kubectl get -w` (the list, then a watch from its resourceVersion whose events print as
//! rows, widths remembered, or with `-o name|json|yaml|jsonpath` as objects, YAML ones
//! separated by `---`; a single object watched by name from resourceVersion 0, its
//! synthetic ADDED skipped) and `delete`'s wait for an object to be gone, both run by the
//! terminal's heartbeat through [`Watching`].

use serde_json::Value;

use super::client::{with_query, Call, TABLE_ACCEPT};
use super::get::{Format, Request};
use super::printers::{TableOptions, TablePrinter};
use super::tabwriter::TabWriter;
use super::{server_error, Ctx, Output};
use crate::engine::WatchStream;

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
    /// Objects printed as `-o` asks, not as table rows.
    objects: Option<ObjectPrinter>,
}

/// `get -w -o name|json|yaml|jsonpath`: each object (or, with `--output-watch-events`, each
/// event) printed alone, managedFields left out unless asked for.
#[derive(Debug, Clone)]
struct ObjectPrinter {
    format: Format,
    events: bool,
    show_managed: bool,
    /// Objects printed so far (the YAML printer separates them with `---`).
    count: usize,
}

impl ObjectPrinter {
    fn print(&mut self, kind: &str, obj: &Value, out: &mut Output) {
        if self.events {
            // A WatchEvent: marshalled whole (managedFields kept: the printer that drops
            // them cannot see inside an event), compact in JSON, its object's keys sorted.
            let event =
                serde_json::json!({"type": kind, "object": crate::codec::json::sorted_keys(obj)});
            match &self.format {
                Format::Json => out.out(&format!(
                    "{}\n",
                    crate::codec::json::to_compact_string(&event)
                )),
                Format::Yaml => {
                    if self.count > 0 {
                        out.out("---\n");
                    }
                    out.out(&super::printers::yaml(&event));
                }
                Format::Name => out.out(&format!("{}\n", super::printers::name_of(obj))),
                Format::JsonPath(t, as_json) => {
                    out.out(&super::printers::jsonpath(t, *as_json, &event))
                }
                Format::GoTemplate(t) => match t.execute(&event) {
                    Ok(text) => out.out(&text),
                    Err(e) => out.err(&format!("error: error executing template: {e}\n")),
                },
                Format::Columns(_) | Format::Table { .. } => {}
            }
            self.count += 1;
            return;
        }
        let mut obj = obj.clone();
        if !self.show_managed {
            super::printers::omit_managed_fields(&mut obj);
        }
        match &self.format {
            Format::Json => out.out(&super::printers::json(&obj)),
            Format::Yaml => {
                if self.count > 0 {
                    out.out("---\n");
                }
                out.out(&super::printers::yaml(&obj));
            }
            Format::Name => out.out(&format!("{}\n", super::printers::name_of(&obj))),
            Format::JsonPath(t, as_json) => out.out(&super::printers::jsonpath(t, *as_json, &obj)),
            Format::GoTemplate(t) => match t.execute(&obj) {
                Ok(text) => out.out(&text),
                Err(e) => out.err(&format!("error: error executing template: {e}\n")),
            },
            Format::Columns(_) | Format::Table { .. } => {}
        }
        self.count += 1;
    }
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
            objects: None,
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
            if let Some(p) = self.objects.as_mut() {
                p.print(event["type"].as_str().unwrap_or(""), &event["object"], out);
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

pub(super) fn watch(ctx: &mut Ctx<'_, '_>, out: &mut Output, reqs: Vec<Request>, fmt: Format) {
    if reqs.len() != 1 {
        return out.fail("error: watch is only supported on individual resources and resource collections - more than 1 resource was found");
    }
    let (wide, objects) = match fmt {
        Format::Table { wide } => (wide, None),
        Format::Columns(_) => {
            return out.fail(
                "error: kubesim's kubectl prints -w as tables, names, JSON, YAML or JSONPath",
            )
        }
        format => (
            false,
            Some(ObjectPrinter {
                format,
                events: ctx.flags.on("output-watch-events"),
                show_managed: ctx.flags.on("show-managed-fields"),
                count: 0,
            }),
        ),
    };
    let accept = if objects.is_some() {
        "application/json"
    } else {
        TABLE_ACCEPT
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
        .send(out, Call::get(with_query(path, first), accept));
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
        label_columns: super::get::label_columns(&ctx.flags),
        no_headers: ctx.flags.on("no-headers"),
        kind: None,
        event: ctx
            .flags
            .on("output-watch-events")
            .then(|| event_column("ADDED")),
    };
    let mut printer = TablePrinter::default();
    let mut writer = TabWriter::new();
    let mut objects = objects;
    if !ctx.flags.on("watch-only") {
        match objects.as_mut() {
            Some(p) => {
                for item in q.resource.items_of(body.clone()) {
                    p.print("ADDED", &item, out);
                }
            }
            None => {
                printer.print(&body, &options, &mut writer);
                out.out(&writer.flush());
            }
        }
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
        .send(out, Call::get(with_query(coll, params), accept));
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
        objects,
    };
    watching.pull(out);
    out.watching = Some(watching);
}
