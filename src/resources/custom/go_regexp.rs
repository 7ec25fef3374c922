//! Go's `regexp.Compile` errors for a CRD's `pattern` (written here: the texts must be Go's
//! `regexp/syntax` ones, "error parsing regexp: CODE: \`EXPR\`"). This checks the syntax
//! RE2 refuses that schemas get wrong: unbalanced parentheses and brackets, repetition
//! without an argument or stacked on another, bad repeat counts, unknown escapes, Perl
//! groups Go does not have, reversed class ranges, unknown POSIX classes and a trailing
//! backslash. It does not compile the expression; matching is `regex-lite`'s.

const MAX_REPEAT: u32 = 1000;

fn error(code: &str, expr: &str) -> String {
    format!("error parsing regexp: {code}: `{expr}`")
}

/// `Ok` when Go compiles `pattern`, else Go's error text.
pub fn check(pattern: &str) -> Result<(), String> {
    Parser {
        s: pattern,
        chars: pattern.char_indices().collect(),
        i: 0,
    }
    .parse()
}

/// What the last thing parsed was, for the repetition rules.
#[derive(Clone, Copy, PartialEq)]
enum Last {
    /// Nothing, `(` or `|`: a repetition here has no argument.
    Pseudo,
    Atom,
    /// A repetition operator, starting at this byte offset.
    Repeat(usize),
}

struct Parser<'a> {
    s: &'a str,
    chars: Vec<(usize, char)>,
    i: usize,
}

