//! The `shardSelector` list/watch parameter (KEP-5866, alpha gate `ShardedListAndWatch`).
//!
//! kube-apiserver parses it with the CEL parser (no macros) and walks the AST
//! (`k8s.io/apiserver/pkg/sharding/parser.go`); hashing and matching live in
//! `k8s.io/apimachinery/pkg/sharding` (`hash.go`, `selector.go`). CEL cannot be embedded, so a
//! small CEL-compatible lexer and parser build just enough of the CEL AST (expression kinds,
//! call names, literal types) to reproduce the walker's error texts exactly. Approximated:
//! the wording of CEL syntax errors (`CEL parse error: Syntax error: ...`, ANTLR's in cel-go),
//! and CEL forms this grammar never needs (lists, maps, messages, indexing, `?:`, `!`, `-x`)
//! are syntax errors here, where cel-go would parse them and the walker reject them.

use std::fmt;

/// Prefix the registry adds to every parse error (`fmt.Errorf("invalid shard selector: %w")`);
/// the result is a plain error, hence HTTP 500 with no reason and this text as the message.
pub const ERROR_PREFIX: &str = "invalid shard selector: ";
/// Exclusive upper bound of the 64-bit hash space, written `0x10000000000000000` on the wire.
pub const HASH_SPACE_END: u128 = 1 << 64;
/// cel-go's default parser limits; exceeding them is a `CEL parse error`.
const MAX_DEPTH: usize = 250;
const MAX_CODE_POINTS: usize = 100_000;

/// 64-bit FNV-1a of the bytes (offset basis 0xcbf29ce484222325, prime 0x100000001b3): Go's
/// `hash/fnv.New64a`, which every replica and every client-side fallback must agree on.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let step = |h: u64, b: &u8| (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, step)
}

/// Which metadata field a selector hashes; the only two paths the server admits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ShardField {
    /// `object.metadata.uid`: what sharded controllers normally use (uniform UUIDs).
    Uid,
    /// `object.metadata.namespace`: keeps a namespace on one shard; cluster-scoped objects hash "".
    Namespace,
}

impl ShardField {
    /// The CEL select path, as written in selectors and echoed in `shardInfo.selector`.
    pub fn path(self) -> &'static str {
        match self {
            ShardField::Uid => "object.metadata.uid",
            ShardField::Namespace => "object.metadata.namespace",
        }
    }
}

/// One `[start, end)` range of hash values; `end` may be 2^64, hence `u128`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShardRange {
    /// Inclusive lower bound.
    pub start: u128,
    /// Exclusive upper bound, at most [`HASH_SPACE_END`].
    pub end: u128,
}

/// A parsed `shardSelector`: ranges OR-ed together over one field, in request order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardSelector {
    /// The hashed field, shared by every range (the parser enforces it).
    pub field: ShardField,
    /// The ranges as written (never empty for a parsed selector; overlaps are kept).
    pub ranges: Vec<ShardRange>,
}

impl ShardSelector {
    /// Parses the expression; `Err` is the full Status message kube-apiserver reports
    /// ([`ERROR_PREFIX`] + the parser's error). The server treats an empty parameter as absent
    /// and never parses it; a whitespace-only one still fails with the "empty" error.
    pub fn parse(s: &str) -> Result<ShardSelector, String> {
        Self::parse_expression(s).map_err(|e| format!("{ERROR_PREFIX}{e}"))
    }

    /// Like [`ShardSelector::parse`] but returns the bare `sharding.Parse` error, before the
    /// registry wraps it (kept separate in case another call site wraps it differently).
    pub fn parse_expression(s: &str) -> Result<ShardSelector, String> {
        let expr = s.trim(); // Go strings.TrimSpace
        if expr.is_empty() {
            let why = "omit the parameter for unfiltered lists";
            return Err(format!("empty shard selector is not allowed; {why}"));
        }
        let ast = parse_cel(expr).map_err(|e| format!("CEL parse error: {e}"))?;
        let mut reqs = Vec::new();
        walk(&ast, &mut reqs)?;
        let field = reqs[0].0;
        if let Some((other, _)) = reqs.iter().find(|r| r.0 != field) {
            let (a, b) = (go_quote(field.path()), go_quote(other.path()));
            return Err(format!(
                "all shard ranges must use the same field, got {a} and {b}"
            ));
        }
        let ranges = reqs.into_iter().map(|r| r.1).collect();
        Ok(ShardSelector { field, ranges })
    }

