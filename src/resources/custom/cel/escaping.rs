//! apiserver's `cel.Escape`: the names CEL gives an object's properties (`foo-bar` is
//! `foo__dash__bar`, a reserved word `namespace` is `__namespace__`), and back.

/// CEL's reserved words, which a property name is escaped from.
const RESERVED: &[&str] = &[
    "true",
    "false",
    "null",
    "in",
    "as",
    "break",
    "const",
    "continue",
    "else",
    "for",
    "function",
    "if",
    "import",
    "let",
    "loop",
    "package",
    "namespace",
    "return",
    "var",
    "void",
    "while",
];

/// Whether `name` is one of CEL's reserved words.
pub fn reserved(name: &str) -> bool {
    RESERVED.contains(&name)
}

/// The CEL name of property `name`; `None` for one CEL cannot name (empty, a leading
/// digit, a character other than letters, digits, `_`, `-`, `.` and `/`).
pub fn escape(name: &str) -> Option<String> {
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    if reserved(name) {
        return Some(format!("__{name}__"));
    }
    let mut out = String::with_capacity(name.len());
    let mut rest = name;
    while let Some(c) = rest.chars().next() {
        if rest.starts_with("__") {
            out.push_str("__underscores__");
            rest = &rest[2..];
            continue;
        }
        match c {
            '.' => out.push_str("__dot__"),
            '-' => out.push_str("__dash__"),
            '/' => out.push_str("__slash__"),
            c if c.is_ascii_alphanumeric() || c == '_' => out.push(c),
            _ => return None,
        }
        rest = &rest[c.len_utf8()..];
    }
    Some(out)
}

/// The property a CEL name stands for, where it is an escaped one.
pub fn unescape(name: &str) -> Option<String> {
    if let Some(inner) = name.strip_prefix("__").and_then(|n| n.strip_suffix("__")) {
        if reserved(inner) {
            return Some(inner.to_string());
        }
    }
    if !name.contains("__") {
        return None;
    }
    let mut out = String::with_capacity(name.len());
    let mut rest = name;
    while !rest.is_empty() {
        let mut hit = false;
        for (from, to) in [
            ("__underscores__", "__"),
            ("__dot__", "."),
            ("__dash__", "-"),
            ("__slash__", "/"),
        ] {
            if let Some(r) = rest.strip_prefix(from) {
                out.push_str(to);
                rest = r;
                hit = true;
                break;
            }
        }
        if !hit {
            let c = rest.chars().next()?;
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    Some(out)
}
