//! What the D-Wave Leap samplers (`dwave-hybrid`, `dwave-qpu`) share: their connection
//! parameters, described once; resolving them the way Ocean does (dwave.conf, then `DWAVE_*`,
//! then these parameters); choosing a solver; and running one problem to its answer with the
//! job reported to the caller (so a closed GUI can resume it) and cancellation honoured.
//!
//! Invariant: a problem is submitted at most once per run. Polls and upload parts are
//! retried; the submit is not — with `problem_id` set, the run waits for that problem instead
//! of submitting a new one.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};

use super::dwave_config::{self, Environment, Overrides, ProcessEnv};
use super::sapi::{Sapi, Solver};
use super::{RemoteError, Secret};
use crate::params::{ParamDefault, ParamSpec, ParamType, ParamValues};
use crate::sampler::{RemoteJob, RunControl, Service, ServiceSolver, ServiceSolvers};

const fn text(name: &'static str, default: &'static str, help: &'static str) -> ParamSpec {
    ParamSpec {
        name,
        ty: ParamType::Text { max_len: 512 },
        default: ParamDefault::Auto(default),
        help,
        alias: None,
        exposed: true,
    }
}

/// `solver`: a solver name.
pub const SOLVER: ParamSpec = text(
    "solver",
    "DWAVE_API_SOLVER, the profile's solver, or the least-loaded online solver of the kind",
    "the Leap solver to run on, by name",
);
/// `endpoint`: the SAPI base URL.
pub const ENDPOINT: ParamSpec = text(
    "endpoint",
    "DWAVE_API_ENDPOINT, the profile's endpoint, or the region's",
    "SAPI base URL (https://…/sapi/v2/; http only to 127.0.0.1 for local fakes)",
);
/// `region`: a Leap region code.
pub const REGION: ParamSpec = text(
    "region",
    "DWAVE_API_REGION, the profile's region, or na-west-1",
    "Leap region (na-west-1, eu-central-1), used when no endpoint is given",
);
/// `profile`: a dwave.conf profile.
pub const PROFILE: ParamSpec = text(
    "profile",
    "DWAVE_PROFILE, the file's `profile` key, or its first section",
    "the dwave.conf profile to read",
);
/// `config_file`: a dwave.conf path.
pub const CONFIG_FILE: ParamSpec = text(
    "config_file",
    "DWAVE_CONFIG_FILE, or ~/.config/dwave/dwave.conf and ./dwave.conf",
    "a dwave.conf file to read instead of the usual places",
);
/// `problem_id`: resume a submitted problem.
pub const PROBLEM_ID: ParamSpec = text(
    "problem_id",
    "submit a new problem",
    "wait for this already-submitted problem instead of submitting (resumes a job after a \
     restart; nothing is submitted twice)",
);
/// `request_timeout_s`: deadline of each HTTP request.
pub const REQUEST_TIMEOUT_S: ParamSpec = ParamSpec {
    name: "request_timeout_s",
    ty: ParamType::Float {
        min: 0.1,
        max: 3600.0,
    },
    default: ParamDefault::Float(60.0),
    help: "deadline of each HTTP request, in seconds (a long poll asks the server to hold at \
           most 30 s of it)",
    alias: None,
    exposed: true,
};

/// The connection settings as given (unset: resolved from config and environment).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LeapSettings {
    /// `solver`.
    pub solver: Option<String>,
    /// `endpoint`.
    pub endpoint: Option<String>,
    /// `region`.
    pub region: Option<String>,
    /// `profile`.
    pub profile: Option<String>,
    /// `config_file`.
    pub config_file: Option<String>,
    /// `problem_id`.
    pub problem_id: Option<String>,
    /// `request_timeout_s`.
    pub request_timeout_s: f64,
}

