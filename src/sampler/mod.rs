//! Samplers behind one trait. Each sampler keeps its parameters in its own struct (with
//! dwave-samplers' names and meanings) and answers `sample(model, control)` with a `SampleSet`.
//! Local and remote samplers block in the caller's job thread alike; `RunControl` carries
//! cancellation and progress. Each sampler describes itself in a `SamplerEntry` (its module's
//! `ENTRY`); the registry that lists them all, local and remote, is `crate::samplers`, above
//! this module and `remote` — this module knows no service.

pub mod annealing;
mod control;
pub mod dimod_json;
mod ending;
pub mod exact;
mod grouped;
mod kernel;
mod lanes;
mod lanes8;
#[macro_use]
mod replicas;
pub mod moves;
mod multispin;
pub mod pilot;
pub mod population;
pub mod precision;
mod rows;
mod sample_set;
pub mod schedule;
pub mod sqa;
pub mod tabu;
pub mod tempering;

pub use annealing::{BetaRangeRule, Kernel, SimulatedAnnealing};
pub use control::{BestState, Phase, Progress, RemoteJob, RemoteJobSlot, RunControl, Snapshot};
pub use exact::ExactSolver;
pub use moves::MoveSet;
pub use sample_set::{ReadsEnd, RunReport, SampleInfo, SampleRow, SampleSet, StopReason};
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
    Service(ServiceError),
}

/// A remote service's failure, carried without this layer knowing the service's own error type
/// (`remote` converts its errors into it; `downcast_ref` gets them back).
#[derive(Clone, Debug)]
pub struct ServiceError(std::sync::Arc<dyn std::error::Error + Send + Sync>);

impl ServiceError {
    /// Wraps a service's error.
    pub fn new(error: impl std::error::Error + Send + Sync + 'static) -> Self {
        ServiceError(std::sync::Arc::new(error))
    }

    /// The service's own error, when it is a `T`.
    pub fn downcast_ref<T: std::error::Error + 'static>(&self) -> Option<&T> {
        self.0.downcast_ref::<T>()
    }
}

impl std::fmt::Display for ServiceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for ServiceError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

/// Two failures are equal when they say the same (the wrapped types need not be comparable).
impl PartialEq for ServiceError {
    fn eq(&self, other: &Self) -> bool {
        self.to_string() == other.to_string()
    }
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
    /// How long a whole run may take (given whether a target energy is set), for callers that
    /// share it across several runs (`RunControl::deadline`); `None` when a run ends by its
    /// work alone.
    fn time_limit(&self, _has_target: bool) -> Option<std::time::Duration> {
        None
    }
}

/// A sampler's description of itself (dimod's `parameters` and `properties`, as data): its name,
/// what it is, its parameters, how to build it, what the window can plot for it, and where it
/// runs. Panels and commands read these fields; none matches on a sampler's name.
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
    /// What the window can plot for it beside its parameters.
    pub plots: &'static [SamplerPlot],
    /// The parameter that sets how much work each read does (sweeps, restarts), for callers
    /// that scale a run up or down; `None` when a read's work is fixed (enumeration).
    pub effort: Option<&'static str>,
}

impl SamplerEntry {
    /// Builds the sampler from parameter values, checked against its description first
    /// (missing ones take their defaults).
    pub fn build_with(&self, params: &ParamValues) -> Result<Box<dyn Sampler>, SampleError> {
        let values = crate::params::validate(self.params, params)?;
        (self.build)(&values)
    }

    /// Whether it runs on this machine (reads repeatable by seed, no account needed).
    pub fn is_local(&self) -> bool {
        self.runs_on == RunsOn::ThisMachine
    }
}

/// A plot a sampler offers beside its parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SamplerPlot {
    /// The quantum annealing schedule from the parameters: s, the transverse field Γ and the
    /// slice coupling per sweep (`SqaPlan`).
    QuantumSchedule,
    /// The temperature ladder a finished run used (its `info.params`).
    Ladder,
}

