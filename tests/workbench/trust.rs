//! Trust at first use: what a new user meets in the first hour (issue "Trust at first use").
//! Nothing is overwritten or discarded unasked, the usual shortcuts work, the user's own
//! entries are never hidden under a sample, suggested file names are not doubled.

use crate::common::*;
use std::path::Path;

use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;
use qubo_workbench::gui::Command;
use qubo_workbench::gui::Workbench;
use qubo_workbench::gui::app::PanelsShown;
use qubo_workbench::gui::editors::SudokuEditor;
use qubo_workbench::gui::file_actions::FileAction;
use qubo_workbench::gui::settings::Settings;
use qubo_workbench::puzzle::AnyPuzzle;

const CTRL: Modifiers = Modifiers::COMMAND;

/// The window on a copy of a shipped puzzle (so no test can touch the shipped file), with the
/// workbench's own file form instead of a native dialog.
fn open_copy(dir: &Path, shipped: &str) -> (Window, std::path::PathBuf) {
    let copy = dir.join(Path::new(shipped).file_name().unwrap());
    std::fs::copy(puzzle(shipped), &copy).unwrap();
    let mut wb = Workbench::with_file(Some(&copy), Settings::default());
    wb.builtin_file_dialog = true;
    let mut h = harness(wb);
    frames(&mut h);
    (h, copy)
}

/// Types a digit into the centre cell of the Sudoku on show (a given: the document is dirty).
fn type_in_centre(h: &mut Window, digit: Key) {
    h.get_by_label("Puzzle canvas").click();
    frames(h);
    h.key_press(digit);
    frames(h);
}

#[test]
fn a_generated_puzzle_opens_as_a_new_unsaved_document_and_save_asks_where() {
    let dir = tempfile::tempdir().unwrap();
    let (mut h, file) = open_copy(dir.path(), "euler96_g1.txt");
    let original = std::fs::read_to_string(&file).unwrap();
    assert_eq!(h.state().shared.doc.path.as_deref(), Some(file.as_path()));
    h.get_by_label("Generate").click();
    frames(&mut h);
    wait_for(&mut h, "the generated puzzle", |wb| {
        wb.shared.generating.is_none() && wb.shared.doc.path.is_none()
    });
    let doc = &h.state().shared.doc;
    assert!(doc.dirty, "a generated instance is unsaved");
    assert!(
        doc.title().starts_with("generated 9×9 Sudoku"),
        "its own name: {}",
        doc.title()
    );
    assert!(
        h.state().shared.status.contains("a new document"),
        "{}",
        h.state().shared.status
    );
    // Ctrl+S on a document without a file asks where (the form), and never writes the file the
    // previous document came from.
    h.key_press_modifiers(CTRL, Key::S);
    frames(&mut h);
    let form = h.state().file_form.as_ref().expect("Save asks where");
    assert_eq!(form.action, FileAction::SaveAs);
    assert!(
        form.path.ends_with("generated-9x9-sudoku-28-givens.txt"),
        "suggested under its own name: {}",
        form.path
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), original);
}

