//! The registry of served kinds: what each resource is called, where it lives, which verbs it
//! serves, its schema and its strategy (defaults, validation, update rules).
//!
//! Adding a kind is one [`ResourceInfo`] entry plus its schema and strategy: routing,
//! discovery, OpenAPI and the generic handlers all read from here.

pub mod configmap;
pub(crate) mod controllerrevision;
pub mod crd;
pub mod custom;
pub(crate) mod duration;
pub(crate) mod event;
pub mod field;
pub mod jsonpath;
pub(crate) mod legacy_scheme;
pub(crate) mod meta;
pub(crate) mod namespace;
pub mod rbac;
pub mod review;
pub mod schema;
mod sent;
pub(crate) mod status;
pub(crate) mod validation;

use serde_json::{Map, Value};

use crate::codec::protobuf::schema::Msg;
use crate::resources::rbac::authority::Requester;
use crate::resources::status::{ApiError, ApiResult, GroupKind, GroupResource};
use field::FieldError;
use schema::Struct;

/// Kind-specific behaviour the generic store runs around every write.
pub trait Strategy: Sync {
    /// Scheme defaulting, which kube-apiserver applies as it decodes a request's object:
    /// before field management, so the writer owns what it sets (a Namespace's
    /// `kubernetes.io/metadata.name` label).
    fn default(&self, _obj: &mut Map<String, Value>) {}
    /// Server-side defaults applied to a new object before validation.
    fn prepare_for_create(&self, _obj: &mut Map<String, Value>) {}
    /// Carries server-owned parts of `old` into an update through `subresource` ("" for the
    /// main resource): what that endpoint may not change (a Namespace's status through the
    /// main resource, its spec through `status`).
    fn prepare_for_update(
        &self,
        _new: &mut Map<String, Value>,
        _old: &Map<String, Value>,
        _subresource: &str,
    ) {
    }
    /// Kind-specific create validation, ObjectMeta included (as the real strategies do).
    /// `sent` is what the request's body set, for rules about fields the client omitted.
    fn validate_create(&self, obj: &Map<String, Value>, sent: &Sent) -> Vec<FieldError>;
    /// Whether a PUT of a missing object creates it (`AllowCreateOnUpdate`: the RBAC kinds,
    /// which `kubectl auth reconcile` relies on); otherwise it is a 404.
    fn allow_create_on_update(&self) -> bool {
        false
    }
    /// A field kept as the client's bytes (`runtime.RawExtension`), immutable byte for byte:
    /// the registry compares what was stored with what an update brings (a
    /// ControllerRevision's `data`, where the same JSON with other whitespace is a change).
    fn raw_field(&self) -> Option<&'static str> {
        None
    }
    /// Kind-specific update validation (ObjectMeta update rules are generic).
    fn validate_update(
        &self,
        new: &Map<String, Value>,
        old: &Map<String, Value>,
    ) -> Vec<FieldError>;
    /// An update's validation through `subresource` (`status`: the status strategy's);
    /// by default the main resource's.
    fn validate_subresource_update(
        &self,
        new: &Map<String, Value>,
        old: &Map<String, Value>,
        _subresource: &str,
    ) -> Vec<FieldError> {
        self.validate_update(new, old)
    }
    /// Top-level fields a write through `subresource` ("" for the main resource) resets
    /// (`GetResetFields`): nobody comes to own them through that endpoint.
    fn reset_fields(&self, _subresource: &str) -> &'static [&'static str] {
        &[]
    }
    /// Graceful deletion (`CheckGracefulDelete`): the grace period, in seconds, a delete of
    /// `obj` with the requested `gracePeriodSeconds` gets, or `None` for a kind deleted at
    /// once. A positive period keeps the object, terminating, with `deletionTimestamp` that
    /// far ahead; 0 deletes it now. Nothing in the server ends the period when it runs out:
    /// on kube-apiserver, too, that is a client's later delete (the kubelet's, for pods).
    fn graceful_delete_seconds(&self, _obj: &Value, _requested: Option<i64>) -> Option<i64> {
        None
    }
    /// What a delete without a propagation policy does to dependents
    /// (`DefaultGarbageCollectionPolicy`).
    fn default_gc_policy(&self) -> GcPolicy {
        GcPolicy::DeleteDependents
    }
    /// Whether objects of the kind are stored. A virtual kind (SubjectAccessReview,
    /// SelfSubjectReview) answers a create with [`Strategy::answer`] and stores nothing.
    fn stored(&self) -> bool {
        true
    }
    /// A virtual kind's (`info`) answer to a create of `obj` (`sent`: what the body set) by
    /// `by`: by default the object validated, then completed by
    /// [`Strategy::prepare_for_create`].
    fn answer(
        &self,
        info: &'static ResourceInfo,
        mut obj: Map<String, Value>,
        sent: &Sent,
        _by: &Requester<'_>,
    ) -> ApiResult<Map<String, Value>> {
        let errs = self.validate_create(&obj, sent);
        if !errs.is_empty() {
            let name = meta::map_meta_str(&obj, "name");
            return Err(ApiError::invalid(info.group_kind(), name, &errs));
        }
        self.prepare_for_create(&mut obj);
        Ok(obj)
    }
    /// A check of who writes, before preparation and validation (the RBAC kinds' escalation
    /// prevention): `new` over `old` for an update.
    fn check_write(
        &self,
        _info: &ResourceInfo,
        _by: &Requester<'_>,
        _new: &Map<String, Value>,
        _old: Option<&Map<String, Value>>,
    ) -> ApiResult<()> {
        Ok(())
    }
    /// The value of one of the kind's own field-selector labels (`GetAttrs`), beyond
    /// `metadata.name` and `metadata.namespace`; `None` for a label it does not have.
    fn field_value(&self, _obj: &Value, _label: &str) -> Option<String> {
        None
    }
    /// Whether the kind keeps finalizers of its own that hold a terminating object in the
    /// store (a Namespace's `spec.finalizers`), beyond `metadata.finalizers`.
    fn has_kind_finalizers(&self, _obj: &Value) -> bool {
        false
    }
    /// Whether a delete of `obj` only marks it terminating, whatever its finalizers (a
    /// Namespace is first `Terminating`, then finalized by its controller).
    fn delete_marks_terminating(&self, _obj: &Value) -> bool {
        false
    }
    /// Changes the kind makes to an object that a delete marks terminating
    /// (`status.phase: Terminating`).
    fn prepare_for_terminating(&self, _obj: &mut Map<String, Value>) {}
    /// Whether the kind stores updates through `subresource` itself
    /// ([`Strategy::update_subresource`]).
    fn serves_own_subresource(&self, _subresource: &str) -> bool {
        false
    }
    /// An update through a subresource the kind serves with its own storage (a Namespace's
    /// `finalize`): the object to write, from the current one and the request's. `None`
    /// when the subresource is written as the main resource is.
    fn update_subresource(
        &self,
        _subresource: &str,
        _current: &Map<String, Value>,
        _request: &Map<String, Value>,
    ) -> Option<Map<String, Value>> {
        None
    }
    /// How long an object lives after its last write (`TTLFunc`), in seconds; `None` for
    /// objects that live until deleted.
    fn ttl_seconds(&self) -> Option<i64> {
        None
    }
    /// The kind's printer (`pkg/printers`): its Table columns after `Name`, and each
    /// object's cells for them. `None`: the generic store's default convertor.
    fn printer(&self) -> Option<&'static dyn Printer> {
        None
    }
}

