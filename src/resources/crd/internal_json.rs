//! A schema as the internal `apiextensions.JSONSchemaProps` renders in a field error's bad
//! value: `json.Marshal` of a struct without JSON tags, so every field under its Go name, in
//! declaration order, unset ones as their zero values.

use serde_json::{json, Map, Value};

/// How one internal field renders.
#[derive(Clone, Copy)]
enum Kind {
    Str,
    Bool,
    /// A pointer or a JSON value: `null` when unset.
    Nullable,
    /// `[]JSONSchemaProps`.
    Schemas,
    /// `*JSONSchemaProps`.
    Schema,
    /// `map[string]JSONSchemaProps`.
    SchemaMap,
    /// `*JSONSchemaPropsOrArray`.
    OrArray,
    /// `*JSONSchemaPropsOrBool`.
    OrBool,
    /// `map[string]JSONSchemaPropsOrStringArray`.
    Dependencies,
    /// `*ExternalDocumentation`.
    Docs,
    /// `ValidationRules`.
    Rules,
}

/// The internal fields: Go name, JSON name, kind.
const FIELDS: &[(&str, &str, Kind)] = &[
    ("ID", "id", Kind::Str),
    ("Schema", "$schema", Kind::Str),
    ("Ref", "$ref", Kind::Nullable),
    ("Description", "description", Kind::Str),
    ("Type", "type", Kind::Str),
    ("Nullable", "nullable", Kind::Bool),
    ("Format", "format", Kind::Str),
    ("Title", "title", Kind::Str),
    ("Default", "default", Kind::Nullable),
    ("Maximum", "maximum", Kind::Nullable),
    ("ExclusiveMaximum", "exclusiveMaximum", Kind::Bool),
    ("Minimum", "minimum", Kind::Nullable),
    ("ExclusiveMinimum", "exclusiveMinimum", Kind::Bool),
    ("MaxLength", "maxLength", Kind::Nullable),
    ("MinLength", "minLength", Kind::Nullable),
    ("Pattern", "pattern", Kind::Str),
    ("MaxItems", "maxItems", Kind::Nullable),
    ("MinItems", "minItems", Kind::Nullable),
    ("UniqueItems", "uniqueItems", Kind::Bool),
    ("MultipleOf", "multipleOf", Kind::Nullable),
    ("Enum", "enum", Kind::Nullable),
    ("MaxProperties", "maxProperties", Kind::Nullable),
    ("MinProperties", "minProperties", Kind::Nullable),
    ("Required", "required", Kind::Nullable),
    ("Items", "items", Kind::OrArray),
    ("AllOf", "allOf", Kind::Schemas),
    ("OneOf", "oneOf", Kind::Schemas),
    ("AnyOf", "anyOf", Kind::Schemas),
    ("Not", "not", Kind::Schema),
    ("Properties", "properties", Kind::SchemaMap),
    ("AdditionalProperties", "additionalProperties", Kind::OrBool),
    ("PatternProperties", "patternProperties", Kind::SchemaMap),
    ("Dependencies", "dependencies", Kind::Dependencies),
    ("AdditionalItems", "additionalItems", Kind::OrBool),
    ("Definitions", "definitions", Kind::SchemaMap),
    ("ExternalDocs", "externalDocs", Kind::Docs),
    ("Example", "example", Kind::Nullable),
    (
        "XPreserveUnknownFields",
        "x-kubernetes-preserve-unknown-fields",
        Kind::Nullable,
    ),
    (
        "XEmbeddedResource",
        "x-kubernetes-embedded-resource",
        Kind::Bool,
    ),
    ("XIntOrString", "x-kubernetes-int-or-string", Kind::Bool),
    ("XListMapKeys", "x-kubernetes-list-map-keys", Kind::Nullable),
    ("XListType", "x-kubernetes-list-type", Kind::Nullable),
    ("XMapType", "x-kubernetes-map-type", Kind::Nullable),
    ("XValidations", "x-kubernetes-validations", Kind::Rules),
];

