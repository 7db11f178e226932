//! Runs from the solver panel: samplers chosen from the list, progress, cancel, results, repair.

use super::*;

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
    // Four groups' −1 each, and the default hint weight, 6.
    assert_eq!(hint_entry(h.state()), -1.0 - 1.0 - 1.0 - 1.0 - 6.0);
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
