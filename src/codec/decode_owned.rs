//! [`canonicalize_owned`]: [`super::canonicalize`] of an object its caller gives up. The
//! values already in canonical form (strings, integers, booleans, untyped JSON, and lists and
//! maps of them in key order: most of a large object, its `data`, labels and annotations)
//! are checked and moved into their places instead of being rebuilt, so a write's canonical
//! form costs a read of its big fields rather than a copy, and then a drop, of each. Every
//! other value goes through the same walker as [`super::canonicalize`], and a value is moved
//! only where that walker would rebuild it equal.

use serde_json::{Map, Value};

use super::{emit_struct, Slot, Walker};
use crate::codec::gotypes::go_field;
use crate::codec::schema::{Struct, Type};

/// [`super::canonicalize`] of `obj`, reusing its canonical values.
pub fn canonicalize_owned(obj: Map<String, Value>, schema: &'static Struct) -> Map<String, Value> {
    let mut w = Walker::new(true);
    let slots = slots_of(&mut w, obj, schema);
    emit_struct(schema, slots)
}

/// The struct `s` filled from `obj`'s members (a map has no repeated member, so each slot
/// is filled once, as the walker fills it; unknown members are dropped).
fn slots_of(w: &mut Walker, obj: Map<String, Value>, s: &'static Struct) -> Vec<Slot> {
    let mut slots = vec![Slot::Zero; s.fields.len()];
    for (key, v) in obj {
        let Some(idx) = s.fields.iter().position(|f| f.name == key) else {
            continue;
        };
        let f = &s.fields[idx];
        slots[idx] = match (v, &f.ty) {
            (v, ty) if is_canonical(&v, ty) => Slot::Val(v),
            (Value::Object(m), Type::Object(inner)) => Slot::Struct(slots_of(w, m, inner)),
            // A list of structs (managedFields, owner references, rules), when every item is
            // one: each filled as the walker fills a list's items.
            (Value::Array(items), Type::Array(Type::Object(inner), _))
                if items.iter().all(Value::is_object) =>
            {
                let structs = items.into_iter().map(|item| match item {
                    Value::Object(m) => Slot::Struct(slots_of(w, m, inner)),
                    _ => unreachable!("every item is an object"),
                });
                Slot::List(structs.collect())
            }
            (v, ty) => {
                let mut slot = Slot::Zero;
                // Lenient walks never fail.
                let _ = w.value(&v, ty, go_field(f), &mut slot);
                slot
            }
        };
    }
    slots
}

/// Whether the walker would fill a slot of type `ty` from `v` with `v` itself. Null never
/// is (the walker keeps or zeroes a slot for it); neither is anything it normalizes
/// (timestamps, bytes, floats, structs).
fn is_canonical(v: &Value, ty: &Type) -> bool {
    match (ty, v) {
        (_, Value::Null) => false,
        (Type::String, Value::String(_)) | (Type::Boolean, Value::Bool(_)) | (Type::Any, _) => true,
        (Type::Int64, Value::Number(n)) => n.as_i64().is_some(),
        (Type::Int32, Value::Number(n)) => n.as_i64().is_some_and(|n| i32::try_from(n).is_ok()),
        // The walker's map is ordered by key: the same order, and so the same object, only
        // if the keys already ascend.
        (Type::Map(inner), Value::Object(m)) => {
            m.keys().zip(m.keys().skip(1)).all(|(a, b)| a < b)
                && m.values().all(|e| is_canonical(e, inner))
        }
        (Type::Array(inner, _), Value::Array(items)) => {
            items.iter().all(|e| is_canonical(e, inner))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::canonicalize_owned;
    use crate::codec::decode::canonicalize;
    use crate::resources::Kinds;

    /// Objects of every served kind, canonical or not in each way the walker normalizes:
    /// both canonicalizers give the same object, member order included.
    #[test]
    fn the_owned_canonical_form_is_the_borrowed_one() {
        let objects = [
            json!({"metadata": {"name": "a", "labels": {"b": "1", "a": "2"}, "annotations": {"x": "y"}},
                   "data": {"z": "1", "a": "2"}, "binaryData": {"k": "aGk="}, "immutable": false}),
            json!({"data": {"a": null, "b": "x"}, "metadata": {"finalizers": ["f", null], "generation": 1.0}}),
            json!({"apiVersion": "v1", "kind": "K", "bogus": 1, "metadata": {"creationTimestamp": "2024-01-01T00:00:00+00:00",
                   "resourceVersion": "5", "uid": "u", "ownerReferences": [{"name": "o", "uid": "u", "kind": "K", "apiVersion": "v1"}],
                   "deletionGracePeriodSeconds": 30, "generation": 9223372036854775807u64},
                   "revision": 3, "data": {"any": [1, 2.5, {"n": null}]}}),
            json!({"revision": 18446744073709551615u64, "data": null, "metadata": {"labels": {}, "annotations": null}}),
            json!({"rules": [{"verbs": ["get"], "resources": ["pods"], "apiGroups": [""]}], "aggregationRule": null,
                   "roleRef": {"kind": "Role", "name": "r", "apiGroup": "rbac.authorization.k8s.io"},
                   "subjects": [{"kind": "User", "name": "u"}], "spec": {"finalizers": ["kubernetes"]},
                   "status": {"phase": "Active", "conditions": [{"type": "T", "status": "True", "lastTransitionTime": "2024-01-01T00:00:00Z"}]}}),
            json!({"count": 2147483648u64, "eventTime": "2024-01-01T00:00:00.000001Z", "series": {"count": 1},
                   "involvedObject": {"kind": "Pod"}, "firstTimestamp": null, "reason": 5, "type": true}),
            json!({"metadata": "not an object", "data": ["a"], "binaryData": {"k": "not base64!"}}),
            json!({"metadata": {"managedFields": [{"manager": "m", "operation": "Update", "time": "2024-01-01T00:00:00Z",
                   "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {"f:a": {}}}, "bogus": 1}, {"manager": "n"}],
                   "ownerReferences": [{"uid": "u"}, null]}, "rules": [], "subjects": [{"name": "s"}, "x"]}),
        ];
        let kinds = Kinds::builtin();
        for info in kinds.iter() {
            for obj in &objects {
                let Value::Object(m) = obj else {
                    unreachable!()
                };
                let want = canonicalize(m, info.schema);
                let got = canonicalize_owned(m.clone(), info.schema);
                let text = |m: &serde_json::Map<String, Value>| {
                    crate::codec::json::to_compact_string(&Value::Object(m.clone()))
                };
                assert_eq!(text(&got), text(&want), "{}: {obj}", info.kind);
                assert_eq!(got, want, "{}: {obj}", info.kind);
            }
        }
    }
}
