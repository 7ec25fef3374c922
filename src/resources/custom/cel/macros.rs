//! The parser's macros and name resolution: `has`, the comprehensions (one and two
//! variables), `sortBy`, `optMap` and `optFlatMap` expanded into their own nodes; namespaced
//! functions (`sets.contains`) and qualified type names (`net.IP`) read as cel-go's checker
//! resolves them.

use super::parse::{Expr, Lit, Pos};

/// `has(a.b)` and the comprehension macros; anything else is a call.
pub(super) fn macro_or_call(
    target: Option<Expr>,
    name: String,
    mut args: Vec<Expr>,
    at: Pos,
) -> Result<Expr, String> {
    match (target, name.as_str(), args.len()) {
        (None, "has", 1) => match args.pop() {
            // The presence test sits at `has(`'s `(`.
            Some(Expr::Select(operand, field, _)) => Ok(Expr::Has(operand, field, at)),
            _ => Err("invalid argument to has() macro".into()),
        },
        (Some(range), "all" | "exists" | "existsOne" | "exists_one", 3)
        | (Some(range), "transformList" | "transformMap" | "transformMapEntry", 3 | 4) => {
            let kind: &'static str = match name.as_str() {
                "all" => "all",
                "exists" => "exists",
                "existsOne" | "exists_one" => "existsOne",
                "transformList" => "transformList",
                "transformMap" => "transformMap",
                _ => "transformMapEntry",
            };
            let mut var = || match args.remove(0) {
                Expr::Ident(v, _) => Ok(v),
                _ => Err("argument must be a simple name".to_string()),
            };
            let (first, second) = (var()?, var()?);
            if first == second {
                return Err(format!("duplicate variable name: {first}"));
            }
            if [&first, &second]
                .iter()
                .any(|v| *v == "__result__" || *v == "@result")
            {
                return Err("iteration variable overwrites accumulator variable".into());
            }
            let body = args.pop().unwrap_or(Expr::Lit(Lit::Null));
            let filter = args.pop().map(Box::new);
            Ok(Expr::Comp2(
                kind,
                Box::new(range),
                Box::new([first, second]),
                Box::new(body),
                filter,
                at,
            ))
        }
        (Some(range), "sortBy", 2) => {
            let Expr::Ident(var, _) = args.remove(0) else {
                return Err("argument is not an identifier".into());
            };
            let key = args.remove(0);
            Ok(Expr::Macro(
                "sortBy",
                Box::new(range),
                var,
                Box::new(key),
                None,
                at,
            ))
        }
        (Some(range), "all" | "exists" | "exists_one" | "filter" | "map", 2 | 3) => {
            let kind: &'static str = match name.as_str() {
                "all" => "all",
                "exists" => "exists",
                "exists_one" => "exists_one",
                "filter" => "filter",
                _ => "map",
            };
            let Expr::Ident(var, _) = args.remove(0) else {
                return Err("argument must be a simple name".into());
            };
            let (body, filter) = if args.len() == 2 && kind == "map" {
                let t = args.pop().unwrap_or(Expr::Lit(Lit::Null));
                let f = args.pop().unwrap_or(Expr::Lit(Lit::Null));
                (t, Some(Box::new(f)))
            } else if args.len() == 1 {
                (args.pop().unwrap_or(Expr::Lit(Lit::Null)), None)
            } else {
                return Err(format!("wrong number of arguments to {name}"));
            };
            Ok(Expr::Macro(
                kind,
                Box::new(range),
                var,
                Box::new(body),
                filter,
                at,
            ))
        }
        // `x.optMap(v, e)`: `e` with `v` bound to `x`'s value, as an optional (`optFlatMap`:
        // `e` is one).
        (Some(x), "optMap" | "optFlatMap", 2) => {
            let kind = if name == "optMap" {
                "optMap"
            } else {
                "optFlatMap"
            };
            let Expr::Ident(var, _) = args.remove(0) else {
                return Err(format!(
                    "{name}() variable name must be a simple identifier"
                ));
            };
            let body = args.remove(0);
            Ok(Expr::Macro(
                kind,
                Box::new(x),
                var,
                Box::new(body),
                None,
                at,
            ))
        }
        // A namespaced function (`sets.contains(a, b)`) is a global call by its full name,
        // even where a variable has the namespace's name, as cel-go's checker resolves it.
        (Some(Expr::Ident(ns, _)), _, _) if super::env::declared(&format!("{ns}.{name}")) => {
            Ok(Expr::Call(None, format!("{ns}.{name}"), args, at))
        }
        (target, _, _) => Ok(Expr::Call(target.map(Box::new), name, args, at)),
    }
}

/// `a.b`, or the type a qualified name denotes (`net.IP`, `google.protobuf.Timestamp`),
/// read as one identifier as cel-go's checker resolves it.
pub(super) fn select_or_type(e: Expr, field: String, at: Pos) -> Expr {
    fn dotted(e: &Expr) -> Option<(String, Pos)> {
        match e {
            Expr::Ident(id, p) => Some((id.clone(), *p)),
            Expr::Select(x, f, _) => dotted(x).map(|(d, p)| (format!("{d}.{f}"), p)),
            _ => None,
        }
    }
    match dotted(&e).map(|(d, p)| (format!("{d}.{field}"), p)) {
        Some((name, p)) if super::eval::TYPE_NAMES.contains(&name.as_str()) => Expr::Ident(name, p),
        _ => Expr::Select(Box::new(e), field, at),
    }
}
