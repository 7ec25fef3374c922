//! The NamespaceLifecycle admission plugin: writes into a namespace need the namespace to
//! exist (404) and not to be terminating (403). It is the one place in the registry that
//! knows the Namespace kind, as the plugin is in kube-apiserver.

use super::Registry;
use crate::resources::meta::meta_str;
use crate::resources::status::ApiError;
use crate::resources::{ResourceInfo, NAMESPACES};

impl Registry {
    /// Admits a write of `name` (of `info`) into `namespace`.
    pub fn admit_namespace_write(
        &self,
        info: &ResourceInfo,
        namespace: &str,
        name: &str,
    ) -> Result<(), ApiError> {
        match self.store().get(&NAMESPACES.key("", namespace)) {
            None => Err(ApiError::not_found(NAMESPACES.group_resource(), namespace)),
            Some(ns) if !meta_str(ns, "deletionTimestamp").is_empty() => {
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
