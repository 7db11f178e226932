//! What every panel may read or change (`Shared`) and the actions panels ask the app to carry
//! out (`Command`). Panels import this module, never `app`, so the dependency runs one way:
//! app → panels → shared.

use std::path::PathBuf;

use super::document::Document;
use super::file_actions::FileAction;
use super::jobs::{FactsJob, FileJob, GenerateJob, RunResult, SampleJob};
use super::settings::Settings;
use crate::params::ParamValues;
use crate::puzzle::{AnyPuzzle, AnySolution, DesignFacts, Kind};

/// What panels ask the app to do; applied once per frame, after layout.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// A new document holding this (blank) puzzle.
    New(Box<AnyPuzzle>),
    /// Generate a puzzle of this kind with these parameters (as a job); it opens as a new
    /// document (`Workbench::generated`);
    /// with a TTS99 range (seconds), only an instance whose measured TTS99 falls in it.
    Generate(Kind, ParamValues, Option<[f64; 2]>),
    /// Open the k-th recently generated instance again (`Settings::recent_generated`).
    OpenGenerated(usize),
    /// Ask for a file with a native dialog.
    Dialog(FileAction),
    /// Save to the document's file (asks where when it has none).
    Save,
    /// Carry out a file action on this file: open, save as, import, every export.
    File(FileAction, PathBuf),
    /// Set a penalty weight of the open puzzle (`gui --weight`; the sliders set it directly).
    SetWeight(String, f64),
    /// Start the sweep set up in the sweep panel's settings.
    RunSweep,
    /// Start sampling.
    Run,
    /// Cancel sampling.
    Cancel,
    /// Wait for a remote job submitted earlier (its sampler, with `problem_id` set for this
    /// run only).
    ResumeRemote(crate::sampler::RemoteJob),
    /// Undo the last edit.
    Undo,
    /// Redo.
    Redo,
}

impl Command {
    /// Whether carrying it out replaces the open document (then unsaved changes are asked
    /// about first).
    pub fn replaces_document(&self) -> bool {
        matches!(
            self,
            Command::New(_)
                | Command::File(FileAction::OpenPuzzle | FileAction::OpenModel, _)
                | Command::OpenGenerated(_)
        )
    }
}

/// State every panel may read or change.
pub struct Shared {
    /// The document.
    pub doc: Document,
    /// What persists.
    pub settings: Settings,
    /// Commands sent this frame.
    pub commands: Vec<Command>,
    /// One line for the status bar: the last thing that happened or went wrong.
    pub status: String,
    /// The sampling run, while it goes.
    pub run: Option<SampleJob>,
    /// The last run's result.
    pub result: Option<RunResult>,
    /// Row of `result` shown on the puzzle.
    pub selected_row: Option<usize>,
    /// A kept run's best sample shown on the puzzle instead (its id in the history); cleared
    /// by a new run or a sample row chosen.
    pub shown_run: Option<(u64, crate::puzzle::AnySolution)>,
    /// Show the last run's repaired answer (`RunResult::repaired`) on the puzzle.
    pub show_repaired: bool,
    /// A puzzle being generated.
    pub generating: Option<GenerateJob>,
    /// Run was asked for while the model was being built (or, with `auto`, before the design
    /// facts landed): it starts when both are there.
    pub run_when_built: bool,
    /// A file being opened failed this frame: a Run asked for in the same frame meant that
    /// file, so it is not started on the document still on show (cleared after the frame).
    pub open_failed_this_frame: bool,
    /// A sweep asked for before the document's file was read and its model built (and, for
    /// `auto`, its facts known): it starts then.
    pub sweep_when_built: bool,
    /// Samples to import once the file being opened is read and its model built.
    pub samples_when_built: Option<PathBuf>,
    /// The design facts being computed, and for which puzzle.
    pub facts_job: Option<(AnyPuzzle, FactsJob)>,
    /// The latest design facts (or why they could not be computed) and the puzzle they are of.
    pub facts: Option<(AnyPuzzle, Result<DesignFacts<AnySolution>, String>)>,
    /// Whether the bundled fonts are installed in egui.
    pub fonts_installed: bool,
    /// Files being read or written (open, save, exports), polled in `logic`.
    pub files: Vec<FileJob>,
    /// The board canvas's shorter side as last drawn (0 before the first frame or without a
    /// puzzle): the inspector's heatmap never grows past it, so the board stays the largest
    /// thing in the window.
    pub board_side: f32,
    /// Counts the times a sample was put forward to be drawn (a run shown, a sample row chosen,
    /// a kept run shown), so the puzzle panel turns its sample overlay back on.
    pub samples_offered: u64,
}

