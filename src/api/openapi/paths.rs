//! `paths`: every operation kube-apiserver publishes for a served resource, generated from its
//! registry entry (scope, verbs, subresources).
//!
//! The shape follows kube-openapi's builder: operation ids such as
//! `patchAppsV1NamespacedControllerRevision`, one tag per group-version (`apps_v1`),
//! `x-kubernetes-action` and `x-kubernetes-group-version-kind` on each operation, parameters
//! inline (never `$ref`), and parameters shared by every operation of a path hoisted to the
//! path item. kubectl's `fieldValidation` probe reads the PATCH operation's own parameter list,
//! which therefore always carries `dryRun`, `fieldManager`, `fieldValidation` and `force`.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use super::meta;
use super::params::{
    Param, CREATE_PARAMS, DELETE_COLLECTION_PARAMS, DELETE_PARAMS, LIST_PARAMS, NAME, NAMESPACE,
    PATCH_PARAMS, PRETTY, UPDATE_PARAMS,
};
use super::schemas::{list_schema_name, reference};
use crate::resources::ResourceInfo;

/// Media types of single-object responses.
const OBJECT_TYPES: &[&str] = &[
    "application/cbor",
    "application/json",
    "application/vnd.kubernetes.protobuf",
    "application/yaml",
];
/// Media types of list and watch responses (the streaming framings included).
const STREAM_TYPES: &[&str] = &[
    "application/cbor",
    "application/cbor-seq",
    "application/json",
    "application/json;stream=watch",
    "application/vnd.kubernetes.protobuf",
    "application/vnd.kubernetes.protobuf;stream=watch",
    "application/yaml",
];
/// PATCH request body media types (sorted).
const PATCH_TYPES: &[&str] = &[
    "application/apply-patch+cbor",
    "application/apply-patch+yaml",
    "application/json-patch+json",
    "application/merge-patch+json",
    "application/strategic-merge-patch+json",
];

/// The operation-id / tag spelling of a group: `apps` -> `Apps`, `rbac.authorization.k8s.io`
/// -> `RbacAuthorization`, core -> `Core`.
pub fn group_camel(group: &str) -> String {
    if group.is_empty() {
        return "Core".into();
    }
    let trimmed = group.strip_suffix(".k8s.io").unwrap_or(group);
    trimmed.split(['.', '-']).map(upper_first).collect()
}

fn upper_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

fn lower_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_lowercase().chain(c).collect(),
        None => String::new(),
    }
}

/// The tag of a group's own discovery operation (`apps`, `rbacAuthorization`).
pub fn group_tag(group: &str) -> String {
    lower_first(&group_camel(group))
}

/// The tag of every operation of a group-version: `apps_v1`, `core_v1`,
/// `rbacAuthorization_v1`.
pub fn tag(group: &str, version: &str) -> String {
    format!("{}_{}", group_tag(group), version)
}

/// `AppsV1`, `CoreV1`: the group-version part of operation ids.
fn gv_id(group: &str, version: &str) -> String {
    format!("{}{}", group_camel(group), upper_first(version))
}

/// The URL prefix of a group-version: `/api/v1` or `/apis/<group>/<version>`.
pub fn prefix(group: &str, version: &str) -> String {
    if group.is_empty() {
        format!("/api/{version}")
    } else {
        format!("/apis/{group}/{version}")
    }
}

/// `{"description": ..., "content": {<type>: {"schema": {"$ref": ...}}}}`.
fn response(description: &str, schema: &str, types: &[&str]) -> Value {
    let content: Map<String, Value> = types
        .iter()
        .map(|t| (t.to_string(), json!({ "schema": reference(schema) })))
        .collect();
    json!({"description": description, "content": content})
}

/// The responses of an operation: the success codes the server can answer, then 401.
fn responses(codes: &[(&str, &str)], schema: &str, types: &[&str]) -> Value {
    let mut m = Map::new();
    for (code, description) in codes {
        m.insert((*code).into(), response(description, schema, types));
    }
    m.insert("401".into(), json!({"description": "Unauthorized"}));
    Value::Object(m)
}

