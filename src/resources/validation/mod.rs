//! Generic validation shared by every kind: object names, label keys and values, and the
//! ObjectMeta rules kube-apiserver applies on create and update, with its exact error texts.
//!
//! * [`names`]: string validators (`IsDNS1123Subdomain`, `IsQualifiedName`, path segments...).
//! * [`meta_fields`]: labels, annotations, ownerReferences, finalizers, managedFields.
//! * [`object_meta`]: whole-ObjectMeta validation on create and update, and the generic store's
//!   extra passes.
//! * [`timestamp`]: `metav1.Time` parsing, comparison and printing for the immutability checks.

pub mod meta_fields;
pub mod names;
pub mod object_meta;
pub mod timestamp;

pub use names::{
    is_dns1123_label, is_dns1123_subdomain, is_qualified_name, is_valid_label_value,
    is_valid_path_segment_name, is_valid_path_segment_prefix, mask_trailing_dash_panics,
    name_is_dns_label, name_is_dns_subdomain, validate_controller_revision_name,
    validate_namespace_name, validate_path_segment,
};
pub use object_meta::{
    reset_update_system_fields, validate_common_fields_for_update, validate_generic_create,
    validate_object_meta, validate_object_meta_accessor, validate_object_meta_accessor_update,
    validate_object_meta_update, NameValidator,
};
