//! Kubernetes `Status` errors.
//!
//! Every failure the engine reports is an [`ApiError`], rendered as the exact `Status` object
//! kube-apiserver writes (field order, reasons, message formats), so clients that switch on
//! `reason` or parse `details.causes` behave as they do against a real cluster.

use serde_json::{json, Map, Value};

use crate::resources::field::{aggregate_messages, FieldError};

/// A failed request: an HTTP code plus the `Status` body kube-apiserver would send.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiError {
    /// HTTP status code (also the Status `code`, unless `omit_code`).
    pub code: u16,
    /// The StatusReason (`NotFound`, `Invalid`, ...); empty for untyped errors.
    pub reason: &'static str,
    /// Human-readable message, exactly as the real server words it.
    pub message: String,
    /// `details`, when the real server sends them.
    pub details: Option<Box<Details>>,
    /// Extra `metadata` (the expired-continue 410 carries a fresh `continue` token here).
    pub continue_token: Option<String>,
}

/// `StatusDetails`: what the error is about.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Details {
    pub name: Option<String>,
    pub group: Option<String>,
    /// Resource plural for most reasons, Kind for `Invalid`.
    pub kind: Option<String>,
    pub uid: Option<String>,
    pub causes: Vec<Cause>,
    pub retry_after_seconds: Option<i32>,
}

/// `StatusCause`: one field-level reason.
#[derive(Debug, Clone, PartialEq)]
pub struct Cause {
    pub reason: String,
    pub message: String,
    pub field: Option<String>,
}

/// A group-qualified resource (`controllerrevisions.apps`), as error messages print it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GroupResource<'a> {
    pub group: &'a str,
    pub resource: &'a str,
}

impl std::fmt::Display for GroupResource<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.group.is_empty() {
            f.write_str(self.resource)
        } else {
            write!(f, "{}.{}", self.resource, self.group)
        }
    }
}

/// A group-qualified kind (`ControllerRevision.apps`), as `Invalid` messages print it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GroupKind<'a> {
    pub group: &'a str,
    pub kind: &'a str,
}

impl std::fmt::Display for GroupKind<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.group.is_empty() {
            f.write_str(self.kind)
        } else {
            write!(f, "{}.{}", self.kind, self.group)
        }
    }
}

fn details_for(gr: GroupResource<'_>, name: &str) -> Details {
    Details {
        name: Some(name.to_string()),
        group: (!gr.group.is_empty()).then(|| gr.group.to_string()),
        kind: Some(gr.resource.to_string()),
        ..Details::default()
    }
}

/// The text kube-apiserver's generic store uses for a stale resourceVersion.
pub const OPTIMISTIC_LOCK_MSG: &str =
    "the object has been modified; please apply your changes to the latest version and try again";

