//! kubectl's writing commands: `create` (`-f` from standard input, `namespace`,
//! `configmap`), `delete` (with `--cascade`, `--grace-period`, `--dry-run=server`, then one
//! wait for it to be gone), with kubectl's messages (`configmap/app created`,
//! `configmap "app" deleted`); `label` and `annotate` are [`super::label`].

use serde_json::{json, Map, Value};

use super::client::encode_query;
use super::client::Call;
use super::flags::{boolean, value, Spec};
use super::mapper::Resource;
use super::printers::name_of;
use super::{Ctx, Output};

pub const CREATE_FLAGS: &[Spec] = &[
    value("filename", Some('f')),
    value("from-literal", None),
    value("dry-run", None),
    value("output", Some('o')),
    value("field-manager", None),
    value("validate", None),
    boolean("save-config", None),
    // create role, clusterrole, rolebinding, clusterrolebinding
    value("verb", None),
    value("resource", None),
    value("resource-name", None),
    value("role", None),
    value("clusterrole", None),
    value("user", None),
    value("group", None),
    value("serviceaccount", None),
];

pub(super) fn server_dry_run(ctx: &Ctx<'_, '_>, out: &mut Output) -> Option<bool> {
    match ctx.flags.get("dry-run") {
        None | Some("none") => Some(false),
        Some("server") => Some(true),
        Some("client") => {
            out.fail("error: kubesim's kubectl does not run --dry-run=client");
            None
        }
        Some(other) => {
            out.fail(&format!(
                "error: Invalid dry-run value ({other}). Must be \"none\", \"server\", or \"client\"."
            ));
            None
        }
    }
}

pub(super) fn suffix(dry: bool) -> &'static str {
    if dry {
        " (server dry run)"
    } else {
        ""
    }
}

/// POSTs `obj` to `resource`'s collection; kubectl's line for it, or its error. Objects from
/// a manifest (`source`) go as the builder sends them (JSON); a generator's
/// (`create configmap`, `create role`, ...) as its typed client does (Protobuf).
fn post(
    ctx: &mut Ctx<'_, '_>,
    out: &mut Output,
    resource: &Resource,
    obj: &Value,
    dry: bool,
    source: Option<&str>,
) -> bool {
    let ns = obj["metadata"]["namespace"]
        .as_str()
        .map(str::to_string)
        .unwrap_or_else(|| ctx.namespace.clone());
    let mut params = vec![
        (
            "fieldManager",
            ctx.flags
                .get("field-manager")
                .unwrap_or("kubectl-create")
                .to_string(),
        ),
        ("fieldValidation", "Strict".to_string()),
    ];
    if dry {
        params.push(("dryRun", "All".to_string()));
    }
    let path = format!(
        "{}?{}",
        resource.collection(Some(&ns)),
        encode_query(params)
    );
    let call = match source {
        Some(_) => Call::with_body(
            "POST",
            path,
            "application/json",
            crate::codec::json::to_vec(obj),
            "helper.go:178",
        ),
        None => Call::typed_write("POST", path, obj, "type.go:252"),
    };
    let reply = ctx.client.send(out, call);
    let body = reply.json();
    if !reply.ok() {
        // cmdutil.AddSourceToErr: the Status's message says where the object came from.
        let mut status = body;
        if let (Some(src), Some(m)) = (source, status["message"].as_str()) {
            status["message"] = json!(format!("error when creating \"{src}\": {m}"));
        }
        let text = ctx.report(out, &status);
        out.err(&format!("{text}\n"));
        out.exit = 1;
        return false;
    }
    out.out(&format!("{} created{}\n", name_of(&body), suffix(dry)));
    true
}

