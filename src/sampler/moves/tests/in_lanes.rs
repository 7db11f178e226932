//! Moves in lanes (`moves::lanes`): the groups stay held in every lane, the running energies
//! are the recomputed ones, and each lane samples the Boltzmann distribution at its own β.

use super::*;

/// A model whose (row, column) cells hold one variable each (no turns), as a stored model:
/// the layout moves in lanes run on. Its coefficients are thousandths, which the i16 lanes
/// cannot hold.
fn lane_model(free: usize, seed: u64) -> (crate::qubo::StoredModel, OneHotGroups) {
    let (m, labelled) = model_with_cells(free, seed, |_, _| 1);
    let n = m.num_variables();
    let q = crate::qubo::Qubo::spell_out(&m, (n * n) as u64).unwrap();
    (crate::qubo::StoredModel::new(q), groups(n, &labelled))
}

/// `lane_model` with every coefficient rounded to a multiple of 1/4, so that the i16 lanes
/// hold it at a scale above 1 (the scale is exercised).
fn integral_lane_model(free: usize, seed: u64) -> (crate::qubo::StoredModel, OneHotGroups) {
    let (m, labelled) = model_with_cells(free, seed, |_, _| 1);
    let n = m.num_variables();
    let q = crate::qubo::Qubo::spell_out(&m, (n * n) as u64).unwrap();
    let quarter = |v: f64| (v * 4.0).round() / 4.0;
    let q = crate::qubo::Qubo::new(
        q.linear().iter().map(|&v| quarter(v)).collect(),
        q.couplings()
            .iter()
            .map(|c| (c.i as usize, c.j as usize, quarter(c.value))),
        quarter(q.offset()),
    )
    .unwrap();
    (crate::qubo::StoredModel::new(q), groups(n, &labelled))
}

/// The rows of `set` in the type asked for, which must be the type built.
fn rows_in(
    plan: &MovePlan,
    csr: &MoveCsr,
    want: lanes::LaneType,
    mask_limit: usize,
    gather_from: usize,
) -> lanes::MoveRows {
    let rows = lanes::MoveRows::with_limits(plan, csr, want, mask_limit, gather_from)
        .expect("the model fits the type");
    let kernel = match want {
        lanes::LaneType::I16 => "csr-lanes16",
        _ => "csr-lanes",
    };
    assert_eq!(rows.kernel(), kernel, "{want:?}");
    rows
}

/// Each move set with its small groups proposed by member masks (one-hot: ΔE by a vector per
/// member, and by each lane's own 1), and with per-lane gathers: (set, mask limit, gather from).
fn ways() -> [(MoveSet, usize, usize); 5] {
    [
        (MoveSet::OneHot, usize::MAX, usize::MAX),
        (MoveSet::OneHot, usize::MAX, 0),
        (MoveSet::OneHot, 0, 0),
        (MoveSet::TwoWay, usize::MAX, usize::MAX),
        (MoveSet::TwoWay, 0, 0),
    ]
}

/// Lanes from random held starts of reads 0..L.
fn lanes_of<'a, T: lanes::MoveValue>(
    plan: &'a MovePlan,
    csr: &'a MoveCsr,
    rows: &'a lanes::LaneRows<T>,
    seed: u64,
) -> lanes::LaneMoves<'a, T, { lanes::MOVE_LANES }> {
    let starts = (0..lanes::MOVE_LANES as u64)
        .map(|read| {
            let mut rng = Xoshiro128p::for_read(seed, read);
            let x = plan.random_start(&mut rng).unwrap();
            (rng, x)
        })
        .collect();
    lanes::LaneMoves::new(plan, csr, rows, starts, Xoshiro128p::for_read(seed, 999))
}

