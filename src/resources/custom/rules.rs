//! `x-kubernetes-validations` (apiextensions' `schema/cel` validator): each rule evaluated
//! with `self` the value at its node (and `oldSelf` the old object's, for transition rules,
//! only where the old value correlates); a rule that is false fails with its message (or
//! `messageExpression`, or `failed rule: <rule>`), its reason and its field path; one that
//! cannot be evaluated fails with the error. Rules on values an update left unchanged are not
//! checked again (ratcheting), transition rules excepted.

use serde_json::Value;

use super::cel::{self, Scope, Val};
use super::structural::{Rule, Schema};
use crate::resources::field::{BadValue, FieldError, FieldErrorKind};

/// The whole object's budget (`RuntimeCELCostBudget`), in the steps [`cel`] counts.
const BUDGET: u64 = 10_000_000;

/// The rule errors of the object `value` against its `schema` (the object's own rules report
/// field `<nil>`).
pub fn validate(schema: &Schema, value: &Value, old: Option<&Value>) -> Vec<FieldError> {
    let mut w = Walk {
        errs: Vec::new(),
        spent: 0,
        stopped: false,
    };
    w.node(schema, value, old, "");
    w.errs
}

struct Walk {
    errs: Vec<FieldError>,
    spent: u64,
    stopped: bool,
}

fn field(path: &str) -> String {
    if path.is_empty() {
        "<nil>".into()
    } else {
        path.to_string()
    }
}

fn type_name(s: &Schema, v: &Value) -> String {
    if !s.ty.is_empty() {
        return s.ty.clone();
    }
    match v {
        Value::Object(_) => "object",
        Value::Array(_) => "array",
        Value::String(_) => "string",
        Value::Number(_) => "integer",
        Value::Bool(_) => "boolean",
        Value::Null => "",
    }
    .into()
}

impl Walk {
    fn node(&mut self, s: &Schema, v: &Value, old: Option<&Value>, path: &str) {
        if self.stopped {
            return;
        }
        for rule in &s.rules {
            self.rule(s, rule, v, old, path);
            if self.stopped {
                return;
            }
        }
        match v {
            Value::Object(m) => {
                let olds = old.and_then(Value::as_object);
                for (k, x) in m {
                    let o = olds.and_then(|o| o.get(k));
                    if let Some(p) = s.properties.get(k) {
                        self.node(p, x, o, &super::child(path, k));
                    } else if let Some(a) = s.additional.as_deref() {
                        self.node(a, x, o, &format!("{path}[{k}]"));
                    }
                }
            }
            Value::Array(items) => {
                let Some(item) = s.items.as_deref() else {
                    return;
                };
                for (i, x) in items.iter().enumerate() {
                    let o = s.correlated_item(old, x);
                    self.node(item, x, o, &format!("{path}[{i}]"));
                }
            }
            _ => {}
        }
    }

