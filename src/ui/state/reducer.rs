//! [`AppState::update`], the reducer: each [`Action`] applied to the engine and the page.

use super::*;

impl AppState {
    /// The reducer: the state after `action`, and what the browser should then do. (Yew's
    /// `Reducible` impl, in `ui::web`, calls this and performs the effects.) The same state
    /// comes back, unchanged, when an idle poll has nothing new to show.
    pub fn update(self: Rc<Self>, action: Action) -> (Rc<Self>, Vec<Effect>) {
        let mut fx = Vec::new();
        if let Action::Poll = action {
            // The heartbeat re-renders only when something visible changed.
            let changed = self.sim.borrow_mut().poll();
            let printed = self.terminal.borrow_mut().poll();
            if !changed && !printed {
                return (self, fx);
            }
        }
        let mut s = (*self).clone();
        s.version += 1;
        match action {
            Action::Poll => {
                let sim = s.sim.clone();
                if let Some(informer) = s.informer.as_mut() {
                    if let Err(e) = informer.sync(&mut sim.borrow_mut()) {
                        s.informer_error = Some(e);
                    }
                }
            }
            Action::Informer(op) => s.informer_op(op),
            Action::StartChallenge(id) => {
                if let Some(challenge) = crate::ui::challenge::find(id) {
                    // The learner's own cluster is set aside, as a lesson's fresh start does.
                    s.set_aside_if_changed();
                    s.lesson = None;
                    s.sim.borrow_mut().reset();
                    let run = crate::ui::challenge::ChallengeRun::start(
                        challenge,
                        &mut s.sim.borrow_mut(),
                    );
                    s.challenge = Some(run);
                    s.tab = Tab::Lessons;
                    s.draft = Draft::get(crate::ui::challenge::PATH);
                }
            }
            Action::CheckChallenge => {
                let sim = s.sim.clone();
                if let Some(run) = s.challenge.as_mut() {
                    sim.borrow_mut().poll();
                    run.check(&sim.borrow());
                }
            }
            Action::ExitChallenge => s.challenge = None,
            Action::SetMethod(m) => s.draft.method = m,
            Action::SetPath(p) => s.draft.path = p,
            Action::SetHeaders(h) => s.draft.headers = h,
            Action::SetBody(b) => s.draft.body = b,
            Action::Load(d) => s.draft = d,
            Action::Send => match s.lesson_command() {
                Some(line) => s.run_lesson_command(&line),
                None => s.send(true, &mut fx),
            },
            Action::LoadAndSend(d) => {
                s.draft = d;
                s.send(true, &mut fx);
            }
            Action::StopWatch(id) => s.sim.borrow_mut().stop_watch(id),
            Action::CloseWatch(id) => s.sim.borrow_mut().close_watch(id),
            Action::Advance(ms) => {
                s.sim.borrow_mut().engine.advance(ms);
                s.sim.borrow_mut().poll();
            }
            Action::Compact => {
                let rev = s.sim.borrow_mut().engine.compact();
                s.notice = Some(format!(
                    "Compacted the store at revision {rev}: older revisions now answer 410 Gone."
                ));
            }
            Action::SetLag(ms) => {
                s.sim.borrow_mut().engine.set_cache_lag(ms);
                s.notice = Some(format!(
                    "The watch cache now lags {ms} ms behind the store."
                ));
            }
            Action::SetWall(wall) => {
                let gates = s.sim.borrow().engine.feature_gates().clone();
                s.set_engine_mode(wall, gates);
            }
            Action::SetGate(name, on) => {
                let wall = !s.sim.borrow().engine.clock().is_simulated();
                let mut gates = s.sim.borrow().engine.feature_gates().clone();
                if gates.set(name, on).is_ok() {
                    s.set_engine_mode(wall, gates);
                }
            }
            Action::Reset => {
                // A cluster the learner replaces by hand no longer has one set aside.
                s.set_aside = None;
                s.confirm_lesson = None;
                s.sim.borrow_mut().reset();
                s.lesson = None;
                s.cells = Rc::new(BTreeMap::new());
                let rev = s.sim.borrow().engine.store().revision();
                s.notice = Some(format!(
                    "A fresh cluster: three namespaces and the RBAC bootstrap policy, at revision {rev}."
                ));
            }
            Action::Import(text) => {
                s.set_aside = None;
                s.confirm_lesson = None;
                let result = s.sim.borrow_mut().import(&text);
                s.notice = Some(match result {
                    Ok(()) => "State imported.".into(),
                    Err(e) => format!("Import failed: {e}"),
                });
            }
            Action::Tab(t) => s.tab = t,
            Action::TermRun(line) => {
                let sim = s.sim.clone();
                s.terminal
                    .borrow_mut()
                    .run(&line, &mut sim.borrow_mut().engine);
            }
            Action::TermInterrupt => {
                s.terminal.borrow_mut().interrupt();
            }
            Action::TermEditClose(save) => {
                let sim = s.sim.clone();
                s.terminal
                    .borrow_mut()
                    .close_editor(save, &mut sim.borrow_mut().engine);
            }
            Action::TermOpen(id, index) => {
                let draft = s.terminal.borrow().draft(id, index);
                if let Some(d) = draft {
                    s.draft = d;
                    s.share(&mut fx);
                }
            }
            Action::StartLesson(id) => {
                if s.hand_changed() {
                    s.confirm_lesson = Some(id);
                    s.tab = Tab::Lessons;
                } else {
                    s.start_lesson(id, true, &mut fx);
                }
            }
            Action::ConfirmLesson(how) => match (s.confirm_lesson, how) {
                (Some(id), LessonStart::Fresh) => {
                    s.start_lesson(id, true, &mut fx);
                }
                (Some(id), LessonStart::Keep) => {
                    s.start_lesson(id, false, &mut fx);
                }
                _ => s.confirm_lesson = None,
            },
            Action::UndoLessonReset => {
                if let Some(state) = s.set_aside.clone() {
                    s.lesson = None;
                    s.cells = Rc::new(BTreeMap::new());
                    let back = s.sim.borrow_mut().import(&state);
                    s.notice = Some(match back {
                        Ok(()) => {
                            s.set_aside = None;
                            "Your cluster from before the lesson is back.".into()
                        }
                        Err(e) => format!("The cluster could not be brought back: {e}"),
                    });
                    s.share(&mut fx);
                }
            }
            Action::RunConditions(condition) => {
                let run = {
                    let sim = s.sim.borrow();
                    let gates = sim.engine.feature_gates().clone();
                    crate::ui::conditions::run(&sim.engine.export_state(), &gates, condition)
                };
                s.conditions = Some(Rc::new(run));
            }
            Action::Predict(choice) => {
                // A prediction is made before the step runs, not changed after.
                if let Some(run) = s.lesson.as_mut().filter(|r| r.results[r.step].is_none()) {
                    run.predictions[run.step] = Some(choice);
                }
            }
            Action::LessonGoto(step) => {
                if let Some(run) = s.lesson.as_mut() {
                    run.step = step.min(run.lesson.steps.len() - 1);
                }
                s.load_step(&mut fx);
            }
            Action::ExitLesson => {
                // What a fresh lesson left behind is not the learner's work: only what they
                // change from here on is asked about (and set aside) by the next lesson.
                if s.lesson.as_ref().is_some_and(|run| !run.own_cluster) {
                    s.sim.borrow_mut().mark_fresh();
                }
                s.lesson = None;
                s.share(&mut fx);
            }
            Action::Open(Shared::Request(d)) => {
                s.lesson = None;
                let get = d.method.eq_ignore_ascii_case("GET");
                s.draft = d;
                if get {
                    s.send(false, &mut fx);
                } else {
                    s.notice = Some("Request loaded from the link: press Send to run it.".into());
                }
            }
            Action::Open(Shared::Lesson { lesson, step }) => {
                if s.start_lesson(&lesson, true, &mut fx) {
                    // Replay the earlier steps: the cluster is fresh and simulated, so this
                    // reproduces exactly the state the link was made in.
                    let last = s.lesson.as_ref().map_or(0, |r| r.lesson.steps.len() - 1);
                    for i in 0..step.min(last) {
                        if let Some(run) = s.lesson.as_mut() {
                            run.step = i;
                        }
                        s.load_step(&mut fx);
                        s.send(false, &mut fx);
                    }
                    if let Some(run) = s.lesson.as_mut() {
                        run.step = step.min(last);
                    }
                    s.load_step(&mut fx);
                }
            }
            Action::RunCell(cell) => s.run_cell(cell, &mut fx),
            Action::ClearHistory => {
                s.history = Rc::new(Vec::new());
                fx.push(Effect::SaveHistory(s.history.clone()));
            }
            Action::Notice(n) => s.notice = n,
            Action::SetIdentity(id) => s.set_identity(id),
        }
        (Rc::new(s), fx)
    }
}