/// Where a sampler runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RunsOn {
    /// This machine's CPU.
    ThisMachine,
    /// A remote service.
    Service(&'static Service),
}

/// A remote service as the window presents it: its name, the account it needs, its solvers and
/// what a run costs. The functions live with the service's client (`remote`); the window calls
/// them on its job threads or with settings only, never matching on the service's name.
#[derive(Debug)]
pub struct Service {
    /// The name users know it by (`D-Wave Leap`).
    pub name: &'static str,
    /// The account lines for these (validated) parameter values: endpoint and credential and
    /// where each came from, the credential never shown; `false` marks a line that needs action.
    /// Reads configuration files: call it when the values change, not every frame.
    pub account: fn(&ParamValues) -> Vec<(String, bool)>,
    /// The service's solvers to choose from (the `solver` parameter), when it has several.
    pub solvers: Option<ServiceSolvers>,
    /// What a run will cost, in words, for the parameter values, the model's variables and the
    /// chosen solver's properties (when listed).
    pub cost: fn(&ParamValues, usize, Option<&serde_json::Value>) -> String,
    /// Cancels a job an earlier run submitted (by its id), saying what became of it: a network
    /// call, for job threads.
    pub cancel: fn(&ParamValues, &str) -> Result<String, String>,
    /// The parameter that makes a run wait for a job submitted earlier instead of submitting
    /// again (`problem_id`, `job_id`).
    pub resume_param: &'static str,
}

/// How a service lists its solvers.
#[derive(Debug)]
pub struct ServiceSolvers {
    /// The category of solver this sampler uses (`qpu`, `hybrid`); others are listed greyed.
    pub category: &'static str,
    /// The solvers the account may use: a network call, for job threads.
    pub list: fn(&ParamValues) -> Result<Vec<ServiceSolver>, String>,
}

/// One solver a service offers.
#[derive(Clone, Debug, PartialEq)]
pub struct ServiceSolver {
    /// Its name (the `solver` parameter's value).
    pub name: String,
    /// Its category (`qpu`, `hybrid`, `software`).
    pub category: String,
    /// Whether it takes problems now.
    pub online: bool,
    /// Average load, 0 to 1, when reported.
    pub avg_load: Option<f64>,
    /// One line from the operator.
    pub description: String,
    /// All its properties as the service sent them.
    pub properties: serde_json::Value,
}

impl ServiceSolver {
    /// Its topology and size in a few words (`solver_shape`).
    pub fn shape(&self) -> String {
        solver_shape(&self.properties)
    }
}

/// A solver's topology and size from its properties: "Zephyr Z(12, 4) · 4 780 qubits",
/// "Pegasus P16 · 5 627 qubits", "up to 1000000 variables"; empty when it says neither.
pub fn solver_shape(properties: &serde_json::Value) -> String {
    let topology = &properties["topology"];
    let shape: Vec<u64> = topology["shape"]
        .as_array()
        .map(|a| a.iter().filter_map(serde_json::Value::as_u64).collect())
        .unwrap_or_default();
    let family = match (topology["type"].as_str(), shape.as_slice()) {
        (Some("pegasus"), [m, ..]) => Some(format!("Pegasus P{m}")),
        (Some("zephyr"), [m, t, ..]) => Some(format!("Zephyr Z({m}, {t})")),
        (Some("chimera"), [m, n, t, ..]) => Some(format!("Chimera C({m}, {n}, {t})")),
        (Some(other), _) => Some(other.to_string()),
        (None, _) => None,
    };
    let size = match (
        properties["qubits"].as_array(),
        properties["maximum_number_of_variables"].as_u64(),
    ) {
        (Some(q), _) => Some(format!("{} working qubits", q.len())),
        (None, Some(n)) => Some(format!("up to {n} variables")),
        (None, None) => None,
    };
    [family, size]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" · ")
}

/// Services are one per name.
impl PartialEq for Service {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
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
