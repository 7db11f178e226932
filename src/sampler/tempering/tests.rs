//! Tests of `tempering`.

use super::*;
use crate::qubo::{Qubo, StoredModel};
use crate::sampler::kernel::inverse_beta;
use crate::sampler::replicas::{CsrReplicas, GroupedReplicas};

fn small_model() -> StoredModel {
    StoredModel::new(
        Qubo::new(
            vec![0.5, -1.0, 0.25, -0.75],
            vec![(0, 1, 1.5), (1, 2, -2.0), (2, 3, 1.0), (0, 3, -0.5)],
            0.0,
        )
        .unwrap(),
    )
}

/// Replica exchange must leave every temperature's distribution exact: tallies the state
/// held at each β over many sweeps of `ladder` and compares with exp(−βE)/Z of `model`
/// (4 variables) by total variation.
fn assert_boltzmann_at_every_temperature<R: Replicas<8>>(
    mut ladder: Ladder<8, R>,
    model: &dyn Model,
) {
    let beta = ladder.beta.clone();
    let mut stats = SwapStats::new(beta.len() - 1);
    let mut counts = vec![[0u64; 16]; beta.len()];
    let sweeps = 200_000;
    for s in 0..sweeps {
        ladder.sweep::<false>(&mut []);
        ladder.exchange(s % 2, &mut stats);
        for (t, c) in counts.iter_mut().enumerate() {
            let x = ladder.state(ladder.lane_of_temp[t]);
            c[x.iter()
                .enumerate()
                .map(|(i, &b)| (b as usize) << i)
                .sum::<usize>()] += 1;
        }
    }
    for (t, c) in counts.iter().enumerate() {
        let weights: Vec<f64> = (0..16)
            .map(|k| {
                let x: Vec<u8> = (0..4).map(|i| ((k >> i) & 1) as u8).collect();
                (-beta[t] * model.energy(&x)).exp()
            })
            .collect();
        let z: f64 = weights.iter().sum();
        let tv: f64 = (0..16)
            .map(|k| (c[k] as f64 / sweeps as f64 - weights[k] / z).abs())
            .sum::<f64>()
            / 2.0;
        assert!(tv < 0.01, "β = {}: total variation {tv}", beta[t]);
    }
    assert!(stats.rates().iter().all(|&a| a > 0.05 && a < 1.0));
}

#[test]
fn each_temperature_samples_the_boltzmann_distribution() {
    let m = small_model();
    let csr = Csr::of_model(&m);
    let km = KernelModel::new(&csr, 1.0);
    let ladder = Ladder::new(CsrReplicas::<8>::new(&km, 7, 0), vec![0.3, 0.8, 2.0], 7, 0);
    assert_boltzmann_at_every_temperature(ladder, &m);
}

#[test]
fn the_structured_kernel_samples_the_boltzmann_distribution_too() {
    // Two cells of two placements each, one link between their ports: one-hot groups
    // (cells 0, 1 and pieces 2, 3) and a labelled joint, as edge matching builds them.
    use crate::qubo::GroupedModel;
    use crate::qubo::grouped::NONE;
    let slot = |label| [(0, label), (NONE, 0), (NONE, 0), (NONE, 0)];
    let other = |label| [(1, label), (NONE, 0), (NONE, 0), (NONE, 0)];
    let g = GroupedModel::new(
        vec![[0, 2], [1, 2], [0, 3], [1, 3]],
        vec![1.5, 1.0, 1.5, 1.0],
        vec![slot(5), slot(6), other(5), other(5)],
        &[(0, 1)],
        2,
        -1.0,
        0.5,
    );
    let tables = LaneTables::new(&g.kernel());
    let ladder = Ladder::new(
        GroupedReplicas::<8>::new(&tables, &g, 7, 0),
        vec![0.3, 0.8, 2.0],
        7,
        0,
    );
    assert_boltzmann_at_every_temperature(ladder, &g);
}

