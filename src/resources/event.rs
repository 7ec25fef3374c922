//! core/v1 Event: the resource entry, schema (protobuf numbers from `generated.proto`),
//! validation (`legacyValidateEvent`, the only part of `ValidateEventCreate`/`Update` that runs
//! for requests to `/api/v1`), strategy (`pkg/registry/core/event`: create on update, no
//! garbage-collection policy, the field selectors of `ToSelectableFields`) and printer.
//!
//! Events written through `/api/v1` keep whatever the client sent: the server fills in no
//! timestamps or counts, and an update may change anything (the immutability rules belong to
//! `events.k8s.io`, which kubesim does not serve).

use crate::resources::meta::map_str;
use serde_json::{Map, Value};

use super::duration::since;
use super::field::FieldError;
use super::meta::{map_meta_str, meta_str, str_at};
use super::schema::{always, f, ptr, req, Struct, Type, API_VERSION_FIELD, KIND_FIELD};
use super::schema::{NAME_DOC, OBJECT_META};
use super::validation::names::{is_dns1123_subdomain, is_qualified_name};
use super::LIST_META_MORE;
use super::{Column, GcPolicy, ListDocs, Printer, ResourceInfo, Strategy, CRUD_VERBS};

/// core/v1 events.
pub static EVENTS: ResourceInfo = ResourceInfo {
    group: "",
    version: "v1",
    kind: "Event",
    plural: "events",
    singular: "event",
    short_names: &["ev"],
    categories: &[],
    storage_version: None,
    namespaced: true,
    verbs: CRUD_VERBS,
    subresources: &[],
    schema: &EVENT,
    strategy: &EventStrategy,
    extra_field_labels: &[
        "involvedObject.kind",
        "involvedObject.namespace",
        "involvedObject.name",
        "involvedObject.uid",
        "involvedObject.apiVersion",
        "involvedObject.resourceVersion",
        "involvedObject.fieldPath",
        "reason",
        "reportingComponent",
        "source",
        "type",
    ],
    protobuf: true,
    list_docs: ListDocs {
        description: "EventList is a list of events.",
        items: "List of events",
        metadata: LIST_META_MORE,
    },
    custom: None,
};

const FIELD_PATH_DOC: &str = "If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2]. For example, if the object reference is to a container within a pod, this would take on a value like: \"spec.containers{name}\" (where \"name\" refers to the name of the container that triggered the event) or if no container name is specified \"spec.containers[2]\" (container with index 2 in this pod). This syntax is chosen only to have some well-defined way of referencing a part of an object.";

/// `core/v1.ObjectReference` (`+structType=atomic`).
pub static OBJECT_REFERENCE: Struct = Struct {
    openapi_name: "io.k8s.api.core.v1.ObjectReference",
    atomic: true,
    description: "ObjectReference contains enough information to let you inspect or modify the referred object.",
    fields: &[
        f("kind", Type::String, "Kind of the referent. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds").pb(1),
        f("namespace", Type::String, "Namespace of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/namespaces/").pb(2),
        f("name", Type::String, "Name of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names").pb(3),
        f("uid", Type::String, "UID of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#uids").pb(4).go("types.UID"),
        f("apiVersion", Type::String, "API version of the referent.").pb(5),
        f("resourceVersion", Type::String, "Specific resourceVersion to which this reference is made, if any. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#concurrency-control-and-consistency").pb(6),
        f("fieldPath", Type::String, FIELD_PATH_DOC).pb(7),
    ],
};

/// `core/v1.EventSource`.
pub static EVENT_SOURCE: Struct = Struct {
    openapi_name: "io.k8s.api.core.v1.EventSource",
    atomic: false,
    description: "EventSource contains information for an event.",
    fields: &[
        f(
            "component",
            Type::String,
            "Component from which the event is generated.",
        )
        .pb(1),
        f(
            "host",
            Type::String,
            "Node name on which the event is generated.",
        )
        .pb(2),
    ],
};

/// `core/v1.EventSeries`.
pub static EVENT_SERIES: Struct = Struct {
    openapi_name: "io.k8s.api.core.v1.EventSeries",
    atomic: false,
    description: "EventSeries contain information on series of events, i.e. thing that was/is happening continuously for some time.",
    fields: &[
        f("count", Type::Int32, "Number of occurrences in this series up to the last heartbeat time").pb(1),
        f("lastObservedTime", Type::MicroTime, "Time of the last occurrence observed").pb(2),
    ],
};

const INVOLVED_OBJECT_DOC: &str = "The object that this event is about.";
const REASON_DOC: &str = "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.";
const MESSAGE_DOC: &str = "A human-readable description of the status of this operation.";
const SOURCE_DOC: &str =
    "The component reporting this event. Should be a short machine understandable string.";
const FIRST_DOC: &str =
    "The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)";
const LAST_DOC: &str = "The time at which the most recent occurrence of this event was recorded.";
const COUNT_DOC: &str = "The number of times this event has occurred.";
const TYPE_DOC: &str =
    "Type of this event (Normal, Warning), new types could be added in the future";

