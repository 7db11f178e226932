//! Weight sweeps: sample a puzzle at several values of one penalty weight (or on a grid of two)
//! and say, per point, what a user tuning weights needs to know: how often reads are valid (with
//! a 95 % interval), how often they reach the ground, the time to a valid solution with 99 %
//! confidence, which constraint groups break, and whether the weights let an invalid state win
//! ("penalty too weak": an invalid read whose energy is at or below a valid solution's, kept as
//! a witness). The GUI's sweep panel and the CLI's `sweep` and `tune` commands all call `run`.
//!
//! Here: the points and their evaluation (`run`); `suggest.rs` the weight search, `report.rs`
//! the best point, CSV and charts.
//!
//! Invariants: a sweep re-weights the one encoding it is given (never re-encodes) and reuses one
//! classical reference; "penalty too weak" is decided against the energy of a valid solution at
//! that point's weights (`Encoding::satisfied_energy`), never against other samples.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::qubo::{Encoding, QuboError, Weights};
use crate::sampler::{RunControl, SampleError, Sampler};
use crate::solve::{Problem, SolveError};
use stopping::{PointWork, Runner};

mod axis;
mod report;
mod setup;
mod stopping;
mod suggest;

pub use axis::{
    Axis, ParamAxis, category_values, numeric_values, param_starting_range, weight_starting_range,
};
pub use report::{
    AxisLook, SweepChart, best_point, chart, plot, plot_broken, plot_suggestion, to_csv,
};
pub use setup::{SweepSetup, TuneSetup};
pub use stopping::{
    DEFAULT_BUDGET_FACTOR, DEFAULT_CI_WIDTH, DEFAULT_MIN_BUDGET_S, DEFAULT_TTS_RATIO, StopReason,
    StopRule,
};
pub use suggest::{Suggestion, TuneEffort, suggest};

/// An invalid read at or below a valid solution's energy: proof that the weights are too weak.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Witness {
    /// Its energy.
    pub energy: f64,
    /// The read, one character 0/1 per variable of the encoding.
    pub sample: String,
    /// The constraint groups it breaks (their labels, at most `MAX_WITNESS_LABELS`).
    pub broken: Vec<String>,
    /// What the referee found wrong with its decoded solution (at most `MAX_WITNESS_LABELS`).
    pub violations: Vec<String>,
}

/// At most this many labels are kept in a witness's lists.
const MAX_WITNESS_LABELS: usize = 50;

