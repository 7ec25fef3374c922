//! A JSON syntax checker with Go `encoding/json`'s state machine and error texts.
//!
//! kube-apiserver answers a malformed body with the scanner's message verbatim (wrapped by the
//! handler), for example `invalid character '}' looking for beginning of object key string`.
//! Those texts depend on which state the scanner is in when it meets the byte, and at end of
//! input Go feeds one extra space through the machine (so `1.` reports
//! `invalid character ' ' after decimal point in numeric literal`, not "unexpected end"). The
//! only faithful way to get every message right is to run the same states, so this module does
//! exactly that, once, before the value is built.

/// Go's `maxNestingDepth`: deeper input is rejected with `exceeded max depth`.
///
/// A WebAssembly host refuses past 1,000 levels instead, with the same error. Its engine runs
/// on the JavaScript engine's stack (V8's is about 1 MB, and wasm32 cannot switch to another,
/// as `engine/stack.rs` does natively), where the recursive walks of decoding, field
/// management, patching and encoding exhaust it at about 2,000 levels: a `RangeError` that
/// unwinds through the engine mid-request. Every body, patch result and stored object passes
/// this scanner, so the cap bounds them all; 1,000 leaves room for a JSON patch that doubles
/// an object's depth before its result is scanned.
pub const MAX_NESTING_DEPTH: usize = if cfg!(target_arch = "wasm32") {
    1_000
} else {
    10_000
};

/// A syntax error: Go's message and the byte offset Go reports (bytes consumed, counting the
/// offending byte).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScanError {
    pub message: String,
    pub offset: usize,
}

/// How Go's scanner ends the message of input nested past [`MAX_NESTING_DEPTH`].
const TOO_DEEP: &str = "exceeded max depth";

impl ScanError {
    /// Whether the input nested deeper than [`MAX_NESTING_DEPTH`].
    pub fn too_deep(&self) -> bool {
        self.message.ends_with(TOO_DEEP)
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Parse {
    ObjectKey,
    ObjectValue,
    ArrayValue,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    BeginValueOrEmpty,
    BeginValue,
    BeginStringOrEmpty,
    BeginString,
    EndValue,
    EndTop,
    InString,
    InStringEsc,
    InStringEscU(u8),
    Neg,
    One,
    Zero,
    Dot,
    Dot0,
    E,
    ESign,
    E0,
    Lit(&'static [u8], usize, &'static str),
    Error,
}

struct Scanner {
    state: State,
    stack: Vec<Parse>,
    /// The deepest nesting accepted.
    max_depth: usize,
    end_top: bool,
    err: Option<ScanError>,
    bytes: usize,
}

fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | b'\n')
}

/// Go's `quoteChar`: the offending byte as it appears in scanner messages.
pub fn quote_char(c: u8) -> String {
    match c {
        b'\'' => "'\\''".to_string(),
        b'"' => "'\"'".to_string(),
        _ => {
            // strconv.Quote(string(rune(c))) without its double quotes; the byte is read as
            // a Latin-1 code point.
            let ch = char::from(c);
            let inner = match ch {
                '\x07' => "\\a".to_string(),
                '\x08' => "\\b".to_string(),
                '\x0c' => "\\f".to_string(),
                '\n' => "\\n".to_string(),
                '\r' => "\\r".to_string(),
                '\t' => "\\t".to_string(),
                '\x0b' => "\\v".to_string(),
                '\\' => "\\\\".to_string(),
                c if (c as u32) < 0x20 || c as u32 == 0x7f => format!("\\x{:02x}", c as u32),
                // Not printable in Go: C1 controls, NBSP, soft hyphen.
                c if (0x80..=0xa0).contains(&(c as u32)) || c as u32 == 0xad => {
                    format!("\\u{:04x}", c as u32)
                }
                c => c.to_string(),
            };
            format!("'{inner}'")
        }
    }
}

impl Scanner {
    fn new() -> Self {
        Scanner {
            state: State::BeginValue,
            stack: Vec::new(),
            max_depth: MAX_NESTING_DEPTH,
            end_top: false,
            err: None,
            bytes: 0,
        }
    }