/// `core/v1.Event` (Go struct order). `metadata` and `involvedObject` have no `omitempty`
/// (OpenAPI lists them as required); `source` is a struct, which Go always writes.
pub static EVENT: Struct = Struct {
    openapi_name: "io.k8s.api.core.v1.Event",
    atomic: false,
    description: "Event is a report of an event somewhere in the cluster.  Events have a limited retention time and triggers and messages may evolve with time.  Event consumers should not rely on the timing of an event with a given Reason reflecting a consistent underlying trigger, or the continued existence of events with that Reason.  Events should be treated as informative, best-effort, supplemental data.",
    fields: &[
        KIND_FIELD,
        API_VERSION_FIELD,
        req("metadata", Type::Object(&OBJECT_META), "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata").pb(1),
        req("involvedObject", Type::Object(&OBJECT_REFERENCE), INVOLVED_OBJECT_DOC).pb(2),
        f("reason", Type::String, REASON_DOC).pb(3),
        f("message", Type::String, MESSAGE_DOC).pb(4),
        always("source", Type::Object(&EVENT_SOURCE), SOURCE_DOC).pb(5),
        f("firstTimestamp", Type::DateTime, FIRST_DOC).pb(6),
        f("lastTimestamp", Type::DateTime, LAST_DOC).pb(7),
        f("count", Type::Int32, COUNT_DOC).pb(8),
        f("type", Type::String, TYPE_DOC).pb(9),
        f("eventTime", Type::MicroTime, "Time when this Event was first observed.").pb(10),
        ptr("series", Type::Object(&EVENT_SERIES), "Data about the Event series this event represents or nil if it's a singleton Event.").pb(11),
        f("action", Type::String, "What action was taken/failed regarding to the Regarding object.").pb(12),
        ptr("related", Type::Object(&OBJECT_REFERENCE), "Optional secondary object for more complex actions.").pb(13),
        always("reportingComponent", Type::String, "Name of the controller that emitted this Event, e.g. `kubernetes.io/kubelet`.").pb(14),
        always("reportingInstance", Type::String, "ID of the controller instance, e.g. `kubelet-xyzf`.").pb(15),
    ],
};

/// `--event-ttl` (kube-apiserver's default).
pub const EVENT_TTL_SECONDS: i64 = 3600;

/// `ReportingInstanceLengthLimit`, `ActionLengthLimit`, `ReasonLengthLimit` (bytes, although
/// the messages say characters).
const SHORT_LIMIT: usize = 128;
/// `NoteLengthLimit`.
const NOTE_LIMIT: usize = 1024;

/// Whether a time field holds a time (zero times are stored as absent or `null`).
fn is_set(v: Option<&Value>) -> bool {
    v.and_then(Value::as_str).is_some_and(|s| !s.is_empty())
}

/// `legacyValidateEvent` for a request to core/v1 (the reporting controller's field is
/// `reportingComponent`). `metadata.namespace` is already the request's.
fn validate(obj: &Map<String, Value>) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let ns = map_meta_str(obj, "namespace");
    let involved_ns = obj
        .get("involvedObject")
        .map_or("", |o| str_at(o, "namespace"));
    let mismatch = || {
        FieldError::invalid(
            "involvedObject.namespace",
            Value::String(involved_ns.to_string()),
            "does not match event.namespace",
        )
    };
    let too_long = |field: &str, limit: usize| {
        FieldError::invalid(
            field,
            Value::String(String::new()),
            &format!("can have at most {limit} characters"),
        )
    };
    if !is_set(obj.get("eventTime")) {
        // An old-style event: its namespace and its object's agree ("default" stands for
        // none, for old clients).
        let agree = if involved_ns.is_empty() {
            ns.is_empty() || ns == "default"
        } else {
            ns == involved_ns
        };
        if !agree {
            errs.push(mismatch());
        }
    } else {
        if involved_ns.is_empty() && ns != "default" && ns != "kube-system" {
            errs.push(mismatch());
        }
        let controller = map_str(obj, "reportingComponent");
        if controller.is_empty() {
            errs.push(FieldError::required("reportingComponent", ""));
        }
        for msg in is_qualified_name(controller) {
            errs.push(FieldError::invalid(
                "reportingComponent",
                Value::String(controller.to_string()),
                &msg,
            ));
        }
        for (field, required) in [
            ("reportingInstance", true),
            ("action", true),
            ("reason", true),
        ] {
            let value = map_str(obj, field);
            if required && value.is_empty() {
                errs.push(FieldError::required(field, ""));
            }
            if value.len() > SHORT_LIMIT {
                errs.push(too_long(field, SHORT_LIMIT));
            }
        }
        if map_str(obj, "message").len() > NOTE_LIMIT {
            errs.push(too_long("message", NOTE_LIMIT));
        }
    }
    for msg in is_dns1123_subdomain(ns) {
        errs.push(FieldError::invalid(
            "namespace",
            Value::String(ns.to_string()),
            &msg,
        ));
    }
    errs
}

