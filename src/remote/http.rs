//! The one HTTP path of the remote clients: every request has a deadline, replies of every
//! status come back as data (the protocol layer maps them), and transport failures become
//! messages that name the address — never the token, which only travels in a header.
//!
//! Invariant: redirects are never followed. A redirect would carry the credential header to
//! whatever host it names (HTTP clients strip `Authorization` on a redirect, not `X-Auth-Token`
//! or `X-Api-Key`), past the endpoint rule (HTTPS, or HTTP to loopback only); a 3xx reply is an
//! error that names both addresses instead.

use std::io::Read;
use std::time::Duration;

use super::RemoteError;

/// Largest reply body read (a QPU answer for 10 000 reads of 5 000 qubits is about 7 MB).
const MAX_REPLY_BYTES: u64 = 256 << 20;

/// A reply: status, the headers the clients read, and the body.
#[derive(Clone, Debug)]
pub struct Reply {
    /// HTTP status.
    pub status: u16,
    /// `Content-Type`, if sent.
    pub content_type: Option<String>,
    /// `Retry-After` in seconds, if sent as a number.
    pub retry_after_s: Option<f64>,
    /// The body.
    pub body: Vec<u8>,
}

impl Reply {
    /// The body as JSON; the error names the request.
    pub fn json(&self, method: &str, url: &str) -> Result<serde_json::Value, super::RemoteError> {
        serde_json::from_slice(&self.body).map_err(|e| {
            super::RemoteError::Protocol(format!("{method} {url}: the reply is not JSON: {e}"))
        })
    }
}

/// A blocking HTTP client with a per-request deadline.
#[derive(Clone)]
pub struct Http {
    agent: ureq::Agent,
    timeout: Duration,
}

impl Http {
    /// A client whose every request must finish within `timeout`.
    pub fn new(timeout: Duration) -> Self {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(Some(timeout))
            .http_status_as_error(false)
            // Never follow: a 3xx reply comes back as data and is refused below.
            .max_redirects(0)
            .user_agent(concat!("qubo-workbench/", env!("CARGO_PKG_VERSION")))
            .build()
            .into();
        Http { agent, timeout }
    }

    /// Sends `method url` with `headers` and an optional body; any status is a `Reply`.
    pub fn send(
        &self,
        method: &str,
        url: &str,
        headers: &[(&str, &str)],
        body: Option<&[u8]>,
    ) -> Result<Reply, RemoteError> {
        let request = ureq::http::Request::builder().method(method).uri(url);
        let request = headers.iter().fold(request, |r, (k, v)| r.header(*k, *v));
        let result = match body {
            Some(bytes) => request
                .body(bytes.to_vec())
                .map_err(|e| RemoteError::Network(format!("{method} {url}: {e}")))
                .and_then(|r| {
                    self.agent
                        .run(r)
                        .map_err(|e| self.transport(method, url, e))
                }),
            None => request
                .body(())
                .map_err(|e| RemoteError::Network(format!("{method} {url}: {e}")))
                .and_then(|r| {
                    self.agent
                        .run(r)
                        .map_err(|e| self.transport(method, url, e))
                }),
        };
        let mut response = result?;
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string)
        };
        if (300..400).contains(&response.status().as_u16()) {
            let location = header("location").unwrap_or_else(|| "(no Location given)".into());
            return Err(RemoteError::Protocol(format!(
                "{method} {url}: the service answered {} redirecting to {location}; redirects are \
                 not followed (the credential would travel with it): if that address is the \
                 service's, set the endpoint to it",
                response.status().as_u16()
            )));
        }
        let content_type = header("content-type");
        let retry_after_s = header("retry-after").and_then(|v| v.trim().parse::<f64>().ok());
        let status = response.status().as_u16();
        let mut body = Vec::new();
        response
            .body_mut()
            .as_reader()
            .take(MAX_REPLY_BYTES + 1)
            .read_to_end(&mut body)
            .map_err(|e| self.read_failed(method, url, &e.to_string(), true))?;
        if body.len() as u64 > MAX_REPLY_BYTES {
            return Err(RemoteError::Protocol(format!(
                "{method} {url}: the reply is larger than {} MB",
                MAX_REPLY_BYTES >> 20
            )));
        }
        Ok(Reply {
            status,
            content_type,
            retry_after_s,
            body,
        })
    }

    fn transport(&self, method: &str, url: &str, e: ureq::Error) -> RemoteError {
        match e {
            ureq::Error::Timeout(_) => RemoteError::Timeout(format!(
                "{method} {url}: no reply within {:.1} s",
                self.timeout.as_secs_f64()
            )),
            other => self.read_failed(method, url, &other.to_string(), false),
        }
    }

    /// A transport failure in words; `in_body` when the reply had begun (a server that
    /// trickles its reply out is timed out there: "timeout: global").
    fn read_failed(&self, method: &str, url: &str, why: &str, in_body: bool) -> RemoteError {
        let lower = why.to_ascii_lowercase();
        if lower.contains("timed out") || lower.contains("timeout") {
            let limit = self.timeout.as_secs_f64();
            RemoteError::Timeout(if in_body {
                format!(
                    "{method} {url}: the reply began but did not finish within {limit:.1} s (the \
                     server sends it too slowly)"
                )
            } else {
                format!("{method} {url}: no reply within {limit:.1} s")
            })
        } else if url.starts_with("https://")
            && ["unexpected end of file", "tls", "handshake", "certificate"]
                .iter()
                .any(|k| why.to_ascii_lowercase().contains(k))
        {
            // A plain-HTTP port answered an https:// endpoint (or TLS failed): say so, rather
            // than only "unexpected end of file".
            RemoteError::Network(format!(
                "{method} {url}: {why} (the TLS connection failed: is the server at this \
                 address speaking HTTPS, and is its certificate valid?)"
            ))
        } else {
            RemoteError::Network(format!("{method} {url}: {why}"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// A server that sends its headers at once and then its body a byte at a time, too slowly
    /// for the deadline: the message says the reply began and did not finish.
    #[test]
    fn a_trickling_reply_is_said_to_be_too_slow_not_a_bare_timeout() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/x", listener.local_addr().unwrap());
        std::thread::spawn(move || {
            let (mut stream, _) = listener.accept().unwrap();
            let mut request = [0u8; 1024];
            let _ = stream.read(&mut request);
            let _ = stream.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n");
            for _ in 0..40 {
                std::thread::sleep(Duration::from_millis(50));
                if stream.write_all(b"x").is_err() {
                    return;
                }
            }
        });
        let e = Http::new(Duration::from_millis(600))
            .send("GET", &url, &[], None)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("the reply began but did not finish within 0.6 s"),
            "{e}"
        );
    }
}
