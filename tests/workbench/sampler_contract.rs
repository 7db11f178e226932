//! The conformance suite every sampler must pass, now and later: add a new sampler to
//! `samplers()` and it is held to the same contract.
//!
//! - energies equal `Qubo::energy` of the returned samples;
//! - occurrence counts add up to the reads asked for;
//! - the same seed gives the same SampleSet, whatever the thread count;
//! - cancelling returns only completed reads, says so, and counts still add up — for every
//!   registered sampler, remote ones against their service's fake;
//! - progress reports rise to the run's total (every local sampler);
//! - the exact ground state is found on small random QUBOs (the exact solver is the oracle).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use qubo_workbench::params::{ParamSpec, ParamType, ParamValues};
use qubo_workbench::qubo::{OneHotGroups, Qubo, StoredModel};
use qubo_workbench::remote::fake_da::{DaFaults, FakeDa};
use qubo_workbench::remote::fake_sapi::{FakeSapi, Faults, example_solvers};
use qubo_workbench::sampler::{ExactSolver, Phase, RunControl, Sampler, SimulatedAnnealing};
use qubo_workbench::sampler::{RunsOn, SamplerEntry};
use qubo_workbench::samplers::{SAMPLERS, sampler_from_params};
use serde_json::json;

/// Every registered sampler (`sampler::SAMPLERS`), configured through its own parameter
/// description to take `num_reads` reads with seed `seed`; samplers with a `kernel` parameter
/// once per kernel. A new sampler is covered here without an edit. Remote samplers have their
/// own contract against the fake services (`tests/remote_sapi.rs`): their reads are not
/// repeatable by seed.
fn samplers(num_reads: usize, seed: u64) -> Vec<Box<dyn Sampler>> {
    let wishes = [
        ("num_reads", json!(num_reads)),
        ("seed", json!(seed)),
        ("num_sweeps", json!(300)),
    ];
    let mut out = Vec::new();
    for e in SAMPLERS.iter().filter(|e| e.is_local()) {
        let mut params = ParamValues::new();
        for (name, value) in &wishes {
            if e.params.iter().any(|p| p.name == *name) {
                params.insert(name.to_string(), value.clone());
            }
        }
        let kernels: Vec<Option<&str>> = match e.params.iter().find(|p| p.name == "kernel") {
            Some(ParamSpec {
                ty: ParamType::Choice(words),
                ..
            }) => words
                .iter()
                // Multi-spin coding takes ±J glasses only, byte lanes fields within ±127:
                // their own contract tests below.
                .filter(|w| !["multispin", "lanes8"].contains(*w))
                .map(|w| Some(*w))
                .collect(),
            _ => vec![None],
        };
        for kernel in kernels {
            let mut p = params.clone();
            if let Some(k) = kernel {
                p.insert("kernel".into(), json!(k));
            }
            out.push(sampler_from_params(e.name, &p).expect("the registry builds"));
        }
        // Samplers with a move set: once more per move set that is not the default.
        if let Some(ParamSpec {
            ty: ParamType::Choice(words),
            ..
        }) = e.params.iter().find(|p| p.name == "moves")
        {
            for word in words.iter().filter(|w| **w != "auto") {
                let mut p = params.clone();
                p.insert("moves".into(), json!(word));
                out.push(sampler_from_params(e.name, &p).expect("the registry builds"));
            }
        }
    }
    out
}

/// A random QUBO with about half the pairs coupled (the crate's one random-QUBO generator).
fn random_qubo(n: usize, seed: u64) -> Qubo {
    qubo_workbench::qubo::random::random_qubo(n, n / 2, seed).unwrap()
}

/// A random QUBO over a `side`×`side` permutation (variable `side·r + c` is "row r takes
/// column c"; rows and columns are exactly-one groups, penalised with weight 3 and attached as
/// `OneHotGroups`) and `free` further variables, so every move set has something to hold.
fn permutation_model(side: usize, free: usize, seed: u64) -> StoredModel {
    permutation_model_with(side, free, seed, |v| v)
}

