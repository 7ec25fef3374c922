//! `Impersonate-User`, `-Group`, `-Uid` and `-Extra-<key>`: the request runs as another user
//! once the caller is allowed to act as each part of that identity.
//!
//! kube-apiserver 1.36 installs one of two filters in the same place of its chain, by the
//! `ConstrainedImpersonation` gate (beta, on by default): `constrained`
//! (`WithConstrainedImpersonation`: modes scoped to the request, falling back to the legacy
//! checks, with a memory of which mode last worked for each caller) or `legacy`
//! (`WithImpersonation`: the `impersonate` verb on each part). `memory` is the constrained
//! filter's state.

mod constrained;
mod legacy;
mod memory;

use http::HeaderMap;

pub use memory::Memory;

use crate::registry::Registry;
use crate::resources::rbac::{Attributes, UserInfo};
use crate::resources::status::ApiError;

/// Runs the impersonation filter the gates select: the user the request continues as.
/// `request` is the request's own attributes (for the `impersonate-on` checks), `memory` the
/// constrained filter's state.
pub fn impersonate(
    reg: &Registry,
    memory: &mut Memory,
    requestor: UserInfo,
    headers: &HeaderMap,
    request: &Attributes,
) -> Result<UserInfo, ApiError> {
    if reg.feature_gates().enabled("ConstrainedImpersonation") {
        constrained::impersonate(reg, memory, requestor, headers, request)
    } else {
        legacy::impersonate(reg, requestor, headers)
    }
}

/// Request headers from `(name, value)` pairs, for the filters' tests.
#[cfg(test)]
fn test_headers(pairs: &[(&str, &str)]) -> HeaderMap {
    let mut h = HeaderMap::new();
    for (k, v) in pairs {
        h.append(
            http::header::HeaderName::from_bytes(k.as_bytes()).unwrap(),
            v.parse().unwrap(),
        );
    }
    h
}
