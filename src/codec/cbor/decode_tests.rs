//! Decoding tests: what other encoders write, the server's rejections and limits, watch sequences.

use super::*;

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
    assert_eq!(
        watch_event("ADDED", &obj, &crate::codec::protobuf::MetaOnly),
        expected
    );
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
        stream.extend(watch_event(t, obj, &crate::codec::protobuf::MetaOnly));
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
