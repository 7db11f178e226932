//! Background work, so the UI thread only lays out and paints: sampling runs, weight sweeps,
//! heatmap rasters, file dialogs and file reads and writes each run on their own thread and
//! report through a channel that the app polls once per frame.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::outcome::Outcome;
use crate::puzzle::{AnyPuzzle, AnySolution, DesignFacts, REFERENCE_NODE_BUDGET, Reference};
use crate::qubo::{Encoding, StoredModel, Weights};
use crate::sampler::{BestState, Progress, RemoteJob, RemoteJobSlot, RunControl, Sampler};
use crate::solve::Problem;
use crate::sweep::{self, SweepPoint};

use super::file_actions::FileAction;
use super::heatmap::{self, Order, Raster};

/// Threads for sampling: all cores but one for the UI (at least one).
pub fn worker_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .saturating_sub(1)
        .max(1)
}

/// A finished (or cancelled) run, ready to show: the one `Outcome` every caller computes,
/// and the model version it ran on.
pub struct RunResult {
    /// Decoded, refereed and summarised samples.
    pub outcome: Outcome,
    /// Model version it ran on.
    pub version: u64,
    /// Every weight's value in the model it ran on (defaults filled in; empty for models).
    pub weights: std::collections::BTreeMap<String, f64>,
}

impl std::ops::Deref for RunResult {
    type Target = Outcome;
    fn deref(&self) -> &Outcome {
        &self.outcome
    }
}

/// Samples of `input`'s model as a finished run, through the one evaluation every caller
/// shares (`solve::evaluate_samples`), with the weights it was built with. Imported runs.
fn evaluate_run(
    input: &RunInput,
    samples: crate::sampler::SampleSet,
    sample_s: f64,
) -> Result<RunResult, String> {
    let reference = input.reference();
    let outcome = crate::solve::evaluate_samples(input.subject(&reference), samples, sample_s)
        .map_err(|e| e.to_string())?;
    Ok(input.finished(outcome))
}

/// Every weight's value in a model built with `weights` (defaults filled in), as a run records.
fn every_weight(encoding: &Encoding, weights: &Weights) -> std::collections::BTreeMap<String, f64> {
    encoding
        .weight_specs()
        .iter()
        .map(|spec| {
            let value = weights.get(&spec.name).unwrap_or(spec.default);
            (spec.name.clone(), value)
        })
        .collect()
}

/// What a run samples: a puzzle (decoded and refereed afterwards) or a bare model.
pub struct RunInput {
    /// The puzzle, its encoding and the weights the model was built with.
    pub puzzle: Option<(AnyPuzzle, Arc<Encoding>, Weights)>,
    /// The puzzle's classical reference when the design facts hold it (else the run's thread
    /// searches for it, as `solve` does).
    pub reference: Option<Reference<AnySolution>>,
    /// The weighted model.
    pub model: Arc<StoredModel>,
    /// Its version.
    pub version: u64,
}

impl RunInput {
    /// The puzzle's classical reference: the design facts', or searched for now (off the UI
    /// thread) with the budget `solve` uses.
    fn reference(&self) -> Reference<AnySolution> {
        match (&self.reference, &self.puzzle) {
            (Some(r), _) => r.clone(),
            (None, Some((p, _, _))) => p.solve_classically(REFERENCE_NODE_BUDGET),
            (None, None) => Reference::GaveUp { nodes: 0 },
        }
    }

    /// The run as the one sampling path takes it.
    fn subject<'a>(&'a self, reference: &'a Reference<AnySolution>) -> crate::solve::Subject<'a> {
        match &self.puzzle {
            Some((puzzle, encoding, weights)) => crate::solve::Subject::puzzle(
                &self.model,
                Problem {
                    puzzle,
                    encoding,
                    reference,
                },
                weights,
            ),
            None => crate::solve::Subject::model(&self.model),
        }
    }

