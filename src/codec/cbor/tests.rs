//! Unit tests of `cbor`: goldens written by hand, tables of Go behaviour, round trips.

use serde_json::{json, Value};

use super::*;

/// Bytes from hex, ignoring spaces (tables stay readable item by item).
fn h(s: &str) -> Vec<u8> {
    let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

/// A byte-string head plus its bytes, for hand-written goldens.
fn bs(s: &str) -> Vec<u8> {
    let mut out = Vec::new();
    encoder::write_bytes_key(s, &mut out);
    out
}

#[test]
fn golden_controller_revision() {
    let cr = json!({
        "apiVersion": "apps/v1",
        "kind": "ControllerRevision",
        "metadata": {"name": "web-1", "namespace": "default", "resourceVersion": "42"},
        "data": {"spec": {
            "replicas": 3, "partition": 24, "minReadySeconds": 300, "limit": 65536,
            "big": 4294967296_i64, "offset": -1000, "ratio": 1.5, "scale": 100000.5,
            "weight": 0.1, "paused": false, "note": null, "tags": ["é"]
        }},
        "revision": 1
    });
    let expected: Vec<u8> = [
        &[0xd9, 0xd9, 0xf7][..], // tag 55799: self-described CBOR, the serializer's prefix
        &[0xa5],                 // map(5); keys sorted by encoded bytes, so shorter heads first:
        &[0x44],
        b"data", //   bytes(4) "data"   (0x44 'd' < 0x44 'k')
        &[0xa1], //   map(1)
        &[0x44],
        b"spec", //     bytes(4) "spec"
        &[0xac], //     map(12), keys by encoded bytes (0x43 < 0x44 < ... < 0x4f)
        &[0x43],
        b"big",                          //       bytes(3) "big"
        &[0x1b, 0, 0, 0, 1, 0, 0, 0, 0], //  uint, 8-byte argument: 4294967296
        &[0x44],
        b"note", //       bytes(4) "note"   ('n' < 't')
        &[0xf6], //         null
        &[0x44],
        b"tags",                   //       bytes(4) "tags"
        &[0x81, 0x42, 0xc3, 0xa9], //       array(1) [bytes(2) "é"] (strings are byte strings)
        &[0x45],
        b"limit",                        //       bytes(5) "limit"
        &[0x1a, 0x00, 0x01, 0x00, 0x00], // uint, 4-byte argument: 65536
        &[0x45],
        b"ratio",            //       bytes(5) "ratio"
        &[0xf9, 0x3e, 0x00], //         float16 1.5 (shortest exact width)
        &[0x45],
        b"scale",                        //       bytes(5) "scale"
        &[0xfa, 0x47, 0xc3, 0x50, 0x40], // float32 100000.5 (no exact float16)
        &[0x46],
        b"offset",           //       bytes(6) "offset"
        &[0x39, 0x03, 0xe7], //         nint, 2-byte argument: -1 - 999 = -1000
        &[0x46],
        b"paused", //       bytes(6) "paused"
        &[0xf4],   //         false
        &[0x46],
        b"weight",                                               //       bytes(6) "weight"
        &[0xfb, 0x3f, 0xb9, 0x99, 0x99, 0x99, 0x99, 0x99, 0x9a], // float64 0.1
        &[0x48],
        b"replicas", //       bytes(8) "replicas"
        &[0x03],     //         uint 3 (in the initial byte)
        &[0x49],
        b"partition",  //       bytes(9) "partition"
        &[0x18, 0x18], //         uint, 1-byte argument: 24
        &[0x4f],
        b"minReadySeconds",  //   bytes(15) "minReadySeconds"
        &[0x19, 0x01, 0x2c], //         uint, 2-byte argument: 300
        &[0x44],
        b"kind", //   bytes(4) "kind"
        &[0x52],
        b"ControllerRevision", // bytes(18)
        &[0x48],
        b"metadata", //   bytes(8) "metadata" ('m' < 'r')
        &[0xa3],     //   map(3)
        &[0x44],
        b"name", //     bytes(4) "name"
        &[0x45],
        b"web-1", //       bytes(5)
        &[0x49],
        b"namespace", //     bytes(9) "namespace"
        &[0x47],
        b"default", //       bytes(7)
        &[0x4f],
        b"resourceVersion", // bytes(15) "resourceVersion"
        &[0x42],
        b"42", //       bytes(2)
        &[0x48],
        b"revision", //   bytes(8) "revision"
        &[0x01],     //     uint 1
        &[0x4a],
        b"apiVersion", //   bytes(10) "apiVersion" (longest key last)
        &[0x47],
        b"apps/v1", //     bytes(7)
    ]
    .concat();
    assert_eq!(encode(&cr), expected);
    assert!(is_cbor(&expected));
    assert_eq!(decode(&expected).unwrap(), cr);
    // Without the prefix: what a JSON-backed RawExtension nests (direct.Marshal).
    assert_eq!(encode_untagged(&cr), expected[3..]);
}

#[test]
fn integer_heads_are_shortest() {
    let cases: &[(i64, &str)] = &[
        (0, "00"),
        (23, "17"),
        (24, "18 18"),
        (255, "18 ff"),
        (256, "19 0100"),
        (65535, "19 ffff"),
        (65536, "1a 00010000"),
        (4294967295, "1a ffffffff"),
        (4294967296, "1b 0000000100000000"),
        (i64::MAX, "1b 7fffffffffffffff"),
        (-1, "20"),
        (-24, "37"),
        (-25, "38 18"),
        (-256, "38 ff"),
        (-257, "39 0100"),
        (-65537, "3a 00010000"),
        (i64::MIN, "3b 7fffffffffffffff"),
    ];
    for &(n, hex) in cases {
        let v = Value::from(n);
        assert_eq!(encode_untagged(&v), h(hex), "{n}");
        assert_eq!(decode(&h(hex)).unwrap(), v, "{n}");
    }
    // A u64 past i64 (never produced by the JSON reader) is written as Go writes a uint64,
    // and refused on the way back as Go refuses it.
    let big = Value::from(u64::MAX);
    assert_eq!(encode_untagged(&big), h("1b ffffffffffffffff"));
    assert_eq!(
        decode(&h("1b ffffffffffffffff")).unwrap_err(),
        "cbor: cannot unmarshal positive integer into Go value of type int64 \
         (18446744073709551615 overflows Go's int64)"
    );
}

#[test]
fn floats_use_the_shortest_exact_width() {
    let cases: &[(f64, &str)] = &[
        (0.0, "f9 0000"),
        (-0.0, "f9 8000"),
        (1.0, "f9 3c00"),
        (1.5, "f9 3e00"),
        (-2.25, "f9 c080"),
        (65504.0, "f9 7bff"),                    // largest half
        (6.103515625e-05, "f9 0400"),            // smallest normal half
        (5.960464477539063e-08, "f9 0001"),      // smallest subnormal half
        (2.9802322387695312e-08, "fa 33000000"), // below half range
        (65536.0, "fa 47800000"),
        (100000.5, "fa 47c35040"),
        (3.4028234663852886e38, "fa 7f7fffff"),
        (0.1, "fb 3fb999999999999a"),
        (1.0 / 3.0, "fb 3fd5555555555555"),
        (1e300, "fb 7e37e43c8800759c"),
    ];
    for &(f, hex) in cases {
        let v = Value::from(f);
        assert_eq!(encode_untagged(&v), h(hex), "{f}");
        let back = decode(&h(hex)).unwrap();
        assert_eq!(back.as_f64().unwrap().to_bits(), f.to_bits(), "{f}");
        assert!(back.is_f64(), "floats stay floats: {f}");
    }
}

#[test]
fn scalars_strings_and_containers() {
    let cases: &[(Value, &str)] = &[
        (json!(null), "f6"),
        (json!(false), "f4"),
        (json!(true), "f5"),
        (json!(""), "40"),
        (json!("a"), "41 61"),
        (json!("é"), "42 c3a9"),
        (json!("日本"), "46 e697a5e69cac"),
        (
            json!("abcdefghijklmnopqrstuvwx"),
            "58 18 6162636465666768696a6b6c6d6e6f707172737475767778",
        ),
        (json!([]), "80"),
        (json!({}), "a0"),
        (json!([1, [2], {}]), "83 01 81 02 a0"),
        (json!({"a": {"b": [null]}}), "a1 41 61 a1 41 62 81 f6"),
    ];
    for (v, hex) in cases {
        assert_eq!(encode_untagged(v), h(hex), "{v}");
        assert_eq!(decode(&h(hex)).unwrap(), *v, "{v}");
        let mut tagged = h("d9d9f7");
        tagged.extend(h(hex));
        assert_eq!(encode(v), tagged, "{v}");
    }
    let long = "x".repeat(300);
    assert_eq!(encode_untagged(&json!(long))[..3], h("59 012c"));
}

#[test]
fn keys_sort_by_encoded_bytes() {
    let cases: &[(Value, &[&str])] = &[
        (json!({"b": 1, "a": 2}), &["a", "b"]),
        // Length first (the head holds it), then bytes.
        (json!({"aa": 1, "b": 2, "a": 3}), &["a", "b", "aa"]),
        (
            json!({"kind": 1, "apiVersion": 2, "metadata": 3, "data": 4}),
            &["data", "kind", "metadata", "apiVersion"],
        ),
        // Upper case sorts before lower case; UTF-8 bytes sort after ASCII.
        (json!({"é": 1, "z": 2, "Z": 3}), &["Z", "z", "é"]),
        // A 24-byte key has a two-byte head (0x58 0x18) and sorts after every shorter key.
        (
            json!({"abcdefghijklmnopqrstuvwx": 1, "abcdefghijklmnopqrstuvw": 2}),
            &["abcdefghijklmnopqrstuvw", "abcdefghijklmnopqrstuvwx"],
        ),
    ];
    for (v, order) in cases {
        let back = decode(&encode(v)).unwrap();
        let keys: Vec<&str> = back
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(keys, *order, "{v}");
    }
}

#[test]
fn round_trips_every_kind_shape() {
    let cases = [
        json!({"apiVersion": "v1", "kind": "ConfigMap",
               "metadata": {"name": "cm", "labels": {"app": "web", "tier": ""}, "annotations": {}},
               "data": {"k": "v", "unicode": "ünïcødé ✓ 🚀", "empty": ""}}),
        json!({"apiVersion": "v1", "kind": "List", "metadata": {"resourceVersion": "7"},
               "items": [{"kind": "Pod", "spec": {"containers": [{"name": "c", "ports": [{"containerPort": 80}]}]}},
                         {"kind": "Pod", "status": {"conditions": [], "podIP": null}}]}),
        json!({"apiVersion": "apps/v1", "kind": "ControllerRevision", "revision": 9223372036854775807_i64,
               "data": {"nested": [[[[{"deep": [1, -1, 0.5, -0.0, 1e-7, 1.7976931348623157e308]}]]]], "b": [true, false, null]}}),
        json!({"ints": [0, -1, 23, 24, -24, -25, 255, 256, 65535, 65536, i64::MIN],
               "floats": [0.1, 2.5, -3.75, 1e21, 123456.789, 5e-324]}),
        json!([]),
        json!("top-level string"),
        json!(12),
    ];
    for v in cases {
        assert_eq!(decode(&encode(&v)).unwrap(), v, "{v}");
        assert_eq!(decode(&encode_untagged(&v)).unwrap(), v, "{v}");
        // Deterministic: encoding the decoded value gives the same bytes.
        assert_eq!(encode(&decode(&encode(&v)).unwrap()), encode(&v));
    }
}

#[test]
fn deep_values_encode_without_recursion() {
    let mut v = json!(1);
    for _ in 0..20_000 {
        v = Value::Array(vec![v]);
    }
    let bytes = encode(&v);
    assert_eq!(bytes.len(), 3 + 20_000 + 1);
    // The decoder's nesting limit is 64.
    assert_eq!(
        decode(&bytes).unwrap_err(),
        "cbor: exceeded max nested level 64"
    );
    std::mem::forget(v); // dropping 20 000 nested Vecs recurses; not under test here
}

#[test]
fn decodes_what_other_encoders_write() {
    let cases: &[(&str, &str, Value)] = &[
        (
            "text-string keys and values",
            "a2 61 61 01 62 6262 63 78797a",
            json!({"a": 1, "bb": "xyz"}),
        ),
        (
            "mixed text/byte keys",
            "a2 41 61 01 61 62 02",
            json!({"a": 1, "b": 2}),
        ),
        ("untagged document", "a1 41 6b 41 76", json!({"k": "v"})),
        (
            "indefinite map/array/strings",
            "bf 61 61 9f 01 02 ff 5f 41 61 42 6263 ff 7f 61 78 ff ff",
            json!({"a": [1, 2], "abc": "x"}),
        ),
        ("empty indefinite string", "5f ff", json!("")),
        ("non-shortest heads", "1b 0000000000000001", json!(1)),
        ("float16 subnormal", "f9 0001", json!(5.960464477539063e-08)),
        ("float32", "fa 3fc00000", json!(1.5)),
        (
            "self-described nested",
            "a1 41 6f d9d9f7 a1 41 6b 01",
            json!({"o": {"k": 1}}),
        ),
        (
            "self-described twice",
            "d9d9f7 d9d9f7 81 d9d9f7 01",
            json!([1]),
        ),
        (
            "unknown tag dropped",
            "d8 64 a1 41 61 c6 01",
            json!({"a": 1}),
        ),
        ("tag 22: base64", "d6 44 01020304", json!("AQIDBA==")),
        (
            "tag 21: base64url, no padding",
            "d5 43 fbff00",
            json!("-_8A"),
        ),
        ("tag 23: hex", "d7 42 abcd", json!("abcd")),
        (
            "tag 22 applies inside",
            "d6 82 41 ff 61 61",
            json!(["/w==", "a"]),
        ),
        (
            "nearest tag wins",
            "d6 82 41 ff d7 41 ff",
            json!(["/w==", "ff"]),
        ),
        ("tag 22 on a key", "a1 d6 41 ff 01", json!({"/w==": 1})),
        (
            "tag 0 keeps offset",
            "c0 78 1d 323032342d30312d30325430333a30343a30352e3530302b30313a3030",
            json!("2024-01-02T03:04:05.5+01:00"),
        ),
        (
            "tag 0 UTC",
            "c0 74 323032342d30312d30325430333a30343a30355a",
            json!("2024-01-02T03:04:05Z"),
        ),
        (
            "tag 1 integer",
            "c1 1a 65937d25",
            json!("2024-01-02T03:04:05Z"),
        ),
        ("tag 1 negative", "c1 20", json!("1969-12-31T23:59:59Z")),
        ("tag 1 float", "c1 f9 3e00", json!("1970-01-01T00:00:01.5Z")),
        (
            "tag 1 negative float",
            "c1 f9 be00",
            json!("1969-12-31T23:59:58.5Z"),
        ),
        ("null key is \"\" first", "a1 f6 01", json!({"": 1})),
    ];
    for (name, hex, want) in cases {
        assert_eq!(decode(&h(hex)).as_ref(), Ok(want), "{name}");
    }
    // Keys keep the input's order (the JSON writer then writes them as they come).
    let v = decode(&h("a3 41 7a 01 61 61 02 41 6d 03")).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["z", "a", "m"]);
}

