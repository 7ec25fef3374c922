//! A client's-eye view: a simulated informer (client-go's reflector) on the ControllerRevisions
//! of `default`, driven through the same requests a real one sends — a list, then a watch
//! from the list's resourceVersion with bookmarks; when the watch ends it watches again from
//! the last resourceVersion it saw, and when that answers 410 it lists again — and what it
//! believes (each object's resourceVersion, and the revision it is synced to) compared with
//! the store, so the moments it diverges are visible.
//!
//! Its "wrong resourceVersion" mode starts the watch at the store's current revision rather
//! than the list's: whatever was written in between never reaches it, which is the bug the
//! list-then-watch contract exists to prevent.

use std::collections::BTreeMap;

use super::exchange::Draft;
use super::sim::{Sim, WatchState};

/// The collection the informer watches.
pub const PATH: &str = super::templates::CR_COLLECTION;

/// Where a watch starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WatchFrom {
    /// The list's resourceVersion (or, after a break, the last one seen): nothing is missed.
    LastSeen,
    /// The store's revision when the watch starts: the writes since the list are missed.
    Current,
}

/// The informer's state.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Informer {
    /// `name` → the resourceVersion it believes the object is at.
    pub believed: BTreeMap<String, String>,
    /// The revision it is synced to (the list's, then events' and bookmarks').
    pub rv: Option<u64>,
    /// Its watch panel, while it has one.
    pub watch: Option<u32>,
    /// How many rows of that panel it has taken in.
    seen_rows: usize,
    /// How many times a 410 made it list again.
    pub relists: u32,
    /// Its connection is down: its watch is not started again until it reconnects.
    pub disconnected: bool,
    /// What it did, oldest first.
    pub log: Vec<String>,
}

/// How the informer's belief differs from the store, object by object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Divergence {
    /// In the store, not believed.
    Missing { name: String, rv: String },
    /// Believed at an older resourceVersion than the store's.
    Stale {
        name: String,
        believed: String,
        rv: String,
    },
    /// Believed, but gone from the store.
    Ghost { name: String },
}

impl Divergence {
    /// The sentence for the page.
    pub fn text(&self) -> String {
        match self {
            Divergence::Missing { name, rv } => {
                format!("{name}: in the store at rv {rv}, unknown to the informer")
            }
            Divergence::Stale { name, believed, rv } => {
                format!("{name}: believed at rv {believed}, the store has rv {rv}")
            }
            Divergence::Ghost { name } => {
                format!("{name}: gone from the store, still believed")
            }
        }
    }
}

/// What a watch's end asks of the informer.
enum Restart {
    No,
    Watch { relist: bool },
}

impl Informer {
    /// Lists the collection: what it believes is replaced by the list's items, at the list's
    /// resourceVersion.
    pub fn list(&mut self, sim: &mut Sim) -> Result<(), String> {
        let (x, _) = sim.send(&Draft::get(PATH))?;
        let body = x
            .json()
            .filter(|_| x.code == 200)
            .ok_or_else(|| format!("the list answered {}", x.status_line))?;
        self.believed = body["items"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|o| {
                let m = &o["metadata"];
                (
                    m["name"].as_str().unwrap_or("").to_string(),
                    m["resourceVersion"].as_str().unwrap_or("").to_string(),
                )
            })
            .collect();
        self.rv = body["metadata"]["resourceVersion"]
            .as_str()
            .and_then(|r| r.parse().ok());
        self.log.push(format!(
            "LIST: {} object(s) at rv {}",
            self.believed.len(),
            self.rv.unwrap_or(0)
        ));
        Ok(())
    }

    /// Starts its watch, from the last resourceVersion it saw or (the bug) from the store's
    /// current revision.
    pub fn watch(&mut self, sim: &mut Sim, from: WatchFrom) -> Result<(), String> {
        self.stop(sim);
        let rv = match from {
            WatchFrom::LastSeen => self
                .rv
                .ok_or("list first: no resourceVersion to watch from")?,
            WatchFrom::Current => sim.engine.store().revision(),
        };
        let path = format!("{PATH}?watch=1&allowWatchBookmarks=true&resourceVersion={rv}");
        let (x, id) = sim.send(&Draft::get(path))?;
        let id = id.ok_or_else(|| format!("the watch answered {}", x.status_line))?;
        self.watch = Some(id);
        self.seen_rows = 0;
        let how = match from {
            WatchFrom::LastSeen => "the last resourceVersion seen",
            WatchFrom::Current => "the store's current revision, not the list's (wrong)",
        };
        self.log.push(format!("WATCH #{id} from rv {rv} ({how})"));
        Ok(())
    }

