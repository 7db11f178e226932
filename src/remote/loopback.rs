//! The HTTP plumbing the fake services share: a listener on 127.0.0.1 serving one request per
//! connection on its own thread, the request read with its body (inflated when it says
//! `Content-Encoding: deflate`, capped in size), and a reply written with `Connection: close`.
//! Each fake supplies only its routing.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::Duration;

/// Largest request body read (hybrid upload parts are 5 MiB).
const MAX_BODY: usize = 64 << 20;

/// A request as a fake saw it (tests assert on headers and bodies).
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

impl Seen {
    /// A header's value by lowercase name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|h| h.0 == name)
            .map(|h| h.1.as_str())
    }
}

/// What a fake answers: status, content type, body — or `None` to drop the connection.
pub type Reply = Option<(u16, String, Vec<u8>)>;

/// A listener that stops when dropped.
pub struct Loopback {
    /// Its port on 127.0.0.1.
    pub port: u16,
    stop: Arc<AtomicBool>,
}

impl Loopback {
    /// Serves `handle` on `port` (0: a free one).
    pub fn start(
        port: u16,
        handle: impl Fn(&Seen) -> Reply + Send + Sync + 'static,
    ) -> std::io::Result<Self> {
        let listener = TcpListener::bind(("127.0.0.1", port))?;
        let port = listener.local_addr()?.port();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let handle = Arc::new(handle);
        thread::spawn(move || {
            for conn in listener.incoming() {
                if flag.load(Ordering::Relaxed) {
                    break;
                }
                if let Ok(conn) = conn {
                    let handle = handle.clone();
                    thread::spawn(move || serve(conn, handle.as_ref()));
                }
            }
        });
        Ok(Loopback { port, stop })
    }
}

impl Drop for Loopback {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        // Wake the accept loop so it sees the flag.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
    }
}

fn serve(conn: TcpStream, handle: &(dyn Fn(&Seen) -> Reply + Send + Sync)) {
    let _ = conn.set_read_timeout(Some(Duration::from_secs(30)));
    let Ok(clone) = conn.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(clone);
    let Some(seen) = read_request(&mut reader) else {
        return;
    };
    let Some((status, content_type, body)) = handle(&seen) else {
        return;
    };
    let head = format!(
        "HTTP/1.1 {status} {}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        reason(status),
        body.len()
    );
    let mut conn = conn;
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

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        404 => "Not Found",
        406 => "Not Acceptable",
        409 => "Conflict",
        415 => "Unsupported Media Type",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        _ => "Status",
    }
}
