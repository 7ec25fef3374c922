//! `kubectl apply` (client-side: the last-applied annotation and a three-way patch; and
//! `--server-side`, with `--force-conflicts`), `kubectl patch` and `kubectl replace`, with
//! the OpenAPI v3 requests kubectl makes first to validate what it sends (the root document,
//! then the group version's, fetched once per command).

use serde_json::{json, Map, Value};

use super::client::encode_query;
use super::client::Call;
use super::flags::{boolean, value, Spec};
use super::mapper::Resource;
use super::printers::name_of;
use super::write::{dry_run, field_validation, manifests, resource_of, DryRun};
use super::{Ctx, Output};

pub const APPLY_FLAGS: &[Spec] = &[
    value("filename", Some('f')),
    boolean("server-side", None),
    boolean("force-conflicts", None),
    value("field-manager", None),
    value("dry-run", None),
    value("validate", None),
];

pub const PATCH_FLAGS: &[Spec] = &[
    value("patch", Some('p')),
    value("type", None),
    value("dry-run", None),
    value("field-manager", None),
];

pub const REPLACE_FLAGS: &[Spec] = &[
    value("filename", Some('f')),
    value("dry-run", None),
    value("field-manager", None),
    value("validate", None),
];

pub(super) const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// The three-way patch from `current` to `modified`, deleting what `original` (the last
/// applied configuration) had and `modified` no longer has. Lists are replaced whole.
fn three_way(original: &Value, modified: &Value, current: &Value) -> Map<String, Value> {
    let mut patch = Map::new();
    let empty = Map::new();
    let m = modified.as_object().unwrap_or(&empty);
    let c = current.as_object().unwrap_or(&empty);
    let o = original.as_object().unwrap_or(&empty);
    for (k, mv) in m {
        match (mv, c.get(k)) {
            (Value::Object(_), Some(cv @ Value::Object(_))) => {
                let sub = three_way(o.get(k).unwrap_or(&Value::Null), mv, cv);
                if !sub.is_empty() {
                    patch.insert(k.clone(), Value::Object(sub));
                }
            }
            (_, Some(cv)) if cv == mv => {}
            _ => {
                patch.insert(k.clone(), mv.clone());
            }
        }
    }
    for k in o.keys() {
        if !m.contains_key(k) && c.contains_key(k) {
            patch.insert(k.clone(), Value::Null);
        }
    }
    patch
}

/// The object with its last-applied configuration annotation: the object as given, that
/// annotation left out (the annotations map stays, empty when that was all), keys sorted,
/// with a final newline (`util.CreateOrUpdateAnnotation` on an unstructured object).
pub(super) fn with_last_applied(obj: &Value) -> Value {
    let mut bare = obj.clone();
    if let Some(meta) = bare["metadata"].as_object_mut() {
        let annotations = meta.entry("annotations").or_insert_with(|| json!({}));
        if let Some(a) = annotations.as_object_mut() {
            a.remove(LAST_APPLIED);
        }
    }
    let last = format!(
        "{}\n",
        crate::codec::json::to_compact_string(&crate::codec::json::sorted_keys(&bare))
    );
    let mut modified = bare;
    modified["metadata"]["annotations"][LAST_APPLIED] = json!(last);
    modified
}

/// The two-way patch from `original` to `modified` (`CreateTwoWayMergePatch`, lists
/// replaced whole): what changed, and `null` for what is gone.
pub(super) fn two_way(original: &Value, modified: &Value) -> Map<String, Value> {
    three_way(original, modified, original)
}

/// Whether kube-apiserver serves the group's kinds itself (strategic merge patch) rather
/// than from a CustomResourceDefinition (JSON merge patch).
pub(super) fn built_in(group: &str) -> bool {
    matches!(
        group,
        "" | "apps"
            | "rbac.authorization.k8s.io"
            | "authorization.k8s.io"
            | "authentication.k8s.io"
            | "apiextensions.k8s.io"
    )
}

