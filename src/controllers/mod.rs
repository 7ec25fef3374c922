//! The parts of kube-controller-manager whose effects the API's semantics depend on, run
//! synchronously on engine ticks so that their timing is deterministic.

/// The field manager of kube-controller-manager's own writes (its clients' User-Agent
/// product): the garbage collector's and the namespace controller's.
pub const MANAGER: &str = "kube-controller-manager";

pub mod clusterrole_aggregation;
pub mod crd_names;
pub mod garbage_collector;
pub mod namespace;
