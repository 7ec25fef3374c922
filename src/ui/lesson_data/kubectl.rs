//! "What kubectl really sends": terminal steps beside builder steps. kubectl's chunked list
//! (`limit` and `continue`), the Table it asks for, `get -w` (a list, then a watch from the
//! list's resourceVersion), and client-side against server-side apply, each shown by its
//! `-v=6`/`-v=8` lines and then sent by hand in the builder.

use super::{Lesson, Step, S};

const TABLE: &str = "Accept: application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";

pub(super) const KUBECTL_LESSON: Lesson = Lesson {
    id: "kubectl",
    title: "What kubectl really sends",
    summary: "kubectl commands in the terminal beside the requests they send: chunked lists, tables, get -w, and client-side against server-side apply.",
    gates: &[],
    steps: &[
        Step {
            title: "Create three ConfigMaps from a here-document",
            kubectl: "kubectl create -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app-1\ndata:\n  k: one\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app-2\ndata:\n  k: two\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app-3\ndata:\n  k: three\nEOF",
            status: 0,
            expect: "Exit status 0: configmap/app-1 created, then app-2 and app-3: one POST per document.",
            notice: "kubectl splits the stream at each ---, finds each kind's resource through discovery (the first command of a session asks /api and /apis), and sends each object with fieldManager=kubectl-create and fieldValidation=Strict.",
            ..S
        },
        Step {
            title: "List them in chunks of one, and watch the requests",
            kubectl: "kubectl get configmaps --chunk-size=1 -v=6",
            status: 0,
            expect: "Exit status 0: one table of three rows, from three GETs: limit=1, then limit=1&continue=... twice.",
            notice: "kubectl pages every list (500 by default): --chunk-size only makes it visible. It prints one table, because each page's Table has the same columns and the headers are printed once. Click a request line to open it in the builder.",
            ..S
        },
        Step {
            title: "Send kubectl's first page by hand",
            path: "/api/v1/namespaces/default/configmaps?limit=1",
            headers: TABLE,
            expect: "200 OK: a meta.k8s.io Table with columnDefinitions (Name, Data, Age), one row, and metadata.continue for the next page.",
            notice: "kubectl does not print objects itself: it asks the server for a Table (Accept: ...;as=Table) and prints the server's columns. That is why a custom resource's printer columns show in kubectl get.",
            ..S
        },
        Step {
            title: "Start kubectl get -w",
            kubectl: "kubectl get configmaps -w -v=6",
            status: 0,
            expect: "The table of three ConfigMaps, then a second request, resourceVersion=N&watch=true, N being the list's resourceVersion; the command keeps running.",
            notice: "get -w is a list and then a watch from the list's resourceVersion: the list is the state, the watch every change after it, with nothing missed in between. The watch stays open in the Terminal tab (Ctrl+C there stops it).",
            ..S
        },
        Step {
            title: "Write while it watches",
            method: "POST",
            path: "/api/v1/namespaces/default/configmaps",
            body: "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"app-4\"}, \"data\": {\"k\": \"four\"}}",
            status: 201,
            expect: "201 Created; in the Terminal tab the running get -w printed a row for app-4, in the columns of the table above it.",
            notice: "Each watch event carries a Table of one row (no column definitions after the first), so kubectl keeps printing in the same columns.",
            ..S
        },
        Step {
            title: "Apply client-side",
            kubectl: "kubectl apply -v=6 -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app-5\ndata:\n  k: five\nEOF",
            status: 0,
            expect: "Exit status 0: configmap/app-5 created, after GETs of the OpenAPI documents, a GET of app-5 (404) and a POST with fieldManager=kubectl-client-side-apply.",
            notice: "Client-side apply works out the change itself: it reads the object, and creates it or patches the difference from the last-applied-configuration annotation it keeps on the object.",
            ..S
        },
        Step {
            title: "Apply server-side",
            kubectl: "kubectl apply --server-side -v=6 -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app-6\ndata:\n  k: six\nEOF",
            status: 0,
            expect: "Exit status 0: configmap/app-6 serverside-applied, from one PATCH with fieldManager=kubectl and force=false, answered 201 Created: an apply creates what is not there.",
            notice: "Server-side apply sends the whole intent (Content-Type: application/apply-patch+yaml) and the server merges it and records who owns which field: no read first, no annotation.",
            ..S
        },
        Step {
            title: "Compare the two objects",
            path: "/api/v1/namespaces/default/configmaps/app-5",
            expect: "200 OK: app-5 carries the kubectl.kubernetes.io/last-applied-configuration annotation and a managedFields entry for kubectl-client-side-apply (Update). GET app-6 to see the other way: no annotation, and kubectl (Apply).",
            notice: "The annotation is client-side apply's memory; managedFields is the server's. Mixing the two on one object is what kubectl's client-side to server-side migration untangles.",
            ..S
        },
    ],
};
