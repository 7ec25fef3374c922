//! Serializers: bytes on the wire exactly as kube-apiserver writes and reads them.
//!
//! Clients compare responses byte for byte (kubectl's `--raw`, golden tests, the immutability
//! check on ControllerRevision `data`), so encoding follows Go's `encoding/json` to the byte
//! (`json`), request bodies are decoded the way sigs.k8s.io/json fills the Go structs, with
//! the same error texts and `fieldValidation` findings (`decode`), and timestamps go through
//! Go's RFC 3339 layout rules (`rfc3339`).

pub mod cbor;
pub(crate) mod decode;
pub(crate) mod goquote;
mod gotypes;
pub(crate) mod json;
mod json_parse;
pub mod protobuf;
pub(crate) mod rfc3339;
pub(crate) mod scanner;
pub mod schema;
mod source;
mod stored;
pub mod yaml;

pub use goquote::{base64_std, go_quote, go_sprint, go_type_of};

pub use stored::Object;
