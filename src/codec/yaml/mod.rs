//! YAML (`application/yaml`) exactly as kube-apiserver reads and writes it.
//!
//! kube-apiserver's YAML serializer is JSON in disguise: responses are the object's JSON
//! converted by sigs.k8s.io/yaml's `JSONToYAML` (go-yaml v2), request bodies are converted by
//! `YAMLToJSON` and then decoded as JSON. kubesim does the same, so YAML shares every rule of
//! the JSON path (field validation, type errors, defaults), and only the two conversions live
//! here:
//!
//! * [`emit`]: values → YAML with go-yaml v2's output rules (sorted keys, quoting, folding).
//!   No crate reproduces go-yaml's bytes, so its emitter is ported for the JSON subset.
//! * [`parse`]: YAML → JSON, on the maintained pure-Rust `saphyr-parser` event stream, with
//!   go-yaml v2's YAML 1.1 typing (`resolve`) and strict duplicate-key findings.

pub mod emit;
pub(crate) mod float;
pub mod parse;
mod resolve;
mod sort;
mod syntax_error;

pub use emit::{to_vec, write_document, Node};
pub use parse::{strict_warnings, to_json, Converted, UNMARSHAL_PREFIX};

/// The media type of YAML bodies.
pub const MEDIA_TYPE: &str = "application/yaml";

#[cfg(test)]
mod emit_tests;
