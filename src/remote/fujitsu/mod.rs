//! Fujitsu's Digital Annealer cloud API (v4; v3c has the same JSON), the client side
//! (Fujitsu's published API reference): the QUBO as a binary polynomial, `POST
//! async/qubo/solve`, polling `async/jobs/result/{id}`, and `DELETE` of every result once read —
//! the service keeps only a few jobs per user, so a client that forgets fills the account.
//!
//! Invariants: exactly one credential header goes out (`X-Api-Key`, or `X-Access-Token`); the
//! key never appears in a message; the model's constant is not sent (whether the service adds a
//! constant term to its energies is not documented), energies are recomputed from the model.

use std::time::Duration;

use serde_json::{Map, Value, json};

use super::http::{Http, Reply};
use super::{RemoteError, Secret};

/// The service's base URL.
pub const DEFAULT_ENDPOINT: &str = "https://api.aispf.global.fujitsu.com/da/";
/// Largest coefficient magnitude the service computes exactly (2^52).
pub const MAX_COEFFICIENT: f64 = 4_503_599_627_370_496.0;

/// Which credential header carries the secret.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Credential {
    /// `X-Api-Key`.
    ApiKey,
    /// `X-Access-Token` (OAuth).
    AccessToken,
}

impl Credential {
    fn header(self) -> &'static str {
        match self {
            Credential::ApiKey => "X-Api-Key",
            Credential::AccessToken => "X-Access-Token",
        }
    }
}

/// A job's result as polled.
#[derive(Clone, Debug, PartialEq)]
pub struct JobResult {
    /// `Waiting`, `Running`, `Done`, `Canceled`, `Error` (`Deleted` after DELETE).
    pub status: String,
    /// The `qubo_solution` object once done.
    pub solution: Option<Value>,
    /// The service's message for a failed job.
    pub message: Option<String>,
}

/// One solution of a finished job.
#[derive(Clone, Debug, PartialEq)]
pub struct DaSolution {
    /// 0/1 per variable `0..n` (variables the service did not list are 0).
    pub sample: Vec<u8>,
    /// The service's energy.
    pub energy: f64,
    /// How often it was found.
    pub frequency: u64,
}

/// A Digital Annealer connection.
pub struct DaClient {
    http: Http,
    base: String,
    secret: Secret,
    credential: Credential,
}

impl DaClient {
    /// A client for `base` + `version` (`v4`, `v3c`), checked: HTTPS or loopback.
    pub fn new(
        base: &str,
        version: &str,
        secret: Secret,
        credential: Credential,
        timeout: Duration,
    ) -> Result<Self, RemoteError> {
        super::check_endpoint(base)?;
        let mut base = base.trim_end_matches('/').to_string();
        base.push('/');
        base.push_str(version);
        base.push('/');
        Ok(DaClient {
            http: Http::new(timeout),
            base,
            secret,
            credential,
        })
    }

    /// Submits a QUBO request; the job id.
    pub fn solve(&self, request: &Value) -> Result<String, RemoteError> {
        let v = self.call("POST", "async/qubo/solve", Some(request))?;
        v.get("job_id")
            .and_then(Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| RemoteError::Protocol("the solve reply has no job_id".into()))
    }

    /// The job list (id, status, start time).
    pub fn jobs(&self) -> Result<Vec<Value>, RemoteError> {
        let v = self.call("GET", "async/jobs", None)?;
        Ok(v.get("job_status_list")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default())
    }

    /// A job's result, or its state while it runs.
    pub fn result(&self, job_id: &str) -> Result<JobResult, RemoteError> {
        let v = self.call("GET", &format!("async/jobs/result/{job_id}"), None)?;
        job_result(&v)
    }

    /// Frees a job on the service.
    pub fn delete(&self, job_id: &str) -> Result<(), RemoteError> {
        self.call("DELETE", &format!("async/jobs/result/{job_id}"), None)
            .map(|_| ())
    }

    /// Asks the service to cancel a job.
    pub fn cancel(&self, job_id: &str) -> Result<String, RemoteError> {
        let v = self.call(
            "POST",
            "async/jobs/cancel",
            Some(&json!({ "job_id": job_id })),
        )?;
        Ok(v.get("status")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string())
    }

