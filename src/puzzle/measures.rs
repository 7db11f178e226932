//! What a candidate is measured by beside valid or not: its score (kinds scored by degree),
//! its agreement with a known solution, its objective (constrained models), and per-cell
//! probabilities (Minesweeper).

use serde::Serialize;

/// How far a candidate solution got, for kinds scored by degree (edge matching: matched joints
/// out of all joints), so large instances report progress even when no sample is valid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Score {
    /// Points scored.
    pub value: u64,
    /// Points a perfect solution scores.
    pub max: u64,
}

/// How much of a known solution a candidate has (`Puzzle::agreement`): a read with one given
/// changed or two joints mismatched may still be a different answer altogether, far from the
/// solution, which says that no weight change will close the gap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Agreement {
    /// Open cells the candidate fills as the solution does.
    pub same: usize,
    /// Open cells: those the puzzle does not give (givens, endpoints, fixed pieces).
    pub of: usize,
}

impl Agreement {
    /// "16 of 64 open cells (25 %)".
    pub fn text(&self) -> String {
        let share = if self.of == 0 {
            0.0
        } else {
            100.0 * self.same as f64 / self.of as f64
        };
        format!("{} of {} open cells ({share:.0} %)", self.same, self.of)
    }
}

/// An objective's value, for kinds that optimise one (constrained models): valid answers are
/// then compared by it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ObjectiveValue {
    /// The objective as the model states it.
    pub value: f64,
    /// Whether larger is better.
    pub maximize: bool,
}

impl ObjectiveValue {
    /// Whether this value is better than `other` (same model).
    pub fn better_than(&self, other: &ObjectiveValue) -> bool {
        if self.maximize {
            self.value > other.value
        } else {
            self.value < other.value
        }
    }
}

/// Per-cell probabilities, row-major, for kinds whose question is "how likely" (Minesweeper:
/// a mine under each cell): computed exactly by the kind, or estimated from samples.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CellProbabilities {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// One per cell.
    pub p: Vec<f64>,
}

impl CellProbabilities {
    /// Rows of values (the JSON shape).
    pub fn rows(&self) -> Vec<Vec<f64>> {
        self.p
            .chunks(self.width.max(1))
            .map(<[f64]>::to_vec)
            .collect()
    }

    /// Largest and mean absolute difference from `other` (same shape), over the cells where
    /// either is strictly between 0 and 1 (the undecided ones); (0, 0) when there are none.
    pub fn error_against(&self, other: &CellProbabilities) -> (f64, f64) {
        let diffs: Vec<f64> = self
            .p
            .iter()
            .zip(&other.p)
            .filter(|(a, b)| (**a > 0.0 && **a < 1.0) || (**b > 0.0 && **b < 1.0))
            .map(|(a, b)| (a - b).abs())
            .collect();
        if diffs.is_empty() {
            return (0.0, 0.0);
        }
        let max = diffs.iter().copied().fold(0.0, f64::max);
        (max, diffs.iter().sum::<f64>() / diffs.len() as f64)
    }
}
