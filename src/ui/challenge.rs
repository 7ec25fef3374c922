//! Challenges: graded exercises on the ControllerRevisions of `default` in which the
//! simulator injects a fault while the learner works — it drops their watch and writes while
//! it is down, compacts the history in the middle of their paged list, or makes the watch
//! cache lag behind their own write. The learner builds the request sequence in the builder;
//! the grader reads that sequence back (each list's revision and pages, each watch's start
//! and the events it delivered) and checks that no write was missed and no stale state kept.

use super::exchange::{Draft, Exchange};
use super::query;
use super::sim::Sim;

/// The collection every challenge is about.
pub const PATH: &str = super::templates::CR_COLLECTION;

/// One challenge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Challenge {
    pub id: &'static str,
    pub title: &'static str,
    /// What to achieve.
    pub goal: &'static str,
    /// What the simulator will do, said up front.
    pub fault: &'static str,
    pub hint: &'static str,
    /// The objects created before it starts.
    pub setup: &'static [&'static str],
}

/// The challenges.
pub const CHALLENGES: &[Challenge] = &[
    Challenge {
        id: "dropped-watch",
        title: "Keep up through a dropped watch",
        goal: "Keep an up-to-date view of the ControllerRevisions in default: list them, then watch for changes. Check when your view is at the store's latest revision.",
        fault: "Once your watch has started, the simulator writes, drops your watch, and writes again while it is down.",
        hint: "Resume from the resourceVersion of the last event you received (or relist): a watch from a later revision skips what happened in between.",
        setup: &["a", "b"],
    },
    Challenge {
        id: "compacted-paging",
        title: "A complete list, in pages of 2, through a compaction",
        goal: "List every ControllerRevision in default with limit=2, following the continue tokens, and end with a complete list taken at one revision. Check when you have it.",
        fault: "After your first page, the simulator writes one more object and compacts the history past your list's revision.",
        hint: "A 410 on a continue token means the snapshot is gone: the inconsistent token it offers mixes revisions. Start the list over.",
        setup: &["a", "b", "c", "d", "e"],
    },
    Challenge {
        id: "lagging-cache",
        title: "Read your own write from a lagging cache",
        goal: "Create a ControllerRevision named mine, then read it back in a way that is guaranteed to show it. Check when your last read shows it.",
        fault: "The simulator has made the watch cache lag 10 s behind the store.",
        hint: "resourceVersion=0 (Any) answers from the cache. Leave resourceVersion unset (Most Recent), or ask for at least the revision your create returned.",
        setup: &[],
    },
];

/// The challenge with this id.
pub fn find(id: &str) -> Option<&'static Challenge> {
    CHALLENGES.iter().find(|c| c.id == id)
}

/// One request of the learner's on the collection, as the grader needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seen {
    pub method: String,
    pub path: String,
    pub code: u16,
    /// A list's (or read's) `metadata.resourceVersion`.
    pub rv: Option<u64>,
    /// A list's continue token, when it has a next page.
    pub next: bool,
    /// The names a list returned, or the one object a read or write returned.
    pub names: Vec<String>,
    /// The watch panel a watch opened.
    pub watch: Option<u32>,
}

/// A challenge in progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChallengeRun {
    pub challenge: &'static Challenge,
    pub seen: Vec<Seen>,
    /// Whether the fault has been injected.
    pub injected: bool,
    /// The last check: passed, and what the grader saw.
    pub verdict: Option<(bool, Vec<String>)>,
}

/// Creates ControllerRevision `name` as the simulator, straight through the engine: its
/// writes are not the learner's requests, so they are neither recorded nor on the timeline.
fn write(sim: &mut Sim, name: &str) {
    let body = format!(
        r#"{{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{{"name":"{name}"}},"data":{{}},"revision":1}}"#
    );
    if let Ok(req) = http::Request::post(PATH)
        .header("content-type", "application/json")
        .body(bytes::Bytes::from(body))
    {
        sim.engine.handle(req);
    }
}

