//! A small CEL front end for `shardSelector`: just enough of cel-go's lexer and parser
//! (identifiers, selects, calls, literals, operators, its limits and error texts) for the
//! shard grammar to reject what kube-apiserver rejects with the same messages.

use super::shard::{Res, MAX_CODE_POINTS, MAX_DEPTH};

// ---- A small CEL front end: identifiers (with cel-go's reserved words), selects, global and
// receiver calls, the binary operators with CEL precedence (`||`/`&&` balanced like cel-go's
// balancer, the rest left-associative), signed numbers and every CEL literal form.

/// A CEL AST node and its height (cel-go bounds parse recursion; we bound the tree).
pub(super) struct Expr(pub(super) Kind, pub(super) usize);

pub(super) enum Kind {
    Call(String, Vec<Expr>),
    Ident(String),
    Select(Box<Expr>, String),
    Str(String),
    /// A non-string literal, carrying the Go `%T` of its value (`int64`, `[]uint8`, ...).
    Lit(&'static str),
}

impl Kind {
    /// cel-go `ast.ExprKind` values, which the server prints with `%v` (there is no String()).
    pub(super) fn code(&self) -> u8 {
        match self {
            Kind::Call(..) => 1,
            Kind::Ident(_) => 3,
            Kind::Str(_) | Kind::Lit(_) => 5,
            Kind::Select(..) => 7,
        }
    }
}

#[derive(Clone, PartialEq)]
enum Tok {
    Ident,
    Int,
    Str(String),
    /// Non-string literal: Go type, plus the error cel-go's visitor reports for it, if any.
    Lit(&'static str, Option<String>),
    P(&'static str),
    Eof,
}

/// A token, its source text and its position (in chars).
struct Token(Tok, String, usize);

/// The tokens that may start an expression, as cel-go's ANTLR parser lists them when it
/// finds something else.
const EXPRESSION_START: &str = "{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}";

/// [`EXPRESSION_START`] where an argument list may also end (just after a call's `(`).
const ARGUMENT_START: &str = "{'[', '{', '(', ')', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}";

const PUNCT: &str = "== != <= >= && || < > ! - + * / % ? : . , ( ) [ ] { }";
const RESERVED: &str = "as break const continue else for function if import let loop package \
                        namespace return var void while";

/// Binary operator precedence, `||` lowest.
fn precedence(op: &str) -> Option<u8> {
    Some(match op {
        "||" => 1,
        "&&" => 2,
        "<" | "<=" | ">=" | ">" | "==" | "!=" | "in" => 3,
        "+" | "-" => 4,
        "*" | "/" | "%" => 5,
        _ => return None,
    })
}

/// Tokenizes `cs`, returning the tokens and the first lexical error (position, message); like
/// ANTLR's lexer it reports a bad character and carries on after it.
fn lex(cs: &[char]) -> (Vec<Token>, Option<(usize, String)>) {
    let at = |j: usize| cs.get(j).copied().unwrap_or('\0');
    let quote = |j: usize| matches!(at(j), '\'' | '"');
    let word = |j: &usize| at(*j).is_ascii_alphanumeric() || at(*j) == '_';
    let (mut toks, mut err, mut i) = (Vec::new(), None, 0);
    while i < cs.len() {
        let (c, start) = (cs[i], i);
        let punct = |p: &&str| p.chars().zip(i..).all(|(c, j)| at(j) == c);
        let tok = if matches!(c, ' ' | '\t' | '\r' | '\n' | '\x0c') {
            i += 1;
            continue;
        } else if c == '/' && at(i + 1) == '/' {
            i = (i..cs.len()).find(|&j| cs[j] == '\n').unwrap_or(cs.len());
            continue;
        } else if c.is_ascii_digit() || (c == '.' && at(i + 1).is_ascii_digit()) {
            Some(lex_number(cs, &mut i))
        } else if quote(i)
            || (matches!(c, 'r' | 'R' | 'b' | 'B') && quote(i + 1))
            || (matches!(c, 'b' | 'B') && matches!(at(i + 1), 'r' | 'R') && quote(i + 2))
        {
            lex_string(cs, &mut i)
        } else if c.is_ascii_alphabetic() || c == '_' {
            i = (i..).find(|j| !word(j)).unwrap_or(i);
            Some(match cs[start..i].iter().collect::<String>().as_str() {
                "true" | "false" => Tok::Lit("bool", None),
                "null" => Tok::Lit("structpb.NullValue", None),
                "in" => Tok::P("in"),
                _ => Tok::Ident,
            })
        } else if let Some(p) = PUNCT.split(' ').find(punct) {
            i += p.len();
            Some(Tok::P(p))
        } else {
            i += 1;
            None
        };
        let text: String = cs[start..i].iter().collect();
        match tok {
            Some(tok) => toks.push(Token(tok, text, start)),
            None => _ = err.get_or_insert((start, text)),
        }
    }
    toks.push(Token(Tok::Eof, "<EOF>".into(), cs.len()));
    let err = err.map(|(at, t)| (at, format!("token recognition error at: '{t}'")));
    (toks, err)
}

fn lex_number(cs: &[char], i: &mut usize) -> Tok {
    let at = |j: usize| cs.get(j).copied().unwrap_or('\0');
    let run = |j: usize, f: fn(&char) -> bool| (j..).find(|&k| !f(&at(k))).unwrap_or(j);
    let (start, digit) = (*i, char::is_ascii_digit as fn(&char) -> bool);
    if at(*i) == '0' && at(*i + 1) == 'x' && at(*i + 2).is_ascii_hexdigit() {
        *i = run(*i + 2, char::is_ascii_hexdigit);
    } else {
        *i = run(*i, digit);
        let mut float = at(*i) == '.' && at(*i + 1).is_ascii_digit();
        if float {
            *i = run(*i + 1, digit);
        }
        let sign = usize::from(matches!(at(*i + 1), '+' | '-'));
        if matches!(at(*i), 'e' | 'E') && at(*i + 1 + sign).is_ascii_digit() {
            (*i, float) = (run(*i + 1 + sign, digit), true);
        }
        if float {
            return Tok::Lit("float64", None);
        }
    }
    if !matches!(at(*i), 'u' | 'U') {
        return Tok::Int;
    }
    let text: String = cs[start..*i].iter().collect();
    *i += 1;
    let ok = match text.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16).is_ok(),
        None => text.parse::<u64>().is_ok(),
    };
    Tok::Lit("uint64", (!ok).then(|| "invalid uint literal".into()))
}

/// Scans a string or bytes literal (optionally raw and/or triple-quoted) and decodes it as
/// cel-go's lexer and `unescape` do; `None` is a lexical error (bad escape, unterminated).
fn lex_string(cs: &[char], i: &mut usize) -> Option<Tok> {
    let at = |j: usize| cs.get(j).copied().unwrap_or('\0');
    let bytes = matches!(at(*i), 'b' | 'B');
    let raw = matches!(at(*i + usize::from(bytes)), 'r' | 'R');
    *i += usize::from(bytes) + usize::from(raw);
    let q = at(*i);
    let n = if at(*i + 1) == q && at(*i + 2) == q {
        3
    } else {
        1
    };
    let (mut j, mut val, mut bad) = (*i + n, String::new(), false);
    while !(0..n).all(|k| at(j + k) == q) {
        let c = at(j);
        if j >= cs.len() || (n == 1 && matches!(c, '\n' | '\r')) {
            *i = cs.len();
            return None;
        }
        if c != '\\' || raw {
            val.push(if c == '\r' { '\n' } else { c }); // newlines normalise to \n
            j += 1 + usize::from(c == '\r' && at(j + 1) == '\n');
            continue;
        }
        let hex = |k: usize| (j + 2..j + 2 + k).all(|x| at(x).is_ascii_hexdigit());
        let oct = |x: usize| matches!(at(x), '0'..='7');
        let num = |k: usize, radix| {
            let digits: String = cs[j + 2..j + 2 + k].iter().collect();
            u32::from_str_radix(&digits, radix).unwrap_or(0)
        };
        let (len, cp) = match at(j + 1) {
            e @ ('a' | 'b' | 'f' | 'n' | 'r' | 't' | 'v') => {
                (2, [7, 8, 12, 10, 13, 9, 11]["abfnrtv".find(e).unwrap_or(0)])
            }
            e @ ('"' | '\'' | '\\' | '?' | '`') => (2, u32::from(e)),
            'x' | 'X' if hex(2) => (4, num(2, 16)),
            'u' if hex(4) => (6, num(4, 16)),
            'U' if hex(8) => (10, num(8, 16)),
            e @ '0'..='3' if oct(j + 2) && oct(j + 3) => (4, (u32::from(e) - 48) * 64 + num(2, 8)),
            _ => {
                *i = j + 1;
                return None;
            }
        };
        bad |= (bytes && matches!(at(j + 1), 'u' | 'U')) || cp > 0x10ffff;
        val.push(char::from_u32(cp).unwrap_or('\u{fffd}'));
        j += len;
    }
    *i = j + n;
    let err = bad.then(|| "unable to unescape string".to_string());
    Some(match (bytes, err) {
        (false, None) => Tok::Str(val),
        (bytes, err) => Tok::Lit(if bytes { "[]uint8" } else { "string" }, err),
    })
}

/// Parses a whole CEL expression; `Err` is the first error message cel-go would report:
/// lexical/syntax errors (earliest first), then the visitor's (reserved ids, bad literals).
pub(super) fn parse_cel(src: &str) -> Res<Expr> {
    let cs: Vec<char> = src.chars().collect();
    if cs.len() > MAX_CODE_POINTS {
        let (n, max) = (cs.len(), MAX_CODE_POINTS);
        return Err(format!(
            "expression code point size exceeds limit: size: {n}, limit {max}"
        ));
    }
    let (toks, lex_err) = lex(&cs);
    let mut p = Parser {
        toks,
        pos: 0,
        depth: 0,
        semantic: None,
    };
    let parsed = p.expr().and_then(|e| match p.peek() {
        Tok::Eof => Ok(e),
        _ => Err(p.mismatch("<EOF>")),
    });
    let lex_err = lex_err.map(|(at, m)| (at, format!("Syntax error: {m}")));
    match (parsed, lex_err) {
        (Err((at, m)), Some((lat, lm))) => Err(if lat <= at { lm } else { m }),
        (Err((_, m)), None) | (Ok(_), Some((_, m))) => Err(m),
        (Ok(e), None) => p.semantic.map_or(Ok(e), Err),
    }
}

type Fail = (usize, String);
type PRes = Result<Expr, Fail>;

/// Recursive descent over the tokens. Functions on recursive paths keep error formatting in
/// helpers so that 250 nesting levels fit a 2 MiB stack even in debug builds.
struct Parser {
    toks: Vec<Token>,
    pos: usize,
    depth: usize,
    /// First error cel-go's visitor would report once the syntax is known to be fine.
    semantic: Option<String>,
}

fn balance(func: &str, mut terms: Vec<Expr>) -> Expr {
    if terms.len() == 1 {
        return terms.remove(0);
    }
    let right = terms.split_off(terms.len().div_ceil(2));
    let (l, r) = (balance(func, terms), balance(func, right));
    let height = l.1.max(r.1) + 1;
    Expr(Kind::Call(func.into(), vec![l, r]), height)
}

impl Parser {
    fn peek(&self) -> &Tok {
        &self.toks[self.pos].0
    }