/// `permutation_model` with `map` applied to each random coefficient (after the quartering).
fn permutation_model_with(
    side: usize,
    free: usize,
    seed: u64,
    map: impl Fn(f64) -> f64,
) -> StoredModel {
    let n = side * side + free;
    let random = random_qubo(n, seed);
    let mut linear = random.linear().to_vec();
    let mut terms: Vec<(usize, usize, f64)> = random
        .couplings()
        .iter()
        .map(|c| (c.i as usize, c.j as usize, map(c.value / 4.0)))
        .collect();
    for v in &mut linear {
        *v = map(*v / 4.0);
    }
    let mut groups: Vec<(String, Vec<u32>)> = Vec::new();
    for r in 0..side {
        groups.push((
            format!("row[{r}]"),
            (0..side).map(|c| (side * r + c) as u32).collect(),
        ));
        groups.push((
            format!("col[{r}]"),
            (0..side).map(|c| (side * c + r) as u32).collect(),
        ));
    }
    let mut offset = 0.5;
    for (_, vars) in &groups {
        // 3·(Σx − 1)² = 3 − 3Σx + 6Σ_{i<j} xᵢxⱼ.
        offset += 3.0;
        for (k, &u) in vars.iter().enumerate() {
            linear[u as usize] -= 3.0;
            for &v in &vars[k + 1..] {
                terms.push((u as usize, v as usize, 6.0));
            }
        }
    }
    let q = Qubo::new(linear, terms, offset).unwrap();
    let one_hot =
        OneHotGroups::from_labelled(n, groups.iter().map(|(l, v)| (l.as_str(), v.clone())));
    assert_eq!(one_hot.two_way, Some([0, 1]));
    StoredModel::new(q).with_one_hot(one_hot)
}

#[test]
fn energies_match_the_model() {
    let plain = StoredModel::new(random_qubo(14, 1));
    let grouped = permutation_model(3, 3, 1);
    for m in [&plain, &grouped] {
        for s in samplers(40, 5) {
            let set = s.sample(m, &RunControl::new()).unwrap();
            assert!(!set.rows.is_empty(), "{}", s.name());
            for row in &set.rows {
                assert_eq!(
                    row.energy,
                    m.qubo.energy(&row.sample).unwrap(),
                    "{}",
                    s.name()
                );
            }
            assert!(
                set.rows.windows(2).all(|w| w[0].energy <= w[1].energy),
                "{} sorted",
                s.name()
            );
        }
    }
}

#[test]
fn moves_hold_their_groups_in_every_read() {
    let m = permutation_model(4, 2, 6);
    let holds = |x: &[u8]| {
        (0..4).all(|r| {
            (0..4).map(|c| x[4 * r + c] as u32).sum::<u32>() == 1
                && (0..4).map(|c| x[4 * c + r] as u32).sum::<u32>() == 1
        })
    };
    let mut with_moves = 0;
    for s in samplers(24, 9) {
        let set = s.sample(&m, &RunControl::new()).unwrap();
        let moves = set.info.params.get("moves").and_then(|v| v.as_str());
        if !matches!(moves, Some("one-hot" | "two-way" | "assignment")) {
            continue;
        }
        with_moves += 1;
        let held = set.info.params["held_groups"].as_array().unwrap().len();
        assert_eq!(held, if moves == Some("one-hot") { 1 } else { 2 });
        // SA runs one-hot and two-way moves on a stored model 16 reads side by side, PT a
        // ladder's 16 replicas (in 16-bit lanes: the model's coefficients are quarters).
        if moves != Some("assignment") {
            assert_eq!(set.info.params["kernel"], "csr-lanes16", "{moves:?}");
        }
        for row in &set.rows {
            if held == 2 {
                assert!(holds(&row.sample), "{}: {:?}", s.name(), row.sample);
            } else {
                // One-hot holds the widest family (rows: the first of two equal ones).
                assert!(
                    (0..4).all(|r| (0..4).map(|c| row.sample[4 * r + c] as u32).sum::<u32>() == 1),
                    "{}",
                    s.name()
                );
            }
        }
        assert!(
            set.info.details["moves"]
                .as_str()
                .unwrap()
                .contains("held by")
        );
    }
    // SA and PT, each with one-hot, two-way and assignment.
    assert_eq!(with_moves, 6);
}

