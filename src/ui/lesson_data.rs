//! The lessons: guided scenarios through the spec's read semantics, each step one request
//! (or, in a terminal step, one kubectl command).
//!
//! Every step is an ordinary request (time and chaos go through `/kubesim/v1/`), so a step
//! can be loaded into the builder, edited, copied as curl, and linked to. Each lesson starts
//! from a fresh simulated cluster (three namespaces and the RBAC bootstrap policy, revision 142), which makes every answer,
//! resourceVersions included, the same for everyone; `status` and `events` record what the
//! step answers, and the browser tests replay every lesson to check they still do.

/// One step: a request, what it answers, and what to look at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    pub title: &'static str,
    pub method: &'static str,
    /// May contain `{{name}}` placeholders saved by earlier steps.
    pub path: &'static str,
    pub headers: &'static str,
    /// May contain `{{name}}` placeholders.
    pub body: &'static str,
    /// The status code the step answers.
    pub status: u16,
    /// What to expect.
    pub expect: &'static str,
    /// What to notice, and why it matters.
    pub notice: &'static str,
    /// Values to save from the JSON response: `(name, JSON pointer)`.
    pub save: &'static [(&'static str, &'static str)],
    /// For a watch: the event types its panel shows at once.
    pub events: &'static [&'static str],
    /// The outcome the learner is asked to predict before the step runs.
    pub predict: Option<&'static Predict>,
    /// A terminal step: the kubectl command line it runs (here-document included) instead of
    /// the builder's request; `status` is then the exit status it expects.
    pub kubectl: &'static str,
}

/// A guided scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lesson {
    /// Stable id, used in links (`#lesson=ID&step=N`).
    pub id: &'static str,
    pub title: &'static str,
    pub summary: &'static str,
    /// Feature gates the lesson turns on (its cluster is built with them).
    pub gates: &'static [&'static str],
    pub steps: &'static [Step],
}

use super::predict::Predict;
use predictions::*;

mod apply;
mod cascade;
mod corrupt;
mod crd;
mod kubectl;
mod predictions;
mod rbac;

const S: Step = Step {
    title: "",
    method: "GET",
    path: "",
    headers: "",
    body: "",
    status: 200,
    expect: "",
    notice: "",
    save: &[],
    events: &[],
    predict: None,
    kubectl: "",
};

macro_rules! crs {
    () => {
        "/apis/apps/v1/namespaces/default/controllerrevisions"
    };
}

/// A ControllerRevision body named `$name`.
macro_rules! cr {
    ($name:literal) => {
        concat!(
            "{\n  \"apiVersion\": \"apps/v1\",\n  \"kind\": \"ControllerRevision\",\n  \"metadata\": {\"name\": \"",
            $name,
            "\"},\n  \"data\": {\"replicas\": 1},\n  \"revision\": 1\n}"
        )
    };
}

/// A step that creates ControllerRevision `$name` and saves its resourceVersion as `$var`.
macro_rules! create {
    ($title:literal, $name:literal, $var:literal, $expect:literal, $notice:literal) => {
        Step {
            title: $title,
            method: "POST",
            path: crs!(),
            body: cr!($name),
            status: 201,
            expect: $expect,
            notice: $notice,
            save: &[($var, "/metadata/resourceVersion")],
            ..S
        }
    };
}

