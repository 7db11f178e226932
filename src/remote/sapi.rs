//! D-Wave's Solver API (SAPI) v3, the client side: versioned media types checked strictly on
//! every 2xx reply, the token in `X-Auth-Token` only, HTTP errors mapped to messages that say
//! what to do (as D-Wave's SAPI reference and its cloud client define them).
//!
//! Listing solvers, submitting a problem (deflate-compressed batch of one), the long poll,
//! reading a finished problem's answer, cancelling, and the multipart upload of a hybrid
//! solver's BQM file (§1.10).

use std::time::Duration;

use serde_json::Value;

use super::http::{Http, Reply};
use super::{RemoteError, Secret};

/// The media-type version we speak, and the major version we accept back.
const API_VERSION: &str = "3.0.0";
const ACCEPTED_MAJOR: &str = "3";

/// Media types of the calls (the server must answer with exactly these).
pub mod media {
    /// `GET solvers/remote/`.
    pub const SOLVER_LIST: &str = "application/vnd.dwave.sapi.solver-definition-list+json";
    /// `GET solvers/remote/{name}`.
    pub const SOLVER: &str = "application/vnd.dwave.sapi.solver-definition+json";
    /// `POST problems/`, `GET problems/?id=…`, `DELETE problems/`.
    pub const PROBLEMS: &str = "application/vnd.dwave.sapi.problems+json";
    /// `GET problems/{id}/`, `DELETE problems/{id}`.
    pub const PROBLEM: &str = "application/vnd.dwave.sapi.problem+json";
}

/// Bytes per part of the multipart upload (5 MiB; the last part is shorter).
pub const UPLOAD_PART_BYTES: usize = 5 << 20;

/// Tries per part before the upload gives up (the official client's: one and two retries).
const PART_TRIES: u32 = 3;

/// Longest a single long poll may hold the request (SAPI's own cap).
pub const MAX_POLL_WAIT_S: u64 = 30;

/// A problem's state as SAPI reports it.
#[derive(Clone, Debug, PartialEq)]
pub struct ProblemStatus {
    /// The problem id.
    pub id: String,
    /// `PENDING`, `IN_PROGRESS`, `COMPLETED`, `FAILED`, `CANCELLED` (others are tolerated).
    pub status: String,
    /// The server's message for a failed problem.
    pub error_message: Option<String>,
    /// The answer, when the reply carried it.
    pub answer: Option<Value>,
}

impl ProblemStatus {
    /// Reads a status object, or an error item of a batch reply.
    pub fn from_json(v: &Value) -> Result<Self, RemoteError> {
        if let Some(code) = v.get("error_code").and_then(Value::as_i64) {
            let msg = v.get("error_msg").and_then(Value::as_str).unwrap_or("");
            return Err(RemoteError::Protocol(format!(
                "the server refused the problem: {code} {}",
                crate::io::printable(msg)
            )));
        }
        let text = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
        Ok(ProblemStatus {
            id: text("id")
                .ok_or_else(|| RemoteError::Protocol("a problem status without an id".into()))?,
            status: text("status")
                .ok_or_else(|| RemoteError::Protocol("a problem status without a status".into()))?,
            error_message: text("error_message"),
            answer: v.get("answer").filter(|a| !a.is_null()).cloned(),
        })
    }

    /// Whether the problem will not change any more.
    pub fn is_terminal(&self) -> bool {
        matches!(self.status.as_str(), "COMPLETED" | "FAILED" | "CANCELLED")
    }
}

/// A solver as listed: identity, state and the properties the clients use.
#[derive(Clone, Debug, PartialEq)]
pub struct Solver {
    /// Its name (`Advantage_system4.1`, `hybrid_binary_quadratic_model_version2`).
    pub name: String,
    /// The QPU graph id (v3 identities of QPU solvers carry one).
    pub graph_id: Option<String>,
    /// Whether it takes problems now.
    pub online: bool,
    /// Average load, 0 to 1, when reported.
    pub avg_load: Option<f64>,
    /// One line from the operator.
    pub description: String,
    /// `qpu`, `hybrid` or `software` (from the name's prefix when the property is missing).
    pub category: String,
    /// All properties as sent.
    pub properties: Value,
}

