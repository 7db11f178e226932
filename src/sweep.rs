//! Weight sweeps: sample a puzzle at several values of one penalty weight (or on a grid of two)
//! and say, per point, what a user tuning weights needs to know: how often reads are valid (with
//! a 95 % interval), how often they reach the ground, the time to a valid solution with 99 %
//! confidence, which constraint groups break, and whether the weights let an invalid state win
//! ("penalty too weak": an invalid read whose energy is at or below a valid solution's, kept as
//! a witness). The GUI's sweep panel and the CLI's `sweep` and `tune` commands all call `run`.
//!
//! Invariants: a sweep re-weights the one encoding it is given (never re-encodes) and reuses one
//! classical reference; "penalty too weak" is decided against the energy of a valid solution at
//! that point's weights (`Encoding::satisfied_energy`), never against other samples.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::qubo::{Encoding, QuboError, Weights};
use crate::render::Drawing;
use crate::sampler::{RunControl, SampleError, Sampler};
use crate::solve::{Problem, SolveError, solve};

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
    /// Reads over all repeats.
    pub reads: usize,
    /// Share of reads decoding to a valid solution.
    pub success_fraction: f64,
    /// Wilson 95 % interval of that share.
    pub success_ci95: [f64; 2],
    /// Share of reads at the ground energy (when known at this weight).
    pub ground_fraction: Option<f64>,
    /// Time to a valid solution with 99 % confidence (`None` when no read was valid).
    pub tts99_s: Option<f64>,
    /// Mean energy over reads.
    pub mean_energy: f64,
    /// Lowest energy sampled.
    pub min_energy: f64,
    /// A valid solution's energy at these weights (when the reference found one).
    pub valid_energy: Option<f64>,
    /// Mean number of broken constraint groups per read, by weight name.
    pub broken_per_read: BTreeMap<String, f64>,
    /// Whether some invalid read had energy ≤ `valid_energy`: the weights let it win.
    pub penalty_too_weak: bool,
    /// The lowest such read.
    pub witness: Option<Witness>,
    /// Sampling wall time over all repeats.
    pub sample_s: f64,
}

/// What a sweep point is judged by, for heatmaps and `tune`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    /// Time to a valid solution with 99 % confidence (lower is better).
    Tts99,
    /// Share of valid reads (higher is better).
    Valid,
    /// Penalty too weak: 1 when flagged, else 0.
    Weak,
}

impl Metric {
    /// Every metric, in the order menus list them.
    pub const ALL: [Metric; 3] = [Metric::Tts99, Metric::Valid, Metric::Weak];

    /// The word the CLI and JSON use.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Tts99 => "tts99",
            Metric::Valid => "valid",
            Metric::Weak => "weak",
        }
    }

    /// What the metric says, for titles and legends.
    pub fn title(self) -> &'static str {
        match self {
            Metric::Tts99 => "TTS99 (s, lower is better)",
            Metric::Valid => "valid fraction",
            Metric::Weak => "penalty too weak (1 = an invalid read wins)",
        }
    }

    /// From its word.
    pub fn parse(word: &str) -> Option<Metric> {
        Metric::ALL.into_iter().find(|m| m.name() == word)
    }

    /// The point's value of this metric (`None`: TTS99 with no valid read).
    pub fn of(self, p: &SweepPoint) -> Option<f64> {
        match self {
            Metric::Tts99 => p.tts99_s,
            Metric::Valid => Some(p.success_fraction),
            Metric::Weak => Some(if p.penalty_too_weak { 1.0 } else { 0.0 }),
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
    /// A point's sampling failed.
    #[error(transparent)]
    Solve(#[from] SolveError),
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
    }
    Ok(match steps {
        1 => vec![from],
        k => (0..k)
            .map(|i| from + (to - from) * i as f64 / (k - 1) as f64)
            .collect(),
    })
}

/// What to sweep: one weight (or two, on a grid) of an encoded puzzle, the others fixed.
pub struct SweepSpec<'a> {
    /// The encoded puzzle and its reference.
    pub problem: Problem<'a>,
    /// The other weights (unset ones take their defaults).
    pub base: &'a Weights,
    /// The weight to sweep.
    pub weight: &'a str,
    /// Its values.
    pub values: &'a [f64],
    /// A second weight and its values: every pair is a point (`values` outer).
    pub second: Option<(&'a str, &'a [f64])>,
    /// Runs per point, each with its own seed (1: one run).
    pub repeats: usize,
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
        Some((_, 0)) => Err(SweepError::NoTerms(name.to_string())),
        Some(_) => Ok(()),
    }
}