    /// `outcome` as a run of this input's model version and weights.
    fn finished(&self, outcome: Outcome) -> RunResult {
        RunResult {
            outcome,
            version: self.version,
            weights: match &self.puzzle {
                Some((_, enc, w)) => every_weight(enc, w),
                None => Default::default(),
            },
        }
    }
}

/// Most points kept for the best-energy-over-time plot.
const MAX_HISTORY_POINTS: usize = 10_000;

/// A sampling run on its own thread.
pub struct SampleJob {
    /// Cancel through this.
    pub control: RunControl,
    /// The latest progress report.
    pub progress: Arc<Mutex<Option<Progress>>>,
    /// (seconds, best energy) at each report where the best improved, for the progress plot.
    pub history: Arc<Mutex<Vec<[f64; 2]>>>,
    /// When it started.
    pub started: Instant,
    /// A remote sampler's job (problem id, status), when the sampler is remote.
    pub remote_job: RemoteJobSlot,
    /// The best state the run has offered so far.
    best_state: BestState,
    /// What decodes it: the puzzle and its encoding (none for bare models).
    decoder: Option<(AnyPuzzle, Arc<Encoding>)>,
    /// The latest snapshot decoded, with its version.
    live: Option<(u64, AnySolution)>,
    rx: Receiver<Result<RunResult, String>>,
}

impl SampleJob {
    /// Starts sampling `input` with `sampler`; `repaint` wakes the UI on progress and at the end.
    pub fn start(
        input: RunInput,
        sampler: Box<dyn Sampler>,
        repaint: impl Fn() + Send + Sync + 'static,
    ) -> Self {
        let progress = Arc::new(Mutex::new(None));
        let seen = progress.clone();
        let history = Arc::new(Mutex::new(Vec::new()));
        let curve = history.clone();
        let started = Instant::now();
        let repaint = Arc::new(repaint);
        let on_progress = repaint.clone();
        let control = RunControl::new()
            .with_threads(Some(worker_threads()))
            .with_observer(20, move |p| {
                if let Ok(mut slot) = seen.lock() {
                    *slot = Some(*p);
                }
                if let (Some(best), Ok(mut h)) = (p.best_energy, curve.lock()) {
                    let improved = h.last().is_none_or(|last: &[f64; 2]| best < last[1]);
                    if improved && h.len() < MAX_HISTORY_POINTS {
                        h.push([started.elapsed().as_secs_f64(), best]);
                    }
                }
                on_progress();
            });
        let best_state = BestState::new();
        let remote_job = RemoteJobSlot::default();
        let control = control
            .with_best_state(best_state.clone())
            .with_remote_job(remote_job.clone());
        let decoder = input
            .puzzle
            .as_ref()
            .map(|(p, enc, _)| (p.clone(), enc.clone()));
        let (tx, rx) = channel();
        let worker_control = control.clone();
        std::thread::spawn(move || {
            let reference = input.reference();
            let result = crate::solve::sample_problem(
                input.subject(&reference),
                sampler.as_ref(),
                &worker_control,
                None,
            )
            .map(|outcome| input.finished(outcome))
            .map_err(|e| e.to_string());
            let _ = tx.send(result);
            repaint();
        });
        SampleJob {
            control,
            progress,
            history,
            started,
            remote_job,
            best_state,
            decoder,
            live: None,
            rx,
        }
    }

    /// The remote job as last reported (none for local samplers).
    pub fn remote_job(&self) -> Option<RemoteJob> {
        self.remote_job.lock().ok()?.clone()
    }

    /// The number of the latest best state the run offered (0: none yet).
    pub fn best_state_version(&self) -> u64 {
        self.best_state.version()
    }

    /// The best state so far decoded as the puzzle's (partial) solution, while the run goes
    /// on: decoded again only when the run offered a better state.
    pub fn live_solution(&mut self) -> Option<&AnySolution> {
        let version = self.best_state.version();
        let stale = self.live.as_ref().is_none_or(|(v, _)| *v != version);
        if version > 0
            && stale
            && let (Some(snap), Some((puzzle, encoding))) = (self.best_state.get(), &self.decoder)
        {
            self.live = Some((snap.version, puzzle.decode(encoding, &snap.state)));
        }
        self.live.as_ref().map(|(_, s)| s)
    }

