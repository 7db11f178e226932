//! Samplers behind one trait. Each sampler keeps its parameters in its own struct (with
//! dwave-samplers' names and meanings) and answers `sample(model, control)` with a `SampleSet`.
//! Local and (later) remote samplers block in the caller's job thread alike; `RunControl`
//! carries cancellation and progress.

mod annealing;
mod control;
mod exact;
pub mod rng;
mod sample_set;
pub mod schedule;

pub use annealing::{Kernel, SimulatedAnnealing};
pub use control::{Progress, RunControl};
pub use exact::ExactSolver;
pub use sample_set::{SampleInfo, SampleRow, SampleSet};
pub use schedule::{BetaScheduleType, default_beta_range};

use crate::qubo::Model;

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SampleError {
    #[error("invalid parameter {name}: {message}")]
    InvalidParameter { name: &'static str, message: String },
    #[error("{0}")]
    ModelNotSupported(String),
}

impl SampleError {
    pub(crate) fn param(name: &'static str, message: impl Into<String>) -> Self {
        SampleError::InvalidParameter {
            name,
            message: message.into(),
        }
    }
}

pub trait Sampler: Send + Sync {
    /// Short name used on the command line and in results (`sa`, `exact`, …).
    fn name(&self) -> &'static str;
    /// The parameters as JSON (dwave-style names), as recorded in `SampleSet::info`.
    fn params(&self) -> serde_json::Value;
    /// Samples the model; honours cancellation by returning the reads completed so far.
    fn sample(&self, model: &dyn Model, control: &RunControl) -> Result<SampleSet, SampleError>;
}

/// Names of every sampler the library offers, in the order a menu should list them.
pub const SAMPLER_NAMES: &[&str] = &["sa", "exact"];

/// Builds a sampler by name from JSON parameters (missing fields take their defaults).
pub fn sampler_from_params(
    name: &str,
    params: &serde_json::Value,
) -> Result<Box<dyn Sampler>, String> {
    let bad = |e: serde_json::Error| format!("bad parameters: {e}");
    match name {
        "sa" => Ok(Box::new(
            serde_json::from_value::<SimulatedAnnealing>(params.clone()).map_err(bad)?,
        )),
        "exact" => Ok(Box::new(
            serde_json::from_value::<ExactSolver>(params.clone()).map_err(bad)?,
        )),
        other => Err(format!(
            "unknown sampler '{other}' (available: {})",
            SAMPLER_NAMES.join(", ")
        )),
    }
}