impl AppState {
    /// One of the simulated informer's controls.
    fn informer_op(&mut self, op: InformerOp) {
        let sim = self.sim.clone();
        let mut sim = sim.borrow_mut();
        self.informer_error = None;
        let result = match op {
            InformerOp::List => {
                let mut informer = crate::ui::informer::Informer::default();
                if let Some(old) = self.informer.as_mut() {
                    old.stop(&mut sim);
                }
                let r = informer.list(&mut sim);
                self.informer = Some(informer);
                r
            }
            InformerOp::Watch(from) => match self.informer.as_mut() {
                Some(i) => i.watch(&mut sim, from),
                None => Err("list first".into()),
            },
            InformerOp::Disconnect => {
                if let Some(i) = self.informer.as_mut() {
                    i.disconnect(&mut sim);
                }
                Ok(())
            }
            InformerOp::Reconnect => match self.informer.as_mut() {
                Some(i) => i.reconnect(&mut sim).and_then(|()| {
                    sim.poll();
                    i.sync(&mut sim).map(|_| ())
                }),
                None => Ok(()),
            },
            InformerOp::Close => {
                if let Some(mut i) = self.informer.take() {
                    i.stop(&mut sim);
                }
                Ok(())
            }
        };
        self.informer_error = result.err();
    }
}