impl Solver {
    /// Reads one solver definition (v3 `identity`, or v2 `id`).
    pub fn from_json(v: &Value) -> Result<Self, RemoteError> {
        let name = v
            .pointer("/identity/name")
            .or_else(|| v.get("id"))
            .and_then(Value::as_str)
            .ok_or_else(|| RemoteError::Protocol("a solver without a name".into()))?
            .to_string();
        let properties = v.get("properties").cloned().unwrap_or(Value::Null);
        let category = properties
            .get("category")
            .and_then(Value::as_str)
            .map(str::to_string)
            .unwrap_or_else(|| {
                let lower = name.to_ascii_lowercase();
                if lower.starts_with("hybrid") {
                    "hybrid".into()
                } else if lower.starts_with("dw_") || lower.starts_with("advantage") {
                    "qpu".into()
                } else {
                    "software".into()
                }
            });
        Ok(Solver {
            graph_id: v
                .pointer("/identity/version/graph_id")
                .and_then(Value::as_str)
                .map(str::to_string),
            online: v
                .get("status")
                .and_then(Value::as_str)
                .is_none_or(|s| s.eq_ignore_ascii_case("online")),
            avg_load: v.get("avg_load").and_then(Value::as_f64),
            description: v
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string(),
            category,
            properties,
            name,
        })
    }
}

/// A SAPI connection: base URL, token, per-request deadline.
pub struct Sapi {
    http: Http,
    base: String,
    token: Secret,
}

impl Sapi {
    /// A client for `base` (ending in `/`; checked: HTTPS or loopback).
    pub fn new(base: &str, token: Secret, timeout: Duration) -> Result<Self, RemoteError> {
        super::check_endpoint(base)?;
        let mut base = base.to_string();
        if !base.ends_with('/') {
            base.push('/');
        }
        Ok(Sapi {
            http: Http::new(timeout),
            base,
            token,
        })
    }

    /// Every solver the token may use.
    pub fn solvers(&self) -> Result<Vec<Solver>, RemoteError> {
        let v = self.call("GET", "solvers/remote/", media::SOLVER_LIST, None)?;
        let list = v
            .as_array()
            .ok_or_else(|| RemoteError::Protocol("the solver list is not a JSON array".into()))?;
        list.iter().map(Solver::from_json).collect()
    }

    /// One solver by name.
    pub fn solver(&self, name: &str) -> Result<Solver, RemoteError> {
        let path = format!("solvers/remote/{}", percent_encode(name));
        Solver::from_json(&self.call("GET", &path, media::SOLVER, None)?)
    }

    /// Submits one job object (`solver`, `type`, `data`, `params`, `label`) as a batch of one,
    /// zlib-compressed as the official client sends it.
    pub fn submit(&self, job: &Value) -> Result<ProblemStatus, RemoteError> {
        use std::io::Write;
        let body = Value::Array(vec![job.clone()]).to_string();
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        z.write_all(body.as_bytes())
            .and_then(|_| z.finish())
            .map_err(|e| RemoteError::Network(format!("compressing the problem: {e}")))
            .and_then(|bytes| {
                let v = self.call_with(
                    "POST",
                    "problems/",
                    media::PROBLEMS,
                    Some(&bytes),
                    &[("Content-Encoding", "deflate")],
                )?;
                let first = v.as_array().and_then(|a| a.first()).ok_or_else(|| {
                    RemoteError::Protocol("the submit reply is not a one-element array".into())
                })?;
                ProblemStatus::from_json(first)
            })
    }

    /// The long poll: the problem's status, held by the server up to `wait_s` seconds (≤ 30)
    /// while it is not terminal.
    pub fn poll(&self, id: &str, wait_s: u64) -> Result<ProblemStatus, RemoteError> {
        let path = format!(
            "problems/?id={}&timeout={}",
            percent_encode(id),
            wait_s.min(MAX_POLL_WAIT_S)
        );
        let v = self.call("GET", &path, media::PROBLEMS, None)?;
        v.as_array()
            .into_iter()
            .flatten()
            .map(ProblemStatus::from_json)
            .find(|s| s.as_ref().is_ok_and(|s| s.id == id))
            .unwrap_or_else(|| {
                // SAPI lists only the problems it knows: an unknown id is not there.
                Err(RemoteError::NotFound(format!(
                    "the service does not list problem {id}"
                )))
            })
    }

    /// One problem's status, with its answer once completed.
    pub fn problem(&self, id: &str) -> Result<ProblemStatus, RemoteError> {
        let path = format!("problems/{}/", percent_encode(id));
        ProblemStatus::from_json(&self.call("GET", &path, media::PROBLEM, None)?)
    }

