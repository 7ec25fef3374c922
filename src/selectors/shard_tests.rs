//! Tests of the shard selector: FNV vectors, accepted and rejected expressions, matching.

use super::*;

/// `input => expected` per line, with `$U`/`$N` the two paths and `$A`/`$H`/`$E` the
/// bounds 0, 2^63 and 2^64 as quoted literals.
fn table(t: &str) -> Vec<(String, String)> {
    let subst = [
        ("$U", "object.metadata.uid"),
        ("$N", "object.metadata.namespace"),
        ("$A", "'0x0000000000000000'"),
        ("$H", "'0x8000000000000000'"),
        ("$E", "'0x10000000000000000'"),
    ];
    let x = |s: &str| {
        subst
            .iter()
            .fold(s.to_string(), |s, (k, v)| s.replace(k, v))
    };
    let rows = t
        .lines()
        .filter(|l| !l.is_empty())
        .map(|l| l.split_once(" => ").unwrap());
    rows.map(|(i, w)| (x(i), x(w))).collect()
}

#[test]
fn fnv_golden_values() {
    // Published FNV-1a 64 vectors, plus values cross-checked with an independent script.
    let cases = [
        ("", 0xcbf29ce484222325),
        ("a", 0xaf63dc4c8601ec8c),
        ("foobar", 0x85944171f73967e8),
        ("test-uid-123", 0xd0ba679834556c0b),
        ("aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee", 0x93754b7248a00eb9),
        ("kube-system", 0xdf65c7bc1d82b35e),
    ];
    for (input, want) in cases {
        assert_eq!(fnv1a64(input.as_bytes()), want, "{input:?}");
    }
}

const ACCEPTED: &str = r#"
shardRange($U, $A, $H) => shardRange($U, $A, $H)
shardRange($U,$A,$H)||shardRange($U, $H, $E) => shardRange($U, $A, $H) || shardRange($U, $H, $E)
  shardRange( $U ,	$A , $H )  // comment => shardRange($U, $A, $H)
((shardRange($U, $A, $H))) => shardRange($U, $A, $H)
x.y.shardRange($U, $A, $H) => shardRange($U, $A, $H)
shardRange($U, "0x0000000000000000", r'0x8000000000000000') => shardRange($U, $A, $H)
shardRange($U, '0x\x30000000000000000', '''0x8000000000000000''') => shardRange($U, $A, $H)
shardRange($N, '0x00000000000000aa', '0x00000000000000ff') => shardRange($N, '0x00000000000000aa', '0x00000000000000ff')
shardRange($U, $H, $E) || shardRange($U, $A, $H) || shardRange($U, $A, $E) => shardRange($U, $H, $E) || shardRange($U, $A, $H) || shardRange($U, $A, $E)
"#;

#[test]
fn accepts_and_canonicalises() {
    for (input, want) in table(ACCEPTED) {
        let sel = ShardSelector::parse(&input).unwrap_or_else(|e| panic!("{input}: {e}"));
        assert_eq!(
            (sel.canonical(), sel.to_string()),
            (want.clone(), want.clone())
        );
        assert_eq!(
            ShardSelector::parse(&want).as_ref(),
            Ok(&sel),
            "round trip {want}"
        );
    }
    let two = ShardSelector::parse(&table(ACCEPTED)[1].0).unwrap();
    assert_eq!(two.field(), ShardField::Uid);
    assert_eq!(
        two.ranges[1],
        ShardRange {
            start: 1 << 63,
            end: HASH_SPACE_END
        }
    );
    let one = "shardRange(object.metadata.uid,\n'0x0000000000000000',\r\n'0x0000000000000001')";
    assert_eq!(
        ShardSelector::parse(one).unwrap().ranges,
        [ShardRange { start: 0, end: 1 }]
    );
    let many = vec![table(ACCEPTED)[0].1.clone(); 600].join(" || ");
    assert_eq!(ShardSelector::parse(&many).unwrap().ranges.len(), 600);
}

const REJECTED: &str = r#"
   => empty shard selector is not allowed; omit the parameter for unfiltered lists
