//! `bench` rows and the generators: random QUBO models, each kind's own parameters, bands and
//! TTS99 ranges.

use super::*;

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
        "one-hot csr-lanes16",
        "one-hot csr",
        "two-way csr-lanes16",
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

#[test]
fn bench_times_moves_on_numberlink_and_says_tempering_ran_them() {
    // The full Numberlink cell model carries its cells' exactly-one groups: SA's one-hot rows
    // run on it (no two-way: no two families form a permutation), and tempering's `auto`
    // holds the cells by one-hot moves, which its row names instead of a flip ladder.
    let v = stdout_json(&run(&[
        "bench",
        "--json",
        "--threads",
        "1",
        "--num-reads",
        "16",
        "--num-sweeps",
        "20",
        "--repeats",
        "1",
        "--only",
        "numberlink",
    ]));
    let rows = v["results"].as_array().unwrap();
    let kernel_of = |sampler: &str| -> Vec<&str> {
        rows.iter()
            .filter(|r| r["sampler"] == sampler)
            .map(|r| r["kernel"].as_str().unwrap())
            .collect()
    };
    assert!(rows.iter().all(|r| r["instance"] == "numberlink_10x10_p10"));
    assert_eq!(kernel_of("pt"), ["one-hot csr-lanes16"], "{rows:?}");
    let sa = kernel_of("sa");
    assert!(
        sa.contains(&"one-hot csr-lanes16") && sa.contains(&"one-hot csr"),
        "{sa:?}"
    );
    assert!(!sa.iter().any(|k| k.starts_with("two-way")), "{sa:?}");
    for r in rows.iter().filter(|r| r["sampler"] != "tabu") {
        assert!(r["ns_per_update"].as_f64().unwrap() > 0.0, "{r}");
        assert_eq!(r["ground_known"], true, "{r}");
    }
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
