//! Label selectors (`labels.Parse` from `k8s.io/apimachinery/pkg/labels/selector.go`).
//!
//! The lexer, the recursive-descent parser, the requirement validation and every error text
//! follow apimachinery byte for byte, because clients see the parse error verbatim in the
//! 400 that a bad `labelSelector` earns. Grammar:
//!
//! ```text
//! selector    ::= requirement ("," requirement)*
//! requirement ::= ["!"] KEY [ ("in" | "notin") "(" VALUE ("," VALUE)* ")"
//!                           | ("=" | "==" | "!=" | ">" | "<") VALUE ]
//! ```
//!
//! Full 400 message examples (kube-apiserver puts `err.Error()` in the Status as is):
//! * `unable to parse requirement: <nil>: Invalid value: "a@b": name part must consist of ...`
//!   (bad key; the field path really is `<nil>`, as `labels.Parse` passes a nil path)
//! * `unable to parse requirement: values[0][app]: Invalid value: "a@b": a valid label ...`
//! * `unable to parse requirement: found 'x', expected: in, notin, =, ==, !=, gt, lt`
//! * `found '', expected: identifier after ','` (trailing comma; not prefixed)

use std::fmt;

use serde_json::{Map, Value};

// Label keys and values are checked with the same functions (and texts) as
// `metadata.labels`.
use crate::resources::field::{aggregate_messages, FieldError};
use crate::resources::validation::names::{
    is_qualified_name as label_key_errors, is_valid_label_value as label_value_errors,
};

/// A requirement's operator (`selection.Operator`); `as_str` is the Go constant's text, which
/// the "expected: ..." parse error lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operator {
    /// `k=v`
    Equals,
    /// `k==v`
    DoubleEquals,
    /// `k!=v` (also true when `k` is absent)
    NotEquals,
    /// `k in (a,b)`
    In,
    /// `k notin (a,b)` (also true when `k` is absent)
    NotIn,
    /// `k`
    Exists,
    /// `!k`
    DoesNotExist,
    /// `k>n` (integers)
    GreaterThan,
    /// `k<n` (integers)
    LessThan,
}

impl Operator {
    /// The `selection.Operator` string (`"gt"` for `>`, `"!"` for does-not-exist, ...), so
    /// callers building SubjectAccessReview requirements can name operators as Go does.
    pub fn as_str(self) -> &'static str {
        match self {
            Operator::Equals => "=",
            Operator::DoubleEquals => "==",
            Operator::NotEquals => "!=",
            Operator::In => "in",
            Operator::NotIn => "notin",
            Operator::Exists => "exists",
            Operator::DoesNotExist => "!",
            Operator::GreaterThan => "gt",
            Operator::LessThan => "lt",
        }
    }
}

/// One `key op values` clause; the selector is their AND. Values are sorted and unique, as
/// apimachinery's `sets.String` leaves them, so printing and comparing are deterministic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Requirement {
    /// The label key tested.
    pub key: String,
    /// How the key's value is compared.
    pub operator: Operator,
    /// Sorted, unique values (empty for exists / does-not-exist).
    pub values: Vec<String>,
}

impl Requirement {
    /// `Requirement.Matches`: a missing key satisfies only `!=`, `notin` and `!key`; `>`/`<`
    /// need both sides to parse as base-10 int64, otherwise they never match.
    pub fn matches(&self, labels: &Map<String, Value>) -> bool {
        let got = labels.get(&self.key).map(|v| match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        });
        let has = |v: &String| self.values.iter().any(|x| x == v);
        match self.operator {
            Operator::In | Operator::Equals | Operator::DoubleEquals => {
                got.as_ref().is_some_and(has)
            }
            Operator::NotIn | Operator::NotEquals => !got.as_ref().is_some_and(has),
            Operator::Exists => got.is_some(),
            Operator::DoesNotExist => got.is_none(),
            Operator::GreaterThan | Operator::LessThan => {
                let int = |s: &str| s.parse::<i64>().ok();
                let gt = self.operator == Operator::GreaterThan;
                match (got.as_deref().and_then(int), self.values.as_slice()) {
                    (Some(l), [v]) => int(v).is_some_and(|r| if gt { l > r } else { l < r }),
                    _ => false,
                }
            }
        }
    }
}