shardRange($U, $A, '0xff') => hexEnd must be a 0x-prefixed 16-digit hex value, got "0xff" (did you mean "0x00000000000000ff"?)
shardRange($U, '0x1', $H) => hexStart must be a 0x-prefixed 16-digit hex value, got "0x1" (did you mean "0x0000000000000001"?)
shardRange($U, '0000000000000000', $H) => hexStart must have '0x' prefix, got "0000000000000000"
shardRange($U, '0X0000000000000000', $H) => hexStart must have '0x' prefix, got "0X0000000000000000"
shardRange($U, '0x', $H) => hexStart: hex value is required after '0x'
shardRange($U, $A, '0x000000000000000000') => hexEnd: hex value too long (18 chars, max 17): "000000000000000000"
shardRange($U, $A, '0x800000000000000F') => hexEnd: invalid hex character "F" in "0x800000000000000F"
shardRange($U, '0x\u00e90', $H) => hexStart: invalid hex character "é" in "0xé0"
shardRange($U, '0x\t', $H) => hexStart: invalid hex character "\t" in "0x\t"
shardRange($U, $A, '0x20000000000000000') => hexEnd: 17-digit hex value must be '0x10000000000000000' (2^64), got "0x20000000000000000"
shardRange($U, $H, $H) => shard range start 0x8000000000000000 must be less than end 0x8000000000000000
shardRange($U, $E, $E) => shard range start 0x10000000000000000 must be less than end 0x10000000000000000
shardRange($U, $H, $A) || f() => shard range start 0x8000000000000000 must be less than end 0x0000000000000000
shardRange($U, 0, 8) => hexStart must be a string literal, got int64
shardRange($U, -9223372036854775808, 8) => hexStart must be a string literal, got int64
shardRange($U, -1.5e3, 8) => hexStart must be a string literal, got float64
shardRange($U, 0x1u, 8) => hexStart must be a string literal, got uint64
shardRange($U, true, 8) => hexStart must be a string literal, got bool
shardRange($U, null, 8) => hexStart must be a string literal, got structpb.NullValue
shardRange($U, b'0x0', $H) => hexStart must be a string literal, got []uint8
shardRange($U, hex(0), $H) => hexStart must be a string literal (e.g. '0xff'), got expression kind 1
shardRange($U, x, $H) => hexStart must be a string literal (e.g. '0xff'), got expression kind 3
shardRange(object.metadata.name, $A, $H) => unsupported field path "object.metadata.name"; supported: object.metadata.uid, object.metadata.namespace
shardRange(.$U, $A, $H) => unsupported field path ".object.metadata.uid"; supported: object.metadata.uid, object.metadata.namespace
shardRange($U + 'x', $A, $H) => shardRange() first argument: expected field path (e.g. object.metadata.uid), got expression kind 1
shardRange('$U', $A, $H) => shardRange() first argument: expected field path (e.g. object.metadata.uid), got expression kind 5
shardRange($U, $A) => shardRange() requires exactly 3 arguments, got 2
$U.shardRange($A, $H) => shardRange() requires exactly 3 arguments, got 2
invalidFunc($U, $A, $H) => unsupported function "invalidFunc"; only shardRange() and || are allowed
.shardRange($U, $A, $H) => unsupported function ".shardRange"; only shardRange() and || are allowed
shardRange($U, $A, $H) && shardRange($U, $H, $E) => unsupported function "_&&_"; only shardRange() and || are allowed
shardRange($U, $A, $H) && x || y => unsupported function "_&&_"; only shardRange() and || are allowed
$U > $A => unsupported function "_>_"; only shardRange() and || are allowed
$U in y => unsupported function "@in"; only shardRange() and || are allowed
1 + 2 * 3 => unsupported function "_+_"; only shardRange() and || are allowed
$U => unexpected expression kind 7; expected shardRange() call or || operator
x => unexpected expression kind 3; expected shardRange() call or || operator
'x' => unexpected expression kind 5; expected shardRange() call or || operator
shardRange($U, $A, $H) || shardRange($N, $H, $E) => all shard ranges must use the same field, got "object.metadata.uid" and "object.metadata.namespace"
if($U, $A, $H) => CEL parse error: reserved identifier: if
shardRange($U, $A, 9223372036854775808) => CEL parse error: invalid int literal
shardRange($U, $A, 18446744073709551616u) => CEL parse error: invalid uint literal
shardRange($U, $A, b'\u0041') => CEL parse error: unable to unescape string
shardRange($U, $A, '\U00110000') => CEL parse error: unable to unescape string
shardRange($U, $A, $H => CEL parse error: Syntax error: mismatched input '<EOF>' expecting {',', ')'}
shardRange($U, $A, $H,) => CEL parse error: Syntax error: mismatched input ')' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}
shardRange( => CEL parse error: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', ')', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}
shardRange($U, $A, $H) || => CEL parse error: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}
shardRange($U, $A, $H) = x => CEL parse error: Syntax error: token recognition error at: '='
shardRange($U, $A, '0x\q') => CEL parse error: Syntax error: token recognition error at: ''0x\'
shardRange($U, $A, 'abc => CEL parse error: Syntax error: token recognition error at: ''abc'
if(shardRange($U, $A, $H) => CEL parse error: Syntax error: mismatched input '<EOF>' expecting {',', ')'}
$U. => CEL parse error: Syntax error: mismatched input '<EOF>' expecting IDENTIFIER
"#;

#[test]
fn rejects_with_server_texts() {
    for (input, want) in table(REJECTED) {
        assert_eq!(
            ShardSelector::parse_expression(&input).err(),
            Some(want.clone())
        );
        assert_eq!(
            ShardSelector::parse(&input).err(),
            Some(format!("{ERROR_PREFIX}{want}"))
        );
    }
    let limit = "CEL parse error: expression recursion limit exceeded: 250";
    let (open, close) = ("(".repeat(251), ")".repeat(251));
    let deep = [
        format!("{open}x{close}"),
        vec!["x"; 252].join(" + "),
        format!("x{}", ".f".repeat(252)),
    ];
    for input in deep
        .iter()
        .chain([&format!("{}x{}", "f(".repeat(251), close)])
    {
        assert_eq!(
            ShardSelector::parse_expression(input).err().as_deref(),
            Some(limit)
        );
    }
    let ok = format!("{}x{}", "(".repeat(249), ")".repeat(249));
    assert!(ShardSelector::parse_expression(&ok)
        .unwrap_err()
        .contains("kind 3"));
    let huge = format!("x{}x", " ".repeat(MAX_CODE_POINTS));
    let size = "expression code point size exceeds limit: size: 100002, limit 100000";
    assert_eq!(
        ShardSelector::parse_expression(&huge),
        Err(format!("CEL parse error: {size}"))
    );
}

#[test]
fn matching_follows_hash_ranges() {
    let h = u128::from(fnv1a64(b"test-uid-123"));
    let sel = |f: &str, s: String, e: String| {
        ShardSelector::parse(&format!("shardRange(object.metadata.{f}, '{s}', '{e}')")).unwrap()
    };
    let hit = |s: u128, e: u128| {
        sel("uid", format!("{s:#018x}"), format!("{e:#018x}")).matches_value("test-uid-123")
    };
    assert!(hit(0, HASH_SPACE_END) && hit(h, h + 1) && !hit(h + 1, HASH_SPACE_END) && !hit(0, h));
    let (lo, mid, hi) = (0, 1 << 63, HASH_SPACE_END);
    let half = |f, s: u128, e: u128| sel(f, format!("{s:#018x}"), format!("{e:#018x}"));
    let ns = half("namespace", lo, mid);
    assert_eq!(ns.field(), ShardField::Namespace);
    assert!(
        !ns.matches_value("") && ns.matches_value("ns-1"),
        "\"\" hashes to 0xcbf2…"
    );
    let halves = [half("uid", lo, mid), half("uid", mid, hi)];
    for i in 0..500 {
        let v = format!("uid-{i}");
        assert!(
            halves[0].matches_value(&v) ^ halves[1].matches_value(&v),
            "{v}"
        );
    }
}
