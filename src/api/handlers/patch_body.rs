//! A PATCH body read as kube-apiserver's patchers read it, with their texts: the strict pass
//! (`kjson.UnmarshalStrict`, under `fieldValidation` Strict or Warn, the default) into
//! `[]jsonPatchOp` or `map[string]interface{}`, the lenient decoders otherwise, and the value
//! each patcher quotes when the patched object fails to decode: the patched JSON as
//! evanphx/json-patch writes it (keys sorted in every object it had to open) for JSON and
//! merge patches, Go's `%+v` of the patch map for strategic merge.

use serde_json::{Map, Value};

use super::FieldValidation;
use crate::codec::decode::kind_desc;
use crate::codec::{go_sprint, json as gojson};
use crate::resources::status::ApiError;

/// The patch types the handler applies itself (apply has its own handler).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum PatchKind {
    Json,
    Merge,
    Strategic,
}

/// A decoded patch and the strict findings of its own bytes (duplicate keys; for a JSON
/// patch, unknown operation fields), already worded as the strict error lists them.
pub(super) struct PatchBody {
    pub value: Value,
    pub strict: Vec<String>,
}

/// Decodes the body of a patch of `kind`.
pub(super) fn decode(
    kind: PatchKind,
    body: &[u8],
    level: FieldValidation,
) -> Result<PatchBody, ApiError> {
    let strict = !matches!(level, FieldValidation::Ignore);
    let bad = ApiError::bad_request;
    // Merge and JSON patches wrap the strict pass's error; strategic merge does not.
    let decoding = |m: String| match kind {
        PatchKind::Strategic => bad(m),
        _ => bad(format!("error decoding patch: {m}")),
    };
    let parsed = match gojson::parse(body) {
        Ok(p) => p,
        Err(e) => {
            return Err(match (kind, strict) {
                (PatchKind::Merge, false) => bad("Invalid JSON Patch".into()),
                (_, true) => decoding(e.message),
                _ => bad(e.message),
            })
        }
    };
    let mut value = parsed.value;
    let duplicates = || -> Vec<String> {
        match strict {
            true => parsed
                .duplicates
                .iter()
                .map(|d| format!("duplicate field {}", crate::codec::go_quote(d)))
                .collect(),
            false => Vec::new(),
        }
    };
    let findings = match kind {
        PatchKind::Json => {
            let mut found = match strict {
                true => json_patch_findings(&value).map_err(decoding)?,
                false => Vec::new(),
            };
            found.extend(duplicates());
            // `null` decodes as a patch of no operations.
            if value.is_null() {
                value = Value::Array(Vec::new());
            }
            if !value.is_array() {
                return Err(bad(format!(
                    "json: cannot unmarshal {} into Go value of type jsonpatch.Patch",
                    kind_desc(&value)
                )));
            }
            found
                .into_iter()
                .map(|f| format!("json patch {f}"))
                .collect()
        }
        PatchKind::Merge | PatchKind::Strategic => {
            match (&value, kind) {
                (Value::Object(_), _) => {}
                // A nil map merges nothing; evanphx refuses a `null` merge patch.
                (Value::Null, PatchKind::Strategic) => value = Value::Object(Map::new()),
                (Value::Null, _) => return Err(bad("Invalid JSON Patch".into())),
                (other, _) => {
                    let m = format!(
                        "json: cannot unmarshal {} into Go value of type map[string]interface {{}}",
                        kind_desc(other)
                    );
                    return Err(match (kind, strict) {
                        (PatchKind::Merge, false) => bad("Invalid JSON Patch".into()),
                        _ => decoding(m),
                    });
                }
            }
            duplicates()
        }
    };
    Ok(PatchBody {
        value,
        strict: findings,
    })
}

/// `kjson.UnmarshalStrict` into `[]jsonPatchOp{op, path, from string; value interface{}}`:
/// type errors fail, unknown fields are findings.
fn json_patch_findings(value: &Value) -> Result<Vec<String>, String> {
    let ops = match value {
        Value::Array(ops) => ops,
        Value::Null => return Ok(Vec::new()),
        other => {
            return Err(format!(
                "json: cannot unmarshal {} into Go value of type []handlers.jsonPatchOp",
                kind_desc(other)
            ))
        }
    };
    let mut findings = Vec::new();
    for (i, op) in ops.iter().enumerate() {
        let fields = match op {
            Value::Object(m) => m,
            Value::Null => continue,
            other => {
                return Err(format!(
                    "json: cannot unmarshal {} into Go value of type handlers.jsonPatchOp",
                    kind_desc(other)
                ))
            }
        };
        for (k, v) in fields {
            match k.as_str() {
                "op" | "path" | "from" if !matches!(v, Value::String(_) | Value::Null) => {
                    return Err(format!(
                        "json: cannot unmarshal {} into Go struct field jsonPatchOp.{k} of type string",
                        kind_desc(v)
                    ))
                }
                "op" | "path" | "from" | "value" => {}
                _ => findings.push(format!(
                    "unknown field {}",
                    crate::codec::go_quote(&format!("[{i}].{k}"))
                )),
            }
        }
    }
    Ok(findings)
}

/// The value a failed decode of the patched object quotes (`patch: Invalid value: ...`).
pub(super) fn quoted_value(kind: PatchKind, patched: &Value, patch: &Value) -> String {
    match kind {
        PatchKind::Strategic => go_sprint(patch),
        PatchKind::Merge => {
            let mut doc = patched.clone();
            sort_like_merge(&mut doc, patch);
            gojson::to_compact_string(&doc)
        }
        PatchKind::Json => {
            let mut doc = patched.clone();
            sort_object(&mut doc);
            for op in patch.as_array().into_iter().flatten() {
                for field in ["path", "from"] {
                    if let Some(path) = op.get(field).and_then(Value::as_str) {
                        sort_along(&mut doc, path, op.get("op") == Some(&"test".into()));
                    }
                }
            }
            gojson::to_compact_string(&doc)
        }
    }
}

fn sort_object(v: &mut Value) {
    if let Value::Object(m) = v {
        m.sort_keys();
    }
}

/// evanphx's merge opens the document and every object the patch merges into.
fn sort_like_merge(doc: &mut Value, patch: &Value) {
    sort_object(doc);
    let (Value::Object(d), Value::Object(p)) = (doc, patch) else {
        return;
    };
    for (k, pv) in p {
        if let (Some(dv), true) = (d.get_mut(k), pv.is_object()) {
            sort_like_merge(dv, pv);
        }
    }
}

/// evanphx's JSON patch opens every container on the way to an operation's target (and the
/// target itself when a `test` compares it).
fn sort_along(doc: &mut Value, pointer: &str, open_target: bool) {
    let Ok(parts) = crate::patch::json_patch::tokens(pointer) else {
        return;
    };
    let mut at = doc;
    for (i, part) in parts.iter().enumerate() {
        let last = i + 1 == parts.len();
        let next = match at {
            Value::Object(m) => m.get_mut(part.as_str()),
            Value::Array(a) => part.parse::<usize>().ok().and_then(|n| a.get_mut(n)),
            _ => None,
        };
        let Some(next) = next else { return };
        if !last || open_target {
            sort_object(next);
        }
        at = next;
    }
}