/// One point's figures (pooled over its repeats).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepPoint {
    /// Every weight's value at this point (the swept ones and the fixed ones).
    pub weights: BTreeMap<String, f64>,
    /// The swept weight's value.
    pub value: f64,
    /// The second swept weight's value (two-weight sweeps).
    pub value2: Option<f64>,
    /// The sampler parameters a parameter axis set at this point (a category by its word).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub params: BTreeMap<String, serde_json::Value>,
    /// Reads over all repeats.
    pub reads: usize,
    /// Share of reads decoding to a valid solution.
    pub success_fraction: f64,
    /// Wilson 95 % interval of that share.
    pub success_ci95: [f64; 2],
    /// Independent trials and those with a valid read, when they are not the reads: a
    /// population's run is one trial (`SampleInfo::one_trial`). TTS99 and the stopping rule
    /// count these.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trials: Option<[usize; 2]>,
    /// Share of reads at the ground energy (when known at this weight).
    pub ground_fraction: Option<f64>,
    /// Time to a valid solution with 99 % confidence (`None` when no read was valid).
    pub tts99_s: Option<f64>,
    /// TTS99 at the ends of the valid share's 95 % interval (the upper end is `None` when
    /// the interval reaches 0).
    #[serde(default)]
    pub tts99_ci95: [Option<f64>; 2],
    /// TTS99 in sweeps: the sampler's sweeps per read (times its replicas or Trotter slices,
    /// tempering's and SQA's copies of the model) times the reads needed for 99 % (a
    /// machine-independent cost, as annealing studies plot it; samplers with `num_sweeps`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tts99_sweeps: Option<f64>,
    /// Mean energy over reads (NaN, written as null, when the point has none).
    #[serde(deserialize_with = "null_as_nan")]
    pub mean_energy: f64,
    /// Lowest energy sampled (likewise).
    #[serde(deserialize_with = "null_as_nan")]
    pub min_energy: f64,
    /// A valid solution's energy at these weights (when the reference found one).
    pub valid_energy: Option<f64>,
    /// Mean number of broken constraint groups per read, by weight name.
    pub broken_per_read: BTreeMap<String, f64>,
    /// The best objective among the feasible reads, apart from the penalties (constrained
    /// models): with `success_fraction`, the trade-off a penalty weight buys.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_feasible_objective: Option<f64>,
    /// Whether that objective is maximised.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub maximize: bool,
    /// Whether some invalid read had energy ≤ `valid_energy` (for a model with an objective,
    /// ≤ the lowest feasible read's energy): the weights let it win.
    pub penalty_too_weak: bool,
    /// The lowest such read.
    pub witness: Option<Witness>,
    /// Sampling wall time over all repeats.
    pub sample_s: f64,
    /// Runs pooled (at most the repeats asked for: a point stops when its answer is settled).
    #[serde(default)]
    pub runs: usize,
    /// Why the point stopped measuring (see `StopRule`).
    #[serde(default)]
    pub stop: StopReason,
    /// Threads each run used (points run side by side, so TTS99 is per this many cores).
    #[serde(default)]
    pub threads: usize,
}

/// A number that JSON wrote as null (serde_json writes NaN so) read back as NaN.
fn null_as_nan<'de, D: serde::Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::NAN))
}

/// What a sweep point is judged by, for heatmaps and `tune`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    /// Time to a valid solution with 99 % confidence (lower is better).
    Tts99,
    /// The same in sweeps, the sampler's `num_sweeps` per read (lower is better): the
    /// machine-independent cost a sweep over `num_sweeps` is judged by.
    Tts99Sweeps,
    /// Share of valid reads (higher is better).
    Valid,
    /// Penalty too weak: 1 when flagged, else 0.
    Weak,
    /// The best feasible objective (constrained models; better in the model's direction).
    Objective,
}

impl Metric {
    /// Every metric, in the order menus list them.
    pub const ALL: [Metric; 5] = [
        Metric::Tts99,
        Metric::Tts99Sweeps,
        Metric::Valid,
        Metric::Weak,
        Metric::Objective,
    ];

    /// Whether it is a time to solution (a point must then know its TTS99, not only its share).
    pub fn is_time(self) -> bool {
        matches!(self, Metric::Tts99 | Metric::Tts99Sweeps)
    }

    /// The word the CLI and JSON use.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Tts99 => "tts99",
            Metric::Tts99Sweeps => "tts99_sweeps",
            Metric::Valid => "valid",
            Metric::Weak => "weak",
            Metric::Objective => "objective",
        }
    }

    /// What the metric says, for titles and legends.
    pub fn title(self) -> &'static str {
        match self {
            Metric::Tts99 => "TTS99 (s, lower is better)",
            Metric::Tts99Sweeps => "TTS99 in sweeps (lower is better)",
            Metric::Valid => "valid fraction",
            Metric::Weak => "penalty too weak (1 = an invalid read wins)",
            Metric::Objective => "best feasible objective",
        }
    }

    /// Whether lower values are better (the times to solution).
    pub fn lower_is_better(self) -> bool {
        matches!(self, Metric::Tts99 | Metric::Tts99Sweeps)
    }

    /// The point's value of this metric with its 95 % interval, for the times to solution
    /// (`None` at an end the interval leaves undefined).
    pub fn interval(self, p: &SweepPoint) -> Option<[Option<f64>; 2]> {
        let scale = match self {
            Metric::Tts99 => 1.0,
            // The same reads per 99 %, in sweeps instead of seconds.
            Metric::Tts99Sweeps => p.tts99_sweeps? / p.tts99_s?,
            _ => return None,
        };
        Some(p.tts99_ci95.map(|t| t.map(|t| t * scale)))
    }

    /// From its word.
    pub fn parse(word: &str) -> Option<Metric> {
        Metric::ALL.into_iter().find(|m| m.name() == word)
    }

    /// The point's value of this metric (`None`: TTS99 with no valid read).
    pub fn of(self, p: &SweepPoint) -> Option<f64> {
        match self {
            Metric::Tts99 => p.tts99_s,
            Metric::Tts99Sweeps => p.tts99_sweeps,
            Metric::Valid => Some(p.success_fraction),
            Metric::Weak => Some(if p.penalty_too_weak { 1.0 } else { 0.0 }),
            Metric::Objective => p.best_feasible_objective,
        }
    }
}

