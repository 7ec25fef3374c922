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

use super::cel::{parse_cel, Expr, Kind};

/// Prefix the registry adds to every parse error (`fmt.Errorf("invalid shard selector: %w")`);
/// the result is a plain error, hence HTTP 500 with no reason and this text as the message.
pub const ERROR_PREFIX: &str = "invalid shard selector: ";
/// Exclusive upper bound of the 64-bit hash space, written `0x10000000000000000` on the wire.
pub const HASH_SPACE_END: u128 = 1 << 64;
/// cel-go's default parser limits; exceeding them is a `CEL parse error`.
pub(super) const MAX_DEPTH: usize = 250;
pub(super) const MAX_CODE_POINTS: usize = 100_000;

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

pub(super) type Res<T> = Result<T, String>;

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

#[cfg(test)]
#[path = "shard_tests.rs"]
mod tests;
