//! CEL evaluation over a custom resource's values: CEL's types (int, uint, double, string,
//! bytes, bool, null, list, map), heterogeneous numeric comparison (as Kubernetes enables
//! it), the standard functions and macros, and Kubernetes' string, list and regex libraries.
//! Errors carry cel-go's texts (`no such key: x`, `no such overload`, `division by zero`,
//! `index out of bounds: 3`), which the validation messages quote.

use std::cmp::Ordering;
use std::rc::Rc;

use serde_json::Value;

use super::parse::{Expr, Lit};
use crate::resources::custom::structural::Schema;

/// A CEL value.
#[derive(Debug, Clone, PartialEq)]
pub enum Val {
    Null,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Double(f64),
    Str(String),
    Bytes(Vec<u8>),
    /// Shared: a reference to `self.items` does not copy the list.
    List(Rc<Vec<Val>>),
    /// Entries in their order (keys are strings for objects), shared as lists are.
    Map(Rc<Vec<(Val, Val)>>),
    /// The URL library's `kubernetes.URL`.
    Url(Rc<crate::resources::custom::neturl::Url>),
    /// `google.protobuf.Timestamp`.
    Timestamp(super::time::Ts),
    /// `google.protobuf.Duration`, in nanoseconds (Go's `time.Duration`).
    Duration(i64),
    /// The quantity library's `kubernetes.Quantity`.
    Quantity(super::quantity::Quantity),
    /// The IP library's `net.IP`.
    Ip(super::net::Addr),
    /// The CIDR library's `net.CIDR`.
    Cidr(super::net::Prefix),
    /// The semver library's `kubernetes.Semver`.
    Semver(Rc<super::semver::Version>),
    /// The format library's `kubernetes.NamedFormat`, by its name.
    Format(&'static str),
    /// An optional value (`optional_type`): none, or a value.
    Optional(Option<Rc<Val>>),
    /// A type, as `type(x)` gives it and type names (`string`, `net.IP`) denote it.
    Type(&'static str),
}

/// The types a rule may name: CEL's own and the Kubernetes libraries'.
pub(super) const TYPE_NAMES: &[&str] = &[
    "bool",
    "bytes",
    "double",
    "int",
    "list",
    "map",
    "null_type",
    "optional_type",
    "string",
    "type",
    "uint",
    "google.protobuf.Duration",
    "google.protobuf.Timestamp",
    "kubernetes.NamedFormat",
    "kubernetes.Quantity",
    "kubernetes.Semver",
    "kubernetes.URL",
    "net.CIDR",
    "net.IP",
];

impl From<&Lit> for Val {
    fn from(l: &Lit) -> Val {
        match l {
            Lit::Null => Val::Null,
            Lit::Bool(b) => Val::Bool(*b),
            Lit::Int(i) => Val::Int(*i),
            Lit::Uint(u) => Val::Uint(*u),
            Lit::Double(d) => Val::Double(*d),
            Lit::Str(s) => Val::Str(s.clone()),
            Lit::Bytes(b) => Val::Bytes(b.clone()),
        }
    }
}

/// The runtime cost one evaluation may spend (`PerCallLimit`), counted here as nodes visited.
pub const PER_CALL_LIMIT: u64 = 1_000_000;

/// cel-go's text when a call runs over [`PER_CALL_LIMIT`].
pub const COST_EXCEEDED: &str = "operation cancelled: actual cost limit exceeded";

impl Val {
    /// A JSON value as CEL sees it through its schema (`integer` ints, `number` doubles).
    pub fn from_json(v: &Value, s: Option<&Schema>) -> Val {
        match v {
            Value::Null => Val::Null,
            Value::Bool(b) => Val::Bool(*b),
            Value::Number(n) => {
                let ty = s.map_or("", |s| s.ty.as_str());
                match (ty, n.as_i64()) {
                    ("number", _) => Val::Double(n.as_f64().unwrap_or(0.0)),
                    (_, Some(i)) if !n.is_f64() => Val::Int(i),
                    ("integer", _) => Val::Int(n.as_f64().unwrap_or(0.0) as i64),
                    _ => Val::Double(n.as_f64().unwrap_or(0.0)),
                }
            }
            Value::String(t) => string_of(t, s),
            Value::Array(a) => {
                let item = s.and_then(|s| s.items.as_deref());
                Val::List(Rc::new(a.iter().map(|x| Val::from_json(x, item)).collect()))
            }
            Value::Object(m) => Val::Map(Rc::new(
                m.iter()
                    .map(|(k, x)| {
                        let sub = s.and_then(|s| s.properties.get(k).or(s.additional.as_deref()));
                        (Val::Str(k.clone()), Val::from_json(x, sub))
                    })
                    .collect(),
            )),
        }
    }

    /// The CEL type name, for `type()`.
    pub fn type_name(&self) -> &'static str {
        match self {
            Val::Null => "null_type",
            Val::Bool(_) => "bool",
            Val::Int(_) => "int",
            Val::Uint(_) => "uint",
            Val::Double(_) => "double",
            Val::Str(_) => "string",
            Val::Bytes(_) => "bytes",
            Val::List(_) => "list",
            Val::Map(_) => "map",
            Val::Url(_) => "kubernetes.URL",
            Val::Timestamp(_) => "google.protobuf.Timestamp",
            Val::Duration(_) => "google.protobuf.Duration",
            Val::Quantity(_) => "kubernetes.Quantity",
            Val::Ip(_) => "net.IP",
            Val::Cidr(_) => "net.CIDR",
            Val::Semver(_) => "kubernetes.Semver",
            Val::Optional(_) => "optional_type",
            Val::Format(_) => "kubernetes.NamedFormat",
            Val::Type(_) => "type",
        }
    }

    fn num(&self) -> Option<f64> {
        match self {
            Val::Int(i) => Some(*i as f64),
            Val::Uint(u) => Some(*u as f64),
            Val::Double(d) => Some(*d),
            _ => None,
        }
    }
}

/// A string value as its schema types it (`UnstructuredToVal`): a `date-time` or `date` a
/// timestamp, a `duration` a duration, a `byte` the bytes it encodes; else the string.
fn string_of(t: &str, s: Option<&Schema>) -> Val {
    use super::time;
    let typed = match s.map_or("", |s| s.format.as_str()) {
        "date-time" => time::date_time(t).map(Val::Timestamp),
        "date" => time::date(t).map(Val::Timestamp),
        "duration" => time::schema_duration(t).map(Val::Duration),
        "byte" => {
            use base64::Engine as _;
            base64::engine::general_purpose::STANDARD
                .decode(t)
                .ok()
                .map(Val::Bytes)
        }
        _ => None,
    };
    typed.unwrap_or_else(|| Val::Str(t.to_string()))
}

/// CEL equality: numbers across types, lists and maps element-wise.
pub(super) fn equal(a: &Val, b: &Val) -> bool {
    if let Some(o) = super::time::compare(a, b) {
        return o == Ordering::Equal;
    }
    if let Some(r) = library_equal(a, b) {
        return r.unwrap_or(false);
    }
    match (a, b) {
        (Val::Optional(x), Val::Optional(y)) => super::optional::equal_optionals(x, y),
        (Val::List(x), Val::List(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| equal(p, q))
        }
        (Val::Map(x), Val::Map(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.iter().any(|(k2, v2)| equal(k, k2) && equal(v, v2)))
        }
        _ => match (a.num(), b.num()) {
            (Some(x), Some(y)) => x == y,
            _ => a == b,
        },
    }
}

pub(super) fn compare(a: &Val, b: &Val) -> Result<Ordering, String> {
    if let Some(o) = super::time::compare(a, b) {
        return Ok(o);
    }
    match (a, b) {
        (Val::Str(x), Val::Str(y)) => Ok(x.cmp(y)),
        (Val::Bool(x), Val::Bool(y)) => Ok(x.cmp(y)),
        (Val::Bytes(x), Val::Bytes(y)) => Ok(x.cmp(y)),
        (Val::Int(x), Val::Int(y)) => Ok(x.cmp(y)),
        (Val::Uint(x), Val::Uint(y)) => Ok(x.cmp(y)),
        _ => match (a.num(), b.num()) {
            (Some(x), Some(y)) => x.partial_cmp(&y).ok_or_else(|| "no such overload".into()),
            _ => Err("no such overload".into()),
        },
    }
}

/// Variables in scope.
pub struct Scope<'a> {
    pub(super) vars: Vec<(String, Val)>,
    pub(super) steps: &'a mut u64,
}

