//! The Fujitsu Digital Annealer client and sampler against the strict loopback fake: one
//! credential header, JSON media types, the job polled to its end and deleted once read, the
//! job limit, cancel, failures and a refused key — each a message that says what failed, never
//! the key.

use crate::common::*;
use std::time::Duration;

use qubo_workbench::qubo::{Model, StoredModel};
use qubo_workbench::remote::digital_annealer::{DigitalAnnealer, ENTRY};
use qubo_workbench::remote::fake_da::{DaFaults, FakeDa, MAX_JOBS};
use qubo_workbench::remote::fujitsu::{Credential, DaClient};
use qubo_workbench::remote::{RemoteError, Secret};
use qubo_workbench::sampler::{RemoteJobSlot, RunControl, SampleError, Sampler};

const KEY: &str = "DAKEY-0123456789abcdef0123456789";

fn client(fake: &FakeDa, key: &str) -> DaClient {
    DaClient::new(
        &fake.base_url,
        "v4",
        Secret::new(key),
        Credential::ApiKey,
        Duration::from_secs(10),
    )
    .unwrap()
}

fn sampler(fake: &FakeDa, extra: &[(&str, serde_json::Value)]) -> DigitalAnnealer {
    let mut given = serde_json::Map::new();
    given.insert("endpoint".into(), fake.base_url.clone().into());
    given.insert("poll_interval_s".into(), 0.01.into());
    for (k, v) in extra {
        given.insert(k.to_string(), v.clone());
    }
    let values = qubo_workbench::params::validate(ENTRY.params, &given).unwrap();
    let env = [("FUJITSU_DA_API_KEY".to_string(), KEY.to_string())].into();
    DigitalAnnealer::from_values(&values).with_environment(env)
}

fn model() -> (StoredModel, f64) {
    use qubo_workbench::sampler::ExactSolver;
    let m = StoredModel::new(qubo_workbench::qubo::random::random_qubo(12, 4, 3).unwrap());
    let ground = ExactSolver { num_reads: 1 }
        .sample(&m, &RunControl::new())
        .unwrap()
        .rows[0]
        .energy;
    (m, ground)
}

#[test]
fn a_job_is_solved_read_and_deleted_with_one_credential_header() {
    let fake = FakeDa::start(KEY).unwrap();
    fake.set_faults(DaFaults {
        polls_before_done: 2,
        ..Default::default()
    });
    let (m, ground) = model();
    let slot = RemoteJobSlot::default();
    let set = sampler(&fake, &[("num_run", 32.into())])
        .sample(&m, &RunControl::new().with_remote_job(slot.clone()))
        .unwrap();
    for row in &set.rows {
        assert!((row.energy - m.energy(&row.sample)).abs() < 1e-9);
    }
    assert!((set.rows[0].energy - ground).abs() < 1e-9);
    assert_eq!(
        set.rows.iter().map(|r| r.num_occurrences).sum::<usize>(),
        set.info.num_reads_requested
    );
    assert!(set.info.details["timing"]["solve_time_ms"].is_number());
    assert_eq!(slot.lock().unwrap().as_ref().unwrap().status, "Done");
    assert_eq!(fake.num_jobs(), 0, "the result is deleted once read");
    let seen = fake.seen();
    let submit = seen.iter().find(|r| r.method == "POST").unwrap();
    assert_eq!(submit.path, "/da/v4/async/qubo/solve");
    assert_eq!(submit.header("x-api-key"), Some(KEY));
    assert_eq!(submit.header("x-access-token"), None);
    assert_eq!(submit.header("content-type"), Some("application/json"));
    let body: serde_json::Value = serde_json::from_slice(&submit.body).unwrap();
    assert_eq!(body["fujitsuDA3"]["num_run"], 32);
    assert_eq!(body["fujitsuDA3"]["time_limit_sec"], 10);
    assert!(body["binary_polynomial"]["terms"][0]["p"].is_array());
    assert!(body.get("penalty_binary_polynomial").is_none());
    assert!(
        body["fujitsuDA3"].get("penalty_coef").is_none(),
        "penalty settings only go with a penalty polynomial"
    );
    assert!(
        seen.iter().filter(|r| r.method == "GET").count() >= 3,
        "polled"
    );
    assert!(seen.iter().any(|r| r.method == "DELETE"));
}