    /// The result, once the worker is done.
    pub fn poll(&self) -> Option<Result<RunResult, String>> {
        match self.rx.try_recv() {
            Ok(r) => Some(r),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => {
                Some(Err("the sampling thread stopped unexpectedly".into()))
            }
        }
    }
}

/// A slow computation on its own thread whose one answer the UI polls for: generating a
/// puzzle, a puzzle's design facts.
pub struct OneShot<T> {
    rx: Receiver<T>,
}

impl<T: Send + 'static> OneShot<T> {
    /// Runs `work` on a new thread; `repaint` wakes the UI when it is done.
    pub fn start(
        work: impl FnOnce() -> T + Send + 'static,
        repaint: impl Fn() + Send + 'static,
    ) -> Self {
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let _ = tx.send(work());
            repaint();
        });
        OneShot { rx }
    }

    /// The answer once it is there (`Err` if the thread died without one).
    pub fn poll(&self) -> Option<Result<T, String>> {
        match self.rx.try_recv() {
            Ok(v) => Some(Ok(v)),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => {
                Some(Err("the worker thread stopped unexpectedly".into()))
            }
        }
    }
}

/// What a finished file job brings back to the UI thread.
pub enum FileDone {
    /// A file written; a save carries the puzzle it wrote (the document is clean only if it
    /// still holds that puzzle).
    Wrote {
        /// The file.
        path: PathBuf,
        /// The puzzle saved, for a save.
        saved: Option<AnyPuzzle>,
    },
    /// A puzzle file read: every puzzle in it.
    Puzzles {
        /// The file.
        path: PathBuf,
        /// Its puzzles (at least one).
        puzzles: Vec<crate::puzzle::LoadedPuzzle>,
    },
    /// A model file read.
    Model {
        /// The file.
        path: PathBuf,
        /// The model, its labels and read warnings.
        model: crate::qubo::formats::ModelFile,
    },
    /// A sample set read (dimod's SampleSet JSON: a notebook's, or `--save-samples`) and
    /// evaluated as a run of the model it was read for.
    Samples {
        /// The file.
        path: PathBuf,
        /// The run, refereed like a sampled one (boxed: the other variants are small).
        run: Box<RunResult>,
        /// The file's note (energies that differ from the model's), if any.
        warning: Option<String>,
    },
}

/// A file read or written on its own thread (open, save, every export): the window keeps
/// drawing meanwhile, and the status line says where the file went, or why it did not.
pub struct FileJob {
    /// The file.
    pub path: PathBuf,
    /// What is being done, for the status line: "opening", "writing".
    pub doing: &'static str,
    job: OneShot<Result<FileDone, String>>,
}

impl FileJob {
    /// Writes `path` with `work` (which writes atomically and names the file in its error);
    /// `saved` is the puzzle a save writes.
    pub fn write(
        path: PathBuf,
        saved: Option<AnyPuzzle>,
        work: impl FnOnce(&Path) -> Result<(), String> + Send + 'static,
        repaint: impl Fn() + Send + 'static,
    ) -> Self {
        let p = path.clone();
        let job = OneShot::start(
            move || work(&p).map(|()| FileDone::Wrote { path: p, saved }),
            repaint,
        );
        FileJob {
            path,
            doing: "writing",
            job,
        }
    }

    /// Reads a puzzle file, or a model file (`as_model`, or by its extension).
    pub fn open(path: PathBuf, as_model: bool, repaint: impl Fn() + Send + 'static) -> Self {
        let p = path.clone();
        let job = OneShot::start(move || read_document(p, as_model), repaint);
        FileJob {
            path,
            doing: "opening",
            job,
        }
    }

