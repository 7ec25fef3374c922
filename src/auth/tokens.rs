//! Static bearer tokens: kube-apiserver's `--token-auth-file`
//! (`k8s.io/apiserver/pkg/authentication/token/tokenfile`).
//!
//! Each CSV record is `token,user,uid[,"group1,group2"]`; further columns are ignored, an
//! empty token is skipped and a repeated token replaces the earlier one (the real loader only
//! warns on both). The CSV reader follows Go's `encoding/csv` (written here because its
//! error texts name Go's line and byte column): quoted fields with `""` escapes that may span
//! lines, blank lines skipped.

use std::collections::HashMap;

use crate::resources::rbac::UserInfo;

/// Tokens and the users they authenticate.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TokenFile {
    users: HashMap<String, UserInfo>,
}

/// Go's `csv.ParseError` text: the record's line, and where a quote went wrong (1-based
/// line and byte column).
fn parse_error(start_line: usize, line: usize, column: usize, err: &str) -> String {
    match start_line == line {
        true => format!("parse error on line {line}, column {column}: {err}"),
        false => format!(
            "record on line {start_line}; parse error on line {line}, column {column}: {err}"
        ),
    }
}

const ERR_BARE_QUOTE: &str = "bare \" in non-quoted-field";
const ERR_QUOTE: &str = "extraneous or missing \" in quoted-field";

/// Go's `encoding/csv` reader (comma separated, `FieldsPerRecord = -1`): records, blank lines
/// skipped, quoted fields (with `""`) that may span lines.
fn records(text: &str) -> Result<Vec<Vec<String>>, String> {
    // Lines with their terminators, `\r\n` read as `\n`, and a last line without `\n` loses
    // a trailing `\r` (Go's `readLine`).
    let lines: Vec<String> = text
        .split_inclusive('\n')
        .map(|l| match l.strip_suffix("\r\n") {
            Some(body) => format!("{body}\n"),
            None if !l.ends_with('\n') => l.strip_suffix('\r').unwrap_or(l).to_string(),
            None => l.to_string(),
        })
        .collect();
    let mut out = Vec::new();
    let mut n = 0;
    while n < lines.len() {
        let start = n + 1;
        let mut line: &str = &lines[n];
        n += 1;
        if line == "\n" || line.is_empty() {
            continue;
        }
        let (mut at_line, mut col) = (start, 1usize);
        let mut fields = Vec::new();
        'field: loop {
            if !line.starts_with('"') {
                let end = line.find(',');
                let raw = match end {
                    Some(i) => &line[..i],
                    None => line.trim_end_matches('\n'),
                };
                if let Some(j) = raw.find('"') {
                    return Err(parse_error(start, at_line, col + j, ERR_BARE_QUOTE));
                }
                fields.push(raw.to_string());
                match end {
                    Some(i) => {
                        line = &line[i + 1..];
                        col += i + 1;
                        continue 'field;
                    }
                    None => break 'field,
                }
            }
            // A quoted field, possibly continued on the next lines.
            let mut field = String::new();
            line = &line[1..];
            col += 1;
            loop {
                if let Some(i) = line.find('"') {
                    field.push_str(&line[..i]);
                    line = &line[i + 1..];
                    col += i + 1;
                    match line.chars().next() {
                        Some('"') => {
                            field.push('"');
                            line = &line[1..];
                            col += 1;
                        }
                        Some(',') => {
                            line = &line[1..];
                            col += 1;
                            fields.push(field);
                            continue 'field;
                        }
                        None | Some('\n') => {
                            fields.push(field);
                            break 'field;
                        }
                        Some(_) => return Err(parse_error(start, at_line, col - 1, ERR_QUOTE)),
                    }
                } else if !line.is_empty() {
                    field.push_str(line);
                    col += line.len();
                    match lines.get(n) {
                        Some(next) => {
                            line = next;
                            n += 1;
                            at_line += 1;
                            col = 1;
                        }
                        None => line = "",
                    }
                } else {
                    return Err(parse_error(start, at_line, col, ERR_QUOTE));
                }
            }
        }
        out.push(fields);
    }
    Ok(out)
}

impl TokenFile {
    /// Parses a token file's text; `path` is named in errors as the real loader does.
    pub fn parse(path: &str, text: &str) -> Result<TokenFile, String> {
        let mut users = HashMap::new();
        for fields in records(text)? {
            if fields.len() < 3 {
                return Err(format!(
                    "token file '{path}' must have at least 3 columns (token, user name, user uid), found {}",
                    fields.len()
                ));
            }
            if fields[0].is_empty() {
                continue;
            }
            let mut user = UserInfo {
                name: fields[1].clone(),
                uid: fields[2].clone(),
                ..UserInfo::default()
            };
            if let Some(groups) = fields.get(3) {
                user.groups = groups.split(',').map(str::to_string).collect();
            }
            users.insert(fields[0].clone(), user);
        }
        Ok(TokenFile { users })
    }

    /// Adds one token.
    pub fn insert(&mut self, token: &str, user: UserInfo) {
        self.users.insert(token.to_string(), user);
    }

    /// The user a token authenticates.
    pub fn user(&self, token: &str) -> Option<&UserInfo> {
        self.users.get(token)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_files_parse_as_kube_apiserver_reads_them() {
        let text = "t1,alice,u1\nt2,bob,u2,\"dev,ops\",ignored\n\n,empty,u3\nt1,carol,u4,solo\n";
        let f = TokenFile::parse("tokens.csv", text).unwrap();
        assert_eq!(f.user("t2").unwrap().groups, ["dev", "ops"]);
        assert_eq!(
            f.user("t1").unwrap().name,
            "carol",
            "a repeated token replaces"
        );
        assert_eq!(f.user("t1").unwrap().groups, ["solo"]);
        assert!(f.user("").is_none());
        assert_eq!(
            TokenFile::parse("f", "t,alice\n").unwrap_err(),
            "token file 'f' must have at least 3 columns (token, user name, user uid), found 2"
        );
        assert!(TokenFile::parse("f", "t,\"a,u\n").is_err());
    }

    #[test]
    fn csv_errors_carry_go_positions() {
        let err = |text: &str| TokenFile::parse("f", text).unwrap_err();
        assert_eq!(
            err("t,al\"ice,u\n"),
            "parse error on line 1, column 5: bare \" in non-quoted-field"
        );
        assert_eq!(
            err("ok,a,u\nt,\"alice\"x,u\n"),
            "parse error on line 2, column 9: extraneous or missing \" in quoted-field"
        );
        assert_eq!(
            err("t,\"alice,u\n"),
            "parse error on line 1, column 12: extraneous or missing \" in quoted-field"
        );
        assert_eq!(
            err("t,\"a\nb,u\nc\"x\n"),
            "record on line 1; parse error on line 3, column 2: extraneous or missing \" in quoted-field"
        );
        // A quoted field may span lines.
        let f = TokenFile::parse("f", "t,\"a\nb\",u\n").unwrap();
        assert_eq!(f.user("t").unwrap().name, "a\nb");
        // CRLF files, and a last line without a newline that ends in `\r`.
        let f = TokenFile::parse("f", "t,alice,u1\r\ns,bob,u2,\"g1,g2\"\r").unwrap();
        assert_eq!(f.user("t").unwrap().uid, "u1");
        assert_eq!(f.user("s").unwrap().groups, ["g1", "g2"]);
        assert!(TokenFile::parse("f", "t,alice,u1\n\r").is_ok());
    }
}