const RV_GET: Lesson = Lesson {
    id: "get-rv",
    title: "Get with resourceVersion unset, 0, or a number",
    summary: "One object read three ways: the spec's Get table, Most Recent, Any and Not older than, and an Exact list.",
    gates: &[],
    steps: &[
        create!("Create an object", "demo", "rv",
            "201 Created. metadata.resourceVersion is 143: the cluster started at revision 142 (its three namespaces and the RBAC bootstrap policy: the roles and bindings every cluster starts with) and this write is the next revision.",
            "A resourceVersion is the store's revision when the object was last written. It is opaque to clients, but orderable within a resource type."),
        Step {
            title: "Get it with resourceVersion unset",
            path: concat!(crs!(), "/demo"),
            expect: "200 OK, badge \"Most Recent · … · consistent\".",
            notice: "No resourceVersion means Most Recent: a consistent read (etcd quorum read on a real cluster). It is the safe default and the most expensive one.",
            ..S
        },
        Step {
            title: "Get it with resourceVersion=0",
            path: concat!(crs!(), "/demo?resourceVersion=0"),
            expect: "200 OK, badge \"Any · watch cache · rv 143 · may be stale\".",
            notice: "0 means Any: whatever the watch cache holds right now. It is cheap, and may be older than what you saw before; the next lesson makes it stale on purpose.",
            ..S
        },
        Step {
            title: "Get it with the resourceVersion you saw",
            path: concat!(crs!(), "/demo?resourceVersion={{rv}}"),
            expect: "200 OK, badge \"Not older than · watch cache · rv 143\".",
            notice: "Any other value is Not older than: the cache answers once it has reached that revision. Clients that remember a version get cheap reads without going back in time.",
            ..S
        },
        Step {
            title: "Ask for a revision the server has not reached",
            path: concat!(crs!(), "/demo?resourceVersion=1000"),
            status: 504,
            expect: "504 Gateway Timeout, reason Timeout, with \"Too large resource version\" and a Retry-After header.",
            notice: "The server waits briefly for a future revision, then gives up. Clients should never invent resourceVersions.",
            predict: Some(&FUTURE_RV),
            ..S
        },
        Step {
            title: "List exactly at revision 142",
            path: concat!(crs!(), "?resourceVersion=142&resourceVersionMatch=Exact"),
            expect: "200 OK, an empty list whose metadata.resourceVersion is 142.",
            notice: "Exact reads the past: at revision 142 the object did not exist yet. Lists take resourceVersionMatch; gets do not.",
            ..S
        },
    ],
};

const STALE: Lesson = Lesson {
    id: "stale-cache",
    title: "Stale reads from a lagging cache",
    summary: "Slow the watch cache down and watch resourceVersion=0 answer from the past.",
    gates: &[],
    steps: &[
        Step {
            title: "Make the watch cache lag 10 seconds",
            method: "PUT",
            path: "/kubesim/v1/cache/lag?ms=10000",
            expect: "200 OK, {\"lagMs\": 10000}.",
            notice: "A kubesim control endpoint: the watch cache now sees each write 10 s after the store. On a real cluster a busy or partitioned apiserver lags the same way.",
            ..S
        },
        create!("Create an object", "fresh", "rv",
            "201 Created at resourceVersion 143.",
            "The store has it. Open the Store tab: the timeline shows the cache's lag as the gap between the cache and the store."),
        Step {
            title: "Get it with resourceVersion=0",
            path: concat!(crs!(), "/fresh?resourceVersion=0"),
            status: 404,
            expect: "404 Not Found, although the create succeeded a moment ago.",
            notice: "Any is served by the cache, which has not seen the write yet. A client that reads its own write with rv=0 can miss it.",
            predict: Some(&UNSEEN_WRITE),
            ..S
        },
        Step {
            title: "Get it with resourceVersion unset",
            path: concat!(crs!(), "/fresh"),
            expect: "200 OK, badge \"Most Recent · store · rv 143 · consistent\".",
            notice: "Most Recent does not trust a lagging cache: the store answers.",
            ..S
        },
        Step {
            title: "List with resourceVersion=0",
            path: concat!(crs!(), "?resourceVersion=0"),
            expect: "200 OK, no items, metadata.resourceVersion 142.",
            notice: "The list's resourceVersion tells you how old the answer is: 142, older than the 143 you already saw.",
            predict: Some(&ANY_LIST),
            ..S
        },
        Step {
            title: "List not older than what you saw",
            path: concat!(crs!(), "?resourceVersion={{rv}}&resourceVersionMatch=NotOlderThan"),
            status: 504,
            expect: "504 Too large resource version.",
            notice: "The cache would need 10 s to reach revision 143; the server waits at most 3 s (the simulated clock moves on while it waits). With a lag under 3 s the answer comes once the cache has it, marked waited-ms.",
            ..S
        },
        Step {
            title: "Let 10 seconds pass",
            method: "POST",
            path: "/kubesim/v1/clock/advance?seconds=10",
            expect: "200 OK with the new time.",
            notice: "Time is simulated: it moves only when told to (the +10 s button does the same).",
            ..S
        },
        Step {
            title: "Get it with resourceVersion=0 again",
            path: concat!(crs!(), "/fresh?resourceVersion=0"),
            expect: "200 OK, badge \"Any · watch cache · rv 143\".",
            notice: "The cache caught up. Any is fine when a slightly old answer is acceptable, as for a controller's periodic resync.",
            ..S
        },
        Step {
            title: "Set the lag back to 0",
            method: "PUT",
            path: "/kubesim/v1/cache/lag?ms=0",
            expect: "200 OK.",
            notice: "The Time & chaos tab has the same control.",
            ..S
        },
    ],
};

