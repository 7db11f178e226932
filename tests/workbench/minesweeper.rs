//! Minesweeper beyond the conformance suite: the QUBO's ground states are exactly the
//! configurations the numbers allow (and, with `mine_count` on, exactly the consistent ones);
//! the CLI reports probabilities three ways; bad positions name the cell; the corpus forms read
//! as they are.

use crate::common::*;
use std::collections::BTreeSet;

use qubo_workbench::puzzle::minesweeper::{Cell, Minesweeper};
use qubo_workbench::puzzle::{EncodeOptions, ParseHints, Puzzle, REFERENCE_NODE_BUDGET};
use qubo_workbench::qubo::StoredModel;
use qubo_workbench::sampler::{ExactSolver, RunControl, Sampler};

fn position(text: &str) -> Minesweeper {
    Minesweeper::parse_text(text, "test", &ParseHints::default())
        .unwrap()
        .remove(0)
        .puzzle
}

/// The frontier assignments (as sorted mine lists) of every full layout consistent with `p`;
/// with `count`, only those whose total fits the mine count.
fn consistent_frontiers(p: &Minesweeper, count: bool) -> BTreeSet<Vec<usize>> {
    let n = p.width() * p.height();
    let frontier: Vec<usize> = (0..n).filter(|&k| p.frontier_mask()[k]).collect();
    let unconstrained = p.cells().iter().filter(|&&c| c == Cell::Unopened).count() - frontier.len();
    let remaining = p.mines() - p.num_flags();
    let mut out = BTreeSet::new();
    for bits in 0u32..(1 << frontier.len()) {
        let mines: Vec<usize> = (0..frontier.len())
            .filter(|&i| bits >> i & 1 == 1)
            .map(|i| frontier[i])
            .collect();
        let ok = (0..n).all(|k| match p.cells()[k] {
            Cell::Opened(v) => {
                p.neighbours(k)
                    .iter()
                    .filter(|&&j| p.cells()[j] == Cell::Flagged || mines.contains(&j))
                    .count()
                    == v as usize
            }
            _ => true,
        });
        let fits = mines.len() <= remaining && remaining - mines.len() <= unconstrained;
        if ok && (fits || !count) {
            out.insert(mines);
        }
    }
    out
}

/// The frontier assignments of the model's ground states (energy 0), by exact enumeration.
fn ground_frontiers(p: &Minesweeper, mine_count: f64) -> BTreeSet<Vec<usize>> {
    let enc = p.encode(&EncodeOptions::default()).unwrap();
    let weights = enc
        .default_weights()
        .with("mine_count", mine_count)
        .unwrap();
    let model = StoredModel::new(enc.qubo(&weights).unwrap());
    let all = ExactSolver {
        num_reads: 1 << enc.num_variables(),
    }
    .sample(&model, &RunControl::new())
    .unwrap();
    let mut out = BTreeSet::new();
    for row in all.rows.iter().filter(|r| r.energy.abs() < 1e-9) {
        let s = p.decode(&enc, &row.sample);
        out.insert(
            (0..s.mines.len())
                .filter(|&k| s.mines[k] == Some(true))
                .collect(),
        );
    }
    assert!(all.rows[0].energy > -1e-9, "no state below 0");
    out
}

#[test]
fn ground_states_are_exactly_the_consistent_configurations() {
    let files = ["small-5x5-a.txt", "small-5x5-b.txt", "small-5x5-c.txt"];
    for f in files {
        let p = match &qubo_workbench::puzzle::load_puzzles(
            &root().join("puzzles/minesweeper").join(f),
            None,
        )
        .unwrap()[0]
            .puzzle
        {
            qubo_workbench::puzzle::AnyPuzzle::Minesweeper(p) => p.clone(),
            other => panic!("{f} read as {}", other.kind()),
        };
        // The seed's model (mine_count off): the configurations every number allows.
        assert_eq!(
            ground_frontiers(&p, 0.0),
            consistent_frontiers(&p, false),
            "{f}"
        );
        // With the total count on, exactly the consistent ones.
        assert_eq!(
            ground_frontiers(&p, 1.0),
            consistent_frontiers(&p, true),
            "{f}"
        );
    }
    // A position whose total count is binding: 2 mines, both forced onto the frontier by the
    // count, though the numbers alone would also allow one elsewhere.
    let p = position("4 2 2\n1###\n####\n");
    let with_count = consistent_frontiers(&p, true);
    let without = consistent_frontiers(&p, false);
    assert!(with_count.len() < without.len() || with_count == without);
    assert_eq!(ground_frontiers(&p, 1.0), with_count);
}

