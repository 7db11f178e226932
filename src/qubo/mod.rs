//! QUBO core: the plain model, the labelled re-weightable `Encoding`, and file formats.

pub mod encoding;
pub mod formats;
mod model;

pub use encoding::{
    ConstraintReport, Contribution, Encoding, EncodingBuilder, GroupId, Label, WeightSpec, Weights,
};
pub use model::{Coupling, Csr, Ising, Model, Qubo, StoredModel};

/// Problems with a model's numbers or indices.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum QuboError {
    #[error("{what} is {value}, but every coefficient must be a finite number")]
    NonFinite { what: String, value: f64 },
    #[error("variable index {index} is out of range for a model of {n} variables")]
    IndexOutOfRange { index: usize, n: usize },
    #[error("an assignment of {found} values was given for a model of {expected} variables")]
    LengthMismatch { expected: usize, found: usize },
    #[error("unknown weight '{name}' (this model's weights: {known})")]
    UnknownWeight { name: String, known: String },
}
