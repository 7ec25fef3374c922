//! Strategic merge patch (`application/strategic-merge-patch+json`) for the served kinds.
//!
//! Maps merge recursively and `null` deletes a key, as in a merge patch; lists are replaced
//! unless the Go type declares a merge strategy: `metadata.finalizers` merges as a set of
//! primitives, `metadata.ownerReferences` by `uid`, Namespace `status.conditions` by `type`.
//! Directives: `$patch` (`replace`, `delete`, `merge`) in maps and keyed lists,
//! `$deleteFromPrimitiveList/<field>`, `$setElementOrder/<field>` and `$retainKeys`.
//! ControllerRevision `data` is a RawExtension without patch metadata: its top level merges,
//! but a nested map present on both sides fails as the real server fails (a plain error).

use serde_json::{Map, Value};

use super::PatchError;

/// The list strategy at a path (dotted, from the object root).
enum ListStrategy {
    Replace,
    PrimitiveSet,
    MergeBy(&'static str),
}

fn strategy(path: &str) -> ListStrategy {
    match path {
        "metadata.finalizers" => ListStrategy::PrimitiveSet,
        "metadata.ownerReferences" => ListStrategy::MergeBy("uid"),
        "status.conditions" => ListStrategy::MergeBy("type"),
        _ => ListStrategy::Replace,
    }
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// Applies `patch` to `original` (both JSON objects), returning the patched object.
pub fn apply(original: &Value, patch: &Value) -> Result<Value, PatchError> {
    let Value::Object(p) = patch else {
        return Err(PatchError::BadRequest("Invalid JSON Document".into()));
    };
    let base = original.as_object().cloned().unwrap_or_default();
    merge_map(base, p, "").map(|m| m.map(Value::Object).unwrap_or(Value::Null))
}

/// Merges patch map `p` into `base` at `path`; `Ok(None)` means the map was deleted.
fn merge_map(
    mut base: Map<String, Value>,
    p: &Map<String, Value>,
    path: &str,
) -> Result<Option<Map<String, Value>>, PatchError> {
    if let Some(directive) = p.get("$patch") {
        match directive.as_str() {
            Some("replace") => {
                let mut out = p.clone();
                out.shift_remove("$patch");
                return Ok(Some(strip_directives(out)));
            }
            Some("delete") => return Ok(None),
            Some("merge") => {}
            _ => {
                return Err(PatchError::Internal(format!(
                    "unknown patch type: {} in map: {}",
                    crate::codec::go_sprint(directive),
                    crate::codec::go_sprint(&Value::Object(p.clone()))
                )))
            }
        }
    }
    // `$setElementOrder` lists order the merged lists against the live ones, kept here.
    let orders: Vec<(&str, &Value, Vec<Value>)> = p
        .iter()
        .filter_map(|(k, v)| {
            let field = k.strip_prefix("$setElementOrder/")?;
            let live = match base.get(field) {
                Some(Value::Array(list)) => list.clone(),
                _ => Vec::new(),
            };
            Some((field, v, live))
        })
        .collect();
    let mut deletions: Vec<(&str, &Value)> = Vec::new();
    for (k, v) in p {
        if k == "$patch" || k == "$retainKeys" || k.starts_with("$setElementOrder/") {
            continue;
        }
        if let Some(field) = k.strip_prefix("$deleteFromPrimitiveList/") {
            deletions.push((field, v));
            continue;
        }
        let child = join(path, k);
        if v.is_null() {
            base.shift_remove(k);
            continue;
        }
        let merged = match (base.get(k), v) {
            (Some(Value::Object(_)), Value::Object(_)) if path == "data" => {
                // RawExtension: no patch metadata below the first level.
                return Err(PatchError::Internal(format!(
                    "unable to find api field in struct RawExtension for the json field {k:?}"
                )));
            }
            (Some(Value::Object(o)), Value::Object(pv)) => {
                match merge_map(o.clone(), pv, &child)? {
                    Some(m) => Value::Object(m),
                    None => {
                        base.shift_remove(k);
                        continue;
                    }
                }
            }
            (_, Value::Object(pv)) => match merge_map(Map::new(), pv, &child)? {
                Some(m) => Value::Object(m),
                None => {
                    base.shift_remove(k);
                    continue;
                }
            },
            (Some(Value::Array(o)), Value::Array(pv)) => merge_list(o, pv, &child)?,
            (_, Value::Array(pv)) => merge_list(&[], pv, &child)?,
            (_, other) => other.clone(),
        };
        base.insert(k.clone(), merged);
    }
    for (field, values) in deletions {
        if let (Some(Value::Array(list)), Value::Array(del)) = (base.get_mut(field), values) {
            list.retain(|x| !del.contains(x));
        }
    }
    // `mergePatchIntoOriginal`: the order list plays the patch's part in the same
    // interleaving as a merged list's.
    for (field, order, live) in orders {
        let key = match strategy(&join(path, field)) {
            ListStrategy::MergeBy(k) => Some(k),
            _ => None,
        };
        if let (Some(Value::Array(list)), Value::Array(order)) = (base.get_mut(field), order) {
            let order: Vec<&Value> = order.iter().collect();
            *list = enforce_order(std::mem::take(list), &order, &live, key);
        }
    }
    Ok(Some(base))
}

fn strip_directives(mut m: Map<String, Value>) -> Map<String, Value> {
    m.retain(|k, _| !k.starts_with('$'));
    m
}

fn merge_list(original: &[Value], patch: &[Value], path: &str) -> Result<Value, PatchError> {
    // A `{"$patch": "replace"}` element replaces the whole list with the other elements.
    if patch
        .iter()
        .any(|x| x.get("$patch").and_then(Value::as_str) == Some("replace"))
    {
        let rest: Vec<Value> = patch
            .iter()
            .filter(|x| x.get("$patch").is_none())
            .cloned()
            .collect();
        return Ok(Value::Array(rest));
    }
    match strategy(path) {
        ListStrategy::Replace => Ok(Value::Array(patch.to_vec())),
        ListStrategy::PrimitiveSet => {
            let mut out = original.to_vec();
            for v in patch {
                if !out.contains(v) {
                    out.push(v.clone());
                }
            }
            let patch: Vec<&Value> = patch.iter().collect();
            Ok(Value::Array(enforce_order(out, &patch, original, None)))
        }
        ListStrategy::MergeBy(key) => {
            let mut out = original.to_vec();
            for item in patch {
                let Some(pm) = item.as_object() else {
                    return Err(PatchError::BadRequest("Invalid JSON Document".into()));
                };
                let id = pm.get(key).cloned().unwrap_or(Value::Null);
                let pos = out.iter().position(|o| o.get(key) == Some(&id));
                let delete = pm.get("$patch").and_then(Value::as_str) == Some("delete");
                match (pos, delete) {
                    (Some(i), true) => {
                        out.remove(i);
                    }
                    (None, true) => {}
                    (Some(i), false) => {
                        let base = out[i].as_object().cloned().unwrap_or_default();
                        if let Some(m) = merge_map(base, pm, path)? {
                            out[i] = Value::Object(m);
                        }
                    }
                    (None, false) => out.push(Value::Object(strip_directives(pm.clone()))),
                }
            }
            let kept: Vec<&Value> = patch
                .iter()
                .filter(|x| x.get("$patch").and_then(Value::as_str) != Some("delete"))
                .collect();
            Ok(Value::Array(enforce_order(out, &kept, original, Some(key))))
        }
    }
}

/// `normalizeElementOrder` and `mergeSortedSlice`: the merged items the patch names, in the
/// patch's order, interleaved with the server-only ones, in the live order; where the live
/// order cannot tell (an item new in the patch), the patch's item comes first.
fn enforce_order(
    merged: Vec<Value>,
    patch: &[&Value],
    original: &[Value],
    key: Option<&str>,
) -> Vec<Value> {
    let id = |v: &Value| -> Value {
        match key {
            Some(k) => v.get(k).cloned().unwrap_or(Value::Null),
            None => v.clone(),
        }
    };
    // Each item's identity and its places in the patch and the live list, found once.
    let original_ids: Vec<Value> = original.iter().map(id).collect();
    let patch_ids: Vec<Value> = patch.iter().map(|v| id(v)).collect();
    let placed = merged.into_iter().map(|v| {
        let own = id(&v);
        let in_patch = patch_ids.iter().position(|x| *x == own);
        let live = original_ids.iter().position(|x| *x == own);
        (in_patch, live, v)
    });
    let (mut from_patch, mut server_only): (Vec<_>, Vec<_>) =
        placed.partition(|(in_patch, _, _)| in_patch.is_some());
    crate::sort::sort_by_key(&mut from_patch, |(in_patch, _, _)| *in_patch);
    crate::sort::sort_by_key(&mut server_only, |(_, live, _)| live.unwrap_or(usize::MAX));
    let (mut left, mut right) = (
        server_only.into_iter().peekable(),
        from_patch.into_iter().peekable(),
    );
    let mut out = Vec::new();
    loop {
        let take_left = match (left.peek(), right.peek()) {
            (None, None) => break,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (Some((_, l, _)), Some((_, r, _))) => matches!((l, r), (Some(li), Some(ri)) if li < ri),
        };
        let next = if take_left { left.next() } else { right.next() };
        out.extend(next.map(|(_, _, v)| v));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn metadata_strategies() {
        let cases = [
            (
                json!({"metadata":{"labels":{"a":"1","b":"2"}}}),
                json!({"metadata":{"labels":{"b":null,"c":"3"}}}),
                json!({"metadata":{"labels":{"a":"1","c":"3"}}}),
            ),
            (
                json!({"metadata":{"finalizers":["x","y"]}}),
                json!({"metadata":{"finalizers":["z","x"]}}),
                // mergeSlice's order: the patch's items first (in its order), then the ones
                // only the server has, interleaved by the live order where it can tell.
                json!({"metadata":{"finalizers":["z","x","y"]}}),
            ),
            (
                json!({"metadata":{"finalizers":["a"]}}),
                json!({"metadata":{"finalizers":["b"]}}),
                json!({"metadata":{"finalizers":["b","a"]}}),
            ),
            (
                json!({"metadata":{"finalizers":["a","b","c"]}}),
                json!({"metadata":{"finalizers":["c","a"]}}),
                json!({"metadata":{"finalizers":["b","c","a"]}}),
            ),
            (
                json!({"metadata":{"finalizers":["x","y"]}}),
                json!({"metadata":{"$deleteFromPrimitiveList/finalizers":["x"]}}),
                json!({"metadata":{"finalizers":["y"]}}),
            ),
            (
                json!({"metadata":{"ownerReferences":[{"uid":"1","name":"a"},{"uid":"2","name":"b"}]}}),
                json!({"metadata":{"ownerReferences":[{"uid":"2","name":"B"},{"uid":"3","name":"c"}]}}),
                json!({"metadata":{"ownerReferences":[{"uid":"1","name":"a"},{"uid":"2","name":"B"},{"uid":"3","name":"c"}]}}),
            ),
            (
                json!({"metadata":{"ownerReferences":[{"uid":"1"},{"uid":"2"}]}}),
                json!({"metadata":{"ownerReferences":[{"uid":"1","$patch":"delete"}]}}),
                json!({"metadata":{"ownerReferences":[{"uid":"2"}]}}),
            ),
            (
                json!({"metadata":{"labels":{"a":"1"}}}),
                json!({"metadata":{"labels":{"$patch":"replace","b":"2"}}}),
                json!({"metadata":{"labels":{"b":"2"}}}),
            ),
            (
                json!({"metadata":{"labels":{"a":"1"},"name":"x"}}),
                json!({"metadata":{"labels":{"$patch":"delete"}}}),
                json!({"metadata":{"name":"x"}}),
            ),
            (
                json!({"spec":{"finalizers":["kubernetes","a"]}}),
                json!({"spec":{"finalizers":["b"]}}),
                json!({"spec":{"finalizers":["b"]}}),
            ),
            (
                json!({"metadata":{"finalizers":["a","b"]}}),
                json!({"metadata":{"finalizers":[{"$patch":"replace"},"c"]}}),
                json!({"metadata":{"finalizers":["c"]}}),
            ),
            (
                json!({"metadata":{"finalizers":["a","b"]}}),
                json!({"metadata":{"$setElementOrder/finalizers":["b","a"]}}),
                json!({"metadata":{"finalizers":["b","a"]}}),
            ),
            // Items the order does not list are interleaved by the live order, not put last.
            (
                json!({"metadata":{"finalizers":["a","b","c"]}}),
                json!({"metadata":{"$setElementOrder/finalizers":["c","a"]}}),
                json!({"metadata":{"finalizers":["b","c","a"]}}),
            ),
            (
                json!({"metadata":{"ownerReferences":[{"uid":"1"},{"uid":"2"},{"uid":"3"}]}}),
                json!({"metadata":{"$setElementOrder/ownerReferences":[{"uid":"3"},{"uid":"1"}]}}),
                json!({"metadata":{"ownerReferences":[{"uid":"2"},{"uid":"3"},{"uid":"1"}]}}),
            ),
            (
                json!({"data":{"a":1,"b":{"c":1}}}),
                json!({"data":{"a":2,"d":3,"b":null}}),
                json!({"data":{"a":2,"d":3}}),
            ),
        ];
        for (orig, patch, want) in cases {
            assert_eq!(apply(&orig, &patch).unwrap(), want, "{patch}");
        }
    }

    #[test]
    fn errors() {
        assert!(matches!(
            apply(&json!({"data":{"a":{"x":1}}}), &json!({"data":{"a":{"x":2}}})),
            Err(PatchError::Internal(m)) if m == "unable to find api field in struct RawExtension for the json field \"a\""
        ));
        assert!(matches!(
            apply(&json!({}), &json!({"$patch":"bogus"})),
            Err(PatchError::Internal(_))
        ));
        assert!(matches!(
            apply(&json!({}), &json!([1])),
            Err(PatchError::BadRequest(_))
        ));
    }
}
