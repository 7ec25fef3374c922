//! YAML request bodies, read as kube-apiserver reads them: sigs.k8s.io/yaml's `YAMLToJSON`
//! turns the first document into JSON (go-yaml v2 typing: `yes` is `true`, `0x1F` is 31,
//! non-string keys become strings, object keys sorted as Go's `json.Marshal` sorts a map), and
//! the strict pass (`YAMLToJSONStrict`) reports duplicate keys as
//! `line N: key "k" already set in map`. The JSON then goes through the same decoder as a JSON
//! body, so field validation, type errors and defaults are shared.
//!
//! Parsing uses the `saphyr-parser` event stream (pure Rust, builds for wasm32); typing,
//! merging (`<<`), aliases and the error texts follow go-yaml v2.

use std::collections::HashMap;

use saphyr_parser::{Event, Parser, ScalarStyle, Span, Tag};

use super::resolve::{key_text, resolve_plain, Plain};
use crate::codec::json;

/// A YAML body converted to JSON.
#[derive(Debug, Clone, PartialEq)]
pub struct Converted {
    /// The JSON `YAMLToJSON` produces.
    pub json: Vec<u8>,
    /// The strict pass's error (`yaml: unmarshal errors:\n  line 3: key "a" already set in
    /// map`), when the document has duplicate keys.
    pub strict: Option<String>,
}

/// The prefix sigs.k8s.io/yaml's `Unmarshal` and `UnmarshalStrict` put before a conversion
/// error; `YAMLToJSON` and `YAMLToJSONStrict`, which the body decoder calls, do not.
pub const UNMARSHAL_PREFIX: &str = "error converting YAML to JSON: ";

/// Converts a YAML body. `Err` carries `YAMLToJSON`'s error text (`yaml: line 2: ...`).
pub fn to_json(bytes: &[u8]) -> Result<Converted, String> {
    let text =
        std::str::from_utf8(bytes).map_err(|_| "yaml: invalid leading UTF-8 octet".to_string())?;
    let root = parse_first_document(text)?;
    let mut conv = Converter {
        dups: Vec::new(),
        out: Vec::new(),
    };
    match &root {
        Some(node) => conv.write(node)?,
        None => conv.out.extend_from_slice(b"null"),
    }
    let strict = (!conv.dups.is_empty())
        .then(|| format!("yaml: unmarshal errors:\n  {}", conv.dups.join("\n  ")));
    Ok(Converted {
        json: conv.out,
        strict,
    })
}

/// The lines of a strict YAML error as separate warnings (`parseYAMLWarnings`); any other
/// error text is one warning.
pub fn strict_warnings(err: &str) -> Vec<String> {
    match err.strip_prefix("yaml: unmarshal errors:\n") {
        Some(rest) => rest.split('\n').map(|l| l.trim().to_string()).collect(),
        None => vec![err.to_string()],
    }
}

/// A parsed node and the (1-based) line it starts on.
#[derive(Debug, Clone)]
enum Node {
    Scalar {
        text: String,
        style: ScalarStyle,
        tag: Option<Tag>,
        line: usize,
    },
    Seq(Vec<Node>, usize),
    Map(Vec<(Node, Node)>, usize),
}

impl Node {
    fn line(&self) -> usize {
        match self {
            Node::Scalar { line, .. } | Node::Seq(_, line) | Node::Map(_, line) => *line,
        }
    }
}

enum Open {
    Seq(Vec<Node>, usize, usize),
    Map(Vec<(Node, Node)>, Option<Node>, usize, usize),
}

/// go-yaml v2's guard against alias bombs: it counts each node it decodes (`decodeCount`),
/// and those decoded through an alias (`aliasCount`), and fails once aliases make up more
/// than the allowed share of a document of any size.
#[derive(Default)]
struct AliasBudget {
    decoded: u64,
    aliased: u64,
}

impl AliasBudget {
    /// go-yaml's `allowedAliasRatio`: 99% of up to 400,000 decodes may come from aliases,
    /// scaling down to 10% at 4,000,000.
    fn allowed_ratio(decoded: u64) -> f64 {
        const LOW: u64 = 400_000;
        const HIGH: u64 = 4_000_000;
        match decoded {
            d if d <= LOW => 0.99,
            d if d >= HIGH => 0.10,
            d => 0.99 - 0.89 * ((d - LOW) as f64 / (HIGH - LOW) as f64),
        }
    }

    /// Counts the alias node and the `target` nodes its expansion decodes, before the
    /// expansion is built. (The share only grows while an alias is expanded, so checking
    /// after it is the same as go-yaml's check at each node.)
    fn expand(&mut self, target: u64) -> Result<(), String> {
        self.decoded += 1 + target;
        self.aliased += target;
        if self.aliased > 100
            && self.decoded > 1000
            && self.aliased as f64 / self.decoded as f64 > Self::allowed_ratio(self.decoded)
        {
            return Err("yaml: document contains excessive aliasing".into());
        }
        Ok(())
    }
}

