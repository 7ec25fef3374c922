//! The static cost estimate of a rule (cel-go's `checker.Cost` with Kubernetes' size and
//! call estimators), which a CustomResourceDefinition's validation holds against its limits.
//!
//! Every node has a cost range; calls whose work grows with their input (string searches,
//! regular expressions, list scans, comprehensions) multiply by the sizes of what they read.
//! Sizes come from the schema at the path a value was read from (`maxLength` (×4, bytes as
//! runes), `maxItems`, `maxProperties`, or what fits in a 3 MiB request), from literals, or
//! from the result of a call that knows its size; anything else is unbounded. Written by hand
//! with the parser of this module: the numbers must be cel-go's, as the real server words its
//! refusals with them.

use super::parse::{Expr, Lit};
use crate::resources::custom::structural::Schema;

mod calls;
mod sizes;
pub use sizes::{max_elements, min_serialized_size, unbounded_cardinality};

/// A range of costs or sizes (saturating at `u64::MAX`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Est {
    pub min: u64,
    pub max: u64,
}

const fn est(min: u64, max: u64) -> Est {
    Est { min, max }
}

const UNKNOWN: Est = est(0, u64::MAX);

impl Est {
    fn add(self, o: Est) -> Est {
        est(
            self.min.saturating_add(o.min),
            self.max.saturating_add(o.max),
        )
    }
    fn mul(self, o: Est) -> Est {
        est(
            self.min.saturating_mul(o.min),
            self.max.saturating_mul(o.max),
        )
    }
    /// `MultiplyByCostFactor`: each bound times `f`, rounded up.
    fn factor(self, f: f64) -> Est {
        let one = |x: u64| {
            let v = (x as f64 * f).ceil();
            if v >= u64::MAX as f64 {
                u64::MAX
            } else {
                v as u64
            }
        };
        est(one(self.min), one(self.max))
    }
    fn union(self, o: Est) -> Est {
        est(self.min.min(o.min), self.max.max(o.max))
    }
}

/// What is known of a value: its type, where in the schema it was read, its size.
#[derive(Clone, Copy)]
struct Info<'s> {
    cost: Est,
    /// The size the estimator gives it (`computeSize`), when known.
    size: Option<Est>,
    ty: Ty,
    schema: Option<&'s Schema>,
    /// The size of each element, for a list made here (`map`'s transforms): what a later
    /// comprehension over it reads (cel-go's entry size).
    elem: Option<Est>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Ty {
    Str,
    Bytes,
    Int,
    Uint,
    Double,
    Bool,
    Null,
    List,
    Map,
    Object,
    /// A timestamp or a duration: a scalar.
    Time,
    /// A library's value (`net.IP`, `net.CIDR`, `kubernetes.Quantity`,
    /// `kubernetes.Semver`): equal to its own kind at a cost of 1.
    Kind(&'static str),
    Dyn,
}

/// The type a schema node has for CEL.
fn ty_of(s: &Schema) -> Ty {
    match s.ty.as_str() {
        "string" => match s.format.as_str() {
            "byte" => Ty::Bytes,
            // Read as timestamps and durations: compared at a cost of 1.
            "date-time" | "date" | "duration" => Ty::Time,
            _ => Ty::Str,
        },
        "integer" => Ty::Int,
        "number" => Ty::Double,
        "boolean" => Ty::Bool,
        "array" => Ty::List,
        "object" if s.additional.as_ref().is_some_and(|a| !a.absent) => Ty::Map,
        "object" => Ty::Object,
        _ => Ty::Dyn,
    }
}

/// The estimator's scope: `self` (and `oldSelf`) at the rule's node, comprehension variables.
struct Env<'s> {
    root: &'s Schema,
    /// Whether `self` is the resource itself (its `metadata` is bounded).
    resource_root: bool,
    vars: Vec<(String, Info<'s>)>,
}

/// The estimated cost of `expr`, a rule on the node `schema` (`resource_root`: the
/// resource's own root).
pub fn estimate(expr: &Expr, schema: &Schema, resource_root: bool) -> Est {
    let mut env = Env {
        root: schema,
        resource_root,
        vars: Vec::new(),
    };
    env.info(expr).cost
}

fn path_info(s: &Schema, cost: Est) -> Info<'_> {
    Info {
        cost,
        size: Some(est(0, max_elements(s))),
        ty: ty_of(s),
        schema: Some(s),
        elem: None,
    }
}

fn plain(cost: Est, ty: Ty) -> Info<'static> {
    Info {
        cost,
        size: None,
        ty,
        schema: None,
        elem: None,
    }
}

