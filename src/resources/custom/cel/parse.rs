//! CEL's grammar (cel-spec `langdef.md`): a lexer and a precedence-climbing parser into
//! [`Expr`], with the macros (`has`, `all`, `exists`, `exists_one`, `map`, `filter`)
//! expanded into their own nodes.

/// A literal, as written (`null`, `true`, `1`, `1u`, `1.5`, `'s'`, `b's'`): what a token
/// and an expression hold alike, and the evaluator turns into a value.
#[derive(Debug, Clone, PartialEq)]
pub enum Lit {
    Null,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Double(f64),
    Str(String),
    Bytes(Vec<u8>),
}

/// A parsed expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    Lit(Lit),
    Ident(String, Pos),
    /// A list literal, and where each element starts.
    List(Vec<Expr>, Vec<Pos>),
    /// A map literal, and where each entry's key and value start.
    Map(Vec<(Expr, Expr)>, Vec<(Pos, Pos)>),
    /// `a.b`
    Select(Box<Expr>, String, Pos),
    /// `has(a.b)`
    Has(Box<Expr>, String, Pos),
    /// `a[b]`
    Index(Box<Expr>, Box<Expr>, Pos),
    /// `a.?b`: `b` if `a` has it, as an optional.
    OptSelect(Box<Expr>, String, Pos),
    /// `a[?b]`: `a[b]` if there is one, as an optional.
    OptIndex(Box<Expr>, Box<Expr>, Pos),
    /// An optional list element (`[?x]`) or an optional map entry's key (`{?k: v}`): its
    /// value (the entry's) is an optional, left out when none.
    Opt(Box<Expr>),
    /// A function (`size(x)`) or method (`x.size()`) call: target, name, arguments.
    Call(Option<Box<Expr>>, String, Vec<Expr>, Pos),
    Unary(&'static str, Box<Expr>, Pos),
    Binary(&'static str, Box<Expr>, Box<Expr>, Pos),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>, Pos),
    /// A two-variable comprehension (`all`, `exists`, `existsOne`, `transformList`,
    /// `transformMap`, `transformMapEntry`): kind, range, the index or key variable and the
    /// element or value variable, predicate or transform, and a transform's filter.
    Comp2(
        &'static str,
        Box<Expr>,
        Box<[String; 2]>,
        Box<Expr>,
        Option<Box<Expr>>,
        Pos,
    ),
    /// A comprehension macro: kind, range, variable, predicate or transform, and `map`'s
    /// optional filter.
    Macro(
        &'static str,
        Box<Expr>,
        String,
        Box<Expr>,
        Option<Box<Expr>>,
        Pos,
    ),
}

/// Where a node is in the rule's text: the byte offset of the token cel-go places it at
/// (an identifier's start, a selection's `.`, a call's `(`, an operator).
pub type Pos = u32;

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    /// A number, string or bytes literal.
    Lit(Lit),
    Ident(String),
    Op(&'static str),
}

const OPS: &[&str] = &[
    "==", "!=", "<=", ">=", "&&", "||", "<", ">", "+", "-", "*", "/", "%", "!", "?", ":", ".", ",",
    "(", ")", "[", "]", "{", "}",
];

/// The tokens of `src`, each with the byte offset it starts at.
fn lex(src: &str) -> Result<(Vec<Tok>, Vec<Pos>), String> {
    let b = src.as_bytes();
    let mut i = 0;
    let mut out = Vec::new();
    let (mut pos, mut start) = (Vec::new(), 0);
    while i < b.len() {
        if pos.len() < out.len() {
            pos.push(start as Pos);
        }
        let c = b[i];
        start = i;
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            let start = i;
            if c == b'0' && matches!(b.get(i + 1), Some(b'x' | b'X')) {
                i += 2;
                while i < b.len() && b[i].is_ascii_hexdigit() {
                    i += 1;
                }
                let v = u64::from_str_radix(&src[start + 2..i], 16).map_err(|e| e.to_string())?;
                if b.get(i).is_some_and(|c| *c == b'u' || *c == b'U') {
                    i += 1;
                    out.push(Tok::Lit(Lit::Uint(v)));
                } else {
                    out.push(Tok::Lit(Lit::Int(
                        i64::try_from(v).map_err(|e| e.to_string())?,
                    )));
                }
                continue;
            }
            let mut float = false;
            while i < b.len()
                && (b[i].is_ascii_digit()
                    || b[i] == b'.'
                    || b[i] == b'e'
                    || b[i] == b'E'
                    || ((b[i] == b'+' || b[i] == b'-') && matches!(b[i - 1], b'e' | b'E')))
            {
                if b[i] == b'.' {
                    if !b.get(i + 1).is_some_and(u8::is_ascii_digit) {
                        break;
                    }
                    float = true;
                }
                if matches!(b[i], b'e' | b'E') {
                    float = true;
                }
                i += 1;
            }
            let text = &src[start..i];
            if float {
                out.push(Tok::Lit(Lit::Double(
                    text.parse().map_err(|_| format!("invalid number {text}"))?,
                )));
            } else if b.get(i).is_some_and(|c| *c == b'u' || *c == b'U') {
                i += 1;
                out.push(Tok::Lit(Lit::Uint(
                    text.parse().map_err(|_| format!("invalid uint {text}"))?,
                )));
            } else {
                out.push(Tok::Lit(Lit::Int(
                    text.parse().map_err(|_| format!("invalid int {text}"))?,
                )));
            }
            continue;
        }
        let raw = matches!(c, b'r' | b'R') && matches!(b.get(i + 1), Some(b'"' | b'\''));
        let bytes = matches!(c, b'b' | b'B') && matches!(b.get(i + 1), Some(b'"' | b'\''));
        if c == b'"' || c == b'\'' || raw || bytes {
            if raw || bytes {
                i += 1;
            }
            let q = b[i];
            let triple = b.get(i + 1) == Some(&q) && b.get(i + 2) == Some(&q);
            i += if triple { 3 } else { 1 };
            let mut s = String::new();
            loop {
                let Some(&ch) = b.get(i) else {
                    return Err("unterminated string".into());
                };
                if ch == q && (!triple || (b.get(i + 1) == Some(&q) && b.get(i + 2) == Some(&q))) {
                    i += if triple { 3 } else { 1 };
                    break;
                }
                if ch == b'\\' && !raw {
                    let e = *b.get(i + 1).ok_or("unterminated string")?;
                    i += 2;
                    s.push(match e {
                        b'n' => '\n',
                        b't' => '\t',
                        b'r' => '\r',
                        b'\\' => '\\',
                        b'"' => '"',
                        b'\'' => '\'',
                        b'`' => '`',
                        b'?' => '?',
                        b'a' => '\u{7}',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'v' => '\u{b}',
                        // `\xHH`, `\uHHHH`, `\UHHHHHHHH` and octal `\OOO`.
                        b'x' | b'u' | b'U' | b'0'..=b'3' => {
                            let (digits, radix, from) = match e {
                                b'x' => (2, 16, i),
                                b'u' => (4, 16, i),
                                b'U' => (8, 16, i),
                                _ => (3, 8, i - 1),
                            };
                            let text = src.get(from..from + digits).ok_or("unterminated string")?;
                            let code = u32::from_str_radix(text, radix)
                                .map_err(|_| format!("invalid escape \\{}", e as char))?;
                            i = from + digits;
                            char::from_u32(code).ok_or("invalid escape: not a code point")?
                        }
                        _ => return Err(format!("invalid escape \\{}", e as char)),
                    });
                    continue;
                }
                let ch_len = src[i..].chars().next().map_or(1, char::len_utf8);
                s.push_str(&src[i..i + ch_len]);
                i += ch_len;
            }
            out.push(Tok::Lit(if bytes {
                Lit::Bytes(s.into_bytes())
            } else {
                Lit::Str(s)
            }));
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(Tok::Ident(src[start..i].to_string()));
            continue;
        }
        match OPS.iter().find(|op| src[i..].starts_with(**op)) {
            Some(op) => {
                out.push(Tok::Op(op));
                i += op.len();
            }
            None => {
                return Err(format!(
                    "Syntax error: token recognition error at: '{}'",
                    c as char
                ))
            }
        }
    }
    if pos.len() < out.len() {
        pos.push(start as Pos);
    }
    Ok((out, pos))
}