const PAGING: Lesson = Lesson {
    id: "paging",
    title: "Paging across writes: one snapshot",
    summary: "limit and continue: every page comes from the revision of the first one.",
    gates: &[],
    steps: &[
        create!("Create a", "a", "rvA", "201 Created.", "Three objects are needed for pages of two."),
        create!("Create b", "b", "rvB", "201 Created.", "Objects are listed in key order: namespace, then name."),
        create!("Create c", "c", "rvC", "201 Created.", "Revision 145."),
        Step {
            title: "List the first page of 2",
            path: concat!(crs!(), "?limit=2"),
            expect: "200 OK: a and b, metadata.continue set, remainingItemCount 1, resourceVersion 145.",
            notice: "The continue token encodes the revision (145) and where the page stopped.",
            save: &[("token", "/metadata/continue"), ("listRV", "/metadata/resourceVersion")],
            ..S
        },
        create!("Create b2 between the pages", "b2", "rvB2",
            "201 Created at revision 146.",
            "b2 sorts after b, so it falls in the part of the list not yet read."),
        Step {
            title: "Fetch the next page",
            path: concat!(crs!(), "?limit=2&continue={{token}}"),
            expect: "200 OK: only c; no b2. resourceVersion is still 145; continue is empty.",
            notice: "Continuation: the second page is read at the first page's revision, so the pages together are one consistent snapshot.",
            ..S
        },
        Step {
            title: "List again without paging",
            path: crs!(),
            expect: "200 OK: a, b, b2, c at resourceVersion 146.",
            notice: "A new list sees the write. To watch for changes after a paged list, start the watch at the list's resourceVersion.",
            ..S
        },
    ],
};

const EXPIRED: Lesson = Lesson {
    id: "expired-continue",
    title: "An expired continue token, and the inconsistent continuation",
    summary: "Tokens live as long as the store's history (5 minutes); after that, 410 Gone.",
    gates: &[],
    steps: &[
        create!("Create a", "a", "rvA", "201 Created.", ""),
        create!("Create b", "b", "rvB", "201 Created.", ""),
        create!("Create c", "c", "rvC", "201 Created.", ""),
        Step {
            title: "List the first page of 1",
            path: concat!(crs!(), "?limit=1"),
            expect: "200 OK: a, with a continue token for revision 145.",
            notice: "The token is only good while revision 145 is readable.",
            save: &[("token", "/metadata/continue")],
            ..S
        },
        create!("Write something after the list", "d", "rvD", "201 Created at revision 146.",
            "Compaction keeps the newest revision older than 5 minutes; this later write is what pushes revision 145 out."),
        Step {
            title: "Let 5 minutes pass",
            method: "POST",
            path: "/kubesim/v1/clock/advance?seconds=300",
            expect: "200 OK. The store compacts its history: the Store tab's timeline turns grey up to revision 146.",
            notice: "etcd keeps 5 minutes of history by default; kube-apiserver compacts it on a timer.",
            ..S
        },
        Step {
            title: "Use the old token",
            path: concat!(crs!(), "?limit=1&continue={{token}}"),
            status: 410,
            expect: "410 Gone, reason Expired: \"The provided continue parameter is too old…\", with a new token in metadata.continue.",
            notice: "The snapshot is gone. The client can start over without continue, or accept an inconsistent view with the new token.",
            save: &[("inconsistent", "/metadata/continue")],
            predict: Some(&OLD_TOKEN),
            ..S
        },
        Step {
            title: "Continue with the token from the error",
            path: concat!(crs!(), "?limit=1&continue={{inconsistent}}"),
            expect: "200 OK: the next item after a, read at the latest revision (146), not at 145.",
            notice: "Inconsistent continuation: objects created, changed or deleted since the first page may show up. Good enough for a human, wrong for a cache.",
            save: &[("next", "/metadata/continue")],
            ..S
        },
    ],
};

