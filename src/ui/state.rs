//! The page's state and everything that changes it, as one reducer.
//!
//! Every control on the page (builder, lessons, the semantics table, the chaos panel, the
//! 100 ms poll) dispatches an [`Action`]; [`AppState::update`] applies it to the engine and to
//! what the page shows. One place for all transitions keeps a lesson step, a table click and
//! a hand-made request going through the very same send path, and makes the whole page
//! drivable from a test without a DOM.
//!
//! The reducer does no I/O: what it wants done outside the page's state (saving the history,
//! updating the URL fragment) it returns as [`Effect`]s, which the browser side
//! (`ui::web`, wasm32 only) performs after each action. So it runs natively too.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use super::exchange::{Draft, Exchange};
use super::history::{self, Entry};
use super::identity::Identity;
use super::lesson_data::{self, Lesson};
use super::script::{self, Vars};
use super::semantics::Cell;
use super::share::{self, Shared};
use super::sim::Sim;
use crate::features::FeatureGates;

/// The tabs of the side panel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tab {
    Lessons,
    Terminal,
    Semantics,
    Store,
    Chaos,
    History,
}

impl Tab {
    pub const ALL: [Tab; 6] = [
        Tab::Lessons,
        Tab::Terminal,
        Tab::Semantics,
        Tab::Store,
        Tab::Chaos,
        Tab::History,
    ];

    /// The tab's label (and its id suffix, lower-cased).
    pub fn label(self) -> &'static str {
        match self {
            Tab::Lessons => "Lessons",
            Tab::Terminal => "Terminal",
            Tab::Semantics => "Read semantics",
            Tab::Store => "Store",
            Tab::Chaos => "Time & chaos",
            Tab::History => "History",
        }
    }

    pub fn id(self) -> &'static str {
        match self {
            Tab::Lessons => "lessons",
            Tab::Terminal => "terminal",
            Tab::Semantics => "semantics",
            Tab::Store => "store",
            Tab::Chaos => "chaos",
            Tab::History => "history",
        }
    }
}

/// What the response panel shows.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Idle,
    /// The engine answered; a watch also names the panel it streams into.
    Answered(Rc<Exchange>, Option<u32>),
    /// The form is not a request (nothing was sent).
    Invalid(String),
}

/// A lesson in progress.
#[derive(Debug, Clone, PartialEq)]
pub struct LessonRun {
    pub lesson: &'static Lesson,
    /// The step shown (0-based).
    pub step: usize,
    /// Values saved by the steps run so far.
    pub vars: Vars,
    /// What each step got when it ran.
    pub results: Vec<Option<super::lesson_check::StepOutcome>>,
    /// Why the current step could not be filled in, if it could not.
    pub error: Option<String>,
    /// Whether it runs on the learner's cluster rather than a fresh one (its texts'
    /// resourceVersions and events are not checked then).
    pub own_cluster: bool,
    /// The choice the learner predicted for each step that asks for one.
    pub predictions: Vec<Option<usize>>,
}

impl LessonRun {
    /// Whether every step has run.
    pub fn finished(&self) -> bool {
        self.results.iter().all(Option::is_some)
    }
}

/// What a click on a semantics-table cell got.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CellResult {
    pub code: u16,
    /// The semantic the engine reported (`x-kubesim-read`), if any.
    pub semantic: Option<String>,
    pub read: Option<String>,
}