/// Samples the puzzle at every point (`repeats` runs each); `on_point` hears about each point
/// as it is done. Stops early (returning the points done) when `control` is cancelled.
pub fn run(
    spec: &SweepSpec,
    sampler: &dyn Sampler,
    control: &RunControl,
    mut on_point: impl FnMut(&SweepPoint),
) -> Result<Vec<SweepPoint>, SweepError> {
    let encoding = spec.problem.encoding;
    check_sweepable(encoding, spec.weight)?;
    if let Some((w2, _)) = spec.second {
        check_sweepable(encoding, w2)?;
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
    let samplers = (0..spec.repeats)
        .map(|r| reseeded(sampler, r))
        .collect::<Result<Vec<_>, _>>()?;
    let pairs: Vec<(f64, Option<f64>)> = spec
        .values
        .iter()
        .flat_map(|&v| match spec.second {
            None => vec![(v, None)],
            Some((_, v2s)) => v2s.iter().map(|&v2| (v, Some(v2))).collect(),
        })
        .collect();
    let mut points = Vec::with_capacity(pairs.len());
    for (value, value2) in pairs {
        let mut weights = spec.base.clone().with(spec.weight, value)?;
        if let (Some((w2, _)), Some(v2)) = (spec.second, value2) {
            weights = weights.with(w2, v2)?;
        }
        let Some(point) = evaluate(
            spec.problem,
            &weights,
            sampler,
            &samplers,
            control,
            value,
            value2,
        )?
        else {
            break;
        };
        on_point(&point);
        points.push(point);
    }
    Ok(points)
}

/// One point: every repeat's run at `weights`, pooled; `None` when cancelled.
fn evaluate(
    problem: Problem,
    weights: &Weights,
    sampler: &dyn Sampler,
    reseeded: &[Option<Box<dyn Sampler>>],
    control: &RunControl,
    value: f64,
    value2: Option<f64>,
) -> Result<Option<SweepPoint>, SweepError> {
    let mut pool = Pool::new(problem, weights);
    for s in reseeded {
        if control.is_cancelled() {
            return Ok(None);
        }
        let sampler: &dyn Sampler = s.as_deref().unwrap_or(sampler);
        let out = solve(problem, weights, sampler, control)?;
        if out.cancelled {
            return Ok(None);
        }
        pool.add(problem.encoding, &out);
    }
    Ok(Some(pool.point(problem.encoding, weights, value, value2)))
}

/// A suggestion's search: every point it tried, in order, and which it moved to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Suggestion {
    /// The best point found (lowest TTS99; among points with no valid read, the highest valid
    /// fraction is no help, so the start is kept). Never a point flagged "penalty too weak".
    pub best: SweepPoint,
    /// Every point tried, in order.
    pub path: Vec<SweepPoint>,
    /// `accepted[k]`: the search moved to `path[k]`.
    pub accepted: Vec<bool>,
    /// Why the search stopped (converged, budget, cancelled).
    pub stopped: String,
}

/// How good a point is for `suggest`: lower is better (TTS99, then fewer invalid reads).
fn tuning_score(p: &SweepPoint) -> (f64, f64) {
    if p.penalty_too_weak {
        return (f64::INFINITY, f64::INFINITY);
    }
    (p.tts99_s.unwrap_or(f64::INFINITY), -p.success_fraction)
}

