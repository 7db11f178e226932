//! A fake SAPI server on 127.0.0.1 for tests (and, later, for checking it against the official
//! Python client). It is strict where the real service is: the token must match, replies carry
//! the exact versioned media types, deflate bodies are inflated, unknown solvers are 404s.
//! Faults are switched on per test (`Faults`).
//!
//! Problems (`qp` on QPU solvers) are decoded against the solver's working graph and sampled
//! with our own simulated annealing on the physical problem, so answers are real. Hybrid
//! problems arrive by the multipart upload (each part's `Content-MD5` checked, the combine
//! checksum over the part digests, the assembled size against the declared one) and are
//! submitted by reference; their answers are dimod `bq` sample sets.

use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use serde_json::{Value, json};

use super::loopback::Loopback;
use super::sapi::media;
use super::topology::WorkingGraph;

/// Faults a test can switch on.
#[derive(Clone, Debug, Default)]
pub struct Faults {
    /// Reply to every call after this delay (past the client's timeout: a slow server).
    pub delay: Option<Duration>,
    /// Close the connection without replying.
    pub drop_connection: bool,
    /// Send `version=2.0.0` in `Content-Type` (the client must refuse it).
    pub wrong_version: bool,
    /// Reply with a body that is not JSON.
    pub malformed_json: bool,
    /// Answer this many polls with HTTP 500 first (transient server errors).
    pub poll_errors: u32,
    /// Problems end `FAILED` with this message.
    pub fail_problems: Option<String>,
    /// Polls a problem stays `PENDING`/`IN_PROGRESS` before it completes (0: done at submit).
    pub polls_before_done: u32,
    /// Refuse uploads of this part number (HTTP 400), to test resuming an upload.
    pub reject_part: Option<usize>,
}

struct FakeProblem {
    status: String,
    identity: Value,
    kind: String,
    answer: Option<Value>,
    polls_left: u32,
    error_message: Option<String>,
}

impl FakeProblem {
    fn status_json(&self, id: &str, with_answer: bool) -> Value {
        let mut v = json!({
            "id": id, "type": self.kind, "solver": self.identity, "status": self.status,
            "submitted_on": "2026-01-01T12:00:00.000000+00:00",
            "solved_on": if self.status == "COMPLETED" { json!("2026-01-01T12:00:01.000000+00:00") } else { Value::Null },
        });
        if let Some(m) = &self.error_message {
            v["error_message"] = json!(m);
        }
        if with_answer && self.status == "COMPLETED" {
            v["answer"] = self.answer.clone().unwrap_or(Value::Null);
        }
        v
    }
}

pub use super::loopback::Seen;

/// A multipart upload in progress or complete.
struct Upload {
    size: usize,
    parts: std::collections::BTreeMap<usize, Vec<u8>>,
    data: Option<Vec<u8>>,
}

struct State {
    uploads: std::collections::BTreeMap<String, Upload>,
    token: String,
    solvers: Vec<Value>,
    faults: Faults,
    seen: Vec<Seen>,
    problems: std::collections::BTreeMap<String, FakeProblem>,
    next_id: u64,
}

/// A running fake; stops when dropped.
pub struct FakeSapi {
    /// `http://127.0.0.1:PORT/sapi/v2/`.
    pub base_url: String,
    state: Arc<Mutex<State>>,
    _server: Loopback,
}

impl FakeSapi {
    /// Starts a fake on a free port that accepts `token` and lists `solvers` (v3 solver
    /// definitions).
    pub fn start(token: &str, solvers: Vec<Value>) -> std::io::Result<Self> {
        Self::start_on(0, token, solvers)
    }

    /// Starts a fake on `port` of 127.0.0.1 (0: a free one).
    pub fn start_on(port: u16, token: &str, solvers: Vec<Value>) -> std::io::Result<Self> {
        let state = Arc::new(Mutex::new(State {
            token: token.to_string(),
            solvers,
            faults: Faults::default(),
            seen: Vec::new(),
            problems: Default::default(),
            uploads: Default::default(),
            next_id: 1,
        }));
        let shared = state.clone();
        let server = Loopback::start(port, move |seen| respond(seen, &shared))?;
        Ok(FakeSapi {
            base_url: format!("http://127.0.0.1:{}/sapi/v2/", server.port),
            state,
            _server: server,
        })
    }

    /// Switches faults on or off.
    pub fn set_faults(&self, faults: Faults) {
        self.state.lock().expect("fake state").faults = faults;
    }

