//! `kubectl describe`: the object read as the builder reads it, then by the kind's describer
//! (`pkg/describe`), with its events (`involvedObject` field selector). Written: the ConfigMap
//! describer (its reads in JSON where kubectl's typed client asks for Protobuf; the events'
//! field selector in one order where Go's map gives any), laid out with describe's tabwriter (no minimum width, padding 2): labels sorted
//! one per line, annotations as `key: value` without the last-applied one, each data key
//! under a `----` rule, BinaryData sizes, `Events:  <none>`.

use serde_json::Value;

use super::client::encode_query;
use super::client::Call;
use super::printers::format_labels;
use super::tabwriter::TabWriter;
use super::{Ctx, Output};

const SKIPPED_ANNOTATION: &str = "kubectl.kubernetes.io/last-applied-configuration";
const MAX_ANNOTATION: usize = 140;

pub fn describe(ctx: &mut Ctx<'_, '_>, out: &mut Output) {
    let Some(targets) = super::write::named(ctx, out, "describe") else {
        return;
    };
    if targets.is_empty() {
        return out
            .fail("error: kubesim's kubectl describes named objects: kubectl describe TYPE NAME");
    }
    let mut first = true;
    for (r, name) in targets {
        if r.kind != "ConfigMap" {
            out.fail(&format!(
                "error: kubesim's kubectl has no describer for {} yet (ConfigMaps only)",
                r.kind
            ));
            continue;
        }
        let found = ctx.get_named(out, &r, &name, "application/json");
        if !found.ok() {
            let text = ctx.report(out, &found.json());
            out.fail(&text);
            continue;
        }
        // The describer reads the object again itself.
        let mut get = Call::get(
            format!("{}/{name}", r.collection(Some(&ctx.namespace))),
            "application/json",
        );
        get.caller = "type.go:252";
        let obj = ctx.client.send(out, get).json();
        let events = events_of(ctx, out, &obj);
        if !first {
            out.out("\n\n");
        }
        first = false;
        out.out(&config_map(&obj, &events));
    }
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
    let path = format!(
        "/api/v1/namespaces/{ns}/events?{}",
        encode_query(vec![("fieldSelector", selector), ("limit", "500".into())])
    );
    let mut call = Call::get(path, "application/json");
    call.caller = "type.go:252";
    ctx.client.send(out, call).json()["items"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

fn labels(w: &mut TabWriter, obj: &Value) {
    let text = format_labels(obj["metadata"]["labels"].as_object());
    let mut lines = text.split(',');
    w.write(&format!("Labels:\t{}\n", lines.next().unwrap_or("<none>")));
    for l in lines {
        w.write(&format!("\t{l}\n"));
    }
}

fn annotations(w: &mut TabWriter, obj: &Value) {
    w.write("Annotations:\t");
    let mut keys: Vec<&String> = obj["metadata"]["annotations"]
        .as_object()
        .map(|m| m.keys().filter(|k| *k != SKIPPED_ANNOTATION).collect())
        .unwrap_or_default();
    if keys.is_empty() {
        w.write("<none>\n");
        return;
    }
    crate::sort::sort(&mut keys);
    for (i, key) in keys.iter().enumerate() {
        if i != 0 {
            w.write("\t");
        }
        let value = obj["metadata"]["annotations"][key.as_str()]
            .as_str()
            .unwrap_or("")
            .trim_end_matches('\n');
        if value.len() + key.len() + 2 > MAX_ANNOTATION || value.contains('\n') {
            w.write(&format!("{key}:\n"));
            for line in value.split('\n') {
                let shown = if line.len() > MAX_ANNOTATION - 2 {
                    format!(
                        "{}...",
                        &line[..(0..=MAX_ANNOTATION - 2)
                            .rev()
                            .find(|&i| line.is_char_boundary(i))
                            .unwrap_or(0)]
                    )
                } else {
                    line.to_string()
                };
                w.write(&format!("\t  {shown}\n"));
            }
        } else {
            w.write(&format!("{key}: {value}\n"));
        }
    }
}

/// The ConfigMap describer's text (data keys in order: Go iterates the map at random).
pub fn config_map(obj: &Value, events: &[Value]) -> String {
    let mut w = TabWriter::with(0, 2);
    let meta = &obj["metadata"];
    w.write(&format!("Name:\t{}\n", meta["name"].as_str().unwrap_or("")));
    w.write(&format!(
        "Namespace:\t{}\n",
        meta["namespace"].as_str().unwrap_or("")
    ));
    labels(&mut w, obj);
    annotations(&mut w, obj);
    w.write("\nData\n====\n");
    for (k, v) in obj["data"].as_object().into_iter().flatten() {
        w.write(&format!("{k}:\n----\n{}\n\n", v.as_str().unwrap_or("")));
    }
    w.write("\nBinaryData\n====\n");
    for (k, v) in obj["binaryData"].as_object().into_iter().flatten() {
        let bytes = v
            .as_str()
            .map_or(0, |b| b.len() / 4 * 3 - b.matches('=').count());
        w.write(&format!("{k}: {bytes} bytes\n"));
    }
    w.write("\n");
    if events.is_empty() {
        w.write("Events:\t<none>\n");
    } else {
        w.write(
            "Events:\n  Type\tReason\tAge\tFrom\tMessage\n  ----\t------\t----\t----\t-------\n",
        );
        for e in events {
            w.write(&format!(
                "  {}\t{}\t\t{}\t{}\n",
                e["type"].as_str().unwrap_or(""),
                e["reason"].as_str().unwrap_or(""),
                e["source"]["component"].as_str().unwrap_or(""),
                e["message"].as_str().unwrap_or("")
            ));
        }
    }
    w.flush()
}
