//! The checks of one CustomResourceDefinition schema (`validateCustomResourceDefinitionValidation`),
//! in the real order: the root's restrictions with the status subresource, then
//! `ValidateStructural` ([`structural_checks`], sorted by text) or, when that passes, the
//! defaults ([`default_checks`]); then `ValidateCustomResourceDefinitionOpenAPISchema`, whose
//! walk gives the schema errors of every node (the standard validator's forbidden keywords
//! and defaults, list and map types, the rules' fields) and, after all of them, the rules'
//! compilation errors, only where a node and what is under it have no schema error and the
//! schema is structural with valid defaults; then the rules' estimated costs
//! ([`super::rule_costs`]).
//!
//! [`structural_checks`]: super::structural_checks
//! [`default_checks`]: super::default_checks

use std::collections::HashSet;

use serde_json::{json, Map, Value};

use super::internal_json::{schema_props, set_fields};
use crate::resources::field::{FieldError, FieldPath};
use crate::resources::meta::{map_str, str_at};

/// How a schema is checked: whether the status subresource applies to it, and whether an
/// update leaves it unchanged (its rules' own cost limits are then not checked again).
#[derive(Clone, Copy, Default)]
pub(super) struct SchemaContext {
    pub status: bool,
    pub unchanged: bool,
}

/// A schema's errors.
pub(super) fn validate_schema(
    schema: &Value,
    path: &FieldPath,
    cx: SchemaContext,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if let Some(m) = schema.as_object() {
        if cx.status {
            errs.extend(status_root(m, path));
        }
        if m.get("nullable") == Some(&Value::Bool(true)) {
            errs.push(FieldError::forbidden(
                path.child("nullable").as_str(),
                "nullable cannot be true at the root",
            ));
        }
    }
    let init = init_error(schema);
    let mut compiles = false;
    if init.is_none() {
        let structural = super::structural_checks::validate_structural(schema, path);
        if !structural.is_empty() {
            errs.extend(structural);
        } else {
            let defaults = super::default_checks::validate_defaults(schema, path);
            compiles = defaults.is_empty();
            errs.extend(defaults);
        }
    }
    let mut walk = Walk {
        schema: Vec::new(),
        cel: Vec::new(),
        compiled: HashSet::new(),
    };
    walk.node(schema, path, &Ssv::default(), true, compiles);
    errs.extend(walk.schema);
    errs.extend(walk.cel);
    if let (true, Some(e)) = (errs.is_empty(), init) {
        errs.push(FieldError::invalid(path.as_str(), json!(""), &e));
    }
    // The rules of the nodes that compiled are type-checked and estimated (a node with a
    // schema error at or below it is not, and its rules count nothing towards the total);
    // without a structural schema, none are.
    if compiles {
        errs.extend(super::rule_costs::check(
            schema,
            path,
            cx.unchanged,
            &walk.compiled,
        ));
    }
    errs
}

/// The internal type's fields allowed at the root with the status subresource.
const ROOT_FIELDS: &[&str] = &[
    "Description",
    "Type",
    "Format",
    "Title",
    "Maximum",
    "ExclusiveMaximum",
    "Minimum",
    "ExclusiveMinimum",
    "MaxLength",
    "MinLength",
    "Pattern",
    "MaxItems",
    "MinItems",
    "UniqueItems",
    "MultipleOf",
    "Required",
    "Items",
    "Properties",
    "ExternalDocs",
    "Example",
    "XPreserveUnknownFields",
    "XValidations",
];

/// With the status subresource, only [`ROOT_FIELDS`] at the root, and an object: the first
/// set field (in the internal type's order) that breaks this is reported, nothing after it.
fn status_root(m: &Map<String, Value>, path: &FieldPath) -> Option<FieldError> {
    for (name, value) in set_fields(m) {
        if name == "Type" {
            let ty = value.as_str().unwrap_or("");
            if ty != "object" {
                return Some(FieldError::invalid(
                    path.child("type").as_str(),
                    json!(ty),
                    "only \"object\" is allowed as the type at the root of the schema if the status subresource is enabled",
                ));
            }
            continue;
        }
        if !ROOT_FIELDS.contains(&name) {
            return Some(FieldError::invalid(
                path.as_str(),
                schema_props(&Value::Object(m.clone())),
                &format!(
                    "only [{}] fields are allowed at the root of the schema if the status subresource is enabled",
                    ROOT_FIELDS.join(" ")
                ),
            ));
        }
    }
    None
}

/// The keywords JSON Schema has and structural schemas forbid, when set: `id` non-empty,
/// `$ref` and `additionalItems` present (pointers), the maps non-empty.
const UNSUPPORTED: &[&str] = &[
    "id",
    "additionalItems",
    "patternProperties",
    "definitions",
    "dependencies",
    "$ref",
];

