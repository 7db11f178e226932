//! A fake SAPI server on 127.0.0.1 for tests (and, later, for checking it against the official
//! Python client). It is strict where the real service is: the token must match, replies carry
//! the exact versioned media types, deflate bodies are inflated, unknown solvers are 404s.
//! Faults are switched on per test (`Faults`).
//!
//! So far: the solver list and single solver definitions. Problems, polling, cancel and the
//! multipart upload follow with the client calls that use them.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use serde_json::{Value, json};

use super::sapi::media;

/// Largest request body the fake accepts (parts are 5 MiB).
const MAX_BODY: usize = 64 << 20;

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
}

/// A request as the fake saw it (tests assert on headers and bodies).
#[derive(Clone, Debug)]
pub struct Seen {
    /// Method.
    pub method: String,
    /// Path and query.
    pub path: String,
    /// Headers, names lowercased.
    pub headers: Vec<(String, String)>,
    /// Body after inflating.
    pub body: Vec<u8>,
}

struct State {
    token: String,
    solvers: Vec<Value>,
    faults: Faults,
    seen: Vec<Seen>,
}

/// A running fake; stops when dropped.
pub struct FakeSapi {
    /// `http://127.0.0.1:PORT/sapi/v2/`.
    pub base_url: String,
    state: Arc<Mutex<State>>,
    stop: Arc<AtomicBool>,
    port: u16,
}

impl FakeSapi {
    /// Starts a fake that accepts `token` and lists `solvers` (v3 solver definitions).
    pub fn start(token: &str, solvers: Vec<Value>) -> std::io::Result<Self> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let port = listener.local_addr()?.port();
        let state = Arc::new(Mutex::new(State {
            token: token.to_string(),
            solvers,
            faults: Faults::default(),
            seen: Vec::new(),
        }));
        let stop = Arc::new(AtomicBool::new(false));
        let (s, st) = (state.clone(), stop.clone());
        thread::spawn(move || {
            for conn in listener.incoming() {
                if st.load(Ordering::Relaxed) {
                    break;
                }
                if let Ok(conn) = conn {
                    let s = s.clone();
                    thread::spawn(move || serve(conn, &s));
                }
            }
        });
        Ok(FakeSapi {
            base_url: format!("http://127.0.0.1:{port}/sapi/v2/"),
            state,
            stop,
            port,
        })
    }

    /// Switches faults on or off.
    pub fn set_faults(&self, faults: Faults) {
        self.state.lock().expect("fake state").faults = faults;
    }

    /// Every request so far.
    pub fn seen(&self) -> Vec<Seen> {
        self.state.lock().expect("fake state").seen.clone()
    }
}

impl Drop for FakeSapi {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        // Wake the accept loop so it sees the flag.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
    }
}

/// A 4-qubit QPU (a ring) and a hybrid BQM solver, as the protocol notes' example lists them.
pub fn example_solvers() -> Vec<Value> {
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

fn serve(conn: TcpStream, state: &Mutex<State>) {
    let _ = conn.set_read_timeout(Some(Duration::from_secs(30)));
    let mut reader = BufReader::new(match conn.try_clone() {
        Ok(c) => c,
        Err(_) => return,
    });
    let mut conn = conn;
    // One request per connection keeps the fake simple; replies say `Connection: close`.
    let Some(seen) = read_request(&mut reader) else {
        return;
    };
    let faults = {
        let mut s = state.lock().expect("fake state");
        s.seen.push(seen.clone());
        s.faults.clone()
    };
    if let Some(d) = faults.delay {
        thread::sleep(d);
    }
    if faults.drop_connection {
        return;
    }
    let (status, content_type, body) = route(&seen, state);
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
    let head = format!(
        "HTTP/1.1 {status} {}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        reason(status),
        body.len()
    );
    let _ = conn.write_all(head.as_bytes());
    let _ = conn.write_all(&body);
}

fn read_request(reader: &mut BufReader<TcpStream>) -> Option<Seen> {
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut parts = line.split_whitespace();
    let (method, path) = (parts.next()?.to_string(), parts.next()?.to_string());
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        reader.read_line(&mut h).ok()?;
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        let (k, v) = h.split_once(':')?;
        headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
    }
    let get = |name: &str| headers.iter().find(|h| h.0 == name).map(|h| h.1.clone());
    let length: usize = get("content-length")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    if length > MAX_BODY {
        return None;
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    if get("content-encoding").is_some_and(|e| e.eq_ignore_ascii_case("deflate")) {
        let mut out = Vec::new();
        flate2::read::ZlibDecoder::new(&body[..])
            .take(MAX_BODY as u64)
            .read_to_end(&mut out)
            .ok()?;
        body = out;
    }
    Some(Seen {
        method,
        path,
        headers,
        body,
    })
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
    let s = state.lock().expect("fake state");
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
        _ => error(404, "Not found"),
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        404 => "Not Found",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        _ => "Status",
    }
}
