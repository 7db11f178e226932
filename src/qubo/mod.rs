//! QUBO core: the plain model, the labelled re-weightable `Encoding`, and file formats.

pub mod encoding;
pub mod formats;
pub mod grouped;
mod model;
pub mod onehot;
pub mod random;

pub use encoding::{
    ConstraintReport, Contribution, Encoding, EncodingBuilder, GroupId, Label, WeightSpec, Weights,
};
pub use grouped::GroupedModel;
pub use model::{Coupling, Csr, Ising, Model, Qubo, StoredModel};
pub use onehot::OneHotGroups;
pub use random::random_qubo;

/// Resolution of an energy, relative to the model's coefficient scale (`Qubo::energy_scale`:
/// the sum of every |coefficient|, which bounds every energy and the rounding error of summing
/// one in f64). Relative to the scale, not to the energy: with one weight at 1e10, energies of
/// −3.2e11 and −3.2e11 + 12 differ by one broken constraint and must not compare equal.
pub const ENERGY_RELATIVE_TOLERANCE: f64 = 1e-12;

/// The tolerance for energies of a model (or group) whose coefficients' magnitudes sum to
/// `scale`: `ENERGY_RELATIVE_TOLERANCE × max(scale, 1)`.
pub fn energy_tolerance(scale: f64) -> f64 {
    ENERGY_RELATIVE_TOLERANCE * scale.max(1.0)
}

/// Whether two energies agree within `tolerance` (from `energy_tolerance`): the crate's one
/// definition of "the same energy" (ground shares, constraint reports).
pub fn energy_matches(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() <= tolerance
}

/// Relative slack for energies a sampler keeps as running sums (updated flip by flip, they drift
/// from the exact value far more than `ENERGY_RELATIVE_TOLERANCE` allows): the crate's one
/// tolerance for "this read reached the target" and "this is a new best".
pub const RUNNING_ENERGY_TOLERANCE: f64 = 1e-9;

/// The slack around a running-sum energy near `energy` (`RUNNING_ENERGY_TOLERANCE`, relative,
/// at least absolute for energies near 0).
pub fn running_tolerance(energy: f64) -> f64 {
    RUNNING_ENERGY_TOLERANCE * energy.abs().max(1.0)
}

/// Whether a running-sum `energy` has reached `target`.
pub fn reaches_target(energy: f64, target: f64) -> bool {
    energy <= target + running_tolerance(target)
}

/// Problems with a model's numbers or indices.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum QuboError {
    /// A coefficient, offset or weight is NaN or infinite.
    #[error("{what} is {value}, but every coefficient must be a finite number")]
    NonFinite {
        /// Which number, e.g. `weight 'hint'` or `coupling (3, 7)`.
        what: String,
        /// Its value.
        value: f64,
    },
    /// A variable index at or past the model's size.
    #[error("variable index {index} is out of range for a model of {n} variables")]
    IndexOutOfRange {
        /// The index given.
        index: usize,
        /// The model's variable count.
        n: usize,
    },
    /// An assignment whose length is not the model's variable count.
    #[error("an assignment of {found} values was given for a model of {expected} variables")]
    LengthMismatch {
        /// The model's variable count.
        expected: usize,
        /// The assignment's length.
        found: usize,
    },
    /// Every coefficient is finite but their magnitudes sum past f64's range.
    #[error(
        "the coefficients' magnitudes sum to more than a 64-bit float holds (about 1.8e308), so energies would overflow: scale the model or its weights down"
    )]
    EnergyOverflow,
    /// Building the model would exceed the memory budget.
    #[error(transparent)]
    Budget(#[from] crate::budget::BudgetError),
    /// The model is too large to store and exists only as a structure (sampled by SA).
    #[error("{0}")]
    Unstored(String),
    /// The encoding's groups do not decide its ground energy (an objective, or an inequality
    /// priced without slack).
    #[error("the model has an objective, so no ground energy follows from its constraints alone")]
    NoGroundFromGroups,
    /// A weight name the encoding does not declare.
    #[error("unknown weight '{name}' (this model's weights: {known})")]
    UnknownWeight {
        /// The name given.
        name: String,
        /// The declared names, comma-separated.
        known: String,
    },
}
