//! The RBAC lesson: a user with no grants is forbidden, a Role and a RoleBinding grant one
//! namespace, the grant stops at that namespace, an access review asks the authorizer
//! directly, and a dry run needs the very permission the real request needs. Steps act as
//! alice through `Impersonate-User` (the page itself acts as kubesim-admin, who may
//! impersonate); the user switcher does the same for every request.

use super::{Lesson, Step, S};

const AS_ALICE: &str = "Impersonate-User: alice";

pub(super) const RBAC_LESSON: Lesson = Lesson {
    id: "rbac",
    title: "RBAC: forbidden, granted, and asking the authorizer",
    summary: "A user with no grants is forbidden; a Role and RoleBinding grant one namespace and nothing more; an access review asks the authorizer directly; a dry run needs the same permission.",
    gates: &[],
    steps: &[
        Step {
            title: "Alice lists ConfigMaps",
            path: "/api/v1/namespaces/default/configmaps",
            headers: AS_ALICE,
            status: 403,
            expect: "403 Forbidden: configmaps is forbidden: User \"alice\" cannot list resource \"configmaps\" in API group \"\" in the namespace \"default\"",
            notice: "Every request is authorized before it reaches the registry: verb (list), API group (\"\" is core), resource and namespace. Nothing grants alice anything yet. The Impersonate-User header makes this request act as alice; the page itself is kubesim-admin, in system:masters, who may impersonate.",
            ..S
        },
        Step {
            title: "Create a Role in default",
            method: "POST",
            path: "/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles",
            body: "{\n  \"apiVersion\": \"rbac.authorization.k8s.io/v1\",\n  \"kind\": \"Role\",\n  \"metadata\": {\"name\": \"cm-reader\"},\n  \"rules\": [{\"apiGroups\": [\"\"], \"resources\": [\"configmaps\"], \"verbs\": [\"get\", \"list\", \"watch\"]}]\n}",
            status: 201,
            expect: "201 Created: a Role with one rule (get, list and watch ConfigMaps).",
            notice: "A Role is a set of rules inside one namespace; it grants nothing until a binding names someone. kubectl create role cm-reader --verb=get,list,watch --resource=configmaps sends this.",
            ..S
        },
        Step {
            title: "Bind it to alice",
            method: "POST",
            path: "/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings",
            body: "{\n  \"apiVersion\": \"rbac.authorization.k8s.io/v1\",\n  \"kind\": \"RoleBinding\",\n  \"metadata\": {\"name\": \"alice-reads\"},\n  \"subjects\": [{\"kind\": \"User\", \"apiGroup\": \"rbac.authorization.k8s.io\", \"name\": \"alice\"}],\n  \"roleRef\": {\"apiGroup\": \"rbac.authorization.k8s.io\", \"kind\": \"Role\", \"name\": \"cm-reader\"}\n}",
            status: 201,
            expect: "201 Created: alice is a subject of the Role cm-reader in default.",
            notice: "roleRef cannot be changed after creation (delete and re-create instead). Creating a binding is itself checked: you may only bind rules you hold, unless you may bind that role.",
            ..S
        },
        Step {
            title: "Alice lists ConfigMaps again",
            path: "/api/v1/namespaces/default/configmaps",
            headers: AS_ALICE,
            expect: "200 OK: an empty ConfigMapList.",
            notice: "The grant works from the next request on: the authorizer reads the stored roles and bindings.",
            ..S
        },
        Step {
            title: "The grant stops at its namespace",
            path: "/api/v1/namespaces/kube-system/configmaps",
            headers: AS_ALICE,
            status: 403,
            expect: "403 Forbidden: configmaps is forbidden: User \"alice\" cannot list resource \"configmaps\" in API group \"\" in the namespace \"kube-system\"",
            notice: "A RoleBinding grants only in its own namespace. A ClusterRoleBinding would grant everywhere.",
            ..S
        },
        Step {
            title: "Ask the authorizer: may alice delete ConfigMaps in default?",
            method: "POST",
            path: "/apis/authorization.k8s.io/v1/subjectaccessreviews",
            body: "{\n  \"apiVersion\": \"authorization.k8s.io/v1\",\n  \"kind\": \"SubjectAccessReview\",\n  \"spec\": {\n    \"user\": \"alice\",\n    \"resourceAttributes\": {\"namespace\": \"default\", \"verb\": \"delete\", \"resource\": \"configmaps\"}\n  }\n}",
            status: 201,
            expect: "201 Created, and status is {\"allowed\": false}: the Role grants get, list and watch only.",
            notice: "A SubjectAccessReview is a virtual kind: nothing is stored, the answer comes back in status. Ask with verb list and the answer is allowed, with the reason naming the RoleBinding. kubectl auth can-i sends the self-review form of this.",
            ..S
        },
        Step {
            title: "A dry run needs the same permission",
            method: "POST",
            path: "/api/v1/namespaces/default/configmaps?dryRun=All",
            headers: AS_ALICE,
            body: "{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"ConfigMap\",\n  \"metadata\": {\"name\": \"trial\"}\n}",
            status: 403,
            expect: "403 Forbidden: configmaps is forbidden: User \"alice\" cannot create resource \"configmaps\" in API group \"\" in the namespace \"default\"",
            notice: "dryRun=All skips only the storage write; authorization, admission and validation all run, so a dry run tells you whether the real request would pass.",
            ..S
        },
    ],
};