/// How deep a parsed tree may be: the evaluator, the walks over it and its drop recurse, so
/// a rule of `1+1+…` or `!!!…` thousands long must be refused, not overflow the stack.
/// (cel-go refuses nesting past 250 too; a chain of more than 250 operators, which it
/// accepts, is refused here.)
const MAX_DEPTH: usize = 250;

/// cel-go's limit on a rule's size (`ParserExpressionSizeCodePointLimit`).
const MAX_CODE_POINTS: usize = 100_000;

/// Parses a CEL expression.
pub fn parse(src: &str) -> Result<Expr, String> {
    parse_at(src).map_err(|(_, e)| e)
}

/// Parses a CEL expression; an error says where the parser stopped.
pub fn parse_at(src: &str) -> Result<Expr, (Pos, String)> {
    let size = src.chars().count();
    if size > MAX_CODE_POINTS {
        return Err((
            0,
            format!(
                "expression code point size exceeds limit: size: {size}, limit {MAX_CODE_POINTS}"
            ),
        ));
    }
    let (toks, pos) = lex(src).map_err(|e| (0, e))?;
    let mut p = Parser {
        toks,
        pos,
        end: src.len() as Pos,
        at: 0,
        depth: 0,
    };
    let e = p.expr().map_err(|e| (p.here(), e))?;
    if p.at != p.toks.len() {
        return Err((
            p.here(),
            format!(
                "Syntax error: extraneous input '{}' expecting <EOF>",
                p.toks[p.at].text()
            ),
        ));
    }
    Ok(e)
}

