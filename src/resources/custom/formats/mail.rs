//! The `email` format: whether Go's `net/mail.ParseAddress` takes the text (strfmt's
//! `IsEmail`). Its grammar is RFC 5322's, as Go reads it: an address, `Name <address>`, a
//! quoted local part, a domain literal (`[192.0.2.1]`), comments, and a group of exactly one
//! address (`team: a@example.com;`). Only the outcome matters here, so no text is decoded.

/// A cursor over the rest of the address, as Go's `addrParser`.
struct Parser<'a> {
    s: &'a str,
}

/// `ParseAddress(text)` succeeds.
pub(super) fn is_address(text: &str) -> bool {
    let mut p = Parser { s: text };
    // parseSingleAddress: one address (a group must hold exactly one), then only CFWS.
    p.address(true) == Some(1) && p.skip_cfws() && p.s.is_empty()
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.s.chars().next()
    }

    fn consume(&mut self, c: char) -> bool {
        match self.s.strip_prefix(c) {
            Some(rest) => {
                self.s = rest;
                true
            }
            None => false,
        }
    }

    fn skip_space(&mut self) {
        self.s = self.s.trim_start_matches([' ', '\t']);
    }

    /// `parseAddress`: how many addresses it read, or `None` on an error.
    fn address(&mut self, handle_group: bool) -> Option<usize> {
        self.skip_space();
        if self.s.is_empty() {
            return None;
        }
        if self.addr_spec() {
            self.skip_space();
            if self.peek() == Some('(') && !(self.consume('(') && self.comment()) {
                return None;
            }
            return Some(1);
        }
        if self.peek() != Some('<') && !self.phrase() {
            return None;
        }
        self.skip_space();
        if handle_group && self.consume(':') {
            return self.group_list();
        }
        (self.consume('<') && self.addr_spec() && self.consume('>')).then_some(1)
    }

    /// `consumeGroupList`, after the `:`: the number of addresses up to the `;`.
    fn group_list(&mut self) -> Option<usize> {
        self.skip_space();
        if self.consume(';') {
            return self.skip_cfws().then_some(0);
        }
        let mut n = 0;
        loop {
            self.skip_space();
            n += self.address(false)?;
            if !self.skip_cfws() {
                return None;
            }
            if self.consume(';') {
                return self.skip_cfws().then_some(n);
            }
            if !self.consume(',') {
                return None;
            }
        }
    }

    /// `consumeAddrSpec`: a dot-atom or quoted local part, `@`, a dot-atom or literal domain.
    /// On failure the cursor is where it was.
    fn addr_spec(&mut self) -> bool {
        let orig = self.s;
        let ok = self.addr_spec_inner();
        if !ok {
            self.s = orig;
        }
        ok
    }

    fn addr_spec_inner(&mut self) -> bool {
        self.skip_space();
        let local = match self.peek() {
            None => return false,
            Some('"') => self.quoted_string().is_some_and(|held| held > 0),
            Some(_) => self.atom(false),
        };
        if !local || !self.consume('@') {
            return false;
        }
        self.skip_space();
        match self.peek() {
            None => false,
            Some('[') => self.domain_literal(),
            Some(_) => self.atom(false),
        }
    }

    /// `consumeAtom(dot=true, permissive)`: one or more atext characters or dots; unless
    /// permissive, no leading, trailing or double dot.
    fn atom(&mut self, permissive: bool) -> bool {
        let end = self
            .s
            .char_indices()
            .find(|(_, c)| !is_atext(*c))
            .map_or(self.s.len(), |(i, _)| i);
        if end == 0 {
            return false;
        }
        let atom = &self.s[..end];
        if !permissive && (atom.starts_with('.') || atom.ends_with('.') || atom.contains("..")) {
            return false;
        }
        self.s = &self.s[end..];
        true
    }

    /// `consumeQuotedString`: how many characters the quoted string holds (escapes resolved),
    /// or `None` when it is not one.
    fn quoted_string(&mut self) -> Option<usize> {
        let (mut held, mut escaped) = (0, false);
        for (i, c) in self.s.char_indices().skip(1) {
            match c {
                '"' if !escaped => {
                    self.s = &self.s[i + 1..];
                    return Some(held);
                }
                '\\' if !escaped => escaped = true,
                // qtext, or a quoted-pair's VCHAR or WSP
                c if is_vchar(c) || is_wsp(c) => {
                    held += 1;
                    escaped = false;
                }
                _ => return None,
            }
        }
        None
    }

    /// `consumeDomainLiteral`: `[`, dtext that is an IP address (Go's `net.ParseIP`), `]`.
    fn domain_literal(&mut self) -> bool {
        if !self.consume('[') {
            return false;
        }
        let Some(end) = self.s.find(']') else {
            return false;
        };
        let dtext = &self.s[..end];
        let dtext_ok = dtext
            .chars()
            .all(|c| matches!(c, '!'..='Z' | '^'..='~') || !c.is_ascii());
        self.s = &self.s[end + 1..];
        dtext_ok && super::net::parse_ip(dtext).is_some()
    }

    /// `consumePhrase`: one or more words (atoms, dots allowed, or quoted strings), CFWS
    /// between them; fails only when there is no word at all.
    fn phrase(&mut self) -> bool {
        let mut words = 0;
        loop {
            if words > 0 && !self.skip_cfws() {
                return false;
            }
            self.skip_space();
            let ok = match self.peek() {
                None => break,
                Some('"') => self.quoted_string().is_some(),
                Some(_) => self.atom(true),
            };
            if !ok {
                break;
            }
            words += 1;
        }
        words > 0
    }

    /// `skipCFWS`: spaces and parenthesized comments; false on an unclosed comment.
    fn skip_cfws(&mut self) -> bool {
        self.skip_space();
        while self.consume('(') {
            if !self.comment() {
                return false;
            }
            self.skip_space();
        }
        true
    }

    /// `consumeComment`, after its `(`: up to the matching `)`, with nesting and `\` escapes.
    fn comment(&mut self) -> bool {
        let mut depth = 1;
        let b = self.s.as_bytes();
        let mut i = 0;
        while i < b.len() && depth > 0 {
            match b[i] {
                b'\\' if b.len() - i > 1 => i += 1,
                b'(' => depth += 1,
                b')' => depth -= 1,
                _ => {}
            }
            i += 1;
        }
        self.s = &self.s[i..];
        depth == 0
    }
}

/// RFC 5322 atext (dots included), as Go's `isAtext(r, dot=true)`: a visible character that is
/// not a special; any non-ASCII character counts (RFC 6532).
fn is_atext(c: char) -> bool {
    !"()<>[]:;@\\,\"".contains(c) && is_vchar(c)
}

fn is_vchar(c: char) -> bool {
    ('!'..='~').contains(&c) || !c.is_ascii()
}

fn is_wsp(c: char) -> bool {
    c == ' ' || c == '\t'
}
