//! `format` against cel-go 0.26's formatter tests and texts.

use super::super::{eval, parse, Scope, Val};

fn run(expr: &str) -> Result<Val, String> {
    let e = parse(expr)?;
    let mut steps = 0;
    eval(&e, &mut Scope::new(Vec::new(), &mut steps))
}

#[test]
fn format_writes_as_cel_go() {
    let ok = |e: &str, s: &str| (e.to_string(), Ok(Val::Str(s.to_string())));
    let err = |e: &str, m: &str| (e.to_string(), Err(m.to_string()));
    let cases = vec![
        ok("'%s and %s'.format(['a', 1])", "a and 1"),
        ok("'%d%%'.format([42])", "42%"),
        ok("'%d %d'.format([-3, 4u])", "-3 4"),
        ok("'%s'.format([2.71])", "2.71"),
        ok("'%s'.format([1000000.0])", "1e+06"),
        ok("'%s'.format([100000.0])", "100000"),
        ok("'%s'.format([true])", "true"),
        ok("'%s'.format([null])", "null"),
        ok("'%s'.format([b'xyz'])", "xyz"),
        ok("'%s'.format([int])", "int"),
        ok("'%s'.format([duration('2h')])", "7200s"),
        ok("'%s'.format([timestamp('2023-02-03T23:31:20Z')])", "2023-02-03T23:31:20Z"),
        ok(
            "'%s'.format([[1, 'a', 2.5, b'x', null, duration('1s')]])",
            r#"[1, "a", 2.500000, b"x", null, duration("1s")]"#,
        ),
        ok(
            "'%s'.format([{'b': 1, 'a': [true], 2: 'x'}])",
            r#"{"a":[true], "b":1, 2:"x"}"#,
        ),
        ok("'%.3f'.format([3.14159])", "3.142"),
        ok("'%f'.format([1234.5])", "1,234.500000"),
        ok("'%f'.format(['NaN'])", "NaN"),
        ok("'%.0f'.format([2.5])", "2"),
        ok("'%b %b'.format([5, true])", "101 1"),
        ok("'%b'.format([-5])", "-101"),
        ok("'%o'.format([-11])", "-13"),
        ok("'%x %X'.format([30, 30])", "1e 1E"),
        ok("'%x'.format(['Hello world!'])", "48656c6c6f20776f726c6421"),
        ok("'%x'.format([-30])", "-1e"),
        ok("'no clauses'.format([])", "no clauses"),
        err("'%s %s'.format(['a'])", "index 1 out of range"),
        err("'%'.format([1])", "unexpected end of string"),
        err(
            "'%a'.format([1])",
            r#"could not parse formatting clause: unrecognized formatting clause "a""#,
        ),
        err(
            "'%.f'.format([1.0])",
            r#"could not parse formatting clause: error while parsing precision: error while converting precision to integer: strconv.Atoi: parsing "": invalid syntax"#,
        ),
        err(
            "'%.3'.format([1.0])",
            "could not parse formatting clause: error while parsing precision: could not find end of precision specifier",
        ),
        err(
            "'%d'.format([1.5])",
            "error during formatting: decimal clause can only be used on integers, was given double",
        ),
        err(
            "'%f'.format([1])",
            "error during formatting: fixed-point clause can only be used on doubles, was given int",
        ),
        err(
            "'%b'.format(['x'])",
            "error during formatting: only integers and bools can be formatted as binary, was given string",
        ),
        err(
            "'%x'.format([1.0])",
            "error during formatting: only integers, byte buffers, and strings can be formatted as hex, was given double",
        ),
        err(
            "'%s'.format([optional.none()])",
            "error during formatting: string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given optional_type",
        ),
        err(
            "'%s'.format([[optional.none()]])",
            "error during formatting: no formatting function for optional_type",
        ),
    ];
    for (expr, want) in cases {
        assert_eq!(run(&expr), want, "{expr}");
    }
}