const WATCH: Lesson = Lesson {
    id: "watch-resume",
    title: "A watch that resumes, and one that gets 410 and relists",
    summary: "List, then watch from the list's resourceVersion; resume after a disconnect; relist when history is gone.",
    gates: &[],
    steps: &[
        create!("Create a", "a", "rvA", "201 Created at revision 143.", ""),
        Step {
            title: "List, and remember the list's resourceVersion",
            path: crs!(),
            expect: "200 OK: a, at resourceVersion 143.",
            notice: "The list/watch pattern: the list gives the state, its resourceVersion says where the watch must start so that no change is missed.",
            save: &[("listRV", "/metadata/resourceVersion")],
            ..S
        },
        Step {
            title: "Watch from the list's resourceVersion",
            path: concat!(crs!(), "?watch=1&resourceVersion={{listRV}}"),
            expect: "200 OK and a watch panel with no events yet.",
            notice: "Start at Exact: only changes after revision 143, no synthetic ADDED events; the client already has the state.",
            ..S
        },
        create!("Create b while watching", "b", "rvB", "201 Created; the watch panel shows ADDED b at resourceVersion 144.",
            "Events arrive in revision order with the object's new resourceVersion."),
        Step {
            title: "Reconnect from the last resourceVersion you had",
            path: concat!(crs!(), "?watch=1&resourceVersion={{listRV}}"),
            expect: "A second panel that replays ADDED b at once.",
            notice: "After a disconnect a client resumes from the last resourceVersion it processed and misses nothing: the watch cache keeps a window of recent events. Stop the first panel with its button.",
            events: &["ADDED"],
            ..S
        },
        Step {
            title: "Let 6 minutes pass",
            method: "POST",
            path: "/kubesim/v1/clock/advance?seconds=360",
            expect: "200 OK. The store compacts; the cache's window moves past revision 143.",
            notice: "The open watches keep going; only starting from an old revision fails.",
            ..S
        },
        Step {
            title: "Try to resume from revision 143 again",
            path: concat!(crs!(), "?watch=1&resourceVersion={{listRV}}"),
            expect: "200 OK, then one ERROR event: 410 Expired, \"too old resource version\".",
            notice: "A watch reports 410 inside the stream. The client must clear its cache and relist.",
            events: &["ERROR"],
            predict: Some(&TOO_OLD_WATCH),
            ..S
        },
        Step {
            title: "Relist",
            path: crs!(),
            expect: "200 OK: a and b at the current resourceVersion.",
            notice: "The relist replaces the client's whole cache.",
            save: &[("listRV", "/metadata/resourceVersion")],
            ..S
        },
        Step {
            title: "Watch from the new resourceVersion",
            path: concat!(crs!(), "?watch=1&resourceVersion={{listRV}}"),
            expect: "200 OK and a quiet watch panel: the client is in sync again.",
            notice: "Create an object from the builder to see it arrive.",
            ..S
        },
    ],
};

