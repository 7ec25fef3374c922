//! Comparing resourceVersions, per the spec's "Resource version rules" 1-6.
//!
//! Clients may order resource versions of the same resource type only when both are
//! canonical decimal integers (a digit 1-9 followed by digits); they are compared as
//! arbitrary-size integers, which is equivalent to: longer is greater, equal lengths compare
//! lexicographically. Anything else can only be tested for equality.

use std::cmp::Ordering;

/// The result of comparing two resource versions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RvOrder {
    /// Both are orderable: their order.
    Ordered(Ordering),
    /// At least one is not orderable; they are identical strings.
    Equal,
    /// At least one is not orderable; they differ, and no order can be claimed.
    Incomparable,
}

/// Whether `rv` may be ordered: starts with 1-9 and has only decimal digits (rule 5).
pub fn is_orderable(rv: &str) -> bool {
    let b = rv.as_bytes();
    !b.is_empty() && (b'1'..=b'9').contains(&b[0]) && b.iter().all(u8::is_ascii_digit)
}

/// Compares two resource versions of the same resource type (rules 2-5). Works for any
/// number of digits: no fixed bit size is assumed.
pub fn compare(a: &str, b: &str) -> RvOrder {
    if is_orderable(a) && is_orderable(b) {
        RvOrder::Ordered(a.len().cmp(&b.len()).then_with(|| a.cmp(b)))
    } else if a == b {
        RvOrder::Equal
    } else {
        RvOrder::Incomparable
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Arbitrary-size decimal comparison by digit arithmetic (independent of `compare`).
    fn numeric(a: &str, b: &str) -> Ordering {
        let strip = |s: &str| s.trim_start_matches('0').to_string();
        let (a, b) = (strip(a), strip(b));
        if a.len() != b.len() {
            return a.len().cmp(&b.len());
        }
        for (x, y) in a.bytes().zip(b.bytes()) {
            if x != y {
                return x.cmp(&y);
            }
        }
        Ordering::Equal
    }

    #[test]
    fn rules_table() {
        use Ordering::*;
        let rows = [
            ("1", "2", RvOrder::Ordered(Less)),
            ("10", "9", RvOrder::Ordered(Greater)),
            ("123", "123", RvOrder::Ordered(Equal)),
            (
                "99999999999999999999999",
                "100000000000000000000000",
                RvOrder::Ordered(Less),
            ),
            ("0", "0", RvOrder::Equal),
            ("0", "1", RvOrder::Incomparable),
            ("01", "1", RvOrder::Incomparable),
            ("abc", "abc", RvOrder::Equal),
            ("abc", "123", RvOrder::Incomparable),
            ("", "", RvOrder::Equal),
            ("-1", "1", RvOrder::Incomparable),
            ("1.0", "1", RvOrder::Incomparable),
        ];
        for (a, b, want) in rows {
            assert_eq!(compare(a, b), want, "{a} vs {b}");
        }
    }

    #[test]
    fn string_rule_matches_integer_comparison() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..5_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let a = format!("{}{}", 1 + x % 9, x % 1_000_003);
            let b = format!("{}{}", 1 + (x >> 8) % 9, (x >> 20) % 97);
            assert_eq!(
                compare(&a, &b),
                RvOrder::Ordered(numeric(&a, &b)),
                "{a} {b}"
            );
        }
    }
}