    fn error(&mut self, c: u8, context: &str) {
        self.state = State::Error;
        self.err = Some(ScanError {
            message: format!("invalid character {} {}", quote_char(c), context),
            offset: self.bytes,
        });
    }

    fn push(&mut self, c: u8, p: Parse, next: State) {
        self.stack.push(p);
        if self.stack.len() <= self.max_depth {
            self.state = next;
        } else {
            self.error(c, TOO_DEEP);
        }
    }

    fn pop(&mut self) {
        self.stack.pop();
        if self.stack.is_empty() {
            self.state = State::EndTop;
            self.end_top = true;
        } else {
            self.state = State::EndValue;
        }
    }

    fn begin_value(&mut self, c: u8) {
        match c {
            c if is_space(c) => {}
            b'{' => self.push(c, Parse::ObjectKey, State::BeginStringOrEmpty),
            b'[' => self.push(c, Parse::ArrayValue, State::BeginValueOrEmpty),
            b'"' => self.state = State::InString,
            b'-' => self.state = State::Neg,
            b'0' => self.state = State::Zero,
            b't' => self.state = State::Lit(b"rue", 0, "true"),
            b'f' => self.state = State::Lit(b"alse", 0, "false"),
            b'n' => self.state = State::Lit(b"ull", 0, "null"),
            b'1'..=b'9' => self.state = State::One,
            _ => self.error(c, "looking for beginning of value"),
        }
    }

    fn end_value(&mut self, c: u8) {
        let Some(&top) = self.stack.last() else {
            self.state = State::EndTop;
            self.end_top = true;
            self.end_top_step(c);
            return;
        };
        if is_space(c) {
            self.state = State::EndValue;
            return;
        }
        match top {
            Parse::ObjectKey => {
                if c == b':' {
                    *self.stack.last_mut().expect("non-empty") = Parse::ObjectValue;
                    self.state = State::BeginValue;
                } else {
                    self.error(c, "after object key");
                }
            }
            Parse::ObjectValue => match c {
                b',' => {
                    *self.stack.last_mut().expect("non-empty") = Parse::ObjectKey;
                    self.state = State::BeginString;
                }
                b'}' => self.pop(),
                _ => self.error(c, "after object key:value pair"),
            },
            Parse::ArrayValue => match c {
                b',' => self.state = State::BeginValue,
                b']' => self.pop(),
                _ => self.error(c, "after array element"),
            },
        }
    }

    fn end_top_step(&mut self, c: u8) {
        if !is_space(c) {
            self.error(c, "after top-level value");
        }
    }

