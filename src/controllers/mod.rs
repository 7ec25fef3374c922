//! The parts of kube-controller-manager whose effects the API's semantics depend on, run
//! synchronously on engine ticks so that their timing is deterministic.

/// The field manager of kube-controller-manager's own writes (its clients' User-Agent
/// product): the garbage collector's and the namespace controller's.
pub const MANAGER: &str = "kube-controller-manager";

pub mod clusterrole_aggregation;
pub mod crd_finalizer;
pub mod crd_names;
pub mod garbage_collector;
pub mod namespace;

use crate::registry::Registry;

/// A controller's memory of the store revision it last looked at. Like the real controllers,
/// driven by their informers' events, one acts only when an object it watches changed, so
/// ticks and requests that touch none cost a revision comparison.
#[derive(Debug, Default, Clone, Copy)]
pub struct Seen(u64);

impl Seen {
    /// Whether a key under `prefix` changed since the last call (or the history that would
    /// tell was compacted away). The controller's own writes after this call are seen by the
    /// next one, which finds nothing left to do, or the next step.
    pub fn changed_under(&mut self, reg: &Registry, prefix: &str) -> bool {
        let now = reg.store().revision();
        if now == self.0 {
            return false;
        }
        let changed = match reg.store().events_after(self.0) {
            Ok(events) => events.iter().any(|e| e.key.starts_with(prefix)),
            Err(_) => true,
        };
        self.0 = now;
        changed
    }
}