impl<'s> Env<'s> {
    /// `computeSize`: a recorded or literal size, the schema's, 1 for a scalar, else unknown.
    fn size(i: &Info<'_>) -> Est {
        if let Some(s) = i.size {
            return s;
        }
        match i.ty {
            Ty::Bool | Ty::Double | Ty::Int | Ty::Uint | Ty::Time => est(1, 1),
            _ => UNKNOWN,
        }
    }

    fn info(&mut self, e: &Expr) -> Info<'s> {
        match e {
            Expr::Lit(l) => {
                let (ty, size) = match l {
                    Lit::Str(s) => (Ty::Str, s.chars().count() as u64),
                    Lit::Bytes(b) => (Ty::Bytes, b.len() as u64),
                    Lit::Int(_) => (Ty::Int, 1),
                    Lit::Uint(_) => (Ty::Uint, 1),
                    Lit::Double(_) => (Ty::Double, 1),
                    Lit::Bool(_) => (Ty::Bool, 1),
                    Lit::Null => (Ty::Null, 1),
                };
                Info {
                    size: Some(est(size, size)),
                    ..plain(est(0, 0), ty)
                }
            }
            Expr::Ident(name, _) => {
                if let Some((_, v)) = self.vars.iter().rev().find(|(n, _)| n == name) {
                    return Info {
                        cost: est(1, 1),
                        ..*v
                    };
                }
                match name.as_str() {
                    "self" | "oldSelf" => path_info(self.root, est(1, 1)),
                    // Any other name (a type: `string`, `net.IP`) has the path of just its
                    // name, which Kubernetes' size estimator reads from the rule's own
                    // node: it is sized as `self` is.
                    _ => Info {
                        ty: Ty::Dyn,
                        schema: None,
                        ..path_info(self.root, est(1, 1))
                    },
                }
            }
            Expr::List(items, _) => {
                let cost = items
                    .iter()
                    .fold(est(10, 10), |c, x| c.add(self.info(x).cost));
                let n = items.len() as u64;
                Info {
                    size: Some(est(n, n)),
                    ..plain(cost, Ty::List)
                }
            }
            Expr::Map(entries, _) => {
                let cost = entries.iter().fold(est(30, 30), |c, (k, v)| {
                    c.add(self.info(k).cost).add(self.info(v).cost)
                });
                let n = entries.len() as u64;
                Info {
                    size: Some(est(n, n)),
                    ..plain(cost, Ty::Map)
                }
            }
            Expr::Select(x, field, _) => self.select(x, field, false),
            // `_?._` and `_[?_]` are calls: their operands and 1, reading the child as the
            // plain steps do.
            Expr::OptSelect(x, field, _) => self.select(x, field, true),
            Expr::OptIndex(x, k, _) | Expr::Index(x, k, _) => self.index(x, k),
            Expr::Opt(x) => self.info(x),
            Expr::Has(x, _, _) => plain(self.info(x).cost, Ty::Bool),
            Expr::Unary(op, x, _) => {
                let x = self.info(x);
                let ty = if *op == "!" { Ty::Bool } else { x.ty };
                plain(x.cost.add(est(1, 1)), ty)
            }
            Expr::Binary(op, a, b, _) => self.binary(op, a, b),
            Expr::Cond(c, t, f, _) => {
                let (c, t, f) = (self.info(c), self.info(t), self.info(f));
                Info {
                    size: Some(Self::size(&t).union(Self::size(&f))),
                    ..plain(c.cost.add(t.cost.union(f.cost)), t.ty)
                }
            }
            Expr::Call(target, name, args, _) => self.call(target.as_deref(), name, args),
            Expr::Macro(kind, range, var, body, filter, _) => {
                self.comprehension(kind, range, [var, ""], body, filter.as_deref())
            }
            Expr::Comp2(kind, range, vars, body, filter, _) => {
                self.comprehension(kind, range, [&vars[0], &vars[1]], body, filter.as_deref())
            }
        }
    }

    /// `x.field`, or `x.?field` (`optional`: a call, 1 whatever `x` is).
    fn select(&mut self, x: &Expr, field: &str, optional: bool) -> Info<'s> {
        let x = self.info(x);
        let own = (optional || matches!(x.ty, Ty::Object | Ty::Map)) as u64;
        let cost = x.cost.add(est(own, own));
        let resource = x
            .schema
            .is_some_and(|s| s.embedded || self.resource_root && std::ptr::eq(s, self.root));
        match x.schema.and_then(|s| child(s, field, resource)) {
            Some(c) => path_info(c, cost),
            None => plain(cost, Ty::Dyn),
        }
    }

    /// `x[i]` and `x[?i]`.
    fn index(&mut self, x: &Expr, i: &Expr) -> Info<'s> {
        let (x, i) = (self.info(x), self.info(i));
        let cost = x.cost.add(i.cost).add(est(1, 1));
        let element = x.schema.and_then(|s| match ty_of(s) {
            Ty::List => s.items.as_deref(),
            Ty::Map => s.additional.as_deref(),
            _ => None,
        });
        match element {
            Some(c) => path_info(c, cost),
            None => plain(cost, Ty::Dyn),
        }
    }

    fn binary(&mut self, op: &str, a: &Expr, b: &Expr) -> Info<'s> {
        let (l, r) = (self.info(a), self.info(b));
        let both = l.cost.add(r.cost);
        let text = |t: Ty| matches!(t, Ty::Str | Ty::Bytes);
        match op {
            "&&" | "||" => plain(
                est(l.cost.min, l.cost.max.saturating_add(r.cost.max)),
                Ty::Bool,
            ),
            // Kubernetes' types compare with their own kind at a nominal cost.
            // A format's name is at most 64 characters.
            "==" if l.ty == Ty::Kind("kubernetes.NamedFormat") && l.ty == r.ty => {
                plain(both.add(est(1, 64).factor(0.1)), Ty::Bool)
            }
            // Kubernetes prices `_==_` alone; `_!=_` is cel-go's, by sizes these have none of.
            "==" if matches!(l.ty, Ty::Kind(_)) && l.ty == r.ty => {
                plain(both.add(est(1, 1)), Ty::Bool)
            }
            "==" | "!=" => plain(both.add(traversal(&l, &r)), Ty::Bool),
            "<" | "<=" | ">" | ">=" if text(l.ty) || text(r.ty) => {
                plain(both.add(traversal(&l, &r)), Ty::Bool)
            }
            "in" if r.ty == Ty::List || r.schema.is_none() && r.ty != Ty::Map => {
                plain(both.add(Self::size(&r)), Ty::Bool)
            }
            "+" if text(l.ty) || text(r.ty) => {
                let size = Self::size(&l).add(Self::size(&r));
                Info {
                    size: Some(size),
                    ..plain(both.add(size.factor(0.1)), l.ty)
                }
            }
            "+" if l.ty == Ty::List || r.ty == Ty::List => {
                let size = Self::size(&l).add(Self::size(&r));
                Info {
                    size: Some(size),
                    ..plain(both.add(est(1, 1)), Ty::List)
                }
            }
            _ => {
                let ty = match op {
                    "<" | "<=" | ">" | ">=" | "in" => Ty::Bool,
                    _ => l.ty,
                };
                plain(both.add(est(1, 1)), ty)
            }
        }
    }

    /// `all`, `exists`, `exists_one`, `map` and `filter`: the range, the accumulator's
    /// start, the result, and per element the loop condition and step.
    fn comprehension(
        &mut self,
        kind: &str,
        range: &Expr,
        vars: [&str; 2],
        body: &Expr,
        filter: Option<&Expr>,
    ) -> Info<'s> {
        let [var, second] = vars;
        let range = self.info(range);
        if kind == "optMap" || kind == "optFlatMap" {
            // `x.hasValue() ? optional.of(<v = x.value(); body>) : optional.none()`, `x`
            // read twice, the binding a comprehension over an empty list literal.
            self.vars.push((
                var.to_string(),
                Info {
                    cost: est(1, 1),
                    ..range
                },
            ));
            let body = self.info(body).cost;
            self.vars.pop();
            let wrap = (kind == "optMap") as u64;
            let cost = range
                .cost
                .add(range.cost)
                .add(body)
                .add(est(12 + wrap, 12 + wrap));
            return plain(cost, Ty::Dyn);
        }
        let n = Self::size(&range);
        let element = range.schema.and_then(|s| match ty_of(s) {
            Ty::List => s.items.as_deref().map(|i| path_info(i, est(1, 1))),
            // Map keys are plain strings, without a size of their own.
            Ty::Map | Ty::Object => Some(Info {
                size: Some(est(0, 0)),
                ..plain(est(1, 1), Ty::Str)
            }),
            _ => None,
        });
        // A list made by a transform: its elements are sized as the transform was.
        let element = element.unwrap_or_else(|| Info {
            size: range.elem,
            ..plain(est(1, 1), Ty::Dyn)
        });
        let bound = if second.is_empty() {
            vec![(var.to_string(), element)]
        } else {
            // Two variables: a list's index and element, a map's key and value.
            let list = range.schema.is_some_and(|s| ty_of(s) == Ty::List);
            let value = range
                .schema
                .and_then(|s| s.additional.as_deref())
                .map_or_else(|| plain(est(1, 1), Ty::Dyn), |v| path_info(v, est(1, 1)));
            let first = if list {
                Info {
                    size: Some(est(1, 1)),
                    ..plain(est(1, 1), Ty::Int)
                }
            } else {
                element
            };
            let second_info = if list { element } else { value };
            vec![(var.to_string(), first), (second.to_string(), second_info)]
        };
        let count = bound.len();
        self.vars.extend(bound);
        let body = self.info(body);
        let body_size = Self::size(&body);
        let body = body.cost;
        let filter = filter.map(|f| self.info(f).cost);
        self.vars.truncate(self.vars.len() - count);
        let one = est(1, 1);
        // (accumulator start, result, per-element condition + step)
        let (init, result, per) = match kind {
            // `@not_strictly_false(acc)`, then `acc && body`.
            "all" => (est(0, 0), one, est(3, body.max.saturating_add(3))),
            // `@not_strictly_false(!acc)`, then `acc || body`.
            "exists" => (est(0, 0), one, est(4, body.max.saturating_add(4))),
            "exists_one" | "existsOne" => (est(0, 0), est(2, 2), body.add(est(1, 2))),
            // `cel.@mapInsert(acc, k, f)` into `{}` (`transformMapEntry`: `(acc, entry)`).
            "transformMap" | "transformMapEntry" => {
                let step = if kind == "transformMap" { 3 } else { 2 };
                match filter {
                    Some(p) => (
                        est(30, 30),
                        one,
                        p.add(est(1, body.max.saturating_add(step))),
                    ),
                    None => (est(30, 30), one, body.add(est(step, step))),
                }
            }
            // `sortBy(v, key)`: the keys mapped, then sorted against the list.
            "sortBy" => (est(10, 10), est(13, 13), body.add(est(12, 12))),
            // `map(x, p, f)`: the filter is `body` here, the transform `filter`.
            // `map(x, p, f)`: `p ? acc + [f] : acc`, the transform being `body` here.
            "map" | "transformList" => match filter {
                Some(p) => (est(10, 10), one, p.add(est(1, body.max.saturating_add(12)))),
                None => (est(10, 10), one, body.add(est(12, 12))),
            },
            _ => (est(10, 10), one, body.add(est(1, 13))),
        };
        let cost = range.cost.add(init).add(result).add(n.mul(per));
        match kind {
            // A filtered list holds the range's elements: what is read of them is sized
            // alike. A map's elements are its transform's, sized as the transform is.
            "filter" => Info {
                size: Some(n),
                cost,
                ty: Ty::List,
                schema: range.schema.filter(|s| ty_of(s) == Ty::List),
                elem: range.elem,
            },
            "map" | "transformList" => Info {
                size: Some(n),
                elem: Some(body_size),
                ..plain(cost, Ty::List)
            },
            "sortBy" => Info {
                size: Some(n),
                cost: cost.add(n.mul(n).factor(2.0)),
                ty: Ty::List,
                schema: range.schema.filter(|s| ty_of(s) == Ty::List),
                elem: range.elem,
            },
            "transformMap" | "transformMapEntry" => Info {
                size: Some(n),
                ..plain(cost, Ty::Map)
            },
            _ => plain(cost, Ty::Bool),
        }
    }
}

