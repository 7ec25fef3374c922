//! LIST: selectors, the resourceVersion / resourceVersionMatch table, and chunking with
//! continue tokens in Kubernetes's own format (reference §3-§4).

use base64::Engine as _;
use serde_json::{json, Map, Value};

use super::{parse_rv, strip_type_meta};
use crate::api::route::ResourceRequest;
use crate::api::selectors::field::FieldSelector;
use crate::api::selectors::label::LabelSelector;
use crate::api::status::{ApiError, ApiResult};
use crate::api::{Reply, Request};
use crate::engine::Engine;
use crate::resources::field::FieldError;
use crate::resources::ResourceInfo;
use crate::store::StoreError;

/// A decoded continue token: the snapshot revision (`-1` = latest) and the start key
/// relative to the list's key prefix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContinueToken {
    pub rv: i64,
    pub start: String,
}

/// Encodes a token as apiserver does: unpadded base64url of
/// `{"v":"meta.k8s.io/v1","rv":N,"start":"<key>"}`.
pub fn encode_continue(rv: i64, start: &str) -> String {
    let doc = json!({"v": "meta.k8s.io/v1", "rv": rv, "start": start});
    base64::engine::general_purpose::URL_SAFE_NO_PAD
        .encode(crate::codec::json::to_compact_string(&doc))
}

/// Decodes and validates a token, with apiserver's `invalid continue token: ...` texts.
pub fn decode_continue(token: &str) -> Result<ContinueToken, String> {
    let fail = |m: String| format!("invalid continue token: continue key is not valid: {m}");
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(token.trim_end_matches('='))
        .map_err(|e| {
            fail(format!(
                "illegal base64 data at input byte {}",
                base64_offset(&e)
            ))
        })?;
    let v: Value = serde_json::from_slice(&bytes).map_err(|e| fail(e.to_string()))?;
    let version = v.get("v").and_then(Value::as_str).unwrap_or("");
    if version != "meta.k8s.io/v1" {
        return Err(fail(format!(
            "server does not recognize this encoded version {version:?}"
        )));
    }
    let rv = v.get("rv").and_then(Value::as_i64).unwrap_or(0);
    if rv == 0 {
        return Err(fail(
            "incorrect encoded start resourceVersion (version meta.k8s.io/v1)".into(),
        ));
    }
    let start = v.get("start").and_then(Value::as_str).unwrap_or("");
    if start.is_empty() {
        return Err(fail(
            "encoded start key empty (version meta.k8s.io/v1)".into(),
        ));
    }
    if !is_clean_path(start) {
        return Err(fail(start.to_string()));
    }
    Ok(ContinueToken {
        rv,
        start: start.to_string(),
    })
}

fn base64_offset(e: &base64::DecodeError) -> usize {
    match e {
        base64::DecodeError::InvalidByte(i, _) => *i,
        base64::DecodeError::InvalidLastSymbol(i, _) => *i,
        _ => 0,
    }
}

/// `path.Clean("/" + start)` must not change the key (no `..`, `//`, trailing `/`).
fn is_clean_path(start: &str) -> bool {
    let key = start.trim_end_matches('\0');
    !(key.split('/').any(|s| s == "." || s == "..")
        || key.contains("//")
        || key.ends_with('/')
        || key.starts_with('/'))
}

/// How a list is to be read, from the spec's resourceVersion table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Semantic {
    MostRecent,
    Any,
    NotOlderThan(u64),
    Exact(u64),
    Continuation,
}

/// Parsed, validated list parameters.
struct ListParams {
    label: LabelSelector,
    field: FieldSelector,
    limit: Option<usize>,
    token: Option<ContinueToken>,
    semantic: Semantic,
}

fn parse_params(req: &Request<'_>, info: &ResourceInfo) -> ApiResult<ListParams> {
    let q = &req.query;
    // Decoding the parameters (400s), as `DecodeParameters` does.
    let label = LabelSelector::parse(q.get("labelSelector").unwrap_or(""))
        .map_err(ApiError::bad_request)?;
    let field = FieldSelector::parse(q.get("fieldSelector").unwrap_or(""))
        .map_err(ApiError::bad_request)?;
    let limit = match q.string("limit") {
        None => None,
        Some(l) => {
            let n: i64 = l.parse().map_err(|_| {
                ApiError::bad_request(format!("strconv.ParseInt: parsing {l:?}: invalid syntax"))
            })?;
            (n > 0).then_some(n as usize)
        }
    };
    if let Some(t) = q.string("timeoutSeconds") {
        t.parse::<i64>().map_err(|_| {
            ApiError::bad_request(format!("strconv.ParseInt: parsing {t:?}: invalid syntax"))
        })?;
    }
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
    field
        .validate_fields(&info.field_labels())
        .map_err(ApiError::bad_request)?;
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
            ApiError::bad_request(format!(
                "invalid resource version: {}",
                super::invalid_rv_text(rv)
            ))
        })?
    };
    let semantic = if token.is_some() {
        Semantic::Continuation
    } else {
        match (rvm, rv) {
            (_, "") => Semantic::MostRecent,
            ("Exact", _) => Semantic::Exact(parsed_rv),
            (_, "0") => Semantic::Any,
            ("NotOlderThan", _) => Semantic::NotOlderThan(parsed_rv),
            (_, _) if limit.is_some() => Semantic::Exact(parsed_rv),
            _ => Semantic::NotOlderThan(parsed_rv),
        }
    };
    Ok(ListParams {
        label,
        field,
        // rv=0 lists are served whole from the cache: the limit is ignored.
        limit: if semantic == Semantic::Any {
            None
        } else {
            limit
        },
        token,
        semantic,
    })
}

