//! Sampler parameters swept, and campaigns over many instances: tables, plots, resuming.

use super::*;

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
