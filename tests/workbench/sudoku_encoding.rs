//! Sudoku's encoding in particular (the kind-independent contract is `puzzle_contract.rs`): the
//! ground energy is −hint × givens for every size, presolve matches the peer harness and keeps
//! energies, a too-weak hint lets invalid grids win, and annealing solves corpus puzzles.

use qubo_workbench::outcome::ground_energy;
use qubo_workbench::puzzle::{
    AnyPuzzle, AnySolution, EncodeOptions, Puzzle, REFERENCE_NODE_BUDGET, Sudoku, load_puzzles,
    sudoku,
};
use qubo_workbench::qubo::{StoredModel, Weights};
use qubo_workbench::sampler::{RunControl, Sampler, SimulatedAnnealing};
use qubo_workbench::solve::{Problem, solve};

fn puzzles_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/sudoku")
}

/// The full-model sample that sets exactly the solution's digits.
fn sample_of(p: &Sudoku, solution: &qubo_workbench::puzzle::SudokuSolution) -> Vec<u8> {
    let side = p.side();
    let mut x = vec![0u8; side * side * side];
    for r in 0..side {
        for c in 0..side {
            let d = solution.digit(r, c).unwrap() as usize;
            x[side * side * r + side * c + d - 1] = 1;
        }
    }
    x
}

#[test]
fn known_solutions_have_the_ground_energy_for_every_size() {
    let instances = [
        std::fs::read_to_string(puzzles_dir().join("euler96_g1.txt")).unwrap(),
        std::fs::read_to_string(puzzles_dir().join("shidoku-6givens.txt")).unwrap(),
        std::fs::read_to_string(puzzles_dir().join("hexadoku-120givens.txt")).unwrap(),
    ];
    for text in instances {
        let p = Sudoku::from_line(text.trim()).unwrap();
        let reference = p.solve_classically(REFERENCE_NODE_BUDGET);
        let solution = reference.solution().unwrap().clone();
        assert!(p.check(&solution).is_empty());
        let enc = p.encode(&EncodeOptions::default()).unwrap();
        for hint in [2.0, 3.5] {
            let w = enc
                .default_weights()
                .with("hint", hint)
                .unwrap()
                .with("box", 1.5)
                .unwrap();
            let q = enc.qubo(&w).unwrap();
            let e = q.energy(&sample_of(&p, &solution)).unwrap();
            assert_eq!(e, -hint * p.num_givens() as f64, "{}", p.describe());
            let any = AnyPuzzle::Sudoku(p.clone());
            let any_ref = any.solve_classically(REFERENCE_NODE_BUDGET);
            assert_eq!(ground_energy(&enc, &w, &any_ref), Some(e));
            // The referee agrees with the report: nothing broken.
            assert!(
                enc.report(&sample_of(&p, &solution), &w, true)
                    .unwrap()
                    .is_empty()
            );
        }
    }
}

#[test]
fn at_the_default_hint_weight_a_grid_that_changes_a_given_is_no_local_minimum() {
    // A valid grid G that breaks exactly one given: the solution S with digits 1 and 2 swapped,
    // under givens that S and G share (every cell holding neither) plus one cell holding 1.
    let euler = Sudoku::from_line(
        std::fs::read_to_string(puzzles_dir().join("euler96_g1.txt"))
            .unwrap()
            .trim(),
    )
    .unwrap();
    let reference = euler.solve_classically(REFERENCE_NODE_BUDGET);
    let s = reference.solution().unwrap();
    let digit = |r: usize, c: usize| s.digit(r, c).unwrap();
    let (mut line, mut changed) = (String::new(), None);
    for r in 0..9 {
        for c in 0..9 {
            let d = digit(r, c);
            let given = d > 2 || (d == 1 && changed.is_none());
            if d == 1 && changed.is_none() {
                changed = Some((r, c));
            }
            line.push(if given { char::from(b'0' + d) } else { '.' });
        }
    }
    let p = Sudoku::from_line(&line).unwrap();
    let (r, c) = changed.unwrap();
    let enc = p.encode(&EncodeOptions::default()).unwrap();
    let mut grid = vec![0u8; 729];
    for (rr, cc) in (0..9).flat_map(|rr| (0..9).map(move |cc| (rr, cc))) {
        let swapped = match digit(rr, cc) {
            1 => 2,
            2 => 1,
            d => d,
        };
        grid[81 * rr + 9 * cc + swapped as usize - 1] = 1;
    }
    let mut given_back = grid.clone();
    given_back[81 * r + 9 * c] = 1;
    let rise = |w: &Weights| {
        let q = enc.qubo(w).unwrap();
        q.energy(&given_back).unwrap() - q.energy(&grid).unwrap()
    };
    let default = enc.default_weights();
    let rules: f64 = ["cell", "row", "col", "box"]
        .iter()
        .map(|name| default.get(name).unwrap())
        .sum();
    assert_eq!(default.get("hint"), Some(sudoku::DEFAULT_HINT_WEIGHT));
    assert!(sudoku::DEFAULT_HINT_WEIGHT > rules);
    // Turning the given's digit back on costs the four rules and earns the hint.
    assert_eq!(rise(&default), rules - sudoku::DEFAULT_HINT_WEIGHT);
    assert!(rise(&default) < 0.0, "G is no local minimum at the default");
    let harness = default
        .clone()
        .with("hint", sudoku::HARNESS_HINT_WEIGHT)
        .unwrap();
    assert!(rise(&harness) > 0.0, "at the harness's 2, G is a trap");
    // The encoder's declared condition says so exactly when G is a trap: over weights on both
    // sides of the threshold, raised rule weights included, and at the tie (rise 0: G stays).
    let trap_warned = |w: &Weights| {
        let unmet = enc.unmet_conditions(w).unwrap();
        assert!(unmet.len() <= 1, "{unmet:?}");
        unmet.first().is_some_and(|m| {
            m.to_string()
                .starts_with("hint > cell + row + col + box does not hold")
        })
    };
    for (name, value) in [
        ("hint", 2.0),
        ("hint", 4.0),
        ("hint", 4.5),
        ("row", 3.0),
        ("box", 2.5),
    ] {
        let w = default.clone().with(name, value).unwrap();
        assert_eq!(trap_warned(&w), rise(&w) >= 0.0, "{name} = {value}");
    }
    assert!(!trap_warned(&default));
    // Presolved, the givens are fixed: no hint term is left, and the condition is moot.
    let presolved = p.encode(&EncodeOptions::presolved(true)).unwrap();
    assert!(presolved.unmet_conditions(&harness).unwrap().is_empty());
}

