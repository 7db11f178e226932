//! The whole flow for one encoded puzzle in one call: weight → sample → evaluate. Its middle,
//! `sample_problem` (a built model to a refereed outcome), is the one path every run takes:
//! `solve`, the window's Run, the sweeps (through `solve`) and `bench`.
//! The caller encodes once and computes the classical reference once: `solve` never re-encodes.

use std::time::Instant;

use serde::Serialize;

use crate::outcome::{Ground, Outcome, PuzzleContext, ground_energy};
use crate::puzzle::{AnyPuzzle, AnySolution, Reference, Violation};
use crate::qubo::{Encoding, QuboError, StoredModel, Weights};
use crate::sampler::{RunControl, SampleError, Sampler};

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

/// The best read, decoded and refereed.
#[derive(Clone, Debug, Serialize)]
pub struct Best {
    /// Its energy.
    pub energy: f64,
    /// Whether the referee accepts it.
    pub valid: bool,
    /// What the referee found.
    pub violations: Vec<Violation>,
    /// The candidate solution as JSON (Sudoku: its one-line string; edge matching: the board
    /// row-major, `{"piece": P, "rotation": R}` or `null` per cell).
    pub solution: serde_json::Value,
    /// The candidate solution in the kind's one-line form.
    pub solution_line: String,
    /// Its score, for kinds scored by degree (edge matching: matched joints).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<u64>,
    /// The score of a perfect solution.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_score: Option<u64>,
    /// The candidate solution.
    #[serde(skip)]
    pub decoded: Option<AnySolution>,
}

/// Wall times.
#[derive(Clone, Debug, Serialize)]
pub struct Timing {
    /// Encoding (presolve included) and weighting, over every cut round.
    pub encode_s: f64,
    /// Sampling.
    pub sample_s: f64,
}

/// Everything a solve produced, in the CLI's JSON shape.
#[derive(Clone, Debug, Serialize)]
pub struct SolveOutcome {
    /// The puzzle kind's name.
    pub kind: String,
    /// One-line summary of the puzzle.
    pub description: String,
    /// Variables of the model sampled.
    pub num_variables: usize,
    /// Couplings of the model sampled.
    pub num_interactions: usize,
    /// The sampler's name.
    pub sampler: String,
    /// Why the sampler was chosen, when the caller let the workbench choose.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sampler_choice: Option<String>,
    /// The parameters it ran with (seed and β range filled in).
    pub params: serde_json::Value,
    /// Wall times.
    pub timing: Timing,
    /// Reads taken.
    pub num_reads: usize,
    /// True when cancelled before all reads were done.
    pub cancelled: bool,
    /// Reads returned of reads asked for, and why the run stopped (target, sweeps, time
    /// limit, cancel), in figures and words.
    pub run: crate::sampler::RunReport,
    /// Lowest energy sampled.
    pub min_energy: Option<f64>,
    /// Known when the puzzle has a solution (exact reference solver) and weights are ≥ 0.
    pub ground_energy: Option<f64>,
    /// Why the ground energy is not given although the reference solved the puzzle (a negative
    /// weight; a model sampled through its structure), in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ground_unknown: Option<String>,
    /// Share of reads at the ground energy (the figure compared with the peers).
    pub ground_fraction: Option<f64>,
    /// Share of reads that decode to a valid solution.
    pub success_fraction: f64,
    /// Time to a valid solution with 99 % confidence.
    pub tts99_s: Option<f64>,
    /// What the classical reference found: `solved`, `no solution`, or `gave up after N nodes`.
    pub reference: String,
    /// The best read.
    pub best: Option<Best>,
    /// What to know about how far to trust the run (from the sampler).
    pub warnings: Vec<String>,
    /// Sampler-specific facts: a remote job's id, solver and timing; an embedding's chain
    /// breaks (`SampleInfo::details`).
    #[serde(skip_serializing_if = "serde_json::Map::is_empty")]
    pub sampler_details: serde_json::Map<String, serde_json::Value>,
    /// Per-cell probabilities, H rows of W (kinds that have them, Minesweeper: a mine under
    /// each cell): the exact ones when computed, else the sampled estimate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub probabilities: Option<Vec<Vec<f64>>>,
    /// The estimate from the reads, when the exact ones are reported too.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sampled_probabilities: Option<Vec<Vec<f64>>>,
    /// Largest and mean |sampled − exact| over the undecided cells.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub probability_error: Option<ProbabilityError>,
    /// Why the exact probabilities are missing (an inconsistent position, too large a group).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact_probabilities_error: Option<String>,
    /// Sampling rounds run when cut rounds were allowed (1: the first round found a valid
    /// answer or showed no cut); `None` when they were not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rounds: Option<usize>,
    /// Cuts (nogoods from defective answers, e.g. Numberlink's loops) in the last round's model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cuts: Option<usize>,
    /// When no read was valid: a low read's candidate made valid by the kind's repair step
    /// (Numberlink under no-fill: loops removed), with the read's energy. Not counted in
    /// `success_fraction`, which counts reads as sampled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repaired: Option<Best>,
    /// The samples with their verdicts.
    #[serde(skip)]
    pub outcome: Outcome,
}