    /// Canonical form for `metadata.shardInfo.selector` (Go `Selector.String()`): each range
    /// re-rendered as `shardRange(<path>, '0x%016x', '0x%016x')`, joined by ` || `.
    pub fn canonical(&self) -> String {
        let path = self.field.path();
        let one =
            |r: &ShardRange| format!("shardRange({path}, '{:#018x}', '{:#018x}')", r.start, r.end);
        self.ranges.iter().map(one).collect::<Vec<_>>().join(" || ")
    }

    /// Whether an object whose field value (uid or namespace, supplied by the caller) is
    /// `value` is selected: `start <= fnv1a64(value) < end` for some range.
    pub fn matches_value(&self, value: &str) -> bool {
        let h = u128::from(fnv1a64(value.as_bytes()));
        self.ranges.iter().any(|r| r.start <= h && h < r.end)
    }

    /// The field every range hashes, so callers know which metadata value to pass.
    pub fn field(&self) -> ShardField {
        self.field
    }
}

impl fmt::Display for ShardSelector {
    /// Same as [`ShardSelector::canonical`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.canonical())
    }
}

// ---- AST walk (parser.go: walkExpr, parseShardRangeCall, extractFieldPath, extractHexLiteral)

type Res<T> = Result<T, String>;

fn walk(e: &Expr, reqs: &mut Vec<(ShardField, ShardRange)>) -> Res<()> {
    let Kind::Call(func, args) = &e.0 else {
        let (k, want) = (e.0.code(), "expected shardRange() call or || operator");
        return Err(format!("unexpected expression kind {k}; {want}"));
    };
    match func.as_str() {
        "_||_" => args.iter().try_for_each(|a| walk(a, reqs)),
        "shardRange" => shard_range(args).map(|r| reqs.push(r)),
        f => {
            let f = go_quote(f);
            Err(format!(
                "unsupported function {f}; only shardRange() and || are allowed"
            ))
        }
    }
}

fn shard_range(args: &[Expr]) -> Res<(ShardField, ShardRange)> {
    if args.len() != 3 {
        let n = args.len();
        return Err(format!(
            "shardRange() requires exactly 3 arguments, got {n}"
        ));
    }
    let path = field_path(&args[0]).map_err(|e| format!("shardRange() first argument: {e}"))?;
    let field = match path.as_str() {
        "object.metadata.uid" => ShardField::Uid,
        "object.metadata.namespace" => ShardField::Namespace,
        _ => {
            let (p, ok) = (
                go_quote(&path),
                "object.metadata.uid, object.metadata.namespace",
            );
            return Err(format!("unsupported field path {p}; supported: {ok}"));
        }
    };
    let (start_text, start) = hex_literal(&args[1], "hexStart")?;
    let (end_text, end) = hex_literal(&args[2], "hexEnd")?;
    if start >= end {
        return Err(format!(
            "shard range start {start_text} must be less than end {end_text}"
        ));
    }
    Ok((field, ShardRange { start, end }))
}

fn field_path(e: &Expr) -> Res<String> {
    match &e.0 {
        Kind::Ident(name) => Ok(name.clone()),
        Kind::Select(operand, field) => Ok(format!("{}.{field}", field_path(operand)?)),
        k => {
            let (ex, k) = ("(e.g. object.metadata.uid)", k.code());
            Err(format!("expected field path {ex}, got expression kind {k}"))
        }
    }
}