impl<'a> Scope<'a> {
    /// A scope with `vars`, counting steps into `steps`.
    pub fn new(vars: Vec<(String, Val)>, steps: &'a mut u64) -> Self {
        Scope { vars, steps }
    }

    fn get(&self, name: &str) -> Option<&Val> {
        self.vars
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v)
    }
}

/// `types.IndexOrError`: a list index as an integer, when it is one without loss; the texts
/// both the plain and the presence (`[?]`) index give.
pub(super) fn list_index(i: &Val) -> Result<i64, String> {
    match i {
        Val::Int(n) => Ok(*n),
        Val::Uint(u) => {
            i64::try_from(*u).map_err(|_| format!("unsupported index value {u} in list"))
        }
        Val::Double(d) if d.fract() == 0.0 && d.abs() < 9.223_372_036_854_775e18 => Ok(*d as i64),
        Val::Double(_) => Err(format!("unsupported index value {} in list", display(i))),
        other => Err(format!(
            "unsupported index type '{}' in list",
            other.type_name()
        )),
    }
}

/// The equality of a library's values (quantities, versions), where it decides it.
fn library_equal(a: &Val, b: &Val) -> Option<Result<bool, String>> {
    super::quantity::equal(a, b).or_else(|| super::semver::equal(a, b))
}

