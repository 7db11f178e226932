//! Tests of `annealing`.

use super::range::PILOT_MIN_SWEEPS;
use super::*;
use crate::qubo::{Qubo, StoredModel};

/// A quarter of the pairs coupled (the crate's one random-QUBO generator).
fn random_model(n: usize, seed: u64) -> StoredModel {
    StoredModel::new(crate::qubo::random::random_qubo(n, n / 4, seed).unwrap())
}

#[test]
fn the_memory_estimate_counts_the_pilots_replicas() {
    // One read on one thread holds one state, but the β-range pilot first runs 16
    // replicas: the estimate must cover them (a 5·10⁷-variable model aborted at 8.8 GB
    // against a 4 GB budget when it did not).
    let n = 100_000;
    let m = StoredModel::new(Qubo::new(vec![1.0; n], Vec::new(), 0.0).unwrap());
    let one_read = SimulatedAnnealing {
        num_reads: 1,
        ..Default::default()
    };
    let with_pilot = one_read.memory_estimate(&m, false, false, 1);
    assert!(
        with_pilot >= (PILOT_REPLICAS * n * 9) as u64,
        "{with_pilot}"
    );
    let given_range = SimulatedAnnealing {
        beta_range: Some([0.1, 5.0]),
        ..one_read
    };
    let without = given_range.memory_estimate(&m, false, false, 1);
    assert!(
        with_pilot - without >= ((PILOT_REPLICAS - 1) * n * 9) as u64,
        "{with_pilot} against {without}"
    );
    // Dense rows of 10⁵ variables would be 40 GB: refused before anything is built.
    let err = SimulatedAnnealing {
        kernel: Kernel::Dense,
        ..given_range
    }
    .sample(&m, &RunControl::new())
    .unwrap_err()
    .to_string();
    assert!(err.contains("simulated annealing"), "{err}");
}

#[test]
fn scalar_and_lane_kernels_give_identical_reads() {
    let m = random_model(40, 3);
    let ctl = RunControl::new();
    // 45 = 32 + 13 (a 16-lane remainder), 37 = 32 + 5 (an 8-lane remainder).
    for num_reads in [45, 37] {
        let base = SimulatedAnnealing {
            num_reads,
            num_sweeps: 50,
            seed: Some(99),
            ..Default::default()
        };
        let scalar = SimulatedAnnealing {
            kernel: Kernel::Scalar,
            ..base.clone()
        };
        let lanes = SimulatedAnnealing {
            kernel: Kernel::Lanes,
            ..base
        };
        let (a, b) = (
            scalar.sample(&m, &ctl).unwrap(),
            lanes.sample(&m, &ctl).unwrap(),
        );
        assert_eq!(a.rows, b.rows);
        assert!(a.rows.len() > 1, "reads should differ from each other");
    }
}

/// A model with integer coefficients in ±`range` (times `unit`), `per_row` neighbours each.
fn integer_model(n: usize, per_row: usize, range: i64, unit: f64, seed: u64) -> StoredModel {
    let mut rng = Xoshiro128p::for_read(seed, 0);
    let mut draw = || (rng.next_u32() as i64 % (2 * range + 1) - range) as f64 * unit;
    let linear = (0..n).map(|_| draw()).collect();
    let couplings: Vec<(usize, usize, f64)> = (0..n)
        .flat_map(|i| (1..=per_row / 2).map(move |k| (i, (i + 7 * k) % n)))
        .filter(|(i, j)| i != j)
        .map(|(i, j)| (i, j, draw()))
        .collect();
    StoredModel::new(Qubo::new(linear, couplings, 0.5).unwrap())
}

