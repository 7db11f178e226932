//! The SAPI client against the strict loopback fake: solver listing, the token in its header
//! only, the versioned media types, and every fault mapped to a message that says what failed
//! without the token.

use crate::common::*;
use std::time::Duration;

use qubo_workbench::remote::fake_sapi::{FakeSapi, Faults, example_solvers};
use qubo_workbench::remote::sapi::Sapi;
use qubo_workbench::remote::{RemoteError, Secret};

const TOKEN: &str = "TEST-0123456789abcdef0123456789abcdef";

fn client(fake: &FakeSapi, token: &str, timeout_ms: u64) -> Sapi {
    Sapi::new(
        &fake.base_url,
        Secret::new(token),
        Duration::from_millis(timeout_ms),
    )
    .unwrap()
}

#[test]
fn solvers_are_listed_with_identity_status_and_category() {
    let fake = FakeSapi::start(TOKEN, example_solvers()).unwrap();
    let sapi = client(&fake, TOKEN, 5000);
    let solvers = sapi.solvers().unwrap();
    assert_eq!(solvers.len(), 4);
    assert!(solvers[2].properties["qubits"].as_array().unwrap().len() > 5500);
    // The Advantage2 mock: Z(12, 4), 4 800 qubits less the 20 dead.
    assert_eq!(solvers[3].properties["topology"]["type"], "zephyr");
    assert_eq!(
        solvers[3].properties["qubits"].as_array().unwrap().len(),
        4780
    );
    assert_eq!(solvers[0].name, "Advantage_mock");
    assert_eq!(solvers[0].graph_id.as_deref(), Some("ring_4"));
    assert_eq!(solvers[0].category, "qpu");
    assert!(solvers[0].online);
    assert_eq!(solvers[1].category, "hybrid");
    let one = sapi
        .solver("hybrid_binary_quadratic_model_version2")
        .unwrap();
    assert_eq!(one.properties["maximum_time_limit_hrs"], 24.0);
    // What went over the wire: the token in X-Auth-Token, a versioned Accept.
    let seen = fake.seen();
    let header = |name: &str| {
        seen[0]
            .headers
            .iter()
            .find(|h| h.0 == name)
            .map(|h| h.1.clone())
            .unwrap_or_default()
    };
    assert_eq!(header("x-auth-token"), TOKEN);
    assert_eq!(
        header("accept"),
        "application/vnd.dwave.sapi.solver-definition-list+json; version=3.0.0"
    );
    assert_eq!(seen[0].path, "/sapi/v2/solvers/remote/");
}

#[test]
fn a_wrong_token_is_an_authentication_failure_that_does_not_show_it() {
    let fake = FakeSapi::start(TOKEN, example_solvers()).unwrap();
    let wrong = "WRONG-abcdef0123456789abcdef0123";
    let e = client(&fake, wrong, 5000).solvers().unwrap_err();
    assert!(matches!(e, RemoteError::Auth(_)), "{e:?}");
    let text = e.to_string();
    assert!(text.contains("authentication failed"), "{text}");
    assert!(!text.contains("abcdef0123456789"), "{text}");
}

#[test]
fn an_unknown_solver_is_not_found() {
    let fake = FakeSapi::start(TOKEN, example_solvers()).unwrap();
    let e = client(&fake, TOKEN, 5000)
        .solver("Nope_system")
        .unwrap_err();
    assert!(matches!(e, RemoteError::NotFound(_)), "{e:?}");
    assert!(e.to_string().contains("Nope_system"), "{e}");
}

#[test]
fn faults_become_clear_errors() {
    let fake = FakeSapi::start(TOKEN, example_solvers()).unwrap();
    let sapi = client(&fake, TOKEN, 500);
    fake.set_faults(Faults {
        wrong_version: true,
        ..Default::default()
    });
    let e = sapi.solvers().unwrap_err().to_string();
    assert!(
        e.contains("version 3.x") && e.contains("version=2.0.0"),
        "{e}"
    );
    fake.set_faults(Faults {
        malformed_json: true,
        ..Default::default()
    });
    let e = sapi.solvers().unwrap_err().to_string();
    assert!(e.contains("not JSON"), "{e}");
    fake.set_faults(Faults {
        drop_connection: true,
        ..Default::default()
    });
    let e = sapi.solvers().unwrap_err();
    assert!(matches!(e, RemoteError::Network(_)), "{e:?}");
    fake.set_faults(Faults {
        delay: Some(Duration::from_millis(1500)),
        ..Default::default()
    });
    let e = sapi.solvers().unwrap_err();
    assert!(matches!(e, RemoteError::Timeout(_)), "{e:?}");
    assert!(e.to_string().contains("0.5 s"), "{e}");
}

#[test]
fn tokens_are_not_sent_in_the_clear_to_remote_hosts() {
    let e = Sapi::new(
        "http://cloud.dwavesys.com/sapi/v2/",
        Secret::new(TOKEN),
        Duration::from_secs(1),
    )
    .err()
    .unwrap();
    assert!(e.to_string().contains("in the clear"), "{e}");
}

