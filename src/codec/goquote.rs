//! Go's `strconv.Quote`, byte for byte, and `fmt`'s `%v` and `%T` of an unstructured value:
//! error texts quote and print values as Go does.

/// Go's `strconv.Quote`: a double-quoted string with Go escapes.
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\u{b}' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c if c.is_control() => {
                let n = c as u32;
                if n <= 0xffff {
                    out.push_str(&format!("\\u{n:04x}"));
                } else {
                    out.push_str(&format!("\\U{n:08x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Go's `base64.StdEncoding.Decode` as `encoding/json` uses it for `[]byte`: padded standard
/// base64 (`\r` and `\n` skipped). Returns the canonical re-encoding (what Go writes back), or
/// the `illegal base64 data at input byte N` error Go reports.
pub fn base64_std(text: &str) -> Result<String, String> {
    use base64::Engine as _;
    let cleaned: String = text.chars().filter(|c| *c != '\r' && *c != '\n').collect();
    let engine = base64::engine::general_purpose::STANDARD;
    match engine.decode(&cleaned) {
        Ok(bytes) => Ok(engine.encode(bytes)),
        Err(e) => {
            let at = match e {
                base64::DecodeError::InvalidByte(i, _) => i,
                base64::DecodeError::InvalidLastSymbol(i, _) => i,
                base64::DecodeError::InvalidLength(n) => n - n % 4,
                base64::DecodeError::InvalidPadding => cleaned.len().saturating_sub(1),
            };
            Err(format!("illegal base64 data at input byte {at}"))
        }
    }
}

/// `fmt.Sprintf("%T", v)` of a decoded JSON value (`interface{}` as unstructured decoding
/// fills it; a number is `int64` when integral, as the unstructured converter makes it).
pub fn go_type_of(v: &serde_json::Value) -> &'static str {
    use serde_json::Value;
    match v {
        Value::Null => "<nil>",
        Value::String(_) => "string",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_f64() => "float64",
        Value::Number(_) => "int64",
        Value::Array(_) => "[]interface {}",
        Value::Object(_) => "map[string]interface {}",
    }
}

/// `fmt.Sprintf("%v", v)` of a decoded JSON value: maps as `map[k:v ...]` (keys sorted), slices
/// as `[a b]`, nil as `<nil>`, strings bare.
pub fn go_sprint(v: &serde_json::Value) -> String {
    use serde_json::Value;
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            crate::sort::sort(&mut keys);
            let parts: Vec<String> = keys
                .iter()
                .map(|k| format!("{k}:{}", go_sprint(&m[*k])))
                .collect();
            format!("map[{}]", parts.join(" "))
        }
        Value::Array(a) => format!(
            "[{}]",
            a.iter().map(go_sprint).collect::<Vec<_>>().join(" ")
        ),
        Value::String(s) => s.clone(),
        Value::Null => "<nil>".into(),
        other => other.to_string(),
    }
}
