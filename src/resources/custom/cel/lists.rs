//! cel-go's list and set extensions as the Kubernetes environment has them (`ext.Lists`
//! version 3: `slice`, `flatten`, `sort`, `sortBy`'s keyed sort, `lists.range`, `reverse`,
//! `distinct`; `ext.Sets`: `sets.contains`, `sets.equivalent`, `sets.intersects`), with the
//! texts of cel-go 0.26, which Kubernetes 1.36 builds with.

use std::cmp::Ordering;
use std::rc::Rc;

use super::eval::{compare, equal, Val};

fn list(v: Vec<Val>) -> Val {
    Val::List(Rc::new(v))
}

/// `flatten(l, depth)`: nested lists opened `depth` levels down.
fn flatten(l: &[Val], depth: i64, out: &mut Vec<Val>) {
    for x in l {
        match x {
            Val::List(inner) if depth > 0 => flatten(inner, depth - 1, out),
            x => out.push(x.clone()),
        }
    }
}

/// Whether values of this kind can be ordered (`traits.Comparer`).
fn comparable(v: &Val) -> bool {
    matches!(
        v,
        Val::Int(_)
            | Val::Uint(_)
            | Val::Double(_)
            | Val::Bool(_)
            | Val::Str(_)
            | Val::Bytes(_)
            | Val::Timestamp(_)
            | Val::Duration(_)
    )
}

/// `sortListByAssociatedKeys`: `items` ordered by `keys`, which must all be of the first
/// key's type and comparable. Go's `sort.Slice` is not stable past 12 elements; this sort
/// is, which agrees with it wherever the order is defined.
pub fn sort_by_keys(items: &[Val], keys: &[Val]) -> Result<Val, String> {
    if items.len() != keys.len() {
        return Err(format!(
            "@sortByAssociatedKeys() expected a list of the same size as the associated keys list, but got {} and {} elements respectively",
            items.len(),
            keys.len()
        ));
    }
    let Some(first) = keys.first() else {
        return Ok(list(Vec::new()));
    };
    if !comparable(first) {
        return Err("list elements must be comparable".into());
    }
    if keys
        .iter()
        .any(|k| std::mem::discriminant(k) != std::mem::discriminant(first))
    {
        return Err("list elements must have the same type".into());
    }
    let mut order: Vec<usize> = (0..items.len()).collect();
    crate::sort::sort_by(&mut order, |a, b| {
        compare(&keys[*a], &keys[*b]).unwrap_or(Ordering::Equal)
    });
    Ok(list(order.into_iter().map(|i| items[i].clone()).collect()))
}

/// Whether `a` holds every element of `b` (CEL equality, numbers across types).
fn contains(a: &[Val], b: &[Val]) -> bool {
    b.iter().all(|x| a.iter().any(|y| equal(y, x)))
}

/// The extensions' functions; `None` when `name` is not theirs for these arguments.
pub fn call(name: &str, target: Option<&Val>, args: &[Val]) -> Option<Result<Val, String>> {
    let ok = |v: Val| Some(Ok(v));
    match (name, target, args) {
        ("slice", Some(Val::List(l)), [Val::Int(a), Val::Int(b)]) => {
            let (a, b) = (*a, *b);
            Some(if a < 0 || b < 0 {
                Err(format!(
                    "cannot slice({a}, {b}), negative indexes not supported"
                ))
            } else if a > b {
                Err(format!(
                    "cannot slice({a}, {b}), start index must be less than or equal to end index"
                ))
            } else if (l.len() as i64) < b {
                Err(format!(
                    "cannot slice({a}, {b}), list is length {}",
                    l.len()
                ))
            } else {
                Ok(list(l[a as usize..b as usize].to_vec()))
            })
        }
        ("flatten", Some(Val::List(l)), []) => {
            let mut out = Vec::new();
            flatten(l, 1, &mut out);
            ok(list(out))
        }
        ("flatten", Some(Val::List(l)), [Val::Int(d)]) => {
            if *d < 0 {
                return Some(Err("level must be non-negative".into()));
            }
            let mut out = Vec::new();
            flatten(l, *d, &mut out);
            ok(list(out))
        }
        ("flatten", Some(t), rest) => Some(Err(match rest {
            [] => format!("no such overload: {}.flatten()", t.type_name()),
            [d, ..] => format!(
                "no such overload: {}.flatten({})",
                t.type_name(),
                d.type_name()
            ),
        })),
        ("sort", Some(Val::List(l)), []) => Some(sort_by_keys(l, l)),
        ("@sortByAssociatedKeys", Some(Val::List(l)), [Val::List(keys)]) => {
            Some(sort_by_keys(l, keys))
        }
        // cel-go 0.26: no limit, and none below zero.
        ("lists.range", None, [Val::Int(n)]) => ok(list((0..(*n).max(0)).map(Val::Int).collect())),
        ("reverse", Some(Val::List(l)), []) => ok(list(l.iter().rev().cloned().collect())),
        ("distinct", Some(Val::List(l)), []) => {
            let mut out: Vec<Val> = Vec::new();
            for x in l.iter() {
                if !out.iter().any(|y| equal(y, x)) {
                    out.push(x.clone());
                }
            }
            ok(list(out))
        }
        ("sets.contains", None, [Val::List(a), Val::List(b)]) => ok(Val::Bool(contains(a, b))),
        ("sets.equivalent", None, [Val::List(a), Val::List(b)]) => {
            ok(Val::Bool(contains(a, b) && contains(b, a)))
        }
        ("sets.intersects", None, [Val::List(a), Val::List(b)]) => {
            ok(Val::Bool(a.iter().any(|x| b.iter().any(|y| equal(x, y)))))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests;