impl Shared {
    /// The sampler a Run uses for the current model (the chosen one, or what `auto` picks for
    /// it), and why when `auto` picked it.
    pub fn sampler_choice(&self) -> (String, Option<&'static str>) {
        let n = self
            .doc
            .model
            .as_ref()
            .map_or(0, |m| m.qubo.num_variables());
        // A puzzle has a target energy (a valid solution's, known from the instance alone:
        // `Puzzle::ideal_energy`) unless its design facts proved it has no solution.
        let no_solution = self
            .current_facts()
            .is_some_and(|f| f.is_ok_and(|f| f.solutions == crate::puzzle::SolutionCount::Zero));
        crate::samplers::resolve(
            &self.settings.sampler,
            crate::samplers::Task {
                num_variables: n,
                // A model with an objective has no target: its optimum is not known ahead.
                has_target: self.doc.puzzle().is_some()
                    && !no_solution
                    && self
                        .doc
                        .encoding
                        .as_ref()
                        .is_none_or(|e| e.ground_from_groups()),
                stored: self
                    .doc
                    .encoding
                    .as_ref()
                    .is_none_or(|e| e.unstored().is_none()),
                marginals: self
                    .doc
                    .puzzle()
                    .is_some_and(|p| p.kind().has_probabilities()),
            },
        )
    }

    /// The sampler a Run uses, built from its parameters.
    pub fn build_sampler(
        &self,
        extra: &[(&str, serde_json::Value)],
    ) -> Result<Box<dyn crate::sampler::Sampler>, String> {
        let (name, _) = self.sampler_choice();
        let mut params = self.settings.sampler_params(&name);
        for (k, v) in extra {
            params.insert(k.to_string(), v.clone());
        }
        crate::samplers::sampler_from_params(&name, &params)
            .map_err(|e| format!("sampler {name}: {e}"))
    }

    /// A fresh state around a document.
    pub fn new(doc: Document, settings: Settings) -> Self {
        Shared {
            doc,
            settings,
            commands: Vec::new(),
            status: String::new(),
            run: None,
            result: None,
            selected_row: None,
            shown_run: None,
            show_repaired: false,
            generating: None,
            run_when_built: false,
            open_failed_this_frame: false,
            sweep_when_built: false,
            samples_when_built: None,
            facts_job: None,
            facts: None,
            fonts_installed: false,
            files: Vec::new(),
            samples_offered: 0,
            board_side: 0.0,
        }
    }

    /// Queues a command for the app.
    pub fn send(&mut self, c: Command) {
        self.commands.push(c);
    }

    /// Shows a finished run (sampled, or imported from a file) as the last run, and keeps it
    /// in the run history for comparison.
    pub fn accept_run(&mut self, r: RunResult) {
        self.selected_row = (!r.rows.is_empty()).then_some(0);
        // Kept for comparison, with its best sample to show again.
        let best = self.doc.puzzle().and_then(|p| {
            let decoded = r.best()?.1.decoded.as_ref()?;
            Some(p.solution_to_json(decoded))
        });
        let summary =
            crate::compare::RunSummary::of_outcome(&r.outcome, "", r.weights.clone(), best);
        let limit = self.settings.run_history_limit;
        self.doc.runs.add(summary, limit);
        self.shown_run = None;
        self.show_repaired = false;
        self.result = Some(r);
        self.samples_offered += 1;
    }

    /// Starts a file job; the status line says so until it lands.
    pub fn start_file(&mut self, job: FileJob) {
        self.status = format!("{} {}…", job.doing, job.path.display());
        self.files.push(job);
    }

    /// The candidate solution to draw: the selected sample's, if any.
    pub fn selected_solution(&self) -> Option<&AnySolution> {
        let result = self.result.as_ref()?;
        result.rows.get(self.selected_row?)?.decoded.as_ref()
    }

    /// The file being opened, if one is: it will replace the document, so a Run asked for
    /// meanwhile waits for it (not the model on show before it).
    pub fn opening_file(&self) -> Option<&std::path::Path> {
        self.files
            .iter()
            .find(|f| f.doing == "opening")
            .map(|f| f.path.as_path())
    }

    /// The design facts of the current puzzle once computed, or why they could not be (stale
    /// facts are not returned).
    pub fn current_facts(&self) -> Option<Result<&DesignFacts<AnySolution>, &str>> {
        let (of, facts) = self.facts.as_ref()?;
        (Some(of) == self.doc.puzzle()).then(|| facts.as_ref().map_err(String::as_str))
    }

    /// What a run of the document's `model` needs, with the design facts' reference when they
    /// are the current puzzle's (the run then does not search again).
    pub fn run_input(
        &self,
        model: std::sync::Arc<crate::qubo::StoredModel>,
    ) -> super::jobs::RunInput {
        let reference = self
            .current_facts()
            .and_then(Result::ok)
            .map(DesignFacts::reference);
        self.doc.run_input(model, reference)
    }
}
