//! Corrupt values: keys whose stored bytes can no longer be read, as when an encryption key
//! was lost or a value was written that does not decode (KEP-3926). The texts are etcd3
//! storage's (`pkg/storage/etcd3/corrupt_obj_deleter.go`, `pkg/storage/errors.go`), so they
//! are written here as Go prints them.

/// How a value is unreadable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Corruption {
    /// The transformer cannot decrypt it (the usual case: the key that encrypted it is gone).
    Undecryptable,
    /// It decrypts, but does not decode into an object.
    Undecodable,
}

/// The transformer's own error (an encryption config without the value's provider).
pub const TRANSFORM_ERROR: &str = "no matching prefix found";
/// The decoder's error for bytes that are no serialized object.
pub const DECODE_ERROR: &str =
    "couldn't get version/kind; json parse error: unexpected end of JSON input";

/// One unreadable key, as a read found it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CorruptKey {
    pub key: String,
    pub corruption: Corruption,
    /// The revision that wrote the unreadable value.
    pub mod_rev: u64,
}

impl Corruption {
    /// Parses the name the control endpoints use (`undecryptable`, `undecodable`).
    pub fn parse(s: &str) -> Option<Corruption> {
        match s {
            "undecryptable" => Some(Corruption::Undecryptable),
            "undecodable" => Some(Corruption::Undecodable),
            _ => None,
        }
    }

    /// The name [`Corruption::parse`] reads.
    pub fn name(self) -> &'static str {
        match self {
            Corruption::Undecryptable => "undecryptable",
            Corruption::Undecodable => "undecodable",
        }
    }
}

impl CorruptKey {
    /// The reader's bare error, as a server without `AllowUnsafeMalformedObjectDeletion`
    /// reports it.
    pub fn bare_error(&self) -> &'static str {
        match self.corruption {
            Corruption::Undecryptable => TRANSFORM_ERROR,
            Corruption::Undecodable => DECODE_ERROR,
        }
    }

    /// `corruptObjectError`: the transformer never knows the revision, the decoder does.
    pub fn inner_error(&self) -> String {
        match self.corruption {
            Corruption::Undecryptable => {
                format!("data from the storage is not transformable revision=0: {TRANSFORM_ERROR}")
            }
            Corruption::Undecodable => {
                format!(
                    "object not decodable revision={}: {DECODE_ERROR}",
                    self.mod_rev
                )
            }
        }
    }

    /// `storage.NewCorruptObjError(key, err).Error()` for `key`.
    pub fn storage_error(&self, key: &str) -> String {
        format!(
            "StorageError: corrupt object, Code: 7, Key: {key}, ResourceVersion: 0, AdditionalErrorMsg: {}",
            self.inner_error()
        )
    }
}
