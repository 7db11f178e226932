//! Numberlink beyond the conformance suite: both formulations' ground states on small
//! instances, presolve keeping every answer, cycle cuts and loop repair, the referee on loops
//! and crossings, the ADC 2018 answers, and the CLI's JSON contract.

use crate::common::*;
use std::path::PathBuf;

use qubo_workbench::puzzle::numberlink::check::cycles;
use qubo_workbench::puzzle::numberlink::{Numberlink, NumberlinkSolution, generate};
use qubo_workbench::puzzle::{EncodeOptions, ParseHints, Puzzle, REFERENCE_NODE_BUDGET};
use qubo_workbench::qubo::{Model, StoredModel};
use qubo_workbench::sampler::{ExactSolver, RunControl, Sampler, SimulatedAnnealing};

fn adc(name: &str) -> PathBuf {
    root().join("puzzles/numberlink/adc2018").join(name)
}

fn instance(text: &str) -> Numberlink {
    Numberlink::parse_text(text, "test", &ParseHints::default())
        .unwrap()
        .remove(0)
        .puzzle
}

fn options(formulation: &str, presolve: bool) -> EncodeOptions {
    EncodeOptions {
        presolve,
        formulation: Some(formulation.into()),
        ..Default::default()
    }
}

/// Every exact ground state of `p`'s model under `options`, decoded.
fn ground_states(p: &Numberlink, options: &EncodeOptions) -> (f64, Vec<NumberlinkSolution>) {
    let enc = p.encode(options).unwrap();
    assert!(
        enc.num_variables() <= 26,
        "{} variables",
        enc.num_variables()
    );
    let weights = enc.default_weights();
    let model = StoredModel::new(enc.qubo(&weights).unwrap());
    let set = ExactSolver { num_reads: 4096 }
        .sample(&model, &RunControl::new())
        .unwrap();
    let ground = set.rows[0].energy;
    let states = set
        .rows
        .iter()
        .filter(|r| (r.energy - ground).abs() < 1e-9)
        .map(|r| p.decode(&enc, &r.sample))
        .collect();
    assert!(
        (ground - enc.satisfied_energy(&weights).unwrap()).abs() < 1e-9,
        "the ground energy is every group at its minimum"
    );
    (ground, states)
}

#[test]
fn both_formulations_reach_the_answers_of_small_instances() {
    // Two pairs on 3×2 and 4×2 grids (one answer each), and one pair under no-fill (several).
    for text in [
        "3 2\nA.A\nB.B\n",
        "rule no-fill\n3 2\nA.A\n...\n",
        "4 2\nA..A\nB..B\n",
    ] {
        let p = instance(text);
        let classical = p.solve_classically(REFERENCE_NODE_BUDGET);
        let known = classical.solution().expect("solvable");
        for f in ["cells", "seed"] {
            let (_, states) = ground_states(&p, &options(f, false));
            assert!(!states.is_empty());
            for s in &states {
                assert!(p.check(s).is_empty(), "{f} on {text:?}: {:?}", p.check(s));
            }
            // The classical answer is one of them.
            let enc = p.encode(&options(f, false)).unwrap();
            let w = enc.default_weights();
            let sample = p.solution_sample(&enc, known).unwrap();
            let e = enc.qubo(&w).unwrap().energy(&sample).unwrap();
            assert!((e - enc.satisfied_energy(&w).unwrap()).abs() < 1e-9, "{f}");
        }
    }
}

#[test]
fn presolve_keeps_every_answer_and_shrinks_the_model() {
    for seed in 1..=3 {
        let p = generate::generate(5, 5, 4, seed).unwrap();
        let full = p.encode(&EncodeOptions::default()).unwrap();
        let pre = p.encode(&EncodeOptions::presolved(true)).unwrap();
        assert!(pre.num_variables() < full.num_variables());
        let known = p.solve_classically(REFERENCE_NODE_BUDGET);
        let known = known.solution().unwrap();
        let w = pre.default_weights();
        let sample = p.solution_sample(&pre, known).unwrap();
        let model = StoredModel::new(pre.qubo(&w).unwrap());
        assert!((model.energy(&sample) - pre.satisfied_energy(&w).unwrap()).abs() < 1e-9);
        assert_eq!(&p.decode(&pre, &sample), known);
    }
    // A dead end fixes nothing (the deductions would contradict each other).
    let cross = instance("3 3\n.A.\nB.B\n.A.\n");
    let a = cross.encode(&EncodeOptions::presolved(true)).unwrap();
    let b = cross.encode(&EncodeOptions::default()).unwrap();
    assert_eq!(a.num_variables(), b.num_variables());
}

