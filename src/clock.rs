//! Time as the engine sees it.
//!
//! The engine never reads the wall clock itself: every timeout, expiry and timestamp comes
//! from a [`Clock`] that is simulated by default (it only moves when told to) and can follow
//! an injected [`TimeSource`] (wall time, provided by the host). Tests and lessons advance it
//! explicitly, so a five-minute expiry is a one-line test instead of a five-minute sleep.

/// A host-provided source of real time (milliseconds since the Unix epoch).
pub trait TimeSource: Send {
    /// Milliseconds since the Unix epoch, as the host sees them now.
    fn now_ms(&self) -> i64;
}

/// The engine's clock: an optional host time source plus an offset that `advance` moves.
pub struct Clock {
    source: Option<Box<dyn TimeSource>>,
    base_ms: i64,
    offset_ms: i64,
}

/// 2026-01-01T00:00:00Z: where simulated time starts unless configured otherwise.
pub const DEFAULT_START_MS: i64 = 1_767_225_600_000;

impl Clock {
    /// A simulated clock standing at `start_ms` until advanced.
    pub fn simulated(start_ms: i64) -> Self {
        Clock {
            source: None,
            base_ms: start_ms,
            offset_ms: 0,
        }
    }

    /// A clock that follows `source`; `advance` still shifts it forward.
    pub fn following(source: Box<dyn TimeSource>) -> Self {
        Clock {
            source: Some(source),
            base_ms: 0,
            offset_ms: 0,
        }
    }

    /// Whether time moves only when advanced.
    pub fn is_simulated(&self) -> bool {
        self.source.is_none()
    }

    /// Now, in milliseconds since the Unix epoch.
    pub fn now_ms(&self) -> i64 {
        let base = match &self.source {
            Some(s) => s.now_ms(),
            None => self.base_ms,
        };
        base + self.offset_ms
    }

    /// Now, in whole seconds (the precision of `metav1.Time`).
    pub fn now_secs(&self) -> i64 {
        self.now_ms().div_euclid(1000)
    }

    /// Moves time forward by `ms` (negative values are ignored: time never goes back).
    pub fn advance(&mut self, ms: i64) {
        if ms > 0 {
            self.offset_ms += ms;
        }
    }
}

impl std::fmt::Debug for Clock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Clock")
            .field("simulated", &self.is_simulated())
            .field("now_ms", &self.now_ms())
            .finish()
    }
}

/// Wall time from the operating system, for the native server's `--clock wall`.
#[cfg(not(target_arch = "wasm32"))]
#[derive(Debug, Default)]
pub struct SystemTimeSource;

#[cfg(not(target_arch = "wasm32"))]
impl TimeSource for SystemTimeSource {
    fn now_ms(&self) -> i64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis() as i64)
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simulated_clock_moves_only_when_advanced() {
        let mut c = Clock::simulated(1_000);
        assert_eq!(c.now_ms(), 1_000);
        c.advance(500);
        assert_eq!(c.now_ms(), 1_500);
        c.advance(-10_000);
        assert_eq!(c.now_ms(), 1_500);
        assert_eq!(c.now_secs(), 1);
    }

    struct Fixed(i64);
    impl TimeSource for Fixed {
        fn now_ms(&self) -> i64 {
            self.0
        }
    }

    #[test]
    fn following_clock_adds_offset_to_source() {
        let mut c = Clock::following(Box::new(Fixed(10_000)));
        c.advance(2_000);
        assert_eq!(c.now_ms(), 12_000);
        assert!(!c.is_simulated());
    }
}
