//! Tests of `annealing`.

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
    let with_pilot = one_read.memory_estimate(&m, false, 1);
    assert!(
        with_pilot >= (PILOT_REPLICAS * n * 9) as u64,
        "{with_pilot}"
    );
    let given_range = SimulatedAnnealing {
        beta_range: Some([0.1, 5.0]),
        ..one_read
    };
    let without = given_range.memory_estimate(&m, false, 1);
    assert!(
        with_pilot - without >= ((PILOT_REPLICAS - 1) * n * 9) as u64,
        "{with_pilot} against {without}"
    );
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
    let sa = SimulatedAnnealing {
        num_reads: 40,
        num_sweeps: 200,
        seed: Some(7),
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
