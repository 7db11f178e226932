//! Files, exports and generators: reading and writing off the UI thread, autosave, images.

use super::*;

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