/// The value of a field label on an object (for field selectors).
pub fn field_value(obj: &Value, label: &str) -> Option<String> {
    let meta = super::meta(obj);
    let s = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or("").to_string();
    match label {
        "metadata.name" | "name" => Some(s(meta.get("name"))),
        "metadata.namespace" => Some(s(meta.get("namespace"))),
        "status.phase" => Some(s(obj.get("status").and_then(|st| st.get("phase")))),
        _ => None,
    }
}

/// LIST on a collection.
pub fn list(engine: &mut Engine, req: &Request<'_>, rr: &ResourceRequest) -> ApiResult<Reply> {
    let info = rr.resource;
    let p = parse_params(req, info)?;
    let prefix = match &rr.namespace {
        Some(ns) => format!("{}{}/", info.key_prefix(), ns),
        None => info.key_prefix(),
    };
    let current = engine.store().revision();
    let (read_rv, list_rv) = match p.semantic {
        Semantic::MostRecent | Semantic::Any => (current, current),
        Semantic::NotOlderThan(n) => {
            if n > current {
                return Err(engine.too_large_resource_version(n));
            }
            (current, current)
        }
        Semantic::Exact(n) => {
            if n > current {
                return Err(engine.too_large_resource_version(n));
            }
            (n, n)
        }
        Semantic::Continuation => {
            let t = p.token.as_ref().expect("continuation has a token");
            if t.rv < 0 {
                (current, current)
            } else {
                (t.rv as u64, t.rv as u64)
            }
        }
    };
    let start = p.token.as_ref().map(|t| format!("{prefix}{}", t.start));
    let filtering = !p.label.is_empty() || !p.field.is_empty();
    let page = engine
        .store()
        .range(&prefix, start.as_deref(), read_rv, p.limit, |obj| {
            p.label
                .matches(super::meta(obj).get("labels").and_then(Value::as_object))
                && p.field.matches(&|l| field_value(obj, l))
        })
        .map_err(|e| match e {
            StoreError::Compacted { .. } if p.token.is_some() => {
                expired_token(p.token.as_ref().expect("token"))
            }
            StoreError::Compacted { .. } => {
                ApiError::expired("The resourceVersion for the provided list is too old.")
            }
            StoreError::FutureRevision { requested, .. } => {
                engine.too_large_resource_version(requested)
            }
        })?;
    let mut list_meta = Map::new();
    list_meta.insert("resourceVersion".into(), json!(list_rv.to_string()));
    if let Some(last) = &page.last_key {
        let rel = last.strip_prefix(&prefix).unwrap_or(last);
        let token_rv = match p.token.as_ref() {
            Some(t) if t.rv < 0 => -1,
            _ => read_rv as i64,
        };
        let token_rv = if token_rv < 0 {
            current as i64
        } else {
            token_rv
        };
        list_meta.insert(
            "continue".into(),
            json!(encode_continue(token_rv, &format!("{rel}\u{0}"))),
        );
        if !filtering {
            let remaining = engine.store().count_after(&prefix, last, read_rv);
            list_meta.insert("remainingItemCount".into(), json!(remaining));
        }
    }
    let items: Vec<Value> = page.items.iter().map(|o| strip_type_meta(o)).collect();
    Ok(Reply::new(
        200,
        list_body(info, Value::Object(list_meta), items),
    ))
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

/// The 410 for a continue token whose snapshot was compacted, carrying an inconsistent
/// continuation token (`rv: -1`, same start).
fn expired_token(t: &ContinueToken) -> ApiError {
    let mut e = ApiError::expired("The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.");
    e.continue_token = Some(encode_continue(-1, &t.start));
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_format_matches_reference_example() {
        let t = encode_continue(12345, "cr-b\u{0}");
        assert_eq!(
            t,
            "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTIzNDUsInN0YXJ0IjoiY3ItYlx1MDAwMCJ9"
        );
        assert_eq!(
            decode_continue(&t).unwrap(),
            ContinueToken {
                rv: 12345,
                start: "cr-b\u{0}".into()
            }
        );
    }

    #[test]
    fn malformed_tokens() {
        let enc = |s: &str| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(s);
        let cases = [
            (
                enc(r#"{"v":"x","rv":1,"start":"a"}"#),
                "server does not recognize this encoded version \"x\"",
            ),
            (
                enc(r#"{"v":"meta.k8s.io/v1","rv":0,"start":"a"}"#),
                "incorrect encoded start resourceVersion (version meta.k8s.io/v1)",
            ),
            (
                enc(r#"{"v":"meta.k8s.io/v1","rv":3,"start":""}"#),
                "encoded start key empty (version meta.k8s.io/v1)",
            ),
            (
                enc(r#"{"v":"meta.k8s.io/v1","rv":3,"start":"../x"}"#),
                "../x",
            ),
        ];
        for (tok, want) in cases {
            let err = decode_continue(&tok).unwrap_err();
            assert_eq!(
                err,
                format!("invalid continue token: continue key is not valid: {want}")
            );
        }
        assert!(decode_continue("!!!")
            .unwrap_err()
            .starts_with("invalid continue token: continue key is not valid: illegal base64 data"));
    }
}
