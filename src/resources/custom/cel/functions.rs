//! CEL's standard functions and the Kubernetes libraries CRD rules use: `size`, string tests
//! (`startsWith`, `endsWith`, `contains`, `matches`), conversions (`int`, `uint`, `double`,
//! `string`, `bool`, `dyn`, `type`), the strings extension (`charAt`, `indexOf`,
//! `lastIndexOf`, `lowerAscii`, `upperAscii`, `replace`, `split`, `substring`, `trim`,
//! `join`), the lists library (`isSorted`, `sum`, `min`, `max`, `indexOf`, `lastIndexOf`),
//! the regex library (`find`, `findAll`) and the URL library (`url`, `isURL`, `getScheme`,
//! `getHost`, `getHostname`, `getPort`, `getEscapedPath`, `getQuery`); timestamps and
//! durations are [`super::time`]'s, quantities [`super::quantity`]'s. Regular expressions are RE2 as `regex-lite` reads them.

use std::cmp::Ordering;

use super::eval::{compare, display, equal, Val};
use crate::resources::custom::neturl;

/// cel-go's failed conversion of a string.
fn conversion(to: &str) -> String {
    format!("type conversion error from 'string' to '{to}'")
}

fn no_overload<T>() -> Result<T, String> {
    Err("no such overload".into())
}

fn regex(re: &str) -> Result<regex_lite::Regex, String> {
    regex_lite::Regex::new(re).map_err(|e| format!("invalid regular expression: {e}"))
}

fn index_of_str(s: &str, sub: &str, from_end: bool) -> i64 {
    let found = if from_end { s.rfind(sub) } else { s.find(sub) };
    found.map_or(-1, |b| s[..b].chars().count() as i64)
}

fn as_int(v: &Val) -> Option<i64> {
    match v {
        Val::Int(i) => Some(*i),
        _ => None,
    }
}