/// How far the sampled probabilities are from the exact ones.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ProbabilityError {
    /// Largest |sampled − exact| over the undecided cells.
    pub max: f64,
    /// Mean |sampled − exact| over the undecided cells.
    pub mean: f64,
}

/// Which per-cell probabilities a report carries (kinds that have them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ProbabilityMethod {
    /// The exact engine alone (no sampling).
    Exact,
    /// The estimate from the reads alone.
    Sample,
    /// Both, and their difference.
    #[default]
    Both,
}

impl SolveOutcome {
    /// Fills in the probabilities `method` asks for: the sampled estimate from the run, and
    /// (for `both`) the exact ones from `puzzle` with the difference. Kinds without
    /// probabilities are left as they are.
    pub fn add_probabilities(
        &mut self,
        puzzle: &AnyPuzzle,
        method: ProbabilityMethod,
        node_budget: u64,
    ) {
        let Some(sampled) = self.outcome.probabilities.clone() else {
            return;
        };
        if method == ProbabilityMethod::Sample {
            self.probabilities = Some(sampled.rows());
            return;
        }
        match puzzle.exact_probabilities(node_budget) {
            Some(Ok(exact)) => {
                let (max, mean) = sampled.error_against(&exact);
                self.probabilities = Some(exact.rows());
                self.sampled_probabilities = Some(sampled.rows());
                self.probability_error = Some(ProbabilityError { max, mean });
            }
            Some(Err(e)) => {
                self.exact_probabilities_error = Some(e.to_string());
                self.probabilities = Some(sampled.rows());
            }
            None => {}
        }
    }
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

/// How a reference reads in reports.
pub fn reference_text(reference: &Reference<AnySolution>) -> String {
    match reference {
        Reference::Solved(_) => "solved".into(),
        Reference::NoSolution => "no solution".into(),
        Reference::GaveUp { nodes } => format!("gave up after {nodes} nodes"),
    }
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
            if !p.encoding.weights_nonnegative(weights)? {
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
        outcome,
        model.num_interactions(),
        encode_s,
    ))
}

/// The CLI's report of an evaluated run.
fn summarise(
    problem: Problem,
    outcome: Outcome,
    num_interactions: usize,
    encode_s: f64,
) -> SolveOutcome {
    let puzzle = problem.puzzle;
    let best = outcome.best().map(|(row, verdict)| {
        let score = verdict.decoded.as_ref().and_then(|d| puzzle.score(d));
        Best {
            energy: row.energy,
            valid: verdict.valid == Some(true),
            violations: verdict.violations.clone(),
            solution: verdict
                .decoded
                .as_ref()
                .map(|d| puzzle.solution_to_json(d))
                .unwrap_or_default(),
            solution_line: verdict
                .decoded
                .as_ref()
                .map(|d| puzzle.solution_to_string(d))
                .unwrap_or_default(),
            score: score.map(|s| s.value),
            max_score: score.map(|s| s.max),
            decoded: verdict.decoded.clone(),
        }
    });
    let info = &outcome.samples.info;
    SolveOutcome {
        kind: puzzle.kind().name().into(),
        description: puzzle.describe(),
        num_variables: problem.encoding.num_variables(),
        num_interactions,
        sampler: info.sampler.clone(),
        sampler_choice: None,
        params: info.params.clone(),
        timing: Timing {
            encode_s,
            sample_s: outcome.sample_s,
        },
        num_reads: outcome.num_reads(),
        cancelled: info.cancelled,
        run: outcome.samples.report(),
        min_energy: outcome.min_energy(),
        ground_energy: outcome.ground_energy,
        ground_unknown: outcome.ground_unknown.clone(),
        ground_fraction: outcome.ground_fraction(),
        success_fraction: outcome.success_fraction().unwrap_or(0.0),
        tts99_s: outcome.tts99_s(),
        reference: reference_text(problem.reference),
        best,
        warnings: info.warnings.clone(),
        sampler_details: info.details.clone(),
        probabilities: None,
        sampled_probabilities: None,
        probability_error: None,
        exact_probabilities_error: None,
        rounds: None,
        cuts: None,
        repaired: None,
        outcome,
    }
}