#[test]
fn a_run_asked_to_end_at_its_first_target_says_how_many_reads_ran() {
    let m = small_model();
    let ground = crate::sampler::ExactSolver { num_reads: 1 }
        .sample(&m, &RunControl::new())
        .unwrap()
        .rows[0]
        .energy;
    let pt = ParallelTempering {
        num_reads: 8,
        seed: Some(4),
        ..Default::default()
    };
    // Progress of an open-ended run counts reads and time, never a sweep total it lacks.
    let last = std::sync::Arc::new(std::sync::Mutex::new(None));
    let seen = last.clone();
    let control = RunControl::new()
        .with_threads(Some(1))
        .with_target_energy(Some(ground))
        .ending_at_first_target(true)
        .with_observer(1, move |p| *seen.lock().unwrap() = Some(*p));
    let set = pt.sample(&m, &control).unwrap();
    let report = set.report();
    assert_eq!(report.stopped, crate::sampler::StopReason::FirstTarget);
    assert_eq!((report.reads, report.reads_requested), (1, 8));
    assert_eq!(set.info.end.not_started, 7);
    assert_eq!(set.rows[0].energy, ground);
    let p = last.lock().unwrap().expect("progress reported");
    assert_eq!(p.sweeps_total, 0, "open-ended");
    assert_eq!((p.reads_done, p.reads_total), (1, 8));
    assert!(
        p.time_limit_s.is_some(),
        "a target brings the default limit"
    );
    assert!(!p.describe().1.contains("/ 0"), "{}", p.describe().1);
    // Without the request every ladder runs to the target.
    let all = pt
        .sample(&m, &control.clone().ending_at_first_target(false))
        .unwrap();
    assert_eq!(all.report().stopped, crate::sampler::StopReason::Target);
    assert_eq!(all.num_reads(), 8);
}

#[test]
fn the_pilot_is_sized_by_the_model() {
    let pt = ParallelTempering::default();
    // A 9×9 Sudoku keeps the full pilot; ADC 2018 Q2's 1.35 million variables get a few
    // sweeps per round, so its first read starts within seconds.
    assert_eq!(pt.pilot_sweeps_per_round(729), 500);
    let q2 = pt.pilot_sweeps_per_round(1_350_000);
    assert!((8..=12).contains(&q2), "{q2}");
    // … and by the run: a run of 40 sweeps gets no 2 000-sweep pilot.
    let short = ParallelTempering {
        num_sweeps: Some(40),
        ..ParallelTempering::default()
    };
    assert_eq!(short.pilot_sweeps_per_round(729), 10);
    // A run of fewer sweeps than the pilot's shortest rounds gets none, and says so.
    let two = ParallelTempering {
        num_sweeps: Some(2),
        num_reads: 2,
        seed: Some(1),
        ..ParallelTempering::default()
    };
    assert!(!two.runs_pilot(FLIP_PILOT_LEAST_ROUND) && !two.runs_pilot(MOVES_PILOT_LEAST_ROUND));
    assert!(short.runs_pilot(FLIP_PILOT_LEAST_ROUND));
    let set = two.sample(&small_model(), &RunControl::new()).unwrap();
    let from = set.info.params["ladder_from"].as_str().unwrap().to_string();
    assert_eq!(from, "geometric: 2 sweeps are too few for a pilot");
    let set = short.sample(&small_model(), &RunControl::new()).unwrap();
    assert_eq!(set.info.params["ladder_from"], "pilot");
}

#[test]
fn swaps_keep_lanes_and_temperatures_in_step() {
    let m = small_model();
    let csr = Csr::of_model(&m);
    let km = KernelModel::new(&csr, 1.0);
    let beta = vec![0.1, 0.4, 1.0, 3.0, 9.0];
    let mut ladder = Ladder::new(CsrReplicas::<8>::new(&km, 3, 0), beta.clone(), 3, 0);
    let mut stats = SwapStats::new(4);
    for s in 0..500 {
        ladder.sweep::<false>(&mut []);
        ladder.exchange(s % 2, &mut stats);
        for (t, &lane) in ladder.lane_of_temp.iter().enumerate() {
            assert_eq!(ladder.temp_of_lane[lane], t);
            assert_eq!(ladder.inv_beta[lane], inverse_beta(beta[t] as f32));
        }
    }
    assert!(stats.attempts.iter().all(|&a| a == 250));
}