fn keyword_set(m: &Map<String, Value>, key: &str) -> bool {
    match m.get(key) {
        None | Some(Value::Null) => false,
        Some(Value::String(x)) if key == "id" => !x.is_empty(),
        Some(Value::Object(x)) if key != "additionalItems" => !x.is_empty(),
        Some(_) => true,
    }
}

/// `NewStructural`'s error, when the schema cannot be a structural one: its first keyword
/// a structural schema cannot hold, in the order the conversion meets them.
fn init_error(s: &Value) -> Option<String> {
    let m = s.as_object()?;
    let text = |x: &str| map_str(m, x);
    let unsupported = |key: &str| format!("OpenAPIV3Schema '{key}' is not supported");
    if !text("id").is_empty() {
        return Some(unsupported("id"));
    }
    if !text("$schema").is_empty() {
        return Some(unsupported("schema"));
    }
    if !text("$ref").is_empty() {
        return Some(unsupported("$ref"));
    }
    for (json_key, go_key) in [
        ("patternProperties", "patternProperties"),
        ("dependencies", "dependencies"),
    ] {
        if m.get(json_key)
            .and_then(Value::as_object)
            .is_some_and(|x| !x.is_empty())
        {
            return Some(unsupported(go_key));
        }
    }
    if m.get("additionalItems").is_some_and(|x| !x.is_null()) {
        return Some(unsupported("additionalItems"));
    }
    if m.get("definitions")
        .and_then(Value::as_object)
        .is_some_and(|x| !x.is_empty())
    {
        return Some(unsupported("definitions"));
    }
    // The value validations' clauses, then the extensions, then items, properties,
    // additionalProperties.
    let clauses = m.get("not").into_iter().chain(
        ["allOf", "anyOf", "oneOf"]
            .into_iter()
            .flat_map(|k| m.get(k).and_then(Value::as_array).into_iter().flatten()),
    );
    for c in clauses {
        if let Some(e) = init_error(c) {
            return Some(e);
        }
    }
    if m.get("x-kubernetes-preserve-unknown-fields") == Some(&Value::Bool(false)) {
        return Some(
            "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined"
                .into(),
        );
    }
    match m.get("items") {
        Some(Value::Array(_)) => {
            return Some("OpenAPIV3Schema 'items' must be a schema, but is an array".into())
        }
        Some(items) => {
            if let Some(e) = init_error(items) {
                return Some(e);
            }
        }
        None => {}
    }
    let props = m.get("properties").and_then(Value::as_object);
    for p in props.into_iter().flat_map(|p| p.values()) {
        if let Some(e) = init_error(p) {
            return Some(e);
        }
    }
    m.get("additionalProperties")
        .filter(|a| a.is_object())
        .and_then(init_error)
}

/// The `specStandardValidator` of one node: where defaults are forbidden (and why), whether
/// it is inside a resource's metadata, and from where `oldSelf` cannot be correlated.
#[derive(Clone, Default)]
struct Ssv {
    no_defaults: Option<String>,
    inside_meta: bool,
    uncorrelatable: Option<String>,
}

impl Ssv {
    fn forbid_defaults(&self, reason: &str) -> Ssv {
        Ssv {
            no_defaults: Some(reason.to_string()),
            ..self.clone()
        }
    }

    fn forbid_old_self(&self, path: &FieldPath) -> Ssv {
        Ssv {
            uncorrelatable: self
                .uncorrelatable
                .clone()
                .or_else(|| Some(path.as_str().to_string())),
            ..self.clone()
        }
    }
}

const TYPES: &[&str] = &["array", "boolean", "integer", "number", "object", "string"];

/// The supported rule reasons, sorted.
const REASONS: &[&str] = &[
    "FieldValueDuplicate",
    "FieldValueForbidden",
    "FieldValueInvalid",
    "FieldValueRequired",
];

struct Walk {
    schema: Vec<FieldError>,
    cel: Vec<FieldError>,
    /// The paths of the nodes whose rules compiled: no schema error at or below them.
    compiled: HashSet<String>,
}

