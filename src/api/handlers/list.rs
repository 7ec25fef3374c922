//! LIST: selectors, the resourceVersion / resourceVersionMatch table, and chunking with
//! continue tokens in Kubernetes's own format (reference §3-§4).

use base64::Engine as _;
use serde_json::{json, Map, Value};

use super::parse_rv;
use super::view::{Source, View};
use crate::api::route::ResourceRequest;
use crate::api::selectors::field::FieldSelector;
use crate::api::selectors::label::LabelSelector;
use crate::api::selectors::shard::ShardSelector;
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
pub enum Semantic {
    MostRecent,
    Any,
    NotOlderThan(u64),
    Exact(u64),
    Continuation,
}

impl Semantic {
    /// The spec's name for it.
    pub fn name(&self) -> &'static str {
        match self {
            Semantic::MostRecent => "MostRecent",
            Semantic::Any => "Any",
            Semantic::NotOlderThan(_) => "NotOlderThan",
            Semantic::Exact(_) => "Exact",
            Semantic::Continuation => "Continuation",
        }
    }
}

/// Parsed, validated list parameters.
struct ListParams {
    label: LabelSelector,
    field: FieldSelector,
    shard: Option<ShardSelector>,
    limit: Option<usize>,
    token: Option<ContinueToken>,
    semantic: Semantic,
}

/// Label, field and (with `ShardedListAndWatch`) shard selectors of a list or watch, with
/// the real server's errors: 400 for label/field syntax and unsupported field labels, a
/// reason-less 500 for a bad shard selector (reference, appendix B).
pub fn parse_selectors(
    engine: &Engine,
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
        Some(s) if engine.feature_gates().enabled("ShardedListAndWatch") => {
            Some(ShardSelector::parse(s).map_err(|e| ApiError::untyped(500, e))?)
        }
        _ => None,
    };
    Ok((label, field, shard))
}

fn parse_params(engine: &Engine, req: &Request<'_>, info: &ResourceInfo) -> ApiResult<ListParams> {
    let q = &req.query;
    // Decoding the parameters (400s), as `DecodeParameters` does.
    let (label, field, shard) = parse_selectors(engine, req, info)?;
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
        shard,
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
    let p = parse_params(engine, req, info)?;
    let prefix = match &rr.namespace {
        Some(ns) => format!("{}{}/", info.key_prefix(), ns),
        None => info.key_prefix(),
    };
    let token = p.token.clone();
    let chosen = choose_list_view(engine, &p.semantic, token.as_ref())?;
    let start = token.as_ref().map(|t| format!("{prefix}{}", t.start));
    let filtering = !p.label.is_empty() || !p.field.is_empty() || p.shard.is_some();
    let page = chosen
        .view
        .page(&prefix, start.as_deref(), p.limit, |obj| {
            p.label
                .matches(super::meta(obj).get("labels").and_then(Value::as_object))
                && p.field.matches(&|l| field_value(obj, l))
                && p.shard
                    .as_ref()
                    .is_none_or(|s| s.matches_value(&crate::cache::watchers::shard_value(s, obj)))
        })
        .map_err(|e| match e {
            StoreError::Compacted { .. } if token.is_some() => {
                expired_token(token.as_ref().expect("token"))
            }
            StoreError::Compacted { .. } => {
                ApiError::expired("The resourceVersion for the provided list is too old.")
            }
            StoreError::FutureRevision { requested, .. } => {
                engine.too_large_resource_version(requested)
            }
        })?;
    let mut list_meta = Map::new();
    list_meta.insert("resourceVersion".into(), json!(chosen.rv.to_string()));
    if let Some(last) = &page.last_key {
        let rel = last.strip_prefix(&prefix).unwrap_or(last);
        list_meta.insert(
            "continue".into(),
            json!(encode_continue(chosen.rv as i64, &format!("{rel}\u{0}"))),
        );
        if !filtering {
            if let Some(n) = page.remaining {
                list_meta.insert("remainingItemCount".into(), json!(n));
            }
        }
    }
    if let Some(s) = &p.shard {
        list_meta.insert("shardInfo".into(), json!({"selector": s.canonical()}));
    }
    // The list envelope only: the page's stored objects are encoded one by one from the
    // reply (`Reply::items`), never copied into a second list.
    let mut envelope = list_body(info, Value::Object(list_meta), Vec::new());
    if let Some(m) = envelope.as_object_mut() {
        m.shift_remove("items");
    }
    let mut reply = Reply::new(200, envelope);
    reply.items = Some(page.items);
    reply.headers.push((
        crate::api::response::READ_HEADER,
        chosen.explain(p.semantic.name()),
    ));
    Ok(reply)
}

