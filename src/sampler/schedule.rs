//! Annealing schedules: β ranges, schedules and their validation, shared by SA (and SQA and
//! tempering next), as plain data the GUI can plot. Invariant: a `ScheduleSpec` that passed
//! `validate` yields only finite β ≥ 0 (and > 0 at both ends of a geometric schedule).

use serde::{Deserialize, Serialize};

use super::SampleError;
use crate::qubo::Model;

/// How β moves from hot to cold.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BetaScheduleType {
    /// Evenly spaced β (numpy's linspace).
    Linear,
    /// Evenly spaced log β (numpy's geomspace), dwave-samplers' default.
    #[default]
    Geometric,
    /// Use the `beta_schedule` list as given.
    Custom,
}

/// dwave-samplers 1.8.0 `_default_ising_beta_range`, on the model's Ising form
/// (h_i = Q_ii/2 + Σ_j Q_ij/4, J_ij = Q_ij/4):
/// hot β = ln 2 / (2 · max_i (|h_i| + Σ_j |J_ij|)) — every flip accepted with p ≥ ½;
/// cold β = ln(#min_gaps / 0.01) / (2 · min_i min(non-zero |h_i|, |J_ij|)).
pub fn default_beta_range(model: &dyn Model) -> (f64, f64) {
    if let Some(g) = model.grouped()
        && model.csr().is_none()
    {
        // Too many couplings to visit: the same formula from the structure's counts.
        return g.default_beta_range();
    }
    let n = model.num_variables();
    let mut h: Vec<f64> = (0..n).map(|i| model.linear(i) / 2.0).collect();
    let mut sum_abs = vec![0.0f64; n];
    let mut min_abs = vec![f64::INFINITY; n];
    for i in 0..n {
        model.for_each_neighbour(i, &mut |_, q| {
            let jv = q / 4.0;
            h[i] += jv;
            sum_abs[i] += jv.abs();
            if jv != 0.0 {
                min_abs[i] = min_abs[i].min(jv.abs());
            }
        });
    }
    for i in 0..n {
        sum_abs[i] += h[i].abs();
        if h[i] != 0.0 {
            min_abs[i] = min_abs[i].min(h[i].abs());
        }
    }
    let present: Vec<f64> = min_abs.iter().copied().filter(|v| v.is_finite()).collect();
    if present.is_empty() {
        // All biases are zero: every state has the same energy (dwave uses [0.1, 1]).
        return (0.1, 1.0);
    }
    let max_field = sum_abs.iter().copied().fold(0.0, f64::max);
    let hot = if max_field == 0.0 {
        1.0
    } else {
        std::f64::consts::LN_2 / (2.0 * max_field)
    };
    let min_field = present.iter().copied().fold(f64::INFINITY, f64::min);
    let count = present.iter().filter(|&&v| v == min_field).count() as f64;
    let cold = (count / 0.01).ln() / (2.0 * min_field);
    (hot, cold)
}

/// A β schedule computed on the fly, one β per sweep: nothing proportional to the number of
/// sweeps is stored (a custom list is stored once, not once per sweep).
#[derive(Clone, Debug, PartialEq)]
pub enum Schedule {
    /// `num_betas` values from `range` (linear or geometric, as numpy's linspace / geomspace),
    /// each held `sweeps_per_beta` sweeps.
    Formula {
        /// (hot, cold).
        range: (f64, f64),
        /// Linear or geometric.
        kind: BetaScheduleType,
        /// Distinct β values.
        num_betas: usize,
        /// Sweeps at each.
        sweeps_per_beta: usize,
    },
    /// Explicit β values, each held `sweeps_per_beta` sweeps.
    Custom {
        /// The values, hot to cold.
        betas: Vec<f64>,
        /// Sweeps at each.
        sweeps_per_beta: usize,
    },
}

impl Schedule {
    /// `num_sweeps / sweeps_per_beta` values from `range`, each repeated `sweeps_per_beta` times.
    pub fn formula(
        range: (f64, f64),
        kind: BetaScheduleType,
        num_sweeps: usize,
        sweeps_per_beta: usize,
    ) -> Schedule {
        let sweeps_per_beta = sweeps_per_beta.max(1);
        Schedule::Formula {
            range,
            kind,
            num_betas: num_sweeps / sweeps_per_beta,
            sweeps_per_beta,
        }
    }

