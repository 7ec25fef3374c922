//! Estimates against the costs the real server's tests expect (apiextensions-apiserver's
//! `TestCostEstimation`) and the worked cases of a list of strings.

use serde_json::json;

use super::*;
use crate::resources::custom::cel::parse;

fn cost(schema: serde_json::Value, rule: &str) -> u64 {
    let schema = Schema::parse(&schema);
    estimate(&parse(rule).unwrap(), &schema, false).max
}

#[test]
fn estimates_as_cel_go() {
    let string = |max: Option<i64>| match max {
        Some(n) => json!({"type": "string", "maxLength": n}),
        None => json!({"type": "string"}),
    };
    let array = |items: serde_json::Value, max: Option<i64>| match max {
        Some(n) => json!({"type": "array", "items": items, "maxItems": n}),
        None => json!({"type": "array", "items": items}),
    };
    let cases: Vec<(serde_json::Value, &str, u64)> = vec![
        (string(None), "self.matches('x')", 314_574),
        (string(Some(50)), "self.matches('x')", 22),
        (string(None), "self.find('[0-9]+') == ''", 629_147),
        (string(None), "self.startsWith('test')", 2),
        (array(string(None), None), "self.all(x, true)", 3_145_727),
        (array(string(None), Some(20)), "self.all(x, true)", 62),
        (
            array(json!({"type": "number"}), Some(10)),
            "self.all(x, self.all(y, true))",
            352,
        ),
        (
            json!({"type": "object", "additionalProperties": {"type": "string"}}),
            "self.all(x, x.contains(self[x]))",
            2_752_507,
        ),
        (
            array(string(None), None),
            "self.all(x, x.matches('^[a-z]+$'))",
            659_710_961_252,
        ),
        (
            array(string(Some(10)), Some(10)),
            "self.all(x, x.matches('^[a-z]+$'))",
            142,
        ),
        (
            array(string(None), Some(10)),
            "self.all(x, x.matches('^[a-z]+$'))",
            6_291_502,
        ),
        (
            array(string(Some(10)), None),
            "self.all(x, x.matches('^[a-z]+$'))",
            14_680_052,
        ),
        (json!({"type": "integer"}), "self > 50 && self < 100", 4),
        (string(Some(5000)), "self.contains('keyword')", 2001),
        // bytes to string: a tenth of the bytes, and a string as long as they are.
        (
            json!({"type": "string", "format": "byte", "maxLength": 10}),
            "string(self) == 'x'",
            3,
        ),
        // Parses are a tenth of the string; an IP or CIDR compares at a cost of 1; a
        // containment compares two 4- to 16-byte addresses, parsing a string argument first.
        (string(Some(50)), "isIP(self)", 21),
        (string(Some(50)), "ip.isCanonical(self)", 41),
        (string(Some(50)), "cidr(self).containsIP('10.0.0.1')", 26),
        (string(Some(50)), "cidr(self) == cidr(self).masked()", 44),
        // Kubernetes prices `_==_` of its types alone: `!=` has no sizes to go by.
        (
            string(Some(50)),
            "cidr(self) != cidr(self).masked()",
            1_844_674_407_370_955_307,
        ),
        (
            string(Some(50)),
            "cidr(self).containsCIDR(cidr('10.0.0.0/8'))",
            29,
        ),
        (
            string(Some(8)),
            "semver(self).isLessThan(semver('1.0.0'))",
            7,
        ),
        // A format's check: a tenth of the string times 32 (a 128-character expression
        // at a quarter each); formats compare by their names (Kubernetes' cost_test.go).
        (
            json!({"type": "integer"}),
            "format.named('dns1123Subdomain').value().validate('my-name')",
            34,
        ),
        (
            json!({"type": "integer"}),
            "format.named('dns1123Label').value() == format.named('dns1123Label').value()",
            11,
        ),
        // A type name is sized as the rule's node (the estimator reads its one-element path
        // from the root): comparing a type with it costs a tenth of that.
        (
            json!({"type": "string", "maxLength": 10}),
            "type(self) == string",
            7,
        ),
        // ext.Lists' and the two-variable comprehensions' vectors (cel-go's own tests).
        (
            json!({"type": "integer"}),
            "[1, 2, 3].distinct() == [1, 2, 3]",
            50,
        ),
        (
            json!({"type": "integer"}),
            "[2, 3, 1].sort() == [1, 2, 3]",
            50,
        ),
        (
            json!({"type": "integer"}),
            "[1, 2, 3].slice(1, 3) == [2, 3]",
            34,
        ),
        (
            json!({"type": "integer"}),
            "[3, 2, 1].reverse() == [1, 2, 3]",
            35,
        ),
        (
            json!({"type": "integer"}),
            "lists.range(4) == [0, 1, 2, 3]",
            26,
        ),
        // A transform's list is sized as its transform, element by element.
        (
            array(string(Some(10)), Some(10)),
            "self.transformList(i, v, v + 'x').all(x, x.matches('a'))",
            283,
        ),
        (
            array(string(Some(10)), Some(10)),
            "self.map(v, v + 'x').all(x, x.matches('a'))",
            283,
        ),
        // A flattened list is sized as the list.
        (
            array(array(json!({"type": "integer"}), Some(10)), Some(10)),
            "self.flatten().all(x, x > 0)",
            73,
        ),
        (
            json!({"type": "integer"}),
            "[1, 2, 3, 4].all(i, v, i < 5 && v > 0)",
            39,
        ),
    ];
    for (schema, rule, want) in cases {
        assert_eq!(cost(schema.clone(), rule), want, "{rule} on {schema}");
    }
}

#[test]
fn sizes_follow_the_schema() {
    let s = |v: serde_json::Value| Schema::parse(&v);
    assert_eq!(
        max_elements(&s(json!({"type": "string", "maxLength": 10}))),
        40
    );
    assert_eq!(
        max_elements(&s(json!({"type": "string", "enum": ["a", "abc"]}))),
        3
    );
    assert_eq!(
        max_elements(&s(json!({"type": "string", "format": "date-time"}))),
        32
    );
    assert_eq!(
        max_elements(&s(json!({"type": "array", "items": {"type": "boolean"}}))),
        629_145
    );
    assert_eq!(
        min_serialized_size(&s(json!({"type": "object", "required": ["ab", "c"],
            "properties": {"ab": {"type": "string"}, "c": {"type": "integer", "default": 1}}}))),
        2 + (2 + 2 + 4)
    );
    assert_eq!(
        unbounded_cardinality(&s(json!({"type": "array", "items": {"type": "string"}}))),
        1_048_576
    );
}

/// Kubernetes' cost library bounds what `replace` and a literal-limited `split` give, and
/// cel-go charges the global `matches(s, re)` as a plain call.
#[test]
fn results_of_replace_and_split_are_bounded_and_global_matches_costs_one() {
    let short = json!({"type": "string", "maxLength": 10});
    assert!(cost(short.clone(), "self.replace('-', '').matches('^[a-z]+$')") < 20);
    let long = json!({"type": "string"});
    let limited = cost(long.clone(), "self.split(',', 2).all(x, x == 'a')");
    let unlimited = cost(long.clone(), "self.split(',').all(x, x == 'a')");
    assert!(limited < unlimited / 10, "{limited} vs {unlimited}");
    assert_eq!(cost(long, "matches(self, 'x')"), 2);
}
