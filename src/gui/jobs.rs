//! Background work, so the UI thread only lays out and paints: sampling runs, weight sweeps,
//! heatmap rasters and file dialogs each run on their own thread and report through a channel
//! that the app polls once per frame.

use std::path::PathBuf;
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::puzzle::{AnyPuzzle, AnySolution, EncodeOptions, Violation};
use crate::qubo::{ConstraintReport, Encoding, StoredModel, Weights};
use crate::sampler::{Progress, RunControl, SampleSet, Sampler};
use crate::solve::{energy_matches, ground_energy};
use crate::sweep::{self, SweepPoint};

use super::heatmap::{self, Order, Raster};

/// Threads for sampling: all cores but one for the UI (at least one).
pub fn worker_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .saturating_sub(1)
        .max(1)
}

/// One distinct sample, decoded and refereed.
pub struct RowInfo {
    /// `None` for bare models (nothing to decode into).
    pub valid: Option<bool>,
    pub violations: Vec<Violation>,
    pub broken: Vec<ConstraintReport>,
    pub decoded: Option<AnySolution>,
}

/// A finished (or cancelled) run, ready to show.
pub struct RunResult {
    pub samples: SampleSet,
    pub rows: Vec<RowInfo>,
    pub ground_energy: Option<f64>,
    pub sample_s: f64,
    /// Model version it ran on.
    pub version: u64,
}

impl RunResult {
    /// Share of reads that decode to a valid solution (`None` without a puzzle).
    pub fn success_fraction(&self) -> Option<f64> {
        let reads = self.samples.num_reads();
        if reads == 0 || self.rows.iter().any(|r| r.valid.is_none()) {
            return None;
        }
        let ok: usize = self
            .samples
            .rows
            .iter()
            .zip(&self.rows)
            .filter(|(_, info)| info.valid == Some(true))
            .map(|(r, _)| r.num_occurrences)
            .sum();
        Some(ok as f64 / reads as f64)
    }

    pub fn ground_fraction(&self) -> Option<f64> {
        let g = self.ground_energy?;
        let reads = self.samples.num_reads().max(1);
        let hits: usize = self
            .samples
            .rows
            .iter()
            .filter(|r| energy_matches(r.energy, g))
            .map(|r| r.num_occurrences)
            .sum();
        Some(hits as f64 / reads as f64)
    }

    /// Time to solution with 99 % confidence: t_read · ln(0.01)/ln(1 − p), with
    /// t_read = sampling wall time / reads; t_read itself when p = 1; `None` when p = 0.
    pub fn tts99_s(&self) -> Option<f64> {
        let p = self.success_fraction().or(self.ground_fraction())?;
        let reads = self.samples.num_reads();
        if reads == 0 || p <= 0.0 {
            return None;
        }
        let t_read = self.sample_s / reads as f64;
        if p >= 1.0 {
            Some(t_read)
        } else {
            Some(t_read * 0.01f64.ln() / (1.0 - p).ln())
        }
    }
}

/// What a run samples: a puzzle (decoded and refereed afterwards) or a bare model.
pub struct RunInput {
    pub puzzle: Option<(AnyPuzzle, Arc<Encoding>, Weights, EncodeOptions)>,
    pub model: Arc<StoredModel>,
    pub version: u64,
}

pub struct SampleJob {
    pub control: RunControl,
    pub progress: Arc<Mutex<Option<Progress>>>,
    pub started: Instant,
    rx: Receiver<Result<RunResult, String>>,
}

/// Decodes, referees and reports every distinct sample of a run.
fn referee_rows(input: &RunInput, samples: &SampleSet) -> Vec<RowInfo> {
    samples
        .rows
        .iter()
        .map(|row| match &input.puzzle {
            Some((p, enc, w, _)) => {
                let decoded = p.decode(enc, &row.sample);
                let violations = p.check(&decoded);
                RowInfo {
                    valid: Some(violations.is_empty()),
                    violations,
                    broken: enc.report(&row.sample, w, true).unwrap_or_default(),
                    decoded: Some(decoded),
                }
            }
            None => RowInfo {
                valid: None,
                violations: Vec::new(),
                broken: Vec::new(),
                decoded: None,
            },
        })
        .collect()
}