impl ApiError {
    fn new(code: u16, reason: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            code,
            reason,
            message: message.into(),
            details: None,
            continue_token: None,
        }
    }

    /// 404 `<gr> "<name>" not found`.
    pub fn not_found(gr: GroupResource<'_>, name: &str) -> Self {
        let mut e = Self::new(404, "NotFound", format!("{gr} \"{name}\" not found"));
        e.details = Some(Box::new(details_for(gr, name)));
        e
    }

    /// 409 `<gr> "<name>" already exists`.
    pub fn already_exists(gr: GroupResource<'_>, name: &str) -> Self {
        let mut e = Self::new(
            409,
            "AlreadyExists",
            format!("{gr} \"{name}\" already exists"),
        );
        e.details = Some(Box::new(details_for(gr, name)));
        e
    }

    /// 409 AlreadyExists for a name the server generated (`NewGenerateNameConflict`): the
    /// client may simply retry, so the details carry `retryAfterSeconds: 1`.
    pub fn generate_name_conflict(gr: GroupResource<'_>, name: &str) -> Self {
        let mut e = Self::new(
            409,
            "AlreadyExists",
            format!(
                "{gr} \"{name}\" already exists, the server was not able to generate a unique name for the object"
            ),
        );
        let mut details = details_for(gr, name);
        details.retry_after_seconds = Some(1);
        e.details = Some(Box::new(details));
        e
    }

    /// 409 `Operation cannot be fulfilled on <gr> "<name>": <msg>`.
    pub fn conflict(gr: GroupResource<'_>, name: &str, msg: &str) -> Self {
        let mut e = Self::new(
            409,
            "Conflict",
            format!("Operation cannot be fulfilled on {gr} \"{name}\": {msg}"),
        );
        e.details = Some(Box::new(details_for(gr, name)));
        e
    }

    /// 409 Conflict whose qualified name is a Kind (delete preconditions word it this way).
    pub fn conflict_kind(gk: GroupKind<'_>, name: &str, msg: &str) -> Self {
        let mut e = Self::new(
            409,
            "Conflict",
            format!("Operation cannot be fulfilled on {gk} \"{name}\": {msg}"),
        );
        e.details = Some(Box::new(Details {
            name: Some(name.to_string()),
            group: (!gk.group.is_empty()).then(|| gk.group.to_string()),
            kind: Some(gk.kind.to_string()),
            ..Details::default()
        }));
        e
    }

    /// 422 `<GroupKind> "<name>" is invalid: <errs>` with one cause per field error.
    pub fn invalid(gk: GroupKind<'_>, name: &str, errs: &[FieldError]) -> Self {
        let message = format!("{gk} \"{name}\" is invalid: {}", aggregate_messages(errs));
        let mut e = Self::new(422, "Invalid", message);
        e.details = Some(Box::new(Details {
            name: (!name.is_empty()).then(|| name.to_string()),
            group: (!gk.group.is_empty()).then(|| gk.group.to_string()),
            kind: (!gk.kind.is_empty()).then(|| gk.kind.to_string()),
            causes: errs
                .iter()
                .map(|fe| Cause {
                    reason: fe.kind.cause_type().to_string(),
                    message: fe.body(),
                    field: Some(fe.field.clone()),
                })
                .collect(),
            ..Details::default()
        }));
        e
    }

    /// 422 for invalid request options (`ListOptions.meta.k8s.io "" is invalid: ...`).
    pub fn invalid_options(options_kind: &str, errs: &[FieldError]) -> Self {
        Self::invalid(
            GroupKind {
                group: "meta.k8s.io",
                kind: options_kind,
            },
            "",
            errs,
        )
    }

    /// 409 Conflict as server-side apply reports it: the message and one cause per
    /// conflicting field, no name or kind (`NewApplyConflict`).
    pub fn apply_conflict(message: String, causes: Vec<Cause>) -> Self {
        let mut e = Self::new(409, "Conflict", message);
        e.details = Some(Box::new(Details {
            causes,
            ..Details::default()
        }));
        e
    }

    /// 413 `NewRequestEntityTooLargeError`: `Request entity too large: <msg>`.
    pub fn request_entity_too_large(message: &str) -> Self {
        Self::new(
            413,
            "RequestEntityTooLarge",
            format!("Request entity too large: {message}"),
        )
    }

    /// 400 with the message verbatim.
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(400, "BadRequest", message)
    }

    /// 403 `NewForbidden`: `<gr> "<name>" is forbidden: <inner>`, without the name when there
    /// is none, and `forbidden: <inner>` with empty details for no resource at all (a
    /// non-resource path).
    pub fn forbidden(gr: GroupResource<'_>, name: &str, inner: &str) -> Self {
        let message = if gr.group.is_empty() && gr.resource.is_empty() {
            format!("forbidden: {inner}")
        } else if name.is_empty() {
            format!("{gr} is forbidden: {inner}")
        } else {
            format!("{gr} \"{name}\" is forbidden: {inner}")
        };
        let mut e = Self::new(403, "Forbidden", message);
        let mut details = details_for(gr, name);
        if name.is_empty() {
            details.name = None;
        }
        if gr.resource.is_empty() {
            details.kind = None;
        }
        e.details = Some(Box::new(details));
        e
    }

    /// 404 for a non-resource path kubesim does not serve.
    pub fn not_found_path() -> Self {
        let mut e = Self::new(
            404,
            "NotFound",
            "the server could not find the requested resource",
        );
        e.details = Some(Box::new(Details::default()));
        e
    }

    /// `NewTimeoutError`: 504 `Timeout`, "Timeout: " and what took too long, empty details
    /// (a caller with a retry hint or causes fills them).
    pub fn timeout(message: impl std::fmt::Display) -> Self {
        let mut e = Self::new(504, "Timeout", format!("Timeout: {message}"));
        e.details = Some(Box::new(Details::default()));
        e
    }

    /// 415 from the router: a PATCH whose Content-Type its route does not consume.
    pub fn unsupported_media_type_route() -> Self {
        let mut e = Self::new(415, "UnsupportedMediaType", "415: Unsupported Media Type");
        e.details = Some(Box::new(Details::default()));
        e
    }

    /// 405 from the router: no route for this HTTP method.
    pub fn method_not_allowed_route() -> Self {
        let mut e = Self::new(
            405,
            "MethodNotAllowed",
            "the server does not allow this method on the requested resource",
        );
        e.details = Some(Box::new(Details::default()));
        e
    }

    /// 405 from a storage that lacks the verb.
    pub fn verb_not_supported(verb: &str, gr: GroupResource<'_>) -> Self {
        let mut e = Self::new(
            405,
            "MethodNotAllowed",
            format!("{verb} is not supported on resources of kind \"{gr}\""),
        );
        e.details = Some(Box::new(Details {
            group: (!gr.group.is_empty()).then(|| gr.group.to_string()),
            kind: Some(gr.resource.to_string()),
            ..Details::default()
        }));
        e
    }

    /// 406 NotAcceptable.
    pub fn not_acceptable(message: impl Into<String>) -> Self {
        Self::new(406, "NotAcceptable", message)
    }

    /// 415 UnsupportedMediaType.
    pub fn unsupported_media_type(message: impl Into<String>) -> Self {
        Self::new(415, "UnsupportedMediaType", message)
    }

    /// 410 Expired (too-old resource versions, expired continue tokens).
    pub fn expired(message: impl Into<String>) -> Self {
        Self::new(410, "Expired", message)
    }

    /// 500 StorageReadError: objects of `gr` a list could not read, one cause per key
    /// (`aggregatedErr.NewAPIStatusError`).
    pub fn storage_read_error(gr: GroupResource<'_>, causes: Vec<Cause>) -> Self {
        let mut e = Self::new(
            500,
            "StorageReadError",
            format!("failed to read one or more {gr} from the storage"),
        );
        e.details = Some(Box::new(Details {
            causes,
            ..details_for(gr, "list")
        }));
        e
    }

    /// 500 InternalError: `Internal error occurred: <err>`.
    pub fn internal(err: impl Into<String>) -> Self {
        let err = err.into();
        let mut e = Self::new(
            500,
            "InternalError",
            format!("Internal error occurred: {err}"),
        );
        e.details = Some(Box::new(Details {
            causes: vec![Cause {
                reason: String::new(),
                message: err,
                field: None,
            }],
            ..Details::default()
        }));
        e
    }

    /// 500 with no reason: a plain Go error reaching the handler. Some client mistakes get
    /// exactly this from the real server (reference, appendix B), and kubesim matches it.
    pub fn untyped(code: u16, message: impl Into<String>) -> Self {
        Self::new(code, "", message)
    }

    /// The `Status` object, fields in the order kube-apiserver emits them.
    pub fn to_status(&self) -> Value {
        let mut m = Map::new();
        m.insert("kind".into(), json!("Status"));
        m.insert("apiVersion".into(), json!("v1"));
        let mut meta = Map::new();
        if let Some(c) = &self.continue_token {
            meta.insert("continue".into(), json!(c));
        }
        m.insert("metadata".into(), Value::Object(meta));
        m.insert("status".into(), json!("Failure"));
        m.insert("message".into(), json!(self.message));
        if !self.reason.is_empty() {
            m.insert("reason".into(), json!(self.reason));
        }
        if let Some(d) = &self.details {
            m.insert("details".into(), d.to_json());
        }
        m.insert("code".into(), json!(self.code));
        Value::Object(m)
    }

    /// Seconds for a `Retry-After` header, when the error carries one.
    pub fn retry_after(&self) -> Option<i32> {
        self.details
            .as_ref()
            .and_then(|d| d.retry_after_seconds)
            .filter(|s| *s > 0)
    }
}

