//! Create (`BeforeCreate` and the storage write): defaults, name generation, system fields,
//! validation, then the write — 409 AlreadyExists when the key is taken.

use serde_json::{Map, Value};

use super::Registry;
use crate::resources::meta::{map_meta_str, meta_mut};
use crate::resources::status::{ApiError, ApiResult};
use crate::resources::ResourceInfo;

/// A virtual kind's create (the review kinds' REST `Create`): the system fields wiped
/// (`WipeObjectMetaSystemFields`), then answered by the kind; nothing is stored, and dry run
/// changes nothing.
fn answer_virtual(
    reg: &Registry,
    info: &'static ResourceInfo,
    mut obj: Map<String, Value>,
    sent: &crate::resources::Sent,
    w: &super::Write,
) -> ApiResult<Value> {
    obj.insert("kind".into(), Value::String(info.kind.to_string()));
    obj.insert("apiVersion".into(), Value::String(info.api_version()));
    // Nothing is stored, so no system fields are filled either.
    let m = meta_mut(&mut obj);
    for f in ["creationTimestamp", "uid"].iter().chain(CLEARED_ON_CREATE) {
        m.shift_remove(*f);
    }
    let now = reg.now_text();
    let by = w.requester(reg, &obj, false, &now);
    let answer = info.strategy.answer(info, obj.clone(), sent, &by)?;
    Ok(Value::Object(info.canonicalize(&answer)))
}

/// What a create leaves: the value written and, unless it was a dry run or a virtual kind's
/// answer, the stored version, whose JSON (encoded once when stored) is what the reply sends.
#[derive(Debug)]
pub struct Written {
    pub value: Value,
    pub stored: Option<crate::codec::Object>,
    /// An update's decoded copy of the version it was made against (the one it replaced,
    /// unless it changed nothing or was a dry run), no longer needed: handed out with the
    /// value so that a concurrent host frees both after releasing the engine's lock.
    pub replaced: Option<Value>,
}

impl Written {
    /// A value written nowhere (a dry run, a virtual kind's answer, an update that changed
    /// nothing or deleted the object).
    pub(super) fn answer(value: Value) -> Self {
        Written {
            value,
            stored: None,
            replaced: None,
        }
    }
}

/// What `BeforeCreate` clears from a new object's metadata.
const CLEARED_ON_CREATE: &[&str] = &[
    "deletionTimestamp",
    "deletionGracePeriodSeconds",
    "selfLink",
];

/// `BeforeCreate`'s shaping of a new object, its name set: its uid and creation time, the
/// fields a create clears, its type, then the kind's preparation.
pub(super) fn before_create(
    info: &ResourceInfo,
    obj: &mut Map<String, Value>,
    uid: String,
    now: String,
) {
    let m = meta_mut(obj);
    m.insert("uid".into(), Value::String(uid));
    m.insert("creationTimestamp".into(), Value::String(now));
    for f in CLEARED_ON_CREATE {
        m.shift_remove(*f);
    }
    obj.insert("kind".into(), Value::String(info.kind.to_string()));
    obj.insert("apiVersion".into(), Value::String(info.api_version()));
    info.strategy.prepare_for_create(obj);
}

/// A name as [`generated_name`] makes them, with a fixed suffix from the same alphabet: one
/// is valid exactly when the other is (the suffix's characters are lowercase letters and
/// digits, which every name rule allows anywhere), so a create may be validated before its
/// name is drawn, for as long as it is valid.
pub(super) fn placeholder_name(generate_name: &str) -> String {
    let fixed = crate::rng::NAME_ALPHABET[0] as char;
    name_with_suffix(generate_name, &String::from(fixed).repeat(5))
}

/// `SimpleNameGenerator`: the prefix cut to 58 characters, then five random ones.
fn generated_name(generate_name: &str, rng: &mut crate::rng::Rng) -> String {
    name_with_suffix(generate_name, &rng.name_suffix(5))
}

/// `generate_name` cut to 58 characters, then `suffix`.
fn name_with_suffix(generate_name: &str, suffix: &str) -> String {
    let mut name: String = generate_name.chars().take(58).collect();
    name.push_str(suffix);
    name
}

/// `maxNameGenerationCreateAttempts`: the first try and seven more.
pub const MAX_NAME_GENERATION_ATTEMPTS: usize = 8;

impl Registry {
    /// The generic store's create: defaults, name generation, system fields, validation and
    /// the storage write. Shared by POST and by the engine's own bootstrap.
    ///
    /// A generated name that collides is generated anew, up to
    /// [`MAX_NAME_GENERATION_ATTEMPTS`] attempts in all (KEP-4420, `RetryGenerateName`, GA in
    /// 1.32), before the 409 AlreadyExists reaches the client.
    pub fn create(
        &mut self,
        info: &'static ResourceInfo,
        obj: Map<String, Value>,
        sent: &crate::resources::Sent,
        w: &super::Write,
    ) -> ApiResult<Written> {
        self.create_pretracked(info, obj, sent, w, None)
    }