/// A QUBO on the fake's 4-qubit ring: x0 and x2 want to be on, x1 off; qubit 3 unused.
fn ring_problem() -> qubo_workbench::remote::qp::PhysicalProblem {
    let mut p = qubo_workbench::remote::qp::PhysicalProblem::default();
    p.add_coupling(0, 0, -1.0);
    p.add_coupling(2, 2, -1.0);
    p.add_coupling(1, 1, 0.5);
    p.add_coupling(0, 1, 2.0);
    p.add_coupling(1, 2, 2.0);
    p.offset = 3.0;
    p
}

fn ring_job(fake: &FakeSapi, params: serde_json::Value) -> serde_json::Value {
    let sapi = client(fake, TOKEN, 5000);
    let solver = sapi.solver("Advantage_mock").unwrap();
    let list = |k: &str| solver.properties[k].as_array().unwrap().clone();
    let qubits: Vec<u32> = list("qubits")
        .iter()
        .map(|q| q.as_u64().unwrap() as u32)
        .collect();
    let couplers: Vec<(u32, u32)> = list("couplers")
        .iter()
        .map(|c| (c[0].as_u64().unwrap() as u32, c[1].as_u64().unwrap() as u32))
        .collect();
    let data =
        qubo_workbench::remote::qp::encode_problem(&ring_problem(), &qubits, &couplers).unwrap();
    serde_json::json!({
        "solver": {"name": solver.name, "version": {"graph_id": solver.graph_id}},
        "type": "qubo", "data": data, "params": params, "label": "ring test",
    })
}

#[test]
fn a_qp_problem_is_submitted_compressed_polled_and_its_answer_decoded() {
    let fake = FakeSapi::start(TOKEN, example_solvers()).unwrap();
    fake.set_faults(Faults {
        polls_before_done: 2,
        poll_errors: 2,
        ..Default::default()
    });
    let sapi = client(&fake, TOKEN, 5000);
    let status = sapi
        .submit(&ring_job(&fake, serde_json::json!({"num_reads": 20})))
        .unwrap();
    assert_eq!(status.status, "PENDING");
    // Two 500s during polling are retried; the problem completes after two polls.
    let answer = sapi.wait(&status.id, &|| false, 1, &|_| {}).unwrap();
    let a = qubo_workbench::remote::qp::decode_answer(&answer).unwrap();
    assert_eq!(a.active_variables, vec![0, 1, 2]);
    assert_eq!(a.num_variables, 4);
    assert_eq!(a.num_occurrences.iter().sum::<u32>(), 20);
    // Energies come back without the offset; each matches its sample on the full problem.
    let p = ring_problem();
    for (row, &e) in a.solutions.iter().zip(&a.energies) {
        let mut x = vec![0u8; 4];
        for (&q, &v) in a.active_variables.iter().zip(row) {
            x[q as usize] = v;
        }
        assert_eq!(p.energy(&x) - p.offset, e);
    }
    assert_eq!(a.solutions[0], vec![1, 0, 1], "the ground state");
    // The submit went compressed, with no Content-Type, as a batch of one.
    let seen = fake.seen();
    let post = seen.iter().find(|s| s.method == "POST").unwrap();
    assert!(
        post.headers
            .iter()
            .any(|h| h == &("content-encoding".to_string(), "deflate".to_string()))
    );
    assert!(!post.headers.iter().any(|h| h.0 == "content-type"));
    let body: serde_json::Value = serde_json::from_slice(&post.body).unwrap();
    assert_eq!(body.as_array().unwrap().len(), 1);
    assert!(
        seen.iter()
            .any(|s| s.path.contains("problems/?id=") && s.path.contains("&timeout=1"))
    );
}

#[test]
fn failed_cancelled_and_refused_problems_say_so() {
    let fake = FakeSapi::start(TOKEN, example_solvers()).unwrap();
    let sapi = client(&fake, TOKEN, 5000);
    // An unknown parameter is refused per item, with the server's words.
    let e = sapi
        .submit(&ring_job(&fake, serde_json::json!({"num_sweeps": 5})))
        .unwrap_err()
        .to_string();
    assert!(e.contains("unknown parameter \"num_sweeps\""), "{e}");
    // A problem that fails carries the server's message.
    fake.set_faults(Faults {
        fail_problems: Some("solver is offline".into()),
        polls_before_done: 1,
        ..Default::default()
    });
    let s = sapi
        .submit(&ring_job(&fake, serde_json::json!({})))
        .unwrap();
    let e = sapi.wait(&s.id, &|| false, 1, &|_| {}).unwrap_err();
    assert!(matches!(e, RemoteError::Failed(_)), "{e:?}");
    assert!(e.to_string().contains("solver is offline"), "{e}");
    // Cancelling while it runs: the server marks it CANCELLED.
    fake.set_faults(Faults {
        polls_before_done: 1000,
        ..Default::default()
    });
    let s = sapi
        .submit(&ring_job(&fake, serde_json::json!({})))
        .unwrap();
    let polls = std::cell::Cell::new(0);
    let e = sapi
        .wait(
            &s.id,
            &|| {
                polls.set(polls.get() + 1);
                polls.get() > 3
            },
            1,
            &|_| {},
        )
        .unwrap_err();
    assert!(matches!(e, RemoteError::Cancelled(_)), "{e:?}");
    assert_eq!(sapi.problem(&s.id).unwrap().status, "CANCELLED");
    assert!(fake.seen().iter().any(|r| r.method == "DELETE"));
    // An unknown problem is not found.
    assert!(matches!(
        sapi.problem("nope"),
        Err(RemoteError::NotFound(_))
    ));
}

