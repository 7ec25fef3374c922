//! The type check of a rule before it is accepted (cel-go's checker, with the types
//! apiserver's `SchemaDeclType` gives a schema node): undeclared names, fields an object's
//! schema does not declare (x-kubernetes-preserve-unknown-fields exposes none), selections
//! on values that have no fields, operators, indexes, comprehension ranges and the common
//! string functions applied to the wrong types, and a rule that is not a bool (a message
//! expression that is not a string). Errors read as cel-go's and sit where it places them.
//!
//! Deliberately partial where cel-go's checker is exact: a function whose overloads are not
//! modelled here gives its result type, or a type that matches anything (`Unknown`), so the
//! check refuses only what cel-go refuses; what it does not model it lets through.

mod format_calls;
mod signatures;
mod types;

use super::env::declared;
use super::issues::Issue;
use super::parse::{Expr, Lit, Pos};
use crate::resources::custom::structural::Schema;
use signatures::{arithmetic, member_only, result_of};
pub use types::{decl, declares_type_and_meta, T};
use types::{field, general, unify, T::*};

/// The checker's scope and what it found.
pub struct Checker<'s> {
    vars: Vec<(String, T<'s>)>,
    pub issues: Vec<Issue>,
    /// The homogeneous-literal validator's findings, which count only where the check found
    /// nothing (`ValidateHomogeneousAggregateLiterals` runs after it).
    pub literals: Vec<Issue>,
    /// How many `format` calls the node is inside (their literals are exempt).
    in_format: usize,
    /// The string format validator's findings, which also count only where the check
    /// found nothing (it runs after the literal validators).
    pub formats: Vec<Issue>,
}

impl<'s> Checker<'s> {
    /// A checker with `vars` declared (`self`, `oldSelf`).
    pub fn new(vars: Vec<(String, T<'s>)>) -> Self {
        Checker {
            vars,
            issues: Vec::new(),
            literals: Vec::new(),
            in_format: 0,
            formats: Vec::new(),
        }
    }

    fn error(&mut self, at: Pos, message: String) -> T<'s> {
        self.issues.push(Issue { at, message });
        Unknown
    }

