//! `x-kubernetes-validations` on custom resources: rules true and false, with their
//! messages, message expressions, reasons and field paths, transition rules against the old
//! object, evaluation errors, and rules not run because of other errors; texts as
//! apiextensions' CEL validator words them.

use serde_json::{json, Value};

use crate::common::{engine, post, put};
use crate::custom_resources::{crd_with_spec, widget, CRDS, WIDGETS};

/// A Widget whose spec carries rules of every kind.
fn ruled_crd() -> Value {
    crd_with_spec(json!({
        "type": "object",
        "x-kubernetes-validations": [
            {"rule": "self.min <= self.max"},
            {"rule": "self.max <= 100", "message": "max too large", "reason": "FieldValueForbidden", "fieldPath": ".max"},
            {"rule": "self.min != 7", "messageExpression": "'min ' + (self.min == 7 ? '7' : 'other') + ' is unlucky'"},
            {"rule": "!has(self.probe) || self.probe.missing > 1"}
        ],
        "properties": {
            "min": {"type": "integer"},
            "max": {"type": "integer"},
            "mode": {"type": "string", "enum": ["a", "b"]},
            "probe": {"type": "object", "additionalProperties": {"type": "integer"}},
            "name": {"type": "string", "x-kubernetes-validations": [{"rule": "self.startsWith('w')", "message": "must start with w"}]},
            "immutable": {"type": "string", "x-kubernetes-validations": [{"rule": "self == oldSelf", "message": "is immutable"}]},
            "endpoint": {"type": "string", "x-kubernetes-validations": [
                {"rule": "isURL(self) && url(self).getScheme() == 'https'", "message": "must be an https URL"},
                {"rule": "url(self).getPort() != '0'"}
            ]}
        }
    }))
}

#[test]
fn rules_fail_with_their_messages_reasons_and_paths() {
    let mut e = engine();
    let r = post(&mut e, CRDS, &ruled_crd());
    assert_eq!(r.code, 201, "{}", r.text);
    let prefix = r#"Widget.example.com "w1" is invalid: "#;
    let cases: &[(Value, &str)] = &[
        (
            json!({"min": 5, "max": 3}),
            "spec: Invalid value: failed rule: self.min <= self.max",
        ),
        (
            json!({"min": 1, "max": 300}),
            "spec.max: Forbidden: max too large",
        ),
        (
            json!({"min": 7, "max": 8}),
            "spec: Invalid value: min 7 is unlucky",
        ),
        (
            json!({"min": 1, "max": 2, "name": "x"}),
            r#"spec.name: Invalid value: "x": must start with w"#,
        ),
        (
            json!({"min": 1, "max": 2, "endpoint": "http://example.com/"}),
            r#"spec.endpoint: Invalid value: "http://example.com/": must be an https URL"#,
        ),
        (
            json!({"min": 1, "max": 2, "endpoint": "example.com"}),
            r#"[spec.endpoint: Invalid value: "example.com": must be an https URL, spec.endpoint: Invalid value: "string": URL parse error during conversion from string: parse "example.com": invalid URI for request evaluating rule: url(self).getPort() != '0']"#,
        ),
        (
            json!({"min": 1, "max": 2, "probe": {}}),
            r#"spec: Invalid value: "object": no such key: missing evaluating rule: !has(self.probe) || self.probe.missing > 1"#,
        ),
        (
            json!({"min": 5, "max": 3, "mode": "c"}),
            r#"[spec.mode: Unsupported value: "c": supported values: "a", "b", <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation]"#,
        ),
    ];
    refused(&mut e, cases);
    let r = post(
        &mut e,
        WIDGETS,
        &widget(
            "w1",
            json!({"min": 1, "max": 2, "name": "web", "immutable": "a"}),
        ),
    );
    assert_eq!(r.code, 201, "{}", r.text);
    // A transition rule compares with the old object; unchanged values are not checked again.
    let mut next = r.json.clone();
    next["spec"]["immutable"] = json!("b");
    let r = put(&mut e, &format!("{WIDGETS}/w1"), &next);
    assert_eq!(r.code, 422);
    assert_eq!(
        r.json["message"],
        format!(r#"{prefix}spec.immutable: Invalid value: "b": is immutable"#)
    );
}

/// A rule that does not compile refuses the definition at the rule's path.
#[test]
fn a_rule_that_does_not_compile_refuses_the_definition() {
    let mut e = engine();
    let mut crd = ruled_crd();
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]
        ["x-kubernetes-validations"][0]["rule"] = json!("self.min <=");
    let r = post(&mut e, CRDS, &crd);
    assert_eq!(r.code, 422, "{}", r.text);
    let cause = &r.json["details"]["causes"][0];
    assert_eq!(
        cause["field"],
        "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule"
    );
    assert!(
        cause["message"]
            .as_str()
            .unwrap()
            .contains("compilation failed: "),
        "{cause}"
    );
    // A literal that cannot be read at runtime fails the compilation at its place.
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]
        ["x-kubernetes-validations"][0]["rule"] = json!("duration('1x') > duration('1s')");
    let r = post(&mut e, CRDS, &crd);
    assert_eq!(r.code, 422, "{}", r.text);
    let message = r.json["details"]["causes"][0]["message"]
        .as_str()
        .unwrap_or("");
    assert!(
        message.ends_with(
            "compilation failed: ERROR: <input>:1:10: invalid duration argument\n | duration('1x') > duration('1s')\n | .........^"
        ),
        "{message}"
    );
}

