//! The type check of a schema's `x-kubernetes-validations` (cel/check.rs, per rule, before
//! its cost), and the estimated costs of a schema's `x-kubernetes-validations` against their limits
//! (apiextensions' `validateCustomResourceDefinitionValidation`): a rule's estimated cost,
//! times how many values its node can have in one object, at most `StaticEstimatedCostLimit`;
//! a message expression's on its own; and all of one schema's together at most
//! `StaticEstimatedCRDCostLimit`, the most expensive named when they are over it.

use std::collections::HashSet;

use serde_json::Value;

use crate::resources::custom::cel::check;
use crate::resources::custom::cel::cost::{estimate, unbounded_cardinality};
use crate::resources::custom::structural::{Rule, Schema};
use crate::resources::field::{FieldError, FieldPath};

/// One rule's or message expression's limit.
const PER_EXPRESSION_LIMIT: u64 = 10_000_000;
/// One schema's limit, all expressions together.
const PER_SCHEMA_LIMIT: u64 = 100_000_000;
/// Expressions that cost at least this much (a hundredth of the schema's limit) are named
/// when the total is over it, the four most expensive.
const NOTABLE: u64 = PER_SCHEMA_LIMIT / 100;

/// `getCostErrorMessage`.
fn over_budget(what: &str, cost: u64, limit: u64) -> String {
    let factor = cost as f64 / limit as f64;
    let factor = if factor > 100.0 {
        "more than 100x".to_string()
    } else if factor < 1.5 {
        format!("{factor:.6}x")
    } else {
        format!("{factor:.1}x")
    };
    format!("{what} exceeds budget by factor of {factor} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)")
}

/// The schema's cost errors, after its other errors.
///
/// `unchanged`: an update leaves this version's schema as it was, so its expressions are not
/// held to their own limit again (`suppressPerExpressionCost`); the schema's total still is.
/// `compiled`: the paths of the nodes whose rules compiled (apiextensions skips the rules of
/// a node with a schema error at or below it).
pub(super) fn check(
    schema: &Value,
    path: &FieldPath,
    unchanged: bool,
    compiled: &HashSet<String>,
) -> Vec<FieldError> {
    let root = Schema::parse(schema);
    let mut walk = Walk {
        errs: Vec::new(),
        total: 0,
        notable: Vec::new(),
        per_expression: !unchanged,
        compiled,
    };
    walk.node(&root, path, Some(1), true);
    let mut errs = walk.errs;
    if walk.total > PER_SCHEMA_LIMIT {
        crate::sort::sort_by(&mut walk.notable, |a, b| b.1.cmp(&a.1));
        for (at, _) in walk.notable.iter().take(4) {
            errs.push(FieldError::forbidden(
                at,
                "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema",
            ));
        }
        errs.push(FieldError::forbidden(
            path.as_str(),
            &over_budget(
                "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema",
                walk.total,
                PER_SCHEMA_LIMIT,
            ),
        ));
    }
    errs
}

struct Walk<'a> {
    compiled: &'a HashSet<String>,
    errs: Vec<FieldError>,
    total: u64,
    /// `(path, cost)` of the expressions that cost at least [`NOTABLE`].
    notable: Vec<(String, u64)>,
    /// Whether each expression is held to [`PER_EXPRESSION_LIMIT`].
    per_expression: bool,
}

