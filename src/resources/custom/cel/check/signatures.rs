//! What the checker knows of functions and operators: the result types that do not depend
//! on the arguments, and the arithmetic overloads.

use super::types::T::{self, *};
use super::types::{general, unify};

/// A function's result type where it does not depend on the arguments.
pub(super) fn result_of<'s>(name: &str) -> T<'s> {
    match name {
        "startsWith"
        | "endsWith"
        | "contains"
        | "matches"
        | "isSorted"
        | "isURL"
        | "isIP"
        | "isCIDR"
        | "isQuantity"
        | "isSemver"
        | "hasValue"
        | "isInteger"
        | "isGreaterThan"
        | "isLessThan"
        | "containsIP"
        | "containsCIDR"
        | "isUnspecified"
        | "isLoopback"
        | "isLinkLocalMulticast"
        | "isLinkLocalUnicast"
        | "isGlobalUnicast"
        | "ip.isCanonical"
        | "sets.contains"
        | "sets.equivalent"
        | "sets.intersects"
        | "bool" => Bool,
        "size" | "int" | "compareTo" | "family" | "prefixLength" | "major" | "minor" | "patch"
        | "sign" | "asInteger" | "getDate" | "getDayOfMonth" | "getDayOfWeek" | "getDayOfYear"
        | "getFullYear" | "getHours" | "getMilliseconds" | "getMinutes" | "getMonth"
        | "getSeconds" => Int,
        "string" | "lowerAscii" | "upperAscii" | "trim" | "replace" | "substring" | "charAt"
        | "join" | "format" | "strings.quote" | "getScheme" | "getHost" | "getHostname"
        | "getPort" | "getEscapedPath" | "find" => Str,
        "double" | "asApproximateFloat" => Double,
        "uint" => Uint,
        "bytes" => Bytes,
        "split" | "findAll" => List(Box::new(Str)),
        "timestamp" => Timestamp,
        "duration" => Duration,
        "type" => Type,
        "dyn" => Dyn,
        "ip" => Named("net.IP"),
        "cidr" | "masked" => Named("net.CIDR"),
        "quantity" | "add" | "sub" => Named("kubernetes.Quantity"),
        "semver" => Named("kubernetes.Semver"),
        "url" => Named("kubernetes.URL"),
        _ => Unknown,
    }
}

/// Functions declared with member overloads only (cel-go's strings, lists, regex, optional,
/// URL, IP, CIDR, quantity and semver libraries, and the standard `startsWith`, `endsWith`,
/// `contains`): called as a global, no overload matches whatever the arguments.
pub(super) fn member_only(name: &str) -> bool {
    matches!(
        name,
        "startsWith"
            | "endsWith"
            | "contains"
            | "lowerAscii"
            | "upperAscii"
            | "trim"
            | "charAt"
            | "substring"
            | "split"
            | "replace"
            | "indexOf"
            | "lastIndexOf"
            | "join"
            | "format"
            | "reverse"
            | "find"
            | "findAll"
            | "isSorted"
            | "sum"
            | "min"
            | "max"
            | "slice"
            | "flatten"
            | "sort"
            | "distinct"
            | "first"
            | "last"
            | "hasValue"
            | "value"
            | "orValue"
            | "getScheme"
            | "getHost"
            | "getHostname"
            | "getPort"
            | "getEscapedPath"
            | "getQuery"
            | "containsIP"
            | "containsCIDR"
            | "prefixLength"
            | "masked"
            | "family"
            | "isUnspecified"
            | "isLoopback"
            | "isLinkLocalMulticast"
            | "isLinkLocalUnicast"
            | "isGlobalUnicast"
            | "isInteger"
            | "asInteger"
            | "asApproximateFloat"
            | "sign"
            | "add"
            | "sub"
            | "isGreaterThan"
            | "isLessThan"
            | "compareTo"
            | "major"
            | "minor"
            | "patch"
    )
}

/// The type of `l op r` for `+`, `-`, `*`, `/`, `%`; `None` when no overload takes them.
pub(super) fn arithmetic<'s>(op: &str, l: &T<'s>, r: &T<'s>) -> Option<T<'s>> {
    let same = |kinds: &[T]| kinds.contains(l) && l == r;
    if l.loose() && r.loose() {
        return Some(if *l == Unknown || *r == Unknown {
            Unknown
        } else {
            Dyn
        });
    }
    if l.loose() || r.loose() {
        // One side decides; where several overloads fit, the result is dyn.
        let (known, on_left) = if l.loose() { (r, false) } else { (l, true) };
        return Some(match (op, known, on_left) {
            // (duration, duration) and (duration, timestamp); (timestamp, duration) alone.
            ("+", Duration, _) => Dyn,
            ("+", Timestamp, _) => Timestamp,
            // ts - ts and ts - duration differ; only duration - duration has one on the left,
            // and on the right a duration fits ts - duration and duration - duration.
            ("-", Timestamp, true) => Dyn,
            ("-", Timestamp, false) => Duration,
            ("-", Duration, true) => Duration,
            ("-", Duration, false) => Dyn,
            ("+" | "-" | "*" | "/", Int | Uint | Double, _) | ("%", Int | Uint, _) => known.clone(),
            ("+", Str | Bytes | List(_), _) => known.clone(),
            _ => return None,
        });
    }
    match op {
        "+" if same(&[Int, Uint, Double, Str, Bytes, Duration]) => Some(l.clone()),
        "+" => match (l, r) {
            (List(a), List(b)) if unify(a, b) => Some(List(Box::new(general(a, b)))),
            (Timestamp, Duration) | (Duration, Timestamp) => Some(Timestamp),
            _ => None,
        },
        "-" if same(&[Int, Uint, Double, Duration]) => Some(l.clone()),
        "-" => match (l, r) {
            (Timestamp, Timestamp) => Some(Duration),
            (Timestamp, Duration) => Some(Timestamp),
            _ => None,
        },
        "*" | "/" if same(&[Int, Uint, Double]) => Some(l.clone()),
        "%" if same(&[Int, Uint]) => Some(l.clone()),
        _ => None,
    }
}
