//! Field management at the registry: every create and update records who changed what in
//! `metadata.managedFields` (the field manager runs on the request's object before the kind's
//! preparation and validation, as kube-apiserver's handlers run it), and server-side apply
//! merges a configuration into the live object.

use serde_json::{Map, Value};

use super::Registry;
use crate::fieldmanager::{ApplyRequest, FieldManager, Tracking};
use crate::resources::field::FieldError;
use crate::resources::rbac::{Requester, UserInfo};
use crate::resources::status::ApiResult;
use crate::resources::ResourceInfo;

/// How a write is attributed.
#[derive(Debug, Clone, Default)]
pub struct Write {
    /// `dryRun=All`: everything but the storage write.
    pub dry_run: bool,
    /// The manager of a non-apply write (`fieldManager`, or the User-Agent's product);
    /// `None` when the object's managedFields are already final (an apply's result).
    pub manager: Option<String>,
    /// The subresource written through ("" for the main resource).
    pub subresource: String,
    /// The request sent `managedFields: []` (or `[{}]`): tracking is reset. (The decoded
    /// object cannot tell: Go's omitempty drops the empty list.)
    pub reset_managed_fields: bool,
    /// Who writes: the request's user; `None` for the server's own writes (bootstrap,
    /// controllers), which no escalation check stops.
    pub user: Option<UserInfo>,
    /// The name in the request's URL, when a create has one (server-side apply creating an
    /// object); a POST has none.
    pub request_name: Option<String>,
    /// The bytes of the kind's raw field ([`Strategy::raw_field`]) as a JSON body wrote them;
    /// `None` when the object was built by the server (patches, apply), whose encoding is
    /// compact.
    ///
    /// [`Strategy::raw_field`]: crate::resources::Strategy::raw_field
    pub raw_text: Option<String>,
}

impl Write {
    /// A write by `manager` through the main resource.
    pub fn by(manager: &str, dry_run: bool) -> Self {
        Write {
            dry_run,
            manager: Some(manager.to_string()),
            ..Write::default()
        }
    }
}

impl Write {
    /// The requester of this write of `obj` for the kinds' checks: the object's namespace,
    /// and the URL's name (an update's is the object's).
    pub(crate) fn requester<'a>(
        &'a self,
        reg: &'a Registry,
        obj: &'a Map<String, Value>,
        update: bool,
        now: &'a str,
    ) -> Requester<'a> {
        let name = match &self.request_name {
            Some(n) => n.as_str(),
            None if update => crate::resources::meta::map_meta_str(obj, "name"),
            None => "",
        };
        Requester {
            user: self.user.as_ref(),
            namespace: crate::resources::meta::map_meta_str(obj, "namespace"),
            name,
            authorizer: reg,
            now,
        }
    }
}

/// A write's field tracking, prepared before the engine's lock ([`pretrack`]) for the
/// manager and reset it was prepared with; the write stamps it with its time. An update's was
/// prepared against one stored version of the object, which it carries decoded: it is used
/// only while that version is still the live one (the apiserver's `GuaranteedUpdate` retries
/// a transformation made on a stale object the same way), and then the engine does not
/// decode the live object again either.
#[derive(Debug)]
pub struct Pretracked {
    /// The write's manager; `None` for a write whose managedFields are final (an apply's
    /// result), which has nothing to track but still carries the live object it was made
    /// against.
    manager: Option<String>,
    reset: bool,
    tracking: Tracking,
    against: Against,
    /// The validation of the object the write stores (an update's, ObjectMeta's rules and
    /// the kind's, against the same version, shaped as `BeforeUpdate` shapes it; a create's
    /// `Strategy::validate_create`, shaped as `BeforeCreate` shapes it, with a uid and
    /// creation time it does not read, and a generated name's placeholder when that finds
    /// nothing), made without the managedFields the write is still to stamp (their time,
    /// and so their order; an apply's, already final, are included). Validation reads them
    /// only in its own check of the entries, so the write uses this only when that check of
    /// its final entries finds nothing ([`managed_fields_valid`]).
    validation: Option<Vec<FieldError>>,
}

/// What a [`Pretracked`] was prepared against.
#[derive(Debug)]
enum Against {
    /// No object: a create.
    Nothing,
    /// A stored version, with its decoded value, until the update takes the value.
    Live(crate::codec::Object, Value),
    /// A stored version whose value the update took: still live when it did.
    Taken,
}