impl ChallengeRun {
    /// Sets `challenge` up on `sim` (a fresh cluster).
    pub fn start(challenge: &'static Challenge, sim: &mut Sim) -> ChallengeRun {
        for name in challenge.setup {
            write(sim, name);
        }
        let mut run = ChallengeRun {
            challenge,
            seen: Vec::new(),
            injected: false,
            verdict: None,
        };
        if challenge.id == "lagging-cache" {
            sim.engine.set_cache_lag(10_000);
            run.injected = true;
        }
        sim.poll();
        run
    }

    /// Records one of the learner's exchanges, if it is on the collection.
    pub fn record(&mut self, draft: &Draft, x: &Exchange, watch: Option<u32>) {
        let (base, _) = query::split(draft.path.trim());
        if !base.starts_with(PATH) {
            return;
        }
        let body = x.json();
        let meta = body.as_ref().map(|b| &b["metadata"]);
        let names = match body.as_ref() {
            Some(b) if b["items"].is_array() => b["items"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|o| o["metadata"]["name"].as_str().map(str::to_owned))
                .collect(),
            Some(b) => b["metadata"]["name"]
                .as_str()
                .map(|n| vec![n.to_string()])
                .unwrap_or_default(),
            None => Vec::new(),
        };
        self.seen.push(Seen {
            method: draft.method.trim().to_uppercase(),
            path: draft.path.trim().to_string(),
            code: x.code,
            rv: meta
                .and_then(|m| m["resourceVersion"].as_str())
                .and_then(|r| r.parse().ok()),
            next: meta
                .and_then(|m| m["continue"].as_str())
                .is_some_and(|c| !c.is_empty()),
            names,
            watch,
        });
    }

    /// Injects the fault when its moment has come: after the learner's first watch on the
    /// collection started (dropped-watch), after their first page (compacted-paging).
    pub fn inject(&mut self, sim: &mut Sim) {
        if self.injected {
            return;
        }
        match self.challenge.id {
            "dropped-watch" => {
                let Some(id) = self.seen.iter().find_map(|s| s.watch) else {
                    return;
                };
                self.injected = true;
                write(sim, "during");
                sim.poll();
                sim.stop_watch(id);
                write(sim, "while-down");
            }
            "compacted-paging" => {
                if !self.seen.iter().any(|s| s.code == 200 && s.next) {
                    return;
                }
                self.injected = true;
                write(sim, "late");
                sim.engine.advance(360_000);
                sim.engine.compact();
            }
            _ => {}
        }
        sim.poll();
    }

    /// Grades the learner's requests so far against the store.
    pub fn check(&mut self, sim: &Sim) -> (bool, Vec<String>) {
        let verdict = match self.challenge.id {
            "lagging-cache" => self.check_own_write(),
            _ => self.check_coverage(sim),
        };
        self.verdict = Some(verdict.clone());
        verdict
    }

    /// The newest revision at which the collection was written: its stored objects' newest
    /// resourceVersion (the challenges delete nothing, so no write is only a deletion).
    fn last_write(sim: &Sim) -> u64 {
        sim.versions_in("apps/v1", "ControllerRevision", "default")
            .values()
            .filter_map(|rv| rv.parse().ok())
            .max()
            .unwrap_or(0)
    }