/// A 4×4 no-fill instance whose candidate has a loop in B's layer through the middle rows.
fn loopy() -> (Numberlink, NumberlinkSolution) {
    let p = instance("rule no-fill\n4 4\nA..A\n....\n....\nB..B\n");
    let mut s = NumberlinkSolution::empty(16);
    for (x, y) in [(0, 1), (1, 2), (2, 3)] {
        s.set(&p, x, y, 1);
    }
    for (x, y) in [(12, 13), (13, 14), (14, 15)] {
        s.set(&p, x, y, 2);
    }
    for (x, y) in [
        (4, 5),
        (5, 6),
        (6, 7),
        (7, 11),
        (11, 10),
        (10, 9),
        (9, 8),
        (8, 4),
    ] {
        s.set(&p, x, y, 2);
    }
    (p, s)
}

#[test]
fn the_referee_rejects_loops_crossings_and_touching() {
    let (p, s) = loopy();
    let v = p.check(&s);
    assert!(v.iter().any(|v| v.detail.contains("off its path")), "{v:?}");
    assert_eq!(cycles(&p, &s).len(), 1);
    // Two paths through one cell.
    let p = instance("3 3\n.A.\nB.B\n.A.\n");
    let mut s = NumberlinkSolution::empty(9);
    s.set(&p, 1, 4, 1);
    s.set(&p, 4, 7, 1);
    s.set(&p, 3, 4, 2);
    s.set(&p, 4, 5, 2);
    let v = p.check(&s);
    assert!(v.iter().any(|v| v.detail.contains("meet")), "{v:?}");
    // Under the fill rule a path may not run alongside itself; under no-fill it may.
    let u = "4 2\nA..A\n....\n";
    let fill = instance(u);
    // A detour through every cell: 0 and 1 (and 2 and 3) sit side by side, not joined.
    let mut s = NumberlinkSolution::empty(8);
    for (x, y) in [(0, 4), (4, 5), (5, 1), (1, 2), (2, 6), (6, 7), (7, 3)] {
        s.set(&fill, x, y, 1);
    }
    let v = fill.check(&s);
    assert!(
        v.iter().all(|v| v.detail.contains("alongside")) && !v.is_empty(),
        "{v:?}"
    );
    let no_fill = instance(&format!("rule no-fill\n{u}"));
    assert!(no_fill.check(&s).is_empty());
}

#[test]
fn a_cycle_cut_prices_the_loop_and_spares_the_answer() {
    let (p, loopy) = loopy();
    let cuts = p.cuts(&loopy);
    assert_eq!(cuts.len(), 1);
    assert_eq!(cuts[0].len(), 8, "the ring's eight edges");
    for f in ["cells", "seed"] {
        let plain = p.encode(&options(f, false)).unwrap();
        let cut = p
            .encode(&EncodeOptions {
                cuts: cuts.clone(),
                ..options(f, false)
            })
            .unwrap();
        assert!(cut.weight_names().contains(&"cut"));
        let w = cut.default_weights();
        let q = cut.qubo(&w).unwrap();
        let ground = cut.satisfied_energy(&w).unwrap();
        // Without the cut the loop costs nothing beyond what the plain model charges.
        let plain_e = plain
            .qubo(&plain.default_weights())
            .unwrap()
            .energy(&p.solution_sample(&plain, &loopy).unwrap())
            .unwrap();
        let cut_e = q.energy(&p.solution_sample(&cut, &loopy).unwrap()).unwrap();
        assert!(cut_e >= plain_e + 1.0 - 1e-9, "{f}: {plain_e} → {cut_e}");
        // A valid answer keeps the ground energy.
        let known = p.solve_classically(REFERENCE_NODE_BUDGET);
        let sample = p.solution_sample(&cut, known.solution().unwrap()).unwrap();
        assert!((q.energy(&sample).unwrap() - ground).abs() < 1e-9, "{f}");
    }
    // The repair step removes the loop (no-fill: its cells may stay empty).
    let fixed = p.repair(&loopy).unwrap();
    assert!(p.check(&fixed.solution).is_empty());
    assert!(fixed.how.contains("cycle"), "{}", fixed.how);
}