#[test]
fn the_integer_lanes_give_the_reads_of_the_f32_lanes() {
    let ctl = RunControl::new();
    // Integers, halves (scaled by 2), a dense row of 60 neighbours, and fields past ±127.
    for (m, label) in [
        (integer_model(50, 6, 9, 1.0, 1), "integers"),
        (integer_model(50, 6, 9, 0.5, 2), "halves"),
        (integer_model(61, 60, 3, 1.0, 3), "dense"),
        (integer_model(50, 6, 60, 1.0, 4), "wide"),
    ] {
        let run = |kernel| {
            SimulatedAnnealing {
                num_reads: 45,
                num_sweeps: 60,
                seed: Some(7),
                kernel,
                ..Default::default()
            }
            .sample(&m, &ctl)
            .unwrap()
        };
        let (f32s, i16s, auto) = (run(Kernel::Lanes), run(Kernel::Lanes16), run(Kernel::Auto));
        assert_eq!(f32s.rows, i16s.rows, "{label}");
        assert!(f32s.rows.len() > 1, "{label}: reads should differ");
        assert_eq!(f32s.info.params["kernel"], "lanes", "{label}");
        assert_eq!(i16s.info.params["kernel"], "lanes16", "{label}");
        // Fields within ±127 go to byte lanes (their own random numbers); couplings of up to
        // 60 do not fit.
        let bytes = label != "wide";
        let expected = if bytes { "lanes8" } else { "lanes16" };
        assert_eq!(auto.info.params["kernel"], expected, "{label}");
        assert_eq!(f32s.rows == auto.rows, !bytes, "{label}");
        assert_eq!(
            auto.rows.iter().map(|r| r.num_occurrences).sum::<usize>(),
            45
        );
    }
}

#[test]
fn byte_lanes_run_where_auto_takes_them_and_refuse_what_they_cannot_hold() {
    let ctl = RunControl::new();
    let m = integer_model(50, 6, 9, 1.0, 1);
    let run = |kernel, num_reads, threads| {
        SimulatedAnnealing {
            num_reads,
            num_sweeps: 40,
            seed: Some(5),
            kernel,
            ..Default::default()
        }
        .sample(&m, &RunControl::new().with_threads(Some(threads)))
    };
    // Up to 16 reads auto keeps the 16-bit lanes; past that, byte lanes, in blocks of 64
    // (with a last block of up to 32 reads 32 wide) that give the same reads on any number
    // of threads.
    assert_eq!(
        run(Kernel::Auto, 16, 1).unwrap().info.params["kernel"],
        "lanes16"
    );
    for reads in [17, 64, 100, 150] {
        let one = run(Kernel::Auto, reads, 1).unwrap();
        assert_eq!(one.info.params["kernel"], "lanes8");
        assert_eq!(
            one.rows.iter().map(|r| r.num_occurrences).sum::<usize>(),
            reads
        );
        for row in &one.rows {
            assert!((row.energy - m.energy(&row.sample)).abs() < 1e-9);
        }
        assert_eq!(
            one.rows,
            run(Kernel::Lanes8, reads, 2).unwrap().rows,
            "{reads}"
        );
    }
    // Asked for explicitly on fields past ±127: refused, with the reason.
    let wide = integer_model(60, 40, 9, 1.0, 2);
    let err = SimulatedAnnealing {
        kernel: Kernel::Lanes8,
        ..Default::default()
    }
    .sample(&wide, &ctl)
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("lanes8") && err.contains("127") && err.contains("use auto"),
        "{err}"
    );
}

#[test]
fn the_integer_lanes_refuse_what_they_cannot_hold_exactly() {
    let ctl = RunControl::new();
    // A third is no integer after any power of two; fields of 40 000 leave i16.
    for (m, why) in [
        (integer_model(20, 4, 5, 1.0 / 3.0, 1), "thirds"),
        (integer_model(20, 4, 20_000, 1.0, 1), "large fields"),
    ] {
        let run = |kernel| {
            SimulatedAnnealing {
                num_reads: 8,
                num_sweeps: 10,
                seed: Some(1),
                kernel,
                ..Default::default()
            }
            .sample(&m, &ctl)
        };
        assert_eq!(
            run(Kernel::Auto).unwrap().info.params["kernel"],
            "lanes",
            "{why}"
        );
        let err = run(Kernel::Lanes16).unwrap_err().to_string();
        assert!(
            err.contains("kernel") && err.contains("use lanes"),
            "{why}: {err}"
        );
    }
}