const STREAMING: Lesson = Lesson {
    id: "streaming-list",
    title: "Streaming lists and the initial-events-end bookmark",
    summary: "sendInitialEvents=true: the state as a stream of ADDED events, then a bookmark that says \"you are in sync\".",
    gates: &[],
    steps: &[
        create!("Create a", "a", "rvA", "201 Created.", ""),
        create!("Create b", "b", "rvB", "201 Created.", ""),
        Step {
            title: "Open a streaming list",
            path: concat!(crs!(), "?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true"),
            expect: "A watch panel: ADDED a, ADDED b, then a BOOKMARK marked initial-events-end.",
            notice: "The initial state comes as synthetic ADDED events instead of a list response, and the bookmark marks its end. The watch then carries on as usual.",
            events: &["ADDED", "ADDED", "BOOKMARK"],
            ..S
        },
        Step {
            title: "Leave out resourceVersionMatch",
            path: concat!(crs!(), "?watch=1&sendInitialEvents=true"),
            status: 422,
            expect: "422 Invalid: sendInitialEvents needs resourceVersionMatch=NotOlderThan.",
            notice: "The spec requires it: the resourceVersion of a streaming list is a lower bound, never exact.",
            ..S
        },
        Step {
            title: "Make the cache lag 2 seconds",
            method: "PUT",
            path: "/kubesim/v1/cache/lag?ms=2000",
            expect: "200 OK.",
            notice: "",
            ..S
        },
        create!("Create c", "c", "rvC", "201 Created at revision 145; the first panel does not show it yet.",
            "Watches are fed by the cache, so they lag too."),
        Step {
            title: "Open a consistent streaming list",
            path: concat!(crs!(), "?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true"),
            expect: "A new panel, after a wait of 2 s of simulated time: ADDED a, b, c and the initial-events-end bookmark at 145. The first panel now shows ADDED c.",
            notice: "With resourceVersion unset the stream promises the state at least as of the request, so the server first waits for its cache to reach revision 145. The clock moves while the request waits.",
            events: &["ADDED", "ADDED", "ADDED", "BOOKMARK"],
            ..S
        },
        Step {
            title: "Make the cache lag 5 seconds",
            method: "PUT",
            path: "/kubesim/v1/cache/lag?ms=5000",
            expect: "200 OK.",
            notice: "",
            ..S
        },
        create!("Create d", "d", "rvD", "201 Created at revision 146.", ""),
        Step {
            title: "Open it again",
            path: concat!(crs!(), "?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true"),
            expect: "After 3 s of simulated time, a panel with one ERROR event: 504 Too large resource version: 146, current: 145.",
            notice: "The cache would need 5 s to reach revision 146; the server waits at most 3 s. A reflector then falls back to a plain list.",
            events: &["ERROR"],
            ..S
        },
        Step {
            title: "Set the lag back to 0",
            method: "PUT",
            path: "/kubesim/v1/cache/lag?ms=0",
            expect: "200 OK.",
            notice: "",
            ..S
        },
    ],
};

const CONFLICT: Lesson = Lesson {
    id: "conflict",
    title: "409 on a stale update",
    summary: "Optimistic concurrency: an update names the resourceVersion it read.",
    gates: &[],
    steps: &[
        create!("Create an object", "cfg", "rv1", "201 Created at revision 143.", ""),
        Step {
            title: "Update it with the resourceVersion you read",
            method: "PUT",
            path: concat!(crs!(), "/cfg"),
            body: "{\n  \"apiVersion\": \"apps/v1\",\n  \"kind\": \"ControllerRevision\",\n  \"metadata\": {\"name\": \"cfg\", \"resourceVersion\": \"{{rv1}}\", \"labels\": {\"writer\": \"alice\"}},\n  \"data\": {\"replicas\": 1},\n  \"revision\": 1\n}",
            expect: "200 OK at resourceVersion 144.",
            notice: "The update said \"I read version 143\"; that was still current, so it wins.",
            save: &[("rv2", "/metadata/resourceVersion")],
            ..S
        },
        Step {
            title: "Update it again with the old resourceVersion",
            method: "PUT",
            path: concat!(crs!(), "/cfg"),
            body: "{\n  \"apiVersion\": \"apps/v1\",\n  \"kind\": \"ControllerRevision\",\n  \"metadata\": {\"name\": \"cfg\", \"resourceVersion\": \"{{rv1}}\", \"labels\": {\"writer\": \"bob\"}},\n  \"data\": {\"replicas\": 1},\n  \"revision\": 1\n}",
            status: 409,
            expect: "409 Conflict: \"the object has been modified; please apply your changes to the latest version and try again\".",
            notice: "Bob read version 143 too, but Alice's write came first. Without the check, Alice's label would be lost silently.",
            predict: Some(&STALE_UPDATE),
            ..S
        },
        Step {
            title: "Read the latest version",
            path: concat!(crs!(), "/cfg"),
            expect: "200 OK at resourceVersion 144, with Alice's label.",
            notice: "The client re-reads, re-applies its change, and retries.",
            save: &[("latest", "/metadata/resourceVersion")],
            ..S
        },
        Step {
            title: "Retry with the latest resourceVersion",
            method: "PUT",
            path: concat!(crs!(), "/cfg"),
            body: "{\n  \"apiVersion\": \"apps/v1\",\n  \"kind\": \"ControllerRevision\",\n  \"metadata\": {\"name\": \"cfg\", \"resourceVersion\": \"{{latest}}\", \"labels\": {\"writer\": \"bob\"}},\n  \"data\": {\"replicas\": 1},\n  \"revision\": 1\n}",
            expect: "200 OK at resourceVersion 145.",
            notice: "A PUT without metadata.resourceVersion would skip the check (last write wins).",
            ..S
        },
    ],
};

