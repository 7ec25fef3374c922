//! Patch mechanics, as kube-apiserver applies them to the current object's JSON:
//! RFC 6902 JSON Patch (`json_patch`), RFC 7386 JSON Merge Patch (`merge_patch`) and
//! strategic merge patch with the built-in types' list strategies (`strategic`).
//! Server-side apply (managedFields) is not implemented yet.

pub(crate) mod json_patch;
pub(crate) mod merge_patch;
pub(crate) mod strategic;

/// Why a patch could not be applied, mapped by the handler to the real server's status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PatchError {
    /// The patch document itself is malformed (400).
    BadRequest(String),
    /// A well-formed patch failed against this object (422 "the server rejected our
    /// request due to an error in our request", the text as a cause).
    Unprocessable(String),
    /// Too many operations (413).
    TooLarge(String),
    /// A plain error the real server answers with 500 and no reason.
    Internal(String),
}
