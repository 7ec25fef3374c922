//! cel-go's optional types, as `cel.OptionalTypes()` turns them on in the Kubernetes
//! environment (every library version): `optional.of`, `optional.none`,
//! `optional.ofNonZeroValue`, `value`, `hasValue`, `or`, `orValue`, `first`, `last`,
//! `optional.unwrap`, `unwrapOpt`; and the presence steps `a.?b` and `a[?k]`, after which
//! every later step of the chain is a presence test too (`applyQualifiers`), as is any step
//! on an optional value. The evaluator calls in here for each; `or` and `orValue`, which
//! short-circuit, and the `optMap` and `optFlatMap` macros are the evaluator's.

use std::rc::Rc;

use super::eval::{display, equal, Val};

/// `optional.none()`.
pub const NONE: Val = Val::Optional(None);

/// `optional.of(v)`.
pub fn of(v: Val) -> Val {
    Val::Optional(Some(Rc::new(v)))
}

/// `v.f` as a presence test: the field's value if it is there, else none. A Kubernetes
/// object's property that holds null counts as absent (`unstructuredMap.Find`).
pub fn select(v: &Val, field: &str) -> Val {
    match v {
        Val::Map(m) => match super::eval::field_of(m, field) {
            Some(Val::Null) | None => NONE,
            Some(x) => of(x.clone()),
        },
        _ => NONE,
    }
}

/// `c[i]` as a presence test: a list's element when the index is in range, a map's value
/// when the key is there, else none; an index that cannot index a list is an error still.
pub fn index(c: &Val, i: &Val) -> Result<Val, String> {
    Ok(match c {
        Val::List(l) => {
            let n = super::eval::list_index(i)?;
            usize::try_from(n)
                .ok()
                .and_then(|n| l.get(n))
                .map_or(NONE, |x| of(x.clone()))
        }
        Val::Map(m) => m
            .iter()
            .find(|(k, _)| equal(k, i))
            .map_or(NONE, |(_, x)| of(x.clone())),
        _ => NONE,
    })
}

/// Whether cel-go's `IsZeroValue` holds. Lists and maps read from the object never are
/// (Kubernetes' unstructured values are no `Zeroer`s), and the library kinds are not.
fn is_zero(v: &Val) -> bool {
    match v {
        Val::Null => true,
        Val::Bool(b) => !b,
        Val::Int(i) => *i == 0,
        Val::Uint(u) => *u == 0,
        Val::Double(d) => *d == 0.0,
        Val::Str(s) => s.is_empty(),
        Val::Bytes(b) => b.is_empty(),
        Val::Duration(d) => *d == 0,
        // A timestamp at Go's zero time (0001-01-01T00:00:00Z).
        Val::Timestamp(t) => t.secs == -62_135_596_800 && t.nanos == 0,
        _ => false,
    }
}

/// The library's functions (all but `or` and `orValue`); `None` when `name` is not theirs
/// for these arguments.
pub fn call(name: &str, target: Option<&Val>, args: &[Val]) -> Option<Result<Val, String>> {
    let ok = |v: Val| Some(Ok(v));
    match (name, target, args) {
        ("optional.of", None, [v]) => ok(of(v.clone())),
        ("optional.none", None, []) => ok(NONE),
        ("optional.ofNonZeroValue", None, [v]) => ok(if is_zero(v) { NONE } else { of(v.clone()) }),
        ("hasValue", Some(Val::Optional(o)), []) => ok(Val::Bool(o.is_some())),
        ("value", Some(Val::Optional(o)), []) => Some(
            o.as_deref()
                .cloned()
                .ok_or_else(|| "optional.none() dereference".to_string()),
        ),
        ("first", Some(Val::List(l)), []) => ok(l.first().cloned().map_or(NONE, of)),
        ("last", Some(Val::List(l)), []) => ok(l.last().cloned().map_or(NONE, of)),
        ("optional.unwrap", None, [Val::List(l)]) | ("unwrapOpt", Some(Val::List(l)), []) => {
            let mut out = Vec::new();
            for x in l.iter() {
                match x {
                    Val::Optional(Some(v)) => out.push((**v).clone()),
                    Val::Optional(None) => {}
                    other => return Some(Err(format!("value {} is not optional", display(other)))),
                }
            }
            ok(Val::List(Rc::new(out)))
        }
        _ => None,
    }
}

/// `Optional.Equal`: none equals none, two values compare as their contents.
pub fn equal_optionals(a: &Option<Rc<Val>>, b: &Option<Rc<Val>>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(x), Some(y)) => equal(x, y),
        _ => false,
    }
}

#[cfg(test)]
mod tests;