impl LeapSettings {
    /// Reads the shared parameters from validated values.
    pub fn from_values(values: &ParamValues) -> Self {
        let text = |k: &str| {
            values
                .get(k)
                .and_then(Value::as_str)
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .map(str::to_string)
        };
        LeapSettings {
            solver: text("solver"),
            endpoint: text("endpoint"),
            region: text("region"),
            profile: text("profile"),
            config_file: text("config_file"),
            problem_id: text("problem_id"),
            request_timeout_s: values
                .get("request_timeout_s")
                .and_then(Value::as_f64)
                .unwrap_or(60.0),
        }
    }

    /// The settings as JSON for `SampleInfo::params` (no token: it is never a parameter).
    pub fn to_json(&self) -> Map<String, Value> {
        let mut m = Map::new();
        for (k, v) in [
            ("solver", &self.solver),
            ("endpoint", &self.endpoint),
            ("region", &self.region),
            ("profile", &self.profile),
            ("config_file", &self.config_file),
            ("problem_id", &self.problem_id),
        ] {
            m.insert(k.into(), v.clone().map_or(Value::Null, Value::from));
        }
        m.insert("request_timeout_s".into(), json!(self.request_timeout_s));
        m
    }
}

/// A resolved connection: the client, the chosen solver, and the base URL.
pub struct Connection {
    /// The SAPI client.
    pub sapi: Sapi,
    /// The solver problems go to.
    pub solver: Solver,
    /// The base URL (for the job record).
    pub base_url: String,
}

/// The settings in effect: dwave.conf files (or `config_file`), the environment, then these
/// settings — what `remote config` prints and the GUI's remote section shows.
pub fn resolve_config(
    settings: &LeapSettings,
    env: &dyn Environment,
) -> Result<dwave_config::DwaveConfig, RemoteError> {
    let files = match &settings.config_file {
        Some(f) => vec![PathBuf::from(f)],
        None => dwave_config::config_files(env),
    };
    dwave_config::resolve(
        &files,
        env,
        &Overrides {
            profile: settings.profile.clone(),
            endpoint: settings.endpoint.clone(),
            region: settings.region.clone(),
            solver: settings.solver.clone(),
        },
    )
}

/// A client for the settings in effect (the token required).
pub fn client(settings: &LeapSettings, env: &dyn Environment) -> Result<Sapi, RemoteError> {
    client_for(&resolve_config(settings, env)?, settings)
}

/// A client for settings already resolved (the token required).
fn client_for(
    config: &dwave_config::DwaveConfig,
    settings: &LeapSettings,
) -> Result<Sapi, RemoteError> {
    let token: Secret = config.require_token()?.clone();
    Sapi::new(
        &config.base_url(),
        token,
        Duration::from_secs_f64(settings.request_timeout_s),
    )
}

/// Resolves the settings against dwave.conf and the environment, then picks the solver: the
/// one named (checked to be of `category` and to take `problem_type`), or the least-loaded
/// online one that is.
pub fn connect(
    settings: &LeapSettings,
    category: &str,
    problem_type: &str,
    env: &dyn Environment,
) -> Result<Connection, RemoteError> {
    // Resolved once: the config files are read once per run.
    let config = resolve_config(settings, env)?;
    let base_url = config.base_url();
    let sapi = client_for(&config, settings)?;
    let fits = |s: &Solver| {
        s.category == category
            && s.properties["supported_problem_types"]
                .as_array()
                .is_some_and(|t| t.iter().any(|t| t == problem_type))
    };
    // A JSON feature filter (Ocean's `{"qpu": true}`) is not a name: choose by kind then.
    let named = config.solver.filter(|s| !s.trim_start().starts_with('{'));
    let solver = match named {
        Some(name) => {
            let s = match sapi.solver(&name) {
                Ok(s) => s,
                // Name the solvers that would do (a few, of the right kind), not every one.
                Err(RemoteError::NotFound(_)) => {
                    let fitting: Vec<String> = sapi
                        .solvers()
                        .map(|all| {
                            all.into_iter()
                                .filter(&fits)
                                .map(|s| s.name)
                                .take(5)
                                .collect()
                        })
                        .unwrap_or_default();
                    return Err(RemoteError::NotFound(format!(
                        "no solver named '{name}' at {base_url}{}",
                        if fitting.is_empty() {
                            String::new()
                        } else {
                            format!("; {category} solvers there: {}", fitting.join(", "))
                        }
                    )));
                }
                Err(e) => return Err(e),
            };
            if !fits(&s) {
                return Err(RemoteError::Config(format!(
                    "solver {name} is a {} solver that does not take {problem_type:?} problems; \
                     this sampler needs a {category} solver",
                    s.category
                )));
            }
            s
        }
        None => {
            let mut candidates: Vec<Solver> = sapi
                .solvers()?
                .into_iter()
                .filter(|s| s.online && fits(s))
                .collect();
            candidates.sort_by(|a, b| {
                a.avg_load
                    .unwrap_or(0.0)
                    .total_cmp(&b.avg_load.unwrap_or(0.0))
            });
            candidates.into_iter().next().ok_or_else(|| {
                RemoteError::Config(format!(
                    "no online {category} solver taking {problem_type:?} problems at {base_url}"
                ))
            })?
        }
    };
    Ok(Connection {
        sapi,
        solver,
        base_url,
    })
}

