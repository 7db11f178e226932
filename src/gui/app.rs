//! The workbench: the panels around the shared state. `Workbench::logic` polls background jobs
//! (eframe calls it every frame, drawn or not) and `Workbench::ui` lays out one frame (what the
//! tests drive, after `logic`); `WorkbenchApp` wraps it for eframe (persistence, autosave, close
//! confirmation, screenshots). Commands are carried out in `commands.rs`, the menu is in
//! `menu.rs`.

use super::export_form::ExportAnswer;
use super::file_form::{FileForm, FormAnswer, suggested_path};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use egui::{CentralPanel, Panel};

use super::document::{Document, Snapshot};
use super::file_actions::FileAction;
use super::frame_stats::FrameStats;
use super::jobs::{DialogJob, OneShot};
use super::panels::{InspectorPanel, PuzzlePanel, ResultsPanel, SolverPanel, SweepPanel};
use super::settings::Settings;
use super::shared::{Command, Shared};
use crate::puzzle::{AnyPuzzle, Kind, REFERENCE_NODE_BUDGET};
use crate::render::image::ImageError;

/// Which of the panels around the board are shown (View menu).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PanelsShown {
    /// The solver and sweep panel (left).
    pub solver: bool,
    /// The QUBO inspector (right).
    pub inspector: bool,
    /// The results (bottom).
    pub results: bool,
}

impl Default for PanelsShown {
    fn default() -> Self {
        PanelsShown {
            solver: true,
            inspector: true,
            results: true,
        }
    }
}

/// The panels' sizes for a window: side panels take at most about half the width together
/// and the results under 30 % of the height, so the board stays the largest thing shown
/// (measured: at 1024×700 the old fixed sizes left the 9×9 board 130 px wide).
struct PanelSizes {
    solver: f32,
    solver_max: f32,
    inspector: f32,
    inspector_max: f32,
    results: f32,
    results_min: f32,
    results_max: f32,
}

impl PanelSizes {
    fn for_window(window: egui::Vec2) -> Self {
        let solver_max = (window.x * 0.22).max(180.0);
        let inspector_max = (window.x * 0.26).max(180.0);
        let results_max = (window.y * 0.3).max(140.0);
        PanelSizes {
            solver: 300.0_f32.min(solver_max),
            solver_max,
            inspector: 430.0_f32.min(inspector_max),
            inspector_max,
            results: 300.0_f32.min(window.y * 0.28).max(120.0),
            // As large as its default: the panel never shrinks to its content, so a run's
            // results arriving never move the board.
            results_min: 300.0_f32.min(window.y * 0.28).max(120.0),
            results_max,
        }
    }
}

/// An empty answer from the native dialog sooner than this means it could not open.
const NO_DIALOG_WITHIN: Duration = Duration::from_millis(300);

/// The window's content: shared state and panels.
pub struct Workbench {
    /// What every panel reads and changes.
    pub shared: Shared,
    /// The puzzle (centre).
    pub puzzle: PuzzlePanel,
    /// The QUBO inspector (right).
    pub inspector: InspectorPanel,
    /// The solver (left).
    pub solver: SolverPanel,
    /// The results (bottom).
    pub results: ResultsPanel,
    /// The weight sweep (left, below the solver).
    pub sweep: SweepPanel,
    /// An open campaign table, in its own window.
    pub campaign: super::panels::CampaignView,
    /// The sweep panel's *Campaign* form and the campaign it runs (kept across documents).
    pub campaign_form: super::panels::CampaignForm,
    /// UI time per frame.
    pub frame_stats: FrameStats,
    pub(super) dialog: Option<DialogJob>,
    /// The workbench's own file form, when open (no native dialog, or chosen in the settings).
    pub file_form: Option<FileForm>,
    /// The Export image… form is open.
    pub export_form: bool,
    /// Always use the workbench's own file form (QUBO_WORKBENCH_FILE_DIALOG=builtin; not saved).
    pub builtin_file_dialog: bool,
    /// Showing the "unsaved changes" question.
    pub confirm_close: bool,
    /// The user agreed to close.
    pub close_now: bool,
    /// What replaces the document once the unsaved-changes question is answered.
    pub pending_replace: Option<super::commands::Replacement>,
    /// Which panels around the board are shown.
    pub shown: PanelsShown,
}

