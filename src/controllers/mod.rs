//! The parts of kube-controller-manager whose effects the API's semantics depend on, run
//! synchronously on engine ticks so that their timing is deterministic.

pub mod clusterrole_aggregation;
pub mod garbage_collector;
pub mod namespace;
