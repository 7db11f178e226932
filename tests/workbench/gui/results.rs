//! What a run shows afterwards: its kernel, its best board so far, repaired reads, runs
//! overlaid for comparison, and the same figures as `solve` for the same seed.

use super::*;

#[test]
fn a_run_on_a_small_integer_model_names_its_byte_lanes_kernel() {
    // The full Euler96 Sudoku model as a COO file: fields within ±127, so 32 reads of SA
    // run in byte lanes, and the results say which kernel ran.
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("e96.coo");
    let sudoku = qubo_workbench::bench::builtin_instances(true, |n| !n.contains("presolved"))
        .unwrap()
        .into_iter()
        .find(|i| i.name.starts_with("sudoku"))
        .unwrap();
    qubo_workbench::qubo::formats::write_model(&model, &sudoku.model.qubo, None).unwrap();
    let mut settings = Settings::default();
    set_sa(&mut settings, "num_reads", serde_json::json!(32));
    set_sa(&mut settings, "num_sweeps", serde_json::json!(50));
    set_sa(&mut settings, "seed", serde_json::json!(2));
    let mut h = open(None, settings);
    h.state_mut()
        .shared
        .send(Command::File(FileAction::OpenModel, model));
    frames(&mut h);
    wait_for(&mut h, "the model's heatmap", |wb| wb.inspector.is_ready());
    h.get_by_label("Run").click();
    wait_for(&mut h, "sampling the model", |wb| {
        !wb.is_running() && wb.shared.result.is_some()
    });
    frames(&mut h);
    let r = h.state().shared.result.as_ref().unwrap();
    assert_eq!(r.samples.info.kernel(), Some("lanes8"));
    assert_eq!(r.samples.num_reads(), 32);
    assert!(
        h.query_by_label_contains("32 of 32 reads: every read ran its sweeps · kernel lanes8")
            .is_some()
    );
}