#[test]
fn the_model_goes_as_the_penalty_polynomial_with_its_coefficient_on_request() {
    let fake = FakeDa::start(KEY).unwrap();
    let (m, ground) = model();
    let set = sampler(
        &fake,
        &[
            ("polynomial", "penalty".into()),
            ("penalty_coef", 3.into()),
            ("penalty_auto_mode", 0.into()),
        ],
    )
    .sample(&m, &RunControl::new())
    .unwrap();
    // Energies are the model's, whatever the annealer multiplied the penalty by.
    for row in &set.rows {
        assert!((row.energy - m.energy(&row.sample)).abs() < 1e-9);
    }
    assert!((set.rows[0].energy - ground).abs() < 1e-9);
    let seen = fake.seen();
    let submit = seen.iter().find(|r| r.method == "POST").unwrap();
    let body: serde_json::Value = serde_json::from_slice(&submit.body).unwrap();
    assert_eq!(body["binary_polynomial"]["terms"], serde_json::json!([]));
    let terms = body["penalty_binary_polynomial"]["terms"]
        .as_array()
        .unwrap();
    let q = qubo_workbench::qubo::Qubo::from_model(&m).unwrap();
    let nonzero = q.linear().iter().filter(|&&c| c != 0.0).count()
        + q.couplings().iter().filter(|c| c.value != 0.0).count();
    assert_eq!(terms.len(), nonzero, "every linear term and coupling");
    assert_eq!(body["fujitsuDA3"]["penalty_coef"], 3);
    assert_eq!(body["fujitsuDA3"]["penalty_auto_mode"], 0);
    assert_eq!(body["fujitsuDA3"]["penalty_inc_rate"], 150);
    // The documented ranges hold before anything is sent.
    let mut given = serde_json::Map::new();
    given.insert("penalty_inc_rate".into(), 250.into());
    let e = qubo_workbench::params::validate(ENTRY.params, &given).unwrap_err();
    assert!(e.to_string().contains("penalty_inc_rate"), "{e}");
}

#[test]
fn limits_failures_cancels_and_refused_keys_say_so() {
    let fake = FakeDa::start(KEY).unwrap();
    let c = client(&fake, KEY);
    let tiny = serde_json::json!({"fujitsuDA3": {}, "binary_polynomial": {"terms": [{"c": -1.0, "p": [0]}]}});
    // A client that never deletes fills the account.
    for _ in 0..MAX_JOBS {
        c.solve(&tiny).unwrap();
    }
    let e = c.solve(&tiny).unwrap_err();
    assert!(matches!(e, RemoteError::Limit { .. }), "{e:?}");
    assert!(e.to_string().contains("delete stale ones"), "{e}");
    for job in c.jobs().unwrap() {
        c.delete(job["job_id"].as_str().unwrap()).unwrap();
    }
    // Out-of-range parameters are refused by the service (and named).
    let bad =
        serde_json::json!({"fujitsuDA3": {"num_group": 99}, "binary_polynomial": {"terms": []}});
    assert!(c.solve(&bad).unwrap_err().to_string().contains("num_group"));
    // A failed job carries the service's message; it is deleted all the same.
    fake.set_faults(DaFaults {
        fail_jobs: Some("annealer unavailable".into()),
        ..Default::default()
    });
    let (m, _) = model();
    let e = sampler(&fake, &[])
        .sample(&m, &RunControl::new())
        .unwrap_err();
    assert!(e.to_string().contains("annealer unavailable"), "{e}");
    assert_eq!(fake.num_jobs(), 0);
    // Cancel while it runs: cancelled and deleted on the service.
    fake.set_faults(DaFaults {
        polls_before_done: 1_000_000,
        ..Default::default()
    });
    let slot = RemoteJobSlot::default();
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
    let set = sampler(&fake, &[]).sample(&m, &control).unwrap();
    cancel.join().unwrap();
    assert!(set.info.cancelled && set.rows.is_empty());
    assert!(
        fake.seen()
            .iter()
            .any(|r| r.path.ends_with("/async/jobs/cancel"))
    );
    assert_eq!(fake.num_jobs(), 0);
    // Resuming by job id polls and reads; nothing is submitted.
    fake.set_faults(DaFaults::default());
    let id = c.solve(&tiny).unwrap();
    let posts = |fake: &FakeDa| fake.seen().iter().filter(|r| r.method == "POST").count();
    let before = posts(&fake);
    let one = StoredModel::new(qubo_workbench::qubo::Qubo::new(vec![-1.0], [], 0.0).unwrap());
    let set = sampler(&fake, &[("job_id", id.into())])
        .sample(&one, &RunControl::new())
        .unwrap();
    assert_eq!(set.rows[0].sample, vec![1]);
    assert_eq!(posts(&fake), before);
    // A wrong key: authentication failed, the key masked.
    let e = client(&fake, "WRONG-abcdef0123456789abcdef")
        .solve(&tiny)
        .unwrap_err();
    assert!(e.to_string().contains("authentication failed"), "{e}");
    assert!(!e.to_string().contains("abcdef0123456789"), "{e}");
    // No key at all: where keys are looked for.
    let mut none = sampler(&fake, &[]);
    none.environment = Some(Default::default());
    let e = none.sample(&m, &RunControl::new()).unwrap_err();
    assert!(
        matches!(&e, SampleError::Service(s)
            if matches!(s.downcast_ref::<RemoteError>(), Some(RemoteError::Config(_)))),
        "{e}"
    );
    assert!(e.to_string().contains("FUJITSU_DA_API_KEY"), "{e}");
}

