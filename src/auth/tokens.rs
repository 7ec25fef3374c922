//! Static bearer tokens: kube-apiserver's `--token-auth-file`
//! (`k8s.io/apiserver/pkg/authentication/token/tokenfile`).
//!
//! Each CSV record is `token,user,uid[,"group1,group2"]`; further columns are ignored, an
//! empty token is skipped and a repeated token replaces the earlier one (the real loader only
//! warns on both). The CSV reader follows Go's `encoding/csv` for what token files use:
//! quoted fields with `""` escapes, blank lines skipped.

use std::collections::HashMap;

use crate::resources::rbac::UserInfo;

/// Tokens and the users they authenticate.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TokenFile {
    users: HashMap<String, UserInfo>,
}

/// One CSV record's fields (`encoding/csv`, comma separated, `"` quoting).
fn record(line: &str, number: usize) -> Result<Vec<String>, String> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut chars = line.chars().peekable();
    let mut quoted = false;
    let mut at_start = true;
    while let Some(c) = chars.next() {
        match c {
            '"' if at_start => {
                quoted = true;
                at_start = false;
            }
            '"' if quoted => {
                if chars.peek() == Some(&'"') {
                    chars.next();
                    field.push('"');
                } else {
                    quoted = false;
                    if !matches!(chars.peek(), None | Some(',')) {
                        return Err(format!(
                            "parse error on line {number}: extraneous or missing \" in quoted-field"
                        ));
                    }
                }
            }
            '"' => {
                return Err(format!(
                    "parse error on line {number}: bare \" in non-quoted-field"
                ))
            }
            ',' if !quoted => {
                fields.push(std::mem::take(&mut field));
                at_start = true;
            }
            c => {
                field.push(c);
                at_start = false;
            }
        }
    }
    if quoted {
        return Err(format!(
            "parse error on line {number}: extraneous or missing \" in quoted-field"
        ));
    }
    fields.push(field);
    Ok(fields)
}

impl TokenFile {
    /// Parses a token file's text; `path` is named in errors as the real loader does.
    pub fn parse(path: &str, text: &str) -> Result<TokenFile, String> {
        let mut users = HashMap::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.strip_suffix('\r').unwrap_or(line);
            if line.is_empty() {
                continue;
            }
            let fields = record(line, i + 1)?;
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
}