/// Suggests weights: a coordinate search on TTS99 over every weight with terms, multiplying one
/// weight at a time by a factor (2, then √2, …) up or down and keeping a move only when TTS99
/// improves — confirmed by a second measurement of both points with fresh seeds — and the point
/// is not "penalty too weak", until the factor falls below 1.1, the `budget` runs out or
/// `control` is cancelled. `on_point` hears about every point tried.
pub fn suggest(
    problem: Problem,
    base: &Weights,
    sampler: &dyn Sampler,
    repeats: usize,
    budget: std::time::Duration,
    control: &RunControl,
    mut on_point: impl FnMut(&SweepPoint, bool),
) -> Result<Suggestion, SweepError> {
    let t0 = std::time::Instant::now();
    let encoding = problem.encoding;
    let names: Vec<String> = encoding
        .terms_per_weight()
        .into_iter()
        .filter(|(_, terms)| *terms > 0)
        .map(|(n, _)| n)
        .collect();
    let repeats = repeats.clamp(1, MAX_REPEATS);
    let samplers = (0..repeats)
        .map(|r| reseeded(sampler, r))
        .collect::<Result<Vec<_>, _>>()?;
    // Fresh seeds for confirming a move: a point that looked better once may have been lucky.
    let confirmers = (repeats..2 * repeats)
        .map(|r| reseeded(sampler, r))
        .collect::<Result<Vec<_>, _>>()?;
    let resolved = |w: &Weights, name: &str| {
        w.get(name).unwrap_or_else(|| {
            encoding
                .weight_specs()
                .iter()
                .find(|s| s.name == name)
                .map_or(1.0, |s| s.default)
        })
    };
    let (mut path, mut accepted) = (Vec::new(), Vec::new());
    let Some(start) = evaluate(problem, base, sampler, &samplers, control, 0.0, None)? else {
        return Err(SweepError::Cancelled);
    };
    on_point(&start, true);
    let mut current = (base.clone(), start.clone());
    path.push(start);
    accepted.push(true);
    let mut factor: f64 = 2.0;
    let stopped = 'search: loop {
        let mut moved = false;
        for name in &names {
            for up in [true, false] {
                if control.is_cancelled() {
                    break 'search "cancelled".to_string();
                }
                if t0.elapsed() >= budget {
                    break 'search format!("the {:.0} s budget ran out", budget.as_secs_f64());
                }
                let v = resolved(&current.0, name);
                let next = if v == 0.0 {
                    if up { 0.5 } else { continue }
                } else if up {
                    v * factor
                } else {
                    v / factor
                };
                let weights = current.0.clone().with(name, next)?;
                let Some(point) =
                    evaluate(problem, &weights, sampler, &samplers, control, next, None)?
                else {
                    break 'search "cancelled".to_string();
                };
                let mut better = tuning_score(&point) < tuning_score(&current.1);
                let mut kept = point.clone();
                if better {
                    // Confirm with fresh seeds, both sides (the winner's curse: the current
                    // point's own figure was the best of its draws, and so is this one's).
                    let again = |w: &Weights| {
                        evaluate(problem, w, sampler, &confirmers, control, next, None)
                    };
                    match (again(&weights)?, again(&current.0)?) {
                        (Some(new), Some(old)) => {
                            better = tuning_score(&new) < tuning_score(&old);
                            kept = new;
                        }
                        _ => break 'search "cancelled".to_string(),
                    }
                }
                on_point(&point, better);
                path.push(point);
                accepted.push(better);
                if better {
                    current = (weights, kept);
                    moved = true;
                    break; // this weight moved; on to the next one
                }
            }
        }
        if !moved {
            factor = factor.sqrt();
            if factor < 1.1 {
                break "converged (no factor above 1.1 improves TTS99)".to_string();
            }
        }
    };
    Ok(Suggestion {
        best: current.1,
        path,
        accepted,
        stopped,
    })
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
    ground: usize,
    ground_known: bool,
    energy_sum: f64,
    min_energy: f64,
    sample_s: f64,
    broken: BTreeMap<String, f64>,
    valid_energy: Option<f64>,
    witness: Option<Witness>,
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
            ground: 0,
            ground_known: true,
            energy_sum: 0.0,
            min_energy: f64::INFINITY,
            sample_s: 0.0,
            broken: BTreeMap::new(),
            valid_energy,
            witness: None,
        }
    }

    fn add(&mut self, encoding: &Encoding, out: &crate::solve::SolveOutcome) {
        let o = &out.outcome;
        let reads = o.num_reads();
        self.reads += reads;
        self.ground_known &= o.ground_energy.is_some();
        self.sample_s += out.timing.sample_s;
        // Energies resolve to the model's own tolerance, at least 1e-9 relative.
        let tolerance = |e: f64| o.energy_tolerance.max(1e-9 * (1.0 + e.abs()));
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
            for b in &verdict.broken {
                *self.broken.entry(b.weight.clone()).or_default() += n;
            }
            let beats_valid = self
                .valid_energy
                .is_some_and(|v| row.energy <= v + tolerance(v));
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
    ) -> SweepPoint {
        let n = self.reads.max(1) as f64;
        let p = self.valid as f64 / n;
        let t_read = self.sample_s / n;
        let tts99_s = match p {
            p if p <= 0.0 || self.reads == 0 => None,
            p if p >= 1.0 => Some(t_read),
            p => Some(t_read * 0.01f64.ln() / (1.0 - p).ln()),
        };
        SweepPoint {
            weights: encoding
                .weight_specs()
                .iter()
                .map(|s| (s.name.clone(), weights.get(&s.name).unwrap_or(s.default)))
                .collect(),
            value,
            value2,
            reads: self.reads,
            success_fraction: p,
            success_ci95: wilson_interval(self.valid, self.reads),
            ground_fraction: self.ground_known.then(|| self.ground as f64 / n),
            tts99_s,
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
            broken_per_read: self.broken.into_iter().map(|(k, v)| (k, v / n)).collect(),
            penalty_too_weak: self.witness.is_some(),
            witness: self.witness,
            sample_s: self.sample_s,
        }
    }
}