#[test]
fn a_long_run_shows_its_best_board_so_far_with_its_score() {
    use egui_kittest::kittest::NodeT;
    let clue =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/edge-matching/official/clue1.txt");
    let mut settings = Settings {
        sampler: "sa".into(),
        ..Default::default()
    };
    // Far more sweeps than the test waits for: the run is cancelled once the board is shown.
    set_param(
        &mut settings,
        "sa",
        "num_sweeps",
        serde_json::json!(100_000_000),
    );
    set_param(&mut settings, "sa", "num_reads", serde_json::json!(32));
    set_param(
        &mut settings,
        "sa",
        "beta_range",
        serde_json::json!([0.5, 5.0]),
    );
    let mut h = open(Some(&clue), settings);
    h.get_by_label("Run").click();
    frames(&mut h);
    wait_for(&mut h, "a best state from the running sampler", |wb| {
        wb.shared
            .run
            .as_ref()
            .is_some_and(|job| job.best_state_version() > 0)
    });
    frames(&mut h);
    assert!(h.state().is_running());
    // The puzzle shows the decoded board with its score out of the clue's 60 joints.
    let line = h
        .query_by_label_contains("Running: the best state so far, score")
        .expect("the running board's line")
        .accesskit_node();
    // A label's text is its accesskit value.
    let label = line.label().or_else(|| line.value()).unwrap_or_default();
    let value: u64 = label
        .split("score ")
        .nth(1)
        .and_then(|rest| rest.split(" / 60").next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no score out of 60 in {label:?}"));
    assert!(value <= 60, "{label}");
    // It is the decoded best state, refereed like any sample.
    let live = h
        .state_mut()
        .shared
        .run
        .as_mut()
        .and_then(|job| job.live_solution().cloned())
        .expect("a decoded board");
    let puzzle = h.state().shared.doc.puzzle().unwrap().clone();
    assert_eq!(puzzle.score(&live).unwrap().max, 60);
    h.get_by_label("Cancel").click();
    wait_for(&mut h, "the cancelled run", |wb| {
        !wb.is_running() && wb.shared.result.is_some()
    });
    assert!(
        h.state()
            .shared
            .result
            .as_ref()
            .unwrap()
            .samples
            .info
            .cancelled
    );
}

/// A read with defects (imported, as a run's would be) is repaired by the window re-solve in
/// the run's own thread: the results panel says what the step did, and its switch shows the
/// repaired answer on the board, which the referee passes.
#[test]
fn a_defective_read_is_repaired_and_the_repaired_answer_can_be_shown() {
    use qubo_workbench::puzzle::numberlink::solve;
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("puzzles/numberlink/generated/7x7-6pairs-seed1.txt");
    let mut h = open(Some(&file), Settings::default());
    h.get_by_label("presolve (drop what the givens decide)")
        .click();
    frames(&mut h);
    assert!(!h.state().shared.doc.options.presolve);
    wait_for_model(&mut h);
    let p = numberlink(h.state()).clone();
    let answer = solve::search(&p, 1, 10_000_000).solutions.remove(0);
    // Damage two neighbouring cells: their edges dropped.
    let inner: Vec<usize> = (0..49).filter(|&i| p.endpoints()[i] == 0).collect();
    let mut damaged = answer.clone();
    for &i in &inner[..2] {
        for (j, _) in answer.edges_at(&p, i) {
            damaged.set(&p, i, j, 0);
        }
    }
    let damaged = qubo_workbench::puzzle::AnySolution::Numberlink(damaged);
    repaired_on_import(&mut h, &AnyPuzzle::Numberlink(p), damaged);
}

/// The edge-matching twin: two swapped pieces are mended by the exact search in a window
/// round their mismatches.
#[test]
fn a_swapped_pair_of_tiles_is_repaired_and_the_repaired_answer_can_be_shown() {
    use qubo_workbench::puzzle::AnySolution;
    use qubo_workbench::puzzle::edge_matching::EdgeSolution;
    let file =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/edge-matching/seed-article-4x4.txt");
    let mut h = open(Some(&file), Settings::default());
    wait_for_model(&mut h);
    let any = AnyPuzzle::EdgeMatching(edge_matching(h.state()).clone());
    let reference = any.solve_classically(10_000_000);
    let Some(AnySolution::EdgeMatching(answer)) = reference.solution() else {
        panic!("the seed instance has an answer");
    };
    // The two middle pieces of the second row change places.
    let mut cells: Vec<_> = (0..16).map(|k| answer.single(k / 4, k % 4)).collect();
    cells.swap(5, 6);
    let damaged = EdgeSolution::from_single(4, 4, &cells);
    assert!(
        !any.check(&AnySolution::EdgeMatching(damaged.clone()))
            .is_empty()
    );
    repaired_on_import(&mut h, &any, AnySolution::EdgeMatching(damaged));
}

/// Imports `damaged` as a read of the window's model and checks the run's repair step mended
/// it: the results panel says so, and its switch shows the repaired answer, which passes.
fn repaired_on_import(
    h: &mut Window,
    any: &AnyPuzzle,
    damaged: qubo_workbench::puzzle::AnySolution,
) {
    use qubo_workbench::sampler::{SampleInfo, SampleSet};
    let dir = tempfile::tempdir().unwrap();
    let enc = h.state().shared.doc.encoding.clone().unwrap();
    let sample = any.solution_sample(&enc, &damaged).unwrap();
    let model = h.state().shared.doc.model.clone().unwrap();
    let samples = SampleSet::from_states(model.as_ref(), vec![sample], SampleInfo::default());
    let labels: Vec<String> = enc.labels().iter().map(|l| l.to_string()).collect();
    let path = dir.path().join("damaged.json");
    samples.save(&path, Some(&labels)).unwrap();
    h.state_mut()
        .shared
        .send(Command::File(FileAction::ImportSamples, path));
    wait_for(h, "the imported read", |wb| wb.shared.result.is_some());
    let r = h.state().shared.result.as_ref().unwrap();
    assert_eq!(r.rows[0].valid, Some(false));
    let (_, repaired) = r.repaired.as_ref().expect("the read was repaired");
    assert!(any.check(&repaired.solution).is_empty());
    assert!(repaired.how.starts_with("re-solved "), "{}", repaired.how);
    h.get_by_label_contains("Repaired: a read of energy");
    h.get_by_label("Show the repaired answer").click();
    frames(h);
    assert!(h.state().shared.show_repaired);
    h.get_by_label("✔ valid solution");
}

/// Every run is kept: two samplers' runs are listed, ticked and overlaid (and can be unticked,
/// renamed and shown on the board); the history survives a restart with the autosaved work.
#[test]
fn runs_of_two_samplers_are_kept_overlaid_and_survive_a_restart() {
    let mut settings = Settings {
        sampler: "sa".into(),
        ..Default::default()
    };
    set_sa(&mut settings, "num_reads", serde_json::json!(20));
    set_sa(&mut settings, "num_sweeps", serde_json::json!(50));
    set_sa(&mut settings, "seed", serde_json::json!(1));
    set_param(&mut settings, "tabu", "num_reads", serde_json::json!(4));
    set_param(&mut settings, "tabu", "seed", serde_json::json!(1));
    let mut h = open(Some(&puzzle("shidoku-6givens.txt")), settings);
    wait_for_model(&mut h);
    h.get_by_label("Run").click();
    wait_for(&mut h, "the SA run", |wb| {
        !wb.is_running() && wb.shared.doc.runs.len() == 1
    });
    h.state_mut().shared.settings.sampler = "tabu".into();
    frames(&mut h);
    h.get_by_label("Run").click();
    wait_for(&mut h, "the tabu run", |wb| {
        !wb.is_running() && wb.shared.doc.runs.len() == 2
    });
    let runs = &h.state().shared.doc.runs.runs;
    let samplers: Vec<&str> = runs.iter().map(|r| r.summary.sampler.as_str()).collect();
    assert_eq!(samplers, ["sa", "tabu"]);
    assert!(runs.iter().all(|r| r.ticked && r.summary.best.is_some()));
    assert_eq!(runs[0].summary.reads, 20);
    assert!(
        runs[0].summary.weights.contains_key("hint"),
        "{:?}",
        runs[0].summary.weights
    );
    h.get_by_label("Compare runs (2)").click();
    frames(&mut h);
    let legend = |h: &Window| -> Vec<String> {
        let d = h
            .state()
            .results
            .overlay
            .as_ref()
            .expect("the overlay is drawn");
        d.texts().map(str::to_string).collect()
    };
    let names = legend(&h);
    assert!(
        names.contains(&"sa #1".to_string()) && names.contains(&"tabu #2".to_string()),
        "{names:?}"
    );
    // Unticked, a run leaves the overlay; ticked again, it is back.
    // (The live plot's legend names the runs too: the table's box is the rightmost.)
    fn table_box(h: &Window) -> egui_kittest::Node<'_> {
        h.query_all_by_role_and_label(egui::accesskit::Role::CheckBox, "sa #1")
            .max_by(|a, b| a.rect().left().total_cmp(&b.rect().left()))
            .expect("the run's box in the table")
    }
    let tick_sa = |h: &mut Window| {
        table_box(h).scroll_to_me();
        frames(h);
        table_box(h).click();
        frames(h);
    };
    tick_sa(&mut h);
    assert!(!legend(&h).contains(&"sa #1".to_string()));
    tick_sa(&mut h);
    assert!(legend(&h).contains(&"sa #1".to_string()));
    // The table beside it has a row per run with its figures.
    assert!(h.query_by_label("TTS99 s").is_some());
    // The newest selected, renamed; the SA run selected, pinned and shown on the board.
    h.get_by_role_and_label(egui::accesskit::Role::Button, "tabu #2")
        .click();
    frames(&mut h);
    h.get_by_label("rename").click();
    frames(&mut h);
    let field = h.get_by_role(egui::accesskit::Role::TextInput);
    field.type_text("tabu, 4 reads");
    frames(&mut h);
    h.key_press(egui::Key::Enter);
    frames(&mut h);
    assert_eq!(
        h.state().shared.doc.runs.runs[1].summary.name,
        "tabu, 4 reads"
    );
    assert!(legend(&h).contains(&"tabu, 4 reads".to_string()));
    h.get_by_role_and_label(egui::accesskit::Role::Button, "sa #1")
        .scroll_to_me();
    frames(&mut h);
    h.get_by_role_and_label(egui::accesskit::Role::Button, "sa #1")
        .click();
    frames(&mut h);
    h.get_by_label("pin").click();
    h.get_by_label("show on board").click();
    frames(&mut h);
    assert!(h.state().shared.doc.runs.runs[0].pinned);
    let shown = h.state().shared.shown_run.as_ref().map(|r| r.0);
    assert_eq!(
        shown,
        Some(h.state().shared.doc.runs.runs[0].id),
        "the SA run's best"
    );
    assert!(
        h.state()
            .shared
            .status
            .starts_with("showing the best sample of sa #1")
    );
    // The history comes back with the autosaved document.
    let snapshot = h.state().shared.doc.snapshot().unwrap();
    let json = serde_json::to_string(&snapshot).unwrap();
    let back: qubo_workbench::gui::document::Snapshot = serde_json::from_str(&json).unwrap();
    let doc = qubo_workbench::gui::document::Document::from_snapshot(back);
    assert_eq!(doc.runs, h.state().shared.doc.runs);
    // Delete drops the selected run.
    h.get_by_label("delete").click();
    frames(&mut h);
    let left: Vec<&str> = h
        .state()
        .shared
        .doc
        .runs
        .runs
        .iter()
        .map(|r| r.summary.name.as_str())
        .collect();
    assert_eq!(left, ["tabu, 4 reads"]);
}

