//! kube-rs with a bearer token against the native server under RBAC: denied with the real
//! Status, allowed once granted, and the review kinds through k8s-openapi's types.

use std::sync::{Arc, Mutex};

use k8s_openapi::api::authentication::v1::SelfSubjectReview;
use k8s_openapi::api::authorization::v1::{
    ResourceAttributes, SelfSubjectAccessReview, SelfSubjectAccessReviewSpec,
};
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{ListParams, PostParams};
use kube::{Api, Client};
use serde_json::json;

use crate::common::auth::{admin, admin_ns, server_like, RBAC};

async fn client_as(
    engine: Arc<Mutex<kubesim::Engine>>,
    token: &str,
) -> (Client, tokio::sync::oneshot::Sender<()>) {
    let (listener, addr) = kubesim::server::bind("127.0.0.1:0".parse().unwrap())
        .await
        .unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(kubesim::server::run(engine, listener, None, async {
        let _ = stopped.await;
    }));
    let mut config = kube::Config::new(format!("http://{addr}").parse().unwrap());
    config.auth_info.token = Some(token.to_string().into());
    (Client::try_from(config).unwrap(), stop)
}

fn can_i(verb: &str, ns: &str) -> SelfSubjectAccessReview {
    SelfSubjectAccessReview {
        spec: SelfSubjectAccessReviewSpec {
            resource_attributes: Some(ResourceAttributes {
                verb: Some(verb.into()),
                resource: Some("configmaps".into()),
                namespace: Some(ns.into()),
                ..ResourceAttributes::default()
            }),
            ..SelfSubjectAccessReviewSpec::default()
        },
        ..SelfSubjectAccessReview::default()
    }
}

#[tokio::test]
async fn kube_rs_with_a_token_under_rbac() {
    let mut e = server_like();
    admin_ns(&mut e, "dev");
    let engine = Arc::new(Mutex::new(e));
    let (client, stop) = client_as(engine.clone(), "t-alice").await;
    let cms: Api<ConfigMap> = Api::namespaced(client.clone(), "dev");
    match cms.list(&ListParams::default()).await {
        Err(kube::Error::Api(s)) => {
            assert_eq!((s.code, s.reason.as_str()), (403, "Forbidden"));
            assert_eq!(s.message, "configmaps is forbidden: User \"alice\" cannot list resource \"configmaps\" in API group \"\" in the namespace \"dev\"");
        }
        other => panic!("{other:?}"),
    }
    let reviews: Api<SelfSubjectAccessReview> = Api::all(client.clone());
    let answer = reviews
        .create(&PostParams::default(), &can_i("list", "dev"))
        .await
        .unwrap();
    assert!(!answer.status.unwrap().allowed);

    {
        let mut e = engine.lock().unwrap();
        let role = json!({"metadata": {"name": "r"},
            "rules": [{"verbs": ["list"], "apiGroups": [""], "resources": ["configmaps"]}]});
        admin(
            &mut e,
            "POST",
            &format!("{RBAC}/namespaces/dev/roles"),
            &role,
        );
        let binding = json!({"metadata": {"name": "b"},
            "subjects": [{"kind": "User", "apiGroup": "rbac.authorization.k8s.io", "name": "alice"}],
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "r"}});
        admin(
            &mut e,
            "POST",
            &format!("{RBAC}/namespaces/dev/rolebindings"),
            &binding,
        );
    }
    assert!(cms
        .list(&ListParams::default())
        .await
        .unwrap()
        .items
        .is_empty());
    let answer = reviews
        .create(&PostParams::default(), &can_i("list", "dev"))
        .await
        .unwrap();
    let status = answer.status.unwrap();
    assert!(status.allowed);
    assert_eq!(
        status.reason.as_deref(),
        Some("RBAC: allowed by RoleBinding \"b/dev\" of Role \"r\" to User \"alice\"")
    );
    let me: Api<SelfSubjectReview> = Api::all(client);
    let who = me
        .create(&PostParams::default(), &SelfSubjectReview::default())
        .await
        .unwrap();
    let user = who.status.unwrap().user_info.unwrap();
    assert_eq!(user.username.as_deref(), Some("alice"));
    assert_eq!(user.uid.as_deref(), Some("u1"));
    let _ = stop.send(());
}