/// `v` (a v1 JSONSchemaProps, as the definition holds it) as the internal type renders.
pub(super) fn schema_props(v: &Value) -> Value {
    let Some(m) = v.as_object() else {
        return schema_props(&json!({}));
    };
    let mut out = Map::new();
    for (go, key, kind) in FIELDS {
        let x = m.get(*key).filter(|x| !x.is_null());
        out.insert((*go).to_string(), render(*kind, x));
    }
    Value::Object(out)
}

fn render(kind: Kind, x: Option<&Value>) -> Value {
    match kind {
        Kind::Str => x.cloned().unwrap_or(json!("")),
        Kind::Bool => x.cloned().unwrap_or(json!(false)),
        Kind::Nullable => x.cloned().unwrap_or(Value::Null),
        Kind::Schemas => match x.and_then(Value::as_array) {
            Some(a) => Value::Array(a.iter().map(schema_props).collect()),
            None => Value::Null,
        },
        Kind::Schema => x.map_or(Value::Null, schema_props),
        Kind::SchemaMap => match x.and_then(Value::as_object) {
            Some(p) => {
                let mut out: Vec<(&String, Value)> =
                    p.iter().map(|(k, s)| (k, schema_props(s))).collect();
                crate::sort::sort_by(&mut out, |a, b| a.0.cmp(b.0));
                Value::Object(out.into_iter().map(|(k, s)| (k.clone(), s)).collect())
            }
            None => Value::Null,
        },
        Kind::OrArray => match x {
            None => Value::Null,
            Some(Value::Array(a)) => json!({
                "Schema": null,
                "JSONSchemas": a.iter().map(schema_props).collect::<Vec<_>>(),
            }),
            Some(s) => json!({"Schema": schema_props(s), "JSONSchemas": null}),
        },
        Kind::OrBool => match x {
            None => Value::Null,
            Some(Value::Bool(b)) => json!({"Allows": b, "Schema": null}),
            Some(s) => json!({"Allows": true, "Schema": schema_props(s)}),
        },
        Kind::Dependencies => match x.and_then(Value::as_object) {
            Some(d) => Value::Object(
                d.iter()
                    .map(|(k, v)| {
                        let r = match v {
                            Value::Array(p) => json!({"Schema": null, "Property": p}),
                            s => json!({"Schema": schema_props(s), "Property": null}),
                        };
                        (k.clone(), r)
                    })
                    .collect(),
            ),
            None => Value::Null,
        },
        Kind::Docs => match x {
            Some(d) => json!({
                "Description": d.get("description").cloned().unwrap_or(json!("")),
                "URL": d.get("url").cloned().unwrap_or(json!("")),
            }),
            None => Value::Null,
        },
        Kind::Rules => match x.and_then(Value::as_array) {
            Some(rules) => Value::Array(
                rules
                    .iter()
                    .map(|r| {
                        let s = |k: &str| r.get(k).cloned().unwrap_or(json!(""));
                        let n = |k: &str| r.get(k).cloned().unwrap_or(Value::Null);
                        json!({
                            "Rule": s("rule"),
                            "Message": s("message"),
                            "MessageExpression": s("messageExpression"),
                            "Reason": n("reason"),
                            "FieldPath": s("fieldPath"),
                            "OptionalOldSelf": n("optionalOldSelf"),
                        })
                    })
                    .collect(),
            ),
            None => Value::Null,
        },
    }
}

/// The Go names of the internal fields `m` sets (not their zero value), in declaration
/// order.
pub(super) fn set_fields(m: &Map<String, Value>) -> impl Iterator<Item = (&'static str, &Value)> {
    FIELDS.iter().filter_map(move |(go, key, kind)| {
        let x = m.get(*key).filter(|x| !x.is_null())?;
        let zero = match kind {
            Kind::Str => x == &json!(""),
            Kind::Bool => x == &json!(false),
            _ => false,
        };
        (!zero).then_some((*go, x))
    })
}

/// `items` as the internal `*JSONSchemaPropsOrArray` renders.
pub(super) fn items_props(v: &Value) -> Value {
    render(Kind::OrArray, Some(v))
}