#[test]
fn presolve_keeps_full_model_energies() {
    let p = Sudoku::from_line(
        std::fs::read_to_string(puzzles_dir().join("euler96_g1.txt"))
            .unwrap()
            .trim(),
    )
    .unwrap();
    let full = p.encode(&EncodeOptions::default()).unwrap();
    let pre = p.encode(&EncodeOptions::presolved(true)).unwrap();
    assert_eq!(
        pre.num_variables(),
        159,
        "as the peer harness's presolved model"
    );
    let w = Weights::new().with("hint", 2.5).unwrap();
    let (qf, qp) = (full.qubo(&w).unwrap(), pre.qubo(&w).unwrap());
    // Any presolved assignment, expanded with the fixed values, has the same full energy.
    let mut state = 7u64;
    for _ in 0..50 {
        let x: Vec<u8> = (0..pre.num_variables())
            .map(|_| (qubo_workbench::rng::splitmix64(&mut state) & 1) as u8)
            .collect();
        let mut expanded = vec![0u8; 729];
        for (label, value) in pre.full_assignment(&x) {
            let [r, c, d] = [label.index[0], label.index[1], label.index[2]].map(|v| v as usize);
            expanded[81 * r + 9 * c + d] = value as u8;
        }
        assert!((qp.energy(&x).unwrap() - qf.energy(&expanded).unwrap()).abs() < 1e-9);
    }
}

#[test]
fn a_too_weak_hint_makes_invalid_grids_the_ground_state() {
    // With hint = 0 every valid grid ties at energy 0, and they need not keep the givens: the
    // referee must catch such a "ground state" breaking the hints.
    let p = AnyPuzzle::Sudoku(Sudoku::from_line("1...............").unwrap());
    let enc = p.encode(&EncodeOptions::default()).unwrap();
    let w = Weights::new().with("hint", 0.0).unwrap();
    let q = StoredModel::new(enc.qubo(&w).unwrap());
    let set = SimulatedAnnealing {
        num_reads: 200,
        num_sweeps: 500,
        seed: Some(4),
        ..Default::default()
    }
    .sample(&q, &RunControl::new())
    .unwrap();
    let broken_hint = set.rows.iter().any(|row| {
        let sol = p.decode(&enc, &row.sample);
        let v = p.check(&sol);
        row.energy == 0.0 && v.iter().any(|v| v.constraint == "hint[0][0]")
    });
    assert!(broken_hint, "some ground state moves the given 1");
}

#[test]
fn annealing_solves_corpus_puzzles_presolved() {
    let all = load_puzzles(&puzzles_dir().join("easy50.txt"), None).unwrap();
    assert_eq!(all.len(), 50);
    let options = EncodeOptions::presolved(true);
    for loaded in all.iter().take(5) {
        let p = &loaded.puzzle;
        let enc = p.encode(&options).unwrap();
        let reference = p.solve_classically(REFERENCE_NODE_BUDGET);
        let w = enc.default_weights();
        let sa = SimulatedAnnealing {
            num_reads: 32,
            num_sweeps: 2000,
            seed: Some(1),
            ..Default::default()
        };
        let problem = Problem {
            puzzle: p,
            encoding: &enc,
            reference: &reference,
        };
        let out = solve(problem, &w, &sa, &RunControl::new()).unwrap();
        let best = out.best.unwrap();
        assert!(best.valid, "{}: {:?}", p.describe(), best.violations);
        // Decoding then re-checking the best grid through its text form agrees.
        let AnySolution::Sudoku(sol) = p.parse_solution(&best.solution_line).unwrap() else {
            panic!("a Sudoku solution")
        };
        assert!(p.check(&AnySolution::Sudoku(sol)).is_empty());
        assert!(out.success_fraction > 0.0 && out.ground_fraction.unwrap() > 0.0);
    }
}

#[test]
fn generated_puzzles_encode_decode_and_check() {
    for (size, givens) in [(4, 8), (9, 36)] {
        let s = sudoku::generate(size, givens, 3).unwrap();
        let p = AnyPuzzle::Sudoku(s);
        let options = EncodeOptions::presolved(true);
        let enc = p.encode(&options).unwrap();
        let reference = p.solve_classically(REFERENCE_NODE_BUDGET);
        let w = enc.default_weights();
        let sa = SimulatedAnnealing {
            num_reads: 16,
            num_sweeps: 3000,
            seed: Some(2),
            ..Default::default()
        };
        let problem = Problem {
            puzzle: &p,
            encoding: &enc,
            reference: &reference,
        };
        let out = solve(problem, &w, &sa, &RunControl::new()).unwrap();
        assert!(out.best.unwrap().valid, "{size}×{size}");
    }
}
