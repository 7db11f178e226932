//! Carrying out `Command`s: file actions (open, save, export), new and generated documents,
//! starting and cancelling runs.

use std::path::PathBuf;

use super::app::Workbench;
use super::document::Document;
use super::file_actions::FileAction;
use super::jobs::{DialogJob, FileDone, FileJob, GenerateJob, RunResult, SampleJob};
use super::shared::Command;
use crate::params::ParamValues;
use crate::puzzle::{AnyPuzzle, Kind};

/// What replaces the open document once the user has answered the unsaved-changes question
/// (`Workbench::pending_replace`).
#[derive(Clone, Debug, PartialEq)]
pub enum Replacement {
    /// A command that opens or makes another document (`Command::replaces_document`).
    Command(Command),
    /// A generated puzzle, and what the status line says of it.
    Generated(Box<AnyPuzzle>, String),
}

impl Replacement {
    /// What going on does, for the question ("open shidoku.txt").
    pub fn describe(&self) -> String {
        match self {
            Replacement::Command(Command::New(p)) => format!("start a new {}", p.kind()),
            Replacement::Command(Command::File(_, p)) => format!("open {}", p.display()),
            Replacement::Command(Command::OpenGenerated(_)) => {
                "open a recently generated instance".into()
            }
            Replacement::Command(c) => format!("{c:?}"),
            Replacement::Generated(p, _) => format!("show the generated {}", p.describe()),
        }
    }
}

impl Workbench {
    /// Carries out a command (also the way tests trigger file actions without dialogs). A
    /// command that would replace a document with unsaved changes waits for the user's answer
    /// (`pending_replace`): nothing is discarded unasked.
    pub fn apply(&mut self, c: Command, ctx: &egui::Context) {
        if c.replaces_document() && self.shared.doc.has_unsaved_work() {
            self.pending_replace = Some(Replacement::Command(c));
            return;
        }
        self.carry_out(c, ctx);
    }

    /// Goes on with a replacement the user agreed to (after saving, or discarding the changes).
    pub(super) fn go_on_replacing(&mut self, r: Replacement, ctx: &egui::Context) {
        match r {
            Replacement::Command(c) => self.carry_out(c, ctx),
            Replacement::Generated(puzzle, what) => self.adopt_generated(*puzzle, &what),
        }
    }

    /// A generated puzzle becomes a new document: no file (Save asks where), a name of its own,
    /// unsaved. What it replaces was asked about if it had unsaved changes.
    pub(super) fn generated(&mut self, puzzle: AnyPuzzle, what: String) {
        if self.shared.doc.has_unsaved_work() {
            let r = Replacement::Generated(Box::new(puzzle), what);
            self.shared.status = format!(
                "{}: waiting for your answer about the unsaved changes",
                r.describe()
            );
            self.pending_replace = Some(r);
        } else {
            self.adopt_generated(puzzle, &what);
        }
    }

    fn adopt_generated(&mut self, puzzle: AnyPuzzle, what: &str) {
        // Kept in Recently generated (unless too large to keep there): replacing it unedited
        // loses nothing, so that alone asks no question.
        let text = puzzle.to_text();
        let kept = self
            .shared
            .settings
            .recent_generated
            .iter()
            .any(|e| e.text.ends_with(&text));
        let mut doc = Document::from_puzzle(puzzle, None);
        doc.name = Some(format!(
            "generated {}",
            doc.puzzle().map_or_else(String::new, |p| p.describe())
        ));
        doc.dirty = true;
        doc.kept_at_edit = kept.then_some(doc.edits);
        self.replace_document(doc);
        self.shared.status = format!("{what} — a new document (Save asks where to write it)");
    }

