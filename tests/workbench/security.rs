//! Credentials never leave for another host: a service that answers with a redirect gets an
//! error naming both addresses, and the host it points to receives nothing — for the D-Wave
//! (`X-Auth-Token`) and the Digital Annealer (`X-Api-Key`) clients alike.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use qubo_workbench::remote::Secret;
use qubo_workbench::remote::fujitsu::{Credential, DaClient};
use qubo_workbench::remote::loopback::{Loopback, Seen};
use qubo_workbench::remote::sapi::Sapi;

const TOKEN: &str = "TEST-0123456789abcdef0123456789abcdef";

/// A server on 127.0.0.1 that answers every request with `302 Location: target` (for at most
/// a few seconds, then it stops by itself); its port.
fn redirector(target: String) -> u16 {
    let listener = TcpListener::bind(("127.0.0.1", 0)).unwrap();
    let port = listener.local_addr().unwrap().port();
    listener.set_nonblocking(true).unwrap();
    std::thread::spawn(move || {
        let until = Instant::now() + Duration::from_secs(10);
        while Instant::now() < until {
            match listener.accept() {
                Ok((mut stream, _)) => {
                    stream.set_nonblocking(false).unwrap();
                    stream
                        .set_read_timeout(Some(Duration::from_millis(500)))
                        .unwrap();
                    let mut buf = [0u8; 8192];
                    let _ = stream.read(&mut buf);
                    let reply = format!(
                        "HTTP/1.1 302 Found\r\nLocation: {target}\r\nContent-Length: 0\r\n\
                         Connection: close\r\n\r\n"
                    );
                    let _ = stream.write_all(reply.as_bytes());
                }
                Err(_) => std::thread::sleep(Duration::from_millis(5)),
            }
        }
    });
    port
}

/// A server that records every request it receives (the "other host").
fn recorder() -> (Loopback, Arc<Mutex<Vec<Seen>>>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let keep = seen.clone();
    let server = Loopback::start(0, move |s: &Seen| {
        keep.lock().unwrap().push(s.clone());
        Some((200, "application/json".into(), b"{}".to_vec()))
    })
    .unwrap();
    (server, seen)
}

#[test]
fn the_sapi_token_never_follows_a_redirect() {
    let (other, seen) = recorder();
    let target = format!("http://127.0.0.1:{}/sapi/v2/solvers/remote/", other.port);
    let port = redirector(target.clone());
    let base = format!("http://127.0.0.1:{port}/sapi/v2/");
    let sapi = Sapi::new(&base, Secret::new(TOKEN), Duration::from_secs(5)).unwrap();
    let e = sapi.solvers().unwrap_err().to_string();
    assert!(
        e.contains(&format!("127.0.0.1:{port}")),
        "names the URL: {e}"
    );
    assert!(e.contains(&target), "names where it pointed: {e}");
    assert!(e.contains("not followed"), "{e}");
    assert!(!e.contains(TOKEN), "{e}");
    assert!(
        seen.lock().unwrap().is_empty(),
        "the other host got a request"
    );
}

#[test]
fn the_digital_annealer_key_never_follows_a_redirect() {
    let (other, seen) = recorder();
    let target = format!("http://127.0.0.1:{}/da/v4/async/jobs/result/1", other.port);
    let port = redirector(target);
    let base = format!("http://127.0.0.1:{port}/da/");
    let client = DaClient::new(
        &base,
        "v4",
        Secret::new(TOKEN),
        Credential::ApiKey,
        Duration::from_secs(5),
    )
    .unwrap();
    let e = client.cancel("1").unwrap_err().to_string();
    assert!(e.contains("redirecting to"), "{e}");
    assert!(!e.contains(TOKEN), "{e}");
    assert!(
        seen.lock().unwrap().is_empty(),
        "the other host got a request"
    );
}