    /// Sweeps per read.
    pub fn num_sweeps(&self) -> usize {
        match self {
            Schedule::Formula {
                num_betas,
                sweeps_per_beta,
                ..
            } => num_betas.saturating_mul(*sweeps_per_beta),
            Schedule::Custom {
                betas,
                sweeps_per_beta,
            } => betas.len().saturating_mul(*sweeps_per_beta),
        }
    }

    /// β at sweep `sweep` (0-based, below `num_sweeps`).
    #[inline]
    pub fn beta(&self, sweep: usize) -> f64 {
        match self {
            Schedule::Formula {
                range: (a, b),
                kind,
                num_betas,
                sweeps_per_beta,
            } => {
                let k = sweep / sweeps_per_beta;
                if *num_betas <= 1 {
                    return *b;
                }
                let t = k as f64 / (num_betas - 1) as f64;
                match kind {
                    BetaScheduleType::Linear | BetaScheduleType::Custom => a + (b - a) * t,
                    BetaScheduleType::Geometric => a * (b / a).powf(t),
                }
            }
            Schedule::Custom {
                betas,
                sweeps_per_beta,
            } => betas[sweep / sweeps_per_beta],
        }
    }

    /// Every β in order (for tests and reports; samplers call `beta`).
    pub fn to_vec(&self) -> Vec<f64> {
        (0..self.num_sweeps()).map(|s| self.beta(s)).collect()
    }
}

/// A schedule as a sampler's parameters describe it (dwave-samplers' names).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScheduleSpec<'a> {
    /// Sweeps per read.
    pub num_sweeps: usize,
    /// Sweeps at each β value.
    pub num_sweeps_per_beta: usize,
    /// (hot β, cold β); `None` computes it from the model as dwave-samplers does.
    pub beta_range: Option<[f64; 2]>,
    /// Linear, geometric, or the `custom` list.
    pub kind: BetaScheduleType,
    /// The explicit β values for `custom`.
    pub custom: Option<&'a [f64]>,
}

