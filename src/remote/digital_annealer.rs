//! `fujitsu-da`: Fujitsu's Digital Annealer as a sampler. The model goes as a binary polynomial
//! with the `fujitsuDA3` parameters (their documented ranges described once here for the CLI and
//! the GUI), the job is polled until done, its result read and deleted, and the solutions become
//! our `SampleSet` — energies recomputed from the model, the service's timing in `details`.
//!
//! The key comes from `key_file`, else `FUJITSU_DA_API_KEY` (sent as `X-Api-Key`), else
//! `FUJITSU_DA_ACCESS_TOKEN` (`X-Access-Token`); it is never a parameter, so it is never echoed.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};

use super::dwave_config::Environment;
use super::fujitsu::{
    Credential, DEFAULT_ENDPOINT, DaClient, DaGroups, decode_solution, request, timing_ms,
};
use super::{RemoteError, Secret};
use crate::params::{ParamDefault, ParamSpec, ParamType, ParamValues};
use crate::qubo::Model;
use crate::sampler::{
    RemoteJob, RunControl, RunsOn, SampleError, SampleInfo, SampleSet, Sampler, SamplerEntry,
    Service,
};

const fn int(
    name: &'static str,
    min: u64,
    max: u64,
    default: u64,
    help: &'static str,
) -> ParamSpec {
    ParamSpec {
        name,
        ty: ParamType::Int { min, max },
        default: ParamDefault::Int(default),
        help,
        alias: None,
        exposed: true,
    }
}

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

/// The `fujitsuDA3` parameters sent as they are.
const SERVICE_PARAMS: [&str; 10] = [
    "time_limit_sec",
    "num_run",
    "num_group",
    "num_output_solution",
    "gs_level",
    "gs_cutoff",
    "penalty_coef",
    "penalty_auto_mode",
    "penalty_inc_rate",
    "max_penalty_coef",
];

/// The largest penalty coefficient sent (coefficients beyond 2^52 lose exactness on DA4).
const MAX_PENALTY_COEF: u64 = 1 << 52;

/// The registry entry.
pub const ENTRY: SamplerEntry = SamplerEntry {
    name: "fujitsu-da",
    summary: "Fujitsu Digital Annealer (v4 API): the model as a binary polynomial, solved \
              remotely (needs a key: FUJITSU_DA_API_KEY or key_file)",
    params: &[
        int(
            "time_limit_sec",
            1,
            3600,
            10,
            "search time on the annealer, in seconds (billed)",
        ),
        int("num_run", 1, 1024, 16, "parallel annealing runs"),
        int("num_group", 1, 16, 1, "groups of runs"),
        int(
            "num_output_solution",
            1,
            1024,
            5,
            "solutions returned per group (the best found)",
        ),
        int("gs_level", 0, 100, 5, "global search level"),
        int(
            "gs_cutoff",
            0,
            1_000_000,
            8000,
            "global search cut-off level",
        ),
        ParamSpec {
            name: "one_hot_groups",
            ty: ParamType::Choice(&["auto", "off"]),
            default: ParamDefault::Word("auto"),
            help: "auto: send the model's exactly-one groups (a cell's digits, a position's \
                   pieces) as two_way_one_hot_groups or one_way_one_hot_groups, so the \
                   annealer only visits states that satisfy them; off: send none",
            alias: None,
            exposed: true,
        },
        ParamSpec {
            name: "polynomial",
            ty: ParamType::Choice(&["objective", "penalty"]),
            default: ParamDefault::Word("objective"),
            help: "how the model is sent: as the objective (binary_polynomial), or as the \
                   constraint penalty (penalty_binary_polynomial) — our puzzle models are \
                   penalties through and through, every valid solution at the ground energy — \
                   which the annealer multiplies by penalty_coef and, with penalty_auto_mode, \
                   raises while its runs end on broken constraints (energies shown are always \
                   the model's)",
            alias: None,
            exposed: true,
        },
        int(
            "penalty_coef",
            1,
            MAX_PENALTY_COEF,
            1,
            "multiplier of the penalty polynomial (with polynomial = penalty)",
        ),
        int(
            "penalty_auto_mode",
            0,
            10_000,
            1,
            "automatic raising of penalty_coef (0: off; with polynomial = penalty)",
        ),
        int(
            "penalty_inc_rate",
            100,
            200,
            150,
            "how fast penalty_auto_mode raises the coefficient, in percent",
        ),
        int(
            "max_penalty_coef",
            0,
            MAX_PENALTY_COEF,
            0,
            "the most penalty_auto_mode may raise the coefficient to (0: no limit)",
        ),
        text(
            "endpoint",
            "FUJITSU_DA_ENDPOINT, or https://api.aispf.global.fujitsu.com/da/",
            "the service's base URL (https://…; http only to 127.0.0.1 for local fakes)",
        ),
        ParamSpec {
            name: "api_version",
            ty: ParamType::Choice(&["v4", "v3c"]),
            default: ParamDefault::Word("v4"),
            help: "API version in the path (v4: DA4; v3c has the same JSON)",
            alias: None,
            exposed: true,
        },
        text(
            "key_file",
            "FUJITSU_DA_API_KEY, or FUJITSU_DA_ACCESS_TOKEN",
            "a file holding the API key (its first line)",
        ),
        text(
            "job_id",
            "submit a new job",
            "wait for this already-submitted job instead of submitting (nothing is sent twice)",
        ),
        ParamSpec {
            name: "request_timeout_s",
            ty: ParamType::Float {
                min: 0.1,
                max: 3600.0,
            },
            default: ParamDefault::Float(60.0),
            help: "deadline of each HTTP request, in seconds",
            alias: None,
            exposed: true,
        },
        ParamSpec {
            name: "poll_interval_s",
            ty: ParamType::Float {
                min: 0.01,
                max: 600.0,
            },
            default: ParamDefault::Float(1.0),
            help: "pause between polls of a running job, in seconds",
            alias: None,
            exposed: true,
        },
    ],
    build: |values| Ok(Box::new(DigitalAnnealer::from_values(values))),
    runs_on: RunsOn::Service(&SERVICE),
    plots: &[],
    effort: None,
};