/// The document loaded when nothing else is: the first registered kind's example (Project Euler
/// 96 grid 1, from Norvig's easy50, MIT).
pub fn example_puzzle() -> AnyPuzzle {
    Kind::ALL[0].example()
}

impl Workbench {
    /// A workbench on `doc`.
    pub fn new(doc: Document, settings: Settings) -> Self {
        Workbench {
            shared: Shared::new(doc, settings),
            puzzle: PuzzlePanel::default(),
            inspector: InspectorPanel::default(),
            solver: SolverPanel::default(),
            results: ResultsPanel::default(),
            sweep: SweepPanel::default(),
            campaign: Default::default(),
            campaign_form: Default::default(),
            frame_stats: FrameStats::default(),
            dialog: None,
            file_form: None,
            export_form: false,
            builtin_file_dialog: std::env::var("QUBO_WORKBENCH_FILE_DIALOG")
                .is_ok_and(|v| v == "builtin"),
            confirm_close: false,
            close_now: false,
            pending_replace: None,
            shown: PanelsShown::default(),
        }
    }

    /// Opens `path` as a puzzle (or, failing that for a model extension, as a model).
    pub fn with_file(path: Option<&Path>, settings: Settings) -> Self {
        let mut wb = Workbench::new(Document::from_puzzle(example_puzzle(), None), settings);
        if let Some(p) = path {
            wb.open(p.to_path_buf());
        }
        wb
    }

    /// Whether a sampling run is going.
    pub fn is_running(&self) -> bool {
        self.shared.run.is_some()
    }

    /// Whether a sweep is going.
    pub fn is_sweeping(&self) -> bool {
        self.sweep.is_running()
    }

    /// Whether the design facts of the current puzzle are still being computed.
    pub fn facts_pending(&self) -> bool {
        self.shared.doc.puzzle().is_some() && self.shared.current_facts().is_none()
    }

    /// Polls every background job and starts the design facts of a changed puzzle. No drawing.
    pub fn logic(&mut self, ctx: &egui::Context) {
        // The model is built on a job thread; a Run asked for meanwhile starts when it lands.
        if self.shared.doc.poll_build() {
            // The first model of the document the window opened on (not the example shown
            // while that file was read).
            if self.shared.files.is_empty() {
                self.frame_stats.model_ready();
            }
            if self.shared.opening_file().is_none()
                && std::mem::take(&mut self.shared.run_when_built)
            {
                self.start_run(ctx);
            }
        }
        if self.shared.doc.building_for().is_some() {
            ctx.request_repaint_after(Duration::from_millis(50));
        }
        self.poll_run();
        self.poll_generate();
        self.poll_files(ctx);
        self.poll_facts(ctx);
        // A Run that waited for the design facts (`auto`'s choice needs them) starts now.
        if self.shared.run_when_built
            && self.shared.opening_file().is_none()
            && self.shared.doc.model_is_current()
            && (self.shared.doc.puzzle().is_none() || self.shared.current_facts().is_some())
        {
            self.shared.run_when_built = false;
            self.start_run(ctx);
        }
        if self.shared.sweep_when_built
            && self.shared.files.is_empty()
            && self.shared.doc.model_is_current()
            && (self.shared.doc.puzzle().is_none() || self.shared.current_facts().is_some())
        {
            self.shared.sweep_when_built = false;
            self.sweep.start(&mut self.shared, ctx);
        }
        if self.shared.samples_when_built.is_some()
            && self.shared.files.is_empty()
            && self.shared.doc.model_is_current()
            && let Some(path) = self.shared.samples_when_built.take()
        {
            let s = &mut self.shared;
            match s.doc.model.clone() {
                Some(model) => {
                    let labels = s.doc.label_source().all(model.qubo.num_variables());
                    let input = s.run_input(model);
                    let repaint = super::commands::repaint(ctx);
                    s.start_file(super::jobs::FileJob::read_samples(
                        path, input, labels, repaint,
                    ));
                }
                None => s.status = format!("{}: not read: no model is open", path.display()),
            }
        }
        // The panels' own jobs, taken in here rather than while laying out.
        self.sweep.poll(&mut self.shared);
        self.campaign_form.poll(&mut self.shared);
        self.solver.remote.poll(&mut self.shared);
        self.puzzle.poll();
        if self.shown.inspector {
            self.inspector.poll(ctx, &self.shared);
        }
        self.poll_dialog(ctx);
        if self.shared.run.is_some() || self.sweep.is_running() {
            ctx.request_repaint_after(Duration::from_millis(100));
        }
    }

