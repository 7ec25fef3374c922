//! `-o go-template=...`: the part of Go's `text/template` that kubectl templates use, over
//! an object as `map[string]interface{}` (integers as `int64`, other numbers `float64`):
//! text, `{{.a.b}}`, `{{$}}` and variables, `{{range}}` (with `$i, $v :=` and `{{else}}`),
//! `{{if}}`/`{{else if}}`/`{{else}}`, `{{with}}`, comments, `{{-`/`-}}` trimming, string,
//! number and boolean literals, and the functions `index`, `len`, `printf` (`%s %d %v %q`),
//! `print`, `println`, `eq`, `ne`, `lt`, `gt`, `not`, `and`, `or`, and kubectl's `exists`
//! and `base64decode`. A missing key prints `<no value>`, as kubectl's printer allows
//! missing keys. Written by hand: the output must be Go's byte for byte.

use base64::Engine as _;
use serde_json::Value;

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
        run(&self.0, Some(obj.clone()), &mut vars, &mut out)?;
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

/// Go's truth: false, 0, nil, and empty strings, lists and maps are false.
fn truth(v: &Found) -> bool {
    match v {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_f64() != Some(0.0),
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(a)) => !a.is_empty(),
        Some(Value::Object(m)) => !m.is_empty(),
    }
}

/// `%v` of a value in an `interface{}`.
pub fn go_text(v: &Found) -> String {
    match v {
        None => "<no value>".into(),
        Some(Value::Null) => "<nil>".into(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Bool(b)) => b.to_string(),
        Some(Value::Number(n)) => match n.as_i64() {
            Some(i) => i.to_string(),
            None => crate::codec::yaml::float::format_g(n.as_f64().unwrap_or(0.0)),
        },
        Some(Value::Array(a)) => {
            let items: Vec<String> = a.iter().map(|x| go_text(&Some(x.clone()))).collect();
            format!("[{}]", items.join(" "))
        }
        Some(Value::Object(m)) => {
            let mut keys: Vec<&String> = m.keys().collect();
            crate::sort::sort(&mut keys);
            let pairs: Vec<String> = keys
                .iter()
                .map(|k| format!("{k}:{}", go_text(&Some(m[k.as_str()].clone()))))
                .collect();
            format!("map[{}]", pairs.join(" "))
        }
    }
}

fn field(base: Found, path: &[String]) -> Result<Found, String> {
    let mut cur = base;
    for p in path {
        cur = match cur {
            Some(Value::Object(m)) => m.get(p).cloned(),
            None | Some(Value::Null) => None,
            Some(other) => {
                return Err(format!(
                    "can't evaluate field {p} in type {}",
                    go_type(&other)
                ))
            }
        };
    }
    Ok(cur)
}

fn go_type(v: &Value) -> &'static str {
    match v {
        Value::String(_) => "string",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_i64() => "int64",
        Value::Number(_) => "float64",
        Value::Array(_) => "[]interface {}",
        Value::Object(_) => "map[string]interface {}",
        Value::Null => "interface {}",
    }
}

fn eval_arg(a: &Arg, dot: &Found, vars: &[(String, Value)]) -> Result<Found, String> {
    match a {
        Arg::Field(None, path) => field(dot.clone(), path),
        Arg::Field(Some(var), path) => {
            let base = vars
                .iter()
                .rev()
                .find(|(n, _)| n == var)
                .map(|(_, v)| v.clone())
                .ok_or_else(|| format!("undefined variable: ${var}"))?;
            field(Some(base), path)
        }
        Arg::Lit(v) => Ok(Some(v.clone())),
        Arg::Sub(p, path) => field(eval(p, dot, vars)?, path),
    }
}

fn printf(format: &str, args: &[Found]) -> String {
    let mut out = String::new();
    let mut args = args.iter();
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('%') => out.push('%'),
            Some('q') => {
                let a = args.next().cloned().flatten();
                out.push_str(&crate::codec::goquote::go_quote(&go_text(&a)));
            }
            Some(verb @ ('s' | 'd' | 'v')) => match args.next() {
                Some(a) => out.push_str(&go_text(a)),
                None => out.push_str(&format!("%!{verb}(MISSING)")),
            },
            Some(other) => {
                out.push('%');
                out.push(other);
            }
            None => out.push_str("%!(NOVERB)"),
        }
    }
    out
}

