//! The review kinds: virtual, create-only resources that answer a question instead of
//! storing an object (`authorization.k8s.io/v1`: SubjectAccessReview,
//! LocalSubjectAccessReview, SelfSubjectAccessReview, SelfSubjectRulesReview;
//! `authentication.k8s.io/v1`: SelfSubjectReview). They are answered from the same
//! authorizer every request passes ([`crate::resources::rbac::authority`]).

pub mod access;
pub mod identity;
pub mod schema;
pub mod validation;

use access::AccessReviewStrategy;
use identity::IdentityReviewStrategy;
use validation::Review;

use crate::resources::{ListDocs, ResourceInfo};

const AUTHORIZATION: &str = "authorization.k8s.io";
const AUTHENTICATION: &str = "authentication.k8s.io";
const CREATE: &[&str] = &["create"];
/// Review kinds have no lists.
const NO_LIST: ListDocs = ListDocs {
    description: "",
    items: "",
    metadata: "",
};

/// A create-only, unlisted review resource.
macro_rules! review {
    ($group:expr, $kind:literal, $plural:literal, $singular:literal, $namespaced:expr, $schema:expr, $strategy:expr) => {
        ResourceInfo {
            group: $group,
            version: "v1",
            kind: $kind,
            plural: $plural,
            singular: $singular,
            short_names: &[],
            categories: &[],
            storage_version: None,
            namespaced: $namespaced,
            verbs: CREATE,
            subresources: &[],
            schema: $schema,
            strategy: $strategy,
            extra_field_labels: &[],
            protobuf: true,
            list_docs: NO_LIST,
            custom: None,
        }
    };
}

/// authentication.k8s.io/v1 selfsubjectreviews.
pub static SELF_SUBJECT_REVIEWS: ResourceInfo = review!(
    AUTHENTICATION,
    "SelfSubjectReview",
    "selfsubjectreviews",
    "selfsubjectreview",
    false,
    &schema::SELF_SUBJECT_REVIEW,
    &IdentityReviewStrategy::SelfSubject
);

/// authorization.k8s.io/v1 localsubjectaccessreviews.
pub static LOCAL_SUBJECT_ACCESS_REVIEWS: ResourceInfo = review!(
    AUTHORIZATION,
    "LocalSubjectAccessReview",
    "localsubjectaccessreviews",
    "localsubjectaccessreview",
    true,
    &schema::LOCAL_SUBJECT_ACCESS_REVIEW,
    &AccessReviewStrategy {
        review: Review::Local
    }
);

/// authorization.k8s.io/v1 selfsubjectaccessreviews.
pub static SELF_SUBJECT_ACCESS_REVIEWS: ResourceInfo = review!(
    AUTHORIZATION,
    "SelfSubjectAccessReview",
    "selfsubjectaccessreviews",
    "selfsubjectaccessreview",
    false,
    &schema::SELF_SUBJECT_ACCESS_REVIEW,
    &AccessReviewStrategy {
        review: Review::SelfSubject
    }
);

/// authorization.k8s.io/v1 selfsubjectrulesreviews.
pub static SELF_SUBJECT_RULES_REVIEWS: ResourceInfo = review!(
    AUTHORIZATION,
    "SelfSubjectRulesReview",
    "selfsubjectrulesreviews",
    "selfsubjectrulesreview",
    false,
    &schema::SELF_SUBJECT_RULES_REVIEW,
    &IdentityReviewStrategy::Rules
);

/// authorization.k8s.io/v1 subjectaccessreviews.
pub static SUBJECT_ACCESS_REVIEWS: ResourceInfo = review!(
    AUTHORIZATION,
    "SubjectAccessReview",
    "subjectaccessreviews",
    "subjectaccessreview",
    false,
    &schema::SUBJECT_ACCESS_REVIEW,
    &AccessReviewStrategy {
        review: Review::Subject
    }
);