    /// [`Registry::create`] with the field tracking and a named create's validation prepared
    /// before the engine's lock ([`super::pretrack_create`]), when the host did.
    pub fn create_pretracked(
        &mut self,
        info: &'static ResourceInfo,
        obj: Map<String, Value>,
        sent: &crate::resources::Sent,
        w: &super::Write,
        mut ahead: Option<super::Pretracked>,
    ) -> ApiResult<Written> {
        let prevalidated = ahead.as_mut().and_then(|p| p.take_validation(None, w));
        // The field manager sees the object as the client sent it (name not yet generated,
        // no defaults from the kind's preparation), as in kube-apiserver's create handler.
        let obj = self.track_ahead(info, None, obj, w, ahead);
        if !info.strategy.stored() {
            return answer_virtual(self, info, obj, sent, w).map(Written::answer);
        }
        let now = self.now_text();
        info.strategy
            .check_write(info, &w.requester(self, &obj, false, &now), &obj, None)?;
        let generates =
            !map_meta_str(&obj, "generateName").is_empty() && map_meta_str(&obj, "name").is_empty();
        if !generates {
            return self.create_attempt(info, obj, sent, w, prevalidated);
        }
        if self.next_generated_name_is_free(info, &obj) {
            // The attempt cannot collide, so it needs no copy to retry with.
            return self.create_attempt(info, obj, sent, w, prevalidated);
        }
        // A generated name's prepared validation found nothing, whatever the name.
        let mut result = self.create_attempt(info, obj.clone(), sent, w, prevalidated.clone());
        for _ in 1..MAX_NAME_GENERATION_ATTEMPTS {
            match &result {
                Err(e) if e.reason == "AlreadyExists" => {
                    result = self.create_attempt(info, obj.clone(), sent, w, prevalidated.clone());
                }
                _ => break,
            }
        }
        result
    }

    /// Whether the name the next attempt will generate for `obj` (drawn from a copy of the
    /// generator, after the uid as the attempt draws them) is not taken.
    fn next_generated_name_is_free(&self, info: &ResourceInfo, obj: &Map<String, Value>) -> bool {
        let mut rng = self.rng.clone();
        let _uid = rng.uuid();
        let name = generated_name(map_meta_str(obj, "generateName"), &mut rng);
        let key = info.key(map_meta_str(obj, "namespace"), &name);
        self.store().get(&key).is_none()
    }

    /// One attempt at storing `obj`; `prevalidated`: the kind's validation of it made before
    /// the engine's lock ([`super::pretrack_create`]).
    fn create_attempt(
        &mut self,
        info: &'static ResourceInfo,
        mut obj: Map<String, Value>,
        sent: &crate::resources::Sent,
        w: &super::Write,
        prevalidated: Option<Vec<crate::resources::field::FieldError>>,
    ) -> ApiResult<Written> {
        let dry_run = w.dry_run;
        let now = self.now_text();
        // A client-set resourceVersion is refused by the storage layer with a plain error,
        // which kube-apiserver answers as a 500 (reference, appendix B).
        let client_rv = map_meta_str(&obj, "resourceVersion").to_string();
        let uid = self.rng().uuid();
        let generated;
        {
            let m = meta_mut(&mut obj);
            let generate = m
                .get("generateName")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            let has_name = m
                .get("name")
                .and_then(Value::as_str)
                .is_some_and(|n| !n.is_empty());
            generated = !generate.is_empty() && !has_name;
            if generated {
                let name = generated_name(&generate, self.rng());
                meta_mut(&mut obj).insert("name".into(), Value::String(name));
            }
        }
        before_create(info, &mut obj, uid, now);
        let mut errs = match prevalidated {
            Some(errs) if super::managed::managed_fields_valid(&obj) => errs,
            _ => info.strategy.validate_create(&obj, sent),
        };
        if errs.is_empty() {
            // Generic ObjectMeta checks (path-segment names) run only after the kind's own.
            let empty = Map::new();
            let m = obj
                .get("metadata")
                .and_then(Value::as_object)
                .unwrap_or(&empty);
            errs = crate::resources::validation::validate_generic_create(m, info.namespaced);
        }
        let name = map_meta_str(&obj, "name").to_string();
        if !errs.is_empty() {
            return Err(ApiError::invalid(info.group_kind(), &name, &errs));
        }
        if !client_rv.is_empty() && client_rv != "0" {
            return Err(ApiError::untyped(
                500,
                "resourceVersion should not be set on objects to be created",
            ));
        }
        let ns = map_meta_str(&obj, "namespace").to_string();
        let key = info.key(&ns, &name);
        if let Some(existing) = self.store().get(&key) {
            // `CheckGeneratedNameError`: a generated name's collision says so.
            let mut e = if generated {
                ApiError::generate_name_conflict(info.group_resource(), &name)
            } else {
                ApiError::already_exists(info.group_resource(), &name)
            };
            if super::admission::being_deleted(existing) {
                e.message = format!("object is being deleted: {}", e.message);
            }
            return Err(e);
        }
        // The revision is set before the one canonicalization, which puts it in its place.
        if !dry_run {
            let rev = self.store().next_revision();
            meta_mut(&mut obj).insert("resourceVersion".into(), Value::String(rev.to_string()));
        }
        // The field manager has just written managedFields in their canonical form, and they
        // are ObjectMeta's last field: they are set aside rather than copied node by node.
        // (A custom resource's metadata is sorted: its managedFields are not last.)
        let managed = match info.custom {
            None => meta_mut(&mut obj).shift_remove("managedFields"),
            Some(_) => None,
        };
        let mut obj = info.canonicalize_owned(obj);
        if let Some(managed) = managed {
            meta_mut(&mut obj).insert("managedFields".into(), managed);
        }
        debug_assert_eq!(obj, info.canonicalize(&obj));
        if dry_run {
            meta_mut(&mut obj).shift_remove("resourceVersion");
            return Ok(Written::answer(Value::Object(obj)));
        }
        let obj = Value::Object(obj);
        let stored = self.commit_put(&key, &obj);
        let written = Written {
            value: obj,
            stored: Some(stored),
            replaced: None,
        };
        self.keep_raw_text(info, &key, &written, w);
        Ok(written)
    }
}