fn with_namespace(ctx: &Ctx<'_, '_>, r: &Resource, mut obj: Value) -> Value {
    if r.namespaced && obj["metadata"]["namespace"].is_null() {
        obj["metadata"]["namespace"] = json!(ctx.namespace);
    }
    obj
}

/// The objects of `-f -`, each with its resource, after kubectl's OpenAPI look-ups, in the
/// command's namespace unless they name one; kubectl's error when there is no `-f`.
fn from_files(
    ctx: &mut Ctx<'_, '_>,
    out: &mut Output,
    missing: &str,
) -> Option<Vec<(Resource, Value)>> {
    if !ctx.flags.has("filename") {
        out.fail(missing);
        return None;
    }
    let mut found = Vec::new();
    for obj in manifests(ctx, out)? {
        if let Some(r) = resource_of(ctx, out, &obj) {
            if ctx
                .flags
                .get("validate")
                .is_none_or(|v| !matches!(v, "ignore" | "false"))
            {
                super::openapi::fetch_for(ctx, out, &r);
            }
            let obj = with_namespace(ctx, &r, obj);
            found.push((r, obj));
        }
    }
    Some(found)
}

pub fn apply(ctx: &mut Ctx<'_, '_>, out: &mut Output) {
    let Some(dry) = dry_run(ctx, out) else {
        return;
    };
    if ctx.flags.on("server-side") && dry == DryRun::Client {
        return out.fail("error: --dry-run=client doesn't work with --server-side (did you mean --dry-run=server instead?)");
    }
    let Some(objects) = from_files(ctx, out, "error: must specify one of -f and -k") else {
        return;
    };
    for (r, obj) in objects {
        if ctx.flags.on("server-side") {
            server_side(ctx, out, &r, &obj, dry);
        } else {
            client_side(ctx, out, &r, obj, dry);
        }
    }
    if ctx.client.verbosity >= 4 && out.exit == 0 {
        ctx.client
            .log(out, "apply.go:548", "Running apply post-processor function");
    }
}

fn object_path(ctx: &Ctx<'_, '_>, r: &Resource, obj: &Value) -> String {
    let ns = obj["metadata"]["namespace"]
        .as_str()
        .map(str::to_string)
        .unwrap_or_else(|| ctx.namespace.clone());
    format!(
        "{}/{}",
        r.collection(Some(&ns)),
        obj["metadata"]["name"].as_str().unwrap_or("")
    )
}

/// The query of a write: `dryRun=All` for a server dry run, then `params`.
fn write_query(dry: DryRun, mut params: Vec<(&str, String)>) -> String {
    if dry == DryRun::Server {
        params.push(("dryRun", "All".into()));
    }
    encode_query(params)
}

fn server_side(ctx: &mut Ctx<'_, '_>, out: &mut Output, r: &Resource, obj: &Value, dry: DryRun) {
    let Some(validation) = field_validation(ctx, out) else {
        return;
    };
    let manager = ctx
        .flags
        .get("field-manager")
        .unwrap_or("kubectl")
        .to_string();
    let force = ctx.flags.on("force-conflicts").to_string();
    let query = write_query(
        dry,
        vec![
            ("fieldManager", manager),
            ("fieldValidation", validation.into()),
            ("force", force),
        ],
    );
    let call = Call::with_body(
        "PATCH",
        format!("{}?{query}", object_path(ctx, r, obj)),
        "application/apply-patch+yaml",
        crate::codec::json::to_vec(&crate::codec::json::sorted_keys(obj)),
        "helper.go:269",
    );
    let reply = ctx.client.send(out, call);
    let body = reply.json();
    if reply.status == 409 {
        let message = body["message"].as_str().unwrap_or("");
        return out.fail(&format!(
            "error: {message}\nPlease review the fields above--they currently have other managers. Here\nare the ways you can resolve this warning:\n* If you intend to manage all of these fields, please re-run the apply\n  command with the `--force-conflicts` flag.\n* If you do not intend to manage all of the fields, please edit your\n  manifest to remove references to the fields that should keep their\n  current managers.\n* You may co-own fields by updating your manifest to match the existing\n  value; in this case, you'll become the manager if the other manager(s)\n  stop managing the field (remove it from their configuration).\nSee https://kubernetes.io/docs/reference/using-api/server-side-apply/#conflicts"
        ));
    }
    if !reply.ok() {
        let text = ctx.report(out, &body);
        return out.fail(&text);
    }
    out.out(&format!(
        "{} serverside-applied{}\n",
        name_of(&body),
        dry.suffix()
    ));
}