    /// Reads a sample set (dimod's SampleSet JSON) and evaluates it as a run of `input`'s
    /// model, whose variables are named `labels` (columns are matched by label): reading,
    /// matching, energies and the referee all happen here, off the UI thread.
    pub fn read_samples(
        path: PathBuf,
        input: RunInput,
        labels: Vec<String>,
        repaint: impl Fn() + Send + 'static,
    ) -> Self {
        let p = path.clone();
        let job = OneShot::start(
            move || {
                let text = crate::io::read_text_limited(&p, crate::compare::MAX_SAMPLE_FILE_BYTES)
                    .map_err(|e| e.to_string())?;
                let value: serde_json::Value = serde_json::from_str(&text)
                    .map_err(|e| format!("{}: not JSON: {e}", p.display()))?;
                let set = crate::sampler::dimod_json::read(&value)
                    .map_err(|e| format!("{}: not a dimod sample set: {e}", p.display()))?;
                let name = p
                    .file_name()
                    .map_or_else(String::new, |n| n.to_string_lossy().into());
                let samples = set
                    .for_model(input.model.as_ref(), &labels, &format!("file {name}"))
                    .map_err(|e| format!("{}: not read: {e}", p.display()))?;
                let warning =
                    (!samples.info.warnings.is_empty()).then(|| samples.info.warnings.join("; "));
                // Our own saved runs say how long they sampled (`sample_s`; dwave-samplers'
                // timing says `sampling_ns`); a notebook's may not (then 0).
                let info_number = |key: &str| {
                    set.info
                        .get(key)
                        .and_then(serde_json::Value::as_f64)
                        .filter(|v| v.is_finite() && *v >= 0.0)
                };
                let sample_s = info_number("sample_s")
                    .or_else(|| info_number("sampling_ns").map(|ns| ns / 1e9))
                    .unwrap_or(0.0);
                let run = Box::new(
                    evaluate_run(&input, samples, sample_s)
                        .map_err(|e| format!("{}: not read: {e}", p.display()))?,
                );
                Ok(FileDone::Samples {
                    path: p,
                    run,
                    warning,
                })
            },
            repaint,
        );
        FileJob {
            path,
            doing: "reading",
            job,
        }
    }

    /// The outcome once it is there.
    pub fn poll(&self) -> Option<Result<FileDone, String>> {
        self.job.poll().map(|r| r.and_then(|done| done))
    }
}

/// Reads a document: a model for a model extension (.qubo, .coo, .bqm) or when asked, else a
/// puzzle file; a .json that is not a puzzle may be a dimod BQM.
fn read_document(path: PathBuf, as_model: bool) -> Result<FileDone, String> {
    use crate::qubo::formats::read_model;
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    let read_as_model = |path: PathBuf| match read_model(&path) {
        Ok(model) => Ok(FileDone::Model { path, model }),
        Err(e) => Err(e.to_string()),
    };
    if as_model || matches!(ext.as_str(), "qubo" | "coo" | "bqm") {
        return read_as_model(path);
    }
    match crate::puzzle::load_puzzles(&path, None) {
        Ok(puzzles) => Ok(FileDone::Puzzles { path, puzzles }),
        Err(e) if ext == "json" => read_as_model(path).map_err(|_| e.to_string()),
        Err(e) => Err(e.to_string()),
    }
}

/// A generation on its own thread: its answer, and the control that shows its tries and
/// cancels it (generators that search — no-guess boards, difficulty bands, a TTS99 range —
/// take a while).
pub struct GenerateJob {
    /// Progress and cancel.
    pub control: crate::puzzle::GenerateControl,
    /// The kind and parameters asked for (kept with the instance in Recent).
    pub request: (crate::puzzle::Kind, crate::params::ParamValues),
    answer: OneShot<Result<Generated, String>>,
}

/// A generated instance and, when it was aimed at a TTS99 range, what was measured.
pub struct Generated {
    /// The instance.
    pub puzzle: AnyPuzzle,
    /// The measured TTS99 in words (the header comment its file carries).
    pub measured: Option<String>,
}