impl fmt::Display for Requirement {
    /// `Requirement.String()`: `!k`, `k`, `k=v`, `k==v`, `k!=v`, `k>v`, `k<v`,
    /// `k in (a,b)`, `k notin (a,b)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let op = match self.operator {
            Operator::Exists => return f.write_str(&self.key),
            Operator::DoesNotExist => return write!(f, "!{}", self.key),
            Operator::Equals => "=",
            Operator::DoubleEquals => "==",
            Operator::NotEquals => "!=",
            Operator::GreaterThan => ">",
            Operator::LessThan => "<",
            Operator::In => " in ",
            Operator::NotIn => " notin ",
        };
        let vals = self.values.join(",");
        if matches!(self.operator, Operator::In | Operator::NotIn) {
            write!(f, "{}{op}({vals})", self.key)
        } else {
            write!(f, "{}{op}{vals}", self.key)
        }
    }
}

/// A parsed label selector: requirements sorted by key (as `labels.Parse` leaves them), all of
/// which must hold. The empty selector matches everything.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LabelSelector {
    requirements: Vec<Requirement>,
}

impl LabelSelector {
    /// `labels.Parse(s)`. `Err` is the complete text kube-apiserver returns as the message
    /// of the 400 BadRequest for a bad `labelSelector` (it wraps nothing around it), e.g.
    /// `unable to parse requirement: found '', expected: in, notin, =, ==, !=, gt, lt`.
    pub fn parse(s: &str) -> Result<LabelSelector, String> {
        Self::parse_with_path(s, None)
    }

    /// `labels.Parse(s, field.WithPath(path))`: same as [`Self::parse`] but field errors are
    /// rooted at `path` instead of `<nil>` (SubjectAccessReview `rawSelector` validation).
    pub fn parse_with_path(s: &str, path: Option<&str>) -> Result<LabelSelector, String> {
        let toks = lex(s.as_bytes());
        let mut requirements = Parser { toks, pos: 0, path }.parse()?;
        // sort.Sort(ByKey): Go's sort is insertion-based (stable) below 13 elements; beyond
        // that the order of equal keys may differ from Go's, which only affects printing.
        crate::sort::sort_by(&mut requirements, |a, b| a.key.cmp(&b.key));
        Ok(LabelSelector { requirements })
    }

    /// `metav1.LabelSelectorAsSelector` of a `metav1.LabelSelector` object (`matchLabels` as
    /// `=`, `matchExpressions` as `in`/`notin`/exists/`!`), already validated by the kind
    /// that holds it; `None` for an operator it does not know. An empty selector matches
    /// everything.
    pub fn from_metav1(sel: &Value) -> Option<LabelSelector> {
        let mut requirements = Vec::new();
        for (key, value) in sel["matchLabels"].as_object().into_iter().flatten() {
            requirements.push(Requirement {
                key: key.clone(),
                operator: Operator::Equals,
                values: vec![value.as_str()?.to_string()],
            });
        }
        for e in sel["matchExpressions"].as_array().into_iter().flatten() {
            let operator = match e["operator"].as_str()? {
                "In" => Operator::In,
                "NotIn" => Operator::NotIn,
                "Exists" => Operator::Exists,
                "DoesNotExist" => Operator::DoesNotExist,
                _ => return None,
            };
            // Sorted and unique, as `sets.String` leaves them.
            let mut values = crate::resources::meta::strings(e.get("values"));
            crate::sort::sort(&mut values);
            values.dedup();
            requirements.push(Requirement {
                key: e["key"].as_str()?.to_string(),
                operator,
                values,
            });
        }
        crate::sort::sort_by(&mut requirements, |a, b| a.key.cmp(&b.key));
        Some(LabelSelector { requirements })
    }

    /// `labels.Everything()`: the selector an absent or empty `labelSelector` yields.
    pub fn everything() -> LabelSelector {
        LabelSelector::default()
    }

    /// `Selector.Empty()`: true when nothing is restricted (list paths can skip filtering).
    pub fn is_empty(&self) -> bool {
        self.requirements.is_empty()
    }

    /// The requirements in canonical (key-sorted) order.
    pub fn requirements(&self) -> &[Requirement] {
        &self.requirements
    }

    /// Whether an object whose `metadata.labels` is `labels` (absent = no labels) is selected.
    pub fn matches(&self, labels: Option<&Map<String, Value>>) -> bool {
        let empty = Map::new();
        let labels = labels.unwrap_or(&empty);
        self.requirements.iter().all(|r| r.matches(labels))
    }

    /// `Selector.RequiresExactMatch(label)`: the single value the first requirement on `label`
    /// pins (`=`, `==`, or `in` with one value), if any.
    pub fn requires_exact_match(&self, label: &str) -> Option<String> {
        let r = self.requirements.iter().find(|r| r.key == label)?;
        match (r.operator, r.values.as_slice()) {
            (Operator::Equals | Operator::DoubleEquals | Operator::In, [v]) => Some(v.clone()),
            _ => None,
        }
    }
}

