//! Each command's main job: solve, encode, sample, check, render, generate, bench — JSON shapes,
//! files written, exit codes.

use super::*;

#[test]
fn solve_one_puzzle_to_a_valid_grid_and_a_png() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("grid.png");
    let p = puzzle("euler96_g1.txt");
    let out = run(&[
        "solve",
        p.to_str().unwrap(),
        "--presolve",
        "--seed",
        "1",
        "--json",
        "--render",
        png.to_str().unwrap(),
    ]);
    let v = stdout_json(&out);
    assert_eq!(v["kind"], "sudoku");
    assert_eq!(v["num_variables"], 159);
    // Nothing chosen: the default for a puzzle is tempering, and the output says why.
    assert_eq!(v["sampler"], "pt");
    assert!(
        v["sampler_choice"]
            .as_str()
            .unwrap()
            .contains("valid solution's energy"),
        "{}",
        v["sampler_choice"]
    );
    // 32 givens, each rewarded by the default hint weight, 6.
    assert_eq!(v["ground_energy"], -32.0 * 6.0);
    assert_eq!(v["best"]["valid"], true);
    let solution = v["best"]["solution"].as_str().unwrap();
    assert_eq!(
        solution,
        "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
    );
    assert!(v["ground_fraction"].as_f64().unwrap() > 0.2);
    assert!(v["success_fraction"].as_f64().unwrap() > 0.2);
    for key in ["num_interactions", "params", "min_energy"] {
        assert!(!v[key].is_null(), "{key}");
    }
    assert!(v["timing"]["encode_s"].is_number() && v["timing"]["sample_s"].is_number());
    assert_eq!(v["best"]["violations"], Value::Array(vec![]));
    let (w, h) = png_size(&png);
    assert_eq!(w, h);
    assert!(w > 400, "{w}");
}

#[test]
fn solve_a_file_of_puzzles_gives_a_summary() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("two.txt");
    let lines = std::fs::read_to_string(puzzle("easy50.txt")).unwrap();
    std::fs::write(
        &file,
        lines.lines().take(2).collect::<Vec<_>>().join("\r\n"),
    )
    .unwrap();
    let out = run(&[
        "solve",
        file.to_str().unwrap(),
        "--presolve",
        "--sampler",
        "sa",
        "--seed",
        "2",
        "--num-reads",
        "20",
        "--json",
    ]);
    let v = stdout_json(&out);
    assert_eq!(v["summary"]["puzzles"], 2);
    assert_eq!(v["results"].as_array().unwrap().len(), 2);
    assert_eq!(v["results"][1]["puzzle"], 2);
    assert_eq!(v["results"][0]["num_reads"], 20);
    // An invalid best still has a full-length solution string.
    let out = run(&[
        "solve",
        file.to_str().unwrap(),
        "--index",
        "2",
        "--num-sweeps",
        "5",
        "--num-reads",
        "4",
        "--json",
    ]);
    let v = stdout_json(&out);
    assert_eq!(v["puzzle"], 2);
    assert_eq!(v["best"]["solution"].as_str().unwrap().len(), 81);
    if v["best"]["valid"] == false {
        assert!(!v["best"]["violations"].as_array().unwrap().is_empty());
        assert!(v["best"]["violations"][0]["constraint"].is_string());
        assert!(v["best"]["violations"][0]["detail"].is_string());
    }
}

