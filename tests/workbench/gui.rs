//! The workbench's panels driven like a person would (egui_kittest: no display, no GPU):
//! clicks, keys and sliders through accesskit, then assertions on the state behind them.
//! No test reads or writes the user's settings: the workbench is built without storage.

use crate::common::*;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use qubo_workbench::gui::editors::{
    ConstrainedEditor, EdgeMatchingEditor, MinesweeperEditor, MinesweeperMode, NumberlinkEditor,
    SudokuEditor,
};
use qubo_workbench::gui::file_actions::FileAction;
use qubo_workbench::gui::settings::Settings;
use qubo_workbench::gui::{Command, Workbench};
use qubo_workbench::puzzle::AnyPuzzle;
use qubo_workbench::puzzle::edge_matching::{EdgeMatching, cell_origin, rotated};
use qubo_workbench::puzzle::picture::Show;

fn sudoku_editor(wb: &Workbench) -> &SudokuEditor {
    wb.puzzle
        .editors
        .get::<SudokuEditor>()
        .expect("a Sudoku editor")
}

/// Chooses SA and sets one of its parameters.
fn set_sa(settings: &mut Settings, name: &str, value: serde_json::Value) {
    settings.sampler = "sa".into();
    set_param(settings, "sa", name, value);
}

/// Picks a sampler from the solver panel's list, as a user would.
fn choose_sampler(h: &mut Harness<'static, Workbench>, name: &str) {
    h.get_by_label("sampler").click();
    frames(h);
    h.get_by_label(name).click();
    frames(h);
    assert_eq!(h.state().shared.settings.sampler, name);
}

fn given(wb: &Workbench, r: usize, c: usize) -> u8 {
    match wb.shared.doc.puzzle() {
        Some(AnyPuzzle::Sudoku(s)) => s.given(r, c),
        _ => panic!("no Sudoku"),
    }
}

#[test]
fn typing_into_the_sudoku_editor_edits_the_instance_and_undo_reverts() {
    let mut h = open(None, Settings::default());
    assert_eq!(
        given(h.state(), 4, 4),
        0,
        "the example's centre cell is blank"
    );
    // A click in the middle of the canvas selects the centre cell (4, 4) of the 9×9 grid.
    h.get_by_label("Puzzle canvas").click();
    frames(&mut h);
    assert_eq!(sudoku_editor(h.state()).selected, Some((4, 4)));
    h.key_press(egui::Key::Num5);
    frames(&mut h);
    assert_eq!(given(h.state(), 4, 4), 5);
    assert!(h.state().shared.doc.dirty);
    // The right arrow moves the selection; Delete on a blank cell changes nothing.
    h.key_press(egui::Key::ArrowRight);
    frames(&mut h);
    assert_eq!(sudoku_editor(h.state()).selected, Some((4, 5)));
    // Trial entries (not givens) with "Typing sets givens" off.
    h.get_by_label("Typing sets givens").click();
    frames(&mut h);
    h.key_press(egui::Key::Num3);
    frames(&mut h);
    assert_eq!(given(h.state(), 4, 5), 0, "an entry is not a given");
    assert_eq!(sudoku_editor(h.state()).entries[4 * 9 + 5], 3);
    // Undo goes back step by step, entries included: first the entry, then the given.
    let entry = |h: &Harness<'static, Workbench>| {
        sudoku_editor(h.state())
            .entries
            .get(4 * 9 + 5)
            .copied()
            .unwrap_or(0)
    };
    h.get_by_label("Undo").click();
    frames(&mut h);
    assert_eq!(entry(&h), 0, "undo takes the entry back first");
    assert_eq!(given(h.state(), 4, 4), 5);
    h.get_by_label("Undo").click();
    frames(&mut h);
    assert_eq!(given(h.state(), 4, 4), 0, "then the 5");
    h.get_by_label("Redo").click();
    frames(&mut h);
    assert_eq!(given(h.state(), 4, 4), 5);
    h.get_by_label("Redo").click();
    frames(&mut h);
    assert_eq!(entry(&h), 3, "and the entry");
}

#[test]
fn moving_a_weight_slider_rebuilds_the_qubo_and_the_heatmap() {
    let mut h = harness(Workbench::with_file(None, Settings::default()));
    wait_for(&mut h, "the first heatmap", |wb| wb.inspector.is_ready());
    let before = h.state().shared.doc.version;
    let hint_entry = |wb: &Workbench| {
        let m = wb.shared.doc.model.as_ref().unwrap();
        // x[0][2][2] is the given 3 at row 0, column 2: its diagonal entry carries −hint.
        m.qubo.linear()[2 * 9 + 2]
    };
    assert_eq!(hint_entry(h.state()), -1.0 - 1.0 - 1.0 - 1.0 - 2.0);
    h.get_by_role_and_label(egui::Role::Slider, "hint")
        .set_value_accesskit(3.5);
    frames(&mut h);
    assert!(
        h.state().shared.doc.version > before,
        "the model was rebuilt"
    );
    assert_eq!(h.state().shared.doc.weight("hint"), Some(3.5));
    assert_eq!(hint_entry(h.state()), -4.0 - 3.5);
    wait_for(&mut h, "the heatmap of the new model", |wb| {
        wb.inspector.is_ready() && wb.inspector.shown_version() == Some(wb.shared.doc.version)
    });
    assert_eq!(h.state().inspector.stats().unwrap().linear_range.0, -7.5);
    // A slider dragged through many values, a model each frame: one raster in flight at a
    // time, and the last one drawn is the newest model's.
    let started = h.state().inspector.rasters_started;
    for k in 0..12 {
        h.get_by_role_and_label(egui::Role::Slider, "hint")
            .set_value_accesskit(4.0 + f64::from(k) * 0.25);
        h.step();
    }
    wait_for(&mut h, "the heatmap of the last model", |wb| {
        wb.shared.doc.model_is_current()
            && wb.inspector.is_ready()
            && wb.inspector.shown_version() == Some(wb.shared.doc.version)
    });
    let rasters = h.state().inspector.rasters_started - started;
    assert!(
        (1..12).contains(&rasters),
        "{rasters} rasters for 12 models"
    );
    assert_eq!(
        h.state().inspector.stats().unwrap().linear_range.0,
        -4.0 - 6.75
    );
}

#[test]
fn tabu_is_chosen_from_the_list_its_widgets_come_from_its_description_and_it_solves() {
    // A fixed seed, set where the GUI keeps each sampler's parameters: the run is repeatable.
    let mut settings = Settings::default();
    set_param(&mut settings, "tabu", "seed", serde_json::json!(1));
    let mut h = open(Some(&puzzle("euler96_g1.txt")), settings);
    h.get_by_label("presolve (drop what the givens decide)")
        .click();
    choose_sampler(&mut h, "tabu");
    // Its own parameters, not SA's: a tenure widget, no num_sweeps.
    assert!(h.query_by_label_contains("tenure").is_some());
    assert!(h.query_by_label_contains("num_sweeps").is_none());
    run_to_end(&mut h, "the tabu run");
    let r = h.state().shared.result.as_ref().unwrap();
    assert_eq!(r.samples.info.sampler, "tabu");
    assert!(
        r.success_fraction().unwrap() > 0.0,
        "tabu solves the presolved Euler96 #1"
    );
}

#[test]
fn exact_sampler_on_a_presolved_4x4_gives_a_valid_selected_solution() {
    let mut h = open(Some(&puzzle("shidoku-6givens.txt")), Settings::default());
    h.get_by_label("presolve (drop what the givens decide)")
        .click();
    frames(&mut h);
    assert!(h.state().shared.doc.options.presolve);
    choose_sampler(&mut h, "exact");
    run_to_end(&mut h, "the exact run");
    let wb = h.state();
    let r = wb.shared.result.as_ref().unwrap();
    assert_eq!(
        r.rows[0].valid,
        Some(true),
        "the ground state is the solution"
    );
    assert_eq!(Some(r.samples.rows[0].energy), r.ground_energy);
    assert_eq!(
        wb.shared.selected_row,
        Some(0),
        "the best sample is shown on the puzzle"
    );
    assert!(wb.shared.selected_solution().is_some());
    let bars = r.histogram();
    assert!(
        bars.iter().any(|b| b.valid > 0) && bars.iter().any(|b| b.other > 0),
        "valid and invalid bars"
    );
    // The selected read against the classical solution (the design facts'): all of the ten
    // open cells for the ground state.
    wait_for(&mut h, "the design facts", |wb| {
        wb.shared.current_facts().is_some()
    });
    assert!(
        h.query_by_label("agrees with the classical solution in 10 of 10 open cells (100 %)")
            .is_some()
    );
    // The results table: clicking a row selects it.
    h.get_by_label("2").click();
    frames(&mut h);
    assert_eq!(h.state().shared.selected_row, Some(1));
    assert!(
        !h.state().shared.result.as_ref().unwrap().rows[1]
            .broken
            .is_empty()
    );
    let wb = h.state();
    let read = wb.shared.result.as_ref().unwrap().rows[1]
        .decoded
        .clone()
        .unwrap();
    let known = wb.shared.current_facts().unwrap().unwrap().solution.clone();
    let a = wb
        .shared
        .doc
        .puzzle()
        .unwrap()
        .agreement(&read, &known.unwrap())
        .unwrap();
    assert!(a.same < 10, "an invalid read differs somewhere: {a:?}");
    assert!(
        h.query_by_label_contains(&format!("in {} of 10 open cells", a.same))
            .is_some()
    );
}

#[test]
fn the_first_run_on_the_example_with_nothing_changed_gives_valid_solutions() {
    // A new user opens the workbench and presses Run: `auto` picks tempering for the full
    // (not presolved) example and says so, and the run ends with valid solutions.
    let mut h = open(None, Settings::default());
    assert_eq!(h.state().shared.settings.sampler, "auto");
    assert!(h.query_by_label_contains("auto → pt").is_some());
    assert!(h.query_by_label_contains("num_replicas").is_some());
    // A Sudoku's groups of 9 are left to the flip kernels: no groups are held.
    assert!(h.query_by_label_contains("moves:").is_none());
    run_to_end(&mut h, "the first run");
    let r = h.state().shared.result.as_ref().unwrap();
    assert_eq!(r.samples.info.sampler, "pt");
    assert!(!h.state().shared.doc.options.presolve, "the full model");
    assert_eq!(
        r.success_fraction(),
        Some(1.0),
        "{:?}",
        r.samples.info.params
    );
    // The solver panel now shows the ladder the run used, with its swap rates.
    frames(&mut h);
    assert!(h.query_by_label_contains("last run's ladder").is_some());
}

#[test]
fn sqa_shows_its_schedule_and_solves_the_presolved_example() {
    let mut settings = Settings::default();
    set_param(&mut settings, "sqa", "seed", serde_json::json!(2));
    set_param(&mut settings, "sqa", "num_reads", serde_json::json!(32));
    let mut h = open(Some(&puzzle("euler96_g1.txt")), settings);
    h.get_by_label("presolve (drop what the givens decide)")
        .click();
    choose_sampler(&mut h, "sqa");
    assert!(h.query_by_label_contains("trotter").is_some());
    assert!(h.query_by_label("SQA schedule").is_some());
    run_to_end(&mut h, "the SQA run");
    let r = h.state().shared.result.as_ref().unwrap();
    assert_eq!(r.samples.info.sampler, "sqa");
    assert!(
        r.success_fraction().unwrap() > 0.3,
        "{:?}",
        r.success_fraction()
    );
}

#[test]
fn simulated_annealing_runs_to_completion_with_progress() {
    let mut settings = Settings::default();
    set_sa(&mut settings, "num_reads", serde_json::json!(40));
    set_sa(&mut settings, "seed", serde_json::json!(3));
    let mut h = open(Some(&puzzle("euler96_g1.txt")), settings);
    h.get_by_label("presolve (drop what the givens decide)")
        .click();
    frames(&mut h);
    h.get_by_label("Run").click();
    h.step();
    assert!(h.state().is_running());
    wait_for(&mut h, "the SA run", |wb| !wb.is_running());
    let r = h.state().shared.result.as_ref().expect("a result");
    assert_eq!(r.samples.num_reads(), 40);
    assert!(
        r.success_fraction().unwrap() > 0.1,
        "{:?}",
        r.success_fraction()
    );
    assert!(r.tts99_s().is_some());
}

#[test]
fn a_long_run_can_be_cancelled() {
    let mut settings = Settings::default();
    set_sa(&mut settings, "num_reads", serde_json::json!(64));
    set_sa(&mut settings, "num_sweeps", serde_json::json!(5_000_000));
    let mut h = open(None, settings);
    h.get_by_label("Run").click();
    h.step();
    assert!(h.state().is_running());
    std::thread::sleep(Duration::from_millis(300));
    h.step();
    h.get_by_label("Cancel").click();
    h.step();
    wait_for(&mut h, "the cancelled run", |wb| !wb.is_running());
    let r = h
        .state()
        .shared
        .result
        .as_ref()
        .expect("the reads completed so far");
    assert!(r.samples.info.cancelled);
    assert!(r.samples.num_reads() < 64);
}