mod properties {
    use proptest::prelude::*;
    use qubo_workbench::remote::qp::{
        Answer, PhysicalProblem, decode_answer, decode_problem, encode_answer, encode_problem,
    };

    proptest! {
        /// Any answer survives encoding and decoding unchanged (bit packing at every width).
        #[test]
        fn answers_round_trip(
            active in proptest::collection::btree_set(0u32..64, 0..40),
            rows in proptest::collection::vec((any::<u64>(), -1e6f64..1e6, 1u32..100), 0..8),
        ) {
            let active: Vec<u32> = active.into_iter().collect();
            let a = Answer {
                num_variables: 64,
                solutions: rows.iter().map(|(bits, _, _)| (0..active.len()).map(|k| ((bits >> k) & 1) as u8).collect()).collect(),
                energies: rows.iter().map(|r| r.1).collect(),
                num_occurrences: rows.iter().map(|r| r.2).collect(),
                active_variables: active,
                timing: Default::default(),
            };
            prop_assert_eq!(decode_answer(&encode_answer(&a)).unwrap(), a);
        }

        /// Any problem on a graph survives the qp encoding, whatever the solver's list orders.
        #[test]
        fn problems_round_trip(
            biases in proptest::collection::vec((0u32..8, 0u32..8, -4.0f64..4.0), 0..20),
            order in Just(()).prop_perturb(|_, mut rng| {
                let mut q: Vec<u32> = (0..8).collect();
                for i in (1..q.len()).rev() { q.swap(i, (rng.next_u32() as usize) % (i + 1)); }
                q
            }),
        ) {
            // A complete graph on 8 qubits, listed in a shuffled order.
            let couplers: Vec<(u32, u32)> = order.iter().flat_map(|&a| order.iter().filter(move |&&b| b > a).map(move |&b| (b, a))).collect();
            let mut p = PhysicalProblem::default();
            for &(a, b, v) in &biases {
                p.add_coupling(a, b, v);
            }
            // A coupling that sums to zero is not sent as one; compare what decoding can see.
            p.quadratic.retain(|_, v| *v != 0.0);
            let data = encode_problem(&p, &order, &couplers).unwrap();
            let back = decode_problem(&data, &order, &couplers).unwrap();
            prop_assert_eq!(&back.quadratic, &p.quadratic);
            prop_assert_eq!(back.active(), p.active());
            for (q, h) in &p.linear {
                prop_assert_eq!(back.linear.get(q), Some(h));
            }
        }
    }
}

/// The CLI against the fake, with a clean environment (no dwave.conf, no other DWAVE_*).
fn cli(fake: &FakeSapi, token: &str, args: &[&str]) -> std::process::Output {
    let home = tempfile::tempdir().unwrap();
    std::process::Command::new(env!("CARGO_BIN_EXE_qubo-workbench"))
        .args(args)
        .args(["--endpoint", &fake.base_url])
        .current_dir(home.path())
        .env_clear()
        .env("HOME", home.path())
        .env("DWAVE_API_TOKEN", token)
        .output()
        .unwrap()
}