/// Runs `check` on the lanes of every way (`ways`) in f32 on `lane_model` and in i16 on
/// `integral_lane_model` (and in f32 on that one too).
fn for_each_lane_type(
    free: usize,
    seed: u64,
    mut check: impl FnMut(&crate::qubo::StoredModel, &MovePlan, &lanes::MoveRows, MoveSet),
) {
    let types = [
        (lane_model(free, seed), lanes::LaneType::F32),
        (integral_lane_model(free, seed), lanes::LaneType::I16),
        (integral_lane_model(free, seed), lanes::LaneType::F32),
    ];
    for ((m, groups), want) in types {
        let n = m.num_variables();
        let csr = MoveCsr::new(&m);
        for (set, mask_limit, gather_from) in ways() {
            let plan = MovePlan::new(Some(&groups), set, None, n).unwrap().unwrap();
            assert!(lanes::applies(&plan), "{set:?}: no turns, so lanes apply");
            let rows = rows_in(&plan, &csr, want, mask_limit, gather_from);
            check(&m, &plan, &rows, set);
        }
    }
}

#[test]
fn moves_in_lanes_keep_the_groups_and_their_energy_is_the_recomputed_one() {
    fn check<T: lanes::MoveValue>(
        m: &crate::qubo::StoredModel,
        plan: &MovePlan,
        rows: &lanes::LaneRows<T>,
        set: MoveSet,
    ) {
        let csr = MoveCsr::new(m);
        let mut lanes = lanes_of(plan, &csr, rows, 3);
        for sweep in 0..300 {
            // Hot to cold, and never resynchronised within these 300 sweeps: the running
            // energy is the sum of the accepted ΔE alone.
            lanes.sweep(0.02 * sweep as f64);
            for l in 0..lanes::MOVE_LANES {
                let x = lanes.state(l);
                assert!(
                    plan.holds(&x),
                    "{set:?} sweep {sweep} lane {l}: a group broke"
                );
                let e = m.energy(&x);
                assert!(
                    (lanes.energy(l) - e).abs() < 1e-4 * (1.0 + e.abs()),
                    "{set:?} sweep {sweep} lane {l}: running {} against {e}",
                    lanes.energy(l)
                );
            }
        }
        assert!(
            lanes.accepted > 1000,
            "{set:?}: moves were accepted ({})",
            lanes.accepted
        );
    }
    for_each_lane_type(3, 8, |m, plan, rows, set| match rows {
        lanes::MoveRows::F32(rows) => check(m, plan, rows, set),
        lanes::MoveRows::I16(rows) => check(m, plan, rows, set),
    });
}

#[test]
fn the_i16_lanes_take_the_f32_lanes_decisions() {
    // On a model both hold, the i16 lanes compare the same ΔE (integers times the scale) with
    // the same thresholds (times the scale) and so take every decision alike: the same states
    // sweep by sweep, at every temperature from β = 0 (everything accepted) to frozen.
    let (m, groups) = integral_lane_model(4, 21);
    let n = m.num_variables();
    let csr = MoveCsr::new(&m);
    for (set, mask_limit, gather_from) in ways() {
        let plan = MovePlan::new(Some(&groups), set, None, n).unwrap().unwrap();
        let rows = |want| rows_in(&plan, &csr, want, mask_limit, gather_from);
        let (lanes::MoveRows::F32(wide), lanes::MoveRows::I16(narrow)) =
            (rows(lanes::LaneType::F32), rows(lanes::LaneType::I16))
        else {
            unreachable!("rows_in checked the types");
        };
        let mut f32_lanes = lanes_of(&plan, &csr, &wide, 11);
        let mut i16_lanes = lanes_of(&plan, &csr, &narrow, 11);
        let mut moved = 0;
        for sweep in 0..400 {
            let beta = if sweep < 20 { 0.0 } else { 0.01 * sweep as f64 };
            f32_lanes.sweep(beta);
            i16_lanes.sweep(beta);
            for l in 0..lanes::MOVE_LANES {
                assert_eq!(
                    f32_lanes.state(l),
                    i16_lanes.state(l),
                    "{set:?} sweep {sweep} lane {l}"
                );
                assert_eq!(f32_lanes.energy(l), i16_lanes.energy(l), "{set:?} lane {l}");
            }
            moved += i16_lanes.accepted;
            i16_lanes.accepted = 0;
        }
        assert!(moved > 10_000, "{set:?}: {moved} moves accepted");
    }
}