#[test]
fn the_adc_2018_answers_check_valid() {
    for (q, a) in [("Q2.txt", "A2.txt"), ("Q12.txt", "A12.txt")] {
        let out = bin()
            .args(["check"])
            .arg(adc(q))
            .arg(adc(a))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{q}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // One cell moved to another line: the referee objects.
    let text = std::fs::read_to_string(adc("A12.txt")).unwrap();
    let broken = text.replacen("01,12,19", "01,19,19", 1);
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("A12-broken.txt");
    std::fs::write(&f, broken).unwrap();
    let out = bin()
        .args(["check"])
        .arg(adc("Q12.txt"))
        .arg(&f)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn the_sat_reference_decides_adc_2018_q12_in_the_design_facts() {
    // Under no-fill the path search gave up at its budget; the SAT reference finds an answer
    // and a second one (paths may detour through empty cells), so the count is decided.
    let out = bin().args(["check"]).arg(adc("Q12.txt")).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("solutions: ≥ 2"), "{text}");
    assert!(text.contains("SAT 15921 variables"), "{text}");
}

#[test]
fn solve_json_gives_the_grid_of_numbers_and_rounds() {
    let v = stdout_json(
        &bin()
            .args(["solve", "--sampler", "exact", "--json"])
            .arg(root().join("puzzles/numberlink/tiny-3x2.txt"))
            .output()
            .unwrap(),
    );
    assert_eq!(v["best"]["valid"], true);
    assert_eq!(
        v["best"]["solution"],
        serde_json::json!([[1, 1, 1], [2, 2, 2]])
    );
    assert_eq!(v["rounds"], 1);
    // A formulation the kind does not have is refused by name.
    let out = bin()
        .args(["solve", "--formulation", "bogus"])
        .arg(root().join("puzzles/numberlink/tiny-3x2.txt"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("cells, seed"),
        "{err}"
    );
}

#[test]
fn numberlink_presolves_by_default_and_no_presolve_keeps_the_full_model() {
    let file = root().join("puzzles/numberlink/generated/7x7-6pairs-seed1.txt");
    let variables = |flags: &[&str]| {
        let v = stdout_json(
            &bin()
                .args(["solve", "--json", "--seed", "1", "--sampler", "sa"])
                .args(flags)
                .arg(&file)
                .output()
                .unwrap(),
        );
        v["num_variables"].as_u64().unwrap()
    };
    let default = variables(&[]);
    assert_eq!(default, variables(&["--presolve"]));
    let full = variables(&["--no-presolve"]);
    assert!(default < full / 4, "{default} of {full}");
    // The presolved model is empty, auto enumerates it, and a flag meant for annealing is
    // reported as ignored rather than refused; naming the sampler makes it an error again.
    let v = stdout_json(
        &bin()
            .args(["solve", "--json", "--timeout-ms", "2000"])
            .arg(&file)
            .output()
            .unwrap(),
    );
    assert_eq!(v["sampler"], "exact");
    let why = v["sampler_choice"].as_str().unwrap();
    assert!(why.contains("--timeout-ms 2000 ignored"), "{why}");
    let out = bin()
        .args(["solve", "--sampler", "exact", "--timeout-ms", "2000"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(!out.status.success());
    // Both at once is a usage error.
    let out = bin()
        .args(["solve", "--presolve", "--no-presolve"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(!out.status.success());
}

#[test]
fn generate_writes_an_instance_the_solver_finds_unique() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("g.txt");
    let out = bin()
        .args(["generate", "numberlink", "--width", "6", "--height", "5"])
        .args(["--pairs", "4", "--seed", "3", "-o"])
        .arg(&f)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = bin().args(["check"]).arg(&f).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("1 solution") && text.contains("pairs 4"),
        "{text}"
    );
}

#[test]
fn a_model_sampled_through_its_structure_finds_the_answer_the_stored_one_has() {
    // The 7×7 generated board, presolved (squares with fixed terms folded into their targets),
    // under both rules: its structure (what a board too large to store is sampled through)
    // prices every state as the stored QUBO does, and annealing on it finds the answer.
    let text =
        std::fs::read_to_string(root().join("puzzles/numberlink/generated/7x7-6pairs-seed1.txt"))
            .unwrap();
    for rule in ["", "rule no-fill\n"] {
        let p = instance(&format!("{rule}{text}"));
        let enc = p.encode(&options("cells", true)).unwrap();
        let weights = enc.default_weights();
        let stored = StoredModel::new(enc.qubo(&weights).unwrap());
        let model = StoredModel::structure_only(enc.structure(&weights).unwrap());
        assert!(!model.is_stored());
        let set = SimulatedAnnealing {
            num_reads: 32,
            num_sweeps: 3000,
            seed: Some(3),
            ..Default::default()
        }
        .sample(&model, &RunControl::new())
        .unwrap();
        assert_eq!(set.info.params["kernel"], "grouped", "{rule}");
        for row in &set.rows {
            assert!((stored.energy(&row.sample) - row.energy).abs() < 1e-9);
        }
        let best = p.decode(&enc, &set.rows[0].sample);
        assert!(p.check(&best).is_empty(), "{rule}: {:?}", p.check(&best));
        assert_eq!(set.rows[0].energy, enc.satisfied_energy(&weights).unwrap());
    }
}

#[test]
fn the_largest_adc_board_runs_through_its_structure_within_a_2_gb_budget() {
    // Q12 (40×40, 219 pairs): its design facts come without building a model; its model
    // (5.6·10⁵ variables, 2.6·10⁷ couplings) is too large to store and is annealed through
    // its structure within 2 GB; a budget it cannot fit is refused before anything is built.
    let q12 = adc("Q12.txt");
    let v = stdout_json(&bin().args(["check", "--json"]).arg(&q12).output().unwrap());
    assert_eq!(v["conflicts"].as_array().map(Vec::len), Some(0), "{v}");
    let out = bin()
        .env("QUBO_WORKBENCH_MEMORY_MB", "2048")
        .args([
            "solve",
            "--sampler",
            "sa",
            "--num-reads",
            "1",
            "--num-sweeps",
            "2",
        ])
        .args(["--cut-rounds", "1", "--seed", "1", "--json"])
        .arg(&q12)
        .output()
        .unwrap();
    let v = stdout_json(&out);
    assert_eq!(v["params"]["kernel"], "grouped", "{v}");
    assert!(
        v["num_variables"].as_u64().unwrap() > 500_000,
        "{}",
        v["num_variables"]
    );
    assert!(
        v["num_interactions"].as_u64().unwrap() > 20_000_000,
        "{}",
        v["num_interactions"]
    );
    assert!(
        v["min_energy"].as_f64().unwrap() > 0.0,
        "two sweeps solve nothing"
    );
    let out = bin()
        .env("QUBO_WORKBENCH_MEMORY_MB", "300")
        .args(["solve", "--sampler", "sa"])
        .arg(&q12)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("40×40 grid with 219 pairs") && err.contains("more than the memory budget"),
        "{err}"
    );
}

#[test]
fn parallel_prices_the_four_cell_loop_that_the_other_groups_leave_free() {
    use qubo_workbench::qubo::Label;
    let p = instance(
        &std::fs::read_to_string(root().join("puzzles/numberlink/generated/7x7-6pairs-seed1.txt"))
            .unwrap(),
    );
    let enc = p.encode(&options("cells", false)).unwrap();
    let w = enc.default_weights();
    // A loop of layer 1 round the block at the top-left corner (no endpoint there), nothing else on.
    let mut sample = vec![0u8; enc.num_variables()];
    let mut on = |name: &str, r: u32, c: u32| {
        let i = enc
            .labels()
            .iter()
            .position(|l| *l == Label::new(name, &[r, c, 1]))
            .unwrap_or_else(|| panic!("{name}[{r}][{c}] in layer 1"));
        sample[i] = 1;
    };
    for (r, c) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
        on("x", r, c);
    }
    on("h", 0, 0);
    on("h", 1, 0);
    on("v", 0, 0);
    on("v", 0, 1);
    let report = enc.report(&sample, &w, false).unwrap();
    let loop_cells = ["[0][0]", "[0][1]", "[1][0]", "[1][1]"];
    // Every cell, path and touch group about the loop's cells holds: only `parallel` sees it.
    let about_loop: Vec<_> = report
        .iter()
        .filter(|g| {
            (g.constraint.starts_with("cell") || g.constraint.starts_with("path"))
                && loop_cells.iter().any(|c| g.constraint.contains(c))
                || g.constraint.starts_with("touch[0][0]")
        })
        .collect();
    assert!(about_loop.len() >= 8, "{about_loop:?}");
    assert!(about_loop.iter().all(|g| g.holds), "{about_loop:?}");
    let parallel: Vec<_> = report
        .iter()
        .filter(|g| g.constraint.starts_with("parallel") && !g.holds)
        .collect();
    assert_eq!(parallel.len(), 1, "{parallel:?}");
    assert_eq!(
        parallel[0].constraint,
        format!("parallel[0][0]#{}", p.name(1))
    );
    assert!(
        (parallel[0].energy - 2.0).abs() < 1e-9,
        "both pairs of edges"
    );
    // The answer pays nothing for it: its energy is still the ground energy.
    let known = p.solve_classically(REFERENCE_NODE_BUDGET);
    let answer = p.solution_sample(&enc, known.solution().unwrap()).unwrap();
    let q = enc.qubo(&w).unwrap();
    assert!((q.energy(&answer).unwrap() - enc.satisfied_energy(&w).unwrap()).abs() < 1e-9);
}