/// The best point by `metric` (lowest TTS99, highest valid fraction, or — for `weak` — the
/// first point not flagged with the highest valid fraction); `None` when no point qualifies.
pub fn best_point(points: &[SweepPoint], metric: Metric) -> Option<usize> {
    let score = |p: &SweepPoint| -> Option<f64> {
        match metric {
            Metric::Tts99 => p.tts99_s.map(|t| -t),
            Metric::Valid => Some(p.success_fraction),
            Metric::Weak => (!p.penalty_too_weak).then_some(p.success_fraction),
        }
    };
    let mut best: Option<(usize, f64)> = None;
    for (k, p) in points.iter().enumerate() {
        if let Some(s) = score(p)
            && best.is_none_or(|(_, b)| s > b)
        {
            best = Some((k, s));
        }
    }
    best.map(|(k, _)| k)
}

/// The points as CSV: the weights, then every metric (empty where unknown), broken groups per
/// read as `broken:NAME` columns.
pub fn to_csv(points: &[SweepPoint]) -> String {
    let weights: Vec<&String> = points
        .first()
        .map_or(Vec::new(), |p| p.weights.keys().collect());
    let groups: Vec<&String> = points
        .first()
        .map_or(Vec::new(), |p| p.broken_per_read.keys().collect());
    let mut out = String::new();
    let mut header: Vec<String> = weights.iter().map(|w| w.to_string()).collect();
    header.extend(
        [
            "reads",
            "valid_fraction",
            "valid_ci95_low",
            "valid_ci95_high",
            "ground_fraction",
            "tts99_s",
            "mean_energy",
            "min_energy",
            "valid_energy",
            "penalty_too_weak",
            "sample_s",
        ]
        .map(String::from),
    );
    header.extend(groups.iter().map(|g| format!("broken:{g}")));
    out.push_str(&header.join(","));
    out.push('\n');
    let opt = |v: Option<f64>| v.map_or(String::new(), |v| v.to_string());
    for p in points {
        let mut row: Vec<String> = weights
            .iter()
            .map(|w| opt(p.weights.get(*w).copied()))
            .collect();
        row.extend([
            p.reads.to_string(),
            p.success_fraction.to_string(),
            p.success_ci95[0].to_string(),
            p.success_ci95[1].to_string(),
            opt(p.ground_fraction),
            opt(p.tts99_s),
            p.mean_energy.to_string(),
            p.min_energy.to_string(),
            opt(p.valid_energy),
            p.penalty_too_weak.to_string(),
            p.sample_s.to_string(),
        ]);
        row.extend(
            groups
                .iter()
                .map(|g| opt(p.broken_per_read.get(*g).copied())),
        );
        out.push_str(&row.join(","));
        out.push('\n');
    }
    out
}

/// A sweep's main chart, kept (not only drawn) so the GUI can tell what a click hit.
pub enum SweepChart {
    /// One weight: fractions or TTS99 against it.
    Line(crate::render::chart::LineChart),
    /// Two weights: a heatmap of the metric.
    Heat(crate::render::chart::Heatmap),
}

impl SweepChart {
    /// The chart as a drawing.
    pub fn drawing(&self) -> Drawing {
        match self {
            SweepChart::Line(c) => c.drawing(),
            SweepChart::Heat(c) => c.drawing(),
        }
    }
}