impl Pretracked {
    /// For an update: the decoded live object it was prepared against, if `stored` (the
    /// object now at its key) is still that version. Taken once.
    pub(super) fn take_live(&mut self, stored: Option<&crate::codec::Object>) -> Option<Value> {
        match (&self.against, stored) {
            (Against::Live(seen, _), Some(now)) if seen.same_version(now) => {
                match std::mem::replace(&mut self.against, Against::Taken) {
                    Against::Live(_, value) => Some(value),
                    _ => unreachable!("matched as live above"),
                }
            }
            _ => None,
        }
    }

    /// Whether this was prepared for the write now tracked: a create (no `live`), or an
    /// update whose live object it handed over ([`Pretracked::take_live`]).
    fn fits(&self, live: Option<&Value>) -> bool {
        match self.against {
            Against::Nothing => live.is_none(),
            Against::Taken => live.is_some(),
            Against::Live(..) => false,
        }
    }

    /// [`Pretracked::fits`], for the write `w` through the main resource by the manager and
    /// with the reset this was prepared for.
    fn fits_write(&self, live: Option<&Value>, w: &Write) -> bool {
        self.fits(live)
            && w.subresource.is_empty()
            && self.manager == w.manager
            && self.reset == w.reset_managed_fields
    }

    /// The validation prepared for the write `w` (a create: no `live`), if this fits it.
    pub(super) fn take_validation(
        &mut self,
        live: Option<&Value>,
        w: &Write,
    ) -> Option<Vec<FieldError>> {
        if !self.fits_write(live, w) {
            return None;
        }
        self.validation.take()
    }
}

/// What a write's field tracking can do before the engine's lock: everything but the time
/// ([`FieldManager::prepare_update`]) on the object the write will track, `obj` (decoded, its
/// namespace reconciled), for a create (`live` is `None`) or an update of the main resource
/// against `live`, the version stored at its key when the host looked (decoded here too). A
/// 3 MiB object's change set and FieldsV1 then cost the engine nothing; [`Registry::track`]
/// uses the result only for the same manager and reset.
pub fn pretrack(
    info: &'static ResourceInfo,
    live: Option<crate::codec::Object>,
    obj: Map<String, Value>,
    w: &Write,
) -> Pretracked {
    let live = live.map(|stored| {
        let value = crate::resources::custom::reading::current(info, &stored);
        (stored, value)
    });
    pretrack_decoded(info, live, obj, w)
}

/// [`pretrack`] against a live version already decoded (a patch decoded it to patch it). A
/// write without a manager (an apply's result, whose managedFields are final) has nothing to
/// track, but its update still gets the live object decoded and its validation.
pub fn pretrack_decoded(
    info: &'static ResourceInfo,
    live: Option<(crate::codec::Object, Value)>,
    obj: Map<String, Value>,
    w: &Write,
) -> Pretracked {
    let (obj, tracking) = tracked(info, live.as_ref().map(|(_, v)| v), obj, w);
    let validation = live.as_ref().and_then(|(_, v)| v.as_object()).map(|old| {
        let mut shaped = obj;
        super::update::before_update(info, &mut shaped, old, "");
        super::update::validate_update(info, &shaped, old, "")
    });
    Pretracked {
        manager: w.manager.clone(),
        reset: w.reset_managed_fields,
        tracking,
        against: match live {
            Some((stored, value)) => Against::Live(stored, value),
            None => Against::Nothing,
        },
        validation,
    }
}

/// [`pretrack`] for a create, whose body set `sent`, with the kind's validation made: of a
/// named create, or, with a placeholder for the name to be generated, of one whose
/// validation then finds nothing.
pub fn pretrack_create(
    info: &'static ResourceInfo,
    obj: Map<String, Value>,
    w: &Write,
    sent: &crate::resources::Sent,
) -> Pretracked {
    use crate::resources::meta::{map_meta_str, meta_mut};
    let (mut obj, tracking) = tracked(info, None, obj, w);
    let named = !map_meta_str(&obj, "name").is_empty();
    let generate = map_meta_str(&obj, "generateName");
    let generated = !named && !generate.is_empty();
    if generated {
        let placeholder = super::create::placeholder_name(generate);
        meta_mut(&mut obj).insert("name".into(), placeholder.into());
    }
    let validation = (generated || named).then(|| {
        let mut shaped = obj;
        // Neither is read by validation; the write sets its own.
        let (uid, created) = (
            "00000000-0000-0000-0000-000000000000",
            "1970-01-01T00:00:00Z",
        );
        super::create::before_create(info, &mut shaped, uid.into(), created.into());
        info.strategy.validate_create(&shaped, sent)
    });
    // Errors would name the placeholder: a generated name's create keeps only a finding of
    // none, which holds for any name drawn.
    let validation = validation.filter(|errs| !generated || errs.is_empty());
    Pretracked {
        manager: w.manager.clone(),
        reset: w.reset_managed_fields,
        tracking,
        against: Against::Nothing,
        validation,
    }
}

