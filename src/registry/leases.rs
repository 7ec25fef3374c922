//! Objects stored with a time to live (`TTLFunc`: Events, `--event-ttl`, one hour), expired
//! as etcd expires the lease they were written with.
//!
//! kube-apiserver's etcd3 store attaches every write of such an object to a lease from its
//! `leaseManager`: a lease granted for `ttl + reuse` seconds (`reuse` = 5% of the ttl, at
//! most 60 s) is reused by later writes while it still ends between `ttl` and `ttl + reuse`
//! from now, for at most 1000 objects. Each write moves the object to the lease of that
//! moment, so an Event expires 3600 to 3660 s after its last write; etcd then deletes the
//! key, which watchers see as DELETED. kubesim follows the same arithmetic on the engine's
//! clock, looking at the store's changes on each tick. (etcd deletes a lease's keys in one
//! transaction, at one revision; here each expired key is deleted at a revision of its own,
//! since the store writes one key per revision.)

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
            // The kinds with a time to live, by their keys' prefix: only their writes matter.
            // (The prefix is formatted only for those: this runs after every write.)
            let ttls: Vec<(String, i64)> = reg
                .kinds()
                .iter()
                .filter_map(|i| {
                    let ttl = i.strategy.ttl_seconds()?;
                    Some((i.key_prefix(), ttl))
                })
                .collect();
            let ttl_of = |key: &str| {
                ttls.iter()
                    .find(|(prefix, _)| key.starts_with(prefix.as_str()))
                    .map(|(_, ttl)| *ttl)
            };
            let store = reg.store();
            match self.seen.map(|seen| store.events_after(seen)) {
                Some(Ok(events)) => {
                    for e in events {
                        let Some(ttl) = ttl_of(&e.key) else { continue };
                        self.forget(&e.key);
                        if e.value.is_some() {
                            self.take_lease(&e.key, e.time_ms, ttl);
                        }
                    }
                }
                // The first look (or history gone): each stored object with a ttl and no
                // lease yet gets one now.
                _ => {
                    for (key, _) in store.live() {
                        if let Some(ttl) = ttl_of(key).filter(|_| !self.ends.contains_key(key)) {
                            self.take_lease(key, now, ttl);
                        }
                    }
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

    /// `key`, written at `at`, takes the lease of that moment.
    fn take_lease(&mut self, key: &str, at: i64, ttl: i64) {
        let end = self.lease(at, ttl);
        self.ends.insert(key.to_string(), end);
        self.by_time.insert((end, key.to_string()));
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
