//! Kubernetes' CEL quantity library (`kubernetes.Quantity`): `quantity()` and `isQuantity()`
//! parse as `resource.ParseQuantity` does (its error texts), `sign()`, and the methods
//! `isInteger`, `asInteger`, `asApproximateFloat`, `isGreaterThan`, `isLessThan`,
//! `compareTo`, `add` and `sub`.
//!
//! A quantity is held as its exact value in nanounits (the precision `ParseQuantity` rounds
//! to, away from zero), which every method needs; binary-suffixed values above 2^63 - 1 are
//! capped there, as Go caps them. Values beyond an `i128` of nanounits (about 10^29) are
//! held saturated, where Go keeps arbitrary precision.

use super::eval::Val;

const FORMAT_WRONG: &str =
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const SUFFIX: &str = "unable to parse quantity's suffix";
const NANOS_PER_UNIT: i128 = 1_000_000_000;

/// A quantity's value; `derived`: the result of `add` or `sub`, which cel-go holds by
/// pointer, so that it cannot be the right side of `==` (`no such overload`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quantity {
    pub nanos: i128,
    pub derived: bool,
}

/// The parts `parseQuantityString` finds: sign, integer digits, fraction digits, suffix.
fn split(s: &str) -> Result<(bool, &str, &str, &str), &'static str> {
    let b = s.as_bytes();
    let end = b.len();
    let mut pos = 0;
    let mut positive = true;
    match b.first() {
        Some(b'-') => {
            positive = false;
            pos = 1;
        }
        Some(b'+') => pos = 1,
        _ => {}
    }
    while pos < end && b[pos] == b'0' {
        pos += 1;
    }
    if pos >= end {
        return Ok((positive, "0", "", ""));
    }
    let digits = |from: usize| from + b[from..].iter().take_while(|c| c.is_ascii_digit()).count();
    let num_end = digits(pos);
    let num = &s[pos..num_end];
    pos = num_end;
    let mut denom = "";
    if pos < end && b[pos] == b'.' {
        let denom_end = digits(pos + 1);
        denom = &s[pos + 1..denom_end];
        pos = denom_end;
    }
    let suffix_start = pos;
    while pos < end && b"eEinumkKMGTP".contains(&b[pos]) {
        pos += 1;
    }
    if pos < end && matches!(b[pos], b'-' | b'+') {
        pos += 1;
    }
    if digits(pos.min(end)) != end {
        return Err(FORMAT_WRONG);
    }
    Ok((positive, num, denom, &s[suffix_start..]))
}

/// A suffix's base and exponent (`quantitySuffixer.interpret`).
fn suffix(s: &str) -> Option<(u32, i32)> {
    let decimal = [
        ("n", -9),
        ("u", -6),
        ("m", -3),
        ("", 0),
        ("k", 3),
        ("M", 6),
        ("G", 9),
        ("T", 12),
        ("P", 15),
        ("E", 18),
    ];
    let binary = [
        ("Ki", 10),
        ("Mi", 20),
        ("Gi", 30),
        ("Ti", 40),
        ("Pi", 50),
        ("Ei", 60),
    ];
    if let Some((_, e)) = decimal.iter().find(|(k, _)| *k == s) {
        return Some((10, *e));
    }
    if let Some((_, e)) = binary.iter().find(|(k, _)| *k == s) {
        return Some((2, *e));
    }
    let rest = s.strip_prefix(['e', 'E']).filter(|r| !r.is_empty())?;
    let e: i64 = rest.parse().ok()?;
    Some((10, i32::try_from(e).ok()?))
}

/// `resource.ParseQuantity`: the value in nanounits.
pub fn parse(s: &str) -> Result<i128, &'static str> {
    if s.is_empty() {
        return Err(FORMAT_WRONG);
    }
    let (positive, num, denom, suf) = split(s)?;
    let (base, exponent) = suffix(suf).ok_or(SUFFIX)?;
    let mut value: i128 = 0;
    for d in num.bytes().chain(denom.bytes()) {
        value = value
            .saturating_mul(10)
            .saturating_add(i128::from(d - b'0'));
    }
    // value × 10^(9 - len(denom)) × base^exponent, rounded away from zero to a nanounit.
    let mut scale10 = 9 - denom.len() as i64;
    if base == 10 {
        scale10 += i64::from(exponent);
    } else {
        value = value.saturating_mul(1i128.checked_shl(exponent as u32).unwrap_or(i128::MAX));
    }
    let value = if scale10 >= 0 {
        let factor = 10i128
            .checked_pow(scale10.min(40) as u32)
            .unwrap_or(i128::MAX);
        value.saturating_mul(factor)
    } else {
        let divisor = 10i128
            .checked_pow((-scale10).min(40) as u32)
            .unwrap_or(i128::MAX);
        value / divisor + i128::from(value % divisor != 0)
    };
    let capped = match base {
        2 => value.min(i128::from(i64::MAX) * NANOS_PER_UNIT),
        _ => value,
    };
    Ok(if positive { capped } else { -capped })
}