/// The first of the lowest `reads` reads whose candidate the kind's repair makes valid.
fn repaired(
    puzzle: &AnyPuzzle,
    outcome: &SolveOutcome,
    reads: usize,
) -> Option<(f64, AnySolution)> {
    let o = &outcome.outcome;
    o.samples
        .rows
        .iter()
        .zip(&o.rows)
        .take(reads)
        .find_map(|(row, verdict)| {
            let fixed = puzzle.repair(verdict.decoded.as_ref()?)?;
            puzzle
                .check(&fixed)
                .is_empty()
                .then_some((row.energy, fixed))
        })
}

/// A valid candidate as a `Best`.
fn best_of(puzzle: &AnyPuzzle, energy: f64, solution: &AnySolution) -> Best {
    let score = puzzle.score(solution);
    Best {
        energy,
        valid: true,
        violations: Vec::new(),
        solution: puzzle.solution_to_json(solution),
        solution_line: puzzle.solution_to_string(solution),
        score: score.map(|s| s.value),
        max_score: score.map(|s| s.max),
        decoded: Some(solution.clone()),
    }
}

/// Cut rounds: how many, and from how many of each round's lowest reads cuts are taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CutRounds {
    /// Sampling rounds at most (1: no cuts).
    pub max_rounds: usize,
    /// Distinct lowest-energy reads whose defects become cuts (or are repaired), per round.
    pub reads: usize,
    /// Try the kind's repair step on those reads before another round.
    pub repair: bool,
}

impl Default for CutRounds {
    fn default() -> Self {
        CutRounds {
            max_rounds: 5,
            reads: 16,
            repair: true,
        }
    }
}

/// The first round's encoding, made by the caller (who sized the sampler on it).
pub struct FirstEncoding<'a> {
    /// The options it was made with (cut rounds add their cuts to a copy).
    pub options: &'a crate::puzzle::EncodeOptions,
    /// `puzzle.encode(options)`.
    pub encoding: Encoding,
    /// Seconds that took.
    pub encode_s: f64,
}

/// What samples each round of `solve_with_cuts`, and who hears of its first valid solution.
pub struct Sampling<'a> {
    /// The sampler.
    pub sampler: &'a dyn Sampler,
    /// Its run control (threads, target, cancel, progress).
    pub control: &'a RunControl,
    /// Told the first valid solution while the reads go on (`solve --all-reads`).
    pub on_first_valid: Option<OnFirstValid<'a>>,
}

/// Solves with cut rounds: encode with `options`, sample; while no read is valid, first try
/// the kind's repair on the lowest reads (a repaired answer ends the rounds, reported in
/// `repaired`), then, if the lowest reads show defects the kind turns into cuts (`AnyPuzzle::cuts`), add them to the
/// options, re-encode (the weights are kept by name; `cut` takes its default unless set) and
/// sample again, up to `rounds.max_rounds`. The outcome is the last round's, with the rounds,
/// the cuts and the sampling time of all rounds, and the last round's encoding;
/// `timing.encode_s` counts every round's encoding.
pub fn solve_with_cuts(
    puzzle: &AnyPuzzle,
    first: FirstEncoding,
    reference: &Reference<AnySolution>,
    weights: &Weights,
    run: Sampling,
    rounds: CutRounds,
) -> Result<(SolveOutcome, Encoding), SolveError> {
    let Sampling {
        sampler,
        control,
        on_first_valid,
    } = run;
    let told = std::sync::atomic::AtomicBool::new(false);
    let FirstEncoding {
        options,
        mut encoding,
        mut encode_s,
    } = first;
    let mut options = options.clone();
    let mut sample_s = 0.0;
    let mut round = 0;
    loop {
        round += 1;
        if round > 1 {
            let t0 = Instant::now();
            encoding = puzzle.encode(&options)?;
            encode_s += t0.elapsed().as_secs_f64();
        }
        let problem = Problem {
            puzzle,
            encoding: &encoding,
            reference,
        };
        let watch = on_first_valid.map(|f| (f, &told));
        let mut outcome = solve_watched(problem, weights, sampler, control, watch)?;
        sample_s += outcome.timing.sample_s;
        outcome.timing.sample_s = sample_s;
        outcome.timing.encode_s += encode_s;
        outcome.rounds = Some(round);
        outcome.cuts = Some(options.cuts.len());
        let solved = outcome.success_fraction > 0.0;
        if solved || outcome.cancelled || round >= rounds.max_rounds.max(1) {
            return Ok((outcome, encoding));
        }
        if rounds.repair
            && let Some((energy, fixed)) = repaired(puzzle, &outcome, rounds.reads)
        {
            outcome.repaired = Some(best_of(puzzle, energy, &fixed));
            return Ok((outcome, encoding));
        }
        let before = options.cuts.len();
        for verdict in outcome.outcome.rows.iter().take(rounds.reads) {
            for cut in verdict
                .decoded
                .as_ref()
                .map(|d| puzzle.cuts(d))
                .unwrap_or_default()
            {
                if !options.cuts.contains(&cut) {
                    options.cuts.push(cut);
                }
            }
        }
        if options.cuts.len() == before {
            return Ok((outcome, encoding));
        }
    }
}