    /// Polls a job every `interval` until it ends, then reads and deletes it. `cancelled` is
    /// checked between polls (the job is then cancelled and deleted on the service);
    /// `on_status` sees each state. 5xx replies are retried with a growing pause.
    pub fn wait(
        &self,
        job_id: &str,
        interval: Duration,
        cancelled: &dyn Fn() -> bool,
        on_status: &dyn Fn(&str),
    ) -> Result<Value, RemoteError> {
        let mut pause = interval;
        loop {
            if cancelled() {
                let _ = self.cancel(job_id);
                let _ = self.delete(job_id);
                return Err(RemoteError::Cancelled(format!("job {job_id} cancelled")));
            }
            match self.result(job_id) {
                Ok(r) => {
                    on_status(&r.status);
                    pause = interval;
                    match r.status.as_str() {
                        "Done" => {
                            // Read: free the slot (a failure to delete is not the run's failure).
                            let _ = self.delete(job_id);
                            return r.solution.ok_or_else(|| {
                                RemoteError::Protocol(format!(
                                    "job {job_id} is done but carries no qubo_solution"
                                ))
                            });
                        }
                        "Canceled" | "Deleted" => {
                            let _ = self.delete(job_id);
                            return Err(RemoteError::Cancelled(format!(
                                "job {job_id} was {}",
                                r.status.to_ascii_lowercase()
                            )));
                        }
                        "Error" => {
                            let _ = self.delete(job_id);
                            return Err(RemoteError::Failed(format!(
                                "job {job_id} failed: {}",
                                self.secret
                                    .scrub(r.message.as_deref().unwrap_or("no message"))
                            )));
                        }
                        _ => {}
                    }
                }
                Err(RemoteError::Server(_)) => pause = (pause * 2).min(Duration::from_secs(60)),
                Err(e) => return Err(e),
            }
            std::thread::sleep(pause);
        }
    }

    fn call(&self, method: &str, path: &str, body: Option<&Value>) -> Result<Value, RemoteError> {
        let url = format!("{}{path}", self.base);
        let bytes = body.map(|b| b.to_string().into_bytes());
        let headers = [
            (self.credential.header(), self.secret.expose()),
            ("Accept", "application/json"),
            ("Content-Type", "application/json"),
        ];
        let reply = self.http.send(method, &url, &headers, bytes.as_deref())?;
        if !(200..300).contains(&reply.status) {
            return Err(self.status_error(method, &url, &reply));
        }
        reply.json(method, &url)
    }

    /// A non-2xx reply in words (`{"error": {"code", "title", "message"}}` when JSON).
    fn status_error(&self, method: &str, url: &str, reply: &Reply) -> RemoteError {
        let text = String::from_utf8_lossy(&reply.body);
        let detail = serde_json::from_str::<Value>(&text)
            .ok()
            .and_then(|v| {
                let e = v.get("error")?;
                let title = e.get("title").and_then(Value::as_str).unwrap_or("");
                let message = e.get("message").and_then(Value::as_str).unwrap_or("");
                Some(format!("{title}: {message}"))
            })
            .unwrap_or_else(|| text.trim().chars().take(200).collect());
        let detail = crate::io::printable(&self.secret.scrub(&detail));
        match reply.status {
            401 | 403 => RemoteError::Auth(format!(
                "authentication failed at {url}: the Digital Annealer refused the {} {} \
                 ({detail}); check FUJITSU_DA_API_KEY",
                self.credential.header(),
                self.secret.masked()
            )),
            404 => RemoteError::NotFound(format!("{method} {url}: not found ({detail})")),
            429 => RemoteError::Limit {
                message: format!(
                    "{method} {url}: too many jobs or requests ({detail}); the service keeps \
                     few jobs per user: delete stale ones (this client deletes each result \
                     once read)"
                ),
                retry_after_s: reply.retry_after_s,
            },
            s if s >= 500 => {
                RemoteError::Server(format!("{method} {url}: server error {s} ({detail})"))
            }
            s => RemoteError::Protocol(format!("{method} {url}: HTTP {s} ({detail})")),
        }
    }
}

