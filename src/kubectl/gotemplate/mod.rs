//! `-o go-template=...`: the part of Go's `text/template` that kubectl templates use, over
//! an object as `map[string]interface{}` (integers as `int64`, other numbers `float64`):
//! text, `{{.a.b}}`, `{{$}}` and variables, `{{range}}` (with `$i, $v :=` and `{{else}}`),
//! `{{if}}`/`{{else if}}`/`{{else}}`, `{{with}}`, comments, `{{-`/`-}}` trimming, string,
//! number and boolean literals, and the functions `index`, `len`, `printf` (`%s %d %v %q`),
//! `print`, `println`, `eq`, `ne`, `lt`, `gt`, `not`, `and`, `or`, and kubectl's `exists`
//! and `base64decode`. A missing key prints `<no value>`, as kubectl's printer allows
//! missing keys. Written by hand: the output must be Go's byte for byte.

use serde_json::Value;

mod exec;
#[cfg(test)]
mod tests;

/// A parsed template.
#[derive(Debug, Clone)]
pub struct GoTemplate(Vec<Node>);

#[derive(Debug, Clone)]
enum Node {
    Text(String),
    Print(Pipe),
    If(Vec<(Pipe, Vec<Node>)>, Vec<Node>),
    Range(Option<(String, Option<String>)>, Pipe, Vec<Node>, Vec<Node>),
    With(Pipe, Vec<Node>, Vec<Node>),
}

/// A command: a function and its arguments, or one operand.
#[derive(Debug, Clone)]
enum Pipe {
    Call(String, Vec<Arg>),
    Arg(Arg),
}

#[derive(Debug, Clone)]
enum Arg {
    /// `.a.b` (from the dot), `$x.a` (from a variable; `$` is the root).
    Field(Option<String>, Vec<String>),
    Lit(Value),
    /// `(PIPE)`, and the fields read from its result: `(index .items 0).metadata`.
    Sub(Box<Pipe>, Vec<String>),
}

/// What the template finds: a value, or nothing at a missing key.
type Found = Option<Value>;

fn tokens(action: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut chars = action.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c == '"' || c == '`' {
            let quote = c;
            let mut t = String::from(c);
            chars.next();
            let mut closed = false;
            while let Some(d) = chars.next() {
                t.push(d);
                if d == '\\' && quote == '"' {
                    if let Some(e) = chars.next() {
                        t.push(e);
                    }
                } else if d == quote {
                    closed = true;
                    break;
                }
            }
            if !closed {
                return Err("unterminated quoted string".into());
            }
            out.push(t);
        } else if c == '(' || c == ')' {
            out.push(c.to_string());
            chars.next();
        } else {
            let mut t = String::new();
            while let Some(&d) = chars.peek() {
                if d.is_whitespace() || d == '(' || d == ')' {
                    break;
                }
                t.push(d);
                chars.next();
            }
            out.push(t);
        }
    }
    Ok(out)
}