#[test]
fn solve_reports_exact_and_sampled_probabilities_and_their_difference() {
    let f = root().join("puzzles/minesweeper/small-5x5-a.txt");
    let v = stdout_json(
        &bin()
            .args([
                "solve",
                "--sampler",
                "sa",
                "--num-reads",
                "200",
                "--seed",
                "1",
                "--json",
            ])
            .arg(&f)
            .output()
            .unwrap(),
    );
    for key in ["probabilities", "sampled_probabilities"] {
        let rows = v[key].as_array().unwrap_or_else(|| panic!("{key}: {v}"));
        assert_eq!(rows.len(), 5);
        assert!(rows.iter().all(|r| r.as_array().unwrap().len() == 5));
    }
    // Opened cells are 0 in both.
    assert_eq!(v["probabilities"][2][2], 0.0);
    let err = &v["probability_error"];
    assert!(err["max"].as_f64().unwrap() >= err["mean"].as_f64().unwrap());
    // The exact ones alone, without sampling, agree with the library.
    let e = stdout_json(
        &bin()
            .args(["solve", "--method", "exact", "--json"])
            .arg(&f)
            .output()
            .unwrap(),
    );
    assert_eq!(e["probabilities"], v["probabilities"]);
    assert!(e.get("num_reads").is_none(), "no sampling: {e}");
    // `auto` picks annealing for probabilities: many independent reads, no early stop.
    let out = bin()
        .args(["solve", "--num-reads", "50", "--json"])
        .arg(&f)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["sampler"], "sa");
    assert_eq!(v["num_reads"], 50);
    assert!(
        v["sampler_choice"]
            .as_str()
            .unwrap()
            .contains("shares of reads"),
        "{v}"
    );
    // Kinds without probabilities say so.
    let sudoku = root().join("puzzles/sudoku/shidoku-6givens.txt");
    let out = bin()
        .args(["solve", "--method", "exact"])
        .arg(&sudoku)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no per-cell probabilities"));
}

#[test]
fn inconsistent_positions_name_the_cell() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "3 1 2\n#3#\n").unwrap();
    let out = bin()
        .args(["solve", "--method", "exact"])
        .arg(&bad)
        .output()
        .unwrap();
    assert_ne!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("row 1, column 2"), "{err}");
    let flags = dir.path().join("flags.txt");
    std::fs::write(&flags, "3 1 1\n*1*\n").unwrap();
    let out = bin().args(["check"]).arg(&flags).output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("2 flags, but only 1 mines"), "{text}");
}

#[test]
fn corpus_forms_read_as_they_are() {
    let dir = tempfile::tempdir().unwrap();
    // LewisGaul/minesolver's example2 form: spaced cells, the count from --mines.
    let spaced = dir.path().join("example2.txt");
    std::fs::write(
        &spaced,
        "# 2 # # #\n# # # # #\n# 3 # # #\n# 2 # 4 #\n# # # # #\n",
    )
    .unwrap();
    let out = bin()
        .args(["solve", "--method", "exact", "--json"])
        .arg(&spaced)
        .output()
        .unwrap();
    assert_ne!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--mines"));
    let v = stdout_json(
        &bin()
            .args(["solve", "--method", "exact", "--mines", "8", "--json"])
            .arg(&spaced)
            .output()
            .unwrap(),
    );
    let p00 = v["probabilities"][0][0].as_f64().unwrap();
    assert!((p00 - 0.2711).abs() < 5e-5, "{p00}");
    // ADC 2025 hex boards: full layouts, opened at their largest 0-region.
    let hex = dir.path().join("case1_board.txt");
    std::fs::write(
        &hex,
        "00 00 01 01\n00 00 02 0F\n00 00 02 0F\n00 01 02 02\n00 01 0F 01\n00 01 01 01\n",
    )
    .unwrap();
    let all = qubo_workbench::puzzle::load_puzzles(&hex, None).unwrap();
    assert_eq!(all[0].puzzle.kind().name(), "minesweeper");
    assert!(
        all[0]
            .puzzle
            .describe()
            .starts_with("4×6 Minesweeper, 3 mines"),
        "{}",
        all[0].puzzle.describe()
    );
    // The shipped ADC 2026 record.
    let adc = root().join("puzzles/minesweeper/adc2026-board_8x14_27_1.txt");
    let all = qubo_workbench::puzzle::load_puzzles(&adc, None).unwrap();
    assert!(
        all[0]
            .puzzle
            .describe()
            .starts_with("8×14 Minesweeper, 27 mines")
    );
    let facts = all[0].puzzle.design_facts(REFERENCE_NODE_BUDGET);
    assert!(facts.conflicts.is_empty());
    assert!(facts.probabilities.is_some());
}