impl GenerateJob {
    /// Generates `kind` from `params` (and, with `tts99_range`, keeps drawing until the default
    /// sampler's TTS99 falls in it); `repaint` wakes the UI when it is done.
    pub fn start(
        kind: crate::puzzle::Kind,
        params: crate::params::ParamValues,
        tts99_range: Option<[f64; 2]>,
        repaint: impl Fn() + Send + 'static,
    ) -> Self {
        let control = crate::puzzle::GenerateControl::new();
        let worker = control.clone();
        let asked = params.clone();
        let answer =
            OneShot::start(
                move || match tts99_range {
                    None => kind
                        .generate_with(&asked, &worker)
                        .map(|puzzle| Generated {
                            puzzle,
                            measured: None,
                        })
                        .map_err(|e| e.to_string()),
                    Some(range) => crate::solve::generate_for_tts99(kind, &asked, range, &worker)
                        .map(|found| Generated {
                            measured: Some(found.comment(range)),
                            puzzle: found.puzzle,
                        }),
                },
                repaint,
            );
        GenerateJob {
            control,
            request: (kind, params),
            answer,
        }
    }

    /// The answer once it is there.
    pub fn poll(&self) -> Option<Result<Result<Generated, String>, String>> {
        self.answer.poll()
    }
}

/// A puzzle's design facts being computed.
pub type FactsJob = OneShot<DesignFacts<AnySolution>>;

/// What a sweep thread reports.
pub enum SweepMessage {
    /// One finished point.
    Point(Box<SweepPoint>),
    /// The end (cancelled sweeps end with `Ok` too).
    Done(Result<(), String>),
}

/// What a sweep or a suggestion works on: the document's puzzle, encoding and weights, and
/// the design facts' reference when they hold it.
pub struct SweepInput {
    /// The puzzle.
    pub puzzle: AnyPuzzle,
    /// Its encoding (never re-encoded by the sweep).
    pub encoding: Arc<Encoding>,
    /// The document's weights (the swept ones are replaced point by point).
    pub weights: Weights,
    /// The classical reference, when the design facts hold it (else searched once on the
    /// sweep's thread, as the CLI does).
    pub reference: Option<Reference<AnySolution>>,
}

impl SweepInput {
    /// The reference once for the whole sweep.
    fn reference(&self) -> Reference<AnySolution> {
        self.reference
            .clone()
            .unwrap_or_else(|| self.puzzle.solve_classically(REFERENCE_NODE_BUDGET))
    }
}

/// What a sweep measures: one weight over `values` (or a grid with a second), `repeats` runs
/// per point.
pub struct SweepRequest {
    /// The swept weight.
    pub weight: String,
    /// Its values.
    pub values: Vec<f64>,
    /// A second weight and its values.
    pub second: Option<(String, Vec<f64>)>,
    /// Most runs per point.
    pub repeats: usize,
    /// When a point stops before its last run.
    pub stop: sweep::StopRule,
}

/// A job that reports as it goes (a sweep's points, a suggestion's tries) on its own thread:
/// its messages are taken once per frame; a thread that died without its last message is
/// reported through `died`.
pub struct StreamJob<M> {
    /// Cancel through this.
    pub control: RunControl,
    rx: Receiver<M>,
    died: fn() -> M,
}

impl<M: Send + 'static> StreamJob<M> {
    /// Runs `work` with `control` and a way to send, waking the UI through `repaint` after
    /// each message.
    fn start(
        control: RunControl,
        died: fn() -> M,
        work: impl FnOnce(&RunControl, &dyn Fn(M)) + Send + 'static,
        repaint: impl Fn() + Send + 'static,
    ) -> Self {
        let (tx, rx) = channel();
        let worker_control = control.clone();
        std::thread::spawn(move || {
            let send = |m: M| {
                let _ = tx.send(m);
                repaint();
            };
            work(&worker_control, &send);
        });
        StreamJob { control, rx, died }
    }

    /// Messages that arrived since the last poll.
    pub fn poll(&self) -> Vec<M> {
        let mut out: Vec<M> = self.rx.try_iter().collect();
        if out.is_empty() && matches!(self.rx.try_recv(), Err(TryRecvError::Disconnected)) {
            out.push((self.died)());
        }
        out
    }
}

