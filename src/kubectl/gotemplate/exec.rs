//! Executing a parsed template: Go's truth, `%v` printing, field lookups, the functions,
//! and `range`/`if`/`with` over the dot and the variables.

use base64::Engine as _;
use serde_json::Value;

use super::{Arg, Found, Node, Pipe};

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

/// `%v` of what an action found: `<no value>` for a missing key.
pub fn go_text(v: &Found) -> String {
    match v {
        None => "<no value>".into(),
        Some(v) => crate::kubectl::printers::go_value(v),
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

pub(super) fn run(
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