/// The process environment, for samplers run from the CLI or the GUI.
pub fn process_env() -> &'static dyn Environment {
    &ProcessEnv
}

/// A finished problem: its answer and where the time went.
pub struct Finished {
    /// The answer object.
    pub answer: Value,
    /// The problem id.
    pub problem_id: String,
    /// Seconds from submit (or resume) to answer, as this machine saw them.
    pub wall_s: f64,
}

/// Submits `job` (or, with `settings.problem_id`, takes up that problem), reports it to the
/// caller through `control`, and waits for its answer. Cancelling the run cancels the problem
/// on the server.
pub fn run_problem(
    conn: &Connection,
    settings: &LeapSettings,
    sampler: &str,
    job: impl FnOnce() -> Result<Value, RemoteError>,
    control: &RunControl,
) -> Result<Finished, RemoteError> {
    let t0 = Instant::now();
    let mut record = RemoteJob {
        sampler: sampler.into(),
        endpoint: conn.base_url.clone(),
        solver: conn.solver.name.clone(),
        problem_id: String::new(),
        status: "submitting".into(),
    };
    control.report_remote_job(&record);
    let id = match &settings.problem_id {
        Some(id) => id.clone(),
        None => {
            let job = job()?;
            if control.is_cancelled() {
                return Err(RemoteError::Cancelled("cancelled before submitting".into()));
            }
            conn.sapi.submit(&job)?.id
        }
    };
    record.problem_id = id.clone();
    record.status = "PENDING".into();
    control.report_remote_job(&record);
    // The server holds a long poll up to this long; it must end before the request's deadline.
    let poll_wait_s = (settings.request_timeout_s - 1.0).floor().clamp(1.0, 30.0) as u64;
    let answer = conn
        .sapi
        .wait(&id, &|| control.is_cancelled(), poll_wait_s, &|status| {
            let mut now = record.clone();
            now.status = status.to_string();
            control.report_remote_job(&now);
        });
    if let Err(RemoteError::Cancelled(_)) = &answer {
        record.status = "CANCELLED".into();
        control.report_remote_job(&record);
    }
    // A problem taken up by id that the service does not know is the id's fault, not the
    // service's.
    let answer = match (answer, &settings.problem_id) {
        (Err(RemoteError::NotFound(_)), Some(given)) => Err(RemoteError::NotFound(format!(
            "no problem '{given}' on this account at {} (a wrong problem_id, or one the \
             service no longer keeps)",
            conn.base_url
        ))),
        (other, _) => other,
    };
    Ok(Finished {
        answer: answer?,
        problem_id: id,
        wall_s: t0.elapsed().as_secs_f64(),
    })
}

/// D-Wave Leap as the window presents it, for the hybrid solvers.
pub static HYBRID_SERVICE: Service = Service {
    name: "D-Wave Leap",
    account: account_lines,
    solvers: Some(ServiceSolvers {
        category: "hybrid",
        list: list_solvers,
    }),
    cost: hybrid_cost,
    cancel: cancel_problem,
    resume_param: "problem_id",
};

