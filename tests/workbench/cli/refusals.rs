//! What the command line refuses, and how it says so: bad input, conflicting flags, budgets,
//! credentials, outputs that cannot be written.

use super::*;

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
