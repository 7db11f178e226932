//! Remote services from the solver panel, against loopback fakes.

use super::*;

/// A dwave.conf holding the fake's token, so the test needs nothing from the environment.
fn dwave_conf(dir: &Path, token: &str) -> PathBuf {
    let path = dir.join("dwave.conf");
    std::fs::write(&path, format!("[defaults]\ntoken = {token}\n")).unwrap();
    path
}

#[test]
fn the_remote_section_lists_solvers_runs_a_hybrid_job_and_resumes_one_left_over() {
    use qubo_workbench::remote::fake_sapi::{FakeSapi, Faults, example_solvers};
    let token = "GUI-0123456789abcdef0123456789";
    let fake = FakeSapi::start(token, example_solvers()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let conf = dwave_conf(dir.path(), token);
    let mut settings = Settings {
        sampler: "dwave-hybrid".into(),
        ..Default::default()
    };
    set_param(
        &mut settings,
        "dwave-hybrid",
        "endpoint",
        fake.base_url.clone().into(),
    );
    set_param(
        &mut settings,
        "dwave-hybrid",
        "config_file",
        conf.display().to_string().into(),
    );
    let mut h = open(Some(&puzzle("euler96_g1.txt")), settings);
    h.get_by_label("presolve (drop what the givens decide)")
        .click();
    frames(&mut h);
    // The account: the token is present, and where it came from, never its value.
    assert!(h.query_by_label_contains("token: present").is_some());
    assert!(h.query_by_label_contains("0123456789abcdef").is_none());
    // The service's solvers; a click picks the hybrid one.
    h.get_by_label("List solvers").click();
    wait_for(&mut h, "the solver list", |wb| {
        wb.solver.remote.solvers.is_some()
    });
    assert!(h.query_by_label("Advantage_system_mock").is_some());
    // Each solver's topology and size.
    assert!(
        h.query_by_label("Pegasus P16 · 5572 working qubits")
            .is_some()
    );
    assert!(
        h.query_by_label("Zephyr Z(12, 4) · 4780 working qubits")
            .is_some()
    );
    h.get_by_label("hybrid_binary_quadratic_model_version2")
        .click();
    frames(&mut h);
    assert_eq!(
        h.state().shared.settings.sampler_params("dwave-hybrid")["solver"],
        "hybrid_binary_quadratic_model_version2"
    );
    assert!(
        h.query_by_label_contains("cost: 3 s of solver time")
            .is_some()
    );
    // A run: uploaded, solved on the fake, the details shown with the results.
    run_to_end(&mut h, "the hybrid run");
    let r = h.state().shared.result.as_ref().unwrap();
    assert_eq!(r.samples.info.sampler, "dwave-hybrid");
    assert!(r.success_fraction().unwrap() > 0.0);
    assert!(h.query_by_label_contains("problem_id fake-").is_some());
    assert!(h.state().shared.settings.pending_remote_job.is_none());
    // A long job: its id is remembered as soon as it is submitted…
    fake.set_faults(Faults {
        polls_before_done: 1_000_000,
        ..Default::default()
    });
    h.get_by_label("Run").click();
    wait_for(&mut h, "the job to be remembered", |wb| {
        wb.shared.settings.pending_remote_job.is_some()
    });
    let kept = h.state().shared.settings.clone();
    let id = kept.pending_remote_job.clone().unwrap().problem_id;
    drop(h);
    // …so a window opened later offers it, and Resume waits for it without submitting again.
    fake.complete_all();
    let submits = |fake: &FakeSapi| {
        fake.seen()
            .iter()
            .filter(|r| r.method == "POST" && r.path.ends_with("/problems/"))
            .count()
    };
    let before = submits(&fake);
    let mut h = open(Some(&puzzle("euler96_g1.txt")), kept);
    h.get_by_label("presolve (drop what the givens decide)")
        .click();
    frames(&mut h);
    assert!(
        h.query_by_label_contains(&format!("problem {id}"))
            .is_some()
    );
    // A resume that meets a failing server keeps the job: it can still be resumed or
    // cancelled (it used to be forgotten).
    fake.set_faults(Faults {
        drop_connection: true,
        ..Default::default()
    });
    h.get_by_label("Resume").click();
    frames(&mut h);
    wait_for(&mut h, "the failed resume", |wb| !wb.is_running());
    assert!(
        h.state().shared.status.starts_with("sampling failed"),
        "{}",
        h.state().shared.status
    );
    assert_eq!(
        h.state()
            .shared
            .settings
            .pending_remote_job
            .as_ref()
            .map(|j| j.problem_id.clone()),
        Some(id.clone()),
        "the job is kept"
    );
    fake.set_faults(Faults::default());
    frames(&mut h);
    h.get_by_label("Resume").click();
    frames(&mut h);
    wait_for(&mut h, "the resumed job", |wb| {
        !wb.is_running() && wb.shared.result.is_some()
    });
    let wb = h.state();
    assert_eq!(
        wb.shared.result.as_ref().unwrap().samples.info.details["problem_id"],
        id.as_str()
    );
    assert!(wb.shared.settings.pending_remote_job.is_none());
    assert_eq!(submits(&fake), before, "nothing submitted twice");
    assert!(
        !wb.shared
            .settings
            .sampler_params("dwave-hybrid")
            .contains_key("problem_id"),
        "the next run submits anew"
    );
}

#[test]
fn the_digital_annealer_runs_from_the_solver_panel_with_its_key_from_a_file() {
    use qubo_workbench::remote::fake_da::FakeDa;
    let key = "GUIDA-0123456789abcdef0123";
    let fake = FakeDa::start(key).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let key_file = dir.path().join("da.key");
    std::fs::write(&key_file, format!("{key}\n")).unwrap();
    let mut settings = Settings {
        sampler: "fujitsu-da".into(),
        ..Default::default()
    };
    set_param(
        &mut settings,
        "fujitsu-da",
        "endpoint",
        fake.base_url.clone().into(),
    );
    set_param(
        &mut settings,
        "fujitsu-da",
        "key_file",
        key_file.display().to_string().into(),
    );
    set_param(&mut settings, "fujitsu-da", "poll_interval_s", 0.01.into());
    let mut h = open(Some(&puzzle("euler96_g1.txt")), settings);
    h.get_by_label("presolve (drop what the givens decide)")
        .click();
    frames(&mut h);
    assert!(h.query_by_label("key: present").is_some());
    assert!(
        h.query_by_label_contains("cost: 10 s of annealer time")
            .is_some()
    );
    run_to_end(&mut h, "the Digital Annealer run");
    let wb = h.state();
    let r = wb.shared.result.as_ref().unwrap();
    assert_eq!(r.samples.info.sampler, "fujitsu-da");
    assert!(r.success_fraction().unwrap() > 0.0);
    assert!(r.samples.info.details["job_id"].is_string());
    assert!(wb.shared.settings.pending_remote_job.is_none());
    assert_eq!(fake.num_jobs(), 0, "the result was deleted once read");
}

#[test]
fn a_qpu_run_from_the_solver_panel_embeds_by_clique_and_shows_what_the_chains_did() {
    use qubo_workbench::remote::fake_sapi::{FakeSapi, example_solvers};
    let token = "GUIQPU-0123456789abcdef0123";
    let fake = FakeSapi::start(token, example_solvers()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let conf = dwave_conf(dir.path(), token);
    let mut settings = Settings {
        sampler: "dwave-qpu".into(),
        ..Default::default()
    };
    for (name, value) in [
        ("endpoint", fake.base_url.clone().into()),
        ("config_file", conf.display().to_string().into()),
        ("embedding", "clique".into()),
        ("postprocess", "tabu".into()),
    ] {
        set_param(&mut settings, "dwave-qpu", name, value);
    }
    let mut h = open(Some(&puzzle("shidoku-6givens.txt")), settings);
    assert!(h.query_by_label_contains("token: present").is_some());
    assert!(h.query_by_label_contains("cost: about").is_some());
    run_to_end(&mut h, "the QPU run");
    let r = h.state().shared.result.as_ref().unwrap();
    assert_eq!(r.samples.info.sampler, "dwave-qpu");
    assert_eq!(r.samples.info.details["embedding"], "clique");
    assert!(r.success_fraction().unwrap() > 0.0);
    // The results panel says how the chains were made and how often they broke.
    assert!(h.query_by_label_contains("embedding clique").is_some());
    assert!(h.query_by_label_contains("chain_break_fraction").is_some());
}