    /// Lets every running problem complete at its next poll (a long job that finishes while
    /// the client is away).
    pub fn complete_all(&self) {
        for p in self.state.lock().expect("fake state").problems.values_mut() {
            p.polls_left = 0;
        }
    }

    /// Every request so far.
    pub fn seen(&self) -> Vec<Seen> {
        self.state.lock().expect("fake state").seen.clone()
    }
}

/// A 4-qubit QPU (a ring) and a hybrid BQM solver, as the protocol notes' example lists them,
/// an Advantage-sized QPU (`pegasus_solver(16, …)`) and an Advantage2-sized one
/// (`zephyr_solver(12, 4, …)`), each with some qubits and couplers dead.
pub fn example_solvers() -> Vec<Value> {
    let mut solvers = ring_and_hybrid_solvers();
    solvers.push(pegasus_solver("Advantage_system_mock", 16, 0.01, 0.005, 4));
    solvers.push(zephyr_solver("Advantage2_system_mock", 12, 4, 20, 30, 5));
    solvers
}

/// A Zephyr Z(m, t) QPU with `dead_qubits` qubits and `dead_couplers` couplers dead (seeded),
/// described as SAPI describes an Advantage2 system.
pub fn zephyr_solver(
    name: &str,
    m: usize,
    t: usize,
    dead_qubits: usize,
    dead_couplers: usize,
    seed: u64,
) -> Value {
    let graph = super::topology::zephyr(m, t).with_dead(dead_qubits, dead_couplers, seed);
    let mut solver = qpu_solver(
        name,
        &graph,
        super::topology::zephyr_num_qubits(m, t),
        json!({"type": "zephyr", "shape": [m, t]}),
    );
    solver["identity"]["version"]["graph_id"] = json!(format!("zephyr_{m}_{t}_{seed}"));
    solver["description"] = json!(format!("Z({m}, {t}) mock QPU"));
    // Busier than the Advantage mock, so "the least-loaded QPU" stays that one.
    solver["avg_load"] = json!(0.3);
    solver
}

/// A Pegasus P(m) QPU with a fraction of its qubits and couplers dead (seeded), described as
/// SAPI describes an Advantage system.
pub fn pegasus_solver(
    name: &str,
    m: usize,
    dead_qubits: f64,
    dead_couplers: f64,
    seed: u64,
) -> Value {
    let graph = super::topology::pegasus(m).with_defects(dead_qubits, dead_couplers, seed);
    let mut solver = qpu_solver(
        name,
        &graph,
        super::topology::pegasus_num_qubits(m),
        json!({"type": "pegasus", "shape": [m]}),
    );
    solver["identity"]["version"]["graph_id"] = json!(format!("pegasus_{m}_{seed}"));
    solver["description"] = json!(format!("P{m} mock QPU"));
    solver
}

/// A QPU solver on `graph` as SAPI describes one (ranges of an Advantage-class system).
fn qpu_solver(name: &str, graph: &WorkingGraph, num_qubits: usize, topology: Value) -> Value {
    json!({
        "identity": {"name": name, "version": {"graph_id": ""}},
        "status": "ONLINE", "description": "", "avg_load": 0.05,
        "properties": {
            "category": "qpu", "supported_problem_types": ["qubo", "ising"],
            "num_qubits": num_qubits,
            "qubits": graph.qubits,
            "couplers": graph.couplers.iter().map(|&(a, b)| [a, b]).collect::<Vec<_>>(),
            "h_range": [-4.0, 4.0], "j_range": [-1.0, 1.0],
            "extended_j_range": [-2.0, 1.0],
            "num_reads_range": [1, 10000], "annealing_time_range": [0.5, 2000.0],
            "default_annealing_time": 20.0,
            "topology": topology,
            "parameters": {"num_reads": "reads", "annealing_time": "µs", "label": "label"}
        }
    })
}