/// The value of the field `field` names in an object: itself, or the property an escaped
/// name stands for (`foo__dash__bar` for `foo-bar`), unescaped once.
pub(super) fn field_of<'m>(m: &'m [(Val, Val)], field: &str) -> Option<&'m Val> {
    let named = |name: &str| {
        m.iter()
            .find(|(k, _)| matches!(k, Val::Str(s) if s == name))
            .map(|(_, v)| v)
    };
    named(field).or_else(|| super::escaping::unescape(field).and_then(|p| named(&p)))
}

/// Evaluates `e` in `scope`.
pub fn eval(e: &Expr, scope: &mut Scope<'_>) -> Result<Val, String> {
    *scope.steps += 1;
    if *scope.steps > PER_CALL_LIMIT {
        return Err(COST_EXCEEDED.into());
    }
    Ok(match e {
        Expr::Lit(l) => Val::from(l),
        Expr::Ident(id, _) => match scope.get(id) {
            Some(v) => v.clone(),
            None => match TYPE_NAMES.iter().find(|t| **t == id.as_str()) {
                Some(t) => Val::Type(t),
                None => return Err(format!("undeclared reference to '{id}' (in container '')")),
            },
        },
        Expr::List(items, _) => {
            let mut out = Vec::with_capacity(items.len());
            for x in items {
                match x {
                    Expr::Opt(x) => match eval(x, scope)? {
                        Val::Optional(Some(v)) => out.push((*v).clone()),
                        Val::Optional(None) => {}
                        v => {
                            return Err(format!(
                            "cannot initialize optional list element from non-optional value {}",
                            display(&v)
                        ))
                        }
                    },
                    x => out.push(eval(x, scope)?),
                }
            }
            Val::List(Rc::new(out))
        }
        Expr::Map(entries, _) => {
            let mut out: Vec<(Val, Val)> = Vec::new();
            for (k, v) in entries {
                let Expr::Opt(k) = k else {
                    out.push((eval(k, scope)?, eval(v, scope)?));
                    continue;
                };
                let (k, v) = (eval(k, scope)?, eval(v, scope)?);
                // A none entry also takes out an earlier one of the same key.
                out.retain(|(x, _)| !equal(x, &k));
                match v {
                    Val::Optional(Some(v)) => out.push((k, (*v).clone())),
                    Val::Optional(None) => {}
                    v => {
                        return Err(format!(
                            "cannot initialize optional entry '{}' from non-optional value {}",
                            display(&k),
                            display(&v)
                        ))
                    }
                }
            }
            Val::Map(Rc::new(out))
        }
        Expr::Opt(x) => eval(x, scope)?,
        // Any step on an optional, and every step of `.?` or `[?]`, tests for presence.
        Expr::OptSelect(operand, field, _) => match eval(operand, scope)? {
            Val::Optional(None) => super::optional::NONE,
            Val::Optional(Some(v)) => super::optional::select(&v, field),
            v => super::optional::select(&v, field),
        },
        Expr::OptIndex(operand, index, _) => match (eval(operand, scope)?, eval(index, scope)?) {
            (Val::Optional(None), _) => super::optional::NONE,
            (Val::Optional(Some(c)), i) => super::optional::index(&c, &i)?,
            (c, i) => super::optional::index(&c, &i)?,
        },
        Expr::Select(operand, field, _) => match eval(operand, scope)? {
            Val::Optional(None) => super::optional::NONE,
            Val::Optional(Some(v)) => super::optional::select(&v, field),
            Val::Map(m) => field_of(&m, field)
                .cloned()
                .ok_or_else(|| format!("no such key: {field}"))?,
            _ => return Err("no such overload".into()),
        },
        Expr::Has(operand, field, _) => match eval(operand, scope)? {
            Val::Optional(None) => Val::Bool(false),
            Val::Optional(Some(v)) => Val::Bool(matches!(
                super::optional::select(&v, field),
                Val::Optional(Some(_))
            )),
            Val::Map(m) => Val::Bool(field_of(&m, field).is_some()),
            _ => return Err("no such overload".into()),
        },
        Expr::Index(operand, index, _) => {
            let (c, i) = (eval(operand, scope)?, eval(index, scope)?);
            match (c, i) {
                (Val::Optional(None), _) => super::optional::NONE,
                (Val::Optional(Some(c)), i) => super::optional::index(&c, &i)?,
                (Val::List(l), i) => {
                    let n = list_index(&i)?;
                    usize::try_from(n)
                        .ok()
                        .and_then(|n| l.get(n).cloned())
                        .ok_or_else(|| format!("index out of bounds: {n}"))?
                }
                (Val::Map(m), k) => m
                    .iter()
                    .find(|(x, _)| equal(x, &k))
                    .map(|(_, v)| v.clone())
                    .ok_or_else(|| format!("no such key: {}", display(&k)))?,
                _ => return Err("no such overload".into()),
            }
        }
        Expr::Unary(op, x, _) => match (*op, eval(x, scope)?) {
            ("!", Val::Bool(b)) => Val::Bool(!b),
            ("-", Val::Int(i)) => Val::Int(i.checked_neg().ok_or("integer overflow")?),
            ("-", Val::Double(d)) => Val::Double(-d),
            _ => return Err("no such overload".into()),
        },
        Expr::Binary(op, l, r, _) => binary(op, l, r, scope)?,
        Expr::Cond(c, t, f, _) => match eval(c, scope)? {
            Val::Bool(true) => eval(t, scope)?,
            Val::Bool(false) => eval(f, scope)?,
            _ => return Err("no such overload".into()),
        },
        Expr::Call(target, name, args, _) => {
            let target = match target {
                Some(t) => Some(eval(t, scope)?),
                None => None,
            };
            // `or` and `orValue` leave their argument unread when the optional has a value;
            // on anything but an optional they give it back (cel-go 0.26, of Kubernetes 1.36).
            if let (Some(t), "or" | "orValue", [arg]) = (&target, name.as_str(), args.as_slice()) {
                return match t {
                    Val::Optional(Some(v)) if name == "orValue" => Ok((**v).clone()),
                    Val::Optional(None) => eval(arg, scope),
                    _ => Ok(t.clone()),
                };
            }
            let args = args
                .iter()
                .map(|a| eval(a, scope))
                .collect::<Result<Vec<_>, _>>()?;
            super::functions::call(target, name, args)?
        }
        Expr::Macro(kind, range, var, body, filter, _) => {
            super::comprehension::one(kind, range, var, body, filter.as_deref(), scope)?
        }
        Expr::Comp2(kind, range, vars, body, filter, _) => {
            super::comprehension::two(kind, range, vars, body, filter.as_deref(), scope)?
        }
    })
}

