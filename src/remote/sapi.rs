//! D-Wave's Solver API (SAPI) v3, the client side: versioned media types checked strictly on
//! every 2xx reply, the token in `X-Auth-Token` only, HTTP errors mapped to messages that say
//! what to do (`../shared/docs/remote-protocols.md` §1.2–§1.11).
//!
//! So far: listing solvers. Submitting, polling, cancelling and the multipart upload follow.

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

    /// One call: the versioned `Accept`, the token, the strict `Content-Type` check on 2xx.
    fn call(
        &self,
        method: &str,
        path: &str,
        media_type: &str,
        body: Option<&[u8]>,
    ) -> Result<Value, RemoteError> {
        let url = format!("{}{path}", self.base);
        let accept = format!("{media_type}; version={API_VERSION}");
        let headers = [
            ("X-Auth-Token", self.token.expose()),
            ("Accept", accept.as_str()),
        ];
        let reply = self.http.send(method, &url, &headers, body)?;
        if !(200..300).contains(&reply.status) {
            return Err(self.status_error(method, &url, &reply));
        }
        check_media_type(&reply, media_type, &url)?;
        serde_json::from_slice(&reply.body).map_err(|e| {
            RemoteError::Protocol(format!("{method} {url}: the reply is not JSON: {e}"))
        })
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
        let detail = self.token.scrub(&detail);
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
