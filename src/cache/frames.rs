//! A watcher's queue of encoded frames, bounded as the real cacher bounds a watcher.
//!
//! kube-apiserver gives each watcher a buffered channel; a watcher whose channel stays full
//! (its client reads slower than events come) is closed (`Forcing ... watcher close due to
//! unresponsiveness`) with no error event: the stream simply ends and the client watches
//! again from its last resourceVersion or relists. Here a watcher queues at most a
//! configured number of bytes not yet taken by its host (the channel plus what a socket would
//! buffer); the write that would pass it closes the watch instead. What is queued is still
//! delivered, then the stream ends. The count is shared with the receiving end, which gives
//! bytes back as the host takes frames, so the engine never waits on a slow client.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use bytes::Bytes;
use futures_channel::mpsc::{unbounded, UnboundedReceiver, UnboundedSender};

/// The bytes one watcher may have queued by default: a few times what a watch channel and a
/// loopback socket's buffers hold.
pub const DEFAULT_WATCHER_BUFFER_BYTES: usize = 8 << 20;

/// A queue of frames holding at most `limit` bytes not yet received.
pub fn frame_queue(limit: usize) -> (FrameSender, FrameReceiver) {
    let (tx, rx) = unbounded();
    let queued = Arc::new(AtomicUsize::new(0));
    (
        FrameSender {
            tx,
            queued: queued.clone(),
            limit,
        },
        FrameReceiver { rx, queued },
    )
}

/// The engine's end of a watcher's queue.
#[derive(Debug)]
pub struct FrameSender {
    tx: UnboundedSender<Bytes>,
    queued: Arc<AtomicUsize>,
    limit: usize,
}

impl FrameSender {
    /// Queues a live event's frame. False when the client has gone or the frame would pass
    /// the limit; in the second case the queue is closed, so the stream ends after what it
    /// already holds.
    pub fn send_live(&self, frame: Bytes) -> bool {
        if self.queued.load(Ordering::Acquire) + frame.len() > self.limit {
            self.tx.close_channel();
            return false;
        }
        self.send(frame)
    }

    /// Queues a frame whatever is queued: a watch's initial events, its replay from the
    /// window, bookmarks and errors. (The real watcher's goroutine writes those itself,
    /// waiting on its client; only the dispatch of new events gives up on a blocked watcher.)
    /// False when the client has gone.
    pub fn send(&self, frame: Bytes) -> bool {
        let len = frame.len();
        self.queued.fetch_add(len, Ordering::AcqRel);
        if self.tx.unbounded_send(frame).is_err() {
            self.queued.fetch_sub(len, Ordering::AcqRel);
            return false;
        }
        true
    }

    /// Whether frames can still be queued (the client is there and the queue not closed).
    pub fn is_open(&self) -> bool {
        !self.tx.is_closed()
    }
}

/// What [`FrameReceiver::try_next`] finds.
#[derive(Debug, PartialEq, Eq)]
pub enum Next {
    Frame(Bytes),
    /// Nothing queued now; more may come.
    Empty,
    /// The queue is closed and empty: the watch has ended.
    Ended,
}

/// The host's end: frames in order; the count goes down as they are taken.
#[derive(Debug)]
pub struct FrameReceiver {
    rx: UnboundedReceiver<Bytes>,
    queued: Arc<AtomicUsize>,
}

impl FrameReceiver {
    fn taken(&self, frame: &Bytes) {
        self.queued.fetch_sub(frame.len(), Ordering::AcqRel);
    }

    /// The next frame if one is queued, without waiting.
    pub fn try_next(&mut self) -> Next {
        match self.rx.try_recv() {
            Ok(frame) => {
                self.taken(&frame);
                Next::Frame(frame)
            }
            Err(e) if e.is_closed() => Next::Ended,
            Err(_) => Next::Empty,
        }
    }
}

impl futures_core::Stream for FrameReceiver {
    type Item = Bytes;
    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Bytes>> {
        let polled = std::pin::Pin::new(&mut self.rx).poll_next(cx);
        if let std::task::Poll::Ready(Some(frame)) = &polled {
            self.taken(frame);
        }
        polled
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initial_events_are_queued_past_the_limit_and_count_against_live_ones() {
        let (tx, mut rx) = frame_queue(4);
        assert!(tx.send(Bytes::from_static(b"123456")));
        assert!(tx.is_open());
        assert_eq!(rx.try_next(), Next::Frame(Bytes::from_static(b"123456")));
        assert!(tx.send(Bytes::from_static(b"1234")));
        assert!(!tx.send_live(Bytes::from_static(b"5")));
        assert_eq!(rx.try_next(), Next::Frame(Bytes::from_static(b"1234")));
        assert_eq!(rx.try_next(), Next::Ended);
    }

    #[test]
    fn a_full_queue_closes_and_still_delivers_what_it_holds() {
        let (tx, mut rx) = frame_queue(10);
        assert!(tx.send_live(Bytes::from_static(b"12345")));
        assert!(tx.send_live(Bytes::from_static(b"6789")));
        // Taking a frame makes room again.
        assert_eq!(rx.try_next(), Next::Frame(Bytes::from_static(b"12345")));
        assert!(tx.send_live(Bytes::from_static(b"abcde")));
        assert!(tx.is_open());
        // 9 queued: two more bytes would pass the limit.
        assert!(!tx.send_live(Bytes::from_static(b"xy")));
        assert!(!tx.is_open());
        assert!(!tx.send(Bytes::from_static(b"z")));
        assert_eq!(rx.try_next(), Next::Frame(Bytes::from_static(b"6789")));
        assert_eq!(rx.try_next(), Next::Frame(Bytes::from_static(b"abcde")));
        assert_eq!(rx.try_next(), Next::Ended);
    }
}
