//! RFC 6902 JSON Patch, with the errors and limits kube-apiserver applies (at most 10,000
//! operations; a failed operation rejects the whole patch).

use serde_json::Value;

use super::PatchError;

/// kube-apiserver's cap on operations in one JSON patch.
pub const MAX_OPERATIONS: usize = 10_000;

/// kube-apiserver's `JSONPatchMaxCopyBytes` (3 MiB), which it sets as json-patch's
/// `AccumulatedCopySizeLimit`: the bytes all `copy` operations of one patch may add, each
/// counted as its value's JSON encoding, so that a few kilobytes of patch cannot double a
/// document over and over.
pub const MAX_COPY_BYTES: usize = 3 * 1024 * 1024;

fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

/// A JSON pointer's reference tokens, unescaped.
pub(crate) fn tokens(path: &str) -> Result<Vec<String>, PatchError> {
    if path.is_empty() {
        return Ok(Vec::new());
    }
    if !path.starts_with('/') {
        return Err(PatchError::Unprocessable(format!(
            "invalid JSON pointer: {path:?}"
        )));
    }
    Ok(path[1..].split('/').map(unescape).collect())
}

fn missing(path: &str) -> PatchError {
    PatchError::Unprocessable(format!("doc is missing path: \"{path}\": missing value"))
}

fn get<'a>(doc: &'a Value, path: &str) -> Result<&'a Value, PatchError> {
    let mut cur = doc;
    for t in tokens(path)? {
        cur = match cur {
            Value::Object(m) => m.get(&t),
            Value::Array(a) => t.parse::<usize>().ok().and_then(|i| a.get(i)),
            _ => None,
        }
        .ok_or_else(|| missing(path))?;
    }
    Ok(cur)
}

fn parent_mut<'a>(doc: &'a mut Value, path: &str) -> Result<(&'a mut Value, String), PatchError> {
    let mut toks = tokens(path)?;
    let last = toks.pop().ok_or_else(|| missing(path))?;
    let mut cur = doc;
    for t in toks {
        cur = match cur {
            Value::Object(m) => m.get_mut(&t),
            Value::Array(a) => t.parse::<usize>().ok().and_then(move |i| a.get_mut(i)),
            _ => None,
        }
        .ok_or_else(|| missing(path))?;
    }
    Ok((cur, last))
}

fn add(doc: &mut Value, path: &str, value: Value) -> Result<(), PatchError> {
    if path.is_empty() {
        *doc = value;
        return Ok(());
    }
    let (parent, last) = parent_mut(doc, path)?;
    match parent {
        Value::Object(m) => {
            m.insert(last, value);
            Ok(())
        }
        Value::Array(a) => {
            let idx = if last == "-" {
                a.len()
            } else {
                last.parse::<usize>()
                    .ok()
                    .filter(|i| *i <= a.len())
                    .ok_or_else(|| {
                        PatchError::Unprocessable(format!(
                            "Unable to access invalid index: {last}: invalid index referenced"
                        ))
                    })?
            };
            a.insert(idx, value);
            Ok(())
        }
        _ => Err(missing(path)),
    }
}

fn remove(doc: &mut Value, path: &str) -> Result<Value, PatchError> {
    let (parent, last) = parent_mut(doc, path)?;
    match parent {
        Value::Object(m) => m.shift_remove(&last).ok_or_else(|| {
            PatchError::Unprocessable(format!(
                "Unable to remove nonexistent key: {last}: missing value"
            ))
        }),
        Value::Array(a) => {
            let i = last
                .parse::<usize>()
                .ok()
                .filter(|i| *i < a.len())
                .ok_or_else(|| {
                    PatchError::Unprocessable(format!(
                        "Unable to access invalid index: {last}: invalid index referenced"
                    ))
                })?;
            Ok(a.remove(i))
        }
        _ => Err(missing(path)),
    }
}

/// A patch document's operations (the handler's decoding has already made it an array;
/// anything else has none), within kube-apiserver's cap.
pub fn operations(patch: &Value) -> Result<&[Value], PatchError> {
    let ops = patch.as_array().map_or(&[][..], Vec::as_slice);
    if ops.len() > MAX_OPERATIONS {
        return Err(PatchError::TooLarge(format!(
            "The allowed maximum operations in a JSON patch is {MAX_OPERATIONS}, got {}",
            ops.len()
        )));
    }
    Ok(ops)
}

