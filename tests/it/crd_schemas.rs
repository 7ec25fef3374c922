//! The schema rules of a CustomResourceDefinition beyond the basic structural ones, each
//! row one mistake and the real 422 text: list and map types and their keys, value
//! validations nested in `anyOf` and friends (and the root's completeness), patterns Go
//! cannot compile, defaults that do not fit their schema, where defaults and embedded
//! resources may not be, the rules' fields, `oldSelf` where nothing correlates, the root
//! with the status subresource, and keywords no structural schema can hold.

use serde_json::{json, Value};

use crate::common::{engine, post};

const CRDS: &str = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const ROOT: &str = "spec.validation.openAPIV3Schema";

/// A definition whose only version has `schema` and, with `status`, the status subresource.
fn definition(schema: Value, status: bool) -> Value {
    let mut version = json!({"name": "v1", "served": true, "storage": true,
        "schema": {"openAPIV3Schema": schema}});
    if status {
        version["subresources"] = json!({"status": {}});
    }
    json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "things.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced",
            "names": {"plural": "things", "kind": "Thing"}, "versions": [version]}
    })
}

/// A root object schema with one property `x`.
fn with_x(x: Value) -> Value {
    json!({"type": "object", "properties": {"x": x}})
}

fn message(schema: Value, status: bool) -> (u16, String) {
    let mut e = engine();
    let r = post(&mut e, CRDS, &definition(schema, status));
    (r.code, r.json["message"].as_str().unwrap_or("").to_string())
}

fn want(errs: &[String]) -> String {
    let joined = errs.join(", ");
    let body = if errs.len() > 1 {
        format!("[{joined}]")
    } else {
        joined
    };
    format!(
        "CustomResourceDefinition.apiextensions.k8s.io \"things.example.com\" is invalid: {body}"
    )
}

