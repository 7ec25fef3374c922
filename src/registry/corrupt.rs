//! Corrupt objects at the registry (KEP-3926): reads of an unreadable value fail as
//! kube-apiserver's do, with or without `AllowUnsafeMalformedObjectDeletion`, and the unsafe
//! delete removes such a value from the store, skipping finalizers and preconditions.

use super::Registry;
use crate::codec::go_quote;
use crate::resources::status::{ApiError, ApiResult, Cause};
use crate::resources::ResourceInfo;
use crate::store::{CorruptKey, Corruption};
use serde_json::Value;

/// The gate that turns on the corrupt-object error texts and the unsafe delete.
pub const GATE: &str = "AllowUnsafeMalformedObjectDeletion";

/// The storage key as the registry's storage names it (without etcd's `/registry` prefix).
fn storage_key(key: &str) -> &str {
    key.strip_prefix("/registry").unwrap_or(key)
}

impl Registry {
    fn corrupt_texts(&self) -> bool {
        self.gates.enabled(GATE)
    }

    /// The 500 for one unreadable object (get, update, patch, delete).
    pub(crate) fn corrupt_read_error(&self, c: &CorruptKey) -> ApiError {
        match (self.corrupt_texts(), c.corruption) {
            (true, _) => ApiError::internal(c.storage_error(storage_key(&c.key))),
            (false, Corruption::Undecryptable) => ApiError::internal(c.bare_error()),
            (false, Corruption::Undecodable) => ApiError::untyped(500, c.bare_error()),
        }
    }

    /// The 500 for a list that met unreadable objects: with the gate, every one of them as
    /// a cause (at most 100, then a truncation cause); without, the first one.
    pub(crate) fn corrupt_list_error(&self, info: &ResourceInfo, keys: &[CorruptKey]) -> ApiError {
        let Some(first) = keys.first() else {
            return ApiError::internal("no corrupt objects");
        };
        if !self.corrupt_texts() {
            return match first.corruption {
                Corruption::Undecryptable => ApiError::internal(format!(
                    "unable to transform key {}: {}",
                    go_quote(&first.key),
                    first.bare_error()
                )),
                Corruption::Undecodable => ApiError::untyped(500, first.bare_error()),
            };
        }
        let mut causes: Vec<Cause> = keys
            .iter()
            .take(100)
            .map(|c| Cause {
                reason: "UnexpectedServerResponse".into(),
                message: c.storage_error(&c.key),
                field: Some(c.key.clone()),
            })
            .collect();
        if keys.len() > 100 {
            causes.push(Cause {
                reason: "FieldValueTooMany".into(),
                message: "too many errors, the list is truncated".into(),
                field: None,
            });
        }
        ApiError::storage_read_error(info.group_resource(), causes)
    }

    /// The current value of `key` as a write reads it first (from storage): an unreadable
    /// one fails the write. A custom resource reads in its storage version, through the
    /// schema ([`reading`](crate::resources::custom::reading)).
    pub(crate) fn read_current(&self, info: &ResourceInfo, key: &str) -> ApiResult<Option<Value>> {
        if let Some(c) = self.store().corruption(key) {
            return Err(self.corrupt_read_error(&c));
        }
        let stored = self.store().get(key);
        Ok(stored.map(|s| crate::resources::custom::reading::current(info, s)))
    }

    /// Whether `key` holds an unreadable value.
    pub fn is_corrupt(&self, key: &str) -> bool {
        self.store().corruption(key).is_some()
    }

    /// Makes `key`'s value unreadable (the chaos control); false when there is no such key.
    pub fn corrupt(&mut self, key: &str, how: Corruption) -> bool {
        self.store.corrupt(key, how)
    }

    /// The corrupt-object deleter's delete (the handler checked the gate, the options and
    /// `unsafe-delete-ignore-read-errors`): the value is removed from storage without being
    /// read, whatever its finalizers. The watch cache cannot tell watchers what was deleted:
    /// their watches end instead.
    pub fn unsafe_delete(&mut self, key: &str) {
        self.commit_delete(key);
    }
}