/// go-yaml's scanner refuses nesting past 10,000 levels (`max_indents` for block style,
/// `max_flow_level` for flow style) with `exceeded max depth of 10000`; the JSON scanner's cap
/// (lower on wasm32) is the same bound here, so the conversion, which recurses, stays bounded.
fn check_depth(open: usize, line: usize) -> Result<(), String> {
    let max = crate::codec::scanner::MAX_NESTING_DEPTH;
    if open >= max {
        return Err(format!("yaml: line {line}: exceeded max depth of {max}"));
    }
    Ok(())
}

/// Builds the first document's tree from the event stream (aliases expanded).
fn parse_first_document(text: &str) -> Result<Option<Node>, String> {
    let mut parser = Parser::new_from_str(text);
    // Each anchored node with the number of nodes decoding it takes (itself, its children
    // and their aliases' expansions), and the same running count for each open collection.
    let mut anchors: HashMap<usize, (Node, u64)> = HashMap::new();
    let mut budget = AliasBudget::default();
    let mut stack: Vec<(Open, u64)> = Vec::new();
    let mut root: Option<Node> = None;
    let mut in_document = false;
    while let Some(ev) = parser.next_event() {
        let (event, span): (Event<'_>, Span) =
            ev.map_err(|e| super::syntax_error::go_yaml_text(&e))?;
        let line = span.start.line();
        let done = match event {
            Event::DocumentStart(_) => {
                in_document = true;
                None
            }
            Event::DocumentEnd | Event::StreamEnd => {
                if in_document || root.is_some() {
                    return Ok(root);
                }
                if matches!(event, Event::StreamEnd) {
                    return Ok(None);
                }
                None
            }
            Event::Scalar(value, style, anchor, tag) => {
                let node = Node::Scalar {
                    text: value.into_owned(),
                    style,
                    tag: tag.map(|t| t.into_owned()),
                    line,
                };
                budget.decoded += 1;
                if anchor > 0 {
                    anchors.insert(anchor, (node.clone(), 1));
                }
                Some((node, 1))
            }
            Event::Alias(id) => {
                let (node, count) = anchors
                    .get(&id)
                    .ok_or_else(|| format!("yaml: line {line}: unknown anchor referenced"))?;
                budget.expand(*count)?;
                Some((node.clone(), 1 + count))
            }
            Event::SequenceStart(anchor, _) => {
                budget.decoded += 1;
                check_depth(stack.len(), line)?;
                stack.push((Open::Seq(Vec::new(), anchor, line), 1));
                None
            }
            Event::MappingStart(anchor, _) => {
                budget.decoded += 1;
                check_depth(stack.len(), line)?;
                stack.push((Open::Map(Vec::new(), None, anchor, line), 1));
                None
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let (node, anchor, count) = match stack.pop() {
                    Some((Open::Seq(items, anchor, l), n)) => (Node::Seq(items, l), anchor, n),
                    Some((Open::Map(entries, _, anchor, l), n)) => {
                        (Node::Map(entries, l), anchor, n)
                    }
                    None => return Err("yaml: unbalanced collection".into()),
                };
                if anchor > 0 {
                    anchors.insert(anchor, (node.clone(), count));
                }
                Some((node, count))
            }
            Event::StreamStart | Event::Nothing => None,
        };
        if let Some((node, count)) = done {
            match stack.last_mut() {
                None => root = Some(node),
                Some((open, nodes)) => {
                    *nodes += count;
                    match open {
                        Open::Seq(items, ..) => items.push(node),
                        Open::Map(entries, key, ..) => match key.take() {
                            None => *key = Some(node),
                            Some(k) => entries.push((k, node)),
                        },
                    }
                }
            }
        }
    }
    Ok(root)
}

/// What a scalar decodes to (go-yaml v2's `d.scalar` into an `interface{}`).
#[derive(Debug, Clone, PartialEq)]
enum Decoded {
    Plain(Plain),
    /// `!!binary` content (the decoded bytes, as the Go string holding them).
    Binary(String),
}

fn scalar_value(text: &str, style: ScalarStyle, tag: Option<&Tag>) -> Result<Decoded, String> {
    let core = tag
        .filter(|t| t.is_yaml_core_schema())
        .map(|t| t.suffix.as_str());
    let plain = || resolve_plain(text);
    Ok(Decoded::Plain(match (tag, core) {
        (None, _) if style == ScalarStyle::Plain => plain(),
        (None, _) => Plain::Str,
        (Some(_), Some("str" | "timestamp")) | (Some(_), None) => Plain::Str,
        (Some(_), Some("binary")) => {
            use base64::Engine as _;
            let cleaned: String = text.split_whitespace().collect();
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(cleaned)
                .map_err(|e| format!("yaml: !!binary value contains invalid base64 data: {e}"))?;
            return Ok(Decoded::Binary(
                String::from_utf8_lossy(&bytes).into_owned(),
            ));
        }
        (Some(_), Some(want)) => {
            let got = plain();
            let ok = matches!(
                (want, &got),
                ("null", Plain::Null)
                    | ("bool", Plain::Bool(_))
                    | ("int", Plain::Int(_))
                    | ("float", Plain::Float(_) | Plain::Int(_))
            );
            if !ok {
                return Err(format!(
                    "yaml: cannot decode {} `{text}` as a !!{want}",
                    short_tag(&got)
                ));
            }
            match (want, got) {
                ("float", Plain::Int(d)) => Plain::Float(d.parse().unwrap_or(0.0)),
                (_, g) => g,
            }
        }
    }))
}

fn short_tag(p: &Plain) -> &'static str {
    match p {
        Plain::Null => "!!null",
        Plain::Bool(_) => "!!bool",
        Plain::Int(_) => "!!int",
        Plain::Float(_) => "!!float",
        Plain::Timestamp => "!!timestamp",
        Plain::Str => "!!str",
    }
}

