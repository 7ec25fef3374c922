//! go-yaml v2's order for mapping keys (`sorter.go`, `keyList.Less`), which decides the key
//! order of every YAML response (the server's YAML goes through a Go map).
//!
//! Strings compare rune by rune; at the first difference letters sort after non-letters, and
//! runs of digits compare as numbers, so `a2` < `a10` and `_x` < `ax`. JSON keys are always
//! strings, so only the string branch is needed.

use std::cmp::Ordering;

/// A total order from `Less` (keys are unique within a mapping).
pub(crate) fn compare_keys(a: &str, b: &str) -> Ordering {
    if less(a, b) {
        Ordering::Less
    } else if less(b, a) {
        Ordering::Greater
    } else {
        Ordering::Equal
    }
}

/// Go's `unicode.IsLetter` (Rust's `is_alphabetic` is the closest std test; they differ only
/// on a few non-letter alphabetic marks).
fn is_letter(c: char) -> bool {
    c.is_alphabetic()
}

/// Go's `unicode.IsDigit` (decimal digits; `is_numeric` also admits a few other numerals).
fn is_digit(c: char) -> bool {
    c.is_ascii_digit() || (!c.is_ascii() && c.is_numeric())
}

fn digit_value(c: char) -> i64 {
    i64::from(c as u32).wrapping_sub(i64::from(b'0'))
}

fn less(a: &str, b: &str) -> bool {
    // Keys are nearly always ASCII: compare bytes as runes without collecting them.
    if a.is_ascii() && b.is_ascii() {
        return less_runes(a.as_bytes(), b.as_bytes());
    }
    let ar: Vec<char> = a.chars().collect();
    let br: Vec<char> = b.chars().collect();
    less_runes(&ar, &br)
}

fn less_runes<T: Copy + Into<char>>(a: &[T], b: &[T]) -> bool {
    let at = |i: usize| -> char { a[i].into() };
    let bt = |i: usize| -> char { b[i].into() };
    let (ar, br) = (a, b);
    for i in 0..ar.len().min(br.len()) {
        if at(i) == bt(i) {
            continue;
        }
        let al = is_letter(at(i));
        let bl = is_letter(bt(i));
        if al && bl {
            return at(i) < bt(i);
        }
        if al || bl {
            return bl;
        }
        let (mut an, mut bn): (i64, i64) = (0, 0);
        if at(i) == '0' || bt(i) == '0' {
            for j in (0..i).rev() {
                if !is_digit(at(j)) {
                    break;
                }
                if at(j) != '0' {
                    an = 1;
                    bn = 1;
                    break;
                }
            }
        }
        let mut ai = i;
        while ai < ar.len() && is_digit(at(ai)) {
            an = an.wrapping_mul(10).wrapping_add(digit_value(at(ai)));
            ai += 1;
        }
        let mut bi = i;
        while bi < br.len() && is_digit(bt(bi)) {
            bn = bn.wrapping_mul(10).wrapping_add(digit_value(bt(bi)));
            bi += 1;
        }
        if an != bn {
            return an < bn;
        }
        if ai != bi {
            return ai < bi;
        }
        return at(i) < bt(i);
    }
    ar.len() < br.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn natural_order() {
        let mut keys = vec![
            "metadata",
            "apiVersion",
            "kind",
            "data",
            "revision",
            "a10",
            "a2",
            "_x",
            "ax",
            "B",
            "a",
            "1",
            "",
        ];
        keys.sort_by(|a, b| compare_keys(a, b));
        assert_eq!(
            keys,
            [
                "",
                "_x",
                "1",
                "B",
                "a",
                "a2",
                "a10",
                "apiVersion",
                "ax",
                "data",
                "kind",
                "metadata",
                "revision"
            ]
        );
    }
}