/// A request body of the given schema, for every media type in `types`.
fn request_body(schema: &str, types: &[&str], required: bool) -> Value {
    let content: Map<String, Value> = types
        .iter()
        .map(|t| (t.to_string(), json!({ "schema": reference(schema) })))
        .collect();
    let mut m = Map::new();
    m.insert("content".into(), Value::Object(content));
    if required {
        m.insert("required".into(), json!(true));
    }
    Value::Object(m)
}

/// One operation before parameter hoisting.
struct Op {
    method: &'static str,
    description: String,
    operation_id: String,
    params: Vec<Param>,
    request_body: Option<Value>,
    responses: Value,
    action: &'static str,
}

/// The kind a path's operations are about, and how its ids and names are spelt.
struct Ctx<'a> {
    r: &'a ResourceInfo,
    gv: String,
    tag: String,
    /// `Namespaced` for namespaced kinds, else empty.
    scope: &'static str,
    name_doc: String,
}

impl Ctx<'_> {
    fn gvk(&self) -> Value {
        // metav1.GroupVersionKind, in its struct order.
        json!({"group": self.r.group, "version": self.r.version, "kind": self.r.kind})
    }

    fn object(&self) -> &'static str {
        self.r.schema.openapi_name
    }

    /// Renders one path item: hoists the parameters every operation shares (kube-openapi's
    /// `findCommonParameters`), sorts parameters by name, orders operations as `PathProps`.
    fn path_item(&self, mut ops: Vec<Op>, path_params: &[Param]) -> Value {
        for op in &mut ops {
            op.params.extend_from_slice(path_params);
            op.params.push(PRETTY);
        }
        let common: Vec<Param> = ops[0]
            .params
            .iter()
            .copied()
            .filter(|p| ops.iter().all(|o| o.params.contains(p)))
            .collect();
        let method_rank = |m: &str| {
            ["get", "put", "post", "delete", "patch"]
                .iter()
                .position(|x| *x == m)
                .unwrap_or(9)
        };
        crate::sort::sort_by_key(&mut ops, |o| method_rank(o.method));
        let mut item = Map::new();
        for op in ops {
            let mut own: Vec<Param> = op
                .params
                .iter()
                .copied()
                .filter(|p| !common.contains(p))
                .collect();
            crate::sort::sort_by_key(&mut own, |p| (p.name, p.location));
            let mut m = Map::new();
            m.insert("tags".into(), json!([self.tag]));
            m.insert("description".into(), json!(op.description));
            m.insert("operationId".into(), json!(op.operation_id));
            if !own.is_empty() {
                let own: Vec<Value> = own.iter().map(|p| self.param_json(*p)).collect();
                m.insert("parameters".into(), Value::Array(own));
            }
            if let Some(body) = op.request_body {
                m.insert("requestBody".into(), body);
            }
            m.insert("responses".into(), op.responses);
            m.insert("x-kubernetes-action".into(), json!(op.action));
            m.insert("x-kubernetes-group-version-kind".into(), self.gvk());
            item.insert(op.method.into(), Value::Object(m));
        }
        let mut common = common;
        crate::sort::sort_by_key(&mut common, |p| (p.name, p.location));
        let common: Vec<Value> = common.iter().map(|p| self.param_json(*p)).collect();
        item.insert("parameters".into(), Value::Array(common));
        Value::Object(item)
    }

    fn param_json(&self, p: Param) -> Value {
        if p == NAME {
            p.to_json(&self.name_doc)
        } else {
            p.to_json(p.description)
        }
    }

    fn op(
        &self,
        method: &'static str,
        action: &'static str,
        description: String,
        operation_id: String,
        params: &[Param],
    ) -> Op {
        Op {
            method,
            description,
            operation_id,
            params: params.to_vec(),
            request_body: None,
            responses: Value::Null,
            action,
        }
    }

    /// `list`, `create` and `deletecollection` on a collection.
    fn collection_ops(&self, all_namespaces: bool) -> Vec<Op> {
        let (r, gv, scope) = (self.r, &self.gv, self.scope);
        let mut ops = Vec::new();
        if r.supports("deletecollection") && !all_namespaces {
            let mut op = self.op(
                "delete",
                "deletecollection",
                format!("delete collection of {}", r.kind),
                format!("delete{gv}Collection{scope}{}", r.kind),
                DELETE_COLLECTION_PARAMS,
            );
            op.request_body = Some(request_body(
                crate::resources::schema::DELETE_OPTIONS.openapi_name,
                &["*/*"],
                false,
            ));
            op.responses = responses(&[("200", "OK")], meta::STATUS.openapi_name, OBJECT_TYPES);
            ops.push(op);
        }
        if r.supports("list") {
            let id = if all_namespaces {
                format!("list{gv}{}ForAllNamespaces", r.kind)
            } else {
                format!("list{gv}{scope}{}", r.kind)
            };
            let mut op = self.op(
                "get",
                "list",
                format!("list or watch objects of kind {}", r.kind),
                id,
                LIST_PARAMS,
            );
            op.responses = responses(&[("200", "OK")], &list_schema_name(r), STREAM_TYPES);
            ops.push(op);
        }
        if r.supports("create") && !all_namespaces {
            let mut op = self.op(
                "post",
                "post",
                format!("create a {}", r.kind),
                format!("create{gv}{scope}{}", r.kind),
                CREATE_PARAMS,
            );
            op.request_body = Some(request_body(self.object(), &["*/*"], true));
            op.responses = responses(
                &[("200", "OK"), ("201", "Created"), ("202", "Accepted")],
                self.object(),
                OBJECT_TYPES,
            );
            ops.push(op);
        }
        ops
    }

    /// `read`, `replace`, `patch`, `delete` on one object, or on one of its subresources.
    fn item_ops(&self, sub: Option<(&str, &[&str])>) -> Vec<Op> {
        let (r, gv, scope) = (self.r, &self.gv, self.scope);
        let (verbs, what, suffix): (&[&str], String, String) = match sub {
            None => (r.verbs, "the specified".to_string(), String::new()),
            Some((name, verbs)) => (verbs, format!("{name} of the specified"), upper_first(name)),
        };
        let supports = |v: &str| verbs.contains(&v);
        let kind = r.kind;
        let mut ops = Vec::new();
        if sub.is_none() && supports("delete") {
            let mut op = self.op(
                "delete",
                "delete",
                format!("delete a {kind}"),
                format!("delete{gv}{scope}{kind}"),
                DELETE_PARAMS,
            );
            op.request_body = Some(request_body(
                crate::resources::schema::DELETE_OPTIONS.openapi_name,
                &["*/*"],
                false,
            ));
            op.responses = responses(
                &[("200", "OK"), ("202", "Accepted")],
                meta::STATUS.openapi_name,
                OBJECT_TYPES,
            );
            ops.push(op);
        }
        if supports("get") {
            let mut op = self.op(
                "get",
                "get",
                format!("read {what} {kind}"),
                format!("read{gv}{scope}{kind}{suffix}"),
                &[],
            );
            op.responses = responses(&[("200", "OK")], self.object(), OBJECT_TYPES);
            ops.push(op);
        }
        if supports("patch") {
            let mut op = self.op(
                "patch",
                "patch",
                format!("partially update {what} {kind}"),
                format!("patch{gv}{scope}{kind}{suffix}"),
                PATCH_PARAMS,
            );
            op.request_body = Some(request_body(meta::PATCH, PATCH_TYPES, true));
            op.responses = responses(
                &[("200", "OK"), ("201", "Created")],
                self.object(),
                OBJECT_TYPES,
            );
            ops.push(op);
        }
        if supports("update") {
            let mut op = self.op(
                "put",
                "put",
                format!("replace {what} {kind}"),
                format!("replace{gv}{scope}{kind}{suffix}"),
                UPDATE_PARAMS,
            );
            op.request_body = Some(request_body(self.object(), &["*/*"], true));
            op.responses = responses(
                &[("200", "OK"), ("201", "Created")],
                self.object(),
                OBJECT_TYPES,
            );
            ops.push(op);
        }
        ops
    }

    /// The deprecated `/watch/` operations: `watchlist` on collections, `watch` on one object.
    fn watch_op(&self, single: bool, all_namespaces: bool) -> Op {
        let (r, gv, scope) = (self.r, &self.gv, self.scope);
        let (action, description, id) = if single {
            (
                "watch",
                format!("watch changes to an object of kind {}. deprecated: use the 'watch' parameter with a list operation instead, filtered to a single item with the 'fieldSelector' parameter.", r.kind),
                format!("watch{gv}{scope}{}", r.kind),
            )
        } else if all_namespaces {
            (
                "watchlist",
                format!("watch individual changes to a list of {}. deprecated: use the 'watch' parameter with a list operation instead.", r.kind),
                format!("watch{gv}{}ListForAllNamespaces", r.kind),
            )
        } else {
            (
                "watchlist",
                format!("watch individual changes to a list of {}. deprecated: use the 'watch' parameter with a list operation instead.", r.kind),
                format!("watch{gv}{scope}{}List", r.kind),
            )
        };
        let mut op = self.op("get", action, description, id, LIST_PARAMS);
        op.responses = responses(
            &[("200", "OK")],
            meta::WATCH_EVENT.openapi_name,
            STREAM_TYPES,
        );
        op
    }
}

