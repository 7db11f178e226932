//! The command line as scripts use it: JSON shapes, files written, exit codes, error lines.

use crate::common::*;
use std::path::{Path, PathBuf};

use serde_json::Value;

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
    assert_eq!(v["ground_energy"], -64.0);
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
fn generate_random_qubo_writes_a_sparse_model() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("big.coo");
    let out = run(&[
        "generate",
        "random-qubo",
        "--size",
        "5000",
        "--degree",
        "4",
        "-o",
        model.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = run(&[
        "sample",
        model.to_str().unwrap(),
        "--num-reads",
        "2",
        "--num-sweeps",
        "2",
        "--json",
    ]);
    let v = stdout_json(&out);
    assert_eq!(v["num_variables"], 5000);
    let k = v["num_interactions"].as_u64().unwrap();
    assert!((9000..=10000).contains(&k), "{k}");
}

#[test]
fn bench_quick_reports_rows() {
    let out = run(&["bench", "--quick", "--json", "--threads", "1"]);
    let v = stdout_json(&out);
    let rows = v["results"].as_array().unwrap();
    // SA's kernels side by side: auto's (8-bit lanes on the Sudokus' small integers), the
    // 16-bit and f32 lanes, and the scalar kernel.
    for kernel in ["lanes8", "lanes16", "lanes", "scalar"] {
        assert!(
            rows.iter()
                .any(|r| r["sampler"] == "sa" && r["kernel"] == kernel),
            "{kernel}"
        );
    }
    // Moves on the Sudoku instances (they carry their exactly-one groups), in lanes and one
    // read at a time, per proposal; none on the spin glass (no groups).
    for kernel in [
        "one-hot csr-lanes",
        "one-hot csr",
        "two-way csr-lanes",
        "two-way csr",
    ] {
        let mine: Vec<_> = rows.iter().filter(|r| r["kernel"] == kernel).collect();
        assert_eq!(mine.len(), 2, "{kernel}: the full and the presolved Sudoku");
        assert!(mine.iter().all(|r| {
            r["instance"].as_str().unwrap().starts_with("sudoku")
                && r["ns_per_update"].as_f64().unwrap() > 0.0
        }));
    }
    // Every sampler with sweeps is timed per update; tabu (no sweeps) only by wall time.
    for sampler in ["sa", "pt", "pa", "sqa", "tabu"] {
        let mine: Vec<_> = rows.iter().filter(|r| r["sampler"] == sampler).collect();
        assert!(!mine.is_empty(), "{sampler} is benchmarked");
        for r in mine {
            assert!(r["wall_s"].as_f64().unwrap() > 0.0);
            match sampler {
                "tabu" => assert!(r["ns_per_update"].is_null()),
                _ => assert!(r["ns_per_update"].as_f64().unwrap() > 0.0, "{r}"),
            }
        }
    }
    // Time to target: wall / reads · ln 0.01 / ln(1 − P(gnd)), wall / reads at P = 1, and
    // none where no read reached the ground. Population annealing's reads are one population,
    // so its run is one trial: the wall time itself where any read reached the ground.
    for r in rows {
        let (p, wall) = (
            r["ground_fraction"].as_f64().unwrap(),
            r["wall_s"].as_f64().unwrap(),
        );
        let per_read = wall / r["num_reads"].as_f64().unwrap();
        match r["tts99_s"].as_f64() {
            None => assert_eq!(p, 0.0, "{r}"),
            Some(t) if r["sampler"] == "pa" => assert!(p > 0.0 && t == wall, "{r}"),
            Some(t) if p >= 1.0 => assert!((t - per_read).abs() <= 1e-9 * per_read, "{r}"),
            Some(t) => {
                let expected = per_read * 0.01f64.ln() / (1.0 - p).ln();
                assert!(
                    (t - expected).abs() <= 1e-6 * expected,
                    "{r}: {t} against {expected}"
                );
            }
        }
    }
    assert!(
        rows.iter().any(|r| r["tts99_s"].is_number()),
        "some row reached its ground"
    );
}

#[test]
fn bench_only_runs_the_rows_that_match_every_term() {
    let out = run(&[
        "bench",
        "--quick",
        "--json",
        "--threads",
        "1",
        "--only",
        "SPINGLASS,pt",
    ]);
    let v = stdout_json(&out);
    let rows = v["results"].as_array().unwrap();
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["instance"], "spinglass3d_L8");
    assert_eq!(rows[0]["sampler"], "pt");
    // A term can name the moves: only the Sudoku instances carry the groups they hold.
    let v = stdout_json(&run(&[
        "bench",
        "--quick",
        "--json",
        "--threads",
        "1",
        "--only",
        "two-way",
    ]));
    let rows = v["results"].as_array().unwrap();
    assert_eq!(rows.len(), 4, "{rows:?}");
    assert!(
        rows.iter()
            .all(|r| r["kernel"].as_str().unwrap().starts_with("two-way"))
    );
    // A filter no row matches is a usage error that says where terms are looked for.
    let out = bin()
        .args(["bench", "--quick", "--only", "euler96,nonsense"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no bench row matches every term"), "{err}");
}

/// Runs `tests/bad-inputs/cases.txt` (see its header): each case's exit code, and a substring
/// of its one-line error (or of its output, for inputs that must now be read correctly).
#[test]
fn bad_input_corpus() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bad-inputs");
    let tmp = tempfile::tempdir().unwrap();
    let euler = puzzle("euler96_g1.txt");
    let fill = |s: &str| {
        s.replace("{dir}", dir.to_str().unwrap())
            .replace("{p}", euler.to_str().unwrap())
            .replace("{tmp}", tmp.path().to_str().unwrap())
            .replace("{root}", env!("CARGO_MANIFEST_DIR"))
    };
    let cases = std::fs::read_to_string(dir.join("cases.txt")).unwrap();
    let mut count = 0;
    for (k, line) in cases.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.splitn(4, " | ").collect();
        let [code, stream, expected, args] = fields[..] else {
            panic!("cases.txt:{}: four fields separated by ' | '", k + 1);
        };
        let args = fill(args);
        let args: Vec<&str> = args.split_whitespace().collect();
        let expected = fill(expected);
        let out = run(&args);
        let (err, text) = (
            stderr(&out),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        );
        let at = format!("cases.txt:{}: {args:?}", k + 1);
        assert_eq!(
            out.status.code(),
            Some(code.parse().unwrap()),
            "{at}: stderr {err}"
        );
        match stream {
            "err" => {
                // The first line says it all (clap adds a usage hint below its own errors).
                let first = err.lines().next().unwrap_or_default();
                assert!(first.starts_with("error: "), "{at}: {err:?}");
                assert!(
                    first.contains(&expected),
                    "{at}: {first:?} lacks {expected:?}"
                );
                if code == "1" {
                    assert_eq!(err.trim_end().lines().count(), 1, "{at}: one line: {err:?}");
                }
            }
            "out" => assert!(text.contains(&expected), "{at}: {text} lacks {expected:?}"),
            other => panic!("cases.txt:{}: stream '{other}' is not err or out", k + 1),
        }
        count += 1;
    }
    assert!(count >= 40, "only {count} cases ran");
}

