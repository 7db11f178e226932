//! `dwave-hybrid`: D-Wave Leap's hybrid BQM solvers. The model is written as a DIMODBQM v2
//! file (byte-identical with dimod's `to_file()`), uploaded by the multipart protocol, submitted
//! by reference with a `time_limit` no lower than the solver's minimum for its size, and the
//! `bq` sample set that comes back becomes our `SampleSet` — energies recomputed from the model,
//! the service's timing in `info.details`.
//!
//! Invariant: the upload carries no variable labels, so dimod numbers the variables `0..n` and
//! column `k` of the answer is found by its label, never assumed from its position.

use std::collections::BTreeMap;
use std::time::Instant;

use serde_json::{Value, json};

use super::leap::{self, LeapSettings};
use super::sapi::minimum_time_limit_s;
use super::{RemoteError, bq};
use crate::params::{ParamDefault, ParamSpec, ParamType, ParamValues};
use crate::qubo::Model;
use crate::qubo::formats::{Format, model_to_bytes};
use crate::sampler::{
    RunControl, RunsOn, SampleError, SampleInfo, SampleSet, Sampler, SamplerEntry,
};

/// The registry entry.
pub const ENTRY: SamplerEntry = SamplerEntry {
    name: "dwave-hybrid",
    summary: "D-Wave Leap hybrid BQM solver: the model uploaded as a dimod BQM file and sampled \
              remotely (needs a Leap token: DWAVE_API_TOKEN or dwave.conf)",
    params: &[
        leap::SOLVER,
        TIME_LIMIT,
        leap::ENDPOINT,
        leap::REGION,
        leap::PROFILE,
        leap::CONFIG_FILE,
        leap::PROBLEM_ID,
        leap::REQUEST_TIMEOUT_S,
    ],
    build: |values| Ok(Box::new(DwaveHybrid::from_values(values))),
    runs_on: RunsOn::Service(&leap::HYBRID_SERVICE),
    plots: &[],
    effort: None,
};

const TIME_LIMIT: ParamSpec = ParamSpec {
    name: "time_limit",
    ty: ParamType::Float {
        min: 0.0,
        max: 86_400.0,
    },
    default: ParamDefault::Auto("the solver's minimum for the model's size (≥ 3 s)"),
    help: "run time the solver may use, in seconds (billed: the solver refuses less than its \
           minimum for the model's size)",
    alias: None,
    exposed: true,
};

/// The hybrid sampler's settings.
#[derive(Clone, Debug, Default)]
pub struct DwaveHybrid {
    /// Where and how to connect.
    pub leap: LeapSettings,
    /// `time_limit` in seconds (`None`: the solver's minimum).
    pub time_limit: Option<f64>,
    /// An environment to read instead of the process's (tests).
    pub environment: Option<BTreeMap<String, String>>,
}

impl DwaveHybrid {
    /// From validated parameter values.
    pub fn from_values(values: &ParamValues) -> Self {
        DwaveHybrid {
            leap: LeapSettings::from_values(values),
            time_limit: values.get("time_limit").and_then(Value::as_f64),
            environment: None,
        }
    }

    /// Reads `DWAVE_*` from `env` instead of the process environment.
    pub fn with_environment(mut self, env: BTreeMap<String, String>) -> Self {
        self.environment = Some(env);
        self
    }

