//! The window's background work by name, gathered in one place (after rerun's background
//! tasks): every job the workbench runs — one-shot (generate, design facts, a file, a dialog,
//! the difficulty estimate), streaming (a run, a sweep, a suggestion) or coalesced (the model
//! build, the heatmap) — is listed here with how far it got. The status bar shows the list, and
//! tests ask it what is running rather than poking at each panel's slots.

use super::app::Workbench;

/// One piece of background work in flight.
#[derive(Clone, Debug, PartialEq)]
pub struct RunningTask {
    /// What it is, as the status bar names it: "model build", "run", "sweep", …
    pub name: &'static str,
    /// How far it got, in words ("3 / 9 points", "2.1 s", "opening x.txt"); may be empty.
    pub detail: String,
}

impl RunningTask {
    fn new(name: &'static str, detail: impl Into<String>) -> Self {
        RunningTask {
            name,
            detail: detail.into(),
        }
    }
}

impl Workbench {
    /// Everything running now, in the order the status bar lists it.
    pub fn running_tasks(&self) -> Vec<RunningTask> {
        let s = &self.shared;
        let mut tasks = Vec::new();
        if let Some(t) = s.doc.building_for() {
            tasks.push(RunningTask::new(
                "model build",
                format!("{:.1} s", t.as_secs_f64()),
            ));
        }
        if let Some(run) = &s.run {
            tasks.push(RunningTask::new(
                "run",
                format!("{:.1} s", run.started.elapsed().as_secs_f64()),
            ));
        }
        tasks.extend(self.sweep.running_tasks());
        tasks.extend(self.campaign_form.running_task());
        if s.generating.is_some() {
            tasks.push(RunningTask::new("generate", ""));
        }
        if s.facts_job.is_some() {
            tasks.push(RunningTask::new("design facts", ""));
        }
        for file in &s.files {
            tasks.push(RunningTask::new(
                "file",
                format!("{} {}", file.doing, file.path.display()),
            ));
        }
        if let Some(dialog) = &self.dialog {
            tasks.push(RunningTask::new("file dialog", dialog.action.kind().title));
        }
        if self.puzzle.estimating() {
            tasks.push(RunningTask::new("difficulty estimate", ""));
        }
        if self.inspector.drawing() {
            tasks.push(RunningTask::new("heatmap", ""));
        }
        if self.solver.remote.busy() {
            tasks.push(RunningTask::new("remote service", ""));
        }
        tasks
    }

    /// The running tasks in one line for the status bar ("run 2.1 s · sweep 3 / 9 points").
    pub fn running_summary(&self) -> Option<String> {
        let tasks = self.running_tasks();
        (!tasks.is_empty()).then(|| {
            tasks
                .iter()
                .map(|t| {
                    if t.detail.is_empty() {
                        t.name.to_string()
                    } else {
                        format!("{} {}", t.name, t.detail)
                    }
                })
                .collect::<Vec<_>>()
                .join(" · ")
        })
    }
}