struct Parser {
    toks: Vec<Tok>,
    /// Where each token starts.
    pos: Vec<Pos>,
    /// The source's length, where the end of input is.
    end: Pos,
    at: usize,
    depth: usize,
}

/// Binary operators by precedence, loosest first.
const LEVELS: &[&[&str]] = &[
    &["||"],
    &["&&"],
    &["==", "!=", "<", "<=", ">", ">=", "in"],
    &["+", "-"],
    &["*", "/", "%"],
];

impl Tok {
    /// The token as written (for syntax errors).
    fn text(&self) -> String {
        match self {
            Tok::Lit(Lit::Int(i)) => i.to_string(),
            Tok::Lit(Lit::Uint(u)) => format!("{u}u"),
            Tok::Lit(Lit::Double(d)) => d.to_string(),
            Tok::Lit(Lit::Str(s)) => format!("'{s}'"),
            Tok::Lit(Lit::Bytes(b)) => format!("b'{}'", String::from_utf8_lossy(b)),
            Tok::Lit(Lit::Null) => "null".into(),
            Tok::Lit(Lit::Bool(b)) => b.to_string(),
            Tok::Ident(i) => i.clone(),
            Tok::Op(o) => (*o).to_string(),
        }
    }
}

impl Parser {
    /// One level deeper in the tree being built; the caller puts `depth` back when it returns.
    fn deeper(&mut self) -> Result<(), String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err("max recursion depth exceeded".into());
        }
        Ok(())
    }

    fn peek_op(&self, op: &str) -> bool {
        match self.toks.get(self.at) {
            Some(Tok::Op(o)) => *o == op,
            Some(Tok::Ident(i)) => op == "in" && i == "in",
            _ => false,
        }
    }

    fn eat(&mut self, op: &str) -> bool {
        let yes = self.peek_op(op);
        if yes {
            self.at += 1;
        }
        yes
    }

    /// Where the next token starts.
    fn here(&self) -> Pos {
        self.pos.get(self.at).copied().unwrap_or(self.end)
    }

    fn expect(&mut self, op: &str) -> Result<(), String> {
        if self.eat(op) {
            Ok(())
        } else {
            Err(format!("Syntax error: missing '{op}'"))
        }
    }

    fn expr(&mut self) -> Result<Expr, String> {
        let base = self.depth;
        self.deeper()?;
        let c = self.binary(0)?;
        let at = self.here();
        let out = if self.eat("?") {
            let t = self.binary(0)?;
            self.expect(":")?;
            let f = self.expr()?;
            Expr::Cond(Box::new(c), Box::new(t), Box::new(f), at)
        } else {
            c
        };
        self.depth = base;
        Ok(out)
    }

    fn binary(&mut self, level: usize) -> Result<Expr, String> {
        if level == LEVELS.len() {
            return self.unary();
        }
        let base = self.depth;
        let mut lhs = self.binary(level + 1)?;
        'outer: loop {
            for op in LEVELS[level] {
                let at = self.here();
                if self.eat(op) {
                    // Each operator puts the chain so far one level down.
                    self.deeper()?;
                    let rhs = self.binary(level + 1)?;
                    lhs = Expr::Binary(op, Box::new(lhs), Box::new(rhs), at);
                    continue 'outer;
                }
            }
            self.depth = base;
            return Ok(lhs);
        }
    }

    fn unary(&mut self) -> Result<Expr, String> {
        let base = self.depth;
        let at = self.here();
        let out = if self.eat("!") {
            self.deeper()?;
            Expr::Unary("!", Box::new(self.unary()?), at)
        } else if self.eat("-") {
            self.deeper()?;
            match self.unary()? {
                Expr::Lit(Lit::Int(i)) => Expr::Lit(Lit::Int(-i)),
                Expr::Lit(Lit::Double(d)) => Expr::Lit(Lit::Double(-d)),
                e => Expr::Unary("-", Box::new(e), at),
            }
        } else {
            self.member()?
        };
        self.depth = base;
        Ok(out)
    }

    fn args(&mut self, close: &str) -> Result<Vec<Expr>, String> {
        let mut out = Vec::new();
        if self.eat(close) {
            return Ok(out);
        }
        loop {
            out.push(self.expr()?);
            if self.eat(close) {
                return Ok(out);
            }
            self.expect(",")?;
            if self.eat(close) {
                return Ok(out);
            }
        }
    }

    /// A list literal's elements, each perhaps optional (`?x`), up to its `]`.
    fn elements(&mut self) -> Result<(Vec<Expr>, Vec<Pos>), String> {
        let (mut out, mut starts) = (Vec::new(), Vec::new());
        if self.eat("]") {
            return Ok((out, starts));
        }
        loop {
            let optional = self.eat("?");
            starts.push(self.here());
            let x = self.expr()?;
            out.push(if optional { Expr::Opt(Box::new(x)) } else { x });
            if self.eat("]") {
                return Ok((out, starts));
            }
            self.expect(",")?;
            if self.eat("]") {
                return Ok((out, starts));
            }
        }
    }

    fn member(&mut self) -> Result<Expr, String> {
        let base = self.depth;
        let mut e = self.primary()?;
        loop {
            if self.peek_op(".") || self.peek_op("[") {
                // Each selection, call or index puts the chain so far one level down.
                self.deeper()?;
            }
            let at = self.here();
            if self.eat(".") {
                let optional = self.eat("?");
                let Some(Tok::Ident(name)) = self.toks.get(self.at).cloned() else {
                    return Err("Syntax error: missing IDENTIFIER".into());
                };
                self.at += 1;
                let open = self.here();
                if optional {
                    e = Expr::OptSelect(Box::new(e), name, at);
                } else if self.eat("(") {
                    let args = self.args(")")?;
                    e = super::macros::macro_or_call(Some(e), name, args, open)?;
                } else {
                    e = super::macros::select_or_type(e, name, at);
                }
            } else if self.eat("[") {
                let optional = self.eat("?");
                let i = Box::new(self.expr()?);
                self.expect("]")?;
                e = if optional {
                    Expr::OptIndex(Box::new(e), i, at)
                } else {
                    Expr::Index(Box::new(e), i, at)
                };
            } else {
                self.depth = base;
                return Ok(e);
            }
        }
    }

    fn primary(&mut self) -> Result<Expr, String> {
        let Some(t) = self.toks.get(self.at).cloned() else {
            return Err("Syntax error: mismatched input '<EOF>'".into());
        };
        let at = self.here();
        self.at += 1;
        Ok(match t {
            Tok::Lit(v) => Expr::Lit(v),
            Tok::Ident(id) => match id.as_str() {
                "true" => Expr::Lit(Lit::Bool(true)),
                "false" => Expr::Lit(Lit::Bool(false)),
                "null" => Expr::Lit(Lit::Null),
                _ if self.peek_op("(") => {
                    let open = self.here();
                    self.at += 1;
                    let args = self.args(")")?;
                    super::macros::macro_or_call(None, id, args, open)?
                }
                _ => Expr::Ident(id, at),
            },
            Tok::Op("(") => {
                let e = self.expr()?;
                self.expect(")")?;
                e
            }
            Tok::Op("[") => {
                let (items, starts) = self.elements()?;
                Expr::List(items, starts)
            }
            Tok::Op("{") => {
                let (mut entries, mut starts) = (Vec::new(), Vec::new());
                if !self.eat("}") {
                    loop {
                        let optional = self.eat("?");
                        let key_at = self.here();
                        let mut k = self.expr()?;
                        if optional {
                            k = Expr::Opt(Box::new(k));
                        }
                        self.expect(":")?;
                        let value_at = self.here();
                        let v = self.expr()?;
                        entries.push((k, v));
                        starts.push((key_at, value_at));
                        if self.eat("}") {
                            break;
                        }
                        self.expect(",")?;
                        if self.eat("}") {
                            break;
                        }
                    }
                }
                Expr::Map(entries, starts)
            }
            // A leading dot names an identifier from the root (`.self`), once.
            Tok::Op(".") if matches!(self.toks.get(self.at), Some(Tok::Ident(_))) => {
                return self.primary()
            }
            Tok::Op(o) => return Err(format!("Syntax error: mismatched input '{o}'")),
        })
    }
}
