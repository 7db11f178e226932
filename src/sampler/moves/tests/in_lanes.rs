//! Moves in lanes (`moves::lanes`): the groups stay held in every lane, the running energies
//! are the recomputed ones, and each lane samples the Boltzmann distribution at its own β.

use super::*;

/// A model whose (row, column) cells hold one variable each (no turns), as a stored model:
/// the layout moves in lanes run on.
fn lane_model(free: usize, seed: u64) -> (crate::qubo::StoredModel, OneHotGroups) {
    let (m, labelled) = model_with_cells(free, seed, |_, _| 1);
    let n = m.num_variables();
    let q = crate::qubo::Qubo::spell_out(&m, (n * n) as u64).unwrap();
    (crate::qubo::StoredModel::new(q), groups(n, &labelled))
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
fn lanes_of<'a>(
    plan: &'a MovePlan,
    csr: &'a MoveCsr,
    rows: &'a lanes::LaneRows,
    seed: u64,
) -> lanes::LaneMoves<'a, { lanes::MOVE_LANES }> {
    let starts = (0..lanes::MOVE_LANES as u64)
        .map(|read| {
            let mut rng = Xoshiro128p::for_read(seed, read);
            let x = plan.random_start(&mut rng).unwrap();
            (rng, x)
        })
        .collect();
    lanes::LaneMoves::new(plan, csr, rows, starts, Xoshiro128p::for_read(seed, 999))
}

#[test]
fn moves_in_lanes_keep_the_groups_and_their_energy_is_the_recomputed_one() {
    let (m, groups) = lane_model(3, 8);
    let n = m.num_variables();
    let csr = MoveCsr::new(&m);
    for (set, mask_limit, gather_from) in ways() {
        let plan = MovePlan::new(Some(&groups), set, None, n).unwrap().unwrap();
        assert!(lanes::applies(&plan), "{set:?}: no turns, so lanes apply");
        let rows = lanes::LaneRows::with_limits(&plan, &csr, mask_limit, gather_from);
        let mut lanes = lanes_of(&plan, &csr, &rows, 3);
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
                    (lanes.energy[l] as f64 - e).abs() < 1e-4 * (1.0 + e.abs()),
                    "{set:?} sweep {sweep} lane {l}: running {} against {e}",
                    lanes.energy[l]
                );
            }
        }
        assert!(
            lanes.accepted > 1000,
            "{set:?}: moves were accepted ({})",
            lanes.accepted
        );
    }
}

#[test]
fn every_lane_samples_the_boltzmann_distribution_at_its_own_beta() {
    let (m, groups) = lane_model(1, 3);
    let n = m.num_variables();
    let csr = MoveCsr::new(&m);
    const L: usize = lanes::MOVE_LANES;
    // Two temperatures side by side, as a tempering ladder's replicas run.
    let betas = [1.5, 0.5];
    let beta_of = |l: usize| betas[l % 2];
    let inv_beta: [f32; L] = std::array::from_fn(|l| 1.0 / beta_of(l) as f32);
    for (set, mask_limit, gather_from) in ways() {
        let plan = MovePlan::new(Some(&groups), set, None, n).unwrap().unwrap();
        let rows = lanes::LaneRows::with_limits(&plan, &csr, mask_limit, gather_from);
        let states = held_states(&plan, n);
        let boltzmann = |beta: f64| -> Vec<f64> {
            let w: Vec<f64> = states.iter().map(|x| (-beta * m.energy(x)).exp()).collect();
            let z: f64 = w.iter().sum();
            w.into_iter().map(|w| w / z).collect()
        };
        let expected = [boltzmann(betas[0]), boltzmann(betas[1])];
        let mut lanes = lanes_of(&plan, &csr, &rows, 5);
        let sweeps = 100_000;
        // Each lane on its own, so a lane whose chain is biased cannot hide among the others.
        let mut counts: Vec<HashMap<Vec<u8>, u64>> = vec![HashMap::new(); L];
        for _ in 0..sweeps {
            lanes.sweep_at(&inv_beta);
            for (l, c) in counts.iter_mut().enumerate() {
                *c.entry(lanes.state(l)).or_default() += 1;
            }
        }
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
