//! A terminal line as a shell splits it: words with single and double quotes and backslash
//! escapes, and a here-document (`<<EOF` … `EOF`) as the command's standard input, which is
//! how manifests reach `kubectl apply -f -` in a terminal. Also `cat <<EOF | kubectl …`, the
//! other way people write it.

/// One command line: its words and what its standard input holds.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CommandLine {
    pub words: Vec<String>,
    pub stdin: Option<String>,
}

/// Splits `text` (the first line the command, the lines after it a here-document's body when
/// the command has `<<WORD`). An unterminated quote is an error, as bash's
/// "unexpected EOF while looking for matching `''".
pub fn split(text: &str) -> Result<CommandLine, String> {
    let (first, rest) = match text.split_once('\n') {
        Some((f, r)) => (f, Some(r)),
        None => (text, None),
    };
    let mut words = words(first)?;
    let mut stdin = None;
    if let Some(at) = words.iter().position(|w| w.starts_with("<<")) {
        let marker = words.remove(at);
        let delimiter = marker
            .trim_start_matches("<<")
            .trim_start_matches('-')
            .to_string();
        let delimiter = if delimiter.is_empty() && at < words.len() {
            words.remove(at)
        } else {
            delimiter
        };
        let mut body = String::new();
        for line in rest.unwrap_or("").lines() {
            if line.trim_end() == delimiter {
                break;
            }
            body.push_str(line);
            body.push('\n');
        }
        stdin = Some(body);
    } else if let Some(rest) = rest {
        if !rest.trim().is_empty() {
            stdin = Some(rest.to_string());
        }
    }
    // `cat <<EOF | kubectl apply -f -`: the here-document went to cat, cat to kubectl.
    if words.first().map(String::as_str) == Some("cat") {
        if let Some(pipe) = words.iter().position(|w| w == "|") {
            words.drain(..=pipe);
        }
    }
    Ok(CommandLine { words, stdin })
}

fn words(line: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(unexpected_eof('\'')),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err(unexpected_eof('"')),
                        },
                        Some(c) => word.push(c),
                        None => return Err(unexpected_eof('"')),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(c) = chars.next() {
                    word.push(c);
                }
            }
            '|' if !in_word => out.push("|".to_string()),
            c if c.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '#' if !in_word => break,
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        out.push(word);
    }
    Ok(out)
}

fn unexpected_eof(quote: char) -> String {
    format!("unexpected EOF while looking for matching `{quote}'")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_and_escapes_make_words() {
        let l =
            split(r#"kubectl get cm -o jsonpath='{.items[*].metadata.name}' "a b" c\ d"#).unwrap();
        assert_eq!(
            l.words,
            [
                "kubectl",
                "get",
                "cm",
                "-o",
                "jsonpath={.items[*].metadata.name}",
                "a b",
                "c d"
            ]
        );
        assert!(split("kubectl get 'x")
            .unwrap_err()
            .contains("matching `''"));
    }

    #[test]
    fn a_here_document_is_standard_input() {
        for text in [
            "kubectl apply -f - <<EOF\nkind: ConfigMap\nEOF\nignored",
            "cat <<'EOF' | kubectl apply -f -\nkind: ConfigMap\nEOF",
        ] {
            let l = split(text).unwrap();
            assert_eq!(l.words, ["kubectl", "apply", "-f", "-"], "{text}");
            assert_eq!(l.stdin.as_deref(), Some("kind: ConfigMap\n"), "{text}");
        }
    }
}
