//! Header presets and body templates: the media types and bodies the spec names, one click
//! away, so a learner never has to remember `application/json;as=Table;g=meta.k8s.io;v=v1`.

/// A header value the builder can put in with one click.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeaderPreset {
    /// Button text.
    pub label: &'static str,
    /// Header name.
    pub name: &'static str,
    /// Header value.
    pub value: &'static str,
    /// What it asks for (spec "Content negotiation and encodings").
    pub help: &'static str,
}

const fn h(
    label: &'static str,
    name: &'static str,
    value: &'static str,
    help: &'static str,
) -> HeaderPreset {
    HeaderPreset {
        label,
        name,
        value,
        help,
    }
}

/// `Accept` presets: every encoding and representation of the spec.
pub const ACCEPT: &[HeaderPreset] = &[
    h("JSON", "Accept", "application/json", "The default encoding; every built-in type supports it."),
    h("YAML", "Accept", "application/yaml", "YAML responses."),
    h("Protobuf", "Accept", "application/vnd.kubernetes.protobuf, application/json",
        "Protobuf (with a JSON fallback for types without it): a k8s\\0 envelope around the object."),
    h("CBOR", "Accept", "application/cbor", "CBOR; needs the CBORServingAndStorage gate (off by default): expect 406 without it."),
    h("Table", "Accept", "application/json;as=Table;g=meta.k8s.io;v=v1, application/json",
        "A Table with Name and Created At columns (falls back to full objects)."),
    h("Metadata", "Accept", "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1",
        "Only metadata of one object (PartialObjectMetadata)."),
    h("Metadata list", "Accept", "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1",
        "Only metadata of each item of a list (PartialObjectMetadataList)."),
];

/// `Content-Type` presets: request encodings and every patch kind.
pub const CONTENT_TYPE: &[HeaderPreset] = &[
    h(
        "JSON",
        "Content-Type",
        "application/json",
        "A JSON body (the default for POST and PUT).",
    ),
    h("YAML", "Content-Type", "application/yaml", "A YAML body."),
    h(
        "JSON Patch",
        "Content-Type",
        "application/json-patch+json",
        "RFC 6902: a list of operations, which may include test conditions.",
    ),
    h(
        "Merge Patch",
        "Content-Type",
        "application/merge-patch+json",
        "RFC 7386: a partial object merged with the current one.",
    ),
    h(
        "Strategic Merge",
        "Content-Type",
        "application/strategic-merge-patch+json",
        "Built-in types only; superseded by server-side apply.",
    ),
    h(
        "Apply (YAML)",
        "Content-Type",
        "application/apply-patch+yaml",
        "Server-side apply; needs fieldManager.",
    ),
    h(
        "Apply (CBOR)",
        "Content-Type",
        "application/apply-patch+cbor",
        "Server-side apply in CBOR; only where CBOR is enabled.",
    ),
];

/// A canned request body; choosing one also sets the method and Content-Type it goes with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BodyTemplate {
    pub label: &'static str,
    /// The method the body is for.
    pub method: &'static str,
    /// A path suffix, appended to the ControllerRevision collection path.
    pub path: &'static str,
    pub content_type: &'static str,
    pub body: &'static str,
    /// Extra query parameters, e.g. `fieldManager=` for apply.
    pub query: &'static str,
}

/// The ControllerRevision collection of the `default` namespace.
pub const CR_COLLECTION: &str = "/apis/apps/v1/namespaces/default/controllerrevisions";

/// The templates of the body menu: a ControllerRevision, each patch kind, DeleteOptions.
pub const BODIES: &[BodyTemplate] = &[
    BodyTemplate {
        label: "ControllerRevision",
        method: "POST",
        path: "",
        content_type: "application/json",
        body: r#"{
  "apiVersion": "apps/v1",
  "kind": "ControllerRevision",
  "metadata": {
    "name": "r1",
    "labels": {"app": "demo"}
  },
  "data": {"replicas": 1},
  "revision": 1
}"#,
        query: "",
    },
    BodyTemplate {
        label: "JSON Patch",
        method: "PATCH",
        path: "/r1",
        content_type: "application/json-patch+json",
        body: r#"[
  {"op": "test", "path": "/revision", "value": 1},
  {"op": "add", "path": "/metadata/labels/tier", "value": "web"}
]"#,
        query: "",
    },
    BodyTemplate {
        label: "Merge Patch",
        method: "PATCH",
        path: "/r1",
        content_type: "application/merge-patch+json",
        body: r#"{"metadata": {"labels": {"tier": "web", "app": null}}}"#,
        query: "",
    },
    BodyTemplate {
        label: "Strategic Merge Patch",
        method: "PATCH",
        path: "/r1",
        content_type: "application/strategic-merge-patch+json",
        body: r#"{"metadata": {"finalizers": ["example.com/keep"]}}"#,
        query: "",
    },
    BodyTemplate {
        label: "Apply patch (YAML)",
        method: "PATCH",
        path: "/r1",
        content_type: "application/apply-patch+yaml",
        body: "apiVersion: apps/v1\nkind: ControllerRevision\nmetadata:\n  name: r1\n  labels:\n    tier: web\ndata:\n  replicas: 1\nrevision: 1\n",
        query: "fieldManager=playground",
    },
    BodyTemplate {
        label: "DeleteOptions",
        method: "DELETE",
        path: "/r1",
        content_type: "application/json",
        body: r#"{
  "apiVersion": "v1",
  "kind": "DeleteOptions",
  "gracePeriodSeconds": 0,
  "propagationPolicy": "Background"
}"#,
        query: "",
    },
];
