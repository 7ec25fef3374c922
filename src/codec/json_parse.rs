//! The JSON reader: Go's syntax errors, key order kept, duplicate keys reported as the
//! field paths apiserver's strict decoding names. Re-exported from [`super::json`].

use serde_json::{Map, Number, Value};

use super::scanner;

/// A JSON syntax error: Go's message (`invalid character 'x' looking for beginning of value`,
/// `unexpected end of JSON input`, ...) and Go's byte offset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// The exact text Go's decoder returns.
    pub message: String,
    /// Bytes consumed when the error was found (Go's `SyntaxError.Offset`).
    pub offset: usize,
}

impl std::fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SyntaxError {}

/// The result of [`parse`]: the value (key order kept, the last of duplicate keys wins, as in
/// Go) and the duplicate keys found, as paths for `duplicate field "<path>"`.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    /// The document.
    pub value: Value,
    /// Duplicate keys in document order, deduplicated, at most 100 (Go's strict-error cap):
    /// dotted from the root, `[i]` for array elements (`metadata.labels.a`, `items[0].name`).
    pub duplicates: Vec<String>,
}

/// Parses one JSON document as kube-apiserver's decoder does (see the module docs).
///
/// A number too large for `float64` (`1e400`) is refused as Go's untyped decoding refuses it:
/// `json: cannot unmarshal number 1e400 into Go value of type float64` (reported here as a
/// [`SyntaxError`], offset at the end of the literal).
pub fn parse(bytes: &[u8]) -> Result<Parsed, SyntaxError> {
    let raw = parse_raw(bytes)?;
    let mut duplicates = Vec::new();
    let value = raw_to_value(&raw, Some(&mut duplicates));
    drop_raw(raw);
    Ok(Parsed {
        value: value?,
        duplicates,
    })
}

/// Reads JSON this process wrote itself (a stored object): no syntax check and no depth limit,
/// as Go's decoders' 10,000 levels bound what clients send, not what the server keeps (an
/// object's managedFields nest a few levels deeper than its own fields).
pub(crate) fn parse_written(bytes: &[u8]) -> Option<Value> {
    let raw = build(bytes);
    let value = raw_to_value(&raw, None);
    drop_raw(raw);
    value.ok()
}

/// A parsed document that keeps everything Go's decoder sees: every member of an object in
/// order (duplicates included) and each number's literal text. The typed decoder walks this so
/// that type errors quote the literal (`number 1.0`) and duplicate members merge as in Go.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Raw {
    Null,
    Bool(bool),
    /// The literal text, and the offset just past it (for number-range errors).
    Number(String, usize),
    String(String),
    Array(Vec<Raw>),
    Object(Vec<(String, Raw)>),
}

/// The most strict errors Go accumulates.
pub(crate) const MAX_STRICT_ERRORS: usize = 100;

/// Checks `bytes` with Go's scanner, then builds the [`Raw`] tree.
pub(crate) fn parse_raw(bytes: &[u8]) -> Result<Raw, SyntaxError> {
    scanner::check_valid(bytes).map_err(|e| SyntaxError {
        message: e.message,
        offset: e.offset,
    })?;
    Ok(build(bytes))
}

enum Open {
    Array(Vec<Raw>),
    Object(Vec<(String, Raw)>, String),
}

