//! Samplers behind one trait. Each sampler keeps its parameters in its own struct (with
//! dwave-samplers' names and meanings) and answers `sample(model, control)` with a `SampleSet`.
//! Local and (later) remote samplers block in the caller's job thread alike; `RunControl`
//! carries cancellation and progress.

mod annealing;
mod control;
mod exact;
mod grouped;
mod kernel;
pub mod precision;
mod sample_set;
pub mod schedule;
mod sqa;
pub mod tabu;
mod tempering;

pub use annealing::{BetaRangeRule, Kernel, SimulatedAnnealing};
pub use control::{BestState, Progress, RemoteJob, RemoteJobSlot, RunControl, Snapshot};
pub use exact::ExactSolver;
pub use sample_set::{SampleInfo, SampleRow, SampleSet};
pub use schedule::{BetaScheduleType, ScheduleSpec, default_beta_range};
pub use sqa::{QuantumAnnealing, SqaPlan, SqaSchedule};
pub use tabu::TabuSearch;
pub use tempering::{LadderType, ParallelTempering};

use crate::params::{ParamError, ParamSpec, ParamValues};
use crate::qubo::Model;

/// Why a sampler could not run.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SampleError {
    /// A parameter value the sampler cannot use.
    #[error("invalid parameter {name}: {message}")]
    InvalidParameter {
        /// The parameter (dwave-style name).
        name: &'static str,
        /// What is wrong with it.
        message: String,
    },
    /// A parameter that does not fit its description (type, range, unknown name).
    #[error(transparent)]
    Param(#[from] ParamError),
    /// No sampler of that name.
    #[error("unknown sampler '{name}' (available: {available})")]
    UnknownSampler {
        /// The name asked for.
        name: String,
        /// The registered names.
        available: String,
    },
    /// Values that passed validation but do not build the sampler (a defect of its description).
    #[error("bad parameters: {0}")]
    BadParameters(String),
    /// The model is beyond what this sampler handles (e.g. too many variables to enumerate).
    #[error("{0}")]
    ModelNotSupported(String),
    /// The run would need more memory than the budget allows.
    #[error(transparent)]
    Budget(#[from] crate::budget::BudgetError),
    /// A remote service failed or refused (configuration, network, authentication, …).
    #[error(transparent)]
    Remote(#[from] crate::remote::RemoteError),
}

impl SampleError {
    pub(crate) fn param(name: &'static str, message: impl Into<String>) -> Self {
        SampleError::InvalidParameter {
            name,
            message: message.into(),
        }
    }
}

/// A sampler: parameters fixed at construction, then `sample` any number of models.
pub trait Sampler: Send + Sync {
    /// Short name used on the command line and in results (`sa`, `exact`, …).
    fn name(&self) -> &'static str;
    /// The parameters as JSON (dwave-style names), as recorded in `SampleSet::info`.
    fn params(&self) -> serde_json::Value;
    /// Samples the model; honours cancellation by returning the reads completed so far.
    fn sample(&self, model: &dyn Model, control: &RunControl) -> Result<SampleSet, SampleError>;
}

/// A registered sampler: its name, what it is, its parameters, and how to build it.
pub struct SamplerEntry {
    /// The name on the command line, in settings and in results.
    pub name: &'static str,
    /// One line for menus and `--help`.
    pub summary: &'static str,
    /// Every parameter, described once for the CLI, the GUI and validation.
    pub params: &'static [ParamSpec],
    /// Builds the sampler from parameters that passed `params::validate`.
    pub build: fn(&ParamValues) -> Result<Box<dyn Sampler>, SampleError>,
    /// Where it runs: this machine, or a remote service (which needs an account and a network,
    /// and whose reads are not repeatable by seed).
    pub runs_on: RunsOn,
}

/// Where a sampler runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunsOn {
    /// This machine's CPU.
    ThisMachine,
    /// A remote service, by its name as users know it (`D-Wave Leap`).
    Service(&'static str),
}

/// Every sampler the library offers, in the order a menu lists them. A new sampler is one file
/// plus one line here.
pub const SAMPLERS: &[SamplerEntry] = &[
    annealing::ENTRY,
    tempering::ENTRY,
    sqa::ENTRY,
    tabu::ENTRY,
    exact::ENTRY,
    crate::remote::hybrid::ENTRY,
    crate::remote::qpu::ENTRY,
    crate::remote::digital_annealer::ENTRY,
];

/// The sampler name that lets the workbench choose (`choose`): the CLI's and the GUI's default.
pub const AUTO: &str = "auto";

/// A sampler chosen for a model, and why (shown to the user).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// A registered sampler's name.
    pub name: &'static str,
    /// One sentence for the output.
    pub reason: &'static str,
}

/// Models this small are enumerated: exact answers in well under a second.
pub const EXACT_UP_TO: usize = 20;

/// What `auto` weighs when it picks a sampler for a job.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Task {
    /// Variables of the model.
    pub num_variables: usize,
    /// A valid solution's energy is known (a solved puzzle), so a search can stop there.
    pub has_target: bool,
    /// The model is stored (not only a structure: too large to store).
    pub stored: bool,
    /// The job wants per-cell probabilities (Minesweeper): many independent reads, no early
    /// stop.
    pub marginals: bool,
}

