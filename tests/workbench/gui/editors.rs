//! The boards' editors as a user drives them: typing, painting, dragging, refereeing.

use super::*;

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
