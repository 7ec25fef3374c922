//! The Common Expression Language of `x-kubernetes-validations`, written here rather than
//! taken from a crate: the maintained CEL crate (ANTLR-based) would add 200 to 475 KB of gzip
//! to every wasm bundle, and the texts rule errors quote must follow cel-go's (0.26, which
//! Kubernetes 1.36 builds with) anyway. What the Kubernetes environment has: the whole
//! expression grammar with optionals (`.?`, `[?]`), the standard macros and functions with
//! timestamps and durations, two-variable comprehensions, and the libraries: strings (v2,
//! with `format`), lists (Kubernetes' and ext.Lists v3), sets, regex, URLs, quantities,
//! IPs and CIDRs, semver, named formats and optionals. [`check`] type-checks a rule against
//! its schema when the definition is written (a partial model of cel-go's checker: it
//! refuses only what cel-go refuses); [`cost`] estimates its cost before it runs, as
//! cel-go's checker does, for the definition's limits.
pub mod check;
mod comprehension;
pub mod cost;
mod env;
mod escaping;
mod eval;
mod functions;
pub mod issues;
mod lists;
mod macros;
mod named_formats;
mod net;
mod optional;
mod parse;
pub mod quantity;
mod semver;
mod string_format;
mod time;

pub use eval::{display, eval, Scope, Val, COST_EXCEEDED, PER_CALL_LIMIT};
pub use parse::{parse, Expr};

/// Parses `src`; on failure, the error as cel-go displays it (`ERROR: <input>:1:5: ...` with
/// the line and a caret). The type check and the validators are [`check`]'s.
pub fn compile(src: &str) -> Result<Expr, String> {
    parse::parse_at(src)
        .map_err(|(at, message)| issues::display(src, &[issues::Issue { at, message }]))
}

/// Visits `e` and every node under it, parents first.
pub fn walk(e: &Expr, f: &mut impl FnMut(&Expr)) {
    f(e);
    match e {
        Expr::Lit(_) | Expr::Ident(..) => {}
        Expr::List(items, _) => items.iter().for_each(|x| walk(x, f)),
        Expr::Map(entries, _) => entries.iter().for_each(|(k, v)| {
            walk(k, f);
            walk(v, f);
        }),
        Expr::Select(x, ..)
        | Expr::OptSelect(x, ..)
        | Expr::Has(x, ..)
        | Expr::Unary(_, x, _)
        | Expr::Opt(x) => walk(x, f),
        Expr::Index(a, b, _) | Expr::OptIndex(a, b, _) | Expr::Binary(_, a, b, _) => {
            walk(a, f);
            walk(b, f);
        }
        Expr::Cond(a, b, c, _) => [a, b, c].into_iter().for_each(|x| walk(x, f)),
        Expr::Call(t, _, args, _) => {
            if let Some(t) = t {
                walk(t, f);
            }
            args.iter().for_each(|x| walk(x, f));
        }
        Expr::Macro(_, r, _, b, filter, _) | Expr::Comp2(_, r, _, b, filter, _) => {
            walk(r, f);
            if let Some(x) = filter {
                walk(x, f);
            }
            walk(b, f);
        }
    }
}

/// Whether `e` refers to `name` (a rule that uses `oldSelf` is a transition rule).
pub fn mentions(e: &Expr, name: &str) -> bool {
    let mut found = false;
    walk(e, &mut |x| {
        found |= matches!(x, Expr::Ident(id, _) if id == name)
    });
    found
}

#[cfg(test)]
mod tests;
