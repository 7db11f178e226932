//! What the window works on: a puzzle (with undo/redo) or a bare QUBO model opened from a file,
//! plus its encoding options and weights, and the derived encoding and weighted model.
//! Re-weighting only rebuilds the matrix; editing the puzzle re-encodes.
//!
//! Invariant: the model is built off the UI thread (`ModelBuild`, a job like the design facts):
//! every change requests a build and returns at once; one build runs at a time, the newest
//! request waits for it, and a result is installed only if no newer request came in meanwhile
//! (`poll_build`, called by the window every frame). Until then the document keeps its last
//! encoding and model, so the window keeps drawing them.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::jobs::OneShot;
use crate::puzzle::{AnyPuzzle, AnySolution, EncodeOptions, PuzzleError, Reference};
use crate::qubo::{Encoding, Qubo, StoredModel, Weights};

/// What one build starts from: the document's inputs as they were when it was asked for, and
/// the encoding to re-weight when only the weights changed.
struct BuildInput {
    puzzle: AnyPuzzle,
    options: EncodeOptions,
    weights: Weights,
    encoding: Option<Arc<Encoding>>,
}

/// What a build gives back: the encoding (or why not), the weighted model (or why not), and
/// the weights the encoding knows.
struct Built {
    encoding: Result<Arc<Encoding>, String>,
    model: Result<Arc<StoredModel>, String>,
    weights: Weights,
}

impl BuildInput {
    /// Encodes (unless an encoding is given) and weights: the slow part, on a job thread.
    fn build(self) -> Built {
        let encoding = match self.encoding {
            Some(e) => Ok(e),
            None => self
                .puzzle
                .encode(&self.options)
                .map(Arc::new)
                .map_err(|e| e.to_string()),
        };
        let Ok(enc) = encoding else {
            return Built {
                model: Err(String::new()),
                encoding,
                weights: self.weights,
            };
        };
        // Keep only weights this encoding knows (a new kind has other names).
        let mut kept = Weights::new();
        for (name, v) in self.weights.iter() {
            if enc.weight_names().contains(&name) {
                let _ = kept.set(name, v);
            }
        }
        let model = self
            .puzzle
            .stored_model(&enc, &kept)
            .map(Arc::new)
            .map_err(|e| e.to_string());
        Built {
            encoding: Ok(enc),
            model,
            weights: kept,
        }
    }
}

/// The model build in flight and the newest request waiting behind it.
#[derive(Default)]
struct ModelBuild {
    /// The generation of the newest request.
    requested: u64,
    /// Whether some request since the last installed build re-encodes (a later weights-only
    /// request must then re-encode too).
    encode_pending: bool,
    /// The build running: its generation, when it started, the job.
    running: Option<(u64, Instant, OneShot<Built>)>,
    /// The newest request, waiting for the running build to end.
    queued: Option<(u64, BuildInput)>,
}

impl ModelBuild {
    fn start(&mut self, generation: u64, input: BuildInput) {
        // The window repaints while a build runs (`Workbench::logic`), so no waking is needed.
        let job = OneShot::start(move || input.build(), || {});
        self.running = Some((generation, Instant::now(), job));
    }
}

/// A model version no document has used: versions identify models across documents (the
/// inspector and results compare them).
fn next_version() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// Undo steps kept.
const UNDO_LIMIT: usize = 200;

/// One step of the undo history: the puzzle before an edit, or the editor's entries (a drawn
/// path, say) before a change to them — entries are not part of the puzzle, but a designer
/// undoes a stroke as naturally as an edit.
#[derive(Clone, Debug)]
enum Step {
    Puzzle(AnyPuzzle),
    Entries(Option<crate::puzzle::AnySolution>),
}

/// What a document holds: a puzzle (encoded here) or a model read from a file.
pub enum Content {
    /// A puzzle, editable, encoded on every change.
    Puzzle(AnyPuzzle),
    /// A model made elsewhere (qbsolv, COO, dimod JSON), inspected and sampled as it is.
    Model {
        /// The file's name, for the title.
        name: String,
        /// Variable labels, when the file has them.
        labels: Option<Vec<String>>,
    },
}

/// Where variable names come from: the encoding's labels, a model file's, or their indices.
pub enum LabelSource {
    /// A puzzle's encoding.
    Encoding(Arc<Encoding>),
    /// A model file's labels.
    Names(Vec<String>),
    /// No names: indices.
    Numbers,
}