/// Why a sweep could not run.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SweepError {
    /// The swept weight is not one of the encoding's.
    #[error("unknown weight '{name}' (this model's weights: {known})")]
    UnknownWeight {
        /// The name asked for.
        name: String,
        /// The encoding's weights.
        known: String,
    },
    /// The swept weight scales no term of this encoding: sweeping it would plot noise.
    #[error(
        "weight '{0}' has no terms in this encoding (presolve removes them when the givens \
         decide everything they touch): sweeping it changes nothing"
    )]
    NoTerms(String),
    /// No weight of the encoding scales a term: nothing to tune.
    #[error(
        "no weight has terms in this encoding ('{0}'; presolve removes them when the givens \
         decide everything they touch): there is nothing to tune"
    )]
    NothingToTune(String),
    /// A weight value the encoding refuses (e.g. not finite).
    #[error(transparent)]
    Qubo(#[from] QuboError),
    /// A step count out of range.
    #[error("a sweep takes 1 to {MAX_SWEEP_STEPS} values, not {0}")]
    Steps(usize),
    /// Too many points or repeats in all.
    #[error("{0}")]
    TooLarge(String),
    /// An end of the range is NaN or infinite.
    #[error("the {name} value of the sweep is {value}; it must be a finite number")]
    NotFinite {
        /// `first` or `last`.
        name: &'static str,
        /// The value.
        value: f64,
    },
    /// A range that would measure one value several times, ignore an end, or use weights
    /// below f64's normal range.
    #[error("{0}")]
    Range(String),
    /// A point's sampling failed.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// An axis that cannot be swept, or a value it cannot take.
    #[error("{0}")]
    Axis(String),
    /// A point failed: which weights it had, and why.
    #[error("at {weights}: {source}")]
    AtPoint {
        /// The point's weights, `name=value` each.
        weights: String,
        /// What went wrong there.
        source: Box<SweepError>,
    },
    /// Cancelled before anything was measured.
    #[error("cancelled before the first point was measured")]
    Cancelled,
    /// The sampler could not be rebuilt with another seed for a repeat.
    #[error("cannot reseed the sampler for a repeat: {0}")]
    Reseed(String),
}

/// Most values one swept weight takes (each is a full sampling run).
pub const MAX_SWEEP_STEPS: usize = 1000;
/// Most points (values × values2) of one sweep.
pub const MAX_SWEEP_POINTS: usize = 10_000;
/// Most repeats per point.
pub const MAX_REPEATS: usize = 1000;
/// Most sampling runs of one sweep (points × repeats: each is a full run of the sampler).
pub const MAX_SWEEP_RUNS: usize = 100_000;