impl ScheduleSpec<'_> {
    /// Checks the combination, naming the parameter at fault.
    pub fn validate(&self) -> Result<(), SampleError> {
        if self.num_sweeps_per_beta == 0 {
            return Err(SampleError::param(
                "num_sweeps_per_beta",
                "must be at least 1",
            ));
        }
        if self.kind != BetaScheduleType::Custom
            && !self.num_sweeps.is_multiple_of(self.num_sweeps_per_beta)
        {
            return Err(SampleError::param(
                "num_sweeps",
                "must be a multiple of num_sweeps_per_beta",
            ));
        }
        if let Some([a, b]) = self.beta_range {
            if !(a.is_finite() && b.is_finite() && a >= 0.0 && b >= 0.0) {
                return Err(SampleError::param(
                    "beta_range",
                    format!("[{a}, {b}] must be two finite numbers ≥ 0"),
                ));
            }
            if self.kind == BetaScheduleType::Geometric && (a == 0.0 || b == 0.0) {
                return Err(SampleError::param(
                    "beta_range",
                    "a geometric schedule needs both ends > 0",
                ));
            }
            // The same rule as tempering's: an anneal cools, from the hot (small β) end.
            if a > b {
                return Err(SampleError::param(
                    "beta_range",
                    format!("[{a}, {b}]: the hot end comes first (hot ≤ cold)"),
                ));
            }
        }
        match (self.custom, self.kind) {
            (Some(b), BetaScheduleType::Custom) => {
                if b.is_empty() {
                    return Err(SampleError::param(
                        "beta_schedule",
                        "is empty: give at least one β (the run would do no sweep)",
                    ));
                }
                if let Some(bad) = b.iter().find(|v| !v.is_finite() || **v < 0.0) {
                    return Err(SampleError::param(
                        "beta_schedule",
                        format!("{bad} is not a finite number ≥ 0"),
                    ));
                }
            }
            (None, BetaScheduleType::Custom) => {
                return Err(SampleError::param(
                    "beta_schedule",
                    "is required with beta_schedule_type = custom",
                ));
            }
            (Some(_), _) => {
                return Err(SampleError::param(
                    "beta_schedule",
                    "is only used with beta_schedule_type = custom",
                ));
            }
            (None, _) => {}
        }
        Ok(())
    }

    /// The schedule and the (hot, cold) range it spans.
    pub fn schedule(&self, model: &dyn Model) -> (Schedule, [f64; 2]) {
        if let (BetaScheduleType::Custom, Some(b)) = (self.kind, self.custom) {
            let range = [
                b.first().copied().unwrap_or(0.0),
                b.last().copied().unwrap_or(0.0),
            ];
            let schedule = Schedule::Custom {
                betas: b.to_vec(),
                sweeps_per_beta: self.num_sweeps_per_beta.max(1),
            };
            return (schedule, range);
        }
        let range = self.beta_range.unwrap_or_else(|| {
            let (hot, cold) = default_beta_range(model);
            [hot, cold]
        });
        let schedule = Schedule::formula(
            (range[0], range[1]),
            self.kind,
            self.num_sweeps,
            self.num_sweeps_per_beta,
        );
        (schedule, range)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn reversed_ranges_and_empty_schedules_are_refused() {
        let spec = |range, kind, custom| ScheduleSpec {
            num_sweeps: 10,
            num_sweeps_per_beta: 1,
            beta_range: range,
            kind,
            custom,
        };
        let e = spec(Some([5.0, 1.0]), BetaScheduleType::Geometric, None)
            .validate()
            .unwrap_err();
        assert!(e.to_string().contains("hot end comes first"), "{e}");
        let e = spec(None, BetaScheduleType::Custom, Some(&[]))
            .validate()
            .unwrap_err();
        assert!(e.to_string().contains("is empty"), "{e}");
        assert!(
            spec(Some([1.0, 5.0]), BetaScheduleType::Geometric, None)
                .validate()
                .is_ok()
        );
    }

    use super::*;
    use crate::qubo::{Qubo, StoredModel};

    #[test]
    fn default_range_matches_dwave_samplers() {
        // dwave-samplers 1.8.0 on BQM({0: 1, 1: -2}, {(0, 1): 3}, 0, BINARY) gives
        // hot = ln2 / (2 * 1.25) and cold = ln(1 / 0.01) / (2 * 0.75): Ising h = (1.25, -0.25),
        // J = 0.75; per-spin sums 2.0 and 1.0; per-spin minima 0.75 and 0.25.
        let m = StoredModel::new(Qubo::new(vec![1.0, -2.0], vec![(0, 1, 3.0)], 0.0).unwrap());
        let (hot, cold) = default_beta_range(&m);
        assert!((hot - std::f64::consts::LN_2 / 4.0).abs() < 1e-15, "{hot}");
        assert!((cold - (100f64).ln() / 0.5).abs() < 1e-12, "{cold}");
    }

    #[test]
    fn geometric_and_linear_schedules() {
        let g = Schedule::formula((0.1, 10.0), BetaScheduleType::Geometric, 3, 1).to_vec();
        assert!((g[1] - 1.0).abs() < 1e-12 && g[0] == 0.1 && (g[2] - 10.0).abs() < 1e-12);
        let l = Schedule::formula((0.0, 1.0), BetaScheduleType::Linear, 6, 2).to_vec();
        assert_eq!(l, vec![0.0, 0.0, 0.5, 0.5, 1.0, 1.0]);
    }

    #[test]
    fn a_schedule_of_a_trillion_sweeps_stores_nothing_per_sweep() {
        let s = Schedule::formula((0.5, 8.0), BetaScheduleType::Geometric, 1 << 40, 1 << 20);
        assert_eq!(s.num_sweeps(), 1 << 40);
        assert_eq!(s.beta(0), 0.5);
        assert!((s.beta((1 << 40) - 1) - 8.0).abs() < 1e-12);
        let custom = Schedule::Custom {
            betas: vec![1.0, 2.0],
            sweeps_per_beta: 1 << 30,
        };
        assert_eq!((custom.num_sweeps(), custom.beta(1 << 30)), (1 << 31, 2.0));
    }
}