fn ring_and_hybrid_solvers() -> Vec<Value> {
    vec![
        json!({
            "identity": {"name": "Advantage_mock", "version": {"graph_id": "ring_4"}},
            "status": "ONLINE", "description": "4-qubit mock QPU", "avg_load": 0.12,
            "properties": {
                "category": "qpu", "supported_problem_types": ["qubo", "ising"],
                "num_qubits": 4, "qubits": [0, 1, 2, 3],
                "couplers": [[0, 1], [1, 2], [2, 3], [0, 3]],
                "h_range": [-2.0, 2.0], "j_range": [-1.0, 1.0],
                "num_reads_range": [1, 10000], "annealing_time_range": [1.0, 2000.0],
                "topology": {"type": "ring", "shape": [4]},
                "parameters": {"num_reads": "reads", "annealing_time": "µs", "label": "label"}
            }
        }),
        json!({
            "identity": {"name": "hybrid_binary_quadratic_model_version2"},
            "status": "ONLINE", "description": "hybrid BQM", "avg_load": 0.0,
            "properties": {
                "category": "hybrid", "supported_problem_types": ["bqm"],
                "parameters": {"time_limit": "Maximum run time, in seconds"},
                "minimum_time_limit": [[1, 3.0], [1024, 3.0], [4096, 5.0]],
                "maximum_time_limit_hrs": 24.0,
                "maximum_number_of_variables": 1000000,
                "maximum_number_of_biases": 200000000
            }
        }),
    ]
}

/// One request: the faults first, then the route.
fn respond(seen: &Seen, state: &Mutex<State>) -> super::loopback::Reply {
    let faults = {
        let mut s = state.lock().expect("fake state");
        s.seen.push(seen.clone());
        s.faults.clone()
    };
    if let Some(d) = faults.delay {
        thread::sleep(d);
    }
    if faults.drop_connection {
        return None;
    }
    let (status, content_type, body) = route(seen, state);
    let content_type = if faults.wrong_version {
        content_type.replace("version=3.0.0", "version=2.0.0")
    } else {
        content_type
    };
    let body = if faults.malformed_json && status == 200 {
        b"{not json".to_vec()
    } else {
        body
    };
    Some((status, content_type, body))
}

fn versioned(media_type: &str) -> String {
    format!("{media_type}; version=3.0.0")
}

fn error(status: u16, message: &str) -> (u16, String, Vec<u8>) {
    (
        status,
        "application/json".to_string(),
        json!({"error_code": status, "error_msg": message})
            .to_string()
            .into_bytes(),
    )
}

fn route(req: &Seen, state: &Mutex<State>) -> (u16, String, Vec<u8>) {
    let mut guard = state.lock().expect("fake state");
    let s = &mut *guard;
    let token = req.headers.iter().find(|h| h.0 == "x-auth-token");
    if token.map(|t| t.1.as_str()) != Some(s.token.as_str()) {
        return error(401, "Invalid token or access denied");
    }
    let path = req.path.split('?').next().unwrap_or("");
    let Some(rest) = path.strip_prefix("/sapi/v2/") else {
        return error(404, "Not found");
    };
    let rest = rest.trim_end_matches('/');
    match (req.method.as_str(), rest) {
        ("GET", "solvers/remote") => (
            200,
            versioned(media::SOLVER_LIST),
            Value::Array(s.solvers.clone()).to_string().into_bytes(),
        ),
        ("GET", r) if r.starts_with("solvers/remote/") => {
            let name = &r["solvers/remote/".len()..];
            match s
                .solvers
                .iter()
                .find(|v| v.pointer("/identity/name").and_then(Value::as_str) == Some(name))
            {
                Some(v) => (200, versioned(media::SOLVER), v.to_string().into_bytes()),
                None => error(404, &format!("Solver {name} not found")),
            }
        }
        ("POST", "problems") => {
            let Ok(v) = serde_json::from_slice::<Value>(&req.body) else {
                return error(400, "the body is not JSON");
            };
            let jobs = match v {
                Value::Array(a) => a,
                one => vec![one],
            };
            let replies: Vec<Value> = jobs.iter().map(|job| submit(s, job)).collect();
            (
                200,
                versioned(media::PROBLEMS),
                Value::Array(replies).to_string().into_bytes(),
            )
        }
        ("POST", "bqm/multipart") => {
            let size = serde_json::from_slice::<Value>(&req.body)
                .ok()
                .and_then(|v| v.get("size").and_then(Value::as_u64));
            match size {
                Some(size) if size > 0 && size as usize <= MAX_UPLOAD => {
                    let id = format!("upload-{:08}", s.next_id);
                    s.next_id += 1;
                    s.uploads.insert(
                        id.clone(),
                        Upload {
                            size: size as usize,
                            parts: Default::default(),
                            data: None,
                        },
                    );
                    json_reply(json!({ "id": id }))
                }
                _ => error(
                    400,
                    "the body must be {\"size\": bytes} with 0 < bytes ≤ 1 GiB",
                ),
            }
        }
        (method, r) if r.starts_with("bqm/multipart/") => multipart(method, r, req, s),
        ("GET", "problems") => {
            if s.faults.poll_errors > 0 {
                s.faults.poll_errors -= 1;
                return error(500, "transient failure");
            }
            let query = req.path.split_once('?').map(|q| q.1).unwrap_or("");
            let ids: Vec<&str> = query
                .split('&')
                .filter_map(|kv| kv.strip_prefix("id="))
                .flat_map(|v| v.split(','))
                .collect();
            let fail = s.faults.fail_problems.clone();
            let mut out = Vec::new();
            for id in ids {
                if let Some(p) = s.problems.get_mut(id) {
                    if !matches!(p.status.as_str(), "COMPLETED" | "FAILED" | "CANCELLED") {
                        if p.polls_left == 0 {
                            finish(p, fail.as_deref());
                        } else {
                            p.polls_left -= 1;
                            p.status = "IN_PROGRESS".into();
                        }
                    }
                    out.push(p.status_json(id, false));
                }
            }
            (
                200,
                versioned(media::PROBLEMS),
                Value::Array(out).to_string().into_bytes(),
            )
        }
        ("GET", r) if r.starts_with("problems/") => {
            let id = &r["problems/".len()..];
            match s.problems.get(id) {
                Some(p) => (
                    200,
                    versioned(media::PROBLEM),
                    p.status_json(id, true).to_string().into_bytes(),
                ),
                None => error(404, "Problem not found"),
            }
        }
        ("DELETE", r) if r.starts_with("problems/") => {
            let id = &r["problems/".len()..];
            match s.problems.get_mut(id) {
                None => error(404, "Problem not found"),
                Some(p) if matches!(p.status.as_str(), "COMPLETED" | "FAILED" | "CANCELLED") => {
                    error(409, "Problem is already finished")
                }
                Some(p) => {
                    p.status = "CANCELLED".into();
                    (
                        200,
                        versioned(media::PROBLEM),
                        p.status_json(id, false).to_string().into_bytes(),
                    )
                }
            }
        }
        _ => error(404, "Not found"),
    }
}