#[test]
fn files_are_read_and_written_off_the_ui_thread_and_a_save_overtaken_by_an_edit_stays_unsaved() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open(None, Settings::default());
    // Opening: the frame that asks returns at once with the read under way…
    h.state_mut().shared.send(Command::File(
        FileAction::OpenPuzzle,
        puzzle("shidoku-6givens.txt"),
    ));
    h.step();
    assert_eq!(h.state().shared.files.len(), 1, "the read is a job");
    assert!(
        h.state().shared.status.starts_with("opening "),
        "{}",
        h.state().shared.status
    );
    // …and the document is replaced when it lands.
    frames(&mut h);
    assert!(h.state().shared.status.starts_with("opened "));
    assert!(matches!(
        h.state().shared.doc.puzzle(),
        Some(AnyPuzzle::Sudoku(_))
    ));
    // Saving: the puzzle as it was when Save was pressed is written; an edit made before the
    // write lands keeps the document unsaved.
    let saved = dir.path().join("s.txt");
    h.state_mut()
        .shared
        .send(Command::File(FileAction::SaveAs, saved.clone()));
    h.step();
    assert_eq!(h.state().shared.files.len(), 1, "the write is a job");
    let before = h.state().shared.doc.puzzle().unwrap().clone();
    let AnyPuzzle::Sudoku(mut changed) = before.clone() else {
        panic!("a Sudoku")
    };
    let side = changed.side();
    let given = (0..side * side)
        .find(|&k| changed.given(k / side, k % side) != 0)
        .unwrap();
    changed.set_given(given / side, given % side, 0).unwrap();
    h.state_mut()
        .shared
        .doc
        .replace(AnyPuzzle::Sudoku(changed))
        .unwrap();
    frames(&mut h);
    let s = &h.state().shared;
    assert!(
        s.status.contains("changed since: still unsaved"),
        "{}",
        s.status
    );
    assert!(s.doc.dirty);
    assert_eq!(
        std::fs::read_to_string(&saved).unwrap(),
        before.to_text() + "\n"
    );
    // Saved again with nothing changed meanwhile: clean, and the status says where it went.
    h.state_mut()
        .shared
        .send(Command::File(FileAction::SaveAs, saved.clone()));
    frames(&mut h);
    let s = &h.state().shared;
    assert_eq!(s.status, format!("saved {}", saved.display()));
    assert!(!s.doc.dirty);
    // A write that fails says why, naming the file.
    let nowhere = dir.path().join("missing-folder").join("x.png");
    h.state_mut()
        .shared
        .send(Command::File(FileAction::ExportImage, nowhere.clone()));
    frames(&mut h);
    assert!(
        h.state().shared.status.contains("missing-folder"),
        "{}",
        h.state().shared.status
    );
}

#[test]
fn exports_write_a_png_the_qubo_and_the_samples() {
    let dir = tempfile::tempdir().unwrap();
    let mut settings = Settings::default();
    set_sa(&mut settings, "num_reads", serde_json::json!(8));
    set_sa(&mut settings, "num_sweeps", serde_json::json!(50));
    let mut h = open(None, settings);
    let png = dir.path().join("puzzle.png");
    h.state_mut()
        .shared
        .send(Command::File(FileAction::ExportImage, png.clone()));
    frames(&mut h);
    let bytes = std::fs::read(&png).expect("the PNG was written");
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let be = |k: usize| u32::from_be_bytes([bytes[k], bytes[k + 1], bytes[k + 2], bytes[k + 3]]);
    // 9 cells + 2 × 0.2 margin = 9.4 units at 48 px per unit.
    assert_eq!((be(16), be(20)), (452, 452));
    let coo = dir.path().join("model.coo");
    h.state_mut()
        .shared
        .send(Command::File(FileAction::ExportQubo, coo.clone()));
    frames(&mut h);
    assert!(
        std::fs::read_to_string(&coo)
            .unwrap()
            .starts_with("# vartype=BINARY\n# n=729")
    );
    h.get_by_label("Run").click();
    wait_for(&mut h, "a short run", |wb| {
        !wb.is_running() && wb.shared.result.is_some()
    });
    let json = dir.path().join("samples.json");
    h.state_mut()
        .shared
        .send(Command::File(FileAction::ExportSamples, json.clone()));
    frames(&mut h);
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["type"], "SampleSet");
    assert_eq!(v["num_variables"], 729);
    let csv = dir.path().join("samples.csv");
    h.state_mut()
        .shared
        .send(Command::File(FileAction::ExportSamples, csv.clone()));
    frames(&mut h);
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(text.starts_with("energy,num_occurrences,x[0][0][0]"));
}

#[test]
fn a_weight_sweep_plots_points_and_a_click_can_set_the_weight() {
    let mut settings = Settings::default();
    set_sa(&mut settings, "num_sweeps", serde_json::json!(300));
    set_sa(&mut settings, "seed", serde_json::json!(1));
    settings.sweep.setup.steps = 3;
    settings.sweep.num_reads = 16;
    settings.sweep.from = 0.0;
    settings.sweep.to = 2.0;
    let mut h = open(Some(&puzzle("shidoku-6givens.txt")), settings);
    assert!(
        h.state().running_tasks().iter().all(|t| t.name != "sweep"),
        "{:?}",
        h.state().running_tasks()
    );
    h.get_by_label("Run sweep").click();
    h.step();
    // The sweep is a named task while it runs, and the status bar lists it with its points.
    let tasks = h.state().running_tasks();
    assert!(
        tasks
            .iter()
            .any(|t| t.name == "sweep" && t.detail.ends_with("/ 3 points")),
        "{tasks:?}"
    );
    let summary = h.state().running_summary().unwrap_or_default();
    assert!(summary.contains("sweep 0 / 3 points"), "{summary}");
    wait_for(&mut h, "the sweep", |wb| !wb.is_sweeping());
    assert!(h.state().running_tasks().iter().all(|t| t.name != "sweep"));
    let pts = &h.state().sweep.points;
    assert_eq!(
        pts.iter().map(|p| p.value).collect::<Vec<_>>(),
        vec![0.0, 1.0, 2.0]
    );
    assert!(pts[2].success_fraction > pts[0].success_fraction, "{pts:?}");
    // Each point says how many runs it pooled and why it stopped (settled, or out of runs).
    assert!(pts.iter().all(|p| p.runs >= 1 && p.threads >= 1), "{pts:?}");
    assert!(
        pts[0].penalty_too_weak && !pts[2].penalty_too_weak,
        "{pts:?}"
    );
    // A click on the plot's middle picks the middle point's weight.
    // The plot is below the panel's controls: scroll to it, as a user would.
    h.get_by_label("sweep plot").scroll_to_me();
    frames(&mut h);
    h.get_by_label("sweep plot").click();
    frames(&mut h);
    assert_eq!(h.state().shared.doc.weight("hint"), Some(1.0));
    // The status says what the point measured and why it stopped.
    let status = &h.state().shared.status;
    assert!(status.starts_with("set hint = 1 — valid "), "{status}");
    assert!(
        ["settled after", "run(s) done", "not solved within"]
            .iter()
            .any(|w| status.contains(w)),
        "{status}"
    );
    // The sweep is kept with the autosaved work, and comes back with it.
    let mut snapshot = h.state().shared.doc.snapshot().unwrap();
    snapshot.sweep = h.state().sweep.saved();
    let json = serde_json::to_string(&snapshot).unwrap();
    let mut back: qubo_workbench::gui::document::Snapshot = serde_json::from_str(&json).unwrap();
    let saved = back.sweep.take().expect("the sweep is in the snapshot");
    let mut wb = Workbench::with_file(None, Settings::default());
    wb.shared.doc = qubo_workbench::gui::document::Document::from_snapshot(back);
    wb.sweep.restore(saved);
    let (kept, shown) = (&wb.sweep.points, &h.state().sweep.points);
    assert_eq!(kept.len(), shown.len());
    for (a, b) in kept.iter().zip(shown) {
        assert_eq!(
            (a.value, a.reads, &a.weights),
            (b.value, b.reads, &b.weights)
        );
        assert_eq!(a.penalty_too_weak, b.penalty_too_weak);
        assert!((a.success_fraction - b.success_fraction).abs() < 1e-12);
    }
}

#[test]
fn a_flagged_point_shows_its_witness_and_a_two_weight_sweep_sets_both_weights() {
    let mut settings = Settings::default();
    set_sa(&mut settings, "num_sweeps", serde_json::json!(200));
    set_sa(&mut settings, "seed", serde_json::json!(3));
    // One point, at hint = 0: an invalid read ties with the solution.
    (
        settings.sweep.from,
        settings.sweep.to,
        settings.sweep.setup.steps,
    ) = (0.0, 0.0, 1);
    settings.sweep.num_reads = 30;
    settings.sweep.weight = "hint".into();
    let mut h = open(Some(&puzzle("shidoku-6givens.txt")), settings);
    h.get_by_label("Run sweep").click();
    h.step();
    wait_for(&mut h, "the sweep", |wb| !wb.is_sweeping());
    assert!(h.state().sweep.points[0].penalty_too_weak);
    // The plot is below the panel's controls: scroll to it, as a user would.
    h.get_by_label("sweep plot").scroll_to_me();
    frames(&mut h);
    h.get_by_label("sweep plot").click();
    frames(&mut h);
    assert_eq!(h.state().sweep.witness_of, Some(0));
    assert!(
        h.query_by_label_contains("penalty too weak: an invalid read")
            .is_some()
    );

    // A grid: hint × cell, 2 × 2 points; a click on a cell sets both weights.
    {
        let sw = &mut h.state_mut().shared.settings.sweep;
        (sw.from, sw.to, sw.setup.steps) = (0.0, 2.0, 2);
        (sw.weight2, sw.from2, sw.to2, sw.setup.steps2) = ("cell".into(), 0.5, 1.5, 2);
        sw.setup.metric = qubo_workbench::sweep::Metric::Tts99;
    }
    frames(&mut h);
    h.get_by_label("Run sweep").click();
    h.step();
    wait_for(&mut h, "the grid", |wb| !wb.is_sweeping());
    let pts = &h.state().sweep.points;
    assert_eq!(pts.len(), 4);
    assert!(pts.iter().all(|p| p.value2.is_some()));
    // The plot is below the panel's controls: scroll to it, as a user would.
    h.get_by_label("sweep plot").scroll_to_me();
    frames(&mut h);
    h.get_by_label("sweep plot").click();
    frames(&mut h);
    let doc = &h.state().shared.doc;
    let (hint, cell) = (doc.weight("hint").unwrap(), doc.weight("cell").unwrap());
    assert!(
        [0.0, 2.0].contains(&hint) && [0.5, 1.5].contains(&cell),
        "{hint} {cell}"
    );
    // The points and the plot export.
    let dir = tempfile::tempdir().unwrap();
    let (csv, svg) = (dir.path().join("p.csv"), dir.path().join("p.svg"));
    h.state_mut()
        .shared
        .send(Command::File(FileAction::ExportSweep, csv.clone()));
    h.state_mut()
        .shared
        .send(Command::File(FileAction::ExportSweepPlot, svg.clone()));
    frames(&mut h);
    assert_eq!(std::fs::read_to_string(&csv).unwrap().lines().count(), 5);
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains(">hint<") && text.contains(">cell<") && text.contains("TTS99"));
}

#[test]
fn suggest_weights_searches_and_use_these_sets_them_and_idle_weights_say_why() {
    let mut settings = Settings::default();
    set_sa(&mut settings, "num_sweeps", serde_json::json!(100));
    set_sa(&mut settings, "seed", serde_json::json!(2));
    settings.sweep.num_reads = 30;
    settings.sweep.tune.budget = 20.0;
    let mut h = open(Some(&puzzle("shidoku-6givens.txt")), settings);
    h.state_mut().shared.doc.set_weight("hint", 0.5).unwrap();
    frames(&mut h);
    h.get_by_label("Suggest weights").click();
    h.step();
    wait_for(&mut h, "the suggestion", |wb| !wb.is_sweeping());
    let found = h.state().sweep.suggestion.clone().expect("a suggestion");
    assert!(found.path.len() >= 3);
    assert!(!h.state().sweep.tried.is_empty(), "tried");
    assert!(h.query_by_label("suggestion path").is_some());
    assert!(!found.best.penalty_too_weak);
    assert!(found.best.success_fraction > found.path[0].success_fraction);
    h.get_by_label("Use these").click();
    frames(&mut h);
    let doc = &h.state().shared.doc;
    for (name, value) in &found.best.weights {
        assert_eq!(doc.weight(name), Some(*value), "{name}");
    }
    // With presolve on, hint has no terms: its slider says so and it cannot be swept.
    h.get_by_label("presolve (drop what the givens decide)")
        .click();
    frames(&mut h);
    assert!(
        h.query_all_by_label_contains("hint (no terms)")
            .next()
            .is_some()
    );
    assert_ne!(h.state().shared.settings.sweep.weight, "hint");
}

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
fn opening_a_model_file_shows_it_in_the_inspector_without_a_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.qubo");
    std::fs::write(&model, "p qubo 0 3 3 1\n0 0 -1\n1 1 2\n2 2 0.5\n0 2 -3\n").unwrap();
    let mut h = open(None, Settings::default());
    h.state_mut()
        .shared
        .send(Command::File(FileAction::OpenModel, model));
    frames(&mut h);
    assert!(h.state().shared.doc.puzzle().is_none());
    wait_for(&mut h, "the model's heatmap", |wb| wb.inspector.is_ready());
    assert_eq!(h.state().inspector.stats().unwrap().n, 3);
    h.get_by_label("Run").click();
    wait_for(&mut h, "sampling the model", |wb| {
        !wb.is_running() && wb.shared.result.is_some()
    });
    let r = h.state().shared.result.as_ref().unwrap();
    assert_eq!(
        r.samples.rows[0].energy, -3.5,
        "x = (1, 0, 1): −1 + 0.5 − 3"
    );
    // A malformed file leaves the document alone and says what is wrong.
    let bad = dir.path().join("bad.coo");
    std::fs::write(&bad, "0 0 x\n").unwrap();
    h.state_mut()
        .shared
        .send(Command::File(FileAction::OpenModel, bad));
    frames(&mut h);
    assert!(
        h.state()
            .shared
            .status
            .contains("bad.coo:1: value 'x' is not a number"),
        "{}",
        h.state().shared.status
    );
}