/// Everything that changes the page.
pub enum Action {
    SetMethod(String),
    SetPath(String),
    SetHeaders(String),
    SetBody(String),
    /// Puts a request into the builder.
    Load(Draft),
    /// Sends the builder's request.
    Send,
    /// Loads a request and sends it.
    LoadAndSend(Draft),
    /// The 100 ms heartbeat: engine tick and watch events.
    Poll,
    StopWatch(u32),
    CloseWatch(u32),
    Advance(i64),
    Compact,
    SetLag(i64),
    SetWall(bool),
    SetGate(&'static str, bool),
    Reset,
    Import(String),
    Tab(Tab),
    /// Starts a lesson; on a cluster changed by hand (and no lesson running), asks first.
    StartLesson(&'static str),
    /// The answer to that question.
    ConfirmLesson(LessonStart),
    /// Brings back the cluster a lesson's fresh start set aside (and leaves the lesson).
    UndoLessonReset,
    /// Shows and loads step N of the running lesson.
    LessonGoto(usize),
    /// The learner's prediction for the current step: the index of a choice.
    Predict(usize),
    ExitLesson,
    /// A link was opened (`#...`).
    Open(Shared),
    RunCell(Cell),
    /// Reruns every cell of the tables on copies of the cluster, as it is and under a
    /// condition.
    RunConditions(super::conditions::Condition),
    /// What the simulated informer does next.
    Informer(InformerOp),
    /// Starts a challenge on a fresh cluster.
    StartChallenge(&'static str),
    /// Grades the challenge in progress.
    CheckChallenge,
    ExitChallenge,
    ClearHistory,
    Notice(Option<String>),
    /// Who requests without credentials act as.
    SetIdentity(Identity),
    /// Runs a command line in the terminal.
    TermRun(String),
    /// Ctrl+C in the terminal: ends a running `get -w` or a waiting `edit`.
    TermInterrupt,
    /// The `edit` editor closes: saved (true) or quit without saving.
    TermEditClose(bool),
    /// Opens request `index` of terminal entry `id` in the builder.
    TermOpen(u32, usize),
}

/// The simulated informer's controls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InformerOp {
    /// A fresh informer lists (and does not watch yet).
    List,
    /// It starts its watch.
    Watch(super::informer::WatchFrom),
    /// Its connection drops and stays down.
    Disconnect,
    /// Its connection comes back: it watches again from where it was.
    Reconnect,
    /// It goes away.
    Close,
}

/// How to start a lesson on a cluster changed by hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LessonStart {
    /// On a fresh cluster, as written (the changed one can be brought back).
    Fresh,
    /// On the cluster as it is (resourceVersions differ from the lesson's text).
    Keep,
    Cancel,
}

/// What a transition asks the browser to do, in order, once the new state is in place.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// Write this request history to local storage (under [`history::KEY`]).
    SaveHistory(Rc<Vec<Entry>>),
    /// Put this fragment (`#` included) in the address bar, without a history entry or a
    /// `hashchange` event: the current request or lesson step, so the URL can be shared.
    ReplaceUrlFragment(String),
}

/// The page's state.
#[derive(Clone)]
pub struct AppState {
    pub sim: Rc<RefCell<Sim>>,
    /// Bumped on every change: the equality the page's context uses.
    pub version: u64,
    pub draft: Draft,
    pub outcome: Outcome,
    /// Number of sends so far (`#status[data-seq]`).
    pub seq: u32,
    pub tab: Tab,
    pub lesson: Option<LessonRun>,
    pub cells: Rc<BTreeMap<Cell, CellResult>>,
    /// The semantic of the last read (highlighted in the Meanings table).
    pub applied: Option<String>,
    pub history: Rc<Vec<Entry>>,
    /// A short message for the notice bar (also announced to screen readers).
    pub notice: Option<String>,
    /// Who the page's requests act as (the user switcher).
    pub identity: Identity,
    /// Whether the page performs the reducer's [`Effect`]s (URL fragment, local storage);
    /// off in tests.
    pub browser: bool,
    /// A lesson waiting for the learner to say how to start it.
    pub confirm_lesson: Option<&'static str>,
    /// The cluster a lesson's fresh start set aside (its exported state), for Undo.
    pub set_aside: Option<Rc<String>>,
    /// For a 404 of a resource discovery does not list: what is served instead (worked
    /// out for the path sent, when it was answered).
    pub unserved: Option<String>,
    /// The tables' cells rerun under a condition (the Read semantics tab), or why they
    /// could not be.
    pub conditions: Option<Rc<Result<super::conditions::ConditionRun, String>>>,
    /// The simulated informer of the Store tab, and its last error.
    pub informer: Option<super::informer::Informer>,
    pub informer_error: Option<String>,
    /// The challenge in progress.
    pub challenge: Option<super::challenge::ChallengeRun>,
    /// The terminal pane (kubectl against this cluster).
    pub terminal: Rc<RefCell<super::terminal::Terminal>>,
}

impl PartialEq for AppState {
    fn eq(&self, other: &Self) -> bool {
        self.version == other.version && Rc::ptr_eq(&self.sim, &other.sim)
    }
}

/// The path the page lists on load.
pub const DEFAULT_PATH: &str = "/api/v1/namespaces";

impl AppState {
    /// A fresh page: simulated clock, default gates, the namespaces request in the builder,
    /// an empty history ([`AppState::with_history`] gives it the stored one).
    pub fn new(browser: bool) -> AppState {
        AppState {
            sim: Rc::new(RefCell::new(Sim::new(false, FeatureGates::default()))),
            version: 0,
            draft: Draft {
                method: "GET".into(),
                path: DEFAULT_PATH.into(),
                headers: String::new(),
                body: String::new(),
            },
            outcome: Outcome::Idle,
            seq: 0,
            tab: Tab::Lessons,
            lesson: None,
            cells: Rc::new(BTreeMap::new()),
            applied: None,
            history: Rc::new(Vec::new()),
            notice: None,
            identity: Identity::Admin,
            browser,
            confirm_lesson: None,
            set_aside: None,
            unserved: None,
            conditions: None,
            informer: None,
            informer_error: None,
            challenge: None,
            terminal: Rc::new(RefCell::new(super::terminal::Terminal::new())),
        }
    }

