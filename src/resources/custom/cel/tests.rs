//! CEL expressions as CRD rules write them, with cel-go's results and error texts.

use serde_json::json;

use super::*;

fn run(expr: &str, self_: serde_json::Value) -> Result<Val, String> {
    let e = parse(expr)?;
    let mut steps = 0;
    let mut scope = Scope::new(
        vec![("self".into(), Val::from_json(&self_, None))],
        &mut steps,
    );
    eval(&e, &mut scope)
}

#[test]
fn expressions_evaluate_as_cel_go_does() {
    let obj = json!({"replicas": 3, "min": 1, "max": 5, "name": "web-1", "tags": ["a", "b"], "ratio": 0.5,
        "ports": [{"name": "http", "port": 80}, {"name": "https", "port": 443}], "labels": {"app": "web"}});
    let cases: &[(&str, Result<Val, &str>)] = &[
        (
            "self.min <= self.replicas && self.replicas <= self.max",
            Ok(Val::Bool(true)),
        ),
        (
            "self.replicas > 5 || self.name.startsWith('web')",
            Ok(Val::Bool(true)),
        ),
        ("self.name.matches('^[a-z]+-[0-9]+$')", Ok(Val::Bool(true))),
        (
            "size(self.tags) == 2 && self.tags.size() == 2",
            Ok(Val::Bool(true)),
        ),
        ("self.tags.all(t, t.size() == 1)", Ok(Val::Bool(true))),
        ("self.ports.exists(p, p.port == 443)", Ok(Val::Bool(true))),
        (
            "self.ports.exists_one(p, p.name.startsWith('http'))",
            Ok(Val::Bool(false)),
        ),
        (
            "self.ports.map(p, p.port)",
            Ok(Val::List(vec![Val::Int(80), Val::Int(443)].into())),
        ),
        ("self.ports.filter(p, p.port > 100).size()", Ok(Val::Int(1))),
        (
            "has(self.labels) && !has(self.missing)",
            Ok(Val::Bool(true)),
        ),
        (
            "'app' in self.labels && 'a' in self.tags",
            Ok(Val::Bool(true)),
        ),
        (
            "self.ratio == 0.5 && self.replicas == 3.0",
            Ok(Val::Bool(true)),
        ),
        (
            "self.replicas / 2 == 1 && self.replicas % 2 == 1",
            Ok(Val::Bool(true)),
        ),
        (
            "self.replicas > 2 ? 'many' : 'few'",
            Ok(Val::Str("many".into())),
        ),
        ("self.name + '!'", Ok(Val::Str("web-1!".into()))),
        (
            "[1, 2, 3].isSorted() && [3, 1].sum() == 4 && [2, 7].max() == 7",
            Ok(Val::Bool(true)),
        ),
        (
            "self.name.split('-')[1] == '1' && self.name.indexOf('-') == 3",
            Ok(Val::Bool(true)),
        ),
        (
            "self.name.upperAscii() == 'WEB-1' && string(self.replicas) == '3'",
            Ok(Val::Bool(true)),
        ),
        (
            "int('42') + 1 == 43 && double(self.replicas) == 3.0",
            Ok(Val::Bool(true)),
        ),
        ("self.missing > 1", Err("no such key: missing")),
        ("self.tags[5] == 'x'", Err("index out of bounds: 5")),
        ("self.replicas / 0 == 1", Err("division by zero")),
        ("self.name > 1", Err("no such overload")),
        ("self.missing > 1 || true", Ok(Val::Bool(true))),
        ("false && self.missing > 1", Ok(Val::Bool(false))),
        ("9223372036854775807 + 1 > 0", Err("integer overflow")),
    ];
    for (expr, want) in cases {
        let got = run(expr, obj.clone());
        match want {
            Ok(v) => assert_eq!(got.as_ref(), Ok(v), "{expr}"),
            Err(e) => assert_eq!(got.as_ref().err().map(String::as_str), Some(*e), "{expr}"),
        }
    }
}

