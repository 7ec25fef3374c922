//! DELETE of one object and of a collection (reference §11).
//!
//! Two-phase deletion: an object with finalizers (its own, or `orphan`/`foregroundDeletion`
//! added by the propagation policy) gets a `deletionTimestamp` and stays until a write
//! removes the last finalizer; one without is removed at once and answered with a Status.
//! A Namespace first turns `Terminating`; the namespace controller empties and finalizes it.

use serde_json::{json, Map, Value};

use super::validate_dry_run;
use crate::api::route::ResourceRequest;
use crate::api::{Reply, Request};
use crate::cache::planner::Read;
use crate::codec::decode;
use crate::registry::{DeleteOptions, Deleted, Registry, UNSAFE_DELETION_GATE};
use crate::resources::field::FieldError;
use crate::resources::meta::{
    group_version_string, gvk_with_defaults, meta_str, strings, strip_type_meta,
};
use crate::resources::rbac::Attributes;
use crate::resources::status::{ApiError, ApiResult, GroupKind};
use crate::resources::{schema, ResourceInfo};

/// DeleteOptions as the handler reads them: the registry's options plus
/// `ignoreStoreReadErrorWithClusterBreakingPotential` (cleared unless the
/// `AllowUnsafeMalformedObjectDeletion` gate is on).
struct Options {
    registry: DeleteOptions,
    ignore_read_errors: bool,
}

const IGNORE: &str = "ignoreStoreReadErrorWithClusterBreakingPotential";

/// DeleteOptions from the query, as the parameter codec fills them when there is no body
/// (`autoConvert_url_Values_To_v1_DeleteOptions`): a parameter present, even empty, is set;
/// booleans are read leniently, `propagationPolicy=` is the empty policy.
fn options_from_query(q: &crate::api::query::Query) -> ApiResult<Map<String, Value>> {
    let mut out = Map::new();
    let dry: Vec<Value> = q.all("dryRun").iter().map(|s| Value::from(*s)).collect();
    if !dry.is_empty() {
        out.insert("dryRun".into(), Value::Array(dry));
    }
    if let Some(p) = q.get("propagationPolicy") {
        out.insert("propagationPolicy".into(), Value::from(p));
    }
    for flag in ["orphanDependents", IGNORE] {
        if let Some(b) = q.flag(flag) {
            out.insert(flag.into(), Value::Bool(b));
        }
    }
    if let Some(n) = q
        .int64("gracePeriodSeconds")
        .map_err(ApiError::bad_request)?
    {
        out.insert("gracePeriodSeconds".into(), Value::from(n));
    }
    Ok(out)
}

/// Why a DeleteOptions body naming another kind fails in the meta scheme: a kind it knows is
/// decoded and cannot be converted (every meta type is Go package `v1`: the v1beta1 ones are
/// aliases); any other is not registered.
fn other_meta_kind(api_version: &str, kind: &str) -> String {
    let scheme = &crate::resources::legacy_scheme::META_INTERNAL;
    // The handler's decoder defaults what the body leaves out from meta.k8s.io/v1.
    let (group, version, kind) =
        gvk_with_defaults(api_version, kind, ("meta.k8s.io", "v1", "DeleteOptions"));
    let gv = group_version_string(group, version);
    match scheme.is_registered(&gv, kind) {
        true => format!("converting (v1.{kind}) to (v1.DeleteOptions): unknown conversion"),
        false => scheme.not_registered(kind, &gv),
    }
}

/// DeleteOptions from a body, read by its Content-Type (415 for an unknown one, YAML
/// converted to JSON) with the meta scheme's decoder: apiVersion and kind first
/// (DeleteOptions is unversioned there, so any apiVersion names it), then the struct.
fn options_from_body(req: &Request<'_>) -> ApiResult<Map<String, Value>> {
    let encoding =
        crate::api::negotiation::input_encoding(req.header("content-type"), &req.served)?;
    let converted = crate::api::encode::body_to_json(req.body, encoding, &*req.kinds, None)
        .map_err(ApiError::bad_request)?;
    let parsed = crate::codec::json::parse(&converted.json)
        .map_err(|e| ApiError::bad_request(format!("{}{}", decode::TYPE_META_ERROR, e.message)))?;
    let type_meta = super::type_meta_of(&parsed.value, encoding).map_err(ApiError::bad_request)?;
    if !type_meta.kind.is_empty() && type_meta.kind != "DeleteOptions" {
        return Err(ApiError::bad_request(other_meta_kind(
            &type_meta.api_version,
            &type_meta.kind,
        )));
    }
    let raw = match parsed.value {
        Value::Object(raw) => raw,
        // `null` leaves the options as they are.
        _ => Map::new(),
    };
    Ok(
        decode::decode_struct(&Value::Object(raw), &schema::DELETE_OPTIONS)
            .map_err(|e| ApiError::bad_request(e.message))?
            .object,
    )
}