fn arg(tokens: &[String], at: &mut usize) -> Result<Arg, String> {
    let t = tokens.get(*at).ok_or("missing value for command")?.clone();
    *at += 1;
    if t == "(" {
        let mut depth = 1;
        let start = *at;
        while *at < tokens.len() {
            match tokens[*at].as_str() {
                "(" => depth += 1,
                ")" => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            *at += 1;
        }
        let inner = pipe(&tokens[start..*at])?;
        *at += 1;
        let mut path = Vec::new();
        if let Some(rest) = tokens.get(*at).and_then(|t| t.strip_prefix('.')) {
            path = rest
                .split('.')
                .filter(|p| !p.is_empty())
                .map(str::to_string)
                .collect();
            *at += 1;
        }
        return Ok(Arg::Sub(Box::new(inner), path));
    }
    if let Some(rest) = t.strip_prefix('.') {
        let path = rest
            .split('.')
            .filter(|p| !p.is_empty())
            .map(str::to_string);
        return Ok(Arg::Field(None, path.collect()));
    }
    if let Some(rest) = t.strip_prefix('$') {
        let mut parts = rest.split('.');
        let var = parts.next().unwrap_or("").to_string();
        let path = parts
            .filter(|p| !p.is_empty())
            .map(str::to_string)
            .collect();
        return Ok(Arg::Field(Some(var), path));
    }
    if t.starts_with('"') {
        let s: String = serde_json::from_str(&t).map_err(|_| format!("bad string {t}"))?;
        return Ok(Arg::Lit(Value::String(s)));
    }
    if let Some(raw) = t.strip_prefix('`').and_then(|r| r.strip_suffix('`')) {
        return Ok(Arg::Lit(Value::String(raw.to_string())));
    }
    match t.as_str() {
        "true" => return Ok(Arg::Lit(Value::Bool(true))),
        "false" => return Ok(Arg::Lit(Value::Bool(false))),
        "nil" => return Ok(Arg::Lit(Value::Null)),
        _ => {}
    }
    if let Ok(n) = t.parse::<i64>() {
        return Ok(Arg::Lit(Value::from(n)));
    }
    if let Ok(f) = t.parse::<f64>() {
        return Ok(Arg::Lit(Value::from(f)));
    }
    Err(format!("function {t:?} not defined"))
}

const FUNCTIONS: &[&str] = &[
    "index",
    "len",
    "printf",
    "print",
    "println",
    "eq",
    "ne",
    "lt",
    "le",
    "gt",
    "ge",
    "not",
    "and",
    "or",
    "exists",
    "base64decode",
];

fn pipe(tokens: &[String]) -> Result<Pipe, String> {
    if tokens.iter().any(|t| t == "|") {
        return Err("kubesim's kubectl has no pipelines (|) in go-templates".into());
    }
    match tokens.first() {
        None => Err("missing value for command".into()),
        Some(f) if FUNCTIONS.contains(&f.as_str()) => {
            let mut at = 1;
            let mut args = Vec::new();
            while at < tokens.len() {
                args.push(arg(tokens, &mut at)?);
            }
            Ok(Pipe::Call(f.clone(), args))
        }
        Some(_) => {
            let mut at = 0;
            let a = arg(tokens, &mut at)?;
            if at != tokens.len() {
                return Err(format!("can't give argument to non-function {}", tokens[0]));
            }
            Ok(Pipe::Arg(a))
        }
    }
}

/// `$i, $v := PIPE` or `$v := PIPE` or `PIPE`.
#[allow(clippy::type_complexity)]
fn declared(tokens: &[String]) -> Result<(Option<(String, Option<String>)>, Pipe), String> {
    if let Some(at) = tokens.iter().position(|t| t == ":=") {
        let names: Vec<String> = tokens[..at]
            .join(" ")
            .split(',')
            .map(|n| n.trim().trim_start_matches('$').to_string())
            .collect();
        let vars = match names.as_slice() {
            [v] => (v.clone(), None),
            [i, v] => (i.clone(), Some(v.clone())),
            _ => return Err("too many declarations".into()),
        };
        return Ok((Some(vars), pipe(&tokens[at + 1..])?));
    }
    Ok((None, pipe(tokens)?))
}

impl GoTemplate {
    pub fn parse(text: &str) -> Result<GoTemplate, String> {
        // Split into text and actions, applying the trim markers.
        let mut items: Vec<(bool, String)> = Vec::new();
        let mut rest = text;
        while let Some(open) = rest.find("{{") {
            let mut before = rest[..open].to_string();
            let after = &rest[open + 2..];
            let trim_left = after.starts_with("- ") || after.starts_with("-\t");
            if trim_left {
                before = before.trim_end().to_string();
            }
            let close = after.find("}}").ok_or("unclosed action")?;
            let mut action = &after[..close];
            let mut next = &after[close + 2..];
            if trim_left {
                action = &action[1..];
            }
            let trim_right = action.ends_with(" -") || action.ends_with("\t-");
            if trim_right {
                action = &action[..action.len() - 1];
                next = next.trim_start();
            }
            items.push((false, before));
            items.push((true, action.trim().to_string()));
            rest = next;
        }
        items.push((false, rest.to_string()));
        let mut at = 0;
        let (nodes, end) = block(&items, &mut at)?;
        if end.is_some() {
            return Err(format!("unexpected {{{{{}}}}}", end.unwrap_or_default()));
        }
        Ok(GoTemplate(nodes))
    }

    pub fn execute(&self, obj: &Value) -> Result<String, String> {
        let mut out = String::new();
        let mut vars = vec![(String::new(), obj.clone())];
        exec::run(&self.0, Some(obj.clone()), &mut vars, &mut out)?;
        Ok(out)
    }
}

/// Nodes up to an `{{end}}`/`{{else...}}`; that closing action, when there is one.
fn block(items: &[(bool, String)], at: &mut usize) -> Result<(Vec<Node>, Option<String>), String> {
    let mut nodes = Vec::new();
    while *at < items.len() {
        let (action, text) = &items[*at];
        *at += 1;
        if !action {
            if !text.is_empty() {
                nodes.push(Node::Text(text.clone()));
            }
            continue;
        }
        if text.starts_with("/*") {
            continue;
        }
        let words = tokens(text)?;
        let Some(first) = words.first() else {
            return Err("missing value for command".into());
        };
        match first.as_str() {
            "end" | "else" => return Ok((nodes, Some(text.clone()))),
            "if" => {
                let mut branches = Vec::new();
                let mut cond = pipe(&words[1..])?;
                loop {
                    let (body, end) = block(items, at)?;
                    branches.push((cond, body));
                    match end.as_deref() {
                        Some("end") => {
                            nodes.push(Node::If(branches, Vec::new()));
                            break;
                        }
                        Some("else") => {
                            let (other, end) = block(items, at)?;
                            if end.as_deref() != Some("end") {
                                return Err("missing {{end}}".into());
                            }
                            nodes.push(Node::If(branches, other));
                            break;
                        }
                        Some(e) if e.starts_with("else if ") => {
                            cond = pipe(&tokens(&e["else if ".len()..])?)?;
                        }
                        _ => return Err("unexpected EOF".into()),
                    }
                }
            }
            "range" | "with" => {
                let (vars, p) = declared(&words[1..])?;
                let (body, end) = block(items, at)?;
                let other = match end.as_deref() {
                    Some("end") => Vec::new(),
                    Some("else") => {
                        let (other, end) = block(items, at)?;
                        if end.as_deref() != Some("end") {
                            return Err("missing {{end}}".into());
                        }
                        other
                    }
                    _ => return Err("unexpected EOF".into()),
                };
                nodes.push(if first == "range" {
                    Node::Range(vars, p, body, other)
                } else {
                    Node::With(p, body, other)
                });
            }
            "define" | "template" | "block" | "break" | "continue" => {
                return Err(format!(
                    "kubesim's kubectl has no {{{{{first}}}}} in go-templates"
                ))
            }
            _ => nodes.push(Node::Print(pipe(&words)?)),
        }
    }
    Ok((nodes, None))
}