/// `steps` values from `from` to `to` inclusive (one value when steps = 1); both ends finite and
/// 1 ≤ steps ≤ `MAX_SWEEP_STEPS`.
pub fn values(from: f64, to: f64, steps: usize) -> Result<Vec<f64>, SweepError> {
    if !(1..=MAX_SWEEP_STEPS).contains(&steps) {
        return Err(SweepError::Steps(steps));
    }
    for (name, v) in [("first", from), ("last", to)] {
        if !v.is_finite() {
            return Err(SweepError::NotFinite { name, value: v });
        }
        if v != 0.0 && v.abs() < f64::MIN_POSITIVE {
            return Err(SweepError::Range(format!(
                "the {name} value of the sweep, {v:e}, is below f64's normal range: weights \
                 that small are indistinguishable from 0"
            )));
        }
    }
    if steps >= 2 && from == to {
        return Err(SweepError::Range(format!(
            "the sweep runs from {from} to {to}: {steps} steps would measure one value {steps} \
             times (widen the range, or sweep 1 step)"
        )));
    }
    if steps == 1 && from != to {
        return Err(SweepError::Range(format!(
            "one step measures only the first value, {from}; the last, {to}, would be \
             ignored (give 2 or more steps, or the same value twice)"
        )));
    }
    Ok(match steps {
        1 => vec![from],
        k => (0..k)
            // Weighted so that no step overflows: -1e308 to 1e308 has no finite width.
            .map(|i| {
                let t = i as f64 / (k - 1) as f64;
                from * (1.0 - t) + to * t
            })
            .collect(),
    })
}

/// What to sweep: one weight (or two, on a grid) of an encoded puzzle, the others fixed.
pub struct SweepSpec<'a> {
    /// The encoded puzzle and its reference.
    pub problem: Problem<'a>,
    /// The other weights (unset ones take their defaults).
    pub base: &'a Weights,
    /// What to sweep: a weight or a sampler parameter.
    pub axis: Axis<'a>,
    /// Its values (a category's index for a word, switch or set parameter).
    pub values: &'a [f64],
    /// A second axis and its values: every pair is a point (`values` outer).
    pub second: Option<(Axis<'a>, &'a [f64])>,
    /// Most runs per point, each with its own seed (1: one run).
    pub repeats: usize,
    /// When a point stops before its last run.
    pub stop: StopRule,
    /// What the points are judged by (TTS99 asks the stop rule for a known time).
    pub metric: Metric,
}

impl SweepSpec<'_> {
    /// Points the sweep has.
    pub fn num_points(&self) -> usize {
        self.values.len() * self.second.map_or(1, |(_, v)| v.len())
    }
}

/// The weights that cannot be swept or tuned in this encoding — they scale no term — each
/// with the reason in words (one pass over the groups: panels call it once per frame).
pub fn idle_weights(encoding: &Encoding, presolved: bool) -> BTreeMap<String, String> {
    // An unstored encoding keeps no terms (its structure applies every weight): none is idle.
    if encoding.unstored().is_some() {
        return BTreeMap::new();
    }
    encoding
        .terms_per_weight()
        .into_iter()
        .filter(|(_, terms)| *terms == 0)
        .map(|(name, _)| {
            let why = if presolved {
                format!("presolve removed every {name} term: this weight changes nothing now")
            } else {
                format!("no {name} term in this encoding: this weight changes nothing")
            };
            (name, why)
        })
        .collect()
}

/// Checks that `name` is a weight of `encoding` with terms to scale.
pub fn check_sweepable(encoding: &Encoding, name: &str) -> Result<(), SweepError> {
    match encoding
        .terms_per_weight()
        .into_iter()
        .find(|(n, _)| n == name)
    {
        None => Err(SweepError::UnknownWeight {
            name: name.to_string(),
            known: encoding.weight_names().join(", "),
        }),
        // Unstored encodings keep no terms: the model's structure applies every weight.
        Some((_, 0)) if encoding.unstored().is_none() => Err(SweepError::NoTerms(name.to_string())),
        Some(_) => Ok(()),
    }
}

