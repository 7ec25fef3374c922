//! Unit tests of `json`.

use super::*;
use serde_json::json;

#[test]
fn compact_escaping_table() {
    let cases: &[(Value, &str)] = &[
        (
            json!("<a href=\"x\">&</a>"),
            r#""\u003ca href=\"x\"\u003e\u0026\u003c/a\u003e""#,
        ),
        (json!("\u{2028}\u{2029}"), r#""\u2028\u2029""#),
        (json!("a\nb\rc\td\u{8}e\u{c}f"), r#""a\nb\rc\td\be\ff""#),
        (
            json!("\u{0}\u{1}\u{1f}\u{7f}"),
            "\"\\u0000\\u0001\\u001f\u{7f}\"",
        ),
        (json!("back\\slash/"), r#""back\\slash/""#),
        (json!("é€😀\u{2027}"), "\"é€😀\u{2027}\""),
        (json!(null), "null"),
        (json!(true), "true"),
        (json!(-12), "-12"),
        (json!(u64::MAX), "18446744073709551615"),
        (json!({}), "{}"),
        (json!([]), "[]"),
        (
            json!({"b":1,"a":[1,{"c":null}],"<":">"}),
            r#"{"b":1,"a":[1,{"c":null}],"\u003c":"\u003e"}"#,
        ),
    ];
    for (v, want) in cases {
        assert_eq!(to_compact_string(v), *want);
    }
    assert_eq!(to_vec(&json!({"a":1})), b"{\"a\":1}\n".to_vec());
}

#[test]
fn float_format_table() {
    let cases: &[(f64, &str)] = &[
        (1.5, "1.5"),
        (1000.0, "1000"),
        (0.0, "0"),
        (-0.0, "-0"),
        (1e20, "100000000000000000000"),
        (1e21, "1e+21"),
        (1.5e300, "1.5e+300"),
        (0.000001, "0.000001"),
        (1e-7, "1e-7"),
        (-2.5e-10, "-2.5e-10"),
        (123456789.125, "123456789.125"),
        (0.1, "0.1"),
        (18446744073709551615.0, "18446744073709552000"),
    ];
    for (f, want) in cases {
        assert_eq!(format_go_float(*f), *want, "{f}");
    }
}

#[test]
fn pretty_table() {
    let cases: &[(Value, &str)] = &[
        (json!({}), "{}"),
        (json!([]), "[]"),
        (json!(1), "1"),
        (json!({"a":1}), "{\n  \"a\": 1\n}"),
        (
            json!({"a":[1,2],"b":{},"c":[],"d":{"e":"<"}}),
            "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {},\n  \"c\": [],\n  \"d\": {\n    \"e\": \"\\u003c\"\n  }\n}",
        ),
        (json!([[]]), "[\n  []\n]"),
    ];
    for (v, want) in cases {
        assert_eq!(String::from_utf8(to_pretty_vec(v)).unwrap(), *want);
    }
}

#[test]
fn parse_values_table() {
    let cases: &[(&str, Value)] = &[
        (r#"{"b":1,"a":2}"#, json!({"b":1,"a":2})),
        ("1.0", json!(1.0)),
        ("1e3", json!(1000.0)),
        ("-0", json!(0)),
        ("9223372036854775807", json!(i64::MAX)),
        ("9223372036854775808", json!(9223372036854775808.0)),
        (r#""\u00e9\ud83d\ude00\/""#, json!("é😀/")),
        (r#""\ud800x""#, json!("\u{fffd}x")),
        (r#""\ud800\u0041""#, json!("\u{fffd}A")),
        (r#""\udc00""#, json!("\u{fffd}")),
        ("[1, [2, {\"a\": [ ]}] ]", json!([1, [2, {"a": []}]])),
        (" \"x\" ", json!("x")),
        (
            " { \"a\" : 1 , \"b\" : [ 1 , \"\\\"\" ] , \"c\" : { } }\n",
            json!({"a": 1, "b": [1, "\""], "c": {}}),
        ),
        ("\"\\u0000\\b\\f\\n\\r\\t\"", json!("\u{0}\u{8}\u{c}\n\r\t")),
    ];
    for (text, want) in cases {
        let p = parse(text.as_bytes()).unwrap();
        assert_eq!(p.value, *want, "{text}");
        assert!(p.duplicates.is_empty());
    }
    // Invalid UTF-8: one U+FFFD per bad byte.
    let p = parse(b"\"a\xe2\x82b\xff\"").unwrap();
    assert_eq!(p.value, json!("a\u{fffd}\u{fffd}b\u{fffd}"));
    // Key order is kept and the last duplicate wins at the first position.
    let p = parse(br#"{"z":1,"a":2,"z":3}"#).unwrap();
    assert_eq!(to_compact_string(&p.value), r#"{"z":3,"a":2}"#);
}

#[test]
fn duplicates_table() {
    let cases: &[(&str, &[&str])] = &[
        (r#"{"a":1,"a":2}"#, &["a"]),
        (r#"{"a":1,"a":2,"a":3}"#, &["a"]),
        (
            r#"{"m":{"x":1,"x":2},"l":[{"k":1},{"k":1,"k":2}]}"#,
            &["m.x", "l[1].k"],
        ),
        (r#"[{"a":1,"a":1}]"#, &["[0].a"]),
        (
            r#"{"a":{"b":1,"b":2},"a":{"c":1,"c":1}}"#,
            &["a.b", "a", "a.c"],
        ),
        (
            r#"{"app.kubernetes.io/name":1,"app.kubernetes.io/name":2}"#,
            &["app.kubernetes.io/name"],
        ),
    ];
    for (text, want) in cases {
        let p = parse(text.as_bytes()).unwrap();
        assert_eq!(p.duplicates, *want, "{text}");
    }
    let many: String = format!(
        "{{{}}}",
        (0..150)
            .map(|i| format!("\"o{i}\":{{\"a\":1,\"a\":2}}"))
            .collect::<Vec<_>>()
            .join(",")
    );
    assert_eq!(parse(many.as_bytes()).unwrap().duplicates.len(), 100);
}

#[test]
fn parse_errors_table() {
    let cases: &[(&[u8], &str, usize)] = &[
        (b"", "unexpected end of JSON input", 0),
        (
            b"x",
            "invalid character 'x' looking for beginning of value",
            1,
        ),
        (
            b"{\"a\":1,}",
            "invalid character '}' looking for beginning of object key string",
            8,
        ),
        (
            b"{\"a\":1}}",
            "invalid character '}' after top-level value",
            8,
        ),
        (
            b"[1e400]",
            "json: cannot unmarshal number 1e400 into Go value of type float64",
            6,
        ),
    ];
    for (input, msg, offset) in cases {
        let e = parse(input).unwrap_err();
        assert_eq!((e.message.as_str(), e.offset), (*msg, *offset));
    }
}

#[test]
fn deep_nesting_without_recursion() {
    // Go accepts 10 000 levels; parsing and writing them must not need a deep stack
    // (pretty output shares the writer; its size is quadratic in depth, so not here).
    let n = crate::codec::scanner::MAX_NESTING_DEPTH;
    let text = "[".repeat(n) + &"]".repeat(n);
    let handle = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || {
            let p = parse(text.as_bytes()).unwrap();
            let out = to_compact_string(&p.value);
            // Value's own Drop recurses; hand the tree back instead of dropping it here.
            (out, p)
        })
        .unwrap();
    let (compact, p) = handle.join().unwrap();
    assert_eq!(compact.len(), 2 * n);
    assert!(compact.starts_with("[[[") && compact.ends_with("]]]"));
    std::mem::forget(p);
}

#[test]
fn member_text_as_written() {
    let doc = br#" { "kind" : "X", "data" : { "a" : [1, "}"] } , "n": 1.50, "d\u0061ta2": null }"#;
    let text = |name| top_level_member(doc, name).map(|b| String::from_utf8(b.to_vec()).unwrap());
    assert_eq!(text("data").as_deref(), Some(r#"{ "a" : [1, "}"] }"#));
    assert_eq!(text("n").as_deref(), Some("1.50"));
    assert_eq!(text("kind").as_deref(), Some(r#""X""#));
    assert_eq!(text("data2").as_deref(), Some("null"));
    assert_eq!(text("missing"), None);
    assert_eq!(
        top_level_member(br#"{"data":1,"data":{"b":2}}"#, "data"),
        Some(&br#"{"b":2}"#[..])
    );
    assert_eq!(top_level_member(b"[1]", "data"), None);
}

/// What a request body is read for without building it as a value (its numbers' range, its
/// type meta members, its managedFields) equals what the whole value gives.
#[test]
fn partial_reads_of_a_parse_tree_equal_the_whole_value() {
    let docs = [
        r#"{"kind":"ConfigMap","apiVersion":"v1","metadata":{"managedFields":[]}}"#,
        r#"{"KIND":"a","kind":"b","apiversion":1,"data":{"x":1e400}}"#,
        r#"{"a":[1,{"b":2e999}],"c":3e999}"#,
        r#"{"metadata":{"managedFields":[{"manager":"m"}]},"metadata":{"name":"x"}}"#,
        r#"{"metadata":{"managedFields":[1],"managedFields":[{}]}}"#,
        r#"[1,2]"#,
        r#""text""#,
        r#"null"#,
    ];
    for doc in docs {
        let raw = parse_raw(doc.as_bytes()).unwrap();
        let whole = raw_to_value(&raw, None);
        match (&whole, check_numbers(&raw)) {
            (Err(w), Err(c)) => {
                assert_eq!((&w.message, w.offset), (&c.message, c.offset), "{doc}");
                continue;
            }
            (Ok(_), Ok(())) => {}
            (w, c) => panic!("{doc}: {w:?} vs {c:?}"),
        }
        let whole = whole.unwrap();
        let want = match &whole {
            Value::Object(m) => Value::Object(
                m.iter()
                    .filter(|(k, _)| {
                        k.eq_ignore_ascii_case("kind") || k.eq_ignore_ascii_case("apiVersion")
                    })
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect(),
            ),
            other => other.clone(),
        };
        assert_eq!(type_meta_members(&raw), want, "{doc}");
        assert_eq!(
            sent_managed_fields(&raw).as_ref(),
            whole.get("metadata").and_then(|m| m.get("managedFields")),
            "{doc}"
        );
    }
}
