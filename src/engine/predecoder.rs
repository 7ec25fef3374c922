//! What a concurrent host does before it takes the engine's lock: decode a write's body
//! ([`crate::api::predecode`]), so that heavy bodies are parsed and checked in parallel and
//! the engine, which serializes every request, spends only the write itself on them.

use std::sync::Arc;

use bytes::Bytes;

use super::Engine;
use crate::api::negotiation::{self, Encoding};
use crate::resources::Kinds;

/// The engine's kinds and encodings as of when it was made: enough to decode bodies
/// without the engine. Cheap to make and to clone.
#[derive(Debug, Clone)]
pub struct Predecoder {
    kinds: Arc<Kinds>,
    served: Vec<Encoding>,
}

impl Predecoder {
    /// Decodes `req`'s body if it is a create or an update, and attaches the result for
    /// [`Engine::serve`] to use; the engine decodes it itself if its kinds or encodings
    /// have changed since, so the answer is the same either way.
    pub fn predecode(&self, req: &mut http::Request<Bytes>) {
        let ahead = super::stack::with_room(|| {
            crate::api::predecode::predecode(&self.kinds, &self.served, req)
        });
        if let Some(ahead) = ahead {
            req.extensions_mut().insert(ahead);
        }
    }

    /// Whether `req` is one [`Predecoder::predecode`] may decode: a POST or PUT with a body.
    pub fn wants(req: &http::Request<Bytes>) -> bool {
        crate::api::predecode::applies(req)
    }
}

impl Engine {
    /// A [`Predecoder`] for requests to this engine.
    pub fn predecoder(&self) -> Predecoder {
        Predecoder {
            kinds: self.registry.kinds().clone(),
            served: negotiation::served(self.registry.feature_gates()),
        }
    }
}