#[test]
fn new_open_and_generate_over_unsaved_changes_ask_first() {
    let dir = tempfile::tempdir().unwrap();
    let (mut h, file) = open_copy(dir.path(), "euler96_g1.txt");
    type_in_centre(&mut h, Key::Num5);
    assert!(h.state().shared.doc.dirty);
    let edited = h.state().shared.doc.puzzle().unwrap().clone();

    // File ▸ New (Ctrl+N) over unsaved changes asks; "Keep editing" keeps them.
    h.key_press_modifiers(CTRL, Key::N);
    frames(&mut h);
    assert!(h.state().pending_replace.is_some(), "asked first");
    h.get_by_label("Keep editing").click();
    frames(&mut h);
    assert!(h.state().pending_replace.is_none());
    assert_eq!(
        h.state().shared.doc.puzzle(),
        Some(&edited),
        "nothing replaced"
    );
    assert!(h.state().shared.doc.dirty);

    // Open over unsaved changes: "Save, then go on" writes the edit to its file first.
    let other = puzzle("shidoku-6givens.txt");
    h.state_mut()
        .shared
        .send(Command::File(FileAction::OpenPuzzle, other.clone()));
    frames(&mut h);
    assert!(h.state().pending_replace.is_some(), "asked first");
    h.get_by_label("Save, then go on").click();
    frames(&mut h);
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        edited.to_text() + "\n",
        "saved before it was replaced"
    );
    assert_eq!(
        h.state().shared.doc.path.as_deref(),
        Some(other.as_path()),
        "then the other file opened"
    );

    // A generated puzzle landing over unsaved changes waits for the answer too; "Discard
    // changes" shows it.
    h.state_mut()
        .shared
        .doc
        .edit(|p| {
            let AnyPuzzle::Sudoku(s) = p else {
                panic!("a Sudoku")
            };
            let blank = (0..16).find(|&k| s.given(k / 4, k % 4) == 0).unwrap();
            s.set_given(blank / 4, blank % 4, 1)
        })
        .unwrap();
    frames(&mut h);
    assert!(h.state().shared.doc.has_unsaved_work());
    h.get_by_label("Generate").click();
    frames(&mut h);
    wait_for(&mut h, "the question", |wb| {
        wb.shared.generating.is_none() && wb.pending_replace.is_some()
    });
    assert!(h.state().shared.doc.path.is_some(), "not replaced yet");
    h.get_by_label("Discard changes").click();
    frames(&mut h);
    assert!(h.state().shared.doc.path.is_none());
    assert!(h.state().shared.doc.title().starts_with("generated"));
}

#[test]
fn the_usual_shortcuts_work_and_the_menus_show_them() {
    let dir = tempfile::tempdir().unwrap();
    let (mut h, _) = open_copy(dir.path(), "euler96_g1.txt");
    let centre = |h: &Window| given(h.state(), 4, 4);
    // The example's centre cell is blank; typing sets it.
    type_in_centre(&mut h, Key::Num5);
    assert_eq!(centre(&h), 5);
    // Ctrl+Z undoes, Ctrl+Shift+Z redoes (it used to undo again), Ctrl+Y redoes too.
    h.key_press_modifiers(CTRL, Key::Z);
    frames(&mut h);
    assert_eq!(centre(&h), 0);
    h.key_press_modifiers(CTRL.plus(Modifiers::SHIFT), Key::Z);
    frames(&mut h);
    assert_eq!(centre(&h), 5, "Ctrl+Shift+Z redoes");
    h.key_press_modifiers(CTRL, Key::Z);
    frames(&mut h);
    h.key_press_modifiers(CTRL, Key::Y);
    frames(&mut h);
    assert_eq!(centre(&h), 5, "Ctrl+Y redoes");
    // Ctrl+Shift+S: Save As; Ctrl+O: Open.
    h.key_press_modifiers(CTRL.plus(Modifiers::SHIFT), Key::S);
    frames(&mut h);
    assert_eq!(
        h.state().file_form.as_ref().map(|f| f.action),
        Some(FileAction::SaveAs)
    );
    h.state_mut().file_form = None;
    h.key_press_modifiers(CTRL, Key::O);
    frames(&mut h);
    assert_eq!(
        h.state().file_form.as_ref().map(|f| f.action),
        Some(FileAction::OpenPuzzle)
    );
    h.state_mut().file_form = None;
    // F5 runs, Escape cancels.
    let settings = &mut h.state_mut().shared.settings;
    settings.sampler = "sa".into();
    set_param(settings, "sa", "num_sweeps", serde_json::json!(100_000_000));
    frames(&mut h);
    h.key_press(Key::F5);
    frames(&mut h);
    assert!(h.state().is_running(), "F5 runs");
    h.key_press(Key::Escape);
    wait_for(&mut h, "the cancelled run", |wb| !wb.is_running());
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
    // Ctrl+Enter runs too.
    let runs = h.state().shared.samples_offered;
    set_param(
        &mut h.state_mut().shared.settings,
        "sa",
        "num_sweeps",
        serde_json::json!(100),
    );
    h.key_press_modifiers(CTRL, Key::Enter);
    frames(&mut h);
    wait_for(&mut h, "the run", |wb| {
        !wb.is_running() && wb.shared.samples_offered > runs
    });
    // The menus name them.
    h.get_by_label("File").click();
    frames(&mut h);
    assert!(h.query_by_label_contains("Ctrl+Shift+S").is_some());
    assert!(h.query_by_label_contains("Ctrl+O").is_some());
}