fn quantity_of(s: &str) -> Result<Val, String> {
    parse(s)
        .map(|nanos| {
            Val::Quantity(Quantity {
                nanos,
                derived: false,
            })
        })
        .map_err(str::to_string)
}

/// The quantity library's calls; `None` when `name` and the values are none of them.
pub fn call(name: &str, target: Option<&Val>, args: &[Val]) -> Option<Result<Val, String>> {
    let q = |nanos: i128| {
        Some(Ok(Val::Quantity(Quantity {
            nanos,
            derived: true,
        })))
    };
    Some(Ok(match (name, target, args) {
        ("quantity", None, [Val::Str(s)]) => return Some(quantity_of(s)),
        ("isQuantity", None, [Val::Str(s)]) => Val::Bool(parse(s).is_ok()),
        ("sign", None, [Val::Quantity(x)]) => Val::Int(x.nanos.signum() as i64),
        (_, Some(Val::Quantity(x)), rest) => match (name, rest) {
            ("isInteger", []) => Val::Bool(as_int(x).is_some()),
            ("asInteger", []) => {
                return Some(
                    as_int(x)
                        .map(Val::Int)
                        .ok_or_else(|| "cannot convert value to integer".to_string()),
                )
            }
            ("asApproximateFloat", []) => Val::Double(x.nanos as f64 / 1e9),
            ("isGreaterThan", [Val::Quantity(y)]) => Val::Bool(x.nanos > y.nanos),
            ("isLessThan", [Val::Quantity(y)]) => Val::Bool(x.nanos < y.nanos),
            ("compareTo", [Val::Quantity(y)]) => Val::Int(x.nanos.cmp(&y.nanos) as i64),
            ("add", [Val::Quantity(y)]) => return q(x.nanos.saturating_add(y.nanos)),
            ("add", [Val::Int(i)]) => {
                return q(x.nanos.saturating_add(i128::from(*i) * NANOS_PER_UNIT))
            }
            ("sub", [Val::Quantity(y)]) => return q(x.nanos.saturating_sub(y.nanos)),
            ("sub", [Val::Int(i)]) => {
                return q(x.nanos.saturating_sub(i128::from(*i) * NANOS_PER_UNIT))
            }
            _ => return None,
        },
        _ => return None,
    }))
}

/// `AsInt64`: the value when it is a whole number that fits an int64.
fn as_int(q: &Quantity) -> Option<i64> {
    (q.nanos % NANOS_PER_UNIT == 0)
        .then(|| i64::try_from(q.nanos / NANOS_PER_UNIT).ok())
        .flatten()
}

/// `Quantity.Equal`: by value, with a plain (not derived) quantity on the right.
pub fn equal(a: &Val, b: &Val) -> Option<Result<bool, String>> {
    match (a, b) {
        (Val::Quantity(x), Val::Quantity(y)) if !y.derived => Some(Ok(x.nanos == y.nanos)),
        (Val::Quantity(_), _) | (_, Val::Quantity(_)) => Some(Err("no such overload".into())),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantities_parse_as_parse_quantity() {
        let unit = 1_000_000_000i128;
        for (text, want) in [
            ("0", 0),
            ("1", unit),
            ("1.5Gi", 1_610_612_736 * unit),
            ("500Mi", 524_288_000 * unit),
            ("100m", unit / 10),
            ("1e3", 1000 * unit),
            ("2E-2", unit / 50),
            ("-0.1n", -1),
            ("+007k", 7000 * unit),
            (".", 0),
            ("16Ei", i128::from(i64::MAX) * unit),
        ] {
            assert_eq!(parse(text), Ok(want), "{text}");
        }
        for (text, want) in [
            ("", FORMAT_WRONG),
            ("abc", FORMAT_WRONG),
            ("1x", FORMAT_WRONG),
            ("10Mm", SUFFIX),
            ("1e", SUFFIX),
        ] {
            assert_eq!(parse(text), Err(want), "{text}");
        }
    }

    #[test]
    fn methods_compare_and_add_exactly() {
        let q = |s: &str| quantity_of(s).unwrap();
        let call1 = |name: &str, t: &Val, args: &[Val]| call(name, Some(t), args).unwrap();
        assert_eq!(call1("compareTo", &q("1Gi"), &[q("1G")]), Ok(Val::Int(1)));
        assert_eq!(call1("isInteger", &q("1500m"), &[]), Ok(Val::Bool(false)));
        assert_eq!(
            call1("asInteger", &q("1500m"), &[]),
            Err("cannot convert value to integer".into())
        );
        let sum = call1("add", &q("1500m"), &[Val::Int(1)]).unwrap();
        assert_eq!(
            equal(&q("2500m"), &sum),
            Some(Err("no such overload".into()))
        );
        assert_eq!(equal(&sum, &q("2.5")), Some(Ok(true)));
        assert_eq!(equal(&q("200M"), &q("0.2G")), Some(Ok(true)));
        assert_eq!(call("sign", None, &[q("-1m")]).unwrap(), Ok(Val::Int(-1)));
    }
}
