//! Optional values as cel-go 0.26 evaluates them (its `TestOptionalValues` cases and the
//! Kubernetes optionalOldSelf tests).

use serde_json::json;

use super::super::{eval, parse, Scope, Val};

fn run(expr: &str) -> Result<Val, String> {
    let obj = json!({"name": "web", "spec": {"replicas": 3, "empty": "", "gone": null},
        "list": [1, 2, 3], "labels": {"app": "web"}});
    let e = parse(expr)?;
    let mut steps = 0;
    let vars = vec![("self".to_string(), Val::from_json(&obj, None))];
    eval(&e, &mut Scope::new(vars, &mut steps))
}

#[test]
fn optionals_select_index_and_chain() {
    let t = |e: &'static str| (e, Ok(Val::Bool(true)));
    let err = |e: &'static str, m: &str| (e, Err(m.to_string()));
    let cases = [
        t("self.?name == optional.of('web')"),
        t("self.?missing == optional.none()"),
        t("!self.?missing.hasValue() && self.?name.hasValue()"),
        t("self.?spec.replicas.value() == 3"),
        // After `.?`, every later step tests for presence.
        t("self.?spec.missing.deeper == optional.none()"),
        t("self.?missing.replicas.orValue(7) == 7"),
        // A property that holds null is absent.
        t("!self.spec.?gone.hasValue()"),
        t("self.list[?1] == optional.of(2) && self.list[?5] == optional.none()"),
        t("self.list[?-1] == optional.none()"),
        t("self.labels[?'app'].orValue('') == 'web' && !self.labels[?'x'].hasValue()"),
        t("optional.of(self.spec).replicas.value() == 3"),
        t("optional.none().replicas == optional.none()"),
        t("has(optional.of(self.spec).replicas) && !has(optional.none().replicas)"),
        err("self.missing.?replicas", "no such key: missing"),
        err("optional.none().value()", "optional.none() dereference"),
        err(
            "self.list[?'a']",
            "unsupported index type 'string' in list",
        ),
        t("optional.none().or(optional.of(2)) == optional.of(2)"),
        t("optional.of(1).or(optional.of(2)) == optional.of(1)"),
        // `or` and `orValue` do not read their argument when the optional has a value.
        t("optional.of(1).orValue(self.missing) == 1"),
        t("optional.ofNonZeroValue('') == optional.none()"),
        t("optional.ofNonZeroValue(0) == optional.none() && optional.ofNonZeroValue(1).hasValue()"),
        t("optional.ofNonZeroValue(self.spec.empty) == optional.none()"),
        t("optional.ofNonZeroValue(timestamp('0001-01-01T00:00:00Z')) == optional.none()"),
        t("optional.ofNonZeroValue(timestamp('1970-01-01T00:00:00Z')).hasValue()"),
        t("optional.of(null).hasValue()"),
        t("optional.of(1) == optional.of(1) && optional.none() == optional.none()"),
        t("optional.of(1) != optional.none() && optional.of(1) != 1"),
        t("type(optional.none()) == optional_type"),
        t("[1, ?optional.none(), ?optional.of(3)] == [1, 3]"),
        t("{'a': 1, ?'b': optional.none(), ?'c': optional.of(3)} == {'a': 1, 'c': 3}"),
        // A none entry also removes an earlier one of its key.
        t("{'a': 1, ?'a': optional.none()} == {}"),
        err(
            "[?1]",
            "cannot initialize optional list element from non-optional value 1",
        ),
        err(
            "{?'k': 1}",
            "cannot initialize optional entry 'k' from non-optional value 1",
        ),
        t("self.list.first() == optional.of(1) && self.list.last() == optional.of(3)"),
        t("[].first() == optional.none()"),
        t("optional.unwrap([optional.of(1), optional.none(), optional.of(3)]) == [1, 3]"),
        t("[optional.none(), optional.of('x')].unwrapOpt() == ['x']"),
        err("optional.unwrap([1])", "value 1 is not optional"),
        t("self.?spec.optMap(s, s.replicas * 2) == optional.of(6)"),
        t("self.?missing.optMap(s, s.replicas * 2) == optional.none()"),
        t("self.?spec.optFlatMap(s, s.?replicas) == optional.of(3)"),
        t("self.?spec.optFlatMap(s, s.?nope) == optional.none()"),
    ];
    for (expr, want) in cases {
        assert_eq!(run(expr), want, "{expr}");
    }
    assert_eq!(
        parse("self.optMap(1, 2)"),
        Err("optMap() variable name must be a simple identifier".into())
    );
}

#[test]
fn optionals_print_as_cel_go_does() {
    use super::super::display;
    assert_eq!(display(&run("optional.of(1)").unwrap()), "optional(1)");
    assert_eq!(display(&run("optional.none()").unwrap()), "optional.none()");
}