const FINALIZER: Lesson = Lesson {
    id: "finalizer",
    title: "A two-phase delete with a finalizer",
    summary: "A delete marks the object terminating; it goes away when its last finalizer is removed.",
    gates: &[],
    steps: &[
        Step {
            title: "Create an object with a finalizer",
            method: "POST",
            path: crs!(),
            body: "{\n  \"apiVersion\": \"apps/v1\",\n  \"kind\": \"ControllerRevision\",\n  \"metadata\": {\"name\": \"keep\", \"finalizers\": [\"example.com/cleanup\"]},\n  \"data\": {\"replicas\": 1},\n  \"revision\": 1\n}",
            status: 201,
            expect: "201 Created with metadata.finalizers.",
            notice: "A finalizer is a promise by some controller to clean up before the object goes.",
            ..S
        },
        Step {
            title: "Watch it",
            path: concat!(crs!(), "?watch=1&fieldSelector=metadata.name%3Dkeep"),
            expect: "A watch panel with ADDED keep.",
            notice: "A watch from resourceVersion unset starts with the current state.",
            events: &["ADDED"],
            ..S
        },
        Step {
            title: "Delete it",
            method: "DELETE",
            path: concat!(crs!(), "/keep"),
            expect: "200 OK with the object: deletionTimestamp is set, the object is still there. The panel shows MODIFIED.",
            notice: "Phase one: the object is terminating (the Store tab shows the badge). A delete is not a removal while finalizers remain.",
            ..S
        },
        Step {
            title: "Read it back",
            path: concat!(crs!(), "/keep"),
            expect: "200 OK, deletionTimestamp set.",
            notice: "Terminating objects can still be read and updated, but not un-deleted.",
            save: &[("rv", "/metadata/resourceVersion")],
            ..S
        },
        Step {
            title: "Remove the finalizer (the controller is done)",
            method: "PUT",
            path: concat!(crs!(), "/keep"),
            body: "{\n  \"apiVersion\": \"apps/v1\",\n  \"kind\": \"ControllerRevision\",\n  \"metadata\": {\"name\": \"keep\", \"resourceVersion\": \"{{rv}}\", \"finalizers\": []},\n  \"data\": {\"replicas\": 1},\n  \"revision\": 1\n}",
            expect: "200 OK. The panel shows DELETED keep.",
            notice: "Phase two: with the last finalizer gone the object is removed from storage.",
            ..S
        },
        Step {
            title: "Read it again",
            path: concat!(crs!(), "/keep"),
            status: 404,
            expect: "404 Not Found.",
            notice: "Order between finalizers is never enforced: each controller removes its own, in any order.",
            ..S
        },
    ],
};

/// Every lesson, in the order the Lessons tab lists them.
pub const LESSONS: &[Lesson] = &[
    RV_GET,
    STALE,
    PAGING,
    EXPIRED,
    WATCH,
    STREAMING,
    CONFLICT,
    FINALIZER,
    apply::APPLY,
    rbac::RBAC_LESSON,
    cascade::CASCADE,
    corrupt::CORRUPT,
    crd::CRD_LESSON,
    kubectl::KUBECTL_LESSON,
];

/// The lesson with `id`.
pub fn find(id: &str) -> Option<&'static Lesson> {
    LESSONS.iter().find(|l| l.id == id)
}