#[test]
fn moves_in_lanes_run_in_16_bits_where_the_model_allows_it_and_say_so() {
    use qubo_workbench::sampler::{Kernel, MoveSet};
    // The permutation model's coefficients are quarters of small integers: after ×4 every
    // move's ΔE is a small integer, which the 16-bit lanes hold. In thirds they cannot.
    let integral = permutation_model(4, 2, 6);
    let real = permutation_model_with(4, 2, 6, |v| v / 3.0);
    let sa = |kernel, moves| SimulatedAnnealing {
        num_reads: 32,
        num_sweeps: 200,
        seed: Some(4),
        kernel,
        moves,
        ..Default::default()
    };
    let kernel_of = |s: &dyn Sampler, m: &StoredModel| {
        let set = s.sample(m, &RunControl::new()).unwrap();
        set.info.params["kernel"].as_str().unwrap().to_string()
    };
    for moves in [MoveSet::OneHot, MoveSet::TwoWay] {
        assert_eq!(
            kernel_of(&sa(Kernel::Auto, moves), &integral),
            "csr-lanes16"
        );
        assert_eq!(
            kernel_of(&sa(Kernel::Lanes16, moves), &integral),
            "csr-lanes16"
        );
        // `lanes` keeps f32; a model i16 cannot hold runs f32 under auto.
        assert_eq!(kernel_of(&sa(Kernel::Lanes, moves), &integral), "csr-lanes");
        assert_eq!(kernel_of(&sa(Kernel::Auto, moves), &real), "csr-lanes");
        // Asked for by name on such a model, 16-bit lanes are refused with the reason.
        let err = sa(Kernel::Lanes16, moves)
            .sample(&real, &RunControl::new())
            .unwrap_err()
            .to_string();
        assert!(err.contains("lanes16") && err.contains("integers"), "{err}");
    }
    // Tempering's ladders side by side take them too.
    let pt = qubo_workbench::sampler::tempering::ParallelTempering {
        num_reads: 2,
        num_sweeps: Some(100),
        seed: Some(4),
        moves: MoveSet::OneHot,
        ..Default::default()
    };
    assert_eq!(kernel_of(&pt, &integral), "csr-lanes16");
    assert_eq!(kernel_of(&pt, &real), "csr-lanes");
}

#[test]
fn counts_add_up_to_num_reads() {
    for m in [
        StoredModel::new(random_qubo(12, 2)),
        permutation_model(3, 3, 2),
    ] {
        for reads in [1, 7, 33, 100] {
            for s in samplers(reads, 3) {
                let set = s.sample(&m, &RunControl::new()).unwrap();
                assert_eq!(set.num_reads(), reads, "{} with {reads} reads", s.name());
                assert!(!set.info.cancelled);
            }
        }
    }
}

#[test]
fn same_seed_same_result_whatever_the_thread_count() {
    let m = StoredModel::new(random_qubo(20, 4));
    let grouped = permutation_model(4, 4, 4);
    for (a, b) in samplers(50, 11).into_iter().zip(samplers(50, 11)) {
        let one = a
            .sample(&grouped, &RunControl::new().with_threads(Some(1)))
            .unwrap();
        let two = b
            .sample(&grouped, &RunControl::new().with_threads(Some(2)))
            .unwrap();
        assert_eq!(one.rows, two.rows, "{} on the grouped model", a.name());
        let one = a
            .sample(&m, &RunControl::new().with_threads(Some(1)))
            .unwrap();
        let two = b
            .sample(&m, &RunControl::new().with_threads(Some(2)))
            .unwrap();
        let three = b
            .sample(&m, &RunControl::new().with_threads(Some(3)))
            .unwrap();
        assert_eq!(one.rows, two.rows, "{}", a.name());
        assert_eq!(one.rows, three.rows, "{}", a.name());
    }
    // A different seed gives different reads (short anneals, so reads do not all converge).
    let short = |seed| SimulatedAnnealing {
        num_reads: 50,
        num_sweeps: 3,
        seed: Some(seed),
        ..Default::default()
    };
    assert_ne!(
        short(11).sample(&m, &RunControl::new()).unwrap().rows,
        short(12).sample(&m, &RunControl::new()).unwrap().rows
    );
}