#[test]
fn an_edit_after_a_run_is_never_hidden_under_the_sample() {
    let mut h = open(Some(&puzzle("shidoku-6givens.txt")), Settings::default());
    h.get_by_label("presolve (drop what the givens decide)")
        .click();
    frames(&mut h);
    h.state_mut().shared.settings.sampler = "exact".into();
    frames(&mut h);
    run_to_end(&mut h, "the exact run");
    assert!(h.state().puzzle.show_sample, "the best sample is drawn");
    assert!(h.query_by_label_contains("valid solution").is_some());
    // A trial entry on the board: the sample overlay steps aside so the entry shows, with its
    // conflict (the verdict is of what is drawn: the user's board, not the sample).
    h.get_by_label("Typing sets givens").click();
    frames(&mut h);
    let (r, c) = (0..16)
        .map(|k| (k / 4, k % 4))
        .find(|&(r, c)| given(h.state(), r, c) == 0)
        .unwrap();
    let clash = (0..4).map(|k| given(h.state(), r, k)).find(|&d| d != 0);
    let clash = clash.unwrap_or_else(|| {
        (0..4)
            .map(|k| given(h.state(), k, c))
            .find(|&d| d != 0)
            .unwrap()
    });
    h.state_mut()
        .puzzle
        .editors
        .get_mut::<SudokuEditor>()
        .unwrap()
        .selected = Some((r, c));
    h.key_press(digit_key(clash));
    frames(&mut h);
    assert_eq!(given(h.state(), r, c), 0, "an entry, not a given");
    assert!(
        !h.state().puzzle.show_sample,
        "the overlay is off after an edit"
    );
    assert!(
        h.query_all_by_label_contains("conflict(s): digit")
            .next()
            .is_some(),
        "the entry's conflict is on show"
    );
    // Choosing a sample row puts the sample forward again.
    h.get_by_label("2").click();
    frames(&mut h);
    assert!(h.state().puzzle.show_sample);
}

fn given(wb: &Workbench, r: usize, c: usize) -> u8 {
    match wb.shared.doc.puzzle() {
        Some(AnyPuzzle::Sudoku(s)) => s.given(r, c),
        _ => panic!("no Sudoku"),
    }
}

fn digit_key(d: u8) -> Key {
    qubo_workbench::gui::editors::DIGIT_KEYS[usize::from(d) - 1]
}