/// The view a list reads, at which revision, from where, and how long it "waited".
pub struct Chosen<'a> {
    pub view: View<'a>,
    pub rv: u64,
    pub source: Source,
    pub waited_ms: i64,
}

impl Chosen<'_> {
    /// The `X-Kubesim-Read` value.
    pub fn explain(&self, semantic: &str) -> String {
        let mut s = format!(
            "semantic={semantic}; source={}; rv={}",
            self.source.as_str(),
            self.rv
        );
        if self.waited_ms > 0 {
            s.push_str(&format!("; waited-ms={}", self.waited_ms));
        }
        s
    }
}

fn choose_list_view<'a>(
    engine: &'a Engine,
    semantic: &Semantic,
    token: Option<&ContinueToken>,
) -> ApiResult<Chosen<'a>> {
    let store = engine.store();
    let cache = engine.cache();
    let current = store.revision();
    let at = |rev: u64| -> ApiResult<Chosen<'a>> {
        if rev > current {
            return Err(engine.too_large_resource_version_from_store(rev));
        }
        match cache.snapshot_at(rev) {
            Some(snap) => Ok(Chosen {
                view: View::Index(snap.clone()),
                rv: rev,
                source: Source::CacheSnapshot,
                waited_ms: 0,
            }),
            None => Ok(Chosen {
                view: View::Store(store, rev),
                rv: rev,
                source: Source::Store,
                waited_ms: 0,
            }),
        }
    };
    match semantic {
        Semantic::MostRecent => Ok(consistent(engine)),
        Semantic::Any => Ok(Chosen {
            view: View::Index(cache.state().clone()),
            rv: cache.revision(),
            source: Source::WatchCache,
            waited_ms: 0,
        }),
        Semantic::NotOlderThan(n) => not_older_than(engine, *n),
        Semantic::Exact(n) => at(*n),
        Semantic::Continuation => {
            let t = token.expect("continuation has a token");
            if t.rv < 0 {
                Ok(consistent(engine))
            } else {
                at(t.rv as u64)
            }
        }
    }
}

/// A consistent read: from the cache when it has caught up with the store, else the store.
pub fn consistent(engine: &Engine) -> Chosen<'_> {
    let current = engine.store().revision();
    if engine.cache().revision() == current {
        Chosen {
            view: View::Index(engine.cache().state().clone()),
            rv: current,
            source: Source::WatchCache,
            waited_ms: 0,
        }
    } else {
        Chosen {
            view: View::Store(engine.store(), current),
            rv: current,
            source: Source::Store,
            waited_ms: 0,
        }
    }
}

/// How long the cache waits for a requested revision before giving up (apiserver: 3 s).
pub const CACHE_WAIT_MS: i64 = 3_000;

/// Not-older-than `n` from the watch cache: its state if it has reached `n`; otherwise the
/// state it will have once it has, if that happens within the cache's 3 s wait; otherwise
/// 504 "Too large resource version".
pub fn not_older_than(engine: &Engine, n: u64) -> ApiResult<Chosen<'_>> {
    let cache = engine.cache();
    if cache.revision() >= n {
        return Ok(Chosen {
            view: View::Index(cache.state().clone()),
            rv: cache.revision(),
            source: Source::WatchCache,
            waited_ms: 0,
        });
    }
    let store = engine.store();
    if n <= store.revision() {
        if let Ok(events) = store.events_after(n - 1) {
            if let Some(ev) = events.first() {
                let due = ev.time_ms + cache.config().lag_ms;
                let wait = due - engine.clock().now_ms();
                if wait <= CACHE_WAIT_MS {
                    let rv = store.revision_at_time(ev.time_ms).unwrap_or(n).max(n);
                    return Ok(Chosen {
                        view: View::Store(store, rv),
                        rv,
                        source: Source::WatchCache,
                        waited_ms: wait.max(0),
                    });
                }
            }
        }
    }
    Err(engine.too_large_resource_version(n))
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
