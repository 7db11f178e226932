//! The conformance suite every sampler must pass, now and later: add a new sampler to
//! `samplers()` and it is held to the same contract.
//!
//! - energies equal `Qubo::energy` of the returned samples;
//! - occurrence counts add up to the reads asked for;
//! - the same seed gives the same SampleSet, whatever the thread count;
//! - cancelling returns only completed reads, says so, and counts still add up;
//! - the exact ground state is found on small random QUBOs (the exact solver is the oracle).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use qubo_workbench::params::{ParamSpec, ParamType, ParamValues};
use qubo_workbench::qubo::{Qubo, StoredModel};
use qubo_workbench::rng::splitmix64;
use qubo_workbench::sampler::{
    ExactSolver, Kernel, ParallelTempering, QuantumAnnealing, RunControl, RunsOn, SAMPLERS,
    Sampler, SimulatedAnnealing, TabuSearch, sampler_from_params,
};
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
    for e in SAMPLERS.iter().filter(|e| e.runs_on == RunsOn::ThisMachine) {
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
            }) => words.iter().map(|w| Some(*w)).collect(),
            _ => vec![None],
        };
        for kernel in kernels {
            let mut p = params.clone();
            if let Some(k) = kernel {
                p.insert("kernel".into(), json!(k));
            }
            out.push(sampler_from_params(e.name, &p).expect("the registry builds"));
        }
    }
    out
}

/// A random QUBO with integer-ish coefficients in [−5, 5] and about half the pairs coupled.
fn random_qubo(n: usize, seed: u64) -> Qubo {
    let mut s = seed;
    let mut coef = || ((splitmix64(&mut s) % 1001) as f64 - 500.0) / 100.0;
    let linear: Vec<f64> = (0..n).map(|_| coef()).collect();
    let mut terms = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            let c = coef();
            if c.abs() > 2.5 {
                terms.push((i, j, c));
            }
        }
    }
    Qubo::new(linear, terms, 0.5).unwrap()
}

#[test]
fn energies_match_the_model() {
    let q = random_qubo(14, 1);
    let m = StoredModel::new(q.clone());
    for s in samplers(40, 5) {
        let set = s.sample(&m, &RunControl::new()).unwrap();
        assert!(!set.rows.is_empty(), "{}", s.name());
        for row in &set.rows {
            assert_eq!(row.energy, q.energy(&row.sample).unwrap(), "{}", s.name());
        }
        assert!(
            set.rows.windows(2).all(|w| w[0].energy <= w[1].energy),
            "{} sorted",
            s.name()
        );
    }
}

#[test]
fn counts_add_up_to_num_reads() {
    let m = StoredModel::new(random_qubo(12, 2));
    for reads in [1, 7, 33, 100] {
        for s in samplers(reads, 3) {
            let set = s.sample(&m, &RunControl::new()).unwrap();
            assert_eq!(set.num_reads(), reads, "{} with {reads} reads", s.name());
            assert!(!set.info.cancelled);
        }
    }
}

#[test]
fn same_seed_same_result_whatever_the_thread_count() {
    let m = StoredModel::new(random_qubo(20, 4));
    for (a, b) in samplers(50, 11).into_iter().zip(samplers(50, 11)) {
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

#[test]
fn cancel_is_honoured_and_counts_stay_true() {
    // Big enough that a run takes a while; cancelled from the progress observer.
    let m = StoredModel::new(random_qubo(24, 5));
    let long = |kernel| SimulatedAnnealing {
        num_reads: 64,
        num_sweeps: 200_000,
        seed: Some(1),
        kernel,
        ..Default::default()
    };
    let samplers: Vec<Box<dyn Sampler>> = vec![
        Box::new(long(Kernel::Lanes)),
        Box::new(long(Kernel::Scalar)),
        Box::new(ExactSolver { num_reads: 10 }),
        Box::new(TabuSearch {
            num_reads: 64,
            num_restarts: 1_000_000,
            seed: Some(1),
            ..Default::default()
        }),
        Box::new(ParallelTempering {
            num_reads: 64,
            num_sweeps: Some(100_000_000),
            seed: Some(1),
            ..Default::default()
        }),
        Box::new(QuantumAnnealing {
            num_reads: 64,
            num_sweeps: 10_000_000,
            seed: Some(1),
            ..Default::default()
        }),
    ];
    for s in samplers {
        let calls = Arc::new(AtomicUsize::new(0));
        let control = RunControl::new().with_threads(Some(2));
        let flag = control.cancel_flag();
        let seen = calls.clone();
        let control = control.with_observer(10, move |_| {
            if seen.fetch_add(1, Ordering::Relaxed) == 3 {
                flag.store(true, Ordering::Relaxed);
            }
        });
        let set = s.sample(&m, &control).unwrap();
        assert!(
            calls.load(Ordering::Relaxed) > 3,
            "{}: observer was called",
            s.name()
        );
        assert!(set.info.cancelled, "{}: info says cancelled", s.name());
        assert!(set.num_reads() < 64, "{}: stopped early", s.name());
        let q = &m.qubo;
        for row in &set.rows {
            assert_eq!(row.energy, q.energy(&row.sample).unwrap());
        }
    }
    // Cancelled before it starts: no reads, and it says so.
    let control = RunControl::new();
    control.cancel();
    let set = long(Kernel::Lanes).sample(&m, &control).unwrap();
    assert_eq!(set.num_reads(), 0);
    assert!(set.info.cancelled);
}

#[test]
fn progress_reports_rise_to_the_total() {
    let m = StoredModel::new(random_qubo(16, 6));
    let last = Arc::new(std::sync::Mutex::new(None));
    let keep = last.clone();
    let control = RunControl::new()
        .with_threads(Some(1))
        .with_observer(25, move |p| {
            *keep.lock().unwrap() = Some(*p);
        });
    let sa = SimulatedAnnealing {
        num_reads: 10,
        num_sweeps: 100,
        seed: Some(2),
        ..Default::default()
    };
    let set = sa.sample(&m, &control).unwrap();
    let p = last.lock().unwrap().expect("the observer was called");
    assert_eq!(p.sweeps_total, 1000);
    assert_eq!(p.sweeps_done, 1000);
    let best = p.best_energy.unwrap();
    assert!(
        (best - set.rows[0].energy).abs() < 1e-3 * (1.0 + best.abs()),
        "{best} vs {}",
        set.rows[0].energy
    );
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
