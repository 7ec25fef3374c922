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

#[path = "decode_tests.rs"]
mod decoding;