/// `obj` defaulted and prepared for tracking against `live` (without its managedFields),
/// and the tracking, when the write has a manager.
fn tracked(
    info: &'static ResourceInfo,
    live: Option<&Value>,
    obj: Map<String, Value>,
    w: &Write,
) -> (Map<String, Value>, Tracking) {
    let obj = defaulted(info, obj, w);
    match &w.manager {
        Some(manager) => FieldManager::new(info, "").prepare_update(live, obj, manager),
        None => (obj, Tracking::default()),
    }
}

/// Whether the managedFields entries of `obj` pass ObjectMeta's check of them, the one part
/// of validation that reads them.
pub(super) fn managed_fields_valid(obj: &Map<String, Value>) -> bool {
    let entries = obj.get("metadata").and_then(|m| m.get("managedFields"));
    let path = crate::resources::field::FieldPath::new("metadata").child("managedFields");
    crate::resources::validation::meta_fields::validate_managed_fields(entries, &path).is_empty()
}

/// `obj` with the kind's defaults, and an empty managedFields list if the request reset them.
fn defaulted(
    info: &'static ResourceInfo,
    mut obj: Map<String, Value>,
    w: &Write,
) -> Map<String, Value> {
    info.strategy.default(&mut obj);
    if w.reset_managed_fields {
        crate::resources::meta::meta_mut(&mut obj)
            .insert("managedFields".into(), Value::Array(Vec::new()));
    }
    obj
}

impl Registry {
    /// `obj`, defaulted, with the managedFields the write `w` leaves (`live`: the current
    /// object).
    pub fn track(
        &self,
        info: &'static ResourceInfo,
        live: Option<&Value>,
        obj: Map<String, Value>,
        w: &Write,
    ) -> Map<String, Value> {
        self.track_ahead(info, live, obj, w, None)
    }

    /// [`Registry::track`], finishing `ahead` when it was prepared for this write: a create
    /// (`live` is `None`), or an update against the `live` it handed over.
    pub(super) fn track_ahead(
        &self,
        info: &'static ResourceInfo,
        live: Option<&Value>,
        obj: Map<String, Value>,
        w: &Write,
        ahead: Option<Pretracked>,
    ) -> Map<String, Value> {
        let obj = defaulted(info, obj, w);
        let Some(manager) = &w.manager else {
            return obj;
        };
        match ahead {
            Some(p) if p.fits_write(live, w) => p.tracking.finish(obj, &self.now_text()),
            _ => {
                FieldManager::new(info, &w.subresource).update(live, obj, manager, &self.now_text())
            }
        }
    }

    /// A subresource write whose stored object the kind builds (`next`, from the current
    /// object and the request's): the managedFields come from the request's object, which is
    /// what the field manager attributes.
    pub fn track_into(
        &self,
        info: &'static ResourceInfo,
        current: &Value,
        request: Map<String, Value>,
        mut next: Map<String, Value>,
        w: &Write,
    ) -> Map<String, Value> {
        let tracked = self.track(info, Some(current), request, w);
        let m = crate::resources::meta::meta_mut(&mut next);
        match tracked.get("metadata").and_then(|t| t.get("managedFields")) {
            Some(v) => m.insert("managedFields".into(), v.clone()),
            None => m.shift_remove("managedFields"),
        };
        next
    }

    /// Server-side apply of `config` to the object at `key` through `subresource` (absent:
    /// created from it). The merged object carries its managedFields; it still goes through
    /// create or update.
    pub fn apply(
        &self,
        info: &'static ResourceInfo,
        subresource: &str,
        key: &str,
        config: &Value,
        manager: &str,
        force: bool,
    ) -> ApiResult<Value> {
        let live = self.read_current(info, key)?;
        let request = ApplyRequest {
            manager,
            force,
            now: &self.now_text(),
        };
        apply_to(info, subresource, live.as_ref(), config, &request)
    }
}

/// [`Registry::apply`] to `live` as read (`None`: absent) at the request's time: a function
/// of its inputs alone, so a host may run it before the engine's lock.
pub fn apply_to(
    info: &'static ResourceInfo,
    subresource: &str,
    live: Option<&Value>,
    config: &Value,
    request: &ApplyRequest<'_>,
) -> ApiResult<Value> {
    FieldManager::new(info, subresource).apply(live, config, request)
}
