//! A custom resource's structural schema (`pkg/apiserver/schema.Structural`): the parts of a
//! version's `openAPIV3Schema` that pruning, defaulting, validation, printing and server-side
//! apply read, parsed once when the version starts being served.
//!
//! The definition was validated when it was written (`crd::schema_checks`), so parsing here
//! never fails: what it does not recognise it ignores, as the real `NewStructural` does for a
//! schema it has already accepted.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

/// One node of a structural schema.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Schema {
    /// `type`: `object`, `array`, `string`, `integer`, `number`, `boolean`, or empty (only
    /// with `x-kubernetes-int-or-string` or `x-kubernetes-preserve-unknown-fields`).
    pub ty: String,
    pub format: String,
    pub description: String,
    pub nullable: bool,
    /// `properties`, by name.
    pub properties: BTreeMap<String, Schema>,
    /// `additionalProperties` as a schema (`true` is a schema that keeps everything).
    pub additional: Option<Box<Schema>>,
    pub items: Option<Box<Schema>>,
    pub preserve_unknown: bool,
    pub int_or_string: bool,
    pub embedded: bool,
    /// `x-kubernetes-list-type`: `atomic`, `set`, `map`, or empty.
    pub list_type: String,
    pub list_map_keys: Vec<String>,
    /// `x-kubernetes-map-type`: `atomic`, `granular`, or empty.
    pub map_type: String,
    pub default: Option<Value>,
    /// No schema at all: `additionalProperties: true` (Go's nil `Structural`), under which
    /// pruning drops every member of an object.
    pub absent: bool,
    /// The value validations (`ValueValidation`), this node's and its `allOf`/`anyOf`/
    /// `oneOf`/`not` branches'.
    pub checks: Checks,
    /// `x-kubernetes-validations`, parsed.
    pub rules: Vec<Rule>,
}

/// One `x-kubernetes-validations` rule.
#[derive(Debug, Clone, PartialEq)]
pub struct Rule {
    pub rule: String,
    /// The parsed rule, or the parser's error.
    pub expr: Result<super::cel::Expr, String>,
    pub message: String,
    pub message_expression: Option<Result<super::cel::Expr, String>>,
    /// `FieldValueInvalid` (the default), `FieldValueForbidden`, `FieldValueRequired`,
    /// `FieldValueDuplicate`.
    pub reason: String,
    pub field_path: String,
    /// Whether the rule reads `oldSelf` (a transition rule, checked only on updates).
    pub uses_old_self: bool,
    /// `optionalOldSelf: true`: the rule also runs where there is no old value, `oldSelf`
    /// an optional.
    pub optional_old_self: bool,
    /// The rule as written, for the errors that print it.
    pub raw: Value,
}

impl Rule {
    fn parse(v: &Value) -> Rule {
        let s = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
        let rule = s("rule");
        let expr = super::cel::parse(&rule);
        let uses_old_self = expr
            .as_ref()
            .is_ok_and(|e| super::cel::mentions(e, "oldSelf"));
        let message_expression = v
            .get("messageExpression")
            .and_then(Value::as_str)
            .filter(|m| !m.is_empty())
            .map(super::cel::parse);
        Rule {
            rule,
            expr,
            message: s("message"),
            message_expression,
            reason: s("reason"),
            field_path: s("fieldPath"),
            uses_old_self,
            optional_old_self: v.get("optionalOldSelf") == Some(&Value::Bool(true)),
            raw: v.clone(),
        }
    }
}

/// A `pattern`, compiled once (Go's RE2 syntax, as the `regex-lite` crate reads it; one it
/// cannot read matches everything).
#[derive(Debug, Clone)]
pub struct Pattern {
    pub text: String,
    re: Option<regex_lite::Regex>,
}

impl Pattern {
    fn new(text: &str) -> Pattern {
        Pattern {
            text: text.to_string(),
            re: regex_lite::Regex::new(text).ok(),
        }
    }

    /// Whether `s` matches (anywhere, as Go's `MatchString`).
    pub fn matches(&self, s: &str) -> bool {
        self.re.as_ref().is_none_or(|re| re.is_match(s))
    }
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

/// Value validations of one node.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Checks {
    pub enumeration: Option<Vec<Value>>,
    pub pattern: Option<Pattern>,
    pub maximum: Option<f64>,
    pub exclusive_maximum: bool,
    pub minimum: Option<f64>,
    pub exclusive_minimum: bool,
    pub multiple_of: Option<f64>,
    pub max_length: Option<i64>,
    pub min_length: Option<i64>,
    pub max_items: Option<i64>,
    pub min_items: Option<i64>,
    pub unique_items: bool,
    pub max_properties: Option<i64>,
    pub min_properties: Option<i64>,
    pub required: Vec<String>,
    pub all_of: Vec<Schema>,
    pub any_of: Vec<Schema>,
    pub one_of: Vec<Schema>,
    pub not: Option<Box<Schema>>,
}