    /// The run's result when it lands, and the remote job it remembers meanwhile.
    fn poll_run(&mut self) {
        let s = &mut self.shared;
        // A remote job is remembered from the moment it has an id until its answer is read.
        if let Some(job) = s.run.as_ref().and_then(|r| r.remote_job())
            && !job.problem_id.is_empty()
            && s.settings.pending_remote_job.as_ref() != Some(&job)
        {
            s.settings.pending_remote_job = Some(job);
        }
        if let Some(job) = &s.run
            && let Some(result) = job.poll()
        {
            // Only the remembered job's own run settles it: read back, or finished for good on
            // the server. A run that failed before the service said so (a 503 while resuming)
            // keeps the job resumable, and a run of anything else never touches it (a paid job
            // must stay resumable or cancellable until its answer is read).
            let settled = job.remote_job().is_some_and(|j| {
                let ours = s
                    .settings
                    .pending_remote_job
                    .as_ref()
                    .is_some_and(|p| p.problem_id == j.problem_id && !j.problem_id.is_empty());
                ours && (result.is_ok()
                    || matches!(j.status.as_str(), "COMPLETED" | "FAILED" | "CANCELLED"))
            });
            if settled {
                s.settings.pending_remote_job = None;
            }
            s.run = None;
            match result {
                Ok(r) => {
                    s.status = format!("{} — in {:.3} s", r.samples.report().summary, r.sample_s);
                    s.accept_run(r);
                }
                Err(e) => s.status = format!("sampling failed: {e}"),
            }
        }
    }

    /// A generated puzzle when it lands: kept in Recently generated, then a new document.
    fn poll_generate(&mut self) {
        let s = &mut self.shared;
        if let Some(job) = &s.generating
            && let Some(answer) = job.poll()
        {
            let (kind, params) = job.request.clone();
            s.generating = None;
            match answer.and_then(|r| r) {
                Ok(super::jobs::Generated {
                    puzzle: p,
                    measured,
                }) => {
                    let what = p.describe();
                    let mut words = super::params::summary(kind.generator_params(), &params);
                    let mut text = p.to_text();
                    if let Some(m) = &measured {
                        words = format!("{words} · {m}");
                        text = format!("# {m}\n{text}");
                    }
                    s.settings
                        .remember_generated(super::settings::GeneratedEntry {
                            kind: kind.name().into(),
                            description: what.clone(),
                            params: words,
                            text,
                        });
                    let what = match &measured {
                        Some(m) => format!("{what} ({m})"),
                        None => what,
                    };
                    self.generated(p, format!("generated: {what}"));
                }
                Err(e) => {
                    // One line in the status bar; the figures behind it in a fold by the
                    // generator.
                    let (line, details) = e.split_once('\n').unwrap_or((e.as_str(), ""));
                    s.status = format!("could not generate: {line}");
                    self.puzzle.generate_details =
                        (!details.is_empty()).then(|| details.to_string());
                }
            }
        }
    }