    fn no_overload(&mut self, at: Pos, op: &str, args: &[&T<'s>]) -> T<'s> {
        let list: Vec<String> = args.iter().map(|t| t.name()).collect();
        let message = format!(
            "found no matching overload for '{op}' applied to '({})'",
            list.join(", ")
        );
        self.error(at, message)
    }

    /// The type of `e`.
    pub fn check(&mut self, e: &Expr) -> T<'s> {
        match e {
            Expr::Lit(l) => match l {
                Lit::Null => Null,
                Lit::Bool(_) => Bool,
                Lit::Int(_) => Int,
                Lit::Uint(_) => Uint,
                Lit::Double(_) => Double,
                Lit::Str(_) => Str,
                Lit::Bytes(_) => Bytes,
            },
            Expr::Ident(name, at) => {
                if let Some((_, t)) = self.vars.iter().rev().find(|(n, _)| n == name) {
                    return t.clone();
                }
                if super::eval::TYPE_NAMES.contains(&name.as_str()) {
                    return Type;
                }
                self.error(
                    *at,
                    format!("undeclared reference to '{name}' (in container '')"),
                )
            }
            Expr::List(items, starts) => {
                let mut elem: Option<T<'s>> = None;
                let mut first: Option<T<'s>> = None;
                let mut mismatched = false;
                for (x, start) in items.iter().zip(starts) {
                    let t = match x {
                        Expr::Opt(x) => match self.check(x) {
                            Optional(t) => *t,
                            t => t,
                        },
                        x => self.check(x),
                    };
                    match &first {
                        None => first = Some(t.clone()),
                        Some(f) if !mismatched && !equivalent(f, &t) => {
                            mismatched = true;
                            self.mixed(x, *start, f, &t);
                        }
                        Some(_) => {}
                    }
                    elem = Some(match elem {
                        None => t,
                        Some(e) if e == Unknown || t == Unknown => Unknown,
                        Some(e) if equivalent(&e, &t) => general(&e, &t),
                        Some(_) => Dyn,
                    });
                }
                List(Box::new(elem.unwrap_or(Free)))
            }
            Expr::Map(entries, starts) => {
                let mut kv: Option<(T<'s>, T<'s>)> = None;
                let mut first: Option<(T<'s>, T<'s>)> = None;
                for ((k, ve), (key_at, value_at)) in entries.iter().zip(starts) {
                    let optional = matches!(k, Expr::Opt(_));
                    let ke = match k {
                        Expr::Opt(k) => k,
                        k => k,
                    };
                    let (k, v) = (self.check(ke), self.check(ve));
                    let v = match v {
                        Optional(t) if optional => *t,
                        v => v,
                    };
                    match &first {
                        None => first = Some((k.clone(), v.clone())),
                        Some((fk, fv)) => {
                            let (fk, fv) = (fk.clone(), fv.clone());
                            if !equivalent(&fk, &k) {
                                self.mixed(ke, *key_at, &fk, &k);
                            }
                            if !equivalent(&fv, &v) {
                                self.mixed(ve, *value_at, &fv, &v);
                            }
                        }
                    }
                    let join = |a: T<'s>, b: T<'s>| {
                        if equivalent(&a, &b) {
                            general(&a, &b)
                        } else {
                            Dyn
                        }
                    };
                    kv = Some(match kv {
                        None => (k, v),
                        Some((a, b)) => (join(a, k), join(b, v)),
                    });
                }
                let (k, v) = kv.unwrap_or((Free, Free));
                Map(Box::new(k), Box::new(v))
            }
            Expr::Opt(x) => self.check(x),
            Expr::Select(x, f, at) => {
                let t = self.check(x);
                self.select(t, f, *at)
            }
            Expr::OptSelect(x, f, at) => {
                let t = self.check(x);
                match self.select(t, f, *at) {
                    Optional(t) => Optional(t),
                    Unknown => Unknown,
                    t => Optional(Box::new(t)),
                }
            }
            Expr::Has(x, f, at) => {
                let t = self.check(x);
                self.select(t, f, *at);
                Bool
            }
            Expr::Index(c, i, at) | Expr::OptIndex(c, i, at) => {
                let (ct, it) = (self.check(c), self.check(i));
                let inner = match &ct {
                    Optional(t) => (**t).clone(),
                    t => t.clone(),
                };
                let out = match (&inner, &it) {
                    (t, _) if t.loose() => Unknown,
                    (List(e), i) if unify(i, &Int) => (**e).clone(),
                    (Map(k, v), i) if unify(i, k) => (**v).clone(),
                    _ => return self.no_overload(*at, "_[_]", &[&ct, &it]),
                };
                match (e, ct) {
                    (Expr::OptIndex(..), _) | (_, Optional(_)) => Optional(Box::new(out)),
                    _ => out,
                }
            }
            Expr::Unary(op, x, at) => {
                let t = self.check(x);
                let ok = match *op {
                    "!" => unify(&t, &Bool),
                    _ => t.loose() || matches!(t, Int | Double),
                };
                if !ok {
                    let name = if *op == "!" { "!_" } else { "-_" };
                    return self.no_overload(*at, name, &[&t]);
                }
                if *op == "!" {
                    Bool
                } else {
                    t
                }
            }
            Expr::Binary(op, a, b, at) => self.binary(op, a, b, *at),
            Expr::Cond(c, a, b, at) => {
                let (ct, at_, bt) = (self.check(c), self.check(a), self.check(b));
                if !unify(&ct, &Bool) || !unify(&at_, &bt) {
                    return self.no_overload(*at, "_?_:_", &[&ct, &at_, &bt]);
                }
                general(&at_, &bt)
            }
            Expr::Call(target, name, args, at) => self.call(target.as_deref(), name, args, *at),
            Expr::Macro(kind, range, var, body, filter, at) => {
                let vars = [var.as_str(), ""];
                self.comprehension(kind, range, vars, body, filter.as_deref(), *at)
            }
            Expr::Comp2(kind, range, vars, body, filter, at) => {
                let vars = [vars[0].as_str(), vars[1].as_str()];
                self.comprehension(kind, range, vars, body, filter.as_deref(), *at)
            }
        }
    }

    /// `x.f` on a value of type `t`.
    fn select(&mut self, t: T<'s>, f: &str, at: Pos) -> T<'s> {
        match t {
            Optional(inner) => match self.select(*inner, f, at) {
                Unknown => Unknown,
                t => Optional(Box::new(t)),
            },
            Object(name, s, resource) => match field(&name, s, resource, f) {
                Some(t) => t,
                None => self.error(at, format!("undefined field '{f}'")),
            },
            Map(_, v) => *v,
            t if t.loose() => t,
            t => self.error(
                at,
                format!("type '{}' does not support field selection", t.name()),
            ),
        }
    }

    fn binary(&mut self, op: &str, a: &Expr, b: &Expr, at: Pos) -> T<'s> {
        if op == "&&" || op == "||" {
            for x in [a, b] {
                let t = self.check(x);
                if !unify(&t, &Bool) {
                    let place = pos_of(x).unwrap_or(at);
                    self.error(
                        place,
                        format!("expected type 'bool' but found '{}'", t.name()),
                    );
                }
            }
            return Bool;
        }
        let (l, r) = (self.check(a), self.check(b));
        let numeric = |t: &T| matches!(t, Int | Uint | Double);
        let result = match op {
            "==" | "!=" => unify(&l, &r).then_some(Bool),
            "<" | "<=" | ">" | ">=" => {
                let same = matches!(
                    l,
                    Bool | Int | Uint | Double | Str | Bytes | Timestamp | Duration
                ) && l == r;
                (l.loose() || r.loose() || same || numeric(&l) && numeric(&r)).then_some(Bool)
            }
            "in" => match &r {
                t if t.loose() => Some(Bool),
                List(e) | Map(e, _) if unify(&l, e) => Some(Bool),
                _ => None,
            },
            _ => arithmetic(op, &l, &r),
        };
        match result {
            Some(t) => t,
            None => {
                let name = match op {
                    "in" => "@in".to_string(),
                    op => format!("_{op}_"),
                };
                self.no_overload(at, &name, &[&l, &r])
            }
        }
    }

    /// A list element or map key of another type than the first's, at `e`'s place (or
    /// where it starts, for a literal).
    fn mixed(&mut self, e: &Expr, start: Pos, want: &T<'s>, found: &T<'s>) {
        self.mixed_at(pos_of(e).unwrap_or(start), want, found);
    }

    fn mixed_at(&mut self, at: Pos, want: &T<'s>, found: &T<'s>) {
        if self.in_format == 0 {
            let message = format!(
                "expected type '{}' but found '{}'",
                want.name(),
                found.name()
            );
            self.literals.push(Issue { at, message });
        }
    }

    fn call(&mut self, target: Option<&Expr>, name: &str, args: &[Expr], at: Pos) -> T<'s> {
        let format = (name == "format") as usize;
        self.in_format += format;
        let arg_types: Vec<T<'s>> = args.iter().map(|a| self.check(a)).collect();
        let target_type = target.map(|t| self.check(t));
        self.in_format -= format;
        if !declared(name) {
            return self.error(
                at,
                format!("undeclared reference to '{name}' (in container '')"),
            );
        }
        let text = |t: &T| t.loose() || *t == Str;
        let strings = |t: &T| match t {
            List(e) => e.loose() || **e == Str,
            t => t.loose(),
        };
        let fits = match (name, &target_type, arg_types.as_slice()) {
            (name, None, _) if member_only(name) => false,
            // `list(string).join()` and `.join(string)` only.
            ("join", Some(t), []) => strings(t),
            ("join", Some(t), [sep]) => strings(t) && text(sep),
            ("join", Some(_), _) => false,
            // `list(list(T)).flatten()` (a list of dyn too), and `list(dyn).flatten(int)`,
            // which any list is assignable to.
            ("flatten", Some(List(e)), []) => e.loose() || matches!(**e, List(_)),
            ("flatten", Some(List(_)), [depth]) => depth.loose() || *depth == Int,
            ("startsWith" | "endsWith" | "contains", Some(t), [a]) => text(t) && text(a),
            ("matches", Some(t), [a]) => text(t) && text(a),
            ("matches", None, [s, re]) => text(s) && text(re),
            ("size", None, [t]) | ("size", Some(t), []) => {
                t.loose() || matches!(t, Str | Bytes | List(_) | Map(..))
            }
            // Methods of lists only, of strings only, of either.
            (
                "reverse" | "slice" | "flatten" | "sort" | "distinct" | "sum" | "min" | "max"
                | "isSorted" | "first" | "last" | "unwrapOpt",
                Some(t),
                _,
            ) => t.loose() || matches!(t, List(_)),
            (
                "lowerAscii" | "upperAscii" | "trim" | "charAt" | "substring" | "split" | "replace"
                | "format" | "find" | "findAll",
                Some(t),
                _,
            ) => text(t),
            ("indexOf" | "lastIndexOf", Some(t), _) => text(t) || matches!(t, List(_)),
            (name, Some(t), _) if !t.loose() => match receivers(name) {
                Some(kinds) => kinds
                    .iter()
                    .any(|k| t.name() == *k || k.is_empty() && matches!(t, Optional(_))),
                None => true,
            },
            _ => true,
        };
        if !fits {
            let list: Vec<String> = arg_types.iter().map(T::name).collect();
            let applied = match &target_type {
                Some(t) => format!("{}.({})", t.name(), list.join(", ")),
                None => format!("({})", list.join(", ")),
            };
            return self.error(
                at,
                format!("found no matching overload for '{name}' applied to '{applied}'"),
            );
        }
        if let ("format", Some(Expr::Lit(Lit::Str(template))), [Expr::List(items, starts)]) =
            (name, target, args)
        {
            let vars = self.vars.clone();
            let mut type_of = |e: &Expr| Checker::new(vars.clone()).check(e);
            let found = format_calls::check(template, at, items, starts, &mut type_of);
            self.formats.extend(found);
        }
        match (name, &target_type, arg_types.first()) {
            ("sum" | "min" | "max", Some(List(e)), _) => (**e).clone(),
            ("optional.of" | "optional.ofNonZeroValue", _, Some(t)) => {
                Optional(Box::new(t.clone()))
            }
            ("value", Some(Optional(t)), _) => (**t).clone(),
            ("orValue", Some(Optional(t)), _) => (**t).clone(),
            ("first" | "last", Some(List(e)), _) => Optional(e.clone()),
            ("slice" | "sort" | "reverse" | "distinct", Some(l @ List(_)), _) => l.clone(),
            _ => result_of(name),
        }
    }