impl Schema {
    /// Parses a JSONSchemaProps object (canonical, as the definition stores it).
    pub fn parse(v: &Value) -> Schema {
        let Some(m) = v.as_object() else {
            return Schema::default();
        };
        let s = |k: &str| m.get(k).and_then(Value::as_str).unwrap_or("").to_string();
        let b = |k: &str| m.get(k).and_then(Value::as_bool).unwrap_or(false);
        let properties = m
            .get("properties")
            .and_then(Value::as_object)
            .map(|p| crate::sort::btree_map(p.iter().map(|(k, v)| (k.clone(), Schema::parse(v)))))
            .unwrap_or_default();
        let additional = match m.get("additionalProperties") {
            Some(Value::Object(a)) => Some(Box::new(Schema::parse(&Value::Object(a.clone())))),
            Some(Value::Bool(true)) => Some(Box::new(Schema {
                absent: true,
                ..Schema::default()
            })),
            _ => None,
        };
        let items = match m.get("items") {
            Some(Value::Object(i)) => Some(Box::new(Schema::parse(&Value::Object(i.clone())))),
            // The array form is not structural; its first schema stands for every item.
            Some(Value::Array(a)) => a.first().map(|i| Box::new(Schema::parse(i))),
            _ => None,
        };
        Schema {
            ty: s("type"),
            format: s("format"),
            description: s("description"),
            nullable: b("nullable"),
            properties,
            additional,
            items,
            preserve_unknown: b("x-kubernetes-preserve-unknown-fields"),
            int_or_string: b("x-kubernetes-int-or-string"),
            embedded: b("x-kubernetes-embedded-resource"),
            list_type: s("x-kubernetes-list-type"),
            list_map_keys: crate::resources::meta::strings(m.get("x-kubernetes-list-map-keys")),
            map_type: s("x-kubernetes-map-type"),
            default: m.get("default").cloned(),
            absent: false,
            checks: Checks::parse(m),
            rules: m
                .get("x-kubernetes-validations")
                .and_then(Value::as_array)
                .map(|rs| rs.iter().map(Rule::parse).collect())
                .unwrap_or_default(),
        }
    }

    /// The schema of member `key` of an object this node describes: a property, or
    /// `additionalProperties`; `None` when the member is unknown here.
    pub fn member(&self, key: &str) -> Option<&Schema> {
        self.properties.get(key).or(self.additional.as_deref())
    }

    /// The old item an array item `x` of this list is compared with on an update
    /// (`CorrelatedObject.Index`): only a map list correlates, by its keys; an atomic or set
    /// list's items have no old counterpart, so they are checked as new.
    pub fn correlated_item<'a>(&self, old: Option<&'a Value>, x: &Value) -> Option<&'a Value> {
        if self.list_type != "map" {
            return None;
        }
        old.and_then(Value::as_array)?
            .iter()
            .find(|o| self.list_map_keys.iter().all(|k| o.get(k) == x.get(k)))
    }

    /// Whether this node or any below it has `x-kubernetes-validations`.
    pub fn has_rules(&self) -> bool {
        !self.rules.is_empty()
            || self.properties.values().any(Schema::has_rules)
            || self.additional.as_deref().is_some_and(Schema::has_rules)
            || self.items.as_deref().is_some_and(Schema::has_rules)
    }
}

impl Checks {
    fn parse(m: &Map<String, Value>) -> Checks {
        let f = |k: &str| m.get(k).and_then(Value::as_f64);
        let i = |k: &str| m.get(k).and_then(Value::as_i64);
        let b = |k: &str| m.get(k).and_then(Value::as_bool).unwrap_or(false);
        let list = |k: &str| -> Vec<Schema> {
            m.get(k)
                .and_then(Value::as_array)
                .map(|a| a.iter().map(Schema::parse).collect())
                .unwrap_or_default()
        };
        Checks {
            enumeration: m.get("enum").and_then(Value::as_array).cloned(),
            pattern: m.get("pattern").and_then(Value::as_str).map(Pattern::new),
            maximum: f("maximum"),
            exclusive_maximum: b("exclusiveMaximum"),
            minimum: f("minimum"),
            exclusive_minimum: b("exclusiveMinimum"),
            multiple_of: f("multipleOf"),
            max_length: i("maxLength"),
            min_length: i("minLength"),
            max_items: i("maxItems"),
            min_items: i("minItems"),
            unique_items: b("uniqueItems"),
            max_properties: i("maxProperties"),
            min_properties: i("minProperties"),
            required: crate::resources::meta::strings(m.get("required")),
            all_of: list("allOf"),
            any_of: list("anyOf"),
            one_of: list("oneOf"),
            not: m.get("not").map(|n| Box::new(Schema::parse(n))),
        }
    }
}
