//! Unit tests of the label selector grammar, printing and matching.

use super::*;
use serde_json::json;

const NAME_RE: &str = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const VALUE_RE: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

#[test]
fn canonical_forms() {
    let cases = [
        ("", ""),
        ("   ", ""),
        ("x=a", "x=a"),
        ("x==a", "x==a"),
        ("x!=a", "x!=a"),
        ("x in (b,a,a)", "x in (a,b)"),
        ("x notin ()", "x notin ()"),
        ("x in (,a)", "x in (,a)"),
        ("x in (a,,b)", "x in (,a,b)"),
        ("x in (a,)", "x in (,a)"),
        ("z,!y,x", "x,!y,z"),
        ("x>1,a<2", "a<2,x>1"),
        ("x=,y", "x=,y"),
        ("in in (in,notin)", "in in (in,notin)"),
        ("notin=in", "notin=in"),
        (" a = b , c ", "a=b,c"),
        ("k8s.io/app=web", "k8s.io/app=web"),
        ("a \0 b", "a"),
    ];
    for (input, want) in cases {
        let sel = LabelSelector::parse(input).unwrap_or_else(|e| panic!("{input:?}: {e}"));
        assert_eq!(sel.to_string(), want, "{input:?}");
    }
}

#[test]
fn parse_errors() {
    let req = "unable to parse requirement: ";
    let (long_key, long_value) = ("k".repeat(64), format!("a={}", "v".repeat(64)));
    let cases: Vec<(&str, String)> = vec![
        ("a,", "found '', expected: identifier after ','".into()),
        (",a", "found ',', expected: !, identifier, or 'end of string'".into()),
        ("a=b c", "found 'c', expected: ',' or 'end of string'".into()),
        ("!a=b", "found '=', expected: ',' or 'end of string'".into()),
        ("a b", format!("{req}found 'b', expected: in, notin, =, ==, !=, gt, lt")),
        ("a in", format!("{req}found '' expected: '('")),
        ("a in (", format!("{req}found '', expected: ',', ')' or identifier")),
        ("a in (b", format!("{req}found '', expected: ',' or ')'")),
        ("a in (b c)", format!("{req}found 'c', expected: ',' or ')'")),
        ("a in (b,=)", format!("{req}found '=', expected: ',', or identifier")),
        ("a=(b)", format!("{req}found '(', expected: identifier")),
        ("!", format!("{req}found '', expected: identifier")),
        ("a=b\0junk", "found 'junk', expected: ',' or 'end of string'".into()),
        ("a@b", format!("{req}<nil>: Invalid value: \"a@b\": {NAME_RE}")),
        (
            "-a/=x",
            format!("{req}<nil>: Invalid value: \"-a/\": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'); name part must be non-empty; {NAME_RE}"),
        ),
        (
            "a/b/c",
            format!("{req}<nil>: Invalid value: \"a/b/c\": a valid label key {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')", &NAME_RE[10..]),
        ),
        (&long_key, format!("{req}<nil>: Invalid value: \"{}\": name part must be no more than 63 bytes", "k".repeat(64))),
        ("a=b@", format!("{req}values[0][a]: Invalid value: \"b@\": {VALUE_RE}")),
        ("a in (x@,ok,y@)", format!("{req}[values[1][a]: Invalid value: \"x@\": {VALUE_RE}, values[2][a]: Invalid value: \"y@\": {VALUE_RE}]")),
        ("a<-2", format!("{req}values[0][a]: Invalid value: \"-2\": {VALUE_RE}")),
        ("a>", format!("{req}values[0]: Invalid value: \"\": for 'Gt', 'Lt' operators, the value must be an integer")),
        (
            "a<1@",
            format!("{req}[values[0]: Invalid value: \"1@\": for 'Gt', 'Lt' operators, the value must be an integer, values[0][a]: Invalid value: \"1@\": {VALUE_RE}]"),
        ),
        (&long_value, format!("{req}values[0][a]: Invalid value: \"{}\": must be no more than 63 bytes", "v".repeat(64))),
    ];
    for (input, want) in cases {
        assert_eq!(LabelSelector::parse(input), Err(want), "{input:?}");
    }
    let with_path = LabelSelector::parse_with_path("a=@", Some("rawSelector"));
    assert_eq!(
        with_path,
        Err(format!(
            "{req}rawSelector.values[0][a]: Invalid value: \"@\": {VALUE_RE}"
        ))
    );
}

#[test]
fn matching() {
    let labels = json!({"app": "web", "tier": "fe", "n": "10", "x": "abc"});
    let labels = labels.as_object();
    // `;`-separated tables keep the cases dense (no selector here contains `;`).
    let yes = ";app;!missing;app=web;app!=db;missing!=x;app in (db,web);app notin (db);\
               missing notin (a);n>9;n<11;app=web,tier=fe";
    let no = "!app;missing;app==db;missing in (a);app notin (web);n>10;x>1;missing<5;\
              app=web,tier=be;missing=";
    for (sels, want) in [(yes, true), (no, false)] {
        for sel in sels.split(';') {
            let got = LabelSelector::parse(sel).unwrap().matches(labels);
            assert_eq!(got, want, "{sel}");
        }
    }
    let s = LabelSelector::parse("!a,b notin (c)").unwrap();
    assert!(s.matches(None));
    assert!(!LabelSelector::parse("a").unwrap().matches(None));
}

#[test]
fn exact_match_and_empty() {
    // `selector=>pinned value of a` (empty: none).
    let cases = "a=x=>x;a==x=>x;a in (x)=>x;a in (x,y)=>;a!=x=>;b=y,a=x=>x;b=y=>;a=>";
    for case in cases.split(';') {
        let (sel, want) = case.split_once("=>").unwrap();
        let got = LabelSelector::parse(sel).unwrap().requires_exact_match("a");
        assert_eq!(got.unwrap_or_default(), want, "{sel}");
    }
    assert!(LabelSelector::parse("").unwrap().is_empty());
    assert!(LabelSelector::everything().is_empty());
    assert!(!LabelSelector::parse("a").unwrap().is_empty());
    let s = LabelSelector::parse("a>3").unwrap();
    assert_eq!(s.requirements()[0].operator.as_str(), "gt");
}