/// The sweep's main plot (`chart`, drawn).
pub fn plot(
    points: &[SweepPoint],
    weight: &str,
    weight2: Option<&str>,
    metric: Metric,
    description: &str,
) -> Drawing {
    chart(points, weight, weight2, metric, description).drawing()
}

/// The sweep's main chart: for one weight, the valid fraction with its 95 % band, the ground
/// fraction and the "penalty too weak" flags (or TTS99, with `Metric::Tts99`); for two, a
/// heatmap of `metric` with the flagged cells outlined.
pub fn chart(
    points: &[SweepPoint],
    weight: &str,
    weight2: Option<&str>,
    metric: Metric,
    description: &str,
) -> SweepChart {
    use crate::render::chart::{Heatmap, LineChart, Series, colors};
    let flag_name = "penalty too weak".to_string();
    if let Some(w2) = weight2 {
        let mut xs: Vec<f64> = points.iter().map(|p| p.value).collect();
        let mut ys: Vec<f64> = points.iter().filter_map(|p| p.value2).collect();
        for v in [&mut xs, &mut ys] {
            v.sort_by(f64::total_cmp);
            v.dedup();
        }
        let mut cells = vec![None; xs.len() * ys.len()];
        let mut flagged = vec![false; cells.len()];
        for p in points {
            let col = xs.iter().position(|&x| x == p.value);
            let row = p.value2.and_then(|v| ys.iter().position(|&y| y == v));
            if let (Some(col), Some(row)) = (col, row) {
                cells[row * xs.len() + col] = metric.of(p);
                flagged[row * xs.len() + col] = p.penalty_too_weak;
            }
        }
        return SweepChart::Heat(Heatmap {
            title: format!("{}: {weight} × {w2} — {description}", metric.title()),
            x_label: weight.to_string(),
            y_label: w2.to_string(),
            xs,
            ys,
            cells,
            flagged,
            flag_name,
            low_is_good: metric == Metric::Tts99,
            log_scale: metric == Metric::Tts99,
            value_label: match metric {
                Metric::Tts99 => "TTS99 (s)".into(),
                m => m.name().into(),
            },
        });
    }
    let weak: Vec<&SweepPoint> = points.iter().filter(|p| p.penalty_too_weak).collect();
    if metric == Metric::Tts99 {
        return SweepChart::Line(LineChart {
            title: format!("TTS99 against {weight} — {description}"),
            x_label: weight.to_string(),
            y_label: "TTS99 (s)".into(),
            series: vec![Series {
                name: "TTS99 (no point: no valid read)".into(),
                color: colors::TTS,
                points: points
                    .iter()
                    .filter_map(|p| Some([p.value, p.tts99_s?]))
                    .collect(),
                ..Series::default()
            }],
            flags: weak
                .iter()
                .filter_map(|p| Some([p.value, p.tts99_s?]))
                .collect(),
            flag_name,
            y_range: None,
            note: String::new(),
        });
    }
    let mut series = vec![Series {
        name: "valid (95 % interval)".into(),
        color: colors::VALID,
        points: points
            .iter()
            .map(|p| [p.value, p.success_fraction])
            .collect(),
        band: points
            .iter()
            .map(|p| [p.value, p.success_ci95[0], p.success_ci95[1]])
            .collect(),
        band_color: Some(colors::VALID_BAND),
    }];
    if points.iter().any(|p| p.ground_fraction.is_some()) {
        series.push(Series {
            name: "at ground energy".into(),
            color: colors::GROUND,
            points: points
                .iter()
                .filter_map(|p| Some([p.value, p.ground_fraction?]))
                .collect(),
            ..Series::default()
        });
    }
    SweepChart::Line(LineChart {
        title: format!("Valid reads against {weight} — {description}"),
        x_label: weight.to_string(),
        y_label: "share of reads".into(),
        series,
        flags: weak.iter().map(|p| [p.value, p.success_fraction]).collect(),
        flag_name,
        y_range: Some([0.0, 1.0]),
        note: "flagged: an invalid read at or below a valid solution's energy. Valid falling \
               with nothing flagged: a penalty so strong the sampler freezes."
            .into(),
    })
}

