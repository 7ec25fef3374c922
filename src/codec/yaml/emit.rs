//! YAML output exactly as kube-apiserver writes it.
//!
//! The server's YAML serializer marshals the object to JSON and converts that with
//! sigs.k8s.io/yaml's `JSONToYAML`: go-yaml v2 reads the JSON into Go maps and writes them
//! back, so mapping keys come out **sorted** (go-yaml's "natural" key order), sequences in a
//! mapping are not indented (`items:\n- name: a`), strings that would read back as another
//! type are double-quoted (`"true"`, `"123"`, timestamps), multi-line strings are literal
//! blocks (`|-`), long plain or quoted strings fold at column 80, and floats use Go's `%g`.
//!
//! This is a port of the parts of go-yaml v2's emitter (`emitterc.go`: indentation, the
//! scalar analysis, style selection and the four scalar writers) that JSON-shaped data can
//! reach. It writes straight from [`Value`]s, and typed-list items one by one ([`Node::Items`])
//! so a large list is never copied to be encoded.

use std::borrow::Cow;

use serde_json::Value;

use super::float::format_g;
use super::resolve::can_use_plain;
use crate::codec::json::format_number;

/// Indentation step and line width (go-yaml's defaults; `best_width` 80).
const INDENT: i32 = 2;
const WIDTH: usize = 80;