/// Calls `name` on `target` (a method) or as a global function.
pub fn call(target: Option<Val>, name: &str, args: Vec<Val>) -> Result<Val, String> {
    if let Some(r) = super::time::call(name, target.as_ref(), &args) {
        return r;
    }
    if let Some(r) = super::quantity::call(name, target.as_ref(), &args) {
        return r;
    }
    if let Some(r) = super::net::call(name, target.as_ref(), &args) {
        return r;
    }
    if let Some(r) = super::semver::call(name, target.as_ref(), &args) {
        return r;
    }
    if let Some(r) = super::optional::call(name, target.as_ref(), &args) {
        return r;
    }
    if let Some(r) = super::lists::call(name, target.as_ref(), &args) {
        return r;
    }
    if let Some(r) = super::named_formats::call(name, target.as_ref(), &args) {
        return r;
    }
    if name == "strings.quote" {
        return match args.as_slice() {
            [Val::Str(s)] => Ok(Val::Str(quote(s))),
            _ => no_overload(),
        };
    }
    // Global forms of methods take the receiver first.
    let (recv, args) = match target {
        Some(t) => (Some(t), args),
        None if matches!(
            name,
            "size"
                | "matches"
                | "string"
                | "int"
                | "uint"
                | "double"
                | "bool"
                | "dyn"
                | "type"
                | "url"
                | "isURL"
        ) =>
        {
            let mut a = args.into_iter();
            (a.next(), a.collect())
        }
        None => {
            return Err(format!(
                "undeclared reference to '{name}' (in container '')"
            ))
        }
    };
    let Some(recv) = recv else {
        return no_overload();
    };
    Ok(match (name, recv, args.as_slice()) {
        ("size", Val::Str(s), []) => Val::Int(s.chars().count() as i64),
        ("size", Val::Bytes(b), []) => Val::Int(b.len() as i64),
        ("size", Val::List(l), []) => Val::Int(l.len() as i64),
        ("size", Val::Map(m), []) => Val::Int(m.len() as i64),
        ("startsWith", Val::Str(s), [Val::Str(p)]) => Val::Bool(s.starts_with(p.as_str())),
        ("endsWith", Val::Str(s), [Val::Str(p)]) => Val::Bool(s.ends_with(p.as_str())),
        ("contains", Val::Str(s), [Val::Str(p)]) => Val::Bool(s.contains(p.as_str())),
        ("matches", Val::Str(s), [Val::Str(re)]) => Val::Bool(regex(re)?.is_match(&s)),
        ("find", Val::Str(s), [Val::Str(re)]) => Val::Str(
            regex(re)?
                .find(&s)
                .map_or(String::new(), |m| m.as_str().to_string()),
        ),
        ("findAll", Val::Str(s), [Val::Str(re), rest @ ..]) => {
            let limit = rest.first().and_then(as_int).unwrap_or(-1);
            let re = regex(re)?;
            let all = re.find_iter(&s).map(|m| Val::Str(m.as_str().to_string()));
            Val::List(std::rc::Rc::new(match usize::try_from(limit) {
                Ok(n) => all.take(n).collect(),
                Err(_) => all.collect(),
            }))
        }
        ("string", v, []) => Val::Str(match v {
            Val::Str(s) => s,
            Val::Bytes(b) => String::from_utf8(b).map_err(|_| "invalid UTF-8".to_string())?,
            Val::List(_) | Val::Map(_) | Val::Null | Val::Url(_) | Val::Quantity(_) => {
                return no_overload()
            }
            Val::Ip(_)
            | Val::Cidr(_)
            | Val::Semver(_)
            | Val::Type(_)
            | Val::Optional(_)
            | Val::Format(_) => return no_overload(),
            v => display(&v),
        }),
        ("int", v, []) => Val::Int(match v {
            Val::Int(i) => i,
            Val::Uint(u) => i64::try_from(u).map_err(|_| "integer overflow".to_string())?,
            Val::Double(d) if d.is_finite() && d.abs() < 9.2e18 => d.trunc() as i64,
            Val::Double(_) => return Err("integer overflow".into()),
            // strconv.ParseInt(s, 10, 64).
            Val::Str(s) => s.parse().map_err(|_| conversion("int"))?,
            _ => return no_overload(),
        }),
        ("uint", v, []) => Val::Uint(match v {
            Val::Uint(u) => u,
            Val::Int(i) => u64::try_from(i).map_err(|_| "unsigned integer overflow".to_string())?,
            Val::Double(d) if d.is_finite() && d >= 0.0 => d.trunc() as u64,
            // strconv.ParseUint takes no sign.
            Val::Str(s) if !s.starts_with('+') => s.parse().map_err(|_| conversion("uint"))?,
            Val::Str(_) => return Err(conversion("uint")),
            _ => return no_overload(),
        }),
        ("double", v, []) => Val::Double(match v {
            Val::Double(d) => d,
            Val::Int(i) => i as f64,
            Val::Uint(u) => u as f64,
            Val::Str(s) => s.parse().map_err(|_| conversion("double"))?,
            _ => return no_overload(),
        }),
        ("bool", Val::Bool(b), []) => Val::Bool(b),
        // strconv.ParseBool.
        ("bool", Val::Str(s), []) => Val::Bool(match s.as_str() {
            "true" | "True" | "TRUE" | "t" | "T" | "1" => true,
            "false" | "False" | "FALSE" | "f" | "F" | "0" => false,
            _ => return Err(conversion("bool")),
        }),
        ("dyn", v, []) => v,
        ("type", v, []) => Val::Type(v.type_name()),
        ("charAt", Val::Str(s), [Val::Int(i)]) => {
            let n = s.chars().count() as i64;
            if *i < 0 || *i > n {
                return Err(format!("index out of range: {i}"));
            }
            Val::Str(
                s.chars()
                    .nth(*i as usize)
                    .map(String::from)
                    .unwrap_or_default(),
            )
        }
        ("indexOf", Val::Str(s), [Val::Str(p)]) => Val::Int(index_of_str(&s, p, false)),
        ("lastIndexOf", Val::Str(s), [Val::Str(p)]) => Val::Int(index_of_str(&s, p, true)),
        ("format", Val::Str(s), [Val::List(l)]) => Val::Str(super::string_format::format(&s, l)?),
        ("indexOf" | "lastIndexOf", Val::Str(s), [Val::Str(p), Val::Int(off)]) => {
            Val::Int(index_from(&s, p, *off, name == "lastIndexOf")?)
        }
        ("lowerAscii", Val::Str(s), []) => Val::Str(s.to_ascii_lowercase()),
        ("upperAscii", Val::Str(s), []) => Val::Str(s.to_ascii_uppercase()),
        ("trim", Val::Str(s), []) => Val::Str(s.trim().to_string()),
        ("replace", Val::Str(s), [Val::Str(a), Val::Str(b), rest @ ..]) => {
            match rest.first().and_then(as_int) {
                Some(n) if n >= 0 => Val::Str(s.replacen(a.as_str(), b, n as usize)),
                _ => Val::Str(s.replace(a.as_str(), b)),
            }
        }
        ("split", Val::Str(s), [Val::Str(sep), rest @ ..]) => {
            let parts: Vec<Val> = match rest.first().and_then(as_int) {
                Some(0) => Vec::new(),
                Some(n) if n > 0 => s
                    .splitn(n as usize, sep.as_str())
                    .map(|p| Val::Str(p.into()))
                    .collect(),
                _ => s.split(sep.as_str()).map(|p| Val::Str(p.into())).collect(),
            };
            Val::List(std::rc::Rc::new(parts))
        }
        ("substring", Val::Str(s), [Val::Int(a), rest @ ..]) => {
            let chars: Vec<char> = s.chars().collect();
            let n = chars.len() as i64;
            let b = rest.first().and_then(as_int).unwrap_or(n);
            // ext/strings' substrRange, in its order.
            if *a > b {
                return Err(format!("invalid substring range. start: {a}, end: {b}"));
            }
            if *a < 0 || *a > n {
                return Err(format!("index out of range: {a}"));
            }
            if b > n {
                return Err(format!("index out of range: {b}"));
            }
            Val::Str(chars[*a as usize..b as usize].iter().collect())
        }
        ("join", Val::List(l), rest) => {
            let sep = match rest.first() {
                Some(Val::Str(s)) => s.clone(),
                None => String::new(),
                _ => return no_overload(),
            };
            let parts: Result<Vec<String>, String> = l
                .iter()
                .map(|v| match v {
                    Val::Str(s) => Ok(s.clone()),
                    _ => no_overload(),
                })
                .collect();
            Val::Str(parts?.join(&sep))
        }
        ("isSorted", Val::List(l), []) => Val::Bool(l.windows(2).all(|w| {
            compare(&w[0], &w[1])
                .ok()
                .is_some_and(|o| o != Ordering::Greater)
        })),
        ("sum", Val::List(l), []) => l
            .iter()
            .cloned()
            .try_fold(None::<Val>, |acc, v| {
                Ok::<_, String>(Some(match (acc, v) {
                    (None, v) => v,
                    (Some(Val::Int(a)), Val::Int(b)) => {
                        Val::Int(a.checked_add(b).ok_or("integer overflow")?)
                    }
                    (Some(Val::Uint(a)), Val::Uint(b)) => {
                        Val::Uint(a.checked_add(b).ok_or("integer overflow")?)
                    }
                    (Some(Val::Double(a)), Val::Double(b)) => Val::Double(a + b),
                    _ => return no_overload(),
                }))
            })?
            .unwrap_or(Val::Int(0)),
        ("min" | "max", Val::List(l), []) => {
            let want = if name == "min" {
                Ordering::Less
            } else {
                Ordering::Greater
            };
            let mut best: Option<Val> = None;
            for v in l.iter().cloned() {
                best = match best {
                    None => Some(v),
                    Some(b) => Some(if compare(&v, &b).ok() == Some(want) {
                        v
                    } else {
                        b
                    }),
                };
            }
            best.ok_or(format!("{name} called on empty list"))?
        }
        ("indexOf" | "lastIndexOf", Val::List(l), [v]) => {
            let mut found = l
                .iter()
                .enumerate()
                .filter(|(_, x)| equal(x, v))
                .map(|(i, _)| i as i64);
            Val::Int(
                if name == "indexOf" {
                    found.next()
                } else {
                    found.next_back()
                }
                .unwrap_or(-1),
            )
        }
        ("url", Val::Str(s), []) => Val::Url(std::rc::Rc::new(url(&s)?)),
        ("isURL", Val::Str(s), []) => Val::Bool(neturl::parse_request_uri(&s).is_ok()),
        ("getScheme", Val::Url(u), []) => Val::Str(u.scheme.clone()),
        ("getHost", Val::Url(u), []) => Val::Str(u.host.clone()),
        ("getHostname", Val::Url(u), []) => Val::Str(u.hostname().to_string()),
        ("getPort", Val::Url(u), []) => Val::Str(u.port().to_string()),
        ("getEscapedPath", Val::Url(u), []) => Val::Str(u.escaped_path()),
        ("getQuery", Val::Url(u), []) => Val::Map(std::rc::Rc::new(
            u.query()
                .into_iter()
                .map(|(k, vs)| {
                    let vs = vs.into_iter().map(Val::Str).collect();
                    (Val::Str(k), Val::List(std::rc::Rc::new(vs)))
                })
                .collect(),
        )),
        _ => return no_overload(),
    })
}

