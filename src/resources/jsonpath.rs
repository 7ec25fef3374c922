//! client-go's `util/jsonpath`, as printer columns, selectable fields (a path, its first
//! match) and kubectl's templates (`-o jsonpath=...`, `custom-columns`) use it: text outside braces
//! printed as it is, `{.path}` printing every match separated by spaces, `{"\n"}` literals,
//! `{range .items[*]}...{end}`; paths with `.field`, `['field']`, `[n]`, `[*]`, `.*` and
//! `[?(@.a.b == "x")]` filters. Strings print raw, other values as JSON (client-go's
//! `jsonpath` does the same through `evalToText`).

use serde_json::Value;

#[derive(Debug, Clone, PartialEq)]
enum Step {
    Field(String),
    Index(i64),
    All,
    Filter(Vec<String>, bool, Value),
}

#[derive(Debug, Clone, PartialEq)]
enum Part {
    Text(String),
    Path(Vec<Step>),
    Range(Vec<Step>, Vec<Part>),
}

/// A parsed template.
#[derive(Debug, Clone, PartialEq)]
pub struct Template(Vec<Part>);

fn path(text: &str) -> Result<Vec<Step>, String> {
    let t = text.trim();
    let b = t.as_bytes();
    let mut i = 0;
    let mut steps = Vec::new();
    while i < b.len() {
        match b[i] {
            b'.' => {
                i += 1;
                let start = i;
                while i < b.len() && b[i] != b'.' && b[i] != b'[' {
                    i += 1;
                }
                match &t[start..i] {
                    "" => {}
                    "*" => steps.push(Step::All),
                    f => steps.push(Step::Field(f.to_string())),
                }
            }
            b'[' => {
                let end = t[i..]
                    .find(']')
                    .ok_or_else(|| format!("unterminated array in {t:?}"))?
                    + i;
                steps.push(bracket(t[i + 1..end].trim())?);
                i = end + 1;
            }
            b'@' | b'$' => i += 1,
            _ => {
                let start = i;
                while i < b.len() && b[i] != b'.' && b[i] != b'[' {
                    i += 1;
                }
                steps.push(Step::Field(t[start..i].to_string()));
            }
        }
    }
    Ok(steps)
}

fn unquote(s: &str) -> Option<&str> {
    s.strip_prefix('\'')
        .and_then(|s| s.strip_suffix('\''))
        .or_else(|| s.strip_prefix('"').and_then(|s| s.strip_suffix('"')))
}

fn bracket(inner: &str) -> Result<Step, String> {
    if inner == "*" {
        return Ok(Step::All);
    }
    if let Some(f) = unquote(inner) {
        return Ok(Step::Field(f.to_string()));
    }
    if let Some(expr) = inner.strip_prefix("?(").and_then(|s| s.strip_suffix(')')) {
        let (lhs, equal, rhs) = if let Some((l, r)) = expr.split_once("==") {
            (l, true, r)
        } else if let Some((l, r)) = expr.split_once("!=") {
            (l, false, r)
        } else {
            return Err(format!("unrecognized filter {expr:?}"));
        };
        let fields = lhs
            .trim()
            .trim_start_matches('@')
            .split('.')
            .filter(|p| !p.is_empty())
            .map(str::to_string)
            .collect();
        let rhs = rhs.trim();
        let want = match unquote(rhs) {
            Some(s) => Value::String(s.to_string()),
            None => serde_json::from_str(rhs).map_err(|e| e.to_string())?,
        };
        return Ok(Step::Filter(fields, equal, want));
    }
    inner
        .parse::<i64>()
        .map(Step::Index)
        .map_err(|_| format!("invalid array index {inner}"))
}

fn literal(expr: &str) -> Option<String> {
    let inner = unquote(expr.trim())?;
    Some(
        inner
            .replace("\\n", "\n")
            .replace("\\t", "\t")
            .replace("\\r", "\r"),
    )
}

impl Template {
    /// Parses a template; a bare path (`.metadata.name`) is taken as `{.metadata.name}`, as
    /// custom-columns writes its paths.
    pub fn parse(text: &str) -> Result<Template, String> {
        if !text.contains('{') {
            return Ok(Template(vec![Part::Path(path(text)?)]));
        }
        let mut stack: Vec<(Vec<Step>, Vec<Part>)> = vec![(Vec::new(), Vec::new())];
        let mut rest = text;
        while !rest.is_empty() {
            let Some(open) = rest.find('{') else {
                stack
                    .last_mut()
                    .unwrap()
                    .1
                    .push(Part::Text(rest.to_string()));
                break;
            };
            if open > 0 {
                stack
                    .last_mut()
                    .unwrap()
                    .1
                    .push(Part::Text(rest[..open].to_string()));
            }
            let close = rest[open..]
                .find('}')
                .ok_or_else(|| "unclosed action".to_string())?
                + open;
            let expr = rest[open + 1..close].trim();
            rest = &rest[close + 1..];
            if let Some(r) = expr.strip_prefix("range ") {
                stack.push((path(r)?, Vec::new()));
            } else if expr == "end" {
                if stack.len() < 2 {
                    return Err("not in range, nothing to end".into());
                }
                let (p, body) = stack.pop().unwrap();
                stack.last_mut().unwrap().1.push(Part::Range(p, body));
            } else if let Some(l) = literal(expr) {
                stack.last_mut().unwrap().1.push(Part::Text(l));
            } else {
                stack.last_mut().unwrap().1.push(Part::Path(path(expr)?));
            }
        }
        if stack.len() != 1 {
            return Err("unclosed range".into());
        }
        Ok(Template(stack.pop().unwrap().1))
    }