/// Equality and ordering of strings, bytes and lists: a tenth of the smaller side's size.
fn traversal(l: &Info<'_>, r: &Info<'_>) -> Est {
    let smallest = Env::size(l).max.min(Env::size(r).max);
    est((smallest > 0) as u64, smallest).factor(0.1)
}

/// A property of an object node, a value of a map node. At a resource's (or an embedded
/// resource's) root, CEL sees `metadata` as `name` and `generateName`, and `kind` and
/// `apiVersion` as strings, all unbounded (apiextensions' `WithTypeAndObjectMeta` in 1.36;
/// the 253/252 bounds on the names came later).
fn child<'s>(s: &'s Schema, field: &str, resource: bool) -> Option<&'s Schema> {
    if resource && !super::check::declares_type_and_meta(s) {
        match field {
            "metadata" => return Some(&type_and_object_meta().0),
            "kind" | "apiVersion" if !s.properties.contains_key(field) => {
                return Some(&type_and_object_meta().1)
            }
            _ => {}
        }
    }
    s.properties
        .get(field)
        .or_else(|| s.additional.as_deref().filter(|a| !a.absent))
}

/// `metadata` as rules see it, and an unbounded string.
pub(super) fn type_and_object_meta() -> &'static (Schema, Schema) {
    static META: std::sync::OnceLock<(Schema, Schema)> = std::sync::OnceLock::new();
    META.get_or_init(|| {
        let string = Schema {
            ty: "string".into(),
            ..Schema::default()
        };
        let mut meta = Schema {
            ty: "object".into(),
            ..Schema::default()
        };
        meta.properties.insert("name".into(), string.clone());
        meta.properties
            .insert("generateName".into(), string.clone());
        (meta, string)
    })
}

#[cfg(test)]
mod tests;