    /// File jobs (open, save, exports): each outcome is applied as it lands, in order.
    fn poll_files(&mut self, ctx: &egui::Context) {
        let mut k = 0;
        while k < self.shared.files.len() {
            match self.shared.files[k].poll() {
                Some(done) => {
                    let job = self.shared.files.remove(k);
                    // A run waiting for a file that could not be opened is not started on
                    // the document still on show.
                    let failed_open = job.doing == "opening" && done.is_err();
                    self.file_done(done);
                    self.shared.open_failed_this_frame |= failed_open;
                    if failed_open && std::mem::take(&mut self.shared.run_when_built) {
                        self.shared
                            .status
                            .push_str("; the run that waited for it was not started");
                    }
                }
                None => k += 1,
            }
        }
        if !self.shared.files.is_empty() {
            // Reads started before the window had a context wake nobody: look again soon.
            ctx.request_repaint_after(Duration::from_millis(50));
        }
    }

    /// Opens the workbench's own file form for `action`, prefilled beside the document.
    pub(super) fn open_file_form(&mut self, action: FileAction, note: Option<String>) {
        let doc = &self.shared.doc;
        let suggested = suggested_path(action, doc.path.as_deref(), &doc.file_stem());
        self.file_form = Some(FileForm::new(action, &suggested, note));
    }

    /// The Export image… form, while open: its choices are the kind's remembered ones.
    fn export_form_ui(&mut self, ctx: &egui::Context) {
        let Some(kind) = self.shared.doc.puzzle().map(|p| p.kind()) else {
            self.export_form = false;
            return;
        };
        if !self.export_form {
            return;
        }
        let (picture, from) = self.picture_to_export();
        let settings = self
            .shared
            .settings
            .pictures
            .entry(kind.name().to_string())
            .or_default();
        match super::export_form::ui(ctx, kind, settings, &picture, &from) {
            ExportAnswer::Open => {}
            ExportAnswer::Closed => self.export_form = false,
            ExportAnswer::ChooseFile => {
                self.export_form = false;
                self.shared.send(Command::Dialog(FileAction::ExportImage));
            }
        }
    }