#[test]
fn byte_strings_are_not_utf8_checked() {
    // Go keeps the bytes; its JSON view shows one U+FFFD per invalid byte. Text strings must
    // be valid.
    let cases: &[(&str, &str)] = &[
        ("43 61ff62", "a\u{fffd}b"),
        ("43 e28261", "\u{fffd}\u{fffd}a"),
        ("43 eda080", "\u{fffd}\u{fffd}\u{fffd}"),
        ("44 f09f9a80", "🚀"),
    ];
    for (hex, want) in cases {
        assert_eq!(decode(&h(hex)).unwrap(), json!(want), "{hex}");
    }
    assert_eq!(
        decode(&h("63 61ff62")).unwrap_err(),
        "cbor: invalid UTF-8 string"
    );
    // Indefinite text strings are validated chunk by chunk: a split character is invalid.
    assert_eq!(
        decode(&h("7f 61 c3 61 a9 ff")).unwrap_err(),
        "cbor: invalid UTF-8 string"
    );
    assert_eq!(decode(&h("5f 41 c3 41 a9 ff")).unwrap(), json!("é"));
}

#[test]
fn rejects_what_the_server_rejects() {
    let cases: &[(&str, &str, &str)] = &[
        ("empty", "", "EOF"),
        ("truncated head", "19 01", "unexpected EOF"),
        ("truncated string", "45 6162", "unexpected EOF"),
        ("truncated map", "a2 41 61 01", "unexpected EOF"),
        ("tag without content", "d9d9f7", "unexpected EOF"),
        ("extraneous data", "01 02 03", "cbor: 2 bytes of extraneous data starting at index 1"),
        ("duplicate key", "a2 41 61 01 41 61 02", "cbor: found duplicate map key \"a\" at map element index 1"),
        ("duplicate text/byte key", "a3 41 61 01 41 62 02 61 61 03", "cbor: found duplicate map key \"a\" at map element index 2"),
        ("duplicate after tag 22", "a2 44 2f773d3d 01 d6 41 ff 02", "cbor: found duplicate map key \"/w==\" at map element index 1"),
        ("null key repeats the previous key", "a2 41 61 01 f6 02", "cbor: found duplicate map key \"a\" at map element index 1"),
        ("dup wins over an earlier error", "a3 01 01 41 61 01 41 61 02", "cbor: found duplicate map key \"a\" at map element index 2"),
        ("first error wins otherwise", "82 a1 01 01 1b ffffffffffffffff", "cbor: cannot unmarshal positive integer into Go value of type string"),
        ("integer key", "a1 01 01", "cbor: cannot unmarshal positive integer into Go value of type string"),
        ("negative key", "a1 20 01", "cbor: cannot unmarshal negative integer into Go value of type string"),
        ("float key", "a1 f9 3c00 01", "cbor: cannot unmarshal primitives into Go value of type string"),
        ("bool key", "a1 f5 01", "cbor: cannot unmarshal primitives into Go value of type string"),
        ("array key", "a1 80 01", "cbor: cannot unmarshal array into Go value of type string"),
        ("map key", "a1 a0 01", "cbor: cannot unmarshal map into Go value of type string"),
        ("NaN", "f9 7e00", "cbor: data item of cbor type primitives is not accepted by protocol: floating-point NaN"),
        ("NaN64", "fb 7ff8000000000001", "cbor: data item of cbor type primitives is not accepted by protocol: floating-point NaN"),
        ("+Inf", "f9 7c00", "cbor: data item of cbor type primitives is not accepted by protocol: floating-point infinity"),
        ("-Inf32", "fa ff800000", "cbor: data item of cbor type primitives is not accepted by protocol: floating-point infinity"),
        ("bignum", "c2 49 010000000000000000", "cbor: data item of cbor type tag is not accepted by protocol: bignum"),
        ("negative bignum", "a1 41 61 c3 41 01", "cbor: data item of cbor type tag is not accepted by protocol: bignum"),
        ("int64 overflow", "1b 8000000000000000", "cbor: cannot unmarshal positive integer into Go value of type int64 (9223372036854775808 overflows Go's int64)"),
        ("negative overflow", "3b ffffffffffffffff", "cbor: cannot unmarshal negative integer into Go value of type int64 (-18446744073709551616 overflows Go's int64)"),
        ("undefined", "f7", "cbor: data item of cbor type primitives is not accepted by protocol: simple value 23 is not recognized"),
        ("simple value 16", "f0", "cbor: data item of cbor type primitives is not accepted by protocol: simple value 16 is not recognized"),
        ("simple value 255", "f8 ff", "cbor: data item of cbor type primitives is not accepted by protocol: simple value 255 is not recognized"),
        ("reserved simple", "f8 18", "cbor: invalid simple value 24 for type primitives"),
        ("reserved ai", "1c", "cbor: invalid additional information 28 for type positive integer"),
        ("indefinite int", "1f", "cbor: invalid additional information 31 for type positive integer"),
        ("stray break", "ff", "cbor: unexpected \"break\" code"),
        ("odd indefinite map", "bf 41 61 ff", "cbor: unexpected \"break\" code"),
        ("wrong chunk type", "5f 61 61 ff", "cbor: wrong element type UTF-8 text string for indefinite-length byte string"),
        ("nested indefinite chunk", "7f 7f ff ff", "cbor: indefinite-length UTF-8 text string chunk is not definite-length"),
        ("huge string length", "5b 8000000000000000", "cbor: byte string length 9223372036854775808 is too large, causing integer overflow"),
        ("huge array length", "9b 8000000000000000", "cbor: array length 9223372036854775808 is too large, it would cause integer overflow"),
        ("tag 0 on bytes", "c0 41 61", "cbor: tag number 0 must be followed by text string, got byte string"),
        ("tag 1 on a string", "c1 61 61", "cbor: tag number 1 must be followed by integer or floating-point number, got UTF-8 text string"),
        ("tag 0 bad time", "c0 61 78", "cbor: cannot set x for time.Time: parsing time \"x\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"x\" as \"2006\""),
        ("tag 1 past year 9999", "c1 1b 0000003afff44180", "cbor: decoded time cannot be represented in RFC3339 format with sub-second precision: Time.MarshalText: year outside of range [0,9999]"),
        ("tag 1 overflow", "c1 1b ffffffffffffffff", "cbor: cannot unmarshal positive integer into Go value of type time.Time (18446744073709551615 overflows Go's int64)"),
    ];
    for (name, hex, want) in cases {
        assert_eq!(decode(&h(hex)).unwrap_err(), *want, "{name}");
    }
}