#[test]
fn the_cli_solves_a_sudoku_on_the_fake_annealer_with_the_key_from_the_environment() {
    let fake = FakeDa::start(KEY).unwrap();
    let run = |key: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_qubo-workbench"))
            .args([
                "solve",
                concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/sudoku/euler96_g1.txt"),
                "--presolve",
                "--sampler",
                "fujitsu-da",
                "--poll-interval-s",
                "0.01",
                "--json",
                "--endpoint",
                &fake.base_url,
            ])
            .env_clear()
            .env("FUJITSU_DA_API_KEY", key)
            .output()
            .unwrap()
    };
    let v = stdout_json(&run(KEY));
    assert_eq!(v["best"]["valid"], true);
    assert!(v["sampler_details"]["job_id"].is_string());
    let out = run("WRONG-abcdef0123456789abcdef");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(0));
    assert!(
        err.contains("authentication failed") && !err.contains("abcdef0123456789"),
        "{err}"
    );
}

#[test]
fn a_full_sudoku_goes_with_its_groups_as_square_blocks_and_comes_back_holding_them() {
    // The full (not presolved) Shidoku: cells × row-digits are four 4×4 blocks; the request
    // says so, the fake keeps them satisfied, and the samples come back in the model's order.
    let fake = FakeDa::start(KEY).unwrap();
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/puzzles/sudoku/shidoku-6givens.txt"
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_qubo-workbench"))
        .args([
            "solve",
            file,
            "--no-presolve",
            "--sampler",
            "fujitsu-da",
            "--poll-interval-s",
            "0.01",
            "--json",
            "--endpoint",
            &fake.base_url,
        ])
        .env_clear()
        .env("FUJITSU_DA_API_KEY", KEY)
        .output()
        .unwrap();
    let v = stdout_json(&out);
    assert_eq!(v["best"]["valid"], true, "{v}");
    assert_eq!(
        v["sampler_details"]["one_hot_groups"],
        "4 groups sent as two_way_one_hot_groups"
    );
    let posted: Vec<serde_json::Value> = fake
        .seen()
        .iter()
        .filter(|s| s.method == "POST")
        .map(|s| serde_json::from_slice(&s.body).unwrap())
        .collect();
    assert_eq!(
        posted[0]["fujitsuDA3"]["two_way_one_hot_groups"],
        serde_json::json!({"numbers": [4, 4, 4, 4]})
    );
}