#[test]
fn every_lane_samples_the_boltzmann_distribution_at_its_own_beta() {
    boltzmann_in_every_lane(lane_model(1, 3), lanes::LaneType::F32);
}

#[test]
fn every_i16_lane_samples_the_boltzmann_distribution_at_its_own_beta() {
    boltzmann_in_every_lane(integral_lane_model(1, 3), lanes::LaneType::I16);
}

fn boltzmann_in_every_lane(
    (m, groups): (crate::qubo::StoredModel, OneHotGroups),
    want: lanes::LaneType,
) {
    let n = m.num_variables();
    let csr = MoveCsr::new(&m);
    const L: usize = lanes::MOVE_LANES;
    // Two temperatures side by side, as a tempering ladder's replicas run.
    let betas = [1.5, 0.5];
    let beta_of = |l: usize| betas[l % 2];
    let inv_beta: [f32; L] = std::array::from_fn(|l| 1.0 / beta_of(l) as f32);
    for (set, mask_limit, gather_from) in ways() {
        let plan = MovePlan::new(Some(&groups), set, None, n).unwrap().unwrap();
        let rows = rows_in(&plan, &csr, want, mask_limit, gather_from);
        let states = held_states(&plan, n);
        let boltzmann = |beta: f64| -> Vec<f64> {
            let w: Vec<f64> = states.iter().map(|x| (-beta * m.energy(x)).exp()).collect();
            let z: f64 = w.iter().sum();
            w.into_iter().map(|w| w / z).collect()
        };
        let expected = [boltzmann(betas[0]), boltzmann(betas[1])];
        // Each lane on its own, so a lane whose chain is biased cannot hide among the others.
        let counts = match &rows {
            lanes::MoveRows::F32(rows) => lane_counts(lanes_of(&plan, &csr, rows, 5), &inv_beta),
            lanes::MoveRows::I16(rows) => lane_counts(lanes_of(&plan, &csr, rows, 5), &inv_beta),
        };
        let tv = |c: &HashMap<Vec<u8>, u64>, p: &[f64]| -> f64 {
            let samples: u64 = c.values().sum();
            states
                .iter()
                .zip(p)
                .map(|(x, p)| {
                    (c.get(x).copied().unwrap_or(0) as f64 / samples as f64 - p).abs() / 2.0
                })
                .sum()
        };
        let mut by_beta: [HashMap<Vec<u8>, u64>; 2] = Default::default();
        for (l, c) in counts.iter().enumerate() {
            assert_eq!(c.keys().filter(|x| !plan.holds(x)).count(), 0);
            // Loose per lane (a lane's chain is autocorrelated: single lanes measured
            // 0.014–0.059), tight over the lanes of one β.
            let distance = tv(c, &expected[l % 2]);
            assert!(
                distance < 0.1,
                "{set:?} lane {l} at β {}: total variation {distance:.4} over {} held states",
                beta_of(l),
                states.len()
            );
            for (x, k) in c {
                *by_beta[l % 2].entry(x.clone()).or_default() += k;
            }
        }
        for (k, c) in by_beta.iter().enumerate() {
            let distance = tv(c, &expected[k]);
            assert!(
                distance < 0.02,
                "{set:?} at β {}: total variation {distance:.4} over its lanes",
                betas[k]
            );
        }
        // The two temperatures differ enough for the test to tell them apart.
        assert!(tv(&by_beta[0], &expected[1]) > 0.05);
    }
}

/// How often each lane was in each state after a sweep, over 100 000 sweeps at `inv_beta`.
fn lane_counts<T: lanes::MoveValue>(
    mut lanes: lanes::LaneMoves<T, { lanes::MOVE_LANES }>,
    inv_beta: &[f32; lanes::MOVE_LANES],
) -> Vec<HashMap<Vec<u8>, u64>> {
    let mut counts: Vec<HashMap<Vec<u8>, u64>> = vec![HashMap::new(); lanes::MOVE_LANES];
    for _ in 0..100_000 {
        lanes.sweep_at(inv_beta);
        for (l, c) in counts.iter_mut().enumerate() {
            *c.entry(lanes.state(l)).or_default() += 1;
        }
    }
    counts
}
