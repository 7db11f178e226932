//! Weights and sweeps from the command line: weight sweeps, tune, constrained models, sampler
//! parameter sweeps, campaigns.

use super::*;

#[test]
fn sweep_reports_success_per_weight_value() {
    let p = puzzle("shidoku-6givens.txt");
    let out = run(&[
        "sweep",
        p.to_str().unwrap(),
        "--weight",
        "hint",
        "--from",
        "0",
        "--to",
        "2",
        "--steps",
        "3",
        "--num-reads",
        "20",
        "--num-sweeps",
        "300",
        "--seed",
        "1",
        "--json",
    ]);
    let v = stdout_json(&out);
    assert_eq!(v["weight"], "hint");
    let pts = v["points"].as_array().unwrap();
    assert_eq!(pts.len(), 3);
    assert_eq!(pts[2]["value"], 2.0);
    assert!(
        pts[2]["success_fraction"].as_f64().unwrap() > pts[0]["success_fraction"].as_f64().unwrap()
    );
    let out = run(&[
        "sweep",
        p.to_str().unwrap(),
        "--weight",
        "nope",
        "--from",
        "0",
        "--to",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with("error: --weight nope: unknown weight"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_two_weight_sweep_has_every_point_and_metric_and_its_plots_carry_their_labels() {
    let p = puzzle("shidoku-6givens.txt");
    let dir = tempfile::tempdir().unwrap();
    let (map, line, broken, csv) = (
        dir.path().join("map.svg"),
        dir.path().join("line.png"),
        dir.path().join("broken.svg"),
        dir.path().join("points.csv"),
    );
    let sa = [
        "--sampler",
        "sa",
        "--num-reads",
        "20",
        "--num-sweeps",
        "100",
        "--seed",
        "1",
    ];
    let mut args = vec![
        "sweep",
        p.to_str().unwrap(),
        "--weight",
        "hint",
        "--from",
        "0",
        "--to",
        "2",
        "--steps",
        "3",
        "--weight2",
        "cell",
        "--from2",
        "0.5",
        "--to2",
        "1.5",
        "--steps2",
        "2",
        "--repeats",
        "2",
        "--no-early-stop",
        "--metric",
        "tts99",
        "--plot",
        map.to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
        "--json",
    ];
    args.extend(sa);
    let v = stdout_json(&run(&args));
    let pts = v["points"].as_array().unwrap();
    assert_eq!(pts.len(), 3 * 2, "steps × steps2 points");
    for p in pts {
        for key in [
            "weights",
            "success_fraction",
            "success_ci95",
            "ground_fraction",
            "tts99_s",
            "broken_per_read",
            "penalty_too_weak",
            "mean_energy",
            "reads",
        ] {
            assert!(p.get(key).is_some(), "{key} missing from {p}");
        }
        assert_eq!(p["reads"], 40, "two repeats of 20 reads");
        assert_eq!(
            (&p["runs"], &p["stop"]),
            (&serde_json::json!(2), &serde_json::json!("runs")),
            "{p}"
        );
        assert!(p["weights"]["hint"].is_number() && p["weights"]["cell"].is_number());
    }
    // hint = 0 lets the givens go: flagged at every cell weight, and not at hint = 2.
    assert!(
        pts.iter()
            .filter(|p| p["value"] == 0.0)
            .all(|p| p["penalty_too_weak"] == true)
    );
    assert!(
        pts.iter()
            .filter(|p| p["value"] == 2.0)
            .all(|p| p["penalty_too_weak"] == false)
    );
    assert_eq!(v["metric"], "tts99");
    let svg = std::fs::read_to_string(&map).unwrap();
    for label in [">hint<", ">cell<", "TTS99", "penalty too weak"] {
        assert!(svg.contains(label), "{label} missing from the heatmap");
    }
    let rows = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(rows.lines().count(), 1 + 6);
    assert!(rows.lines().next().unwrap().contains("tts99_s"));

    // One weight: the fractions plot (PNG) and the broken constraints (SVG).
    let mut args = vec![
        "sweep",
        p.to_str().unwrap(),
        "--weight",
        "hint",
        "--from",
        "0",
        "--to",
        "2",
        "--steps",
        "3",
        "--plot",
        line.to_str().unwrap(),
        "--plot-broken",
        broken.to_str().unwrap(),
    ];
    args.extend(sa);
    let out = run(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(png_size(&line).0 > 100);
    let svg = std::fs::read_to_string(&broken).unwrap();
    for label in [">hint<", "broken groups per read", ">cell<", ">row<"] {
        assert!(svg.contains(label), "{label} missing from the broken plot");
    }
    // A weight presolve emptied is refused, with the reason.
    let out = run(&[
        "sweep",
        p.to_str().unwrap(),
        "--presolve",
        "--weight",
        "hint",
        "--from",
        "0",
        "--to",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no terms"), "{}", stderr(&out));
}

#[test]
fn tune_on_a_board_its_givens_decide_says_there_is_nothing_to_tune() {
    // Every cell flagged: no variable, no weight with terms (round 4's D18 suggested weights).
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("decided.txt");
    std::fs::write(&board, "3 3 9\nFFF\nFFF\nFFF\n").unwrap();
    let out = run(&[
        "tune",
        board.to_str().unwrap(),
        "--sampler",
        "sa",
        "--budget",
        "5",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("no weight has terms in this encoding ('hint', 'mine_count'")
            && stderr(&out).contains("nothing to tune"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn tune_suggests_weights_within_its_budget_and_never_a_flagged_point() {
    let p = puzzle("shidoku-6givens.txt");
    let dir = tempfile::tempdir().unwrap();
    let plot = dir.path().join("tune.svg");
    let out = run(&[
        "tune",
        p.to_str().unwrap(),
        "--sampler",
        "sa",
        "--num-reads",
        "30",
        "--num-sweeps",
        "100",
        "--seed",
        "2",
        "--set",
        "hint=0.5",
        "--budget",
        "20",
        "--plot",
        plot.to_str().unwrap(),
        "--json",
    ]);
    let v = stdout_json(&out);
    let path = v["path"].as_array().unwrap();
    assert!(path.len() >= 3, "the search tried points");
    assert_eq!(v["accepted"].as_array().unwrap().len(), path.len());
    assert_eq!(v["best"]["penalty_too_weak"], false);
    // The suggestion beats the start (hint 0.5 leaves most reads invalid).
    let start = path[0]["success_fraction"].as_f64().unwrap();
    let best = v["best"]["success_fraction"].as_f64().unwrap();
    assert!(best > start, "{start} → {best}");
    // …by pulling the givens harder relative to some rule (hint over the smallest rule weight).
    let w = &v["weights"];
    let rules = ["cell", "row", "col", "box"].map(|n| w[n].as_f64().unwrap());
    let ratio = w["hint"].as_f64().unwrap() / rules.iter().copied().fold(f64::INFINITY, f64::min);
    assert!(ratio > 0.5, "{w}");
    assert!(v["stopped"].is_string());
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(svg.contains("best so far") && svg.contains(">point tried<"));
    let out = run(&["tune", p.to_str().unwrap(), "--budget", "NaN"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

/// A negative weight is named as the reason the ground share is missing, not "the structure"
/// (probe round 4, D14).
#[test]
fn a_negative_weight_is_why_the_ground_share_is_missing() {
    let v = run_json(&[
        "solve",
        puzzle("shidoku-6givens.txt").to_str().unwrap(),
        "--weight",
        "hint=-1",
        "--sampler",
        "sa",
        "--num-reads",
        "4",
        "--seed",
        "1",
        "--json",
    ]);
    assert!(v["ground_energy"].is_null(), "{v}");
    assert!(
        v["ground_unknown"]
            .as_str()
            .unwrap()
            .starts_with("a negative weight"),
        "{v}"
    );
    let v = run_json(&[
        "solve",
        puzzle("shidoku-6givens.txt").to_str().unwrap(),
        "--sampler",
        "sa",
        "--num-reads",
        "4",
        "--json",
    ]);
    assert!(
        v["ground_unknown"].is_null() && v["ground_energy"].is_number(),
        "{v}"
    );
}

#[test]
fn a_constrained_run_saves_is_feasible_and_is_satisfied_as_leap_hybrid_cqm_sample_sets_do() {
    // Weak weights on the toy QPLIB model, so some reads break a constraint.
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("toy.json");
    let model = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/cqm/toy.qplib");
    let o = run(&[
        "solve",
        model.to_str().unwrap(),
        "--sampler",
        "sa",
        "--num-reads",
        "50",
        "--seed",
        "1",
        "--weight",
        "weight=0.1",
        "--weight",
        "lower=0.1",
        "--save-samples",
        saved.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let set: Value = serde_json::from_str(&std::fs::read_to_string(&saved).unwrap()).unwrap();
    assert_eq!(
        set["info"]["constraint_labels"],
        serde_json::json!(["weight", "c2", "lower[c2]"])
    );
    let rows = set["num_rows"].as_u64().unwrap() as usize;
    assert_eq!(
        set["vectors"]["is_satisfied"]["shape"],
        serde_json::json!([rows, 3])
    );
    let satisfied = set["vectors"]["is_satisfied"]["data"].as_array().unwrap();
    let feasible = set["vectors"]["is_feasible"]["data"].as_array().unwrap();
    assert_eq!((satisfied.len(), feasible.len()), (rows, rows));
    // Feasible exactly where every constraint is satisfied; the weak weights let some through.
    for (s, f) in satisfied.iter().zip(feasible) {
        let all = s.as_array().unwrap().iter().all(|b| b.as_bool().unwrap());
        assert_eq!(all, f.as_bool().unwrap(), "{s} vs {f}");
    }
    assert!(feasible.iter().any(|f| f == false), "{feasible:?}");
}

#[test]
fn own_weight_gives_one_constraint_a_weight_that_flags_set_and_sweep() {
    let model = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/constrained/colouring-8.lp");
    let model = model.to_str().unwrap();
    // node_0 alone at weight 0: the reads leave node 0 uncoloured, which the referee names.
    let o = run(&[
        "solve",
        model,
        "--own-weight",
        "node_0",
        "--weight",
        "node_0=0",
        "--sampler",
        "sa",
        "--num-reads",
        "20",
        "--seed",
        "1",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let weights = v["weights"].as_object().expect("the weights used");
    assert_eq!(weights["node_0"], serde_json::json!(0.0));
    assert!(weights["node"].as_f64().unwrap() > 0.0);
    // Without the flag the name is unknown.
    let o = run(&["solve", model, "--weight", "node_0=0"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("unknown weight 'node_0'"),
        "{}",
        stderr(&o)
    );
    // It sweeps like a family's weight.
    let o = run(&[
        "sweep",
        model,
        "--own-weight",
        "node_0",
        "--weight",
        "node_0",
        "--from",
        "0",
        "--to",
        "4",
        "--steps",
        "2",
        "--num-reads",
        "10",
        "--seed",
        "1",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["weight"], "node_0");
}

#[test]
fn tune_climbs_out_of_too_weak_a_penalty_on_a_constrained_model() {
    // capacity 0.5 lets overweight knapsacks score best: every read near the start is flagged
    // "penalty too weak". The search must still move (it once stopped at its first point) and
    // suggest weights whose best point is not flagged, aiming at the objective.
    let model = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/constrained/knapsack-12.lp");
    let out = run(&[
        "tune",
        model.to_str().unwrap(),
        "--sampler",
        "sa",
        "--num-reads",
        "30",
        "--num-sweeps",
        "100",
        "--seed",
        "2",
        "--set",
        "capacity=0.5",
        "--budget",
        "20",
        "--json",
    ]);
    let v = stdout_json(&out);
    let path = v["path"].as_array().unwrap();
    assert_eq!(path[0]["penalty_too_weak"], true, "{}", path[0]);
    assert_eq!(v["best"]["penalty_too_weak"], false, "{}", v["best"]);
    assert!(v["best"]["best_feasible_objective"].as_f64().unwrap() > 0.0);
    let w = &v["weights"];
    assert!(
        w["capacity"].as_f64().unwrap() / w["objective"].as_f64().unwrap() > 0.5,
        "{w}"
    );
}

#[test]
fn weights_that_break_an_encoders_condition_are_warned_by_encode_and_solve() {
    let dir = tempfile::tempdir().unwrap();
    let p = puzzle("euler96_g1.txt");
    let model = dir.path().join("m.coo");
    let warning = "hint > cell + row + col + box does not hold (4 against 4)";
    let encode = |extra: &[&str]| {
        let mut args = vec!["encode", p.to_str().unwrap(), "-o", model.to_str().unwrap()];
        args.extend(extra);
        let out = run(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        stderr(&out)
    };
    assert!(encode(&["--weight", "hint=4"]).contains(warning));
    assert!(!encode(&[]).contains("does not hold"), "defaults meet it");
    // Presolved, no hint term is left: nothing to warn about.
    assert!(!encode(&["--presolve", "--weight", "hint=4"]).contains("does not hold"));
    // A run at such weights carries it among its warnings.
    let out = run(&[
        "solve",
        p.to_str().unwrap(),
        "--weight",
        "hint=4",
        "--sampler",
        "sa",
        "--num-reads",
        "2",
        "--num-sweeps",
        "50",
        "--json",
    ]);
    let v = stdout_json(&out);
    let warnings = v["warnings"].to_string();
    assert!(warnings.contains(warning), "{warnings}");
    // The window opens with weights too (`gui --weight`), refused before it opens as `solve`
    // refuses them: an unknown name, a value that is no finite number, a model file.
    for (args, said) in [
        (
            vec!["nope=3"],
            "unknown weight 'nope' (this model's weights: cell, row, col, box, hint)",
        ),
        (vec!["hint=inf"], "weight 'hint' is inf"),
        (vec!["hint=1", "hint=2"], "weight 'hint' is already set"),
    ] {
        let mut argv = vec!["gui", p.to_str().unwrap()];
        for a in args {
            argv.extend(["--weight", a]);
        }
        let out = run(&argv);
        assert_eq!(out.status.code(), Some(2), "{argv:?}");
        assert!(stderr(&out).contains(said), "{}", stderr(&out));
    }
    let out = run(&["gui", model.to_str().unwrap(), "--weight", "hint=3"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--weight needs a puzzle file"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn sweep_without_a_range_starts_where_the_window_does() {
    let p = puzzle("shidoku-6givens.txt");
    let values = |extra: &[&str]| -> Vec<f64> {
        let mut args = vec![
            "sweep",
            p.to_str().unwrap(),
            "--steps",
            "3",
            "--repeats",
            "1",
            "--num-reads",
            "2",
            "--json",
        ];
        args.extend(extra);
        let v = stdout_json(&run(&args));
        let points = v["points"].as_array().unwrap().iter();
        points.map(|p| p["value"].as_f64().unwrap()).collect()
    };
    // A weight: its slider minimum to twice its default (hint 6, within its slider's 10).
    let dir = tempfile::tempdir().unwrap();
    let plot = dir.path().join("hint.svg");
    let plot_arg = plot.to_str().unwrap();
    assert_eq!(
        values(&["--weight", "hint", "--num-sweeps", "50", "--plot", plot_arg]),
        [0.0, 5.0, 10.0]
    );
    // The plot marks where hint passes the rules' sum (4 at weights of 1).
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(svg.contains("cell + row + col + box"), "{svg}");
    // A count: a tenth to ten times its default, in log steps.
    assert_eq!(
        values(&["--sampler", "sa", "--sampler-param", "num_sweeps"]),
        [100.0, 1000.0, 10000.0]
    );
}
