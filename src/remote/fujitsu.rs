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
        serde_json::from_slice(&reply.body).map_err(|e| {
            RemoteError::Protocol(format!("{method} {url}: the reply is not JSON: {e}"))
        })
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
        let detail = self.secret.scrub(&detail);
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
        message: v.get("message").and_then(Value::as_str).map(str::to_string),
    })
}

/// The request body: the model as a binary polynomial (linear `[i]`, quadratic `[i, j]`; the
/// constant left out) and the `fujitsuDA3` parameters. Refuses coefficients beyond 2^52.
/// `as_penalty` sends it as `penalty_binary_polynomial` (weighted by `penalty_coef`) beside an
/// empty objective.
pub fn request(
    q: &crate::qubo::Qubo,
    params: Map<String, Value>,
    as_penalty: bool,
) -> Result<Value, RemoteError> {
    let mut terms = Vec::with_capacity(q.num_variables() + q.num_interactions());
    for (i, &c) in q.linear().iter().enumerate() {
        if c != 0.0 {
            terms.push((c, vec![i as u32]));
        }
    }
    for c in q.couplings().iter().filter(|c| c.value != 0.0) {
        terms.push((c.value, vec![c.i, c.j]));
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
mod tests {
    use super::*;
    use crate::qubo::Qubo;

    #[test]
    fn requests_are_polynomials_without_the_constant() {
        let q = Qubo::new(vec![-1.0, 0.0, 2.0], [(0, 1, 3.0)], 7.0).unwrap();
        let r = request(&q, Map::new(), false).unwrap();
        assert_eq!(
            r["binary_polynomial"]["terms"],
            json!([{"c": -1.0, "p": [0]}, {"c": 2.0, "p": [2]}, {"c": 3.0, "p": [0, 1]}])
        );
        let huge = Qubo::new(vec![1e17], [], 0.0).unwrap();
        assert!(
            request(&huge, Map::new(), false)
                .unwrap_err()
                .to_string()
                .contains("2^52")
        );
    }

    #[test]
    fn solutions_and_timing_are_read_and_bad_ones_named() {
        let s = json!({"solutions": [{"energy": -2.0, "penalty_energy": 0.0, "frequency": 3,
            "configuration": {"0": true, "2": false}}],
            "timing": {"solve_time": "11027", "total_elapsed_time": "11062"}});
        let d = decode_solution(&s, 3).unwrap();
        assert_eq!(d[0].sample, vec![1, 0, 0]);
        assert_eq!((d[0].energy, d[0].frequency), (-2.0, 3));
        assert_eq!(timing_ms(&s)["solve_time_ms"], 11027.0);
        let bad = json!({"solutions": [{"configuration": {"7": true}}]});
        assert!(
            decode_solution(&bad, 3)
                .unwrap_err()
                .to_string()
                .contains("\"7\"")
        );
        let bad = json!({"solutions": [{"configuration": {"0": 1}}]});
        assert!(decode_solution(&bad, 3).is_err());
    }
}