    fn carry_out(&mut self, c: Command, ctx: &egui::Context) {
        let s = &mut self.shared;
        match c {
            Command::New(puzzle) => self.replace_document(Document::from_puzzle(*puzzle, None)),
            Command::Generate(kind, params, tts99) => self.start_generate(kind, params, tts99, ctx),
            Command::OpenGenerated(k) => self.open_generated(k),
            Command::Dialog(action) => {
                if self.builtin_file_dialog || s.settings.builtin_file_dialog {
                    self.open_file_form(action, None);
                    return;
                }
                let suggested = action.kind().writes.then(|| {
                    let p = crate::gui::file_form::suggested_path(
                        action,
                        s.doc.path.as_deref(),
                        &s.doc.file_stem(),
                    );
                    p.file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default()
                });
                let repaint_ctx = ctx.clone();
                self.dialog = Some(DialogJob::start(action, suggested, move || {
                    repaint_ctx.request_repaint()
                }));
            }
            Command::Save => match s.doc.path.clone() {
                Some(p) if s.doc.puzzle().is_some() => self.save_to(p, ctx),
                _ => s.send(Command::Dialog(FileAction::SaveAs)),
            },
            Command::File(action, path) => self.carry_out_file(action, path, ctx),
            Command::SetWeight(name, value) => {
                if let Err(e) = s.doc.set_weight(&name, value) {
                    s.status = e;
                }
            }
            Command::RunSweep => self.sweep.start(&mut self.shared, ctx),
            Command::Run => self.start_run(ctx),
            Command::ResumeRemote(job) => {
                let Ok(e) = crate::samplers::entry(&job.sampler) else {
                    return;
                };
                let crate::sampler::RunsOn::Service(service) = e.runs_on else {
                    return;
                };
                let resume = service.resume_param;
                let s = &mut self.shared;
                s.settings.sampler = job.sampler.clone();
                let params = s.settings.sampler_params_mut(&job.sampler);
                params.insert("endpoint".into(), job.endpoint.clone().into());
                if e.params.iter().any(|p| p.name == "solver") {
                    params.insert("solver".into(), job.solver.clone().into());
                }
                params.insert(resume.into(), job.problem_id.clone().into());
                self.start_run(ctx);
                // Only this run resumes; the next one submits anew.
                self.shared
                    .settings
                    .sampler_params_mut(&job.sampler)
                    .remove(resume);
            }
            Command::Cancel => {
                if let Some(job) = &s.run {
                    job.control.cancel();
                    s.status = "cancelling…".into();
                }
            }
            // Undo and redo reach the editor's entries too (a drawn path is undone like an edit).
            command @ (Command::Undo | Command::Redo) => {
                let now = self.puzzle.editors.entries(&s.doc);
                let restore = if command == Command::Undo {
                    s.doc.undo(now)
                } else {
                    s.doc.redo(now)
                };
                if let Some(entries) = restore {
                    self.puzzle.editors.set_entries(&s.doc, entries);
                }
            }
        }
    }

    /// Generates a puzzle on a worker thread (a slow request never freezes the window).
    fn start_generate(
        &mut self,
        kind: Kind,
        params: ParamValues,
        tts99: Option<[f64; 2]>,
        ctx: &egui::Context,
    ) {
        let repaint = ctx.clone();
        self.shared.generating = Some(GenerateJob::start(kind, params, tts99, move || {
            repaint.request_repaint()
        }));
        self.shared.status = format!("generating a {kind}…");
    }

    /// Opens a recently generated instance again, from its kept text, as a new document.
    fn open_generated(&mut self, k: usize) {
        let s = &mut self.shared;
        let Some(entry) = s.settings.recent_generated.get(k).cloned() else {
            return;
        };
        let parsed = entry
            .kind
            .parse::<crate::puzzle::Kind>()
            .map_err(|e| e.to_string())
            .and_then(|kind| {
                kind.parse_text(&entry.text, "recently generated")
                    .map_err(|e| e.to_string())
            });
        match parsed.map(|mut v| v.swap_remove(0).puzzle) {
            Ok(p) => self.adopt_generated(p, &format!("opened again: {}", entry.description)),
            Err(e) => s.status = format!("could not open the generated instance: {e}"),
        }
    }

    pub(super) fn replace_document(&mut self, doc: Document) {
        if let Some(job) = &self.shared.run {
            job.control.cancel();
        }
        super::document::drop_later(std::mem::replace(&mut self.shared.doc, doc));
        super::document::drop_later(self.shared.result.take());
        self.shared.selected_row = None;
        self.puzzle.editors.reset();
        self.sweep.clear();
    }

    /// Opens a puzzle file (a model extension — .qubo, .coo, .bqm — opens it as a model), read
    /// off the UI thread; the document is replaced when it lands (`opened`).
    pub fn open(&mut self, path: PathBuf) {
        let job = FileJob::open(path, false, || {});
        self.shared.start_file(job);
    }

    /// Opens a QUBO model file (no puzzle), read off the UI thread.
    pub(super) fn open_model(&mut self, path: PathBuf) {
        let job = FileJob::open(path, true, || {});
        self.shared.start_file(job);
    }

