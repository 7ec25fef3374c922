//! `kubectl create` (`-f` from standard input, and the generators: `namespace`,
//! `configmap`, `role`, `clusterrole`, `rolebinding`, `clusterrolebinding`) with
//! `--dry-run=client|server` and `-o json|yaml|name`, kubectl's messages
//! (`configmap/app created`), and the helpers the other writing commands share: the
//! builder's look-ups by name and from manifests, the dry-run mode. `delete` is
//! [`super::delete`]; `label` and `annotate` are [`super::label`].

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

/// `--dry-run`: none, server (sent with `dryRun=All`) or client (nothing sent).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum DryRun {
    None,
    Server,
    Client,
}

impl DryRun {
    /// What the printed line ends with.
    pub(super) fn suffix(self) -> &'static str {
        match self {
            DryRun::None => "",
            DryRun::Server => " (server dry run)",
            DryRun::Client => " (dry run)",
        }
    }
}

pub(super) fn dry_run(ctx: &Ctx<'_, '_>, out: &mut Output) -> Option<DryRun> {
    match ctx.flags.get("dry-run") {
        None | Some("none") | Some("false") => Some(DryRun::None),
        Some("server") => Some(DryRun::Server),
        Some("client") | Some("true") => Some(DryRun::Client),
        Some(other) => {
            out.fail(&format!(
                "error: Invalid dry-run value ({other}). Must be \"none\", \"server\", or \"client\"."
            ));
            None
        }
    }
}

/// `--validate`: the `fieldValidation` the writes send (`Strict` unless it says `warn` or
/// `ignore`/`false`); kubectl's error for another value.
pub(super) fn field_validation(ctx: &Ctx<'_, '_>, out: &mut Output) -> Option<&'static str> {
    match ctx.flags.get("validate").unwrap_or("strict") {
        "strict" | "true" => Some("Strict"),
        "warn" => Some("Warn"),
        "ignore" | "false" => Some("Ignore"),
        other => {
            out.fail(&format!(
                "error: invalid - validate option {}; must be one of: strict (or true), warn, ignore (or false)",
                crate::codec::goquote::go_quote(other)
            ));
            None
        }
    }
}

/// The formats `create -o` may name; kubesim's kubectl prints the name, JSON, YAML and
/// JSONPath ones.
const CREATE_FORMATS: &str = "go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,yaml";

/// What `create` prints for an object: as `-o` asks (managedFields left out; a typed
/// client's object in its fields' order, an unstructured one with keys sorted), else
/// `configmap/x created`.
fn print_created(ctx: &Ctx<'_, '_>, out: &mut Output, obj: &Value, typed: bool, dry: DryRun) {
    let mut shown = obj.clone();
    super::printers::omit_managed_fields(&mut shown);
    match ctx.flags.get("output") {
        Some("json") if typed => out.out(&super::printers::json_as_is(&shown)),
        Some("json") => out.out(&super::printers::json(&shown)),
        Some("yaml") => out.out(&super::printers::yaml(&shown)),
        Some("name") => out.out(&format!("{}\n", name_of(obj))),
        Some(f) if f.starts_with("jsonpath=") => {
            let t = crate::resources::jsonpath::Template::parse(&f["jsonpath=".len()..]);
            if let Ok(t) = t {
                out.out(&t.execute(&shown));
            }
        }
        _ => out.out(&format!("{} created{}\n", name_of(obj), dry.suffix())),
    }
}

/// The metadata of a generated object: its name, the namespace only when `-n` gave one (as
/// kubectl's generators set it only then), and the null creation time.
pub(super) fn generated_metadata(ctx: &Ctx<'_, '_>, name: &str, namespaced: bool) -> Value {
    let mut meta = Map::new();
    meta.insert("name".into(), json!(name));
    if namespaced && ctx.flags.has("namespace") {
        meta.insert("namespace".into(), json!(ctx.namespace));
    }
    meta.insert("creationTimestamp".into(), Value::Null);
    Value::Object(meta)
}

/// POSTs `obj` to `resource`'s collection; kubectl's line for it, or its error. Objects from
/// a manifest (`source`) go as the builder sends them (JSON); a generator's
/// (`create configmap`, `create role`, ...) as its typed client does (Protobuf).
fn post(
    ctx: &mut Ctx<'_, '_>,
    out: &mut Output,
    resource: &Resource,
    obj: &Value,
    dry: DryRun,
    source: Option<&str>,
) -> bool {
    let typed = source.is_none();
    let Some(validation) = field_validation(ctx, out) else {
        return false;
    };
    // --save-config: the object keeps what was created as its last-applied configuration
    // (a typed object's JSON in its fields' order; a manifest's as apply writes it).
    let saved;
    let obj = if ctx.flags.on("save-config") {
        saved = if typed {
            let mut o = obj.clone();
            let text = format!("{}\n", crate::codec::json::to_compact_string(obj));
            o["metadata"]["annotations"] = json!({ super::apply::LAST_APPLIED: text });
            o
        } else {
            super::apply::with_last_applied(obj)
        };
        &saved
    } else {
        obj
    };
    if dry == DryRun::Client {
        print_created(ctx, out, obj, typed, dry);
        return true;
    }
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
        ("fieldValidation", validation.to_string()),
    ];
    if dry == DryRun::Server {
        params.push(("dryRun", "All".to_string()));
    }
    let path = format!(
        "{}?{}",
        resource.collection(Some(&ns)),
        encode_query(params)
    );
    let call = match source {
        // An unstructured object marshals with its keys sorted, as Go marshals a map.
        Some(_) => Call::with_body(
            "POST",
            path,
            "application/json",
            crate::codec::json::to_vec(&crate::codec::json::sorted_keys(obj)),
            "helper.go:246",
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
    print_created(ctx, out, &body, typed, dry);
    true
}

pub fn create(ctx: &mut Ctx<'_, '_>, out: &mut Output) {
    let Some(dry) = dry_run(ctx, out) else {
        return;
    };
    if let Some(f) = ctx.flags.get("output") {
        if let Some(t) = f.strip_prefix("jsonpath=") {
            if let Err(e) = crate::resources::jsonpath::Template::parse(t) {
                return out.fail(&format!("error: error parsing jsonpath {t}, {e}"));
            }
        } else if !matches!(f, "json" | "yaml" | "name") {
            return out.fail(&format!(
                "error: unable to match a printer suitable for the output format \"{f}\", allowed formats are: {CREATE_FORMATS}"
            ));
        }
    }
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
        // cobra hands what names no generator to `create` itself, which takes no arguments.
        _ => {
            return out.fail(&format!(
                "error: Unexpected args: [{}]\nSee 'kubectl create -h' for help and examples",
                args.join(" ")
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
                "metadata": generated_metadata(ctx, name, false), "spec": {}, "status": {}}),
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
            "metadata": generated_metadata(ctx, name, true)});
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

fn create_from_files(ctx: &mut Ctx<'_, '_>, out: &mut Output, dry: DryRun) {
    let Some(objects) = manifests(ctx, out) else {
        return;
    };
    for mut obj in objects {
        if let Some(r) = resource_of(ctx, out, &obj) {
            // Validation on: kubectl looks the server's support for it up first.
            if ctx
                .flags
                .get("validate")
                .is_none_or(|v| !matches!(v, "ignore" | "false"))
            {
                super::openapi::fetch_for(ctx, out, &r);
            }
            // The builder puts a namespaced object in the command's namespace.
            if r.namespaced
                && obj["metadata"]["namespace"]
                    .as_str()
                    .is_none_or(str::is_empty)
            {
                obj["metadata"]["namespace"] = json!(ctx.namespace);
            }
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
