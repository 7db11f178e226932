//! Weight sweeps: sample a puzzle at several values of one penalty weight and report how the
//! success fraction and mean energy move, so a weight's sweet spot is seen, not guessed.
//! The GUI's sweep panel and the CLI's `sweep` command both call `run`. A sweep re-weights the
//! one encoding it is given (never re-encodes) and reuses one classical reference.

use serde::Serialize;

use crate::qubo::{QuboError, Weights};
use crate::sampler::{RunControl, Sampler};
use crate::solve::{Problem, SolveError, solve};

/// One weight value's figures.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SweepPoint {
    /// The swept weight's value.
    pub value: f64,
    /// Share of reads decoding to a valid solution.
    pub success_fraction: f64,
    /// Share of reads at the ground energy (when known at this weight).
    pub ground_fraction: Option<f64>,
    /// Mean energy over reads.
    pub mean_energy: f64,
    /// Lowest energy sampled.
    pub min_energy: f64,
    /// Time to a valid solution with 99 % confidence.
    pub tts99_s: Option<f64>,
    /// Sampling wall time.
    pub sample_s: f64,
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
    /// A weight value the encoding refuses (e.g. not finite).
    #[error(transparent)]
    Qubo(#[from] QuboError),
    /// A step count out of range.
    #[error("a sweep takes 1 to {MAX_SWEEP_STEPS} values, not {0}")]
    Steps(usize),
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
}

/// Most values one sweep takes (each is a full sampling run).
pub const MAX_SWEEP_STEPS: usize = 1000;

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

/// What to sweep: one weight of an encoded puzzle over some values, the others fixed.
pub struct SweepSpec<'a> {
    /// The encoded puzzle and its reference.
    pub problem: Problem<'a>,
    /// The other weights (unset ones take their defaults).
    pub base: &'a Weights,
    /// The weight to sweep.
    pub weight: &'a str,
    /// Its values.
    pub values: &'a [f64],
}

/// Samples the puzzle once per value of the swept weight; `on_point` hears about each point as
/// it is done. Stops early (returning the points done) when `control` is cancelled.
pub fn run(
    spec: &SweepSpec,
    sampler: &dyn Sampler,
    control: &RunControl,
    mut on_point: impl FnMut(&SweepPoint),
) -> Result<Vec<SweepPoint>, SweepError> {
    let encoding = spec.problem.encoding;
    if !encoding.weight_names().contains(&spec.weight) {
        return Err(SweepError::UnknownWeight {
            name: spec.weight.to_string(),
            known: encoding.weight_names().join(", "),
        });
    }
    let mut points = Vec::with_capacity(spec.values.len());
    for &value in spec.values {
        if control.is_cancelled() {
            break;
        }
        let weights = spec.base.clone().with(spec.weight, value)?;
        let out = solve(spec.problem, &weights, sampler, control)?;
        if out.cancelled {
            break;
        }
        let point = SweepPoint {
            value,
            success_fraction: out.success_fraction,
            ground_fraction: out.ground_fraction,
            mean_energy: out.outcome.mean_energy(),
            min_energy: out.min_energy.unwrap_or(f64::NAN),
            tts99_s: out.tts99_s,
            sample_s: out.timing.sample_s,
        };
        on_point(&point);
        points.push(point);
    }
    Ok(points)
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
        };
        let pts = run(&spec("hint", &[0.0, 2.0]), &sa, &RunControl::new(), |_| {}).unwrap();
        assert_eq!(pts.len(), 2);
        assert!(pts[0].success_fraction < pts[1].success_fraction, "{pts:?}");
        assert!(pts[1].success_fraction >= 0.3, "{pts:?}");
        // At hint = 0 nearly every read reaches the (tied) ground energy, yet few keep the givens.
        assert!(pts[0].ground_fraction.unwrap() > 0.5, "{pts:?}");
        let e = run(&spec("nope", &[1.0]), &sa, &RunControl::new(), |_| {});
        assert!(e.unwrap_err().to_string().contains("unknown weight 'nope'"));
    }
}