    /// The picture Export image… writes for the current puzzle with its kind's remembered
    /// choices, and where its solution comes from: the selected sample, else the editor's
    /// entries, else the exact solver's (from the design facts).
    pub fn picture_to_export(&self) -> (Result<crate::render::Drawing, String>, String) {
        let s = &self.shared;
        let Some(puzzle) = s.doc.puzzle() else {
            return (Err("a bare model has no picture".into()), String::new());
        };
        let choices = s
            .settings
            .pictures
            .get(puzzle.kind().name())
            .cloned()
            .unwrap_or_default();
        let facts = s.current_facts().and_then(Result::ok);
        let (solution, from) = if let Some(sample) = s.selected_solution() {
            (Some(sample.clone()), "the selected sample")
        } else if let Some(entries) = self.puzzle.editors.entries(&s.doc) {
            (Some(entries), "your entries on the board")
        } else if let Some(exact) = facts.and_then(|f| f.solution.clone()) {
            (Some(exact), "the exact solver's")
        } else {
            (
                None,
                "none yet (run a sampler, or wait for the design facts)",
            )
        };
        // The exact probabilities when known, else a current run's estimate.
        let probabilities = facts.and_then(|f| f.probabilities.clone()).or_else(|| {
            s.result
                .as_ref()
                .filter(|r| r.version == s.doc.version)
                .and_then(|r| r.probabilities.clone())
        });
        let name = s
            .doc
            .path
            .as_deref()
            .and_then(|p| p.file_stem())
            .map_or_else(
                || puzzle.kind().name().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
        // "Puzzle + solution" before any solution is known draws the puzzle, and says so;
        // "solution only" has nothing to draw.
        let mut content = choices.content;
        let mut from = from.to_string();
        if solution.is_none() && content.show == crate::puzzle::picture::Show::Solved {
            content.show = crate::puzzle::picture::Show::Puzzle;
            from = "none yet: the puzzle alone is drawn".into();
        }
        (
            puzzle
                .picture(solution.as_ref(), probabilities.as_ref(), &content, &name)
                .map_err(|e| e.to_string()),
            from,
        )
    }

    /// The file form's frame: a chosen path becomes the action's command.
    fn file_form_ui(&mut self, ctx: &egui::Context) {
        let Some(form) = &mut self.file_form else {
            return;
        };
        match form.ui(ctx) {
            FormAnswer::Open => {}
            FormAnswer::Cancelled => {
                self.shared.status = format!("{}: cancelled", form.action.kind().title);
                self.file_form = None;
            }
            FormAnswer::Chosen(path) => {
                let action = form.action;
                self.file_form = None;
                self.apply(Command::File(action, path), ctx);
            }
        }
    }

    /// Design facts: computed off the UI thread for each new puzzle content.
    fn poll_facts(&mut self, ctx: &egui::Context) {
        let s = &mut self.shared;
        if let Some((of, job)) = &s.facts_job
            && let Some(answer) = job.poll()
        {
            // A failure is kept too, so a worker that died is not restarted every frame.
            s.facts = Some((of.clone(), answer));
            s.facts_job = None;
        }
        let Some(puzzle) = s.doc.puzzle() else { return };
        let wanted =
            s.current_facts().is_none() && s.facts_job.as_ref().is_none_or(|(of, _)| of != puzzle);
        if wanted && s.facts_job.is_none() {
            let p = puzzle.clone();
            let repaint = ctx.clone();
            let job = OneShot::start(
                move || p.design_facts(REFERENCE_NODE_BUDGET),
                move || repaint.request_repaint(),
            );
            s.facts_job = Some((puzzle.clone(), job));
        }
    }

    fn poll_dialog(&mut self, ctx: &egui::Context) {
        if let Some(d) = &self.dialog
            && let Some(answer) = d.poll()
        {
            let action = d.action;
            let quick = d.started.elapsed() < NO_DIALOG_WITHIN;
            self.dialog = None;
            match answer {
                Some(path) => self.apply(Command::File(action, path), ctx),
                // Nobody cancels a dialog that fast: none could open. Ask with our own form.
                None if quick => {
                    self.open_file_form(
                        action,
                        Some(
                            "no file dialog could open on this desktop (no portal, no zenity): \
                             type the path"
                                .into(),
                        ),
                    );
                }
                None => self.shared.status = format!("{}: cancelled", action.kind().title),
            }
        }
    }

    /// One frame: lays out every panel and applies the commands they sent (jobs are polled
    /// in `logic`).
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        let started = Instant::now();
        if !self.shared.fonts_installed {
            super::painter::install_fonts(ui.ctx());
            self.shared.fonts_installed = true;
        }
        self.shortcuts(ui.ctx());

        Panel::top("menu").show(ui, |ui| self.menu_ui(ui));
        Panel::bottom("status").show(ui, |ui| self.status_ui(ui));
        // The board gets the room: side panels are sized by the window (at most about half of
        // it together), scroll inside, and can be hidden from the View menu.
        let window = ui.ctx().content_rect().size();
        let sizes = PanelSizes::for_window(window);
        Panel::left("solver")
            .resizable(true)
            .default_size(sizes.solver)
            .max_size(sizes.solver_max)
            .show_collapsible(ui, &mut self.shown.solver, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    self.solver.ui(ui, &mut self.shared);
                    ui.separator();
                    self.sweep.ui(ui, &mut self.shared);
                    self.campaign_form
                        .ui(ui, &mut self.shared, &self.puzzle.generator);
                });
            });
        Panel::right("inspector")
            .resizable(true)
            .default_size(sizes.inspector)
            .max_size(sizes.inspector_max)
            .show_collapsible(ui, &mut self.shown.inspector, |ui| {
                egui::ScrollArea::vertical()
                    .id_salt("inspector scroll")
                    .show(ui, |ui| self.inspector.ui(ui, &mut self.shared));
            });
        Panel::bottom("results")
            .resizable(true)
            .default_size(sizes.results)
            .min_size(sizes.results_min)
            .max_size(sizes.results_max)
            .show_collapsible(ui, &mut self.shown.results, |ui| {
                self.results.ui(ui, &mut self.shared);
            });
        CentralPanel::default().show(ui, |ui| self.puzzle.ui(ui, &mut self.shared));

        if self.confirm_close {
            self.confirm_close_ui(ui.ctx());
        }
        self.confirm_replace_ui(ui.ctx());
        self.export_form_ui(ui.ctx());
        self.campaign.ui(ui.ctx(), &mut self.shared);
        self.file_form_ui(ui.ctx());
        let commands = std::mem::take(&mut self.shared.commands);
        for c in commands {
            self.apply(c, ui.ctx());
        }
        self.shared.open_failed_this_frame = false;
        let busy = self.is_running() || self.is_sweeping();
        self.frame_stats
            .record(started.elapsed().as_secs_f32() * 1e3, busy);
    }

    /// Keyboard shortcuts (`shortcuts::SHORTCUTS`) become the menu items' commands.
    fn shortcuts(&mut self, ctx: &egui::Context) {
        use super::shortcuts::Action;
        // While a modal question or form is open, keys belong to it.
        if self.confirm_close || self.pending_replace.is_some() || self.file_form.is_some() {
            return;
        }
        let cancellable =
            self.is_running() || self.is_sweeping() || self.shared.generating.is_some();
        for action in super::shortcuts::pressed(ctx, cancellable) {
            let s = &mut self.shared;
            match action {
                Action::New => {
                    let kind = s.doc.puzzle().map_or(Kind::ALL[0], |p| p.kind());
                    let blank = kind
                        .presets()
                        .into_iter()
                        .next()
                        .map_or_else(|| kind.example(), |(_, p)| p);
                    s.send(Command::New(Box::new(blank)));
                }
                Action::Open => s.send(Command::Dialog(FileAction::OpenPuzzle)),
                Action::Save if s.doc.puzzle().is_some() => s.send(Command::Save),
                Action::SaveAs if s.doc.puzzle().is_some() => {
                    s.send(Command::Dialog(FileAction::SaveAs))
                }
                Action::Save | Action::SaveAs => {
                    s.status =
                        "a model opened from a file is not saved (Export QUBO… writes it)".into();
                }
                Action::Undo => s.send(Command::Undo),
                Action::Redo => s.send(Command::Redo),
                Action::Run => s.send(Command::Run),
                Action::Cancel => {
                    if let Some(job) = &s.generating {
                        job.control.cancel();
                    }
                    if self.sweep.is_running() {
                        self.sweep.cancel();
                    }
                    self.shared.send(Command::Cancel);
                }
            }
        }
    }
}

