//! kubectl's OpenAPI v3 client: the `/openapi/v3` index once per command, then each group
//! version's document by the hashed URL the index gives, each fetched once per command and
//! kept for the command (validation before create, apply and replace; `explain`).

use serde_json::Value;

use super::client::Call;
use super::mapper::Resource;
use super::{Ctx, Output};

/// The index key of a group version's document: `api/v1`, `apis/apps/v1`.
pub fn key_of(group: &str, version: &str) -> String {
    if group.is_empty() {
        format!("api/{version}")
    } else {
        format!("apis/{group}/{version}")
    }
}

/// kubectl's client-side validation looks the group version's document up first.
pub fn fetch_for(ctx: &mut Ctx<'_, '_>, out: &mut Output, resource: &Resource) {
    document(ctx, out, &key_of(&resource.group, &resource.version));
}

/// The document the index lists under `key`, fetched on first use; `None` when the index
/// does not list it.
pub fn document<'c>(ctx: &'c mut Ctx<'_, '_>, out: &mut Output, key: &str) -> Option<&'c Value> {
    if ctx.openapi.is_none() {
        let mut call = Call::get("/openapi/v3?timeout=32s".into(), "application/json");
        call.caller = "client.go:46";
        ctx.openapi = Some((ctx.client.send(out, call).json(), Vec::new()));
    }
    let (root, fetched) = ctx.openapi.as_ref()?;
    let at = match fetched.iter().position(|(k, _)| k == key) {
        Some(at) => at,
        None => {
            let url = root["paths"][key]["serverRelativeURL"].as_str()?;
            let sep = if url.contains('?') { '&' } else { '?' };
            let mut call = Call::get(format!("{url}{sep}timeout=32s"), "application/json");
            call.caller = "groupversion.go:75";
            let doc = ctx.client.send(out, call).json();
            let (_, fetched) = ctx.openapi.as_mut()?;
            fetched.push((key.to_string(), doc));
            fetched.len() - 1
        }
    };
    ctx.openapi.as_ref().map(|(_, fetched)| &fetched[at].1)
}

/// The OpenAPI v2 document kubectl falls back to (client-side validation of a `List`,
/// `explain --output plaintext-openapiv2`); `Err` with the Status client-go makes of a
/// failure (a 404 without a Status body becomes NotFound, the body its cause).
pub fn v2(ctx: &mut Ctx<'_, '_>, out: &mut Output) -> Result<(), Value> {
    let mut call = Call::get(
        "/openapi/v2?timeout=32s".into(),
        "application/com.github.proto-openapi.spec.v2.v1.0+protobuf",
    );
    call.caller = "document.go:94";
    let reply = ctx.client.send(out, call);
    if reply.ok() {
        return Ok(());
    }
    let status = reply.json();
    if status["kind"] == "Status" {
        return Err(status);
    }
    let body = String::from_utf8_lossy(&reply.body).trim().to_string();
    Err(serde_json::json!({"metadata": {}, "status": "Failure",
        "message": "the server could not find the requested resource", "reason": "NotFound",
        "details": {"causes": [{"reason": "UnexpectedServerResponse", "message": body}]},
        "code": reply.status}))
}