#[test]
fn a_model_scaled_far_beyond_f32_anneals_exactly_like_the_original() {
    // 2^200 ≈ 1.6e60: every coefficient overflows f32 and the default β underflows it, yet
    // the kernel's power-of-two scaling makes each read bit-identical to the original's.
    let m = random_model(30, 5);
    let factor = 2f64.powi(200);
    let q = &m.qubo;
    let big = StoredModel::new(
        Qubo::new(
            q.linear().iter().map(|v| v * factor).collect(),
            q.couplings()
                .iter()
                .map(|c| (c.i as usize, c.j as usize, c.value * factor)),
            q.offset() * factor,
        )
        .unwrap(),
    );
    // The f32 lanes for both: `auto` would run the original's small integers in byte lanes,
    // whose reads are their own.
    let sa = SimulatedAnnealing {
        num_reads: 40,
        num_sweeps: 200,
        seed: Some(7),
        kernel: Kernel::Lanes,
        ..Default::default()
    };
    let ctl = RunControl::new();
    let (a, b) = (sa.sample(&m, &ctl).unwrap(), sa.sample(&big, &ctl).unwrap());
    let samples = |s: &SampleSet| s.rows.iter().map(|r| r.sample.clone()).collect::<Vec<_>>();
    assert_eq!(samples(&a), samples(&b));
    assert_eq!(a.rows[0].energy * factor, b.rows[0].energy);
    assert!(b.info.warnings.is_empty(), "{:?}", b.info.warnings);
}

#[test]
fn rejects_bad_parameters() {
    let m = random_model(5, 1);
    let ctl = RunControl::new();
    let bad = SimulatedAnnealing {
        beta_range: Some([f64::NAN, 1.0]),
        ..Default::default()
    };
    assert!(
        bad.sample(&m, &ctl)
            .unwrap_err()
            .to_string()
            .contains("beta_range")
    );
    let bad = SimulatedAnnealing {
        initial_states: Some(vec![vec![0, 1]]),
        ..Default::default()
    };
    assert!(
        bad.sample(&m, &ctl)
            .unwrap_err()
            .to_string()
            .contains("state 0 has 2 values")
    );
    let bad = SimulatedAnnealing {
        beta_schedule_type: BetaScheduleType::Custom,
        ..Default::default()
    };
    assert!(bad.sample(&m, &ctl).is_err());
}

#[test]
fn initial_states_with_zero_sweeps_come_back_unchanged() {
    let m = random_model(6, 2);
    let start = vec![1, 0, 1, 1, 0, 0];
    let sa = SimulatedAnnealing {
        num_reads: 1,
        num_sweeps: 0,
        initial_states: Some(vec![start.clone()]),
        seed: Some(1),
        ..Default::default()
    };
    let set = sa.sample(&m, &RunControl::new()).unwrap();
    assert_eq!(set.rows[0].sample, start);
}

#[test]
fn multispin_runs_pm_j_glasses_the_same_at_any_thread_count() {
    let m = StoredModel::new(crate::bench::spin_glass_3d(4, 3));
    let run = |threads, kernel, initial_states: Option<Vec<Vec<u8>>>| {
        SimulatedAnnealing {
            num_reads: 200,
            num_sweeps: 50,
            seed: Some(5),
            kernel,
            initial_states,
            ..Default::default()
        }
        .sample(&m, &RunControl::new().with_threads(Some(threads)))
        .unwrap()
    };
    // 200 reads are four blocks of 64: one word of four on one thread, two of two on two.
    let one = run(1, Kernel::Auto, None);
    assert_eq!(one.info.params["kernel"], "multispin");
    assert_eq!(one.rows, run(2, Kernel::Auto, None).rows);
    assert!(one.rows.len() > 1, "reads should differ");
    // A started read starts where it is told (no sweeps: it stays there).
    let start: Vec<u8> = (0..64).map(|i| (i % 3 == 0) as u8).collect();
    let still = SimulatedAnnealing {
        num_reads: 70,
        num_sweeps: 0,
        beta_range: Some([0.1, 1.0]),
        seed: Some(1),
        kernel: Kernel::Multispin,
        initial_states: Some(vec![start.clone(); 66]),
        ..Default::default()
    }
    .sample(&m, &RunControl::new())
    .unwrap();
    let with_start = still
        .rows
        .iter()
        .find(|r| r.sample == start)
        .expect("the start");
    assert_eq!(with_start.num_occurrences, 66);
}