/// eframe's side: persistence, autosave, close confirmation, `--screenshot`.
pub struct WorkbenchApp {
    /// The workbench itself (state and panels).
    pub workbench: Workbench,
    screenshot: Option<PathBuf>,
    screenshot_requested: bool,
    screenshot_done: Arc<AtomicBool>,
    /// Print frame-time statistics to stderr on exit (`QUBO_WORKBENCH_FRAME_STATS`).
    pub print_frame_stats: bool,
}

const SETTINGS_KEY: &str = "settings";
const DOCUMENT_KEY: &str = "document";

impl WorkbenchApp {
    /// Restores settings and the autosaved document (unless a file or a screenshot is asked for).
    pub fn new(
        cc: &eframe::CreationContext<'_>,
        file: Option<PathBuf>,
        screenshot: Option<PathBuf>,
    ) -> Self {
        let storage = if screenshot.is_some() {
            None
        } else {
            cc.storage
        };
        let settings: Settings = storage
            .and_then(|s| eframe::get_value::<Settings>(s, SETTINGS_KEY))
            .map(Settings::sanitized)
            .unwrap_or_default();
        let mut workbench = Workbench::with_file(file.as_deref(), settings);
        if file.is_none()
            && let Some(mut snapshot) =
                storage.and_then(|s| eframe::get_value::<Snapshot>(s, DOCUMENT_KEY))
        {
            let sweep = snapshot.sweep.take();
            workbench.shared.doc = Document::from_snapshot(snapshot);
            if let Some(sweep) = sweep {
                workbench.sweep.restore(sweep);
            }
            workbench.shared.status = "restored the autosaved work".into();
        }
        WorkbenchApp {
            workbench,
            screenshot,
            screenshot_requested: false,
            screenshot_done: Arc::new(AtomicBool::new(false)),
            print_frame_stats: false,
        }
    }
}