impl LabelSource {
    /// The names of variables 0..n.
    pub fn all(&self, n: usize) -> Vec<String> {
        let name = |v: usize, got: Option<String>| got.unwrap_or_else(|| v.to_string());
        (0..n)
            .map(|v| match self {
                LabelSource::Encoding(e) => name(v, e.labels().get(v).map(|l| l.to_string())),
                LabelSource::Names(l) => name(v, l.get(v).cloned()),
                LabelSource::Numbers => v.to_string(),
            })
            .collect()
    }
}

/// The open puzzle or model with its encoding options, weights, undo history and weighted model.
pub struct Document {
    /// The puzzle or model.
    pub content: Content,
    /// Where Save writes; `None` asks (new documents, or one puzzle out of a multi-puzzle file).
    pub path: Option<PathBuf>,
    /// What to call a document that has no file yet ("generated 9×9 Sudoku, 28 givens").
    pub name: Option<String>,
    /// Unsaved changes.
    pub dirty: bool,
    /// Encoding options (presolve).
    pub options: EncodeOptions,
    /// Weight values the user set; unset weights take their defaults.
    pub weights: Weights,
    undo: Vec<Step>,
    redo: Vec<Step>,
    /// The puzzle's encoding (none for bare models).
    pub encoding: Option<Arc<Encoding>>,
    /// The weighted model the inspector shows and the samplers run on.
    pub model: Option<Arc<StoredModel>>,
    /// Bumped whenever `model` changes.
    pub version: u64,
    /// Why there is no model (an encoding or weighting error), if so.
    pub error: Option<String>,
    /// The runs kept for comparison (autosaved with the document).
    pub runs: crate::gui::runs::RunHistory,
    /// Counts every change of the puzzle or of the editor's entries, undo and redo included
    /// (panels compare it to notice an edit).
    pub edits: u64,
    /// `edits` when the unsaved content was also kept elsewhere (a generated instance in
    /// Recently generated): replacing it then loses nothing, until the next edit.
    pub kept_at_edit: Option<u64>,
    build: ModelBuild,
}

/// The autosaved form of a document (puzzles only; models are files already).
#[derive(Serialize, Deserialize)]
pub struct Snapshot {
    /// The puzzle.
    pub puzzle: AnyPuzzle,
    /// Where it was last saved, if anywhere.
    pub path: Option<PathBuf>,
    /// Its name while it has no file.
    #[serde(default)]
    pub name: Option<String>,
    /// Whether it had unsaved changes.
    pub dirty: bool,
    /// Encoding options.
    pub options: EncodeOptions,
    /// Weight values set.
    pub weights: Weights,
    /// The last finished sweep and suggestion (kept with the work they measured).
    #[serde(default)]
    pub sweep: Option<SavedSweep>,
    /// The runs kept for comparison.
    #[serde(default)]
    pub runs: crate::gui::runs::RunHistory,
}

impl Document {
    fn blank(content: Content, path: Option<PathBuf>) -> Self {
        Document {
            content,
            path,
            name: None,
            dirty: false,
            options: EncodeOptions::default(),
            weights: Weights::new(),
            undo: Vec::new(),
            redo: Vec::new(),
            encoding: None,
            model: None,
            version: next_version(),
            error: None,
            runs: Default::default(),
            edits: 0,
            kept_at_edit: None,
            build: ModelBuild::default(),
        }
    }

    /// A document for a puzzle, encoded at once.
    pub fn from_puzzle(puzzle: AnyPuzzle, path: Option<PathBuf>) -> Self {
        let presolve = puzzle.kind().presolves_by_default();
        let mut d = Document::blank(Content::Puzzle(puzzle), path);
        d.options.presolve = presolve;
        d.reencode();
        d
    }

    /// A document for a model read from a file (inspect and sample only).
    pub fn from_model(qubo: Qubo, labels: Option<Vec<String>>, path: PathBuf) -> Self {
        let name = path
            .file_name()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut d = Document::blank(Content::Model { name, labels }, Some(path));
        d.model = Some(Arc::new(StoredModel::new(qubo)));
        d
    }

    /// Restores an autosaved document.
    pub fn from_snapshot(s: Snapshot) -> Self {
        // One build, with the saved options and weights (not a default one first).
        let mut d = Document::blank(Content::Puzzle(s.puzzle), s.path);
        d.name = s.name;
        d.dirty = s.dirty;
        d.options = s.options;
        d.weights = s.weights;
        d.runs = s.runs;
        d.reencode();
        d
    }