/// A suggestion's search as a chart: TTS99 of every point `tried` (with whether the search
/// moved there), in order, and the best so far (the path the search took), with flagged points
/// marked; `stopped` says why it ended (or that it goes on).
pub fn plot_suggestion(tried: &[(SweepPoint, bool)], stopped: &str, description: &str) -> Drawing {
    use crate::render::chart::{LineChart, Series, colors};
    let mut best = f64::INFINITY;
    let mut so_far = Vec::new();
    for (k, (p, moved)) in tried.iter().enumerate() {
        if let (true, Some(t)) = (*moved, p.tts99_s) {
            best = best.min(t);
        }
        if best.is_finite() {
            so_far.push([k as f64, best]);
        }
    }
    LineChart {
        title: format!("Suggesting weights: TTS99 of each point tried — {description}"),
        x_label: "point tried".into(),
        y_label: "TTS99 (s)".into(),
        series: vec![
            Series {
                name: "best so far".into(),
                color: colors::VALID,
                points: so_far,
                ..Series::default()
            },
            Series {
                name: "tried".into(),
                color: colors::OTHER,
                points: tried
                    .iter()
                    .enumerate()
                    .filter_map(|(k, (p, _))| Some([k as f64, p.tts99_s?]))
                    .collect(),
                ..Series::default()
            },
        ],
        flags: tried
            .iter()
            .enumerate()
            .filter(|(_, (p, _))| p.penalty_too_weak)
            .filter_map(|(k, (p, _))| Some([k as f64, p.tts99_s?]))
            .collect(),
        flag_name: "penalty too weak".into(),
        y_range: None,
        note: format!("stopped: {stopped}"),
    }
    .drawing()
}