#[test]
fn multispin_names_why_a_model_is_not_for_it() {
    let m = integer_model(20, 4, 5, 1.0, 1);
    let err = SimulatedAnnealing {
        num_reads: 8,
        num_sweeps: 10,
        kernel: Kernel::Multispin,
        ..Default::default()
    }
    .sample(&m, &RunControl::new())
    .unwrap_err()
    .to_string();
    assert!(err.contains("multispin needs a ±J model"), "{err}");
    assert!(err.contains("use auto"), "{err}");
}

#[test]
fn a_run_too_short_to_pay_for_a_pilot_takes_dwaves_range_and_says_so() {
    // 1 read of 2 sweeps: a pilot of 100 sweeps × 16 replicas would be 800 times the run.
    let m = random_model(30, 4);
    let ctl = RunControl::new();
    let short = SimulatedAnnealing {
        num_reads: 1,
        num_sweeps: 2,
        seed: Some(5),
        ..Default::default()
    }
    .sample(&m, &ctl)
    .unwrap();
    let (hot, cold) = crate::sampler::schedule::default_beta_range(&m);
    assert_eq!(
        short.info.params["beta_range"],
        serde_json::json!([hot, cold])
    );
    let why = short.info.params["beta_range_from"].as_str().unwrap();
    assert!(why.contains("2 read-sweeps are too few"), "{why}");
    // A run worth a pilot still has one, and says nothing about it.
    let piloted = SimulatedAnnealing {
        num_reads: 1,
        num_sweeps: 1000,
        seed: Some(5),
        ..Default::default()
    }
    .sample(&m, &ctl)
    .unwrap();
    assert!(piloted.info.params.get("beta_range_from").is_none());
    assert_ne!(
        piloted.info.params["beta_range"],
        serde_json::json!([hot, cold])
    );
}

#[test]
fn dense_groups_sample_the_boltzmann_distribution_through_the_switch_to_rows() {
    // 20 sweeps at β 0.05 (most flips accepted: the group sweeps in lanes), then 20 at the
    // target β, where acceptance falls under `ROWS_BELOW` and each read continues alone over
    // the rows: the final states of 20 000 reads follow exp(−βE) only if both phases and the
    // hand-over between them are right. Small integers (split fields), integers in i8 rows,
    // integers past i8 (i16 rows) and fractions (f32).
    use crate::sampler::rows::tests::{boltzmann_distance, six_dense};
    for (scale, kernel) in [
        (1.0, "dense8"),
        (20.0, "dense16"),
        (60.0, "dense16"),
        (0.3, "dense"),
    ] {
        let m = six_dense(scale);
        let beta = 1.5 / scale;
        let set = SimulatedAnnealing {
            num_reads: 20_000,
            num_sweeps: 40,
            beta_schedule_type: BetaScheduleType::Custom,
            beta_schedule: Some(vec![0.05 / scale, beta]),
            num_sweeps_per_beta: 20,
            seed: Some(11),
            kernel: Kernel::Dense,
            ..Default::default()
        }
        .sample(&m, &RunControl::new())
        .unwrap();
        assert_eq!(set.info.params["kernel"], kernel, "scale {scale}");
        let distance = boltzmann_distance(
            &m,
            beta,
            set.rows
                .iter()
                .map(|r| (r.sample.clone(), r.num_occurrences as f64)),
        );
        assert!(
            distance < 0.04,
            "scale {scale}: total variation {distance:.4}"
        );
    }
}

