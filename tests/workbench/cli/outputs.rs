//! Pictures and comparisons: print-size renders, chart sizes, compared runs.

use super::*;

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