/// Applies the operations to `doc` (all or nothing: on error `doc` is unspecified; apply to a
/// copy).
pub fn apply(doc: &mut Value, ops: &[Value]) -> Result<(), PatchError> {
    let mut copied = 0;
    for op in ops {
        let kind = op.get("op").and_then(Value::as_str).unwrap_or("");
        let path = op.get("path").and_then(Value::as_str).unwrap_or("");
        let from = op.get("from").and_then(Value::as_str).unwrap_or("");
        let value = || {
            op.get("value").cloned().ok_or_else(|| {
                PatchError::Unprocessable(format!("missing value for {kind} operation"))
            })
        };
        match kind {
            "add" => add(doc, path, value()?)?,
            "remove" => {
                remove(doc, path)?;
            }
            "replace" => {
                get(doc, path)?;
                if path.is_empty() {
                    *doc = value()?;
                } else {
                    remove(doc, path)?;
                    add(doc, path, value()?)?;
                }
            }
            "move" => {
                let v = remove(doc, from)?;
                add(doc, path, v)?;
            }
            "copy" => {
                let v = get(doc, from)?;
                copied += crate::codec::json::to_compact_string(v).len();
                if copied > MAX_COPY_BYTES {
                    return Err(PatchError::Unprocessable(format!(
                        "Unable to complete the copy, the accumulated size increase of copy is \
                         {copied}, exceeding the limit {MAX_COPY_BYTES}"
                    )));
                }
                let v = v.clone();
                add(doc, path, v)?;
            }
            "test" => {
                let want = value()?;
                if get(doc, path).ok() != Some(&want) {
                    return Err(PatchError::Unprocessable(format!(
                        "testing value {path} failed: test failed"
                    )));
                }
            }
            other => {
                return Err(PatchError::Unprocessable(format!(
                    "Unexpected kind: {other}"
                )))
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn rfc6902_operations() {
        let cases = [
            (
                json!({"foo":"bar"}),
                json!([{"op":"add","path":"/baz","value":"qux"}]),
                json!({"foo":"bar","baz":"qux"}),
            ),
            (
                json!({"foo":["bar","baz"]}),
                json!([{"op":"add","path":"/foo/1","value":"qux"}]),
                json!({"foo":["bar","qux","baz"]}),
            ),
            (
                json!({"foo":["bar"]}),
                json!([{"op":"add","path":"/foo/-","value":"x"}]),
                json!({"foo":["bar","x"]}),
            ),
            (
                json!({"baz":"qux","foo":"bar"}),
                json!([{"op":"remove","path":"/baz"}]),
                json!({"foo":"bar"}),
            ),
            (
                json!({"baz":"qux"}),
                json!([{"op":"replace","path":"/baz","value":"boo"}]),
                json!({"baz":"boo"}),
            ),
            (
                json!({"a":{"b":1},"c":{}}),
                json!([{"op":"move","from":"/a/b","path":"/c/b"}]),
                json!({"a":{},"c":{"b":1}}),
            ),
            (
                json!({"a":1}),
                json!([{"op":"copy","from":"/a","path":"/b"}]),
                json!({"a":1,"b":1}),
            ),
            (
                json!({"a/b":1,"m~n":2}),
                json!([{"op":"remove","path":"/a~1b"},{"op":"remove","path":"/m~0n"}]),
                json!({}),
            ),
            (
                json!({"a":1}),
                json!([{"op":"test","path":"/a","value":1},{"op":"add","path":"/b","value":2}]),
                json!({"a":1,"b":2}),
            ),
        ];
        for (mut doc, patch, want) in cases {
            let ops = operations(&patch).unwrap();
            apply(&mut doc, ops).unwrap();
            assert_eq!(doc, want, "{patch}");
        }
    }

    #[test]
    fn failures() {
        let mut doc = json!({"a": 1});
        let cases = [
            (
                json!([{"op":"test","path":"/a","value":2}]),
                "testing value /a failed: test failed",
            ),
            (
                json!([{"op":"remove","path":"/zz"}]),
                "Unable to remove nonexistent key: zz: missing value",
            ),
            (
                json!([{"op":"replace","path":"/zz","value":1}]),
                "doc is missing path: \"/zz\": missing value",
            ),
            (json!([{"op":"nope","path":"/a"}]), "Unexpected kind: nope"),
        ];
        for (patch, msg) in cases {
            let ops = operations(&patch).unwrap();
            assert_eq!(
                apply(&mut doc, ops),
                Err(PatchError::Unprocessable(msg.into())),
                "{patch}"
            );
        }
        let many: Vec<Value> = (0..10_001)
            .map(|_| json!({"op":"test","path":"","value":1}))
            .collect();
        assert!(matches!(
            operations(&Value::Array(many)),
            Err(PatchError::TooLarge(_))
        ));
    }

    /// Each copy adds its value's JSON encoding to the patch's total; past 3 MiB the patch fails.
    #[test]
    fn copies_are_capped_in_accumulated_bytes() {
        let mut doc = json!({"a": "x".repeat(1 << 20)});
        let ok =
            json!([{"op":"copy","from":"/a","path":"/b"},{"op":"copy","from":"/a","path":"/c"}]);
        apply(&mut doc, ok.as_array().unwrap()).unwrap();
        let too_much = json!([
            {"op":"copy","from":"/a","path":"/d"},
            {"op":"copy","from":"/a","path":"/e"},
            {"op":"copy","from":"/a","path":"/f"}
        ]);
        let copy = (1 << 20) + 2;
        match apply(&mut doc, too_much.as_array().unwrap()) {
            Err(PatchError::Unprocessable(m)) => assert_eq!(
                m,
                format!(
                    "Unable to complete the copy, the accumulated size increase of copy is {}, \
                     exceeding the limit 3145728",
                    3 * copy
                )
            ),
            other => panic!("{other:?}"),
        }
    }
}
