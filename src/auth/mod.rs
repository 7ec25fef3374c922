//! Who is asking, and may they: kube-apiserver's authentication, impersonation and
//! authorization filters, run on every request before it is routed.
//!
//! - [`authenticate`]: a bearer token from the static token file ([`tokens`]); no credentials
//!   is `system:anonymous` (unless anonymous auth is off, or the host set a default user);
//!   an unknown token is 401.
//! - [`impersonation`]: `Impersonate-*` headers: the constrained filter (1.36's default) or
//!   the legacy one, by the `ConstrainedImpersonation` gate.
//! - [`request_info`]: the request's attributes, from its path alone.
//! - the authorizer is the registry's (`Registry::authorize`): `system:masters`, then RBAC.
//! - [`forbidden`]: the 403 text `responsewriters.Forbidden` writes.

pub mod forbidden;
pub mod impersonation;
pub mod request_info;
pub mod tokens;

use http::HeaderMap;

use crate::registry::Registry;
use crate::resources::rbac::user::SYSTEM_PRIVILEGED_GROUP;
use crate::resources::rbac::{Attributes, UserInfo};
use crate::resources::status::ApiError;
pub use tokens::TokenFile;

/// The user kubesim's own kubeconfig and in-process hosts act as: an administrator, in
/// `system:masters` as kubeadm's admin kubeconfig user long was.
pub const ADMIN_USER: &str = "kubesim-admin";
/// The token `kubesim serve` accepts for [`ADMIN_USER`] (its kubeconfig carries it).
pub const ADMIN_TOKEN: &str = "kubesim";

/// The administrator as authenticated: `kubesim-admin` in `system:masters` and
/// `system:authenticated`.
pub fn admin() -> UserInfo {
    UserInfo::new(ADMIN_USER, &[SYSTEM_PRIVILEGED_GROUP]).with_authenticated_group()
}

/// How requests are authenticated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthConfig {
    /// `--token-auth-file`.
    pub tokens: TokenFile,
    /// `--anonymous-auth` (default true).
    pub anonymous: bool,
    /// Who a request without credentials is, instead of `system:anonymous`: the identity an
    /// in-process or in-tab host acts as (like a client certificate the page always sends).
    /// `None` on the native server, as on a real one.
    pub default_user: Option<UserInfo>,
}

impl Default for AuthConfig {
    /// In-process defaults: requests without credentials act as [`admin`]; tokens can be
    /// added to act as others.
    fn default() -> Self {
        AuthConfig {
            default_user: Some(admin()),
            ..AuthConfig::server(TokenFile::default(), true)
        }
    }
}

impl AuthConfig {
    /// As `kubesim serve` authenticates: `tokens` (a `--token-auth-file`) plus the admin
    /// token its kubeconfig carries, anonymous requests if `anonymous`, no default identity.
    pub fn server(tokens: TokenFile, anonymous: bool) -> Self {
        AuthConfig {
            tokens: with_admin_token(tokens),
            anonymous,
            default_user: None,
        }
    }
}

/// `tokens` plus the admin token (`kubesim`) that kubesim's kubeconfig carries.
pub fn with_admin_token(mut tokens: TokenFile) -> TokenFile {
    tokens.insert(
        ADMIN_TOKEN,
        UserInfo::new(ADMIN_USER, &[SYSTEM_PRIVILEGED_GROUP]),
    );
    tokens
}

/// 401 `Unauthorized`.
pub fn unauthorized() -> ApiError {
    let mut e = ApiError::untyped(401, "Unauthorized");
    e.reason = "Unauthorized";
    e
}

/// The bearer token authenticator (`bearertoken.Authenticator`): `Ok(None)` when the request
/// carries no bearer token at all (another authenticator, or anonymous, may take it).
fn bearer_user(cfg: &AuthConfig, headers: &HeaderMap) -> Result<Option<UserInfo>, ApiError> {
    let Bearer::Token(token) = bearer(headers) else {
        return Ok(None);
    };
    match cfg.tokens.user(token) {
        Some(u) => Ok(Some(u.clone())),
        None => Err(unauthorized()),
    }
}

/// What the `Authorization` header holds, read as `bearertoken` reads it: the scheme, one
/// space, the token (the rest after another space is ignored).
enum Bearer<'a> {
    /// No bearer credentials.
    None,
    /// `Bearer  <token>`: an empty token, then more (warned about, then ignored).
    ExtraSpace,
    Token(&'a str),
}

fn bearer(headers: &HeaderMap) -> Bearer<'_> {
    let auth = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .trim();
    let parts: Vec<&str> = auth.splitn(3, ' ').collect();
    match parts.as_slice() {
        [scheme, token, ..] if scheme.eq_ignore_ascii_case("bearer") => match *token {
            "" if parts.len() == 3 => Bearer::ExtraSpace,
            "" => Bearer::None,
            t => Bearer::Token(t),
        },
        _ => Bearer::None,
    }
}

/// `bearertoken`'s warning for `Authorization: Bearer  <token>`: the header is ignored, and
/// the client is told why.
pub fn credential_warning(headers: &HeaderMap) -> Option<&'static str> {
    matches!(bearer(headers), Bearer::ExtraSpace).then_some(
        "the provided Authorization header contains extra space before the bearer token, and is ignored",
    )
}

/// Authentication as kube-apiserver composes it: the token authenticator; failing that
/// with no error, anonymous (if enabled); every non-anonymous user gains
/// `system:authenticated`.
pub fn authenticate(cfg: &AuthConfig, headers: &HeaderMap) -> Result<UserInfo, ApiError> {
    if let Some(user) = bearer_user(cfg, headers)? {
        return Ok(user.with_authenticated_group());
    }
    if let Some(user) = &cfg.default_user {
        return Ok(user.clone());
    }
    if cfg.anonymous {
        return Ok(UserInfo::anonymous());
    }
    Err(unauthorized())
}

/// The filter chain after request info, up to the handlers: authentication, impersonation,
/// then authorization of the request's attributes (`attrs`, from [`request_info`]). The
/// user the request runs as.
pub fn admit(
    reg: &Registry,
    cfg: &AuthConfig,
    memory: &mut impersonation::Memory,
    attrs: &Attributes,
    headers: &HeaderMap,
) -> Result<UserInfo, ApiError> {
    let user = authenticate(cfg, headers)?;
    let user = impersonation::impersonate(reg, memory, user, headers, attrs)?;
    let decision = reg.authorize(&user, attrs);
    if !decision.allowed {
        return Err(forbidden::forbidden(attrs, &user, &decision.reason));
    }
    Ok(user)
}