    fn comprehension(
        &mut self,
        kind: &str,
        range: &Expr,
        vars: [&str; 2],
        body: &Expr,
        filter: Option<&Expr>,
        at: Pos,
    ) -> T<'s> {
        let r = self.check(range);
        let two = !vars[1].is_empty();
        if kind == "optMap" || kind == "optFlatMap" {
            let inner = match &r {
                Optional(t) => (**t).clone(),
                _ => Unknown,
            };
            self.vars.push((vars[0].to_string(), inner));
            let b = self.check(body);
            self.vars.pop();
            return match (kind, b) {
                ("optMap", b) => Optional(Box::new(b)),
                (_, b) => b,
            };
        }
        let (first, second, elem) = match &r {
            List(e) => (
                if two { Int } else { (**e).clone() },
                (**e).clone(),
                (**e).clone(),
            ),
            Map(k, v) => ((**k).clone(), (**v).clone(), (**k).clone()),
            t if t.loose() => (t.clone(), t.clone(), t.clone()),
            t => {
                let place = pos_of(range).unwrap_or(at);
                return self.error(
                    place,
                    format!(
                        "expression of type '{}' cannot be range of a comprehension (must be list, map, or dynamic)",
                        t.name()
                    ),
                );
            }
        };
        self.vars.push((vars[0].to_string(), first.clone()));
        if two {
            self.vars.push((vars[1].to_string(), second));
        }
        let f = filter.map(|f| (f, self.check(f)));
        let b = self.check(body);
        self.vars.truncate(self.vars.len() - 1 - two as usize);
        let predicate = |c: &mut Self, e: &Expr, t: &T<'s>| {
            if !unify(t, &Bool) {
                let place = pos_of(e).unwrap_or(at);
                c.error(
                    place,
                    format!("expected type 'bool' but found '{}'", t.name()),
                );
            }
        };
        match kind {
            "all" | "exists" => {
                predicate(self, body, &b);
                Bool
            }
            "exists_one" | "existsOne" => {
                if !unify(&b, &Bool) {
                    return self.no_overload(at, "_?_:_", &[&b, &Int, &Int]);
                }
                Bool
            }
            "filter" => {
                if !unify(&b, &Bool) {
                    let l = List(Box::new(elem.clone()));
                    return self.no_overload(at, "_?_:_", &[&b, &l, &l]);
                }
                List(Box::new(elem))
            }
            "sortBy" => List(Box::new(elem)),
            _ => {
                if let Some((f, ft)) = &f {
                    predicate(self, f, ft);
                }
                match kind {
                    "map" | "transformList" => List(Box::new(b)),
                    "transformMap" => Map(Box::new(first), Box::new(b)),
                    _ => Unknown,
                }
            }
        }
    }
}