#[test]
fn limits() {
    let array = |n: usize| {
        let mut b = h("99");
        b.extend_from_slice(&(n as u16).to_be_bytes());
        b.extend(std::iter::repeat_n(0u8, n));
        b
    };
    assert_eq!(
        decode(&array(1024)).unwrap().as_array().unwrap().len(),
        1024
    );
    assert_eq!(
        decode(&array(1025)).unwrap_err(),
        "cbor: exceeded max number of elements 1024 for CBOR array"
    );
    let mut indefinite = h("9f");
    indefinite.extend(std::iter::repeat_n(0u8, 1025));
    indefinite.push(0xff);
    assert_eq!(
        decode(&indefinite).unwrap_err(),
        "cbor: exceeded max number of elements 1024 for CBOR array"
    );
    let mut map = h("b9 0401");
    for i in 0..1025u16 {
        map.push(0x42);
        map.extend_from_slice(&i.to_be_bytes());
        map.push(0);
    }
    assert_eq!(
        decode(&map).unwrap_err(),
        "cbor: exceeded max number of key-value pairs 1024 for CBOR map"
    );
    let nested = |n: usize| {
        let mut b = vec![0x81; n];
        b.push(0);
        b
    };
    assert!(decode(&nested(64)).is_ok());
    assert_eq!(
        decode(&nested(65)).unwrap_err(),
        "cbor: exceeded max nested level 64"
    );
    // Tags after the first in a chain count as levels too.
    let tagged = |tags: &str| [h(tags), nested(63)].concat();
    assert!(decode(&tagged("d8 64 d8 64")).is_ok());
    assert_eq!(
        decode(&tagged("d8 64 d8 64 d8 64")).unwrap_err(),
        "cbor: exceeded max nested level 64"
    );
}