impl SampleJob {
    pub fn start(
        input: RunInput,
        sampler: Box<dyn Sampler>,
        repaint: impl Fn() + Send + Sync + 'static,
    ) -> Self {
        let progress = Arc::new(Mutex::new(None));
        let seen = progress.clone();
        let repaint = Arc::new(repaint);
        let on_progress = repaint.clone();
        let control = RunControl::new()
            .with_threads(Some(worker_threads()))
            .with_observer(20, move |p| {
                if let Ok(mut slot) = seen.lock() {
                    *slot = Some(*p);
                }
                on_progress();
            });
        let (tx, rx) = channel();
        let worker_control = control.clone();
        std::thread::spawn(move || {
            let t = Instant::now();
            let result = sampler
                .sample(input.model.as_ref(), &worker_control)
                .map_err(|e| e.to_string())
                .map(|samples| {
                    let sample_s = t.elapsed().as_secs_f64();
                    let ground = input
                        .puzzle
                        .as_ref()
                        .and_then(|(p, enc, w, _)| ground_energy(p, enc, w));
                    RunResult {
                        rows: referee_rows(&input, &samples),
                        samples,
                        ground_energy: ground,
                        sample_s,
                        version: input.version,
                    }
                });
            let _ = tx.send(result);
            repaint();
        });
        SampleJob {
            control,
            progress,
            started: Instant::now(),
            rx,
        }
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

pub enum SweepMessage {
    Point(SweepPoint),
    Done(Result<(), String>),
}

pub struct SweepJob {
    pub control: RunControl,
    pub total: usize,
    rx: Receiver<SweepMessage>,
}

impl SweepJob {
    pub fn start(
        input: (AnyPuzzle, EncodeOptions, Weights),
        weight: String,
        values: Vec<f64>,
        sampler: Box<dyn Sampler>,
        repaint: impl Fn() + Send + 'static,
    ) -> Self {
        let control = RunControl::new().with_threads(Some(worker_threads()));
        let (tx, rx) = channel();
        let worker_control = control.clone();
        let total = values.len();
        std::thread::spawn(move || {
            let (puzzle, options, weights) = input;
            let point_tx = tx.clone();
            let spec = sweep::SweepSpec {
                puzzle: &puzzle,
                options: &options,
                base: &weights,
                weight: &weight,
                values: &values,
            };
            let result = sweep::run(&spec, sampler.as_ref(), &worker_control, |p| {
                let _ = point_tx.send(SweepMessage::Point(p.clone()));
                repaint();
            });
            let _ = tx.send(SweepMessage::Done(result.map(|_| ())));
        });
        SweepJob { control, total, rx }
    }

    /// Messages that arrived since the last poll.
    pub fn poll(&self) -> Vec<SweepMessage> {
        let mut out: Vec<SweepMessage> = self.rx.try_iter().collect();
        if out.is_empty() && matches!(self.rx.try_recv(), Err(TryRecvError::Disconnected)) {
            out.push(SweepMessage::Done(Err(
                "the sweep thread stopped unexpectedly".into(),
            )));
        }
        out
    }
}

/// A built heatmap: the raster, the display order it used, and the model's figures.
pub struct Heatmap {
    pub raster: Raster,
    /// The texture's pixels, converted on the worker (taken when uploaded).
    pub image: Option<egui::ColorImage>,
    pub order: Vec<u32>,
    pub stats: heatmap::Stats,
}

/// A heatmap being rasterised for model `version`.
pub struct HeatmapJob {
    pub version: u64,
    rx: Receiver<Heatmap>,
}

impl HeatmapJob {
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

    pub fn poll(&self) -> Option<Heatmap> {
        self.rx.try_recv().ok()
    }
}

/// What a file dialog was opened for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileAction {
    OpenPuzzle,
    OpenModel,
    SaveAs,
    ExportImage,
    ExportQubo,
    ExportSamples,
}

/// A native file dialog on a worker thread (rfd's async dialog, driven by a tiny executor):
/// the UI keeps painting while it is open. With no desktop portal and no zenity, rfd returns
/// `None`, which reads as "cancelled".
pub struct DialogJob {
    pub action: FileAction,
    rx: Receiver<Option<PathBuf>>,
}

impl DialogJob {
    pub fn start(
        action: FileAction,
        suggested: Option<String>,
        repaint: impl Fn() + Send + 'static,
    ) -> Self {
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut dialog = rfd::AsyncFileDialog::new();
            dialog = match action {
                FileAction::OpenPuzzle => dialog.add_filter("puzzles", &["txt", "json", "csv"]),
                FileAction::OpenModel => {
                    dialog.add_filter("QUBO models", &["qubo", "coo", "json", "txt"])
                }
                FileAction::SaveAs => dialog.add_filter("puzzle", &["txt", "json"]),
                FileAction::ExportImage => dialog.add_filter("images", &["png", "svg"]),
                FileAction::ExportQubo => {
                    dialog.add_filter("QUBO models", &["qubo", "coo", "json"])
                }
                FileAction::ExportSamples => dialog.add_filter("samples", &["json", "csv"]),
            };
            if let Some(name) = suggested {
                dialog = dialog.set_file_name(name);
            }
            let picked = match action {
                FileAction::OpenPuzzle | FileAction::OpenModel => block_on(dialog.pick_file()),
                _ => block_on(dialog.save_file()),
            };
            let _ = tx.send(picked.map(|h| h.path().to_path_buf()));
            repaint();
        });
        DialogJob { action, rx }
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
