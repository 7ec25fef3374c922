//! The type check against cel-go's checker: what it refuses, with its texts and places,
//! and what it accepts.

use serde_json::json;

use super::super::parse;
use super::rule_error;
use crate::resources::custom::structural::Schema;

fn schema() -> Schema {
    Schema::parse(&json!({
        "type": "object",
        "properties": {
            "spec": {"type": "object", "properties": {
                "replicas": {"type": "integer"},
                "ratio": {"type": "number"},
                "name": {"type": "string"},
                "when": {"type": "string", "format": "date-time"},
                "ttl": {"type": "string", "format": "duration"},
                "tags": {"type": "array", "items": {"type": "string"}},
                "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                "port": {"x-kubernetes-int-or-string": true},
                "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
                "template": {"type": "object", "x-kubernetes-embedded-resource": true,
                    "x-kubernetes-preserve-unknown-fields": true},
                "pod": {"type": "object", "x-kubernetes-embedded-resource": true, "properties": {
                    "kind": {"type": "string"}, "apiVersion": {"type": "string"},
                    "metadata": {"type": "object", "properties": {
                        "name": {"type": "string"}, "generateName": {"type": "string"},
                        "labels": {"type": "object", "additionalProperties": {"type": "string"}}}}}},
                "items": {"type": "array", "items": {"type": "object", "properties": {
                    "key": {"type": "string"}}}}
            }}
        }
    }))
}

fn check(rule: &str, optional_old_self: bool) -> Option<String> {
    let s = schema();
    let e = parse(rule).unwrap();
    rule_error(rule, &e, &s, true, optional_old_self, false)
}

fn first_line(detail: Option<String>) -> Option<String> {
    detail.map(|d| d.lines().next().unwrap_or("").to_string())
}

#[test]
fn what_cel_go_accepts_type_checks() {
    for rule in [
        "self.spec.replicas > 0 && self.spec.ratio < 1.5 && self.spec.replicas < 2.5",
        "self.spec.replicas >= 1u || self.spec.name == 'x'",
        "self.metadata.name.startsWith('a') && self.kind == 'Widget' && self.apiVersion != ''",
        "self.spec.when < timestamp('2030-01-01T00:00:00Z') && self.spec.ttl > duration('1s')",
        "self.spec.when + self.spec.ttl > self.spec.when",
        "self.spec.tags.all(t, t.size() < 10) && self.spec.tags + ['x'] != []",
        "self.spec.labels.all(k, self.spec.labels[k] != '') && 'a' in self.spec.labels",
        "self.spec.port == 1 || self.spec.port == '1%' || self.spec.port.endsWith('%')",
        "has(self.spec.free) && self.spec.template.apiVersion == 'v1'",
        "self.spec.template.metadata.name != ''",
        "self.spec.items.exists(i, i.key == 'a') && self.spec.items.map(i, i.key).size() > 0",
        "(self.spec.replicas > 1 ? self.spec.name : 'x').size() > 0",
        "self.spec.tags[0] == 'a' && size(self.spec.tags) == 1 && self.spec.labels['x'] == 'y'",
        "self.spec.?name.orValue('') == '' && self.spec.name.matches('^a')",
        "isIP(self.spec.name) && cidr('10.0.0.0/8').containsIP(self.spec.name)",
        "self.spec.tags.exists_one(t, t == 'a') && self.spec.tags.filter(t, t != '').size() == 1",
        "self.spec.items.all(i, v, i >= 0 && v.key != '')",
        "null == null && self.spec.when != null",
        "dyn(self.spec.replicas) == 'x'",
        "[1, 2].exists(x, x > 1) && {'a': 1}['a'] == 1",
        "[self.spec.tags, []].size() == 2 && [[], ['a']].size() == 2 && {'a': [], 'b': ['x']}.size() == 1",
        "[{}, {'a': 1}].size() == 2 && [true ? [] : ['a'], ['b']].size() == 2",
        "(self.spec.replicas > 0 ? [true] : [])[0]",
        "self.spec.port - duration('1h') > timestamp('2020-01-01T00:00:00Z')",
        "self.spec.pod.metadata.labels['app'] == 'x' && self.spec.pod.metadata.name != ''",
        "quantity(self.spec.name).add(1).isGreaterThan(quantity('1')) && self.spec.when.getHours() > 1",
        "url(self.spec.name).getHost() != '' && semver(self.spec.name).major() > 1",
        "self.spec.ttl.getHours() < 2 && cidr(self.spec.name).ip().isLoopback()",
        "self.spec.tags.join() != '' && self.spec.tags.join(',') != '' && [[1], [2]].flatten().size() == 2",
        "dyn(self.spec.tags).join('') == '' || dyn(self.spec.tags).flatten().size() > 0",
        "self.spec.tags.flatten(1).size() > 0",
    ] {
        assert_eq!(check(rule, false), None, "{rule}");
    }
    assert_eq!(
        check(
            "!oldSelf.hasValue() || oldSelf.value().spec.replicas <= self.spec.replicas",
            true
        ),
        None
    );
}