/// The Event strategy (`eventStrategy`).
#[derive(Debug)]
pub struct EventStrategy;

impl Strategy for EventStrategy {
    fn validate_create(
        &self,
        obj: &Map<String, Value>,
        _sent: &crate::resources::Sent,
    ) -> Vec<FieldError> {
        validate(obj)
    }

    /// `ValidateEventUpdate` for core/v1: the new event passes the same checks; nothing is
    /// immutable through this version.
    fn validate_update(
        &self,
        new: &Map<String, Value>,
        _old: &Map<String, Value>,
    ) -> Vec<FieldError> {
        validate(new)
    }

    fn allow_create_on_update(&self) -> bool {
        true
    }

    /// `--event-ttl`'s default: an hour after the last write.
    fn ttl_seconds(&self) -> Option<i64> {
        Some(EVENT_TTL_SECONDS)
    }

    /// `rest.Unsupported`: a delete's propagation policy is ignored.
    fn default_gc_policy(&self) -> GcPolicy {
        GcPolicy::Unsupported
    }

    /// `ToSelectableFields`: `source` is the source's component, or else the reporting
    /// controller.
    fn field_value(&self, obj: &Value, label: &str) -> Option<String> {
        let value = match label.strip_prefix("involvedObject.") {
            Some(field) => str_at(&obj["involvedObject"], field),
            None => match label {
                "reason" | "reportingComponent" | "type" => str_at(obj, label),
                "source" => match str_at(&obj["source"], "component") {
                    "" => str_at(obj, "reportingComponent"),
                    component => component,
                },
                _ => return None,
            },
        };
        Some(value.to_string())
    }

    fn printer(&self) -> Option<&'static dyn Printer> {
        Some(&EventPrinter)
    }
}

/// The Event printer (`printEvent`, always wide on the server): ten columns, `Name` last.
#[derive(Debug)]
pub struct EventPrinter;

const fn column(name: &'static str, description: &'static str, priority: u8) -> Column {
    Column {
        name,
        ty: "string",
        format: "",
        description,
        priority,
    }
}

static COLUMNS: &[Column] = &[
    column("Last Seen", LAST_DOC, 0),
    column("Type", TYPE_DOC, 0),
    column("Reason", REASON_DOC, 0),
    column("Object", INVOLVED_OBJECT_DOC, 0),
    column("Subobject", FIELD_PATH_DOC, 1),
    column("Source", SOURCE_DOC, 1),
    column("Message", MESSAGE_DOC, 0),
    column("First Seen", FIRST_DOC, 1),
    column("Count", COUNT_DOC, 1),
    Column {
        name: "Name",
        ty: "string",
        format: "name",
        description: NAME_DOC,
        priority: 1,
    },
];

fn first_non_empty<'a>(a: &'a str, b: &'a str) -> &'a str {
    if a.is_empty() {
        b
    } else {
        a
    }
}

impl Printer for EventPrinter {
    fn columns(&self) -> &'static [Column] {
        COLUMNS
    }
    fn name_first(&self) -> bool {
        false
    }
    fn has_age(&self) -> bool {
        false
    }
    fn cells(&self, obj: &Value, now_ms: i64) -> Vec<Value> {
        const UNKNOWN: &str = "<unknown>";
        let first = since(&obj["firstTimestamp"], now_ms)
            .or_else(|| since(&obj["eventTime"], now_ms))
            .unwrap_or_else(|| UNKNOWN.into());
        let mut last = since(&obj["lastTimestamp"], now_ms).unwrap_or_else(|| first.clone());
        let mut count = obj["count"].as_i64().unwrap_or(0);
        let series = &obj["series"];
        if series.is_object() {
            last = since(&series["lastObservedTime"], now_ms).unwrap_or_else(|| UNKNOWN.into());
            count = series["count"].as_i64().unwrap_or(0);
        } else if count == 0 {
            // Singleton events of the new API have no count.
            count = 1;
        }
        let involved = &obj["involvedObject"];
        let kind = str_at(involved, "kind").to_lowercase();
        let target = match str_at(involved, "name") {
            "" => kind,
            name => format!("{kind}/{name}"),
        };
        let source = &obj["source"];
        let component = first_non_empty(
            str_at(source, "component"),
            str_at(obj, "reportingComponent"),
        );
        let instance = first_non_empty(str_at(source, "host"), str_at(obj, "reportingInstance"));
        let source = if instance.is_empty() {
            component.to_string()
        } else {
            format!("{component}, {instance}")
        };
        vec![
            Value::String(last),
            Value::String(str_at(obj, "type").to_string()),
            Value::String(str_at(obj, "reason").to_string()),
            Value::String(target),
            Value::String(str_at(involved, "fieldPath").to_string()),
            Value::String(source),
            Value::String(str_at(obj, "message").trim().to_string()),
            Value::String(first),
            Value::from(count),
            Value::String(meta_str(obj, "name").to_string()),
        ]
    }
}
