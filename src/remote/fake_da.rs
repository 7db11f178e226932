//! A fake Fujitsu Digital Annealer (v4/v3c QUBO API) on 127.0.0.1, strict where the service is
//! (as Fujitsu's API reference states): exactly one credential header, JSON `Accept` and
//! `Content-Type`, the `fujitsuDA3` parameters within their documented ranges, a job limit per
//! user (429 when full, so a client that never deletes its results fails), jobs that go
//! `Waiting` → `Running` → `Done` over polls, 404 after `DELETE`. It anneals what it is sent with
//! our SA, so answers are real.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use serde_json::{Map, Value, json};

use super::loopback::{Loopback, Reply, Seen};

/// Jobs a user may hold at once.
pub const MAX_JOBS: usize = 16;

/// Switches a test can turn on.
#[derive(Clone, Debug, Default)]
pub struct DaFaults {
    /// Polls a job stays `Waiting`/`Running` before it is `Done`.
    pub polls_before_done: u32,
    /// Jobs end in `Error` with this message.
    pub fail_jobs: Option<String>,
}

struct DaJob {
    status: String,
    polls_left: u32,
    solution: Value,
    message: Option<String>,
}

struct State {
    key: String,
    jobs: BTreeMap<String, DaJob>,
    next_id: u64,
    seen: Vec<Seen>,
    faults: DaFaults,
}

/// A running fake; stops when dropped.
pub struct FakeDa {
    /// `http://127.0.0.1:PORT/da/`.
    pub base_url: String,
    state: Arc<Mutex<State>>,
    _server: Loopback,
}

impl FakeDa {
    /// Starts a fake on a free port accepting `key` (as `X-Api-Key` or `X-Access-Token`).
    pub fn start(key: &str) -> std::io::Result<Self> {
        Self::start_on(0, key)
    }

    /// Starts a fake on `port` of 127.0.0.1 (0: a free one).
    pub fn start_on(port: u16, key: &str) -> std::io::Result<Self> {
        let state = Arc::new(Mutex::new(State {
            key: key.to_string(),
            jobs: BTreeMap::new(),
            next_id: 1,
            seen: Vec::new(),
            faults: DaFaults::default(),
        }));
        let shared = state.clone();
        let server = Loopback::start(port, move |seen| respond(seen, &shared))?;
        Ok(FakeDa {
            base_url: format!("http://127.0.0.1:{}/da/", server.port),
            state,
            _server: server,
        })
    }

    /// Switches faults on or off.
    pub fn set_faults(&self, faults: DaFaults) {
        self.state.lock().expect("fake state").faults = faults;
    }

    /// Every request so far.
    pub fn seen(&self) -> Vec<Seen> {
        self.state.lock().expect("fake state").seen.clone()
    }

    /// Jobs held now.
    pub fn num_jobs(&self) -> usize {
        self.state.lock().expect("fake state").jobs.len()
    }
}

fn error(status: u16, title: &str, message: &str) -> Reply {
    let body = json!({"error": {"code": status.to_string(), "title": title, "message": message}});
    Some((
        status,
        "application/json".into(),
        body.to_string().into_bytes(),
    ))
}

fn ok(v: Value) -> Reply {
    Some((200, "application/json".into(), v.to_string().into_bytes()))
}