impl fmt::Display for LabelSelector {
    /// `Selector.String()`: the requirements joined by `,` (empty selector → empty string).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.requirements.iter().map(|r| r.to_string()).collect();
        f.write_str(&parts.join(","))
    }
}

/// A lexer token: end of input, an operator symbol, or a word (`in`/`notin` are words that
/// act as keywords only where an operator is expected, as in Go's `KeyAndOperator` context).
#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Eos,
    Sym(String),
    Word(String),
}

impl Tok {
    fn lit(&self) -> &str {
        match self {
            Tok::Eos => "",
            Tok::Sym(s) | Tok::Word(s) => s,
        }
    }

    fn is(&self, sym: &str) -> bool {
        matches!(self, Tok::Sym(s) if s == sym)
    }

    /// `IdentifierToken` in `Values` context (`!` also starts a requirement, hence `starts`).
    fn starts_requirement(&self) -> bool {
        matches!(self, Tok::Word(_)) || self.is("!")
    }
}

const SPECIAL: &[u8] = b"=!(),><";

fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | b'\n')
}

/// Go's `Lexer`, including its quirk that a NUL byte reads as 0: it ends the current token
/// (and is consumed), and where a token should start it ends the whole input.
fn lex(s: &[u8]) -> Vec<Tok> {
    let (mut pos, mut out) = (0, Vec::new());
    let read = |pos: &mut usize| {
        let b = s.get(*pos).copied().unwrap_or(0);
        *pos = (*pos + 1).min(s.len());
        b
    };
    loop {
        let mut c = read(&mut pos);
        while is_space(c) {
            c = read(&mut pos);
        }
        if c == 0 {
            out.push(Tok::Eos);
            return out;
        }
        let mut buf = vec![c];
        if SPECIAL.contains(&c) {
            // Longest match: only `==` and `!=` are two bytes long.
            if matches!(c, b'=' | b'!') && s.get(pos) == Some(&b'=') {
                buf.push(read(&mut pos));
            }
            if s.get(pos) == Some(&0) {
                pos += 1;
            }
            out.push(Tok::Sym(String::from_utf8_lossy(&buf).into_owned()));
            continue;
        }
        loop {
            match read(&mut pos) {
                0 => break,
                c if SPECIAL.contains(&c) || is_space(c) => {
                    pos -= 1;
                    break;
                }
                c => buf.push(c),
            }
        }
        out.push(Tok::Word(String::from_utf8_lossy(&buf).into_owned()));
    }
}

fn invalid(field: &str, value: &str, detail: &str) -> FieldError {
    FieldError::invalid(field, Value::String(value.to_string()), detail)
}

/// Go's recursive-descent `Parser` over the token list (which always ends in `Eos`; no path
/// reads past it).
struct Parser<'a> {
    toks: Vec<Tok>,
    pos: usize,
    path: Option<&'a str>,
}