impl Parser<'_> {
    fn peek(&self, k: usize) -> Option<char> {
        self.chars.get(self.i + k).map(|c| c.1)
    }

    fn offset(&self) -> usize {
        self.chars.get(self.i).map_or(self.s.len(), |c| c.0)
    }

    fn parse(&mut self) -> Result<(), String> {
        let mut depth = 0usize;
        let mut last = Last::Pseudo;
        while let Some(c) = self.peek(0) {
            let start = self.offset();
            match c {
                '(' => {
                    if self.peek(1) == Some('?') {
                        self.perl_group(start)?;
                        // A flag group alone, `(?i)`, is no group and no atom.
                        if self.s[start..self.offset()].ends_with(')') {
                            continue;
                        }
                    } else {
                        self.i += 1;
                    }
                    depth += 1;
                    last = Last::Pseudo;
                }
                ')' => {
                    if depth == 0 {
                        return Err(error("unexpected )", self.s));
                    }
                    depth -= 1;
                    self.i += 1;
                    last = Last::Atom;
                }
                '|' => {
                    self.i += 1;
                    last = Last::Pseudo;
                }
                '*' | '+' | '?' => {
                    self.i += 1;
                    if self.peek(0) == Some('?') {
                        self.i += 1;
                    }
                    last = self.repeat(start, last)?;
                }
                '{' => match self.repeat_count() {
                    Some(ok) => {
                        ok.map_err(|_| {
                            error("invalid repeat count", &self.s[start..self.offset()])
                        })?;
                        if self.peek(0) == Some('?') {
                            self.i += 1;
                        }
                        last = self.repeat(start, last)?;
                    }
                    // Not a repeat: `{` is a literal.
                    None => {
                        self.i += 1;
                        last = Last::Atom;
                    }
                },
                '[' => {
                    self.class(start)?;
                    last = Last::Atom;
                }
                '\\' => {
                    self.escape(false)?;
                    last = Last::Atom;
                }
                _ => {
                    self.i += 1;
                    last = Last::Atom;
                }
            }
        }
        if depth > 0 {
            return Err(error("missing closing )", self.s));
        }
        Ok(())
    }

    /// A repetition operator ending here, which started at `start`.
    fn repeat(&self, start: usize, last: Last) -> Result<Last, String> {
        let end = self.offset();
        match last {
            Last::Pseudo => Err(error(
                "missing argument to repetition operator",
                &self.s[start..end],
            )),
            Last::Repeat(prev) => Err(error(
                "invalid nested repetition operator",
                &self.s[prev..end],
            )),
            Last::Atom => Ok(Last::Repeat(start)),
        }
    }

    /// `{n}`, `{n,}` or `{n,m}` at the cursor: `None` when it is no repeat (the cursor
    /// stays), else the cursor after it and whether its counts are allowed.
    fn repeat_count(&mut self) -> Option<Result<(), ()>> {
        let rest = &self.s[self.offset()..];
        let close = rest.find('}')?;
        let body = &rest[1..close];
        let (min, max) = match body.split_once(',') {
            None => (body, Some(body)),
            Some((a, "")) => (a, None),
            Some((a, b)) => (a, Some(b)),
        };
        let num = |t: &str| -> Option<u32> {
            (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
                .then(|| t.parse().unwrap_or(u32::MAX))
        };
        let min = num(min)?;
        let max = match max {
            Some(m) => Some(num(m)?),
            None => None,
        };
        self.i += rest[..=close].chars().count();
        let ok = min <= MAX_REPEAT && max.is_none_or(|m| m <= MAX_REPEAT && m >= min);
        Some(if ok { Ok(()) } else { Err(()) })
    }

    /// `(?flags)`, `(?flags:`, `(?P<name>`, `(?<name>`; anything else is Perl syntax Go
    /// does not have.
    fn perl_group(&mut self, start: usize) -> Result<(), String> {
        let rest = &self.s[start..];
        let bad = |t: &str| error("invalid or unsupported Perl syntax", t);
        let named = rest
            .strip_prefix("(?P<")
            .or_else(|| rest.strip_prefix("(?<"));
        if let Some(after) = named {
            let Some(end) = after.find('>') else {
                return Err(error("invalid named capture", rest));
            };
            let name = &after[..end];
            let head = rest.len() - after.len();
            if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
                return Err(error("invalid named capture", &rest[..head + end + 1]));
            }
            self.i += rest[..head + end + 1].chars().count();
            return Ok(());
        }
        // Flags: [imsU]*(-[imsU]*)? then `)` or `:`.
        let mut n = 2;
        let mut negated = false;
        for c in rest[2..].chars() {
            n += c.len_utf8();
            match c {
                'i' | 'm' | 's' | 'U' => {}
                '-' if !negated => negated = true,
                ')' | ':' => {
                    // After `-`, at least one flag.
                    if rest[2..n - 1].ends_with('-') {
                        return Err(bad(&rest[..n]));
                    }
                    self.i += rest[..n].chars().count();
                    return Ok(());
                }
                _ => return Err(bad(&rest[..n])),
            }
        }
        Err(error("missing closing )", self.s))
    }

    /// A bracket class starting at `start`.
    fn class(&mut self, start: usize) -> Result<(), String> {
        self.i += 1;
        if self.peek(0) == Some('^') {
            self.i += 1;
        }
        let mut first = true;
        loop {
            let Some(c) = self.peek(0) else {
                return Err(error("missing closing ]", &self.s[start..]));
            };
            if c == ']' && !first {
                self.i += 1;
                return Ok(());
            }
            first = false;
            let lo_at = self.offset();
            if c == '[' && self.peek(1) == Some(':') {
                let rest = &self.s[lo_at..];
                if let Some(end) = rest.find(":]") {
                    let name = &rest[2..end];
                    if !POSIX.contains(&name.trim_start_matches('^')) {
                        return Err(error("invalid character class range", &rest[..end + 2]));
                    }
                    self.i += rest[..end + 2].chars().count();
                    continue;
                }
            }
            let lo = match c {
                '\\' => self.escape(true)?,
                _ => {
                    self.i += 1;
                    Some(c)
                }
            };
            if self.peek(0) == Some('-') && self.peek(1).is_some_and(|n| n != ']') {
                self.i += 1;
                let hi = match self.peek(0) {
                    Some('\\') => self.escape(true)?,
                    Some(h) => {
                        self.i += 1;
                        Some(h)
                    }
                    None => return Err(error("missing closing ]", &self.s[start..])),
                };
                if let (Some(a), Some(b)) = (lo, hi) {
                    if b < a {
                        return Err(error(
                            "invalid character class range",
                            &self.s[lo_at..self.offset()],
                        ));
                    }
                }
            }
        }
    }

    /// An escape at the cursor: the character it stands for, `None` for a class (`\d`,
    /// `\pL`) or an assertion.
    fn escape(&mut self, in_class: bool) -> Result<Option<char>, String> {
        let at = self.offset();
        let Some(c) = self.peek(1) else {
            return Err(error("trailing backslash at end of expression", ""));
        };
        self.i += 2;
        let bad = |p: &Self| Err(error("invalid escape sequence", &p.s[at..p.offset()]));
        match c {
            'a' => Ok(Some('\x07')),
            'f' => Ok(Some('\x0c')),
            't' => Ok(Some('\t')),
            'n' => Ok(Some('\n')),
            'r' => Ok(Some('\r')),
            'v' => Ok(Some('\x0b')),
            'd' | 'D' | 's' | 'S' | 'w' | 'W' => Ok(None),
            'A' | 'z' | 'b' | 'B' if !in_class => Ok(None),
            'Q' if !in_class => {
                // Literal text up to `\E` or the end.
                let rest = &self.s[self.offset()..];
                let len = rest.find("\\E").map_or(rest.len(), |e| e + 2);
                self.i += rest[..len].chars().count();
                Ok(None)
            }
            'p' | 'P' => {
                if self.peek(0) == Some('{') {
                    let rest = &self.s[self.offset()..];
                    match rest.find('}') {
                        Some(end) => self.i += rest[..=end].chars().count(),
                        None => return bad(self),
                    }
                } else if self.peek(0).is_some() {
                    self.i += 1;
                } else {
                    return bad(self);
                }
                Ok(None)
            }
            'x' => {
                if self.peek(0) == Some('{') {
                    let rest = &self.s[self.offset()..];
                    let Some(end) = rest.find('}') else {
                        return bad(self);
                    };
                    self.i += rest[..=end].chars().count();
                    let v = u32::from_str_radix(&rest[1..end], 16).ok();
                    return match v.and_then(char::from_u32) {
                        Some(ch) if end > 1 => Ok(Some(ch)),
                        _ => bad(self),
                    };
                }
                let hex: String = (0..2).filter_map(|k| self.peek(k)).collect();
                if hex.len() != 2 || !hex.chars().all(|h| h.is_ascii_hexdigit()) {
                    self.i += hex.chars().take_while(char::is_ascii_hexdigit).count();
                    return bad(self);
                }
                self.i += 2;
                Ok(char::from_u32(u32::from_str_radix(&hex, 16).unwrap_or(0)))
            }
            '0'..='7' => {
                // Octal: `\0` and up to two more digits, or three digits; a lone `\1`-`\7`
                // is a backreference, which Go refuses.
                if c != '0' && !self.peek(0).is_some_and(|d| ('0'..='7').contains(&d)) {
                    return bad(self);
                }
                let mut v = c.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match self.peek(0).and_then(|d| d.to_digit(8)) {
                        Some(d) => {
                            v = v * 8 + d;
                            self.i += 1;
                        }
                        None => break,
                    }
                }
                Ok(char::from_u32(v))
            }
            c if c.is_ascii() && !c.is_ascii_alphanumeric() => Ok(Some(c)),
            _ => bad(self),
        }
    }
}

