//! The whole flow for one encoded puzzle in one call: weight → sample → evaluate. Its middle,
//! `sample_problem` (a built model to a refereed outcome), is the one path every run takes:
//! `solve`, the window's Run, the sweeps (through `solve`) and `bench`.
//! The caller encodes once and computes the classical reference once: `solve` never re-encodes.
//! Around it: `report` (the CLI's JSON shape), `cuts` (cut rounds), `difficulty` (TTS99 for
//! designers).

use std::time::Instant;

use serde::Serialize;

use crate::outcome::{Ground, Outcome, PuzzleContext, ground_energy};
use crate::puzzle::{AnyPuzzle, AnySolution, Reference, Violation};
use crate::qubo::{Encoding, QuboError, StoredModel, Weights};
use crate::sampler::{RunControl, SampleError, Sampler};

mod cuts;
mod difficulty;
mod report;

pub use cuts::*;
pub use difficulty::*;
pub use report::*;

/// Why a solve could not run.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SolveError {
    /// The weights do not fit the encoding.
    #[error(transparent)]
    Qubo(#[from] QuboError),
    /// The sampler refused its parameters or the model.
    #[error(transparent)]
    Sample(#[from] SampleError),
    /// Encoding (or re-encoding with cuts) failed.
    #[error(transparent)]
    Encode(#[from] crate::puzzle::PuzzleError),
    /// Refereeing the reads would pass the memory budget.
    #[error("{0}; ask for fewer reads (or more sweeps, so reads repeat)")]
    Budget(#[from] crate::budget::BudgetError),
}

/// An encoded puzzle ready to sample: the caller encodes once and solves the reference once.
#[derive(Clone, Copy)]
pub struct Problem<'a> {
    /// The instance.
    pub puzzle: &'a AnyPuzzle,
    /// Its encoding (with or without presolve).
    pub encoding: &'a Encoding,
    /// The classical reference (for the ground energy).
    pub reference: &'a Reference<AnySolution>,
}

/// Weights, samples and evaluates one encoded puzzle.
pub fn solve(
    problem: Problem,
    weights: &Weights,
    sampler: &dyn Sampler,
    control: &RunControl,
) -> Result<SolveOutcome, SolveError> {
    solve_watched(problem, weights, sampler, control, None)
}

/// Why `target` cannot be reached on `qubo`, when it is below every energy the model has: the
/// run can then only end at its sweeps or time limit (once a run sat out 60 s in silence). The
/// CLI says it before the run; the outcome's warnings keep it.
pub fn target_out_of_reach(qubo: &crate::qubo::Qubo, target: f64) -> Option<String> {
    let bound = qubo.energy_lower_bound();
    (target < bound).then(|| {
        format!(
            "the target energy {} is below any energy this model can reach (at least {}): the \
             run goes on to its sweeps or time limit",
            crate::io::number_text(target),
            crate::io::number_text(bound)
        )
    })
}

/// Told the first valid solution a run holds while its other reads go on (`solve --all-reads`
/// prints it at once).
pub type OnFirstValid<'a> = &'a (dyn Fn(&AnySolution) + Sync);

/// How often the watcher looks at the run's best state.
const WATCH_EVERY: std::time::Duration = std::time::Duration::from_millis(20);

/// Watches `best` until `done`: the first offered state at the target energy that the referee
/// passes goes to `on_valid` (once; `told` is shared across cut rounds).
fn watch_first_valid(
    problem: Problem,
    best: &crate::sampler::BestState,
    target: f64,
    done: &std::sync::atomic::AtomicBool,
    told: &std::sync::atomic::AtomicBool,
    on_valid: OnFirstValid,
) {
    use std::sync::atomic::Ordering;
    // Snapshot energies are running sums; the gate only spares decoding states far above the
    // target, the referee decides.
    let gate = target + 1e-6 * target.abs().max(1.0);
    let mut seen = 0;
    while !done.load(Ordering::Relaxed) && !told.load(Ordering::Relaxed) {
        std::thread::sleep(WATCH_EVERY);
        let version = best.version();
        if version == seen {
            continue;
        }
        seen = version;
        let Some(snap) = best.get().filter(|s| s.energy <= gate) else {
            continue;
        };
        let solution = problem.puzzle.decode(problem.encoding, &snap.state);
        if problem.puzzle.check(&solution).is_empty() && !told.swap(true, Ordering::Relaxed) {
            on_valid(&solution);
        }
    }
}

/// What one run samples: a built model and, when it encodes a puzzle, what decodes and
/// referees its reads. The window's Run, `solve`, the sweeps and `bench` all describe their run
/// this way and hand it to `sample_problem` (or, for reads they already hold,
/// `evaluate_samples`).
#[derive(Clone, Copy)]
pub struct Subject<'a> {
    /// The weighted model (stored, or its structure alone).
    pub model: &'a StoredModel,
    /// The puzzle, its encoding and reference, and the weights the model was built with.
    pub puzzle: Option<(Problem<'a>, &'a Weights)>,
    /// A bare model's ground energy when known from elsewhere (`bench`'s instances).
    pub known_ground: Option<f64>,
}

impl<'a> Subject<'a> {
    /// A puzzle's model built with `weights`.
    pub fn puzzle(model: &'a StoredModel, problem: Problem<'a>, weights: &'a Weights) -> Self {
        Subject {
            model,
            puzzle: Some((problem, weights)),
            known_ground: None,
        }
    }

    /// A bare model (nothing to decode into).
    pub fn model(model: &'a StoredModel) -> Self {
        Subject {
            model,
            puzzle: None,
            known_ground: None,
        }
    }

    /// The ground energy every figure is measured against: a puzzle's proved one (never
    /// claimed for a model sampled through its structure), or the one known from elsewhere.
    fn ground(&self) -> Option<Ground> {
        let energy = match self.puzzle {
            Some((p, weights)) => ground_energy(p.encoding, weights, p.reference)
                .filter(|_| self.model.is_stored())?,
            None => self.known_ground?,
        };
        Some(Ground::of(energy, &self.model.qubo))
    }

    /// Why the ground energy is not given although the reference solved the puzzle.
    fn ground_unknown(&self) -> Result<Option<String>, QuboError> {
        let Some((p, weights)) = self.puzzle else {
            return Ok(None);
        };
        if p.reference.solution().is_none() || self.ground().is_some() {
            return Ok(None);
        }
        Ok(Some(
            if !p.encoding.ground_from_groups() {
                "the model has an objective: its optimum, not its constraints alone, sets the \
                 ground energy"
            } else if !p.encoding.weights_nonnegative(weights)? {
                "a negative weight leaves the ground energy unknown (a broken constraint may \
                 then lower the energy)"
            } else if !self.model.is_stored() {
                "the model is sampled through its structure, with no stored energies to \
                 measure against"
            } else {
                "the weights leave the ground energy unknown"
            }
            .into(),
        ))
    }
}

/// The one step from a built model to a refereed outcome, for every caller: the target at
/// which open-ended samplers may stop (a valid solution's energy, unless the caller chose one),
/// the sampling (watched for a first valid solution when asked), then `evaluate_samples`.
pub fn sample_problem(
    subject: Subject,
    sampler: &dyn Sampler,
    control: &RunControl,
    on_first_valid: Option<(OnFirstValid, &std::sync::atomic::AtomicBool)>,
) -> Result<Outcome, SolveError> {
    let model = subject.model;
    // A valid solution's energy is the ground energy: samplers that search open-endedly may
    // stop a read there (unless the caller chose another target).
    let mut control = control.clone();
    let valid_energy = subject.puzzle.and_then(|(p, weights)| {
        crate::outcome::target_energy(p.puzzle, p.encoding, weights, p.reference)
    });
    let mut unreachable_target = None;
    match control.target_energy {
        None => control.target_energy = valid_energy,
        // A target the caller chose below every energy the model has (see
        // `target_out_of_reach`).
        Some(t) if model.is_stored() => unreachable_target = target_out_of_reach(&model.qubo, t),
        Some(_) => {}
    }
    // Watching needs the run to offer its best state, which it does at progress reports.
    // (Gated by the valid solution's energy, whatever target the caller chose.)
    let watch = on_first_valid
        .zip(valid_energy)
        .zip(subject.puzzle.map(|(p, _)| p));
    let best = control.best_state.clone().unwrap_or_default();
    if watch.is_some() {
        control.best_state = Some(best.clone());
        if !control.has_observer() {
            let every = control.progress_every_sweeps;
            control = control.with_observer(every, |_| {});
        }
    }
    let done = std::sync::atomic::AtomicBool::new(false);
    let t1 = Instant::now();
    let samples = std::thread::scope(|scope| {
        if let Some((((on_valid, told), target), problem)) = watch {
            let (best, done) = (&best, &done);
            scope.spawn(move || watch_first_valid(problem, best, target, done, told, on_valid));
        }
        let samples = sampler.sample(model, &control);
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        samples
    })?;
    let mut outcome = evaluate_samples(subject, samples, t1.elapsed().as_secs_f64())?;
    outcome.samples.info.warnings.extend(unreachable_target);
    Ok(outcome)
}

/// Reads of `subject`'s model (sampled, or read from a file) as an outcome: decoded and
/// refereed when it is a puzzle's, measured against its ground energy, with the model's
/// fingerprint and what to know about the figures in its warnings. Refuses, with the reason,
/// more distinct reads than the memory budget can referee.
pub fn evaluate_samples(
    subject: Subject,
    samples: crate::sampler::SampleSet,
    sample_s: f64,
) -> Result<Outcome, SolveError> {
    Outcome::check_evaluation_budget(&samples)?;
    let context = subject.puzzle.map(|(p, weights)| PuzzleContext {
        puzzle: p.puzzle,
        encoding: p.encoding,
        weights,
    });
    let mut outcome = Outcome::evaluate(samples, context, subject.ground(), sample_s);
    // Weights that break a relation the encoder's guarantees rest on: said with every run's
    // figures, since a run that stops short may be the reason.
    if let Some((p, weights)) = subject.puzzle {
        let unmet = p.encoding.unmet_conditions(weights).unwrap_or_default();
        (outcome.samples.info.warnings).extend(unmet.iter().map(|u| u.to_string()));
    }
    outcome.model_fingerprint = subject
        .model
        .is_stored()
        .then(|| subject.model.qubo.fingerprint());
    outcome.ground_unknown = subject.ground_unknown()?;
    if !outcome.ground_resolved {
        outcome.samples.info.warnings.push(
            "the weights are so far apart that the model's energies cannot tell a read at the \
             ground from one a coefficient above it: the ground share is unknown (the valid \
             share, from the referee, stands)"
                .into(),
        );
    }
    Ok(outcome)
}

/// `solve`, telling `on_first_valid` (when given) the first valid state the run holds while
/// it goes on. `told` says whether it was told already (by an earlier cut round).
fn solve_watched(
    problem: Problem,
    weights: &Weights,
    sampler: &dyn Sampler,
    control: &RunControl,
    on_first_valid: Option<(OnFirstValid, &std::sync::atomic::AtomicBool)>,
) -> Result<SolveOutcome, SolveError> {
    let t0 = Instant::now();
    // A model too large to store is sampled through its structure alone (SA's structured
    // kernel).
    let model = problem.puzzle.stored_model(problem.encoding, weights)?;
    let encode_s = t0.elapsed().as_secs_f64();
    let subject = Subject::puzzle(&model, problem, weights);
    let outcome = sample_problem(subject, sampler, control, on_first_valid)?;
    Ok(summarise(
        problem,
        weights,
        outcome,
        model.num_interactions(),
        encode_s,
    ))
}