/// The QUBO path's difficulty for designers: the default sampler (`auto`) on the kind's default
/// encoding at default weights, one run stopped after `budget_s` seconds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct QuboDifficulty {
    /// The sampler `auto` chose.
    pub sampler: String,
    /// Whether the encoding was presolved (the kind's default).
    pub presolve: bool,
    /// Time to a valid solution with 99 % confidence (`None`: no valid read). When the run was
    /// stopped at the budget, estimated from the reads finished by then over the whole time.
    pub tts99_s: Option<f64>,
    /// Share of reads that were valid.
    pub success_fraction: f64,
    /// Reads.
    pub num_reads: usize,
    /// Sampling wall time.
    pub sample_s: f64,
    /// The run was stopped at the budget (TTS99 is above it).
    pub stopped_at_budget: bool,
}

/// Measures `QuboDifficulty` (the CLI's `check --tts`, the editor's "Estimate TTS99").
pub fn qubo_difficulty(puzzle: &AnyPuzzle, budget_s: f64) -> Result<QuboDifficulty, SolveError> {
    let options = crate::puzzle::EncodeOptions {
        presolve: puzzle.kind().presolves_by_default(),
        ..Default::default()
    };
    let encoding = puzzle.encode(&options)?;
    let reference = puzzle.solve_classically(crate::puzzle::REFERENCE_NODE_BUDGET);
    let task = crate::samplers::Task {
        num_variables: encoding.num_variables(),
        has_target: crate::outcome::target_energy(puzzle, &encoding, &Weights::new(), &reference)
            .is_some(),
        stored: encoding.unstored().is_none(),
        marginals: puzzle.kind().has_probabilities(),
    };
    let (name, _) = crate::samplers::resolve(crate::samplers::AUTO, task);
    let sampler = crate::samplers::sampler_from_params(&name, &Default::default())?;
    let problem = Problem {
        puzzle,
        encoding: &encoding,
        reference: &reference,
    };
    // The budget: a watcher cancels the run when it is spent (or stops when the run ends).
    let control = RunControl::new();
    let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
    let watcher = {
        let control = control.clone();
        let budget = std::time::Duration::from_secs_f64(budget_s.clamp(0.0, 86_400.0));
        std::thread::spawn(move || {
            if done_rx.recv_timeout(budget).is_err() {
                control.cancel();
            }
        })
    };
    let out = solve(problem, &Weights::new(), sampler.as_ref(), &control);
    let _ = done_tx.send(());
    let _ = watcher.join();
    let out = out?;
    Ok(QuboDifficulty {
        sampler: name,
        presolve: options.presolve,
        // Stopped at the budget: estimated from the reads finished by then, the whole time
        // counted (the run says it was stopped).
        tts99_s: out.tts99_s,
        success_fraction: out.success_fraction,
        num_reads: out.num_reads,
        sample_s: out.timing.sample_s,
        stopped_at_budget: out.cancelled,
    })
}

/// Instances `generate_for_tts99` draws (seed, seed + 1, …) before it gives up.
pub const TTS99_TRIES: u64 = 40;

/// An instance whose QUBO-path difficulty fell in the range asked for.
#[derive(Clone, Debug)]
pub struct AimedInstance {
    /// The instance.
    pub puzzle: AnyPuzzle,
    /// Its measured difficulty (`QuboDifficulty`: the default sampler at default weights).
    pub difficulty: QuboDifficulty,
    /// The seed that made it.
    pub seed: u64,
    /// Instances drawn, this one included.
    pub tries: u64,
}