#[test]
fn what_cel_go_refuses_fails_with_its_texts() {
    let cases = [
        ("self.spec.nope == 1", "ERROR: <input>:1:10: undefined field 'nope'"),
        ("self.spec.free.x == 1", "ERROR: <input>:1:15: undefined field 'x'"),
        ("self.metadata.labels.size() > 0", "ERROR: <input>:1:14: undefined field 'labels'"),
        ("has(self.spec.nope)", "ERROR: <input>:1:4: undefined field 'nope'"),
        ("self.spec.name.x == 1", "ERROR: <input>:1:15: type 'string' does not support field selection"),
        ("self.spec.replicas == 1.0", "ERROR: <input>:1:20: found no matching overload for '_==_' applied to '(int, double)'"),
        ("self.spec.name == null", "ERROR: <input>:1:16: found no matching overload for '_==_' applied to '(string, null)'"),
        ("self.spec.name < 1", "ERROR: <input>:1:16: found no matching overload for '_<_' applied to '(string, int)'"),
        ("self.spec.replicas + 'a' == 'b'", "ERROR: <input>:1:20: found no matching overload for '_+_' applied to '(int, string)'"),
        ("self.spec.when + self.spec.when > self.spec.when", "ERROR: <input>:1:16: found no matching overload for '_+_' applied to '(timestamp, timestamp)'"),
        ("-self.spec.name == ''", "ERROR: <input>:1:1: found no matching overload for '-_' applied to '(string)'"),
        ("!self.spec.replicas", "ERROR: <input>:1:1: found no matching overload for '!_' applied to '(int)'"),
        ("self.spec.tags['a'] == 'b'", "ERROR: <input>:1:15: found no matching overload for '_[_]' applied to '(list(string), string)'"),
        ("1 in self.spec.tags", "ERROR: <input>:1:3: found no matching overload for '@in' applied to '(int, list(string))'"),
        ("(self.spec.replicas > 1 ? 1 : 'a') == 1", "ERROR: <input>:1:25: found no matching overload for '_?_:_' applied to '(bool, int, string)'"),
        ("self.spec.replicas.startsWith('a')", "ERROR: <input>:1:30: found no matching overload for 'startsWith' applied to 'int.(string)'"),
        ("size(self.spec.replicas) > 0", "ERROR: <input>:1:5: found no matching overload for 'size' applied to '(int)'"),
        ("self.spec.tags.all(t, t)", "ERROR: <input>:1:23: expected type 'bool' but found 'string'"),
        ("self.spec.replicas || true", "ERROR: <input>:1:10: expected type 'bool' but found 'int'"),
        ("self.spec.name.all(c, true)", "ERROR: <input>:1:10: expression of type 'string' cannot be range of a comprehension (must be list, map, or dynamic)"),
        ("frobnicate(self) == 1", "ERROR: <input>:1:11: undeclared reference to 'frobnicate' (in container '')"),
        ("self.spec.name.reverse() == ''", "ERROR: <input>:1:23: found no matching overload for 'reverse' applied to 'string.()'"),
        ("self.spec.items.all(i, i.nope == 1)", "ERROR: <input>:1:25: undefined field 'nope'"),
        ("self.spec.name.isGreaterThan(quantity('1'))", "ERROR: <input>:1:29: found no matching overload for 'isGreaterThan' applied to 'string.(kubernetes.Quantity)'"),
        ("ip(self.spec.name).prefixLength() > 1", "ERROR: <input>:1:32: found no matching overload for 'prefixLength' applied to 'net.IP.()'"),
        ("self.spec.name.hasValue()", "ERROR: <input>:1:24: found no matching overload for 'hasValue' applied to 'string.()'"),
        ("self.spec.ttl.getFullYear() > 1", "ERROR: <input>:1:26: found no matching overload for 'getFullYear' applied to 'duration.()'"),
        // Member-only functions called as globals, and member calls on the wrong lists.
        ("lowerAscii(self.spec.name) == 'a'", "ERROR: <input>:1:11: found no matching overload for 'lowerAscii' applied to '(string)'"),
        ("startsWith(self.spec.name, 'a')", "ERROR: <input>:1:11: found no matching overload for 'startsWith' applied to '(string, string)'"),
        ("self.spec.tags.join(1) == ''", "ERROR: <input>:1:20: found no matching overload for 'join' applied to 'list(string).(int)'"),
        ("[1, 2].join() == ''", "ERROR: <input>:1:12: found no matching overload for 'join' applied to 'list(int).()'"),
        ("self.spec.tags.flatten().size() > 0", "ERROR: <input>:1:23: found no matching overload for 'flatten' applied to 'list(string).()'"),
        ("self.spec.tags.flatten('a').size() > 0", "ERROR: <input>:1:23: found no matching overload for 'flatten' applied to 'list(string).(string)'"),
    ];
    for (rule, want) in cases {
        let got = first_line(check(rule, false));
        assert_eq!(
            got.as_deref(),
            Some(format!("compilation failed: {want}").as_str()),
            "{rule}"
        );
    }
    // Literals of mixed types, found once the check passes (`format`'s arguments exempt).
    for (rule, want) in [
        (
            "[1, 'a'].size() > 0",
            "ERROR: <input>:1:5: expected type 'int' but found 'string'",
        ),
        (
            "[1, self.spec.name].size() > 0",
            "ERROR: <input>:1:14: expected type 'int' but found 'string'",
        ),
        (
            "[1, dyn(2)].size() > 0",
            "ERROR: <input>:1:8: expected type 'int' but found 'dyn'",
        ),
        (
            "{'a': 1, 'b': 'x'}.size() > 0",
            "ERROR: <input>:1:15: expected type 'int' but found 'string'",
        ),
        (
            "{'a': 1, 2: 1}.size() > 0",
            "ERROR: <input>:1:10: expected type 'string' but found 'int'",
        ),
    ] {
        assert_eq!(
            first_line(check(rule, false)).as_deref(),
            Some(format!("compilation failed: {want}").as_str()),
            "{rule}"
        );
    }
    assert_eq!(check("'%s %d'.format(['a', 1]) != ''", false), None);
    assert_eq!(
        check("[[1], [2, 3]].size() > 0 && [1, 2].size() > 0", false),
        None
    );
    assert_eq!(
        check("self.spec.replicas", false).as_deref(),
        Some("cel expression must evaluate to a bool")
    );
    assert_eq!(
        check("self.spec.port", false).as_deref(),
        Some("cel expression must evaluate to a bool")
    );
    let s = schema();
    let e = parse("self.spec.replicas").unwrap();
    assert_eq!(
        rule_error("self.spec.replicas", &e, &s, true, false, true).as_deref(),
        Some("messageExpression must evaluate to a string")
    );
    // An error does not cascade: one per mistake, in order of place.
    let detail = check("self.spec.nope > 0 && self.spec.nada", false).unwrap();
    assert_eq!(detail.matches("ERROR:").count(), 2, "{detail}");
}