#[test]
fn parse_errors_and_old_self() {
    for bad in [
        "self.a ==",
        "(self.a",
        "self.a.all(1, true)",
        "'unterminated",
    ] {
        assert!(parse(bad).is_err(), "{bad}");
    }
    assert!(mentions(&parse("self.a == oldSelf.a").unwrap(), "oldSelf"));
    assert!(!mentions(&parse("self.a == 1").unwrap(), "oldSelf"));
}

/// Rules too deep for the evaluator's stack are refused when parsed, not run; escapes and
/// extreme literals read as cel-go reads them. (Run with the stack room the engine's entry
/// points give a request: a debug build's 250 nested parentheses take more than a test
/// thread's 2 MiB.)
#[test]
fn deep_rules_are_refused_and_literals_read_as_cel_go() {
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(deep_and_literals)
        .unwrap()
        .join()
        .unwrap();
}

fn deep_and_literals() {
    for deep in [
        "1".to_string() + &"+1".repeat(5000),
        "!".repeat(5000) + "true",
        "self".to_string() + &".a".repeat(5000),
        "(".repeat(5000) + "1" + &")".repeat(5000),
    ] {
        assert_eq!(
            parse(&deep).err().as_deref(),
            Some("max recursion depth exceeded")
        );
    }
    assert!(parse(&"1+".repeat(60_000))
        .unwrap_err()
        .starts_with("expression code point size exceeds limit"));
    assert_eq!(
        run(r#"'\x41\u00e9\101' == 'Aé' + 'A'"#, json!({})),
        Ok(Val::Bool(true))
    );
    assert_eq!(
        run("0xFFFFFFFFFFFFFFFFu", json!({})),
        Ok(Val::Uint(u64::MAX))
    );
    assert_eq!(run("[1, 2].indexOf(2.0)", json!({})), Ok(Val::Int(1)));
    assert_eq!(
        run("[].max()", json!({})).unwrap_err(),
        "max called on empty list"
    );
    assert_eq!(
        parse("self.a b").unwrap_err(),
        "Syntax error: extraneous input 'b' expecting <EOF>"
    );
}

/// The Kubernetes URL library, on the examples its documentation gives.
#[test]
fn the_url_library_reads_urls_as_go_does() {
    let s = |v: &str| Ok(Val::Str(v.into()));
    let cases: &[(&str, Result<Val, &str>)] = &[
        ("url('https://example.com:80/').getHost()", s("example.com:80")),
        ("url('https://[::1]:80/').getHost()", s("[::1]:80")),
        ("url('/path').getHost()", s("")),
        ("url('https://example.com:80/').getHostname()", s("example.com")),
        ("url('https://[::1]:80/').getHostname()", s("::1")),
        ("url('https://example.com:80/').getPort()", s("80")),
        ("url('https://example.com/').getPort()", s("")),
        ("url('HTTPS://example.com/').getScheme()", s("https")),
        ("url('/path').getScheme()", s("")),
        (
            "url('https://example.com/path with spaces/').getEscapedPath()",
            s("/path%20with%20spaces/"),
        ),
        ("url('https://example.com').getEscapedPath()", s("")),
        (
            "url('https://example.com/path?k1=a&k2=b&k2=c').getQuery() == {'k1': ['a'], 'k2': ['b', 'c']}",
            Ok(Val::Bool(true)),
        ),
        (
            "url('https://example.com/path?key with spaces=value with spaces').getQuery()['key with spaces'][0]",
            s("value with spaces"),
        ),
        ("url('https://example.com/path?').getQuery().size()", Ok(Val::Int(0))),
        ("isURL('https://example.com:80/path?query=value#fragment')", Ok(Val::Bool(true))),
        ("isURL('example.com')", Ok(Val::Bool(false))),
        (
            "url('example.com')",
            Err(r#"URL parse error during conversion from string: parse "example.com": invalid URI for request"#),
        ),
        ("url('https://example.com').getHost(1)", Err("no such overload")),
    ];
    for (expr, want) in cases {
        let got = run(expr, json!({}));
        assert_eq!(got, want.clone().map_err(String::from), "{expr}");
    }
}