/// The sampler's settings.
#[derive(Clone, Debug, Default)]
pub struct DigitalAnnealer {
    /// Every parameter as validated.
    pub values: ParamValues,
    /// An environment to read instead of the process's (tests).
    pub environment: Option<BTreeMap<String, String>>,
}

impl DigitalAnnealer {
    /// From validated parameter values.
    pub fn from_values(values: &ParamValues) -> Self {
        DigitalAnnealer {
            values: values.clone(),
            environment: None,
        }
    }

    /// Reads `FUJITSU_DA_*` from `env` instead of the process environment.
    pub fn with_environment(mut self, env: BTreeMap<String, String>) -> Self {
        self.environment = Some(env);
        self
    }

    fn text(&self, k: &str) -> Option<String> {
        self.values
            .get(k)
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(str::to_string)
    }

    fn number(&self, k: &str, default: f64) -> f64 {
        self.values
            .get(k)
            .and_then(Value::as_f64)
            .unwrap_or(default)
    }

    /// The client for the settings in effect.
    pub fn client(&self, env: &dyn Environment) -> Result<DaClient, RemoteError> {
        // The address first: a key must not even be looked up for one that would leak it.
        let endpoint = self
            .text("endpoint")
            .or_else(|| env.var("FUJITSU_DA_ENDPOINT"))
            .unwrap_or_else(|| DEFAULT_ENDPOINT.to_string());
        super::check_endpoint(&endpoint)?;
        let (secret, credential) = match self.text("key_file") {
            Some(path) => {
                let text = crate::io::read_text_limited(std::path::Path::new(&path), 64 << 10)
                    .map_err(|e| RemoteError::Config(format!("cannot read the key file: {e}")))?;
                let key = text.lines().next().unwrap_or("").trim().to_string();
                if key.is_empty() {
                    return Err(RemoteError::Config(format!(
                        "{path}: the key file is empty"
                    )));
                }
                (Secret::new(key).checked("key", &path)?, Credential::ApiKey)
            }
            None => match (
                env.var("FUJITSU_DA_API_KEY"),
                env.var("FUJITSU_DA_ACCESS_TOKEN"),
            ) {
                (Some(k), _) => (
                    Secret::new(k).checked("key", "FUJITSU_DA_API_KEY")?,
                    Credential::ApiKey,
                ),
                (None, Some(t)) => (
                    Secret::new(t).checked("access token", "FUJITSU_DA_ACCESS_TOKEN")?,
                    Credential::AccessToken,
                ),
                (None, None) => {
                    return Err(RemoteError::Config(
                        "no Digital Annealer key: set FUJITSU_DA_API_KEY (or \
                         FUJITSU_DA_ACCESS_TOKEN), or give key_file"
                            .into(),
                    ));
                }
            },
        };
        let version = self.text("api_version").unwrap_or_else(|| "v4".into());
        DaClient::new(
            &endpoint,
            &version,
            secret,
            credential,
            Duration::from_secs_f64(self.number("request_timeout_s", 60.0)),
        )
    }