    fn step(&mut self, c: u8) {
        match self.state {
            State::Error => {}
            State::BeginValueOrEmpty => {
                if is_space(c) {
                } else if c == b']' {
                    self.end_value(c);
                } else {
                    self.begin_value(c);
                }
            }
            State::BeginValue => self.begin_value(c),
            State::BeginStringOrEmpty => {
                if is_space(c) {
                } else if c == b'}' {
                    *self.stack.last_mut().expect("inside an object") = Parse::ObjectValue;
                    self.end_value(c);
                } else {
                    self.begin_string(c);
                }
            }
            State::BeginString => self.begin_string(c),
            State::EndValue => self.end_value(c),
            State::EndTop => self.end_top_step(c),
            State::InString => match c {
                b'"' => self.state = State::EndValue,
                b'\\' => self.state = State::InStringEsc,
                c if c < 0x20 => self.error(c, "in string literal"),
                _ => {}
            },
            State::InStringEsc => match c {
                b'b' | b'f' | b'n' | b'r' | b't' | b'\\' | b'/' | b'"' => {
                    self.state = State::InString
                }
                b'u' => self.state = State::InStringEscU(0),
                _ => self.error(c, "in string escape code"),
            },
            State::InStringEscU(n) => {
                if c.is_ascii_hexdigit() {
                    self.state = if n == 3 {
                        State::InString
                    } else {
                        State::InStringEscU(n + 1)
                    };
                } else {
                    self.error(c, "in \\u hexadecimal character escape");
                }
            }
            State::Neg => match c {
                b'0' => self.state = State::Zero,
                b'1'..=b'9' => self.state = State::One,
                _ => self.error(c, "in numeric literal"),
            },
            State::One => {
                if c.is_ascii_digit() {
                } else {
                    self.zero(c);
                }
            }
            State::Zero => self.zero(c),
            State::Dot => {
                if c.is_ascii_digit() {
                    self.state = State::Dot0;
                } else {
                    self.error(c, "after decimal point in numeric literal");
                }
            }
            State::Dot0 => match c {
                b'0'..=b'9' => {}
                b'e' | b'E' => self.state = State::E,
                _ => self.end_value(c),
            },
            State::E => match c {
                b'+' | b'-' => self.state = State::ESign,
                _ => self.e_sign(c),
            },
            State::ESign => self.e_sign(c),
            State::E0 => {
                if !c.is_ascii_digit() {
                    self.end_value(c);
                }
            }
            State::Lit(rest, i, name) => {
                if c == rest[i] {
                    self.state = if i + 1 == rest.len() {
                        State::EndValue
                    } else {
                        State::Lit(rest, i + 1, name)
                    };
                } else {
                    let ctx = format!("in literal {name} (expecting {})", quote_char(rest[i]));
                    self.error(c, &ctx);
                }
            }
        }
    }

    fn begin_string(&mut self, c: u8) {
        if is_space(c) {
        } else if c == b'"' {
            self.state = State::InString;
        } else {
            self.error(c, "looking for beginning of object key string");
        }
    }

    fn zero(&mut self, c: u8) {
        match c {
            b'.' => self.state = State::Dot,
            b'e' | b'E' => self.state = State::E,
            _ => self.end_value(c),
        }
    }

    fn e_sign(&mut self, c: u8) {
        if c.is_ascii_digit() {
            self.state = State::E0;
        } else {
            self.error(c, "in exponent of numeric literal");
        }
    }

    /// Go's `scanner.eof`: feed a space, then complain about the end if still incomplete.
    fn eof(&mut self) -> Result<(), ScanError> {
        if let Some(e) = &self.err {
            return Err(e.clone());
        }
        if self.end_top {
            return Ok(());
        }
        self.step(b' ');
        if self.end_top {
            return Ok(());
        }
        Err(self.err.clone().unwrap_or_else(|| ScanError {
            message: "unexpected end of JSON input".to_string(),
            offset: self.bytes,
        }))
    }
}

/// Go's `checkValid`: Ok when `data` is exactly one JSON value (surrounded by optional
/// whitespace), else the first error Go's scanner reports.
pub fn check_valid(data: &[u8]) -> Result<(), ScanError> {
    check_valid_within(data, MAX_NESTING_DEPTH)
}

