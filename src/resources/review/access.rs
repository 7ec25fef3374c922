//! The access reviews (`pkg/registry/authorization/*`): "may this subject do this?" answered
//! by the server's own authorizer. SubjectAccessReview and LocalSubjectAccessReview name the
//! subject; SelfSubjectAccessReview asks for the requester. Each answers with the request
//! object, `status` filled in.

use serde_json::{json, Map, Value};

use super::validation::{validate, Review};
use crate::resources::field::FieldError;
use crate::resources::meta::{str_at, strings};
use crate::resources::rbac::authority::Requester;
use crate::resources::rbac::{Attributes, UserInfo};
use crate::resources::status::{ApiError, ApiResult, GroupKind};
use crate::resources::{ResourceInfo, Strategy};

/// `authorizationapi.Kind("")`: the internal object's empty kind, as review errors name it
/// (`.authorization.k8s.io "" is invalid`).
const REVIEW_KIND: GroupKind<'static> = GroupKind {
    group: "authorization.k8s.io",
    kind: "",
};

/// `ResourceAttributesFrom` / `NonResourceAttributesFrom`.
fn attributes_from(spec: &Value) -> Attributes {
    let r = &spec["resourceAttributes"];
    if r.is_object() {
        return Attributes {
            subresource: str_at(r, "subresource").into(),
            ..Attributes::resource(
                str_at(r, "verb"),
                str_at(r, "group"),
                str_at(r, "resource"),
                str_at(r, "namespace"),
                str_at(r, "name"),
            )
        };
    }
    let n = &spec["nonResourceAttributes"];
    Attributes::non_resource(str_at(n, "verb"), str_at(n, "path"))
}

/// The user a SubjectAccessReview names: exactly the groups sent (nothing is added).
fn subject_from(spec: &Value) -> UserInfo {
    let extra = spec["extra"]
        .as_object()
        .map(|m| crate::sort::btree_map(m.iter().map(|(k, v)| (k.clone(), strings(Some(v))))))
        .unwrap_or_default();
    UserInfo {
        name: str_at(spec, "user").into(),
        uid: str_at(spec, "uid").into(),
        groups: strings(spec.get("groups")),
        extra,
    }
}

/// Whether a selector's requirements (or raw text) could not all be read, and whether any
/// could (`GetFieldSelector` / `GetLabelSelector` of the attributes the review builds).
fn selector_parse(sel: &Value, label: bool, by: &Requester<'_>) -> Option<bool> {
    if !sel.is_object() {
        return None;
    }
    let raw = str_at(sel, "rawSelector");
    if !raw.is_empty() {
        return (!by.authorizer.selector_parses(raw, label)).then_some(false);
    }
    let reqs = sel["requirements"].as_array()?;
    let readable = |r: &&Value| {
        let values = r["values"].as_array().map_or(0, Vec::len);
        match (str_at(r, "operator"), label) {
            ("In" | "NotIn", false) => values == 1,
            ("In" | "NotIn", true) => values > 0,
            ("Exists" | "DoesNotExist", true) => values == 0,
            _ => false,
        }
    };
    let good = reqs.iter().filter(readable).count();
    (good < reqs.len()).then_some(good > 0)
}

/// `BuildEvaluationError`: the selectors that were (partly) ignored.
fn evaluation_error(spec: &Value, by: &Requester<'_>) -> String {
    let r = &spec["resourceAttributes"];
    let mut parts = Vec::new();
    for (field, label) in [("fieldSelector", false), ("labelSelector", true)] {
        if let Some(partly) = selector_parse(&r[field], label, by) {
            let how = if partly {
                "partially ignored"
            } else {
                "ignored"
            };
            parts.push(format!(
                "spec.resourceAttributes.{field} {how} due to parse error"
            ));
        }
    }
    parts.join("; ")
}

/// The review's answer: the request object with `status` from the authorizer.
fn answer_for(
    mut obj: Map<String, Value>,
    user: &UserInfo,
    by: &Requester<'_>,
) -> Map<String, Value> {
    let spec = obj.get("spec").cloned().unwrap_or(Value::Null);
    let decision = by.authorizer.authorize(user, &attributes_from(&spec));
    obj.insert(
        "status".into(),
        json!({"allowed": decision.allowed, "reason": decision.reason,
               "evaluationError": evaluation_error(&spec, by)}),
    );
    obj
}

fn invalid(errs: &[FieldError]) -> ApiError {
    ApiError::invalid(REVIEW_KIND, "", errs)
}

/// SubjectAccessReview, LocalSubjectAccessReview and SelfSubjectAccessReview.
#[derive(Debug)]
pub struct AccessReviewStrategy {
    pub review: Review,
}

impl Strategy for AccessReviewStrategy {
    fn validate_create(
        &self,
        obj: &Map<String, Value>,
        _sent: &crate::resources::Sent,
    ) -> Vec<FieldError> {
        validate(obj, self.review)
    }

    fn validate_update(
        &self,
        _new: &Map<String, Value>,
        _old: &Map<String, Value>,
    ) -> Vec<FieldError> {
        Vec::new()
    }

    fn stored(&self) -> bool {
        false
    }

    fn answer(
        &self,
        _info: &'static ResourceInfo,
        obj: Map<String, Value>,
        _sent: &crate::resources::Sent,
        by: &Requester<'_>,
    ) -> ApiResult<Map<String, Value>> {
        let errs = validate(&obj, self.review);
        if !errs.is_empty() {
            return Err(invalid(&errs));
        }
        let subject;
        let user = match self.review {
            Review::SelfSubject => super::identity::requester_user(by)?,
            _ => {
                subject = subject_from(obj.get("spec").unwrap_or(&Value::Null));
                &subject
            }
        };
        Ok(answer_for(obj, user, by))
    }
}
