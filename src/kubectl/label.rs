//! `kubectl label` and `kubectl annotate`: `KEY=VALUE` sets, `KEY-` removes; the objects
//! named (a GET each) or found by `-l`, `--field-selector` or `--all` (one list), then the
//! JSON merge patch between each before and after (as `jsonpatch.CreateMergePatch` makes
//! it), with kubectl's overwrite rules and messages (`labeled`, `unlabeled`, `not labeled`,
//! `annotated`, `label "x" not found.`); `--list` (the result's keys, sorted where Go's map
//! gives any order), `--dry-run` and `-o`.

use serde_json::{json, Map, Value};

use super::client::{encode_query, Call};
use super::flags::{boolean, value, Spec};
use super::mapper::Resource;
use super::printers::name_of;
use super::write::{dry_run, named, DryRun};
use super::{Ctx, Output};

pub const LABEL_FLAGS: &[Spec] = &[
    boolean("overwrite", None),
    value("dry-run", None),
    value("field-manager", None),
    value("resource-version", None),
    boolean("all", None),
    value("selector", Some('l')),
    value("field-selector", None),
    boolean("all-namespaces", Some('A')),
    boolean("list", None),
    value("output", Some('o')),
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
    let list = ctx.flags.on("list");
    if list && ctx.flags.has("output") {
        return out.fail("error: --list and --output may not be specified together");
    }
    let Some(dry) = dry_run(ctx, out) else {
        return;
    };
    let selecting = ctx.flags.has("selector") || ctx.flags.has("field-selector");
    if ctx.flags.on("all") && selecting {
        return out.fail("error: cannot set --all and --selector at the same time");
    }
    if set.is_empty() && remove.is_empty() && !list {
        let what = if labels { "label" } else { "annotation" };
        return out.fail(&format!("error: at least one {what} update is required"));
    }
    ctx.flags.args = args;
    // --resource-version is for one object, which the arguments must name.
    let resource_version = ctx.flags.get("resource-version").map(str::to_string);
    let names = match ctx.flags.args.iter().any(|a| a.contains('/')) {
        true => ctx.flags.args.len(),
        false => ctx.flags.args.len().saturating_sub(1),
    };
    let selecting = ctx.flags.on("all") || selecting;
    if resource_version.is_some() && (selecting || names != 1) {
        return out.fail("error: --resource-version may only be used with a single resource");
    }
    let Some((targets, one)) = targets(ctx, out, verb) else {
        return;
    };
    let overwrite = ctx.flags.on("overwrite");
    for (r, obj) in targets {
        let meta = &obj["metadata"];
        let name = meta["name"].as_str().unwrap_or("").to_string();
        let ns = meta["namespace"]
            .as_str()
            .unwrap_or(&ctx.namespace)
            .to_string();
        let path = format!("{}/{name}", r.collection(Some(&ns)));
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
        let local = list || dry == DryRun::Client;
        let mut patch = Map::new();
        for k in &remove {
            if labels && !local && !current.contains_key(k) {
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
        // What the object becomes here (the printers show it, not the server's answer).
        let mut changed = obj.clone();
        for (k, v) in &patch {
            let map = &mut changed["metadata"][field];
            if map.is_null() {
                *map = json!({});
            }
            match v {
                Value::Null => {
                    map.as_object_mut().map(|m| m.shift_remove(k));
                }
                _ => map[k.as_str()] = v.clone(),
            }
        }
        if local {
            finish(ctx, out, &changed, &changed, field, msg, dry, one);
            continue;
        }
        let mut sorted: Vec<(String, Value)> = patch.into_iter().collect();
        crate::sort::sort_by(&mut sorted, |a, b| a.0.cmp(&b.0));
        let mut body = json!({"metadata": {field: Value::Object(sorted.into_iter().collect())}});
        // --resource-version: the patch carries it, so the server refuses a newer object.
        if let Some(rv) = &resource_version {
            body["metadata"]["resourceVersion"] = json!(rv);
        }
        let manager = ctx
            .flags
            .get("field-manager")
            .map(str::to_string)
            .unwrap_or_else(|| format!("kubectl-{verb}"));
        let mut query = vec![("fieldManager", manager)];
        if dry == DryRun::Server {
            query.push(("dryRun", "All".to_string()));
        }
        let call = Call {
            method: "PATCH",
            path: format!("{path}?{}", encode_query(query)),
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
        finish(ctx, out, &changed, &result, field, msg, dry, one);
    }
}

/// The objects the builder finds: by `-l`, `--field-selector` or `--all` (one list per type,
/// no chunks), else each name with a GET; and whether a single name was given.
#[allow(clippy::type_complexity)]
fn targets(
    ctx: &mut Ctx<'_, '_>,
    out: &mut Output,
    verb: &str,
) -> Option<(Vec<(Resource, Value)>, bool)> {
    let selecting =
        ctx.flags.on("all") || ctx.flags.has("selector") || ctx.flags.has("field-selector");
    if !selecting {
        let named = named(ctx, out, verb)?;
        let one = named.len() == 1;
        let mut found = Vec::new();
        for (r, name) in named {
            let reply = ctx.get_named(out, &r, &name, "application/json");
            let obj = reply.json();
            if !reply.ok() {
                let text = ctx.report(out, &obj);
                out.fail(&text);
                continue;
            }
            found.push((r, obj));
        }
        return Some((found, one));
    }
    let types = ctx.flags.args.first().cloned().unwrap_or_default();
    let mut found = Vec::new();
    for ty in types.split(',').filter(|t| !t.is_empty()) {
        let Some(r) = ctx.resolve(ty, out) else {
            out.fail(&format!(
                "error: the server doesn't have a resource type \"{ty}\""
            ));
            return None;
        };
        match ctx.list_all(out, &r, false) {
            Ok(items) => found.extend(items.into_iter().map(|o| (r.clone(), o))),
            Err(status) => {
                let text = ctx.report(out, &status);
                out.fail(&text);
                return None;
            }
        }
    }
    Some((found, false))
}

/// What a label or annotate prints for one object: `--list` (the answer's keys), `-o` (the
/// object as changed here, as kubectl prints its own copy), else `configmap/x labeled`.
#[allow(clippy::too_many_arguments)]
fn finish(
    ctx: &Ctx<'_, '_>,
    out: &mut Output,
    changed: &Value,
    answer: &Value,
    field: &str,
    msg: &str,
    dry: DryRun,
    one: bool,
) {
    if ctx.flags.on("list") {
        let mut indent = "";
        if !one {
            indent = " ";
            let api = answer["apiVersion"].as_str().unwrap_or("");
            let group = api.split_once('/').map_or("", |(g, _)| g);
            let what = if field == "labels" {
                "labels"
            } else {
                "annotations"
            };
            out.out(&format!(
                "Listing {what} for {}.{group}/{}:\n",
                answer["kind"].as_str().unwrap_or(""),
                answer["metadata"]["name"].as_str().unwrap_or("")
            ));
        }
        let mut pairs: Vec<(&String, &Value)> = answer["metadata"][field]
            .as_object()
            .map(|m| m.iter().collect())
            .unwrap_or_default();
        crate::sort::sort_by(&mut pairs, |a, b| a.0.cmp(b.0));
        for (k, v) in pairs {
            out.out(&format!("{indent}{k}={}\n", v.as_str().unwrap_or("")));
        }
        return;
    }
    let mut shown = changed.clone();
    super::printers::omit_managed_fields(&mut shown);
    match ctx.flags.get("output") {
        Some("name") => out.out(&format!("{}\n", name_of(changed))),
        Some("yaml") => out.out(&super::printers::yaml(&shown)),
        Some("json") => out.out(&super::printers::json(&shown)),
        _ => out.out(&format!("{} {msg}{}\n", name_of(changed), dry.suffix())),
    }
}
