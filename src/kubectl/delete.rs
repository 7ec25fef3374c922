//! `kubectl delete`: the objects named, of `-f -`, or found by `-l`, `--field-selector` or
//! `--all` (one list each, no chunks); each deleted with kubectl's DeleteOptions
//! (`propagationPolicy` from `--cascade`, the grace period as `--grace-period`, `--now`
//! and `--force` set it, server dry run), printed as `configmap "x" deleted`; then, one
//! object after another, the wait until each is gone (a GET, then a list and a watch by
//! name, which the terminal runs as a `-w` while finalizers hold it).

use serde_json::{json, Map, Value};

use super::client::{encode_query, Call};
use super::flags::{boolean, value, Spec};
use super::mapper::Resource;
use super::write::{dry_run, manifests, named, resource_of, DryRun};
use super::{Ctx, Output};

pub const DELETE_FLAGS: &[Spec] = &[
    value("filename", Some('f')),
    value("cascade", None),
    value("grace-period", None),
    value("dry-run", None),
    boolean("wait", None),
    boolean("ignore-not-found", None),
    boolean("force", None),
    boolean("now", None),
    value("selector", Some('l')),
    value("field-selector", None),
    boolean("all", None),
    boolean("all-namespaces", Some('A')),
    value("output", Some('o')),
];

pub fn delete(ctx: &mut Ctx<'_, '_>, out: &mut Output) {
    let Some(dry) = dry_run(ctx, out) else {
        return;
    };
    let policy = match ctx.flags.get("cascade").unwrap_or("background") {
        "background" | "true" => "Background",
        "foreground" => "Foreground",
        "orphan" | "false" => "Orphan",
        other => {
            return out.fail(&format!(
                "error: invalid cascade value ({other}). Must be \"background\", \"foreground\", or \"orphan\""
            ))
        }
    };
    let grace: Option<i64> = match ctx.flags.get("grace-period") {
        None => None,
        Some(g) => match g.parse::<i64>() {
            Ok(n) if n >= 0 => Some(n),
            Ok(_) => None,
            Err(_) => {
                return out.fail(&format!(
                    "Error: invalid argument \"{g}\" for \"--grace-period\" flag: strconv.ParseInt: parsing \"{g}\": invalid syntax\nSee 'kubectl delete --help' for usage."
                ))
            }
        },
    };
    let force = ctx.flags.on("force");
    let grace = match (grace, ctx.flags.on("now"), force) {
        (Some(_), true, _) => {
            return out.fail("error: --now and --grace-period cannot be specified together")
        }
        (None, true, _) => Some(1),
        // --grace-period=0 without --force is taken as 1, against accidental data loss.
        (Some(0), false, false) => Some(1),
        (None, false, true) => Some(0),
        (g, _, _) => g,
    };
    match (grace, force) {
        (Some(0), true) => out.err("Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\n"),
        (Some(_), true) => {
            return out.fail("error: --force and --grace-period greater than 0 cannot be specified together")
        }
        _ => {}
    }
    let Some(targets) = delete_targets(ctx, out) else {
        return;
    };
    if targets.is_empty() {
        return out.out("No resources found\n");
    }
    let mut warn_scope = ctx.flags.has("namespace") && !ctx.flags.on("all-namespaces");
    // With --all, -l or --field-selector, NotFound is ignored unless asked otherwise.
    let selecting =
        ctx.flags.on("all") || ctx.flags.has("selector") || ctx.flags.has("field-selector");
    let ignore_not_found = match ctx.flags.get("ignore-not-found") {
        Some(v) => v == "true",
        None => selecting,
    };
    let mut deleted = Vec::new();
    for (r, ns, name, source) in targets {
        let mut options = Map::new();
        if let Some(g) = grace {
            options.insert("gracePeriodSeconds".into(), json!(g));
        }
        options.insert("propagationPolicy".into(), json!(policy));
        if dry == DryRun::Server {
            options.insert("dryRun".into(), json!(["All"]));
        }
        let mut body = crate::codec::json::to_vec(&Value::Object(options));
        if body.last() != Some(&b'\n') {
            body.push(b'\n');
        }
        if warn_scope && !r.namespaced {
            out.err("Warning: deleting cluster-scoped resources, not scoped to the provided namespace\n");
            warn_scope = false;
        }
        let path = format!("{}/{name}", r.collection(Some(&ns)));
        let call = Call {
            method: "DELETE",
            path: path.clone(),
            accept: "application/json",
            content_type: Some("application/json"),
            body,
            caller: "helper.go:202",
        };
        // A client dry run sends nothing and says what it would have deleted.
        let reply = match dry {
            DryRun::Client => None,
            _ => Some(ctx.client.send(out, call)),
        };
        if let Some(reply) = reply.filter(|r| !r.ok()) {
            if reply.status == 404 && ignore_not_found {
                continue;
            }
            let mut status = reply.json();
            if let (Some(src), Some(m)) = (source, status["message"].as_str()) {
                status["message"] = json!(format!("error when deleting \"{src}\": {m}"));
            }
            let text = ctx.report(out, &status);
            out.err(&format!("{text}\n"));
            out.exit = 1;
            continue;
        }
        let operation = if grace == Some(0) {
            "force deleted"
        } else {
            "deleted"
        };
        if ctx.flags.get("output") == Some("name") {
            out.out(&format!("{}/{name}\n", r.kind_name()));
        } else {
            out.out(&format!(
                "{} \"{name}\" {operation}{}\n",
                r.kind_name(),
                dry.suffix()
            ));
        }
        deleted.push((r, ns, name, path));
    }
    // The wait comes after every delete, one object after another.
    if dry == DryRun::None && ctx.flags.get("wait") != Some("false") {
        for (r, ns, name, path) in deleted {
            if out.watching.is_some() {
                break;
            }
            wait_until_gone(ctx, out, &r, &ns, &name, path);
        }
    }
}