impl Details {
    /// `StatusDetails` as JSON (all fields omitempty, Go struct order).
    pub fn to_json(&self) -> Value {
        let mut d = Map::new();
        if let Some(v) = &self.name {
            d.insert("name".into(), json!(v));
        }
        if let Some(v) = &self.group {
            d.insert("group".into(), json!(v));
        }
        if let Some(v) = &self.kind {
            d.insert("kind".into(), json!(v));
        }
        if let Some(v) = &self.uid {
            d.insert("uid".into(), json!(v));
        }
        if !self.causes.is_empty() {
            let causes: Vec<Value> = self
                .causes
                .iter()
                .map(|c| {
                    let mut cm = Map::new();
                    if !c.reason.is_empty() {
                        cm.insert("reason".into(), json!(c.reason));
                    }
                    if !c.message.is_empty() {
                        cm.insert("message".into(), json!(c.message));
                    }
                    if let Some(f) = &c.field {
                        if !f.is_empty() {
                            cm.insert("field".into(), json!(f));
                        }
                    }
                    Value::Object(cm)
                })
                .collect();
            d.insert("causes".into(), Value::Array(causes));
        }
        if let Some(s) = self.retry_after_seconds {
            if s != 0 {
                d.insert("retryAfterSeconds".into(), json!(s));
            }
        }
        Value::Object(d)
    }
}

/// Result alias used by every handler.
pub type ApiResult<T> = Result<T, ApiError>;