#[test]
fn samples_from_a_notebook_show_as_a_run_of_the_open_model_matched_by_label() {
    let dir = tempfile::tempdir().unwrap();
    // A SPIN model whose labels come in another order than the samples' columns.
    let model = dir.path().join("m.json");
    std::fs::write(
        &model,
        r#"{"type": "BinaryQuadraticModel", "version": {"bqm_schema": "3.0.0"},
          "use_bytes": false, "index_type": "int32", "bias_type": "float64",
          "num_variables": 3, "num_interactions": 2, "variable_labels": ["c", "a", ["t", 1]],
          "variable_type": "SPIN", "offset": 1.5, "info": {},
          "linear_biases": [1.0, 2.0, 0.5], "quadratic_biases": [3.0, -1.0],
          "quadratic_head": [0, 0], "quadratic_tail": [1, 2]}"#,
    )
    .unwrap();
    // dimod's SampleSet.to_serializable(): columns a, ("t", 1), c; SPIN values.
    let samples = dir.path().join("s.json");
    let sample_set = |labels: &str| {
        format!(
            r#"{{"type": "SampleSet", "version": {{"sampleset_schema": "3.2.0"}},
              "num_variables": 3, "num_rows": 2, "sample_packed": false,
              "sample_data": {{"type": "array", "data": [[-1, 1, 1], [1, -1, -1]],
                "data_type": "int8", "shape": [2, 3], "use_bytes": false}},
              "vectors": {{"energy": {{"type": "array", "data": [-3.0, -2.0],
                  "data_type": "float64", "shape": [2], "use_bytes": false}},
                "num_occurrences": {{"type": "array", "data": [5, 2],
                  "data_type": "int64", "shape": [2], "use_bytes": false}}}},
              "variable_labels": {labels}, "variable_type": "SPIN", "info": {{}}}}"#
        )
    };
    std::fs::write(&samples, sample_set(r#"["a", ["t", 1], "c"]"#)).unwrap();
    let mut h = open(None, Settings::default());
    // Sent together, as `gui m.json --samples s.json` does: the samples wait for the model.
    h.state_mut()
        .shared
        .send(Command::File(FileAction::OpenModel, model));
    h.state_mut()
        .shared
        .send(Command::File(FileAction::ImportSamples, samples.clone()));
    wait_for(&mut h, "the imported run", |wb| wb.shared.result.is_some());
    let status = h.state().shared.status.clone();
    assert!(status.starts_with("7 reads from"), "{status}");
    let r = h.state().shared.result.as_ref().unwrap();
    // Model order c, a, ("t", 1): the first row is c = +1, a = −1, t = +1 → x = (1, 0, 1).
    assert_eq!(r.samples.rows[0].sample, vec![1, 0, 1]);
    assert_eq!(r.samples.rows[0].energy, -3.0);
    assert_eq!(r.samples.rows[0].num_occurrences, 5);
    assert!(
        r.samples.info.warnings.is_empty(),
        "{:?}",
        r.samples.info.warnings
    );
    assert_eq!(h.state().shared.doc.runs.len(), 1, "kept for comparison");
    // A label the model does not have is named, and the run shown stays.
    std::fs::write(&samples, sample_set(r#"["a", "b", "c"]"#)).unwrap();
    h.state_mut()
        .shared
        .send(Command::File(FileAction::ImportSamples, samples));
    wait_for(&mut h, "the refused import", |wb| {
        wb.shared.status.contains("not read")
    });
    let status = h.state().shared.status.clone();
    assert!(
        status.contains("a variable \"b\" the model does not have"),
        "{status}"
    );
    assert_eq!(h.state().shared.doc.runs.len(), 1);
}

#[test]
fn closing_with_unsaved_changes_asks_first() {
    let mut h = open(None, Settings::default());
    h.get_by_label("Puzzle canvas").click();
    frames(&mut h);
    h.key_press(egui::Key::Num4);
    frames(&mut h);
    assert!(h.state().shared.doc.dirty);
    // What WorkbenchApp does when the window's close button is pressed on a dirty document.
    h.state_mut().confirm_close = true;
    frames(&mut h);
    h.get_by_label("Don't close").click();
    frames(&mut h);
    assert!(
        !h.state().confirm_close && !h.state().close_now,
        "the window stays"
    );
    h.state_mut().confirm_close = true;
    frames(&mut h);
    h.get_by_label("Close without saving").click();
    frames(&mut h);
    assert!(h.state().close_now);
}

#[test]
fn autosave_snapshots_restore_the_work() {
    use qubo_workbench::gui::document::Document;
    let mut h = open(None, Settings::default());
    h.get_by_label("Puzzle canvas").click();
    frames(&mut h);
    h.key_press(egui::Key::Num6);
    frames(&mut h);
    h.get_by_role_and_label(egui::Role::Slider, "hint")
        .set_value_accesskit(2.5);
    frames(&mut h);
    // The snapshot goes through JSON as eframe's storage keeps it.
    let text = serde_json::to_string(&h.state().shared.doc.snapshot().unwrap()).unwrap();
    let restored = Document::from_snapshot(serde_json::from_str(&text).unwrap());
    let wb = Workbench::new(restored, Settings::default());
    assert_eq!(given(&wb, 4, 4), 6);
    assert!(wb.shared.doc.dirty, "still unsaved after a restart");
    assert_eq!(wb.shared.doc.weight("hint"), Some(2.5));
    let settings = serde_json::to_string(&Settings::default()).unwrap();
    assert_eq!(
        serde_json::from_str::<Settings>(&settings).unwrap(),
        Settings::default()
    );
}

#[test]
fn hovering_the_heatmap_names_the_entry_and_its_constraints() {
    let mut h = harness(Workbench::with_file(None, Settings::default()));
    wait_for(&mut h, "the heatmap", |wb| wb.inspector.is_ready());
    let rect = h.state().inspector.view_rect.expect("the matrix is drawn");
    // 729 variables over the view: the top-left pixel block is entry (0, 0), x[0][0][0].
    let cell = rect.width() / 729.0;
    h.hover_at(rect.min + egui::vec2(cell * 0.5, cell * 0.5));
    frames(&mut h);
    assert_eq!(h.state().inspector.hover, Some((0, 0)));
    h.get_by_label_contains("Q[0][0] = -4");
    h.get_by_label_contains("i = 0: x[0][0][0]");
    h.get_by_label_contains("cell[0][0] (weight cell): coefficient -1");
    h.get_by_label_contains("row[0]#1 (weight row)");
}

#[test]
fn conflicting_givens_are_shown_and_refused_before_sampling_but_stay_editable() {
    let mut h = harness(Workbench::with_file(None, Settings::default()));
    wait_for(&mut h, "the design facts", |wb| {
        wb.shared.current_facts().is_some()
    });
    let facts = h.state().shared.current_facts().unwrap().unwrap().summary();
    assert!(facts.starts_with("1 solution"), "{facts}");
    // Select (0, 0) and type a 3: row 1 already has a given 3 (Euler96 #1 starts "003…").
    h.get_by_label("Puzzle canvas").click();
    frames(&mut h);
    h.state_mut()
        .puzzle
        .editors
        .get_mut::<SudokuEditor>()
        .unwrap()
        .selected = Some((0, 0));
    h.key_press(egui::Key::Num3);
    frames(&mut h);
    assert_eq!(given(h.state(), 0, 0), 3, "the user may still type it");
    wait_for(&mut h, "the new design facts", |wb| {
        wb.shared.current_facts().is_some()
    });
    let facts = h.state().shared.current_facts().unwrap().unwrap();
    assert_eq!(facts.conflicts[0].detail, "digit 3 twice in row 1");
    assert!(
        h.query_by_label_contains("the givens conflict (").is_some(),
        "the editor shows the conflict"
    );
    h.get_by_label("Run").click();
    frames(&mut h);
    assert!(!h.state().is_running(), "nothing is sampled");
    assert_eq!(
        h.state().shared.status,
        "not sampled: the givens conflict: digit 3 twice in row 1"
    );
    // Undo clears the conflict; Run works again.
    h.get_by_label("Undo").click();
    frames(&mut h);
    assert!(
        h.state()
            .shared
            .doc
            .puzzle()
            .unwrap()
            .conflicts()
            .is_empty()
    );
}

#[test]
fn generate_runs_as_a_job_from_the_kinds_parameter_form() {
    let mut h = open(None, Settings::default());
    let before = h.state().shared.doc.puzzle().cloned();
    h.get_by_label("Generate").click();
    frames(&mut h);
    wait_for(&mut h, "the generated puzzle", |wb| {
        wb.shared.generating.is_none() && wb.shared.doc.puzzle().cloned() != before
    });
    let p = h.state().shared.doc.puzzle().unwrap().clone();
    assert_eq!(p.describe(), "9×9 Sudoku, 28 givens", "the form's defaults");
    assert!(
        h.state().shared.doc.path.is_none() && h.state().shared.doc.dirty,
        "a new, unsaved document"
    );
    wait_for(&mut h, "its design facts", |wb| {
        wb.shared.current_facts().is_some()
    });
    assert_eq!(
        h.state().shared.current_facts().unwrap().unwrap().solutions,
        qubo_workbench::puzzle::SolutionCount::One
    );
    // A band from the form: the facts show the band of what it made.
    h.state_mut()
        .puzzle
        .generator
        .entry("sudoku")
        .or_default()
        .insert("difficulty".into(), serde_json::json!("hard"));
    let before = h.state().shared.doc.puzzle().cloned();
    h.get_by_label("Generate").click();
    frames(&mut h);
    wait_for(&mut h, "the hard puzzle", |wb| {
        wb.shared.generating.is_none() && wb.shared.doc.puzzle().cloned() != before
    });
    wait_for(&mut h, "its design facts", |wb| {
        wb.shared.current_facts().is_some()
    });
    let facts = h
        .state()
        .shared
        .current_facts()
        .unwrap()
        .unwrap()
        .facts
        .clone();
    assert!(
        facts.contains(&("difficulty".to_string(), serde_json::json!("hard"))),
        "{facts:?}"
    );
    // Both are kept in Recent, newest first, with the parameters that made them; the older
    // one opens again.
    let recent = h.state().shared.settings.recent_generated.clone();
    assert_eq!(recent.len(), 2);
    assert!(recent[0].params.contains("difficulty hard"), "{recent:?}");
    assert_eq!(recent[1].params, "defaults");
    h.get_by_label("Recently generated (2)").click();
    frames(&mut h);
    h.get_by_label_contains("— defaults").click();
    frames(&mut h);
    assert_eq!(
        h.state().shared.doc.puzzle().unwrap().to_text(),
        recent[1].text
    );
}

#[test]
fn a_searching_generator_shows_its_tries_and_can_be_cancelled() {
    let file =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/numberlink/tiny-3x2.txt");
    let mut h = open(Some(&file), Settings::default());
    // A long search: Numberlinks that need cases within cases are rare among random ones
    // (none in 20 000 draws at 7×7 with 6 pairs).
    let values = h
        .state_mut()
        .puzzle
        .generator
        .entry("numberlink")
        .or_default();
    values.insert("difficulty".into(), serde_json::json!("nested"));
    h.get_by_label("Generate").click();
    frames(&mut h);
    assert!(h.state().shared.generating.is_some());
    wait_for(&mut h, "its first try reported", |wb| {
        wb.shared
            .generating
            .as_ref()
            .is_some_and(|j| j.control.progress().1 > 0)
    });
    frames(&mut h);
    assert!(h.query_by_label_contains("of at most 20000").is_some());
    h.get_by_label("Cancel generating").click();
    frames(&mut h);
    wait_for(&mut h, "the generator to stop", |wb| {
        wb.shared.generating.is_none()
    });
    let status = &h.state().shared.status;
    assert!(status.contains("generation cancelled"), "{status}");
}

fn edge_matching(wb: &Workbench) -> &EdgeMatching {
    match wb.shared.doc.puzzle() {
        Some(AnyPuzzle::EdgeMatching(p)) => p,
        _ => panic!("no edge-matching puzzle"),
    }
}

/// Screen position of the centre of cell (r, c), nudged towards one side.
fn cell_point(wb: &Workbench, r: usize, c: usize, towards: [f32; 2]) -> egui::Pos2 {
    let at = wb.puzzle.placement.expect("the canvas was laid out");
    let [x, y] = cell_origin(edge_matching(wb), r, c);
    at.to_screen([x + 0.5 + towards[0], y + 0.5 + towards[1]])
}

/// Presses the primary button at `pos` and releases it at `to`, moving in between (a click
/// when `to == pos`).
fn press_release(h: &mut Harness<'static, Workbench>, pos: egui::Pos2, to: egui::Pos2) {
    let button = |pos, pressed| egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: egui::Modifiers::NONE,
    };
    h.event(egui::Event::PointerMoved(pos));
    h.step();
    h.event(button(pos, true));
    h.step();
    for k in 1..=8 {
        if to != pos {
            h.event(egui::Event::PointerMoved(
                pos + (to - pos) * (k as f32 / 8.0),
            ));
        }
        h.step();
    }
    h.event(button(to, false));
    frames(h);
}

#[test]
fn the_edge_matching_editor_turns_fixes_paints_and_swaps_pieces() {
    let seed =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/edge-matching/seed-article-4x4.txt");
    let mut h = harness(Workbench::with_file(Some(&seed), Settings::default()));
    wait_for(&mut h, "the design facts", |wb| {
        wb.shared.current_facts().is_some()
    });
    frames(&mut h);
    let before = edge_matching(h.state()).clone();
    // Click piece 6 (second row, second cell in the layout) and turn it with R.
    let p = cell_point(h.state(), 1, 1, [0.0, 0.0]);
    press_release(&mut h, p, p);
    let editor = h
        .state()
        .puzzle
        .editors
        .get::<EdgeMatchingEditor>()
        .unwrap();
    assert_eq!(editor.selected, Some((1, 1)));
    h.key_press(egui::Key::R);
    frames(&mut h);
    assert_eq!(
        edge_matching(h.state()).pieces()[5],
        rotated(before.pieces()[5], 1)
    );
    // Piece 6 is a border piece lying inside the board (the layout is list order): fixed
    // there it would leave the board without a solution, so F refuses with the reason and
    // the instance stays as it was.
    h.key_press(egui::Key::F);
    frames(&mut h);
    assert!(edge_matching(h.state()).fixed().is_empty());
    assert!(
        h.state().shared.status.starts_with("not fixed: piece 6"),
        "{}",
        h.state().shared.status
    );
    // The facts line above the board appears when the new instance's facts are in, which
    // moves the board: wait for it before aiming at a triangle.
    wait_for(&mut h, "the design facts", |wb| {
        wb.shared.current_facts().is_some()
    });
    frames(&mut h);
    // Paint: pick colour 5 and click the top triangle of the piece at (0, 1).
    h.get_by_label("Paint").click();
    frames(&mut h);
    h.state_mut()
        .puzzle
        .editors
        .get_mut::<EdgeMatchingEditor>()
        .unwrap()
        .brush = 5;
    let top = cell_point(h.state(), 0, 1, [0.0, -0.35]);
    press_release(&mut h, top, top);
    assert_eq!(
        edge_matching(h.state()).pieces()[1][0],
        5,
        "piece 2's top side is now colour 5"
    );
    h.get_by_label("Paint").click();
    frames(&mut h);
    // Drag the piece at (3, 3) onto (3, 2): pieces 16 and 15 change places in the list.
    let (from, to) = (
        cell_point(h.state(), 3, 3, [0.0, 0.0]),
        cell_point(h.state(), 3, 2, [0.0, 0.0]),
    );
    press_release(&mut h, from, to);
    let now = edge_matching(h.state());
    assert_eq!(
        (now.pieces()[14], now.pieces()[15]),
        (before.pieces()[15], before.pieces()[14])
    );
    // Each piece keeps its number: the one now at (3, 2) is still piece 16.
    assert_eq!((now.number(14), now.number(15)), (16, 15));
    // Undo takes the swap back; three undos (the swap, the paint, the turn) restore the
    // instance.
    for _ in 0..3 {
        h.get_by_label("Undo").click();
        frames(&mut h);
    }
    assert_eq!(edge_matching(h.state()), &before);
    // "Solve classically": the design facts' solution is drawn and refereed as valid.
    wait_for(&mut h, "the design facts", |wb| {
        wb.shared.current_facts().is_some_and(|f| f.is_ok())
    });
    h.get_by_label("Show the classical solution").click();
    frames(&mut h);
    h.get_by_label("✔ valid solution");
}

#[test]
fn the_full_eternity_ii_runs_through_its_structure_in_the_workbench() {
    let e2 =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/edge-matching/official/eternity2.txt");
    let mut settings = Settings::default();
    set_param(&mut settings, "pt", "num_sweeps", serde_json::json!(2));
    set_param(&mut settings, "pt", "num_reads", serde_json::json!(4));
    set_param(&mut settings, "pt", "num_replicas", serde_json::json!(4));
    set_param(&mut settings, "pt", "seed", serde_json::json!(1));
    // An explicit β range skips measuring one (kept short for the test suite).
    set_param(
        &mut settings,
        "pt",
        "beta_range",
        serde_json::json!([0.5, 5.0]),
    );
    let mut h = harness(Workbench::with_file(Some(&e2), settings));
    wait_for(&mut h, "the design facts", |wb| {
        wb.shared.current_facts().is_some()
    });
    frames(&mut h);
    // No matrix to draw: the inspector says why. The classical search gives up, but the
    // perfect board's energy is known from the instance, so `auto` picks tempering, with
    // two-way moves on the structure.
    assert!(h.query_by_label_contains("no matrix to draw").is_some());
    assert!(h.state().inspector.is_ready());
    assert!(h.query_by_label_contains("auto → pt").is_some());
    run_to_end(&mut h, "the Eternity II run");
    let r = h.state().shared.result.as_ref().unwrap();
    assert_eq!(r.samples.info.sampler, "pt");
    assert_eq!(r.samples.info.params["kernel"], "grouped");
    assert_eq!(r.samples.info.params["moves"], "two-way");
    assert_eq!(r.num_reads(), 4);
    // The solver panel and the results say which groups the moves held.
    frames(&mut h);
    assert_eq!(
        h.query_all_by_label_contains("piece and cell groups held by two-way moves")
            .count(),
        2
    );
    // The best sample decodes to a board with a score, shown on the puzzle.
    let best = h
        .state()
        .shared
        .selected_solution()
        .cloned()
        .expect("a selected sample");
    let puzzle = h.state().shared.doc.puzzle().unwrap().clone();
    assert_eq!(puzzle.score(&best).unwrap().max, 480);
    // The model is too large to store, so no group is reported: the table's "broken" counts
    // the referee's mismatched joints instead of claiming 0.
    let r = h.state().shared.result.as_ref().unwrap();
    let row = &r.rows[0];
    assert!(!row.groups_reported);
    assert_eq!(row.broken_count(), row.violations.len());
    assert!(row.broken_count() > 0, "a random board has mismatches");
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

fn minesweeper(wb: &Workbench) -> &qubo_workbench::puzzle::minesweeper::Minesweeper {
    match wb.shared.doc.puzzle() {
        Some(AnyPuzzle::Minesweeper(p)) => p,
        _ => panic!("no Minesweeper position"),
    }
}

/// Screen centre of Minesweeper cell (r, c).
fn mine_cell(wb: &Workbench, k: usize) -> egui::Pos2 {
    let at = wb.puzzle.placement.expect("the canvas was laid out");
    let w = minesweeper(wb).width();
    let m = qubo_workbench::puzzle::minesweeper::DRAW_MARGIN;
    at.to_screen([m + (k % w) as f32 + 0.5, m + (k / w) as f32 + 0.5])
}

/// Waits for the design facts of the current position (they move the board when they
/// arrive), then lets the layout settle.
fn settle(h: &mut Harness<'static, Workbench>) {
    wait_for(h, "the design facts", |wb| {
        wb.shared.current_facts().is_some()
    });
    frames(h);
}

fn secondary_click(h: &mut Harness<'static, Workbench>, pos: egui::Pos2) {
    for pressed in [true, false] {
        h.event(egui::Event::PointerMoved(pos));
        h.event(egui::Event::PointerButton {
            pos,
            button: egui::PointerButton::Secondary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
        h.step();
    }
    frames(h);
}

#[test]
fn minesweeper_play_and_design_through_the_board() {
    use qubo_workbench::puzzle::minesweeper::{Cell, GameState};
    let f = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/minesweeper/small-5x5-b.txt");
    let mut h = harness(Workbench::with_file(Some(&f), Settings::default()));
    settle(&mut h);
    // The exact probabilities are drawn: the facts carry them and the board shows percents.
    assert!(
        h.state()
            .shared
            .current_facts()
            .unwrap()
            .unwrap()
            .probabilities
            .is_some()
    );
    let p = minesweeper(h.state()).clone();
    let layout = p.layout().unwrap().to_vec();
    let closed: Vec<usize> = (0..layout.len())
        .filter(|&k| p.cells()[k] == Cell::Unopened)
        .collect();
    let mine = *closed.iter().find(|&&k| layout[k]).unwrap();
    let safe = *closed.iter().find(|&&k| !layout[k]).unwrap();
    // Play: a right click flags, a click opens a safe cell.
    let at = mine_cell(h.state(), mine);
    secondary_click(&mut h, at);
    assert_eq!(minesweeper(h.state()).cells()[mine], Cell::Flagged);
    settle(&mut h);
    h.get_by_label_contains("3 mines left");
    let at = mine_cell(h.state(), safe);
    press_release(&mut h, at, at);
    assert!(matches!(
        minesweeper(h.state()).cells()[safe],
        Cell::Opened(_)
    ));
    settle(&mut h);
    // Unflag the mine and open it: the game is lost, and says so.
    let at = mine_cell(h.state(), mine);
    secondary_click(&mut h, at);
    settle(&mut h);
    let at = mine_cell(h.state(), mine);
    press_release(&mut h, at, at);
    assert!(matches!(minesweeper(h.state()).game_state(), GameState::Lost(k) if k == mine));
    settle(&mut h);
    h.get_by_label_contains("Lost after");
    // Undo brings the game back; Design: a click closes an opened cell, a right click puts a mine.
    h.state_mut().shared.send(Command::Undo);
    frames(&mut h);
    settle(&mut h);
    h.get_by_label("Design").click();
    frames(&mut h);
    let editor = h.state().puzzle.editors.get::<MinesweeperEditor>().unwrap();
    assert_eq!(editor.mode, MinesweeperMode::Design);
    let at = mine_cell(h.state(), safe);
    press_release(&mut h, at, at);
    assert_eq!(minesweeper(h.state()).cells()[safe], Cell::Unopened);
    settle(&mut h);
    let before = minesweeper(h.state()).mines();
    let at = mine_cell(h.state(), safe);
    secondary_click(&mut h, at);
    assert_eq!(minesweeper(h.state()).mines(), before + 1);
    assert!(minesweeper(h.state()).layout().unwrap()[safe]);
    settle(&mut h);
    // New game: a fresh board of the same size, nothing lost.
    h.get_by_label("New game").click();
    settle(&mut h);
    let fresh = minesweeper(h.state());
    assert_eq!((fresh.width(), fresh.height()), (5, 5));
    assert_eq!(fresh.game_state(), GameState::Playing);
    assert!(fresh.is_undealt(), "the mines wait for the first click");
    // Play again: the first click, wherever it lands, is safe.
    h.get_by_label("Play").click();
    frames(&mut h);
    let at = mine_cell(h.state(), 0);
    press_release(&mut h, at, at);
    let dealt = minesweeper(h.state());
    assert!(matches!(dealt.cells()[0], Cell::Opened(_)));
    assert!(!dealt.layout().unwrap()[0]);
    assert_ne!(dealt.game_state(), GameState::Lost(0));
}

fn numberlink(wb: &Workbench) -> &qubo_workbench::puzzle::numberlink::Numberlink {
    match wb.shared.doc.puzzle() {
        Some(AnyPuzzle::Numberlink(p)) => p,
        _ => panic!("no Numberlink instance"),
    }
}

/// Screen centre of Numberlink cell k.
fn link_cell(wb: &Workbench, k: usize) -> egui::Pos2 {
    let at = wb.puzzle.placement.expect("the canvas was laid out");
    at.to_screen(qubo_workbench::puzzle::numberlink::draw::centre(
        numberlink(wb),
        k,
    ))
}

/// Presses at cell `cells[0]`, moves through the others, releases on the last.
fn drag_through(h: &mut Harness<'static, Workbench>, cells: &[usize]) {
    let at = |h: &Harness<'static, Workbench>, k| link_cell(h.state(), k);
    let start = at(h, cells[0]);
    h.event(egui::Event::PointerMoved(start));
    h.step();
    h.event(egui::Event::PointerButton {
        pos: start,
        button: egui::PointerButton::Primary,
        pressed: true,
        modifiers: egui::Modifiers::NONE,
    });
    h.step();
    for &k in cells {
        let to = at(h, k);
        for _ in 0..3 {
            h.event(egui::Event::PointerMoved(to));
            h.step();
        }
    }
    let end = at(h, *cells.last().unwrap());
    h.event(egui::Event::PointerButton {
        pos: end,
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: egui::Modifiers::NONE,
    });
    frames(h);
}

#[test]
fn numberlink_pairs_are_placed_drawn_and_solved() {
    use qubo_workbench::puzzle::Puzzle;
    use qubo_workbench::puzzle::numberlink::{Numberlink, NumberlinkSolution};
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("blank.txt");
    std::fs::write(&f, "3 2\n...\n...\n").unwrap();
    let mut h = harness(Workbench::with_file(Some(&f), Settings::default()));
    settle(&mut h);
    // Two clicks on empty cells make a pair; two more another.
    for k in [0, 2, 3, 5] {
        let at = link_cell(h.state(), k);
        press_release(&mut h, at, at);
        settle(&mut h);
    }
    let p = numberlink(h.state()).clone();
    assert_eq!(p.num_pairs(), 2);
    assert_eq!(p.endpoints(), &[1, 0, 1, 2, 0, 2]);
    // Drawing pair 1's path along the top row: the entries are refereed (pair 2 not joined).
    drag_through(&mut h, &[0, 1, 2]);
    let editor = h.state().puzzle.editors.get::<NumberlinkEditor>().unwrap();
    let drawn = editor.drawn.clone().expect("a drawing");
    assert_eq!((drawn.right[0], drawn.right[1]), (1, 1));
    let v = p.check(&drawn);
    assert!(v.iter().any(|v| v.constraint == "pair[2]"), "{v:?}");
    drag_through(&mut h, &[3, 4, 5]);
    let drawn = h
        .state()
        .puzzle
        .editors
        .get::<NumberlinkEditor>()
        .unwrap()
        .drawn
        .clone()
        .unwrap();
    assert!(p.check(&drawn).is_empty(), "the drawn answer is valid");
    // Numberlink presolves by default; unticking shows the full model.
    assert!(h.state().shared.doc.options.presolve);
    wait_for_model(&mut h);
    let presolved = h
        .state()
        .shared
        .doc
        .encoding
        .as_ref()
        .unwrap()
        .num_variables();
    h.get_by_label("presolve (drop what the givens decide)")
        .click();
    frames(&mut h);
    assert!(!h.state().shared.doc.options.presolve);
    wait_for_model(&mut h);
    let full = h
        .state()
        .shared
        .doc
        .encoding
        .as_ref()
        .unwrap()
        .num_variables();
    assert!(full > presolved, "{full} > {presolved}");
    // The solver panel offers the formulations; the exact sampler solves the seed's one too.
    choose_sampler(&mut h, "exact");
    h.get_by_label("formulation").click();
    frames(&mut h);
    // "seed" is also the sampler's seed field: the popup's entry is the first one.
    h.get_all_by_label("seed").next().unwrap().click();
    frames(&mut h);
    assert_eq!(
        h.state().shared.doc.options.formulation.as_deref(),
        Some("seed")
    );
    assert!(
        h.state()
            .shared
            .doc
            .encoding
            .as_ref()
            .unwrap()
            .weight_names()
            .contains(&"pairing")
    );
    run_to_end(&mut h, "the exact run");
    assert_eq!(
        h.state().shared.result.as_ref().unwrap().rows[0].valid,
        Some(true)
    );
    // A right click on an endpoint removes its pair.
    let at = link_cell(h.state(), 5);
    secondary_click(&mut h, at);
    assert_eq!(numberlink(h.state()).num_pairs(), 1);
    // A manual cut round: a loop's cut joins the model, and can be cleared again.
    let grid = Numberlink::parse_text(
        "rule no-fill\n3 3\nA.A\n...\n...\n",
        "t",
        &Default::default(),
    )
    .unwrap()
    .remove(0)
    .puzzle;
    let mut ring = NumberlinkSolution::empty(9);
    for (x, y) in [(3, 4), (4, 7), (7, 6), (6, 3)] {
        ring.set(&grid, x, y, 1);
    }
    let cuts = grid.cuts(&ring);
    assert_eq!(cuts.len(), 1);
    h.state_mut()
        .shared
        .doc
        .replace(AnyPuzzle::Numberlink(grid))
        .unwrap();
    frames(&mut h);
    let n = h
        .state()
        .shared
        .doc
        .encoding
        .as_ref()
        .unwrap()
        .num_variables();
    h.state_mut().shared.doc.add_cuts(cuts);
    h.state_mut().shared.doc.wait_for_model();
    let enc = h.state().shared.doc.encoding.clone().unwrap();
    assert!(enc.num_variables() > n, "the cut's slack joins the model");
    assert!((0..enc.num_groups()).any(|g| enc.group_label(g) == "cut#0"));
    h.state_mut().shared.doc.clear_cuts();
    h.state_mut().shared.doc.wait_for_model();
    let enc = h.state().shared.doc.encoding.clone().unwrap();
    assert_eq!(enc.num_variables(), n);
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

/// A dwave.conf holding the fake's token, so the test needs nothing from the environment.
fn dwave_conf(dir: &Path, token: &str) -> PathBuf {
    let path = dir.join("dwave.conf");
    std::fs::write(&path, format!("[defaults]\ntoken = {token}\n")).unwrap();
    path
}

#[test]
fn the_remote_section_lists_solvers_runs_a_hybrid_job_and_resumes_one_left_over() {
    use qubo_workbench::remote::fake_sapi::{FakeSapi, Faults, example_solvers};
    let token = "GUI-0123456789abcdef0123456789";
    let fake = FakeSapi::start(token, example_solvers()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let conf = dwave_conf(dir.path(), token);
    let mut settings = Settings {
        sampler: "dwave-hybrid".into(),
        ..Default::default()
    };
    set_param(
        &mut settings,
        "dwave-hybrid",
        "endpoint",
        fake.base_url.clone().into(),
    );
    set_param(
        &mut settings,
        "dwave-hybrid",
        "config_file",
        conf.display().to_string().into(),
    );
    let mut h = open(Some(&puzzle("euler96_g1.txt")), settings);
    h.get_by_label("presolve (drop what the givens decide)")
        .click();
    frames(&mut h);
    // The account: the token is present, and where it came from, never its value.
    assert!(h.query_by_label_contains("token: present").is_some());
    assert!(h.query_by_label_contains("0123456789abcdef").is_none());
    // The service's solvers; a click picks the hybrid one.
    h.get_by_label("List solvers").click();
    wait_for(&mut h, "the solver list", |wb| {
        wb.solver.remote.solvers.is_some()
    });
    assert!(h.query_by_label("Advantage_system_mock").is_some());
    // Each solver's topology and size.
    assert!(
        h.query_by_label("Pegasus P16 · 5572 working qubits")
            .is_some()
    );
    assert!(
        h.query_by_label("Zephyr Z(12, 4) · 4780 working qubits")
            .is_some()
    );
    h.get_by_label("hybrid_binary_quadratic_model_version2")
        .click();
    frames(&mut h);
    assert_eq!(
        h.state().shared.settings.sampler_params("dwave-hybrid")["solver"],
        "hybrid_binary_quadratic_model_version2"
    );
    assert!(
        h.query_by_label_contains("cost: 3 s of solver time")
            .is_some()
    );
    // A run: uploaded, solved on the fake, the details shown with the results.
    run_to_end(&mut h, "the hybrid run");
    let r = h.state().shared.result.as_ref().unwrap();
    assert_eq!(r.samples.info.sampler, "dwave-hybrid");
    assert!(r.success_fraction().unwrap() > 0.0);
    assert!(h.query_by_label_contains("problem_id fake-").is_some());
    assert!(h.state().shared.settings.pending_remote_job.is_none());
    // A long job: its id is remembered as soon as it is submitted…
    fake.set_faults(Faults {
        polls_before_done: 1_000_000,
        ..Default::default()
    });
    h.get_by_label("Run").click();
    wait_for(&mut h, "the job to be remembered", |wb| {
        wb.shared.settings.pending_remote_job.is_some()
    });
    let kept = h.state().shared.settings.clone();
    let id = kept.pending_remote_job.clone().unwrap().problem_id;
    drop(h);
    // …so a window opened later offers it, and Resume waits for it without submitting again.
    fake.complete_all();
    let submits = |fake: &FakeSapi| {
        fake.seen()
            .iter()
            .filter(|r| r.method == "POST" && r.path.ends_with("/problems/"))
            .count()
    };
    let before = submits(&fake);
    let mut h = open(Some(&puzzle("euler96_g1.txt")), kept);
    h.get_by_label("presolve (drop what the givens decide)")
        .click();
    frames(&mut h);
    assert!(
        h.query_by_label_contains(&format!("problem {id}"))
            .is_some()
    );
    // A resume that meets a failing server keeps the job: it can still be resumed or
    // cancelled (it used to be forgotten).
    fake.set_faults(Faults {
        drop_connection: true,
        ..Default::default()
    });
    h.get_by_label("Resume").click();
    frames(&mut h);
    wait_for(&mut h, "the failed resume", |wb| !wb.is_running());
    assert!(
        h.state().shared.status.starts_with("sampling failed"),
        "{}",
        h.state().shared.status
    );
    assert_eq!(
        h.state()
            .shared
            .settings
            .pending_remote_job
            .as_ref()
            .map(|j| j.problem_id.clone()),
        Some(id.clone()),
        "the job is kept"
    );
    fake.set_faults(Faults::default());
    frames(&mut h);
    h.get_by_label("Resume").click();
    frames(&mut h);
    wait_for(&mut h, "the resumed job", |wb| {
        !wb.is_running() && wb.shared.result.is_some()
    });
    let wb = h.state();
    assert_eq!(
        wb.shared.result.as_ref().unwrap().samples.info.details["problem_id"],
        id.as_str()
    );
    assert!(wb.shared.settings.pending_remote_job.is_none());
    assert_eq!(submits(&fake), before, "nothing submitted twice");
    assert!(
        !wb.shared
            .settings
            .sampler_params("dwave-hybrid")
            .contains_key("problem_id"),
        "the next run submits anew"
    );
}

#[test]
fn the_digital_annealer_runs_from_the_solver_panel_with_its_key_from_a_file() {
    use qubo_workbench::remote::fake_da::FakeDa;
    let key = "GUIDA-0123456789abcdef0123";
    let fake = FakeDa::start(key).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let key_file = dir.path().join("da.key");
    std::fs::write(&key_file, format!("{key}\n")).unwrap();
    let mut settings = Settings {
        sampler: "fujitsu-da".into(),
        ..Default::default()
    };
    set_param(
        &mut settings,
        "fujitsu-da",
        "endpoint",
        fake.base_url.clone().into(),
    );
    set_param(
        &mut settings,
        "fujitsu-da",
        "key_file",
        key_file.display().to_string().into(),
    );
    set_param(&mut settings, "fujitsu-da", "poll_interval_s", 0.01.into());
    let mut h = open(Some(&puzzle("euler96_g1.txt")), settings);
    h.get_by_label("presolve (drop what the givens decide)")
        .click();
    frames(&mut h);
    assert!(h.query_by_label("key: present").is_some());
    assert!(
        h.query_by_label_contains("cost: 10 s of annealer time")
            .is_some()
    );
    run_to_end(&mut h, "the Digital Annealer run");
    let wb = h.state();
    let r = wb.shared.result.as_ref().unwrap();
    assert_eq!(r.samples.info.sampler, "fujitsu-da");
    assert!(r.success_fraction().unwrap() > 0.0);
    assert!(r.samples.info.details["job_id"].is_string());
    assert!(wb.shared.settings.pending_remote_job.is_none());
    assert_eq!(fake.num_jobs(), 0, "the result was deleted once read");
}

#[test]
fn a_qpu_run_from_the_solver_panel_embeds_by_clique_and_shows_what_the_chains_did() {
    use qubo_workbench::remote::fake_sapi::{FakeSapi, example_solvers};
    let token = "GUIQPU-0123456789abcdef0123";
    let fake = FakeSapi::start(token, example_solvers()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let conf = dwave_conf(dir.path(), token);
    let mut settings = Settings {
        sampler: "dwave-qpu".into(),
        ..Default::default()
    };
    for (name, value) in [
        ("endpoint", fake.base_url.clone().into()),
        ("config_file", conf.display().to_string().into()),
        ("embedding", "clique".into()),
        ("postprocess", "tabu".into()),
    ] {
        set_param(&mut settings, "dwave-qpu", name, value);
    }
    let mut h = open(Some(&puzzle("shidoku-6givens.txt")), settings);
    assert!(h.query_by_label_contains("token: present").is_some());
    assert!(h.query_by_label_contains("cost: about").is_some());
    run_to_end(&mut h, "the QPU run");
    let r = h.state().shared.result.as_ref().unwrap();
    assert_eq!(r.samples.info.sampler, "dwave-qpu");
    assert_eq!(r.samples.info.details["embedding"], "clique");
    assert!(r.success_fraction().unwrap() > 0.0);
    // The results panel says how the chains were made and how often they broke.
    assert!(h.query_by_label_contains("embedding clique").is_some());
    assert!(h.query_by_label_contains("chain_break_fraction").is_some());
}

#[test]
fn the_editor_estimates_the_qubo_paths_difficulty_on_request() {
    let mut h = open(Some(&puzzle("shidoku-6givens.txt")), Settings::default());
    wait_for(&mut h, "the design facts", |wb| {
        wb.shared.current_facts().is_some()
    });
    // The classical search's effort is always there.
    assert!(h.query_by_label_contains("search nodes").is_some());
    h.get_by_label("Estimate TTS99").click();
    wait_for(&mut h, "the estimate", |wb| wb.puzzle.difficulty.is_some());
    let (_, d) = h.state().puzzle.difficulty.clone().unwrap();
    let d = d.unwrap();
    assert!(d.tts99_s.unwrap() > 0.0 && !d.stopped_at_budget);
    assert!(h.query_by_label_contains("QUBO path: TTS99").is_some());
}

#[test]
fn every_kind_opens_from_the_new_menu_draws_and_runs() {
    use qubo_workbench::puzzle::Kind;
    for &kind in Kind::ALL {
        // A quick annealing run, whatever the kind: the contract is the path, not the answer.
        let mut settings = Settings {
            sampler: "sa".into(),
            ..Default::default()
        };
        set_param(&mut settings, "sa", "num_reads", serde_json::json!(8));
        set_param(&mut settings, "sa", "num_sweeps", serde_json::json!(100));
        set_param(&mut settings, "sa", "seed", serde_json::json!(1));
        let mut h = open(None, settings);
        h.get_by_label("File").click();
        frames(&mut h);
        h.get_by_label("New").click();
        frames(&mut h);
        h.get_by_label(&format!("{kind} example")).click();
        frames(&mut h);
        assert_eq!(
            h.state().shared.doc.puzzle().map(|p| p.kind()),
            Some(kind),
            "File ▸ New ▸ {kind} example opens it"
        );
        assert!(h.query_by_label("Puzzle canvas").is_some(), "{kind}: drawn");
        wait_for(&mut h, "the model", |wb| wb.shared.doc.model.is_some());
        run_to_end(&mut h, "the run");
        let r = h.state().shared.result.as_ref().unwrap();
        assert_eq!(r.samples.info.sampler, "sa", "{kind}");
        assert_eq!(r.samples.num_reads(), 8, "{kind}");
        assert!(h.state().shared.selected_solution().is_some(), "{kind}");
    }
}

#[test]
fn every_local_sampler_is_chosen_from_the_list_and_runs() {
    use qubo_workbench::samplers::SAMPLERS;
    for e in SAMPLERS.iter().filter(|e| e.is_local()) {
        // Small runs on the presolved 4×4 (16 variables): every sampler finishes quickly.
        let mut settings = Settings::default();
        for (name, value) in [
            ("num_reads", serde_json::json!(4)),
            ("seed", serde_json::json!(1)),
        ] {
            if e.params.iter().any(|p| p.name == name) {
                set_param(&mut settings, e.name, name, value);
            }
        }
        if let Some(effort) = e.effort {
            set_param(&mut settings, e.name, effort, serde_json::json!(50));
        }
        let mut h = open(Some(&puzzle("shidoku-6givens.txt")), settings);
        h.get_by_label("presolve (drop what the givens decide)")
            .click();
        frames(&mut h);
        choose_sampler(&mut h, e.name);
        wait_for(&mut h, "the model", |wb| wb.shared.doc.model.is_some());
        run_to_end(&mut h, "the run");
        let r = h.state().shared.result.as_ref().unwrap();
        assert_eq!(r.samples.info.sampler, e.name);
        assert!(!r.samples.rows.is_empty(), "{}: reads", e.name);
        assert!(!r.samples.info.cancelled, "{}", e.name);
    }
}

#[test]
fn with_auto_a_run_asked_for_before_the_design_facts_waits_for_them() {
    // `auto` chooses by whether a valid solution's energy is known: a Run pressed before the
    // design facts land starts when they do, so the choice never depends on timing.
    let mut settings = Settings::default();
    set_sa(&mut settings, "num_sweeps", serde_json::json!(50));
    settings.sampler = "auto".into();
    let mut h = open(Some(&puzzle("shidoku-6givens.txt")), settings);
    let s = &mut h.state_mut().shared;
    s.facts = None;
    s.facts_job = None;
    s.send(Command::Run);
    h.step();
    assert!(!h.state().is_running(), "waits for the facts");
    assert!(
        h.state().shared.status.contains("design facts"),
        "{}",
        h.state().shared.status
    );
    wait_for(&mut h, "the run after the facts", |wb| {
        !wb.is_running() && wb.shared.result.is_some()
    });
    assert!(h.state().shared.current_facts().is_some());
}

#[test]
fn edits_return_before_their_model_is_built_and_only_the_newest_build_lands() {
    let file = root().join("puzzles/numberlink/generated/10x10-10pairs-seed1.txt");
    let settings = Settings {
        sampler: "sa".into(),
        ..Default::default()
    };
    let mut h = open(Some(&file), settings);
    h.get_by_label("presolve (drop what the givens decide)")
        .click();
    frames(&mut h);
    let first = h.state().shared.doc.model.clone().expect("the first model");
    let version = h.state().shared.doc.version;
    let edit = |h: &mut Window, i: usize| {
        h.state_mut()
            .shared
            .doc
            .edit(|p| match p {
                AnyPuzzle::Numberlink(n) => n.remove_pair_at(i),
                _ => unreachable!("a Numberlink was opened"),
            })
            .unwrap();
    };
    // Two edits in a row: each returns at once, the window keeps the last model meanwhile.
    edit(&mut h, 0);
    assert!(
        !h.state().shared.doc.model_is_current(),
        "built off the UI thread"
    );
    edit(&mut h, 1);
    let wb = h.state();
    assert!(Arc::ptr_eq(wb.shared.doc.model.as_ref().unwrap(), &first));
    assert_eq!(wb.shared.doc.version, version, "nothing installed yet");
    // A frame is drawn while the build runs; Run now waits for the model.
    h.step();
    h.get_by_label("Run").click();
    h.step();
    wait_for(&mut h, "the run on the newest model", |wb| {
        !wb.is_running() && wb.shared.result.is_some()
    });
    // Only the newest request's model landed: the puzzle with two pairs removed.
    let wb = h.state();
    let want = wb
        .shared
        .doc
        .puzzle()
        .unwrap()
        .encode(&wb.shared.doc.options)
        .unwrap()
        .num_variables();
    let encoding = wb.shared.doc.encoding.as_ref().unwrap();
    assert_eq!(encoding.num_variables(), want);
    assert_eq!(
        wb.shared.result.as_ref().unwrap().samples.num_variables,
        want,
        "the queued run sampled the newest model"
    );
    assert!(wb.shared.doc.version > version);
}

#[test]
fn a_group_of_weight_zero_is_not_enforced_rather_than_broken() {
    // Minesweeper's mine_count weight is 0 by default: its slack bits are free, so reads
    // violate it, and the results must not call that broken.
    let mut settings = Settings {
        sampler: "sa".into(),
        ..Default::default()
    };
    set_param(&mut settings, "sa", "num_reads", serde_json::json!(32));
    set_param(&mut settings, "sa", "seed", serde_json::json!(4));
    let mut h = open(
        Some(&root().join("puzzles/minesweeper/small-5x5-a.txt")),
        settings,
    );
    assert_eq!(h.state().shared.doc.weight("mine_count"), Some(0.0));
    run_to_end(&mut h, "the run");
    let r = h.state().shared.result.as_ref().unwrap();
    assert!(
        r.rows
            .iter()
            .flat_map(|v| &v.broken)
            .all(|b| b.weight != "mine_count"),
        "a weight-0 group is never broken"
    );
    let row = r
        .rows
        .iter()
        .position(|v| v.unenforced.iter().any(|b| b.weight == "mine_count"))
        .expect("some read leaves the mine count free");
    h.state_mut().shared.selected_row = Some(row);
    frames(&mut h);
    assert!(
        h.query_by_label_contains("not enforced (weight 0)")
            .is_some()
    );
}

#[test]
fn export_image_works_without_a_native_dialog_through_the_workbench_form() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("shidoku.txt");
    std::fs::copy(puzzle("shidoku-6givens.txt"), &file).unwrap();
    let settings = Settings {
        builtin_file_dialog: true,
        ..Default::default()
    };
    let mut h = open(Some(&file), settings);
    let export = |h: &mut Window| {
        h.get_by_label("File").click();
        frames(h);
        h.get_by_label("Export image…").click();
        frames(h);
        // The picture's choices first, then the file.
        h.get_by_label("Choose file…").click();
        frames(h);
    };
    export(&mut h);
    // The form offers a name beside the document, with the image filters.
    let png = dir.path().join("shidoku.png");
    let form = h
        .state()
        .file_form
        .as_ref()
        .expect("the workbench's own form");
    assert_eq!(form.path, png.display().to_string());
    assert!(h.query_by_label_contains("*.png, *.svg").is_some());
    h.get_by_label("Save").click();
    frames(&mut h);
    assert!(h.state().file_form.is_none(), "closed");
    assert!(png_size(&png).0 > 0);
    assert_eq!(
        h.state().shared.status,
        format!("wrote {}", png.display()),
        "the status line says where the file went"
    );
    // Again: the file exists, so the form asks before overwriting it.
    std::fs::write(&png, b"old").unwrap();
    export(&mut h);
    h.get_by_label("Save").click();
    frames(&mut h);
    assert!(
        h.query_by_label_contains("press Save again to overwrite")
            .is_some()
    );
    assert_eq!(
        std::fs::read(&png).unwrap(),
        b"old",
        "not overwritten unasked"
    );
    h.get_by_label("Save").click();
    frames(&mut h);
    assert_ne!(
        std::fs::read(&png).unwrap(),
        b"old",
        "overwritten once confirmed"
    );
    assert!(png_size(&png).0 > 0);
    // A wrong extension is refused in the form, and Cancel says so.
    export(&mut h);
    h.state_mut().file_form.as_mut().unwrap().path = dir.path().join("x.txt").display().to_string();
    h.get_by_label("Save").click();
    frames(&mut h);
    assert!(
        h.query_by_label_contains("must end in .png, .svg")
            .is_some()
    );
    // (The solver panel has a Cancel too: the form is drawn last.)
    h.get_all_by_label("Cancel").last().unwrap().click();
    frames(&mut h);
    assert!(h.state().file_form.is_none());
    assert!(h.state().shared.status.contains("cancelled"));
}

#[test]
fn the_generator_form_aims_at_a_tts99_range_and_keeps_what_it_measured() {
    let mut h = open(None, Settings::default());
    let values = h.state_mut().puzzle.generator.entry("sudoku").or_default();
    values.insert("size".into(), serde_json::json!(4));
    values.insert("givens".into(), serde_json::json!(8));
    h.get_by_label("aim at a TTS99 of").click();
    frames(&mut h);
    assert!(h.state().puzzle.aim_tts99);
    h.state_mut().puzzle.tts99_range_s = [0.0, 30.0];
    let before = h.state().shared.doc.puzzle().cloned();
    h.get_by_label("Generate").click();
    frames(&mut h);
    wait_for(&mut h, "the aimed instance", |wb| {
        wb.shared.generating.is_none() && wb.shared.doc.puzzle().cloned() != before
    });
    let status = h.state().shared.status.clone();
    assert!(
        status.contains("TTS99 ") && status.contains("aimed at 0–30 s"),
        "{status}"
    );
    // Recent keeps the measurement with it, as the file's header comment, and opens again.
    let entry = h.state().shared.settings.recent_generated[0].clone();
    assert!(entry.text.starts_with("# TTS99 "), "{}", entry.text);
    assert!(entry.params.contains("aimed at 0–30 s"), "{}", entry.params);
    h.state_mut().shared.send(Command::OpenGenerated(0));
    frames(&mut h);
    assert!(
        h.state().shared.status.starts_with("opened again"),
        "{}",
        h.state().shared.status
    );
}

/// Where the puzzle canvas is on screen.
fn canvas_rect(h: &Harness<'static, Workbench>) -> egui::Rect {
    h.get_by_label("Puzzle canvas").rect()
}

/// Presses at `points[0]`, moves through the others (fixed screen points: if the board moved
/// under the pointer, the drag would land on other cells), releases on the last.
fn drag_fixed(h: &mut Harness<'static, Workbench>, points: &[egui::Pos2]) {
    let button = |pos, pressed| egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: egui::Modifiers::NONE,
    };
    h.event(egui::Event::PointerMoved(points[0]));
    h.step();
    h.event(button(points[0], true));
    h.step();
    for &p in points {
        for _ in 0..3 {
            h.event(egui::Event::PointerMoved(p));
            h.step();
        }
    }
    h.event(button(*points.last().unwrap(), false));
    frames(h);
}

/// The board never moves while the user works on it: across selecting, drawing, refereeing
/// and a run finishing, in every editor, the canvas keeps its rectangle.
#[test]
fn boards_stay_still_while_editing_refereeing_and_running() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // Numberlink: a drag from pair 1's endpoint (row 1, column 7) two cells left. Its screen
    // points are taken before the drag; nothing appearing above the board may move them.
    let mut h = harness(Workbench::with_file(
        Some(&root.join("puzzles/numberlink/generated/7x7-6pairs-seed1.txt")),
        Settings::default(),
    ));
    settle(&mut h);
    let before = canvas_rect(&h);
    let points: Vec<egui::Pos2> = [6, 5, 4].iter().map(|&k| link_cell(h.state(), k)).collect();
    drag_fixed(&mut h, &points);
    let drawn = h
        .state()
        .puzzle
        .editors
        .get::<NumberlinkEditor>()
        .unwrap()
        .drawn
        .clone()
        .expect("a drawing");
    assert_eq!(
        (drawn.right[4], drawn.right[5]),
        (1, 1),
        "the drag drew 6 → 5 → 4"
    );
    settle(&mut h);
    assert_eq!(
        canvas_rect(&h),
        before,
        "Numberlink: drawing moved the board"
    );
    run_to_end(&mut h, "the Numberlink run");
    frames(&mut h);
    assert_eq!(
        canvas_rect(&h),
        before,
        "Numberlink: a run finishing moved the board"
    );

    // Edge matching: select a piece (its tools appear), referee on and off.
    let mut h = harness(Workbench::with_file(
        Some(&root.join("puzzles/edge-matching/seed-article-4x4.txt")),
        Settings::default(),
    ));
    settle(&mut h);
    // The model's heatmap too: under a loaded machine it can land after the facts, and the
    // panels' text it brings moved the board by 0.1 px between `before` and the click.
    wait_for(&mut h, "the model's heatmap", |wb| wb.inspector.is_ready());
    frames(&mut h);
    let before = canvas_rect(&h);
    let at = cell_point(h.state(), 1, 1, [0.0, 0.0]);
    press_release(&mut h, at, at);
    assert!(
        h.query_by_label("Turn ⟳").is_some(),
        "the selection's tools"
    );
    assert_eq!(
        canvas_rect(&h),
        before,
        "edge matching: selecting moved the board"
    );
    for _ in 0..2 {
        h.get_by_label("Referee the layout").click();
        frames(&mut h);
        assert_eq!(
            canvas_rect(&h),
            before,
            "edge matching: refereeing moved the board"
        );
    }
    // A drag between screen points taken before it: the pieces at (3, 3) and (3, 2) swap (had
    // the board moved mid-drag, other pieces would have).
    let list = edge_matching(h.state()).pieces().to_vec();
    let (from, to) = (
        cell_point(h.state(), 3, 3, [0.0, 0.0]),
        cell_point(h.state(), 3, 2, [0.0, 0.0]),
    );
    press_release(&mut h, from, to);
    let now = edge_matching(h.state()).pieces().to_vec();
    assert_eq!(
        (now[14], now[15]),
        (list[15], list[14]),
        "the intended pieces swapped"
    );
    settle(&mut h);
    assert_eq!(
        canvas_rect(&h),
        before,
        "edge matching: a swap moved the board"
    );
    choose_sampler(&mut h, "sa");
    run_to_end(&mut h, "the edge-matching run");
    frames(&mut h);
    assert_eq!(
        canvas_rect(&h),
        before,
        "edge matching: a run finishing moved the board"
    );

    // Sudoku: a run finishing (its verdict appears under the board).
    let mut settings = Settings::default();
    set_sa(&mut settings, "num_sweeps", serde_json::json!(200));
    let mut h = open(Some(&puzzle("shidoku-6givens.txt")), settings);
    settle(&mut h);
    let before = canvas_rect(&h);
    choose_sampler(&mut h, "sa");
    run_to_end(&mut h, "the run");
    frames(&mut h);
    assert_eq!(
        canvas_rect(&h),
        before,
        "Sudoku: a run's verdict moved the board"
    );

    // Minesweeper: a move in play (the facts line changes length).
    let mut h = harness(Workbench::with_file(
        Some(&root.join("puzzles/minesweeper/small-5x5-b.txt")),
        Settings::default(),
    ));
    settle(&mut h);
    let before = canvas_rect(&h);
    let p = minesweeper(h.state()).clone();
    let layout = p.layout().unwrap().to_vec();
    let safe = (0..layout.len())
        .find(|&k| {
            !layout[k] && p.cells()[k] == qubo_workbench::puzzle::minesweeper::Cell::Unopened
        })
        .unwrap();
    let at = mine_cell(h.state(), safe);
    press_release(&mut h, at, at);
    settle(&mut h);
    assert_eq!(
        canvas_rect(&h),
        before,
        "Minesweeper: a move moved the board"
    );
    run_to_end(&mut h, "the Minesweeper run");
    frames(&mut h);
    assert_eq!(
        canvas_rect(&h),
        before,
        "Minesweeper: a run finishing moved the board"
    );
}

/// Half-done work reads as unfinished, not wrong: a path being drawn leaves empty cells and
/// unjoined pairs, counted calmly, and no conflict is claimed.
#[test]
fn a_half_drawn_numberlink_reads_as_unfinished_not_wrong_and_strokes_undo() {
    use qubo_workbench::puzzle::Puzzle;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut h = harness(Workbench::with_file(
        Some(&root.join("puzzles/numberlink/generated/7x7-6pairs-seed1.txt")),
        Settings::default(),
    ));
    settle(&mut h);
    drag_through(&mut h, &[6, 5, 4]);
    let p = numberlink(h.state()).clone();
    let drawn = h
        .state()
        .puzzle
        .editors
        .get::<NumberlinkEditor>()
        .unwrap()
        .drawn
        .clone()
        .unwrap();
    let v = p.check(&drawn);
    assert!(!v.is_empty() && v.iter().all(|v| p.unfinished(v)), "{v:?}");
    assert!(h.query_by_label_contains("unfinished: ").is_some());
    assert!(h.query_by_label_contains("conflict(s)").is_none());
    // A stroke is undoable like an edit, and redoable.
    let drawn_entries =
        |h: &Harness<'static, Workbench>| h.state().puzzle.editors.entries(&h.state().shared.doc);
    let stroke = drawn_entries(&h);
    assert!(stroke.is_some());
    assert!(h.state().shared.doc.can_undo());
    h.get_by_label("Undo").click();
    frames(&mut h);
    assert_eq!(drawn_entries(&h), None, "the stroke is undone");
    h.get_by_label("Redo").click();
    frames(&mut h);
    assert_eq!(drawn_entries(&h), stroke, "and redone");
    // Clearing the drawing is one step too.
    h.get_by_label("Clear drawing").click();
    frames(&mut h);
    assert_eq!(drawn_entries(&h), None);
    h.get_by_label("Undo").click();
    frames(&mut h);
    assert_eq!(drawn_entries(&h), stroke);
}

/// Export image… asks what the picture shows and how large it is, says the size in pixels, and
/// remembers the choices per kind; the file written is what the form said.
#[test]
fn export_image_form_chooses_content_and_size_and_remembers_them_per_kind() {
    use egui_kittest::kittest::NodeT;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("shidoku.txt");
    std::fs::copy(puzzle("shidoku-6givens.txt"), &file).unwrap();
    let settings = Settings {
        builtin_file_dialog: true,
        ..Default::default()
    };
    let mut h = open(Some(&file), settings);
    wait_for(&mut h, "the design facts", |wb| {
        wb.shared.current_facts().is_some()
    });
    let open_form = |h: &mut Window| {
        h.get_by_label("File").click();
        frames(h);
        h.get_by_label("Export image…").click();
        frames(h);
        assert!(h.state().export_form);
    };
    open_form(&mut h);
    // Shidoku: 4 cells + 2 × 0.2 margin = 4.4 units at 48 px.
    assert!(h.query_by_label_contains("PNG: 212 × 212 px").is_some());
    assert!(
        h.query_by_label_contains("solution: the exact solver's")
            .is_some()
    );
    h.get_by_label("width").click();
    frames(&mut h);
    h.state_mut()
        .shared
        .settings
        .pictures
        .get_mut("sudoku")
        .unwrap()
        .width_px = 1000;
    frames(&mut h);
    assert!(h.query_by_label_contains("PNG: 1000 × 1000 px").is_some());
    h.get_by_label("solution only").click();
    h.get_by_label("title line (name and score)").click();
    frames(&mut h);
    let titled = h
        .query_by_label_contains("PNG: 1000 × ")
        .unwrap()
        .accesskit_node()
        .value()
        .unwrap_or_default();
    assert!(
        !titled.contains("× 1000 px"),
        "the title adds a band: {titled}"
    );
    h.get_by_label("Choose file…").click();
    frames(&mut h);
    h.get_by_label("Save").click();
    frames(&mut h);
    let png = dir.path().join("shidoku.png");
    let (w, height) = png_size(&png);
    assert_eq!(w, 1000);
    assert!(titled.contains(&format!("× {height} px")), "{titled}");
    let chosen = h.state().shared.settings.pictures["sudoku"].clone();
    assert!(chosen.by_width);
    assert_eq!(chosen.content.show, Show::Solution);
    assert!(chosen.content.title);
    // Another kind keeps its own choices (the default size), and Sudoku's are kept.
    h.state_mut().shared.send(Command::New(Box::new(
        qubo_workbench::puzzle::Kind::Minesweeper.example(),
    )));
    frames(&mut h);
    open_form(&mut h);
    assert!(h.query_by_label_contains("PNG: 1000 × ").is_none());
    assert!(h.query_by_label_contains("minesweeper pictures").is_some());
    h.get_by_label("Close").click();
    frames(&mut h);
    assert!(!h.state().export_form);
    // The choices persist with the settings.
    let saved = serde_json::to_string(&h.state().shared.settings).unwrap();
    let back: Settings = serde_json::from_str(&saved).unwrap();
    assert_eq!(back.pictures["sudoku"], chosen);
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

/// Screen centre of a constrained model's variable cell `k`.
fn variable_cell(wb: &Workbench, k: usize) -> egui::Pos2 {
    let at = wb.puzzle.placement.expect("the canvas was laid out");
    let Some(AnyPuzzle::Constrained(m)) = wb.shared.doc.puzzle() else {
        panic!("no constrained model");
    };
    let l = qubo_workbench::puzzle::constrained::draw::layout(m.variables.len());
    let top = qubo_workbench::puzzle::constrained::draw::MARGIN + 1.0;
    at.to_screen([
        l.left + (k % l.cols) as f32 + 0.5,
        top + (k / l.cols) as f32 + 0.5,
    ])
}

fn primary_click(h: &mut Harness<'static, Workbench>, pos: egui::Pos2) {
    for pressed in [true, false] {
        h.event(egui::Event::PointerMoved(pos));
        h.event(egui::Event::PointerButton {
            pos,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
        h.step();
    }
    frames(h);
}

#[test]
fn a_constrained_model_opens_with_family_sliders_its_cells_flip_and_runs_report_the_objective() {
    let mut h = open(
        Some(&file("puzzles/constrained/knapsack-12.lp")),
        Settings::default(),
    );
    wait_for_model(&mut h);
    wait_for(&mut h, "the design facts", |wb| {
        wb.shared.current_facts().is_some()
    });
    let enc = h.state().shared.doc.encoding.clone().unwrap();
    assert_eq!(enc.weight_names(), ["capacity", "objective"]);
    // The sliders are the families' weights, named as in the model.
    assert!(h.query_all_by_label("capacity").count() >= 1);
    // Clicking a cell flips that variable in a trial assignment, refereed live.
    let pos = variable_cell(h.state(), 3);
    primary_click(&mut h, pos);
    let bits = &h
        .state()
        .puzzle
        .editors
        .get::<ConstrainedEditor>()
        .expect("the constrained model's editor")
        .bits;
    assert_eq!(bits.iter().map(|&b| b as usize).sum::<usize>(), 1);
    assert_eq!(bits[3], 1);
    // A run: feasibility and the objective per read; exact enumeration finds the optimum the
    // design facts' branch and bound proved.
    choose_sampler(&mut h, "exact");
    run_to_end(&mut h, "the exact run");
    let wb = h.state();
    let r = wb.shared.result.as_ref().unwrap();
    assert!(r.rows.iter().all(|v| v.objective.is_some()));
    let best = r.best_feasible_objective().expect("a feasible read");
    let facts = wb.shared.current_facts().unwrap().unwrap();
    let optimum = facts
        .facts
        .iter()
        .find(|(name, _)| name == "optimum")
        .and_then(|(_, v)| v.as_f64())
        .expect("the optimum is a design fact");
    assert_eq!(best.value, optimum);
    assert!(best.maximize);
    // is_satisfied per read and constraint: feasible exactly where all hold; the table's
    // "satisfied" column says how many.
    assert_eq!(r.constraint_labels, ["capacity"]);
    for v in &r.rows {
        assert_eq!(v.satisfied.len(), 1);
        assert_eq!(v.valid, Some(v.satisfied[0]));
    }
    assert!(h.query_all_by_label("satisfied").count() >= 1);
    assert!(h.query_all_by_label("1/1").count() >= 1);
}

#[test]
fn one_constraint_can_leave_its_family_for_a_slider_of_its_own() {
    let mut h = open(
        Some(&file("puzzles/constrained/colouring-8.lp")),
        Settings::default(),
    );
    wait_for_model(&mut h);
    let names = |h: &Window| -> Vec<String> {
        let enc = h.state().shared.doc.encoding.clone().unwrap();
        enc.weight_names().iter().map(|n| n.to_string()).collect()
    };
    assert_eq!(names(&h), ["node", "edge", "objective"]);
    // The toolbar's first constraint, node_0, gets its own weight: a fourth slider.
    h.get_by_label("own weight").click();
    frames(&mut h);
    wait_for_model(&mut h);
    assert_eq!(names(&h), ["node_0", "node", "edge", "objective"]);
    let Some(AnyPuzzle::Constrained(m)) = h.state().shared.doc.puzzle() else {
        panic!("a constrained model");
    };
    assert_eq!(m.constraints[0].weight.as_deref(), Some("node_0"));
    // It is an edit of the model: undo puts the constraint back in its family.
    h.get_by_label("Undo").click();
    frames(&mut h);
    wait_for_model(&mut h);
    assert_eq!(names(&h), ["node", "edge", "objective"]);
}

#[test]
fn suggest_weights_on_a_constrained_model_leaves_too_weak_a_penalty_and_aims_at_the_objective() {
    let mut settings = Settings::default();
    set_sa(&mut settings, "num_sweeps", serde_json::json!(100));
    set_sa(&mut settings, "seed", serde_json::json!(2));
    settings.sweep.num_reads = 30;
    settings.sweep.tune.budget = 20.0;
    let mut h = open(Some(&file("puzzles/constrained/knapsack-12.lp")), settings);
    wait_for_model(&mut h);
    // Too weak a capacity penalty: overweight knapsacks win.
    h.state_mut()
        .shared
        .doc
        .set_weight("capacity", 0.5)
        .unwrap();
    frames(&mut h);
    h.get_by_label("Suggest weights").click();
    h.step();
    wait_for(&mut h, "the suggestion", |wb| !wb.is_sweeping());
    let found = h.state().sweep.suggestion.clone().expect("a suggestion");
    assert!(found.path[0].penalty_too_weak, "{:?}", found.path[0]);
    assert!(!found.best.penalty_too_weak, "{:?}", found.best);
    assert!(found.best.maximize && found.best.best_feasible_objective.is_some());
    h.get_by_label("Use these").click();
    frames(&mut h);
    let doc = &h.state().shared.doc;
    for (name, value) in &found.best.weights {
        assert_eq!(doc.weight(name), Some(*value), "{name}");
    }
}

#[test]
fn a_sweep_of_a_constrained_model_draws_the_trade_off() {
    let mut settings = Settings::default();
    set_sa(&mut settings, "num_sweeps", serde_json::json!(200));
    set_sa(&mut settings, "seed", serde_json::json!(1));
    settings.sweep.setup.steps = 3;
    settings.sweep.setup.repeats = 1;
    settings.sweep.num_reads = 30;
    settings.sweep.from = 0.5;
    settings.sweep.to = 50.0;
    let mut h = open(Some(&file("puzzles/constrained/knapsack-12.lp")), settings);
    wait_for_model(&mut h);
    h.get_by_label("Run sweep").click();
    h.step();
    wait_for(&mut h, "the sweep", |wb| !wb.is_sweeping());
    let wb = h.state();
    assert_eq!(wb.shared.settings.sweep.weight, "capacity");
    let pts = &wb.sweep.points;
    assert_eq!(pts.len(), 3);
    // Every point with a feasible read knows its best feasible objective (maximised).
    assert!(
        pts.iter()
            .filter(|p| p.success_fraction > 0.0)
            .all(|p| p.best_feasible_objective.is_some() && p.maximize),
        "{pts:?}"
    );
    // The panel's "valid" draws the trade-off: the objective above the feasible share.
    let d = wb.sweep.plot_drawing("knapsack");
    assert!(
        d.texts()
            .any(|t| t.starts_with("Best feasible objective against capacity")),
        "{:?}",
        d.texts().collect::<Vec<_>>()
    );
    assert!(
        d.texts()
            .any(|t| t.starts_with("Feasible reads against capacity"))
    );
}

/// The solver panel's `hold` field: typing `cell,box` makes the moves line name Sudoku's
/// cells × box-digits, a run holds them, and a family the model lacks is said in the panel.
#[test]
fn typing_hold_changes_which_families_the_moves_keep() {
    let mut settings = Settings::default();
    set_sa(&mut settings, "moves", serde_json::json!("two-way"));
    set_param(&mut settings, "sa", "num_reads", serde_json::json!(4));
    set_param(&mut settings, "sa", "num_sweeps", serde_json::json!(2));
    let mut h = open(Some(&puzzle("shidoku-6givens.txt")), settings);
    wait_for_model(&mut h);
    frames(&mut h);
    assert!(
        h.query_by_label_contains("cell and row groups held by two-way moves")
            .is_some()
    );
    // The checkbox switches the parameter from auto to a text field.
    h.get_by_label("hold").click();
    frames(&mut h);
    let field = egui::accesskit::Role::TextInput;
    h.get_by_role(field).click();
    frames(&mut h);
    h.get_by_role(field).type_text("cell,blox");
    frames(&mut h);
    assert!(
        h.query_by_label_contains(
            "hold: the model has no family of exactly-one groups named 'blox'"
        )
        .is_some()
    );
    for _ in 0.."blox".len() {
        h.key_press(egui::Key::Backspace);
    }
    h.get_by_role(field).type_text("box");
    frames(&mut h);
    assert_eq!(
        h.state().shared.settings.sampler_params("sa").get("hold"),
        Some(&serde_json::json!("cell,box"))
    );
    assert!(
        h.query_by_label_contains("cell and box groups held by two-way moves")
            .is_some()
    );
    run_to_end(&mut h, "the run holding boxes");
    let r = h.state().shared.result.as_ref().unwrap();
    assert_eq!(
        r.samples.info.params["held_groups"],
        serde_json::json!(["cell", "box"])
    );
}

/// The sweep panel offers the solver panel's sampler's parameters as axes: choosing
/// num_sweeps starts it at a tenth to ten times its default in log steps, the sweep's points
/// carry the counts, and a click on a point sets that count in the solver panel.
#[test]
fn a_sweep_over_num_sweeps_from_the_panel_sets_the_sampler_on_a_click() {
    let mut settings = Settings::default();
    set_sa(&mut settings, "seed", serde_json::json!(1));
    settings.sweep.setup.steps = 3;
    settings.sweep.num_reads = 16;
    let mut h = open(Some(&puzzle("shidoku-6givens.txt")), settings);
    wait_for_model(&mut h);
    frames(&mut h);
    h.get_by_label("axis to sweep").click();
    frames(&mut h);
    h.get_by_label("num_sweeps (sa)").click();
    frames(&mut h);
    let sw = &h.state().shared.settings.sweep;
    assert_eq!(sw.param, "num_sweeps");
    assert_eq!((sw.from, sw.to, sw.log), (100.0, 10_000.0, true));
    // A word parameter lists its values instead of a range.
    h.get_by_label("axis to sweep").click();
    frames(&mut h);
    // The last entries of the list are below its fold: scrolled to, as a user would.
    h.get_by_label("moves (sa)").scroll_to_me();
    frames(&mut h);
    h.get_by_label("moves (sa)").click();
    frames(&mut h);
    assert_eq!(h.state().shared.settings.sweep.param, "moves");
    assert!(
        h.query_by_label_contains("every value: auto, flip")
            .is_some()
    );
    h.get_by_label("axis to sweep").click();
    frames(&mut h);
    h.get_by_label("num_sweeps (sa)").click();
    frames(&mut h);
    // Kept short for the test suite.
    h.state_mut().shared.settings.sweep.from = 2.0;
    h.state_mut().shared.settings.sweep.to = 200.0;
    frames(&mut h);
    h.get_by_label("Run sweep").click();
    h.step();
    wait_for(&mut h, "the sweep", |wb| !wb.is_sweeping());
    let counts: Vec<serde_json::Value> = h
        .state()
        .sweep
        .points
        .iter()
        .map(|p| p.params["num_sweeps"].clone())
        .collect();
    assert_eq!(counts, [2, 20, 200].map(|c| serde_json::json!(c)));
    h.get_by_label("sweep plot").scroll_to_me();
    frames(&mut h);
    h.get_by_label("sweep plot").click();
    frames(&mut h);
    assert_eq!(
        h.state()
            .shared
            .settings
            .sampler_params("sa")
            .get("num_sweeps"),
        Some(&serde_json::json!(20))
    );
    let status = &h.state().shared.status;
    assert!(status.starts_with("set sa num_sweeps = 20"), "{status}");
}

/// File ▸ Open campaign table: a campaign written by the CLI opens in its window with its
/// rows, instances and axis; the scaling chart is a click away; *Save plot* writes it.
#[test]
fn a_campaign_table_opens_in_its_window_and_its_plot_saves() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("c");
    let out = run(&[
        "campaign",
        puzzle("shidoku-6givens.txt").to_str().unwrap(),
        "--out",
        folder.to_str().unwrap(),
        "--sampler",
        "sa",
        "--sampler-param",
        "num_sweeps",
        "--values",
        "4,16,64",
        "--repeats",
        "2",
        "--num-reads",
        "10",
        "--seed",
        "1",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let mut h = open(None, Settings::default());
    h.state_mut().shared.send(Command::File(
        FileAction::OpenCampaign,
        folder.join("campaign.json"),
    ));
    frames(&mut h);
    assert!(h.state().campaign.open);
    assert!(
        h.query_by_label_contains("3 rows: 1 instances, axis num_sweeps")
            .is_some()
    );
    assert!(h.query_by_label("campaign plot").is_some());
    h.get_by_label("scaling").click();
    frames(&mut h);
    assert_eq!(
        h.state().campaign.chart,
        qubo_workbench::gui::panels::CampaignChart::Scaling
    );
    let png = dir.path().join("scaling.png");
    h.state_mut()
        .shared
        .send(Command::File(FileAction::ExportCampaignPlot, png.clone()));
    wait_for(&mut h, "the plot's file", |wb| wb.shared.files.is_empty());
    assert!(png_size(&png).0 > 100);
    // Not a campaign table: said, and nothing opens.
    let mut h = open(None, Settings::default());
    h.state_mut().shared.send(Command::File(
        FileAction::OpenCampaign,
        puzzle("shidoku-6givens.txt"),
    ));
    frames(&mut h);
    assert!(!h.state().campaign.open);
    assert!(
        h.state().shared.status.contains("not a campaign table"),
        "{}",
        h.state().shared.status
    );
}

/// The sweep panel's *Campaign*: num_sweeps over two 4×4 Sudokus generated by the puzzle
/// panel's form (seeds 3 and 4) into a folder; the table opens in the campaign window when it
/// is done, and the command line, given the folder's instances, finds every point in its
/// journal (the window and `campaign` share one path).
#[test]
fn a_small_campaign_starts_from_the_window_and_resumes_from_the_cli() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("c");
    let mut settings = Settings::default();
    set_sa(&mut settings, "seed", serde_json::json!(1));
    settings.sweep.setup.steps = 2;
    settings.sweep.setup.repeats = 2;
    settings.sweep.num_reads = 8;
    let mut h = open(Some(&puzzle("shidoku-6givens.txt")), settings);
    wait_for_model(&mut h);
    frames(&mut h);
    h.get_by_label("axis to sweep").click();
    frames(&mut h);
    h.get_by_label("num_sweeps (sa)").click();
    frames(&mut h);
    {
        let wb = h.state_mut();
        wb.shared.settings.sweep.from = 2.0;
        wb.shared.settings.sweep.to = 200.0;
        let mut form = serde_json::Map::new();
        form.insert("size".into(), serde_json::json!(4));
        form.insert("givens".into(), serde_json::json!(6));
        form.insert("seed".into(), serde_json::json!(3));
        wb.puzzle.generator.insert("sudoku", form);
        wb.campaign_form.count = 2;
        wb.campaign_form.folder = folder.display().to_string();
    }
    h.get_by_label("Campaign").scroll_to_me();
    frames(&mut h);
    h.get_by_label("Campaign").click();
    frames(&mut h);
    h.get_by_label("Run campaign").scroll_to_me();
    frames(&mut h);
    h.get_by_label("Run campaign").click();
    h.step();
    assert!(h.state().campaign_form.is_running());
    wait_for(&mut h, "the campaign", |wb| !wb.campaign_form.is_running());
    frames(&mut h);
    assert!(h.state().campaign.open, "{}", h.state().shared.status);
    assert_eq!(h.state().campaign_form.rows, 4);
    assert_eq!(h.state().campaign.rows.len(), 4);
    for seed in [3, 4] {
        let file = folder.join(format!("instances/sudoku-{seed}.txt"));
        assert!(file.is_file(), "{}", file.display());
    }
    for plot in ["tts.png", "scaling.png"] {
        assert!(png_size(&folder.join(plot)).0 > 100);
    }
    let out = run(&[
        "campaign",
        folder.join("instances").to_str().unwrap(),
        "--out",
        folder.to_str().unwrap(),
        "--sampler",
        "sa",
        "--sampler-param",
        "num_sweeps",
        "--values",
        "2,200",
        "--repeats",
        "2",
        "--num-reads",
        "8",
        "--seed",
        "1",
        "--no-presolve",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["measured"].as_u64(), v["kept_from_journal"].as_u64()),
        (Some(0), Some(4)),
        "{v}"
    );
}
