//! Generic validation shared by every kind: object names, label keys and values, and the
//! ObjectMeta rules kube-apiserver applies on create and update, with its exact error texts.
//!
//! * [`names`]: string validators (`IsDNS1123Subdomain`, `IsQualifiedName`, path segments...).
//! * [`meta_fields`]: labels, annotations, ownerReferences, finalizers, managedFields.
//! * [`object_meta`]: whole-ObjectMeta validation on create and update, and the generic store's
//!   extra passes.
//! * [`timestamp`]: `metav1.Time` parsing, comparison and printing for the immutability checks.

pub mod label_selector;
pub mod meta_fields;
pub mod names;
pub mod object_meta;
pub mod timestamp;

pub use names::{validate_controller_revision_name, validate_namespace_name};
pub use object_meta::{
    reset_update_system_fields, validate_common_fields_for_update, validate_generic_create,
};