fn compare(op: &str, a: &Found, b: &Found) -> Result<bool, String> {
    let (a, b) = (
        a.clone().unwrap_or(Value::Null),
        b.clone().unwrap_or(Value::Null),
    );
    let ord = match (&a, &b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64().partial_cmp(&y.as_f64()),
        (Value::String(x), Value::String(y)) => Some(x.cmp(y)),
        (Value::Bool(x), Value::Bool(y)) if matches!(op, "eq" | "ne") => Some(x.cmp(y)),
        _ if matches!(op, "eq" | "ne") => return Ok((a == b) == (op == "eq")),
        _ => return Err("incompatible types for comparison".into()),
    };
    let ord = ord.ok_or("incompatible types for comparison")?;
    Ok(match op {
        "eq" => ord.is_eq(),
        "ne" => !ord.is_eq(),
        "lt" => ord.is_lt(),
        "le" => ord.is_le(),
        "gt" => ord.is_gt(),
        _ => ord.is_ge(),
    })
}

fn eval(p: &Pipe, dot: &Found, vars: &[(String, Value)]) -> Result<Found, String> {
    let (name, args) = match p {
        Pipe::Arg(a) => return eval_arg(a, dot, vars),
        Pipe::Call(n, a) => (n.as_str(), a),
    };
    let mut vals = Vec::new();
    for a in args {
        vals.push(eval_arg(a, dot, vars)?);
    }
    let text = |s: String| Ok(Some(Value::String(s)));
    match (name, vals.as_slice()) {
        ("len", [v]) => match v {
            Some(Value::String(s)) => Ok(Some(Value::from(s.len() as i64))),
            Some(Value::Array(a)) => Ok(Some(Value::from(a.len() as i64))),
            Some(Value::Object(m)) => Ok(Some(Value::from(m.len() as i64))),
            _ => Err("error calling len: len of nil pointer".into()),
        },
        ("index", [base, keys @ ..]) => {
            let mut cur = base.clone();
            for k in keys {
                cur = match (cur, k) {
                    (Some(Value::Object(m)), Some(Value::String(s))) => m.get(s).cloned(),
                    (Some(Value::Array(a)), Some(Value::Number(n))) => {
                        let i = n.as_i64().unwrap_or(-1);
                        match usize::try_from(i).ok().and_then(|i| a.get(i)) {
                            Some(v) => Some(v.clone()),
                            None => {
                                return Err(format!("error calling index: index out of range: {i}"))
                            }
                        }
                    }
                    (None | Some(Value::Null), _) => None,
                    _ => return Err("error calling index: cannot index".into()),
                };
            }
            Ok(cur)
        }
        ("printf", [Some(Value::String(f)), rest @ ..]) => text(printf(f, rest)),
        ("print", all) => {
            // Go's Sprint: spaces only between operands that are not both strings.
            let mut s = String::new();
            for (i, v) in all.iter().enumerate() {
                let is_str = matches!(v, Some(Value::String(_)));
                let prev_str = i > 0 && matches!(all[i - 1], Some(Value::String(_)));
                if i > 0 && !is_str && !prev_str {
                    s.push(' ');
                }
                s.push_str(&go_text(v));
            }
            text(s)
        }
        ("println", all) => {
            let parts: Vec<String> = all.iter().map(go_text).collect();
            text(format!("{}\n", parts.join(" ")))
        }
        ("not", [v]) => Ok(Some(Value::Bool(!truth(v)))),
        ("and", all) if !all.is_empty() => Ok(all
            .iter()
            .find(|v| !truth(v))
            .cloned()
            .unwrap_or_else(|| all[all.len() - 1].clone())),
        ("or", all) if !all.is_empty() => Ok(all
            .iter()
            .find(|v| truth(v))
            .cloned()
            .unwrap_or_else(|| all[all.len() - 1].clone())),
        (op @ ("eq" | "ne" | "lt" | "le" | "gt" | "ge"), [a, b]) => {
            Ok(Some(Value::Bool(compare(op, a, b)?)))
        }
        ("exists", [base, keys @ ..]) => {
            let mut cur = base.clone();
            for k in keys {
                cur = match (cur, k) {
                    (Some(Value::Object(m)), Some(Value::String(s))) => m.get(s).cloned(),
                    _ => None,
                };
            }
            Ok(Some(Value::Bool(cur.is_some())))
        }
        ("base64decode", [Some(Value::String(s))]) => {
            match base64::engine::general_purpose::STANDARD.decode(s) {
                Ok(bytes) => text(String::from_utf8_lossy(&bytes).into_owned()),
                Err(e) => Err(format!("base64decode: {e}")),
            }
        }
        (f, _) => Err(format!("wrong number of args for {f}")),
    }
}