    /// Drops its watch's connection and keeps it down (a network partition): it watches
    /// again, from the last resourceVersion it saw, once [`Informer::reconnect`] is called.
    pub fn disconnect(&mut self, sim: &mut Sim) {
        if let Some(id) = self.watch.take() {
            sim.stop_watch(id);
            self.log.push(format!("watch #{id} dropped: disconnected"));
        }
        self.disconnected = true;
    }

    /// Ends the partition: the informer resumes its watch from the last resourceVersion it
    /// saw (and relists should that be too old).
    pub fn reconnect(&mut self, sim: &mut Sim) -> Result<(), String> {
        if !std::mem::take(&mut self.disconnected) {
            return Ok(());
        }
        self.log.push("reconnected".into());
        self.restart(sim, false)
    }

    fn restart(&mut self, sim: &mut Sim, relist: bool) -> Result<(), String> {
        if relist {
            self.relists += 1;
            self.log
                .push("410: the informer clears what it believed and lists again".into());
            self.list(sim)?;
        }
        self.watch(sim, WatchFrom::LastSeen)
    }

    /// Ends its watch for good.
    pub fn stop(&mut self, sim: &mut Sim) {
        if let Some(id) = self.watch.take() {
            sim.stop_watch(id);
        }
    }

    /// Takes in what its watch delivered since the last call, as a reflector does: events
    /// move what it believes and its resourceVersion, bookmarks its resourceVersion; a watch
    /// that ended is started again from the last resourceVersion, and one that failed with
    /// 410 Expired makes it list again first. Whether anything changed.
    pub fn sync(&mut self, sim: &mut Sim) -> Result<bool, String> {
        let before = (self.rv, self.log.len());
        // A watch that ends as soon as it starts (a lagging cache's 504) is retried on the
        // next heartbeat, not in a loop here.
        if let Restart::Watch { relist } = self.take_events(sim) {
            self.restart(sim, relist)?;
        }
        Ok((self.rv, self.log.len()) != before)
    }

    /// Takes in the new rows of its watch; whether the watch ended and must start again.
    fn take_events(&mut self, sim: &mut Sim) -> Restart {
        let Some(id) = self.watch else {
            return Restart::No;
        };
        let (rows, ended, gone) = match sim.watch(id) {
            Some(w) => (
                w.rows[self.seen_rows.min(w.rows.len())..].to_vec(),
                w.state != WatchState::Open,
                w.previous_cluster,
            ),
            None => (Vec::new(), true, false),
        };
        if gone {
            // The cluster it watched was replaced (Reset, import, a lesson's fresh start):
            // its resourceVersions mean nothing to the new one. It waits to be listed again.
            self.watch = None;
            self.disconnected = true;
            self.rv = None;
            self.log
                .push("the cluster was replaced: List to start again on the new one".into());
            return Restart::No;
        }
        self.seen_rows += rows.len();
        let mut expired = false;
        let mut failed = false;
        for row in rows {
            let name = row.name.rsplit('/').next().unwrap_or("").to_string();
            match row.kind.as_str() {
                "ADDED" | "MODIFIED" => {
                    self.believed.insert(name, row.rv.clone());
                }
                "DELETED" => {
                    self.believed.remove(&name);
                }
                "ERROR" => {
                    self.log.push(format!("ERROR {}", row.note));
                    expired = row.note.starts_with("410");
                    failed = !expired;
                    continue;
                }
                _ => {}
            }
            if let Ok(rv) = row.rv.parse() {
                self.rv = Some(rv);
            }
        }
        if !ended {
            return Restart::No;
        }
        self.watch = None;
        if failed {
            // Any other failure (a 504 from a cache that lags too far): a reflector backs off
            // before it tries again; here it waits for Reconnect, rather than retrying on
            // every heartbeat.
            self.disconnected = true;
            self.log
                .push("the watch failed: Reconnect to try again".into());
            return Restart::No;
        }
        // Too old to resume (410): start over from a fresh list.
        Restart::Watch { relist: expired }
    }

    /// How what it believes differs from the store's objects in its collection.
    pub fn divergence(&self, sim: &Sim) -> Vec<Divergence> {
        let stored = sim.versions_in("apps/v1", "ControllerRevision", "default");
        let mut out = Vec::new();
        for (name, rv) in &stored {
            match self.believed.get(name) {
                None => out.push(Divergence::Missing {
                    name: name.clone(),
                    rv: rv.clone(),
                }),
                Some(b) if b != rv => out.push(Divergence::Stale {
                    name: name.clone(),
                    believed: b.clone(),
                    rv: rv.clone(),
                }),
                Some(_) => {}
            }
        }
        for name in self.believed.keys().filter(|n| !stored.contains_key(*n)) {
            out.push(Divergence::Ghost { name: name.clone() });
        }
        out
    }
}