/// Builds the tree from input the scanner accepted (so every branch below may assume
/// well-formed JSON), without recursion.
fn build(b: &[u8]) -> Raw {
    let mut i = 0;
    let mut stack: Vec<Open> = Vec::new();
    loop {
        // Parse one value start.
        skip_ws(b, &mut i);
        let mut done: Option<Raw> = None;
        match b.get(i).copied().unwrap_or(b'n') {
            b'{' => {
                i += 1;
                skip_ws(b, &mut i);
                if b.get(i) == Some(&b'}') {
                    i += 1;
                    done = Some(Raw::Object(Vec::new()));
                } else {
                    let key = read_key(b, &mut i);
                    stack.push(Open::Object(Vec::new(), key));
                }
            }
            b'[' => {
                i += 1;
                skip_ws(b, &mut i);
                if b.get(i) == Some(&b']') {
                    i += 1;
                    done = Some(Raw::Array(Vec::new()));
                } else {
                    stack.push(Open::Array(Vec::new()));
                }
            }
            b'"' => done = Some(Raw::String(read_string(b, &mut i))),
            b't' => {
                i += 4;
                done = Some(Raw::Bool(true));
            }
            b'f' => {
                i += 5;
                done = Some(Raw::Bool(false));
            }
            b'n' => {
                i += 4;
                done = Some(Raw::Null);
            }
            _ => {
                let start = i;
                while i < b.len() && matches!(b[i], b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
                {
                    i += 1;
                }
                let text = String::from_utf8_lossy(&b[start..i]).into_owned();
                done = Some(Raw::Number(text, i));
            }
        }
        // Close containers as long as values complete them.
        while let Some(v) = done.take() {
            let Some(top) = stack.last_mut() else {
                return v;
            };
            skip_ws(b, &mut i);
            let sep = b.get(i).copied().unwrap_or(b']');
            i += 1;
            match top {
                Open::Array(items) => {
                    items.push(v);
                    if sep == b']' {
                        if let Some(Open::Array(items)) = stack.pop() {
                            done = Some(Raw::Array(items));
                        }
                    }
                }
                Open::Object(members, key) => {
                    members.push((std::mem::take(key), v));
                    if sep == b'}' {
                        if let Some(Open::Object(members, _)) = stack.pop() {
                            done = Some(Raw::Object(members));
                        }
                    } else {
                        skip_ws(b, &mut i);
                        *key = read_key(b, &mut i);
                    }
                }
            }
        }
    }
}

/// The bytes of the top-level member `name` of `doc` exactly as the client wrote them
/// (whitespace and number spelling included): what Go's `RawExtension.UnmarshalJSON` keeps
/// (a ControllerRevision's `data`) and the real server later compares byte for byte. The last
/// one when repeated, as a decoder filling a struct ends with; `None` when there is none or
/// `doc` is not an object. `doc` must be valid JSON (it was parsed before).
pub(crate) fn top_level_member<'a>(doc: &'a [u8], name: &str) -> Option<&'a [u8]> {
    let mut found = None;
    for_each_member(doc, |key, value| {
        if key == name {
            found = Some(value);
        }
    });
    found
}

/// Calls `f` with each top-level member of `doc` (its key, decoded, and its value's bytes as
/// written), in document order; nothing when `doc` is not an object. `doc` must be valid JSON.
/// Values are skipped over, not parsed: reading a few members of a large object costs a scan.
pub(crate) fn for_each_member<'a>(doc: &'a [u8], mut f: impl FnMut(&str, &'a [u8])) {
    let mut i = 0;
    skip_ws(doc, &mut i);
    if doc.get(i) != Some(&b'{') {
        return;
    }
    i += 1;
    loop {
        skip_ws(doc, &mut i);
        if doc.get(i) != Some(&b'"') {
            return;
        }
        let key = read_key(doc, &mut i);
        skip_ws(doc, &mut i);
        let start = i;
        skip_value(doc, &mut i);
        f(&key, &doc[start..i]);
        skip_ws(doc, &mut i);
        match doc.get(i) {
            Some(b',') => i += 1,
            _ => return,
        }
    }
}

/// Moves past the (valid) value starting at `i`.
fn skip_value(b: &[u8], i: &mut usize) {
    let mut depth = 0usize;
    loop {
        match b.get(*i) {
            None => return,
            Some(b'"') => {
                read_string(b, i);
            }
            Some(b'{' | b'[') => {
                depth += 1;
                *i += 1;
            }
            Some(b'}' | b']') => {
                depth -= 1;
                *i += 1;
            }
            Some(_) => {
                // A literal or number, or a separator inside a container.
                *i += 1;
                while depth == 0
                    && matches!(b.get(*i), Some(c) if c.is_ascii_alphanumeric() || matches!(c, b'.' | b'-' | b'+'))
                {
                    *i += 1;
                }
            }
        }
        if depth == 0 {
            return;
        }
    }
}

fn skip_ws(b: &[u8], i: &mut usize) {
    while *i < b.len() && matches!(b[*i], b' ' | b'\t' | b'\r' | b'\n') {
        *i += 1;
    }
}

/// Reads `"key"` and the `:` after it.
fn read_key(b: &[u8], i: &mut usize) -> String {
    let key = read_string(b, i);
    skip_ws(b, i);
    *i += 1; // ':'
    key
}

