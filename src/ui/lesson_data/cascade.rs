//! The cascading-deletion lesson: an owner and two dependents, deleted in the foreground
//! (the owner waits, terminating, for the dependent that blocks it), then an owner deleted
//! with Orphan (its dependent stays and loses the reference). The garbage collector acts a
//! simulated second after each change, so the lesson moves time on to let it work; the
//! Store tab's timeline shows each of its writes.

use super::{Lesson, Step, S};

const CMS: &str = "/api/v1/namespaces/default/configmaps";
const JSON: &str = "Content-Type: application/json";

pub(super) const CASCADE: Lesson = Lesson {
    id: "cascade",
    title: "Cascading deletion: Foreground, blockOwnerDeletion and Orphan",
    summary: "ownerReferences tie dependents to an owner; the garbage collector deletes them after the owner (Background), before it (Foreground), or not at all (Orphan).",
    gates: &[],
    steps: &[
        Step {
            title: "Create the owner",
            method: "POST",
            path: CMS,
            headers: JSON,
            body: "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"app\"}}",
            status: 201,
            expect: "201 Created: the ConfigMap app. Its uid is saved for the next steps.",
            notice: "An owner reference names its owner by kind, name and uid: a new object with the same name is not the same owner.",
            save: &[("uid", "/metadata/uid")],
            ..S
        },
        Step {
            title: "A dependent that blocks its owner's deletion",
            method: "POST",
            path: CMS,
            headers: JSON,
            body: "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"app-config\", \"ownerReferences\": [{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"name\": \"app\", \"uid\": \"{{uid}}\", \"blockOwnerDeletion\": true}]}}",
            status: 201,
            expect: "201 Created: app-config, owned by app, with blockOwnerDeletion: true.",
            notice: "blockOwnerDeletion matters only for a foreground deletion: the owner is not removed while this dependent exists.",
            ..S
        },
        Step {
            title: "A dependent that does not block",
            method: "POST",
            path: CMS,
            headers: JSON,
            body: "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"app-cache\", \"finalizers\": [\"example.com/flush\"], \"ownerReferences\": [{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"name\": \"app\", \"uid\": \"{{uid}}\"}]}}",
            status: 201,
            expect: "201 Created: app-cache, owned by app, holding a finalizer of its own.",
            notice: "Its finalizer will keep it terminating until someone removes it; the owner does not wait for it, because it does not block.",
            ..S
        },
        Step {
            title: "Delete the owner in the foreground",
            method: "DELETE",
            path: "/api/v1/namespaces/default/configmaps/app?propagationPolicy=Foreground",
            status: 200,
            expect: "200 OK with the object: deletionTimestamp is set and finalizers is [\"foregroundDeletion\"].",
            notice: "kubectl delete --cascade=foreground sends this. The API server only marks the owner; the garbage collector does the rest, about a second later.",
            ..S
        },
        Step {
            title: "Nothing else has happened yet",
            path: CMS,
            expect: "200 OK: app, app-cache and app-config are all listed; app has a deletionTimestamp.",
            notice: "The collector has not run. On a real cluster this window is short but real: clients see the terminating owner first.",
            ..S
        },
        Step {
            title: "Let a second pass",
            method: "POST",
            path: "/kubesim/v1/clock/advance?seconds=1",
            expect: "200 OK. The collector deleted both dependents: app-config is gone, app-cache is terminating (its finalizer holds it). With no blocking dependent left, it removed foregroundDeletion and app vanished right after.",
            notice: "In a foreground deletion every dependent is deleted, blocking or not, but the owner waits only for dependents with blockOwnerDeletion: app-cache is still there, terminating.",
            ..S
        },
        Step {
            title: "The owner is gone",
            path: "/api/v1/namespaces/default/configmaps/app",
            status: 404,
            expect: "404 Not Found: configmaps \"app\" not found",
            notice: "Compare the Store tab's timeline: the DELETE, then the collector's deletes and its finalizer removal.",
            ..S
        },
        Step {
            title: "An owner for an orphan",
            method: "POST",
            path: CMS,
            headers: JSON,
            body: "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"db\"}}",
            status: 201,
            expect: "201 Created: the ConfigMap db.",
            notice: "Its uid is saved as dbUid.",
            save: &[("dbUid", "/metadata/uid")],
            ..S
        },
        Step {
            title: "Its dependent",
            method: "POST",
            path: CMS,
            headers: JSON,
            body: "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"db-settings\", \"ownerReferences\": [{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"name\": \"db\", \"uid\": \"{{dbUid}}\"}]}}",
            status: 201,
            expect: "201 Created: db-settings, owned by db.",
            notice: "Deleted in the background (the default), db would go at once and db-settings a second later.",
            ..S
        },
        Step {
            title: "Delete the owner, orphaning its dependents",
            method: "DELETE",
            path: "/api/v1/namespaces/default/configmaps/db?propagationPolicy=Orphan",
            status: 200,
            expect: "200 OK with the object: finalizers is [\"orphan\"].",
            notice: "kubectl delete --cascade=orphan. The orphan finalizer keeps db until the collector has removed it from every dependent's ownerReferences.",
            ..S
        },
        Step {
            title: "Let a second pass",
            method: "POST",
            path: "/kubesim/v1/clock/advance?seconds=1",
            expect: "200 OK. The collector removed db from db-settings' ownerReferences, then the orphan finalizer: db is gone.",
            notice: "Orphaning is how a Deployment can be deleted while its ReplicaSets keep running.",
            ..S
        },
        Step {
            title: "The orphan",
            path: "/api/v1/namespaces/default/configmaps/db-settings",
            expect: "200 OK: db-settings has no ownerReferences any more. Removing a field leaves no managedFields entry, and its creator, whose only field that was, has none left either.",
            notice: "It will now live until deleted: nothing owns it.",
            ..S
        },
    ],
};
