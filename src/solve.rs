//! The whole flow for one puzzle in one call: encode → weight → sample → decode → check.
//! The CLI's `solve` and the GUI's Run (and later weight sweeps) use this.

use std::time::Instant;

use serde::Serialize;

use crate::puzzle::{AnyPuzzle, AnySolution, EncodeOptions, Violation};
use crate::qubo::{Encoding, StoredModel, Weights};
use crate::sampler::{RunControl, SampleSet, Sampler};

/// Relative tolerance for "this read is at the ground energy".
pub const ENERGY_TOLERANCE: f64 = 1e-6;

pub fn energy_matches(a: f64, b: f64) -> bool {
    (a - b).abs() <= ENERGY_TOLERANCE * (1.0 + a.abs().max(b.abs()))
}

/// The best read, decoded and refereed.
#[derive(Clone, Debug, Serialize)]
pub struct Best {
    pub energy: f64,
    pub valid: bool,
    pub violations: Vec<Violation>,
    /// The candidate solution in the kind's one-line form.
    pub solution: String,
    #[serde(skip)]
    pub decoded: Option<AnySolution>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Timing {
    pub encode_s: f64,
    pub sample_s: f64,
}

/// Everything a solve produced, in the CLI's JSON shape.
#[derive(Clone, Debug, Serialize)]
pub struct SolveOutcome {
    pub kind: String,
    pub description: String,
    pub num_variables: usize,
    pub num_interactions: usize,
    pub sampler: String,
    pub params: serde_json::Value,
    pub timing: Timing,
    pub num_reads: usize,
    pub cancelled: bool,
    pub min_energy: Option<f64>,
    /// Known when the puzzle has a solution (exact reference solver) and weights are ≥ 0.
    pub ground_energy: Option<f64>,
    /// Share of reads at the ground energy (the figure compared with the peers).
    pub ground_fraction: Option<f64>,
    /// Share of reads that decode to a valid solution.
    pub success_fraction: f64,
    pub best: Option<Best>,
    #[serde(skip)]
    pub samples: SampleSet,
}

/// The ground energy of `encoding` under `weights`, when the puzzle is solvable.
pub fn ground_energy(puzzle: &AnyPuzzle, encoding: &Encoding, weights: &Weights) -> Option<f64> {
    if !encoding.weights_nonnegative(weights).ok()? {
        return None;
    }
    let solution = puzzle.solve_classically()?;
    if !puzzle.check(&solution).is_empty() {
        return None;
    }
    encoding.satisfied_energy(weights).ok()
}

/// Encodes, samples and referees one puzzle.
pub fn solve(
    puzzle: &AnyPuzzle,
    options: &EncodeOptions,
    weights: &Weights,
    sampler: &dyn Sampler,
    control: &RunControl,
) -> Result<SolveOutcome, String> {
    let t0 = Instant::now();
    let encoding = puzzle.encode(options).map_err(|e| e.to_string())?;
    let qubo = encoding.qubo(weights).map_err(|e| e.to_string())?;
    let num_interactions = qubo.num_interactions();
    let model = StoredModel::new(qubo);
    let encode_s = t0.elapsed().as_secs_f64();
    let ground = ground_energy(puzzle, &encoding, weights);
    let t1 = Instant::now();
    let samples = sampler.sample(&model, control).map_err(|e| e.to_string())?;
    let sample_s = t1.elapsed().as_secs_f64();
    Ok(referee(
        puzzle,
        &encoding,
        samples,
        ground,
        num_interactions,
        encode_s,
        sample_s,
    ))
}

/// Decodes and checks every distinct sample; fills in the outcome's figures.
pub fn referee(
    puzzle: &AnyPuzzle,
    encoding: &Encoding,
    samples: SampleSet,
    ground: Option<f64>,
    num_interactions: usize,
    encode_s: f64,
    sample_s: f64,
) -> SolveOutcome {
    let reads = samples.num_reads();
    let mut valid_reads = 0;
    let mut best = None;
    for (k, row) in samples.rows.iter().enumerate() {
        let decoded = puzzle.decode(encoding, &row.sample);
        let violations = puzzle.check(&decoded);
        if violations.is_empty() {
            valid_reads += row.num_occurrences;
        }
        if k == 0 {
            best = Some(Best {
                energy: row.energy,
                valid: violations.is_empty(),
                solution: puzzle.solution_to_string(&decoded),
                violations,
                decoded: Some(decoded),
            });
        }
    }
    let fraction = |hits: usize| {
        if reads == 0 {
            0.0
        } else {
            hits as f64 / reads as f64
        }
    };
    let ground_fraction = ground.map(|g| {
        fraction(
            samples
                .rows
                .iter()
                .filter(|r| energy_matches(r.energy, g))
                .map(|r| r.num_occurrences)
                .sum(),
        )
    });
    SolveOutcome {
        kind: puzzle.kind().name().into(),
        description: puzzle.describe(),
        num_variables: encoding.num_variables(),
        num_interactions,
        sampler: samples.info.sampler.clone(),
        params: samples.info.params.clone(),
        timing: Timing { encode_s, sample_s },
        num_reads: reads,
        cancelled: samples.info.cancelled,
        min_energy: samples.lowest().map(|r| r.energy),
        ground_energy: ground,
        ground_fraction,
        success_fraction: fraction(valid_reads),
        best,
        samples,
    }
}