/// `rest.GarbageCollectionPolicy`: a kind's default for dependents when a delete names none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GcPolicy {
    /// Dependents are deleted (in the background); no finalizer is added.
    DeleteDependents,
    /// Dependents are orphaned: a delete adds the `orphan` finalizer.
    OrphanDependents,
    /// The kind takes no part in garbage collection: GC finalizers are never kept.
    Unsupported,
}

/// A kind's Table columns (`TableColumnDefinition`s after `Name`) and rows.
pub trait Printer: Sync {
    /// The column definitions after `Name` (and before `Age`, when the kind prints one):
    /// (name, type, format, description).
    fn columns(&self) -> &'static [Column];
    /// Whether the kind prints an `Age` column (`creationTimestamp`).
    fn has_age(&self) -> bool {
        true
    }
    /// Where `Age` goes among [`Printer::columns`]: after this many of them (last, unless the
    /// kind puts wide columns after it, as RoleBinding does).
    fn age_after(&self) -> usize {
        self.columns().len()
    }
    /// Whether the table starts with the generic `Name` column; `false` when
    /// [`Printer::columns`] and [`Printer::cells`] place it themselves (an Event's is a wide
    /// column near the end).
    fn name_first(&self) -> bool {
        true
    }
    /// The cells of `obj` for [`Printer::columns`], ages counted to `now_ms`.
    fn cells(&self, obj: &Value, now_ms: i64) -> Vec<Value>;
}

