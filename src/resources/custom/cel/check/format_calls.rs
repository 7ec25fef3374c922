//! ext/strings' `stringFormatValidator`, which the strings library (version 1 and later)
//! adds to the compiler: a `format` call on a string literal with a list literal is checked
//! when the rule compiles. Each clause must parse, its argument's type must suit its verb
//! (`dyn` suits every verb; `%s` looks into list and map literals), and the list may hold no
//! more arguments than the clauses take. An argument that does not suit is the error's place;
//! every other error sits at the call.

use super::super::issues::Issue;
use super::super::parse::{Expr, Pos};
use super::super::string_format::parse_clause;
use super::{pos_of, T};

/// The issue of `template.format([args])`, if any; `type_of` gives an expression's type in
/// the call's scope, `starts` where each argument starts.
pub(super) fn check<'s>(
    template: &str,
    call_at: Pos,
    args: &[Expr],
    starts: &[Pos],
    type_of: &mut dyn FnMut(&Expr) -> T<'s>,
) -> Option<Issue> {
    let at_call = |message: String| {
        Some(Issue {
            at: call_at,
            message,
        })
    };
    let b = template.as_bytes();
    let (mut i, mut requested) = (0, 0);
    while i < b.len() {
        if b[i] != b'%' {
            i += 1;
            continue;
        }
        if b.get(i + 1) == Some(&b'%') {
            i += 2;
            continue;
        }
        let next = requested;
        requested += 1;
        if i + 1 >= b.len() {
            return at_call("unexpected end of string".into());
        }
        if next >= args.len() {
            return at_call(format!("index {next} out of range"));
        }
        let (read, verb, _) = match parse_clause(&b[i + 1..]) {
            Ok(clause) => clause,
            Err(e) => return at_call(e),
        };
        let start = starts.get(next).copied().unwrap_or(call_at);
        if let Err((at, message)) = suits(verb, &args[next], start, type_of) {
            let message = format!("error during formatting: {message}");
            return Some(Issue { at, message });
        }
        i += 1 + read;
    }
    (args.len() > requested).then(|| Issue {
        at: call_at,
        message: format!(
            "too many arguments supplied to string.format (expected {requested}, got {})",
            args.len()
        ),
    })
}

/// Whether the argument `e` (starting at `start`) suits `verb`; else where and why not.
fn suits<'s>(
    verb: u8,
    e: &Expr,
    start: Pos,
    type_of: &mut dyn FnMut(&Expr) -> T<'s>,
) -> Result<(), (Pos, String)> {
    if verb == b's' {
        return string_suits(e, start, type_of);
    }
    let t = type_of(e);
    let ok = t.loose()
        || match verb {
            b'd' | b'o' => matches!(t, T::Int | T::Uint),
            b'f' | b'e' => matches!(t, T::Double | T::Str),
            b'b' => matches!(t, T::Int | T::Uint | T::Bool),
            _ => matches!(t, T::Int | T::Uint | T::Str | T::Bytes),
        };
    if ok {
        return Ok(());
    }
    let what = match verb {
        b'd' => "decimal clause can only be used on integers",
        b'o' => "octal clause can only be used on integers",
        b'f' => "fixed-point clause can only be used on doubles",
        b'e' => "scientific clause can only be used on doubles",
        b'b' => "only integers and bools can be formatted as binary",
        _ => "only integers, byte buffers, and strings can be formatted as hex",
    };
    Err((
        pos_of(e).unwrap_or(start),
        format!("{what}, was given {}", type_name(&t)),
    ))
}

/// `verifyString`: a value `%s` prints, looked into when it is a list or map literal.
fn string_suits<'s>(
    e: &Expr,
    start: Pos,
    type_of: &mut dyn FnMut(&Expr) -> T<'s>,
) -> Result<(), (Pos, String)> {
    let t = type_of(e);
    let printable = t.loose()
        || matches!(
            t,
            T::List(_)
                | T::Map(..)
                | T::Int
                | T::Uint
                | T::Double
                | T::Bool
                | T::Str
                | T::Timestamp
                | T::Bytes
                | T::Duration
                | T::Type
                | T::Null
        );
    if !printable {
        return Err((
            pos_of(e).unwrap_or(start),
            format!(
                "string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given {}",
                type_name(&t)
            ),
        ));
    }
    match e {
        Expr::List(items, starts) => {
            for (item, at) in items.iter().zip(starts) {
                string_suits(item, *at, type_of)?;
            }
        }
        Expr::Map(entries, starts) => {
            for ((k, v), (k_at, v_at)) in entries.iter().zip(starts) {
                string_suits(k, *k_at, type_of)?;
                string_suits(v, *v_at, type_of)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// cel-go's `Type.TypeName()`: a kind's name without its parameters.
fn type_name(t: &T) -> String {
    match t {
        T::Null => "null_type".into(),
        T::Timestamp => "google.protobuf.Timestamp".into(),
        T::Duration => "google.protobuf.Duration".into(),
        T::List(_) => "list".into(),
        T::Map(..) => "map".into(),
        T::Optional(_) => "optional_type".into(),
        other => other.name(),
    }
}
