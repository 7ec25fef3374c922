//! Compile errors as cel-go reports them (`common.Errors.ToDisplayString`): each
//! `ERROR: <input>:line:column: message`, the line it is on, and a caret under its place,
//! sorted by place; and the literal validators the Kubernetes environment turns on
//! (`ValidateDurationLiterals`, `ValidateTimestampLiterals`, `ValidateRegexLiterals`).

use super::parse::{Expr, Lit, Pos};

/// One compile error and where it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Issue {
    pub at: Pos,
    pub message: String,
}

/// `ToDisplayString`: the issues in order of place, each with its line and caret (columns
/// in code points, a wide dot and caret for a multi-byte character), joined by new lines.
pub fn display(src: &str, issues: &[Issue]) -> String {
    let mut sorted: Vec<&Issue> = issues.iter().collect();
    crate::sort::sort_by(&mut sorted, |a, b| a.at.cmp(&b.at));
    let lines: Vec<String> = sorted.iter().map(|i| one(src, i)).collect();
    lines.join("\n")
}

fn one(src: &str, issue: &Issue) -> String {
    let at = (issue.at as usize).min(src.len());
    let at = (0..=at)
        .rev()
        .find(|i| src.is_char_boundary(*i))
        .unwrap_or(0);
    let line_start = src[..at].rfind('\n').map_or(0, |i| i + 1);
    let line_no = src[..at].matches('\n').count() + 1;
    let column = src[line_start..at].chars().count();
    let line_end = src[line_start..]
        .find('\n')
        .map_or(src.len(), |i| line_start + i);
    let snippet = src[line_start..line_end].replace('\t', " ");
    let mut caret = String::new();
    let mut chars = snippet.chars();
    for _ in 0..column {
        match chars.next() {
            Some(c) if c.len_utf8() > 1 => caret.push('\u{ff0e}'),
            Some(_) => caret.push('.'),
            None => break,
        }
    }
    caret.push(match chars.next() {
        Some(c) if c.len_utf8() > 1 => '\u{ff3e}',
        _ => '^',
    });
    format!(
        "ERROR: <input>:{line_no}:{}: {}\n | {snippet}\n | {caret}",
        column + 1,
        issue.message
    )
}

/// Where a call's first argument starts: the first character after its `(` that is not
/// white space.
fn first_argument(src: &str, open: Pos) -> Pos {
    let from = open as usize + 1;
    let skipped = src
        .get(from..)
        .map_or(0, |rest| rest.len() - rest.trim_start().len());
    (from + skipped) as Pos
}

/// The literal validators: a literal string given to `duration`, `timestamp` or `matches`
/// (its first argument, as cel-go takes it) that could not be read at runtime.
pub fn literals(src: &str, e: &Expr, out: &mut Vec<Issue>) {
    super::walk(e, &mut |x| {
        let Expr::Call(target, name, args, open) = x else {
            return;
        };
        let Some(Expr::Lit(Lit::Str(s))) = args.first() else {
            return;
        };
        let bad = match (name.as_str(), target.is_some()) {
            ("duration", false) => super::time::duration_of(s).is_err(),
            ("timestamp", false) => super::time::timestamp_of(s).is_err(),
            ("matches", _) => crate::resources::custom::go_regexp::check(s).is_err(),
            _ => false,
        };
        if bad {
            out.push(Issue {
                at: first_argument(src, *open),
                message: format!("invalid {name} argument"),
            });
        }
    });
}

#[cfg(test)]
mod tests;