#[test]
fn solve_says_how_many_reads_ran_and_why_it_stopped() {
    let file = puzzle("euler96_g1.txt");
    // By default a run with a target ends at its first read there: the answer comes at once,
    // and the report says so.
    let v = run_json(&["solve", "--json", "--seed", "3", file.to_str().unwrap()]);
    let report = &v["run"];
    assert_eq!(report["reads_requested"], 16, "{report}");
    assert_eq!(report["stopped"], "first_target", "{report}");
    assert!(report["reads"].as_u64().unwrap() >= 1, "{report}");
    assert_eq!(
        v["success_fraction"], 1.0,
        "only reads that had their chance count"
    );
    assert!(
        report["summary"].as_str().unwrap().contains("--all-reads"),
        "{report}"
    );
    // --all-reads: every read runs to the target (the default 60 s limit lifted: on a loaded
    // machine the sixteen ladders once took longer, and the test is about reads, not time).
    let v = run_json(&[
        "solve",
        "--json",
        "--seed",
        "3",
        "--all-reads",
        "--timeout-ms",
        "600000",
        file.to_str().unwrap(),
    ]);
    assert_eq!(v["run"]["reads"], 16, "{}", v["run"]);
    assert_eq!(v["run"]["stopped"], "target", "{}", v["run"]);
    // With --all-reads the first valid solution is said while the other reads go on: here
    // an unreachable target keeps the one ladder running for 1.5 s after it has a valid grid.
    let shidoku = puzzle("shidoku-6givens.txt");
    let long_run = [
        "solve",
        "--sampler",
        "pt",
        "--target-energy=-1000",
        "--timeout-ms",
        "1500",
        "--threads",
        "1",
        "--num-reads",
        "1",
        "--all-reads",
        shidoku.to_str().unwrap(),
    ];
    let out = run(&[&long_run[..], &["--json"]].concat());
    let v = stdout_json(&out);
    let line = stderr(&out)
        .lines()
        .find(|l| l.contains("first_valid"))
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .unwrap_or_else(|| panic!("no progress line: {}", stderr(&out)));
    let grid = line["solution"].as_str().unwrap().to_string();
    assert_eq!(grid.len(), 16, "{line}");
    for k in 0..4 {
        let row: std::collections::BTreeSet<char> = grid[4 * k..4 * k + 4].chars().collect();
        let col: std::collections::BTreeSet<char> =
            (0..4).map(|r| grid.as_bytes()[4 * r + k] as char).collect();
        assert_eq!((row.len(), col.len()), (4, 4), "{grid}");
    }
    assert!(
        line["after_s"].as_f64().unwrap() < v["timing"]["sample_s"].as_f64().unwrap(),
        "said before the run ended: {line} {}",
        v["timing"]
    );
    let out = run(&long_run);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.lines()
            .next()
            .is_some_and(|l| l.contains("first valid solution after")),
        "{text}"
    );
    // A time limit that cuts the run (the target out of reach): the text output says how many
    // reads of how many, and the first ladder still returns its best state.
    let out = run(&[
        "solve",
        "--sampler",
        "pt",
        "--target-energy=-1000",
        "--num-sweeps",
        "100000000",
        "--timeout-ms",
        "300",
        "--threads",
        "1",
        file.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}{}", stderr(&out));
    assert!(
        text.contains("1 of 16 reads: 1 ended by the 0.3 s time limit"),
        "{text}"
    );
    assert!(text.contains("15 not started"), "{text}");
    // Time flags carry their unit: the old unitless flag is refused with the new name.
    let out = run(&["solve", "--timeout", "600", file.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--timeout-ms"), "{}", stderr(&out));
}

#[test]
fn a_run_that_did_less_than_asked_says_so_in_the_window() {
    let mut settings = Settings {
        sampler: "pt".into(),
        ..Default::default()
    };
    set_param(
        &mut settings,
        "pt",
        "num_sweeps",
        serde_json::json!(100_000_000),
    );
    // Far more ladders than a tenth of a second can run, whatever the machine.
    set_param(&mut settings, "pt", "timeout_ms", serde_json::json!(100));
    set_param(&mut settings, "pt", "num_reads", serde_json::json!(32));
    let mut h = open(Some(&puzzle("euler96_g1.txt")), settings);
    run_to_end(&mut h, "the time-limited run");
    let report = h.state().shared.result.as_ref().unwrap().samples.report();
    assert!(report.reads >= 1 && report.reads < 32, "{report:?}");
    assert!(
        h.state().shared.status.contains("of 32 reads"),
        "{}",
        h.state().shared.status
    );
    assert!(
        h.query_all_by_label_contains("⚠")
            .any(|n| format!("{n:?}").contains("time limit")),
        "the results say why reads are missing"
    );
}

#[test]
fn runs_of_different_weights_are_never_overlaid_as_if_comparable() {
    let mut settings = Settings {
        sampler: "sa".into(),
        ..Default::default()
    };
    set_param(&mut settings, "sa", "num_reads", serde_json::json!(20));
    set_param(&mut settings, "sa", "num_sweeps", serde_json::json!(50));
    set_param(&mut settings, "sa", "seed", serde_json::json!(1));
    let mut h = open(Some(&puzzle("shidoku-6givens.txt")), settings);
    h.get_by_label("Run").click();
    wait_for(&mut h, "the first run", |wb| {
        !wb.is_running() && wb.shared.doc.runs.len() == 1
    });
    // Another weight: another model.
    h.get_by_role_and_label(egui::Role::Slider, "hint")
        .set_value_accesskit(7.5);
    frames(&mut h);
    h.get_by_label("Run").click();
    wait_for(&mut h, "the second run", |wb| {
        !wb.is_running() && wb.shared.doc.runs.len() == 2
    });
    h.get_by_label("Compare runs (2)").click();
    frames(&mut h);
    assert!(
        h.query_all_by_label_contains("2 different models")
            .next()
            .is_some(),
        "the overlay says the runs are of different models"
    );
    let texts: Vec<String> = h
        .state()
        .results
        .overlay
        .as_ref()
        .expect("the overlay is drawn")
        .texts()
        .map(str::to_string)
        .collect();
    assert!(
        texts.contains(&"each run's ground".to_string()),
        "{texts:?}"
    );
    // The table names each run's weights.
    assert!(h.query_by_label("weights").is_some());
    assert!(
        h.query_all_by_label_contains("hint 7.5").next().is_some(),
        "the second run's weights in its row"
    );
    // Chosen on purpose, the absolute axis still says the energies are not on one scale.
    h.get_by_label("energy").click();
    frames(&mut h);
    assert!(
        h.query_all_by_label_contains("not on one scale")
            .next()
            .is_some()
    );
    // The chart reads out what is under the pointer, and enlarges to reading size.
    let overlay = h.get_by_label("runs overlay").rect();
    let mut found = None;
    for k in 1..40 {
        let x = overlay.left() + overlay.width() * k as f32 / 40.0;
        h.hover_at(egui::pos2(x, overlay.center().y));
        h.step();
        h.step();
        if let Some(r) = h.state().results.readout.clone() {
            found = Some(r);
            break;
        }
    }
    let readout = found.expect("a read-out somewhere over the bars");
    assert!(
        readout.starts_with("energy ≈ ")
            && readout.contains("sa #2: ")
            && readout.contains(" valid, "),
        "{readout}"
    );
    assert_eq!(
        readout.lines().count(),
        3,
        "the energy, then each run: {readout}"
    );
    // The overlay is a live plot filling its column (from the heights toggle to the run
    // table), not a fixed picture scaled into it.
    let column_left = h
        .get_by_role_and_label(egui::accesskit::Role::Button, "shares")
        .rect()
        .left()
        - 60.0;
    // (The plot's legend names the runs too: the table's box is the rightmost.)
    let table_left = h
        .query_all_by_label("sa #2")
        .map(|n| n.rect().left())
        .fold(f32::MIN, f32::max);
    assert!(
        overlay.left() - column_left < 80.0 && table_left - overlay.right() < 90.0,
        "{overlay:?} between {column_left} and {table_left}"
    );
    h.get_by_label("Enlarge").click();
    frames(&mut h);
    let large = h.get_by_label("runs overlay, large").rect();
    assert!(
        large.width() > 2.0 * overlay.width(),
        "{large:?} against {overlay:?}"
    );
}

/// The window at a given size on `puzzle`, first frames drawn.
fn window_of_size(puzzle: AnyPuzzle, size: egui::Vec2, shown: PanelsShown) -> Window {
    use qubo_workbench::gui::document::Document;
    let mut wb = Workbench::new(Document::from_puzzle(puzzle, None), Settings::default());
    wb.shown = shown;
    let mut h = egui_kittest::Harness::builder()
        .with_size(size)
        .build_ui_state(
            |ui, wb: &mut Workbench| {
                wb.logic(ui.ctx());
                wb.ui(ui)
            },
            wb,
        );
    frames(&mut h);
    // Facts and the heatmap land on their own threads; a few more frames lay them out.
    wait_for(&mut h, "the design facts", |wb| !wb.facts_pending());
    for _ in 0..5 {
        h.step();
    }
    h
}

fn rect_of(h: &Window, label: &str) -> egui::Rect {
    h.get_by_label(label).rect()
}

#[test]
fn the_board_is_the_largest_thing_at_both_window_sizes_for_every_kind() {
    use qubo_workbench::puzzle::Kind;
    for size in [egui::vec2(1400.0, 900.0), egui::vec2(1024.0, 700.0)] {
        for &kind in Kind::ALL {
            let h = window_of_size(kind.example(), size, PanelsShown::default());
            let what = format!("{kind} at {}×{}", size.x, size.y);
            let board = rect_of(&h, "Puzzle canvas");
            let side = board.width().min(board.height());
            // The board takes a real share of the window, and more than the matrix beside it.
            assert!(side >= 0.3 * size.y, "{what}: the board is {board:?}");
            if let Some(heatmap) = h.state().inspector.view_rect {
                assert!(
                    heatmap.width() <= side + 0.5,
                    "{what}: the heatmap {heatmap:?} is larger than the board {board:?}"
                );
                assert!(!heatmap.intersects(board), "{what}: heatmap over the board");
            }
            // Nothing overlaps it: the results' tabs, the solver's Run, the menu bar.
            for other in ["Last run", "Run", "File"] {
                let r = rect_of(&h, other);
                assert!(
                    !r.intersects(board),
                    "{what}: {other} {r:?} overlaps the board {board:?}"
                );
            }
            assert!(board.max.x <= size.x && board.max.y <= size.y, "{what}");
        }
    }
}

#[test]
fn panels_hide_from_the_view_menu_and_the_board_takes_their_room() {
    let with = window_of_size(
        qubo_workbench::puzzle::Kind::ALL[0].example(),
        egui::vec2(1024.0, 700.0),
        PanelsShown::default(),
    );
    let board = rect_of(&with, "Puzzle canvas");
    let mut h = with;
    h.get_by_label("View").click();
    frames(&mut h);
    h.get_by_label("Board only").click();
    for _ in 0..30 {
        // The panels slide away.
        h.step();
    }
    frames(&mut h);
    assert_eq!(
        h.state().shown,
        PanelsShown {
            solver: false,
            inspector: false,
            results: false
        }
    );
    let alone = rect_of(&h, "Puzzle canvas");
    assert!(
        alone.width().min(alone.height()) > board.width().min(board.height()) * 1.3,
        "{alone:?} against {board:?}"
    );
    assert!(
        h.query_by_label("Run").is_none(),
        "the solver panel is hidden"
    );
}

#[test]
fn a_generator_aim_that_fits_nothing_says_so_in_one_line_with_the_figures_folded() {
    let mut h = open(None, Settings::default());
    let values = h.state_mut().puzzle.generator.entry("sudoku").or_default();
    values.insert("size".into(), serde_json::json!(4));
    values.insert("givens".into(), serde_json::json!(8));
    h.get_by_label("aim at a TTS99 of").click();
    frames(&mut h);
    // Far slower than any 4×4 Sudoku.
    h.state_mut().puzzle.tts99_range_s = [3000.0, 3600.0];
    h.get_by_label("Generate").click();
    frames(&mut h);
    wait_for(&mut h, "the generator to give up", |wb| {
        wb.shared.generating.is_none()
    });
    let status = h.state().shared.status.clone();
    assert!(!status.contains('\n'), "one line: {status}");
    assert!(
        status.contains("all 40 were faster than 3000 s") && status.contains("median"),
        "{status}"
    );
    let details = h.state().puzzle.generate_details.clone().unwrap();
    let figures = details.split(": ").nth(1).unwrap().split(", ").count();
    assert_eq!(figures, 40, "every try's figure: {details}");
    assert!(
        h.query_by_label("details of the last failed generation")
            .is_some()
    );
}

#[test]
fn the_aim_starts_around_the_open_puzzles_estimate() {
    let mut h = open(Some(&puzzle("shidoku-6givens.txt")), Settings::default());
    h.get_by_label("Estimate TTS99").click();
    frames(&mut h);
    wait_for(&mut h, "the estimate", |wb| {
        wb.puzzle
            .difficulty
            .as_ref()
            .is_some_and(|(_, d)| d.as_ref().is_ok_and(|d| d.tts99_s.is_some()))
    });
    let t = h
        .state()
        .puzzle
        .difficulty
        .as_ref()
        .unwrap()
        .1
        .as_ref()
        .unwrap()
        .tts99_s
        .unwrap();
    h.get_by_label("aim at a TTS99 of").click();
    frames(&mut h);
    let [lo, hi] = h.state().puzzle.tts99_range_s;
    assert!(lo <= t && t <= hi, "{lo}–{hi} around {t}");
    assert!(hi / lo.max(1e-9) <= 9.01, "{lo}–{hi}");
}

#[test]
fn the_workbench_file_form_lists_folders_offers_the_shipped_puzzles_and_completes_with_tab() {
    let mut wb = Workbench::with_file(None, Settings::default());
    wb.builtin_file_dialog = true;
    let mut h = harness(wb);
    frames(&mut h);
    h.key_press_modifiers(CTRL, Key::O);
    frames(&mut h);
    assert!(h.state().file_form.is_some());
    // The shipped puzzles are one click away; folders open with a click; a puzzle opens with a
    // click.
    h.get_by_label("Shipped puzzles").click();
    frames(&mut h);
    let sep = std::path::MAIN_SEPARATOR;
    h.get_by_label(&format!("sudoku{sep}")).click();
    frames(&mut h);
    assert!(
        h.state()
            .file_form
            .as_ref()
            .unwrap()
            .listing
            .files
            .contains(&"shidoku-6givens.txt".to_string())
    );
    h.get_by_label("shidoku-6givens.txt").click();
    frames(&mut h);
    assert!(h.state().file_form.is_none(), "chosen");
    assert!(
        h.state()
            .shared
            .doc
            .path
            .as_ref()
            .is_some_and(|p| p.ends_with("sudoku/shidoku-6givens.txt")),
        "{:?}",
        h.state().shared.doc.path
    );
    // Tab completes in the field (and keeps the focus there).
    h.key_press_modifiers(CTRL, Key::O);
    frames(&mut h);
    let folder = puzzle("shidoku-6givens.txt")
        .parent()
        .unwrap()
        .display()
        .to_string();
    h.state_mut().file_form.as_mut().unwrap().path = format!("{folder}{sep}shid");
    h.get_by_label("file path").click();
    frames(&mut h);
    h.key_press(Key::Tab);
    frames(&mut h);
    assert_eq!(
        h.state().file_form.as_ref().unwrap().path,
        format!("{folder}{sep}shidoku-6givens.txt")
    );
}

#[test]
fn an_impossible_fix_is_refused_with_the_reason_and_the_model_stays() {
    use qubo_workbench::gui::editors::EdgeMatchingEditor;
    let mut h = open(
        Some(
            &Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("puzzles/edge-matching/seed-article-4x4.txt"),
        ),
        Settings::default(),
    );
    // A corner piece dragged into the middle, then fixed there: its border sides would face
    // other pieces.
    let wb = h.state_mut();
    let editor = wb
        .puzzle
        .editors
        .get_mut::<EdgeMatchingEditor>()
        .expect("the edge-matching editor");
    assert_eq!(editor.swap(&mut wb.shared.doc, (0, 0), (1, 1)), None);
    frames(&mut h);
    let before = h.state().shared.doc.puzzle().unwrap().clone();
    let model = h.state().shared.doc.model.clone();
    assert!(model.is_some());
    let wb = h.state_mut();
    let editor = wb.puzzle.editors.get_mut::<EdgeMatchingEditor>().unwrap();
    let why = editor
        .toggle_fixed(&mut wb.shared.doc, 1, 1)
        .expect("a reason");
    assert!(why.starts_with("not fixed: piece"), "{why}");
    assert!(why.contains("impossible"), "{why}");
    frames(&mut h);
    assert_eq!(
        h.state().shared.doc.puzzle(),
        Some(&before),
        "nothing changed"
    );
    assert!(
        h.state().shared.doc.model.is_some(),
        "the model stays on show"
    );
    // A fix that fits is made (the first cell whose piece fits where it lies).
    let wb = h.state_mut();
    let editor = wb.puzzle.editors.get_mut::<EdgeMatchingEditor>().unwrap();
    let made = (0..16)
        .map(|k| {
            editor
                .toggle_fixed(&mut wb.shared.doc, k / 4, k % 4)
                .unwrap()
        })
        .find(|said| !said.starts_with("not fixed"));
    assert!(
        made.as_deref()
            .is_some_and(|m| m.contains(" fixed at row ")),
        "{made:?}"
    );
    assert_ne!(h.state().shared.doc.puzzle(), Some(&before));
}

#[test]
fn cut_rounds_report_the_last_rounds_reads_and_every_rounds_time() {
    // Without presolve and with few sweeps no read is valid, so loops become cuts and the
    // model is sampled again: the reads are the last round's, the time is every round's.
    // (`parallel` off: it prices the four-cell loops that make this board's cuts.)
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("puzzles/numberlink/generated/7x7-6pairs-seed1.txt");
    let args = [
        "solve",
        "--no-presolve",
        "--weight",
        "parallel=0",
        "--sampler",
        "sa",
        "--num-sweeps",
        "300",
        "--num-reads",
        "4",
        "--no-repair",
        "--seed",
        "1",
        "--threads",
        "1",
        file.to_str().unwrap(),
    ];
    let v = run_json(&[&args[..], &["--json"]].concat());
    let rounds = v["rounds"].as_u64().unwrap();
    assert!(rounds >= 2, "{v}");
    let out = run(&args);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!("4 reads in the last of {rounds} rounds, "))
            && text.contains(" s over all rounds;")
            && text.contains("\n  last round: 4 of 4 reads")
            && text.contains("the rounds share the sampler's time limit"),
        "{text}"
    );
}

