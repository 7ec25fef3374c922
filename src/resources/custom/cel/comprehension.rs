//! The macros that bind variables: the standard one-variable comprehensions (`all`,
//! `exists`, `exists_one`, `map`, `filter`), the two-variable ones of
//! `ext.TwoVarComprehensions` (`all`, `exists`, `existsOne` over index and element or key and
//! value; `transformList`, `transformMap`, `transformMapEntry`), the lists extension's
//! `sortBy`, and the optional library's `optMap` and `optFlatMap`.

use std::rc::Rc;

use super::eval::{display, equal, eval, Scope, Val};
use super::parse::Expr;

/// `e` evaluated with `bindings` added to the scope.
fn with(scope: &mut Scope<'_>, bindings: &[(&str, Val)], e: &Expr) -> Result<Val, String> {
    for (name, v) in bindings {
        scope.vars.push((name.to_string(), v.clone()));
    }
    let out = eval(e, scope);
    scope.vars.truncate(scope.vars.len() - bindings.len());
    out
}

fn truth(v: Result<Val, String>) -> Result<bool, String> {
    match v {
        Ok(Val::Bool(b)) => Ok(b),
        Ok(_) => Err("no such overload".to_string()),
        Err(e) => Err(e),
    }
}

/// A one-variable macro: `kind` over `range`'s elements (a map's keys).
pub(super) fn one(
    kind: &str,
    range: &Expr,
    var: &str,
    body: &Expr,
    filter: Option<&Expr>,
    scope: &mut Scope<'_>,
) -> Result<Val, String> {
    if kind == "optMap" || kind == "optFlatMap" {
        return opt_map(kind, range, var, body, scope);
    }
    let items: Vec<Val> = match eval(range, scope)? {
        Val::List(l) => l.to_vec(),
        Val::Map(m) => m.iter().map(|(k, _)| k.clone()).collect(),
        _ => return Err("no such overload".into()),
    };
    let pairs: Vec<[Val; 1]> = items.into_iter().map(|x| [x]).collect();
    let vars = [var];
    let run =
        |scope: &mut Scope<'_>, x: &[Val; 1], e: &Expr| with(scope, &[(vars[0], x[0].clone())], e);
    Ok(match kind {
        "all" | "exists" => quantify(kind == "exists", &pairs, body, scope, run)?,
        "exists_one" => exactly_one(&pairs, body, scope, run)?,
        "filter" => {
            let mut out = Vec::new();
            for x in &pairs {
                if truth(run(scope, x, body))? {
                    out.push(x[0].clone());
                }
            }
            Val::List(Rc::new(out))
        }
        "sortBy" => {
            let items: Vec<Val> = pairs.iter().map(|x| x[0].clone()).collect();
            let mut keys = Vec::with_capacity(items.len());
            for x in &pairs {
                keys.push(run(scope, x, body)?);
            }
            super::lists::sort_by_keys(&items, &keys)?
        }
        _ => {
            let mut out = Vec::new();
            for x in &pairs {
                if let Some(f) = filter {
                    if !truth(run(scope, x, f))? {
                        continue;
                    }
                }
                out.push(run(scope, x, body)?);
            }
            Val::List(Rc::new(out))
        }
    })
}

/// `all` (`exists`): stops at the first false (true); an error is the answer only when no
/// element decides, as `&&` and `||` absorb them.
fn quantify<X>(
    want: bool,
    items: &[X],
    body: &Expr,
    scope: &mut Scope<'_>,
    run: impl Fn(&mut Scope<'_>, &X, &Expr) -> Result<Val, String>,
) -> Result<Val, String> {
    let mut err = None;
    for x in items {
        match truth(run(scope, x, body)) {
            Ok(b) if b == want => return Ok(Val::Bool(want)),
            Ok(_) => {}
            Err(e) => err = Some(e),
        }
    }
    match err {
        Some(e) => Err(e),
        None => Ok(Val::Bool(!want)),
    }
}

/// `exists_one`: every element looked at, errors not absorbed.
fn exactly_one<X>(
    items: &[X],
    body: &Expr,
    scope: &mut Scope<'_>,
    run: impl Fn(&mut Scope<'_>, &X, &Expr) -> Result<Val, String>,
) -> Result<Val, String> {
    let mut n = 0;
    for x in items {
        if truth(run(scope, x, body))? {
            n += 1;
        }
    }
    Ok(Val::Bool(n == 1))
}

/// A two-variable macro: over a list's indexes and elements, or a map's keys and values.
pub(super) fn two(
    kind: &str,
    range: &Expr,
    vars: &[String; 2],
    body: &Expr,
    filter: Option<&Expr>,
    scope: &mut Scope<'_>,
) -> Result<Val, String> {
    let pairs: Vec<(Val, Val)> = match eval(range, scope)? {
        Val::List(l) => l
            .iter()
            .enumerate()
            .map(|(i, x)| (Val::Int(i as i64), x.clone()))
            .collect(),
        Val::Map(m) => m.to_vec(),
        v => {
            return Err(format!(
                "unsupported comprehension range type: {}",
                v.type_name()
            ))
        }
    };
    let run = |scope: &mut Scope<'_>, (a, b): &(Val, Val), e: &Expr| {
        with(scope, &[(&vars[0], a.clone()), (&vars[1], b.clone())], e)
    };
    let kept = |scope: &mut Scope<'_>, x: &(Val, Val)| match filter {
        Some(f) => truth(run(scope, x, f)),
        None => Ok(true),
    };
    Ok(match kind {
        "all" | "exists" => quantify(kind == "exists", &pairs, body, scope, run)?,
        "existsOne" => exactly_one(&pairs, body, scope, run)?,
        "transformList" => {
            let mut out = Vec::new();
            for x in &pairs {
                if kept(scope, x)? {
                    out.push(run(scope, x, body)?);
                }
            }
            Val::List(Rc::new(out))
        }
        _ => {
            let mut out: Vec<(Val, Val)> = Vec::new();
            for x in &pairs {
                if !kept(scope, x)? {
                    continue;
                }
                let entries = match (kind, run(scope, x, body)?) {
                    ("transformMap", v) => vec![(x.0.clone(), v)],
                    (_, Val::Map(m)) => m.to_vec(),
                    _ => return Err("no such overload".into()),
                };
                for (k, v) in entries {
                    if out.iter().any(|(o, _)| equal(o, &k)) {
                        return Err(format!("insert failed: key {} already exists", display(&k)));
                    }
                    out.push((k, v));
                }
            }
            Val::Map(Rc::new(out))
        }
    })
}

/// `x.optMap(v, e)`: `optional.of(e)` with `v` bound to `x`'s value, none for none;
/// `optFlatMap`'s `e` is the optional itself.
fn opt_map(
    kind: &str,
    x: &Expr,
    var: &str,
    body: &Expr,
    scope: &mut Scope<'_>,
) -> Result<Val, String> {
    match eval(x, scope)? {
        Val::Optional(None) => Ok(super::optional::NONE),
        Val::Optional(Some(v)) => match (kind, with(scope, &[(var, (*v).clone())], body)?) {
            ("optMap", r) => Ok(super::optional::of(r)),
            (_, r @ Val::Optional(_)) => Ok(r),
            _ => Err("no such overload".into()),
        },
        v => Err(format!("no such overload: hasValue({})", v.type_name())),
    }
}