impl eframe::App for WorkbenchApp {
    fn logic(&mut self, ctx: &egui::Context, _frame: &mut eframe::Frame) {
        self.workbench.logic(ctx);
    }

    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let wb = &mut self.workbench;
        let ctx = ui.ctx().clone();
        if ctx.input(|i| i.viewport().close_requested())
            && wb.shared.doc.has_unsaved_work()
            && !wb.close_now
            && self.screenshot.is_none()
        {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            wb.confirm_close = true;
        }
        wb.ui(ui);
        if wb.close_now {
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
        // --screenshot: once the first frames have settled (and the heatmap is built), save the
        // window as PNG and close.
        if let Some(path) = self.screenshot.clone() {
            if self.screenshot_done.load(Ordering::Relaxed) {
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            } else if !self.screenshot_requested
                && wb.frame_stats.frames >= 10
                && !wb.is_running()
                && !wb.is_sweeping()
                && wb.shared.commands.is_empty()
                && wb.shared.files.is_empty()
                && !wb.shared.run_when_built
                && !wb.shared.sweep_when_built
                && wb.shared.samples_when_built.is_none()
                // The picture shows the model once it is built (frames come every 50 ms
                // meanwhile: 3000 frames is a few minutes).
                && (wb.shared.doc.model_is_current() || wb.frame_stats.frames > 3000)
                && (wb.inspector.is_ready() || wb.frame_stats.frames > 300)
            {
                self.screenshot_requested = true;
                let done = self.screenshot_done.clone();
                let repaint = ctx.clone();
                ctx.request_screenshot(move |image| {
                    match save_png(&image, &path) {
                        Ok(()) => eprintln!("wrote {}", path.display()),
                        Err(e) => eprintln!("error: {e}"),
                    }
                    done.store(true, Ordering::Relaxed);
                    repaint.request_repaint();
                });
            }
            ctx.request_repaint();
        }
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        if self.screenshot.is_some() {
            return;
        }
        eframe::set_value(storage, SETTINGS_KEY, &self.workbench.shared.settings);
        if let Some(mut snapshot) = self.workbench.shared.doc.snapshot() {
            // A sweep measures this document: it is kept with it.
            snapshot.sweep = self.workbench.sweep.saved();
            eframe::set_value(storage, DOCUMENT_KEY, &snapshot);
        }
    }

    fn persist_egui_memory(&self) -> bool {
        self.screenshot.is_none()
    }

    fn auto_save_interval(&self) -> Duration {
        Duration::from_secs(5)
    }

    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        if self.print_frame_stats || self.screenshot.is_some() {
            let f = &self.workbench.frame_stats;
            eprintln!(
                "frames: {}, UI time per frame: mean {:.2} ms, max {:.2} ms; while sampling: {} frames, max {:.2} ms; first frame after {}, model ready after {}",
                f.frames,
                f.mean_ms(),
                f.max_ms,
                f.busy_frames,
                f.busy_max_ms,
                f.first_frame_s.map_or("—".into(), |t| format!("{t:.2} s")),
                f.model_ready_s
                    .map_or("not yet".into(), |t| format!("{t:.2} s"))
            );
        }
    }
}

/// Saves an egui screenshot as PNG (through tiny-skia, already a dependency).
pub fn save_png(image: &egui::ColorImage, path: &Path) -> Result<(), ImageError> {
    let [w, h] = image.size;
    let (width, height) = (w as u32, h as u32);
    let mut pm =
        tiny_skia::Pixmap::new(width, height).ok_or(ImageError::Allocation { width, height })?;
    for (dst, px) in pm.pixels_mut().iter_mut().zip(&image.pixels) {
        let [r, g, b, a] = px.to_array();
        *dst = tiny_skia::ColorU8::from_rgba(r, g, b, a).premultiply();
    }
    let bytes = pm
        .encode_png()
        .map_err(|e| ImageError::Encode(e.to_string()))?;
    Ok(crate::io::write_atomic(path, &bytes)?)
}