/// Reads DeleteOptions from the body (any apiVersion) or, without a body, the query; then
/// validates them as `ValidateDeleteOptions` does (422 `DeleteOptions.meta.k8s.io "" is
/// invalid`).
fn delete_options(req: &Request<'_>, unsafe_deletion: bool) -> ApiResult<Options> {
    // Any body at all is decoded (`len(body) > 0`); only an empty one defers to the query.
    let body = match req.body.is_empty() {
        true => options_from_query(&req.query)?,
        false => {
            super::body_within_limit(req)?;
            options_from_body(req)?
        }
    };
    let mut errs = Vec::new();
    let dry_values = strings(body.get("dryRun"));
    let refs: Vec<&str> = dry_values.iter().map(String::as_str).collect();
    let dry_run = validate_dry_run(&refs, &mut errs);
    let propagation = body
        .get("propagationPolicy")
        .and_then(Value::as_str)
        .map(str::to_string);
    let orphan_dependents = body.get("orphanDependents").and_then(Value::as_bool);
    if let Some(p) = &propagation {
        if orphan_dependents.is_some() {
            errs.push(FieldError::invalid(
                "propagationPolicy",
                Value::String(p.clone()),
                "orphanDependents and deletionPropagation cannot be both set",
            ));
        }
        if !matches!(p.as_str(), "Foreground" | "Background" | "Orphan") {
            errs.push(FieldError::not_supported(
                "propagationPolicy",
                Value::String(p.clone()),
                &["Foreground", "Background", "Orphan", "nil"],
            ));
        }
    }
    let grace_period = body.get("gracePeriodSeconds").and_then(Value::as_i64);
    let ignore_read_errors =
        unsafe_deletion && body.get(IGNORE).and_then(Value::as_bool) == Some(true);
    if ignore_read_errors {
        let set = [
            ("dryRun", !dry_values.is_empty()),
            ("propagationPolicy", propagation.is_some()),
            ("orphanDependents", orphan_dependents.is_some()),
            ("gracePeriodSeconds", grace_period.is_some()),
            (
                "preconditions",
                body.get("preconditions").is_some_and(|p| !p.is_null()),
            ),
        ];
        for (field, present) in set {
            if present {
                errs.push(FieldError::invalid(
                    IGNORE,
                    Value::Bool(true),
                    &format!("cannot be set together with .{field}"),
                ));
            }
        }
    }
    if !errs.is_empty() {
        return Err(ApiError::invalid_options("DeleteOptions", &errs));
    }
    let pre = body.get("preconditions").and_then(Value::as_object);
    let pre_str = |k: &str| {
        pre.and_then(|p| p.get(k))
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    Ok(Options {
        registry: DeleteOptions {
            dry_run,
            propagation,
            orphan_dependents,
            precondition_uid: pre_str("uid"),
            precondition_rv: pre_str("resourceVersion"),
            grace_period,
        },
        ignore_read_errors,
    })
}

/// `authorizeUnsafeDelete`, then the corrupt-object deleter: the option is only for an
/// object the store cannot read, which it removes unread.
fn unsafe_delete(reg: &mut Registry, req: &Request<'_>, rr: &ResourceRequest) -> ApiResult<Reply> {
    const VERB: &str = "unsafe-delete-ignore-read-errors";
    let info = rr.resource;
    let name = rr.name.as_deref().unwrap_or("");
    let attrs = Attributes::resource(
        VERB,
        info.group,
        info.plural,
        rr.namespace.as_deref().unwrap_or(""),
        name,
    );
    // The filters before routing authenticated the request.
    let user = req.user.clone().unwrap_or_default();
    let decision = reg.authorize(&user, &attrs);
    if !decision.allowed {
        return Err(ApiError::forbidden(
            info.group_resource(),
            name,
            &format!("not permitted to do {VERB:?}, reason: {}", decision.reason),
        ));
    }
    let key = info.key(rr.namespace.as_deref().unwrap_or(""), name);
    if reg.is_corrupt(&key) {
        reg.unsafe_delete(&key);
        // The handler's own Status (the deleter returns no object): it names the Kind.
        let status = json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success",
            "details": {"name": name, "kind": info.kind}, "code": 200});
        return Ok(Reply::new(200, status));
    }
    let kind = GroupKind {
        group: info.group,
        kind: info.plural,
    };
    Err(ApiError::invalid(
        kind,
        name,
        &[FieldError::invalid(
            IGNORE,
            Value::Bool(true),
            "is exclusively used to delete corrupt object(s), try again by removing this option",
        )],
    ))
}