/// The default sampler for `task`.
pub fn choose(task: Task) -> Choice {
    if task.marginals {
        Choice {
            name: "sa",
            reason: "probabilities are shares of reads: simulated annealing gives many \
                     independent reads quickly (tempering would stop at the first valid state, \
                     enumeration lists each state once)",
        }
    } else if task.stored && task.num_variables <= EXACT_UP_TO {
        Choice {
            name: "exact",
            reason: "small enough to enumerate every state: exact ground states",
        }
    } else if task.has_target {
        Choice {
            name: "pt",
            reason: "a puzzle: parallel tempering searches until it reaches a valid solution's \
                     energy, and solves the full Sudoku models and random 6×6 edge-matching \
                     boards that annealing at default settings does not",
        }
    } else if !task.stored {
        Choice {
            name: "sa",
            reason: "too large to store and no known solution to stop at: annealing on the \
                     model's structure (counts per group, side and colour, no stored \
                     couplings) gives many reads quickly",
        }
    } else {
        Choice {
            name: "sa",
            reason: "no known target energy to stop at: simulated annealing gives many \
                     independent reads quickly",
        }
    }
}

/// The sampler a name stands for: `AUTO` resolves by `choose` (with its reason), any other name
/// is itself.
pub fn resolve(name: &str, task: Task) -> (String, Option<&'static str>) {
    if name == AUTO {
        let c = choose(task);
        (c.name.to_string(), Some(c.reason))
    } else {
        (name.to_string(), None)
    }
}

/// The registered sampler of that name.
pub fn entry(name: &str) -> Result<&'static SamplerEntry, SampleError> {
    SAMPLERS
        .iter()
        .find(|e| e.name == name)
        .ok_or_else(|| SampleError::UnknownSampler {
            name: name.to_string(),
            available: SAMPLERS
                .iter()
                .map(|e| e.name)
                .collect::<Vec<_>>()
                .join(", "),
        })
}

/// Builds a sampler by name from parameter values (checked against its description; missing
/// ones take their defaults).
pub fn sampler_from_params(
    name: &str,
    params: &ParamValues,
) -> Result<Box<dyn Sampler>, SampleError> {
    let e = entry(name)?;
    let values = crate::params::validate(e.params, params)?;
    (e.build)(&values)
}

/// `build` for samplers whose parameter struct deserializes from the validated values.
pub(crate) fn build_from_json<S>(values: &ParamValues) -> Result<Box<dyn Sampler>, SampleError>
where
    S: Sampler + serde::de::DeserializeOwned + 'static,
{
    // Null means "unset": drop it so the struct's own default applies.
    let object: ParamValues = values
        .iter()
        .filter(|(_, v)| !v.is_null())
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    serde_json::from_value::<S>(serde_json::Value::Object(object))
        .map(|s| Box::new(s) as Box<dyn Sampler>)
        .map_err(|e| SampleError::BadParameters(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_chooses_by_size_target_and_storage() {
        let task = |n, has_target, stored| Task {
            num_variables: n,
            has_target,
            stored,
            marginals: false,
        };
        assert_eq!(choose(task(12, true, true)).name, "exact");
        assert_eq!(choose(task(500, true, true)).name, "pt");
        assert_eq!(choose(task(500, false, true)).name, "sa");
        // Probabilities want many independent reads, whatever the size.
        for n in [5, 500] {
            let marginals = Task {
                marginals: true,
                ..task(n, true, true)
            };
            assert_eq!(choose(marginals).name, "sa");
        }
        // A model too large to store runs on its structure: tempering when there is a target,
        // annealing when there is none (the full Eternity II).
        assert_eq!(choose(task(12, true, false)).name, "pt");
        assert_eq!(choose(task(155_253, true, false)).name, "pt");
        assert_eq!(choose(task(155_253, false, false)).name, "sa");
        let (name, reason) = resolve(AUTO, task(155_253, false, false));
        assert_eq!(name, "sa");
        assert!(reason.unwrap().contains("too large to store"));
        assert_eq!(
            resolve("tabu", task(10, true, false)),
            ("tabu".to_string(), None)
        );
    }
}