/// The type check of a rule (`message`: of its message expression) `src`, parsed as `expr`,
/// on the node `s`: the detail of the error apiextensions gives, or `None`. The object type
/// of `self` is named `selfType0` (apiextensions names it after the nanoseconds of the
/// clock, a different name at every compile).
pub fn rule_error(
    src: &str,
    expr: &Expr,
    s: &Schema,
    resource_root: bool,
    optional_old_self: bool,
    message: bool,
) -> Option<String> {
    let own = decl(s, "selfType0".into(), resource_root)?;
    let old = if optional_old_self {
        Optional(Box::new(own.clone()))
    } else {
        own.clone()
    };
    let mut c = Checker::new(vec![("self".into(), own), ("oldSelf".into(), old)]);
    let t = c.check(expr);
    let prefix = if message { "messageExpression " } else { "" };
    // The validators (mixed literals; duration, timestamp and regex literals) run once the
    // check has passed.
    if c.issues.is_empty() {
        super::issues::literals(src, expr, &mut c.literals);
        c.issues = std::mem::take(&mut c.literals);
        c.issues.append(&mut c.formats);
    }
    if !c.issues.is_empty() {
        let shown = super::issues::display(src, &c.issues);
        return Some(format!("{prefix}compilation failed: {shown}"));
    }
    match (message, t) {
        (_, Unknown) | (false, Bool) | (true, Str) => None,
        (false, _) => Some("cel expression must evaluate to a bool".into()),
        (true, _) => Some("messageExpression must evaluate to a string".into()),
    }
}