impl Walk {
    /// `ValidateCustomResourceDefinitionOpenAPISchema` of one node; `compiles`: whether its
    /// rules are compiled (a structural schema with valid defaults, not inside a clause).
    fn node(&mut self, s: &Value, path: &FieldPath, ssv: &Ssv, root: bool, compiles: bool) {
        let Some(m) = s.as_object() else { return };
        let before = self.schema.len();
        self.standard(m, path, ssv);
        let str_of = |k: &str| map_str(m, k);
        let ty = str_of("type");
        if m.get("uniqueItems") == Some(&Value::Bool(true)) {
            self.forbidden(
                path.child("uniqueItems"),
                "uniqueItems cannot be set to true since the runtime complexity becomes quadratic",
            );
        }
        let props = m.get("properties").and_then(Value::as_object);
        if let Some(add) = m.get("additionalProperties").filter(|a| !a.is_null()) {
            if props.is_some_and(|p| !p.is_empty()) && (add.is_object() || add == &json!(false)) {
                self.forbidden(
                    path.child("additionalProperties"),
                    "additionalProperties and properties are mutual exclusive",
                );
            }
            let sub = match ssv.inside_meta {
                true => {
                    ssv.forbid_defaults("inside additionalProperties applying to object metadata")
                }
                false => ssv.clone(),
            };
            if add.is_object() {
                self.node(
                    add,
                    &path.child("additionalProperties"),
                    &sub,
                    false,
                    compiles,
                );
            }
        }
        let embedded = m.get("x-kubernetes-embedded-resource") == Some(&Value::Bool(true));
        for (k, v) in props.into_iter().flatten() {
            let mut sub = ssv.clone();
            // `MapIsCorrelatable`: granular and atomic maps correlate; only a map type
            // apiextensions does not know (refused anyway) does not.
            if !matches!(str_of("x-kubernetes-map-type"), "" | "granular" | "atomic") {
                sub = sub.forbid_old_self(path);
            }
            if (root || embedded) && matches!(k.as_str(), "metadata" | "kind" | "apiVersion") {
                sub.inside_meta = true;
                if root {
                    sub = sub.forbid_defaults(&format!("in top-level {k}"));
                }
            }
            self.node(v, &path.child("properties").key(k), &sub, false, compiles);
        }
        if let Some(not) = m.get("not") {
            self.node(not, &path.child("not"), ssv, false, false);
        }
        for key in ["allOf", "oneOf", "anyOf"] {
            let clauses = m.get(key).and_then(Value::as_array).into_iter().flatten();
            for (i, x) in clauses.enumerate() {
                self.node(x, &path.child(key).index(i), ssv, false, false);
            }
        }
        for (k, x) in m
            .get("definitions")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            self.node(x, &path.child("definitions").key(k), ssv, false, false);
        }
        if let Some(items) = m.get("items").filter(|i| !i.is_null()) {
            let sub = match str_of("x-kubernetes-list-type") {
                "map" => ssv.clone(),
                _ => ssv.forbid_old_self(path),
            };
            match items {
                Value::Array(all) => {
                    for (i, x) in all.iter().enumerate() {
                        self.node(x, &path.child("items").index(i), &sub, false, compiles);
                    }
                }
                one => self.node(one, &path.child("items"), &sub, false, compiles),
            }
        }
        for (k, x) in m
            .get("dependencies")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            if x.is_object() {
                self.node(x, &path.child("dependencies").key(k), ssv, false, false);
            }
        }
        if m.get("x-kubernetes-preserve-unknown-fields") == Some(&Value::Bool(false)) {
            self.schema.push(FieldError::invalid(
                path.child("x-kubernetes-preserve-unknown-fields").as_str(),
                json!(false),
                "must be true or undefined",
            ));
        }
        let errs = super::list_checks::list_and_map_types(m, ty, path);
        self.schema.extend(errs);
        self.rule_fields(m, path);
        if compiles && self.schema.len() == before {
            self.compiled.insert(path.as_str().to_string());
            self.compile(m, path, ssv);
        }
    }

    fn forbidden(&mut self, path: FieldPath, detail: &str) {
        self.schema
            .push(FieldError::forbidden(path.as_str(), detail));
    }

    /// `specStandardValidatorV3.validate`.
    fn standard(&mut self, m: &Map<String, Value>, path: &FieldPath, ssv: &Ssv) {
        let ty = map_str(m, "type");
        if !ty.is_empty() && !TYPES.contains(&ty) {
            self.schema.push(FieldError::not_supported(
                path.child("type").as_str(),
                json!(ty),
                TYPES,
            ));
        }
        if let (true, Some(reason)) = (
            m.get("default").is_some_and(|d| !d.is_null()),
            &ssv.no_defaults,
        ) {
            self.forbidden(path.child("default"), &format!("must not be set {reason}"));
        }
        for key in UNSUPPORTED.iter().filter(|k| keyword_set(m, k)) {
            self.forbidden(path.child(key), &format!("{key} is not supported"));
        }
        if ty == "null" {
            self.forbidden(
                path.child("type"),
                "type cannot be set to null, use nullable as an alternative",
            );
        }
        if m.get("items").is_some_and(Value::is_array) {
            self.forbidden(
                path.child("items"),
                "items must be a schema object and not an array",
            );
        }
        if ssv.inside_meta && m.get("x-kubernetes-embedded-resource") == Some(&Value::Bool(true)) {
            self.forbidden(
                path.child("x-kubernetes-embedded-resource"),
                "must not be used inside of resource meta",
            );
        }
    }

    /// The fields of each `x-kubernetes-validations` rule.
    fn rule_fields(&mut self, m: &Map<String, Value>, path: &FieldPath) {
        let rules = m.get("x-kubernetes-validations").and_then(Value::as_array);
        for (i, r) in rules.into_iter().flatten().enumerate() {
            let at = path.child("x-kubernetes-validations").index(i);
            let s = |k: &str| str_at(r, k);
            let (rule, message) = (s("rule").trim(), s("message"));
            let lines = |t: &str| t.contains('\n') || t.contains('\r');
            if rule.is_empty() {
                self.schema.push(FieldError::required(
                    at.child("rule").as_str(),
                    "rule is not specified",
                ));
            } else if !message.is_empty() && message.trim().is_empty() {
                self.schema.push(FieldError::invalid(
                    at.child("message").as_str(),
                    json!(message),
                    "must be non-empty if specified",
                ));
            } else if lines(message.trim()) {
                self.schema.push(FieldError::invalid(
                    at.child("message").as_str(),
                    json!(message),
                    "must not contain line breaks",
                ));
            } else if lines(rule) && message.trim().is_empty() {
                self.schema.push(FieldError::required(
                    at.child("message").as_str(),
                    "message must be specified if rule contains line breaks",
                ));
            }
            let expr = s("messageExpression");
            if !expr.is_empty() && expr.trim().is_empty() {
                self.schema.push(FieldError::required(
                    at.child("messageExpression").as_str(),
                    "messageExpression must be non-empty if specified",
                ));
            }
            if let Some(reason) = r.get("reason").and_then(Value::as_str) {
                if !REASONS.contains(&reason) {
                    self.schema.push(FieldError::not_supported(
                        at.child("reason").as_str(),
                        json!(reason),
                        REASONS,
                    ));
                }
            }
            let field_path = s("fieldPath");
            if !field_path.is_empty() && field_path.trim().is_empty() {
                self.schema.push(FieldError::invalid(
                    at.child("fieldPath").as_str(),
                    json!(field_path),
                    "must be non-empty if specified",
                ));
            }
            if field_path.contains('\n') {
                self.schema.push(FieldError::invalid(
                    at.child("fieldPath").as_str(),
                    json!(field_path),
                    "must not contain line breaks",
                ));
            }
            if !field_path.is_empty() && !super::list_checks::field_path_valid(m, field_path) {
                self.schema.push(FieldError::invalid(
                    at.child("fieldPath").as_str(),
                    json!(field_path),
                    "must be a valid path",
                ));
            }
        }
    }

    /// The rules' parse: a rule or message expression that does not parse is `compilation
    /// failed` at its path, displayed as cel-go's (a syntax error's text is this parser's,
    /// not ANTLR's; the type check and the validators are `rule_costs`'); `oldSelf` where the schema cannot correlate it, `optionalOldSelf`
    /// without `oldSelf`.
    fn compile(&mut self, m: &Map<String, Value>, path: &FieldPath, ssv: &Ssv) {
        let rules = m.get("x-kubernetes-validations").and_then(Value::as_array);
        for (i, r) in rules.into_iter().flatten().enumerate() {
            let at = path.child("x-kubernetes-validations").index(i);
            let rule = str_at(r, "rule");
            let parsed = crate::resources::custom::cel::compile(rule);
            if let Err(e) = &parsed {
                self.cel.push(FieldError::invalid(
                    at.child("rule").as_str(),
                    super::rule_costs::internal_rule(r),
                    &format!("compilation failed: {e}"),
                ));
            }
            let message = r.get("messageExpression").and_then(Value::as_str);
            if let Some(Err(e)) = message
                .filter(|m| !m.is_empty())
                .map(crate::resources::custom::cel::compile)
            {
                self.cel.push(FieldError::invalid(
                    at.child("messageExpression").as_str(),
                    super::rule_costs::internal_rule(r),
                    &format!("messageExpression compilation failed: {e}"),
                ));
            }
            let Ok(expr) = parsed else { continue };
            if crate::resources::custom::cel::mentions(&expr, "oldSelf") {
                if let Some(within) = &ssv.uncorrelatable {
                    self.cel.push(FieldError::invalid(
                        at.child("rule").as_str(),
                        json!(rule),
                        &format!("oldSelf cannot be used on the uncorrelatable portion of the schema within {within}"),
                    ));
                }
            } else if let Some(optional) = r.get("optionalOldSelf").filter(|o| !o.is_null()) {
                self.cel.push(FieldError::invalid(
                    at.child("optionalOldSelf").as_str(),
                    optional.clone(),
                    "may not be set if oldSelf is not used in rule",
                ));
            }
        }
    }
}