#[test]
fn render_draws_the_exact_probabilities_with_their_legend() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("board.svg");
    let f = root().join("puzzles/minesweeper/adc2026-board_8x14_27_1.txt");
    let run = bin()
        .args(["render"])
        .arg(&f)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let svg = std::fs::read_to_string(&out).unwrap();
    assert!(svg.contains("100 %"), "the legend");
    // The unconstrained cells' 27 % is written in them, with the sign: a probability is never
    // a bare number that reads like an opened cell's.
    assert!(svg.matches(">27%<").count() > 10, "{}", svg.len());
    assert_eq!(svg.matches(">27<").count(), 0);
}

/// Logic only, written here apart from the generator's solver: open every unopened cell whose
/// exact mine probability is 0, flag every one whose probability is 1, and repeat; true when
/// every safe cell ends open. A deduction that hits a mine fails the test.
fn clears_by_logic_alone(start: &Minesweeper) -> bool {
    use qubo_workbench::puzzle::minesweeper::{GameState, exact_probabilities};
    let mut p = start.clone();
    let (w, h) = (p.width(), p.height());
    loop {
        match p.game_state() {
            GameState::Won => return true,
            GameState::Lost(k) => panic!("a certain deduction opened the mine at {k}"),
            GameState::Playing => {}
        }
        let probabilities = exact_probabilities(&p, 20_000_000).unwrap();
        let mut moved = false;
        for r in 0..h {
            for c in 0..w {
                if p.cell(r, c) != Cell::Unopened {
                    continue;
                }
                let q = probabilities.at(r, c);
                if q == 0.0 {
                    p.open(r, c);
                    moved = true;
                } else if q == 1.0 {
                    p.toggle_flag(r, c);
                    moved = true;
                }
            }
        }
        if !moved {
            return false;
        }
    }
}

#[test]
fn no_guess_boards_clear_by_logic_alone_at_every_size() {
    use qubo_workbench::params::ParamValues;
    use qubo_workbench::puzzle::Kind;
    for (width, height, mines) in [(9, 9, 10), (16, 16, 40), (30, 16, 99)] {
        for seed in 1..=3u64 {
            let params: ParamValues = [
                ("width".to_string(), serde_json::json!(width)),
                ("height".to_string(), serde_json::json!(height)),
                ("mines".to_string(), serde_json::json!(mines)),
                ("seed".to_string(), serde_json::json!(seed)),
                ("no_guess".to_string(), serde_json::json!(true)),
            ]
            .into_iter()
            .collect();
            let made = Kind::Minesweeper.generate(&params).unwrap();
            let qubo_workbench::puzzle::AnyPuzzle::Minesweeper(p) = made else {
                panic!("a Minesweeper board")
            };
            assert_eq!(p.mines(), mines);
            assert!(p.num_opened() > 0, "the file ships with its opening");
            assert!(
                clears_by_logic_alone(&p),
                "{width}×{height} seed {seed} needs a guess:\n{}",
                p.rows().join("\n")
            );
        }
    }
    // And the plain generator does deal boards that need a guess (so the check can fail).
    let guessing = (1..=6u64)
        .filter(|&seed| {
            let p = qubo_workbench::puzzle::minesweeper::generate(30, 16, 99, seed).unwrap();
            !clears_by_logic_alone(&p)
        })
        .count();
    assert!(guessing > 0, "every plain expert deal cleared by logic");
}
