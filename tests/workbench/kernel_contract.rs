//! The contract of SA's kernels that take only some models, on models they take: multi-spin
//! coding (±J glasses) and byte lanes (small integer models). The registry-wide contract
//! (`sampler_contract`) runs every other kernel on any model.

use std::sync::Arc;

use qubo_workbench::qubo::{Qubo, StoredModel};
use qubo_workbench::sampler::{ExactSolver, RunControl, Sampler, SimulatedAnnealing};

#[test]
fn multispin_keeps_the_contract_on_pm_j_glasses() {
    // A 4×4×4 periodic ±J glass for counts and threads, and a 2×2×4 one (16 spins) whose
    // ground state the exact solver gives.
    let glass = StoredModel::new(qubo_workbench::bench::spin_glass_3d(4, 7));
    let sa = |reads, seed| SimulatedAnnealing {
        num_reads: reads,
        num_sweeps: 300,
        seed: Some(seed),
        kernel: qubo_workbench::sampler::annealing::Kernel::Multispin,
        ..Default::default()
    };
    for reads in [1, 7, 33, 100, 300] {
        let one = sa(reads, 3)
            .sample(&glass, &RunControl::new().with_threads(Some(1)))
            .unwrap();
        assert_eq!(one.num_reads(), reads);
        assert_eq!(one.info.params["kernel"], "multispin");
        for row in &one.rows {
            assert_eq!(row.energy, glass.qubo.energy(&row.sample).unwrap());
        }
        let two = sa(reads, 3)
            .sample(&glass, &RunControl::new().with_threads(Some(2)))
            .unwrap();
        assert_eq!(one.rows, two.rows, "{reads} reads");
    }
    // Progress rises to the total, and the best energy reported is a read's true energy.
    let last = Arc::new(std::sync::Mutex::new(None));
    let keep = last.clone();
    let control = RunControl::new()
        .with_threads(Some(1))
        .with_observer(25, move |p| *keep.lock().unwrap() = Some(*p));
    let set = sa(150, 2).sample(&glass, &control).unwrap();
    let p = last.lock().unwrap().expect("the observer was called");
    assert_eq!(p.sweeps_done, p.sweeps_total);
    assert_eq!(p.sweeps_total, 150 * 300);
    assert_eq!(p.best_energy, Some(set.rows[0].energy), "{p:?}");
    for seed in 0..4 {
        let small = StoredModel::new(small_glass(seed));
        let ground = ExactSolver { num_reads: 1 }
            .sample(&small, &RunControl::new())
            .unwrap()
            .rows[0]
            .energy;
        let found = sa(20, seed).sample(&small, &RunControl::new()).unwrap();
        assert!(
            (found.rows[0].energy - ground).abs() < 1e-9,
            "seed {seed}: found {}, ground {ground}",
            found.rows[0].energy
        );
    }
}