    /// Up to which revision the learner's lists and watches saw the collection without a
    /// gap: a complete list (unpaged, or every page at one revision) sets it; a watch that
    /// starts at or before it extends it by what it delivered; one that starts after it
    /// leaves a gap.
    fn check_coverage(&self, sim: &Sim) -> (bool, Vec<String>) {
        let mut lines = Vec::new();
        let mut covered: Option<u64> = None;
        let mut paging: Option<u64> = None;
        let mut broken = false;
        for s in self.seen.iter().filter(|s| s.method == "GET") {
            let watching = query::is_watch(&s.path);
            let continued = query::get(&s.path, "continue").is_some_and(|c| !c.is_empty());
            if !watching {
                if s.code != 200 {
                    if continued && paging.is_some() {
                        lines.push(format!(
                            "A page answered {}: that list is broken off.",
                            s.code
                        ));
                        paging = None;
                        broken = true;
                    }
                    continue;
                }
                let rv = s.rv.unwrap_or(0);
                match (continued, paging) {
                    (true, Some(first)) if first != rv => {
                        lines.push(format!(
                            "A page at rv {rv} continued a list begun at rv {first}: not one snapshot, so not kept as complete."
                        ));
                        paging = None;
                        continue;
                    }
                    (true, None) => {
                        if std::mem::take(&mut broken) {
                            lines.push(format!(
                                "A page at rv {rv} continued the broken-off list with the inconsistent token: its pages mix revisions, not one snapshot, so not kept as complete."
                            ));
                        }
                        continue;
                    }
                    _ => {}
                }
                if s.next {
                    paging = Some(rv);
                } else {
                    paging = None;
                    covered = Some(rv);
                    lines.push(format!("A complete list at rv {rv}."));
                }
                continue;
            }
            let Some(id) = s.watch else { continue };
            let Some(panel) = sim.watch(id) else { continue };
            let from = query::get(&s.path, "resourceVersion")
                .and_then(|r| r.parse::<u64>().ok())
                .filter(|r| *r != 0);
            let delivered = panel
                .rows
                .iter()
                .filter(|r| r.kind != "ERROR")
                .filter_map(|r| r.rv.parse::<u64>().ok())
                .max();
            let failed = panel.failure().map(str::to_owned);
            match (from, covered) {
                // Without a resourceVersion a watch starts with the whole state.
                (None, _) => {
                    covered = delivered.max(covered);
                }
                (Some(f), Some(c)) if f <= c => {
                    if let Some(e) = failed {
                        lines.push(format!("Watch #{id} from rv {f} failed: {e}."));
                    } else if let Some(d) = delivered {
                        covered = Some(c.max(d));
                    }
                }
                (Some(f), c) => lines.push(format!(
                    "Watch #{id} started at rv {f}, after what you had seen ({}): the writes in between were missed.",
                    c.map_or("nothing".to_string(), |c| format!("rv {c}"))
                )),
            }
        }
        let last = Self::last_write(sim);
        let ok = covered.is_some_and(|c| c >= last);
        lines.push(match covered {
            Some(c) if c >= last => format!(
                "✓ Your view is complete up to rv {c}, the collection's last write ({last}): nothing missed, nothing stale."
            ),
            Some(c) => format!(
                "✗ Your view is complete only up to rv {c}; the collection was last written at rv {last}."
            ),
            None => "✗ No complete view yet: list the collection first.".to_string(),
        });
        (ok, lines)
    }

    /// The learner's last read of `mine` (or of the collection) after creating it shows it.
    fn check_own_write(&self) -> (bool, Vec<String>) {
        let created = self
            .seen
            .iter()
            .position(|s| s.method == "POST" && s.code == 201 && s.names == ["mine"]);
        let Some(at) = created else {
            return (
                false,
                vec!["✗ Create a ControllerRevision named mine first.".into()],
            );
        };
        let written = self.seen[at].rv.unwrap_or(0);
        let reads: Vec<&Seen> = self.seen[at + 1..]
            .iter()
            .filter(|s| s.method == "GET" && !query::is_watch(&s.path))
            .collect();
        let mut lines = vec![format!("Created mine at rv {written}.")];
        for r in &reads {
            let shows = r.code == 200 && r.names.iter().any(|n| n == "mine");
            lines.push(format!(
                "{} → {}{}",
                r.path,
                r.code,
                if shows {
                    ", shows mine"
                } else {
                    ", does not show mine (stale)"
                }
            ));
        }
        let last = reads.last();
        let shows = last.is_some_and(|r| r.code == 200 && r.names.iter().any(|n| n == "mine"));
        // Any (resourceVersion=0) shows it only once the cache has caught up: not a guarantee.
        let any =
            last.is_some_and(|r| query::get(&r.path, "resourceVersion").as_deref() == Some("0"));
        let ok = shows && !any;
        lines.push(match (shows, any) {
            (true, false) => "✓ Your last read shows your own write, and was bound to.".to_string(),
            (true, true) => "✗ Your last read shows it, but resourceVersion=0 only did so because the cache had caught up.".to_string(),
            _ => "✗ Your last read does not show your own write.".to_string(),
        });
        (ok, lines)
    }
}