fn binary(op: &str, l: &Expr, r: &Expr, scope: &mut Scope<'_>) -> Result<Val, String> {
    if op == "&&" || op == "||" {
        // Errors are absorbed by a deciding operand on either side.
        let short = op == "||";
        let a = eval(l, scope);
        if matches!(a, Ok(Val::Bool(b)) if b == short) {
            return Ok(Val::Bool(short));
        }
        let b = eval(r, scope);
        return match (a, b) {
            (_, Ok(Val::Bool(b))) if b == short => Ok(Val::Bool(short)),
            (Ok(Val::Bool(_)), Ok(Val::Bool(b))) => Ok(Val::Bool(b)),
            (Err(e), _) | (_, Err(e)) => Err(e),
            _ => Err("no such overload".into()),
        };
    }
    let (a, b) = (eval(l, scope)?, eval(r, scope)?);
    if op == "==" || op == "!=" {
        let kind = library_equal(&a, &b);
        if let Some(r) = kind {
            return r.map(|eq| Val::Bool(eq == (op == "==")));
        }
    }
    Ok(match op {
        "==" => Val::Bool(equal(&a, &b)),
        "!=" => Val::Bool(!equal(&a, &b)),
        "<" => Val::Bool(compare(&a, &b)? == Ordering::Less),
        "<=" => Val::Bool(compare(&a, &b)? != Ordering::Greater),
        ">" => Val::Bool(compare(&a, &b)? == Ordering::Greater),
        ">=" => Val::Bool(compare(&a, &b)? != Ordering::Less),
        "in" => match b {
            Val::List(l) => Val::Bool(l.iter().any(|x| equal(x, &a))),
            Val::Map(m) => Val::Bool(m.iter().any(|(k, _)| equal(k, &a))),
            _ => return Err("no such overload".into()),
        },
        _ => arithmetic(op, a, b)?,
    })
}

