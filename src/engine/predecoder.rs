//! What a concurrent host does before it takes the engine's lock: decode a write's body,
//! prepare its field tracking and validation, apply a patch ([`crate::api::predecode`]), so
//! that heavy bodies are parsed and checked in parallel and the engine, which serializes
//! every request, spends only the write itself on them.

use std::sync::Arc;

use bytes::Bytes;

use super::Engine;
use crate::api::negotiation::{self, Encoding};
use crate::resources::Kinds;

/// The engine's kinds, encodings and time as of when it was made: enough to decode bodies
/// without the engine. Cheap to make and to clone.
#[derive(Debug, Clone)]
pub struct Predecoder {
    kinds: Arc<Kinds>,
    served: Vec<Encoding>,
    /// The engine's time when this was made: an apply prepared ahead is stamped with it.
    now: String,
}

impl Predecoder {
    /// Decodes `req`'s body if it is a create or an update, and attaches the result for
    /// [`Engine::serve`] to use; the engine decodes it itself if its kinds or encodings
    /// have changed since, so the answer is the same either way.
    pub fn predecode(&self, req: &mut http::Request<Bytes>) {
        self.attach(req, None);
    }

    /// [`Predecoder::predecode`], and for an update also its field tracking and validation
    /// against the object `live` reads at the update's key (a host takes the engine's lock
    /// briefly for [`Engine::stored_at`]), and for a PATCH the patch applied to it (an apply
    /// at this predecoder's time); the engine uses these only while the version (and the
    /// time) still hold.
    pub fn predecode_against(
        &self,
        req: &mut http::Request<Bytes>,
        live: impl Fn(&str) -> Option<crate::codec::Object>,
    ) {
        self.attach(req, Some(&live));
    }

    fn attach(
        &self,
        req: &mut http::Request<Bytes>,
        live: Option<crate::api::predecode::LiveLookup<'_>>,
    ) {
        let ahead = super::stack::with_room(|| {
            crate::api::predecode::predecode(&self.kinds, &self.served, &self.now, req, live)
        });
        if let Some(ahead) = ahead {
            req.extensions_mut().insert(ahead);
        }
    }

    /// Whether `req` is one [`Predecoder::predecode`] may decode: a POST, PUT or PATCH with a
    /// body.
    pub fn wants(req: &http::Request<Bytes>) -> bool {
        crate::api::predecode::applies(req)
    }
}

impl Engine {
    /// The version stored at `key` (a storage key, `/registry/<resource>/...`), shared, not
    /// copied: what [`Predecoder::predecode_against`] prepares an update against.
    pub fn stored_at(&self, key: &str) -> Option<crate::codec::Object> {
        self.registry.store().get(key).cloned()
    }