    /// Cancels a problem that is not terminal yet.
    pub fn cancel(&self, id: &str) -> Result<ProblemStatus, RemoteError> {
        let path = format!("problems/{}", percent_encode(id));
        ProblemStatus::from_json(&self.call("DELETE", &path, media::PROBLEM, None)?)
    }

    /// Uploads a BQM file by the multipart protocol and returns its problem-data id.
    pub fn upload(&self, bytes: &[u8]) -> Result<String, RemoteError> {
        let id = self.start_upload(bytes.len())?;
        self.upload_parts(&id, bytes)?;
        Ok(id)
    }

    /// Starts a multipart upload of `size` bytes; its id.
    pub fn start_upload(&self, size: usize) -> Result<String, RemoteError> {
        let body = serde_json::json!({ "size": size }).to_string();
        let v = self.call_plain(
            "POST",
            "bqm/multipart",
            Some(body.as_bytes()),
            "application/json",
        )?;
        v.get("id")
            .and_then(Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| RemoteError::Protocol("the upload was started without an id".into()))
    }

    /// Sends the parts of upload `id` and combines them. Resumable: parts the server already
    /// holds with the same MD5 are skipped, and an upload it calls complete is left alone.
    pub fn upload_parts(&self, id: &str, bytes: &[u8]) -> Result<(), RemoteError> {
        use base64::Engine;
        use md5::{Digest, Md5};
        let (state, held) = self.upload_status(id)?;
        if state == "UPLOAD_COMPLETED" {
            return Ok(());
        }
        let digests: Vec<[u8; 16]> = bytes
            .chunks(UPLOAD_PART_BYTES)
            .map(|part| Md5::digest(part).into())
            .collect();
        for (k, (part, digest)) in bytes.chunks(UPLOAD_PART_BYTES).zip(&digests).enumerate() {
            let number = k + 1;
            let hex = hex(digest);
            if held.iter().any(|(n, sum)| *n == number && *sum == hex) {
                continue;
            }
            let md5_b64 = base64::engine::general_purpose::STANDARD.encode(digest);
            let path = format!("bqm/multipart/{}/part/{number}", percent_encode(id));
            let mut tries = 0;
            loop {
                tries += 1;
                let headers = [
                    ("Content-MD5", md5_b64.as_str()),
                    ("Content-Type", "application/octet-stream"),
                ];
                match self.call_plain_with("PUT", &path, Some(part), &headers) {
                    Ok(_) => break,
                    Err(RemoteError::Server(_) | RemoteError::Network(_)) if tries < PART_TRIES => {
                        std::thread::sleep(Duration::from_secs(1 << (tries - 1)));
                    }
                    Err(e) => return Err(e),
                }
            }
        }
        let (state, held) = self.upload_status(id)?;
        if state != "UPLOAD_IN_PROGRESS" {
            return Err(RemoteError::Protocol(format!(
                "upload {id}: status {state} before combining, expected UPLOAD_IN_PROGRESS"
            )));
        }
        for (k, digest) in digests.iter().enumerate() {
            let want = hex(digest);
            match held.iter().find(|(n, _)| *n == k + 1) {
                Some((_, sum)) if *sum == want => {}
                Some((_, sum)) => {
                    return Err(RemoteError::Protocol(format!(
                        "upload {id}: part {} checksum {sum} on the server, {want} sent",
                        k + 1
                    )));
                }
                None => {
                    return Err(RemoteError::Protocol(format!(
                        "upload {id}: the server does not list part {} after it was sent",
                        k + 1
                    )));
                }
            }
        }
        let combined = hex(Md5::digest(digests.concat()).as_slice());
        let body = serde_json::json!({ "checksum": combined }).to_string();
        let path = format!("bqm/multipart/{}/combine", percent_encode(id));
        self.call_plain("POST", &path, Some(body.as_bytes()), "application/json")?;
        Ok(())
    }

    /// An upload's state and the parts the server holds (number, lowercase hex MD5).
    pub fn upload_status(&self, id: &str) -> Result<(String, Vec<(usize, String)>), RemoteError> {
        let path = format!("bqm/multipart/{}/status", percent_encode(id));
        let v = self.call_plain_with("GET", &path, None, &[])?;
        let state = v
            .get("status")
            .and_then(Value::as_str)
            .ok_or_else(|| RemoteError::Protocol(format!("upload {id}: a status without status")))?
            .to_string();
        let parts = v
            .get("parts")
            .and_then(Value::as_array)
            .ok_or_else(|| RemoteError::Protocol(format!("upload {id}: a status without parts")))?
            .iter()
            .filter_map(|p| {
                let n = p.get("part_number")?.as_u64()? as usize;
                let sum = p
                    .get("checksum")?
                    .as_str()?
                    .trim_matches('"')
                    .to_ascii_lowercase();
                Some((n, sum))
            })
            .collect();
        Ok((state, parts))
    }

