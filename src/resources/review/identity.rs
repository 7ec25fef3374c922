//! The reviews that describe the requester rather than decide on one request:
//! SelfSubjectRulesReview (`authorization.k8s.io`, what may I do in a namespace) and
//! SelfSubjectReview (`authentication.k8s.io`, who am I). Both answer with a new object.

use serde_json::{json, Map, Value};

use crate::resources::field::aggregate;
use crate::resources::field::FieldError;
use crate::resources::rbac::authority::Requester;
use crate::resources::rbac::UserInfo;
use crate::resources::status::{ApiError, ApiResult};
use crate::resources::{ResourceInfo, Strategy};

/// The requester of a self review (400 without one).
pub(super) fn requester_user<'a>(by: &Requester<'a>) -> ApiResult<&'a UserInfo> {
    by.user
        .ok_or_else(|| ApiError::bad_request("no user present on request"))
}

/// SelfSubjectRulesReview and SelfSubjectReview.
#[derive(Debug)]
pub enum IdentityReviewStrategy {
    /// SelfSubjectRulesReview: the requester's rules in `spec.namespace`, as the authorizer's
    /// rule resolver lists them (no compaction, no deduplication); no validation at all.
    Rules,
    /// SelfSubjectReview: the requester's user (after impersonation), stamped with the time.
    SelfSubject,
}

/// A SelfSubjectRulesReview's answer.
fn rules_answer(
    info: &'static ResourceInfo,
    obj: &Map<String, Value>,
    by: &Requester<'_>,
) -> ApiResult<Value> {
    let user = requester_user(by)?;
    let namespace = obj
        .get("spec")
        .and_then(|s| s.get("namespace"))
        .and_then(Value::as_str)
        .unwrap_or("");
    if namespace.is_empty() {
        return Err(ApiError::bad_request("no namespace on request"));
    }
    let found = by.authorizer.rules_review(user, namespace);
    let mut resource_rules = Vec::new();
    let mut non_resource_rules = Vec::new();
    for r in &found.rules {
        if !r.resources.is_empty() {
            resource_rules.push(json!({"verbs": r.verbs, "apiGroups": r.api_groups,
                    "resources": r.resources, "resourceNames": r.resource_names}));
        }
        if !r.non_resource_urls.is_empty() {
            non_resource_rules
                .push(json!({"verbs": r.verbs, "nonResourceURLs": r.non_resource_urls}));
        }
    }
    let error = if found.errors.is_empty() {
        String::new()
    } else {
        aggregate(&found.errors)
    };
    let answer = json!({
        "kind": info.kind,
        "apiVersion": info.api_version(),
        "metadata": {},
        "spec": {},
        "status": {"resourceRules": resource_rules, "nonResourceRules": non_resource_rules,
                   "incomplete": false, "evaluationError": error},
    });
    Ok(answer)
}

/// A SelfSubjectReview's answer.
fn self_answer(info: &'static ResourceInfo, by: &Requester<'_>) -> ApiResult<Value> {
    let user = requester_user(by)?;
    let answer = json!({
        "kind": info.kind,
        "apiVersion": info.api_version(),
        "metadata": {"creationTimestamp": by.now},
        "status": {"userInfo": {"username": user.name, "uid": user.uid,
                                "groups": user.groups, "extra": user.extra}},
    });
    Ok(answer)
}

impl Strategy for IdentityReviewStrategy {
    fn validate_create(
        &self,
        _: &Map<String, Value>,
        _: &crate::resources::Sent,
    ) -> Vec<FieldError> {
        Vec::new()
    }

    fn validate_update(&self, _: &Map<String, Value>, _: &Map<String, Value>) -> Vec<FieldError> {
        Vec::new()
    }

    fn stored(&self) -> bool {
        false
    }

    fn answer(
        &self,
        info: &'static ResourceInfo,
        obj: Map<String, Value>,
        _sent: &crate::resources::Sent,
        by: &Requester<'_>,
    ) -> ApiResult<Map<String, Value>> {
        let answer = match self {
            IdentityReviewStrategy::Rules => rules_answer(info, &obj, by)?,
            IdentityReviewStrategy::SelfSubject => self_answer(info, by)?,
        };
        Ok(answer.as_object().cloned().unwrap_or_default())
    }
}
