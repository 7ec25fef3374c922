//! ext/strings' `format` as version 2 of the library has it (cel-go 0.26's first formatter,
//! locale `en_US`): `%s`, `%d`, `%f`, `%e`, `%b`, `%o`, `%x`, `%X`, `%%`, precision on `%f`;
//! lists and maps written as CEL literals. Written here for its texts: message expressions
//! print with it, and its errors are the rule's.

use super::eval::{display, Val};
use crate::codec::go_quote;

/// How a double that is no number prints: Go's `NaN`, `+Inf`, `-Inf`, or, through x/text's
/// en-US printer (`localized`), `NaN`, `∞`, `-∞`; `None` for a finite one.
fn special(d: f64, localized: bool) -> Option<&'static str> {
    match (d.is_nan(), d.is_infinite(), d > 0.0, localized) {
        (true, ..) => Some("NaN"),
        (_, true, true, false) => Some("+Inf"),
        (_, true, false, false) => Some("-Inf"),
        (_, true, true, true) => Some("∞"),
        (_, true, false, true) => Some("-∞"),
        _ => None,
    }
}

/// `fmt`'s `%.Nf` of a double.
fn fixed(d: f64, precision: usize) -> String {
    special(d, false).map_or_else(|| format!("{d:.precision$}"), String::from)
}

/// `strconv.FormatFloat(d, 'g', -1, 64)`, a double converted to a string.
fn shortest(d: f64) -> String {
    special(d, false).map_or_else(|| crate::resources::field::go_v_float(d), String::from)
}

/// An en-US number: the integer part's thousands grouped (x/text's printer).
fn grouped(s: &str) -> String {
    let (sign, rest) = match s.strip_prefix('-') {
        Some(r) => ("-", r),
        None => ("", s),
    };
    let (int, frac) = rest
        .split_once('.')
        .map_or((rest, None), |(i, f)| (i, Some(f)));
    let mut out = String::new();
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    match frac {
        Some(f) => format!("{sign}{out}.{f}"),
        None => format!("{sign}{out}"),
    }
}

fn superscript(n: i32) -> String {
    const DIGITS: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    let mut out = String::new();
    if n < 0 {
        out.push('⁻');
    }
    let digits = format!("{:02}", n.unsigned_abs());
    out.extend(digits.bytes().map(|b| DIGITS[(b - b'0') as usize]));
    out
}

/// `%Ne` through x/text's printer: six digits, the exponent as a power of ten, `N` (the
/// precision, which the library passes as a width) padding on the left.
fn scientific(d: f64, width: usize) -> String {
    let body = if let Some(text) = special(d, true) {
        text.to_string()
    } else {
        let s = format!("{d:.6e}");
        let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
        let exp: i32 = exp.parse().unwrap_or(0);
        format!("{mantissa}\u{202f}×\u{202f}10{}", superscript(exp))
    };
    format!("{body:>width$}")
}

fn string_clause_error(v: &Val) -> String {
    format!("string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given {}", v.type_name())
}

/// `FormatString`: a value as `%s` writes it.
fn string_of(v: &Val) -> Result<String, String> {
    Ok(match v {
        Val::List(_) | Val::Map(_) => literal(v)?,
        Val::Double(d) => shortest(*d),
        Val::Bytes(b) => String::from_utf8(b.clone()).map_err(|_| {
            "could not convert argument \"invalid UTF-8 in bytes, cannot convert to string\" to string".to_string()
        })?,
        Val::Null => "null".into(),
        Val::Int(_)
        | Val::Uint(_)
        | Val::Bool(_)
        | Val::Str(_)
        | Val::Timestamp(_)
        | Val::Duration(_)
        | Val::Type(_) => display(v),
        v => return Err(string_clause_error(v)),
    })
}

/// A list's or map's member as `clauseForType` and `quoteForCEL` write it.
fn member(v: &Val) -> Result<String, String> {
    Ok(match v {
        Val::Int(_) | Val::Uint(_) | Val::Bool(_) | Val::Null | Val::Type(_) => display(v),
        Val::Str(s) => go_quote(s),
        Val::Bytes(_) => format!("b{}", go_quote(&string_of(v)?)),
        Val::Double(d) if d.is_finite() => fixed(*d, 6),
        Val::Double(d) => go_quote(&fixed(*d, 6)),
        Val::Timestamp(_) => format!("timestamp({})", go_quote(&display(v))),
        Val::Duration(_) => format!("duration({})", go_quote(&display(v))),
        Val::List(_) | Val::Map(_) => literal(v)?,
        v => return Err(format!("no formatting function for {}", v.type_name())),
    })
}

/// `formatList` and `formatMap`: `[a, b]`, `{k:v, ...}` with the pairs ordered by key text.
fn literal(v: &Val) -> Result<String, String> {
    match v {
        Val::List(l) => {
            let items: Result<Vec<String>, String> = l.iter().map(member).collect();
            Ok(format!("[{}]", items?.join(", ")))
        }
        Val::Map(m) => {
            let mut pairs = Vec::with_capacity(m.len());
            for (k, x) in m.iter() {
                let key = match k {
                    Val::Str(s) => go_quote(s),
                    Val::Bool(_) | Val::Int(_) | Val::Uint(_) => display(k),
                    k => {
                        return Err(format!(
                            "no formatting function for map key of type {}",
                            k.type_name()
                        ))
                    }
                };
                pairs.push((key, member(x)?));
            }
            crate::sort::sort_by(&mut pairs, |a, b| a.0.cmp(&b.0));
            let pairs: Vec<String> = pairs.into_iter().map(|(k, v)| format!("{k}:{v}")).collect();
            Ok(format!("{{{}}}", pairs.join(", ")))
        }
        _ => string_of(v),
    }
}