#[test]
fn respace_splits_the_gap_that_does_not_swap() {
    let beta = geometric(0.1, 10.0, 5);
    let next = crate::sampler::pilot::respace(&beta, &[0.9, 0.9, 0.01, 0.9], None);
    assert_eq!((next[0], next[4]), (beta[0], beta[4]), "the ends stay");
    assert!(next.windows(2).all(|w| w[0] < w[1]), "{next:?}");
    // Two of the three inner points now sit inside the gap (β2, β3) that never swapped.
    let inside = next[1..4]
        .iter()
        .filter(|&&b| b > beta[2] && b < beta[3])
        .count();
    assert!(inside >= 2, "{next:?}");
    // Gaps too long for the replicas: with a floor, the hot end gives way, the cold stays.
    let trimmed = crate::sampler::pilot::respace(&beta, &[0.001; 4], Some(0.1));
    assert_eq!(trimmed[4], beta[4]);
    assert!(trimmed[0] > beta[0] * 1.5, "{trimmed:?}");
    assert!(trimmed.windows(2).all(|w| w[0] < w[1]), "{trimmed:?}");
    // Even rates leave a geometric ladder where it is.
    let same = crate::sampler::pilot::respace(&beta, &[0.3; 4], Some(0.1));
    for (a, b) in same.iter().zip(&beta) {
        assert!((a - b).abs() < 1e-12 * b);
    }
}

#[test]
fn the_ends_sit_where_replicas_move_freely_and_where_they_freeze() {
    let beta = geometric(0.01, 10.0, 7); // 0.01, 0.032, 0.1, 0.32, 1, 3.2, 10
    let rates = [0.9, 0.8, 0.6, 0.4, 0.1, 0.012, 0.01];
    let (hot, cold) = crate::sampler::pilot::ends(&beta, &rates, 100, 0.5);
    // 0.5 lies halfway between 0.6 (β 0.1) and 0.4 (β 0.32) in log β.
    assert!(
        (hot - (0.1f64 * 0.316_227_766).sqrt()).abs() < 1e-3,
        "{hot}"
    );
    // Frozen: within 1/n = 0.01 of the coldest rate 0.01, crossed between β 1 and 3.2.
    assert!(cold > 1.0 && cold < 3.17, "{cold}");
    // A flat model keeps the range.
    assert_eq!(
        crate::sampler::pilot::ends(&beta, &[0.5; 7], 100, 0.5),
        (0.01, 10.0)
    );
}