    fn eat(&mut self, p: &str) -> bool {
        let hit = matches!(self.peek(), Tok::P(q) if *q == p);
        self.pos += usize::from(hit);
        hit
    }

    fn mismatch(&self, want: &str) -> Fail {
        let Token(_, text, at) = &self.toks[self.pos];
        (
            *at,
            format!("Syntax error: mismatched input '{text}' expecting {want}"),
        )
    }

    fn expect(&mut self, p: &str) -> Result<(), Fail> {
        match self.eat(p) {
            true => Ok(()),
            false => Err(self.mismatch(&format!("'{p}'"))),
        }
    }

    fn too_deep(&self) -> Fail {
        let msg = format!("expression recursion limit exceeded: {MAX_DEPTH}");
        (self.toks[self.pos].2, msg)
    }

    /// Builds `kind` above children of height `below`, enforcing cel-go's recursion limit on
    /// the tree height (which also keeps drops and walks shallow).
    fn node(&self, kind: Kind, below: usize) -> PRes {
        match below < MAX_DEPTH {
            true => Ok(Expr(kind, below + 1)),
            false => Err(self.too_deep()),
        }
    }

    fn call(&self, func: &str, args: Vec<Expr>, below: usize) -> PRes {
        let below = args.iter().map(|a| a.1).fold(below, usize::max);
        self.node(Kind::Call(func.into(), args), below)
    }

