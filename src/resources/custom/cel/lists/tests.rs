//! The list, set, two-variable comprehension and string extensions against cel-go 0.26's
//! tests and texts.

use serde_json::json;

use super::super::{eval, parse, Scope, Val};

fn run(expr: &str) -> Result<Val, String> {
    let obj = json!({"ports": [{"name": "http", "port": 80}, {"name": "https", "port": 443}],
        "labels": {"app": "web", "tier": "front"}});
    let e = parse(expr)?;
    let mut steps = 0;
    let vars = vec![("self".to_string(), Val::from_json(&obj, None))];
    eval(&e, &mut Scope::new(vars, &mut steps))
}

fn check(cases: &[(&str, Result<bool, &str>)]) {
    for (expr, want) in cases {
        let want = want.map(Val::Bool).map_err(String::from);
        assert_eq!(run(expr), want, "{expr}");
    }
}

#[test]
fn list_extensions() {
    check(&[
        ("[1, 2, 3, 4].slice(1, 3) == [2, 3]", Ok(true)),
        ("[1, 2].slice(2, 2) == []", Ok(true)),
        (
            "[1, 2, 3, 4].slice(-5, 10)",
            Err("cannot slice(-5, 10), negative indexes not supported"),
        ),
        (
            "[1, 2, 3, 4].slice(3, 1)",
            Err("cannot slice(3, 1), start index must be less than or equal to end index"),
        ),
        (
            "[1, 2].slice(0, 3)",
            Err("cannot slice(0, 3), list is length 2"),
        ),
        ("[[1], [2, [3]]].flatten() == [1, 2, [3]]", Ok(true)),
        ("[[1], [2, [3]]].flatten(2) == [1, 2, 3]", Ok(true)),
        ("[].flatten(-1)", Err("level must be non-negative")),
        ("dyn({}).flatten()", Err("no such overload: map.flatten()")),
        (
            "[3, 1, 2].sort() == [1, 2, 3] && ['b', 'a'].sort() == ['a', 'b']",
            Ok(true),
        ),
        ("[].sort() == []", Ok(true)),
        ("[{}].sort()", Err("list elements must be comparable")),
        ("[{}, {}].sort()", Err("list elements must be comparable")),
        (
            "[1, 2.0].sort()",
            Err("list elements must have the same type"),
        ),
        (
            "self.ports.sortBy(p, -p.port).map(p, p.name) == ['https', 'http']",
            Ok(true),
        ),
        (
            "lists.range(4) == [0, 1, 2, 3] && lists.range(-1) == []",
            Ok(true),
        ),
        ("[1, 2, 3].reverse() == [3, 2, 1]", Ok(true)),
        // A list index as types.IndexOrError reads it, for `[_]` as for `[?_]`.
        ("[1, 2][1u] == 2 && [1, 2][1.0] == 2", Ok(true)),
        (
            "dyn([1])['a'] == 1",
            Err("unsupported index type 'string' in list"),
        ),
        ("[1][0.5] == 1", Err("unsupported index value 0.5 in list")),
        ("[1][3] == 1", Err("index out of bounds: 3")),
        ("[1, 1.0, 2, 2u, 3].distinct() == [1, 2, 3]", Ok(true)),
        ("[[1], [1], [2]].distinct() == [[1], [2]]", Ok(true)),
    ]);
    assert_eq!(
        parse("[1].sortBy(1, 2)"),
        Err("argument is not an identifier".into())
    );
}

#[test]
fn set_extensions() {
    check(&[
        ("sets.contains([1, 2, 3], [3, 1])", Ok(true)),
        ("sets.contains([], [1])", Ok(false)),
        ("sets.contains([1], [])", Ok(true)),
        ("sets.contains([1, 2.0, 3u], [1.0, 2u, 3])", Ok(true)),
        (
            "sets.equivalent([1], [1, 1]) && sets.equivalent([], [])",
            Ok(true),
        ),
        ("sets.equivalent([1, 2], [1])", Ok(false)),
        (
            "sets.intersects([[1], [2, 3]], [[1, 2], [2, 3.0]])",
            Ok(true),
        ),
        ("sets.intersects([1], [])", Ok(false)),
    ]);
}

#[test]
fn two_variable_comprehensions() {
    check(&[
        ("[1, 2, 3, 4].all(i, v, i < 5 && v > 0)", Ok(true)),
        ("[10, 20].exists(i, v, i == 1 && v == 20)", Ok(true)),
        (
            "self.labels.all(k, v, k.size() > 2 && v.size() > 2)",
            Ok(true),
        ),
        ("self.labels.existsOne(k, v, v == 'web')", Ok(true)),
        ("self.labels.exists_one(k, v, v.size() > 2)", Ok(false)),
        ("[1, 2].transformList(i, v, i * v) == [0, 2]", Ok(true)),
        (
            "[1, 2, 3].transformList(i, v, v > 1, v * 2) == [4, 6]",
            Ok(true),
        ),
        (
            "['a', 'b'].transformMap(i, v, v + 'x') == {0: 'ax', 1: 'bx'}",
            Ok(true),
        ),
        (
            "self.labels.transformMap(k, v, k != 'tier', v.upperAscii()) == {'app': 'WEB'}",
            Ok(true),
        ),
        (
            "self.labels.transformMapEntry(k, v, {v: k}) == {'web': 'app', 'front': 'tier'}",
            Ok(true),
        ),
        (
            "[1, 1].transformMapEntry(i, v, {v: i})",
            Err("insert failed: key 1 already exists"),
        ),
        (
            "[0, 0u].transformMapEntry(i, v, {v: i})",
            Err("insert failed: key 0 already exists"),
        ),
        (
            "dyn(1).all(i, v, true)",
            Err("unsupported comprehension range type: int"),
        ),
    ]);
    for (rule, want) in [
        ("[].all(i, i, i < i)", "duplicate variable name: i"),
        ("[].all(1, v, true)", "argument must be a simple name"),
        (
            "[].all(__result__, v, true)",
            "iteration variable overwrites accumulator variable",
        ),
    ] {
        assert_eq!(parse(rule), Err(want.into()), "{rule}");
    }
}

#[test]
fn string_extensions() {
    check(&[
        ("'hello mellow'.indexOf('ello', 2) == 7", Ok(true)),
        ("'hello mellow'.indexOf('ello', 20) == -1", Ok(true)),
        (
            "'abc'.indexOf('', -5) == -5 && 'abc'.indexOf('', 10) == 10",
            Ok(true),
        ),
        ("'abc'.indexOf('b', -1)", Err("index out of range: -1")),
        ("'hello mellow'.lastIndexOf('ello', 6) == 1", Ok(true)),
        ("'hello mellow'.lastIndexOf('ello', 20) == -1", Ok(true)),
        ("'hello mellow'.lastIndexOf('ello', 11) == 7", Ok(true)),
        ("'ÿabcÿ'.indexOf('c', 1) == 3", Ok(true)),
        ("'abc'.lastIndexOf('b', -1)", Err("index out of range: -1")),
        (
            r#"strings.quote('first\nsecond "quoted" \\ tab\t') == "\"first\\nsecond \\\"quoted\\\" \\\\ tab\\t\"""#,
            Ok(true),
        ),
    ]);
}