fn job_result(v: &Value) -> Result<JobResult, RemoteError> {
    let status = v
        .get("status")
        .and_then(Value::as_str)
        .ok_or_else(|| RemoteError::Protocol("a job result without status".into()))?
        .to_string();
    Ok(JobResult {
        status,
        solution: v.get("qubo_solution").filter(|s| !s.is_null()).cloned(),
        message: v
            .get("message")
            .and_then(Value::as_str)
            .map(crate::io::printable),
    })
}

/// How a model's exactly-one groups travel to the Digital Annealer, whose API takes them as
/// `one_way_one_hot_groups` / `two_way_one_hot_groups`: group sizes over the *leading*
/// variables, contiguous. The variables are renumbered so the groups lead (`order[wire]` is the
/// model's variable at wire index `wire`) and mapped back on return.
/// - two-way: the permutation pair (`OneHotGroups::two_way`) when it splits into complete k×k
///   blocks with one variable per (row, column) (a Sudoku's row: cells × digits); each block's
///   k² variables row by row, sent as the number k;
/// - else one-way: the widest family, each group's variables together, sent as its size.
#[derive(Clone, Debug, PartialEq)]
pub struct DaGroups {
    /// Wire index → model variable (a permutation of 0..n).
    pub order: Vec<u32>,
    /// The parameter (`one_way_one_hot_groups` or `two_way_one_hot_groups`) and its numbers.
    pub param: Option<(&'static str, Vec<usize>)>,
}

impl DaGroups {
    /// The layout for a model of `n` variables with these groups (none: identity, no param).
    pub fn of(groups: Option<&crate::qubo::OneHotGroups>, n: usize) -> DaGroups {
        let identity = || DaGroups {
            order: (0..n as u32).collect(),
            param: None,
        };
        let Some(groups) = groups.filter(|g| !g.is_empty()) else {
            return identity();
        };
        let (blocks, numbers) = match groups
            .two_way
            .and_then(|[a, b]| square_blocks(groups, a, b, n))
        {
            Some((blocks, k)) => (blocks, ("two_way_one_hot_groups", k)),
            None => {
                let Some(w) = groups.widest() else {
                    return identity();
                };
                let f = &groups.families[w];
                let sizes = f.groups.iter().map(Vec::len).collect();
                (f.groups.clone(), ("one_way_one_hot_groups", sizes))
            }
        };
        let mut placed = vec![false; n];
        let mut order = Vec::with_capacity(n);
        for v in blocks.into_iter().flatten() {
            placed[v as usize] = true;
            order.push(v);
        }
        order.extend((0..n as u32).filter(|&v| !placed[v as usize]));
        DaGroups {
            order,
            param: Some(numbers),
        }
    }

    /// Model variable → wire index.
    pub fn wire_index(&self) -> Vec<u32> {
        let mut wire = vec![0u32; self.order.len()];
        for (w, &v) in self.order.iter().enumerate() {
            wire[v as usize] = w as u32;
        }
        wire
    }

    /// A wire sample as the model's.
    pub fn to_model(&self, wire: &[u8]) -> Vec<u8> {
        let mut x = vec![0u8; wire.len()];
        for (w, &v) in self.order.iter().enumerate() {
            x[v as usize] = wire[w];
        }
        x
    }

