//! Remote annealing services: D-Wave Leap's Solver API and Fujitsu's Digital Annealer.
//!
//! What is here: the wire encodings (`qp`, `bq`), the configuration users already have
//! (`dwave.conf` profiles and `DWAVE_*` variables), the HTTP path with deadlines (`http`), the
//! SAPI client (`sapi`), the Leap samplers (`leap`, `hybrid`, `qpu` with its embedding step in
//! `chains`, `embedding`, `clique`, `topology`), the Digital Annealer client and sampler
//! (`fujitsu`, `digital_annealer`), strict loopback fakes of both services (`fake_sapi`,
//! `fake_da`), and each service's `Service` description for the window. The vendors' published
//! API references and clients are the protocol reference.
//!
//! Invariant: a token never appears in an error, a log line or any output. It is held in a
//! `Secret`, whose `Debug` and `Display` print only a masked form.

pub mod bq;
pub mod chains;
pub mod clique;
pub mod digital_annealer;
pub mod dwave_config;
pub mod embedding;
pub mod embedding_cache;
pub mod fake_da;
pub mod fake_sapi;
pub mod fujitsu;
pub mod http;
pub mod hybrid;
pub mod leap;
pub mod loopback;
pub mod qp;
pub mod qpu;
pub mod sapi;
pub mod topology;

use std::fmt;

/// A service's failure reaches the sampler layer wrapped (that layer knows no service).
impl From<RemoteError> for crate::sampler::SampleError {
    fn from(e: RemoteError) -> Self {
        crate::sampler::SampleError::Service(crate::sampler::ServiceError::new(e))
    }
}

/// What went wrong talking to a remote service, in words that say where.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RemoteError {
    /// Configuration: a file that cannot be read or parsed, a missing token, a bad endpoint.
    #[error("configuration: {0}")]
    Config(String),
    /// The problem does not fit the solver (a qubit or coupler it lacks, a range).
    #[error("problem: {0}")]
    Problem(String),
    /// The service answered something the protocol does not allow.
    #[error("unexpected reply: {0}")]
    Protocol(String),
    /// The address cannot be reached, or the connection broke.
    #[error("network: {0}")]
    Network(String),
    /// No reply within the request's deadline.
    #[error("timeout: {0}")]
    Timeout(String),
    /// The token was refused (401) or lacks the right (403).
    #[error("{0}")]
    Auth(String),
    /// An unknown solver or problem (404).
    #[error("{0}")]
    NotFound(String),
    /// A rate or quota limit (429), with the server's wait if it gave one.
    #[error("{message}{}", retry_after_s.map(|s| format!(" (retry after {s} s)")).unwrap_or_default())]
    Limit {
        /// What was limited.
        message: String,
        /// Seconds to wait, from `Retry-After`.
        retry_after_s: Option<f64>,
    },
    /// A server-side failure (5xx).
    #[error("{0}")]
    Server(String),
    /// The problem ran and failed (status `FAILED`, with the server's message).
    #[error("{0}")]
    Failed(String),
    /// The problem was cancelled.
    #[error("{0}")]
    Cancelled(String),
}

/// A credential. Printing it shows at most its first four characters.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// Wraps a credential read from the environment or a config file.
    pub fn new(value: impl Into<String>) -> Self {
        Secret(value.into())
    }

    /// The value, for the one place that sends it (a request header).
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// Refuses a credential that cannot be one — blank, or holding spaces or control
    /// characters (a stray newline in a variable) — naming `what` it is and `from` where, never
    /// its value. Surrounding white space is dropped first.
    pub fn checked(self, what: &str, from: &str) -> Result<Secret, RemoteError> {
        let value = self.0.trim();
        if value.is_empty() {
            return Err(RemoteError::Config(format!(
                "the {what} from {from} is blank"
            )));
        }
        if value.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(RemoteError::Config(format!(
                "the {what} from {from} holds spaces or control characters: a {what} is one word"
            )));
        }
        Ok(Secret(value.to_string()))
    }

    /// A form safe to show: the first four characters of a long token, then `…`.
    pub fn masked(&self) -> String {
        let head: String = self.0.chars().take(4).collect();
        if self.0.chars().count() >= 16 {
            format!("{head}…")
        } else {
            "…".to_string()
        }
    }

    /// `text` with every occurrence of the secret replaced by its masked form (for messages
    /// that quote a server's reply, which might echo it).
    pub fn scrub(&self, text: &str) -> String {
        if self.0.is_empty() {
            text.to_string()
        } else {
            text.replace(&self.0, &self.masked())
        }
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Secret({})", self.masked())
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.masked())
    }
}

/// Where a remote sampler reads `DWAVE_*`/`FUJITSU_DA_*`: the process environment, or the
/// map a test gave it.
pub(crate) fn environment(
    map: &Option<std::collections::BTreeMap<String, String>>,
) -> &dyn dwave_config::Environment {
    match map {
        Some(m) => m,
        None => &dwave_config::ProcessEnv,
    }
}

