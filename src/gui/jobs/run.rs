//! Sampling runs: what a run samples (`RunInput`), the job that samples it through the one
//! path (`solve::sample_problem`) with live progress and best state, and the finished `RunResult`.

use super::*;

/// A finished (or cancelled) run, ready to show: the one `Outcome` every caller computes,
/// and the model version it ran on.
pub struct RunResult {
    /// Decoded, refereed and summarised samples.
    pub outcome: Outcome,
    /// Model version it ran on.
    pub version: u64,
    /// Every weight's value in the model it ran on (defaults filled in; empty for models).
    pub weights: std::collections::BTreeMap<String, f64>,
    /// When no read was valid: a low read made valid by the kind's repair step (as `solve`
    /// reports it), with that read's energy. Never counted as a read.
    pub repaired: Option<(f64, crate::puzzle::Repaired<AnySolution>)>,
}

impl std::ops::Deref for RunResult {
    type Target = Outcome;
    fn deref(&self) -> &Outcome {
        &self.outcome
    }
}

/// Samples of `input`'s model as a finished run, through the one evaluation every caller
/// shares (`solve::evaluate_samples`), with the weights it was built with. Imported runs.
pub(super) fn evaluate_run(
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
pub(super) fn every_weight(
    encoding: &Encoding,
    weights: &Weights,
) -> std::collections::BTreeMap<String, f64> {
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
    pub(super) fn reference(&self) -> Reference<AnySolution> {
        match (&self.reference, &self.puzzle) {
            (Some(r), _) => r.clone(),
            (None, Some((p, _, _))) => p.solve_classically(REFERENCE_NODE_BUDGET),
            (None, None) => Reference::GaveUp {
                spent: crate::puzzle::Spent::Nodes(0),
            },
        }
    }

    /// The run as the one sampling path takes it.
    pub(super) fn subject<'a>(
        &'a self,
        reference: &'a Reference<AnySolution>,
    ) -> crate::solve::Subject<'a> {
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

    /// `outcome` as a run of this input's model version and weights, with the kind's repair of
    /// a low read when none is valid and the run was not cancelled (off the UI thread: a
    /// window re-solve takes up to seconds).
    pub(super) fn finished(&self, outcome: Outcome) -> RunResult {
        let wanted = outcome.success_fraction() == Some(0.0) && !outcome.samples.info.cancelled;
        let repaired = match &self.puzzle {
            Some((puzzle, _, _)) if wanted => {
                crate::solve::repaired(puzzle, &outcome, crate::solve::CutRounds::default().reads)
            }
            _ => None,
        };
        RunResult {
            repaired,
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
pub(super) const MAX_HISTORY_POINTS: usize = 10_000;

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
    pub(super) best_state: BestState,
    /// What decodes it: the puzzle and its encoding (none for bare models).
    pub(super) decoder: Option<(AnyPuzzle, Arc<Encoding>)>,
    /// The latest snapshot decoded, with its version.
    pub(super) live: Option<(u64, AnySolution)>,
    pub(super) rx: Receiver<Result<RunResult, String>>,
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