/// The POSIX classes Go knows (`[:alpha:]`).
const POSIX: &[&str] = &[
    "alnum", "alpha", "ascii", "blank", "cntrl", "digit", "graph", "lower", "print", "punct",
    "space", "upper", "word", "xdigit",
];

#[cfg(test)]
mod tests {
    use super::check;

    #[test]
    fn go_accepts_and_refuses_as_regexp_syntax_does() {
        for ok in [
            "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$",
            r"\d{1,3}(\.\d{1,3}){3}",
            r"(?i)abc",
            r"(?:ab)+(?i-s:c)",
            r"(?P<x>a)|(?<y>b)",
            r"[[:alpha:]_-]+",
            r"a{2}b{3,}c{1,1000}",
            r"x{",
            r"a{,2}",
            r"^*",
            r"[\]\-]",
            r"\x41\x{1F600}\101\0",
            r"\pL\p{Greek}",
            r"\Q*+?\E",
        ] {
            assert_eq!(check(ok), Ok(()), "{ok}");
        }
        for (bad, want) in [
            ("[a-z", "missing closing ]: `[a-z`"),
            ("(ab", "missing closing ): `(ab`"),
            ("ab)", "unexpected ): `ab)`"),
            ("*a", "missing argument to repetition operator: `*`"),
            ("a|+", "missing argument to repetition operator: `+`"),
            ("a**", "invalid nested repetition operator: `**`"),
            ("a{2}*", "invalid nested repetition operator: `{2}*`"),
            ("a{2,1}", "invalid repeat count: `{2,1}`"),
            ("a{1001}", "invalid repeat count: `{1001}`"),
            (r"\q", "invalid escape sequence: `\\q`"),
            (r"a\1", "invalid escape sequence: `\\1`"),
            ("(?=a)", "invalid or unsupported Perl syntax: `(?=`"),
            ("(?i-)", "invalid or unsupported Perl syntax: `(?i-)`"),
            ("(?i)*", "missing argument to repetition operator: `*`"),
            ("[z-a]", "invalid character class range: `z-a`"),
            ("[[:foo:]]", "invalid character class range: `[:foo:]`"),
            ("a\\", "trailing backslash at end of expression: ``"),
        ] {
            assert_eq!(
                check(bad),
                Err(format!("error parsing regexp: {want}")),
                "{bad}"
            );
        }
    }
}