/// Defines Widgets with `spec` as their spec's schema; the definition is accepted.
fn define(e: &mut kubesim::engine::Engine, spec: Value) {
    let r = post(e, CRDS, &crd_with_spec(spec));
    assert_eq!(r.code, 201, "{}", r.text);
}

/// Widgets `w1` with each spec, each refused with its message.
fn refused(e: &mut kubesim::engine::Engine, cases: &[(Value, &str)]) {
    let prefix = r#"Widget.example.com "w1" is invalid: "#;
    for (spec, want) in cases {
        let r = post(e, WIDGETS, &widget("w1", spec.clone()));
        assert_eq!(r.code, 422, "{spec}: {}", r.text);
        assert_eq!(r.json["message"], format!("{prefix}{want}"), "{spec}");
    }
}

/// The causes of a refused definition, as `field: message` lines.
fn causes(r: &crate::common::Resp) -> Vec<String> {
    r.json["details"]["causes"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| {
            format!(
                "{}: {}",
                c["field"].as_str().unwrap_or(""),
                c["message"].as_str().unwrap_or("")
            )
        })
        .collect()
}

const TRY: &str = "(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)";

/// Rules are estimated when the definition is written: a rule over an unbounded list of
/// unbounded strings is refused, with the schema's total; bounded, the same rule is accepted.
#[test]
fn rules_too_costly_by_estimate_refuse_the_definition() {
    let mut e = engine();
    let rule = json!([{"rule": "self.all(x, x.matches('^[a-z]+$'))"}]);
    let unbounded = crd_with_spec(json!({"type": "object", "properties": {
        "list": {"type": "array", "items": {"type": "string"}, "x-kubernetes-validations": rule}
    }}));
    let r = post(&mut e, CRDS, &unbounded);
    assert_eq!(r.code, 422, "{}", r.text);
    let at = "spec.validation.openAPIV3Schema.properties[spec].properties[list].x-kubernetes-validations[0].rule";
    assert_eq!(
        causes(&r),
        [
            format!("{at}: Forbidden: estimated rule cost exceeds budget by factor of more than 100x {TRY}"),
            format!("{at}: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema"),
            format!("spec.validation.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x {TRY}"),
        ]
    );
    let mut bounded = unbounded.clone();
    bounded["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]
        ["properties"]["list"] = json!({
        "type": "array", "maxItems": 10, "items": {"type": "string", "maxLength": 10},
        "x-kubernetes-validations": rule
    });
    let r = post(&mut e, CRDS, &bounded);
    assert_eq!(r.code, 201, "{}", r.text);
}

/// A schema error skips the rules at its node and above it, not elsewhere: the sibling's
/// rule is still type-checked and estimated (its cost refused), the parent's rule is not
/// (apiextensions compiles a node's rules only without a schema error at or below it).
#[test]
fn a_schema_error_skips_only_the_rules_above_it() {
    let mut e = engine();
    let crd = crd_with_spec(json!({"type": "object",
    "x-kubernetes-validations": [{"rule": "self.bad == 1"}],
    "properties": {
        "bad": {"type": "array", "uniqueItems": true, "items": {"type": "string"}},
        "typed": {"type": "string", "x-kubernetes-validations": [{"rule": "self == 1"}]},
        "list": {"type": "array", "items": {"type": "string"},
            "x-kubernetes-validations": [{"rule": "self.all(x, x.matches('^[a-z]+$'))"}]}
    }}));
    let r = post(&mut e, CRDS, &crd);
    assert_eq!(r.code, 422, "{}", r.text);
    let spec = "spec.validation.openAPIV3Schema.properties[spec]";
    let causes = causes(&r);
    assert_eq!(
        causes[0],
        format!("{spec}.properties[bad].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic")
    );
    let typed =
        format!("{spec}.properties[typed].x-kubernetes-validations[0].rule: Invalid value:");
    assert!(
        causes
            .iter()
            .any(|c| c.starts_with(&typed) && c.contains("found no matching overload for '_==_'")),
        "{causes:?}"
    );
    let list = format!("{spec}.properties[list].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget");
    assert!(causes.iter().any(|c| c.starts_with(&list)), "{causes:?}");
    assert!(
        !causes
            .iter()
            .any(|c| c.starts_with(&format!("{spec}.x-kubernetes-validations"))),
        "{causes:?}"
    );
}

/// The real server's case of a total over the schema's limit: the list's rule is over its
/// own limit too (20x), the map's only counts towards the total (2x).
#[test]
fn the_schema_total_names_its_most_expensive_rules() {
    let mut e = engine();
    let contains = json!([{"rule": "self.contains('keyword')"}]);
    let crd = crd_with_spec(json!({"type": "object", "properties": {
        "list": {"type": "array", "maxItems": 100000,
            "items": {"type": "string", "maxLength": 5000, "x-kubernetes-validations": contains}},
        "map": {"type": "object", "maxProperties": 1000,
            "additionalProperties": {"type": "string", "maxLength": 5000, "x-kubernetes-validations": contains}},
        "field": {"type": "integer", "x-kubernetes-validations": [{"rule": "self > 50 && self < 100"}]}
    }}));
    let r = post(&mut e, CRDS, &crd);
    assert_eq!(r.code, 422, "{}", r.text);
    let root = "spec.validation.openAPIV3Schema";
    let list =
        format!("{root}.properties[spec].properties[list].items.x-kubernetes-validations[0].rule");
    let map = format!("{root}.properties[spec].properties[map].additionalProperties.x-kubernetes-validations[0].rule");
    let contributed =
        "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema";
    assert_eq!(
        causes(&r),
        [
            format!("{list}: Forbidden: estimated rule cost exceeds budget by factor of 20.0x {TRY}"),
            format!("{list}: Forbidden: {contributed}"),
            format!("{map}: Forbidden: {contributed}"),
            format!("{root}: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 2.0x {TRY}"),
        ]
    );
}

/// Schema strings of format `duration` and `date-time` are durations and timestamps to a
/// rule: compared by length and instant (not as text), added, and printed by `string()`.
#[test]
fn durations_and_timestamps_compare_as_such() {
    let mut e = engine();
    define(
        &mut e,
        json!({
            "type": "object",
            "x-kubernetes-validations": [
                {"rule": "!has(self.timeout) || !has(self.backendTimeout) || self.backendTimeout <= self.timeout",
                 "message": "backendTimeout must not exceed timeout"},
                {"rule": "!has(self.start) || !has(self.end) || self.start < self.end", "message": "the window ends before it starts"},
                {"rule": "duration('1h') + duration('30m') == duration('90m') && string(duration('90m')) == '5400s' && timestamp('2024-01-01T00:00:00Z').getDayOfWeek() == 1"},
                {"rule": "!has(self.start) || self.start - duration('24h') < timestamp('2024-01-01T00:00:00Z')", "message": "start too late"}
            ],
            "properties": {
                "timeout": {"type": "string", "format": "duration"},
                "backendTimeout": {"type": "string", "format": "duration"},
                "start": {"type": "string", "format": "date-time"},
                "end": {"type": "string", "format": "date-time"}
            }
        }),
    );
    let prefix = r#"Widget.example.com "w1" is invalid: "#;
    // As text "10s" < "1m"; as durations 1m is the longer.
    let r = post(
        &mut e,
        WIDGETS,
        &widget("w1", json!({"timeout": "10s", "backendTimeout": "1m"})),
    );
    assert_eq!(r.code, 422, "{}", r.text);
    assert_eq!(
        r.json["message"],
        format!("{prefix}spec: Invalid value: backendTimeout must not exceed timeout")
    );
    let r = post(
        &mut e,
        WIDGETS,
        &widget(
            "w1",
            json!({"start": "2024-01-01T12:00:00+02:00", "end": "2024-01-01T09:30:00Z"}),
        ),
    );
    assert_eq!(r.code, 422, "{}", r.text);
    assert_eq!(
        r.json["message"],
        format!("{prefix}spec: Invalid value: the window ends before it starts")
    );
    let r = post(
        &mut e,
        WIDGETS,
        &widget("w1", json!({"start": "2024-01-02T00:00:01Z"})),
    );
    assert_eq!(
        r.json["message"],
        format!("{prefix}spec: Invalid value: start too late")
    );
    // 10:00 at +02:00 is 08:00Z, before 09:30Z: as text it would be after.
    let r = post(
        &mut e,
        WIDGETS,
        &widget(
            "w1",
            json!({"timeout": "1m", "backendTimeout": "30s", "start": "2024-01-01T10:00:00+02:00", "end": "2024-01-01T09:30:00Z"}),
        ),
    );
    assert_eq!(r.code, 201, "{}", r.text);
}

/// The quantity library on a bounded string field (unbounded, its cost estimate would refuse
/// the rules, as the real server's does): parsed as ParseQuantity, compared by value, in a
/// transition rule that keeps a size from shrinking.
#[test]
fn quantities_compare_by_value() {
    let mut e = engine();
    define(
        &mut e,
        json!({
            "type": "object",
            "properties": {"size": {
                "type": "string", "maxLength": 20,
                "x-kubernetes-validations": [
                    {"rule": "isQuantity(self) && quantity(self).isGreaterThan(quantity('1Gi'))", "message": "must be more than 1Gi"},
                    {"rule": "quantity(self).compareTo(quantity(oldSelf)) >= 0", "message": "may not shrink"}
                ]
            }}
        }),
    );
    let prefix = r#"Widget.example.com "w1" is invalid: "#;
    let r = post(&mut e, WIDGETS, &widget("w1", json!({"size": "500Mi"})));
    assert_eq!(
        r.json["message"],
        format!("{prefix}spec.size: Invalid value: \"500Mi\": must be more than 1Gi")
    );
    let r = post(&mut e, WIDGETS, &widget("w1", json!({"size": "2Gi"})));
    assert_eq!(r.code, 201, "{}", r.text);
    let mut smaller = r.json.clone();
    smaller["spec"]["size"] = json!("1.5Gi");
    let r = put(&mut e, &format!("{WIDGETS}/w1"), &smaller);
    assert_eq!(
        r.json["message"],
        format!("{prefix}spec.size: Invalid value: \"1.5Gi\": may not shrink")
    );
    // 3G is more than 2Gi (2147483648).
    smaller["spec"]["size"] = json!("3G");
    let r = put(&mut e, &format!("{WIDGETS}/w1"), &smaller);
    assert_eq!(r.code, 200, "{}", r.text);
}

#[test]
fn addresses_networks_and_versions_read_as_the_libraries_do() {
    let mut e = engine();
    define(
        &mut e,
        json!({
            "type": "object",
            "properties": {
                "address": {"type": "string", "maxLength": 64, "x-kubernetes-validations": [
                    {"rule": "isIP(self) && ip.isCanonical(self)", "message": "must be a canonical IP address"},
                    {"rule": "ip(self).family() == 4 ? cidr('10.0.0.0/8').containsIP(self) : ip(self).isGlobalUnicast()", "message": "must be in 10.0.0.0/8 or a global IPv6 address"}
                ]},
                "network": {"type": "string", "maxLength": 64, "x-kubernetes-validations": [
                    {"rule": "cidr(self) == cidr(self).masked()", "message": "must have no host bits"}
                ]},
                "version": {"type": "string", "maxLength": 32, "x-kubernetes-validations": [
                    {"rule": "isSemver(self, true) && semver(self, true).isGreaterThan(semver('1.2.0'))", "message": "must be a version after 1.2.0"}
                ]}
            }
        }),
    );
    let r = post(
        &mut e,
        WIDGETS,
        &widget(
            "w1",
            json!({"address": "10.1.2.3", "network": "192.168.0.0/16", "version": "v1.10"}),
        ),
    );
    assert_eq!(r.code, 201, "{}", r.text);
    let cases = [
        (
            json!({"address": "2001:DB8::1"}),
            r#"spec.address: Invalid value: "2001:DB8::1": must be a canonical IP address"#,
        ),
        (
            json!({"address": "192.168.1.1"}),
            r#"spec.address: Invalid value: "192.168.1.1": must be in 10.0.0.0/8 or a global IPv6 address"#,
        ),
        (
            json!({"address": "fe80::1"}),
            r#"spec.address: Invalid value: "fe80::1": must be in 10.0.0.0/8 or a global IPv6 address"#,
        ),
        (
            json!({"network": "192.168.1.0/16"}),
            r#"spec.network: Invalid value: "192.168.1.0/16": must have no host bits"#,
        ),
        (
            json!({"network": "192.168.1.0"}),
            r#"spec.network: Invalid value: "string": network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("192.168.1.0"): no '/' evaluating rule: must have no host bits"#,
        ),
        (
            json!({"version": "1.2.0-rc.1"}),
            r#"spec.version: Invalid value: "1.2.0-rc.1": must be a version after 1.2.0"#,
        ),
    ];
    refused(&mut e, &cases);
}

#[test]
fn optional_old_self_rules_run_on_create_with_no_old_value() {
    let mut e = engine();
    define(
        &mut e,
        json!({
            "type": "object",
            "properties": {
                "level": {"type": "integer", "x-kubernetes-validations": [
                    {"rule": "!oldSelf.hasValue() || self >= oldSelf.value()", "message": "may not decrease", "optionalOldSelf": true}
                ]},
                "phase": {"type": "string", "x-kubernetes-validations": [
                    {"rule": "oldSelf.hasValue() || self == 'initial'", "message": "must start as initial", "optionalOldSelf": true},
                    {"rule": "self == oldSelf || self != 'initial'", "message": "may not go back to initial"}
                ]}
            }
        }),
    );
    let prefix = r#"Widget.example.com "w1" is invalid: "#;
    // On create the optional rule runs, with oldSelf none; the plain transition rule does not.
    let r = post(
        &mut e,
        WIDGETS,
        &widget("w1", json!({"level": 5, "phase": "running"})),
    );
    assert_eq!(
        r.json["message"],
        format!("{prefix}spec.phase: Invalid value: \"running\": must start as initial")
    );
    let r = post(
        &mut e,
        WIDGETS,
        &widget("w1", json!({"level": 5, "phase": "initial"})),
    );
    assert_eq!(r.code, 201, "{}", r.text);
    let mut lower = r.json.clone();
    lower["spec"]["level"] = json!(3);
    lower["spec"]["phase"] = json!("running");
    let r = put(&mut e, &format!("{WIDGETS}/w1"), &lower);
    assert_eq!(
        r.json["message"],
        format!("{prefix}spec.level: Invalid value: 3: may not decrease")
    );
    lower["spec"]["level"] = json!(9);
    let r = put(&mut e, &format!("{WIDGETS}/w1"), &lower);
    assert_eq!(r.code, 200, "{}", r.text);
}

#[test]
fn formats_sets_lists_and_two_variable_rules_check_objects() {
    let mut e = engine();
    define(
        &mut e,
        json!({
            "type": "object",
            "properties": {
                "host": {"type": "string", "maxLength": 63, "x-kubernetes-validations": [
                    {"rule": "!format.dns1123Label().validate(self).hasValue()",
                     "messageExpression": "self + ' is no DNS label'"}
                ]},
                "features": {"type": "array", "maxItems": 8, "items": {"type": "string", "maxLength": 16},
                    "x-kubernetes-validations": [
                        {"rule": "sets.contains(['a', 'b', 'c'], self)", "message": "features must be among a, b and c"},
                        {"rule": "self == self.distinct()", "message": "features must be unique"}
                    ]},
                "limits": {"type": "object", "maxProperties": 4,
                    "additionalProperties": {"type": "integer"},
                    "x-kubernetes-validations": [
                        {"rule": "self.all(k, v, v <= 10 || k.startsWith('big'))", "message": "only big limits may pass 10"}
                    ]}
            }
        }),
    );
    let r = post(
        &mut e,
        WIDGETS,
        &widget(
            "w1",
            json!({"host": "web-1", "features": ["a", "c"], "limits": {"cpu": 4, "bigmem": 64}}),
        ),
    );
    assert_eq!(r.code, 201, "{}", r.text);
    let cases = [
        (
            json!({"host": "Web_1"}),
            r#"spec.host: Invalid value: "Web_1": Web_1 is no DNS label"#,
        ),
        (
            json!({"features": ["a", "d"]}),
            "spec.features: Invalid value: features must be among a, b and c",
        ),
        (
            json!({"features": ["a", "a"]}),
            "spec.features: Invalid value: features must be unique",
        ),
        (
            json!({"limits": {"cpu": 40}}),
            "spec.limits: Invalid value: only big limits may pass 10",
        ),
    ];
    refused(&mut e, &cases);
}

/// Rules are type-checked against the schema when the definition is written: a field the
/// schema does not declare (x-kubernetes-preserve-unknown-fields exposes none), an operator
/// or function given the wrong types, a rule that is not a bool.
#[test]
fn rules_that_do_not_type_check_refuse_the_definition() {
    let mut e = engine();
    let at = "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule";
    let value = |rule: &str| {
        format!(
            r#"{{"Rule":{},"Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}}"#,
            serde_json::to_string(rule)
                .unwrap()
                .replace('<', "\\u003c")
                .replace('>', "\\u003e")
                .replace('&', "\\u0026")
        )
    };
    let cases = [
        (
            "self.replicas > 0 && self.probe.missing",
            "compilation failed: ERROR: <input>:1:32: undefined field 'missing'\n | self.replicas > 0 && self.probe.missing\n | ...............................^",
        ),
        (
            "self.name > 1",
            "compilation failed: ERROR: <input>:1:11: found no matching overload for '_>_' applied to '(string, int)'\n | self.name > 1\n | ..........^",
        ),
        (
            "self.replicas == '3'",
            "compilation failed: ERROR: <input>:1:15: found no matching overload for '_==_' applied to '(int, string)'\n | self.replicas == '3'\n | ..............^",
        ),
        (
            "self.name.startsWith(1)",
            "compilation failed: ERROR: <input>:1:21: found no matching overload for 'startsWith' applied to 'string.(int)'\n | self.name.startsWith(1)\n | ....................^",
        ),
        (
            "self.nmae == 'x' && replicas > 0",
            "compilation failed: ERROR: <input>:1:5: undefined field 'nmae'\n | self.nmae == 'x' && replicas > 0\n | ....^\nERROR: <input>:1:21: undeclared reference to 'replicas' (in container '')\n | self.nmae == 'x' && replicas > 0\n | ....................^",
        ),
        (
            "self.name.size.all(x, true)",
            "compilation failed: ERROR: <input>:1:10: type 'string' does not support field selection\n | self.name.size.all(x, true)\n | .........^",
        ),
        ("self.replicas + 1", "cel expression must evaluate to a bool"),
        (
            "self.tags.all(t, t.size())",
            "compilation failed: ERROR: <input>:1:24: expected type 'bool' but found 'int'\n | self.tags.all(t, t.size())\n | .......................^",
        ),
        (
            "self.replicas.all(x, true)",
            "compilation failed: ERROR: <input>:1:5: expression of type 'int' cannot be range of a comprehension (must be list, map, or dynamic)\n | self.replicas.all(x, true)\n | ....^",
        ),
    ];
    let schema = json!({
        "type": "object",
        "properties": {
            "replicas": {"type": "integer"},
            "name": {"type": "string"},
            "tags": {"type": "array", "items": {"type": "string"}},
            "probe": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}
        }
    });
    for (rule, detail) in cases {
        let mut spec = schema.clone();
        spec["x-kubernetes-validations"] = json!([{"rule": rule}]);
        let r = post(&mut e, CRDS, &crd_with_spec(spec));
        assert_eq!(r.code, 422, "{rule}: {}", r.text);
        let want = format!(
            r#"CustomResourceDefinition.apiextensions.k8s.io "widgets.example.com" is invalid: {at}: Invalid value: {}: {detail}"#,
            value(rule)
        );
        assert_eq!(r.json["message"], want, "{rule}");
    }
    // What type-checks is accepted: escaped property names, maps, int-or-string as dyn.
    let mut spec = schema.clone();
    spec["properties"]["name"]["maxLength"] = json!(63);
    spec["properties"]["tags"]["maxItems"] = json!(10);
    spec["properties"]["tags"]["items"]["maxLength"] = json!(63);
    spec["properties"]["dash-name"] = json!({"type": "string", "maxLength": 63});
    spec["properties"]["port"] = json!({"x-kubernetes-int-or-string": true});
    spec["properties"]["labels"] = json!({"type": "object", "maxProperties": 10,
        "additionalProperties": {"type": "string", "maxLength": 63}});
    spec["x-kubernetes-validations"] = json!([
        {"rule": "!has(self.dash__dash__name) || self.dash__dash__name != ''"},
        {"rule": "!has(self.port) || self.port == 80 || self.port == '80%'"},
        {"rule": "!has(self.port) || (type(self.port) == string ? self.port.endsWith('%') : self.port > 0)"},
        {"rule": "self.labels.all(k, self.labels[k].size() < 64) && size(self.tags) < 10"},
        {"rule": "self.tags.exists(t, t == self.name) || self.replicas >= 0.5"}
    ]);
    let r = post(&mut e, CRDS, &crd_with_spec(spec));
    assert_eq!(r.code, 201, "{}", r.text);
    let r = post(
        &mut e,
        WIDGETS,
        &widget(
            "w1",
            json!({"dash-name": "", "port": "10%", "labels": {}, "tags": [], "name": "x"}),
        ),
    );
    assert_eq!(r.code, 422, "{}", r.text);
    assert_eq!(
        r.json["message"],
        r#"Widget.example.com "w1" is invalid: [spec: Invalid value: failed rule: !has(self.dash__dash__name) || self.dash__dash__name != '', spec: Invalid value: failed rule: !has(self.port) || self.port == 80 || self.port == '80%', spec: Invalid value: "object": no such key: replicas evaluating rule: self.tags.exists(t, t == self.name) || self.replicas >= 0.5]"#
    );
}
