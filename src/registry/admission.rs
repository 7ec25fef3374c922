//! The NamespaceLifecycle admission plugin: writes into a namespace need the namespace to
//! exist (404) and not to be terminating (403), and the namespaces the cluster cannot work
//! without may not be deleted (403). It is the one place in the registry that knows the
//! Namespace kind, as the plugin is in kube-apiserver.

use super::Registry;
use crate::resources::status::ApiError;
use crate::resources::{ResourceInfo, NAMESPACES};

/// `immortalNamespaces`.
const IMMORTAL: [&str; 3] = ["default", "kube-system", "kube-public"];

impl Registry {
    /// Admits a delete of `name` (of `info`): the immortal namespaces are refused, dry run
    /// or not.
    pub fn admit_delete(&self, info: &ResourceInfo, name: &str) -> Result<(), ApiError> {
        if std::ptr::eq(info, &NAMESPACES) && IMMORTAL.contains(&name) {
            return Err(ApiError::forbidden(
                info.group_resource(),
                name,
                "this namespace may not be deleted",
            ));
        }
        Ok(())
    }

    /// Admits a write of `name` (of `info`) into `namespace`. Cluster-scoped kinds pass, and
    /// so do access reviews (virtual kinds): their answer must not tell whether the namespace
    /// exists.
    pub fn admit_namespace_write(
        &self,
        info: &ResourceInfo,
        namespace: &str,
        name: &str,
    ) -> Result<(), ApiError> {
        // The CRD handler's `forbidCreateAdmission`, wrapped around every other plugin.
        if let Some(custom) = info.custom {
            let crd =
                crate::resources::crd::CUSTOM_RESOURCE_DEFINITIONS.key("", &custom.definition);
            if self.store().get(&crd).is_some_and(being_deleted) {
                return Err(ApiError::forbidden(
                    info.group_resource(),
                    name,
                    "create not allowed while custom resource definition is terminating",
                ));
            }
        }
        if !info.namespaced || !info.strategy.stored() {
            return Ok(());
        }
        match self.store().get(&NAMESPACES.key("", namespace)) {
            None => Err(ApiError::not_found(NAMESPACES.group_resource(), namespace)),
            Some(ns) if being_deleted(ns) => {
                Err(ApiError::forbidden(
                    info.group_resource(),
                    name,
                    &format!(
                        "unable to create new content in namespace {namespace} because it is being terminated"
                    ),
                ))
            }
            Some(_) => Ok(()),
        }
    }
}

/// Whether a stored object is being deleted (its metadata says since when), read without
/// decoding it: a terminating namespace, or the object a create collides with.
pub(super) fn being_deleted(obj: &crate::codec::Object) -> bool {
    obj.metadata_member("deletionTimestamp")
        .as_ref()
        .and_then(serde_json::Value::as_str)
        .is_some_and(|t| !t.is_empty())
}