/// One Table column definition.
#[derive(Debug)]
pub struct Column {
    pub name: &'static str,
    pub ty: &'static str,
    pub format: &'static str,
    pub description: &'static str,
    /// 1 for columns kubectl shows only with `-o wide`.
    pub priority: u8,
}

/// A subresource as discovery lists it (`namespaces/status`).
#[derive(Debug)]
pub struct Subresource {
    pub name: &'static str,
    pub verbs: &'static [&'static str],
}

/// Everything the server knows about one resource type.
pub struct ResourceInfo {
    /// API group; empty for the core group.
    pub group: &'static str,
    pub version: &'static str,
    pub kind: &'static str,
    /// The resource name in URLs (plural).
    pub plural: &'static str,
    pub singular: &'static str,
    pub short_names: &'static [&'static str],
    /// The groups of resources this one belongs to (`kubectl get all`), as discovery shows.
    pub categories: &'static [&'static str],
    /// The version objects are stored in when it is not `version` (CustomResourceDefinitions
    /// are stored as v1beta1): discovery's storage version hash is computed from it.
    pub storage_version: Option<&'static str>,
    pub namespaced: bool,
    /// Verbs in the alphabetical order discovery emits.
    pub verbs: &'static [&'static str],
    pub subresources: &'static [Subresource],
    pub schema: &'static Struct,
    pub strategy: &'static dyn Strategy,
    /// Field selector labels supported beyond `metadata.name` (and `metadata.namespace` for
    /// namespaced kinds).
    pub extra_field_labels: &'static [&'static str],
    /// Whether the kind has a protobuf form (built-in kinds; custom resources have none). Its
    /// message tables are derived from `schema`, whose fields carry the field numbers.
    pub protobuf: bool,
    /// OpenAPI descriptions of the list kind: the type and its `items` (and `metadata`).
    pub list_docs: ListDocs,
    /// A custom resource's kind (defined by a CustomResourceDefinition): objects are
    /// unstructured, decoded and canonicalized by its structural schema, not by `schema`.
    pub custom: Option<&'static custom::CustomKind>,
}

/// `ListMeta`'s usual description on a list's `metadata`.
pub const LIST_META_MORE: &str = "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";

/// How OpenAPI describes a kind's list type.
#[derive(Debug, Clone, Copy)]
pub struct ListDocs {
    /// The list type's description.
    pub description: &'static str,
    /// `items`' description.
    pub items: &'static str,
    /// `metadata`'s description.
    pub metadata: &'static str,
}

impl std::fmt::Debug for ResourceInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResourceInfo")
            .field("group", &self.group)
            .field("version", &self.version)
            .field("plural", &self.plural)
            .finish()
    }
}

impl ResourceInfo {
    /// `apps/v1`, or `v1` for the core group.
    pub fn api_version(&self) -> String {
        if self.group.is_empty() {
            self.version.to_string()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }

    /// The list kind (`ControllerRevisionList`).
    pub fn list_kind(&self) -> String {
        format!("{}List", self.kind)
    }

    /// For error messages: `controllerrevisions.apps`.
    pub fn group_resource(&self) -> GroupResource<'static> {
        GroupResource {
            group: self.group,
            resource: self.plural,
        }
    }