fn respond(req: &Seen, state: &Mutex<State>) -> Reply {
    let mut guard = state.lock().expect("fake state");
    let s = &mut *guard;
    s.seen.push(req.clone());
    let credentials: Vec<&str> = ["x-api-key", "x-access-token"]
        .iter()
        .filter_map(|h| req.header(h))
        .collect();
    match credentials.as_slice() {
        [one] if *one == s.key => {}
        [_] => return error(401, "Unauthorized", "invalid API key"),
        _ => {
            return error(
                400,
                "Bad Request",
                "send exactly one of X-Api-Key and X-Access-Token",
            );
        }
    }
    if req
        .header("accept")
        .is_some_and(|a| a != "application/json" && a != "*/*")
    {
        return error(406, "Not Acceptable", "Accept must be application/json");
    }
    let path = req.path.split('?').next().unwrap_or("");
    if path == "/da/v1/healthcheck" {
        return ok(json!({}));
    }
    let Some(rest) = ["/da/v4/", "/da/v3c/"]
        .iter()
        .find_map(|p| path.strip_prefix(p))
    else {
        return error(404, "Not Found", "unknown path");
    };
    match (req.method.as_str(), rest) {
        ("POST", "async/qubo/solve") => {
            if req.header("content-type") != Some("application/json") {
                return error(415, "Unsupported Media Type", "send application/json");
            }
            if s.jobs.len() >= MAX_JOBS {
                return error(
                    429,
                    "Too Many Requests",
                    "the job limit is reached: delete finished jobs",
                );
            }
            let request: Value = match serde_json::from_slice(&req.body) {
                Ok(v) => v,
                Err(e) => return error(400, "Bad Request", &format!("not JSON: {e}")),
            };
            let solution = match solve(&request) {
                Ok(v) => v,
                Err(e) => return error(400, "Bad Request", &e),
            };
            let id = format!("da-job-{:06}", s.next_id);
            s.next_id += 1;
            s.jobs.insert(
                id.clone(),
                DaJob {
                    status: "Waiting".into(),
                    polls_left: s.faults.polls_before_done,
                    solution,
                    message: None,
                },
            );
            ok(json!({ "job_id": id }))
        }
        ("GET", "async/jobs") => {
            let list: Vec<Value> = s
                .jobs
                .iter()
                .map(|(id, j)| json!({"job_id": id, "job_status": j.status, "start_time": "2026-01-01T12:00:00Z"}))
                .collect();
            ok(json!({ "job_status_list": list }))
        }
        ("GET", r) if r.starts_with("async/jobs/result/") => {
            let fail = s.faults.fail_jobs.clone();
            let Some(job) = s.jobs.get_mut(&r["async/jobs/result/".len()..]) else {
                return error(404, "Not Found", "no such job");
            };
            if matches!(job.status.as_str(), "Waiting" | "Running") {
                if job.polls_left == 0 {
                    match fail {
                        Some(m) => {
                            job.status = "Error".into();
                            job.message = Some(m);
                        }
                        None => job.status = "Done".into(),
                    }
                } else {
                    job.polls_left -= 1;
                    job.status = "Running".into();
                }
            }
            ok(job_json(job))
        }
        ("DELETE", r) if r.starts_with("async/jobs/result/") => {
            match s.jobs.remove(&r["async/jobs/result/".len()..]) {
                Some(mut job) => {
                    job.status = "Deleted".into();
                    ok(job_json(&job))
                }
                None => error(404, "Not Found", "no such job"),
            }
        }
        ("POST", "async/jobs/cancel") => {
            let id = serde_json::from_slice::<Value>(&req.body)
                .ok()
                .and_then(|v| v.get("job_id").and_then(Value::as_str).map(str::to_string))
                .unwrap_or_default();
            match s.jobs.get_mut(&id) {
                Some(job) => {
                    if matches!(job.status.as_str(), "Waiting" | "Running") {
                        job.status = "Canceled".into();
                    }
                    ok(json!({ "status": job.status }))
                }
                None => error(404, "Not Found", "no such job"),
            }
        }
        _ => error(404, "Not Found", "unknown path"),
    }
}

fn job_json(job: &DaJob) -> Value {
    let mut v = json!({ "status": job.status });
    if matches!(job.status.as_str(), "Done" | "Deleted") {
        v["qubo_solution"] = job.solution.clone();
    }
    if let Some(m) = &job.message {
        v["message"] = json!(m);
    }
    v
}

/// The documented `fujitsuDA3` parameters and their ranges.
const RANGES: &[(&str, f64, f64)] = &[
    ("time_limit_sec", 1.0, 3600.0),
    ("num_run", 1.0, 1024.0),
    ("num_group", 1.0, 16.0),
    ("num_output_solution", 1.0, 1024.0),
    ("gs_level", 0.0, 100.0),
    ("gs_cutoff", 0.0, 1_000_000.0),
    ("one_hot_level", 0.0, 100.0),
    ("one_hot_cutoff", 0.0, 1_000_000.0),
    ("internal_penalty", 0.0, 1.0),
    ("penalty_auto_mode", 0.0, 10_000.0),
    ("penalty_coef", 1.0, 1e18),
    ("penalty_inc_rate", 100.0, 200.0),
    ("max_penalty_coef", 0.0, 1e18),
    ("target_energy", -1e300, 1e300),
];