impl AimedInstance {
    /// The header comment the file carries: what was measured, how, and the range asked for.
    pub fn comment(&self, range: [f64; 2]) -> String {
        format!(
            "TTS99 {:.4} s with {} ({} reads, {:.0} % valid, {}), aimed at {}–{} s; seed {}",
            self.difficulty.tts99_s.unwrap_or(f64::NAN),
            self.difficulty.sampler,
            self.difficulty.num_reads,
            100.0 * self.difficulty.success_fraction,
            if self.difficulty.presolve {
                "presolved"
            } else {
                "full model"
            },
            range[0],
            range[1],
            self.seed
        )
    }
}

/// Generates `kind` from `params`, then seed + 1, seed + 2, … until an instance's TTS99 on the
/// default sampler (`qubo_difficulty`, each run stopped after twice the range's top, at least a
/// second) falls in `range`; at most `TTS99_TRIES` instances, each reported to `control`.
pub fn generate_for_tts99(
    kind: crate::puzzle::Kind,
    params: &crate::params::ParamValues,
    range: [f64; 2],
    control: &crate::puzzle::GenerateControl,
) -> Result<AimedInstance, String> {
    let [lo, hi] = range;
    if !(lo.is_finite() && hi.is_finite() && 0.0 <= lo && lo <= hi && hi <= 3600.0) {
        return Err(format!(
            "a TTS99 range of {lo}:{hi} s: two numbers 0 ≤ A ≤ B ≤ 3600"
        ));
    }
    let base = params.get("seed").and_then(|v| v.as_u64()).unwrap_or(1);
    let budget_s = (2.0 * hi).clamp(1.0, 7200.0);
    // Each try's TTS99 (None: not finished within the budget).
    let mut measured: Vec<Option<f64>> = Vec::new();
    for t in 0..TTS99_TRIES {
        control
            .next_try(t, TTS99_TRIES)
            .map_err(|e| e.to_string())?;
        let seed = base.wrapping_add(t);
        let mut p = params.clone();
        p.insert("seed".into(), seed.into());
        // The kind's own search (a band, no guess) runs under its own control; this one
        // counts instances.
        let puzzle = kind.generate(&p).map_err(|e| e.to_string())?;
        let difficulty = qubo_difficulty(&puzzle, budget_s).map_err(|e| e.to_string())?;
        // Only a run that finished counts: a stopped one's estimate is not a measurement.
        match difficulty.tts99_s.filter(|_| !difficulty.stopped_at_budget) {
            Some(tts) if (lo..=hi).contains(&tts) => {
                return Ok(AimedInstance {
                    puzzle,
                    difficulty,
                    seed,
                    tries: t + 1,
                });
            }
            Some(tts) => measured.push(Some(tts)),
            None => measured.push(None),
        }
    }
    Err(aim_missed(&measured, [lo, hi], base, budget_s))
}

/// Why no instance fitted a TTS99 range: one line that says which way they missed and what
/// range would fit, then (after a line break) every try's figure for whoever wants them.
fn aim_missed(measured: &[Option<f64>], [lo, hi]: [f64; 2], base: u64, budget_s: f64) -> String {
    let mut finished: Vec<f64> = measured.iter().flatten().copied().collect();
    finished.sort_by(f64::total_cmp);
    let faster = finished.iter().filter(|&&t| t < lo).count();
    let slower = measured.len() - faster;
    let tries = measured.len();
    let last = base.wrapping_add(tries.saturating_sub(1) as u64);
    let way = match (faster, slower) {
        (_, 0) => format!("all {tries} were faster than {lo} s"),
        (0, _) => format!("all {tries} were slower than {hi} s"),
        _ => format!("{faster} faster than {lo} s, {slower} slower than {hi} s"),
    };
    let hint = match finished.get(finished.len() / 2) {
        Some(m) => format!("; their median is {m:.3} s, so a range around it fits these settings"),
        None => format!("; none finished within {budget_s:.0} s"),
    };
    let figures: Vec<String> = measured
        .iter()
        .map(|t| t.map_or(format!(">{budget_s:.0}"), |t| format!("{t:.3}")))
        .collect();
    format!(
        "no instance with TTS99 in {lo}–{hi} s (seeds {base}…{last}): {way}{hint}\n\
         measured TTS99 per seed, in seconds: {}",
        figures.join(", ")
    )
}