    /// For `Invalid` messages: `ControllerRevision.apps`.
    pub fn group_kind(&self) -> GroupKind<'static> {
        GroupKind {
            group: self.group,
            kind: self.kind,
        }
    }

    /// Every field label a field selector on this resource may use.
    pub fn field_labels(&self) -> Vec<&'static str> {
        let mut v = vec!["metadata.name"];
        if self.namespaced {
            v.push("metadata.namespace");
        }
        v.extend_from_slice(self.extra_field_labels);
        v
    }

    /// The value of a field label on `obj` (field selectors): `metadata.name`,
    /// `metadata.namespace`, then the kind's own labels.
    pub fn field_value(&self, obj: &Value, label: &str) -> Option<String> {
        let m = meta::meta(obj);
        let s = |k: &str| m.get(k).and_then(Value::as_str).unwrap_or("").to_string();
        match label {
            "metadata.name" | "name" => Some(s("name")),
            "metadata.namespace" => Some(s("namespace")),
            _ => self.strategy.field_value(obj, label),
        }
    }

    /// Whether this resource serves `verb`.
    pub fn supports(&self, verb: &str) -> bool {
        self.verbs.contains(&verb)
    }

    /// The URL path of one object (`/apis/apps/v1/namespaces/NS/controllerrevisions/NAME`),
    /// or of the collection when `name` is empty.
    pub fn path(&self, namespace: &str, name: &str) -> String {
        let mut p = if self.group.is_empty() {
            format!("/api/{}", self.version)
        } else {
            format!("/apis/{}/{}", self.group, self.version)
        };
        if self.namespaced && !namespace.is_empty() {
            p.push_str(&format!("/namespaces/{namespace}"));
        }
        p.push('/');
        p.push_str(self.plural);
        if !name.is_empty() {
            p.push('/');
            p.push_str(name);
        }
        p
    }

    /// The storage key prefix: `/registry/<plural>/`, or for a custom resource, whose
    /// versions share it, `/registry/<group>/<plural>/` (as the CRD handler's storage has it).
    pub fn key_prefix(&self) -> String {
        match self.custom {
            Some(_) => format!("/registry/{}/{}/", self.group, self.plural),
            None => format!("/registry/{}/", self.plural),
        }
    }

    /// The storage key of one object.
    pub fn key(&self, namespace: &str, name: &str) -> String {
        let mut key = self.key_prefix();
        if self.namespaced {
            key.push_str(namespace);
            key.push('/');
        }
        key.push_str(name);
        key
    }

    /// The canonical form of an object built or changed in the server: the typed decoder's
    /// for a built-in kind, a custom resource's pruned and sorted form for a custom one.
    pub fn canonicalize(&self, obj: &Map<String, Value>) -> Map<String, Value> {
        self.canonicalize_owned(obj.clone())
    }

    /// [`ResourceInfo::canonicalize`], moving what is already canonical. A custom
    /// resource's is in its storage version, as it is stored.
    pub fn canonicalize_owned(&self, obj: Map<String, Value>) -> Map<String, Value> {
        match self.custom {
            Some(c) => {
                let mut obj = obj;
                custom::conversion::to_storage(c, &mut obj);
                let obj = custom::canonical::canonicalize(&c.schema, obj);
                // Converted, it is pruned by the storage version's schema (when that is
                // another one: the same schema pruned it already).
                match c.schema_of(&c.storage_version) {
                    Some(s) if !std::ptr::eq(s, &c.schema) => custom::canonical::prune(s, obj),
                    _ => obj,
                }
            }
            None => crate::codec::decode::canonicalize_owned(obj, self.schema),
        }
    }

    /// discovery's `storageVersionHash`: base64 of the first 8 bytes of
    /// SHA-256(`group/version/Kind`).
    pub fn storage_version_hash(&self) -> String {
        use base64::Engine as _;
        use sha2::Digest as _;
        let version = self.storage_version.unwrap_or(self.version);
        let digest = sha2::Sha256::digest(format!("{}/{}/{}", self.group, version, self.kind));
        base64::engine::general_purpose::STANDARD.encode(&digest[..8])
    }
}

pub(crate) const CRUD_VERBS: &[&str] = &[
    "create",
    "delete",
    "deletecollection",
    "get",
    "list",
    "patch",
    "update",
    "watch",
];

pub use controllerrevision::CONTROLLER_REVISIONS;
pub use event::EVENTS;
pub use namespace::NAMESPACES;
pub use sent::Sent;

/// Every served resource, in discovery order (alphabetical within a group version).
pub static ALL: &[&ResourceInfo] = &[
    &configmap::CONFIG_MAPS,
    &EVENTS,
    &NAMESPACES,
    &CONTROLLER_REVISIONS,
    &review::SELF_SUBJECT_REVIEWS,
    &review::LOCAL_SUBJECT_ACCESS_REVIEWS,
    &review::SELF_SUBJECT_ACCESS_REVIEWS,
    &review::SELF_SUBJECT_RULES_REVIEWS,
    &review::SUBJECT_ACCESS_REVIEWS,
    &rbac::CLUSTER_ROLE_BINDINGS,
    &rbac::CLUSTER_ROLES,
    &rbac::ROLE_BINDINGS,
    &rbac::ROLES,
    &crd::CUSTOM_RESOURCE_DEFINITIONS,
];