    /// The template's text for `obj`.
    pub fn execute(&self, obj: &Value) -> String {
        let mut out = String::new();
        run(&self.0, obj, &mut out);
        out
    }

    /// The first value a single-path template finds (a printer column's cell).
    pub fn first<'a>(&self, obj: &'a Value) -> Option<&'a Value> {
        match self.0.as_slice() {
            [Part::Path(p)] => find(p, obj).into_iter().next(),
            _ => None,
        }
    }

    /// What each of the template's parts finds (a text part: itself), as
    /// `-o jsonpath-as-json` prints them, one JSON list per part; a range finds nothing.
    pub fn results(&self, obj: &Value) -> Vec<Vec<Value>> {
        self.0
            .iter()
            .map(|part| match part {
                Part::Text(t) => vec![Value::String(t.clone())],
                Part::Path(p) => find(p, obj).into_iter().cloned().collect(),
                Part::Range(..) => Vec::new(),
            })
            .collect()
    }

    /// The values of a template that is a single path (a custom column), each as printed.
    pub fn values(&self, obj: &Value) -> Vec<String> {
        match self.0.as_slice() {
            [Part::Path(p)] => find(p, obj).into_iter().map(text).collect(),
            _ => vec![self.execute(obj)],
        }
    }
}

fn run(parts: &[Part], obj: &Value, out: &mut String) {
    for part in parts {
        match part {
            Part::Text(t) => out.push_str(t),
            Part::Path(p) => {
                let found: Vec<String> = find(p, obj).into_iter().map(text).collect();
                out.push_str(&found.join(" "));
            }
            Part::Range(p, body) => {
                for item in find(p, obj) {
                    run(body, item, out);
                }
            }
        }
    }
}

fn find<'a>(steps: &[Step], obj: &'a Value) -> Vec<&'a Value> {
    let mut current = vec![obj];
    for step in steps {
        let mut next = Vec::new();
        for v in current {
            match step {
                Step::Field(f) => next.extend(v.get(f.as_str())),
                Step::Index(n) => {
                    if let Some(a) = v.as_array() {
                        let at = if *n < 0 { a.len() as i64 + n } else { *n };
                        next.extend(usize::try_from(at).ok().and_then(|i| a.get(i)));
                    }
                }
                Step::All => match v {
                    Value::Array(a) => next.extend(a.iter()),
                    Value::Object(m) => next.extend(m.values()),
                    _ => {}
                },
                Step::Filter(fields, equal, want) => {
                    for item in v.as_array().into_iter().flatten() {
                        let mut at = Some(item);
                        for f in fields {
                            at = at.and_then(|x| x.get(f.as_str()));
                        }
                        if at.is_some_and(|got| (got == want) == *equal) {
                            next.push(item);
                        }
                    }
                }
            }
        }
        current = next;
    }
    current
}

/// How a found value prints: strings raw, everything else as JSON.
pub fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => crate::codec::json::to_compact_string(other),
    }
}

#[cfg(test)]
mod tests {
    use super::Template;
    use serde_json::json;

    #[test]
    fn templates_print_every_match() {
        let list = json!({"items": [
            {"metadata": {"name": "a", "labels": {"t": "x"}}},
            {"metadata": {"name": "b"}}
        ]});
        for (t, want) in [
            ("{.items[*].metadata.name}", "a b"),
            ("{range .items[*]}{.metadata.name}{\"\\n\"}{end}", "a\nb\n"),
            ("names: {.items[0].metadata.name}", "names: a"),
            ("{.items[?(@.metadata.name==\"b\")].metadata.name}", "b"),
            ("{.items[0].metadata.labels}", "{\"t\":\"x\"}"),
            ("{.items[5].metadata.name}", ""),
        ] {
            assert_eq!(Template::parse(t).unwrap().execute(&list), want, "{t}");
        }
        assert!(Template::parse("{range .items[*]}").is_err());
        let first = Template::parse("{.items[*].metadata.name}").unwrap();
        assert_eq!(first.first(&list), Some(&json!("a")));
        assert_eq!(
            Template::parse(".items[1].metadata.name")
                .unwrap()
                .first(&list),
            Some(&json!("b"))
        );
    }
}