    fn run(&self, model: &dyn Model, control: &RunControl) -> Result<SampleSet, SampleError> {
        let t0 = Instant::now();
        let env = super::environment(&self.environment);
        let conn = leap::connect(&self.leap, "hybrid", "bqm", env)?;
        let props = &conn.solver.properties;
        let qubo = super::model_qubo(model)?;
        let n = qubo.num_variables();
        let limits = [
            ("maximum_number_of_variables", n as u64, "variables"),
            (
                "maximum_number_of_biases",
                (n + qubo.num_interactions()) as u64,
                "biases",
            ),
        ];
        for (key, have, what) in limits {
            if let Some(max) = props[key].as_u64()
                && have > max
            {
                return Err(SampleError::ModelNotSupported(format!(
                    "the model has {have} {what}; {} takes at most {max}",
                    conn.solver.name
                )));
            }
        }
        let minimum = minimum_time_limit_s(&props["minimum_time_limit"], n);
        let time_limit = match self.time_limit {
            Some(t) if t < minimum => {
                return Err(SampleError::param(
                    "time_limit",
                    format!(
                        "{t} s is below {}'s minimum of {minimum} s for {n} variables",
                        conn.solver.name
                    ),
                ));
            }
            Some(t) => t,
            None => minimum,
        };
        let bytes = model_to_bytes(&qubo, None, Format::DimodBqm);
        let upload_bytes = bytes.len();
        let mut identity = json!({ "name": conn.solver.name });
        if let Some(g) = &conn.solver.graph_id {
            identity["version"] = json!({ "graph_id": g });
        }
        let preprocessing_ns = t0.elapsed().as_nanos() as u64;
        let job = || {
            control.report_remote_job(&crate::sampler::RemoteJob {
                sampler: ENTRY.name.into(),
                endpoint: conn.base_url.clone(),
                solver: conn.solver.name.clone(),
                problem_id: String::new(),
                status: "uploading".into(),
            });
            let data_id = conn.sapi.upload(&bytes)?;
            Ok::<_, RemoteError>(json!({
                "solver": identity,
                "type": "bqm",
                "data": {"format": "ref", "data": data_id},
                "params": {"time_limit": time_limit},
                "label": "qubo-workbench",
            }))
        };
        let mut info = SampleInfo {
            sampler: ENTRY.name.into(),
            params: self.params(),
            preprocessing_ns,
            ..SampleInfo::default()
        };
        let finished = match leap::run_problem(&conn, &self.leap, ENTRY.name, job, control) {
            Ok(f) => f,
            Err(RemoteError::Cancelled(_)) if control.is_cancelled() => {
                return Ok(SampleSet::cancelled_without_reads(n, info));
            }
            Err(e) => return Err(e.into()),
        };
        let t_post = Instant::now();
        let answer = bq::decode_answer(&finished.answer)?;
        let columns = bq::columns_of_variables(&answer.labels, n)?;
        let counted: Vec<(Vec<u8>, usize)> = answer
            .samples
            .iter()
            .zip(&answer.num_occurrences)
            .map(|(row, &count)| (columns.iter().map(|&c| row[c]).collect(), count as usize))
            .collect();
        // The service's energies, to say so if they disagree with the model's.
        let worst = counted
            .iter()
            .zip(&answer.energies)
            .map(|((x, _), &theirs)| (model.energy(x) - theirs).abs())
            .fold(0.0, f64::max);
        if worst > qubo.energy_tolerance() {
            info.warnings.push(format!(
                "the service's energies differ from the model's by up to {worst:.6}; the \
                 model's are shown"
            ));
        }
        info.num_reads_requested = answer.num_occurrences.iter().sum::<u64>() as usize;
        info.sampling_ns = (finished.wall_s * 1e9) as u64;
        info.details
            .insert("problem_id".into(), json!(finished.problem_id));
        info.details
            .insert("solver".into(), json!(conn.solver.name));
        info.details.insert("endpoint".into(), json!(conn.base_url));
        info.details
            .insert("time_limit_s".into(), json!(time_limit));
        info.details
            .insert("upload_bytes".into(), json!(upload_bytes));
        info.details.insert("wall_s".into(), json!(finished.wall_s));
        info.details
            .insert("service_info".into(), Value::Object(answer.info));
        let mut set = SampleSet::from_counted(model, counted, info);
        set.info.postprocessing_ns = t_post.elapsed().as_nanos() as u64;
        Ok(set)
    }
}

impl Sampler for DwaveHybrid {
    fn name(&self) -> &'static str {
        ENTRY.name
    }

    fn params(&self) -> Value {
        let mut m = self.leap.to_json();
        m.insert(
            "time_limit".into(),
            self.time_limit.map_or(Value::Null, Value::from),
        );
        Value::Object(m)
    }

    fn sample(&self, model: &dyn Model, control: &RunControl) -> Result<SampleSet, SampleError> {
        self.run(model, control)
    }
}