    /// Waits for a problem to end and returns its answer. Long polls while the problem runs;
    /// a 5xx reply to a poll is taken as transient and retried with backoff (0.05 s × 1.3ⁿ, at
    /// most 60 s), as SAPI's own client does. `cancelled` is checked between polls: when it
    /// turns true the problem is cancelled on the server. `FAILED` and `CANCELLED` are errors
    /// carrying the server's message.
    pub fn wait(
        &self,
        id: &str,
        cancelled: &dyn Fn() -> bool,
        poll_wait_s: u64,
        on_status: &dyn Fn(&str),
    ) -> Result<Value, RemoteError> {
        let mut backoff_s = 0.05f64;
        loop {
            if cancelled() {
                let _ = self.cancel(id);
                return Err(RemoteError::Cancelled(format!("problem {id} cancelled")));
            }
            let status = match self.poll(id, poll_wait_s) {
                Ok(s) => s,
                Err(RemoteError::Server(_)) => {
                    std::thread::sleep(std::time::Duration::from_secs_f64(backoff_s));
                    backoff_s = (backoff_s * 1.3).min(60.0);
                    continue;
                }
                Err(e) => return Err(e),
            };
            on_status(&status.status);
            match status.status.as_str() {
                "COMPLETED" => {
                    let done = match status.answer {
                        Some(_) => status,
                        None => self.problem(id)?,
                    };
                    return done.answer.ok_or_else(|| {
                        RemoteError::Protocol(format!("problem {id} completed without an answer"))
                    });
                }
                "FAILED" => {
                    return Err(RemoteError::Failed(format!(
                        "problem {id} failed: {}",
                        self.token
                            .scrub(status.error_message.as_deref().unwrap_or("no message"))
                    )));
                }
                "CANCELLED" => {
                    return Err(RemoteError::Cancelled(format!(
                        "problem {id} was cancelled"
                    )));
                }
                _ => {}
            }
        }
    }

    /// One call: the versioned `Accept`, the token, the strict `Content-Type` check on 2xx.
    fn call(
        &self,
        method: &str,
        path: &str,
        media_type: &str,
        body: Option<&[u8]>,
    ) -> Result<Value, RemoteError> {
        self.call_with(method, path, media_type, body, &[])
    }

    fn call_with(
        &self,
        method: &str,
        path: &str,
        media_type: &str,
        body: Option<&[u8]>,
        extra: &[(&str, &str)],
    ) -> Result<Value, RemoteError> {
        let url = format!("{}{path}", self.base);
        let accept = format!("{media_type}; version={API_VERSION}");
        let mut headers = vec![
            ("X-Auth-Token", self.token.expose()),
            ("Accept", accept.as_str()),
        ];
        headers.extend_from_slice(extra);
        let reply = self.http.send(method, &url, &headers, body)?;
        if !(200..300).contains(&reply.status) {
            return Err(self.status_error(method, &url, &reply));
        }
        check_media_type(&reply, media_type, &url)?;
        reply.json(method, &url)
    }

    /// A call of the multipart upload: `Accept: */*` and JSON back, no versioned media type
    /// (the official client sends none on these calls).
    fn call_plain(
        &self,
        method: &str,
        path: &str,
        body: Option<&[u8]>,
        content_type: &str,
    ) -> Result<Value, RemoteError> {
        self.call_plain_with(method, path, body, &[("Content-Type", content_type)])
    }

    fn call_plain_with(
        &self,
        method: &str,
        path: &str,
        body: Option<&[u8]>,
        extra: &[(&str, &str)],
    ) -> Result<Value, RemoteError> {
        let url = format!("{}{path}", self.base);
        let mut headers = vec![("X-Auth-Token", self.token.expose()), ("Accept", "*/*")];
        headers.extend_from_slice(extra);
        let reply = self.http.send(method, &url, &headers, body)?;
        if !(200..300).contains(&reply.status) {
            return Err(self.status_error(method, &url, &reply));
        }
        reply.json(method, &url)
    }