/// Checks a request, anneals its polynomial with our SA and returns the `qubo_solution`.
fn solve(request: &Value) -> Result<Value, String> {
    use crate::qubo::{Qubo, StoredModel};
    use crate::sampler::RunControl;
    let params = request
        .get("fujitsuDA3")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    for (k, v) in &params {
        if k.ends_with("_one_hot_groups") {
            continue; // read with the problem's size, below
        }
        let Some(&(_, lo, hi)) = RANGES.iter().find(|r| r.0 == k) else {
            return Err(format!("unknown fujitsuDA3 parameter {k:?}"));
        };
        let x = v.as_f64().ok_or(format!("{k} must be a number"))?;
        if !(lo..=hi).contains(&x) {
            return Err(format!("{k} is {x}, outside {lo}..={hi}"));
        }
    }
    let get = |k: &str, d: u64| params.get(k).and_then(Value::as_u64).unwrap_or(d);
    // The objective plus penalty_coef × the penalty polynomial (either may be empty).
    let coef = params
        .get("penalty_coef")
        .and_then(Value::as_f64)
        .unwrap_or(1.0);
    let objective = request
        .pointer("/binary_polynomial/terms")
        .and_then(Value::as_array)
        .ok_or("binary_polynomial.terms is missing")?;
    let penalty = match request.get("penalty_binary_polynomial") {
        None => &Vec::new(),
        Some(p) => p
            .get("terms")
            .and_then(Value::as_array)
            .ok_or("penalty_binary_polynomial.terms is missing")?,
    };
    if objective.is_empty() && penalty.is_empty() {
        return Err("both polynomials are empty".into());
    }
    let mut linear: BTreeMap<usize, f64> = BTreeMap::new();
    let mut quadratic = Vec::new();
    let mut offset = 0.0;
    for (t, scale) in objective
        .iter()
        .map(|t| (t, 1.0))
        .chain(penalty.iter().map(|t| (t, coef)))
    {
        let c = t
            .get("c")
            .or_else(|| t.get("coefficient"))
            .and_then(Value::as_f64)
            .ok_or("a term without a coefficient")?;
        if c.abs() > super::fujitsu::MAX_COEFFICIENT {
            return Err(format!("coefficient {c} is beyond 2^52"));
        }
        let c = c * scale;
        let p: Vec<usize> = t
            .get("p")
            .or_else(|| t.get("polynomials"))
            .and_then(Value::as_array)
            .ok_or("a term without p")?
            .iter()
            .map(|i| i.as_u64().filter(|&i| i < 1_000_000).map(|i| i as usize))
            .collect::<Option<_>>()
            .ok_or("a variable index that is not an integer below 10^6")?;
        match p.as_slice() {
            [] => offset += c,
            [i] => *linear.entry(*i).or_default() += c,
            [i, j] if i == j => *linear.entry(*i).or_default() += c,
            [i, j] => {
                linear.entry(*i).or_default();
                linear.entry(*j).or_default();
                quadratic.push((*i, *j, c));
            }
            _ => return Err("terms of degree above 2 are not QUBO".into()),
        }
    }
    let n = linear.keys().last().map_or(0, |&i| i + 1);
    let mut lin = vec![0.0; n];
    for (&i, &c) in &linear {
        lin[i] = c;
    }
    let qubo = Qubo::new(lin, quadratic, offset).map_err(|e| e.to_string())?;
    // The one-hot groups over the leading variables, kept satisfied as the annealer does:
    // our SA with moves that hold them.
    let groups = super::fujitsu::DaGroups::read(&params, n)?;
    let moves = match (groups.is_empty(), groups.two_way.is_some()) {
        (true, _) => "flip",
        (false, true) => "two-way",
        (false, false) => "one-hot",
    };
    let mut values = crate::params::ParamValues::new();
    values.insert("num_reads".into(), json!(get("num_run", 16).min(64)));
    values.insert("seed".into(), json!(1));
    values.insert("moves".into(), json!(moves));
    let sa = crate::sampler::annealing::ENTRY
        .build_with(&values)
        .map_err(|e| e.to_string())?;
    let set = sa
        .sample(
            &StoredModel::new(qubo).with_one_hot(groups),
            &RunControl::new().with_threads(Some(1)),
        )
        .map_err(|e| e.to_string())?;
    let keep = (get("num_output_solution", 5) * get("num_group", 1)) as usize;
    let solutions: Vec<Value> = set
        .rows
        .iter()
        .take(keep)
        .map(|r| {
            let configuration: Map<String, Value> = linear
                .keys()
                .map(|&i| (i.to_string(), json!(r.sample[i] == 1)))
                .collect();
            json!({"energy": r.energy, "penalty_energy": 0.0, "frequency": r.num_occurrences,
                   "configuration": configuration})
        })
        .collect();
    Ok(json!({
        "result_status": true,
        "progress": [{"energy": set.rows.first().map_or(0.0, |r| r.energy), "penalty_energy": 0.0, "time": 0.35}],
        "solutions": solutions,
        "timing": {"solve_time": "1027", "total_elapsed_time": "1062"},
    }))
}