/// D-Wave Leap as the window presents it, for the QPU solvers.
pub static QPU_SERVICE: Service = Service {
    name: "D-Wave Leap",
    account: account_lines,
    solvers: Some(ServiceSolvers {
        category: "qpu",
        list: list_solvers,
    }),
    cost: qpu_cost,
    cancel: cancel_problem,
    resume_param: "problem_id",
};

/// Endpoint and token lines, each with where it came from; the token only as present or
/// missing. A setting given as a parameter is named by its field, not by a command-line flag.
fn account_lines(values: &ParamValues) -> Vec<(String, bool)> {
    let settings = LeapSettings::from_values(values);
    match resolve_config(&settings, process_env()) {
        Ok(c) => {
            let from = |k: &str| {
                c.sources
                    .get(k)
                    .map(|s| {
                        let name = |field: &str| format!("this panel's {field} field");
                        format!(" (from {})", dwave_config::source_name(s, &name))
                    })
                    .unwrap_or_default()
            };
            vec![
                (
                    format!("endpoint: {}{}", c.base_url(), from("endpoint")),
                    true,
                ),
                match &c.token {
                    Some(_) => (format!("token: present{}", from("token")), true),
                    None => (
                        "token: missing — set DWAVE_API_TOKEN, or token = … in a dwave.conf \
                         profile"
                            .to_string(),
                        false,
                    ),
                },
            ]
        }
        Err(e) => vec![(e.to_string(), false)],
    }
}

/// The solvers the account may use (a network call: job threads only).
fn list_solvers(values: &ParamValues) -> Result<Vec<ServiceSolver>, String> {
    let settings = LeapSettings::from_values(values);
    let solvers = client(&settings, process_env())
        .and_then(|c| c.solvers())
        .map_err(|e| e.to_string())?;
    Ok(solvers
        .into_iter()
        .map(|s| ServiceSolver {
            name: s.name,
            category: s.category,
            online: s.online,
            avg_load: s.avg_load,
            description: s.description,
            properties: s.properties,
        })
        .collect())
}

/// Cancels a problem submitted earlier (a network call: job threads only).
fn cancel_problem(values: &ParamValues, problem_id: &str) -> Result<String, String> {
    let settings = LeapSettings::from_values(values);
    let sapi = client(&settings, process_env()).map_err(|e| e.to_string())?;
    let status = sapi.cancel(problem_id).map_err(|e| e.to_string())?;
    Ok(format!("problem {problem_id} is {}", status.status))
}

/// A hybrid run bills its time limit, never less than the solver's minimum for the size.
fn hybrid_cost(values: &ParamValues, num_variables: usize, solver: Option<&Value>) -> String {
    let n = num_variables;
    let minimum = solver.map(|p| super::sapi::minimum_time_limit_s(&p["minimum_time_limit"], n));
    let limit = values.get("time_limit").and_then(Value::as_f64);
    match (limit, minimum) {
        (Some(t), Some(m)) => {
            format!("cost: {t} s of solver time (minimum {m} s for {n} variables)")
        }
        (None, Some(m)) => format!("cost: {m} s of solver time (the minimum for {n} variables)"),
        (Some(t), None) => format!("cost: {t} s of solver time"),
        (None, None) => {
            "cost: the solver's minimum time for the model (list solvers to see it)".into()
        }
    }
}

/// A QPU run bills each read's anneal and readout.
fn qpu_cost(values: &ParamValues, _num_variables: usize, _solver: Option<&Value>) -> String {
    let reads = values
        .get("num_reads")
        .and_then(Value::as_u64)
        .unwrap_or(100);
    let anneal_us = values
        .get("annealing_time")
        .and_then(Value::as_f64)
        .unwrap_or(20.0);
    // Each read anneals and then reads out (about 100–200 µs on Advantage systems).
    let estimate_ms = reads as f64 * (anneal_us + 150.0) / 1000.0;
    format!(
        "cost: about {estimate_ms:.0} ms of QPU time ({reads} reads × ({anneal_us} µs anneal + readout))"
    )
}
