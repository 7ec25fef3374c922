//! A CustomResourceDefinition's status conditions (`SetCRDCondition` and friends), shared by
//! the strategy's delete and the apiextensions controllers.

use serde_json::{json, Map, Value};

/// A condition without its time.
pub fn cond(ty: &str, status: &str, reason: &str, message: &str) -> Value {
    json!({"type": ty, "status": status, "reason": reason, "message": message})
}

/// Whether `status` holds `c` with the same status, reason and message.
pub fn same_condition(status: &Value, c: &Value) -> bool {
    status["conditions"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|x| {
            x["type"] == c["type"]
                && x["status"] == c["status"]
                && x["reason"] == c["reason"]
                && x["message"] == c["message"]
        })
}

/// `SetCRDCondition`: a new condition is appended with the time; an existing one keeps its
/// transition time unless its status changes.
pub fn set_condition(status: &mut Map<String, Value>, c: Value, now: &str) {
    let list = status.entry("conditions").or_insert_with(|| json!([]));
    if !list.is_array() {
        *list = json!([]);
    }
    let Some(list) = list.as_array_mut() else {
        return;
    };
    let mut c = c;
    match list.iter_mut().find(|x| x["type"] == c["type"]) {
        Some(existing) => {
            let time = if existing["status"] == c["status"] {
                existing["lastTransitionTime"].clone()
            } else {
                json!(now)
            };
            c["lastTransitionTime"] = time;
            *existing = c;
        }
        None => {
            c["lastTransitionTime"] = json!(now);
            list.push(c);
        }
    }
}

/// Sets condition `ty` on a definition at `now` ([`set_condition`] on its status).
pub fn set_on(
    obj: &mut Map<String, Value>,
    ty: &str,
    status: &str,
    reason: &str,
    message: &str,
    now: &str,
) {
    let st = obj.entry("status").or_insert_with(|| json!({}));
    if !st.is_object() {
        *st = json!({});
    }
    if let Some(st) = st.as_object_mut() {
        set_condition(st, cond(ty, status, reason, message), now);
    }
}