/// Checks a job against its solver, samples it, stores it; the status or an error item.
fn submit(s: &mut State, job: &Value) -> Value {
    let item = |code: u16, msg: String| json!({"error_code": code, "error_msg": msg});
    let name = job
        .pointer("/solver/name")
        .or_else(|| job.get("solver"))
        .and_then(Value::as_str)
        .unwrap_or("");
    let Some(solver) = s
        .solvers
        .iter()
        .find(|v| v.pointer("/identity/name").and_then(Value::as_str) == Some(name))
        .cloned()
    else {
        return item(404, format!("Solver {name:?} not found"));
    };
    let props = &solver["properties"];
    let kind = job.get("type").and_then(Value::as_str).unwrap_or("");
    let supported = props["supported_problem_types"]
        .as_array()
        .is_some_and(|a| a.iter().any(|t| t == kind));
    if !supported {
        return item(
            400,
            format!("problem type {kind:?} is not supported by {name}"),
        );
    }
    let params = job
        .get("params")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    if let Some(bad) = params
        .keys()
        .find(|k| !k.starts_with("x_") && props["parameters"].get(k.as_str()).is_none())
    {
        return item(400, format!("unknown parameter {bad:?} for {name}"));
    }
    let answer = match kind {
        "qubo" => match sample_qp(props, &job["data"], &params) {
            Ok(a) => a,
            Err(e) => return item(400, e),
        },
        "bqm" => match sample_bqm(props, &job["data"], &params, &s.uploads) {
            Ok(a) => a,
            Err(e) => return item(400, e),
        },
        _ => return item(400, format!("the fake does not run {kind:?} problems yet")),
    };
    let id = format!("fake-{:08}", s.next_id);
    s.next_id += 1;
    let mut p = FakeProblem {
        status: "PENDING".into(),
        identity: solver["identity"].clone(),
        kind: kind.into(),
        answer: Some(answer),
        polls_left: s.faults.polls_before_done,
        error_message: None,
    };
    if p.polls_left == 0 {
        finish(&mut p, s.faults.fail_problems.as_deref());
    }
    let reply = p.status_json(&id, true);
    s.problems.insert(id, p);
    reply
}

fn finish(p: &mut FakeProblem, fail: Option<&str>) {
    match fail {
        Some(m) => {
            p.status = "FAILED".into();
            p.error_message = Some(m.to_string());
            p.answer = None;
        }
        None => p.status = "COMPLETED".into(),
    }
}