    /// The groups a request's numbers describe, over `n` wire variables (the fake's reading):
    /// one-way, consecutive groups of the given sizes; two-way, k×k blocks whose rows and
    /// columns are groups. Errors name what does not fit.
    pub fn read(
        params: &Map<String, Value>,
        n: usize,
    ) -> Result<crate::qubo::OneHotGroups, String> {
        let numbers = |key: &str| -> Result<Option<Vec<usize>>, String> {
            let Some(v) = params.get(key) else {
                return Ok(None);
            };
            let list = v
                .get("numbers")
                .and_then(Value::as_array)
                .ok_or(format!("{key} must be {{\"numbers\": [int, …]}}"))?;
            list.iter()
                .map(|x| x.as_u64().filter(|&k| k >= 1).map(|k| k as usize))
                .collect::<Option<Vec<usize>>>()
                .map(Some)
                .ok_or(format!("{key}: every number must be a positive integer"))
        };
        let one_way = numbers("one_way_one_hot_groups")?;
        let two_way = numbers("two_way_one_hot_groups")?;
        let mut labelled: Vec<(String, Vec<u32>)> = Vec::new();
        let mut next = 0usize;
        match (one_way, two_way) {
            (Some(_), Some(_)) => {
                return Err("one_way_one_hot_groups and two_way_one_hot_groups together".into());
            }
            (Some(sizes), None) => {
                for (g, &k) in sizes.iter().enumerate() {
                    labelled.push((
                        format!("group[{g}]"),
                        (next..next + k).map(|v| v as u32).collect(),
                    ));
                    next = next.saturating_add(k);
                }
            }
            (None, Some(sides)) => {
                for (b, &k) in sides.iter().enumerate() {
                    for r in 0..k {
                        let row = (0..k).map(|c| (next + r * k + c) as u32).collect();
                        let col = (0..k).map(|c| (next + c * k + r) as u32).collect();
                        labelled.push((format!("row[{b}][{r}]"), row));
                        labelled.push((format!("col[{b}][{r}]"), col));
                    }
                    next = next.saturating_add(k.saturating_mul(k));
                }
            }
            (None, None) => {}
        }
        if next > n {
            return Err(format!(
                "the one-hot groups cover {next} variables, but the problem has {n}"
            ));
        }
        Ok(crate::qubo::OneHotGroups::from_labelled(
            n,
            labelled.iter().map(|(l, v)| (l.as_str(), v.clone())),
        ))
    }
}

/// The permutation pair (families `a`, `b`) as complete k×k blocks, one variable per (A, B)
/// pair: each block's variables row by row (A groups as rows, B groups as columns), and k per
/// block. `None` when the pair does not split that way.
fn square_blocks(
    groups: &crate::qubo::OneHotGroups,
    a: usize,
    b: usize,
    n: usize,
) -> Option<(Vec<Vec<u32>>, Vec<usize>)> {
    let (fa, fb) = (&groups.families[a], &groups.families[b]);
    let mut b_of = vec![u32::MAX; n];
    for (g, vars) in fb.groups.iter().enumerate() {
        for &v in vars {
            b_of[v as usize] = g as u32;
        }
    }
    // Blocks: A groups joined by sharing a B group.
    let mut block_of_b = vec![u32::MAX; fb.groups.len()];
    let mut blocks: Vec<Vec<usize>> = Vec::new(); // A groups per block
    let mut block_of_a = vec![u32::MAX; fa.groups.len()];
    for (ga, vars) in fa.groups.iter().enumerate() {
        let bs: Vec<u32> = vars.iter().map(|&v| b_of[v as usize]).collect();
        let known = bs
            .iter()
            .map(|&g| block_of_b[g as usize])
            .find(|&k| k != u32::MAX);
        let k = known.unwrap_or_else(|| {
            blocks.push(Vec::new());
            blocks.len() as u32 - 1
        });
        // Every B group of this A group must be new or in the same block.
        if bs
            .iter()
            .any(|&g| block_of_b[g as usize] != u32::MAX && block_of_b[g as usize] != k)
        {
            return None;
        }
        for &g in &bs {
            block_of_b[g as usize] = k;
        }
        block_of_a[ga] = k;
        blocks[k as usize].push(ga);
    }
    let mut out = Vec::new();
    let mut sides = Vec::new();
    for rows in &blocks {
        let k = rows.len();
        // Columns: this block's B groups in the order the first row meets them.
        let first = &fa.groups[rows[0]];
        let cols: Vec<u32> = first.iter().map(|&v| b_of[v as usize]).collect();
        if cols.len() != k {
            return None;
        }
        let mut col_of = std::collections::BTreeMap::new();
        for (c, &g) in cols.iter().enumerate() {
            if col_of.insert(g, c).is_some() {
                return None;
            }
        }
        for &ga in rows {
            let vars = &fa.groups[ga];
            if vars.len() != k {
                return None;
            }
            let mut row = vec![u32::MAX; k];
            for &v in vars {
                let c = *col_of.get(&b_of[v as usize])?;
                if row[c] != u32::MAX {
                    return None;
                }
                row[c] = v;
            }
            out.push(row);
        }
        sides.push(k);
    }
    Some((out, sides))
}

/// The request body: the model as a binary polynomial (linear `[i]`, quadratic `[i, j]`; the
/// constant left out; variables at their wire indices, `groups`) and the `fujitsuDA3`
/// parameters, with the one-hot groups' numbers when there are any. Refuses coefficients beyond 2^52.
/// `as_penalty` sends it as `penalty_binary_polynomial` (weighted by `penalty_coef`) beside an
/// empty objective.
pub fn request(
    q: &crate::qubo::Qubo,
    mut params: Map<String, Value>,
    as_penalty: bool,
    groups: &DaGroups,
) -> Result<Value, RemoteError> {
    let wire = groups.wire_index();
    let mut terms = Vec::with_capacity(q.num_variables() + q.num_interactions());
    for (i, &c) in q.linear().iter().enumerate() {
        if c != 0.0 {
            terms.push((c, vec![wire[i]]));
        }
    }
    for c in q.couplings().iter().filter(|c| c.value != 0.0) {
        let (i, j) = (wire[c.i as usize], wire[c.j as usize]);
        terms.push((c.value, vec![i.min(j), i.max(j)]));
    }
    if let Some((key, numbers)) = &groups.param {
        params.insert(key.to_string(), json!({ "numbers": numbers }));
    }
    if let Some((c, p)) = terms.iter().find(|(c, _)| c.abs() > MAX_COEFFICIENT) {
        return Err(RemoteError::Problem(format!(
            "coefficient {c} of term {p:?} exceeds 2^52, beyond what the Digital Annealer \
             computes exactly; scale the weights down"
        )));
    }
    let terms: Vec<Value> = terms
        .into_iter()
        .map(|(c, p)| json!({ "c": c, "p": p }))
        .collect();
    Ok(if as_penalty {
        json!({
            "fujitsuDA3": params,
            "binary_polynomial": { "terms": [] },
            "penalty_binary_polynomial": { "terms": terms },
        })
    } else {
        json!({
            "fujitsuDA3": params,
            "binary_polynomial": { "terms": terms },
        })
    })
}

/// Reads a `qubo_solution`: each solution's configuration (`{"index": bool}`) as a 0/1 vector
/// over `n` variables, with its energy and frequency.
pub fn decode_solution(solution: &Value, n: usize) -> Result<Vec<DaSolution>, RemoteError> {
    let bad = |what: String| RemoteError::Protocol(format!("Digital Annealer result: {what}"));
    let list = solution
        .get("solutions")
        .and_then(Value::as_array)
        .ok_or_else(|| bad("no solutions list".into()))?;
    list.iter()
        .enumerate()
        .map(|(k, s)| {
            let config = s
                .get("configuration")
                .and_then(Value::as_object)
                .ok_or_else(|| bad(format!("solution {k} has no configuration")))?;
            let mut sample = vec![0u8; n];
            for (key, value) in config {
                let i: usize = key
                    .parse()
                    .ok()
                    .filter(|&i| i < n)
                    .ok_or_else(|| bad(format!("solution {k} names variable {key:?}")))?;
                sample[i] = match value.as_bool() {
                    Some(b) => u8::from(b),
                    None => return Err(bad(format!("solution {k}: variable {key} is not a bool"))),
                };
            }
            Ok(DaSolution {
                sample,
                energy: s.get("energy").and_then(Value::as_f64).unwrap_or(f64::NAN),
                frequency: s.get("frequency").and_then(Value::as_u64).unwrap_or(1),
            })
        })
        .collect()
}

/// The service's timing (`{"solve_time": "11027", …}`, strings of milliseconds) as numbers.
pub fn timing_ms(solution: &Value) -> Map<String, Value> {
    solution
        .get("timing")
        .and_then(Value::as_object)
        .map(|t| {
            t.iter()
                .map(|(k, v)| {
                    let ms = v
                        .as_f64()
                        .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()));
                    (format!("{k}_ms"), ms.map_or(Value::Null, Value::from))
                })
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests;
