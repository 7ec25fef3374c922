//! kubesim's own non-resource endpoints under `/kubesim/v1/`: drive time and the store so
//! tests in any language (and the playground) can make expiry, compaction and cache lag
//! happen on demand.
//!
//! | method | path | effect |
//! |---|---|---|
//! | GET | `/kubesim/v1/clock` | the clock |
//! | POST | `/kubesim/v1/clock/advance?ms=N` | moves time forward N ms (also `seconds=`) |
//! | POST | `/kubesim/v1/compact` | compacts the store to its current revision |
//! | GET, PUT | `/kubesim/v1/cache/lag?ms=N` | reads or sets the watch cache's lag |
//! | GET | `/kubesim/v1/state` | revisions: store, compacted, cache, oldest watchable |
//! | POST | `/kubesim/v1/corrupt?path=P&as=undecryptable` | makes the object at path P unreadable in storage (`as`: `undecryptable`, default, or `undecodable`) |

use bytes::Bytes;
use http::Response;
use serde_json::{json, Value};

use super::{Body, Engine};
use crate::api::query::Query;
use crate::api::response;
use crate::codec::rfc3339;
use crate::resources::status::{ApiError, ApiResult};

fn clock_json(engine: &Engine) -> Value {
    let c = engine.clock();
    json!({
        "nowMs": c.now_ms(),
        "now": rfc3339::format(c.now_secs()),
        "mode": if c.is_simulated() { "manual" } else { "wall" },
    })
}

fn state_json(engine: &Engine) -> Value {
    json!({
        "revision": engine.store().revision(),
        "compactedRevision": engine.store().compacted_revision(),
        "cacheRevision": engine.cache().revision(),
        "cacheOldestRevision": engine.cache().oldest_revision(),
        "cacheLagMs": engine.cache().config().lag_ms,
        "watches": engine.watch_count(),
        "clock": clock_json(engine),
    })
}

fn ms_param(query: &Query, body: &[u8]) -> ApiResult<i64> {
    if let Some(ms) = query.get("ms") {
        return ms
            .parse::<i64>()
            .map_err(|_| ApiError::bad_request(format!("invalid ms: {ms:?}")));
    }
    if let Some(s) = query.get("seconds") {
        return s
            .parse::<f64>()
            .map(|s| (s * 1000.0) as i64)
            .map_err(|_| ApiError::bad_request(format!("invalid seconds: {s:?}")));
    }
    if let Ok(v) = serde_json::from_slice::<Value>(body) {
        if let Some(ms) = v.get("ms").and_then(Value::as_i64) {
            return Ok(ms);
        }
    }
    Err(ApiError::bad_request("ms is required"))
}

/// The `<rest>` of a `/kubesim/v1/<rest>` path, segments split as the router splits them
/// (empty segments dropped), or `None` for any other path.
pub(super) fn path(path: &str) -> Option<String> {
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    match segments.as_slice() {
        ["kubesim", "v1", rest @ ..] => Some(rest.join("/")),
        _ => None,
    }
}

/// Serves `/kubesim/v1/<rest>` as JSON (errors as Status objects).
pub fn serve(engine: &mut Engine, req: &http::Request<Bytes>, rest: &str) -> Response<Body> {
    let query = Query::parse(req.uri().query().unwrap_or(""));
    let pretty = response::pretty_for(&query, req.headers());
    match control(engine, req.method().as_str(), &query, req.body(), rest) {
        Ok(body) => response::json(200, &body, pretty),
        Err(e) => response::error(&e, pretty),
    }
}

fn control(
    engine: &mut Engine,
    method: &str,
    query: &Query,
    body: &[u8],
    rest: &str,
) -> ApiResult<Value> {
    let body = match (method, rest) {
        ("GET", "clock") => clock_json(engine),
        ("POST", "clock/advance") => {
            let ms = ms_param(query, body)?;
            if ms < 0 {
                return Err(ApiError::bad_request("time only moves forward"));
            }
            engine.advance(ms);
            clock_json(engine)
        }
        ("POST", "compact") => {
            let rev = engine.compact();
            json!({ "compactedRevision": rev })
        }
        ("GET", "cache/lag") => json!({ "lagMs": engine.cache().config().lag_ms }),
        ("PUT" | "POST", "cache/lag") => {
            let ms = ms_param(query, body)?;
            engine.set_cache_lag(ms);
            json!({ "lagMs": engine.cache().config().lag_ms })
        }
        ("GET", "state") => state_json(engine),
        ("POST", "corrupt") => {
            let path = query
                .get("path")
                .ok_or_else(|| ApiError::bad_request("path is required"))?;
            let how = query.get("as").unwrap_or("undecryptable");
            let key = engine.corrupt(path, how).map_err(ApiError::bad_request)?;
            json!({ "corrupted": key, "as": how })
        }
        (_, "clock" | "clock/advance" | "compact" | "cache/lag" | "state" | "corrupt") => {
            return Err(ApiError::method_not_allowed_route())
        }
        _ => return Err(ApiError::not_found_path()),
    };
    Ok(body)
}

#[cfg(test)]
mod tests {
    #[test]
    fn control_paths_are_split_as_the_router_splits_paths() {
        assert_eq!(super::path("/kubesim/v1/clock").as_deref(), Some("clock"));
        assert_eq!(
            super::path("/kubesim/v1//clock/advance/").as_deref(),
            Some("clock/advance")
        );
        assert_eq!(super::path("/kubesim/v1").as_deref(), Some(""));
        assert_eq!(super::path("/api/v1"), None);
    }
}