/// A mapping's entries as collected, by key: a later key replaces an earlier one, and the
/// order is the one `json.Marshal` writes a Go map in (`String`'s order is the bytes'), so a
/// mapping of n keys costs O(n log n), not a scan per key.
type Entries<'n> = std::collections::BTreeMap<String, &'n Node>;

struct Converter {
    /// Strict-mode duplicate-key findings, in document order.
    dups: Vec<String>,
    out: Vec<u8>,
}

impl Converter {
    fn write(&mut self, node: &Node) -> Result<(), String> {
        match node {
            Node::Scalar {
                text, style, tag, ..
            } => match scalar_value(text, *style, tag.as_ref())? {
                Decoded::Plain(v) => self.write_scalar(&v, text),
                Decoded::Binary(b) => {
                    json::write_string(&b, &mut self.out);
                    Ok(())
                }
            },
            Node::Seq(items, _) => {
                self.out.push(b'[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        self.out.push(b',');
                    }
                    self.write(item)?;
                }
                self.out.push(b']');
                Ok(())
            }
            Node::Map(..) => {
                let mut entries = Entries::new();
                self.collect(node, &mut entries)?;
                self.out.push(b'{');
                for (i, (k, v)) in entries.iter().enumerate() {
                    if i > 0 {
                        self.out.push(b',');
                    }
                    json::write_string(k, &mut self.out);
                    self.out.push(b':');
                    self.write(v)?;
                }
                self.out.push(b'}');
                Ok(())
            }
        }
    }

    fn write_scalar(&mut self, v: &Plain, text: &str) -> Result<(), String> {
        match v {
            Plain::Null => self.out.extend_from_slice(b"null"),
            Plain::Bool(b) => self.out.extend_from_slice(b.to_string().as_bytes()),
            Plain::Int(d) => self.out.extend_from_slice(d.as_bytes()),
            Plain::Float(f) if f.is_nan() => return Err("json: unsupported value: NaN".into()),
            Plain::Float(f) if f.is_infinite() => {
                let sign = if *f > 0.0 { "+" } else { "-" };
                return Err(format!("json: unsupported value: {sign}Inf"));
            }
            Plain::Float(f) => self
                .out
                .extend_from_slice(json::format_go_float(*f).as_bytes()),
            Plain::Timestamp | Plain::Str => json::write_string(text, &mut self.out),
        }
        Ok(())
    }

    /// A mapping's entries as JSON keys, merges (`<<`) applied, later keys replacing earlier
    /// ones, and strict duplicates recorded.
    fn collect<'n>(&mut self, node: &'n Node, entries: &mut Entries<'n>) -> Result<(), String> {
        let Node::Map(pairs, _) = node else {
            return Err("yaml: map merge requires map or sequence of maps as the value".into());
        };
        for (k, v) in pairs {
            if is_merge(k) {
                match v {
                    Node::Map(..) => self.collect(v, entries)?,
                    Node::Seq(items, _) => {
                        for item in items.iter().rev() {
                            self.collect(item, entries)?;
                        }
                    }
                    _ => {
                        return Err(
                            "yaml: map merge requires map or sequence of maps as the value".into(),
                        )
                    }
                }
                continue;
            }
            let (key, shown) = self.key(k, v)?;
            if entries.insert(key, v).is_some() {
                self.dups
                    .push(format!("line {}: key {shown} already set in map", v.line()));
            }
        }
        Ok(())
    }

    /// A key as its JSON text and as Go's `%#v` shows it in the duplicate message.
    fn key(&self, k: &Node, v: &Node) -> Result<(String, String), String> {
        let Node::Scalar {
            text, style, tag, ..
        } = k
        else {
            return Err("yaml: invalid map key: a collection cannot be a key".into());
        };
        let resolved = match scalar_value(text, *style, tag.as_ref())? {
            Decoded::Plain(p) => p,
            Decoded::Binary(b) => return Ok((b.clone(), crate::codec::go_quote(&b))),
        };
        let Some(key) = key_text(&resolved, text) else {
            let value = match v {
                Node::Scalar { text, .. } => crate::codec::go_quote(text),
                _ => "<collection>".into(),
            };
            return Err(format!(
                "unsupported map key of type: <nil>, key: <nil>, value: {value}"
            ));
        };
        let shown = match resolved {
            Plain::Str | Plain::Timestamp => crate::codec::go_quote(&key),
            _ => key.clone(),
        };
        Ok((key, shown))
    }
}