    /// The autosaved form (puzzles only).
    pub fn snapshot(&self) -> Option<Snapshot> {
        Some(Snapshot {
            puzzle: self.puzzle()?.clone(),
            path: self.path.clone(),
            name: self.name.clone(),
            dirty: self.dirty,
            options: self.options.clone(),
            weights: self.weights.clone(),
            sweep: None,
            runs: self.runs.clone(),
        })
    }

    /// Whether replacing or closing the document would lose work: unsaved changes that are
    /// kept nowhere else.
    pub fn has_unsaved_work(&self) -> bool {
        self.dirty && self.kept_at_edit != Some(self.edits)
    }

    /// The puzzle, when the document holds one.
    pub fn puzzle(&self) -> Option<&AnyPuzzle> {
        match &self.content {
            Content::Puzzle(p) => Some(p),
            Content::Model { .. } => None,
        }
    }

    /// Title-bar text: file name (else the document's name, or "untitled" and the kind) and a
    /// `•` when dirty.
    pub fn title(&self) -> String {
        let name = match (&self.path, &self.name, &self.content) {
            (Some(p), _, _) => p
                .file_name()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default(),
            (None, Some(name), _) => name.clone(),
            (None, None, Content::Puzzle(p)) => format!("untitled {}", p.kind()),
            (None, None, Content::Model { name, .. }) => name.clone(),
        };
        if self.dirty {
            format!("{name} •")
        } else {
            name
        }
    }

    /// The stem a file written for this document is offered under: its file's stem, else its
    /// name or its kind, in plain characters ("generated-9x9-sudoku-28-givens").
    pub fn file_stem(&self) -> String {
        if let Some(stem) = self.path.as_deref().and_then(|p| p.file_stem()) {
            return stem.to_string_lossy().into_owned();
        }
        let name = match (&self.name, &self.content) {
            (Some(n), _) => n.clone(),
            (None, Content::Puzzle(p)) => p.kind().name().to_string(),
            (None, Content::Model { name, .. }) => name.clone(),
        };
        let mut stem = String::new();
        for c in name.replace('×', "x").chars() {
            if c.is_ascii_alphanumeric() {
                stem.push(c.to_ascii_lowercase());
            } else if !stem.is_empty() && !stem.ends_with('-') {
                stem.push('-');
            }
        }
        let stem = stem.trim_end_matches('-');
        if stem.is_empty() {
            "untitled".into()
        } else {
            stem.into()
        }
    }

    /// What a run of `model` (this document's) needs on its thread: the puzzle, its encoding
    /// and weights (to decode and referee), its classical reference when the design facts
    /// hold it, and the model's version.
    pub fn run_input(
        &self,
        model: Arc<StoredModel>,
        reference: Option<Reference<AnySolution>>,
    ) -> crate::gui::jobs::RunInput {
        let puzzle = match (self.puzzle(), &self.encoding) {
            (Some(p), Some(e)) => Some((p.clone(), e.clone(), self.weights.clone())),
            _ => None,
        };
        crate::gui::jobs::RunInput {
            puzzle,
            reference,
            model,
            version: self.version,
        }
    }

    /// What names the variables, owned, for a job that writes them (`LabelSource::all`).
    pub fn label_source(&self) -> LabelSource {
        match (&self.encoding, &self.content) {
            (Some(e), _) => LabelSource::Encoding(e.clone()),
            (
                None,
                Content::Model {
                    labels: Some(l), ..
                },
            ) => LabelSource::Names(l.clone()),
            _ => LabelSource::Numbers,
        }
    }

    /// Variable labels for display (the encoding's, or the model file's).
    pub fn label_of(&self, v: usize) -> String {
        match (&self.encoding, &self.content) {
            (Some(e), _) => e
                .labels()
                .get(v)
                .map_or_else(|| v.to_string(), |l| l.to_string()),
            (
                None,
                Content::Model {
                    labels: Some(l), ..
                },
            ) => l.get(v).cloned().unwrap_or_else(|| v.to_string()),
            _ => v.to_string(),
        }
    }