#[test]
fn schema_mistakes_get_the_real_messages() {
    let x = format!("{ROOT}.properties[x]");
    let keyed = |keys: Value, item: Value| {
        with_x(json!({"type": "array", "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": keys, "items": item}))
    };
    let named_item = json!({"type": "object", "properties": {"name": {"type": "string"}}});
    let cases: Vec<(&str, Value, Vec<String>)> = vec![
        (
            "a map list without keys",
            with_x(json!({"type": "array", "x-kubernetes-list-type": "map", "items": named_item})),
            vec![format!("{x}.x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map")],
        ),
        (
            "a key neither required nor defaulted",
            keyed(json!(["name"]), named_item.clone()),
            vec![format!("{x}.items.properties[name].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property")],
        ),
        (
            "a key that is no item property",
            keyed(json!(["port"]), named_item.clone()),
            vec![format!("{x}.x-kubernetes-list-map-keys: Invalid value: [\"port\"]: entries must all be names of item properties")],
        ),
        (
            "a list type on a string",
            with_x(json!({"type": "string", "x-kubernetes-list-type": "set"})),
            vec![format!("{x}.type: Invalid value: \"string\": must be array if x-kubernetes-list-type is specified")],
        ),
        (
            "a set of granular objects",
            with_x(json!({"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "object"}})),
            vec![format!("{x}.items.x-kubernetes-map-type: Invalid value: null: must be atomic as item of a list with x-kubernetes-list-type=set")],
        ),
        (
            "an unknown map type",
            with_x(json!({"type": "object", "x-kubernetes-map-type": "weird"})),
            vec![format!("{x}.x-kubernetes-map-type: Unsupported value: \"weird\": supported values: \"atomic\", \"granular\"")],
        ),
        (
            "a type inside anyOf",
            with_x(json!({"type": "string", "anyOf": [{"type": "string", "description": "d"}]})),
            vec![
                format!("{x}.anyOf[0].description: Forbidden: must be empty to be structural"),
                format!("{x}.anyOf[0].type: Forbidden: must be empty to be structural"),
            ],
        ),
        (
            "a property only a clause names",
            json!({"type": "object", "properties": {"spec": {"type": "object"}},
                "anyOf": [{"properties": {"foo": {}}}]}),
            vec![format!("{ROOT}.properties[foo]: Required value: because it is defined in {ROOT}.anyOf[0].properties[foo]")],
        ),
        (
            "a pattern Go cannot compile",
            with_x(json!({"type": "string", "pattern": "[a-z"})),
            vec![format!("{x}.pattern: Invalid value: \"[a-z\": must be a valid regular expression, but isn't: error parsing regexp: missing closing ]: `[a-z`")],
        ),
        (
            "a default below the minimum",
            with_x(json!({"type": "integer", "minimum": 1, "default": 0})),
            vec![format!("{x}.default: Invalid value: 0:  in body should be greater than or equal to 1")],
        ),
        (
            "a default with an unknown field",
            with_x(json!({"type": "object", "properties": {"a": {"type": "string"}}, "default": {"b": 1}})),
            vec![format!("{x}.default: Invalid value: {{\"b\":1}}: must not have unknown fields")],
        ),
        (
            "a default in top-level metadata",
            json!({"type": "object", "properties": {"metadata": {"type": "object", "default": {}}}}),
            vec![format!("{ROOT}.properties[metadata].default: Forbidden: must not be set in top-level metadata")],
        ),
        (
            "an unsupported rule reason",
            with_x(json!({"type": "string", "x-kubernetes-validations": [{"rule": "self.size() > 0", "reason": "Bogus"}]})),
            vec![format!("{x}.x-kubernetes-validations[0].reason: Unsupported value: \"Bogus\": supported values: \"FieldValueDuplicate\", \"FieldValueForbidden\", \"FieldValueInvalid\", \"FieldValueRequired\"")],
        ),
        (
            "a message on two lines",
            with_x(json!({"type": "string", "x-kubernetes-validations": [{"rule": "true", "message": "a\nb"}]})),
            vec![format!("{x}.x-kubernetes-validations[0].message: Invalid value: \"a\\nb\": must not contain line breaks")],
        ),
        (
            "a fieldPath naming nothing",
            with_x(json!({"type": "object", "properties": {"a": {"type": "string"}},
                "x-kubernetes-validations": [{"rule": "true", "fieldPath": ".b"}]})),
            vec![format!("{x}.x-kubernetes-validations[0].fieldPath: Invalid value: \".b\": must be a valid path")],
        ),
        (
            "oldSelf on a set's items",
            with_x(json!({"type": "array", "x-kubernetes-list-type": "set", "maxItems": 10,
                "items": {"type": "string", "maxLength": 10, "x-kubernetes-validations": [{"rule": "self == oldSelf"}]}})),
            vec![format!("{x}.items.x-kubernetes-validations[0].rule: Invalid value: \"self == oldSelf\": oldSelf cannot be used on the uncorrelatable portion of the schema within {x}")],
        ),
        (
            "int-or-string preserving unknown fields",
            with_x(json!({"x-kubernetes-int-or-string": true, "x-kubernetes-preserve-unknown-fields": true})),
            vec![format!("{x}.x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true")],
        ),
        (
            "an embedded resource without properties",
            with_x(json!({"type": "object", "x-kubernetes-embedded-resource": true})),
            vec![format!("{x}.properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields")],
        ),
        (
            "a $schema",
            json!({"type": "object", "$schema": "http://json-schema.org/draft-04/schema#"}),
            vec![format!("{ROOT}: Invalid value: \"\": OpenAPIV3Schema 'schema' is not supported")],
        ),
    ];
    for (what, schema, errs) in cases {
        let (code, got) = message(schema, false);
        assert_eq!((code, got), (422, want(&errs)), "{what}");
    }
}

#[test]
fn schemas_the_rules_allow() {
    for (what, schema) in [
        (
            "int-or-string in its OpenAPI form",
            with_x(json!({"x-kubernetes-int-or-string": true,
                "anyOf": [{"type": "integer"}, {"type": "string"}]})),
        ),
        (
            "a map list keyed by a required and a defaulted field",
            with_x(json!({"type": "array", "x-kubernetes-list-type": "map",
                "x-kubernetes-list-map-keys": ["port", "protocol"],
                "items": {"type": "object", "required": ["port"], "properties": {
                    "port": {"type": "integer"}, "protocol": {"type": "string", "default": "TCP"}}}})),
        ),
        (
            "a set of atomic objects, a valid pattern and default",
            with_x(json!({"type": "object", "properties": {
                "s": {"type": "array", "x-kubernetes-list-type": "set",
                    "items": {"type": "object", "x-kubernetes-map-type": "atomic"}},
                "p": {"type": "string", "pattern": "^[a-z]+(-[a-z]+)*$", "default": "a-b"}}})),
        ),
        (
            "oldSelf under an atomic object",
            with_x(json!({"type": "object", "x-kubernetes-map-type": "atomic",
                "properties": {"k": {"type": "string", "maxLength": 10,
                    "x-kubernetes-validations": [{"rule": "self == oldSelf"}]}}})),
        ),
        (
            "oldSelf on a map list's items",
            with_x(
                json!({"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"],
                "items": {"type": "object", "required": ["k"], "properties": {"k": {"type": "string"}},
                    "x-kubernetes-validations": [{"rule": "self == oldSelf"}]}}),
            ),
        ),
    ] {
        let (code, got) = message(schema, false);
        assert_eq!(code, 201, "{what}: {got}");
    }
}

/// With the status subresource the root holds only what survives status being split off: an
/// object's type and the fields the real server lists; the first other field is named, with
/// the schema as the internal type renders.
#[test]
fn with_the_status_subresource_the_root_is_restricted() {
    let (code, got) = message(json!({"type": "object", "maxProperties": 3}), true);
    assert_eq!(code, 422, "{got}");
    let tail = "only [Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations] fields are allowed at the root of the schema if the status subresource is enabled";
    assert!(got.ends_with(tail), "{got}");
    assert!(
        got.contains(&format!("{ROOT}: Invalid value: {{\"ID\":\"\",\"Schema\":\"\",\"Ref\":null,\"Description\":\"\",\"Type\":\"object\",")),
        "{got}"
    );
    assert!(got.contains("\"MaxProperties\":3,"), "{got}");
    let (code, got) = message(json!({"type": "object", "maxProperties": 3}), false);
    assert_eq!(code, 201, "{got}");
}