    /// A [`Predecoder`] for requests to this engine.
    pub fn predecoder(&self) -> Predecoder {
        Predecoder {
            kinds: self.registry.kinds().clone(),
            served: negotiation::served(self.registry.feature_gates()),
            now: self.registry.now_text(),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Map, Value};

    use crate::registry::{pretrack, Write};
    use crate::resources::Sent;
    use crate::{Config, Engine};

    /// The fields the `tracker` manager owns in `obj`'s managedFields.
    fn tracked(obj: &Value) -> Value {
        obj["metadata"]["managedFields"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|e| e["manager"] == "tracker")
            .map(|e| e["fieldsV1"].clone())
            .unwrap_or(Value::Null)
    }

    /// An update's tracking prepared against the live version is what the write records,
    /// and is dropped once another write has replaced that version: prepared for an object
    /// with a label, the update is then served with one without it, so the label in the
    /// record shows which tracking the write used.
    #[test]
    fn an_update_uses_tracking_prepared_against_the_version_still_live() {
        for stale in [false, true] {
            let mut e = Engine::new(Config::default());
            let info = e
                .registry
                .kinds()
                .by_kind("apps/v1", "ControllerRevision")
                .unwrap();
            let created = json!({"apiVersion": "apps/v1", "kind": "ControllerRevision",
                "metadata": {"name": "r1", "namespace": "default"}, "data": {"x": 1}, "revision": 1});
            let w = Write::by("tracker", false);
            let Value::Object(created) = created else {
                unreachable!()
            };
            e.registry
                .create(info, created.clone(), &Sent::of(&created), &w)
                .unwrap();
            let key = info.key("default", "r1");
            let live = e.stored_at(&key).unwrap();
            let Value::Object(mut plain) = live.decode() else {
                unreachable!()
            };
            plain["metadata"]
                .as_object_mut()
                .unwrap()
                .remove("resourceVersion");
            let mut labelled = plain.clone();
            labelled["metadata"]
                .as_object_mut()
                .unwrap()
                .insert("labels".into(), json!({"a": "b"}));
            let prepared = pretrack(info, Some(live), labelled, &w);
            if stale {
                let mut other: Map<String, Value> = plain.clone();
                other["metadata"]
                    .as_object_mut()
                    .unwrap()
                    .insert("annotations".into(), json!({"n": "1"}));
                e.registry
                    .update(info, &key, other, &Write::by("other", false))
                    .unwrap();
            }
            let sent = Sent::of(&plain);
            let (out, created) = e
                .registry
                .put(info, &key, plain, &sent, &w, Some(prepared))
                .unwrap();
            assert!(!created);
            let out = out.value;
            let label = &tracked(&out)["f:metadata"]["f:labels"];
            assert_eq!(label.is_object(), !stale, "stale: {stale}: {out}");
        }
    }
}

#[cfg(test)]
mod kind_validation_tests {
    use serde_json::{json, Value};

    use crate::registry::{pretrack, Write};
    use crate::resources::Sent;
    use crate::{Config, Engine};

    /// An update's kind validation prepared against the live version is what the write
    /// reports while that version is live, and is made anew once it is not: prepared for a
    /// ConfigMap with a key the kind refuses, the update is then served with a valid one, so
    /// the answer shows which validation the write used.
    #[test]
    fn an_update_uses_the_kind_validation_prepared_against_the_version_still_live() {
        for stale in [false, true] {
            let mut e = Engine::new(Config::default());
            let info = e.registry.kinds().by_kind("v1", "ConfigMap").unwrap();
            let w = Write::by("tracker", false);
            let Value::Object(created) = json!({"apiVersion": "v1", "kind": "ConfigMap",
                "metadata": {"name": "c", "namespace": "default"}, "data": {"a": "1"}})
            else {
                unreachable!()
            };
            e.registry
                .create(info, created.clone(), &Sent::of(&created), &w)
                .unwrap();
            let key = info.key("default", "c");
            let live = e.stored_at(&key).unwrap();
            let mut refused = created.clone();
            refused.insert("data".into(), json!({"not a key!": "1"}));
            let prepared = pretrack(info, Some(live), refused, &w);
            if stale {
                let mut other = created.clone();
                other.insert("data".into(), json!({"b": "2"}));
                e.registry
                    .update(info, &key, other, &Write::by("other", false))
                    .unwrap();
            }
            let sent = Sent::of(&created);
            let out = e
                .registry
                .put(info, &key, created, &sent, &w, Some(prepared));
            assert_eq!(out.is_err(), !stale, "stale: {stale}: {out:?}");
            if let Err(err) = out {
                assert_eq!(err.code, 422, "{err:?}");
            }
        }
    }

