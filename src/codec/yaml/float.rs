//! Go's `strconv.FormatFloat(f, 'g', -1, bits)`: the shortest digits that read back exactly,
//! in `%e` form when the exponent is below -4 or at least 6, else `%f` form.
//!
//! go-yaml writes every float this way, so a float that JSON shows as `1234567.5` is
//! `1.2345675e+06` in a YAML response, exactly as kube-apiserver answers.

/// `FormatFloat(f, 'g', -1, 64)`.
pub(crate) fn format_g(f: f64) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "+Inf" } else { "-Inf" }.into();
    }
    // Rust's `{:e}` prints the shortest round-trip digits, as Go's shortest mode does.
    from_exp_form(&format!("{f:e}"))
}

/// `FormatFloat(f, 'g', -1, 32)` (shortest digits for a float32).
pub(crate) fn format_g32(f: f32) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "+Inf" } else { "-Inf" }.into();
    }
    from_exp_form(&format!("{f:e}"))
}

/// Rewrites Rust's `d.ddde<exp>` as Go's `%g` with shortest precision.
fn from_exp_form(s: &str) -> String {
    let (neg, s) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s),
    };
    let (mantissa, exp) = s.split_once('e').unwrap_or((s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: Vec<u8> = mantissa.bytes().filter(u8::is_ascii_digit).collect();
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    if digits.iter().all(|d| *d == b'0') {
        out.push('0');
        return out;
    }
    let nd = digits.len() as i32;
    let dp = exp + 1;
    if !(-4..6).contains(&exp) {
        out.push(digits[0] as char);
        if nd > 1 {
            out.push('.');
            out.extend(digits[1..].iter().map(|d| *d as char));
        }
        out.push('e');
        out.push(if exp < 0 { '-' } else { '+' });
        let e = exp.unsigned_abs();
        if e < 10 {
            out.push('0');
        }
        out.push_str(&e.to_string());
        return out;
    }
    let digit = |i: i32| -> char {
        if i >= 0 && i < nd {
            digits[i as usize] as char
        } else {
            '0'
        }
    };
    if dp > 0 {
        for i in 0..dp {
            out.push(digit(i));
        }
    } else {
        out.push('0');
    }
    let decimals = (nd - dp).max(0);
    if decimals > 0 {
        out.push('.');
        for i in 0..decimals {
            out.push(digit(dp + i));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_go_g_format() {
        let cases = [
            (0.0, "0"),
            (-0.0, "-0"),
            (1.0, "1"),
            (1.5, "1.5"),
            (100000.0, "100000"),
            (1000000.0, "1e+06"),
            (1234567.5, "1.2345675e+06"),
            (123456.5, "123456.5"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (1e21, "1e+21"),
            (1.25e-7, "1.25e-07"),
            (1e100, "1e+100"),
            (-2.5, "-2.5"),
        ];
        for (f, want) in cases {
            assert_eq!(format_g(f), want, "{f}");
        }
        assert_eq!(format_g32(0.1), "0.1");
        assert_eq!(format_g32(1.5e10), "1.5e+10");
    }
}
