//! QUBO core: the plain model, the labelled re-weightable `Encoding`, and file formats.

pub mod encoding;
pub mod formats;
mod model;
pub mod random;

pub use encoding::{
    ConstraintReport, Contribution, Encoding, EncodingBuilder, GroupId, Label, WeightSpec, Weights,
};
pub use model::{Coupling, Csr, Ising, Model, Qubo, StoredModel};
pub use random::random_qubo;

/// Relative tolerance for "these two energies are the same" (ground shares, constraint
/// reports): the one tolerance of the crate.
pub const ENERGY_TOLERANCE: f64 = 1e-9;

/// Whether two energies agree within `ENERGY_TOLERANCE` (relative, with an absolute floor).
pub fn energy_matches(a: f64, b: f64) -> bool {
    (a - b).abs() <= ENERGY_TOLERANCE * (1.0 + a.abs().max(b.abs()))
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
    /// A weight name the encoding does not declare.
    #[error("unknown weight '{name}' (this model's weights: {known})")]
    UnknownWeight {
        /// The name given.
        name: String,
        /// The declared names, comma-separated.
        known: String,
    },
}