fn client_side(ctx: &mut Ctx<'_, '_>, out: &mut Output, r: &Resource, obj: Value, dry: DryRun) {
    let Some(validation) = field_validation(ctx, out) else {
        return;
    };
    let modified = with_last_applied(&obj);
    let name = obj["metadata"]["name"].as_str().unwrap_or("").to_string();
    let current = ctx.get_named(out, r, &name, "application/json");
    if current.status == 404 {
        if dry == DryRun::Client {
            return out.out(&format!("{} created (dry run)\n", name_of(&modified)));
        }
        let manager = "kubectl-client-side-apply";
        let query = write_query(
            dry,
            vec![
                ("fieldManager", manager.to_string()),
                ("fieldValidation", validation.into()),
            ],
        );
        let path = format!(
            "{}?{query}",
            r.collection(modified["metadata"]["namespace"].as_str())
        );
        let call = Call::with_body(
            "POST",
            path,
            "application/json",
            crate::codec::json::to_vec(&modified),
            "helper.go:178",
        );
        let reply = ctx.client.send(out, call);
        let body = reply.json();
        if !reply.ok() {
            let text = ctx.report(out, &body);
            return out.fail(&text);
        }
        return out.out(&format!("{} created{}\n", name_of(&body), dry.suffix()));
    }
    let current = current.json();
    // A client dry run stops here: nothing is compared, the object is "configured".
    if dry == DryRun::Client {
        return out.out(&format!("{} configured (dry run)\n", name_of(&current)));
    }
    let last_applied = current["metadata"]["annotations"][LAST_APPLIED].as_str();
    if last_applied.is_none() {
        out.err(&format!(
            "Warning: resource {}/{name} is missing the {LAST_APPLIED} annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.\n",
            r.resource
        ));
    }
    let original: Value = last_applied
        .and_then(|s| serde_json::from_str(s).ok())
        .unwrap_or(Value::Null);
    let patch = three_way(&original, &modified, &current);
    if patch.is_empty() {
        return out.out(&format!(
            "{} unchanged{}\n",
            name_of(&current),
            dry.suffix()
        ));
    }
    let content_type = if built_in(&r.group) {
        "application/strategic-merge-patch+json"
    } else {
        "application/merge-patch+json"
    };
    let query = write_query(
        dry,
        vec![
            ("fieldManager", "kubectl-client-side-apply".into()),
            ("fieldValidation", validation.into()),
        ],
    );
    let call = Call::with_body(
        "PATCH",
        format!("{}?{query}", object_path(ctx, r, &modified)),
        content_type,
        crate::codec::json::to_compact_string(&crate::codec::json::sorted_keys(&Value::Object(
            patch,
        )))
        .into_bytes(),
        "helper.go:269",
    );
    let reply = ctx.client.send(out, call);
    let body = reply.json();
    if !reply.ok() {
        let text = ctx.report(out, &body);
        return out.fail(&text);
    }
    out.out(&format!("{} configured{}\n", name_of(&body), dry.suffix()));
}