/// Samples the puzzle at every point (`repeats` runs each); `on_point` hears about each point
/// as it is done. Stops early (returning the points done) when `control` is cancelled.
pub fn run(
    spec: &SweepSpec,
    sampler: &dyn Sampler,
    control: &RunControl,
    on_point: impl FnMut(&SweepPoint),
) -> Result<Vec<SweepPoint>, SweepError> {
    let encoding = spec.problem.encoding;
    let axes: Vec<Axis> = std::iter::once(spec.axis)
        .chain(spec.second.map(|(a, _)| a))
        .collect();
    // Per axis: the parameter it sets (`None`: a weight).
    let mut params: Vec<Option<ParamAxis>> = Vec::new();
    for axis in &axes {
        params.push(match *axis {
            Axis::Weight(w) => {
                check_sweepable(encoding, w)?;
                None
            }
            Axis::Param(name) => Some(ParamAxis::of(sampler.name(), name)?),
        });
    }
    if spec.num_points() > MAX_SWEEP_POINTS {
        return Err(SweepError::TooLarge(format!(
            "{} points, more than the {MAX_SWEEP_POINTS} a sweep takes",
            spec.num_points()
        )));
    }
    if !(1..=MAX_REPEATS).contains(&spec.repeats) {
        return Err(SweepError::TooLarge(format!(
            "{} repeats; a point takes 1 to {MAX_REPEATS}",
            spec.repeats
        )));
    }
    let runs = spec.num_points().saturating_mul(spec.repeats);
    if runs > MAX_SWEEP_RUNS {
        return Err(SweepError::TooLarge(format!(
            "{} points × {} repeats = {runs} sampling runs, more than the {MAX_SWEEP_RUNS} a sweep takes",
            spec.num_points(),
            spec.repeats
        )));
    }
    if spec.second.is_some_and(|(a2, _)| a2 == spec.axis) {
        return Err(SweepError::TooLarge(format!(
            "the second axis is '{}' again: a grid needs two different axes",
            spec.axis.name()
        )));
    }
    spec.stop.validate().map_err(SweepError::TooLarge)?;
    let samplers = (0..spec.repeats)
        .map(|r| reseeded(sampler, r))
        .collect::<Result<Vec<_>, _>>()?;
    let mut works = Vec::with_capacity(spec.num_points());
    let mut most_reads = 0;
    for &value in spec.values {
        let seconds: Vec<Option<f64>> = match spec.second {
            None => vec![None],
            Some((_, v2s)) => v2s.iter().map(|&v| Some(v)).collect(),
        };
        for value2 in seconds {
            let at = [Some(value), value2];
            let mut weights = spec.base.clone();
            let mut set_params = Vec::new();
            for ((axis, param), v) in axes.iter().zip(&params).zip(at) {
                let Some(v) = v else { continue };
                match param {
                    None => weights = weights.with(axis.name(), v)?,
                    Some(p) => set_params.push((p, v)),
                }
            }
            let mut work = PointWork::new(spec.problem, weights, value, value2);
            if !set_params.is_empty() {
                let point_error = |e: SweepError| SweepError::AtPoint {
                    weights: at_text(&axes, &params, &at),
                    source: Box::new(e),
                };
                let set = axis::point_params(sampler, &set_params).map_err(point_error)?;
                let own = (0..spec.repeats)
                    .map(|r| axis::sampler_with(sampler, &set, r))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(point_error)?;
                most_reads = most_reads.max(reads_of(own[0].as_ref()));
                work = work.with_samplers(set.into_iter().collect(), own);
            }
            works.push(work);
        }
    }
    // Points side by side, one per worker; each point's runs get the cores left to it. A
    // remote service's points go one at a time: each is a job on someone's account.
    let cores = control.threads_for(usize::MAX);
    let remote = crate::samplers::entry(sampler.name())
        .is_ok_and(|e| matches!(e.runs_on, crate::sampler::RunsOn::Service(_)));
    let workers = if remote {
        1
    } else {
        cores.min(works.len()).max(1)
    };
    check_evaluations_fit(
        most_reads.max(reads_of(sampler)),
        encoding.num_variables(),
        workers,
    )?;
    let runner = Runner {
        problem: spec.problem,
        sampler,
        reseeded: &samplers,
        stop: spec.stop,
        threads: (cores / workers).max(1),
        judged_by: spec.metric.is_time().then_some(spec.metric),
        control,
    };
    let order = stopping::coarse_first(spec.values.len(), spec.second.map_or(1, |(_, v)| v.len()));
    stopping::measure_all(&runner, works, order, workers, on_point)
}

