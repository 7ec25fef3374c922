//! The constrained filter's memory (`cache.go`): which mode last worked for each caller (an
//! LRU of 10,000, no expiry), and each constrained mode's successes, by request (outer) and
//! by identity alone (inner), kept 10 s.

use std::collections::{BTreeMap, HashMap, VecDeque};

use super::constrained::{Mode, Wanted};
use crate::resources::rbac::{Attributes, UserInfo};

/// The mode memory's size (`lru.New(10000)`).
const MODE_MEMORY: usize = 10_000;
/// How long a success is remembered (as the token success cache).
const SUCCESS_TTL_MS: i64 = 10_000;

/// The filter's state: which mode last worked for each caller, and recent successes.
#[derive(Debug, Default)]
pub struct Memory {
    /// Caller name → (mode index, last use); `by_use` orders them for eviction past 10,000
    /// (least recently used first).
    modes: HashMap<String, (usize, u64)>,
    by_use: BTreeMap<u64, String>,
    uses: u64,
    /// Successes per constrained mode, by request (outer) or by identity alone (inner).
    pub(super) outer: Successes,
    pub(super) inner: Successes,
}

impl Memory {
    pub(super) fn mode_of(&mut self, caller: &str) -> Option<usize> {
        let (mode, _) = *self.modes.get(caller)?;
        self.touch(caller, mode);
        Some(mode)
    }

    pub(super) fn remember_mode(&mut self, caller: &str, mode: usize) {
        if self.modes.len() >= MODE_MEMORY && !self.modes.contains_key(caller) {
            if let Some((_, oldest)) = self.by_use.pop_first() {
                self.modes.remove(&oldest);
            }
        }
        self.touch(caller, mode);
    }

    /// Records `caller`'s mode as its most recent use.
    fn touch(&mut self, caller: &str, mode: usize) {
        self.uses += 1;
        if let Some((_, used)) = self.modes.insert(caller.to_string(), (mode, self.uses)) {
            self.by_use.remove(&used);
        }
        self.by_use.insert(self.uses, caller.to_string());
    }
}

/// What a success is remembered by: the mode, the identity asked for, the caller, and (for
/// the outer memory) the request.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct Key {
    pub(super) mode: Mode,
    pub(super) wanted: Wanted,
    pub(super) requestor: UserInfo,
    pub(super) request: Option<Attributes>,
}

/// Successes remembered for 10 s (`cache.Expiring`); with one TTL for all, insertion order is
/// expiry order, so expired entries leave from the front.
#[derive(Debug, Default)]
pub(super) struct Successes {
    users: HashMap<Key, (i64, UserInfo)>,
    expiries: VecDeque<(i64, Key)>,
}

impl Successes {
    pub(super) fn get(&self, key: &Key, now: i64) -> Option<UserInfo> {
        self.users
            .get(key)
            .filter(|(expiry, _)| *expiry > now)
            .map(|(_, u)| u.clone())
    }

    pub(super) fn put(&mut self, key: Key, now: i64, user: &UserInfo) {
        while let Some((expiry, _)) = self.expiries.front() {
            if *expiry > now {
                break;
            }
            let (expiry, old) = self.expiries.pop_front().expect("a front entry");
            // Unless it was remembered again since.
            if self.users.get(&old).is_some_and(|(e, _)| *e == expiry) {
                self.users.remove(&old);
            }
        }
        let expiry = now + SUCCESS_TTL_MS;
        self.users.insert(key.clone(), (expiry, user.clone()));
        self.expiries.push_back((expiry, key));
    }
}

/// A success's key for `mode` without the request. The associated-node one holds for every
/// node of the caller and every pod of its service account: the identity is
/// `system:node:*`, and the caller's extras are reduced to their keys
/// (`associatedNodeImpersonationRequestorUserInfo`).
pub(super) fn success_key(mode: Mode, wanted: &Wanted, requestor: &UserInfo) -> Key {
    let (wanted, requestor) = match mode {
        Mode::AssociatedNode => {
            let keys = requestor.extra.keys().cloned().collect();
            let requestor = UserInfo {
                extra: BTreeMap::from([(
                    "authentication.kubernetes.io/associated-node-keys".to_string(),
                    keys,
                )]),
                ..requestor.clone()
            };
            let any_node = Wanted {
                name: "system:node:*".into(),
                ..Wanted::default()
            };
            (any_node, requestor)
        }
        _ => (wanted.clone(), requestor.clone()),
    };
    Key {
        mode,
        wanted,
        requestor,
        request: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn successes_expire_after_ten_seconds_and_the_oldest_caller_is_forgotten() {
        let key = |name: &str| Key {
            mode: Mode::UserInfo,
            wanted: Wanted {
                name: name.into(),
                ..Wanted::default()
            },
            requestor: UserInfo::new("alice", &[]),
            request: None,
        };
        let mut s = Successes::default();
        let bob = UserInfo::new("bob", &[]);
        s.put(key("bob"), 0, &bob);
        s.put(key("bob"), 5_000, &bob);
        s.put(key("carol"), 10_000, &bob);
        assert_eq!(
            s.get(&key("bob"), 14_999),
            Some(bob.clone()),
            "remembered again at 5 s"
        );
        assert_eq!(s.get(&key("bob"), 15_000), None);
        let mut m = Memory::default();
        for i in 0..MODE_MEMORY {
            m.remember_mode(&format!("u{i}"), 3);
        }
        assert_eq!(m.mode_of("u0"), Some(3), "used again: now the most recent");
        m.remember_mode("new", 4);
        assert_eq!((m.mode_of("u1"), m.mode_of("u0")), (None, Some(3)));
    }
}