#[test]
fn decode_object_wants_a_map() {
    assert_eq!(
        decode_object(&h("d9d9f7 a1 41 61 01")).unwrap(),
        *json!({"a": 1}).as_object().unwrap()
    );
    assert!(decode_object(&h("d9d9f7 f6")).unwrap().is_empty());
    let cases: &[(&str, &str)] = &[
        ("d9d9f7 80", "cbor: cannot unmarshal array into Go value of type map[string]interface {}"),
        ("01", "cbor: cannot unmarshal positive integer into Go value of type map[string]interface {}"),
        ("41 61", "cbor: cannot unmarshal byte string into Go value of type map[string]interface {}"),
        ("61 61", "cbor: cannot unmarshal UTF-8 text string into Go value of type map[string]interface {}"),
        ("61 ff", "cbor: invalid UTF-8 string"),
        ("f5", "cbor: cannot unmarshal primitives into Go value of type map[string]interface {}"),
        ("f9 3c00", "cbor: cannot unmarshal primitives into Go value of type map[string]interface {}"),
        ("a1 41 61 f7", "cbor: data item of cbor type primitives is not accepted by protocol: simple value 23 is not recognized"),
        ("", "EOF"),
    ];
    for (hex, want) in cases {
        assert_eq!(decode_object(&h(hex)).unwrap_err(), *want, "{hex}");
    }
}