/// The window's Run and `solve` are one path: on a file of every kind, the same seeded SA
/// run gives the same figures in both (reads, energies, ground, shares).
#[test]
fn the_window_and_solve_report_the_same_figures_for_the_same_seed_on_every_kind() {
    let files = [
        root().join("puzzles/sudoku/shidoku-6givens.txt"),
        root().join("puzzles/edge-matching/tiny-3x3-fixed.txt"),
        root().join("puzzles/numberlink/tiny-3x2.txt"),
        root().join("puzzles/minesweeper/small-5x5-a.txt"),
    ];
    for file in files {
        let mut settings = Settings::default();
        set_sa(&mut settings, "seed", serde_json::json!(11));
        set_sa(&mut settings, "num_reads", serde_json::json!(24));
        set_sa(&mut settings, "num_sweeps", serde_json::json!(60));
        let mut h = open(Some(&file), settings);
        wait_for(&mut h, "the design facts", |wb| {
            wb.shared.current_facts().is_some()
        });
        run_to_end(&mut h, "the window's run");
        let window = h.state().shared.result.as_ref().unwrap();
        let cli = run_json(&[
            "solve",
            file.to_str().unwrap(),
            "--sampler",
            "sa",
            "--seed",
            "11",
            "--num-reads",
            "24",
            "--num-sweeps",
            "60",
            "--json",
        ]);
        let name = file.display();
        assert_eq!(cli["num_reads"], window.num_reads(), "{name}");
        assert_eq!(
            cli["min_energy"],
            serde_json::json!(window.min_energy()),
            "{name}"
        );
        assert_eq!(
            cli["ground_energy"],
            serde_json::json!(window.ground_energy),
            "{name}"
        );
        assert_eq!(
            cli["ground_unknown"],
            serde_json::json!(window.ground_unknown),
            "{name}"
        );
        assert_eq!(
            cli["ground_fraction"],
            serde_json::json!(window.ground_fraction()),
            "{name}"
        );
        assert_eq!(
            cli["success_fraction"],
            serde_json::json!(window.success_fraction().unwrap_or(0.0)),
            "{name}"
        );
        assert_eq!(
            cli["warnings"],
            serde_json::json!(window.samples.info.warnings),
            "{name}"
        );
    }
}