    /// The same page with a history (read from storage by the browser side).
    pub fn with_history(mut self, list: Vec<Entry>) -> AppState {
        self.history = Rc::new(list);
        self
    }

    /// Sends the builder's request; `record` adds it to the history.
    fn send(&mut self, record: bool, fx: &mut Vec<Effect>) {
        let draft = self.draft.clone();
        let result = self.sim.borrow_mut().send(&draft);
        self.seq += 1;
        match result {
            Ok((x, watch)) => {
                if let Some(read) = x.header(crate::api::response::READ_HEADER) {
                    self.applied = Some(super::badge::ReadBadge::parse(read).semantic);
                }
                if let Some(run) = self.lesson.as_mut() {
                    let json = x.json();
                    if let Some(json) = &json {
                        script::capture(json, run.lesson.steps[run.step].save, &mut run.vars);
                    }
                    let events = watch.map(|id| {
                        let sim = self.sim.borrow();
                        let rows = sim.watch(id).map_or(&[][..], |w| &w.rows);
                        rows.iter().map(|r| r.kind.clone()).collect()
                    });
                    let rv = json.as_ref().and_then(|j| {
                        j["metadata"]["resourceVersion"]
                            .as_str()
                            .map(str::to_string)
                    });
                    let stale = x
                        .header(crate::api::response::READ_HEADER)
                        .map(|h| super::badge::ReadBadge::parse(h).may_be_stale());
                    run.results[run.step] = Some(super::lesson_check::StepOutcome {
                        code: x.code,
                        events,
                        rv,
                        stale,
                    });
                }
                if let Some(run) = self.challenge.as_mut() {
                    run.record(&draft, &x, watch);
                    run.inject(&mut self.sim.borrow_mut());
                }
                if record {
                    self.history =
                        Rc::new(history::push(&self.history, Entry::new(&draft, x.code)));
                    fx.push(Effect::SaveHistory(self.history.clone()));
                }
                self.unserved = (x.code == 404)
                    .then(|| super::discovery::unserved(&self.sim.borrow().resources, &draft.path))
                    .flatten();
                self.outcome = Outcome::Answered(Rc::new(x), watch);
            }
            Err(e) => self.outcome = Outcome::Invalid(e),
        }
        self.share(fx);
    }

    /// The current lesson step's kubectl command line, when it is a terminal step.
    fn lesson_command(&self) -> Option<String> {
        let run = self.lesson.as_ref()?;
        let step = &run.lesson.steps[run.step];
        (!step.kubectl.is_empty()).then(|| step.kubectl.to_string())
    }

    /// Runs a terminal step in the terminal and records its exit status as the step's answer.
    fn run_lesson_command(&mut self, line: &str) {
        let sim = self.sim.clone();
        let id = self
            .terminal
            .borrow_mut()
            .run(line, &mut sim.borrow_mut().engine);
        self.seq += 1;
        let exit = self
            .terminal
            .borrow()
            .entries
            .iter()
            .find(|e| e.id == id)
            .map_or(0, |e| e.exit);
        if let Some(run) = self.lesson.as_mut() {
            run.results[run.step] = Some(super::lesson_check::StepOutcome {
                code: u16::try_from(exit).unwrap_or(u16::MAX),
                events: None,
                rv: None,
                stale: None,
            });
        }
    }

    /// Writes the current request or lesson step into the URL (without a history entry or
    /// a `hashchange` event).
    fn share(&self, fx: &mut Vec<Effect>) {
        let shared = match &self.lesson {
            Some(run) => Shared::Lesson {
                lesson: run.lesson.id.to_string(),
                step: run.step,
            },
            None => Shared::Request(self.draft.clone()),
        };
        fx.push(Effect::ReplaceUrlFragment(format!(
            "#{}",
            share::encode_hash(&shared)
        )));
    }

    /// Loads the current lesson step into the builder, its placeholders filled in.
    fn load_step(&mut self, fx: &mut Vec<Effect>) {
        let Some(run) = self.lesson.as_mut() else {
            return;
        };
        let step = &run.lesson.steps[run.step];
        let fill = |t: &str| script::fill(t, &run.vars);
        run.error = None;
        if !step.kubectl.is_empty() {
            // A terminal step leaves the builder as it is: its command runs in the terminal.
            self.share(fx);
            return;
        }
        let (path, body) = match (fill(step.path), fill(step.body)) {
            (Ok(p), Ok(b)) => (p, b),
            (Err(e), _) | (_, Err(e)) => {
                run.error = Some(e);
                (step.path.to_string(), step.body.to_string())
            }
        };
        self.draft = Draft {
            method: step.method.to_string(),
            path,
            headers: step.headers.to_string(),
            body,
        };
        self.share(fx);
    }