/// A double for `%f` and `%e`: a double, or the strings that name its specials.
fn double_of(v: &Val, clause: &str) -> Result<f64, String> {
    match v {
        Val::Double(d) => Ok(*d),
        Val::Str(s) if s == "NaN" => Ok(f64::NAN),
        Val::Str(s) if s == "Infinity" => Ok(f64::INFINITY),
        Val::Str(s) if s == "-Infinity" => Ok(f64::NEG_INFINITY),
        v => Err(format!(
            "{clause} clause can only be used on doubles, was given {}",
            v.type_name()
        )),
    }
}

/// A Go `%b`, `%o`, `%x` of an integer: the sign apart.
fn radix(v: &Val, base: u32, upper: bool) -> Option<String> {
    let (neg, n) = match v {
        Val::Int(i) => (*i < 0, i.unsigned_abs()),
        Val::Uint(u) => (false, *u),
        _ => return None,
    };
    let digits = match (base, upper) {
        (2, _) => format!("{n:b}"),
        (8, _) => format!("{n:o}"),
        (_, false) => format!("{n:x}"),
        _ => format!("{n:X}"),
    };
    Some(if neg { format!("-{digits}") } else { digits })
}

/// A clause after its `%`, parsed: how many bytes it takes, its verb and its precision
/// (`parseFormattingClause`). An unknown verb is an error here, as the verb is read.
pub(super) fn parse_clause(spec: &[u8]) -> Result<(usize, u8, Option<usize>), String> {
    let parse_err = |e: String| format!("could not parse formatting clause: {e}");
    let mut i = 0;
    let mut precision = None;
    if spec.first() == Some(&b'.') {
        i = 1;
        let start = i;
        loop {
            match spec.get(i) {
                None => {
                    return Err(parse_err(
                        "error while parsing precision: could not find end of precision specifier"
                            .into(),
                    ))
                }
                Some(c) if c.is_ascii_digit() => i += 1,
                Some(_) => break,
            }
        }
        let digits = std::str::from_utf8(&spec[start..i]).unwrap_or("");
        precision = Some(digits.parse::<usize>().map_err(|_| {
            parse_err(format!(
                "error while parsing precision: error while converting precision to integer: strconv.Atoi: parsing {}: invalid syntax",
                go_quote(digits)
            ))
        })?);
    }
    let Some(&verb) = spec.get(i) else {
        return Err(parse_err("unexpected end of string".into()));
    };
    if !b"sdfebxXo".contains(&verb) {
        // Go reads the verb as one byte: `%c` of it is that byte's code point.
        let c = verb as char;
        return Err(parse_err(format!("unrecognized formatting clause \"{c}\"")));
    }
    Ok((i + 1, verb, precision))
}

/// One clause after its `%`: how many bytes it took and what it wrote.
fn clause(spec: &[u8], arg: &Val) -> Result<(usize, String), String> {
    let (read, verb, precision) = parse_clause(spec)?;
    let during = |e: String| format!("error during formatting: {e}");
    let out = match verb {
        b's' => string_of(arg).map_err(during)?,
        b'd' => match arg {
            Val::Int(_) | Val::Uint(_) => display(arg),
            v => {
                return Err(during(format!(
                    "decimal clause can only be used on integers, was given {}",
                    v.type_name()
                )))
            }
        },
        b'f' => {
            let d = double_of(arg, "fixed-point").map_err(during)?;
            match special(d, true) {
                Some(text) => text.into(),
                None => grouped(&fixed(d, precision.unwrap_or(6))),
            }
        }
        b'e' => scientific(
            double_of(arg, "scientific").map_err(during)?,
            precision.unwrap_or(6),
        ),
        b'b' => match arg {
            Val::Bool(b) => (if *b { "1" } else { "0" }).into(),
            v => radix(v, 2, false).ok_or_else(|| {
                during(format!(
                    "only integers and bools can be formatted as binary, was given {}",
                    v.type_name()
                ))
            })?,
        },
        b'o' => radix(arg, 8, false).ok_or_else(|| {
            during(format!(
                "octal clause can only be used on integers, was given {}",
                arg.type_name()
            ))
        })?,
        b'x' | b'X' => {
            let upper = verb == b'X';
            match arg {
                Val::Str(s) => hex(s.as_bytes(), upper),
                Val::Bytes(b) => hex(b, upper),
                v => radix(v, 16, upper).ok_or_else(|| {
                    during(format!(
                        "only integers, byte buffers, and strings can be formatted as hex, was given {}",
                        v.type_name()
                    ))
                })?,
            }
        }
        _ => unreachable!("parse_clause knows the verbs"),
    };
    Ok((read, out))
}

fn hex(b: &[u8], upper: bool) -> String {
    b.iter()
        .map(|x| {
            if upper {
                format!("{x:02X}")
            } else {
                format!("{x:02x}")
            }
        })
        .collect()
}

/// `<string>.format(<list>)`.
pub fn format(template: &str, args: &[Val]) -> Result<String, String> {
    let b = template.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(b.len());
    let (mut i, mut next) = (0, 0);
    while i < b.len() {
        if b[i] != b'%' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        if b.get(i + 1) == Some(&b'%') {
            out.push(b'%');
            i += 2;
            continue;
        }
        let Some(arg) = args.get(next) else {
            return Err(format!("index {next} out of range"));
        };
        if i + 1 >= b.len() {
            return Err("unexpected end of string".into());
        }
        let (read, text) = clause(&b[i + 1..], arg)?;
        out.extend_from_slice(text.as_bytes());
        i += 1 + read;
        next += 1;
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

#[cfg(test)]
mod tests;