/// [`check_valid`] for a document whose values nest up to `max_depth` levels (a container of
/// objects adds its own levels to theirs).
pub fn check_valid_within(data: &[u8], max_depth: usize) -> Result<(), ScanError> {
    let mut s = Scanner::new();
    s.max_depth = max_depth;
    for &c in data {
        s.bytes += 1;
        s.step(c);
        if let Some(e) = &s.err {
            return Err(e.clone());
        }
    }
    s.eof()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_inputs() {
        for ok in [
            "{}",
            " [ ] ",
            "0",
            "-0.5e+10",
            "1E3",
            "\"a\\u00e9\\n\"",
            "{\"a\":[1,true,false,null,{}]}",
            "\t\r\n{ \"a\" : 1 }\n",
            "\"\u{7f}\u{e9}\"",
        ] {
            assert_eq!(check_valid(ok.as_bytes()), Ok(()), "{ok}");
        }
    }

    #[test]
    fn error_table() {
        let cases: &[(&[u8], &str, usize)] = &[
            (b"", "unexpected end of JSON input", 0),
            (b"   ", "unexpected end of JSON input", 3),
            (
                b"x",
                "invalid character 'x' looking for beginning of value",
                1,
            ),
            (b"{", "unexpected end of JSON input", 1),
            (b"{\"a\"", "unexpected end of JSON input", 4),
            (b"{\"a\":1", "unexpected end of JSON input", 6),
            (b"{\"a\" 1}", "invalid character '1' after object key", 6),
            (
                b"{\"a\":1 \"b\"}",
                "invalid character '\"' after object key:value pair",
                8,
            ),
            (
                b"{\"a\":1,}",
                "invalid character '}' looking for beginning of object key string",
                8,
            ),
            (
                b"{,}",
                "invalid character ',' looking for beginning of object key string",
                2,
            ),
            (b"[1 2]", "invalid character '2' after array element", 4),
            (
                b"[1,]",
                "invalid character ']' looking for beginning of value",
                4,
            ),
            (b"{} x", "invalid character 'x' after top-level value", 4),
            (
                b"1.",
                "invalid character ' ' after decimal point in numeric literal",
                2,
            ),
            (
                b"1.x",
                "invalid character 'x' after decimal point in numeric literal",
                3,
            ),
            (b"-", "invalid character ' ' in numeric literal", 1),
            (b"-a", "invalid character 'a' in numeric literal", 2),
            (
                b"1e",
                "invalid character ' ' in exponent of numeric literal",
                2,
            ),
            (
                b"1e+",
                "invalid character ' ' in exponent of numeric literal",
                3,
            ),
            (b"01", "invalid character '1' after top-level value", 2),
            (
                b"tru",
                "invalid character ' ' in literal true (expecting 'e')",
                3,
            ),
            (
                b"trx",
                "invalid character 'x' in literal true (expecting 'u')",
                3,
            ),
            (
                b"nul",
                "invalid character ' ' in literal null (expecting 'l')",
                3,
            ),
            (
                b"fals",
                "invalid character ' ' in literal false (expecting 'e')",
                4,
            ),
            (b"\"abc", "unexpected end of JSON input", 4),
            (b"\"a\nb\"", "invalid character '\\n' in string literal", 3),
            (
                b"\"\x01\"",
                "invalid character '\\x01' in string literal",
                2,
            ),
            (b"\"\\x\"", "invalid character 'x' in string escape code", 3),
            (
                b"\"\\u12g4\"",
                "invalid character 'g' in \\u hexadecimal character escape",
                6,
            ),
            (
                b"\xef\xbb\xbf{}",
                "invalid character '\u{ef}' looking for beginning of value",
                1,
            ),
            (
                b"'a'",
                "invalid character '\\'' looking for beginning of value",
                1,
            ),
            (
                b"\x7f",
                "invalid character '\\x7f' looking for beginning of value",
                1,
            ),
            (
                b"\x85",
                "invalid character '\\u0085' looking for beginning of value",
                1,
            ),
            (
                b"{\"a\":}",
                "invalid character '}' looking for beginning of value",
                6,
            ),
        ];
        for (input, msg, offset) in cases {
            let got = check_valid(input).expect_err(&String::from_utf8_lossy(input));
            assert_eq!(
                got.message,
                *msg,
                "input {:?}",
                String::from_utf8_lossy(input)
            );
            assert_eq!(
                got.offset,
                *offset,
                "offset for {:?}",
                String::from_utf8_lossy(input)
            );
        }
    }

    #[test]
    fn depth_limit() {
        let ok = "[".repeat(MAX_NESTING_DEPTH) + &"]".repeat(MAX_NESTING_DEPTH);
        assert_eq!(check_valid(ok.as_bytes()), Ok(()));
        let deep = "[".repeat(MAX_NESTING_DEPTH + 1);
        let e = check_valid(deep.as_bytes()).unwrap_err();
        assert_eq!(e.message, "invalid character '[' exceeded max depth");
        assert_eq!(e.offset, MAX_NESTING_DEPTH + 1);
    }
}
