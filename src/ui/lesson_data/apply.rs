//! The server-side apply lesson: two managers, a conflict, force, a field removed by
//! omission, and an ordinary update taking ownership. Every step's body is YAML, as
//! `kubectl apply --server-side` sends it.

use super::{Lesson, Step, S};

macro_rules! web {
    ($query:literal) => {
        concat!(
            "/apis/apps/v1/namespaces/default/controllerrevisions/web?",
            $query
        )
    };
}

const APPLY_YAML: &str = "Content-Type: application/apply-patch+yaml";

pub(super) const APPLY: Lesson = Lesson {
    id: "apply",
    title: "Server-side apply: field ownership and conflicts",
    summary: "Two managers apply to one object: who owns which field, a conflict, forcing it, and a field removed because its owner stopped sending it.",
    gates: &[],
    steps: &[
        Step {
            title: "Alice applies her configuration",
            method: "PATCH",
            path: web!("fieldManager=alice"),
            headers: APPLY_YAML,
            body: "apiVersion: apps/v1\nkind: ControllerRevision\nmetadata:\n  name: web\n  labels:\n    app: web\n    team: alpha\n    env: dev\ndata:\n  replicas: 1\nrevision: 1\n",
            status: 201,
            expect: "201 Created. The ownership table under the body lists one manager, alice (Apply), owning the three labels, data.replicas and revision.",
            notice: "An apply is a PATCH of the whole intent: the fields you send are the fields you own. The object did not exist, so the apply created it.",
            ..S
        },
        Step {
            title: "Bob applies a different team",
            method: "PATCH",
            path: web!("fieldManager=bob"),
            headers: APPLY_YAML,
            body: "apiVersion: apps/v1\nkind: ControllerRevision\nmetadata:\n  name: web\n  labels:\n    team: beta\n",
            status: 409,
            expect: "409 Conflict: Apply failed with 1 conflict: conflict with \"alice\": .metadata.labels.team",
            notice: "Setting a field another applier owns to a different value is a conflict, not a silent overwrite. status.details.causes names each conflicting field.",
            ..S
        },
        Step {
            title: "Bob forces it",
            method: "PATCH",
            path: web!("fieldManager=bob&force=true"),
            headers: APPLY_YAML,
            body: "apiVersion: apps/v1\nkind: ControllerRevision\nmetadata:\n  name: web\n  labels:\n    team: beta\n",
            status: 200,
            expect: "200 OK: team is beta. The table shows .metadata.labels.team owned by bob (Apply), and alice no longer owns it.",
            notice: "force=true takes the conflicting fields away from their owners (kubectl: --force-conflicts). A controller should force; a person usually should not.",
            ..S
        },
        Step {
            title: "Alice re-applies her original configuration",
            method: "PATCH",
            path: web!("fieldManager=alice"),
            headers: APPLY_YAML,
            body: "apiVersion: apps/v1\nkind: ControllerRevision\nmetadata:\n  name: web\n  labels:\n    app: web\n    team: alpha\n    env: dev\ndata:\n  replicas: 1\nrevision: 1\n",
            status: 409,
            expect: "409 Conflict: Apply failed with 1 conflict: conflict with \"bob\": .metadata.labels.team",
            notice: "The conflict now runs the other way: bob owns team. Alice must force, or stop managing the field.",
            ..S
        },
        Step {
            title: "Alice leaves out team and env",
            method: "PATCH",
            path: web!("fieldManager=alice"),
            headers: APPLY_YAML,
            body: "apiVersion: apps/v1\nkind: ControllerRevision\nmetadata:\n  name: web\n  labels:\n    app: web\ndata:\n  replicas: 1\nrevision: 1\n",
            status: 200,
            expect: "200 OK: the env label is gone, team is still beta.",
            notice: "A field an applier stops sending is removed when nobody else owns it (env); one that another manager owns stays (team, bob's). That is how apply deletes without a delete.",
            ..S
        },
        Step {
            title: "Carol changes revision with an ordinary patch",
            method: "PATCH",
            path: web!("fieldManager=carol"),
            body: "{\"revision\": 2}",
            expect: "200 OK. The table shows carol (Update) owning .revision; alice no longer owns it.",
            notice: "Non-apply writes (create, PUT, JSON, merge and strategic patches) never conflict: they take ownership of what they change, and the previous owners lose it.",
            ..S
        },
        Step {
            title: "Alice re-applies revision: 1",
            method: "PATCH",
            path: web!("fieldManager=alice"),
            headers: APPLY_YAML,
            body: "apiVersion: apps/v1\nkind: ControllerRevision\nmetadata:\n  name: web\n  labels:\n    app: web\ndata:\n  replicas: 1\nrevision: 1\n",
            status: 409,
            expect: "409 Conflict: Apply failed with 1 conflict: conflict with \"carol\" using apps/v1: .revision",
            notice: "A conflict with an Update manager names its apiVersion too. This is the usual fight between a person's apply and a controller's writes.",
            ..S
        },
        Step {
            title: "Read it back",
            method: "GET",
            path: "/apis/apps/v1/namespaces/default/controllerrevisions/web",
            expect: "200 OK: labels app and team, revision: 2, and three managers in the ownership table.",
            notice: "managedFields is part of every object a real server returns (kubectl hides it unless --show-managed-fields). Sending managedFields: [] in a write resets it.",
            ..S
        },
    ],
};