#[test]
fn encode_then_sample_the_file() {
    let dir = tempfile::tempdir().unwrap();
    for ext in ["coo", "qubo", "json"] {
        let model = dir.path().join(format!("m.{ext}"));
        let out = run(&[
            "encode",
            puzzle("euler96_g1.txt").to_str().unwrap(),
            "-o",
            model.to_str().unwrap(),
            "--presolve",
            "--weight",
            "hint=3",
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        let saved = dir.path().join(format!("samples-{ext}.csv"));
        let out = run(&[
            "sample",
            model.to_str().unwrap(),
            "--num-reads",
            "30",
            "--seed",
            "5",
            "--json",
            "--save-samples",
            saved.to_str().unwrap(),
        ]);
        let v = stdout_json(&out);
        assert_eq!(v["num_variables"], 159, "{ext}");
        let csv = std::fs::read_to_string(&saved).unwrap();
        // Files with labels (.qubo comments, dimod JSON) keep them; COO has none.
        let first_column = if ext == "coo" { "x0," } else { "x[0][0][" };
        assert!(
            csv.starts_with(&format!("energy,num_occurrences,{first_column}")),
            "{ext}: {}",
            &csv[..60]
        );
        assert_eq!(csv.lines().nth(1).unwrap().split(',').count(), 2 + 159);
        assert_eq!(v["energies"].as_array().unwrap().len(), 30);
        assert!(v["timing"]["ns_per_update"].as_f64().unwrap() > 0.0);
        assert!(
            v["min_energy"].as_f64().unwrap() >= -3.0 * 32.0 - 1e-9,
            "hint=3, 32 givens"
        );
    }
    // The exact sampler refuses a model that is too big, with a clear message.
    let out = run(&[
        "sample",
        dir.path().join("m.coo").to_str().unwrap(),
        "--sampler",
        "exact",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).starts_with("error: exact enumeration handles at most 30 variables"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn check_exits_by_validity() {
    let p = puzzle("euler96_g1.txt");
    let good = "483921657967345821251876493548132976729564138136798245372689514814253769695417382";
    let out = run(&["check", p.to_str().unwrap(), good]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "valid");
    let bad = format!("3{}", &good[1..]);
    let out = run(&["check", p.to_str().unwrap(), &bad, "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["valid"], false);
    let text = v["violations"].to_string();
    assert!(
        text.contains("row[0]") && text.contains("digit 3 appears 2 times"),
        "{text}"
    );
    // Measured against the reference's grid: one of the 49 open cells is off, a near miss.
    assert_eq!(
        v["reference_agreement"],
        serde_json::json!({"same": 48, "of": 49})
    );
    let out = run(&["check", p.to_str().unwrap(), &bad]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("agrees with the classical solution in 48 of 49 open cells (98 %)")
            && !text.contains("far from it"),
        "{text}"
    );
}

#[test]
fn render_and_generate_write_files() {
    let dir = tempfile::tempdir().unwrap();
    let gen_file = dir.path().join("gen.txt");
    let out = run(&[
        "generate",
        "sudoku",
        "--size",
        "9",
        "--givens",
        "28",
        "--seed",
        "5",
        "-o",
        gen_file.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let line = std::fs::read_to_string(&gen_file).unwrap();
    assert_eq!(line.trim().len(), 81);
    assert_eq!(line.trim().chars().filter(|c| *c != '.').count(), 28);
    let svg = dir.path().join("p.svg");
    let out = run(&[
        "render",
        gen_file.to_str().unwrap(),
        "-o",
        svg.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg") && text.matches("font-weight=\"bold\"").count() == 28);
    let png = dir.path().join("p.png");
    let sol = "483921657967345821251876493548132976729564138136798245372689514814253769695417382";
    let out = run(&[
        "render",
        puzzle("euler96_g1.txt").to_str().unwrap(),
        "--solution",
        sol,
        "-o",
        png.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(png_size(&png).0 > 100);
}

#[test]
fn solve_plots_the_energy_histogram() {
    let p = puzzle("shidoku-6givens.txt");
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("h.svg");
    let out = run(&[
        "solve",
        p.to_str().unwrap(),
        "--sampler",
        "sa",
        "--num-reads",
        "100",
        "--num-sweeps",
        "50",
        "--histogram",
        svg.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&svg).unwrap();
    for label in [">energy<", ">reads<", ">valid<", "Energies of 100 reads"] {
        assert!(text.contains(label), "{label} missing from the histogram");
    }
    let out = run(&["solve", p.to_str().unwrap(), "--histogram", "h.txt"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn check_without_a_solution_prints_design_facts() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(&[
        "check",
        puzzle("euler96_g1.txt").to_str().unwrap(),
        "--json",
    ]);
    let v = stdout_json(&out);
    assert_eq!(v["solutions"], "1");
    assert_eq!(v["givens"], 32);
    assert_eq!(v["conflicts"], Value::Array(vec![]));
    // The difficulty: the classical search's effort always, the QUBO path's TTS99 on request.
    assert!(v["search nodes"].as_u64().unwrap() > 0);
    assert!(v.get("qubo_difficulty").is_none());
    let v = run_json(&[
        "check",
        puzzle("shidoku-6givens.txt").to_str().unwrap(),
        "--tts",
        "--json",
    ]);
    let q = &v["qubo_difficulty"];
    assert!(q["tts99_s"].as_f64().unwrap() > 0.0, "{q}");
    assert_eq!(q["stopped_at_budget"], false);
    assert!(q["sampler"].is_string());
    // A grid with few givens has several solutions: the second one is shown.
    let open = dir.path().join("open.txt");
    std::fs::write(&open, "1...............\n").unwrap();
    let v = run_json(&["check", open.to_str().unwrap(), "--json"]);
    assert_eq!(v["solutions"], "≥ 2");
    assert_eq!(v["second_solution"].as_str().unwrap().len(), 16);
    // Conflicting givens: exit 1, the conflict named.
    let f = conflicting_file(dir.path());
    let out = run(&["check", f.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("digit 1 twice in row 1"), "{text}");
    assert!(text.contains("solutions: 0"), "{text}");
}

#[test]
fn solve_json_has_design_facts_and_tts() {
    let out = run(&[
        "solve",
        puzzle("shidoku-6givens.txt").to_str().unwrap(),
        "--sampler",
        "exact",
        "--presolve",
        "--param",
        "num_reads=4",
        "--json",
    ]);
    let v = stdout_json(&out);
    assert_eq!(v["design"]["solutions"], "1");
    assert_eq!(v["reference"], "solved");
    assert_eq!(v["num_reads"], 4);
    assert!(v["tts99_s"].is_number());
}

#[test]
fn a_failed_solve_says_how_much_of_the_classical_solution_its_best_read_has() {
    // Top95 #1, full model, a run far too short: the best read is invalid, and the report
    // measures it against the reference's grid over the 64 cells the 17 givens leave open.
    let args = |json: bool| {
        let mut a = vec![
            "solve".to_string(),
            puzzle("top95.txt").to_str().unwrap().into(),
            "--index".into(),
            "1".into(),
            "--no-presolve".into(),
            "--sampler".into(),
            "sa".into(),
            "--param".into(),
            "num_reads=2".into(),
            "--param".into(),
            "num_sweeps=3".into(),
            "--seed".into(),
            "1".into(),
        ];
        if json {
            a.push("--json".into());
        }
        a
    };
    let out = run(&args(true).iter().map(String::as_str).collect::<Vec<_>>());
    let v = stdout_json(&out);
    let best = &v["best"];
    assert_eq!(best["valid"], false);
    let a = &best["reference_agreement"];
    assert_eq!(a["of"], 64, "{a}");
    let same = a["same"].as_u64().unwrap();
    assert!(same < 64, "{a}");
    let out = run(&args(false).iter().map(String::as_str).collect::<Vec<_>>());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!(
            "agrees with the classical solution in {same} of 64 open cells"
        )),
        "{text}"
    );
}

/// `--hold cell,box` makes SA and PT hold Sudoku's boxes as permutations (Lewis's box moves)
/// instead of the default rows: after two sweeps every read still has each digit once per box,
/// the run names the pair, and a family the model lacks is refused with the ones it has.
/// (Three sweeps, so each tempering ladder tries its pairs unevenly.)
#[test]
fn hold_chooses_the_families_moves_keep() {
    let shidoku = puzzle("shidoku-6givens.txt");
    let file = shidoku.to_str().unwrap();
    for sampler in ["sa", "pt"] {
        let v = run_json(&[
            "solve",
            file,
            "--sampler",
            sampler,
            "--moves",
            "two-way",
            "--hold",
            "cell,box",
            "--num-reads",
            "8",
            "--num-sweeps",
            "3",
            "--seed",
            "3",
            "--json",
        ]);
        assert_eq!(
            v["params"]["held_groups"],
            serde_json::json!(["cell", "box"])
        );
        // Tempering's swap rates are counted per pair tried: an odd number of sweeps, and
        // ladders ending early at the target, once gave rates of 1.5.
        if sampler == "pt" {
            let rates = v["params"]["swap_acceptance"].as_array().unwrap();
            assert!(
                rates
                    .iter()
                    .all(|r| (0.0..=1.0).contains(&r.as_f64().unwrap())),
                "{rates:?}"
            );
        }
        let details = v["sampler_details"]["moves"].as_str().unwrap();
        assert!(
            details.starts_with("cell and box groups held by two-way"),
            "{details}"
        );
        let grid: Vec<u32> = v["best"]["solution"]
            .as_str()
            .unwrap()
            .chars()
            .map(|c| c.to_digit(10).unwrap())
            .collect();
        for b in 0..4 {
            let (r0, c0) = (2 * (b / 2), 2 * (b % 2));
            let mut digits: Vec<u32> = (0..4)
                .map(|k| grid[(r0 + k / 2) * 4 + c0 + k % 2])
                .collect();
            digits.sort_unstable();
            assert_eq!(digits, [1, 2, 3, 4], "{sampler}: box {b} of {grid:?}");
        }
    }
    let out = run(&[
        "solve",
        file,
        "--sampler",
        "sa",
        "--moves",
        "two-way",
        "--hold",
        "cell,blox",
    ]);
    assert!(!out.status.success());
    let e = stderr(&out);
    assert!(
        e.contains("'blox'") && e.contains("cell, row, col, box"),
        "{e}"
    );
}