/// ext/strings' `indexOfOffset` and `lastIndexOfOffset` (cel-go 0.26): in runes, an empty
/// substring found at the offset as given, an offset past the end finding nothing.
fn index_from(s: &str, sub: &str, off: i64, from_end: bool) -> Result<i64, String> {
    if sub.is_empty() {
        return Ok(off);
    }
    if off < 0 {
        return Err(format!("index out of range: {off}"));
    }
    let (runes, subs): (Vec<char>, Vec<char>) = (s.chars().collect(), sub.chars().collect());
    if off as usize >= runes.len() {
        return Ok(-1);
    }
    let at = |i: usize| runes[i..].starts_with(&subs);
    let last = runes.len() as i64 - subs.len() as i64;
    let found = if from_end {
        (0..=off.min(last)).rev().find(|i| at(*i as usize))
    } else {
        (off..=last).find(|i| at(*i as usize))
    };
    Ok(found.unwrap_or(-1))
}

/// ext/strings' `strings.quote`: double quotes, the C escapes, other runes as they are.
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The URL library's `url()`: what `url.ParseRequestURI` takes, split as `url.Parse`
/// splits it (the fragment apart).
fn url(s: &str) -> Result<neturl::Url, String> {
    neturl::parse_request_uri(s)
        .and_then(|_| neturl::parse_url(s))
        .map_err(|e| format!("URL parse error during conversion from string: {e}"))
}