    /// A file job has finished: the document it read replaces the current one, a save marks
    /// the document clean (if it still holds what was saved), and the status line says where
    /// the file went or why it did not.
    pub(super) fn file_done(&mut self, done: Result<FileDone, String>) {
        match done {
            Err(e) => self.shared.status = e,
            Ok(FileDone::Wrote { path, saved: None }) => {
                self.shared.status = format!("wrote {}", path.display());
            }
            Ok(FileDone::Wrote {
                path,
                saved: Some(puzzle),
            }) => {
                let s = &mut self.shared;
                s.status = format!("saved {}", path.display());
                s.settings.remember(path.clone());
                if s.doc.puzzle() == Some(&puzzle) {
                    s.doc.dirty = false;
                    s.doc.path = Some(path);
                } else {
                    s.status += " (changed since: still unsaved)";
                }
            }
            Ok(FileDone::Puzzles { path, mut puzzles }) => {
                let count = puzzles.len();
                let first = puzzles.swap_remove(0).puzzle;
                // Saving one puzzle over a file of many would lose the others: such a document
                // has no path, so Save asks where.
                let save_path = (count == 1).then(|| path.clone());
                self.shared.settings.remember(path.clone());
                self.replace_document(Document::from_puzzle(first, save_path));
                self.shared.status = if count == 1 {
                    format!("opened {}", path.display())
                } else {
                    format!(
                        "opened puzzle 1 of {count} from {} (Save asks for a new file)",
                        path.display()
                    )
                };
            }
            Ok(FileDone::Samples { path, run, warning }) => self.imported(&path, run, warning),
            Ok(FileDone::Model { path, model }) => {
                self.shared.settings.remember(path.clone());
                let warnings = model.warnings.join("; ");
                self.replace_document(Document::from_model(model.qubo, model.labels, path.clone()));
                self.shared.status = if warnings.is_empty() {
                    format!("opened model {}", path.display())
                } else {
                    format!("opened model {}; warning: {warnings}", path.display())
                };
            }
        }
    }

    /// Shows a run read from a file as the last run, unless the model changed meanwhile.
    fn imported(&mut self, path: &std::path::Path, run: Box<RunResult>, warning: Option<String>) {
        let s = &mut self.shared;
        if run.version != s.doc.version {
            s.status = format!(
                "{}: not shown: the model changed while it was read (import it again)",
                path.display()
            );
            return;
        }
        s.status = format!("{} reads from {}", run.samples.num_reads(), path.display());
        if let Some(w) = warning {
            s.status = format!("{}; warning: {w}", s.status);
        }
        s.accept_run(*run);
    }

    /// Saves the puzzle: its text is made here, the file written off the UI thread.
    pub(super) fn save_to(&mut self, path: PathBuf, ctx: &egui::Context) {
        let s = &mut self.shared;
        let Some(p) = s.doc.puzzle() else { return };
        let text = if path.extension().is_some_and(|e| e == "json") {
            serde_json::to_string_pretty(p).unwrap_or_default() + "\n"
        } else {
            p.to_text() + "\n"
        };
        let job = FileJob::write(
            path,
            Some(p.clone()),
            move |path| crate::io::write_atomic(path, text.as_bytes()).map_err(|e| e.to_string()),
            repaint(ctx),
        );
        s.start_file(job);
    }

    pub(super) fn start_run(&mut self, ctx: &egui::Context) {
        let s = &mut self.shared;
        if s.run.is_some() {
            return;
        }
        // A file that failed to open this frame is what a Run asked for alongside it meant.
        if s.open_failed_this_frame {
            if !s.status.contains("was not started") {
                s.status
                    .push_str("; the run that waited for it was not started");
            }
            return;
        }
        if let Some(path) = s.opening_file() {
            s.status = format!("the run starts once {} is open", path.display());
            s.run_when_built = true;
            return;
        }
        if !s.doc.model_is_current() {
            s.run_when_built = true;
            s.status = "the run starts once the model is built".into();
            return;
        }
        // `auto` chooses by whether a valid solution's energy is known, which the design facts
        // say (within their node budget): a run asked for before they land waits for them, so
        // the choice never depends on when Run was pressed.
        if s.settings.sampler == crate::samplers::AUTO
            && s.doc.puzzle().is_some()
            && s.current_facts().is_none()
        {
            s.run_when_built = true;
            s.status =
                "the run starts once the design facts say whether a solution is known".into();
            return;
        }
        let Some(model) = s.doc.model.clone() else {
            s.status = s
                .doc
                .error
                .clone()
                .unwrap_or_else(|| "no model to sample".into());
            return;
        };
        // Contradictory givens: say so before sampling (the user can still edit).
        if let Some(p) = s.doc.puzzle()
            && let Some(c) = p.conflicts().first()
        {
            s.status = format!("not sampled: the givens conflict: {}", c.detail);
            return;
        }
        let sampler = match s.build_sampler(&[]) {
            Ok(x) => x,
            Err(e) => {
                s.status = e;
                return;
            }
        };
        let input = s.run_input(model);
        let repaint_ctx = ctx.clone();
        s.run = Some(SampleJob::start(input, sampler, move || {
            repaint_ctx.request_repaint()
        }));
        s.status = "sampling…".into();
    }
}

/// Wakes the window when a job lands.
pub(super) fn repaint(ctx: &egui::Context) -> impl Fn() + Send + 'static {
    let ctx = ctx.clone();
    move || ctx.request_repaint()
}