/// Every path item of one resource, keyed by path.
pub fn resource_paths(r: &ResourceInfo) -> BTreeMap<String, Value> {
    let ctx = Ctx {
        r,
        gv: gv_id(r.group, r.version),
        tag: tag(r.group, r.version),
        scope: if r.namespaced { "Namespaced" } else { "" },
        name_doc: format!("name of the {}", r.kind),
    };
    let base = prefix(r.group, r.version);
    let ns_seg = if r.namespaced {
        "/namespaces/{namespace}"
    } else {
        ""
    };
    let scope_params: &[Param] = if r.namespaced { &[NAMESPACE] } else { &[] };
    let item_params: &[Param] = if r.namespaced {
        &[NAME, NAMESPACE]
    } else {
        &[NAME]
    };
    let mut out = BTreeMap::new();
    let mut add = |path: String, ops: Vec<Op>, params: &[Param]| {
        if !ops.is_empty() {
            out.insert(path, ctx.path_item(ops, params));
        }
    };

    let collection = format!("{base}{ns_seg}/{}", r.plural);
    add(collection.clone(), ctx.collection_ops(false), scope_params);
    if r.namespaced {
        add(
            format!("{base}/{}", r.plural),
            ctx.collection_ops(true),
            &[],
        );
    }
    let item = format!("{collection}/{{name}}");
    add(item.clone(), ctx.item_ops(None), item_params);
    for sub in r.subresources {
        add(
            format!("{item}/{}", sub.name),
            ctx.item_ops(Some((sub.name, sub.verbs))),
            item_params,
        );
    }
    if r.supports("watch") {
        let watch_collection = format!("{base}/watch{ns_seg}/{}", r.plural);
        add(
            format!("{watch_collection}/{{name}}"),
            vec![ctx.watch_op(true, false)],
            item_params,
        );
        add(
            watch_collection,
            vec![ctx.watch_op(false, false)],
            scope_params,
        );
        if r.namespaced {
            add(
                format!("{base}/watch/{}", r.plural),
                vec![ctx.watch_op(false, true)],
                &[],
            );
        }
    }
    out
}