/// The served kinds, held by value by the registry so that kinds can be added while the
/// server runs (custom resources). Routing, discovery, OpenAPI and the protobuf scheme all
/// read from here.
#[derive(Debug, Clone)]
pub struct Kinds {
    all: Vec<&'static ResourceInfo>,
    /// Every custom kind built so far, by its definition's fingerprint
    /// ([`custom::fingerprint`]): a definition that has not changed serves the kind it
    /// served before, so no kind is built twice for one definition version.
    built: std::collections::HashMap<String, &'static ResourceInfo>,
}

impl Default for Kinds {
    fn default() -> Self {
        Kinds::builtin()
    }
}

impl Kinds {
    /// The built-in kinds ([`ALL`]).
    pub fn builtin() -> Self {
        Kinds {
            all: ALL.to_vec(),
            built: Default::default(),
        }
    }

    /// Serves one more kind; an error when its group, version and plural are taken.
    pub fn register(&mut self, info: &'static ResourceInfo) -> Result<(), String> {
        if self.lookup(info.group, info.version, info.plural).is_some() {
            return Err(format!(
                "{} is already served in {}",
                info.plural,
                info.api_version()
            ));
        }
        self.all.push(info);
        Ok(())
    }

    /// Every served kind, in discovery order.
    pub fn iter(&self) -> impl Iterator<Item = &'static ResourceInfo> + '_ {
        self.all.iter().copied()
    }

    /// Looks a resource up by group, version and plural name.
    pub fn lookup(
        &self,
        group: &str,
        version: &str,
        plural: &str,
    ) -> Option<&'static ResourceInfo> {
        self.iter()
            .find(|r| r.group == group && r.version == version && r.plural == plural)
    }

    /// The resource serving `kind` in `api_version` (`apps/v1`, `v1`).
    pub fn by_kind(&self, api_version: &str, kind: &str) -> Option<&'static ResourceInfo> {
        self.iter()
            .find(|r| r.kind == kind && r.api_version() == api_version)
    }

    /// The served API groups and their versions (core group excluded), in `/apis` order.
    pub fn groups(&self) -> Vec<(&'static str, &'static str)> {
        let mut out: Vec<(&str, &str)> = Vec::new();
        for r in self.iter() {
            if !r.group.is_empty() && !out.contains(&(r.group, r.version)) {
                out.push((r.group, r.version));
            }
        }
        out
    }

    /// Whether any resource is served under this group/version.
    pub fn serves_group_version(&self, group: &str, version: &str) -> bool {
        self.iter()
            .any(|r| r.group == group && r.version == version)
    }

    /// Whether any resource is served under this group (any version).
    pub fn serves_group(&self, group: &str) -> bool {
        self.iter().any(|r| r.group == group)
    }
}

impl crate::codec::protobuf::Scheme for Kinds {
    fn message(&self, api_version: &str, kind: &str) -> Option<&'static Msg> {
        proto_message(self.iter(), api_version, kind)
    }

    fn unstructured(&self, api_version: &str, kind: &str) -> bool {
        self.iter().any(|r| {
            r.custom.is_some()
                && r.api_version() == api_version
                && (r.kind == kind || kind.strip_suffix("List") == Some(r.kind))
        })
    }
}

/// The built-in kinds as the protobuf serializer's scheme (for code that has no registry at
/// hand: the playground's decoders, tests).
#[derive(Debug, Clone, Copy)]
pub struct BuiltinScheme;

/// The scheme of every built-in kind.
pub static SCHEME: BuiltinScheme = BuiltinScheme;

impl crate::codec::protobuf::Scheme for BuiltinScheme {
    fn message(&self, api_version: &str, kind: &str) -> Option<&'static Msg> {
        proto_message(ALL.iter().copied(), api_version, kind)
    }
}

/// The message table of `kind` (or of its list) in `api_version` among `kinds`.
fn proto_message(
    mut kinds: impl Iterator<Item = &'static ResourceInfo>,
    api_version: &str,
    kind: &str,
) -> Option<&'static Msg> {
    use crate::codec::protobuf::{list_message_of, message_of};
    kinds.find_map(|r| {
        if !r.protobuf || r.api_version() != api_version {
            return None;
        }
        if r.kind == kind {
            message_of(r.schema)
        } else if kind.strip_suffix("List") == Some(r.kind) {
            list_message_of(r.schema)
        } else {
            None
        }
    })
}