/// Rules as published CRDs write them (Gateway API, Cluster API, the Kubernetes docs) pass.
#[test]
fn published_rules_type_check() {
    let filter = json!({"type": "object", "properties": {
        "type": {"type": "string"},
        "requestHeaderModifier": {"type": "object", "properties": {"set": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}}}}}},
        "urlRewrite": {"type": "object"}}});
    let s = Schema::parse(&json!({"type": "object", "properties": {
        "filters": {"type": "array", "items": filter},
        "listeners": {"type": "array", "items": {"type": "object", "properties": {
            "name": {"type": "string"}, "protocol": {"type": "string"}, "port": {"type": "integer"},
            "tls": {"type": "object"}}}},
        "addresses": {"type": "array", "items": {"type": "object", "properties": {
            "type": {"type": "string"}, "value": {"type": "string"}}}},
        "path": {"type": "object", "properties": {"type": {"type": "string"}, "value": {"type": "string"}}},
        "timeouts": {"type": "object", "properties": {"request": {"type": "string"}, "backendRequest": {"type": "string"}}},
        "conditions": {"type": "array", "items": {"type": "object", "properties": {
            "type": {"type": "string"}, "status": {"type": "string"}}}},
        "resources": {"type": "object", "properties": {
            "requests": {"type": "object", "additionalProperties": {"x-kubernetes-int-or-string": true}},
            "limits": {"type": "object", "additionalProperties": {"x-kubernetes-int-or-string": true}}}},
        "image": {"type": "string"},
        "minReplicas": {"type": "integer"}, "replicas": {"type": "integer"},
        "labels": {"type": "object", "additionalProperties": {"type": "string"}}
    }}));
    for rule in [
        "self.filters.all(f, (f.type == 'RequestHeaderModifier' && has(f.requestHeaderModifier)) || (f.type != 'RequestHeaderModifier' && !has(f.requestHeaderModifier)))",
        "!(self.filters.exists(f, f.type == 'RequestRedirect') && self.filters.exists(f, f.type == 'URLRewrite'))",
        "self.filters.filter(f, f.type == 'RequestHeaderModifier').size() <= 1",
        "self.listeners.all(l1, self.listeners.exists_one(l2, l1.name == l2.name))",
        "self.listeners.all(l, l.protocol in ['HTTP', 'TCP', 'UDP'] ? !has(l.tls) : true)",
        "self.listeners.all(l, l.port >= 1 && l.port <= 65535)",
        "self.addresses.all(a, a.type == 'IPAddress' ? isIP(a.value) : true)",
        "(has(self.path) && has(self.path.type) && self.path.type == 'PathPrefix') ? self.path.value.startsWith('/') : true",
        "!has(self.timeouts.request) || !has(self.timeouts.backendRequest) || duration(self.timeouts.request) == duration('0s') || duration(self.timeouts.backendRequest) <= duration(self.timeouts.request)",
        "'Ready' in self.conditions.map(c, c.type) && self.conditions.exists(c, c.type == 'Ready' && c.status == 'True')",
        "quantity(self.resources.requests['cpu']).compareTo(quantity(self.resources.limits['cpu'])) <= 0",
        "self.image.startsWith('sha256:') ? size(self.image) == 71 : int(self.image.split(':')[1].size()) > 0",
        "self.minReplicas <= self.replicas && self.metadata.name.size() <= 63",
        "self.labels.all(k, k.matches('^[a-z.]+$')) && !('forbidden' in self.labels)",
        "self == oldSelf || self.replicas >= oldSelf.replicas",
        "self.filters.map(f, f.type).exists(t, t.lowerAscii() == 'x') || true",
    ] {
        let e = parse(rule).unwrap();
        assert_eq!(rule_error(rule, &e, &s, true, false, false), None, "{rule}");
    }
}