/// `GET <prefix>/`: the group-version's `APIResourceList` (`getAppsV1APIResources`).
pub fn api_resources_path(group: &str, version: &str) -> (String, Value) {
    let op = json!({
        "tags": [tag(group, version)],
        "description": "get available resources",
        "operationId": format!("get{}APIResources", gv_id(group, version)),
        "responses": responses(&[("200", "OK")], meta::API_RESOURCE_LIST.openapi_name, OBJECT_TYPES)
    });
    (format!("{}/", prefix(group, version)), json!({ "get": op }))
}

/// A discovery endpoint's path item (`/api/`, `/apis/`, `/apis/<group>/`, `/version/`): one
/// GET answering JSON/YAML/protobuf (JSON only for `/version`).
pub fn discovery_path(
    tag: &str,
    description: &str,
    operation_id: &str,
    schema: &str,
    types: &[&str],
    unauthorized: bool,
) -> Value {
    let mut codes = Map::new();
    codes.insert("200".into(), response("OK", schema, types));
    if unauthorized {
        codes.insert("401".into(), json!({"description": "Unauthorized"}));
    }
    json!({"get": {
        "tags": [tag],
        "description": description,
        "operationId": operation_id,
        "responses": codes
    }})
}

#[cfg(test)]
#[path = "paths_tests.rs"]
mod tests;
