//! JSONSchemaProps' canonical form (the HTTP-level tests are in tests/it/crds.rs).

use serde_json::Value;

/// JSONSchemaProps reads back in Go's field order; the custom-marshalled fields keep their
/// form (`additionalProperties: true`, a schema), `items: []` is null, floats are Go's.
#[test]
fn schema_props_are_canonical_go_values() {
    use crate::codec::decode::decode_bytes;
    let body = br#"{"properties":{"a":{"type":"array","items":{"type":"string","description":"d"}},"b":{"additionalProperties":true,"type":"object"},"c":{"items":[],"maximum":2.50,"minimum":3.0,"type":"number"}},"x-kubernetes-preserve-unknown-fields":true,"type":"object","id":""}"#;
    let got = decode_bytes(body, &super::schema::PROPS).unwrap();
    assert_eq!(
        crate::codec::json::to_compact_string(&Value::Object(got.object)),
        r#"{"type":"object","properties":{"a":{"type":"array","items":{"description":"d","type":"string"}},"b":{"type":"object","additionalProperties":true},"c":{"type":"number","maximum":2.5,"minimum":3,"items":null}},"x-kubernetes-preserve-unknown-fields":true}"#
    );
    let err =
        decode_bytes(br#"{"additionalProperties":"yes"}"#, &super::schema::PROPS).unwrap_err();
    assert_eq!(err.to_string(), "boolean or JSON schema expected");
}

/// An update that leaves a version's schema as it was does not hold its rules to their own
/// cost limit again (`suppressPerExpressionCost`); a create does.
#[test]
fn an_unchanged_schema_is_not_held_to_the_per_rule_cost_limit_again() {
    let crd = serde_json::json!({
        "metadata": {"name": "things.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced",
            "names": {"plural": "things", "singular": "thing", "kind": "Thing", "listKind": "ThingList"},
            "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {
                "type": "object", "properties": {"spec": {"type": "object", "properties": {"l": {
                    "type": "array", "items": {"type": "string", "maxLength": 10},
                    "x-kubernetes-validations": [{"rule": "self.all(x, x.matches('^[a-z]+$'))"}]
                }}}}}}}]},
        "status": {"storedVersions": ["v1"]}
    });
    let crd = crd.as_object().unwrap();
    let costly = |errs: &[crate::resources::field::FieldError]| {
        errs.iter()
            .any(|e| e.detail.starts_with("estimated rule cost exceeds budget"))
    };
    assert!(costly(&super::validation::validate_create(crd)));
    assert!(!costly(&super::validation::validate_update(crd, crd)));
}