    fn run(&self, model: &dyn Model, control: &RunControl) -> Result<SampleSet, SampleError> {
        let t0 = Instant::now();
        let env = super::environment(&self.environment);
        let client = self.client(env)?;
        let qubo = super::model_qubo(model)?;
        let n = qubo.num_variables();
        let as_penalty = self.text("polynomial").as_deref() == Some("penalty");
        // Penalty settings mean nothing without a penalty polynomial: not sent then.
        let service: Map<String, Value> = SERVICE_PARAMS
            .iter()
            .filter(|k| as_penalty || !k.contains("penalty"))
            .filter_map(|&k| Some((k.to_string(), self.values.get(k)?.clone())))
            .collect();
        let groups = match self.text("one_hot_groups").as_deref() {
            Some("off") => DaGroups::of(None, n),
            _ => DaGroups::of(model.one_hot(), n),
        };
        let body = request(&qubo, service, as_penalty, &groups)?;
        let mut info = SampleInfo {
            sampler: ENTRY.name.into(),
            params: self.params(),
            preprocessing_ns: t0.elapsed().as_nanos() as u64,
            ..SampleInfo::default()
        };
        let mut record = RemoteJob {
            sampler: ENTRY.name.into(),
            endpoint: self
                .text("endpoint")
                .unwrap_or_else(|| DEFAULT_ENDPOINT.into()),
            solver: "fujitsuDA3".into(),
            problem_id: String::new(),
            status: "submitting".into(),
        };
        control.report_remote_job(&record);
        let t_remote = Instant::now();
        let job_id = match self.text("job_id") {
            Some(id) => id,
            None => client.solve(&body)?,
        };
        record.problem_id = job_id.clone();
        record.status = "Waiting".into();
        control.report_remote_job(&record);
        let interval = Duration::from_secs_f64(self.number("poll_interval_s", 1.0));
        let answer = client.wait(&job_id, interval, &|| control.is_cancelled(), &|status| {
            let mut now = record.clone();
            now.status = status.to_string();
            control.report_remote_job(&now);
        });
        let solution = match answer {
            Ok(s) => s,
            Err(RemoteError::Cancelled(_)) if control.is_cancelled() => {
                return Ok(SampleSet::cancelled_without_reads(n, info));
            }
            Err(e) => return Err(e.into()),
        };
        let wall_s = t_remote.elapsed().as_secs_f64();
        let t_post = Instant::now();
        let mut solutions = decode_solution(&solution, n)?;
        for s in &mut solutions {
            s.sample = groups.to_model(&s.sample);
        }
        let worst = solutions
            .iter()
            .map(|s| (model.energy(&s.sample) - qubo.offset() - s.energy).abs())
            .fold(0.0, f64::max);
        if worst > qubo.energy_tolerance() {
            info.warnings.push(format!(
                "the service's energies differ from the model's (offset aside) by up to \
                 {worst:.6}; the model's are shown"
            ));
        }
        let counted: Vec<(Vec<u8>, usize)> = solutions
            .into_iter()
            .map(|s| (s.sample, s.frequency as usize))
            .collect();
        info.num_reads_requested = counted.iter().map(|c| c.1).sum();
        info.sampling_ns = (wall_s * 1e9) as u64;
        info.details.insert("job_id".into(), json!(job_id));
        if let Some((key, numbers)) = &groups.param {
            info.details.insert(
                "one_hot_groups".into(),
                json!(format!("{} groups sent as {key}", numbers.len())),
            );
        }
        info.details.insert("wall_s".into(), json!(wall_s));
        info.details
            .insert("timing".into(), Value::Object(timing_ms(&solution)));
        let mut set = SampleSet::from_counted(model, counted, info);
        set.info.postprocessing_ns = t_post.elapsed().as_nanos() as u64;
        Ok(set)
    }
}

impl Sampler for DigitalAnnealer {
    fn name(&self) -> &'static str {
        ENTRY.name
    }

    fn params(&self) -> Value {
        Value::Object(self.values.clone())
    }

    fn sample(&self, model: &dyn Model, control: &RunControl) -> Result<SampleSet, SampleError> {
        self.run(model, control)
    }
}

/// Fujitsu's Digital Annealer as the window presents it.
pub static SERVICE: Service = Service {
    name: "Fujitsu Digital Annealer",
    account: account_lines,
    solvers: None,
    cost: |values, _, _| {
        let seconds = values
            .get("time_limit_sec")
            .and_then(Value::as_u64)
            .unwrap_or(10);
        format!("cost: {seconds} s of annealer time per job")
    },
    cancel: cancel_job,
    resume_param: "job_id",
};

/// The key as present or missing (never its value), or why it cannot be read.
fn account_lines(values: &ParamValues) -> Vec<(String, bool)> {
    vec![
        match DigitalAnnealer::from_values(values).client(super::leap::process_env()) {
            Ok(_) => ("key: present".to_string(), true),
            Err(e) => (e.to_string(), false),
        },
    ]
}

/// Cancels a job submitted earlier and deletes it (a network call: job threads only).
fn cancel_job(values: &ParamValues, job_id: &str) -> Result<String, String> {
    let client = DigitalAnnealer::from_values(values)
        .client(super::leap::process_env())
        .map_err(|e| e.to_string())?;
    let status = client.cancel(job_id).map_err(|e| e.to_string())?;
    // The job is gone either way; a failed delete leaves it to the service's own expiry.
    let _ = client.delete(job_id);
    Ok(format!("job {job_id} is {status} and deleted"))
}