    /// Sets the learner's cluster aside (for Undo) when they changed it by hand.
    pub(super) fn set_aside_if_changed(&mut self) {
        if self.hand_changed() {
            let state = self.sim.borrow().engine.export_state().to_string();
            self.set_aside = Some(Rc::new(state));
        }
    }

    /// Whether the learner's cluster (not one a fresh lesson or a challenge made) was changed
    /// since it was last fresh: what a lesson's fresh start asks about and sets aside.
    fn hand_changed(&self) -> bool {
        let learners =
            self.challenge.is_none() && self.lesson.as_ref().is_none_or(|run| run.own_cluster);
        learners && self.sim.borrow().changed()
    }

    /// Starts lesson `id` on a fresh cluster, or (`fresh` false) on the cluster as it is.
    fn start_lesson(&mut self, id: &str, fresh: bool, fx: &mut Vec<Effect>) -> bool {
        let Some(lesson) = lesson_data::find(id) else {
            self.notice = Some(format!("There is no lesson {id:?}."));
            return false;
        };
        self.confirm_lesson = None;
        // Lessons run on a fresh simulated cluster, so every resourceVersion is as written,
        // and as the administrator (steps that act as someone else say so in a header).
        let mut gates = self.sim.borrow().engine.feature_gates().clone();
        for g in lesson.gates {
            let _ = gates.set(g, true);
        }
        if fresh {
            // What the learner built by hand is set aside, for Undo.
            self.set_aside_if_changed();
            self.sim.borrow_mut().restart_with(false, gates);
        } else {
            // The learner's cluster, rebuilt only when the lesson turns a gate on.
            let wall = !self.sim.borrow().engine.clock().is_simulated();
            let same = gates == *self.sim.borrow().engine.feature_gates();
            let rebuilt = if same {
                Ok(())
            } else {
                self.sim.borrow_mut().rebuild(wall, gates)
            };
            if let Err(e) = rebuilt {
                self.notice = Some(format!("The lesson could not start: {e}"));
                return false;
            }
            self.notice = Some(
                "The lesson runs on your cluster: its resourceVersions differ from the ones its text names."
                    .into(),
            );
        }
        self.sim
            .borrow_mut()
            .engine
            .set_default_user(Identity::Admin.user());
        self.identity = Identity::Admin;
        self.cells = Rc::new(BTreeMap::new());
        self.challenge = None;
        self.lesson = Some(LessonRun {
            lesson,
            step: 0,
            vars: Vars::new(),
            results: vec![None; lesson.steps.len()],
            error: None,
            own_cluster: !fresh,
            predictions: vec![None; lesson.steps.len()],
        });
        self.tab = Tab::Lessons;
        self.outcome = Outcome::Idle;
        self.load_step(fx);
        true
    }

    /// Runs a table cell: fetches a continue token first when the cell needs one.
    fn run_cell(&mut self, cell: Cell, fx: &mut Vec<Effect>) {
        let rv = self.sim.borrow().engine.store().revision();
        let mut token = String::new();
        if cell.needs_token() {
            let first = Draft {
                method: "GET".into(),
                path: "/api/v1/namespaces?limit=1".into(),
                ..Draft::default()
            };
            if let Ok((x, _)) = self.sim.borrow_mut().send(&first) {
                token = x
                    .json()
                    .and_then(|j| j["metadata"]["continue"].as_str().map(str::to_owned))
                    .unwrap_or_default();
            }
        }
        self.lesson = None;
        self.draft = cell.draft(rv, &token);
        self.send(true, fx);
        if let Outcome::Answered(x, _) = &self.outcome {
            let read = x
                .header(crate::api::response::READ_HEADER)
                .map(str::to_owned);
            let semantic = read
                .as_deref()
                .map(|r| super::badge::ReadBadge::parse(r).semantic)
                .filter(|s| !s.is_empty());
            Rc::make_mut(&mut self.cells).insert(
                cell,
                CellResult {
                    code: x.code,
                    semantic,
                    read,
                },
            );
        }
    }

    fn set_identity(&mut self, id: Identity) {
        self.sim.borrow_mut().engine.set_default_user(id.user());
        self.notice = Some(format!("Requests now act as {}.", id.describe()));
        self.identity = id;
    }

    fn set_engine_mode(&mut self, wall: bool, gates: FeatureGates) {
        let result = self.sim.borrow_mut().rebuild(wall, gates);
        self.notice = Some(match result {
            Ok(()) => "The cluster was rebuilt with the new settings; open watches ended.".into(),
            Err(e) => format!("Could not rebuild the cluster: {e}"),
        });
    }
}

mod reducer;