/// What the builder finds for a delete: the objects of `-f -`, every object of the types
/// matching `-l`/`--field-selector`/`--all` (listed whole, no chunks), or the names given.
/// Each with its namespace and, from a manifest, its source.
#[allow(clippy::type_complexity)]
fn delete_targets(
    ctx: &mut Ctx<'_, '_>,
    out: &mut Output,
) -> Option<Vec<(Resource, String, String, Option<&'static str>)>> {
    if ctx.flags.has("filename") {
        let mut found = Vec::new();
        for obj in manifests(ctx, out)? {
            let r = resource_of(ctx, out, &obj)?;
            let ns = obj["metadata"]["namespace"]
                .as_str()
                .map_or_else(|| ctx.namespace.clone(), str::to_string);
            let name = obj["metadata"]["name"].as_str().unwrap_or("").to_string();
            found.push((r, ns, name, Some("STDIN")));
        }
        return Some(found);
    }
    let selector = ctx.flags.get("selector").map(str::to_string);
    let fields = ctx.flags.get("field-selector").map(str::to_string);
    let all = ctx.flags.on("all");
    if all && (selector.is_some() || fields.is_some()) {
        out.fail("error: setting 'all' parameter but found a non empty selector. ");
        return None;
    }
    let args = ctx.flags.args.clone();
    if !(all || selector.is_some() || fields.is_some()) {
        let named = named(ctx, out, "delete")?;
        let ns = ctx.namespace.clone();
        return Some(
            named
                .into_iter()
                .map(|(r, n)| (r, ns.clone(), n, None))
                .collect(),
        );
    }
    let Some(types) = args.first() else {
        out.fail("error: at least one resource must be specified to use a selector");
        return None;
    };
    if args.len() > 1 {
        out.fail("error: name cannot be provided when a selector is specified");
        return None;
    }
    let mut found = Vec::new();
    for ty in types.split(',') {
        let r = ctx.resolve(ty, out).or_else(|| {
            out.fail(&format!(
                "error: the server doesn't have a resource type \"{ty}\""
            ));
            None
        })?;
        let listed = match ctx.list_all(out, &r, false) {
            Ok(items) => items,
            Err(status) => {
                let text = ctx.report(out, &status);
                out.fail(&text);
                return None;
            }
        };
        for item in &listed {
            let meta = &item["metadata"];
            let ns = meta["namespace"].as_str().unwrap_or("").to_string();
            let name = meta["name"].as_str().unwrap_or("").to_string();
            found.push((r.clone(), ns, name, None));
        }
    }
    Some(found)
}

/// `delete --wait` (the default): a GET; when the object is still there, a list of it by
/// name and a watch from that list until its DELETED, which the terminal runs as a `-w`.
fn wait_until_gone(
    ctx: &mut Ctx<'_, '_>,
    out: &mut Output,
    r: &Resource,
    ns: &str,
    name: &str,
    path: String,
) {
    let mut get = Call::get(path, "application/json");
    get.caller = "simple.go:247";
    if !ctx.client.send(out, get).ok() {
        return;
    }
    let coll = r.collection(Some(ns));
    let field = format!("metadata.name={name}");
    let list = format!(
        "{coll}?{}",
        encode_query(vec![
            ("fieldSelector", field.clone()),
            ("limit", "500".into()),
            ("resourceVersion", "0".into()),
        ])
    );
    let mut call = Call::get(list, "application/json");
    call.caller = "simple.go:280";
    let listed = ctx.client.send(out, call).json();
    if listed["items"].as_array().is_none_or(|i| i.is_empty()) {
        return;
    }
    let rv = listed["metadata"]["resourceVersion"]
        .as_str()
        .unwrap_or("0")
        .to_string();
    let watch = format!(
        "{coll}?{}",
        encode_query(vec![
            ("allowWatchBookmarks", "true".into()),
            ("fieldSelector", field),
            ("resourceVersion", rv),
            ("timeoutSeconds", "549".into()),
            ("watch", "true".into()),
        ])
    );
    let mut call = Call::get(watch, "application/json");
    call.caller = "request.go:736";
    let reply = ctx.client.send(out, call);
    let mut waiting = super::watch::Watching::until_deleted(reply.stream);
    waiting.pull(out);
    if waiting.open() {
        out.watching = Some(waiting);
    }
}
