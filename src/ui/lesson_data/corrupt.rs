//! The corrupt-object lesson: a stored value becomes unreadable (its encryption key is
//! lost); reads from storage fail while the watch cache keeps serving its last copy; a normal
//! delete fails; the unsafe delete (`ignoreStoreReadErrorWithClusterBreakingPotential`, gate
//! `AllowUnsafeMalformedObjectDeletion`, which this lesson turns on) removes it, finalizer
//! and all.

use super::{Lesson, Step, S};

const CMS: &str = "/api/v1/namespaces/default/configmaps";
const FRAGILE: &str = "/api/v1/namespaces/default/configmaps/fragile";

pub(super) const CORRUPT: Lesson = Lesson {
    id: "corrupt",
    title: "A corrupt object and its force deletion",
    summary: "An object etcd can no longer decrypt: which reads fail, which still answer from the cache, and the one delete that removes it.",
    gates: &["AllowUnsafeMalformedObjectDeletion"],
    steps: &[
        Step {
            title: "Create an object with a finalizer",
            method: "POST",
            path: CMS,
            headers: "Content-Type: application/json",
            body: "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"fragile\", \"finalizers\": [\"example.com/keep\"]}, \"data\": {\"k\": \"v\"}}",
            status: 201,
            expect: "201 Created.",
            notice: "This lesson's cluster runs with the AllowUnsafeMalformedObjectDeletion gate on (see Time & chaos), as a cluster administrator would turn it on to clean up.",
            ..S
        },
        Step {
            title: "Lose its encryption key",
            method: "POST",
            path: "/kubesim/v1/corrupt?path=/api/v1/namespaces/default/configmaps/fragile&as=undecryptable",
            expect: "200 OK: {\"corrupted\": \"/registry/configmaps/default/fragile\", ...}",
            notice: "A kubesim control (the Corrupt form in Time & chaos does the same): the stored bytes stay, but the apiserver can no longer decrypt them. No new revision is written.",
            ..S
        },
        Step {
            title: "Read it from storage",
            path: FRAGILE,
            status: 500,
            expect: "500 InternalError: Internal error occurred: StorageError: corrupt object, Code: 7, Key: /configmaps/default/fragile, ResourceVersion: 0, AdditionalErrorMsg: data from the storage is not transformable revision=0: no matching prefix found",
            notice: "A get without resourceVersion reads etcd. With the gate off the message is just the transformer's: Internal error occurred: no matching prefix found.",
            ..S
        },
        Step {
            title: "Read it from the watch cache",
            path: "/api/v1/namespaces/default/configmaps/fragile?resourceVersion=0",
            expect: "200 OK: the object as it was, from the watch cache (badge: Any · watch cache).",
            notice: "The cache decoded the object before its key was lost and still serves that copy, as do informers built on it: clients may not notice until they write.",
            ..S
        },
        Step {
            title: "Delete it",
            method: "DELETE",
            path: FRAGILE,
            status: 500,
            expect: "500 InternalError: the same corrupt-object error.",
            notice: "A delete reads the object first (for its finalizers and preconditions), and cannot.",
            ..S
        },
        Step {
            title: "Force it, with a dry run",
            method: "DELETE",
            path: "/api/v1/namespaces/default/configmaps/fragile?ignoreStoreReadErrorWithClusterBreakingPotential=true&dryRun=All",
            status: 422,
            expect: "422 Invalid: DeleteOptions.meta.k8s.io \"\" is invalid: ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: cannot be set together with .dryRun",
            notice: "The unsafe delete takes no other option: no dry run, propagation policy, grace period or preconditions.",
            ..S
        },
        Step {
            title: "Force it",
            method: "DELETE",
            path: "/api/v1/namespaces/default/configmaps/fragile?ignoreStoreReadErrorWithClusterBreakingPotential=true",
            expect: "200 OK: a Status Success with details {\"name\": \"fragile\", \"kind\": \"ConfigMap\"}.",
            notice: "It also needs the unsafe-delete-ignore-read-errors verb (the admin has every verb). The finalizer did not hold it: nothing could read it. Watches of configmaps ended rather than see a DELETED event.",
            ..S
        },
        Step {
            title: "It is gone",
            path: FRAGILE,
            status: 404,
            expect: "404 Not Found: configmaps \"fragile\" not found",
            notice: "On a readable object the same option is refused (422): it is only for objects the store cannot read.",
            ..S
        },
    ],
};