/// Decodes a `qp` problem on the solver's graph and anneals it with our SA; the `qp` answer
/// (energies without the offset, as SAPI returns them).
fn sample_qp(
    props: &Value,
    data: &Value,
    params: &serde_json::Map<String, Value>,
) -> Result<Value, String> {
    use crate::qubo::{Qubo, StoredModel};
    use crate::sampler::RunControl;
    let list = |key: &str| props[key].as_array().cloned().unwrap_or_default();
    let qubits: Vec<u32> = list("qubits")
        .iter()
        .filter_map(|q| q.as_u64())
        .map(|q| q as u32)
        .collect();
    let couplers: Vec<(u32, u32)> = list("couplers")
        .iter()
        .filter_map(|c| Some((c.get(0)?.as_u64()? as u32, c.get(1)?.as_u64()? as u32)))
        .collect();
    let p = super::qp::decode_problem(data, &qubits, &couplers).map_err(|e| e.to_string())?;
    let active: Vec<u32> = p.active().into_iter().collect();
    let index = |q: u32| active.binary_search(&q).expect("active qubit");
    let linear: Vec<f64> = active
        .iter()
        .map(|q| p.linear.get(q).copied().unwrap_or(0.0))
        .collect();
    let terms = p
        .quadratic
        .iter()
        .map(|(&(a, b), &j)| (index(a), index(b), j));
    let qubo = Qubo::new(linear, terms, 0.0).map_err(|e| e.to_string())?;
    let reads = params
        .get("num_reads")
        .and_then(Value::as_u64)
        .unwrap_or(10)
        .clamp(1, 10_000);
    let mut values = crate::params::ParamValues::new();
    values.insert("num_reads".into(), json!(reads));
    values.insert("seed".into(), json!(1));
    let sa = crate::sampler::annealing::ENTRY
        .build_with(&values)
        .map_err(|e| e.to_string())?;
    let set = sa
        .sample(
            &StoredModel::new(qubo),
            &RunControl::new().with_threads(Some(1)),
        )
        .map_err(|e| e.to_string())?;
    let answer = super::qp::Answer {
        num_variables: props["num_qubits"].as_u64().unwrap_or(0) as usize,
        active_variables: active,
        solutions: set.rows.iter().map(|r| r.sample.clone()).collect(),
        energies: set.rows.iter().map(|r| r.energy).collect(),
        num_occurrences: set.rows.iter().map(|r| r.num_occurrences as u32).collect(),
        timing: json!({"qpu_access_time": 15831.0, "qpu_sampling_time": 760.0})
            .as_object()
            .cloned()
            .unwrap_or_default(),
    };
    Ok(super::qp::encode_answer(&answer))
}

/// Largest upload the fake takes.
const MAX_UPLOAD: usize = 1 << 30;

fn json_reply(v: Value) -> (u16, String, Vec<u8>) {
    (200, "application/json".into(), v.to_string().into_bytes())
}

