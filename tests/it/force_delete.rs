//! `ignoreStoreReadErrorWithClusterBreakingPotential` (reference §11): cleared with the
//! `AllowUnsafeMalformedObjectDeletion` gate off; with it on, validated against the other
//! delete options, authorized with `unsafe-delete-ignore-read-errors`, and refused on an
//! object the store can read.

use serde_json::json;

use crate::common::auth::{admin, admin_ns, as_user, RBAC};
use crate::common::{engine, get, post, send};
use kubesim::auth::{AuthConfig, TokenFile};
use kubesim::features::FeatureGates;
use kubesim::{Config, Engine};

const OPT: &str = "ignoreStoreReadErrorWithClusterBreakingPotential";

fn gated() -> Engine {
    let tokens = TokenFile::parse("tokens.csv", crate::common::auth::TOKENS).unwrap();
    Engine::new(Config {
        feature_gates: FeatureGates::parse("AllowUnsafeMalformedObjectDeletion=true").unwrap(),
        auth: AuthConfig::server(tokens, true),
        ..Config::default()
    })
}

#[test]
fn with_the_gate_off_the_option_is_cleared() {
    let mut e = engine();
    post(
        &mut e,
        "/api/v1/namespaces/default/configmaps",
        &json!({"metadata": {"name": "x"}}),
    );
    let uri = format!("/api/v1/namespaces/default/configmaps/x?{OPT}=true&dryRun=All");
    let r = send(&mut e, "DELETE", &uri, None, &[]);
    assert_eq!(r.code, 200, "{}", r.text);
    assert_eq!(r.json["details"]["name"], "x", "{}", r.text);
    // A dry run: the object is still there.
    assert_eq!(
        get(&mut e, "/api/v1/namespaces/default/configmaps/x").code,
        200
    );
}

#[test]
fn with_the_gate_on_it_is_validated_authorized_and_refused_on_readable_objects() {
    let mut e = gated();
    admin_ns(&mut e, "dev");
    admin(
        &mut e,
        "POST",
        "/api/v1/namespaces/dev/configmaps",
        &json!({"metadata": {"name": "x"}}),
    );
    let uri = "/api/v1/namespaces/dev/configmaps/x";
    let body = json!({"kind": "DeleteOptions", "apiVersion": "v1", OPT: true,
        "propagationPolicy": "Background", "gracePeriodSeconds": 0,
        "preconditions": {"uid": "u"}, "dryRun": ["All"]});
    let r = as_user(&mut e, "kubesim", "DELETE", uri, Some(&body));
    assert_eq!(r.code, 422);
    assert_eq!(
        r.message(),
        format!("DeleteOptions.meta.k8s.io \"\" is invalid: [{OPT}: Invalid value: true: cannot be set together with .dryRun, {OPT}: Invalid value: true: cannot be set together with .propagationPolicy, {OPT}: Invalid value: true: cannot be set together with .gracePeriodSeconds, {OPT}: Invalid value: true: cannot be set together with .preconditions]")
    );
    // alice may delete configmaps in dev, but not unsafely.
    let role = json!({"metadata": {"name": "deleter"}, "rules": [{"apiGroups": [""], "resources": ["configmaps"], "verbs": ["delete"]}]});
    admin(
        &mut e,
        "POST",
        &format!("{RBAC}/namespaces/dev/roles"),
        &role,
    );
    let binding = json!({"metadata": {"name": "deleter"}, "roleRef": {"kind": "Role", "name": "deleter"},
        "subjects": [{"kind": "User", "name": "alice"}]});
    admin(
        &mut e,
        "POST",
        &format!("{RBAC}/namespaces/dev/rolebindings"),
        &binding,
    );
    let plain = json!({OPT: true});
    let r = as_user(&mut e, "t-alice", "DELETE", uri, Some(&plain));
    assert_eq!(
        (r.code, r.message()),
        (403, "configmaps \"x\" is forbidden: not permitted to do \"unsafe-delete-ignore-read-errors\", reason: ")
    );
    // Allowed, but the object is readable: the option is only for corrupt objects.
    let r = as_user(
        &mut e,
        "kubesim",
        "DELETE",
        &format!("{uri}?{OPT}=true"),
        None,
    );
    assert_eq!(r.code, 422);
    assert_eq!(
        r.message(),
        format!("configmaps \"x\" is invalid: {OPT}: Invalid value: true: is exclusively used to delete corrupt object(s), try again by removing this option")
    );
    assert_eq!(
        r.json["details"],
        json!({"name": "x", "kind": "configmaps", "causes": [{"reason": "FieldValueInvalid", "message": "Invalid value: true: is exclusively used to delete corrupt object(s), try again by removing this option", "field": OPT}]})
    );
    // The object is still there.
    assert_eq!(as_user(&mut e, "kubesim", "GET", uri, None).code, 200);
    // A missing object is no different: the option is refused, not answered 404.
    let r = as_user(
        &mut e,
        "kubesim",
        "DELETE",
        &format!("{uri}-gone?{OPT}=true"),
        None,
    );
    assert_eq!(r.code, 422, "{}", r.text);
    assert_eq!(
        r.message(),
        format!("configmaps \"x-gone\" is invalid: {OPT}: Invalid value: true: is exclusively used to delete corrupt object(s), try again by removing this option")
    );
    // Never for a whole collection.
    let r = as_user(
        &mut e,
        "kubesim",
        "DELETE",
        &format!("/api/v1/namespaces/dev/configmaps?{OPT}=true"),
        None,
    );
    assert_eq!(
        (r.code, r.message()),
        (422, format!("DeleteOptions.meta.k8s.io \"\" is invalid: {OPT}: Invalid value: true: is not allowed with DELETECOLLECTION, try again after removing the option").as_str())
    );
}
