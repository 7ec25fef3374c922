//! Objects stored with a time to live (`TTLFunc`: Events, `--event-ttl`, one hour), expired
//! as etcd expires the lease they were written with.
//!
//! kube-apiserver's etcd3 store attaches every write of such an object to a lease from its
//! `leaseManager`: a lease granted for `ttl + reuse` seconds (`reuse` = 5% of the ttl, at
//! most 60 s) is reused by later writes while it still ends between `ttl` and `ttl + reuse`
//! from now, for at most 1000 objects. Each write moves the object to the lease of that
//! moment, so an Event expires 3600 to 3660 s after its last write; etcd then deletes the
//! key, which watchers see as DELETED. kubesim follows the same arithmetic on the engine's
//! clock, looking at the store's changes on each tick.

use std::collections::{BTreeMap, BTreeSet};

use super::Registry;

/// `defaultLeaseReuseDurationSeconds`.
const REUSE_MAX_SECONDS: i64 = 60;
/// `defaultLeaseMaxObjectCount`.
const MAX_OBJECTS_PER_LEASE: u32 = 1000;

/// The leases of the objects that have one, held by the engine.
#[derive(Debug, Clone, Default)]
pub struct Leases {
    /// The store revision last looked at.
    seen: Option<u64>,
    /// The lease being reused: when it ends (ms) and how many writes it took.
    current: Option<(i64, u32)>,
    /// Key → when its lease ends (ms), and the same ordered by time.
    ends: BTreeMap<String, i64>,
    by_time: BTreeSet<(i64, String)>,
}

impl Leases {
    /// When the next lease ends, if any.
    pub fn next_due(&self) -> Option<i64> {
        self.by_time.first().map(|(at, _)| *at)
    }

    /// Takes in the writes since the last look (a lease for each write of a kind with a ttl),
    /// then deletes the objects whose lease has ended.
    pub fn run(&mut self, reg: &mut Registry) {
        let now = reg.clock().now_ms();
        let rev = reg.store().revision();
        if self.seen != Some(rev) {
            let events = self.seen.map(|seen| reg.store().events_after(seen));
            let writes: Vec<(String, Option<i64>, i64)> = match events {
                Some(Ok(events)) => events
                    .iter()
                    .map(|e| {
                        let ttl = e.value.as_deref().and_then(|v| ttl_of(reg, v));
                        (e.key.clone(), ttl, e.time_ms)
                    })
                    .collect(),
                // The first look (or history gone): each stored object with a ttl and no
                // lease yet gets one now.
                _ => reg
                    .store()
                    .live()
                    .filter(|(k, _)| !self.ends.contains_key(*k))
                    .filter_map(|(k, v)| Some((k.to_string(), Some(ttl_of(reg, v)?), now)))
                    .collect(),
            };
            for (key, ttl, at) in writes {
                self.forget(&key);
                if let Some(ttl) = ttl {
                    let end = self.lease(at, ttl);
                    self.ends.insert(key.clone(), end);
                    self.by_time.insert((end, key));
                }
            }
        }
        while let Some((end, key)) = self.by_time.first().cloned() {
            if end > now {
                break;
            }
            self.forget(&key);
            reg.expire(&key);
        }
        // The expiries' own deletions included.
        self.seen = Some(reg.store().revision());
    }

    fn forget(&mut self, key: &str) {
        if let Some(end) = self.ends.remove(key) {
            self.by_time.remove(&(end, key.to_string()));
        }
    }

    /// `leaseManager.GetLease` at `now` for `ttl` seconds: when the object's lease ends.
    fn lease(&mut self, now: i64, ttl: i64) -> i64 {
        let reuse = (ttl / 20).min(REUSE_MAX_SECONDS);
        if let Some((end, count)) = &mut self.current {
            *count += 1;
            let valid = now + ttl * 1000 < *end;
            let sufficient = now + (ttl + reuse) * 1000 > *end;
            if valid && sufficient && *count <= MAX_OBJECTS_PER_LEASE {
                return *end;
            }
        }
        let end = now + (ttl + reuse) * 1000;
        self.current = Some((end, 1));
        end
    }
}

/// The ttl (seconds) of the kind `obj` is, if it has one.
fn ttl_of(reg: &Registry, obj: &serde_json::Value) -> Option<i64> {
    let api_version = obj.get("apiVersion")?.as_str()?;
    let kind = obj.get("kind")?.as_str()?;
    reg.kinds()
        .by_kind(api_version, kind)?
        .strategy
        .ttl_seconds()
}