/// DELETE of one object.
pub fn delete(reg: &mut Registry, req: &Request<'_>, rr: &ResourceRequest) -> ApiResult<Reply> {
    let info = rr.resource;
    let gate = reg.feature_gates().enabled(UNSAFE_DELETION_GATE);
    let options = delete_options(req, gate)?;
    if options.ignore_read_errors {
        return unsafe_delete(reg, req, rr);
    }
    let opts = options.registry;
    let name = rr.name.as_deref().unwrap_or("");
    let key = info.key(rr.namespace.as_deref().unwrap_or(""), name);
    let deleted = reg.delete(info, &key, name, &opts)?;
    Ok(match deleted {
        Deleted::Terminating(obj) => Reply::new(status_code(&opts), obj),
        Deleted::Gone(last) => Reply::new(200, success_status(info, name, &last)),
    })
}

/// The Status a delete that removed the object answers with.
fn success_status(info: &ResourceInfo, name: &str, last: &Value) -> Value {
    let mut details = Map::new();
    details.insert("name".into(), json!(name));
    if !info.group.is_empty() {
        details.insert("group".into(), json!(info.group));
    }
    details.insert("kind".into(), json!(info.plural));
    details.insert("uid".into(), json!(meta_str(last, "uid")));
    json!({
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Success",
        "details": Value::Object(details),
    })
}

/// DELETE on a collection: deletes every matching object, answering with the list of what
/// was deleted (in its final state).
pub fn delete_collection(
    reg: &mut Registry,
    req: &Request<'_>,
    rr: &ResourceRequest,
) -> ApiResult<Reply> {
    let info = rr.resource;
    let gate = reg.feature_gates().enabled(UNSAFE_DELETION_GATE);
    let options = delete_options(req, gate)?;
    if options.ignore_read_errors {
        return Err(ApiError::invalid_options(
            "DeleteOptions",
            &[FieldError::invalid(
                IGNORE,
                Value::Bool(true),
                "is not allowed with DELETECOLLECTION, try again after removing the option",
            )],
        ));
    }
    let opts = options.registry;
    let list = super::list::list_options(reg, req, info)?;
    // Its list is the generic store's `List`, through the cacher: it waits for the cache as
    // a list does (nothing is written before the wait ends).
    if let Some(wait) = reg.cache_wait(list.semantic, Read::List) {
        return Ok(Reply::waiting(wait));
    }
    let (deleted, rv) = reg.delete_collection(info, rr.namespace.as_deref(), &list, &opts)?;
    if info.custom.is_some() {
        // The list's own UnstructuredList, its items the deleted objects, whole.
        let mut list_meta = Map::new();
        list_meta.insert("resourceVersion".into(), json!(rv.to_string()));
        let items: Vec<_> = deleted.into_iter().map(crate::codec::Object::new).collect();
        return Ok(super::list::list_reply(info, list_meta, items));
    }
    let items = deleted.iter().map(strip_type_meta).collect();
    let list_meta = json!({"resourceVersion": rv.to_string()});
    Ok(Reply::new(
        200,
        super::list::list_body(info, list_meta, items),
    ))
}

/// 200, or 202 only when the deprecated `orphanDependents: false` was sent explicitly.
fn status_code(opts: &DeleteOptions) -> u16 {
    if opts.orphan_dependents == Some(false) {
        202
    } else {
        200
    }
}
