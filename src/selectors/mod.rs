//! Label and field selectors, parsed, printed and matched as kube-apiserver does.
//!
//! List, watch and deletecollection take `labelSelector` and `fieldSelector` query parameters;
//! RBAC and request attributes look at `metadata.name=` field selectors; watchers filter every
//! event through both. Each must accept exactly what apimachinery accepts, print the same
//! canonical form and fail with the same 400 text, so both grammars live here, ported from
//! `k8s.io/apimachinery/pkg/labels` and `pkg/fields`.
//!
//! How the list handler (`kubernetes/apiserver` `pkg/endpoints/handlers/get.go`, and the
//! deletecollection handler likewise) reports failures, in this order:
//! 1. `labelSelector` does not parse → 400 BadRequest, message = [`LabelSelector::parse`]'s
//!    error text verbatim (no prefix).
//! 2. `fieldSelector` does not parse → 400 BadRequest, message = [`FieldSelector::parse`]'s
//!    error text verbatim.
//! 3. a field label the kind cannot select on → 400 BadRequest, message =
//!    [`FieldSelector::validate_fields`]'s error text.
//!
//! All three are plain `errors.NewBadRequest(err.Error())`: reason `BadRequest`, code 400, no
//! `details`.

mod cel;
pub(crate) mod field;
pub(crate) mod label;
pub mod shard;

pub use field::FieldSelector;
pub use label::LabelSelector;
