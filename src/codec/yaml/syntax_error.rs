//! YAML syntax errors as go-yaml v2 words them: `yaml: line N: <problem>`.
//!
//! go-yaml reports libyaml's *problem* alone (never its "while parsing ..." context), and the
//! line differs by who found the error (`parser.fail`): an error on the first line names no
//! line at all; past it, a scanner error is 1-based and a parser error is the 0-based line of
//! the offending token (so one less). saphyr-parser, which reads our YAML, words its errors after libyaml
//! with the context in front and a few renamings; this module maps them back.

use saphyr_parser::ScanError;

/// The text `yaml.Unmarshal` returns for a document saphyr-parser rejected with `e`.
pub fn go_yaml_text(e: &ScanError) -> String {
    let info = e.info();
    let (problem, parser) = match PROBLEMS.iter().find(|(ours, _, _)| *ours == info) {
        Some((_, go, parser)) => (go.to_string(), *parser),
        None if info.starts_with("unexpected character: ") => (
            "found character that cannot start any token".to_string(),
            false,
        ),
        // Otherwise libyaml's problem is what follows the context.
        None => match info.strip_prefix("while ").and_then(|r| r.split_once(", ")) {
            Some((_, problem)) => (problem.to_string(), false),
            None => (info.to_string(), false),
        },
    };
    // libyaml's 0-based problem line; 0 names none, and only a scanner error adds one.
    let line = e.marker().line().saturating_sub(1);
    match (line, parser) {
        (0, _) => format!("yaml: {problem}"),
        (n, true) => format!("yaml: line {n}: {problem}"),
        (n, false) => format!("yaml: line {}: {problem}", n + 1),
    }
}

/// saphyr-parser's text, libyaml's problem, and whether libyaml's parser (not its scanner)
/// reports it.
const PROBLEMS: &[(&str, &str, bool)] = &[
    (
        "while parsing a flow sequence, expected ',' or ']'",
        "did not find expected ',' or ']'",
        true,
    ),
    (
        "while parsing a flow mapping, did not find expected ',' or '}'",
        "did not find expected ',' or '}'",
        true,
    ),
    (
        "while parsing a block mapping, did not find expected key",
        "did not find expected key",
        true,
    ),
    (
        "while parsing a block collection, did not find expected '-' indicator",
        "did not find expected '-' indicator",
        true,
    ),
    (
        "while parsing a node, did not find expected node content",
        "did not find expected node content",
        true,
    ),
    (
        "did not find expected <document start>",
        "did not find expected <document start>",
        true,
    ),
    (
        "the handle wasn't declared",
        "found undefined tag handle",
        true,
    ),
    (
        "duplicate version directive",
        "found duplicate %YAML directive",
        true,
    ),
    (
        "found incompatible YAML document",
        "found incompatible YAML document",
        true,
    ),
    (
        "simple key expect ':'",
        "could not find expected ':'",
        false,
    ),
    (
        "while scanning a plain scalar, found a tab",
        "found a tab character that violates indentation",
        false,
    ),
    (
        "tab cannot be used as indentation",
        "found character that cannot start any token",
        false,
    ),
];

#[cfg(test)]
mod tests {
    use crate::codec::yaml::to_json;

    #[test]
    fn syntax_errors_read_as_go_yaml_words_them() {
        let cases = [
            // Scanner errors: 1-based lines, none on the first line.
            (
                "a: b: c",
                "yaml: mapping values are not allowed in this context",
            ),
            (
                "x: 1\na: b: c",
                "yaml: line 2: mapping values are not allowed in this context",
            ),
            (
                "a: `x`\n",
                "yaml: found character that cannot start any token",
            ),
            // Parser errors: the 0-based line, none on the first line.
            (
                "a: 1\nb: 2\nc: [x, y}\n",
                "yaml: line 2: did not find expected ',' or ']'",
            ),
            (
                "a: 1\nb: {x: 1]\n",
                "yaml: line 1: did not find expected ',' or '}'",
            ),
            ("[a, b}", "yaml: did not find expected ',' or ']'"),
            (
                "a:\n  b: 1\n c: 2\n",
                "yaml: line 2: did not find expected key",
            ),
        ];
        for (doc, want) in cases {
            assert_eq!(to_json(doc.as_bytes()).unwrap_err(), want, "{doc:?}");
        }
    }
}