pub fn patch(ctx: &mut Ctx<'_, '_>, out: &mut Output) {
    let Some(dry) = dry_run(ctx, out) else {
        return;
    };
    let Some(text) = ctx.flags.get("patch").map(str::to_string) else {
        return out.fail("error: must specify -p to patch");
    };
    let content_type = match ctx.flags.get("type").unwrap_or("strategic") {
        "strategic" => "application/strategic-merge-patch+json",
        "merge" => "application/merge-patch+json",
        "json" => "application/json-patch+json",
        other => {
            return out.fail(&format!(
                "error: --type must be one of [json merge strategic], not {other:?}"
            ))
        }
    };
    let Some(targets) = super::write::named(ctx, out, "patch") else {
        return;
    };
    let body = match crate::codec::yaml::parse::to_json(text.as_bytes()) {
        Ok(c) => c.json,
        Err(e) => return out.fail(&format!("error: unable to parse {text:?}: {e}")),
    };
    let body = serde_json::from_slice::<Value>(&body)
        .map(|v| {
            crate::codec::json::to_compact_string(&crate::codec::json::sorted_keys(&v)).into_bytes()
        })
        .unwrap_or(body);
    for (r, name) in targets {
        let before = ctx.get_named(out, &r, &name, "application/json");
        if !before.ok() {
            let text = ctx.report(out, &before.json());
            out.fail(&text);
            continue;
        }
        let before = before.json();
        // kubectl patch names no dry run in what it prints.
        if dry == DryRun::Client {
            out.out(&format!("{} patched\n", name_of(&before)));
            continue;
        }
        let manager = ctx
            .flags
            .get("field-manager")
            .unwrap_or("kubectl-patch")
            .to_string();
        let call = Call::with_body(
            "PATCH",
            format!(
                "{}/{name}?{}",
                r.collection(Some(&ctx.namespace)),
                write_query(dry, vec![("fieldManager", manager)])
            ),
            content_type,
            body.clone(),
            "helper.go:269",
        );
        let reply = ctx.client.send(out, call);
        let after = reply.json();
        if !reply.ok() {
            let text = ctx.report(out, &after);
            out.fail(&text);
            continue;
        }
        let note = if after == before { " (no change)" } else { "" };
        out.out(&format!("{} patched{note}\n", name_of(&after)));
    }
}

pub fn replace(ctx: &mut Ctx<'_, '_>, out: &mut Output) {
    let Some(dry) = dry_run(ctx, out) else {
        return;
    };
    let Some(objects) = from_files(ctx, out, "error: must specify --filename to replace") else {
        return;
    };
    let Some(validation) = field_validation(ctx, out) else {
        return;
    };
    for (r, mut obj) in objects {
        let name = obj["metadata"]["name"].as_str().unwrap_or("").to_string();
        if dry == DryRun::Client {
            out.out(&format!("{} replaced (dry run)\n", name_of(&obj)));
            continue;
        }
        if obj["metadata"]["resourceVersion"].is_null() {
            // helper.Replace fills in the resourceVersion from a GET when none is given.
            let current = ctx.get_named(out, &r, &name, "application/json");
            if !current.ok() {
                let text = ctx.report(out, &current.json());
                out.fail(&text);
                continue;
            }
            obj["metadata"]["resourceVersion"] =
                current.json()["metadata"]["resourceVersion"].clone();
        }
        let query = write_query(
            dry,
            vec![
                (
                    "fieldManager",
                    ctx.flags
                        .get("field-manager")
                        .unwrap_or("kubectl-replace")
                        .to_string(),
                ),
                ("fieldValidation", validation.into()),
            ],
        );
        let call = Call::with_body(
            "PUT",
            format!("{}?{query}", object_path(ctx, &r, &obj)),
            "application/json",
            crate::codec::json::to_vec(&obj),
            "helper.go:240",
        );
        let reply = ctx.client.send(out, call);
        let body = reply.json();
        if !reply.ok() {
            let text = ctx.report(out, &body);
            out.fail(&text);
            continue;
        }
        out.out(&format!("{} replaced{}\n", name_of(&body), dry.suffix()));
    }
}
