//! `kubectl label` and `kubectl annotate`: `KEY=VALUE` sets, `KEY-` removes; a GET, then the
//! JSON merge patch between the object before and after (as `jsonpatch.CreateMergePatch`
//! makes it), with kubectl's overwrite rules and messages (`labeled`, `unlabeled`,
//! `not labeled`, `annotated`, `label "x" not found.`).

use serde_json::{json, Map, Value};

use super::client::{encode_query, Call};
use super::flags::{boolean, value, Spec};
use super::printers::name_of;
use super::write::named;
use super::{Ctx, Output};

pub const LABEL_FLAGS: &[Spec] = &[
    boolean("overwrite", None),
    value("dry-run", None),
    value("field-manager", None),
    value("resource-version", None),
    boolean("all", None),
    value("selector", Some('l')),
];

pub fn label(ctx: &mut Ctx<'_, '_>, out: &mut Output) {
    change_metadata(ctx, out, "labels")
}

pub fn annotate(ctx: &mut Ctx<'_, '_>, out: &mut Output) {
    change_metadata(ctx, out, "annotations")
}

/// `label` / `annotate`: `KEY=VALUE` sets, `KEY-` removes.
fn change_metadata(ctx: &mut Ctx<'_, '_>, out: &mut Output, field: &str) {
    let labels = field == "labels";
    let (verb, done, undone) = if labels {
        ("label", "labeled", "unlabeled")
    } else {
        ("annotate", "annotated", "annotated")
    };
    let mut args = Vec::new();
    let mut set: Vec<(String, String)> = Vec::new();
    let mut remove: Vec<String> = Vec::new();
    for a in ctx.flags.args.clone() {
        if let Some((k, v)) = a.split_once('=') {
            set.push((k.to_string(), v.to_string()));
        } else if let Some(k) = a.strip_suffix('-').filter(|_| !args.is_empty()) {
            remove.push(k.to_string());
        } else {
            args.push(a);
        }
    }
    if set.is_empty() && remove.is_empty() {
        let what = if labels { "label" } else { "annotation" };
        return out.fail(&format!("error: at least one {what} update is required"));
    }
    ctx.flags.args = args;
    let Some(targets) = named(ctx, out, verb) else {
        return;
    };
    let overwrite = ctx.flags.on("overwrite");
    for (r, name) in targets {
        let path = format!("{}/{name}", r.collection(Some(&ctx.namespace)));
        let reply = ctx.get_named(out, &r, &name, "application/json");
        let obj = reply.json();
        if !reply.ok() {
            {
                let text = ctx.report(out, &obj);
                out.fail(&text);
            }
            continue;
        }
        let current = obj["metadata"][field]
            .as_object()
            .cloned()
            .unwrap_or_default();
        if !overwrite {
            let clashes: Vec<String> = set
                .iter()
                .filter_map(|(k, v)| {
                    current
                        .get(k)
                        .and_then(Value::as_str)
                        .filter(|c| c != v)
                        .map(|c| format!("'{k}' already has a value ({c})"))
                })
                .collect();
            if !clashes.is_empty() {
                let text = if labels {
                    format!("error: {}, and --overwrite is false", clashes.join(", "))
                } else {
                    format!(
                        "error: --overwrite is false but found the following declared annotation(s): {}",
                        clashes.join("; ")
                    )
                };
                out.fail(&text);
                continue;
            }
        }
        let mut patch = Map::new();
        for k in &remove {
            if labels && !current.contains_key(k) {
                out.out(&format!("label {k:?} not found.\n"));
            }
            if current.contains_key(k) {
                patch.insert(k.clone(), Value::Null);
            }
        }
        for (k, v) in &set {
            if current.get(k).and_then(Value::as_str) != Some(v) {
                patch.insert(k.clone(), Value::String(v.clone()));
            }
        }
        let removed_only = patch.values().all(Value::is_null) && !patch.is_empty();
        let msg = if patch.is_empty() {
            if labels {
                "not labeled"
            } else {
                done
            }
        } else if removed_only && !overwrite {
            undone
        } else {
            done
        };
        let mut sorted: Vec<(String, Value)> = patch.into_iter().collect();
        crate::sort::sort_by(&mut sorted, |a, b| a.0.cmp(&b.0));
        let body = json!({"metadata": {field: Value::Object(sorted.into_iter().collect())}});
        let manager = ctx
            .flags
            .get("field-manager")
            .map(str::to_string)
            .unwrap_or_else(|| format!("kubectl-{verb}"));
        let call = Call {
            method: "PATCH",
            path: format!("{path}?{}", encode_query(vec![("fieldManager", manager)])),
            accept: "application/json",
            content_type: Some("application/merge-patch+json"),
            body: crate::codec::json::to_compact_string(&body).into_bytes(),
            caller: "helper.go:269",
        };
        let reply = ctx.client.send(out, call);
        let result = reply.json();
        if !reply.ok() {
            {
                let text = ctx.report(out, &result);
                out.fail(&text);
            }
            continue;
        }
        out.out(&format!("{} {msg}\n", name_of(&result)));
    }
}
