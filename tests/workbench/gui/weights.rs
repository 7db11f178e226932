//! Weights and sweeps: sliders, weight sweeps, suggested weights, constrained models, campaigns.

use super::*;

#[test]
fn a_weight_sweep_plots_points_and_a_click_can_set_the_weight() {
    let mut settings = Settings::default();
    set_sa(&mut settings, "num_sweeps", serde_json::json!(300));
    set_sa(&mut settings, "seed", serde_json::json!(1));
    settings.sweep.setup.steps = 3;
    settings.sweep.num_reads = 16;
    // A range is kept with the weight it was set for.
    settings.sweep.weight = "hint".into();
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
    // Where hint passes the rules' sum, the plot's mark (outside this 0…2, so not drawn) is
    // kept with the sweep.
    let kept = h.state().sweep.saved().unwrap();
    assert_eq!(
        kept.marks,
        [(4.0, "hint > cell + row + col + box".to_string())]
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
    // Below the panel's fold (the sliders' warning, hint 0.5 against 4, takes a line above).
    h.get_by_label("Use these").scroll_to_me();
    frames(&mut h);
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
    settings.sweep.weight = "capacity".into();
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

/// The sweep panel offers the solver panel's sampler's parameters as axes: choosing
/// num_sweeps starts it at a tenth to ten times its default in log steps, the sweep's points
/// carry the counts, and a click on a point sets that count in the solver panel.
#[test]
fn choosing_a_weight_to_sweep_starts_its_range_around_its_default() {
    let mut h = open(Some(&puzzle("euler96_g1.txt")), Settings::default());
    wait_for_model(&mut h);
    frames(&mut h);
    let range = |h: &Harness<'static, Workbench>| {
        let sw = &h.state().shared.settings.sweep;
        (sw.weight.clone(), sw.from, sw.to)
    };
    // First use: the kind's sweep weight over its own range, not the fresh settings' 0…4,
    // which stops below hint's default of 6.
    assert_eq!(range(&h), ("hint".to_string(), 0.0, 10.0));
    for (weight, to) in [("cell", 2.0), ("hint", 10.0)] {
        h.get_by_label("axis to sweep").click();
        frames(&mut h);
        // The list's entry: the solver panel's slider has the weight's name too.
        h.get_all_by_label(weight).last().unwrap().click();
        frames(&mut h);
        // From the slider's minimum to twice the default (hint: 6, within its slider's 10).
        assert_eq!(range(&h), (weight.to_string(), 0.0, to));
    }
    // Choosing the weight already chosen keeps a range the user set.
    h.state_mut().shared.settings.sweep.to = 7.0;
    h.get_by_label("axis to sweep").click();
    frames(&mut h);
    h.get_all_by_label("hint").last().unwrap().click();
    frames(&mut h);
    assert_eq!(range(&h), ("hint".to_string(), 0.0, 7.0));
}

#[test]
fn weights_that_break_an_encoders_condition_are_named_under_the_sliders() {
    let mut h = open(Some(&puzzle("euler96_g1.txt")), Settings::default());
    wait_for_model(&mut h);
    frames(&mut h);
    let warning = "hint > cell + row + col + box does not hold";
    assert!(
        h.query_by_label_contains(warning).is_none(),
        "defaults meet it"
    );
    // Raising a rule weight takes the sum to the hint's 6: a changed given becomes a trap.
    h.get_by_role_and_label(egui::Role::Slider, "row")
        .set_value_accesskit(3.0);
    wait_for_model(&mut h);
    frames(&mut h);
    assert!(
        h.query_by_label_contains(&format!("{warning} (6 against 6)"))
            .is_some()
    );
    h.get_by_role_and_label(egui::Role::Slider, "hint")
        .set_value_accesskit(8.0);
    wait_for_model(&mut h);
    frames(&mut h);
    assert!(
        h.query_by_label_contains(warning).is_none(),
        "raised past it"
    );
}

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
