//! Compile errors displayed as cel-go displays them, and the literal validators.

use super::super::{check::rule_error, parse};
use crate::resources::custom::structural::Schema;

/// The compile error of `rule` on an object with string `name` and `t`.
fn compile(rule: &str) -> Result<(), String> {
    let s = Schema::parse(&serde_json::json!({"type": "object", "properties": {
        "name": {"type": "string"}, "t": {"type": "string", "format": "date-time"},
        "a": {"type": "string"}, "b": {"type": "string"}, "x": {"type": "string"}}}));
    match rule_error(rule, &parse(rule)?, &s, false, false, false) {
        None => Ok(()),
        Some(e) => Err(e.trim_start_matches("compilation failed: ").to_string()),
    }
}

#[test]
fn literals_that_cannot_be_read_fail_to_compile_at_their_place() {
    let cases = [
        (
            "duration('1x') > duration('1s')",
            "ERROR: <input>:1:10: invalid duration argument\n | duration('1x') > duration('1s')\n | .........^",
        ),
        (
            "self.t > timestamp( 'yesterday')",
            "ERROR: <input>:1:21: invalid timestamp argument\n | self.t > timestamp( 'yesterday')\n | ....................^",
        ),
        (
            "self.name.matches('[a-z')",
            "ERROR: <input>:1:19: invalid matches argument\n | self.name.matches('[a-z')\n | ..................^",
        ),
        (
            "self.a == 'é' &&\n  self.b.matches('(')",
            "ERROR: <input>:2:18: invalid matches argument\n |   self.b.matches('(')\n | .................^",
        ),
        (
            "'é' == self.x || duration('x') > duration('1s')",
            "ERROR: <input>:1:27: invalid duration argument\n | 'é' == self.x || duration('x') > duration('1s')\n | .．........................^",
        ),
    ];
    for (rule, want) in cases {
        assert_eq!(compile(rule).err().as_deref(), Some(want), "{rule}");
    }
    assert!(compile("duration('1h') > duration('1s') && self.name.matches('^a+$')").is_ok());
    // Two errors, in the order of their places.
    assert_eq!(
        compile("timestamp('x') < timestamp('y')")
            .err()
            .unwrap()
            .matches("ERROR:")
            .count(),
        2
    );
}