#[test]
fn a_target_energy_stops_the_run_at_a_ground_state() {
    // 24 variables: no lane of 16 random starts is at the ground state by chance.
    let mut seed = 9u64;
    let mut coef = || (crate::rng::splitmix64(&mut seed) % 401) as f64 / 100.0 - 2.0;
    let linear = (0..24).map(|_| coef()).collect();
    let terms: Vec<_> = (0..24)
        .flat_map(|i| (i + 1..24).map(move |j| (i, j)))
        .filter(|(i, j)| (i * 5 + j) % 3 == 0)
        .map(|(i, j)| (i, j, coef()))
        .collect();
    let m = StoredModel::new(Qubo::new(linear, terms, 0.0).unwrap());
    let ground = crate::sampler::ExactSolver { num_reads: 1 }
        .sample(&m, &RunControl::new())
        .unwrap()
        .rows[0]
        .energy;
    let pt = ParallelTempering {
        num_reads: 3,
        num_sweeps: Some(1_000_000),
        seed: Some(5),
        ..Default::default()
    };
    let control = RunControl::new()
        .with_threads(Some(1))
        .with_target_energy(Some(ground));
    let set = pt.sample(&m, &control).unwrap();
    assert_eq!(set.rows[0].energy, ground);
    let info = &set.info.params;
    // Every ladder runs until it reaches the target, and each is a read.
    assert_eq!(info["reads_at_target"], 3, "{info}");
    assert_eq!(set.num_reads(), 3, "{info}");
    assert_eq!(info["reads_cut_short"], 0, "{info}");
    for k in 0..3 {
        assert!(
            info["sweeps_per_read"][k].as_u64().unwrap() < 1000,
            "{info}"
        );
    }
    // A timeout ends the whole run: on one thread the first ladder runs until it and the
    // others never start (not reads, counted as cut short).
    let timed = ParallelTempering {
        num_reads: 4,
        num_sweeps: Some(usize::MAX),
        timeout_ms: Some(200),
        seed: Some(5),
        ..Default::default()
    };
    let set = timed
        .sample(&m, &RunControl::new().with_threads(Some(1)))
        .unwrap();
    let info = &set.info.params;
    assert_eq!(set.num_reads(), 1, "{info}");
    assert_eq!(info["timed_out_reads"], 1, "{info}");
    assert_eq!(info["reads_cut_short"], 3, "{info}");
    // …and says so: reads returned of reads asked, and why.
    let report = set.report();
    assert_eq!(report.stopped, crate::sampler::StopReason::TimeLimit);
    assert!(
        report
            .summary
            .starts_with("1 of 4 reads: 1 ended by the 0.2 s time limit"),
        "{}",
        report.summary
    );
    assert!(
        report.summary.contains("3 not started"),
        "{}",
        report.summary
    );
    // A caller's deadline (solve's cut rounds sharing one limit) ends it the same way, sooner
    // than its own timeout.
    let own = ParallelTempering {
        timeout_ms: Some(60_000),
        ..timed
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_millis(200);
    let control = RunControl::new()
        .with_threads(Some(1))
        .with_deadline(Some(deadline));
    let set = own.sample(&m, &control).unwrap();
    assert_eq!(set.report().stopped, crate::sampler::StopReason::TimeLimit);
    assert!(std::time::Instant::now() < deadline + std::time::Duration::from_secs(30));
    assert_eq!(set.info.params["reads_cut_short"], 3, "{}", set.info.params);
    // An unreachable target ends at num_sweeps instead.
    let control = RunControl::new().with_target_energy(Some(ground - 1.0));
    let pt = ParallelTempering {
        num_sweeps: Some(200),
        ..pt
    };
    let set = pt.sample(&m, &control).unwrap();
    assert_eq!(set.num_reads(), 3);
    assert_eq!(set.info.params["reads_at_target"], 0);
}

#[test]
fn the_integer_lanes_give_the_ladders_of_the_f32_lanes() {
    // Integer coefficients take the 16-bit lanes; the same model scaled by 2⁻¹⁰ is no
    // integer after any power the i16 kernel tries, so it takes the f32 lanes. Power-of-two
    // scaling changes no decision, so every read must agree.
    let linear = [3.0, -2.0, 1.0, -4.0, 2.0, 0.0, -1.0, 5.0];
    let couplings: Vec<(usize, usize, f64)> = (0..8)
        .flat_map(|i| (i + 1..8).map(move |j| (i, j, ((i * 7 + j * 3) % 9) as f64 - 4.0)))
        .collect();
    let scaled = |f: f64| {
        StoredModel::new(
            Qubo::new(
                linear.iter().map(|v| v * f).collect(),
                couplings.iter().map(|&(i, j, v)| (i, j, v * f)),
                0.0,
            )
            .unwrap(),
        )
    };
    let pt = ParallelTempering {
        num_reads: 3,
        num_replicas: 12,
        num_sweeps: Some(200),
        seed: Some(4),
        ..ParallelTempering::default()
    };
    let control = RunControl::new();
    let (ints, floats) = (
        pt.sample(&scaled(1.0), &control).unwrap(),
        pt.sample(&scaled(2f64.powi(-10)), &control).unwrap(),
    );
    assert_eq!(ints.info.params["kernel"], "lanes16");
    assert_eq!(floats.info.params["kernel"], "lanes");
    let samples = |s: &SampleSet| {
        let mut rows: Vec<(Vec<u8>, usize)> = s
            .rows
            .iter()
            .map(|r| (r.sample.clone(), r.num_occurrences))
            .collect();
        rows.sort();
        rows
    };
    assert_eq!(samples(&ints), samples(&floats));
}