    fn rule(&mut self, s: &Schema, rule: &Rule, v: &Value, old: Option<&Value>, path: &str) {
        let ty = type_name(s, v);
        let invalid =
            |detail: String| FieldError::invalid(&field(path), Value::String(ty.clone()), &detail);
        let expr = match &rule.expr {
            Ok(e) => e,
            Err(e) => {
                self.errs.push(invalid(format!("rule compile error: {e}")));
                return;
            }
        };
        // A transition rule needs the old value, unless it takes it as an optional; any
        // other rule is ratcheted on an unchanged value.
        let optional = rule.uses_old_self && rule.optional_old_self;
        if rule.uses_old_self && old.is_none() && !optional {
            return;
        }
        if !rule.uses_old_self && old == Some(v) {
            return;
        }
        let mut vars = bindings(s, v, old);
        if optional {
            // cel-go 0.26 rebuilds an optional's value from its plain JSON form: read
            // through it, the old value has no schema (a date-time stays a string).
            let old_self = Val::Optional(old.map(|o| std::rc::Rc::new(Val::from_json(o, None))));
            vars.truncate(1);
            vars.push(("oldSelf".to_string(), old_self));
        }
        let mut steps = 0;
        let result = cel::eval(expr, &mut Scope::new(vars, &mut steps));
        self.spent += steps;
        let rule_text = if rule.message.trim().is_empty() {
            rule.rule.trim().to_string()
        } else {
            rule.message.trim().to_string()
        };
        match result {
            Ok(Val::Bool(true)) => {}
            Ok(Val::Bool(false)) => {
                // The fieldPath as `ValidFieldPath` normalizes it, a child of the node's
                // path (validation refused a definition whose path names nothing).
                let normalized = match rule.field_path.as_str() {
                    "" => String::new(),
                    f => super::field_path::resolve(s, f).unwrap_or_default(),
                };
                let at = match normalized.as_str() {
                    "" => field(path),
                    f => super::child(path, f),
                };
                let detail = self
                    .message(rule, s, v, old)
                    .unwrap_or_else(|| match rule.message.trim() {
                        "" => format!("failed rule: {rule_text}"),
                        m => m.to_string(),
                    });
                let value = match ty.as_str() {
                    "object" | "array" => BadValue::Omit,
                    _ => BadValue::Value(v.clone()),
                };
                self.errs.push(match rule.reason.as_str() {
                    "FieldValueForbidden" => FieldError::forbidden(&at, &detail),
                    "FieldValueRequired" => FieldError::required(&at, &detail),
                    "FieldValueDuplicate" => FieldError::duplicate(&at, v.clone()),
                    _ => FieldError { kind: FieldErrorKind::Invalid, field: at, value, detail },
                });
            }
            Ok(_) => self.errs.push(invalid(format!(
                "'no such overload': call arguments did not match a supported operator, function or macro signature for rule: {rule_text}"
            ))),
            Err(e) if e == cel::COST_EXCEEDED => {
                self.errs.push(invalid(format!(
                    "'{e}': no further validation rules will be run due to call cost exceeds limit for rule: {rule_text}"
                )));
                self.stopped = true;
            }
            Err(e) if e.starts_with("no such overload") => self.errs.push(invalid(format!(
                "'{e}': call arguments did not match a supported operator, function or macro signature for rule: {rule_text}"
            ))),
            Err(e) => self.errs.push(invalid(format!("{e} evaluating rule: {rule_text}"))),
        }
        if self.spent > BUDGET && !self.stopped {
            self.errs.push(invalid(
                "validation failed due to running out of cost budget, no further validation rules will be run".into(),
            ));
            self.stopped = true;
        }
    }

    /// A `messageExpression`'s text; `None` when it fails (the rule's message is used).
    /// The message expression is evaluated with the plain binding, as apiextensions does
    /// (where the old value is absent, `oldSelf` is unbound there), even for a rule that
    /// takes `oldSelf` as an optional.
    fn message(
        &mut self,
        rule: &Rule,
        s: &Schema,
        v: &Value,
        old: Option<&Value>,
    ) -> Option<String> {
        let expr = rule.message_expression.as_ref()?.as_ref().ok()?;
        let mut steps = 0;
        let out = cel::eval(expr, &mut Scope::new(bindings(s, v, old), &mut steps));
        self.spent += steps;
        match out {
            Ok(Val::Str(s)) => {
                let t = s.trim();
                (!t.is_empty() && !t.contains('\n') && t.len() <= 5 * 1024).then(|| t.to_string())
            }
            _ => None,
        }
    }
}

/// `self`, and `oldSelf` where there is an old value, read through the node's schema.
fn bindings(s: &Schema, v: &Value, old: Option<&Value>) -> Vec<(String, Val)> {
    let mut vars = vec![("self".to_string(), Val::from_json(v, Some(s)))];
    if let Some(o) = old {
        vars.push(("oldSelf".to_string(), Val::from_json(o, Some(s))));
    }
    vars
}

/// Whether `errs` hold a type of error that keeps the rules from running (`hasBlockingErr`).
pub fn blocking(errs: &[FieldError]) -> bool {
    errs.iter().any(|e| {
        matches!(
            e.kind,
            FieldErrorKind::NotSupported
                | FieldErrorKind::Required
                | FieldErrorKind::TooLong
                | FieldErrorKind::TooMany
                | FieldErrorKind::TypeInvalid
        )
    })
}

/// The error that says the rules were not run.
pub fn not_checked() -> FieldError {
    FieldError::invalid(
        "<nil>",
        Value::Null,
        "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
    )
}
