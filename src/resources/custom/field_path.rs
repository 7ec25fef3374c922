//! `ValidFieldPath`: a rule's `fieldPath` (`.spec.x`, `.spec['a.b']`) resolved against the
//! schema of the rule's node, giving the relative path its failures are reported at
//! (`spec.x`, `spec[a.b]`: a property is a child, a member of an `additionalProperties` map
//! a key).

use super::structural::Schema;

/// The tokens of a path: `.`, `[` and `]` alone, a single-quoted string whole (delimiters
/// inside it kept), other text between delimiters.
fn tokens(path: &str) -> Vec<&str> {
    let b = path.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        if b[i] == b'\'' {
            i += 1;
            while i < b.len() && !(b[i] == b'\'' && b[i - 1] != b'\\') {
                i += 1;
            }
            i = (i + 1).min(b.len());
        } else if matches!(b[i], b'.' | b'[' | b']') {
            i += 1;
        } else {
            while i < b.len() && !matches!(b[i], b'.' | b'[' | b']') {
                i += 1;
            }
        }
        out.push(&path[start..i]);
    }
    out
}

/// `unescapeSingleQuote`.
fn unescape(s: &str) -> Result<String, String> {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(d) = chars.next() else {
            out.push(c);
            break;
        };
        out.push(match d {
            'a' => '\x07',
            'b' => '\x08',
            'f' => '\x0c',
            'n' => '\n',
            'r' => '\r',
            't' => '\t',
            'v' => '\x0b',
            '\'' => '\'',
            '\\' => '\\',
            other => return Err(format!("invalid escape char \\{other}")),
        });
    }
    Ok(out)
}

/// `path` against `schema`: the path it names, as `field.Path` renders it, or why it names
/// nothing.
pub fn resolve(schema: &Schema, path: &str) -> Result<String, String> {
    let mut at = String::new();
    let mut node = Some(schema);
    let mut toks = tokens(path).into_iter();
    while let Some(tok) = toks.next() {
        let name = match tok {
            "[" => {
                let quoted = toks.next().ok_or("unexpected end of JSON path")?;
                if quoted.len() < 2 || !quoted.starts_with('\'') || !quoted.ends_with('\'') {
                    return Err(format!("expected single quoted string but got {quoted}"));
                }
                let name = unescape(&quoted[1..quoted.len() - 1])
                    .map_err(|e| format!("invalid string literal: {e}"))?;
                match toks.next() {
                    Some("]") => {}
                    Some(t) => return Err(format!("expected ] but got {t}")),
                    None => return Err("unexpected end of JSON path".into()),
                }
                name
            }
            "." => toks
                .next()
                .ok_or("unexpected end of JSON path")?
                .to_string(),
            other => return Err(format!("expected [ or . but got: {other}")),
        };
        let s = node.ok_or("does not refer to a valid field")?;
        if !s.properties.is_empty() {
            node = Some(
                s.properties
                    .get(&name)
                    .ok_or("does not refer to a valid field")?,
            );
            if !at.is_empty() {
                at.push('.');
            }
            at.push_str(&name);
        } else if let Some(add) = s.additional.as_deref() {
            node = (!add.absent).then_some(add);
            at.push('[');
            at.push_str(&name);
            at.push(']');
        } else {
            return Err("does not refer to a valid field".into());
        }
    }
    Ok(at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn paths_resolve_to_children_and_keys() {
        let s = Schema::parse(&json!({"type": "object", "properties": {
            "spec": {"type": "object", "properties": {
                "a.b": {"type": "string"},
                "labels": {"type": "object", "additionalProperties": {"type": "string"}}
            }}
        }}));
        assert_eq!(resolve(&s, ".spec['a.b']"), Ok("spec.a.b".to_string()));
        assert_eq!(
            resolve(&s, ".spec.labels['x.y']"),
            Ok("spec.labels[x.y]".to_string())
        );
        assert_eq!(
            resolve(&s, ".spec.labels.k"),
            Ok("spec.labels[k]".to_string())
        );
        for bad in [
            ".spec.nope",
            "spec",
            ".spec.",
            ".spec[x]",
            ".spec['a.b'",
            ".spec['\\q']",
        ] {
            assert!(resolve(&s, bad).is_err(), "{bad}");
        }
    }
}