/// The model as a stored QUBO, what every remote service is sent.
pub(crate) fn model_qubo(
    model: &dyn crate::qubo::Model,
) -> Result<crate::qubo::Qubo, crate::sampler::SampleError> {
    crate::qubo::Qubo::from_model(model)
        .map_err(|e| crate::sampler::SampleError::ModelNotSupported(e.to_string()))
}

/// Refuses a base URL that would send a token in the clear: HTTPS, or plain HTTP to a loopback
/// address (the tests' fake servers).
pub fn check_endpoint(url: &str) -> Result<(), RemoteError> {
    // Credentials in the URL are never echoed.
    let shown = match (url.find("://"), url.find('@')) {
        (Some(a), Some(b)) if a + 3 < b => format!("{}…{}", &url[..a + 3], &url[b..]),
        _ => url.to_string(),
    };
    // Nor is a query (it may hold a secret): only the part before it is shown.
    let shown = crate::io::printable(shown.split(['?', '#']).next().unwrap_or(""));
    let bad = |why: &str| Err(RemoteError::Config(format!("endpoint {shown}: {why}")));
    if url.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return bad("holds spaces or control characters (a stray space when it was pasted?)");
    }
    // Request paths are appended to the endpoint: a query or fragment would end up inside
    // every request's path.
    if url.contains(['?', '#']) {
        return bad(
            "an endpoint is a base URL without a query or fragment; give the token separately",
        );
    }
    let lower = url.trim().to_ascii_lowercase();
    let (https, rest) = match (
        lower.strip_prefix("https://"),
        lower.strip_prefix("http://"),
    ) {
        (Some(rest), _) => (true, rest),
        (None, Some(rest)) => (false, rest),
        _ => return bad("not an http(s) URL"),
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    if authority.contains('@') {
        return bad("credentials in the URL would be sent and logged; give the token separately");
    }
    // host, [v6] or host:port, [v6]:port
    let (host, port) = match authority.strip_prefix('[') {
        Some(v6) => match v6.split_once(']') {
            Some((h, tail)) => (h, tail.strip_prefix(':')),
            None => return bad("an IPv6 host lacks its closing ']'"),
        },
        None => match authority.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (authority, None),
        },
    };
    if host.is_empty() {
        return bad("no host");
    }
    if let Some(p) = port
        && !p.parse::<u16>().is_ok_and(|p| p > 0)
    {
        return bad(&format!("port '{p}' is not a number in 1..=65535"));
    }
    if https {
        return Ok(());
    }
    let loopback = host == "localhost"
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback());
    if loopback {
        return Ok(());
    }
    bad(
        "plain HTTP would send the token in the clear; use https:// \
         (http:// is allowed only to 127.0.0.1 or localhost, for local fakes)",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_never_print_in_full() {
        let s = Secret::new("DEV-0123456789abcdef0123456789abcdef");
        assert_eq!(format!("{s}"), "DEV-…");
        assert_eq!(format!("{s:?}"), "Secret(DEV-…)");
        assert_eq!(
            s.scrub("bad token DEV-0123456789abcdef0123456789abcdef given"),
            "bad token DEV-… given"
        );
        // A short value shows nothing of itself.
        assert_eq!(Secret::new("abc").masked(), "…");
    }

    #[test]
    fn tokens_go_over_https_or_to_loopback_only() {
        assert!(check_endpoint("https://na-west-1.cloud.dwavesys.com/sapi/v2/").is_ok());
        assert!(check_endpoint("http://127.0.0.1:8123/sapi/v2/").is_ok());
        assert!(check_endpoint("http://localhost/sapi/").is_ok());
        assert!(check_endpoint("http://[::1]:80/sapi/").is_ok());
        let e = check_endpoint("http://cloud.dwavesys.com/sapi/").unwrap_err();
        assert!(e.to_string().contains("in the clear"), "{e}");
        assert!(check_endpoint("http://127.0.0.1.evil.com/").is_err());
        assert!(check_endpoint("ftp://x/").is_err());
    }

    #[test]
    fn endpoints_with_a_query_a_fragment_or_spaces_are_refused_without_echoing_them() {
        for url in [
            "http://127.0.0.1:8123/sapi/v2/?token=abc",
            "https://host/sapi/#frag",
            " https://host/sapi/",
        ] {
            let e = check_endpoint(url).unwrap_err().to_string();
            assert!(!e.contains("token=abc"), "{e}");
            assert!(
                e.contains("without a query or fragment") || e.contains("spaces"),
                "{e}"
            );
        }
    }

    #[test]
    fn endpoints_with_a_bad_port_no_host_or_credentials_are_refused() {
        for (url, why) in [
            (
                "https://host:99999/sapi/",
                "port '99999' is not a number in 1..=65535",
            ),
            ("http://127.0.0.1:0/", "port '0'"),
            ("https://host:abc/", "port 'abc'"),
            ("https://:443/", "no host"),
            ("https:///sapi", "no host"),
            ("https://user:pw@host/", "https://…@host/: credentials"),
            ("http://[::1/", "closing ']'"),
        ] {
            let e = check_endpoint(url).unwrap_err().to_string();
            assert!(e.contains(why), "{url}: {e}");
            assert!(!e.contains("pw"), "{e}");
        }
        assert!(check_endpoint("https://host:443/sapi/").is_ok());
    }
}