/// ext/strings' format validator: literal templates with list literals are checked at
/// compile time, each error at the argument that does not suit, else at the call.
#[test]
fn format_calls_are_checked_when_compiled() {
    let cases: &[(&str, &str)] = &[
        (
            "'%d'.format([self.spec.name]) == ''",
            "compilation failed: ERROR: <input>:1:23: error during formatting: decimal clause can only be used on integers, was given string",
        ),
        (
            "'%s and %s'.format(['a']) == ''",
            "compilation failed: ERROR: <input>:1:19: index 1 out of range",
        ),
        (
            "'%s'.format(['a', 'b']) == ''",
            "compilation failed: ERROR: <input>:1:12: too many arguments supplied to string.format (expected 1, got 2)",
        ),
        (
            "'%q'.format([1]) == ''",
            "compilation failed: ERROR: <input>:1:12: could not parse formatting clause: unrecognized formatting clause \"q\"",
        ),
        (
            "'%.2f'.format([1]) == ''",
            "compilation failed: ERROR: <input>:1:16: error during formatting: fixed-point clause can only be used on doubles, was given int",
        ),
        (
            "'%s'.format([[1, self.spec.pod]]) == ''",
            "compilation failed: ERROR: <input>:1:27: error during formatting: string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given selfType0.spec.pod",
        ),
        (
            "'%x'.format([self.spec.when]) == ''",
            "compilation failed: ERROR: <input>:1:23: error during formatting: only integers, byte buffers, and strings can be formatted as hex, was given google.protobuf.Timestamp",
        ),
    ];
    for (rule, want) in cases {
        assert_eq!(
            first_line(check(rule, false)).as_deref(),
            Some(*want),
            "{rule}"
        );
    }
    for fine in [
        "'%d %s %f %e %b %o %x %X %%'.format([1, 'a', 1.5, 2.0, true, 8u, 'hi', b'x']) != ''",
        "'%s'.format([self.spec.port]) != '' && '%d'.format([self.spec.port]) != ''",
        "'%s %s'.format([[1, 'a'], {'k': [self.spec.ttl]}]) != ''",
        "self.spec.name.format([1, 2]) != ''",
        "'%s'.format(self.spec.tags) != ''",
    ] {
        assert_eq!(check(fine, false), None, "{fine}");
    }
}