/// A weight sweep on its own thread.
pub struct SweepJob {
    /// Points asked for.
    pub total: usize,
    /// Its points as they are measured.
    pub stream: StreamJob<SweepMessage>,
}

impl std::ops::Deref for SweepJob {
    type Target = StreamJob<SweepMessage>;
    fn deref(&self) -> &Self::Target {
        &self.stream
    }
}

impl SweepJob {
    /// Sweeps the request's weights on the document's encoding (never re-encoded).
    pub fn start(
        input: SweepInput,
        request: SweepRequest,
        sampler: Box<dyn Sampler>,
        repaint: impl Fn() + Send + 'static,
    ) -> Self {
        let total = request.values.len() * request.second.as_ref().map_or(1, |s| s.1.len());
        // A sweep takes every core: its points run side by side, and the window's own thread
        // needs little (the sweep is what the user waits for).
        let work = move |control: &RunControl, send: &dyn Fn(SweepMessage)| {
            let reference = input.reference();
            let spec = sweep::SweepSpec {
                problem: Problem {
                    puzzle: &input.puzzle,
                    encoding: &input.encoding,
                    reference: &reference,
                },
                base: &input.weights,
                weight: &request.weight,
                values: &request.values,
                second: request
                    .second
                    .as_ref()
                    .map(|(w, v)| (w.as_str(), v.as_slice())),
                repeats: request.repeats,
                stop: request.stop,
            };
            let result = sweep::run(&spec, sampler.as_ref(), control, |p| {
                send(SweepMessage::Point(Box::new(p.clone())));
            });
            send(SweepMessage::Done(
                result.map(|_| ()).map_err(|e| e.to_string()),
            ));
        };
        let died = || SweepMessage::Done(Err("the sweep thread stopped unexpectedly".into()));
        SweepJob {
            total,
            stream: StreamJob::start(RunControl::new(), died, work, repaint),
        }
    }
}

/// What a weight suggestion's thread reports.
pub enum TuneMessage {
    /// A point tried, and whether the search moved to it.
    Point(Box<SweepPoint>, bool),
    /// The end: the suggestion, or why there is none.
    Done(Result<Box<sweep::Suggestion>, String>),
}

/// "Suggest weights" on its own thread (`sweep::suggest`).
pub type TuneJob = StreamJob<TuneMessage>;

/// Starts "Suggest weights" from the document's weights, for at most `budget_s` seconds.
pub fn start_tune(
    input: SweepInput,
    sampler: Box<dyn Sampler>,
    effort: (usize, sweep::StopRule, f64),
    repaint: impl Fn() + Send + 'static,
) -> TuneJob {
    let (repeats, stop, budget_s) = effort;
    let work = move |control: &RunControl, send: &dyn Fn(TuneMessage)| {
        let reference = input.reference();
        let problem = Problem {
            puzzle: &input.puzzle,
            encoding: &input.encoding,
            reference: &reference,
        };
        let budget = std::time::Duration::from_secs_f64(budget_s.clamp(0.0, 86_400.0));
        let result = sweep::suggest(
            problem,
            &input.weights,
            sampler.as_ref(),
            sweep::TuneEffort {
                repeats,
                stop,
                budget,
            },
            control,
            |p, moved| send(TuneMessage::Point(Box::new(p.clone()), moved)),
        );
        send(TuneMessage::Done(
            result.map(Box::new).map_err(|e| e.to_string()),
        ));
    };
    let died = || TuneMessage::Done(Err("the suggestion thread stopped unexpectedly".into()));
    let control = RunControl::new().with_threads(Some(worker_threads()));
    StreamJob::start(control, died, work, repaint)
}

