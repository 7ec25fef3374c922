//! The custom resources lesson: a CustomResourceDefinition defines a kind, the controllers
//! establish it, discovery shows it, its schema prunes, defaults and validates, its printer
//! columns make the table, and deleting the definition deletes its objects first.

use super::{Lesson, Step, S};

const CRDS: &str = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const WIDGETS: &str = "/apis/example.com/v1/namespaces/default/widgets";

const WIDGET_CRD: &str = "{
  \"apiVersion\": \"apiextensions.k8s.io/v1\",
  \"kind\": \"CustomResourceDefinition\",
  \"metadata\": {\"name\": \"widgets.example.com\"},
  \"spec\": {
    \"group\": \"example.com\",
    \"scope\": \"Namespaced\",
    \"names\": {\"plural\": \"widgets\", \"kind\": \"Widget\", \"shortNames\": [\"wd\"]},
    \"versions\": [{
      \"name\": \"v1\", \"served\": true, \"storage\": true,
      \"subresources\": {\"status\": {}},
      \"additionalPrinterColumns\": [
        {\"name\": \"Color\", \"type\": \"string\", \"jsonPath\": \".spec.color\"},
        {\"name\": \"Size\", \"type\": \"integer\", \"jsonPath\": \".spec.size\"}
      ],
      \"schema\": {\"openAPIV3Schema\": {
        \"type\": \"object\",
        \"properties\": {
          \"spec\": {\"type\": \"object\", \"properties\": {
            \"color\": {\"type\": \"string\", \"enum\": [\"red\", \"blue\"]},
            \"size\": {\"type\": \"integer\", \"default\": 3, \"minimum\": 1}
          }},
          \"status\": {\"type\": \"object\", \"x-kubernetes-preserve-unknown-fields\": true}
        }
      }}
    }]
  }
}";

pub(super) const CRD_LESSON: Lesson = Lesson {
    id: "crd",
    title: "Custom resources: a kind of your own",
    summary: "A CustomResourceDefinition adds a kind: established by the controllers, discovered, pruned, defaulted and validated by its schema, printed by its columns, and deleted with its objects.",
    gates: &[],
    steps: &[
        Step {
            title: "Define the Widget kind",
            method: "POST",
            path: CRDS,
            body: WIDGET_CRD,
            status: 201,
            expect: "201 Created. status.conditions is null and acceptedNames are empty: nothing serves widgets yet.",
            notice: "The definition is an ordinary object; what serves its kind is the controllers' work, in the next tick.",
            ..S
        },
        Step {
            title: "Read the definition back",
            path: "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com",
            expect: "200 OK: status.acceptedNames are the requested names, NamesAccepted and Established are True.",
            notice: "The naming controller checked the names against the group's other kinds; the establishing controller then marked it Established. From now on widgets are served.",
            ..S
        },
        Step {
            title: "Discover the new group version",
            path: "/apis/example.com/v1",
            expect: "200 OK: an APIResourceList with widgets (verbs in the CRD handler's order) and widgets/status.",
            notice: "Clients find the kind as they find built-in ones. The builder's path completion now offers widgets paths too.",
            ..S
        },
        Step {
            title: "Create a widget with a field the schema does not know",
            method: "POST",
            path: WIDGETS,
            body: "{\n  \"apiVersion\": \"example.com/v1\",\n  \"kind\": \"Widget\",\n  \"metadata\": {\"name\": \"w1\"},\n  \"spec\": {\"color\": \"red\", \"shade\": \"dark\"}\n}",
            status: 201,
            expect: "201 Created with a Warning: unknown field \"spec.shade\". spec.shade is gone, spec.size is 3, and every key is sorted.",
            notice: "A custom resource is unstructured JSON pruned to its schema: unknown fields are dropped (fieldValidation=Warn by default), defaults are filled in, and maps come back in key order, metadata included.",
            ..S
        },
        Step {
            title: "The same with fieldValidation=Strict",
            method: "POST",
            path: "/apis/example.com/v1/namespaces/default/widgets?fieldValidation=Strict",
            body: "{\n  \"apiVersion\": \"example.com/v1\",\n  \"kind\": \"Widget\",\n  \"metadata\": {\"name\": \"w2\"},\n  \"spec\": {\"color\": \"red\", \"shade\": \"dark\"}\n}",
            status: 400,
            expect: "400 Bad Request: strict decoding error: unknown field \"spec.shade\".",
            notice: "kubectl sends Strict by default: a typo in a manifest fails instead of vanishing.",
            ..S
        },
        Step {
            title: "A value the schema forbids",
            method: "POST",
            path: WIDGETS,
            body: "{\n  \"apiVersion\": \"example.com/v1\",\n  \"kind\": \"Widget\",\n  \"metadata\": {\"name\": \"w3\"},\n  \"spec\": {\"color\": \"green\", \"size\": 0}\n}",
            status: 422,
            expect: "422 Invalid: spec.color: Unsupported value: \"green\" and spec.size: should be greater than or equal to 1.",
            notice: "The schema's value validations are the kind's validation, with the same error shapes as built-in kinds.",
            ..S
        },
        Step {
            title: "List widgets as kubectl does",
            path: WIDGETS,
            headers: "Accept: application/json;as=Table;v=v1;g=meta.k8s.io",
            expect: "200 OK: a Table with the columns Name, Color and Size.",
            notice: "additionalPrinterColumns are JSONPaths the server evaluates; without them a custom kind prints Name and Age.",
            ..S
        },
        Step {
            title: "A strategic merge patch",
            method: "PATCH",
            path: "/apis/example.com/v1/namespaces/default/widgets/w1",
            headers: "Content-Type: application/strategic-merge-patch+json",
            body: "{\"spec\": {\"color\": \"blue\"}}",
            status: 415,
            expect: "415 Unsupported Media Type, naming the patch types custom resources accept.",
            notice: "Strategic merge needs Go struct tags a custom kind does not have; a merge patch or server-side apply works.",
            ..S
        },
        Step {
            title: "Delete the definition",
            method: "DELETE",
            path: "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com",
            expect: "200 OK with the definition: deletionTimestamp, the customresourcecleanup finalizer, Terminating=True.",
            notice: "The definition cannot go while widgets exist: first its finalizer controller deletes them.",
            ..S
        },
        Step {
            title: "Let a second pass",
            method: "POST",
            path: "/kubesim/v1/clock/advance?seconds=1",
            expect: "200 OK with the new time.",
            notice: "The finalizer controller deleted w1, then removed its finalizer, and the definition went with it.",
            ..S
        },
        Step {
            title: "Ask for widgets again",
            path: WIDGETS,
            status: 404,
            expect: "404 page not found, as plain text.",
            notice: "What no definition serves falls through to the server's plain 404, as for any unknown path.",
            ..S
        },
    ],
};