fn arithmetic(op: &str, a: Val, b: Val) -> Result<Val, String> {
    if let Some(r) = super::time::arithmetic(op, &a, &b) {
        return r;
    }
    let overflow = || "integer overflow".to_string();
    Ok(match (op, a, b) {
        ("+", Val::Str(x), Val::Str(y)) => Val::Str(x + &y),
        ("+", Val::Bytes(mut x), Val::Bytes(y)) => {
            x.extend(y);
            Val::Bytes(x)
        }
        ("+", Val::List(x), Val::List(y)) => {
            Val::List(Rc::new(x.iter().chain(y.iter()).cloned().collect()))
        }
        (op, Val::Int(x), Val::Int(y)) => Val::Int(match op {
            "+" => x.checked_add(y).ok_or_else(overflow)?,
            "-" => x.checked_sub(y).ok_or_else(overflow)?,
            "*" => x.checked_mul(y).ok_or_else(overflow)?,
            "/" if y == 0 => return Err("division by zero".into()),
            "/" => x.checked_div(y).ok_or_else(overflow)?,
            "%" if y == 0 => return Err("modulus by zero".into()),
            _ => x.checked_rem(y).ok_or_else(overflow)?,
        }),
        (op, Val::Uint(x), Val::Uint(y)) => Val::Uint(match op {
            "+" => x.checked_add(y).ok_or_else(overflow)?,
            "-" => x.checked_sub(y).ok_or_else(overflow)?,
            "*" => x.checked_mul(y).ok_or_else(overflow)?,
            "/" if y == 0 => return Err("division by zero".into()),
            "/" => x / y,
            "%" if y == 0 => return Err("modulus by zero".into()),
            _ => x % y,
        }),
        (op, Val::Double(x), Val::Double(y)) => Val::Double(match op {
            "+" => x + y,
            "-" => x - y,
            "*" => x * y,
            "/" => x / y,
            _ => return Err("no such overload".into()),
        }),
        _ => return Err("no such overload".into()),
    })
}

/// A value as `string()` and error texts print it.
pub fn display(v: &Val) -> String {
    match v {
        Val::Null => "null".into(),
        Val::Bool(b) => b.to_string(),
        Val::Int(i) => i.to_string(),
        Val::Uint(u) => u.to_string(),
        Val::Double(d) => crate::resources::field::go_v_float(*d),
        Val::Str(s) => s.clone(),
        Val::Bytes(b) => String::from_utf8_lossy(b).into_owned(),
        Val::Url(u) => u.text.clone(),
        Val::Timestamp(t) => t.format(),
        Val::Duration(d) => super::time::format_duration(*d),
        // Not printable in CEL (no `string()` overload); error texts show the value.
        Val::Quantity(q) => format!("{}n", q.nanos),
        Val::Ip(a) => a.to_string(),
        Val::Cidr(p) => p.to_string(),
        Val::Semver(v) => v.to_string(),
        Val::Type(t) => (*t).to_string(),
        Val::Optional(Some(v)) => format!("optional({})", display(v)),
        Val::Optional(None) => "optional.none()".into(),
        Val::Format(f) => (*f).to_string(),
        Val::List(l) => format!("[{}]", l.iter().map(display).collect::<Vec<_>>().join(", ")),
        Val::Map(m) => format!(
            "{{{}}}",
            m.iter()
                .map(|(k, v)| format!("{}: {}", display(k), display(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}