/// What a long run of a registered sampler needs: its parameters, and what must stay alive
/// while it runs (a remote service's fake and its credential file).
struct LongRun {
    params: ParamValues,
    _keep: Vec<Box<dyn std::any::Any>>,
}

/// Parameters that keep `e` busy for much longer than any test waits: 64 reads where it takes a
/// read count, its `effort` parameter at its ceiling (capped); a remote sampler pointed at its
/// service's fake, with the job held running on the service and a credential from a file.
fn long_run(e: &SamplerEntry) -> LongRun {
    let mut params = ParamValues::new();
    let mut keep: Vec<Box<dyn std::any::Any>> = Vec::new();
    let has = |name: &str| e.params.iter().find(|p| p.name == name);
    if has("num_reads").is_some() {
        params.insert("num_reads".into(), json!(64));
    }
    if has("seed").is_some() {
        params.insert("seed".into(), json!(1));
    }
    if let Some(spec) = e.effort.and_then(has) {
        let ceiling = match spec.ty {
            ParamType::Int { max, .. } => max.min(100_000_000),
            _ => panic!("{}: effort parameter {} is not a count", e.name, spec.name),
        };
        params.insert(spec.name.into(), json!(ceiling));
    }
    if let RunsOn::Service(service) = e.runs_on {
        let dir = tempfile::tempdir().unwrap();
        match service.name {
            "D-Wave Leap" => {
                let fake = FakeSapi::start(LEAP_TOKEN, example_solvers()).unwrap();
                fake.set_faults(Faults {
                    polls_before_done: 1_000_000,
                    ..Default::default()
                });
                let conf = dir.path().join("dwave.conf");
                std::fs::write(&conf, format!("[defaults]\ntoken = {LEAP_TOKEN}\n")).unwrap();
                params.insert("endpoint".into(), json!(fake.base_url));
                params.insert("config_file".into(), json!(conf));
                keep.push(Box::new(fake));
            }
            "Fujitsu Digital Annealer" => {
                let fake = FakeDa::start(DA_KEY).unwrap();
                fake.set_faults(DaFaults {
                    polls_before_done: 1_000_000,
                    ..Default::default()
                });
                let key = dir.path().join("da.key");
                std::fs::write(&key, DA_KEY).unwrap();
                params.insert("endpoint".into(), json!(fake.base_url));
                params.insert("key_file".into(), json!(key));
                keep.push(Box::new(fake));
            }
            other => panic!("{}: no fake for the service {other}: add one here", e.name),
        }
        keep.push(Box::new(dir));
    }
    LongRun {
        params,
        _keep: keep,
    }
}

const LEAP_TOKEN: &str = "TEST-0123456789abcdef0123456789abcdef";
const DA_KEY: &str = "DAKEY-0123456789abcdef0123456789";

#[test]
fn a_pilot_says_so_before_the_reads_report() {
    // SA's default β range comes from a pilot: watchers see its phase first, without
    // energies (its sweeps are not reads), then the reads'.
    let m = StoredModel::new(random_qubo(24, 5));
    let phases = Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = phases.clone();
    let control = RunControl::new().with_observer(5, move |p| {
        seen.lock()
            .unwrap()
            .push((p.phase, p.best_energy.is_some()));
    });
    let sa = SimulatedAnnealing {
        num_reads: 64,
        num_sweeps: 200,
        seed: Some(1),
        ..Default::default()
    };
    sa.sample(&m, &control).unwrap();
    let phases = phases.lock().unwrap();
    let first_read = phases.iter().position(|p| p.0 == Phase::Sampling).unwrap();
    assert!(first_read > 0, "the pilot reported first: {phases:?}");
    assert!(
        phases[..first_read]
            .iter()
            .all(|p| p.0 == Phase::Pilot && !p.1)
    );
    assert!(phases[first_read..].iter().all(|p| p.0 == Phase::Sampling));
}

