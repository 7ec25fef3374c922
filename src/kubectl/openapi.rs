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
pub fn document(ctx: &mut Ctx<'_, '_>, out: &mut Output, key: &str) -> Option<Value> {
    if ctx.openapi.is_none() {
        let mut call = Call::get("/openapi/v3?timeout=32s".into(), "application/json");
        call.caller = "client.go:46";
        ctx.openapi = Some((ctx.client.send(out, call).json(), Vec::new()));
    }
    let (root, fetched) = ctx.openapi.as_mut()?;
    if let Some((_, doc)) = fetched.iter().find(|(k, _)| k == key) {
        return Some(doc.clone());
    }
    let url = root["paths"][key]["serverRelativeURL"].as_str()?;
    let sep = if url.contains('?') { '&' } else { '?' };
    let mut call = Call::get(format!("{url}{sep}timeout=32s"), "application/json");
    call.caller = "groupversion.go:75";
    let doc = ctx.client.send(out, call).json();
    if let Some((_, fetched)) = ctx.openapi.as_mut() {
        fetched.push((key.to_string(), doc.clone()));
    }
    Some(doc)
}