    /// An update's validation prepared before the lock is not used when the final
    /// managedFields entries fail ObjectMeta's check of them (validation's one reading of the
    /// part the write still changes): the write validates anew. Here a sent entry whose
    /// manager name is too long keeps the label it owns, while the prepared validation saw a
    /// ConfigMap key the kind refuses.
    #[test]
    fn an_update_validates_anew_when_its_entries_fail_their_check() {
        let mut e = Engine::new(Config::default());
        let info = e.registry.kinds().by_kind("v1", "ConfigMap").unwrap();
        let w = Write::by("tracker", false);
        let object = |data: Value, entries: Value| {
            let Value::Object(m) = json!({"apiVersion": "v1", "kind": "ConfigMap",
                "metadata": {"name": "c", "namespace": "default", "labels": {"x": "y"},
                    "managedFields": entries}, "data": data})
            else {
                unreachable!()
            };
            m
        };
        let created = object(json!({"a": "1"}), Value::Null);
        e.registry
            .create(info, created.clone(), &Sent::of(&created), &w)
            .unwrap();
        let key = info.key("default", "c");
        let long = json!([{"manager": "m".repeat(200), "operation": "Update", "apiVersion": "v1",
            "fieldsType": "FieldsV1", "fieldsV1": {"f:metadata": {"f:labels": {"f:x": {}}}}}]);
        let refused = object(json!({"not a key!": "1"}), long.clone());
        let prepared = pretrack(info, e.stored_at(&key), refused, &w);
        let valid = object(json!({"a": "2"}), long);
        let sent = Sent::of(&valid);
        let err = e
            .registry
            .put(info, &key, valid, &sent, &w, Some(prepared))
            .unwrap_err();
        let text = format!("{err:?}");
        assert_eq!(err.code, 422);
        assert!(!text.contains("not a key!"), "{text}");
        assert!(text.contains("managedFields[0].manager"), "{text}");
    }

    /// A named create's validation prepared before the lock is what the write reports:
    /// prepared for a ConfigMap with a key the kind refuses, the create is served with a
    /// valid one and refused.
    #[test]
    fn a_create_uses_the_validation_prepared_before_the_lock() {
        let mut e = Engine::new(Config::default());
        let info = e.registry.kinds().by_kind("v1", "ConfigMap").unwrap();
        let w = Write::by("tracker", false);
        let object = |data: Value| {
            let Value::Object(m) = json!({"apiVersion": "v1", "kind": "ConfigMap",
                "metadata": {"name": "c", "namespace": "default"}, "data": data})
            else {
                unreachable!()
            };
            m
        };
        let refused = object(json!({"not a key!": "1"}));
        let sent = Sent::of(&refused);
        let prepared = crate::registry::pretrack_create(info, refused, &w, &sent);
        let valid = object(json!({"a": "1"}));
        let err = e
            .registry
            .create_pretracked(info, valid, &sent, &w, Some(prepared))
            .unwrap_err();
        assert_eq!(err.code, 422, "{err:?}");
        assert!(format!("{err:?}").contains("not a key!"), "{err:?}");
    }

    /// A generated name's create is validated before its name is drawn, with a placeholder:
    /// a finding of nothing holds for any name and is used (here for a body swapped for
    /// one the kind refuses, so the create shows it was), while findings, which would name
    /// the placeholder, are left for the write to make with the name it draws.
    #[test]
    fn a_generated_name_create_uses_only_a_validation_that_found_nothing() {
        let mut e = Engine::new(Config::default());
        let info = e.registry.kinds().by_kind("v1", "ConfigMap").unwrap();
        let w = Write::by("tracker", false);
        let object = |data: Value| {
            let Value::Object(m) = json!({"apiVersion": "v1", "kind": "ConfigMap",
                "metadata": {"generateName": "gen-", "namespace": "default"}, "data": data})
            else {
                unreachable!()
            };
            m
        };
        let (valid, refused) = (
            object(json!({"a": "1"})),
            object(json!({"not a key!": "1"})),
        );
        let sent = Sent::of(&valid);
        let prepared = crate::registry::pretrack_create(info, valid, &w, &sent);
        let created =
            e.registry
                .create_pretracked(info, refused.clone(), &sent, &w, Some(prepared));
        assert!(created.is_ok(), "{created:?}");
        let prepared = crate::registry::pretrack_create(info, refused.clone(), &w, &sent);
        let err = e
            .registry
            .create_pretracked(info, refused, &sent, &w, Some(prepared))
            .unwrap_err();
        let text = format!("{err:?}");
        assert_eq!(err.code, 422, "{text}");
        assert!(
            text.contains("not a key!") && !text.contains("gen-bbbbb"),
            "{text}"
        );
    }
}