    /// A non-2xx reply in words: what failed and what to do; the token masked even if the
    /// server echoes it.
    fn status_error(&self, method: &str, url: &str, reply: &Reply) -> RemoteError {
        let text = String::from_utf8_lossy(&reply.body);
        let detail = serde_json::from_str::<Value>(&text)
            .ok()
            .and_then(|v| {
                v.get("error_msg")
                    .and_then(Value::as_str)
                    .map(str::to_string)
            })
            .unwrap_or_else(|| text.trim().chars().take(200).collect());
        let detail = crate::io::printable(&self.token.scrub(&detail));
        match reply.status {
            401 => RemoteError::Auth(format!(
                "authentication failed at {url}: the server refused the token {} ({detail}); \
                 check DWAVE_API_TOKEN or the profile's token",
                self.token.masked()
            )),
            403 => RemoteError::Auth(format!("{method} {url}: forbidden ({detail})")),
            404 => RemoteError::NotFound(format!("{method} {url}: not found ({detail})")),
            429 => RemoteError::Limit {
                message: format!("{method} {url}: rate or quota limit ({detail})"),
                retry_after_s: reply.retry_after_s,
            },
            s if s >= 500 => {
                RemoteError::Server(format!("{method} {url}: server error {s} ({detail})"))
            }
            s => RemoteError::Protocol(format!("{method} {url}: HTTP {s} ({detail})")),
        }
    }
}

/// SAPI's versioned `Content-Type`: the media type exactly, and `version=3.x`.
fn check_media_type(reply: &Reply, expected: &str, url: &str) -> Result<(), RemoteError> {
    let got = reply.content_type.as_deref().unwrap_or("");
    let mut parts = got.split(';').map(str::trim);
    let media_type = parts.next().unwrap_or("");
    let version = parts
        .filter_map(|p| p.split_once('='))
        .find(|(k, _)| k.trim().eq_ignore_ascii_case("version"))
        .map(|(_, v)| v.trim().trim_matches('"'));
    let major_ok = version.is_some_and(|v| v.split('.').next() == Some(ACCEPTED_MAJOR));
    if !media_type.eq_ignore_ascii_case(expected) || !major_ok {
        return Err(RemoteError::Protocol(format!(
            "{url}: Content-Type {got:?}, expected {expected} with version 3.x"
        )));
    }
    Ok(())
}

/// The smallest `time_limit` a hybrid solver takes for `n` variables: its
/// `minimum_time_limit` points, linearly interpolated, flat past the ends.
pub fn minimum_time_limit_s(points: &Value, n: usize) -> f64 {
    let pts: Vec<(f64, f64)> = points
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| Some((p.get(0)?.as_f64()?, p.get(1)?.as_f64()?)))
        .filter(|p| p.0.is_finite() && p.1.is_finite())
        .collect();
    let mut pts = pts;
    pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    // Two points at one size: the larger minimum holds (asking more is never refused).
    pts.dedup_by(|later, kept| {
        let same = later.0 == kept.0;
        if same {
            kept.1 = kept.1.max(later.1);
        }
        same
    });
    let x = n as f64;
    let t = match pts.iter().position(|p| p.0 >= x) {
        None => pts.last().map_or(0.0, |p| p.1),
        Some(0) => pts[0].1,
        Some(k) => {
            let (a, b) = (pts[k - 1], pts[k]);
            a.1 + (b.1 - a.1) * (x - a.0) / (b.0 - a.0)
        }
    };
    // A malformed list must not make the limit NaN or negative: the server has the last word.
    if t.is_finite() { t.max(0.0) } else { 0.0 }
}

/// Lowercase hex of a digest.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Percent-encodes a path segment (solver names are plain, but a filter must not break URLs).
fn percent_encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_minimum_time_limit_interpolates_and_survives_odd_lists() {
        let points = serde_json::json!([[1, 3.0], [1024, 3.0], [4096, 5.0], [10000, 40.0]]);
        assert_eq!(minimum_time_limit_s(&points, 100), 3.0);
        assert_eq!(minimum_time_limit_s(&points, 2560), 4.0);
        assert_eq!(minimum_time_limit_s(&points, 1_000_000), 40.0);
        let odd = serde_json::json!([[5, 2.0], [5, 9.0], [1, -4.0], "x", [3]]);
        assert_eq!(minimum_time_limit_s(&odd, 5), 9.0);
        assert_eq!(minimum_time_limit_s(&odd, 0), 0.0);
        assert_eq!(minimum_time_limit_s(&serde_json::json!(null), 10), 0.0);
    }
}