impl Parser<'_> {
    fn peek(&self) -> &Tok {
        &self.toks[self.pos.min(self.toks.len() - 1)]
    }

    fn next(&mut self) -> Tok {
        let t = self.peek().clone();
        self.pos += 1;
        t
    }

    fn parse(&mut self) -> Result<Vec<Requirement>, String> {
        let mut reqs = Vec::new();
        loop {
            match self.peek() {
                Tok::Eos => return Ok(reqs),
                t if !t.starts_requirement() => {
                    let l = t.lit();
                    return Err(format!(
                        "found '{l}', expected: !, identifier, or 'end of string'"
                    ));
                }
                _ => {}
            }
            let r = self.requirement();
            reqs.push(r.map_err(|e| format!("unable to parse requirement: {e}"))?);
            match self.next() {
                Tok::Eos => return Ok(reqs),
                t if t.is(",") => {
                    if !self.peek().starts_requirement() {
                        let l = self.peek().lit();
                        return Err(format!("found '{l}', expected: identifier after ','"));
                    }
                }
                t => {
                    return Err(format!(
                        "found '{}', expected: ',' or 'end of string'",
                        t.lit()
                    ))
                }
            }
        }
    }

    /// `parseRequirement` with `parseKeyAndInferOperator` and `parseOperator` folded in.
    fn requirement(&mut self) -> Result<Requirement, String> {
        let mut tok = self.next();
        let not = tok.is("!");
        if not {
            tok = self.next();
        }
        let Tok::Word(key) = tok else {
            return Err(format!("found '{}', expected: identifier", tok.lit()));
        };
        let errs = label_key_errors(&key);
        if !errs.is_empty() {
            let field = self.path.unwrap_or("<nil>");
            return Err(invalid(field, &key, &errs.join("; ")).message());
        }
        if not || matches!(self.peek(), Tok::Eos) || self.peek().is(",") {
            let operator = if not {
                Operator::DoesNotExist
            } else {
                Operator::Exists
            };
            return Ok(Requirement {
                key,
                operator,
                values: Vec::new(),
            });
        }
        let op = match self.next().lit() {
            "in" => Operator::In,
            "notin" => Operator::NotIn,
            "=" => Operator::Equals,
            "==" => Operator::DoubleEquals,
            "!=" => Operator::NotEquals,
            ">" => Operator::GreaterThan,
            "<" => Operator::LessThan,
            l => {
                return Err(format!(
                    "found '{l}', expected: in, notin, =, ==, !=, gt, lt"
                ))
            }
        };
        let mut values = match op {
            Operator::In | Operator::NotIn => self.set_values()?,
            _ => self.exact_value()?,
        };
        crate::sort::sort(&mut values);
        values.dedup();
        self.validate(key, op, values)
    }

    /// `parseValues` + `parseIdentifiersList`: `(a,b)`, `()`, `(,a)`, `(a,,b)`, `(a,)`.
    fn set_values(&mut self) -> Result<Vec<String>, String> {
        let t = self.next();
        if !t.is("(") {
            return Err(format!("found '{}' expected: '('", t.lit()));
        }
        if self.peek().is(")") {
            self.pos += 1;
            return Ok(vec![String::new()]);
        }
        if !matches!(self.peek(), Tok::Word(_)) && !self.peek().is(",") {
            let l = self.peek().lit();
            return Err(format!("found '{l}', expected: ',', ')' or identifier"));
        }
        let mut s = Vec::new();
        loop {
            match self.next() {
                Tok::Word(v) => {
                    s.push(v);
                    let n = self.peek();
                    if n.is(")") {
                        break;
                    } else if !n.is(",") {
                        return Err(format!("found '{}', expected: ',' or ')'", n.lit()));
                    }
                }
                t if t.is(",") => {
                    if s.is_empty() {
                        s.push(String::new());
                    }
                    if self.peek().is(")") {
                        s.push(String::new());
                        break;
                    } else if self.peek().is(",") {
                        self.pos += 1;
                        s.push(String::new());
                    }
                }
                t => return Err(format!("found '{}', expected: ',', or identifier", t.lit())),
            }
        }
        self.pos += 1; // the ')' both loop exits stopped in front of
        Ok(s)
    }

    /// `parseExactValue`: a missing value (end or `,`) is the empty string.
    fn exact_value(&mut self) -> Result<Vec<String>, String> {
        if matches!(self.peek(), Tok::Eos) || self.peek().is(",") {
            return Ok(vec![String::new()]);
        }
        match self.next() {
            Tok::Word(v) => Ok(vec![v]),
            t => Err(format!("found '{}', expected: identifier", t.lit())),
        }
    }

    /// `NewRequirement`'s value checks (the key was checked already): all integer errors,
    /// then all label-value errors, aggregated as `[a, b]` when more than one.
    fn validate(
        &self,
        key: String,
        operator: Operator,
        values: Vec<String>,
    ) -> Result<Requirement, String> {
        let vpath = self
            .path
            .map_or("values".to_string(), |p| format!("{p}.values"));
        let mut errs = Vec::new();
        if matches!(operator, Operator::GreaterThan | Operator::LessThan) {
            for (i, v) in values
                .iter()
                .enumerate()
                .filter(|(_, v)| v.parse::<i64>().is_err())
            {
                let d = "for 'Gt', 'Lt' operators, the value must be an integer";
                errs.push(invalid(&format!("{vpath}[{i}]"), v, d));
            }
        }
        for (i, v) in values.iter().enumerate() {
            let e = label_value_errors(v);
            if !e.is_empty() {
                errs.push(invalid(&format!("{vpath}[{i}][{key}]"), v, &e.join("; ")));
            }
        }
        if !errs.is_empty() {
            return Err(aggregate_messages(&errs));
        }
        Ok(Requirement {
            key,
            operator,
            values,
        })
    }
}

#[cfg(test)]
#[path = "label_tests.rs"]
mod tests;
