//! Requests as a user: an engine authenticating as `kubesim serve` does, and calls that
//! carry a bearer token.

use serde_json::Value;

use super::{send, Resp};
use kubesim::auth::{AuthConfig, TokenFile};
use kubesim::{Config, Engine};

/// The RBAC API's path.
pub const RBAC: &str = "/apis/rbac.authorization.k8s.io/v1";

pub const TOKENS: &str = "t-alice,alice,u1\nt-bob,bob,u2,\"dev,ops\"\n";

/// An engine as `kubesim serve` runs it: no default identity, the admin token plus
/// alice's and bob's.
pub fn server_like() -> Engine {
    let tokens = TokenFile::parse("tokens.csv", TOKENS).unwrap();
    Engine::new(Config {
        auth: AuthConfig::server(tokens, true),
        ..Config::default()
    })
}

pub fn as_user(e: &mut Engine, token: &str, method: &str, uri: &str, body: Option<&Value>) -> Resp {
    let auth = format!("Bearer {token}");
    let text = body.map(Value::to_string);
    send(
        e,
        method,
        uri,
        text.as_deref(),
        &[
            ("authorization", &auth),
            ("content-type", "application/json"),
        ],
    )
}

pub fn admin(e: &mut Engine, method: &str, uri: &str, body: &Value) -> Resp {
    let r = as_user(e, "kubesim", method, uri, Some(body));
    assert!(r.code < 300, "{method} {uri}: {}", r.text);
    r
}

/// Creates a namespace as the admin.
pub fn admin_ns(e: &mut Engine, name: &str) {
    let body = serde_json::json!({"metadata": {"name": name}});
    admin(e, "POST", "/api/v1/namespaces", &body);
}