/// `bqm/multipart/{id}/status`, `…/part/{n}` and `…/combine`, with the integrity checks of
/// the protocol: each part's `Content-MD5`, the combine checksum (MD5 over the parts' raw
/// digests in order), and the assembled size against the size declared at the start.
fn multipart(method: &str, rest: &str, req: &Seen, s: &mut State) -> (u16, String, Vec<u8>) {
    use base64::Engine;
    use md5::{Digest, Md5};
    let hex = |d: &[u8]| d.iter().map(|b| format!("{b:02x}")).collect::<String>();
    let segments: Vec<&str> = rest["bqm/multipart/".len()..].split('/').collect();
    let Some(upload) = s.uploads.get_mut(segments[0]) else {
        return error(404, "Upload not found");
    };
    match (method, &segments[1..]) {
        ("GET", ["status"]) => {
            let parts: Vec<Value> = upload
                .parts
                .iter()
                .map(|(n, bytes)| json!({"part_number": n, "checksum": hex(Md5::digest(bytes).as_slice())}))
                .collect();
            let status = if upload.data.is_some() {
                "UPLOAD_COMPLETED"
            } else {
                "UPLOAD_IN_PROGRESS"
            };
            json_reply(json!({ "status": status, "parts": parts }))
        }
        ("PUT", ["part", n]) => {
            let Some(n) = n.parse::<usize>().ok().filter(|&n| n >= 1) else {
                return error(400, "part numbers start at 1");
            };
            if upload.data.is_some() {
                return error(409, "the upload is already combined");
            }
            if s.faults.reject_part == Some(n) {
                return error(400, &format!("part {n} refused (test fault)"));
            }
            let header = |name: &str| {
                req.headers
                    .iter()
                    .find(|h| h.0 == name)
                    .map(|h| h.1.as_str())
            };
            if header("content-type") != Some("application/octet-stream") {
                return error(400, "a part must be sent as application/octet-stream");
            }
            let digest = Md5::digest(&req.body);
            let expected = base64::engine::general_purpose::STANDARD.encode(digest);
            match header("content-md5") {
                Some(m) if m == expected => {}
                Some(_) => return error(400, "Content-MD5 does not match the part"),
                None => return error(400, "a part needs Content-MD5"),
            }
            upload.parts.insert(n, req.body.clone());
            json_reply(json!({}))
        }
        ("POST", ["combine"]) => {
            let checksum = serde_json::from_slice::<Value>(&req.body)
                .ok()
                .and_then(|v| {
                    v.get("checksum")
                        .and_then(Value::as_str)
                        .map(str::to_string)
                });
            let numbers: Vec<usize> = upload.parts.keys().copied().collect();
            if numbers != (1..=numbers.len()).collect::<Vec<_>>() {
                return error(400, "parts are missing");
            }
            let digests: Vec<u8> = upload
                .parts
                .values()
                .flat_map(|b| Md5::digest(b).to_vec())
                .collect();
            if checksum.as_deref() != Some(hex(Md5::digest(&digests).as_slice()).as_str()) {
                return error(400, "the combine checksum does not match the parts");
            }
            let data: Vec<u8> = upload.parts.values().flatten().copied().collect();
            if data.len() != upload.size {
                return error(
                    400,
                    &format!("{} bytes uploaded, {} declared", data.len(), upload.size),
                );
            }
            upload.data = Some(data);
            json_reply(json!({}))
        }
        _ => error(404, "Not found"),
    }
}

/// Resolves a `ref` problem to its uploaded DIMODBQM file, checks `time_limit` against the
/// solver's minimum, anneals it with our SA and answers a `bq` sample set (energies with the
/// offset: computed on the whole model).
fn sample_bqm(
    props: &Value,
    data: &Value,
    params: &serde_json::Map<String, Value>,
    uploads: &std::collections::BTreeMap<String, Upload>,
) -> Result<Value, String> {
    use crate::qubo::StoredModel;
    use crate::sampler::RunControl;
    if data.get("format").and_then(Value::as_str) != Some("ref") {
        return Err("bqm problems must be submitted by reference (format \"ref\")".into());
    }
    let id = data.get("data").and_then(Value::as_str).unwrap_or("");
    let bytes = uploads
        .get(id)
        .and_then(|u| u.data.as_ref())
        .ok_or_else(|| format!("no completed upload {id:?}"))?;
    let file =
        crate::qubo::formats::parse_model_bytes(bytes, crate::qubo::formats::Format::DimodBqm, id)
            .map_err(|e| e.to_string())?;
    let n = file.qubo.num_variables();
    let minimum = super::sapi::minimum_time_limit_s(&props["minimum_time_limit"], n);
    let time_limit = match params.get("time_limit") {
        None => minimum,
        Some(t) => t.as_f64().ok_or("time_limit must be a number")?,
    };
    if time_limit < minimum {
        return Err(format!(
            "time_limit {time_limit} s is below the minimum {minimum} s for {n} variables"
        ));
    }
    let mut values = crate::params::ParamValues::new();
    values.insert("num_reads".into(), json!(16));
    values.insert("seed".into(), json!(1));
    let sa = crate::sampler::annealing::ENTRY
        .build_with(&values)
        .map_err(|e| e.to_string())?;
    let set = sa
        .sample(
            &StoredModel::new(file.qubo),
            &RunControl::new().with_threads(Some(1)),
        )
        .map_err(|e| e.to_string())?;
    let info = json!({
        "run_time": (time_limit * 1e6) as u64, "charge_time": (time_limit * 1e6) as u64,
        "qpu_access_time": 31_710,
    });
    Ok(super::bq::encode_answer(
        n,
        &set.rows
            .iter()
            .map(|r| r.sample.clone())
            .collect::<Vec<_>>(),
        &set.rows.iter().map(|r| r.energy).collect::<Vec<_>>(),
        &set.rows
            .iter()
            .map(|r| r.num_occurrences as u64)
            .collect::<Vec<_>>(),
        info.as_object().cloned().unwrap_or_default(),
    ))
}