/// Two 1s in row 1 of a 4×4 grid, on line 2 of the file.
fn conflicting_file(dir: &Path) -> PathBuf {
    let f = dir.join("conflict.txt");
    std::fs::write(&f, "# two 1s in row 1\n1..1............\n").unwrap();
    f
}

#[test]
fn contradictory_givens_are_an_error_before_sampling() {
    let dir = tempfile::tempdir().unwrap();
    let f = conflicting_file(dir.path());
    let want = format!(
        "error: {}:2: the givens conflict: digit 1 twice in row 1",
        f.display()
    );
    for cmd in ["solve", "sweep"] {
        let mut args = vec![cmd, f.to_str().unwrap(), "--json"];
        if cmd == "sweep" {
            args.extend(["--weight", "hint", "--from", "0", "--to", "1"]);
        }
        let out = run(&args);
        assert_eq!(out.status.code(), Some(1), "{cmd}");
        assert_eq!(stderr(&out).trim_end(), want, "{cmd}");
        assert!(
            out.stdout.is_empty(),
            "{cmd}: nothing sampled, nothing printed"
        );
    }
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

#[test]
fn generate_takes_the_kinds_own_parameters() {
    let out = run(&[
        "generate", "sudoku", "--size", "4", "--givens", "6", "--seed", "3",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let line = String::from_utf8_lossy(&out.stdout).trim().to_string();
    assert_eq!(line.len(), 16);
    assert_eq!(line.chars().filter(|c| *c != '.').count(), 6);
    let again = run(&[
        "generate", "sudoku", "--param", "size=4", "--param", "givens=6", "--seed", "3",
    ]);
    assert_eq!(
        String::from_utf8_lossy(&again.stdout).trim(),
        line,
        "--param is the same flag"
    );
}

#[test]
fn a_puzzle_whose_picture_cannot_be_written_keeps_its_result_and_the_others() {
    let dir = tempfile::tempdir().unwrap();
    let easy = std::fs::read_to_string(puzzle("easy50.txt")).unwrap();
    let three: Vec<&str> = easy
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(3)
        .collect();
    let file = dir.path().join("three.txt");
    std::fs::write(&file, three.join("\n")).unwrap();
    // Puzzle 2's picture cannot be written: a link to itself stands where the file would
    // go, found only when writing (a folder there is refused before sampling now).
    std::os::unix::fs::symlink("grid-2.png", dir.path().join("grid-2.png")).unwrap();
    let render = dir.path().join("grid.png");
    let out = run(&[
        "solve",
        file.to_str().unwrap(),
        "--render",
        render.to_str().unwrap(),
        "--num-reads",
        "2",
        "--num-sweeps",
        "10",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).starts_with("error: puzzle 2: "),
        "{}",
        stderr(&out)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("the completed results as JSON");
    // Puzzle 2 was solved: its result stays, with the file that could not be written.
    let done: Vec<u64> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["puzzle"].as_u64().unwrap())
        .collect();
    assert_eq!(done, [1, 2, 3]);
    let errors = v["results"][1]["output_errors"].to_string();
    assert!(errors.contains("grid-2.png"), "{errors}");
    assert_eq!(v["summary"]["failed"], 0);
    assert_eq!(v["summary"]["output_errors"], 1);
    assert_eq!(v["summary"]["puzzles"], 3);
    assert!(dir.path().join("grid-1.png").is_file() && dir.path().join("grid-3.png").is_file());
}

#[test]
fn the_memory_budget_setting_is_checked_and_named_as_the_source() {
    let p = puzzle("euler96_g1.txt");
    let out = bin()
        .env("QUBO_WORKBENCH_MEMORY_MB", "lots")
        .args(["check", p.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("QUBO_WORKBENCH_MEMORY_MB=lots: not a whole number of MiB"),
        "{}",
        stderr(&out)
    );
    let dir = tempfile::tempdir().unwrap();
    let out = bin()
        .env("QUBO_WORKBENCH_MEMORY_MB", "1")
        .args([
            "generate",
            "random-qubo",
            "--size",
            "100000",
            "--degree",
            "8",
            "-o",
        ])
        .arg(dir.path().join("r.coo"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("memory budget of 1.0 MiB (set by QUBO_WORKBENCH_MEMORY_MB)"),
        "{}",
        stderr(&out)
    );
    // A large edge-matching board is refused by its placements' count before any is made
    // (a 64×64 board once grew past the machine's memory, stored or not).
    let board = dir.path().join("e16.txt");
    let out = run(&[
        "generate",
        "edge-matching",
        "--rows",
        "16",
        "--cols",
        "16",
        "-o",
        board.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = bin()
        .env("QUBO_WORKBENCH_MEMORY_MB", "20")
        .args(["solve", board.to_str().unwrap(), "--sampler", "sa"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("placements, even unstored) needs about"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_sweep_whose_reads_cannot_be_refereed_within_the_budget_is_refused_before_sampling() {
    // 400 000 reads of a 4×4 Sudoku at each point: gigabytes to referee (round 4's D3).
    let p = puzzle("shidoku-6givens.txt");
    let out = bin()
        .env("QUBO_WORKBENCH_MEMORY_MB", "1000")
        .args([
            "sweep",
            p.to_str().unwrap(),
            "--weight",
            "hint",
            "--from",
            "1",
            "--to",
            "2",
        ])
        .args(["--steps", "2", "--sampler", "sa", "--num-reads", "400000"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("refereeing 400000 reads of 64 variables at each of"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn blank_or_broken_credentials_are_refused_by_name_and_never_shown() {
    let p = puzzle("shidoku-6givens.txt");
    let out = bin()
        .env("DWAVE_API_TOKEN", "   ")
        .env_remove("DWAVE_CONFIG_FILE")
        .args(["remote", "solvers"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("the D-Wave token from DWAVE_API_TOKEN is blank"),
        "{}",
        stderr(&out)
    );
    let out = bin()
        .env("FUJITSU_DA_API_KEY", "secret-part\nrest")
        .args([
            "solve",
            p.to_str().unwrap(),
            "--presolve",
            "--sampler",
            "fujitsu-da",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("FUJITSU_DA_API_KEY holds spaces or control characters"),
        "{err}"
    );
    assert!(!err.contains("secret-part"), "{err}");
}

/// Generators that aim: a Sudoku band, a Numberlink band, a no-guess Minesweeper board and a
/// TTS99 range, each checked by `check` on the file written (not by the generator's word).
#[test]
fn generators_aim_at_bands_no_guess_boards_and_a_tts99_range() {
    let dir = tempfile::tempdir().unwrap();
    let file = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let sudoku = file("hard.txt");
    let out = run(&[
        "generate",
        "sudoku",
        "--difficulty",
        "hard",
        "--givens",
        "0",
        "--seed",
        "4",
        "-o",
        &sudoku,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let facts = run_json(&["check", &sudoku, "--json"]);
    assert_eq!(
        (&facts["difficulty"], &facts["solutions"]),
        (&serde_json::json!("hard"), &serde_json::json!("1"))
    );
    let link = file("probing.txt");
    let out = run(&[
        "generate",
        "numberlink",
        "--difficulty",
        "probing",
        "-o",
        &link,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let facts = run_json(&["check", &link, "--json"]);
    assert_eq!(facts["difficulty"], "probing", "{facts}");
    let mines = file("expert.txt");
    let out = run(&[
        "generate",
        "minesweeper",
        "--width",
        "30",
        "--height",
        "16",
        "--mines",
        "99",
        "--no-guess",
        "--seed",
        "5",
        "-o",
        &mines,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let facts = run_json(&["check", &mines, "--json"]);
    let logic = facts["logic"].as_str().unwrap();
    assert!(logic.starts_with("no guess ("), "{facts}");
    let tiles = file("unique.txt");
    let out = run(&[
        "generate",
        "edge-matching",
        "--rows",
        "5",
        "--cols",
        "5",
        "--frame-colors",
        "3",
        "--inner-colors",
        "8",
        "--unique",
        "-o",
        &tiles,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(run_json(&["check", &tiles, "--json"])["solutions"], "1");
    // A band out of reach says what it found instead.
    let out = run(&[
        "generate",
        "sudoku",
        "--size",
        "4",
        "--difficulty",
        "expert",
    ]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("band expert"), "{}", stderr(&out));
    // Annealer hardness: the file says what was measured, and still reads.
    let easy = file("tts.txt");
    let out = run(&[
        "generate",
        "sudoku",
        "--size",
        "4",
        "--givens",
        "8",
        "--target-tts99",
        "0:30",
        "-o",
        &easy,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&easy).unwrap();
    assert!(text.starts_with("# TTS99 "), "{text}");
    assert!(text.contains("aimed at 0–30 s"), "{text}");
    run_json(&["check", &easy, "--json"]);
    let out = run(&["generate", "sudoku", "--target-tts99", "5:1"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--target-tts99"), "{}", stderr(&out));
}

/// Print-size pictures: a 4 000 px PNG of the full Eternity II with its DPI chunk, within the
/// memory budget; an SVG scaled the same way stays vector.
#[test]
fn render_writes_a_4000_px_eternity_ii_with_its_dpi() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("eii.png");
    let eii = root().join("puzzles/edge-matching/official/eternity2.txt");
    let out = run(&[
        "render",
        eii.to_str().unwrap(),
        "--width",
        "4000",
        "--dpi",
        "300",
        "-o",
        png.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("4000×"), "{}", stderr(&out));
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(u32::from_be_bytes(bytes[16..20].try_into().unwrap()), 4000);
    assert_eq!(&bytes[37..41], b"pHYs", "the DPI chunk follows IHDR");
    assert_eq!(
        u32::from_be_bytes(bytes[41..45].try_into().unwrap()),
        11_811
    );
    // Without --dpi, no chunk.
    let plain = dir.path().join("plain.png");
    let out = run(&[
        "render",
        eii.to_str().unwrap(),
        "--scale",
        "0.5",
        "-o",
        plain.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let bytes = std::fs::read(&plain).unwrap();
    assert_ne!(&bytes[37..41], b"pHYs");
    let svg = dir.path().join("eii.svg");
    let out = run(&[
        "render",
        eii.to_str().unwrap(),
        "--width",
        "4000",
        "-o",
        svg.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(
        text.contains("width=\"4000"),
        "{}",
        &text[..200.min(text.len())]
    );
}

/// The blank and the solved Sudoku, rendered at 50 px a cell, differ exactly in the cells the
/// solution fills: every empty cell changes, no given cell and no margin pixel does. The answer
/// key draws every digit alike; a title and a transparent background are there when asked.
#[test]
fn render_shows_the_blank_the_solved_puzzle_and_the_answer_key() {
    let dir = tempfile::tempdir().unwrap();
    let p = puzzle("euler96_g1.txt");
    let line: String = std::fs::read_to_string(&p)
        .unwrap()
        .lines()
        .find(|l| l.len() == 81)
        .unwrap()
        .to_string();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let render = |out: &str, extra: &[&str]| {
        let mut args = vec!["render", p.to_str().unwrap(), "-o", out];
        args.extend_from_slice(extra);
        let o = run(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        tiny_skia::Pixmap::load_png(out).ok()
    };
    // 9 cells and 0.2 of margin each side: 9.4 units at 50 px.
    let blank = render(&path("blank.png"), &["--show", "puzzle", "--width", "470"]).unwrap();
    let solved = render(&path("solved.png"), &["--show", "solved", "--width", "470"]).unwrap();
    assert_eq!((blank.width(), blank.height()), (470, 470));
    let mut changed = [false; 81];
    for (k, (a, b)) in blank.pixels().iter().zip(solved.pixels()).enumerate() {
        if a == b {
            continue;
        }
        let (x, y) = ((k % 470) as f32 / 50.0 - 0.2, (k / 470) as f32 / 50.0 - 0.2);
        assert!(
            (0.0..9.0).contains(&x) && (0.0..9.0).contains(&y),
            "a margin pixel changed at ({x}, {y})"
        );
        let cell = y as usize * 9 + x as usize;
        assert_eq!(
            line.as_bytes()[cell],
            b'0',
            "given cell {cell} changed at ({x}, {y})"
        );
        changed[cell] = true;
    }
    for (cell, c) in line.bytes().enumerate() {
        assert_eq!(changed[cell], c == b'0', "cell {cell}: drawn iff empty");
    }
    // The answer key: 81 digits, all in one colour.
    render(&path("answer.svg"), &["--show", "solution"]);
    let svg = std::fs::read_to_string(path("answer.svg")).unwrap();
    let fills: std::collections::BTreeSet<&str> = svg
        .lines()
        .filter(|l| l.starts_with("<text"))
        .map(|l| {
            l.split(" fill=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap()
        })
        .collect();
    assert_eq!(svg.matches("<text").count(), 81, "{svg}");
    assert_eq!(fills.len(), 1, "{fills:?}");
    // A title line and a transparent background.
    let titled = render(
        &path("titled.png"),
        &[
            "--show",
            "solved",
            "--width",
            "470",
            "--title",
            "--transparent",
        ],
    )
    .unwrap();
    assert!(titled.height() > 470);
    assert_eq!(titled.pixel(0, 0).unwrap().alpha(), 0, "transparent corner");
    render(&path("titled.svg"), &["--title", "--transparent"]);
    let svg = std::fs::read_to_string(path("titled.svg")).unwrap();
    assert!(svg.contains(">euler96_g1 · "), "{svg}");
    assert!(
        !svg.lines().nth(1).unwrap().starts_with("<rect width"),
        "no background"
    );
}

/// Charts take the same size flags, and --no-title drops their title line.
#[test]
fn charts_take_a_size_and_drop_their_title() {
    let dir = tempfile::tempdir().unwrap();
    let p = puzzle("shidoku-6givens.txt");
    let hist = dir.path().join("h.svg");
    let plain = dir.path().join("plain.svg");
    for (out, extra) in [
        (&hist, &["--width", "1000", "--no-title"][..]),
        (&plain, &[][..]),
    ] {
        let mut args = vec![
            "solve",
            p.to_str().unwrap(),
            "--sampler",
            "sa",
            "--num-reads",
            "8",
            "--seed",
            "1",
            "--histogram",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let o = run(&args);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let sized = std::fs::read_to_string(&hist).unwrap();
    let plain = std::fs::read_to_string(&plain).unwrap();
    assert!(sized.contains(r#"width="1000""#), "{}", &sized[..200]);
    assert!(plain.contains(r#"width="1440""#), "{}", &plain[..200]);
    assert!(plain.contains("Energies of 8 reads"));
    assert!(!sized.contains("Energies of 8 reads"), "the title is gone");
}

/// `compare` reads saved sample sets (ours and a plain dimod SampleSet), prints a row per run,
/// writes an overlay whose legend names them, and refuses runs of another model.
#[test]
fn compare_tables_and_overlays_saved_runs_and_refuses_other_models() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let p = puzzle("shidoku-6givens.txt");
    for (sampler, file) in [("sa", "sa.json"), ("tabu", "tabu.json")] {
        let o = run(&[
            "solve",
            p.to_str().unwrap(),
            "--sampler",
            sampler,
            "--num-reads",
            "16",
            "--seed",
            "1",
            "--save-samples",
            &path(file),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    // A sample set as dimod writes it from a notebook: integer labels, no figures of ours.
    let ours: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path("sa.json")).unwrap()).unwrap();
    assert_eq!(
        ours["vectors"]["valid"]["data"].as_array().unwrap().len(),
        ours["num_rows"].as_u64().unwrap() as usize
    );
    assert!(ours["info"]["model_fingerprint"].is_string());
    let o = run(&[
        "compare",
        &path("sa.json"),
        &path("tabu.json"),
        "--labels",
        "annealing,tabu search",
        "--plot",
        &path("overlay.svg"),
        "--csv",
        &path("table.csv"),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let table = String::from_utf8_lossy(&o.stdout).to_string();
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 3, "{table}");
    assert!(
        lines[0].starts_with("run") && lines[0].contains("TTS99 s"),
        "{table}"
    );
    assert!(
        lines[1].starts_with("annealing") && lines[1].contains(" sa "),
        "{table}"
    );
    assert!(
        lines[2].starts_with("tabu search") && lines[2].contains(" 16 "),
        "{table}"
    );
    let svg = std::fs::read_to_string(path("overlay.svg")).unwrap();
    assert!(
        svg.contains(">annealing</text>") && svg.contains(">tabu search</text>"),
        "the legend names both"
    );
    assert!(
        svg.contains(">ground</text>"),
        "the ground energy is marked"
    );
    let csv = std::fs::read_to_string(path("table.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3);
    assert!(
        csv.lines()
            .next()
            .unwrap()
            .starts_with("run,sampler,weights,reads,"),
        "{csv}"
    );
    let row: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
    assert_eq!((row[0], row[1], row[3]), ("annealing", "sa", "16"), "{csv}");
    let json = run_json(&["compare", &path("sa.json"), &path("tabu.json"), "--json"]);
    assert_eq!(json.as_array().unwrap().len(), 2);
    assert!(json[0]["valid_fraction"].is_number());
    // Another model (the 9×9 grid) is refused, naming the file.
    let other = path("other.json");
    let o = run(&[
        "solve",
        puzzle("euler96_g1.txt").to_str().unwrap(),
        "--sampler",
        "sa",
        "--num-reads",
        "2",
        "--num-sweeps",
        "10",
        "--save-samples",
        &other,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = run(&["compare", &path("sa.json"), &other]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains(&format!("{other}: a sample set of another model")),
        "{}",
        stderr(&o)
    );
    // A plain dimod file (no fingerprint): told apart by its variable count.
    let mut plain = ours.clone();
    plain["info"] = serde_json::json!({});
    plain.as_object_mut().unwrap()["vectors"]
        .as_object_mut()
        .unwrap()
        .remove("valid");
    std::fs::write(path("plain.json"), plain.to_string()).unwrap();
    let o = run(&["compare", &path("plain.json"), &path("sa.json")]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = run(&["compare", &path("plain.json"), &other]);
    assert!(stderr(&o).contains("variables, but"), "{}", stderr(&o));
}

/// `compare` checks a sample file's own figures against its rows (probe round 4, D15, D16,
/// D22): shares outside 0–1, negative times and energies below the file's own ground are
/// refused, the ground share is counted from the rows, CSV rows must be samples, and text
/// from the file cannot reach the terminal raw.
#[test]
fn compare_refuses_sample_files_whose_figures_disagree_with_their_rows() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let o = run(&[
        "solve",
        puzzle("shidoku-6givens.txt").to_str().unwrap(),
        "--sampler",
        "sa",
        "--num-reads",
        "8",
        "--seed",
        "1",
        "--save-samples",
        &path("sa.json"),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let ours: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path("sa.json")).unwrap()).unwrap();
    let edited = |name: &str, edit: &dyn Fn(&mut serde_json::Value)| {
        let mut v = ours.clone();
        edit(&mut v);
        std::fs::write(path(name), v.to_string()).unwrap();
        run(&["compare", &path(name)])
    };
    // The ground share is counted from the rows, whatever the file claims.
    let o = edited("claims.json", &|v| {
        v["info"]["ground_fraction"] = 5.0.into()
    });
    let table = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(o.status.success() && !table.contains("500.0"), "{table}");
    let o = edited("time.json", &|v| v["info"]["sample_s"] = (-10.0).into());
    assert!(
        stderr(&o).contains("info.sample_s is -10"),
        "{}",
        stderr(&o)
    );
    let o = edited("low.json", &|v| {
        let n = v["vectors"]["energy"]["data"].as_array().unwrap().len();
        v["vectors"]["energy"]["data"] = serde_json::json!(vec![-999.0; n]);
    });
    assert!(
        stderr(&o).contains("below its own ground energy"),
        "{}",
        stderr(&o)
    );
    let o = edited("share.json", &|v| {
        v["info"].as_object_mut().unwrap().remove("ground_energy");
        v["info"]["ground_fraction"] = 5.0.into();
    });
    assert!(
        stderr(&o).contains("a share is between 0 and 1"),
        "{}",
        stderr(&o)
    );
    let o = edited("escape.json", &|v| {
        v["info"]["sampler"] = "\u{1b}[31mRED\u{1b}[0m\nfake line".into()
    });
    let table = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(
        o.status.success() && !table.contains('\u{1b}') && table.lines().count() == 2,
        "{table:?}"
    );
    // CSV rows: one 0/1 value per named column.
    for (rows, says) in [
        (
            "energy,num_occurrences,a,b\n-1,1,0\n",
            "1 values for 2 variables",
        ),
        (
            "energy,num_occurrences,a,b\n-1,1,0,1,1,1\n",
            "4 values for 2 variables",
        ),
        (
            "energy,num_occurrences,a,b\n-1,1,2,7\n",
            "'2' is not a variable's value",
        ),
        (
            "energy,num_occurrences,a,a\n-1,1,0,1\n",
            "'a' names two columns",
        ),
    ] {
        std::fs::write(path("c.csv"), rows).unwrap();
        let o = run(&["compare", &path("c.csv")]);
        assert!(
            !o.status.success() && stderr(&o).contains(says),
            "{rows:?}: {}",
            stderr(&o)
        );
    }
    std::fs::write(
        path("c.csv"),
        "energy,num_occurrences,a,b\n-1,3,0,1\n2,1,-1,+1\n",
    )
    .unwrap();
    let o = run(&["compare", &path("c.csv")]);
    assert!(o.status.success(), "{}", stderr(&o));
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

/// An interrupted write leaves no hidden temporary file (probe round 4, D11): the temporary
/// file of `-o` is removed when the process is stopped by SIGTERM while writing it.
#[cfg(unix)]
#[test]
fn an_interrupted_write_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("v.coo");
    let mut caught = false;
    for size in ["1000000", "3000000"] {
        let mut child = bin()
            .args([
                "generate",
                "random-qubo",
                "--size",
                size,
                "--degree",
                "8",
                "-o",
            ])
            .arg(&target)
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        while child.try_wait().unwrap().is_none() {
            let writing = std::fs::read_dir(dir.path())
                .unwrap()
                .any(|e| e.unwrap().file_name().to_string_lossy().contains(".tmp"));
            if writing {
                // SIGTERM, as `kill` sends it.
                let _ = std::process::Command::new("kill")
                    .arg(child.id().to_string())
                    .status();
                caught = true;
                break;
            }
            std::thread::sleep(std::time::Duration::from_micros(200));
        }
        let status = child.wait().unwrap();
        // The write may have ended before the signal landed: then try a larger one.
        caught &= !status.success();
        if caught {
            assert_eq!(status.code(), Some(143), "the handler's exit: {status:?}");
            let left: Vec<String> = std::fs::read_dir(dir.path())
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            assert!(left.iter().all(|n| !n.contains(".tmp")), "{left:?}");
            break;
        }
        let _ = std::fs::remove_file(&target);
    }
    assert!(caught, "the write was never seen in progress");
}

/// Second-weight flags without --weight2 get one plain sentence, not clap's list of
/// "required" flags (probe round 4, D33); a degenerate range is refused (D35).
#[test]
fn sweep_flags_that_cannot_work_are_refused_in_a_sentence() {
    let p = puzzle("shidoku-6givens.txt");
    let o = run(&[
        "sweep",
        p.to_str().unwrap(),
        "--weight",
        "hint",
        "--from",
        "0",
        "--to",
        "1",
        "--steps2",
        "3",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("name it with --weight2") && !stderr(&o).contains("Usage:"),
        "{}",
        stderr(&o)
    );
    let o = run(&[
        "sweep",
        p.to_str().unwrap(),
        "--weight",
        "hint",
        "--from",
        "1",
        "--to",
        "1",
        "--steps",
        "5",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("one value 5 times"), "{}", stderr(&o));
}

/// Values given twice that disagree are refused, not resolved by order (probe round 4, D19).
#[test]
fn conflicting_values_are_refused_not_resolved_silently() {
    let shidoku = puzzle("shidoku-6givens.txt");
    let p = shidoku.to_str().unwrap();
    let refused = |args: &[&str], says: &str| {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    };
    refused(
        &[
            "solve",
            p,
            "--sampler",
            "sa",
            "--param",
            "num_reads=5",
            "--num-reads",
            "6",
        ],
        "num_reads is already",
    );
    refused(
        &["solve", p, "--weight", "hint=1", "--weight", "hint=2"],
        "weight 'hint' is already set",
    );
    refused(
        &["generate", "sudoku", "--param", "size=9", "--size", "4"],
        "size is already 4",
    );
    refused(
        &["gui", p, "--sweep", "hint=0:1:2", "--sweep", "hint=0:1:2"],
        "weight 'hint' twice",
    );
    // The same value twice is no conflict.
    let o = run(&[
        "solve",
        p,
        "--sampler",
        "sa",
        "--param",
        "num_reads=5",
        "--num-reads",
        "5",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Minesweeper's header gives the mines: a different --mines is refused.
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("m.txt");
    std::fs::write(&board, "3 3 1\n###\n#1#\n###\n").unwrap();
    let o = run(&["check", board.to_str().unwrap(), "--mines", "5"]);
    assert!(
        !o.status.success() && stderr(&o).contains("--mines says 5"),
        "{}",
        stderr(&o)
    );
}

/// Output problems known before sampling are refused before it (probe round 4, D23): a
/// numbered name a folder stands in, a name too long for its temporary twin, a PNG too large
/// for the scale.
#[test]
fn output_problems_are_refused_before_sampling() {
    let dir = tempfile::tempdir().unwrap();
    let two = dir.path().join("two.txt");
    let one = std::fs::read_to_string(puzzle("shidoku-6givens.txt")).unwrap();
    std::fs::write(&two, format!("{one}{one}")).unwrap();
    std::fs::create_dir(dir.path().join("r-1.svg")).unwrap();
    let refused = |args: &[&str], says: &str| {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
        assert!(o.stdout.is_empty(), "nothing was sampled");
    };
    let t = two.to_str().unwrap();
    let render = dir.path().join("r.svg");
    refused(
        &[
            "solve",
            t,
            "--sampler",
            "sa",
            "--render",
            render.to_str().unwrap(),
        ],
        "r-1.svg: a folder has that name",
    );
    let long = dir.path().join(format!("{}.svg", "x".repeat(240)));
    refused(
        &[
            "solve",
            t,
            "--sampler",
            "sa",
            "--render",
            long.to_str().unwrap(),
        ],
        "the file name is 244 bytes",
    );
    let png = dir.path().join("h.png");
    refused(
        &[
            "solve",
            t,
            "--histogram",
            png.to_str().unwrap(),
            "--scale",
            "100",
        ],
        "pixels is out of range",
    );
}

/// A target below every energy the model has is said before the run waits out its time limit
/// (probe round 4, D7).
#[test]
fn an_unreachable_target_is_said_before_the_wait() {
    let o = run(&[
        "solve",
        puzzle("shidoku-6givens.txt").to_str().unwrap(),
        "--sampler",
        "pt",
        "--target-energy=-1e308",
        "--timeout-ms",
        "300",
        "--threads",
        "1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o)
            .lines()
            .next()
            .is_some_and(|l| l.contains("-1e308 is below any energy this model can reach")),
        "{}",
        stderr(&o)
    );
    // A reachable one says nothing of the kind.
    let o = run(&[
        "solve",
        puzzle("shidoku-6givens.txt").to_str().unwrap(),
        "--sampler",
        "pt",
        "--target-energy=-12",
        "--timeout-ms",
        "300",
    ]);
    assert!(!stderr(&o).contains("below any energy"), "{}", stderr(&o));
}

#[test]
fn play_says_how_long_a_huge_sampled_game_will_take_before_it_starts() {
    use std::io::BufRead;
    // A million reads of ten million sweeps per position: hours, said at once (round 4's D7),
    // then the game is stopped here rather than waited for.
    let mut child = bin()
        .args([
            "play",
            "--games",
            "1",
            "--strategy",
            "sample",
            "--sampler",
            "sa",
        ])
        .args(["--num-reads", "1000000", "--num-sweeps", "10000000"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    std::io::BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        first.starts_with("note: roughly ") && first.contains("one position per game"),
        "{first}"
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

/// `sweep --sampler-param`: a sampler parameter as the axis — counts on log steps with TTS99
/// in sweeps, words as categories — with each point's value in the JSON, the table and the
/// CSV; parameters the sampler lacks, words given as a range and rounding that would repeat a
/// value are refused in a sentence.
#[test]
fn a_sweep_over_a_sampler_parameter() {
    let shidoku = puzzle("shidoku-6givens.txt");
    let file = shidoku.to_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("sweeps.csv");
    let v = run_json(&[
        "sweep",
        file,
        "--sampler",
        "sa",
        "--sampler-param",
        "num_sweeps",
        "--from",
        "2",
        "--to",
        "200",
        "--log",
        "--steps",
        "3",
        "--metric",
        "tts99_sweeps",
        "--repeats",
        "2",
        "--num-reads",
        "20",
        "--seed",
        "1",
        "--csv",
        csv.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(v["sampler_param"], "num_sweeps");
    let points = v["points"].as_array().unwrap();
    let sweeps: Vec<u64> = points
        .iter()
        .map(|p| p["params"]["num_sweeps"].as_u64().unwrap())
        .collect();
    assert_eq!(sweeps, [2, 20, 200]);
    for p in points {
        // TTS99 in sweeps is the sweeps per read times the reads 99 % needs.
        if let (Some(t), Some(p_valid)) =
            (p["tts99_sweeps"].as_f64(), p["success_fraction"].as_f64())
        {
            let s = p["params"]["num_sweeps"].as_f64().unwrap();
            let expected = if p_valid >= 1.0 {
                s
            } else {
                s * 0.01f64.ln() / (1.0 - p_valid).ln()
            };
            assert!((t - expected).abs() < 1e-9 * expected, "{p}");
        }
    }
    let table = std::fs::read_to_string(&csv).unwrap();
    assert!(
        table.lines().next().unwrap().contains("num_sweeps"),
        "{table}"
    );
    // Tempering's sweeps count every replica: TTS99 in sweeps compares SA's and PT's work.
    let v = run_json(&[
        "sweep",
        file,
        "--sampler",
        "pt",
        "--sampler-param",
        "num_sweeps",
        "--values",
        "40",
        "--num-replicas",
        "4",
        "--num-reads",
        "8",
        "--repeats",
        "1",
        "--seed",
        "1",
        "--metric",
        "tts99_sweeps",
        "--json",
    ]);
    let p = &v["points"][0];
    let t = p["tts99_sweeps"]
        .as_f64()
        .expect("PT solves a 4×4 Sudoku in 40 sweeps");
    let p_valid = p["success_fraction"].as_f64().unwrap();
    let per_read = 40.0 * 4.0;
    let expected = if p_valid >= 1.0 {
        per_read
    } else {
        per_read * 0.01f64.ln() / (1.0 - p_valid).ln()
    };
    assert!((t - expected).abs() < 1e-9 * expected, "{p}");

    let out = run(&[
        "sweep",
        file,
        "--sampler",
        "sa",
        "--sampler-param",
        "moves",
        "--values",
        "flip,two-way",
        "--repeats",
        "1",
        "--num-reads",
        "4",
        "--num-sweeps",
        "10",
        "--seed",
        "1",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("two-way") && text.contains("flip"), "{text}");

    for (args, says) in [
        (
            vec!["--sampler-param", "gama", "--from", "1", "--to", "2"],
            "has no parameter 'gama'",
        ),
        (
            vec!["--sampler-param", "moves", "--from", "1", "--to", "2"],
            "its values are words",
        ),
        (
            vec!["--sampler-param", "moves", "--values", "flop"],
            "'flop' is not a value of 'moves'",
        ),
        (
            vec![
                "--sampler-param",
                "num_sweeps",
                "--from",
                "1",
                "--to",
                "3",
                "--steps",
                "5",
            ],
            "repeat a value",
        ),
        (
            vec!["--sampler-param", "seed", "--from", "1", "--to", "3"],
            "cannot be swept",
        ),
        (
            vec!["--weight", "hint", "--sampler-param", "num_sweeps"],
            "cannot be used with",
        ),
    ] {
        let mut full = vec!["sweep", file, "--sampler", "sa"];
        full.extend(args);
        let out = run(&full);
        assert!(!out.status.success());
        assert!(stderr(&out).contains(says), "{}", stderr(&out));
    }
}

/// `campaign --samplers sa,pt`: each instance swept by each sampler into one table (each
/// sampler flag applied to those that have it); a rerun keeps every row; a list naming auto or
/// a sampler twice, a flag none has, or an axis one lacks is refused.
#[test]
fn a_campaign_sweeps_several_samplers_into_one_table() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("s.txt");
    let out = run(&[
        "generate",
        "sudoku",
        "--size",
        "4",
        "--givens",
        "5",
        "--seed",
        "4",
        "-o",
        file.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let folder = dir.path().join("both");
    let campaign = |extra: &[&str]| {
        let mut args = vec![
            "campaign",
            file.to_str().unwrap(),
            "--out",
            folder.to_str().unwrap(),
            "--sampler-param",
            "num_sweeps",
            "--values",
            "4,16",
            "--repeats",
            "2",
            "--num-reads",
            "8",
            "--seed",
            "1",
            "--json",
        ];
        args.extend(extra);
        run(&args)
    };
    let out = campaign(&["--samplers", "sa,pt", "--num-replicas", "4"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v = stdout_json(&out);
    assert_eq!(
        (v["rows"].as_u64(), v["measured"].as_u64()),
        (Some(4), Some(4))
    );
    let text = std::fs::read_to_string(folder.join("campaign.json")).unwrap();
    let rows: Vec<Value> = serde_json::from_str(&text).unwrap();
    let mut seen: Vec<(String, u64)> = rows
        .iter()
        .map(|r| {
            (
                r["sampler"].as_str().unwrap().to_string(),
                r["point"]["params"]["num_sweeps"].as_u64().unwrap(),
            )
        })
        .collect();
    seen.sort();
    assert_eq!(
        seen,
        [
            ("pt".into(), 4),
            ("pt".into(), 16),
            ("sa".into(), 4),
            ("sa".into(), 16)
        ]
    );
    // --num-replicas reached PT: its TTS99 in sweeps counts 4 replicas a read.
    let pt = rows
        .iter()
        .find(|r| r["sampler"] == "pt" && r["point"]["tts99_sweeps"].is_number());
    if let Some(r) = pt {
        let p = &r["point"];
        let reads_99 = p["tts99_sweeps"].as_f64().unwrap()
            / (4.0 * p["params"]["num_sweeps"].as_f64().unwrap());
        assert!(reads_99 >= 1.0 - 1e-9, "{p}");
    }
    let out = campaign(&["--samplers", "sa,pt", "--num-replicas", "4"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v = stdout_json(&out);
    assert_eq!(
        (v["measured"].as_u64(), v["kept_from_journal"].as_u64()),
        (Some(0), Some(4))
    );
    // One listed sampler is that sampler (not --sampler's auto): PT's rows are all there.
    let out = campaign(&["--samplers", "pt", "--num-replicas", "4"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v = stdout_json(&out);
    assert_eq!(
        (v["measured"].as_u64(), v["kept_from_journal"].as_u64()),
        (Some(0), Some(2))
    );
    for (extra, says) in [
        (vec!["--samplers", "sa,sa"], "listed twice"),
        (
            vec!["--samplers", "sa", "--num-replicas", "4"],
            "none of sa has",
        ),
        (vec!["--samplers", "sa,auto"], "name each sampler"),
        (
            vec!["--samplers", "sa,pt", "--trotter", "4"],
            "none of sa, pt has",
        ),
        (
            vec!["--samplers", "sa,pt", "--sampler", "sa"],
            "cannot be used with",
        ),
    ] {
        let out = campaign(&extra);
        assert!(!out.status.success(), "{extra:?}");
        assert!(stderr(&out).contains(says), "{extra:?}: {}", stderr(&out));
    }
}

/// `campaign`: num_sweeps over three generated 4×4 Sudokus, journalled point by point. Killed
/// part-way (the journal cut after four points, in the middle of the fifth), the same command
/// measures only what is missing and writes the same table; other settings in the same folder
/// are refused; the plots are written beside the table.
#[test]
fn a_campaign_resumed_after_a_kill_writes_the_same_table() {
    let dir = tempfile::tempdir().unwrap();
    let instances = dir.path().join("instances");
    std::fs::create_dir(&instances).unwrap();
    for seed in ["1", "2", "3"] {
        let file = instances.join(format!("s{seed}.txt"));
        let out = run(&[
            "generate",
            "sudoku",
            "--size",
            "4",
            "--givens",
            "5",
            "--seed",
            seed,
            "-o",
            file.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let campaign = |folder: &std::path::Path, values: &str| {
        run(&[
            "campaign",
            instances.to_str().unwrap(),
            "--out",
            folder.to_str().unwrap(),
            "--sampler",
            "sa",
            "--sampler-param",
            "num_sweeps",
            "--values",
            values,
            "--repeats",
            "3",
            "--num-reads",
            "10",
            "--seed",
            "1",
            "--ci-width",
            "0.3",
            "--budget-factor",
            "0",
            "--json",
        ])
    };
    // The deterministic part of a table (times and thread counts aside).
    let table = |folder: &std::path::Path| {
        let text = std::fs::read_to_string(folder.join("campaign.json")).unwrap();
        let mut rows: Vec<Value> = serde_json::from_str(&text).unwrap();
        for r in &mut rows {
            let p = r["point"].as_object_mut().unwrap();
            for timing in ["sample_s", "tts99_s", "tts99_ci95", "threads"] {
                p.remove(timing);
            }
        }
        rows
    };
    let whole = dir.path().join("whole");
    let out = campaign(&whole, "2,8,32");
    assert!(out.status.success(), "{}", stderr(&out));
    let v = stdout_json(&out);
    assert_eq!(
        (v["rows"].as_u64(), v["measured"].as_u64()),
        (Some(9), Some(9))
    );
    let first = table(&whole);
    assert_eq!(first.len(), 9);
    assert!(
        first
            .iter()
            .all(|r| r["sampler"] == "sa" && r["num_variables"].as_u64() == Some(64))
    );
    let csv = std::fs::read_to_string(whole.join("campaign.csv")).unwrap();
    assert!(
        csv.starts_with("instance,sampler,num_variables,num_sweeps,"),
        "{csv}"
    );
    assert_eq!(csv.lines().count(), 10);
    for plot in ["tts.png", "scaling.png"] {
        assert!(png_size(&whole.join(plot)).0 > 100);
    }

    // The kill: four points written, the fifth cut in the middle of its line.
    let journal = std::fs::read_to_string(whole.join("points.jsonl")).unwrap();
    let lines: Vec<&str> = journal.lines().collect();
    let cut = format!(
        "{}\n{}",
        lines[..4].join("\n"),
        &lines[4][..lines[4].len() / 2]
    );
    let resumed = dir.path().join("resumed");
    std::fs::create_dir(&resumed).unwrap();
    std::fs::copy(whole.join("settings.json"), resumed.join("settings.json")).unwrap();
    std::fs::write(resumed.join("points.jsonl"), cut).unwrap();
    let out = campaign(&resumed, "2,8,32");
    assert!(out.status.success(), "{}", stderr(&out));
    let v = stdout_json(&out);
    assert_eq!(
        (v["measured"].as_u64(), v["kept_from_journal"].as_u64()),
        (Some(5), Some(4))
    );
    assert_eq!(table(&resumed), first);

    let out = campaign(&resumed, "2,8");
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("holds a campaign of other settings"),
        "{}",
        stderr(&out)
    );
}