#[test]
fn a_run_asked_for_while_a_file_opens_samples_that_files_model() {
    // `gui FILE --run`: the example is on show while FILE is read. The run waits for FILE
    // and samples its model (the Shidoku's 64 variables, not the example's 729).
    let shidoku = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/sudoku/shidoku-6givens.txt");
    let settings = Settings {
        sampler: "sa".into(),
        ..Default::default()
    };
    let mut wb = Workbench::with_file(Some(&shidoku), settings);
    wb.shared.send(Command::Run);
    let mut h = harness(wb);
    wait_for(&mut h, "the run on the opened file", |wb| {
        wb.shared.result.is_some() && !wb.is_running()
    });
    let wb = h.state();
    assert_eq!(wb.shared.doc.path.as_deref(), Some(shidoku.as_path()));
    let result = wb.shared.result.as_ref().unwrap();
    assert_eq!(
        result.version, wb.shared.doc.version,
        "{}",
        wb.shared.status
    );
    assert_eq!(
        result.outcome.samples.num_variables, 64,
        "{}",
        wb.shared.status
    );
    assert!(!result.outcome.samples.info.cancelled);
    // A file that cannot be opened: the run that waited for it is not started at all.
    let settings = Settings {
        sampler: "sa".into(),
        ..Default::default()
    };
    let mut wb = Workbench::with_file(Some(Path::new("/nonexistent/puzzle.txt")), settings);
    wb.shared.send(Command::Run);
    let mut h = harness(wb);
    wait_for(&mut h, "the open to fail", |wb| wb.shared.files.is_empty());
    frames(&mut h);
    let wb = h.state();
    assert!(wb.shared.result.is_none() && !wb.is_running());
    assert!(
        wb.shared.status.contains("was not started"),
        "{}",
        wb.shared.status
    );
}