#[test]
fn watch_event_golden() {
    let obj = json!({"kind": "Pod", "metadata": {"name": "p"}});
    let expected: Vec<u8> = [
        &h("d9d9f7")[..], // self-described tag of the WatchEvent document
        &h("a2"),         // map(2)
        &bs("type"),      //   0x44 "type" sorts before 0x46 "object"
        &bs("ADDED"),     //   0x45 "ADDED"
        &bs("object"),    //   0x46 "object"
        &h("d9d9f7"),     //   the object's own document, verbatim (RawExtension)
        &h("a2"),         //   map(2)
        &bs("kind"),
        &bs("Pod"),
        &bs("metadata"),
        &h("a1"),
        &bs("name"),
        &bs("p"),
    ]
    .concat();
    assert_eq!(watch_event("ADDED", &obj), expected);
    // The embedded object is exactly the object's own encoding.
    assert!(expected.ends_with(&encode(&obj)));
    assert_eq!(
        decode(&expected).unwrap(),
        json!({"type": "ADDED", "object": obj})
    );
}

#[test]
fn cbor_seq_frames_several_events() {
    let events = [
        (
            "ADDED",
            json!({"kind": "ConfigMap", "metadata": {"name": "a", "resourceVersion": "1"}}),
        ),
        (
            "MODIFIED",
            json!({"kind": "ConfigMap", "metadata": {"name": "a", "resourceVersion": "2"}, "data": {"k": "é"}}),
        ),
        (
            "BOOKMARK",
            json!({"kind": "ConfigMap", "metadata": {"resourceVersion": "3", "annotations": {"k8s.io/initial-events-end": "true"}}}),
        ),
        (
            "DELETED",
            json!({"kind": "ConfigMap", "metadata": {"name": "a", "resourceVersion": "4"}}),
        ),
    ];
    let mut stream = Vec::new();
    let mut starts = Vec::new();
    for (t, obj) in &events {
        starts.push(stream.len());
        stream.extend(watch_event(t, obj));
    }
    // No length prefix or delimiter: each frame begins with its own tag.
    for &s in &starts {
        assert_eq!(stream[s..s + 3], SELF_DESCRIBED_TAG);
    }
    let decoded = decode_seq(&stream).unwrap();
    let want: Vec<Value> = events
        .iter()
        .map(|(t, o)| json!({"type": t, "object": o}))
        .collect();
    assert_eq!(decoded, want);

    assert_eq!(decode_seq(&[]).unwrap(), Vec::<Value>::new());
    // Untagged and text-keyed items are items too.
    assert_eq!(
        decode_seq(&h("01 a1 61 61 02 d9d9f7 80")).unwrap(),
        vec![json!(1), json!({"a": 2}), json!([])]
    );
    // A cut-off last frame, and a bad item, fail the stream.
    assert_eq!(
        decode_seq(&stream[..stream.len() - 1]).unwrap_err(),
        "unexpected EOF"
    );
    assert_eq!(
        decode_seq(&h("01 a2 41 61 01 41 61 02")).unwrap_err(),
        "cbor: found duplicate map key \"a\" at map element index 1"
    );
}

#[test]
fn media_types() {
    assert_eq!(MEDIA_TYPE, "application/cbor");
    assert_eq!(SEQ_MEDIA_TYPE, "application/cbor-seq");
    assert_eq!(APPLY_PATCH_MEDIA_TYPE, "application/apply-patch+cbor");
    assert!(is_cbor(&h("d9d9f7 f6")));
    assert!(!is_cbor(&h("d9d9 f6")));
    assert!(!is_cbor(b"{}"));
}