fn is_merge(k: &Node) -> bool {
    match k {
        Node::Scalar {
            text, style, tag, ..
        } => {
            text == "<<"
                && match tag {
                    None => *style == ScalarStyle::Plain,
                    Some(t) => t.is_yaml_core_schema() && t.suffix == "merge",
                }
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// go-yaml refuses block nesting past 10,000 indents; the conversion, which recurses, never
    /// sees deeper (on a thread with room for the 10,000 levels it does take).
    #[test]
    fn nesting_past_the_cap_is_refused_before_conversion() {
        let max = crate::codec::scanner::MAX_NESTING_DEPTH;
        let handle = std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn(move || {
                let deepest = "- ".repeat(max) + "1\n";
                let ok = to_json(deepest.as_bytes()).map(|c| c.json.len());
                let deeper = "- ".repeat(max + 1) + "1\n";
                (ok, to_json(deeper.as_bytes()).map(|c| c.json.len()))
            })
            .unwrap();
        let (ok, deeper) = handle.join().unwrap();
        assert_eq!(ok, Ok(2 * max + 1));
        assert_eq!(
            deeper,
            Err(format!("yaml: line 1: exceeded max depth of {max}"))
        );
    }

    fn conv(y: &str) -> String {
        String::from_utf8(to_json(y.as_bytes()).unwrap().json).unwrap()
    }

    #[test]
    fn converts_like_yaml_to_json() {
        assert_eq!(
            conv("kind: A\napiVersion: v1\nmetadata:\n  name: x\n  labels: {b: '1', a: yes}\n"),
            r#"{"apiVersion":"v1","kind":"A","metadata":{"labels":{"a":true,"b":"1"},"name":"x"}}"#
        );
        assert_eq!(
            conv("a: [1, 0x10, 1.5, ~, '<&>']"),
            r#"{"a":[1,16,1.5,null,"\u003c\u0026\u003e"]}"#
        );
        assert_eq!(conv("1: a\ny: b"), r#"{"1":"a","true":"b"}"#);
        assert_eq!(conv(""), "null");
        assert_eq!(conv("{\"a\": 1}"), r#"{"a":1}"#);
        assert_eq!(
            conv("base: &b {p: 1, q: 2}\nd:\n  <<: *b\n  q: 3\n"),
            r#"{"base":{"p":1,"q":2},"d":{"p":1,"q":3}}"#
        );
        assert_eq!(conv("t: |\n  a\n  b\n"), r#"{"t":"a\nb\n"}"#);
    }

    #[test]
    fn duplicates_are_strict_errors_with_lines() {
        let c = to_json(b"metadata:\n  name: a\n  name: b\n").unwrap();
        assert_eq!(
            String::from_utf8(c.json).unwrap(),
            r#"{"metadata":{"name":"b"}}"#
        );
        let strict = c.strict.unwrap();
        assert_eq!(
            strict,
            "yaml: unmarshal errors:\n  line 3: key \"name\" already set in map"
        );
        assert_eq!(
            strict_warnings(&strict),
            ["line 3: key \"name\" already set in map"]
        );
    }

    #[test]
    fn errors() {
        assert_eq!(
            to_json(b"a: b: c").unwrap_err(),
            "yaml: mapping values are not allowed in this context"
        );
        assert_eq!(
            to_json(b"a: .inf").unwrap_err(),
            "json: unsupported value: +Inf"
        );
        assert_eq!(
            to_json(b"a: !!int x").unwrap_err(),
            "yaml: cannot decode !!str `x` as a !!int"
        );
    }
}