#[test]
fn every_registered_sampler_honours_cancel_and_counts_stay_true() {
    // Big enough that a run takes a while; cancelled once the run is under way: a local run
    // after a few progress reports, a remote one once its job is on the service.
    let m = StoredModel::new(random_qubo(24, 5));
    for e in SAMPLERS {
        let run = long_run(e);
        let s = e.build_with(&run.params).expect("the registry builds");
        let calls = Arc::new(AtomicUsize::new(0));
        let seen = calls.clone();
        let last = Arc::new(std::sync::Mutex::new(None));
        let keep = last.clone();
        let job = qubo_workbench::sampler::RemoteJobSlot::default();
        let control = RunControl::new()
            .with_threads(Some(2))
            .with_remote_job(job.clone())
            .with_observer(10, move |p| {
                // Cancelled among the reads, not in a pilot that chooses their β range.
                if p.phase == Phase::Sampling {
                    seen.fetch_add(1, Ordering::Relaxed);
                    *keep.lock().unwrap() = Some(*p);
                }
            });
        let watcher = control.clone();
        let reports = calls.clone();
        let canceller = std::thread::spawn(move || {
            let under_way = || {
                reports.load(Ordering::Relaxed) > 3
                    || job
                        .lock()
                        .unwrap()
                        .as_ref()
                        .is_some_and(|j| !j.problem_id.is_empty())
            };
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
            while !under_way() && std::time::Instant::now() < deadline {
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
            watcher.cancel();
        });
        let set = s.sample(&m, &control).unwrap();
        canceller.join().unwrap();
        assert!(set.info.cancelled, "{}: info says cancelled", e.name);
        if e.is_local() {
            assert!(
                calls.load(Ordering::Relaxed) > 3,
                "{}: the observer was called",
                e.name
            );
            let p = last.lock().unwrap().expect("a report");
            assert!(p.sweeps_done < p.sweeps_total, "{}: stopped early", e.name);
            // Enumeration's rows are the lowest states of the blocks it finished; every other
            // sampler's rows are reads, and only finished ones count.
            if e.effort.is_some() {
                assert!(set.num_reads() < 64, "{}: only finished reads", e.name);
            }
        } else {
            assert!(
                set.rows.is_empty(),
                "{}: no reads from a cancelled job",
                e.name
            );
        }
        for row in &set.rows {
            assert_eq!(
                row.energy,
                m.qubo.energy(&row.sample).unwrap(),
                "{}",
                e.name
            );
        }
        // Cancelled before it starts: no reads, and it says so.
        let run = long_run(e);
        let control = RunControl::new();
        control.cancel();
        let set = e
            .build_with(&run.params)
            .unwrap()
            .sample(&m, &control)
            .unwrap();
        assert_eq!(set.num_reads(), 0, "{}", e.name);
        assert!(set.info.cancelled, "{}", e.name);
    }
}

#[test]
fn every_local_sampler_reports_progress_up_to_its_total() {
    // Remote samplers report their job instead (covered above); local ones their sweeps.
    let m = StoredModel::new(random_qubo(16, 6));
    for e in SAMPLERS.iter().filter(|e| e.is_local()) {
        let mut params = ParamValues::new();
        for (name, value) in [("num_reads", json!(10)), ("seed", json!(2))] {
            if e.params.iter().any(|p| p.name == name) {
                params.insert(name.into(), value);
            }
        }
        let last = Arc::new(std::sync::Mutex::new(None));
        let keep = last.clone();
        let control = RunControl::new()
            .with_threads(Some(1))
            .with_observer(25, move |p| {
                *keep.lock().unwrap() = Some(*p);
            });
        let set = e.build_with(&params).unwrap().sample(&m, &control).unwrap();
        let p = last
            .lock()
            .unwrap()
            .unwrap_or_else(|| panic!("{}: the observer was called", e.name));
        assert!(p.sweeps_total > 0, "{}: {p:?}", e.name);
        assert_eq!(p.sweeps_done, p.sweeps_total, "{}: {p:?}", e.name);
        let best = p
            .best_energy
            .unwrap_or_else(|| panic!("{}: a best energy", e.name));
        assert!(
            best >= set.rows[0].energy - 1e-3 * (1.0 + best.abs()),
            "{}: best so far {best} below the run's lowest {}",
            e.name,
            set.rows[0].energy
        );
    }
}

#[test]
fn annealers_find_the_exact_ground_state_on_small_models() {
    for seed in 0..8 {
        let q = random_qubo(16, 100 + seed);
        let m = StoredModel::new(q.clone());
        let exact = ExactSolver { num_reads: 1 }
            .sample(&m, &RunControl::new())
            .unwrap();
        let ground = exact.rows[0].energy;
        // Brute force agrees with the Gray-code enumeration.
        let brute = (0u32..1 << 16)
            .map(|bits| {
                let x: Vec<u8> = (0..16).map(|i| ((bits >> i) & 1) as u8).collect();
                q.energy(&x).unwrap()
            })
            .fold(f64::INFINITY, f64::min);
        assert!(
            (brute - ground).abs() < 1e-9,
            "seed {seed}: exact {ground}, brute force {brute}"
        );
        for s in samplers(20, seed) {
            let set = s.sample(&m, &RunControl::new()).unwrap();
            assert!(
                (set.rows[0].energy - ground).abs() < 1e-9,
                "seed {seed}: {} found {}, ground is {ground}",
                s.name(),
                set.rows[0].energy
            );
        }
    }
}

#[test]
fn exact_returns_the_lowest_states_in_order_and_refuses_big_models() {
    let q = random_qubo(10, 9);
    let m = StoredModel::new(q.clone());
    let set = ExactSolver { num_reads: 1024 }
        .sample(&m, &RunControl::new())
        .unwrap();
    assert_eq!(set.num_reads(), 1024, "all 2^10 states");
    let mut all: Vec<f64> = (0u32..1024)
        .map(|b| {
            q.energy(&(0..10).map(|i| ((b >> i) & 1) as u8).collect::<Vec<_>>())
                .unwrap()
        })
        .collect();
    all.sort_by(f64::total_cmp);
    assert_eq!(set.energies(), all);
    let big = StoredModel::new(Qubo::zeros(31));
    let e = ExactSolver::default()
        .sample(&big, &RunControl::new())
        .unwrap_err();
    assert!(e.to_string().contains("at most 30 variables"), "{e}");
}

#[test]
fn a_piloted_ladder_under_moves_keeps_the_pilots_ends_and_spaces_them_geometrically() {
    let m = permutation_model(4, 2, 6);
    for moves in ["one-hot", "two-way"] {
        let mut p = ParamValues::new();
        for (name, value) in [
            ("moves", json!(moves)),
            ("num_reads", json!(2)),
            ("num_sweeps", json!(400)),
            ("pilot_sweeps", json!(400)),
            ("seed", json!(4)),
        ] {
            p.insert(name.into(), value);
        }
        let set = sampler_from_params("pt", &p)
            .unwrap()
            .sample(&m, &RunControl::new())
            .unwrap();
        let params = &set.info.params;
        assert_eq!(params["ladder_from"], "pilot's ends, geometric between");
        let beta: Vec<f64> = serde_json::from_value(params["betas"].clone()).unwrap();
        let [_, cold]: [f64; 2] = serde_json::from_value(params["beta_range"].clone()).unwrap();
        assert_eq!(beta.len(), 16);
        // The pilot keeps the measured cold end and places the hot end; between them every
        // neighbouring pair has the same ratio (the pilot's respacing would leave them uneven).
        assert!((beta[15] - cold).abs() < 1e-9 * cold, "{moves}: {beta:?}");
        let ratio = beta[1] / beta[0];
        assert!(ratio > 1.0, "{moves}: {beta:?}");
        for w in beta.windows(2) {
            assert!(
                (w[1] / w[0] - ratio).abs() < 1e-9,
                "{moves}: not geometric: {beta:?}"
            );
        }
    }
}