fn run(
    nodes: &[Node],
    dot: Found,
    vars: &mut Vec<(String, Value)>,
    out: &mut String,
) -> Result<(), String> {
    for node in nodes {
        match node {
            Node::Text(t) => out.push_str(t),
            Node::Print(p) => out.push_str(&go_text(&eval(p, &dot, vars)?)),
            Node::If(branches, other) => {
                let mut taken = false;
                for (cond, body) in branches {
                    if truth(&eval(cond, &dot, vars)?) {
                        run(body, dot.clone(), vars, out)?;
                        taken = true;
                        break;
                    }
                }
                if !taken {
                    run(other, dot.clone(), vars, out)?;
                }
            }
            Node::With(p, body, other) => {
                let v = eval(p, &dot, vars)?;
                if truth(&v) {
                    run(body, v, vars, out)?;
                } else {
                    run(other, dot.clone(), vars, out)?;
                }
            }
            Node::Range(names, p, body, other) => {
                let v = eval(p, &dot, vars)?;
                // Maps range in key order; each element becomes the dot.
                let items: Vec<(Value, Value)> = match v {
                    Some(Value::Array(a)) => a
                        .into_iter()
                        .enumerate()
                        .map(|(i, x)| (Value::from(i as i64), x))
                        .collect(),
                    Some(Value::Object(m)) => {
                        let mut keys: Vec<String> = m.keys().cloned().collect();
                        crate::sort::sort(&mut keys);
                        keys.into_iter()
                            .map(|k| (Value::String(k.clone()), m[&k].clone()))
                            .collect()
                    }
                    None | Some(Value::Null) => Vec::new(),
                    Some(other) => {
                        return Err(format!(
                            "range can't iterate over {}",
                            go_text(&Some(other))
                        ))
                    }
                };
                if items.is_empty() {
                    run(other, dot.clone(), vars, out)?;
                }
                for (k, x) in items {
                    let depth = vars.len();
                    match names {
                        Some((v, None)) => vars.push((v.clone(), x.clone())),
                        Some((i, Some(v))) => {
                            vars.push((i.clone(), k));
                            vars.push((v.clone(), x.clone()));
                        }
                        None => {}
                    }
                    run(body, Some(x), vars, out)?;
                    vars.truncate(depth);
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::GoTemplate;
    use serde_json::json;

    #[test]
    fn templates_print_as_go_prints_them() {
        let obj = json!({"items": [
            {"metadata": {"name": "a", "labels": {"t": "x"}}, "data": {"k": "dg=="}, "n": 2},
            {"metadata": {"name": "b"}, "n": 1.5}
        ], "kind": "List"});
        for (t, want) in [
            ("{{range .items}}{{.metadata.name}}{{\"\\n\"}}{{end}}", "a\nb\n"),
            ("{{.kind}} {{.nope}}", "List <no value>"),
            ("{{len .items}}", "2"),
            ("{{range $i, $x := .items}}{{$i}}={{$x.n}} {{end}}", "0=2 1=1.5 "),
            ("{{range .items}}{{if .metadata.labels}}{{.metadata.labels.t}}{{else}}-{{end}}{{end}}", "x-"),
            ("{{index .items 0 \"metadata\" \"name\"}}", "a"),
            ("{{(index .items 0).metadata.name}}", "a"),
            ("{{printf \"%s/%d\" .kind 3}}", "List/3"),
            ("{{with .nope}}yes{{else}}no{{end}}", "no"),
            ("{{- range .items -}} {{ .metadata.name }} {{- end}}", "ab"),
            ("{{base64decode (index .items 0).data.k}}", "v"),
            ("{{if eq .kind \"List\"}}list{{end}}", "list"),
            ("{{/* a comment */}}x", "x"),
            ("{{range .items}}{{.metadata}}{{end}}", "map[labels:map[t:x] name:a]map[name:b]"),
        ] {
            let got = GoTemplate::parse(t).and_then(|g| g.execute(&obj));
            assert_eq!(got.as_deref(), Ok(want), "{t}");
        }
        assert!(GoTemplate::parse("{{range .items}}").is_err());
        assert!(GoTemplate::parse("{{.a | printf \"%s\"}}").is_err());
    }
}
