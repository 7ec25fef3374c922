//! The estimate of a function or method call: cel-go's defaults and Kubernetes' call
//! estimator (`EstimateCallCost`), by function name, with the receiver's and arguments' sizes.

use super::sizes::max_elements;
use super::{est, plain, ty_of, Env, Est, Info, Ty, UNKNOWN};
use crate::resources::custom::cel::parse::{Expr, Lit};

impl<'s> Env<'s> {
    pub(super) fn call(&mut self, target: Option<&Expr>, name: &str, args: &[Expr]) -> Info<'s> {
        let exprs = args;
        let target = target.map(|t| self.info(t));
        let args: Vec<Info<'s>> = args.iter().map(|a| self.info(a)).collect();
        let inputs = target
            .iter()
            .chain(args.iter())
            .fold(est(0, 0), |c, i| c.add(i.cost));
        // The receiver: the target of a method, the first argument of a function.
        let (recv, rest) = match &target {
            Some(t) => (Some(t), args.as_slice()),
            None => (args.first(), args.get(1..).unwrap_or(&[])),
        };
        let recv_size = recv.map_or(UNKNOWN, Self::size);
        let arg_size = rest.first().map_or(UNKNOWN, Self::size);
        let recv_ty = recv.map_or(Ty::Dyn, |r| r.ty);
        let text = matches!(recv_ty, Ty::Str | Ty::Bytes);
        // A list's element node, when the list was read from the schema.
        let element = recv.and_then(|r| r.schema).and_then(|s| s.items.as_deref());
        let regex = || {
            recv_size
                .add(est(1, 1))
                .factor(0.1)
                .mul(arg_size.factor(0.25))
        };
        let sized = |cost: Est, size: Est, ty: Ty| Info {
            size: Some(size),
            ..plain(inputs.add(cost), ty)
        };
        let one = |ty: Ty| plain(inputs.add(est(1, 1)), ty);
        match name {
            // Only the method form (`matches_string`) is costed as a regex; the global
            // `matches(s, re)` costs 1, as cel-go's checker has it.
            "matches" if target.is_some() => plain(inputs.add(regex()), Ty::Bool),
            "matches" => one(Ty::Bool),
            "find" => sized(regex(), est(0, recv_size.max), Ty::Str),
            "findAll" => sized(regex(), est(0, recv_size.max), Ty::List),
            "contains" => plain(
                inputs.add(recv_size.factor(0.1).mul(arg_size.factor(0.1))),
                Ty::Bool,
            ),
            "startsWith" | "endsWith" => plain(inputs.add(arg_size.factor(0.1)), Ty::Bool),
            "lowerAscii" | "upperAscii" | "substring" | "trim" => {
                sized(recv_size.factor(0.1), recv_size, Ty::Str)
            }
            "replace" if target.is_some() && rest.len() >= 2 => {
                let with = Self::size(&rest[1]);
                sized(
                    recv_size.factor(0.2),
                    replaced_size(recv_size, arg_size, with),
                    Ty::Str,
                )
            }
            "replace" => plain(inputs.add(recv_size.factor(0.2)), Ty::Str),
            "split" => {
                // A literal limit bounds the result (as an unsigned count, as Go converts it).
                let max = match exprs.get(1) {
                    Some(Expr::Lit(Lit::Int(n))) => *n as u64,
                    _ => recv_size.max,
                };
                sized(recv_size.factor(0.2), est(0, max), Ty::List)
            }
            "indexOf" | "lastIndexOf" if text => plain(inputs.add(recv_size.factor(0.1)), Ty::Int),
            "isSorted" | "sum" | "max" | "min" | "indexOf" | "lastIndexOf" => {
                let per = match element {
                    Some(e) if matches!(ty_of(e), Ty::Str | Ty::Bytes) => {
                        est(1, 1).add(est(0, max_elements(e)).factor(0.1))
                    }
                    _ => est(1, 1),
                };
                plain(inputs.add(recv_size.mul(per)), Ty::Dyn)
            }
            // ext.Lists' own estimators: a new list's size plus 11; sorts and `distinct`
            // compare every pair.
            "slice" => {
                let lit = |i: usize, d: u64| match exprs.get(i) {
                    Some(Expr::Lit(Lit::Int(n))) => (*n).max(0) as u64,
                    _ => d,
                };
                let n = lit(1, recv_size.max).saturating_sub(lit(0, 0));
                sized(est(n, n).add(est(11, 11)), est(0, n), Ty::List)
            }
            "flatten" => {
                let depth = match exprs.first() {
                    None => 1,
                    Some(Expr::Lit(Lit::Int(n))) => (*n).max(0) as u64,
                    Some(_) => u64::MAX,
                };
                // The result is sized as the list flattened (`estimateAllocatingListCall`).
                let cost = recv_size.mul(est(depth, depth)).add(est(11, 11));
                sized(cost, recv_size, Ty::List)
            }
            "lists.range" => {
                let n = match exprs.first() {
                    Some(Expr::Lit(Lit::Int(n))) => (*n).max(0) as u64,
                    _ => u64::MAX,
                };
                sized(est(n, n).add(est(11, 11)), est(n, n), Ty::List)
            }
            "reverse" => sized(recv_size.add(est(11, 11)), recv_size, Ty::List),
            "distinct" | "sort" => {
                let f = match element.map(ty_of) {
                    Some(Ty::Str | Ty::Bytes) if name == "sort" => 2.1,
                    _ => 2.0,
                };
                let pairs = recv_size.mul(recv_size).factor(f);
                Info {
                    schema: recv.and_then(|r| r.schema),
                    ..sized(pairs.add(est(11, 11)), recv_size, Ty::List)
                }
            }
            "sets.contains" | "sets.intersects" | "sets.equivalent" => {
                let times = if name == "sets.equivalent" { 2 } else { 1 };
                let pairs = recv_size.mul(arg_size).mul(est(times, times));
                plain(inputs.add(pairs).add(est(1, 1)), Ty::Bool)
            }
            "format.named" => one(Ty::Kind("optional_type(kubernetes.NamedFormat)")),
            "value" if recv_ty == Ty::Kind("optional_type(kubernetes.NamedFormat)") => {
                one(Ty::Kind("kubernetes.NamedFormat"))
            }
            // A format's regular expression is at most 128 characters.
            "validate" => plain(inputs.add(arg_size.factor(0.1).factor(32.0)), Ty::Dyn),
            n if n.strip_prefix("format.").is_some_and(|f| f != "named") => {
                one(Ty::Kind("kubernetes.NamedFormat"))
            }
            "format" if text => plain(inputs.add(recv_size.factor(0.1)), Ty::Str),
            "strings.quote" => sized(
                recv_size.factor(0.1),
                est(
                    recv_size.min.saturating_add(2),
                    recv_size.max.saturating_mul(2).saturating_add(2),
                ),
                Ty::Str,
            ),
            "join" => {
                let elem = element.map_or(UNKNOWN, |e| est(0, max_elements(e)));
                let sep = rest.first().map_or(est(0, 0), Self::size);
                let gaps = est(
                    recv_size.min.saturating_sub(1),
                    recv_size.max.saturating_sub(1),
                );
                let total = recv_size.mul(elem).add(sep.mul(gaps));
                sized(total.factor(0.1), total, Ty::Str)
            }
            "url" => sized(recv_size.factor(0.1), recv_size, Ty::Dyn),
            // A CIDR's address is a field read.
            "ip" if target.is_some() => one(Ty::Kind("net.IP")),
            "quantity" | "isQuantity" | "semver" | "isSemver" | "cidr" | "isIP" | "isCIDR"
            | "ip" => {
                let ty = match name {
                    "quantity" => Ty::Kind("kubernetes.Quantity"),
                    "semver" => Ty::Kind("kubernetes.Semver"),
                    "cidr" => Ty::Kind("net.CIDR"),
                    "ip" => Ty::Kind("net.IP"),
                    _ => Ty::Bool,
                };
                plain(inputs.add(recv_size.factor(0.1)), ty)
            }
            "masked" => one(Ty::Kind("net.CIDR")),
            "ip.isCanonical" => plain(inputs.add(recv_size.factor(0.2)), Ty::Bool),
            "prefixLength"
            | "family"
            | "isUnspecified"
            | "isLoopback"
            | "isLinkLocalMulticast"
            | "isLinkLocalUnicast"
            | "isGlobalUnicast" => one(Ty::Dyn),
            // Two 4- or 16-byte addresses compared; a CIDR in a CIDR masks and compares the
            // bits too; a string argument is parsed first.
            "containsIP" | "containsCIDR" => {
                let bytes = est(4, 16);
                let mut cost = bytes.add(bytes).factor(0.1);
                if name == "containsCIDR" {
                    cost = cost.add(bytes.factor(0.1)).add(est(1, 1));
                }
                if rest.first().is_some_and(|a| a.ty == Ty::Str) {
                    cost = cost.add(arg_size.factor(0.1));
                }
                plain(inputs.add(cost), Ty::Bool)
            }
            // Between strings and bytes: a rune is 1 to 4 bytes.
            "string" if recv_ty == Ty::Bytes => sized(
                recv_size.factor(0.1),
                est(recv_size.min / 4, recv_size.max),
                Ty::Str,
            ),
            "bytes" if recv_ty == Ty::Str => sized(
                recv_size.factor(0.1),
                est(recv_size.min, recv_size.max.saturating_mul(4)),
                Ty::Bytes,
            ),
            "timestamp" | "duration" => one(Ty::Time),
            "size" => one(Ty::Int),
            "int" => one(Ty::Int),
            "uint" => one(Ty::Uint),
            "double" => one(Ty::Double),
            "string" => one(Ty::Str),
            "bool" | "isURL" => one(Ty::Bool),
            "dyn" => match recv {
                Some(r) => Info {
                    cost: inputs.add(est(1, 1)),
                    ..*r
                },
                None => one(Ty::Dyn),
            },
            _ => one(Ty::Dyn),
        }
    }
}

/// The size of `replace`'s result (Kubernetes' cost library): as many of the smallest
/// replaced substrings as fit, each the longest replacement, or the input's own length
/// where replacing does not lengthen (shorten) it.
fn replaced_size(sz: Est, to_replace: Est, with: Est) -> Est {
    let plus_one = |n: u64| if n < u64::MAX { n + 1 } else { n };
    let ceil_div = |a: u64, b: u64| ((a as f64) / (b as f64)).ceil() as u64;
    let (count_max, retained_max) = if to_replace.min == 0 {
        (plus_one(sz.max), sz.max)
    } else if with.max <= to_replace.min {
        (0, sz.max)
    } else {
        (ceil_div(sz.max, to_replace.min), 0)
    };
    let (count_min, retained_min) = if to_replace.max == 0 {
        (plus_one(sz.min), sz.min)
    } else if to_replace.max <= with.min {
        (0, sz.min)
    } else {
        (ceil_div(sz.min, to_replace.max), 0)
    };
    est(count_min, count_max)
        .mul(with)
        .add(est(retained_min, retained_max))
}