/// A built heatmap: the raster, the display order it used, and the model's figures.
pub struct Heatmap {
    /// Block maxima, one pixel per block.
    pub raster: Raster,
    /// The texture's pixels, converted on the worker (taken when uploaded).
    pub image: Option<egui::ColorImage>,
    /// Display position → variable index.
    pub order: Vec<u32>,
    /// The figures beside the picture.
    pub stats: heatmap::Stats,
}

/// A heatmap being rasterised for model `version`.
pub struct HeatmapJob {
    /// The document version the heatmap is for (stale results are dropped).
    pub version: u64,
    rx: Receiver<Heatmap>,
}

impl HeatmapJob {
    /// Rasterises `model` on a worker thread in `order`; `repaint` wakes the UI when done.
    pub fn start(
        model: Arc<StoredModel>,
        labels: Option<Vec<crate::qubo::Label>>,
        order: Order,
        log: bool,
        version: u64,
        repaint: impl Fn() + Send + 'static,
    ) -> Self {
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let n = model.qubo.num_variables();
            let ord = heatmap::ordering(labels.as_deref(), n, order);
            let raster = heatmap::rasterize(&model.qubo, &ord, log);
            let image =
                egui::ColorImage::from_rgba_unmultiplied([raster.side, raster.side], &raster.rgba);
            let _ = tx.send(Heatmap {
                raster,
                image: Some(image),
                order: ord,
                stats: heatmap::stats(&model.qubo),
            });
            repaint();
        });
        HeatmapJob { version, rx }
    }

    /// The heatmap, once the worker has finished.
    pub fn poll(&self) -> Option<Heatmap> {
        self.rx.try_recv().ok()
    }
}

/// A native file dialog on a worker thread (rfd's async dialog, driven by a tiny executor):
/// the UI keeps painting while it is open. With no desktop portal and no zenity, rfd returns
/// `None` at once: the window then shows its own form (`file_form`).
pub struct DialogJob {
    /// What the dialog's answer is for.
    pub action: FileAction,
    /// When it was asked for: an empty answer within moments means no dialog could open.
    pub started: std::time::Instant,
    rx: Receiver<Option<PathBuf>>,
}

impl DialogJob {
    /// Opens the dialog on a worker thread; `suggested` is the file name it offers.
    pub fn start(
        action: FileAction,
        suggested: Option<String>,
        repaint: impl Fn() + Send + 'static,
    ) -> Self {
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let kind = action.kind();
            let dialog = rfd::AsyncFileDialog::new().add_filter(kind.title, kind.extensions);
            let dialog = match suggested {
                Some(name) => dialog.set_file_name(name),
                None => dialog,
            };
            let picked = match action {
                FileAction::OpenPuzzle | FileAction::OpenModel => block_on(dialog.pick_file()),
                _ => block_on(dialog.save_file()),
            };
            let _ = tx.send(picked.map(|h| h.path().to_path_buf()));
            repaint();
        });
        DialogJob {
            action,
            started: std::time::Instant::now(),
            rx,
        }
    }

    /// `Some(answer)` once the dialog closed (`answer` is `None` when cancelled).
    pub fn poll(&self) -> Option<Option<PathBuf>> {
        match self.rx.try_recv() {
            Ok(p) => Some(p),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(None),
        }
    }
}

/// Runs a future to completion on this thread (dialogs need no more than this).
fn block_on<F: std::future::Future>(future: F) -> F::Output {
    use std::task::{Context, Poll, Wake, Waker};
    struct Unpark(std::thread::Thread);
    impl Wake for Unpark {
        fn wake(self: Arc<Self>) {
            self.0.unpark();
        }
    }
    let waker = Waker::from(Arc::new(Unpark(std::thread::current())));
    let mut cx = Context::from_waker(&waker);
    let mut future = std::pin::pin!(future);
    loop {
        if let Poll::Ready(v) = future.as_mut().poll(&mut cx) {
            return v;
        }
        std::thread::park();
    }
}