impl Walk<'_> {
    fn observe(&mut self, at: &str, cost: u64) {
        self.total = self.total.saturating_add(cost);
        if cost >= NOTABLE {
            self.notable.push((at.to_string(), cost));
        }
    }

    /// A node's children first, then its own rules. `cardinality`: how many values the node
    /// can have in one object (`None`: unbounded).
    fn node(&mut self, s: &Schema, path: &FieldPath, cardinality: Option<u64>, root: bool) {
        // `extractMaxElements`: a map's values and a list's items multiply the node's
        // cardinality by its bound (unbounded without one); an object's properties by 1.
        let times = |bound: Option<i64>| {
            cardinality
                .zip(bound)
                .map(|(c, n)| c.saturating_mul(n.max(0) as u64))
        };
        if let Some(a) = s.additional.as_deref().filter(|a| !a.absent) {
            let card = times(s.checks.max_properties);
            self.node(a, &path.child("additionalProperties"), card, false);
        }
        for (name, p) in &s.properties {
            self.node(p, &path.child("properties").key(name), cardinality, false);
        }
        if let Some(items) = s.items.as_deref() {
            self.node(
                items,
                &path.child("items"),
                times(s.checks.max_items),
                false,
            );
        }
        if !self.compiled.contains(path.as_str()) {
            return;
        }
        for (i, rule) in s.rules.iter().enumerate() {
            self.rule(
                s,
                rule,
                &path.child("x-kubernetes-validations").index(i),
                cardinality,
                root,
            );
        }
    }

    fn rule(&mut self, s: &Schema, rule: &Rule, at: &FieldPath, card: Option<u64>, root: bool) {
        // The type check first: a rule that fails it is not estimated, nor is its message
        // expression; a message expression is checked once the rule passes, and one that
        // fails is not estimated (the rule still is).
        let optional = rule.uses_old_self && rule.optional_old_self;
        if let Ok(expr) = &rule.expr {
            if let Some(detail) = check::rule_error(&rule.rule, expr, s, root, optional, false) {
                let value = internal_rule(&rule.raw);
                self.errs.push(FieldError::invalid(
                    at.child("rule").as_str(),
                    value,
                    &detail,
                ));
                return;
            }
        }
        let mut message_failed = false;
        if let (Some(Ok(expr)), Some(src)) = (
            &rule.message_expression,
            rule.raw.get("messageExpression").and_then(Value::as_str),
        ) {
            if let Some(detail) = check::rule_error(src, expr, s, root, optional, true) {
                let value = internal_rule(&rule.raw);
                let at = at.child("messageExpression");
                self.errs
                    .push(FieldError::invalid(at.as_str(), value, &detail));
                message_failed = true;
            }
        }
        if let Ok(expr) = &rule.expr {
            let cost = estimate(expr, s, root).max;
            let times = card.unwrap_or_else(|| unbounded_cardinality(s));
            let cost = if cost == 0 {
                0
            } else {
                cost.saturating_mul(times)
            };
            let at = at.child("rule");
            if self.per_expression && cost > PER_EXPRESSION_LIMIT {
                let detail = over_budget("estimated rule cost", cost, PER_EXPRESSION_LIMIT);
                self.errs.push(FieldError::forbidden(at.as_str(), &detail));
            }
            self.observe(at.as_str(), cost);
        }
        if let (false, Some(Ok(expr))) = (message_failed, &rule.message_expression) {
            let cost = estimate(expr, s, root).max;
            let at = at.child("messageExpression");
            if self.per_expression && cost > PER_EXPRESSION_LIMIT {
                let detail = over_budget(
                    "estimated messageExpression cost",
                    cost,
                    PER_EXPRESSION_LIMIT,
                );
                self.errs.push(FieldError::forbidden(at.as_str(), &detail));
            }
            self.observe(at.as_str(), cost);
        }
    }
}

/// A rule as apiextensions' internal `ValidationRule` prints in an error (the JSON of its Go
/// struct: field names as declared, pointers null when unset).
pub(super) fn internal_rule(r: &Value) -> Value {
    let s = |k: &str| Value::String(r.get(k).and_then(Value::as_str).unwrap_or("").into());
    let ptr = |k: &str| r.get(k).cloned().unwrap_or(Value::Null);
    serde_json::json!({
        "Rule": s("rule"),
        "Message": s("message"),
        "MessageExpression": s("messageExpression"),
        "Reason": ptr("reason"),
        "FieldPath": s("fieldPath"),
        "OptionalOldSelf": ptr("optionalOldSelf"),
    })
}