#[test]
fn byte_lanes_keep_the_contract_on_small_integer_models() {
    use qubo_workbench::sampler::annealing::Kernel;
    // The full Euler96 Sudoku model (fields within ±70) for counts, threads and progress,
    // and small integer models whose ground state the exact solver gives.
    let sudoku = StoredModel::new(
        qubo_workbench::bench::builtin_instances(true, |name| !name.contains("presolved"))
            .unwrap()
            .into_iter()
            .find(|i| i.name.starts_with("sudoku"))
            .expect("the built-in full Sudoku")
            .model
            .qubo,
    );
    let sa = |reads, seed, kernel| SimulatedAnnealing {
        num_reads: reads,
        num_sweeps: 300,
        seed: Some(seed),
        kernel,
        ..Default::default()
    };
    for reads in [1, 7, 33, 100, 300] {
        let one = sa(reads, 3, Kernel::Lanes8)
            .sample(&sudoku, &RunControl::new().with_threads(Some(1)))
            .unwrap();
        assert_eq!(one.num_reads(), reads);
        assert_eq!(one.info.params["kernel"], "lanes8");
        for row in &one.rows {
            assert_eq!(row.energy, sudoku.qubo.energy(&row.sample).unwrap());
        }
        let two = sa(reads, 3, Kernel::Lanes8)
            .sample(&sudoku, &RunControl::new().with_threads(Some(2)))
            .unwrap();
        assert_eq!(one.rows, two.rows, "{reads} reads");
        // Auto takes the byte lanes past 16 reads.
        let auto = sa(reads, 3, Kernel::Auto)
            .sample(&sudoku, &RunControl::new())
            .unwrap();
        let expected = match reads {
            1 => "scalar",
            2..=16 => "lanes16",
            _ => "lanes8",
        };
        assert_eq!(auto.info.params["kernel"], expected, "{reads} reads");
    }
    // Progress rises to the total, and the best energy reported is a read's true energy.
    let last = Arc::new(std::sync::Mutex::new(None));
    let keep = last.clone();
    let control = RunControl::new()
        .with_threads(Some(1))
        .with_observer(25, move |p| *keep.lock().unwrap() = Some(*p));
    let set = sa(150, 2, Kernel::Lanes8)
        .sample(&sudoku, &control)
        .unwrap();
    let p = last.lock().unwrap().expect("the observer was called");
    assert_eq!(p.sweeps_done, p.sweeps_total);
    assert_eq!(p.sweeps_total, 150 * 300);
    assert_eq!(p.best_energy, Some(set.rows[0].energy), "{p:?}");
    // A cancel among the reads ends the run with true counts and energies.
    let control = RunControl::new().with_threads(Some(2));
    let watcher = control.clone();
    let canceller = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(300));
        watcher.cancel();
    });
    let long = SimulatedAnnealing {
        num_sweeps: 10_000_000,
        ..sa(200, 4, Kernel::Lanes8)
    };
    let set = long.sample(&sudoku, &control).unwrap();
    canceller.join().unwrap();
    assert!(set.info.cancelled);
    assert!(set.num_reads() < 200);
    for row in &set.rows {
        assert_eq!(row.energy, sudoku.qubo.energy(&row.sample).unwrap());
    }
    // Given starting states are where the reads start: the 20 reads started at the solution
    // stay there when cold, the 20 started at all zeros do not get there.
    let ground = sudoku.qubo.energy(&set_solution(&sudoku)).unwrap();
    let starts: Vec<Vec<u8>> = (0..40)
        .map(|k| {
            if k % 2 == 0 {
                set_solution(&sudoku)
            } else {
                vec![0; 729]
            }
        })
        .collect();
    let started = SimulatedAnnealing {
        beta_range: Some([50.0, 50.0]),
        initial_states: Some(starts),
        ..sa(40, 6, Kernel::Lanes8)
    }
    .sample(&sudoku, &RunControl::new())
    .unwrap();
    let at_ground: usize = started
        .rows
        .iter()
        .filter(|r| r.energy == ground)
        .map(|r| r.num_occurrences)
        .sum();
    // (A greedy descent from all zeros finding the one solution is not a real possibility.)
    assert!(
        (20..40).contains(&at_ground),
        "{at_ground} reads at the ground state"
    );
    for seed in 0..4 {
        // 16 variables, integer fields and couplings in −4…4.
        let mut state = seed;
        let mut draw = || (qubo_workbench::rng::splitmix64(&mut state) % 9) as f64 - 4.0;
        let linear: Vec<f64> = (0..16).map(|_| draw()).collect();
        let couplings: Vec<(usize, usize, f64)> = (0..16)
            .flat_map(|i| [(i, (i + 1) % 16), (i, (i + 5) % 16)])
            .filter(|(i, j)| i < j)
            .map(|(i, j)| (i, j, draw()))
            .collect();
        let small = StoredModel::new(Qubo::new(linear, couplings, 0.0).unwrap());
        let ground = ExactSolver { num_reads: 1 }
            .sample(&small, &RunControl::new())
            .unwrap()
            .rows[0]
            .energy;
        let found = sa(20, seed, Kernel::Lanes8)
            .sample(&small, &RunControl::new())
            .unwrap();
        assert!(
            (found.rows[0].energy - ground).abs() < 1e-9,
            "seed {seed}: found {}, ground {ground}",
            found.rows[0].energy
        );
    }
}

/// The built-in full Sudoku's solution as a state of its model (x[r][c][d] = 1 where cell
/// (r, c) holds d).
fn set_solution(sudoku: &StoredModel) -> Vec<u8> {
    let solution =
        "483921657967345821251876493548132976729564138136798245372689514814253769695417382";
    assert_eq!(sudoku.qubo.num_variables(), 729);
    let mut x = vec![0u8; 729];
    for (cell, ch) in solution.chars().enumerate() {
        let d = ch.to_digit(10).unwrap() as usize - 1;
        x[cell * 9 + d] = 1;
    }
    x
}

/// A ±1 glass on a 2×2×4 lattice, periodic along the long side (16 spins, degree 3–4).
fn small_glass(seed: u64) -> Qubo {
    use qubo_workbench::qubo::{Coupling, Ising};
    let idx = |x: usize, y: usize, z: usize| (x * 2 + y) * 4 + z;
    let mut state = seed;
    let mut j = Vec::new();
    for x in 0..2 {
        for y in 0..2 {
            for z in 0..4 {
                let i = idx(x, y, z);
                let mut neighbours = vec![idx(x, y, (z + 1) % 4)];
                if x == 0 {
                    neighbours.push(idx(1, y, z));
                }
                if y == 0 {
                    neighbours.push(idx(x, 1, z));
                }
                for k in neighbours {
                    let value = if qubo_workbench::rng::splitmix64(&mut state) & 1 == 0 {
                        1.0
                    } else {
                        -1.0
                    };
                    j.push(Coupling {
                        i: i.min(k) as u32,
                        j: i.max(k) as u32,
                        value,
                    });
                }
            }
        }
    }
    j.sort_by_key(|c| (c.i, c.j));
    Qubo::from_ising(&Ising {
        h: vec![0.0; 16],
        j,
        offset: 0.0,
    })
    .unwrap()
}