/// Mean broken constraint groups per read at each value of a one-weight sweep, stacked by
/// the weight that scales them: which rules give way as the weight moves.
pub fn plot_broken(points: &[SweepPoint], weight: &str, description: &str) -> Drawing {
    use crate::render::chart::BarChart;
    let names: Vec<String> = points
        .iter()
        .flat_map(|p| p.broken_per_read.keys().cloned())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let step = points
        .windows(2)
        .map(|w| (w[1].value - w[0].value).abs())
        .filter(|d| *d > 0.0)
        .fold(f64::INFINITY, f64::min);
    let width = if step.is_finite() { 0.7 * step } else { 0.5 };
    BarChart {
        title: format!("Broken constraints per read against {weight} — {description}"),
        x_label: weight.to_string(),
        y_label: "broken groups per read".into(),
        bars: points
            .iter()
            .map(|p| {
                let parts = names
                    .iter()
                    .map(|n| p.broken_per_read.get(n).copied().unwrap_or(0.0))
                    .collect();
                (p.value, width, parts)
            })
            .collect(),
        parts: names
            .iter()
            .enumerate()
            .map(|(k, n)| (n.clone(), crate::render::palette::tile(k as u8 + 1)))
            .collect(),
    }
    .drawing()
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
    [(centre - half).max(0.0), (centre + half).min(1.0)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{AnyPuzzle, EncodeOptions, REFERENCE_NODE_BUDGET, Sudoku};
    use crate::sampler::SimulatedAnnealing;

    #[test]
    fn values_span_the_range() {
        assert_eq!(values(0.0, 4.0, 5), Ok(vec![0.0, 1.0, 2.0, 3.0, 4.0]));
        assert_eq!(values(2.0, 9.0, 1), Ok(vec![2.0]));
        assert_eq!(values(0.0, 1.0, 0), Err(SweepError::Steps(0)));
        assert_eq!(
            values(0.0, 1.0, 100_000_000_000),
            Err(SweepError::Steps(100_000_000_000))
        );
        assert!(values(f64::NAN, 1.0, 2).is_err());
    }

    #[test]
    fn a_zero_hint_strength_loses_the_givens() {
        let p = AnyPuzzle::Sudoku(Sudoku::from_line("1.3...1.2.......").unwrap());
        let encoding = p.encode(&EncodeOptions::default()).unwrap();
        let reference = p.solve_classically(REFERENCE_NODE_BUDGET);
        let sa = SimulatedAnnealing {
            num_reads: 40,
            num_sweeps: 400,
            seed: Some(3),
            ..Default::default()
        };
        let base = Weights::new();
        let spec = |weight, values| SweepSpec {
            problem: Problem {
                puzzle: &p,
                encoding: &encoding,
                reference: &reference,
            },
            base: &base,
            weight,
            values,
            second: None,
            repeats: 1,
        };
        let pts = run(&spec("hint", &[0.0, 2.0]), &sa, &RunControl::new(), |_| {}).unwrap();
        assert_eq!(pts.len(), 2);
        assert!(pts[0].success_fraction < pts[1].success_fraction, "{pts:?}");
        assert!(pts[1].success_fraction >= 0.3, "{pts:?}");
        // At hint = 0 nearly every read reaches the (tied) ground energy, yet few keep the givens.
        assert!(pts[0].ground_fraction.unwrap() > 0.5, "{pts:?}");
        let e = run(&spec("nope", &[1.0]), &sa, &RunControl::new(), |_| {});
        assert!(e.unwrap_err().to_string().contains("unknown weight 'nope'"));
        // hint = 0 lets a state that drops the givens tie with the solution: flagged, with
        // the witness's broken rule named; at the default hint nothing invalid wins.
        assert!(pts[0].penalty_too_weak, "{pts:?}");
        let w = pts[0].witness.as_ref().unwrap();
        assert!(w.energy <= pts[0].valid_energy.unwrap() + 1e-9);
        assert!(!w.violations.is_empty() || !w.broken.is_empty(), "{w:?}");
        assert_eq!(w.sample.len(), encoding.num_variables());
        assert!(!pts[1].penalty_too_weak, "{pts:?}");
        assert!(pts[1].witness.is_none());
        let [lo, hi] = pts[1].success_ci95;
        assert!(lo <= pts[1].success_fraction && pts[1].success_fraction <= hi);
        assert_eq!(pts[1].weights["hint"], 2.0);
        assert!(pts[1].weights.contains_key("cell"));
    }

    #[test]
    fn two_weights_make_a_grid_and_repeats_pool_their_reads() {
        let p = AnyPuzzle::Sudoku(Sudoku::from_line("1.3...1.2.......").unwrap());
        let encoding = p.encode(&EncodeOptions::default()).unwrap();
        let reference = p.solve_classically(REFERENCE_NODE_BUDGET);
        let sa = SimulatedAnnealing {
            num_reads: 10,
            num_sweeps: 200,
            seed: Some(5),
            ..Default::default()
        };
        let base = Weights::new();
        let spec = SweepSpec {
            problem: Problem {
                puzzle: &p,
                encoding: &encoding,
                reference: &reference,
            },
            base: &base,
            weight: "hint",
            values: &[0.0, 1.0, 2.0],
            second: Some(("cell", &[0.5, 1.0])),
            repeats: 3,
        };
        let pts = run(&spec, &sa, &RunControl::new(), |_| {}).unwrap();
        assert_eq!(pts.len(), 6);
        assert_eq!(
            pts.iter()
                .map(|p| (p.value, p.value2.unwrap()))
                .collect::<Vec<_>>(),
            vec![
                (0.0, 0.5),
                (0.0, 1.0),
                (1.0, 0.5),
                (1.0, 1.0),
                (2.0, 0.5),
                (2.0, 1.0)
            ]
        );
        assert!(
            pts.iter().all(|p| p.reads == 30),
            "three repeats of 10 reads"
        );
        assert_eq!(pts[3].weights["cell"], 1.0);
        // Repeats are reseeded (seed + r), so they are not three copies of one run.
        let third = reseeded(&sa, 2).unwrap().unwrap();
        assert_eq!(third.params()["seed"], 7);
        assert_eq!(third.params()["num_sweeps"], 200);
        assert!(reseeded(&sa, 0).unwrap().is_none());
    }

    #[test]
    fn weights_without_terms_are_refused_and_intervals_are_wilson() {
        let p = AnyPuzzle::Sudoku(Sudoku::from_line("1.3...1.2.......").unwrap());
        let encoding = p
            .encode(&EncodeOptions {
                presolve: true,
                ..Default::default()
            })
            .unwrap();
        let e = check_sweepable(&encoding, "hint").unwrap_err().to_string();
        assert!(e.contains("no terms") && e.contains("presolve"), "{e}");
        assert!(check_sweepable(&encoding, "cell").is_ok());
        assert_eq!(wilson_interval(0, 0), [0.0, 1.0]);
        let [lo, hi] = wilson_interval(0, 100);
        assert!(lo < 1e-12 && (0.03..0.04).contains(&hi), "{lo} {hi}");
        let [lo, hi] = wilson_interval(50, 100);
        assert!(
            (0.40..0.41).contains(&lo) && (0.59..0.60).contains(&hi),
            "{lo} {hi}"
        );
    }
}
