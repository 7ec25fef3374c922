//! LIST: the list options (selectors, the resourceVersion / resourceVersionMatch table,
//! `limit` and `continue`) with the real server's 400 and 422 texts, then one page from the
//! registry (reference §3-§4).

use serde_json::{json, Map, Value};

use crate::api::route::ResourceRequest;
use crate::api::{Reply, Request};
use crate::cache::planner::{Read, Semantic};
use crate::registry::continue_token::decode_continue;
use crate::registry::{ListOptions, Registry};
use crate::resources::field::FieldError;
use crate::resources::meta::{invalid_rv_text, parse_rv};
use crate::resources::status::{ApiError, ApiResult};
use crate::resources::ResourceInfo;
use crate::selectors::field::FieldSelector;
use crate::selectors::label::LabelSelector;
use crate::selectors::shard::ShardSelector;

/// Label, field and (with `ShardedListAndWatch`) shard selectors of a list or watch, with
/// the real server's errors: 400 for label/field syntax and unsupported field labels, a
/// reason-less 500 for a bad shard selector (reference, appendix B).
pub fn parse_selectors(
    reg: &Registry,
    req: &Request<'_>,
    info: &ResourceInfo,
) -> ApiResult<(LabelSelector, FieldSelector, Option<ShardSelector>)> {
    let q = &req.query;
    let label = LabelSelector::parse(q.get("labelSelector").unwrap_or(""))
        .map_err(ApiError::bad_request)?;
    let field = FieldSelector::parse(q.get("fieldSelector").unwrap_or(""))
        .map_err(ApiError::bad_request)?;
    field
        .validate_fields(&info.field_labels())
        .map_err(ApiError::bad_request)?;
    let shard = match q.get("shardSelector") {
        Some(s) if reg.feature_gates().enabled("ShardedListAndWatch") => {
            Some(ShardSelector::parse(s).map_err(|e| ApiError::untyped(500, e))?)
        }
        _ => None,
    };
    Ok((label, field, shard))
}

pub(super) fn list_options(
    reg: &Registry,
    req: &Request<'_>,
    info: &ResourceInfo,
) -> ApiResult<ListOptions> {
    let q = &req.query;
    // Decoding the parameters (400s), as `DecodeParameters` does.
    let (label, field, shard) = parse_selectors(reg, req, info)?;
    let limit = q
        .int64("limit")
        .map_err(ApiError::bad_request)?
        .filter(|n| *n > 0)
        .map(|n| n as usize);
    q.int64("timeoutSeconds").map_err(ApiError::bad_request)?;
    let rv = q.string("resourceVersion").unwrap_or("");
    let rvm = q.string("resourceVersionMatch").unwrap_or("");
    let cont = q.string("continue").unwrap_or("");
    // `ValidateListOptions` (422).
    let mut errs = Vec::new();
    if !rvm.is_empty() {
        if rv.is_empty() {
            errs.push(FieldError::forbidden(
                "resourceVersionMatch",
                "resourceVersionMatch is forbidden unless resourceVersion is provided",
            ));
        }
        if !cont.is_empty() {
            errs.push(FieldError::forbidden(
                "resourceVersionMatch",
                "resourceVersionMatch is forbidden when continue is provided",
            ));
        }
        if rvm != "Exact" && rvm != "NotOlderThan" {
            errs.push(FieldError::not_supported(
                "resourceVersionMatch",
                Value::String(rvm.to_string()),
                &["Exact", "NotOlderThan", ""],
            ));
        }
        if rvm == "Exact" && rv == "0" {
            errs.push(FieldError::forbidden(
                "resourceVersionMatch",
                "resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\"",
            ));
        }
    }
    if q.has("sendInitialEvents") {
        errs.push(FieldError::forbidden(
            "sendInitialEvents",
            "sendInitialEvents is forbidden for list",
        ));
    }
    if !errs.is_empty() {
        return Err(ApiError::invalid_options("ListOptions", &errs));
    }
    // Storage-level checks.
    let token = if cont.is_empty() {
        None
    } else {
        if !rv.is_empty() && rv != "0" {
            return Err(ApiError::bad_request(
                "specifying resource version is not allowed when using continue",
            ));
        }
        Some(decode_continue(cont).map_err(ApiError::bad_request)?)
    };
    let parsed_rv = if rv.is_empty() || rv == "0" {
        0
    } else {
        parse_rv(rv).ok_or_else(|| {
            ApiError::bad_request(format!("invalid resource version: {}", invalid_rv_text(rv)))
        })?
    };
    let semantic = Semantic::for_list(
        rv,
        parsed_rv,
        rvm,
        token.as_ref().map(|t| t.rv),
        limit.is_some(),
    );
    Ok(ListOptions {
        label,
        field,
        shard,
        limit,
        token,
        semantic,
    })
}

/// LIST on a collection.
pub fn list(reg: &mut Registry, req: &Request<'_>, rr: &ResourceRequest) -> ApiResult<Reply> {
    let info = rr.resource;
    let opts = list_options(reg, req, info)?;
    if let Some(wait) = reg.cache_wait(opts.semantic, Read::List) {
        return Ok(Reply::waiting(wait));
    }
    let page = reg.list(info, rr.namespace.as_deref(), &opts)?;
    let mut list_meta = Map::new();
    list_meta.insert("resourceVersion".into(), json!(page.rv.to_string()));
    if let Some(token) = &page.continue_token {
        list_meta.insert("continue".into(), json!(token));
        if let Some(n) = page.remaining {
            list_meta.insert("remainingItemCount".into(), json!(n));
        }
    }
    if let Some(s) = &opts.shard {
        list_meta.insert("shardInfo".into(), json!({"selector": s.canonical()}));
    }
    let mut reply = list_reply(info, list_meta, page.items);
    reply
        .headers
        .push((crate::api::response::READ_HEADER, page.explain));
    Ok(reply)
}

/// A list's reply: the envelope only, its stored objects encoded one by one from the reply
/// (`Reply::items`), never copied into a second list. A custom kind's is an
/// `UnstructuredList`, whose `metadata.continue` storage always sets (`UpdateList` calls
/// `SetContinue`, which writes `""` as well).
pub fn list_reply(
    info: &ResourceInfo,
    mut list_meta: Map<String, Value>,
    items: impl Into<crate::cache::Items>,
) -> Reply {
    if info.custom.is_some() {
        list_meta.entry("continue").or_insert_with(|| json!(""));
    }
    let mut envelope = list_body(info, Value::Object(list_meta), Vec::new());
    if let Some(m) = envelope.as_object_mut() {
        m.shift_remove("items");
    }
    let mut reply = Reply::new(200, envelope);
    reply.items = Some(items.into());
    reply.unstructured = info.custom.is_some();
    reply
}

/// A typed list object (`ControllerRevisionList`).
pub fn list_body(info: &ResourceInfo, meta: Value, items: Vec<Value>) -> Value {
    let mut m = Map::new();
    m.insert("kind".into(), json!(info.list_kind()));
    m.insert("apiVersion".into(), json!(info.api_version()));
    m.insert("metadata".into(), meta);
    m.insert("items".into(), Value::Array(items));
    Value::Object(m)
}