/// The receiver types of the library methods (`""`: any optional); `None` for a method not
/// modelled here.
fn receivers(name: &str) -> Option<&'static [&'static str]> {
    const TIME: &[&str] = &["timestamp", "duration"];
    Some(match name {
        "family"
        | "isUnspecified"
        | "isLoopback"
        | "isLinkLocalMulticast"
        | "isLinkLocalUnicast"
        | "isGlobalUnicast" => &["net.IP"],
        "containsIP" | "containsCIDR" | "prefixLength" | "masked" => &["net.CIDR"],
        "isInteger" | "asInteger" | "asApproximateFloat" | "add" | "sub" => {
            &["kubernetes.Quantity"]
        }
        "isGreaterThan" | "isLessThan" | "compareTo" => {
            &["kubernetes.Quantity", "kubernetes.Semver"]
        }
        "major" | "minor" | "patch" => &["kubernetes.Semver"],
        "getScheme" | "getHost" | "getHostname" | "getPort" | "getEscapedPath" | "getQuery" => {
            &["kubernetes.URL"]
        }
        "hasValue" | "value" | "or" | "orValue" => &[""],
        "getHours" | "getMinutes" | "getSeconds" | "getMilliseconds" => TIME,
        "getFullYear" | "getMonth" | "getDate" | "getDayOfMonth" | "getDayOfWeek"
        | "getDayOfYear" => &["timestamp"],
        "validate" => &["kubernetes.NamedFormat"],
        _ => return None,
    })
}

/// `IsEquivalentType`, where both are known: the same type (dyn is not int).
fn equivalent(a: &T, b: &T) -> bool {
    fn unknown(t: &T) -> bool {
        match t {
            Unknown | Free => true,
            List(e) | Optional(e) => unknown(e),
            Map(k, v) => unknown(k) || unknown(v),
            _ => false,
        }
    }
    unknown(a) || unknown(b) || a.name() == b.name()
}

/// Where cel-go places `e` (a literal, list or map literal has no place kept here).
fn pos_of(e: &Expr) -> Option<Pos> {
    match e {
        Expr::Ident(_, p)
        | Expr::Select(_, _, p)
        | Expr::OptSelect(_, _, p)
        | Expr::Has(_, _, p)
        | Expr::Index(_, _, p)
        | Expr::OptIndex(_, _, p)
        | Expr::Call(_, _, _, p)
        | Expr::Unary(_, _, p)
        | Expr::Binary(_, _, _, p)
        | Expr::Cond(_, _, _, p)
        | Expr::Macro(.., p)
        | Expr::Comp2(.., p) => Some(*p),
        Expr::Opt(x) => pos_of(x),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