/// A point's axis values in words (`num_sweeps=100, hint=2`), for errors.
fn at_text(axes: &[Axis], params: &[Option<ParamAxis>], at: &[Option<f64>]) -> String {
    axes.iter()
        .zip(params)
        .zip(at)
        .filter_map(|((axis, param), v)| {
            let v = (*v)?;
            let text = param
                .as_ref()
                .map_or_else(|| crate::io::number_text(v), |p| p.text(v));
            Some(format!("{}={text}", axis.name()))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The reads a sampler's runs return (0 when it has no `num_reads`).
fn reads_of(sampler: &dyn Sampler) -> usize {
    sampler
        .params()
        .get("num_reads")
        .and_then(serde_json::Value::as_u64)
        .map_or(0, |r| usize::try_from(r).unwrap_or(usize::MAX))
}

/// Refuses, before the first point, a sweep whose points side by side would referee more
/// reads than the memory budget holds: each point's run is checked alone when it ends, but
/// `workers` of them hold their reads at once (`reads`: the most any point's runs return).
fn check_evaluations_fit(
    reads: usize,
    num_variables: usize,
    workers: usize,
) -> Result<(), SweepError> {
    if reads == 0 {
        return Ok(());
    }
    let bytes = crate::outcome::Outcome::evaluation_bytes(reads, num_variables)
        .saturating_mul(workers as u64);
    crate::budget::check_memory(
        || {
            format!(
                "refereeing {reads} reads of {num_variables} variables at each of {workers} \
                 points measured side by side"
            )
        },
        bytes,
    )
    .map_err(|e| SweepError::Solve(SolveError::Budget(e)))
}

/// The sampler for repeat `r`: the given one for r = 0 (or when it draws its own seed each
/// run), else the same sampler with seed + r.
fn reseeded(sampler: &dyn Sampler, r: usize) -> Result<Option<Box<dyn Sampler>>, SweepError> {
    if r == 0 {
        return Ok(None);
    }
    let params = sampler.params();
    let Some(object) = params.as_object() else {
        return Ok(None);
    };
    let Some(seed) = object.get("seed").and_then(serde_json::Value::as_u64) else {
        // No fixed seed: every run draws its own, so repeats differ already.
        return Ok(None);
    };
    let mut values: crate::params::ParamValues = object
        .iter()
        .filter(|(_, v)| !v.is_null())
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    values.insert("seed".into(), seed.wrapping_add(r as u64).into());
    crate::samplers::sampler_from_params(sampler.name(), &values)
        .map(Some)
        .map_err(|e: SampleError| SweepError::Reseed(e.to_string()))
}

/// Reads of one point's repeats, summed.
struct Pool {
    reads: usize,
    valid: usize,
    /// Independent trials and those with a valid read: reads, except that a run whose reads
    /// are one population (`SampleInfo::one_trial`) is one trial (TTS99 counts trials).
    trials: usize,
    trial_hits: usize,
    ground: usize,
    ground_known: bool,
    energy_sum: f64,
    min_energy: f64,
    sample_s: f64,
    broken: BTreeMap<String, f64>,
    valid_energy: Option<f64>,
    witness: Option<Witness>,
    /// The model has an objective: the lowest feasible read's energy stands in for
    /// `valid_energy` (no energy is known for a feasible state ahead).
    objective_model: bool,
    lowest_feasible: Option<f64>,
    best_objective: Option<crate::puzzle::ObjectiveValue>,
}

impl Pool {
    fn new(problem: Problem, weights: &Weights) -> Pool {
        let valid_energy = problem
            .reference
            .solution()
            .and_then(|_| problem.encoding.satisfied_energy(weights).ok());
        Pool {
            reads: 0,
            valid: 0,
            trials: 0,
            trial_hits: 0,
            ground: 0,
            ground_known: true,
            energy_sum: 0.0,
            min_energy: f64::INFINITY,
            sample_s: 0.0,
            broken: BTreeMap::new(),
            valid_energy,
            witness: None,
            objective_model: !problem.encoding.ground_from_groups(),
            lowest_feasible: None,
            best_objective: None,
        }
    }

    fn add(&mut self, encoding: &Encoding, out: &crate::solve::SolveOutcome) {
        let o = &out.outcome;
        let reads = o.num_reads();
        self.reads += reads;
        self.ground_known &= o.ground_energy.is_some() && o.ground_resolved;
        self.sample_s += out.timing.sample_s;
        // Energies resolve to the model's own tolerance, at least 1e-9 relative.
        let tolerance = |e: f64| o.energy_tolerance.max(crate::qubo::running_tolerance(e));
        if self.objective_model {
            // Rows come lowest energy first: the first feasible one is this run's lowest.
            let lowest = o
                .samples
                .rows
                .iter()
                .zip(&o.rows)
                .find(|(_, v)| v.valid == Some(true))
                .map(|(r, _)| r.energy);
            if let Some(e) = lowest {
                self.lowest_feasible = Some(self.lowest_feasible.map_or(e, |l| l.min(e)));
            }
            if let Some(b) = o.best_feasible_objective() {
                self.best_objective = Some(match self.best_objective {
                    Some(old) if !b.better_than(&old) => old,
                    _ => b,
                });
            }
        }
        let valid_energy = self.valid_energy.or(self.lowest_feasible);
        let valid_before = self.valid;
        for (row, verdict) in o.samples.rows.iter().zip(&o.rows) {
            let n = row.num_occurrences as f64;
            if verdict.valid == Some(true) {
                self.valid += row.num_occurrences;
            }
            if o.ground_energy
                .is_some_and(|g| crate::qubo::energy_matches(row.energy, g, o.energy_tolerance))
            {
                self.ground += row.num_occurrences;
            }
            self.energy_sum += row.energy * n;
            self.min_energy = self.min_energy.min(row.energy);
            // The chart counts every violated group, enforced or not: at weight 0 it shows what
            // the missing penalty lets through.
            for b in verdict.broken.iter().chain(&verdict.unenforced) {
                *self.broken.entry(b.weight.clone()).or_default() += n;
            }
            let beats_valid = valid_energy.is_some_and(|v| row.energy <= v + tolerance(v));
            if verdict.valid == Some(false)
                && beats_valid
                && self.witness.as_ref().is_none_or(|w| row.energy < w.energy)
            {
                self.witness = Some(Witness {
                    energy: row.energy,
                    sample: row.sample.iter().map(|&b| char::from(b'0' + b)).collect(),
                    broken: verdict
                        .broken
                        .iter()
                        .chain(&verdict.unenforced)
                        .take(MAX_WITNESS_LABELS)
                        .map(|b| b.constraint.clone())
                        .collect(),
                    violations: verdict
                        .violations
                        .iter()
                        .take(MAX_WITNESS_LABELS)
                        .map(|v| format!("{}: {}", v.constraint, v.detail))
                        .collect(),
                });
            }
        }
        let hits = self.valid - valid_before;
        if o.samples.info.one_trial {
            self.trials += (reads > 0) as usize;
            self.trial_hits += (hits > 0) as usize;
        } else {
            self.trials += reads;
            self.trial_hits += hits;
        }
        // Weights with no broken group still get a zero, so every point lists every weight.
        for name in encoding.weight_names() {
            self.broken.entry(name.to_string()).or_default();
        }
    }

    fn point(
        self,
        encoding: &Encoding,
        weights: &Weights,
        value: f64,
        value2: Option<f64>,
        sweeps_per_read: Option<f64>,
    ) -> SweepPoint {
        let n = self.reads.max(1) as f64;
        let p = self.valid as f64 / n;
        let ci = wilson_interval(self.valid, self.reads);
        // Times to solution count trials (reads, or whole runs of a population).
        let trials = self.trials.max(1) as f64;
        let p_trial = self.trial_hits as f64 / trials;
        let t_read = self.sample_s / trials;
        let ci_trial = wilson_interval(self.trial_hits, self.trials);
        let known = |cost: f64| (self.trials > 0).then(|| tts99(cost, p_trial)).flatten();
        SweepPoint {
            weights: encoding
                .weight_specs()
                .iter()
                .map(|s| (s.name.clone(), weights.get(&s.name).unwrap_or(s.default)))
                .collect(),
            value,
            value2,
            params: BTreeMap::new(),
            reads: self.reads,
            success_fraction: p,
            success_ci95: ci,
            trials: (self.trials != self.reads).then_some([self.trials, self.trial_hits]),
            ground_fraction: self.ground_known.then(|| self.ground as f64 / n),
            tts99_s: known(t_read),
            // A higher valid share is a shorter time: the interval's upper end gives the
            // lower TTS99.
            tts99_ci95: [
                known(t_read).and(tts99(t_read, ci_trial[1])),
                known(t_read).and(tts99(t_read, ci_trial[0])),
            ],
            tts99_sweeps: sweeps_per_read.and_then(|s| known(s * n / trials)),
            mean_energy: if self.reads == 0 {
                f64::NAN
            } else {
                self.energy_sum / n
            },
            min_energy: if self.reads == 0 {
                f64::NAN
            } else {
                self.min_energy
            },
            valid_energy: self.valid_energy,
            best_feasible_objective: self.best_objective.map(|o| o.value),
            maximize: self.best_objective.is_some_and(|o| o.maximize),
            broken_per_read: self.broken.into_iter().map(|(k, v)| (k, v / n)).collect(),
            penalty_too_weak: self.witness.is_some(),
            witness: self.witness,
            sample_s: self.sample_s,
            runs: 0,
            stop: StopReason::Runs,
            threads: 0,
        }
    }
}

/// Time to a valid read with 99 % confidence, for runs costing `per_read` each with a valid
/// share `p`: `per_read` · ln 0.01 / ln(1 − p), at least one read (from p = 0.99 on: less
/// than a read is not a run); `None` when p = 0.
pub fn tts99(per_read: f64, p: f64) -> Option<f64> {
    match p {
        p if p <= 0.0 => None,
        p if p >= 0.99 => Some(per_read),
        // ln_1p keeps a tiny share's logarithm (1 − 1e-18 rounds to 1).
        p => Some(per_read * (0.01f64.ln() / (-p).ln_1p()).max(1.0)),
    }
}

/// The Wilson score interval (95 %) of `hits` successes in `trials`: honest at 0 and 1, where
/// the normal approximation collapses to a point.
pub fn wilson_interval(hits: usize, trials: usize) -> [f64; 2] {
    if trials == 0 {
        return [0.0, 1.0];
    }
    let z = 1.959_963_984_540_054_f64;
    let n = trials as f64;
    let p = hits as f64 / n;
    let denominator = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denominator;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denominator;
    // Exact at the ends: none valid has a low end of 0 (rounding left 1e-18, a finite TTS99).
    let lo = if hits == 0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let hi = if hits == trials {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    [lo, hi]
}

#[cfg(test)]
mod tests;