/// Reads a string literal starting at the opening quote, decoding escapes as Go's `unquote`
/// does (bad surrogates and invalid UTF-8 become U+FFFD, one per bad byte).
fn read_string(b: &[u8], i: &mut usize) -> String {
    *i += 1;
    // Most strings have no escape and are valid UTF-8: one scan, one check, one copy.
    let rest = &b[*i..];
    if let Some(len) = rest.iter().position(|&c| c == b'"' || c == b'\\') {
        if rest[len] == b'"' {
            if let Ok(s) = std::str::from_utf8(&rest[..len]) {
                *i += len + 1;
                return s.to_owned();
            }
        }
    }
    let mut out: Vec<u8> = Vec::new();
    let mut run = *i;
    while *i < b.len() {
        match b[*i] {
            b'"' => break,
            b'\\' => {
                push_utf8_lossy_go(&b[run..*i], &mut out);
                let c = b.get(*i + 1).copied().unwrap_or(b'\\');
                *i += 2;
                match c {
                    b'b' => out.push(0x08),
                    b'f' => out.push(0x0c),
                    b'n' => out.push(b'\n'),
                    b'r' => out.push(b'\r'),
                    b't' => out.push(b'\t'),
                    b'u' => {
                        let r = hex4(b, *i);
                        *i += 4;
                        let mut ch = char::from_u32(r).unwrap_or('\u{fffd}');
                        if (0xd800..0xe000).contains(&r) {
                            ch = '\u{fffd}';
                            if r < 0xdc00
                                && b.get(*i) == Some(&b'\\')
                                && b.get(*i + 1) == Some(&b'u')
                            {
                                let r2 = hex4(b, *i + 2);
                                if (0xdc00..0xe000).contains(&r2) {
                                    let c = 0x10000 + ((r - 0xd800) << 10) + (r2 - 0xdc00);
                                    ch = char::from_u32(c).unwrap_or('\u{fffd}');
                                    *i += 6;
                                }
                            }
                        }
                        let mut buf = [0u8; 4];
                        out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                    }
                    other => out.push(other),
                }
                run = *i;
            }
            _ => *i += 1,
        }
    }
    let end = (*i).min(b.len());
    push_utf8_lossy_go(&b[run..end], &mut out);
    *i += 1; // closing quote
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

fn hex4(b: &[u8], at: usize) -> u32 {
    b.get(at..at + 4)
        .and_then(|h| std::str::from_utf8(h).ok())
        .and_then(|h| u32::from_str_radix(h, 16).ok())
        .unwrap_or(0xfffd)
}

/// Appends bytes, replacing each byte that does not start a valid UTF-8 sequence with U+FFFD
/// (Go's `utf8.DecodeRune` advances one byte on error, unlike Rust's lossy conversion).
fn push_utf8_lossy_go(mut bytes: &[u8], out: &mut Vec<u8>) {
    loop {
        match std::str::from_utf8(bytes) {
            Ok(s) => {
                out.extend_from_slice(s.as_bytes());
                return;
            }
            Err(e) => {
                let good = e.valid_up_to();
                out.extend_from_slice(&bytes[..good]);
                out.extend_from_slice("\u{fffd}".as_bytes());
                bytes = &bytes[good + 1..];
            }
        }
    }
}

/// A number literal as Go's untyped decoding with `PreserveInts` reads it: `int64` when the text
/// has no `.` and fits, else `float64`; `None` when the float overflows.
pub(crate) fn number_from_literal(text: &str) -> Option<Number> {
    if !text.contains('.') {
        if let Ok(i) = text.parse::<i64>() {
            return Some(Number::from(i));
        }
    }
    text.parse::<f64>().ok().and_then(Number::from_f64)
}

/// The error Go's untyped decoding gives for a number outside `float64`.
pub(crate) fn float_range_message(text: &str) -> String {
    format!("json: cannot unmarshal number {text} into Go value of type float64")
}

enum Conv<'a> {
    Array(std::slice::Iter<'a, Raw>, Vec<Value>, usize),
    Object(
        std::slice::Iter<'a, (String, Raw)>,
        Map<String, Value>,
        usize,
        String,
    ),
}

/// Converts a [`Raw`] tree into a [`Value`] (the last of duplicate members wins, at the first
/// one's position), without recursion. When `dups` is given, duplicate members are recorded
/// as Go's strict decoder reports them for untyped data.
pub(crate) fn raw_to_value(
    root: &Raw,
    mut dups: Option<&mut Vec<String>>,
) -> Result<Value, SyntaxError> {
    let mut path = String::new();
    let mut stack: Vec<Conv<'_>> = Vec::new();
    let mut next: Option<&Raw> = Some(root);
    loop {
        let mut done: Option<Value> = None;
        if let Some(raw) = next.take() {
            match raw {
                Raw::Null => done = Some(Value::Null),
                Raw::Bool(b) => done = Some(Value::Bool(*b)),
                Raw::String(s) => done = Some(Value::String(s.clone())),
                Raw::Number(text, end) => match number_from_literal(text) {
                    Some(n) => done = Some(Value::Number(n)),
                    None => {
                        return Err(SyntaxError {
                            message: float_range_message(text),
                            offset: *end,
                        })
                    }
                },
                Raw::Array(items) => {
                    stack.push(Conv::Array(items.iter(), Vec::new(), path.len()));
                }
                Raw::Object(members) => {
                    stack.push(Conv::Object(
                        members.iter(),
                        Map::new(),
                        path.len(),
                        String::new(),
                    ));
                }
            }
        }
        loop {
            let Some(top) = stack.last_mut() else {
                return Ok(done.unwrap_or(Value::Null));
            };
            match top {
                Conv::Array(it, out, base) => {
                    if let Some(v) = done.take() {
                        out.push(v);
                    }
                    path.truncate(*base);
                    if let Some(raw) = it.next() {
                        path.push_str(&format!("[{}]", out.len()));
                        next = Some(raw);
                        break;
                    }
                    let items = std::mem::take(out);
                    stack.pop();
                    done = Some(Value::Array(items));
                }
                Conv::Object(it, out, base, key) => {
                    if let Some(v) = done.take() {
                        out.insert(std::mem::take(key), v);
                    }
                    path.truncate(*base);
                    if let Some((k, raw)) = it.next() {
                        if out.contains_key(k) {
                            if let Some(d) = dups.as_deref_mut() {
                                let p = child_path(&path, k);
                                if d.len() < MAX_STRICT_ERRORS && !d.contains(&p) {
                                    d.push(p);
                                }
                            }
                        }
                        if !path.is_empty() {
                            path.push('.');
                        }
                        path.push_str(k);
                        *key = k.clone();
                        next = Some(raw);
                        break;
                    }
                    let members = std::mem::take(out);
                    stack.pop();
                    done = Some(Value::Object(members));
                }
            }
        }
    }
}

/// The error [`raw_to_value`] would give for `root`: its first number (in document order)
/// that no `float64` holds. A body is checked so without being built as a value.
pub(crate) fn check_numbers(root: &Raw) -> Result<(), SyntaxError> {
    let mut stack = vec![root];
    while let Some(r) = stack.pop() {
        match r {
            Raw::Number(text, end) if number_from_literal(text).is_none() => {
                return Err(SyntaxError {
                    message: float_range_message(text),
                    offset: *end,
                })
            }
            Raw::Array(items) => stack.extend(items.iter().rev()),
            Raw::Object(members) => stack.extend(members.iter().rev().map(|(_, v)| v)),
            _ => {}
        }
    }
    Ok(())
}

/// What `Interpret` reads of a document: an object's `apiVersion` and `kind` members (any
/// case, duplicates merged as [`raw_to_value`] merges them), or the whole value when it is
/// not an object (whose kind the error names). Its numbers must have passed
/// [`check_numbers`].
pub(crate) fn type_meta_members(root: &Raw) -> Value {
    let Raw::Object(members) = root else {
        return raw_to_value(root, None).unwrap_or(Value::Null);
    };
    let mut out = Map::new();
    for (k, v) in members {
        if k.eq_ignore_ascii_case("apiVersion") || k.eq_ignore_ascii_case("kind") {
            out.insert(k.clone(), raw_to_value(v, None).unwrap_or(Value::Null));
        }
    }
    Value::Object(out)
}

/// `metadata.managedFields` as a document sent them (the last of repeated members, as in
/// [`raw_to_value`]). Its numbers must have passed [`check_numbers`].
pub(crate) fn sent_managed_fields(root: &Raw) -> Option<Value> {
    fn last<'a>(members: &'a [(String, Raw)], name: &str) -> Option<&'a Raw> {
        members
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v)
    }
    let Raw::Object(top) = root else { return None };
    let Raw::Object(meta) = last(top, "metadata")? else {
        return None;
    };
    raw_to_value(last(meta, "managedFields")?, None).ok()
}

/// Drops a [`Raw`] tree without recursion (the derived drop would recurse once per level).
pub(crate) fn drop_raw(root: Raw) {
    let mut stack = vec![root];
    while let Some(r) = stack.pop() {
        match r {
            Raw::Array(items) => stack.extend(items),
            Raw::Object(members) => stack.extend(members.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

/// `parent.key`, or `key` at the root: how Go's strict decoder names a member.
pub(crate) fn child_path(parent: &str, key: &str) -> String {
    if parent.is_empty() {
        key.to_string()
    } else {
        format!("{parent}.{key}")
    }
}