/// Validates one bound in the server's order; returns its text and value.
fn hex_literal(e: &Expr, name: &str) -> Res<(String, u128)> {
    let s = match &e.0 {
        Kind::Str(s) => s,
        Kind::Lit(ty) => return Err(format!("{name} must be a string literal, got {ty}")),
        k => {
            let (ex, k) = ("(e.g. '0xff')", k.code());
            return Err(format!(
                "{name} must be a string literal {ex}, got expression kind {k}"
            ));
        }
    };
    let q = go_quote(s);
    let Some(hex) = s.strip_prefix("0x") else {
        return Err(format!("{name} must have '0x' prefix, got {q}"));
    };
    if hex.is_empty() {
        return Err(format!("{name}: hex value is required after '0x'"));
    }
    if hex.len() > 17 {
        let (n, h) = (hex.len(), go_quote(hex));
        return Err(format!(
            "{name}: hex value too long ({n} chars, max 17): {h}"
        ));
    }
    if let Some(c) = hex.chars().find(|c| !matches!(c, '0'..='9' | 'a'..='f')) {
        let c = go_quote(&c.to_string());
        return Err(format!("{name}: invalid hex character {c} in {q}"));
    }
    if hex.len() == 17 && s != "0x10000000000000000" {
        let two64 = "'0x10000000000000000' (2^64)";
        return Err(format!(
            "{name}: 17-digit hex value must be {two64}, got {q}"
        ));
    }
    if hex.len() < 16 {
        let p = go_quote(&format!("0x{hex:0>16}"));
        let shape = "must be a 0x-prefixed 16-digit hex value";
        return Err(format!("{name} {shape}, got {q} (did you mean {p}?)"));
    }
    Ok((
        s.clone(),
        u128::from_str_radix(hex, 16).map_err(|e| e.to_string())?,
    ))
}

/// Go's `%q` (`strconv.Quote`). Printability is approximated without Unicode tables: controls,
/// non-ASCII spaces, common format characters and private-use code points are escaped.
fn go_quote(s: &str) -> String {
    let named: Vec<char> = "\x07a\x08b\x0cf\nn\rr\tt\x0bv\"\"\\\\".chars().collect();
    let mut out = String::from("\"");
    for c in s.chars() {
        let u = c as u32;
        let format = matches!(u, 0xad | 0x600..=0x605 | 0x200b..=0x200f | 0x202a..=0x202e)
            || matches!(u, 0x2060..=0x206f | 0xfeff | 0xfff9..=0xfffb | 0xe000..=0xf8ff);
        let printable = !(c.is_control() || c.is_whitespace() || u >= 0xf0000 || format);
        match named.chunks(2).find(|p| p[0] == c) {
            Some(p) => out.extend(['\\', p[1]]),
            None if u < 0x20 || u == 0x7f => out += &format!("\\x{u:02x}"),
            None if u < 0x80 || printable => out.push(c),
            None if u < 0x10000 => out += &format!("\\u{u:04x}"),
            None => out += &format!("\\U{u:08x}"),
        }
    }
    out + "\""
}

// ---- A small CEL front end: identifiers (with cel-go's reserved words), selects, global and
// receiver calls, the binary operators with CEL precedence (`||`/`&&` balanced like cel-go's
// balancer, the rest left-associative), signed numbers and every CEL literal form.

/// A CEL AST node and its height (cel-go bounds parse recursion; we bound the tree).
struct Expr(Kind, usize);