    /// Changes the puzzle (undoable) and re-encodes.
    pub fn edit(
        &mut self,
        f: impl FnOnce(&mut AnyPuzzle) -> Result<(), PuzzleError>,
    ) -> Result<(), String> {
        let Content::Puzzle(p) = &mut self.content else {
            return Err("a model opened from a file cannot be edited as a puzzle".into());
        };
        let before = p.clone();
        f(p).map_err(|e| e.to_string())?;
        if *p == before {
            return Ok(());
        }
        self.push_undo(Step::Puzzle(before));
        self.dirty = true;
        self.reencode();
        Ok(())
    }

    fn push_undo(&mut self, step: Step) {
        self.edits += 1;
        self.undo.push(step);
        if self.undo.len() > UNDO_LIMIT {
            self.undo.remove(0);
        }
        self.redo.clear();
    }

    /// Records the editor's entries as they were before a change to them (undoable like an
    /// edit: `undo` hands them back).
    pub fn record_entries(&mut self, before: Option<crate::puzzle::AnySolution>) {
        self.push_undo(Step::Entries(before));
    }

    /// Replaces the whole puzzle (undoable), e.g. with a generated one.
    pub fn replace(&mut self, puzzle: AnyPuzzle) -> Result<(), String> {
        self.edit(|p| {
            *p = puzzle;
            Ok(())
        })
    }

    /// Whether there is an edit to undo.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// Whether there is an undone edit to redo.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Undoes the last step. A puzzle edit is undone here (and re-encoded); for a change of the
    /// editor's entries, `entries_now` is kept for redo and the entries to restore are
    /// returned (the caller gives them back to the editor).
    pub fn undo(
        &mut self,
        entries_now: Option<crate::puzzle::AnySolution>,
    ) -> Option<Option<crate::puzzle::AnySolution>> {
        let step = self.undo.pop()?;
        let (back, restore) = self.apply(step, entries_now);
        self.redo.push(back);
        restore
    }

    /// Redoes the last undone step (as `undo`, the other way).
    pub fn redo(
        &mut self,
        entries_now: Option<crate::puzzle::AnySolution>,
    ) -> Option<Option<crate::puzzle::AnySolution>> {
        let step = self.redo.pop()?;
        let (back, restore) = self.apply(step, entries_now);
        self.undo.push(back);
        restore
    }

    /// Puts `step` in place; returns the step that undoes that, and entries to restore.
    fn apply(
        &mut self,
        step: Step,
        entries_now: Option<crate::puzzle::AnySolution>,
    ) -> (Step, Option<Option<crate::puzzle::AnySolution>>) {
        self.edits += 1;
        match (step, &mut self.content) {
            (Step::Puzzle(other), Content::Puzzle(p)) => {
                let back = Step::Puzzle(std::mem::replace(p, other));
                self.dirty = true;
                self.reencode();
                (back, None)
            }
            (Step::Entries(entries), _) => (Step::Entries(entries_now), Some(entries)),
            (step, Content::Model { .. }) => (step, None),
        }
    }

    /// Turns presolve on or off and re-encodes.
    pub fn set_presolve(&mut self, on: bool) {
        if self.options.presolve != on {
            self.options.presolve = on;
            self.reencode();
        }
    }

    /// Chooses the kind's formulation by name (`None`: its default) and re-encodes.
    pub fn set_formulation(&mut self, name: Option<String>) {
        if self.options.formulation != name {
            self.options.formulation = name;
            self.reencode();
        }
    }

    /// Adds cuts (nogoods from a run's defects, `AnyPuzzle::cuts`) and re-encodes: a manual cut
    /// round. Cuts already there are not added twice.
    pub fn add_cuts(&mut self, cuts: Vec<Vec<crate::qubo::Label>>) {
        let before = self.options.cuts.len();
        for c in cuts {
            if !self.options.cuts.contains(&c) {
                self.options.cuts.push(c);
            }
        }
        if self.options.cuts.len() != before {
            self.reencode();
        }
    }

    /// Removes every cut and re-encodes.
    pub fn clear_cuts(&mut self) {
        if !self.options.cuts.is_empty() {
            self.options.cuts.clear();
            self.reencode();
        }
    }

    /// Sets one weight and rebuilds the matrix (no re-encoding).
    pub fn set_weight(&mut self, name: &str, value: f64) -> Result<(), String> {
        self.weights.set(name, value).map_err(|e| e.to_string())?;
        self.reweight();
        Ok(())
    }