#[test]
fn the_cli_lists_solvers_and_reports_a_refused_token_without_it() {
    let fake = FakeSapi::start(TOKEN, example_solvers()).unwrap();
    let v = stdout_json(&cli(&fake, TOKEN, &["remote", "solvers", "--json"]));
    assert_eq!(v["solvers"][0]["name"], "Advantage_mock");
    assert_eq!(v["solvers"][0]["size"], 4);
    assert_eq!(v["solvers"][1]["category"], "hybrid");
    // --solver narrows the list, and a name the service lacks is said.
    let v = stdout_json(&cli(
        &fake,
        TOKEN,
        &["remote", "solvers", "--json", "--solver", "Advantage_mock"],
    ));
    assert_eq!(v["solvers"].as_array().unwrap().len(), 1);
    let out = cli(&fake, TOKEN, &["remote", "solvers", "--solver", "nosuch"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        err.contains("--solver nosuch: no such solver") && err.contains("Advantage_mock"),
        "{err}"
    );
    let out = cli(&fake, TOKEN, &["remote", "config", "--json"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("TEST…") && !text.contains("0123456789"),
        "{text}"
    );
    let wrong = "WRONG-abcdef0123456789abcdef0123";
    let out = cli(&fake, wrong, &["remote", "solvers"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(err.contains("authentication failed"), "{err}");
    assert!(!err.contains("abcdef0123456789"), "{err}");
}

/// `n` pseudo-random bytes (a file larger than one 5 MiB part).
fn noise(n: usize) -> Vec<u8> {
    let mut x = 0x2545_f491_4f6c_dd1du64;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

#[test]
fn the_multipart_upload_is_checked_by_the_fake_and_resumes_where_it_stopped() {
    use md5::{Digest, Md5};
    let fake = FakeSapi::start(TOKEN, example_solvers()).unwrap();
    let sapi = client(&fake, TOKEN, 20_000);
    let bytes = noise((5 << 20) + 12_345);
    let id = sapi.start_upload(bytes.len()).unwrap();
    // Part 2 is refused: the upload stops and says which part.
    fake.set_faults(Faults {
        reject_part: Some(2),
        ..Default::default()
    });
    let e = sapi.upload_parts(&id, &bytes).unwrap_err();
    assert!(e.to_string().contains("part 2"), "{e}");
    fake.set_faults(Faults::default());
    sapi.upload_parts(&id, &bytes).unwrap();
    let puts = |n: usize| {
        fake.seen()
            .iter()
            .filter(|r| r.method == "PUT" && r.path.ends_with(&format!("/part/{n}")))
            .count()
    };
    assert_eq!(
        puts(1),
        1,
        "the resumed upload skips the part the server holds"
    );
    assert_eq!(puts(2), 2);
    assert_eq!(sapi.upload_status(&id).unwrap().0, "UPLOAD_COMPLETED");
    // What went over the wire: Content-MD5 (base64) per part, the combine checksum over the
    // raw part digests, no versioned media types on these calls.
    let seen = fake.seen();
    let part = seen.iter().find(|r| r.method == "PUT").unwrap();
    let header = |r: &qubo_workbench::remote::fake_sapi::Seen, name: &str| {
        r.headers
            .iter()
            .find(|h| h.0 == name)
            .map(|h| h.1.clone())
            .unwrap_or_default()
    };
    use base64::Engine;
    assert_eq!(
        header(part, "content-md5"),
        base64::engine::general_purpose::STANDARD.encode(Md5::digest(&bytes[..5 << 20]))
    );
    assert_eq!(header(part, "accept"), "*/*");
    let combine = seen.iter().find(|r| r.path.ends_with("/combine")).unwrap();
    let digests: Vec<u8> = bytes
        .chunks(5 << 20)
        .flat_map(|p| Md5::digest(p).to_vec())
        .collect();
    let want: String = Md5::digest(&digests)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let body: serde_json::Value = serde_json::from_slice(&combine.body).unwrap();
    assert_eq!(body["checksum"], want.as_str());
    // A finished upload is not sent again.
    let before = fake.seen().len();
    sapi.upload_parts(&id, &bytes).unwrap();
    assert_eq!(
        fake.seen().len(),
        before + 1,
        "one status call, nothing more"
    );
    // The fake is strict: a part whose Content-MD5 does not match is refused.
    let other = sapi.start_upload(4).unwrap();
    let http = qubo_workbench::remote::http::Http::new(Duration::from_secs(5));
    let reply = http
        .send(
            "PUT",
            &format!("{}bqm/multipart/{other}/part/1", fake.base_url),
            &[
                ("X-Auth-Token", TOKEN),
                ("Content-Type", "application/octet-stream"),
                ("Content-MD5", "AAAAAAAAAAAAAAAAAAAAAA=="),
            ],
            Some(b"abcd"),
        )
        .unwrap();
    assert_eq!(reply.status, 400);
}

/// A small model with a known ground state (enumerated).
fn small_model() -> (qubo_workbench::qubo::StoredModel, f64) {
    use qubo_workbench::sampler::{ExactSolver, RunControl, Sampler};
    let q = qubo_workbench::qubo::random::random_qubo(14, 4, 7).unwrap();
    let model = qubo_workbench::qubo::StoredModel::new(q);
    let ground = ExactSolver { num_reads: 1 }
        .sample(&model, &RunControl::new())
        .unwrap()
        .rows[0]
        .energy;
    (model, ground)
}

fn hybrid(
    fake: &FakeSapi,
    extra: &[(&str, serde_json::Value)],
) -> qubo_workbench::remote::hybrid::DwaveHybrid {
    let mut given = serde_json::Map::new();
    given.insert("endpoint".into(), fake.base_url.clone().into());
    for (k, v) in extra {
        given.insert(k.to_string(), v.clone());
    }
    let values =
        qubo_workbench::params::validate(qubo_workbench::remote::hybrid::ENTRY.params, &given)
            .unwrap();
    let env = [("DWAVE_API_TOKEN".to_string(), TOKEN.to_string())].into();
    qubo_workbench::remote::hybrid::DwaveHybrid::from_values(&values).with_environment(env)
}

#[test]
fn the_hybrid_sampler_uploads_submits_by_reference_and_returns_true_samples() {
    use qubo_workbench::qubo::Model;
    use qubo_workbench::sampler::{RunControl, Sampler};
    let fake = FakeSapi::start(TOKEN, example_solvers()).unwrap();
    let (model, ground) = small_model();
    let slot = qubo_workbench::sampler::RemoteJobSlot::default();
    let control = RunControl::new().with_remote_job(slot.clone());
    let set = hybrid(&fake, &[]).sample(&model, &control).unwrap();
    // The contract every sampler keeps: energies are the model's, counts add up, lowest first.
    assert!(!set.rows.is_empty());
    for row in &set.rows {
        assert!((row.energy - model.energy(&row.sample)).abs() < 1e-9);
    }
    let total: usize = set.rows.iter().map(|r| r.num_occurrences).sum();
    assert_eq!(total, set.info.num_reads_requested);
    assert!(set.rows.windows(2).all(|w| w[0].energy <= w[1].energy));
    assert!(
        (set.rows[0].energy - ground).abs() < 1e-9,
        "the fake anneals"
    );
    // The job as reported, and its details.
    let job = slot.lock().unwrap().clone().unwrap();
    assert_eq!(job.status, "COMPLETED");
    assert_eq!(job.solver, "hybrid_binary_quadratic_model_version2");
    assert_eq!(set.info.details["problem_id"], job.problem_id.as_str());
    assert_eq!(
        set.info.details["time_limit_s"], 3.0,
        "the solver's minimum"
    );
    // The submit went by reference to the uploaded file, with the time limit.
    let seen = fake.seen();
    let submit = seen
        .iter()
        .find(|r| r.method == "POST" && r.path.ends_with("/problems/"))
        .unwrap();
    let body: serde_json::Value = serde_json::from_slice(&submit.body).unwrap();
    assert_eq!(body[0]["type"], "bqm");
    assert_eq!(body[0]["data"]["format"], "ref");
    assert_eq!(body[0]["params"]["time_limit"], 3.0);
    // Resuming by problem id waits for that problem and submits nothing.
    let before = fake.seen().len();
    let again = hybrid(&fake, &[("problem_id", job.problem_id.clone().into())])
        .sample(&model, &RunControl::new())
        .unwrap();
    assert_eq!(again.rows, set.rows);
    assert!(
        fake.seen()[before..].iter().all(|r| r.method == "GET"),
        "a resumed job only polls"
    );
}

#[test]
fn the_hybrid_sampler_cancels_fails_and_refuses_clearly() {
    use qubo_workbench::sampler::{RunControl, SampleError, Sampler};
    let fake = FakeSapi::start(TOKEN, example_solvers()).unwrap();
    let (model, _) = small_model();
    // Cancel while the problem runs: the problem is cancelled on the server, the set says so.
    fake.set_faults(Faults {
        polls_before_done: 1_000_000,
        ..Default::default()
    });
    let slot = qubo_workbench::sampler::RemoteJobSlot::default();
    let control = RunControl::new().with_remote_job(slot.clone());
    let watcher = control.clone();
    let cancel = std::thread::spawn(move || {
        while slot
            .lock()
            .unwrap()
            .as_ref()
            .is_none_or(|j| j.problem_id.is_empty())
        {
            std::thread::sleep(Duration::from_millis(5));
        }
        watcher.cancel();
    });
    let set = hybrid(&fake, &[]).sample(&model, &control).unwrap();
    cancel.join().unwrap();
    assert!(set.info.cancelled && set.rows.is_empty());
    assert!(fake.seen().iter().any(|r| r.method == "DELETE"));
    // A FAILED problem carries the server's message.
    fake.set_faults(Faults {
        fail_problems: Some("solver ran out of memory".into()),
        ..Default::default()
    });
    let e = hybrid(&fake, &[])
        .sample(&model, &RunControl::new())
        .unwrap_err();
    assert!(e.to_string().contains("solver ran out of memory"), "{e}");
    fake.set_faults(Faults::default());
    // A time limit below the solver's minimum is refused before anything is uploaded.
    let before = fake.seen().len();
    let e = hybrid(&fake, &[("time_limit", 1.0.into())])
        .sample(&model, &RunControl::new())
        .unwrap_err();
    assert!(
        matches!(
            e,
            SampleError::InvalidParameter {
                name: "time_limit",
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("minimum of 3 s"), "{e}");
    assert!(fake.seen()[before..].iter().all(|r| r.method == "GET"));
    // No token: a configuration error that says where tokens are looked for.
    let mut no_token = hybrid(&fake, &[]);
    no_token.environment = Some(Default::default());
    let e = no_token.sample(&model, &RunControl::new()).unwrap_err();
    assert!(e.to_string().contains("DWAVE_API_TOKEN"), "{e}");
    // A QPU asked for by name is not a hybrid solver.
    let e = hybrid(&fake, &[("solver", "Advantage_mock".into())])
        .sample(&model, &RunControl::new())
        .unwrap_err();
    assert!(e.to_string().contains("needs a hybrid solver"), "{e}");
}

#[test]
fn the_cli_solves_a_sudoku_on_the_fake_hybrid_solver_with_the_token_from_the_environment() {
    let fake = FakeSapi::start(TOKEN, example_solvers()).unwrap();
    let puzzle = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/sudoku/euler96_g1.txt");
    let args = [
        "solve",
        puzzle,
        "--presolve",
        "--sampler",
        "dwave-hybrid",
        "--json",
    ];
    let out = cli(&fake, TOKEN, &args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["sampler"], "dwave-hybrid");
    assert_eq!(v["best"]["valid"], true);
    assert!(v["sampler_details"]["problem_id"].is_string());
    assert!(!String::from_utf8_lossy(&out.stdout).contains("0123456789abcdef"));
    let wrong = "WRONG-abcdef0123456789abcdef0123";
    let out = cli(&fake, wrong, &args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(0));
    assert!(err.contains("authentication failed"), "{err}");
    assert!(!err.contains("abcdef0123456789"), "{err}");
}

fn qpu(
    fake: &FakeSapi,
    extra: &[(&str, serde_json::Value)],
) -> qubo_workbench::remote::qpu::DwaveQpu {
    let mut given = serde_json::Map::new();
    given.insert("endpoint".into(), fake.base_url.clone().into());
    for (k, v) in extra {
        given.insert(k.to_string(), v.clone());
    }
    let values =
        qubo_workbench::params::validate(qubo_workbench::remote::qpu::ENTRY.params, &given)
            .unwrap();
    let env = [("DWAVE_API_TOKEN".to_string(), TOKEN.to_string())].into();
    qubo_workbench::remote::qpu::DwaveQpu::from_values(&values).with_environment(env)
}

#[test]
fn the_qpu_sampler_embeds_into_a_defective_p16_and_unembeds_true_samples() {
    use qubo_workbench::qubo::Model;
    use qubo_workbench::sampler::{RunControl, SampleError, Sampler};
    let fake = FakeSapi::start(TOKEN, example_solvers()).unwrap();
    let (model, ground) = small_model();
    let set = qpu(&fake, &[("num_reads", 50.into())])
        .sample(&model, &RunControl::new())
        .unwrap();
    for row in &set.rows {
        assert!((row.energy - model.energy(&row.sample)).abs() < 1e-9);
    }
    let total: usize = set.rows.iter().map(|r| r.num_occurrences).sum();
    assert_eq!(total, 50);
    assert!((set.rows[0].energy - ground).abs() < 1e-9);
    // Chains and what happened to them are reported.
    let d = &set.info.details;
    assert_eq!(d["solver"], "Advantage_system_mock", "the least-loaded QPU");
    let cbf = d["chain_break_fraction"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&cbf));
    assert!(d["qubits_used"].as_u64().unwrap() >= 14);
    assert!(d["postprocess_changed_fraction"].is_number());
    // The problem went as qp on the P16's working graph: lin has one entry per working qubit.
    let seen = fake.seen();
    let submit = seen
        .iter()
        .rfind(|r| r.method == "POST" && r.path.ends_with("/problems/"))
        .unwrap();
    let body: serde_json::Value = serde_json::from_slice(&submit.body).unwrap();
    assert_eq!(body[0]["type"], "qubo");
    assert_eq!(body[0]["data"]["format"], "qp");
    assert_eq!(body[0]["params"]["num_reads"], 50);
    // Resuming re-derives the same embedding from the seed: the same samples come back.
    let id = d["problem_id"].as_str().unwrap().to_string();
    let again = qpu(
        &fake,
        &[("num_reads", 50.into()), ("problem_id", id.into())],
    )
    .sample(&model, &RunControl::new())
    .unwrap();
    assert_eq!(again.rows, set.rows);
    // Without descent the vote alone is returned (and descent is not reported).
    let raw = qpu(&fake, &[("postprocess", "none".into())])
        .sample(&model, &RunControl::new())
        .unwrap();
    assert!(
        raw.info
            .details
            .get("postprocess_changed_fraction")
            .is_none()
    );
    // A model larger than the QPU is refused with the reason, before anything is sent.
    let e = qpu(&fake, &[("solver", "Advantage_mock".into())])
        .sample(&model, &RunControl::new())
        .unwrap_err();
    assert!(matches!(e, SampleError::ModelNotSupported(_)), "{e}");
    assert!(e.to_string().contains("14 variables but only 4"), "{e}");
}

#[test]
fn the_qpu_sampler_embeds_by_clique_from_a_file_and_polishes_by_tabu_on_request() {
    use qubo_workbench::qubo::Model;
    use qubo_workbench::sampler::{RunControl, Sampler};
    let fake = FakeSapi::start(TOKEN, example_solvers()).unwrap();
    let (model, ground) = small_model();
    let clique = qpu(
        &fake,
        &[
            ("embedding", "clique".into()),
            ("postprocess", "tabu".into()),
        ],
    )
    .sample(&model, &RunControl::new())
    .unwrap();
    let d = &clique.info.details;
    assert_eq!(d["embedding"], "clique");
    assert_eq!(d["postprocess"], "tabu");
    // K14 on P16: 14 chains of about 14/12 + 2 qubits.
    assert!(d["max_chain_length"].as_u64().unwrap() <= 4, "{d:?}");
    assert!((clique.rows[0].energy - ground).abs() < 1e-9);
    for row in &clique.rows {
        assert!((row.energy - model.energy(&row.sample)).abs() < 1e-9);
    }

    // The same chains from a file (variable index → qubits, minorminer's shape).
    let dir = tempfile::tempdir().unwrap();
    let props = example_solvers()
        .into_iter()
        .find(|s| s["identity"]["name"] == "Advantage_system_mock")
        .unwrap()["properties"]
        .clone();
    let graph = qubo_workbench::remote::topology::WorkingGraph::from_properties(&props).unwrap();
    let chains = qubo_workbench::remote::clique::pegasus_clique(14, &graph, 16).unwrap();
    let file = dir.path().join("chains.json");
    let object: serde_json::Map<String, serde_json::Value> = chains
        .chains
        .iter()
        .enumerate()
        .map(|(v, c)| (v.to_string(), serde_json::json!(c)))
        .collect();
    std::fs::write(&file, serde_json::Value::Object(object).to_string()).unwrap();
    let path = file.to_str().unwrap();
    let from_file = qpu(&fake, &[("embedding_file", path.into())])
        .sample(&model, &RunControl::new())
        .unwrap();
    assert_eq!(from_file.info.details["embedding"], "file");
    assert_eq!(
        from_file.info.details["qubits_used"],
        clique.info.details["qubits_used"]
    );

    // A file that does not fit says which file and why, before anything is sent.
    let submits = |f: &FakeSapi| {
        f.seen()
            .iter()
            .filter(|r| r.method == "POST" && r.path.ends_with("/problems/"))
            .count()
    };
    let before = submits(&fake);
    for (text, expected) in [
        (r#"{"0": [0]}"#.to_string(), "variable 1 has no chain"),
        (
            r#"{"x": [0]}"#.to_string(),
            "key \"x\" is not a variable index",
        ),
        ("[1, 2]".to_string(), "expected a JSON object"),
        (
            serde_json::json!(
                (0..14)
                    .map(|v| (v.to_string(), serde_json::json!([graph.qubits[0]])))
                    .collect::<serde_json::Map<_, _>>()
            )
            .to_string(),
            "is in the chains of",
        ),
    ] {
        std::fs::write(&file, text).unwrap();
        let e = qpu(&fake, &[("embedding_file", path.into())])
            .sample(&model, &RunControl::new())
            .unwrap_err()
            .to_string();
        assert!(e.contains(expected) && e.contains("chains.json"), "{e}");
    }
    assert_eq!(submits(&fake), before);

    // The clique construction needs a Pegasus solver, and says so.
    let e = qpu(
        &fake,
        &[
            ("solver", "Advantage_mock".into()),
            ("embedding", "clique".into()),
        ],
    )
    .sample(
        &qubo_workbench::qubo::StoredModel::new(
            qubo_workbench::qubo::random::random_qubo(3, 2, 1).unwrap(),
        ),
        &RunControl::new(),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("topology is ring"), "{e}");
}

#[test]
fn the_cli_solves_a_sudoku_on_the_fake_qpu_with_the_token_from_the_environment() {
    let fake = FakeSapi::start(TOKEN, example_solvers()).unwrap();
    let puzzle = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/puzzles/sudoku/shidoku-6givens.txt"
    );
    let out = cli(
        &fake,
        TOKEN,
        &[
            "solve",
            puzzle,
            "--presolve",
            "--sampler",
            "dwave-qpu",
            "--json",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["best"]["valid"], true);
    let d = &v["sampler_details"];
    assert_eq!(d["solver"], "Advantage_system_mock");
    assert!(d["chain_break_fraction"].is_number());
    assert!(!String::from_utf8_lossy(&out.stdout).contains(TOKEN));
}

#[test]
fn an_unknown_solver_or_problem_id_is_named_as_the_users_mistake() {
    let fake = FakeSapi::start(TOKEN, example_solvers()).unwrap();
    let p = puzzle("shidoku-6givens.txt");
    let p = p.to_str().unwrap();
    let out = cli(
        &fake,
        TOKEN,
        &[
            "solve",
            p,
            "--presolve",
            "--sampler",
            "dwave-hybrid",
            "--solver",
            "nope",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("no solver named 'nope'"), "{err}");
    assert!(err.contains("hybrid solvers there:"), "{err}");
    assert!(
        !err.contains("Advantage_mock"),
        "only solvers of the kind: {err}"
    );
    let out = cli(
        &fake,
        TOKEN,
        &[
            "solve",
            p,
            "--presolve",
            "--sampler",
            "dwave-hybrid",
            "--problem-id",
            "no-such-id",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("no problem 'no-such-id' on this account"),
        "{err}"
    );
}

/// Advantage2: the Zephyr solver is listed with its topology, its working graph read, a
/// presolved Sudoku embedded by clique and by the heuristic and solved with tabu polishing;
/// the second run finds its embedding in the cache and spends no time searching.
#[test]
fn a_zephyr_solver_embeds_and_solves_a_presolved_sudoku_and_caches_the_embedding() {
    let fake = FakeSapi::start(TOKEN, example_solvers()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_qubo-workbench"))
            .args(args)
            .args(["--endpoint", &fake.base_url])
            .env_clear()
            .env("HOME", dir.path())
            .env("QUBO_WORKBENCH_CACHE_DIR", &cache)
            .env("DWAVE_API_TOKEN", TOKEN)
            .output()
            .unwrap()
    };
    let v = stdout_json(&run(&["remote", "solvers", "--json"]));
    let zephyr = v["solvers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "Advantage2_system_mock")
        .expect("the Advantage2 mock is listed");
    assert_eq!(zephyr["shape"], "Zephyr Z(12, 4) · 4780 working qubits");
    // The presolved 4×4 and 9×9 Sudokus as models.
    let model = |name: &str| {
        let out = dir.path().join(format!("{name}.coo"));
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_qubo-workbench"))
            .args([
                "encode",
                &format!("{}/puzzles/sudoku/{name}.txt", env!("CARGO_MANIFEST_DIR")),
            ])
            .args(["--presolve", "-o", out.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        out.to_str().unwrap().to_string()
    };
    let (small, e96) = (model("shidoku-6givens"), model("euler96_g1"));
    let embed = |m: &str, method: &str| {
        stdout_json(&run(&[
            "remote",
            "embed",
            m,
            "--solver",
            "Advantage2_system_mock",
            "--embedding",
            method,
            "--json",
        ]))
    };
    let clique = embed(&e96, "clique");
    assert_eq!(clique["method"], "clique");
    assert_eq!(clique["variables"], 159);
    assert_eq!(clique["chains"].as_object().unwrap().len(), 159);
    // About n/(4t) + 2 qubits, one more where dead qubits widen the window.
    let longest = clique["max_chain_length"].as_u64().unwrap();
    assert!(longest <= 159 / 16 + 4, "longest chain {longest}");
    assert_eq!(clique["cached"], false);
    let again = embed(&e96, "clique");
    assert_eq!(
        again["cached"], true,
        "the second embedding comes from the cache"
    );
    assert_eq!(again["chains"], clique["chains"]);
    let heuristic = embed(&small, "heuristic");
    assert_eq!(heuristic["method"], "heuristic");
    assert!(heuristic["qubits"].as_u64().unwrap() >= heuristic["variables"].as_u64().unwrap());
    // Sampled on the Zephyr mock with tabu polishing: the heuristic's embedding is the cached
    // one (the same model graph on the same working graph), so no search runs.
    let solve = |puzzle: &str| {
        run(&[
            "solve",
            &format!("{}/puzzles/sudoku/{puzzle}.txt", env!("CARGO_MANIFEST_DIR")),
            "--presolve",
            "--sampler",
            "dwave-qpu",
            "--solver",
            "Advantage2_system_mock",
            "--embedding",
            "heuristic",
            "--postprocess",
            "tabu",
            "--num-reads",
            "20",
            "--json",
        ])
    };
    let out = solve("shidoku-6givens");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let d = &v["sampler_details"];
    assert_eq!(d["solver"], "Advantage2_system_mock");
    assert_eq!(d["embedding_cached"], true, "{d}");
    assert_eq!(
        v["best"]["valid"], true,
        "tabu polishing finds the answer: {v}"
    );
    // Emptied, the cache makes the next run search again; a folder named like an entry no
    // longer stops the clearing, and is named.
    std::fs::create_dir(cache.join("embeddings/in-the-way.json")).unwrap();
    let o = run(&["remote", "embed", "--clear-cache"]);
    let said = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(
        said.contains("removed 2 entries, but not 1") && said.contains("in-the-way.json"),
        "{said}"
    );
    std::fs::remove_dir(cache.join("embeddings/in-the-way.json")).unwrap();
    let again = embed(&small, "heuristic");
    assert_eq!(again["cached"], false);
    // A cache that cannot be written is said, not silently searched again every run.
    std::fs::remove_dir_all(cache.join("embeddings")).unwrap();
    std::fs::write(cache.join("embeddings"), "not a folder").unwrap();
    let v = embed(&small, "heuristic");
    assert!(
        v["cache_problem"]
            .as_str()
            .is_some_and(|p| p.contains("the next run searches again")),
        "{v}"
    );
}

/// `auto` on a dense model starts from the clique and shortens its chains to what the model's
/// couplings need: fewer qubits than the clique, no chain longer, every coupling still there.
#[test]
fn auto_shortens_the_cliques_chains_on_a_dense_model() {
    let fake = FakeSapi::start(TOKEN, example_solvers()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    // 60 variables, each pair coupled with probability 0.4 (seeded): dense enough for the clique.
    let n = 60;
    let mut rng = 5u64;
    let mut coo = format!("# vartype=BINARY\n# n={n} offset=0\n");
    let mut edges = Vec::new();
    for a in 0..n {
        coo.push_str(&format!("{a} {a} -1\n"));
        for b in a + 1..n {
            if qubo_workbench::rng::splitmix64(&mut rng) % 10 < 4 {
                coo.push_str(&format!("{a} {b} 2\n"));
                edges.push((a, b));
            }
        }
    }
    let model = dir.path().join("dense.coo");
    std::fs::write(&model, coo).unwrap();
    let embed = |method: &str| {
        stdout_json(
            &std::process::Command::new(env!("CARGO_BIN_EXE_qubo-workbench"))
                .args(["remote", "embed", model.to_str().unwrap(), "--json"])
                .args(["--endpoint", &fake.base_url, "--no-cache"])
                .args(["--solver", "Advantage2_system_mock", "--embedding", method])
                .args(["--embedding-timeout", "10"])
                .env_clear()
                .env("DWAVE_API_TOKEN", TOKEN)
                .output()
                .unwrap(),
        )
    };
    let (clique, auto) = (embed("clique"), embed("auto"));
    assert_eq!(clique["method"], "clique");
    assert_eq!(auto["method"], "clique, shortened");
    let qubits = |v: &serde_json::Value| v["qubits"].as_u64().unwrap();
    assert!(
        qubits(&auto) < qubits(&clique),
        "{} qubits against the clique's {}",
        qubits(&auto),
        qubits(&clique)
    );
    assert!(auto["max_chain_length"].as_u64() <= clique["max_chain_length"].as_u64());
    let chains = qubo_workbench::remote::chains::embedding_from_json(&auto["chains"], n).unwrap();
    let graph = qubo_workbench::remote::topology::zephyr(12, 4);
    chains.verify(&edges, &graph).unwrap();
}