enum Kind {
    Call(String, Vec<Expr>),
    Ident(String),
    Select(Box<Expr>, String),
    Str(String),
    /// A non-string literal, carrying the Go `%T` of its value (`int64`, `[]uint8`, ...).
    Lit(&'static str),
}

impl Kind {
    /// cel-go `ast.ExprKind` values, which the server prints with `%v` (there is no String()).
    fn code(&self) -> u8 {
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
fn parse_cel(src: &str) -> Res<Expr> {
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
            if !out.is_empty() && !self.eat(",") {
                return Err(self.mismatch("{',', ')'}"));
            }
            out.push(self.expr()?);
        }
        Ok(out)
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
            _ => return Err(self.mismatch("an expression")),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `input => expected` per line, with `$U`/`$N` the two paths and `$A`/`$H`/`$E` the
    /// bounds 0, 2^63 and 2^64 as quoted literals.
    fn table(t: &str) -> Vec<(String, String)> {
        let subst = [
            ("$U", "object.metadata.uid"),
            ("$N", "object.metadata.namespace"),
            ("$A", "'0x0000000000000000'"),
            ("$H", "'0x8000000000000000'"),
            ("$E", "'0x10000000000000000'"),
        ];
        let x = |s: &str| {
            subst
                .iter()
                .fold(s.to_string(), |s, (k, v)| s.replace(k, v))
        };
        let rows = t
            .lines()
            .filter(|l| !l.is_empty())
            .map(|l| l.split_once(" => ").unwrap());
        rows.map(|(i, w)| (x(i), x(w))).collect()
    }

    #[test]
    fn fnv_golden_values() {
        // Published FNV-1a 64 vectors, plus values cross-checked with an independent script.
        let cases = [
            ("", 0xcbf29ce484222325),
            ("a", 0xaf63dc4c8601ec8c),
            ("foobar", 0x85944171f73967e8),
            ("test-uid-123", 0xd0ba679834556c0b),
            ("aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee", 0x93754b7248a00eb9),
            ("kube-system", 0xdf65c7bc1d82b35e),
        ];
        for (input, want) in cases {
            assert_eq!(fnv1a64(input.as_bytes()), want, "{input:?}");
        }
    }

    const ACCEPTED: &str = r#"
shardRange($U, $A, $H) => shardRange($U, $A, $H)
shardRange($U,$A,$H)||shardRange($U, $H, $E) => shardRange($U, $A, $H) || shardRange($U, $H, $E)
  shardRange( $U ,	$A , $H )  // comment => shardRange($U, $A, $H)
((shardRange($U, $A, $H))) => shardRange($U, $A, $H)
x.y.shardRange($U, $A, $H) => shardRange($U, $A, $H)
shardRange($U, "0x0000000000000000", r'0x8000000000000000') => shardRange($U, $A, $H)
shardRange($U, '0x\x30000000000000000', '''0x8000000000000000''') => shardRange($U, $A, $H)
shardRange($N, '0x00000000000000aa', '0x00000000000000ff') => shardRange($N, '0x00000000000000aa', '0x00000000000000ff')
shardRange($U, $H, $E) || shardRange($U, $A, $H) || shardRange($U, $A, $E) => shardRange($U, $H, $E) || shardRange($U, $A, $H) || shardRange($U, $A, $E)
"#;

    #[test]
    fn accepts_and_canonicalises() {
        for (input, want) in table(ACCEPTED) {
            let sel = ShardSelector::parse(&input).unwrap_or_else(|e| panic!("{input}: {e}"));
            assert_eq!(
                (sel.canonical(), sel.to_string()),
                (want.clone(), want.clone())
            );
            assert_eq!(
                ShardSelector::parse(&want).as_ref(),
                Ok(&sel),
                "round trip {want}"
            );
        }
        let two = ShardSelector::parse(&table(ACCEPTED)[1].0).unwrap();
        assert_eq!(two.field(), ShardField::Uid);
        assert_eq!(
            two.ranges[1],
            ShardRange {
                start: 1 << 63,
                end: HASH_SPACE_END
            }
        );
        let one = "shardRange(object.metadata.uid,\n'0x0000000000000000',\r\n'0x0000000000000001')";
        assert_eq!(
            ShardSelector::parse(one).unwrap().ranges,
            [ShardRange { start: 0, end: 1 }]
        );
        let many = vec![table(ACCEPTED)[0].1.clone(); 600].join(" || ");
        assert_eq!(ShardSelector::parse(&many).unwrap().ranges.len(), 600);
    }

    const REJECTED: &str = r#"
   => empty shard selector is not allowed; omit the parameter for unfiltered lists
shardRange($U, $A, '0xff') => hexEnd must be a 0x-prefixed 16-digit hex value, got "0xff" (did you mean "0x00000000000000ff"?)
shardRange($U, '0x1', $H) => hexStart must be a 0x-prefixed 16-digit hex value, got "0x1" (did you mean "0x0000000000000001"?)
shardRange($U, '0000000000000000', $H) => hexStart must have '0x' prefix, got "0000000000000000"
shardRange($U, '0X0000000000000000', $H) => hexStart must have '0x' prefix, got "0X0000000000000000"
shardRange($U, '0x', $H) => hexStart: hex value is required after '0x'
shardRange($U, $A, '0x000000000000000000') => hexEnd: hex value too long (18 chars, max 17): "000000000000000000"
shardRange($U, $A, '0x800000000000000F') => hexEnd: invalid hex character "F" in "0x800000000000000F"
shardRange($U, '0x\u00e90', $H) => hexStart: invalid hex character "é" in "0xé0"
shardRange($U, '0x\t', $H) => hexStart: invalid hex character "\t" in "0x\t"
shardRange($U, $A, '0x20000000000000000') => hexEnd: 17-digit hex value must be '0x10000000000000000' (2^64), got "0x20000000000000000"
shardRange($U, $H, $H) => shard range start 0x8000000000000000 must be less than end 0x8000000000000000
shardRange($U, $E, $E) => shard range start 0x10000000000000000 must be less than end 0x10000000000000000
shardRange($U, $H, $A) || f() => shard range start 0x8000000000000000 must be less than end 0x0000000000000000
shardRange($U, 0, 8) => hexStart must be a string literal, got int64
shardRange($U, -9223372036854775808, 8) => hexStart must be a string literal, got int64
shardRange($U, -1.5e3, 8) => hexStart must be a string literal, got float64
shardRange($U, 0x1u, 8) => hexStart must be a string literal, got uint64
shardRange($U, true, 8) => hexStart must be a string literal, got bool
shardRange($U, null, 8) => hexStart must be a string literal, got structpb.NullValue
shardRange($U, b'0x0', $H) => hexStart must be a string literal, got []uint8
shardRange($U, hex(0), $H) => hexStart must be a string literal (e.g. '0xff'), got expression kind 1
shardRange($U, x, $H) => hexStart must be a string literal (e.g. '0xff'), got expression kind 3
shardRange(object.metadata.name, $A, $H) => unsupported field path "object.metadata.name"; supported: object.metadata.uid, object.metadata.namespace
shardRange(.$U, $A, $H) => unsupported field path ".object.metadata.uid"; supported: object.metadata.uid, object.metadata.namespace
shardRange($U + 'x', $A, $H) => shardRange() first argument: expected field path (e.g. object.metadata.uid), got expression kind 1
shardRange('$U', $A, $H) => shardRange() first argument: expected field path (e.g. object.metadata.uid), got expression kind 5
shardRange($U, $A) => shardRange() requires exactly 3 arguments, got 2
$U.shardRange($A, $H) => shardRange() requires exactly 3 arguments, got 2
invalidFunc($U, $A, $H) => unsupported function "invalidFunc"; only shardRange() and || are allowed
.shardRange($U, $A, $H) => unsupported function ".shardRange"; only shardRange() and || are allowed
shardRange($U, $A, $H) && shardRange($U, $H, $E) => unsupported function "_&&_"; only shardRange() and || are allowed
shardRange($U, $A, $H) && x || y => unsupported function "_&&_"; only shardRange() and || are allowed
$U > $A => unsupported function "_>_"; only shardRange() and || are allowed
$U in y => unsupported function "@in"; only shardRange() and || are allowed
1 + 2 * 3 => unsupported function "_+_"; only shardRange() and || are allowed
$U => unexpected expression kind 7; expected shardRange() call or || operator
x => unexpected expression kind 3; expected shardRange() call or || operator
'x' => unexpected expression kind 5; expected shardRange() call or || operator
shardRange($U, $A, $H) || shardRange($N, $H, $E) => all shard ranges must use the same field, got "object.metadata.uid" and "object.metadata.namespace"
if($U, $A, $H) => CEL parse error: reserved identifier: if
shardRange($U, $A, 9223372036854775808) => CEL parse error: invalid int literal
shardRange($U, $A, 18446744073709551616u) => CEL parse error: invalid uint literal
shardRange($U, $A, b'\u0041') => CEL parse error: unable to unescape string
shardRange($U, $A, '\U00110000') => CEL parse error: unable to unescape string
shardRange($U, $A, $H => CEL parse error: Syntax error: mismatched input '<EOF>' expecting {',', ')'}
shardRange($U, $A, $H,) => CEL parse error: Syntax error: mismatched input ')' expecting an expression
shardRange($U, $A, $H) = x => CEL parse error: Syntax error: token recognition error at: '='
shardRange($U, $A, '0x\q') => CEL parse error: Syntax error: token recognition error at: ''0x\'
shardRange($U, $A, 'abc => CEL parse error: Syntax error: token recognition error at: ''abc'
if(shardRange($U, $A, $H) => CEL parse error: Syntax error: mismatched input '<EOF>' expecting {',', ')'}
$U. => CEL parse error: Syntax error: mismatched input '<EOF>' expecting IDENTIFIER
"#;

    #[test]
    fn rejects_with_server_texts() {
        for (input, want) in table(REJECTED) {
            assert_eq!(
                ShardSelector::parse_expression(&input).err(),
                Some(want.clone())
            );
            assert_eq!(
                ShardSelector::parse(&input).err(),
                Some(format!("{ERROR_PREFIX}{want}"))
            );
        }
        let limit = "CEL parse error: expression recursion limit exceeded: 250";
        let (open, close) = ("(".repeat(251), ")".repeat(251));
        let deep = [
            format!("{open}x{close}"),
            vec!["x"; 252].join(" + "),
            format!("x{}", ".f".repeat(252)),
        ];
        for input in deep
            .iter()
            .chain([&format!("{}x{}", "f(".repeat(251), close)])
        {
            assert_eq!(
                ShardSelector::parse_expression(input).err().as_deref(),
                Some(limit)
            );
        }
        let ok = format!("{}x{}", "(".repeat(249), ")".repeat(249));
        assert!(ShardSelector::parse_expression(&ok)
            .unwrap_err()
            .contains("kind 3"));
        let huge = format!("x{}x", " ".repeat(MAX_CODE_POINTS));
        let size = "expression code point size exceeds limit: size: 100002, limit 100000";
        assert_eq!(
            ShardSelector::parse_expression(&huge),
            Err(format!("CEL parse error: {size}"))
        );
    }

    #[test]
    fn matching_follows_hash_ranges() {
        let h = u128::from(fnv1a64(b"test-uid-123"));
        let sel = |f: &str, s: String, e: String| {
            ShardSelector::parse(&format!("shardRange(object.metadata.{f}, '{s}', '{e}')")).unwrap()
        };
        let hit = |s: u128, e: u128| {
            sel("uid", format!("{s:#018x}"), format!("{e:#018x}")).matches_value("test-uid-123")
        };
        assert!(
            hit(0, HASH_SPACE_END) && hit(h, h + 1) && !hit(h + 1, HASH_SPACE_END) && !hit(0, h)
        );
        let (lo, mid, hi) = (0, 1 << 63, HASH_SPACE_END);
        let half = |f, s: u128, e: u128| sel(f, format!("{s:#018x}"), format!("{e:#018x}"));
        let ns = half("namespace", lo, mid);
        assert_eq!(ns.field(), ShardField::Namespace);
        assert!(
            !ns.matches_value("") && ns.matches_value("ns-1"),
            "\"\" hashes to 0xcbf2…"
        );
        let halves = [half("uid", lo, mid), half("uid", mid, hi)];
        for i in 0..500 {
            let v = format!("uid-{i}");
            assert!(
                halves[0].matches_value(&v) ^ halves[1].matches_value(&v),
                "{v}"
            );
        }
    }
}