pub fn create(ctx: &mut Ctx<'_, '_>, out: &mut Output) {
    let Some(dry) = server_dry_run(ctx, out) else {
        return;
    };
    let args = ctx.flags.args.clone();
    if ctx.flags.has("filename") {
        return create_from_files(ctx, out, dry);
    }
    let Some(what) = args.first().map(String::as_str) else {
        return out.fail("error: must specify one of -f and -k");
    };
    let sub = match what {
        "namespace" | "ns" => "namespace",
        "configmap" | "cm" => "configmap",
        "role" => "role",
        "clusterrole" => "clusterrole",
        "rolebinding" => "rolebinding",
        "clusterrolebinding" => "clusterrolebinding",
        other => {
            return out.fail(&format!(
                "error: unknown command \"{other}\" for \"kubectl create\"\nSee 'kubectl create -h' for help and examples"
            ))
        }
    };
    if args.len() != 2 {
        return out.fail(&format!(
            "error: exactly one NAME is required, got {}\nSee 'kubectl create {sub} -h' for help and examples",
            args.len() - 1
        ));
    }
    let name = args[1].clone();
    let name = &name;
    let rbac = match sub {
        "role" => Some((
            "roles.rbac.authorization.k8s.io",
            super::rbac::role(ctx, out, "Role", name),
        )),
        "clusterrole" => Some((
            "clusterroles.rbac.authorization.k8s.io",
            super::rbac::role(ctx, out, "ClusterRole", name),
        )),
        "rolebinding" => Some((
            "rolebindings.rbac.authorization.k8s.io",
            super::rbac::binding(ctx, out, "RoleBinding", name),
        )),
        "clusterrolebinding" => Some((
            "clusterrolebindings.rbac.authorization.k8s.io",
            super::rbac::binding(ctx, out, "ClusterRoleBinding", name),
        )),
        _ => None,
    };
    if let Some((resource, obj)) = rbac {
        let Some(obj) = obj else { return };
        let Some(r) = ctx.resolve(resource, out) else {
            return out.fail(&format!(
                "error: the server doesn't have a resource type \"{resource}\""
            ));
        };
        post(ctx, out, &r, &obj, dry, None);
        return;
    }
    let (resource, obj) = if sub == "namespace" {
        (
            "namespaces",
            json!({"kind": "Namespace", "apiVersion": "v1",
                "metadata": {"name": name, "creationTimestamp": null}, "spec": {}, "status": {}}),
        )
    } else {
        let mut data = Map::new();
        for literal in ctx.flags.all("from-literal") {
            let Some((k, v)) = literal.split_once('=') else {
                return out.fail(&format!(
                    "error: invalid literal source {literal}, expected key=value"
                ));
            };
            data.insert(k.to_string(), Value::String(v.to_string()));
        }
        let mut obj = json!({"kind": "ConfigMap", "apiVersion": "v1",
            "metadata": {"name": name, "namespace": ctx.namespace, "creationTimestamp": null}});
        if !data.is_empty() {
            obj["data"] = Value::Object(data);
        }
        ("configmaps", obj)
    };
    let Some(r) = ctx.resolve(resource, out) else {
        return out.fail(&format!(
            "error: the server doesn't have a resource type \"{resource}\""
        ));
    };
    post(ctx, out, &r, &obj, dry, None);
}