#[test]
fn auto_takes_the_dense_rows_on_a_dense_model_and_a_seed_fixes_the_reads() {
    // 300 variables with 150 neighbours each: past rows_pay's 128 and a tenth of all pairs.
    let dense = StoredModel::new(crate::qubo::random::random_qubo(300, 150, 4).unwrap());
    let sparse = random_model(300, 4);
    let run = |m: &StoredModel, threads| {
        SimulatedAnnealing {
            num_reads: 5,
            num_sweeps: 50,
            seed: Some(3),
            ..Default::default()
        }
        .sample(m, &RunControl::new().with_threads(Some(threads)))
        .unwrap()
    };
    let one = run(&dense, 1);
    assert_eq!(one.info.params["kernel"], "dense8");
    assert_eq!(one.rows, run(&dense, 2).rows);
    assert!(one.rows.len() > 1, "reads should differ");
    assert_eq!(run(&sparse, 1).info.params["kernel"], "lanes16");
}

#[test]
fn auto_builds_rows_past_the_cache_only_for_a_whole_group_of_reads() {
    // The 8×8 edge COO: 5 770 variables, 710 neighbours each, 33 MB of i8 rows. A group goes
    // over them a block at a time, so they pay from 32 reads; a lone read streams every row.
    let (n, entries) = (5770, 2 * 2_050_866);
    assert!(rows_pay(n, entries, DENSE_GROUP, true));
    assert!(!rows_pay(n, entries, DENSE_GROUP - 1, true));
    // Rows wider than i8 would be two to four times the bytes: not measured, not taken.
    assert!(!rows_pay(n, entries, DENSE_GROUP, false));
    // The 6×6 (1.6 MB) pays for any number of reads; past 64 MiB nothing does.
    assert!(rows_pay(1290, 2 * 178_578, 1, false));
    assert!(!rows_pay(9000, 9000 * 2000, 1000, true));
}

#[test]
fn the_pilot_of_a_dense_run_is_sized_by_what_its_sweeps_cost() {
    // A complete graph: the dense kernel's reads are cheap where the pilot's ladder streams
    // every row, so its pilot runs fewer sweeps than the lanes' for the same reads × sweeps
    // (at the lanes' length the pilot cost as much as the sampling from Python).
    let n = 300;
    let terms = (0..n)
        .flat_map(|i| (0..i).map(move |j| (i, j, if (i * 7 + j) % 3 == 0 { 2.0 } else { -1.0 })));
    let m = StoredModel::new(Qubo::new(vec![0.5; n], terms, 0.0).unwrap());
    let pilot_sweeps = |kernel: Kernel| {
        let seen = std::sync::Arc::new(std::sync::Mutex::new(0u64));
        let watch = seen.clone();
        let control = RunControl::new().with_observer(10, move |p| {
            if p.phase == crate::sampler::Phase::Pilot {
                *watch.lock().unwrap() = p.sweeps_total;
            }
        });
        let set = SimulatedAnnealing {
            num_reads: 64,
            num_sweeps: 1000,
            kernel,
            seed: Some(5),
            ..Default::default()
        }
        .sample(&m, &control)
        .unwrap();
        let total = *seen.lock().unwrap();
        (total, set.info.params["kernel"].clone())
    };
    let (dense, kernel) = pilot_sweeps(Kernel::Auto);
    assert!(kernel.as_str().unwrap().starts_with("dense"), "{kernel}");
    let (lanes, _) = pilot_sweeps(Kernel::Lanes);
    assert_eq!(lanes, 64 * 1000 / (PILOT_REPLICAS as u64 * 8));
    assert!(
        dense >= PILOT_MIN_SWEEPS as u64 && dense * 4 <= lanes,
        "{dense} against {lanes}"
    );
}