/// Something the emitter can write.
#[derive(Debug, Clone, Copy)]
pub enum Node<'a> {
    /// Any JSON value.
    Value(&'a Value),
    /// An object written without `kind` and `apiVersion` (an item of a typed list).
    Item(&'a Value),
    /// A mapping built by the caller (keys are sorted on output like any other mapping).
    Map(&'a [(&'a str, Node<'a>)]),
    /// The items of a typed list, each written as [`Node::Item`].
    Items(&'a [Value]),
}

/// The YAML document for `v`.
pub fn to_vec(v: &Value) -> Vec<u8> {
    write_document(Node::Value(v))
}

/// The YAML document for any [`Node`].
pub fn write_document(node: Node<'_>) -> Vec<u8> {
    let mut e = Emitter {
        out: Vec::new(),
        indent: -1,
        indents: Vec::new(),
        column: 0,
        whitespace: true,
        indention: true,
        mapping_ctx: false,
        simple_key_ctx: false,
    };
    e.node(node, false, false);
    // Document end (implicit): finish the last line.
    e.write_indent();
    e.out
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Style {
    Plain,
    Single,
    Double,
    Literal,
}

/// `yaml_emitter_analyze_scalar`'s findings.
struct Analysis {
    multiline: bool,
    block_plain: bool,
    single_allowed: bool,
    block_allowed: bool,
}

/// The emitter's state, named as in go-yaml.
struct Emitter {
    out: Vec<u8>,
    indent: i32,
    indents: Vec<i32>,
    /// Characters (not bytes) on the current line.
    column: usize,
    whitespace: bool,
    indention: bool,
    mapping_ctx: bool,
    simple_key_ctx: bool,
}

fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// go-yaml's `is_printable` (tab, CR, DEL, C1 controls and astral characters are not).
fn is_printable(c: char) -> bool {
    matches!(c, '\n' | ' '..='~' | '\u{A0}'..='\u{D7FF}')
        || (('\u{E000}'..='\u{FFFD}').contains(&c) && c != '\u{FEFF}')
}

/// The scalar text and requested style of a JSON scalar (`encode.go`'s `stringv`, `intv`,
/// `floatv`, `boolv`, `nilv`).
fn scalar_of(v: &Value) -> (Cow<'_, str>, Style) {
    match v {
        Value::Null => (Cow::Borrowed("null"), Style::Plain),
        Value::Bool(true) => (Cow::Borrowed("true"), Style::Plain),
        Value::Bool(false) => (Cow::Borrowed("false"), Style::Plain),
        Value::Number(n) => (Cow::Owned(number_text(n)), Style::Plain),
        Value::String(s) => (Cow::Borrowed(s.as_str()), string_style(s)),
        Value::Array(_) | Value::Object(_) => unreachable!("collections are not scalars"),
    }
}

fn string_style(s: &str) -> Style {
    if s.contains('\n') {
        Style::Literal
    } else if can_use_plain(s) {
        Style::Plain
    } else {
        Style::Double
    }
}

/// A number as it comes out of JSON → go-yaml: integers that fit `int64`/`uint64` stay
/// integers, everything else is a float in `%g` form.
fn number_text(n: &serde_json::Number) -> String {
    if n.is_i64() || n.is_u64() {
        return n.to_string();
    }
    let text = format_number(n);
    if let Ok(i) = text.parse::<i64>() {
        return i.to_string();
    }
    if let Ok(u) = text.parse::<u64>() {
        return u.to_string();
    }
    format_g(n.as_f64().unwrap_or(0.0))
}

fn analyze(value: &str) -> Analysis {
    if value.is_empty() {
        return Analysis {
            multiline: false,
            block_plain: true,
            single_allowed: true,
            block_allowed: false,
        };
    }
    let (mut block_ind, mut line_breaks, mut special) = (false, false, false);
    let (mut leading_space, mut leading_break) = (false, false);
    let (mut trailing_space, mut trailing_break) = (false, false);
    let (mut break_space, mut space_break) = (false, false);
    let (mut prev_space, mut prev_break) = (false, false);
    if value.starts_with("---") || value.starts_with("...") {
        block_ind = true;
    }
    let mut preceded_by_ws = true;
    let mut chars = value.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let next = chars.peek().map(|p| p.1);
        let last = next.is_none();
        let followed_by_ws = matches!(next, None | Some(' ' | '\t'));
        if i == 0 {
            match c {
                '#' | ',' | '[' | ']' | '{' | '}' | '&' | '*' | '!' | '|' | '>' | '\'' | '"'
                | '%' | '@' | '`' => block_ind = true,
                '?' | ':' | '-' if followed_by_ws => block_ind = true,
                _ => {}
            }
        } else {
            match c {
                ':' if followed_by_ws => block_ind = true,
                '#' if preceded_by_ws => block_ind = true,
                _ => {}
            }
        }
        if !is_printable(c) {
            special = true;
        }
        if c == ' ' {
            leading_space |= i == 0;
            trailing_space |= last;
            break_space |= prev_break;
            prev_space = true;
            prev_break = false;
        } else if is_break(c) {
            line_breaks = true;
            leading_break |= i == 0;
            trailing_break |= last;
            space_break |= prev_space;
            prev_space = false;
            prev_break = true;
        } else {
            prev_space = false;
            prev_break = false;
        }
        preceded_by_ws = matches!(c, ' ' | '\t') || is_break(c);
    }
    let mut a = Analysis {
        multiline: line_breaks,
        block_plain: true,
        single_allowed: true,
        block_allowed: true,
    };
    if leading_space || leading_break || trailing_space || trailing_break {
        a.block_plain = false;
    }
    if trailing_space {
        a.block_allowed = false;
    }
    if break_space {
        a.block_plain = false;
        a.single_allowed = false;
    }
    if space_break || special {
        a.block_plain = false;
        a.single_allowed = false;
        a.block_allowed = false;
    }
    if line_breaks || block_ind {
        a.block_plain = false;
    }
    a
}

impl Emitter {
    fn put(&mut self, b: u8) {
        self.out.push(b);
        self.column += 1;
    }

    fn write(&mut self, c: char) {
        let mut buf = [0u8; 4];
        self.out
            .extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        self.column += 1;
    }

    fn put_break(&mut self) {
        self.out.push(b'\n');
        self.column = 0;
    }

    fn write_break(&mut self, c: char) {
        if c == '\n' {
            self.put_break();
        } else {
            self.write(c);
            self.column = 0;
        }
    }

    fn write_indent(&mut self) {
        let indent = self.indent.max(0) as usize;
        if !self.indention || self.column > indent || (self.column == indent && !self.whitespace) {
            self.put_break();
        }
        while self.column < indent {
            self.put(b' ');
        }
        self.whitespace = true;
        self.indention = true;
    }

    fn write_indicator(&mut self, s: &str, need_ws: bool, is_ws: bool, is_indention: bool) {
        if need_ws && !self.whitespace {
            self.put(b' ');
        }
        for c in s.chars() {
            self.write(c);
        }
        self.whitespace = is_ws;
        self.indention = self.indention && is_indention;
    }

    fn increase_indent(&mut self, flow: bool, indentless: bool) {
        self.indents.push(self.indent);
        if self.indent < 0 {
            self.indent = if flow { INDENT } else { 0 };
        } else if !indentless {
            self.indent += INDENT;
        }
    }

    fn pop_indent(&mut self) {
        self.indent = self.indents.pop().unwrap_or(-1);
    }

    /// `yaml_emitter_emit_node` for a value in mapping-value or sequence-item position.
    fn node(&mut self, node: Node<'_>, mapping: bool, simple_key: bool) {
        self.mapping_ctx = mapping;
        self.simple_key_ctx = simple_key;
        match node {
            Node::Value(Value::Array(a)) => self.sequence(a.len(), |i| Node::Value(&a[i])),
            Node::Items(items) => self.sequence(items.len(), |i| Node::Item(&items[i])),
            Node::Value(Value::Object(m)) => self.mapping(
                m.iter()
                    .map(|(k, v)| (k.as_str(), Node::Value(v)))
                    .collect(),
            ),
            Node::Item(Value::Object(m)) => self.mapping(
                m.iter()
                    .filter(|(k, _)| *k != "kind" && *k != "apiVersion")
                    .map(|(k, v)| (k.as_str(), Node::Value(v)))
                    .collect(),
            ),
            Node::Map(entries) => self.mapping(entries.to_vec()),
            Node::Value(v) | Node::Item(v) => {
                let (text, style) = scalar_of(v);
                self.scalar(&text, style);
            }
        }
    }

    fn empty_flow(&mut self, open: &str, close: &str) {
        self.write_indicator(open, true, true, false);
        self.write_indicator(close, false, false, false);
    }

    fn sequence<'a>(&mut self, len: usize, item: impl Fn(usize) -> Node<'a>) {
        if len == 0 {
            return self.empty_flow("[", "]");
        }
        let indentless = self.mapping_ctx && !self.indention;
        self.increase_indent(false, indentless);
        for i in 0..len {
            self.write_indent();
            self.write_indicator("-", true, false, true);
            self.node(item(i), false, false);
        }
        self.pop_indent();
    }

    fn mapping(&mut self, mut entries: Vec<(&str, Node<'_>)>) {
        if entries.is_empty() {
            return self.empty_flow("{", "}");
        }
        crate::sort::sort_by(&mut entries, |a, b| super::sort::compare_keys(a.0, b.0));
        self.increase_indent(false, false);
        for (key, value) in entries {
            self.write_indent();
            let a = analyze(key);
            if !a.multiline && key.len() <= 128 {
                self.mapping_ctx = true;
                self.simple_key_ctx = true;
                self.scalar(key, string_style(key));
                self.write_indicator(":", false, false, false);
            } else {
                self.write_indicator("?", true, false, true);
                self.mapping_ctx = true;
                self.simple_key_ctx = false;
                self.scalar(key, string_style(key));
                self.write_indent();
                self.write_indicator(":", true, false, true);
            }
            self.node(value, true, false);
        }
        self.pop_indent();
    }

    /// `yaml_emitter_emit_scalar`: pick the style the analysis allows, then write it.
    fn scalar(&mut self, value: &str, requested: Style) {
        let a = analyze(value);
        let mut style = requested;
        if self.simple_key_ctx && a.multiline {
            style = Style::Double;
        }
        if style == Style::Plain && (!a.block_plain || (value.is_empty() && self.simple_key_ctx)) {
            style = Style::Single;
        }
        if style == Style::Single && !a.single_allowed {
            style = Style::Double;
        }
        if style == Style::Literal && (!a.block_allowed || self.simple_key_ctx) {
            style = Style::Double;
        }
        let allow_breaks = !self.simple_key_ctx;
        self.increase_indent(true, false);
        match style {
            Style::Plain => self.plain(value, allow_breaks),
            Style::Single => self.single_quoted(value, allow_breaks),
            Style::Double => self.double_quoted(value, allow_breaks),
            Style::Literal => self.literal(value),
        }
        self.pop_indent();
    }

    fn plain(&mut self, value: &str, allow_breaks: bool) {
        if !self.whitespace {
            self.put(b' ');
        }
        // Plain scalars have no line breaks, so one that ends by the width cannot fold.
        let width = value.chars().count();
        if !allow_breaks || self.column + width <= WIDTH {
            self.out.extend_from_slice(value.as_bytes());
            self.column += width;
            self.whitespace = false;
            self.indention = false;
            return;
        }
        let mut chars = value.chars().peekable();
        let (mut spaces, mut breaks) = (false, false);
        while let Some(c) = chars.next() {
            if c == ' ' {
                let next_space = chars.peek() == Some(&' ');
                if allow_breaks && !spaces && self.column > WIDTH && !next_space {
                    self.write_indent();
                } else {
                    self.write(c);
                }
                spaces = true;
            } else if is_break(c) {
                if !breaks && c == '\n' {
                    self.put_break();
                }
                self.write_break(c);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                self.write(c);
                self.indention = false;
                spaces = false;
                breaks = false;
            }
        }
        self.whitespace = false;
        self.indention = false;
    }

    fn single_quoted(&mut self, value: &str, allow_breaks: bool) {
        self.write_indicator("'", true, false, false);
        let mut chars = value.char_indices().peekable();
        let (mut spaces, mut breaks) = (false, false);
        while let Some((i, c)) = chars.next() {
            if c == ' ' {
                let next_space = chars.peek().map(|p| p.1) == Some(' ');
                if allow_breaks
                    && !spaces
                    && self.column > WIDTH
                    && i > 0
                    && i + 1 < value.len()
                    && !next_space
                {
                    self.write_indent();
                } else {
                    self.write(c);
                }
                spaces = true;
            } else if is_break(c) {
                if !breaks && c == '\n' {
                    self.put_break();
                }
                self.write_break(c);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                if c == '\'' {
                    self.put(b'\'');
                }
                self.write(c);
                self.indention = false;
                spaces = false;
                breaks = false;
            }
        }
        self.write_indicator("'", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn double_quoted(&mut self, value: &str, allow_breaks: bool) {
        self.write_indicator("\"", true, false, false);
        let mut chars = value.char_indices().peekable();
        let mut spaces = false;
        while let Some((i, c)) = chars.next() {
            if !is_printable(c) || c == '\u{FEFF}' || is_break(c) || c == '"' || c == '\\' {
                self.put(b'\\');
                let short = match c {
                    '\0' => Some('0'),
                    '\u{7}' => Some('a'),
                    '\u{8}' => Some('b'),
                    '\t' => Some('t'),
                    '\n' => Some('n'),
                    '\u{b}' => Some('v'),
                    '\u{c}' => Some('f'),
                    '\r' => Some('r'),
                    '\u{1b}' => Some('e'),
                    '"' => Some('"'),
                    '\\' => Some('\\'),
                    '\u{85}' => Some('N'),
                    '\u{A0}' => Some('_'),
                    '\u{2028}' => Some('L'),
                    '\u{2029}' => Some('P'),
                    _ => None,
                };
                match short {
                    Some(s) => self.write(s),
                    None => {
                        let v = c as u32;
                        let (letter, width) = if v <= 0xFF {
                            ('x', 2)
                        } else if v <= 0xFFFF {
                            ('u', 4)
                        } else {
                            ('U', 8)
                        };
                        self.write(letter);
                        for ch in format!("{v:0width$X}").chars() {
                            self.write(ch);
                        }
                    }
                }
                spaces = false;
            } else if c == ' ' {
                if allow_breaks && !spaces && self.column > WIDTH && i > 0 && i + 1 < value.len() {
                    self.write_indent();
                    if chars.peek().map(|p| p.1) == Some(' ') {
                        self.put(b'\\');
                    }
                } else {
                    self.write(c);
                }
                spaces = true;
            } else {
                self.write(c);
                spaces = false;
            }
        }
        self.write_indicator("\"", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn literal(&mut self, value: &str) {
        self.write_indicator("|", true, false, false);
        // Block scalar hints: an indentation indicator when the text starts with a space or a
        // line break, then the chomping indicator.
        if value.starts_with(' ') || value.starts_with(is_break) {
            self.write_indicator(&INDENT.to_string(), false, false, false);
        }
        let mut rev = value.chars().rev();
        let chomp = match (rev.next(), rev.next()) {
            (None, _) => Some("-"),
            (Some(last), _) if !is_break(last) => Some("-"),
            (Some(_), None) => Some("+"),
            (Some(_), Some(before)) if is_break(before) => Some("+"),
            _ => None,
        };
        if let Some(c) = chomp {
            self.write_indicator(c, false, false, false);
        }
        self.put_break();
        self.indention = true;
        self.whitespace = true;
        let mut breaks = true;
        for c in value.chars() {
            if is_break(c) {
                self.write_break(c);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                    breaks = false;
                }
                self.write(c);
                self.indention = false;
            }
        }
    }
}
