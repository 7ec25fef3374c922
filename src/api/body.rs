//! Response bodies: complete bytes, or a watch's stream of frames.

use bytes::Bytes;

use crate::cache::frames::Next;

/// A response body: complete bytes, or a watch stream the engine keeps feeding.
#[derive(Debug)]
pub enum Body {
    /// The complete body.
    Full(Bytes),
    /// One chunk per watch frame, as events happen; ends when the watch ends.
    Watch(WatchStream),
}

static EMPTY: Bytes = Bytes::from_static(b"");

impl Body {
    /// The bytes of a complete body (empty for a stream).
    pub fn bytes(&self) -> &Bytes {
        match self {
            Body::Full(b) => b,
            Body::Watch(_) => &EMPTY,
        }
    }
}

/// The receiving end of a watch: a stream of frames (`futures_core::Stream<Item = Bytes>`).
/// Dropping it ends the watch inside the engine.
#[derive(Debug)]
pub struct WatchStream {
    receiver: crate::cache::frames::FrameReceiver,
}

impl WatchStream {
    pub fn new(receiver: crate::cache::frames::FrameReceiver) -> Self {
        WatchStream { receiver }
    }

    /// Frames available right now, without waiting, and whether the stream has ended.
    pub fn drain(&mut self) -> (Vec<Bytes>, bool) {
        let mut out = Vec::new();
        loop {
            match self.receiver.try_next() {
                Next::Frame(b) => out.push(b),
                Next::Empty => return (out, false),
                Next::Ended => return (out, true),
            }
        }
    }
}

impl futures_core::Stream for WatchStream {
    type Item = Bytes;
    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Bytes>> {
        std::pin::Pin::new(&mut self.receiver).poll_next(cx)
    }
}