    /// The current value of a weight (its default when unset; while the first model is still
    /// being built, only a value the user set is known).
    pub fn weight(&self, name: &str) -> Option<f64> {
        if self.encoding.is_none() {
            return self.weights.get(name);
        }
        let spec = self
            .encoding
            .as_ref()?
            .weight_specs()
            .iter()
            .find(|s| s.name == name)?;
        Some(self.weights.get(name).unwrap_or(spec.default))
    }

    /// Asks for the model to be built again from the puzzle (an edit, presolve, formulation,
    /// cuts): encode, presolve and weight on a job thread.
    fn reencode(&mut self) {
        self.request_build(true);
    }

    /// Asks for the model to be weighted again (a weight changed): the encoding is reused
    /// unless a re-encode is still pending.
    fn reweight(&mut self) {
        self.request_build(false);
    }

    fn request_build(&mut self, encode: bool) {
        let Content::Puzzle(p) = &self.content else {
            return;
        };
        // A formulation chosen for another kind does not carry over.
        if self.options.formulation_index(p.kind()).is_err() {
            self.options.formulation = None;
        }
        let b = &mut self.build;
        b.encode_pending |= encode || self.encoding.is_none();
        b.requested += 1;
        let input = BuildInput {
            puzzle: p.clone(),
            options: self.options.clone(),
            weights: self.weights.clone(),
            encoding: (!b.encode_pending).then(|| self.encoding.clone()).flatten(),
        };
        if b.running.is_some() {
            b.queued = Some((b.requested, input));
        } else {
            b.start(b.requested, input);
        }
    }

    /// Takes in a finished build (installed only if nothing newer was asked for since) and
    /// starts the one waiting; `true` when a new model (or error) was installed.
    pub fn poll_build(&mut self) -> bool {
        let b = &mut self.build;
        let Some(answer) = b.running.as_ref().and_then(|(_, _, job)| job.poll()) else {
            return false;
        };
        let (generation, _, _) = b.running.take().expect("polled a running build");
        if let Some((g, input)) = b.queued.take() {
            b.start(g, input);
        }
        if generation != b.requested {
            drop_later(answer);
            return false;
        }
        b.encode_pending = false;
        // The models replaced may hold hundreds of MB in millions of allocations: freed on a
        // thread of their own, not in this frame.
        drop_later((self.encoding.take(), self.model.take()));
        match answer {
            Ok(built) => {
                self.weights = built.weights;
                match built.encoding {
                    Ok(enc) => {
                        self.encoding = Some(enc);
                        match built.model {
                            Ok(m) => {
                                self.model = Some(m);
                                self.error = None;
                            }
                            Err(e) => {
                                self.model = None;
                                self.error = Some(e);
                            }
                        }
                    }
                    Err(e) => {
                        self.encoding = None;
                        self.model = None;
                        self.error = Some(e);
                    }
                }
            }
            Err(e) => {
                self.model = None;
                self.error = Some(format!("building the model failed: {e}"));
            }
        }
        self.version = next_version();
        true
    }

    /// How long the model build under way has taken (`None`: the model is up to date).
    pub fn building_for(&self) -> Option<Duration> {
        self.build.running.as_ref().map(|(_, t, _)| t.elapsed())
    }

    /// Whether the model shown is the one the current puzzle, options and weights ask for.
    pub fn model_is_current(&self) -> bool {
        self.build.running.is_none() && self.build.queued.is_none()
    }

    /// Blocks until the model is current (command-line paths and tests that need the model
    /// before the first frame); the window never calls it.
    pub fn wait_for_model(&mut self) {
        while !self.model_is_current() {
            if !self.poll_build() {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
    }
}

/// Drops `value` on a thread of its own: freeing a large model (millions of allocations) takes
/// tens of milliseconds, which a frame must not wait for.
pub fn drop_later<T: Send + 'static>(value: T) {
    std::thread::spawn(move || drop(value));
}

/// A finished sweep (and suggestion), as kept in the autosaved document.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SavedSweep {
    /// The swept weight.
    pub weight: String,
    /// The second swept weight of a grid.
    pub weight2: Option<String>,
    /// Which of the two axes are sampler parameters (else weights).
    #[serde(default)]
    pub params: [bool; 2],
    /// The points.
    pub points: Vec<crate::sweep::SweepPoint>,
    /// The last suggestion.
    pub suggestion: Option<crate::sweep::Suggestion>,
    /// Where a relation among the weights flips on the swept weight (the plot's marks).
    #[serde(default)]
    pub marks: Vec<(f64, String)>,
}