/// The objects of `-f -` (standard input: a here-document or the editor pane's manifest).
pub(super) fn manifests(ctx: &Ctx<'_, '_>, out: &mut Output) -> Option<Vec<Value>> {
    let files = ctx.flags.all("filename");
    if files.iter().any(|f| *f != "-") {
        let f = files.iter().find(|f| **f != "-").unwrap_or(&"");
        out.fail(&format!(
            "error: the path \"{f}\" does not exist (in the tab, use -f - with a here-document)"
        ));
        return None;
    }
    let text = ctx.stdin.clone().unwrap_or_default();
    let docs = match crate::engine::documents(&text) {
        Ok(d) => d,
        Err(e) => {
            out.fail(&format!("error: error parsing STDIN: {e}"));
            return None;
        }
    };
    let mut objects = Vec::new();
    for doc in docs {
        if doc
            .lines()
            .all(|l| l.trim().is_empty() || l.trim().starts_with('#'))
        {
            continue;
        }
        let converted = match crate::codec::yaml::parse::to_json(doc.as_bytes()) {
            Ok(c) => c,
            Err(e) => {
                out.fail(&format!(
                    "error: error parsing STDIN: error converting YAML to JSON: {e}"
                ));
                return None;
            }
        };
        match serde_json::from_slice::<Value>(&converted.json) {
            Ok(Value::Null) => {}
            Ok(Value::Object(m)) if m.get("kind").and_then(Value::as_str) == Some("List") => {
                objects.extend(m["items"].as_array().cloned().unwrap_or_default())
            }
            Ok(v) => objects.push(v),
            Err(e) => {
                out.fail(&format!("error: error parsing STDIN: {e}"));
                return None;
            }
        }
    }
    if objects.is_empty() {
        out.fail("error: no objects passed to create");
        return None;
    }
    Some(objects)
}

/// The served resource of an object's apiVersion and kind.
pub(super) fn resource_of(
    ctx: &mut Ctx<'_, '_>,
    out: &mut Output,
    obj: &Value,
) -> Option<Resource> {
    let api = obj["apiVersion"].as_str().unwrap_or("");
    let kind = obj["kind"].as_str().unwrap_or("");
    let (group, version) = api.split_once('/').unwrap_or(("", api));
    let find = |d: &super::mapper::Discovery| {
        d.resources
            .iter()
            .find(|r| r.group == group && r.version == version && r.kind == kind)
            .cloned()
    };
    if let Some(r) = find(ctx.discovery(out)) {
        return Some(r);
    }
    ctx.session.forget_discovery();
    let found = find(ctx.discovery(out));
    if found.is_none() {
        out.err(&format!(
            "error: resource mapping not found for name: {:?} namespace: {:?} from \"STDIN\": no matches for kind {kind:?} in version {api:?}\nensure CRDs are installed first\n",
            obj["metadata"]["name"].as_str().unwrap_or(""),
            obj["metadata"]["namespace"].as_str().unwrap_or(""),
        ));
        out.exit = 1;
    }
    found
}

fn create_from_files(ctx: &mut Ctx<'_, '_>, out: &mut Output, dry: bool) {
    let Some(objects) = manifests(ctx, out) else {
        return;
    };
    for obj in objects {
        if let Some(r) = resource_of(ctx, out, &obj) {
            super::openapi::fetch_for(ctx, out, &r);
            post(ctx, out, &r, &obj, dry, Some("STDIN"));
        }
    }
}

/// The objects `TYPE NAME...` or `TYPE/NAME...` name.
pub(super) fn named(
    ctx: &mut Ctx<'_, '_>,
    out: &mut Output,
    verb: &str,
) -> Option<Vec<(Resource, String)>> {
    let args = ctx.flags.args.clone();
    let mut found = Vec::new();
    if args.iter().any(|a| a.contains('/')) {
        for a in &args {
            let (ty, name) = a.split_once('/')?;
            let r = ctx.resolve(ty, out).or_else(|| {
                out.fail(&format!(
                    "error: the server doesn't have a resource type \"{ty}\""
                ));
                None
            })?;
            found.push((r, name.to_string()));
        }
        return Some(found);
    }
    let Some(ty) = args.first() else {
        out.fail(&format!(
            "error: you must specify the type of resource to {verb}"
        ));
        return None;
    };
    let Some(r) = ctx.resolve(ty, out) else {
        out.fail(&format!(
            "error: the server doesn't have a resource type \"{ty}\""
        ));
        return None;
    };
    let names = &args[1..];
    if names.is_empty() && verb == "delete" {
        out.fail("error: resource(s) were provided, but no name was specified");
        return None;
    }
    Some(names.iter().map(|n| (r.clone(), n.clone())).collect())
}