    fn expr(&mut self) -> PRes {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.too_deep());
        }
        let e = self.binary(1)?;
        self.depth -= 1;
        Ok(e)
    }

    /// Precedence climbing from operator level `min` upwards.
    fn binary(&mut self, min: u8) -> PRes {
        let mut lhs = self.member()?;
        while let Some((op, prec)) = self.binary_op(min) {
            let mut terms = vec![lhs];
            while self.eat(op) {
                terms.push(self.binary(prec + 1)?);
                if prec > 2 {
                    break;
                }
            }
            lhs = self.combine(op, prec, terms)?;
        }
        Ok(lhs)
    }

    fn binary_op(&self, min: u8) -> Option<(&'static str, u8)> {
        let Tok::P(op) = *self.peek() else {
            return None;
        };
        precedence(op).filter(|p| *p >= min).map(|p| (op, p))
    }

    fn combine(&self, op: &str, prec: u8, terms: Vec<Expr>) -> PRes {
        let func = if op == "in" {
            "@in".into()
        } else {
            format!("_{op}_")
        };
        match prec <= 2 {
            true => Ok(balance(&func, terms)),
            false => self.call(&func, terms, 0),
        }
    }

    fn member(&mut self) -> PRes {
        let mut e = self.operand()?;
        while self.eat(".") {
            let (id, h) = (self.name(false)?, e.1);
            e = match self.eat("(") {
                // A receiver call: the target is not one of the call's arguments.
                true => self.args().and_then(|args| self.call(&id, args, h))?,
                false => self.node(Kind::Select(Box::new(e), id), h)?,
            };
        }
        Ok(e)
    }

    /// Consumes an identifier; cel-go rejects reserved words (after the syntax check) as
    /// variable or function names (`operand`), not as field names.
    fn name(&mut self, operand: bool) -> Result<String, Fail> {
        if *self.peek() != Tok::Ident {
            return Err(self.mismatch("IDENTIFIER"));
        }
        let name = self.toks[self.pos].1.clone();
        self.pos += 1;
        if operand && RESERVED.split(' ').any(|r| r.trim() == name) {
            self.semantic
                .get_or_insert(format!("reserved identifier: {name}"));
        }
        Ok(name)
    }

    /// Call arguments after `(`: expressions separated by commas, no trailing comma.
    fn args(&mut self) -> Result<Vec<Expr>, Fail> {
        let mut out = Vec::new();
        while !self.eat(")") {
            if out.is_empty() && !self.starts_expression() {
                return Err(self.mismatch(ARGUMENT_START));
            }
            if !out.is_empty() && !self.eat(",") {
                return Err(self.mismatch("{',', ')'}"));
            }
            out.push(self.expr()?);
        }
        Ok(out)
    }

    /// Whether the next token can begin an expression.
    fn starts_expression(&self) -> bool {
        match self.peek() {
            Tok::P(p) => ["[", "{", "(", ".", "-", "!"].contains(p),
            Tok::Eof => false,
            _ => true,
        }
    }

    fn operand(&mut self) -> PRes {
        let dot = *self.peek() == Tok::P(".") && self.toks[self.pos + 1].0 == Tok::Ident;
        if self.eat("(") {
            let e = self.expr()?;
            self.expect(")")?;
            Ok(e)
        } else if *self.peek() == Tok::Ident || dot {
            self.pos += usize::from(dot);
            let name = self.name(true)?;
            let name = if dot { format!(".{name}") } else { name };
            match self.eat("(") {
                true => self.args().and_then(|args| self.call(&name, args, 0)),
                false => Ok(Expr(Kind::Ident(name), 1)),
            }
        } else {
            self.literal().map(|kind| Expr(kind, 1))
        }
    }

    fn literal(&mut self) -> Result<Kind, Fail> {
        let next = self.toks.get(self.pos + 1).map(|t| &t.0);
        let number = matches!(next, Some(Tok::Int | Tok::Lit("float64", _)));
        let neg = *self.peek() == Tok::P("-") && number;
        self.pos += usize::from(neg);
        let Token(tok, text, _) = &self.toks[self.pos];
        let (kind, err) = match tok.clone() {
            Tok::Int => (Kind::Lit("int64"), int_error(text, neg)),
            Tok::Str(s) => (Kind::Str(s), None),
            Tok::Lit(ty, err) => (Kind::Lit(ty), err),
            _ => return Err(self.mismatch(EXPRESSION_START)),
        };
        self.pos += 1;
        if let Some(e) = err {
            self.semantic.get_or_insert(e);
        }
        Ok(kind)
    }
}

/// cel-go's error for an integer literal that does not fit in int64 (negated if `neg`).
fn int_error(text: &str, neg: bool) -> Option<String> {
    let (digits, radix) = text.strip_prefix("0x").map_or((text, 10), |h| (h, 16));
    let sign = if neg { "-" } else { "" };
    let ok = i64::from_str_radix(&format!("{sign}{digits}"), radix).is_ok();
    (!ok).then(|| "invalid int literal".into())
}
